//! Brute force against `solve`: on tiny random levels, trying every layout must
//! agree with the solver on whether the level is solvable and on the fewest belts.
//! This is what backs the claim that `unsolvable` and `optimal` are proofs.

use frosted::cegar::{solve, Options, Status};
use frosted::grid::{Dir, Kind, Shape};
use frosted::judge::judge;
use frosted::level::{Accepts, Channel, Flags, Level, Tile};

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn dir(&mut self) -> Dir {
        Dir::ALL[self.below(4)]
    }
}

/// A random level with at most `max_free` free cells.
fn random_level(rng: &mut Rng, max_free: usize) -> Level {
    let width = 3 + rng.below(3);
    let height = 2 + rng.below(3);
    let shape = Shape { width, height };
    let mut tiles = vec![Tile::Empty; shape.len()];
    let mut cells: Vec<usize> = (0..shape.len()).collect();
    for i in (1..cells.len()).rev() {
        let j = rng.below(i + 1);
        cells.swap(i, j);
    }
    // Sources face into the board and targets can be entered from it, so that
    // a fair share of the levels is solvable.
    let mut it = cells.into_iter();
    let inward = |rng: &mut Rng, c: usize, back: bool| {
        let cell = frosted::grid::CellId(c as u32);
        let ok: Vec<Dir> = Dir::ALL
            .into_iter()
            .filter(|&d| {
                shape
                    .step(cell, if back { d.opposite() } else { d })
                    .is_some()
            })
            .collect();
        ok[rng.below(ok.len())]
    };
    let mut place =
        |tiles: &mut Vec<Tile>, rng: &mut Rng, it: &mut dyn Iterator<Item = usize>, kind: usize| {
            let Some(c) = it.next() else { return };
            tiles[c] = match kind {
                0 => Tile::Source(inward(rng, c, false)),
                1 => Tile::AnySource(inward(rng, c, false)),
                2 => Tile::Target {
                    dir: inward(rng, c, true),
                    accepts: Accepts::Only(Kind::PLAIN),
                },
                3 => Tile::Target {
                    dir: inward(rng, c, true),
                    accepts: Accepts::Any,
                },
                _ => Tile::Target {
                    dir: inward(rng, c, true),
                    accepts: Accepts::Only(Kind::new(1).unwrap_or(Kind::PLAIN)),
                },
            };
        };
    let any = rng.below(4) == 0;
    place(&mut tiles, rng, &mut it, if any { 1 } else { 0 });
    if rng.below(3) == 0 {
        place(&mut tiles, rng, &mut it, 0);
    }
    let t = if any { 3 } else { [2, 2, 3, 4][rng.below(4)] };
    place(&mut tiles, rng, &mut it, t);
    if rng.below(3) == 0 {
        place(&mut tiles, rng, &mut it, 3);
    }
    let mut put = |t: Tile, it: &mut dyn Iterator<Item = usize>| {
        if let Some(c) = it.next() {
            tiles[c] = t;
        }
    };
    let extras = rng.below(3);
    for _ in 0..extras {
        let t = match rng.below(7) {
            0 => Tile::Topper {
                kind: Kind::new(1 + rng.below(2) as u8).unwrap_or(Kind::PLAIN),
                dir: rng.dir(),
            },
            1 => Tile::Splitter(rng.dir()),
            2 => Tile::Bumper {
                dir: rng.dir(),
                kind: Kind::new(rng.below(2) as u8).unwrap_or(Kind::PLAIN),
            },
            3 => Tile::Crossover,
            4 => Tile::Belt(rng.dir()),
            5 => Tile::Block,
            _ => {
                put(Tile::TeleIn(Channel::T), &mut it);
                Tile::TeleOut(Channel::T, rng.dir())
            }
        };
        put(t, &mut it);
    }
    // Block cells until few enough are free.
    let mut free: Vec<usize> = (0..tiles.len())
        .filter(|&i| tiles[i] == Tile::Empty)
        .collect();
    while free.len() > max_free {
        let i = rng.below(free.len());
        tiles[free.swap_remove(i)] = Tile::Block;
    }
    let mut flags = Flags::default();
    if rng.below(4) == 0 {
        flags.targets = Some(vec![Kind::PLAIN]);
    }
    Level {
        shape,
        tiles,
        flags,
    }
}

/// The fewest belts of any solving layout, by trying all of them.
fn brute_force(level: &Level) -> Option<usize> {
    let free: Vec<_> = level.free_cells().collect();
    let total = 5usize.pow(free.len() as u32);
    let mut best: Option<usize> = None;
    let mut layout = level.clone();
    for code in 0..total {
        let mut c = code;
        let mut belts = 0;
        for &cell in &free {
            let choice = c % 5;
            c /= 5;
            layout.tiles[cell.index()] = if choice == 0 {
                Tile::Empty
            } else {
                belts += 1;
                Tile::Belt(Dir::ALL[choice - 1])
            };
        }
        if best.is_some_and(|b| belts >= b) {
            continue;
        }
        if judge(&layout).solved() {
            best = Some(belts);
        }
    }
    best
}

#[test]
fn solve_agrees_with_brute_force_on_tiny_random_levels() {
    let cases: usize = std::env::var("FROSTED_BRUTE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut solvable, mut unsolvable) = (0, 0);
    for case in 0..cases {
        let max_free = if case % 10 == 9 { 8 } else { 7 };
        let level = random_level(&mut rng, max_free);
        let expected = brute_force(&level);
        let report = solve(&level, &Options::default(), &mut |_| {}).expect("solve runs");
        let got = match report.status {
            Status::Optimal => report.belts,
            Status::Unsolvable => None,
            other => panic!("case {case}: status {other:?} on\n{level}"),
        };
        assert_eq!(
            got, expected,
            "case {case}: solve says {:?} ({}), brute force says {expected:?}, on\n{level}\nsolver layout:\n{}",
            report.status,
            report.claim,
            report.layout.map(|l| l.to_string()).unwrap_or_default()
        );
        if let Some(l) = &report.layout {
            assert!(judge(l).solved());
        }
        match expected {
            Some(_) => solvable += 1,
            None => unsolvable += 1,
        }
    }
    eprintln!(
        "{cases} tiny levels: {solvable} solvable, {unsolvable} unsolvable; solve agreed on all"
    );
    // The generator must produce both kinds, or the comparison proves little.
    assert!(
        solvable >= cases / 10 && unsolvable >= cases / 10,
        "{solvable} solvable, {unsolvable} unsolvable"
    );
}
