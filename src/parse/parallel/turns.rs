//! The two stages of the parallel merge, each taken by one thread at a
//! time in file order, the closure of a stage held out of the lock while
//! it runs so that the other stage can run meanwhile.

use super::{Bail, Merged};
use std::sync::{Condvar, Mutex, PoisonError};

/// The two stages of the merge, each taken by one thread at a time in file
/// order.
pub(super) struct Turns<A, B, E> {
    pub state: Mutex<TurnState<A, B, E>>,
    pub moved: Condvar,
}

pub(super) struct TurnState<A, B, E> {
    /// Chunks through each stage so far.
    pub done: [usize; 2],
    /// Set when the merge stops early: the error or `Bail` it stopped at.
    pub outcome: Option<Merged<E>>,
    /// Each stage, taken out while a thread runs it.
    pub first: Option<A>,
    pub second: Option<B>,
}

impl<A, B, E> Turns<A, B, E> {
    pub fn lock(&self) -> std::sync::MutexGuard<'_, TurnState<A, B, E>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for chunk `i`'s turn at `stage` (whose closure `slot` finds)
    /// and runs it there with the lock released; `None` once the merge has
    /// stopped (at this chunk or another).
    pub fn take<F, U>(
        &self,
        stage: usize,
        i: usize,
        slot: impl Fn(&mut TurnState<A, B, E>) -> &mut Option<F>,
        run: impl FnOnce(&mut F) -> Result<Result<U, Bail>, E>,
    ) -> Option<U> {
        let mut guard = self.lock();
        while guard.outcome.is_none() && guard.done[stage] != i {
            guard = self
                .moved
                .wait(guard)
                .unwrap_or_else(PoisonError::into_inner);
        }
        let mut f = match slot(&mut guard).take() {
            Some(f) if guard.outcome.is_none() => f,
            _ => return None,
        };
        drop(guard);
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&mut f)))
            .unwrap_or(Ok(Err(Bail("merge panicked"))));
        let mut guard = self.lock();
        *slot(&mut guard) = Some(f);
        let out = match ran {
            Ok(Ok(u)) => {
                guard.done[stage] += 1;
                Some(u)
            }
            Ok(Err(bail)) => {
                guard.outcome.get_or_insert(Ok(Err(bail)));
                None
            }
            Err(e) => {
                guard.outcome.get_or_insert(Err(e));
                None
            }
        };
        drop(guard);
        self.moved.notify_all();
        out
    }
}
