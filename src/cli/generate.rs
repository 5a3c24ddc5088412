//! `frosted generate`: a new level built around a hidden layout, printed in
//! the level format with `:comment` lines naming the seed and settings.

use super::{out, CliError, EXIT_OK};
use freshly_frosted::generate::{
    generate, uniqueness, Generated, Mechanic, Pair, Request, Style, Uniqueness,
};
use freshly_frosted::judge::judge;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The seed: the same seed and options print the same level, byte for
    /// byte. With only --seed, the size, mechanics and counts are drawn from it.
    #[arg(long)]
    pub seed: u64,
    /// The board's size, WIDTHxHEIGHT (3 to 16 each; the game's run from 5x5 to 13x9).
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<(usize, usize)>,
    /// The mechanics to use, comma-separated: toppers, targets (the
    /// `:targets` flag and any-donut targets), merges, splitters, bumpers,
    /// preset (preset belts), teleporters, multi-out (teleporters with several
    /// outs), crossovers, any-sources, walls.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = Mechanic::parse)]
    pub mechanics: Option<Vec<Mechanic>>,
    /// The number of sources.
    #[arg(long, value_name = "N")]
    pub sources: Option<usize>,
    /// The number of targets (more than sources needs splitters, multi-out or
    /// bumpers; fewer needs merges).
    #[arg(long, value_name = "N")]
    pub targets: Option<usize>,
    /// The hidden layout's shape: `game` (waypoints anywhere), `far` (toppers
    /// far apart, so layouts run long), `teleport-split` (a lone source
    /// through a teleporter into a splitter, then toppers), `multi-out` (a
    /// teleporter with several outs, each into a splitter).
    #[arg(long, value_name = "STYLE", value_parser = Style::parse)]
    pub style: Option<Style>,
    /// Keep only levels whose minimal layout is unique (as `solve --count`
    /// counts them), trying the seed's next attempts until one is. Each
    /// candidate level gets --unique-timeout seconds; one that takes longer
    /// is skipped (and said so on stderr), which is the only way the output
    /// can depend on the machine.
    #[arg(long)]
    pub unique: bool,
    /// Seconds for the uniqueness check of one candidate level.
    #[arg(long, value_name = "SECONDS", default_value_t = 20.0)]
    pub unique_timeout: f64,
    /// Also solve the level (the default solver, one thread) for at most
    /// SECONDS, and say on stderr what `solve` found: a second confirmation
    /// besides the judge's verdict on the hidden layout. Stdout is the same.
    #[arg(long, value_name = "SECONDS")]
    pub solve: Option<f64>,
    /// Also write the hidden layout (the level with the belts it was built
    /// around) to FILE.
    #[arg(long, value_name = "FILE")]
    pub layout: Option<PathBuf>,
}

/// `WxH` as two numbers.
fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected WIDTHxHEIGHT such as 9x7, got `{s}`");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let w = w.trim().parse().map_err(|_| bad())?;
    let h = h.trim().parse().map_err(|_| bad())?;
    Ok((w, h))
}

/// The request the arguments make.
fn request(a: &Args) -> Request {
    Request {
        seed: a.seed,
        size: a.size,
        mechanics: a.mechanics.clone(),
        sources: a.sources,
        targets: a.targets,
        style: a.style,
        unique: a.unique,
    }
}

pub fn run(a: Args) -> Result<i32, CliError> {
    let req = request(&a);
    let unique_timeout = super::flags::seconds_of("--unique-timeout", a.unique_timeout)?;
    let solve_timeout = a
        .solve
        .map(|t| super::flags::seconds_of("--solve", t))
        .transpose()?;
    let mut accept = |pair: &Pair| !a.unique || unique(pair, unique_timeout);
    let g = generate(&req, &mut accept).map_err(CliError::bad_input)?;
    if let Some(path) = &a.layout {
        std::fs::write(path, g.pair.layout.to_string())
            .map_err(|e| CliError::bad_input(format!("cannot write {}: {e}", path.display())))?;
    }
    out(&g.pair.level.to_string())?;
    note!("{}", summary(&g));
    if let Some(timeout) = solve_timeout {
        note!("{}", solved(&g.pair.level, timeout));
    }
    Ok(EXIT_OK)
}

/// Whether the candidate level's minimal layout is unique; a check that
/// runs out of time says so on stderr (the level is skipped).
fn unique(pair: &Pair, timeout: std::time::Duration) -> bool {
    match uniqueness(&pair.level, timeout) {
        Uniqueness::Unique => true,
        Uniqueness::NotUnique => false,
        Uniqueness::Unknown => {
            note!("generate: a candidate level was skipped: its uniqueness check ran out of time");
            false
        }
    }
}

/// What `solve` finds on the level within `timeout`, as one stderr line.
fn solved(level: &freshly_frosted::level::Level, timeout: std::time::Duration) -> String {
    let opts = cegar::Options {
        timeout: Some(timeout),
        ..cegar::Options::default()
    };
    let encode = freshly_frosted::encode::EncodeOptions::default();
    match freshly_frosted::puzzle::solve(level, &opts, &encode, &mut |_| {}) {
        Ok(r) => {
            let belts = r.cost.map_or(String::new(), |c| format!(", {c} belts"));
            let verified = match &r.candidate {
                Some(l) if judge(l).solved() => ", verified",
                Some(_) => ", NOT verified",
                None => "",
            };
            format!(
                "solve: {}{belts}{verified} in {:.2}s",
                r.status.name(),
                r.times.total.as_secs_f64()
            )
        }
        Err(e) => format!("solve: error: {e}"),
    }
}

/// The stderr line: the settings, and the judge's verdict on the hidden layout.
fn summary(g: &Generated) -> String {
    let belts = g.pair.layout.added_belts(&g.pair.level);
    let verdict = match judge(&g.pair.layout).solved() {
        true => "solves it",
        false => "DOES NOT solve it",
    };
    format!(
        "generated: {} (attempt {}); the hidden layout ({belts} belts) {verdict}",
        g.spec.describe(),
        g.attempt
    )
}
