//! Pictures on the command line: `show --svg` (a level, layout or track as
//! an SVG), `simulate --html` (the run as a self-contained HTML replay),
//! `solve --svg/--html` (the same for what it found) and `bench --html` (a
//! page per level and an index). The drawing is the puzzles' (`picture`
//! modules) and the `picture` crate's; this module picks the puzzle, names
//! the picture and writes it, with a clear error when it cannot.

use super::cosmic::load_with_track;
use super::puzzle::{load_ce_level, load_ce_pair};
use super::simulate::{Args, ShowArgs};
use super::{display_name, load_pair, out, CliError, EXIT_OK};
use picture::IndexRow;
use std::path::{Path, PathBuf};

/// A file's name without its folders and extension (`level` for stdin).
fn stem(path: &Path) -> String {
    if path == Path::new("-") {
        return "level".to_string();
    }
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "level".to_string())
}

/// A level's name in a title: its folder and its stem
/// (`08-hot-summer/05`), or its stem alone for a file in the working folder.
pub fn level_name(path: &Path) -> String {
    let folder = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned());
    match folder {
        Some(f) => format!("{f}/{}", stem(path)),
        None => stem(path),
    }
}

/// A picture's title: the level's name, and the layout's (or track's) file
/// beside it.
fn title(level: &Path, layout: Option<&Path>, cosmic: bool) -> String {
    match layout {
        None => level_name(level),
        Some(l) => {
            let name = l
                .file_name()
                .map_or_else(|| display_name(l), |n| n.to_string_lossy().into_owned());
            let noun = if cosmic { "track" } else { "layout" };
            format!("{}, {noun} {name}", level_name(level))
        }
    }
}

/// Checks, before any long work, that `path` could be written: not a
/// folder, and its folder exists. `flag` names the option in the error.
pub fn check_writable(path: &Path, flag: &str) -> Result<(), CliError> {
    if path == Path::new("-") {
        return Ok(());
    }
    if path.is_dir() {
        return Err(CliError::bad_input(format!(
            "{flag}: {} is a folder; give a file name",
            path.display()
        )));
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = parent.filter(|d| !d.is_dir()) {
        return Err(CliError::bad_input(format!(
            "{flag}: cannot write {}: the folder {} does not exist",
            path.display(),
            dir.display()
        )));
    }
    Ok(())
}

/// Writes `text` to `path`, or to stdout when there is none (or `-`).
pub fn write_to(path: Option<&Path>, text: &str, flag: &str) -> Result<(), CliError> {
    match path.filter(|p| *p != Path::new("-")) {
        None => out(text),
        Some(p) => {
            check_writable(p, flag)?;
            std::fs::write(p, text).map_err(|e| {
                CliError::bad_input(format!("{flag}: cannot write {}: {e}", p.display()))
            })
        }
    }
}

/// `frosted show LEVEL [LAYOUT] --svg [-o FILE]`.
pub fn show_svg(a: &ShowArgs) -> Result<i32, CliError> {
    let cosmic = a.puzzle.is_cosmic(&a.level);
    let name = title(&a.level, a.layout.as_deref(), cosmic);
    let text = if cosmic {
        match &a.layout {
            None => {
                let lv = load_ce_level(&a.level)?;
                cosmic_express::picture::svg(&lv.level, None, &name)
            }
            Some(t) => {
                let (lv, track) = load_ce_pair(&a.level, t)?;
                cosmic_express::picture::svg(&lv.level, Some(&track), &name)
            }
        }
    } else {
        let (level, layout) = load_pair(&a.level, a.layout.as_ref())?;
        freshly_frosted::picture::svg(&level, &layout, &name)
    };
    write_to(a.output.as_deref(), &text, "--svg")?;
    Ok(EXIT_OK)
}

/// `frosted simulate LEVEL LAYOUT --html [-o FILE]`.
pub fn simulate_html(a: &Args) -> Result<i32, CliError> {
    let cosmic = a.puzzle.is_cosmic(&a.level);
    let name = title(&a.level, a.layout.as_deref(), cosmic);
    let text = if cosmic {
        let (lv, track) = load_with_track(&a.level, a.layout.as_deref(), "simulate")?;
        cosmic_express::picture::html(&lv.level, &track, &name)
    } else {
        let (level, layout) = load_pair(&a.level, a.layout.as_ref())?;
        freshly_frosted::picture::html(&level, &layout, &name)
    };
    write_to(a.output.as_deref(), &text, "--html")?;
    Ok(EXIT_OK)
}

/// The page of a level in a `bench --html` folder: its path under the
/// bench's folder with `/` as `--` and `.html` for its extension.
pub fn page_name(relative: &Path) -> PathBuf {
    let parts: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    PathBuf::from(format!("{}.html", parts.join("--")))
}

/// Creates the `bench --html` folder.
pub fn pages_folder(dir: &Path) -> Result<(), CliError> {
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::bad_input(format!(
            "--html: {} exists and is not a folder",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::bad_input(format!("--html: cannot create {}: {e}", dir.display())))
}

/// Writes `DIR/index.html`: the bench's table, each level linking to its
/// page when `solve` wrote one. `rows`: the level's name, then its cells.
pub fn write_index(
    dir: &Path,
    headers: &[&str],
    rows: Vec<(String, Vec<String>)>,
) -> Result<(), CliError> {
    let rows: Vec<IndexRow> = rows
        .into_iter()
        .map(|(name, cells)| {
            let page = page_name(Path::new(&name));
            let link = dir
                .join(&page)
                .is_file()
                .then(|| page.display().to_string());
            IndexRow { cells, link }
        })
        .collect();
    let intro = "Each level links to the replay of the layout (or track) frosted solve found; \
                 a level without a link has none.";
    let page = picture::index_page("frosted bench", intro, headers, &rows);
    write_to(Some(&dir.join("index.html")), &page, "--html")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_named_after_the_level_path() {
        let p = page_name(Path::new("01-toppers/first-frosting.txt"));
        assert_eq!(p, PathBuf::from("01-toppers--first-frosting.html"));
        assert_eq!(stem(Path::new("a/b.json")), "b");
        assert_eq!(
            title(
                Path::new("a/b.txt"),
                Some(Path::new("a/b.solution.txt")),
                false
            ),
            "a/b, layout b.solution.txt"
        );
        assert_eq!(level_name(Path::new("b.txt")), "b");
    }
}
