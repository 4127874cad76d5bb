//! The assembly view (`A`): the current function's instructions from
//! its object (`crate::asm`), each with its cost, the source lines
//! between them, jump arrows with their counts and the inline chain of
//! each instruction. The listing is made on a background thread (objdump
//! and DWARF can take a while) that Esc cancels, and kept per function
//! while the browser runs.

pub mod draw;
mod keys;
mod state;

pub use state::*;
