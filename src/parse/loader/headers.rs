//! Header lines: `key: value` (`events:`, `positions:`, `event:`, `summary:`,
//! `part:`, ...); some of them start a new part when they follow data.

use super::{DerivedDef, Loader, MAX_EVENTS};
use crate::parse::lines::{self, SubPos};
use crate::profile::Positions;

impl Loader<'_> {
    /// Whether a header line of `key` starts a new part where the part
    /// before has data (and may change what the lines after it mean).
    pub(in crate::parse) fn starts_part(key: &[u8]) -> bool {
        matches!(
            key,
            b"part" | b"pid" | b"thread" | b"positions" | b"events" | b"version"
        )
    }

    pub(super) fn header(&mut self, key: &[u8], value: &[u8]) {
        let text = || String::from_utf8_lossy(value).into_owned();
        if Self::starts_part(key) && self.part_has_data {
            self.finish_part();
            if key == b"version" {
                self.reset_section();
            }
        }
        match key {
            b"version" => {
                // Version 1 is the format this reader knows; callgrind_annotate
                // refuses any other. Read on, but say so.
                if value.trim_ascii() != b"1" {
                    self.warn(format!(
                        "`version: {}` is not the version this reader knows (1); read as version 1",
                        text().trim()
                    ));
                }
                self.profile.meta.version.get_or_insert_with(text);
            }
            b"creator" => {
                self.profile.meta.creator.get_or_insert_with(text);
            }
            b"cmd" => {
                self.profile.meta.cmd.get_or_insert_with(text);
                self.part.cmd = Some(text().into());
            }
            b"pid" | b"thread" | b"part" => match lines::number(value) {
                Ok((rest, n)) if rest.trim_ascii().is_empty() => {
                    let slot = match key {
                        b"pid" => &mut self.part.pid,
                        b"thread" => &mut self.part.thread,
                        _ => &mut self.part.number,
                    };
                    *slot = Some(n.value);
                }
                _ => self.error(format!(
                    "`{}:` needs a number, not `{}`",
                    String::from_utf8_lossy(key),
                    text()
                )),
            },
            b"desc" => self.part.desc.push(text()),
            b"positions" => self.positions(value),
            b"events" => self.events(value),
            b"event" => self.event(value),
            b"summary" | b"totals" => self.summary(key, value),
            _ => self.warn_once(key, "header", ':'),
        }
    }

    fn positions(&mut self, value: &[u8]) {
        let mut p = Positions {
            instr: false,
            bb: false,
            line: false,
        };
        for name in lines::names(value) {
            match name {
                b"instr" => p.instr = true,
                b"bb" => p.bb = true,
                b"line" => p.line = true,
                other => {
                    return self.error(format!(
                        "unknown position `{}` (expected instr, bb, line)",
                        String::from_utf8_lossy(other)
                    ));
                }
            }
        }
        if p.count() == 0 {
            p.line = true;
        }
        self.part.positions = p;
    }

    fn events(&mut self, value: &[u8]) {
        let names = lines::names(value).count();
        if names > MAX_EVENTS {
            self.warn(format!(
                "{names} events; only the first {MAX_EVENTS} are read (their counters too)"
            ));
        }
        let map: Vec<usize> = lines::names(value)
            .take(MAX_EVENTS)
            .map(|n| self.profile.events.raw_index(&String::from_utf8_lossy(n)))
            .collect();
        if map.is_empty() {
            self.empty_events_line.get_or_insert(self.line_no);
            return self.error("`events:` names no event".into());
        }
        for (k, &event) in map.iter().enumerate() {
            if map[..k].contains(&event) {
                let name = &self.profile.events.events[event].name;
                self.warn(format!(
                    "`events:` names {name} more than once: its columns are added together"
                ));
                break;
            }
        }
        self.part.event_map = map.into();
        self.events_declared = true;
    }

    /// `event: NAME [= FORMULA] [: LONG NAME]`.
    fn event(&mut self, value: &[u8]) {
        let name_end = value
            .iter()
            .position(|&b| b == b'=' || b == b':' || b == b' ' || b == b'\t')
            .unwrap_or(value.len());
        let name = String::from_utf8_lossy(&value[..name_end]).into_owned();
        let mut rest = value[name_end..].trim_ascii_start();
        if name.is_empty() {
            return self.error("`event:` without a name".into());
        }
        if let Some(expr) = rest.strip_prefix(b"=") {
            let end = expr.iter().position(|&b| b == b':').unwrap_or(expr.len());
            match lines::formula(&expr[..end]) {
                Some(terms) => self.derived.push(DerivedDef {
                    name: name.clone(),
                    formula: terms
                        .into_iter()
                        .map(|(f, n)| (f, String::from_utf8_lossy(n).into_owned()))
                        .collect(),
                    source: self.source_name.clone(),
                    line: self.line_no,
                }),
                None => {
                    return self.error(format!(
                        "cannot read the formula of event `{name}`: `{}`",
                        String::from_utf8_lossy(&expr[..end]).trim()
                    ));
                }
            }
            rest = &expr[end..];
        }
        if let Some(long) = rest.strip_prefix(b":") {
            let long = String::from_utf8_lossy(long.trim_ascii()).into_owned();
            self.long_names.push((name, long));
        }
    }

    fn summary(&mut self, key: &[u8], value: &[u8]) {
        let mut pos = [SubPos::Same; 3];
        let mut costs = Vec::new();
        if !self.events_declared {
            return self.error(format!(
                "`{}:` before `events:`",
                String::from_utf8_lossy(key)
            ));
        }
        match lines::cost_line(value, 0, &mut pos, &mut costs) {
            Ok(_) => {
                let width = self.part.width();
                let key_text = String::from_utf8_lossy(key);
                if costs.len() > width {
                    self.warn(format!(
                        "`{key_text}:` has {} values for {width} event(s); the extra ones are ignored",
                        costs.len()
                    ));
                    costs.truncate(width);
                } else if costs.len() < width && key == b"totals" {
                    self.warn(format!(
                        "`totals:` has {} values for {width} event(s); the others are not checked",
                        costs.len()
                    ));
                }
                if key == b"summary" {
                    self.part.summary = Some(costs);
                    self.part.summary_line = self.line_no;
                } else {
                    self.part.totals = Some(costs);
                    self.part.totals_line = self.line_no;
                }
            }
            Err(at) => self.error(format!(
                "cannot read `{}:` near `{}`",
                String::from_utf8_lossy(key),
                String::from_utf8_lossy(&at[..at.len().min(20)])
            )),
        }
    }
}
