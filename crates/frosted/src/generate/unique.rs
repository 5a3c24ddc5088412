//! `--unique`: whether a level has exactly one minimal layout, counted as
//! `solve --count` counts (layouts that differ only on cells no donut visits
//! are one), by enumerating at most two.

use crate::encode::EncodeOptions;
use crate::level::Level;
use crate::puzzle::enumerate;
use cegar::{EnumEnd, Options};
use std::time::Duration;

/// What the count of minimal layouts came to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// Exactly one, proved.
    Unique,
    /// Two or more (or none).
    NotUnique,
    /// The time ran out first.
    Unknown,
}

/// Counts the minimal layouts of `level` up to two, one solver thread
/// (deterministic), within `timeout`.
pub fn uniqueness(level: &Level, timeout: Duration) -> Uniqueness {
    let opts = Options {
        timeout: Some(timeout),
        ..Options::default()
    };
    let e = enumerate(
        level,
        &opts,
        &EncodeOptions::default(),
        Some(2),
        &mut |_| {},
        &mut |_| {},
    );
    match e {
        Ok(e) if e.end == EnumEnd::TimedOut => Uniqueness::Unknown,
        Ok(e) if e.end == EnumEnd::Complete && e.solutions.len() == 1 => Uniqueness::Unique,
        Ok(_) => Uniqueness::NotUnique,
        Err(_) => Uniqueness::Unknown,
    }
}
