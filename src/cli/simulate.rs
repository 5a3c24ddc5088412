//! `frosted simulate` and `frosted show`: drawing a board and a run in the
//! terminal (`--svg` and `--html` go to [`super::pictures`]).

use super::pictures;
use super::puzzle::PuzzleFlag;
use super::verify::verdict_text;
use super::{cosmic, load_level, load_pair, out, CliError, EXIT_OK};
use crate::judge::{judge, reason_for, Verdict};
use crate::render;
use crate::sim::Simulator;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The level file.
    pub level: PathBuf,
    /// The layout (`-`: read it from stdin; defaults to the level itself). The
    /// level's flags hold: flag lines in the layout must parse, but do not count.
    /// Cosmic Express: the track (required), as JSON or as the text grid.
    pub layout: Option<PathBuf>,
    #[command(flatten)]
    pub puzzle: PuzzleFlag,
    /// Stop after this many ticks (default: run to the end); Cosmic Express:
    /// moments.
    #[arg(long, allow_negative_numbers = true)]
    pub ticks: Option<u32>,
    /// Draw the board after every tick, not only at the end (Freshly Frosted;
    /// a Cosmic Express run is always shown moment by moment).
    #[arg(long)]
    pub trace: bool,
    /// Write the run as one self-contained HTML page (no network, no
    /// external file) instead of text: the board, and the donuts moving tick
    /// by tick (kind by colour and digit), waiting counters, splitter and
    /// crossover states, deliveries per target and the outcome as `verify`
    /// states it, with play, pause, step, a tick slider and speeds. The frames
    /// come from the simulator. Open it in a browser; `PAGE.html#tick=N`
    /// opens it at tick N. Cosmic Express: the train moment by moment, what
    /// each car holds, boardings and deliveries.
    #[arg(long, conflicts_with_all = ["trace", "ticks"])]
    pub html: bool,
    /// Write the page to FILE instead of stdout (with --html).
    #[arg(short = 'o', long, value_name = "FILE", requires = "html")]
    pub output: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The level (or layout) file.
    pub level: PathBuf,
    /// A layout of the level (Freshly Frosted) or a track (Cosmic Express, as
    /// JSON or as the text grid), drawn on it.
    pub layout: Option<PathBuf>,
    #[command(flatten)]
    pub puzzle: PuzzleFlag,
    /// Write an SVG picture instead of the unicode drawing: the grid, belts
    /// as arrows (placed belts blue on light floor, preset ones dark on grey),
    /// every entity with its own shape, colour and mark (kinds by colour and
    /// digit 0-4), a legend and the level's `:targets`; a layout's picture
    /// says whether it solves the level. Self-contained; colours from the
    /// Okabe-Ito palette (safe for colour-blind readers) on its own white
    /// background. Cosmic Express: the level, aliens and houses by colour
    /// and letter, and the track.
    #[arg(long)]
    pub svg: bool,
    /// Write the picture to FILE instead of stdout (with --svg).
    #[arg(short = 'o', long, value_name = "FILE", requires = "svg")]
    pub output: Option<PathBuf>,
}

/// Runs the layout, drawing the board after every tick (`--trace`) or once at the
/// end, then says how the run ended and gives the verdict. The exit code is 0
/// whatever the verdict: the command succeeded in drawing the run.
pub fn run(args: Args) -> Result<i32, CliError> {
    if args.html {
        return pictures::simulate_html(&args);
    }
    if args.puzzle.is_cosmic(&args.level) {
        return cosmic::simulate_run(&args.level, args.layout.as_deref(), args.ticks);
    }
    let (level, layout) = load_pair(&args.level, args.layout.as_ref())?;
    let mut text = String::new();
    text.push_str(&render::summary(&layout));
    text.push_str(&render::board(&layout));
    text.push_str(&render::legend(&layout, true));

    let mut sim = Simulator::new(&layout);
    let mut done = 0u32;
    let end = loop {
        if args.ticks.is_some_and(|n| done >= n) {
            break None;
        }
        match sim.step() {
            Some(end) => break Some(end),
            None => {
                done += 1;
                if args.trace {
                    text.push_str(&format!("\ntick {done}\n"));
                    text.push_str(&render::state(&layout, &sim));
                }
            }
        }
    };
    if !args.trace {
        text.push_str(&format!("\nafter tick {done}\n"));
        text.push_str(&render::state(&layout, &sim));
    }
    text.push('\n');
    let verdict = match end {
        // The verdict's `run:` line says how the run ended.
        Some(_) => {
            let outcome = sim.into_outcome();
            let reason = reason_for(&layout, &outcome);
            Verdict { outcome, reason }
        }
        None => {
            text.push_str(&format!(
                "stopped after {done} ticks (--ticks {done}); the verdict is on the whole run:\n"
            ));
            judge(&layout)
        }
    };
    text.push_str(&verdict_text(&level, &layout, &verdict));
    out(&text)?;
    Ok(EXIT_OK)
}

/// Draws a level (or a layout) with a summary and a legend.
pub fn show(args: ShowArgs) -> Result<i32, CliError> {
    if args.svg {
        return pictures::show_svg(&args);
    }
    if args.puzzle.is_cosmic(&args.level) {
        return cosmic::show(&args.level, args.layout.as_deref());
    }
    let level = match &args.layout {
        None => load_level(&args.level)?,
        Some(_) => load_pair(&args.level, args.layout.as_ref())?.1,
    };
    out(&render::level(&level))?;
    Ok(EXIT_OK)
}
