//! The flame graph (`f`): the call tree of `views::tree` drawn as boxes
//! as wide as their cost, with its own keys (boxes by direction, zoom,
//! the search's boxes).

pub mod draw;
mod keys;
