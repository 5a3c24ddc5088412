//! Pictures of grid puzzles, knowing no puzzle: a puzzle describes its board
//! as a [`Sheet`] (cells with a floor colour and a sprite, an overlay, a legend)
//! and its run as a [`Replay`] (one [`Frame`] per tick: tokens on cells, small
//! marks, text lines); this crate lays them out as one self-contained SVG, or
//! as one self-contained HTML page with a player (play, pause, step, slider,
//! speed) whose JavaScript only draws the frames it is given.
//!
//! - [`svg`]: building SVG text (elements, escaping, stable number format);
//! - [`palette`]: the Okabe-Ito colours, safe for colour-blind readers;
//! - [`sprite`]: small shapes drawn in a cell (arrows, discs, labels);
//! - [`sheet`]: the board, its coordinates, legend and captions as an SVG;
//! - [`replay`]: the frames of a run, as the page reads them;
//! - [`page`]: the HTML replay page and the index page of a bench.

pub mod page;
pub mod palette;
pub mod replay;
pub mod sheet;
pub mod sprite;
pub mod svg;

pub use page::{index_page, replay_page, IndexRow};
pub use replay::{Frame, Mark, Replay, Token};
pub use sheet::{CellArt, Geometry, Sheet};
pub use sprite::Heading;
