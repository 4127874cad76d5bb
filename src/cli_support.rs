//! Turning command-line words into model indexes, with errors that say what
//! the profile has.

use crate::profile::{FnId, Profile};

/// A command-line word the profile has no match for (exit status 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotInProfile(String);

impl NotInProfile {
    pub fn new(message: String) -> Self {
        NotInProfile(message)
    }
}

type Result<T> = std::result::Result<T, NotInProfile>;

macro_rules! bail {
    ($($arg:tt)*) => {
        return Err(NotInProfile(format!($($arg)*)))
    };
}

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

/// The index of event `name` among the events two compared profiles have
/// in common (default: the first).
pub fn common_event_index(
    comparison: &crate::analysis::diff::Comparison,
    name: Option<&str>,
) -> Result<usize> {
    let common: Vec<&str> = comparison.events.iter().map(|e| e.name.as_str()).collect();
    match name {
        None if common.is_empty() => bail!("the two profiles have no event in common"),
        None => Ok(0),
        Some(name) => match common.iter().position(|&e| e == name) {
            Some(i) => Ok(i),
            None => bail!(
                "no event `{name}` in both profiles (they have in common: {})",
                common.join(", ")
            ),
        },
    }
}

/// Why two profiles cannot be compared (`--base`; exit status 2). One
/// check for `report`, `annotate` and the browser, made before anything
/// is printed or the browser's screen opens.
#[derive(Debug, thiserror::Error)]
pub enum Incomparable {
    #[error(
        "standard input (`-`) is named on both sides of the comparison, and it can be read only once: save one side to a file"
    )]
    StdinTwice,
    #[error(
        "{base} and {new} have no event in common (base: {base_events}; new: {new_events}): nothing to compare"
    )]
    NoCommonEvent {
        base: String,
        new: String,
        base_events: String,
        new_events: String,
    },
}

/// Refuses standard input named on both sides (`--base - -`): the second
/// read would find it empty and call a valid profile "not a profile".
pub fn stdin_once(
    base: &[std::path::PathBuf],
    new: &[std::path::PathBuf],
) -> std::result::Result<(), Incomparable> {
    let stdin = |files: &[std::path::PathBuf]| files.iter().any(|f| f.as_os_str() == "-");
    if stdin(base) && stdin(new) {
        return Err(Incomparable::StdinTwice);
    }
    Ok(())
}

/// Refuses two profiles with no event in common: every change would be
/// zero, which is not what they measure.
pub fn comparable(base: &Profile, new: &Profile) -> std::result::Result<(), Incomparable> {
    let shares = new
        .events
        .events
        .iter()
        .any(|e| base.events.index_of(&e.name).is_some());
    if shares {
        return Ok(());
    }
    let files = |p: &Profile| p.loaded_sources().collect::<Vec<_>>().join(", ");
    let events = |p: &Profile| {
        let names: Vec<&str> = p.events.events.iter().map(|e| e.name.as_str()).collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(" ")
        }
    };
    Err(Incomparable::NoCommonEvent {
        base: files(base),
        new: files(new),
        base_events: events(base),
        new_events: events(new),
    })
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

/// The functions `names` select: exact name matches, or else every function
/// whose name contains the word.
pub fn functions_named(profile: &Profile, names: &[String]) -> Result<Vec<FnId>> {
    let all = || (0..profile.functions.len()).map(FnId::from_index);
    let mut out = Vec::new();
    for name in names {
        let mut found: Vec<FnId> = all().filter(|&f| profile.fn_name(f) == name).collect();
        if found.is_empty() {
            found = all()
                .filter(|&f| profile.fn_name(f).contains(name.as_str()))
                .collect();
        }
        if found.is_empty() {
            bail!("no function named `{name}` in this profile");
        }
        for f in found {
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    Ok(out)
}
