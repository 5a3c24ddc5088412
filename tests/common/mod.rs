//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod tiny;

use frosted::level::Level;
use frosted::parse::parse_bytes;
use std::path::{Path, PathBuf};

/// `../shared/ff-levels`, the real levels. `None` (with a message on stderr) when
/// absent; in CI (`CI` set) its absence is an error, so those tests always run there.
pub fn ff_levels() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/ff-levels");
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!("CI is set but {} is missing", dir.display());
    }
    eprintln!(
        "SKIPPED: {} is absent; the tests on real levels need it beside the repository",
        dir.display()
    );
    None
}

pub fn load(path: &Path) -> Level {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_bytes(&bytes).unwrap_or_else(|e| panic!("{}", e.render(&path.display().to_string())))
}

/// The real level files (not solutions), sorted.
pub fn real_levels(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for world in std::fs::read_dir(root).expect("ff-levels") {
        let world = world.expect("entry").path();
        if !world.is_dir() || world.ends_with("judged") {
            continue;
        }
        for f in std::fs::read_dir(&world).expect("world") {
            let f = f.expect("entry").path();
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(".txt") && !name.contains("solution") {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

pub fn repo_levels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("levels")
}

/// The folder of generated levels under `levels/` (`tests/generated.rs`):
/// not hand-made examples.
pub const GENERATED: &str = "generated";

/// The generated corpus's level files (`levels/generated`, not their
/// hidden layouts), sorted.
pub fn corpus() -> Vec<PathBuf> {
    let mut out = level_files_in(&repo_levels().join(GENERATED));
    out.sort();
    out
}

/// The level files of one folder of `levels/`: `.txt`, not a solution
/// (`NAME.solution.txt`) or a wrong layout (`NAME.wrong.txt`).
fn level_files_in(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .expect("a folder of levels/")
        .map(|f| f.expect("entry").path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".txt")
                && !name.ends_with(".solution.txt")
                && !name.ends_with(".wrong.txt")
        })
        .collect()
}

/// The example level files in `levels/` (not solutions or wrong layouts, not
/// the generated corpus), sorted.
pub fn example_levels() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for world in std::fs::read_dir(repo_levels()).expect("levels/") {
        let world = world.expect("entry").path();
        if !world.is_dir() || world.ends_with(GENERATED) {
            continue;
        }
        out.extend(level_files_in(&world));
    }
    out.sort();
    out
}

/// How many random cases a test runs: the environment variable `name` when set
/// to a number, else `default`.
pub fn cases(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The solve loop on a level, as the tests call it: `cegar`'s loop with the
/// Freshly Frosted puzzle, progress events only.
pub mod solving {
    #[allow(unused_imports)]
    pub use cegar::{Options, Status};
    use frosted::level::Level;

    pub type Report = cegar::Report<Level>;

    /// Solves `level`; `progress` sees every progress event.
    pub fn solve(
        level: &Level,
        opts: &Options,
        progress: &mut dyn FnMut(&cegar::Progress<Level>),
    ) -> Result<Report, String> {
        solve_lazy(level, opts, None, progress)
    }

    /// [`solve`] with the belt counter lazy above `lazy_from` free cells.
    pub fn solve_lazy(
        level: &Level,
        opts: &Options,
        lazy_from: Option<usize>,
        progress: &mut dyn FnMut(&cegar::Progress<Level>),
    ) -> Result<Report, String> {
        let defaults = freshly_frosted::encode::EncodeOptions::default();
        let encode = freshly_frosted::encode::EncodeOptions {
            lazy_counter_from: lazy_from.unwrap_or(defaults.lazy_counter_from),
            ..defaults
        };
        solve_encoded(level, opts, &encode, progress)
    }

    /// [`solve`] with the encoding's options `encode`.
    pub fn solve_encoded(
        level: &Level,
        opts: &Options,
        encode: &freshly_frosted::encode::EncodeOptions,
        progress: &mut dyn FnMut(&cegar::Progress<Level>),
    ) -> Result<Report, String> {
        freshly_frosted::puzzle::solve(level, opts, encode, &mut |e| {
            if let cegar::Event::Progress(p) = e {
                progress(p)
            }
        })
    }

    /// The claim in words.
    pub fn claim(r: &Report) -> String {
        r.claim.describe(r.cost, &freshly_frosted::puzzle::NOUNS)
    }

    /// What was proved: no layout with at most `Some(k)` belts (`None`: of
    /// any size) solves.
    pub fn proof(r: &Report) -> Option<Option<usize>> {
        r.proof().map(|p| p.max_cost)
    }

    /// The proof came from the chain bound.
    pub fn proved_by_chains(r: &Report) -> bool {
        r.proof()
            .is_some_and(|p| p.by == cegar::ProofMethod::LowerBound("chain bound"))
    }
}
