//! Which puzzle a level file holds, and reading the files of the second one,
//! Cosmic Express: its levels (JSON) and tracks (JSON or the text grid of
//! the rules' §7.2).
//!
//! A level file whose first non-blank character is `{` is a Cosmic Express
//! level; any other is a Freshly Frosted one. `--puzzle frosted|cosmic`
//! overrides the guess (a Cosmic Express level with a leading comment, a
//! Freshly Frosted one that starts with `{`... which none does today).

use super::{display_name, read_bounded, CliError, MAX_LEVEL_BYTES};
use cosmic_express::{parse_level, parse_track, Level, Track};
use std::path::Path;

/// The two puzzles, as `--puzzle` names them.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Puzzle {
    // Freshly Frosted: a text grid of belts, sources and targets.
    Frosted,
    // Cosmic Express: a JSON level; the answer is a track.
    Cosmic,
}

impl Puzzle {
    /// The puzzle whose file these bytes are: Cosmic Express JSON when the
    /// first non-blank character is `{`.
    pub fn of_bytes(bytes: &[u8]) -> Puzzle {
        match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'{') => Puzzle::Cosmic,
            _ => Puzzle::Frosted,
        }
    }

    /// The puzzle of the level file `path`, unless `forced`. A file that
    /// cannot be read is taken for Freshly Frosted, whose reader then says
    /// why it cannot be read.
    pub fn of_file(path: &Path, forced: Option<Puzzle>) -> Puzzle {
        if let Some(p) = forced {
            return p;
        }
        read_bounded(path, MAX_LEVEL_BYTES, "a level")
            .map(|b| Puzzle::of_bytes(&b))
            .unwrap_or(Puzzle::Frosted)
    }
}

/// The `--puzzle` flag every command has.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct PuzzleFlag {
    /// Which puzzle the level is: by default Cosmic Express when the file's
    /// first non-blank character is `{` (its JSON), else Freshly Frosted.
    #[arg(long, value_enum, value_name = "PUZZLE")]
    pub puzzle: Option<Puzzle>,
}

impl PuzzleFlag {
    /// Whether `level` is a Cosmic Express level (forced, or by its file).
    pub fn is_cosmic(&self, level: &std::path::Path) -> bool {
        Puzzle::of_file(level, self.puzzle) == Puzzle::Cosmic
    }
}

/// A Cosmic Express level and its name: the file name without `.json`
/// (`level` for stdin), as the solution's JSON line names it.
#[derive(Clone, Debug)]
pub struct CeLevel {
    pub level: Level,
    pub name: String,
}

/// The name of a level in a solution: its file name without the extension.
fn level_name(path: &Path) -> String {
    if path == Path::new("-") {
        return "level".to_string();
    }
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "level".to_string())
}

/// The text of a file, which must be UTF-8.
fn read_text(path: &Path, what: &str) -> Result<String, CliError> {
    let bytes = read_bounded(path, MAX_LEVEL_BYTES, what)?;
    String::from_utf8(bytes).map_err(|e| {
        CliError::bad_input(format!(
            "{} is not UTF-8 (byte {})",
            display_name(path),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads and parses a Cosmic Express level (`-`: stdin); errors are bad input.
pub fn load_ce_level(path: &Path) -> Result<CeLevel, CliError> {
    let text = read_text(path, "a level")?;
    let level =
        parse_level(&text).map_err(|e| CliError::bad_input(e.render(&display_name(path))))?;
    Ok(CeLevel {
        level,
        name: level_name(path),
    })
}

/// Reads a track of `level` in either form of §7 (`-`: stdin).
pub fn load_ce_track(level: &CeLevel, path: &Path) -> Result<Track, CliError> {
    let text = read_text(path, "a track")?;
    parse_track(&level.level, &text).map_err(|e| CliError::bad_input(e.render(&display_name(path))))
}

/// Loads a level and a track, refusing both on stdin.
pub fn load_ce_pair(level: &Path, track: &Path) -> Result<(CeLevel, Track), CliError> {
    if level == Path::new("-") && track == Path::new("-") {
        return Err(CliError::bad_input(
            "the level and the track cannot both be read from stdin (`-`): \
             give one of them as a file",
        ));
    }
    let lv = load_ce_level(level)?;
    let track = load_ce_track(&lv, track)?;
    Ok((lv, track))
}

/// A track in both forms of §7: the text grid, then the JSON line.
pub fn both_forms(level: &CeLevel, track: &Track) -> String {
    format!(
        "{}{}\n",
        cosmic_express::show_track(&level.level, track),
        track.to_json(Some(&level.name))
    )
}

/// A track's path as JSON: a list of `[x, y]`.
pub fn path_json(track: &Track) -> Vec<[i32; 2]> {
    track.0.iter().map(|p| [p.x, p.y]).collect()
}
