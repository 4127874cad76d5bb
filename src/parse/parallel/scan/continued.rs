//! A body that goes on without a `fn=`: lines after a later part's header
//! still belong to the function the body before left current (the loader
//! starts a new part there but keeps where it is). The chunk that begins
//! such a body starts from that place, given in the profile's ids.

use super::{Context, Scanner, Sink};
use crate::parse::parallel::local::Tables;

/// A function as the profile names it: (name, file, object) ids.
pub type Triple = (u32, u32, u32);

/// Where the body before left off, in the profile's ids: the context,
/// and a `fn=` no line has used yet.
#[derive(Clone, Copy, Debug)]
pub struct Continued {
    pub at: crate::parse::context::Context<u32, u32, Triple, u32>,
    pub declared: Option<Triple>,
}

/// A local function for the profile's function `triple`.
fn local_function(t: &mut Tables, (name, file, obj): Triple) -> u32 {
    let local = (
        t.names.global(name),
        t.files.global(file),
        t.objects.global(obj),
    );
    t.function(local.0, local.1, local.2)
}

impl<S: Sink> Scanner<S> {
    /// Starts the chunk, whose first line is at byte `offset`, where
    /// `continued` left off: its function's block goes on from there.
    pub fn continue_from(&mut self, continued: &Continued, offset: u64) {
        let t = &mut self.tables;
        self.at = continued.at.map(
            t,
            |t, o| t.objects.global(o),
            |t, l| t.files.global(l),
            local_function,
            |t, n| t.names.global(n),
        );
        self.declared = continued.declared.map(|(name, file, obj)| {
            let local = (t.names.global(name), t.files.global(file));
            (local.0, local.1, t.objects.global(obj), offset)
        });
        if let Some(func) = self.at.func {
            self.sink.block(func, offset, self.last);
        }
    }

    /// Where the chunk leaves off: the context, and a `fn=` no line used
    /// (name, file, object), in local ids.
    pub fn end_state(&self) -> (Context, Option<Triple>) {
        let declared = self.declared.map(|(name, file, obj, _)| (name, file, obj));
        (self.at, declared)
    }
}
