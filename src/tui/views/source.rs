//! The source view: one function's source with the cost of every line,
//! its calls and jumps (state), the keys that move in it and follow
//! calls and jumps, and its drawing.

pub mod draw;
mod keys;
mod state;

pub use state::*;
