//! cgtui: a terminal browser for Callgrind and Cachegrind profiles.
//!
//! Data flows one way: bytes -> `parse` -> `profile::Profile` (immutable
//! after load) -> `analysis` -> `report` or `tui`. Everything but `tui`
//! works without a terminal.

pub mod analysis;
pub mod annotate;
pub mod asm;
pub mod cli;
pub mod cli_support;
pub mod config;
pub mod format;
pub mod locate;
pub mod metric;
pub mod parse;
pub mod profile;
pub mod report;
pub mod search;
pub mod source_text;
pub mod symbols;
pub mod threads;
pub mod tui;
