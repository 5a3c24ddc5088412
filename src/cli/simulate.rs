//! `frosted simulate` and `frosted show`: drawing a board and a run in the terminal.

use super::{load_level, load_pair, CliError, EXIT_OK};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The level file.
    pub level: PathBuf,
    /// The layout (defaults to the level itself).
    pub layout: Option<PathBuf>,
    /// Stop after this many ticks (default: run to the end).
    #[arg(long)]
    pub ticks: Option<u32>,
    /// Draw the board after every tick, not only at the end.
    #[arg(long)]
    pub trace: bool,
}

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The level (or layout) file.
    pub level: PathBuf,
}

pub fn run(args: Args) -> Result<i32, CliError> {
    let (_level, layout) = load_pair(&args.level, args.layout.as_ref())?;
    print!("{layout}");
    Ok(EXIT_OK)
}

pub fn show(args: ShowArgs) -> Result<i32, CliError> {
    let level = load_level(&args.level)?;
    print!("{level}");
    Ok(EXIT_OK)
}
