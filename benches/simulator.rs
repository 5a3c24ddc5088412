//! Benchmarks of the exact simulator on the real levels in `../shared/ff-levels`:
//! the known solutions of the largest levels, and batches of random layouts of two
//! big open levels. Skipped, with a message, when the levels are absent.
//!
//! Run with `cargo bench --bench simulator`; `cargo bench --no-run` only builds.

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use frosted::grid::Dir;
use frosted::level::Level;
use frosted::sim::simulate;
use std::hint::black_box;
use std::path::Path;

/// Known solutions benchmarked: the three real levels with the most cells that
/// have a solution, plus these, named for their long or busy runs.
const NAMED_SOLUTIONS: &[&str] = &[
    "08-hot-summer/05",
    "12-deepest-midnight/01",
    "10-autumn-festivities/01",
];

/// Levels whose random layouts are benchmarked: large and mostly free floor.
const RANDOM_LAYOUT_LEVELS: &[&str] = &["12-deepest-midnight/07", "03-autumn-sunset/07"];

/// Random layouts per batch.
const BATCH: usize = 64;

/// The level and its solution (with the level's flags), by `world/NN`.
fn solved(root: &Path, name: &str) -> Option<(Level, Level)> {
    let level_path = root.join(format!("{name}.txt"));
    let sol_path = root.join(format!("{name}.solution.txt"));
    if !level_path.exists() || !sol_path.exists() {
        eprintln!("SKIPPED: {name} has no level or no solution");
        return None;
    }
    let level = common::load(&level_path);
    let mut sol = common::load(&sol_path);
    sol.flags = level.flags.clone();
    Some((level, sol))
}

/// `world/NN` of the levels with a known solution, most cells first.
fn largest_solved(root: &Path, n: usize) -> Vec<String> {
    let mut sized: Vec<(usize, String)> = common::real_levels(root)
        .into_iter()
        .filter(|p| p.with_extension("solution.txt").exists())
        .filter_map(|p| {
            let rel = p.strip_prefix(root).ok()?.with_extension("");
            let name = rel.to_str()?.replace('\\', "/");
            Some((common::load(&p).shape.len(), name))
        })
        .collect();
    sized.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    sized.into_iter().take(n).map(|(_, name)| name).collect()
}

/// A small deterministic generator (xorshift64*), so every run benchmarks the same
/// layouts.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// `count` random layouts of `level`: every free cell gets a belt in a random
/// direction (with gaps, nearly every donut strands within a few ticks).
fn random_layouts(level: &Level, count: usize, seed: u64) -> Vec<Level> {
    let mut rng = Rng(seed | 1);
    (0..count)
        .map(|_| {
            let belts: Vec<_> = level
                .free_cells()
                .map(|c| (c, Dir::ALL[(rng.next() % 4) as usize]))
                .collect();
            level.with_belts(belts)
        })
        .collect()
}

fn known_solutions(c: &mut Criterion) {
    let Some(root) = common::ff_levels() else {
        eprintln!("SKIPPED: the simulator benchmarks need ../shared/ff-levels");
        return;
    };
    let mut names = largest_solved(&root, 3);
    for n in NAMED_SOLUTIONS {
        if !names.iter().any(|m| m == n) {
            names.push((*n).to_string());
        }
    }
    let mut group = c.benchmark_group("solution");
    for name in names {
        let Some((_, sol)) = solved(&root, &name) else {
            continue;
        };
        let ticks = simulate(&sol).end.tick();
        let id = format!(
            "{name} ({}x{}, {ticks} ticks)",
            sol.shape.width, sol.shape.height
        );
        group.bench_function(id, |b| b.iter(|| simulate(black_box(&sol))));
    }
    group.finish();
}

fn random_layouts_of_open_levels(c: &mut Criterion) {
    let Some(root) = common::ff_levels() else {
        return;
    };
    let mut group = c.benchmark_group("random-layouts");
    for (i, name) in RANDOM_LAYOUT_LEVELS.iter().enumerate() {
        let path = root.join(format!("{name}.txt"));
        if !path.exists() {
            eprintln!("SKIPPED: {} is absent", path.display());
            continue;
        }
        let level = common::load(&path);
        let layouts = random_layouts(&level, BATCH, 0x5eed_0000 + i as u64);
        let ticks: u64 = layouts
            .iter()
            .map(|l| u64::from(simulate(l).end.tick()))
            .sum();
        let id = format!("{name} ({BATCH} layouts, {ticks} ticks in all)");
        group.bench_function(id, |b| {
            b.iter(|| {
                for l in &layouts {
                    black_box(simulate(black_box(l)));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, known_solutions, random_layouts_of_open_levels);
criterion_main!(benches);
