//! Two jobs at once on a machine's cores, for the steps after a load that
//! do not depend on each other.

/// Runs `a` on a thread of its own and `b` on this one, and returns both
/// results; a panic in either goes on in the caller.
pub fn both<A: Send, B>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B) -> (A, B) {
    std::thread::scope(|scope| {
        let a = scope.spawn(a);
        let b = b();
        let a = a.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        (a, b)
    })
}

/// `both` where `parallel`, else `a` then `b` on this thread (small inputs,
/// where a thread costs more than it saves).
pub fn both_if<A: Send, B>(
    parallel: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B,
) -> (A, B) {
    if parallel { both(a, b) } else { (a(), b()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_run_on_two_threads_and_return_their_results() {
        let here = std::thread::current().id();
        let (a, b) = both(
            || std::thread::current().id(),
            || std::thread::current().id(),
        );
        assert_ne!(a, here);
        assert_eq!(b, here);
        let (a, _) = both_if(false, || std::thread::current().id(), || ());
        assert_eq!(a, here);
    }

    #[test]
    fn a_panic_on_the_other_thread_goes_on_in_the_caller() {
        let caught = std::panic::catch_unwind(|| both(|| panic!("in a"), || 1));
        assert!(caught.is_err());
    }
}
