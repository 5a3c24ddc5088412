//! Tiny random levels for the exhaustive tests: small enough that every layout
//! can be tried, with every kind of entity now and then.

use frosted::grid::{Dir, Kind, Shape};
use frosted::level::{Accepts, Channel, Flags, Level, Tile};
use frosted::xorshift::XorShift;

/// The project's xorshift generator ([`XorShift`]), with the draws these
/// tests need; seeded, so failures reproduce.
pub struct Rng(XorShift);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(XorShift(seed))
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }
    pub fn dir(&mut self) -> Dir {
        Dir::ALL[self.below(4)]
    }
}

/// `0..n` in a random order.
pub fn shuffled(rng: &mut Rng, n: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..v.len()).rev() {
        let j = rng.below(i + 1);
        v.swap(i, j);
    }
    v
}

/// A random direction that leads from cell `c` onto the board (or, with
/// `back`, into `c` from the board).
pub fn inward(rng: &mut Rng, shape: Shape, c: usize, back: bool) -> Dir {
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
}

/// Walls random free cells until at most `max_free` are left.
pub fn block_until_free(rng: &mut Rng, tiles: &mut [Tile], max_free: usize) {
    let mut free: Vec<usize> = (0..tiles.len())
        .filter(|&i| tiles[i] == Tile::Empty)
        .collect();
    while free.len() > max_free {
        let i = rng.below(free.len());
        tiles[free.swap_remove(i)] = Tile::Block;
    }
}

/// A random level with at most `max_free` free cells, on a board of 3 to 5
/// columns and 2 to 4 rows.
pub fn random_level(rng: &mut Rng, max_free: usize) -> Level {
    let width = 3 + rng.below(3);
    let height = 2 + rng.below(3);
    random_level_on(rng, Shape { width, height }, max_free)
}

/// A random level on a board of `shape` with at most `max_free` free cells.
pub fn random_level_on(rng: &mut Rng, shape: Shape, max_free: usize) -> Level {
    let mut tiles = vec![Tile::Empty; shape.len()];
    // Sources face into the board and targets can be entered from it, so that
    // a fair share of the levels is solvable.
    let mut it = shuffled(rng, shape.len()).into_iter();
    let inward = |rng: &mut Rng, c: usize, back: bool| inward(rng, shape, c, back);
    let place =
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
    block_until_free(rng, &mut tiles, max_free);
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

/// Every layout of `level`: each free cell empty or a belt in one of four
/// directions, with its belt count.
pub fn layouts(level: &Level) -> impl Iterator<Item = (Level, usize)> + '_ {
    let free: Vec<_> = level.free_cells().collect();
    let total = 5usize.pow(free.len() as u32);
    (0..total).map(move |code| {
        let mut layout = level.clone();
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
        (layout, belts)
    })
}

/// A random board full of entities with random belts on most of its empty
/// cells: `(level, layout)`, where the level has `.` wherever the layout has a
/// placed belt. Most such layouts fail; callers keep the ones that solve.
pub fn random_board(rng: &mut Rng) -> (Level, Level) {
    let shape = Shape {
        width: 3 + rng.below(4),
        height: 3 + rng.below(4),
    };
    let kind = |rng: &mut Rng| Kind::new(rng.below(3) as u8).unwrap_or(Kind::PLAIN);
    let mut tiles = vec![Tile::Empty; shape.len()];
    let mut teleporters = false;
    for t in tiles.iter_mut() {
        *t = match rng.below(40) {
            0..=2 => Tile::Source(rng.dir()),
            3 => Tile::AnySource(rng.dir()),
            4..=6 => Tile::Target {
                dir: rng.dir(),
                accepts: if rng.below(2) == 0 {
                    Accepts::Any
                } else {
                    Accepts::Only(kind(rng))
                },
            },
            7 | 8 => Tile::Topper {
                kind: Kind::new(1 + rng.below(2) as u8).unwrap_or(Kind::PLAIN),
                dir: rng.dir(),
            },
            9 | 10 => Tile::Splitter(rng.dir()),
            11 => Tile::Bumper {
                dir: rng.dir(),
                kind: kind(rng),
            },
            12 => Tile::Crossover,
            13 if !teleporters => {
                teleporters = true;
                Tile::TeleIn(Channel::T)
            }
            14 | 15 => Tile::Belt(rng.dir()),
            16 => Tile::Block,
            _ => Tile::Empty,
        };
    }
    if teleporters {
        let outs: Vec<usize> = (0..tiles.len())
            .filter(|&i| tiles[i] == Tile::Empty)
            .collect();
        for _ in 0..1 + rng.below(2) {
            if outs.is_empty() {
                break;
            }
            let i = outs[rng.below(outs.len())];
            tiles[i] = Tile::TeleOut(Channel::T, rng.dir());
        }
        if !tiles.iter().any(|t| matches!(t, Tile::TeleOut(..))) {
            for t in tiles.iter_mut() {
                if *t == Tile::TeleIn(Channel::T) {
                    *t = Tile::Block;
                }
            }
        }
    }
    let level = Level {
        shape,
        tiles,
        flags: Flags::default(),
    };
    let mut layout = level.clone();
    let empty_one_in = 2 + rng.below(6);
    for c in level.free_cells() {
        if rng.below(empty_one_in) != 0 {
            layout.tiles[c.index()] = Tile::Belt(rng.dir());
        }
    }
    (level, layout)
}

/// The fewest belts of any layout of `level` that solves it, found by trying
/// only the choices the runs read, and how many runs that took.
///
/// The simulator reads the player's choice on a `.` cell only when a donut
/// stands on it (`Outcome::visited`). So: run with every undecided cell empty;
/// if the run stood on no undecided cell, it is the run of every way of
/// filling them, and the cheapest of those fills nothing; otherwise decide one
/// such cell all five ways and go on. Layouts with as many belts as the best
/// so far are skipped. Unlike [`layouts`], this trusts `visited`; a test
/// checks the two against each other on levels small enough for both.
pub fn fewest_belts_by_reads(level: &Level) -> (Option<usize>, usize) {
    struct Search {
        best: Option<usize>,
        runs: usize,
    }
    fn go(s: &mut Search, layout: &mut Level, belts: usize, undecided: &mut Vec<bool>) {
        if s.best.is_some_and(|b| belts >= b) {
            return;
        }
        s.runs += 1;
        let verdict = frosted::judge::judge(layout);
        let read = (0..undecided.len()).find(|&i| undecided[i] && verdict.outcome.visited[i]);
        let Some(cell) = read else {
            if verdict.solved() {
                s.best = Some(belts);
            }
            return;
        };
        undecided[cell] = false;
        // Empty first: its run is the one just seen, and it costs no belt.
        go(s, layout, belts, undecided);
        for d in Dir::ALL {
            layout.tiles[cell] = Tile::Belt(d);
            go(s, layout, belts + 1, undecided);
        }
        layout.tiles[cell] = Tile::Empty;
        undecided[cell] = true;
    }
    let mut s = Search {
        best: None,
        runs: 0,
    };
    let mut layout = level.clone();
    let mut undecided: Vec<bool> = level.tiles.iter().map(|t| *t == Tile::Empty).collect();
    go(&mut s, &mut layout, 0, &mut undecided);
    (s.best, s.runs)
}
