//! Turning command-line words into model indexes, with errors that say what
//! the profile has.

use crate::profile::Profile;
use color_eyre::eyre::{Result, bail};

/// The column of event `name` (default: the first event).
pub fn event_index(profile: &Profile, name: Option<&str>) -> Result<usize> {
    let Some(name) = name else { return Ok(0) };
    match profile.events.index_of(name) {
        Some(i) => Ok(i),
        None => {
            let known: Vec<_> = profile
                .events
                .events
                .iter()
                .map(|e| e.name.as_str())
                .collect();
            bail!(
                "no event `{name}` in this profile (it has: {})",
                known.join(", ")
            )
        }
    }
}

/// Part flags for `--part N...` (1-based); all parts when none is given.
pub fn part_selection(profile: &Profile, parts: &[usize]) -> Result<Vec<bool>> {
    let n = profile.parts.len();
    if parts.is_empty() {
        return Ok(vec![true; n]);
    }
    let mut selected = vec![false; n];
    for &p in parts {
        if p == 0 || p > n {
            bail!("no part {p}: this profile has {n} part(s), numbered from 1");
        }
        selected[p - 1] = true;
    }
    Ok(selected)
}
