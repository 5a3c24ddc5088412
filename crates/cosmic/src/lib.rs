//! Cosmic Express, the second puzzle: the level format (rules §2), tracks (§3, §7),
//! the exact run of the train (§4) with a judge (§7.3), and text pictures (§7.2).
//!
//! The rules are `cosmic-express-rules.md` in the shared folder beside the
//! repository; section numbers in this crate refer to it. The simulator in
//! [`sim`] is the trusted reference that every other part is checked against.

pub mod dead_end;
pub mod encode;
pub mod error;
pub mod grid;
mod json;
pub mod judge;
pub mod level;
pub mod parse;
pub mod picture;
pub mod puzzle;
pub mod render;
pub mod sim;
pub mod track;

pub use error::{InputError, Span};
pub use grid::{Color, Entity, Point};
pub use judge::{judge, Verdict};
pub use level::Level;
pub use parse::{parse_level, LevelError};
pub use render::{show_level, show_track};
pub use sim::{check_track, simulate, Broken, Car, Event, Outcome, Train};
pub use track::{parse_track, Track, TrackError};
