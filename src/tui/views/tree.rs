//! The call tree (`t`) and the caller tree (`b`): the estimated trees of
//! `analysis::tree` grown as the user opens nodes. The state here is the
//! flame graph's too (`views::flame` draws the same tree as boxes).

pub mod draw;
mod keys;
mod state;

pub use state::*;
