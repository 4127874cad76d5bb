//! Whether Ctrl-Z may stop cgtui: only when a job-control shell can resume
//! it. Started directly by sshd, mosh-server or `tmux new 'exec cgtui'`,
//! cgtui leads its own session and nothing would ever send it SIGCONT: the
//! ssh screen stays blank and only `~.` gets out. POSIX calls such a
//! process group orphaned (no member has a parent in the same session but
//! another group) and the kernel itself drops the terminal's SIGTSTP for
//! it; cgtui stops itself (the terminal is in raw mode), so it asks first,
//! as `less` and `htop` behave there.

use super::procs::{self, Proc};

/// Why Ctrl-Z does nothing here, for the status line.
pub const NO_SHELL: &str = "Ctrl-Z: no shell to resume cgtui here (no job control); q quits";

/// `Ok` where a job-control shell can resume a stopped cgtui, else why not.
pub fn can_suspend() -> Result<(), &'static str> {
    let resumable = procs::read(None)
        .is_some_and(|me| !group_is_orphaned(me.group, me.session, procs::ancestors(me.clone())));
    if resumable { Ok(()) } else { Err(NO_SHELL) }
}

/// Whether our group (`group`, in session `session`) is orphaned, seen
/// from our ancestors: the first one outside our group decides. In our
/// session, it is a shell that put us in a job of our own (not orphaned);
/// in another session (sshd, tmux's server) or unreadable, nobody of our
/// session can resume us. The group's other members (a pipeline feeding
/// us) share our parent, so the walk up covers them.
fn group_is_orphaned(
    group: i32,
    session: i32,
    ancestors: impl Iterator<Item = Option<Proc>>,
) -> bool {
    if session <= 0 {
        return true;
    }
    for ancestor in ancestors {
        match ancestor {
            Some(p) if p.group == group => continue,
            Some(p) => return p.session != session,
            None => return true,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(group: i32, session: i32) -> Option<Proc> {
        Some(Proc {
            parent: None,
            group,
            session,
            name: String::new(),
        })
    }

    #[test]
    fn a_job_of_an_interactive_shell_can_be_resumed() {
        // bash (group 10, session 10) started us in group 20.
        assert!(!group_is_orphaned(20, 10, [p(10, 10)].into_iter()));
    }

    #[test]
    fn a_session_leader_started_by_sshd_cannot() {
        // sshd's child runs us in a session of our own.
        assert!(group_is_orphaned(30, 30, [p(5, 5), p(1, 1)].into_iter()));
    }

    #[test]
    fn a_shell_without_job_control_in_our_group_is_looked_through() {
        // tmux's server (session 2) ran `sh -c 'cgtui f'`: sh leads the
        // session and our group, so no one of the session is outside it.
        assert!(group_is_orphaned(40, 40, [p(40, 40), p(2, 2)].into_iter()));
        // The same sh as a job of an interactive shell: resumable.
        assert!(!group_is_orphaned(
            40,
            10,
            [p(40, 10), p(10, 10)].into_iter()
        ));
    }

    #[test]
    fn what_cannot_be_read_counts_as_no_shell() {
        // A session led from outside our pid namespace reads as 0.
        assert!(group_is_orphaned(20, 0, [p(10, 0)].into_iter()));
        assert!(group_is_orphaned(20, 10, [None].into_iter()));
        assert!(group_is_orphaned(20, 10, std::iter::empty()));
    }

    #[test]
    fn the_walk_up_from_this_process_ends() {
        // Whatever the answer under the test runner, reading every
        // ancestor must end (init, or outside the namespace).
        let _ = can_suspend();
    }
}
