//! Our process and its ancestors as the system lists them (`/proc` on
//! Linux), for what the environment cannot tell: whether a shell with job
//! control is above us (`job`), which terminal multiplexer is nearest
//! (`multiplexer`). Process ids are as `/proc` gives them: 0 for one
//! outside our pid namespace (a container's outside).

/// A process: its parent, group, session and command name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proc {
    /// `None` at the root (init, or outside our namespace).
    pub parent: Option<i32>,
    pub group: i32,
    pub session: i32,
    /// The command name (`comm`: `bash`, `screen`, `tmux: server`).
    pub name: String,
}

/// The deepest walk up: ancestry is shallow, a loop would be a bug.
const DEEPEST: usize = 4096;

/// A process (`None`: ourselves), where it can be read.
pub fn read(pid: Option<i32>) -> Option<Proc> {
    let path = pid.map_or_else(
        || "/proc/self/stat".to_string(),
        |p| format!("/proc/{p}/stat"),
    );
    match std::fs::read_to_string(path) {
        Ok(stat) => parse_stat(&stat),
        Err(_) => without_proc(pid),
    }
}

/// The ancestors of `me`, nearest first; `None` for one that cannot be
/// read.
pub fn ancestors(me: Proc) -> impl Iterator<Item = Option<Proc>> {
    let first = me.parent.map(|p| read(Some(p)));
    std::iter::successors(first, |p| {
        p.as_ref().and_then(|p| p.parent).map(|p| read(Some(p)))
    })
    .take(DEEPEST)
}

/// No `/proc` (not Linux): ourselves and our parent, by the system calls
/// (a pid namespace, where they could return 0, is Linux's); no names.
fn without_proc(pid: Option<i32>) -> Option<Proc> {
    use rustix::process::{Pid, getpgid, getppid, getsid};
    let pid = match pid {
        Some(p) => Some(Pid::from_raw(p)?),
        None => None,
    };
    let parent = if pid.is_none() {
        getppid().map(|p| p.as_raw_nonzero().get())
    } else {
        None
    };
    Some(Proc {
        parent,
        group: getpgid(pid).ok()?.as_raw_nonzero().get(),
        session: getsid(pid).ok()?.as_raw_nonzero().get(),
        name: String::new(),
    })
}

/// `pid (comm) state ppid pgrp session ...`; comm may hold spaces and
/// parentheses, so the fields are counted from its last `)`.
fn parse_stat(stat: &str) -> Option<Proc> {
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let name = stat.get(open + 1..close)?.to_string();
    let mut fields = stat[close + 1..].split_whitespace().skip(1);
    let mut next = || fields.next()?.parse::<i32>().ok();
    let parent = next()?;
    Some(Proc {
        parent: (parent > 1).then_some(parent),
        group: next()?,
        session: next()?,
        name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_are_read_past_odd_command_names() {
        let stat = "1116 (tmux: (x) y) S 1115 1116 1117 34816 1116 4194560";
        assert_eq!(
            parse_stat(stat),
            Some(Proc {
                parent: Some(1115),
                group: 1116,
                session: 1117,
                name: "tmux: (x) y".into(),
            })
        );
        assert_eq!(
            parse_stat("1 (init) S 0 1 1 0").map(|p| p.parent),
            Some(None)
        );
        assert_eq!(parse_stat("garbage"), None);
        assert_eq!(parse_stat(") (x"), None);
    }

    #[test]
    fn this_process_and_its_ancestors_are_read_and_the_walk_ends() {
        let me = read(None).expect("this process");
        assert!(me.parent.is_some() && !me.name.is_empty(), "{me:?}");
        assert!(ancestors(me).count() < DEEPEST);
    }
}
