//! Helpers shared by the test modules.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod annotate_output;
pub mod cli;
pub mod generated;
pub mod graphs;
pub mod runs;
#[path = "../../benches/support/synth.rs"]
pub mod synth;
pub mod tmux;
pub mod tools;
pub mod tui;
