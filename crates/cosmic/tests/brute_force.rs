//! `solve` against brute force on tiny random Cosmic Express levels: every
//! simple track from the entrance to the exit is enumerated and run through
//! the simulator, which gives whether the level is solvable and its fewest
//! cells. `solve` must agree on both, with every kind of proof it gives.
//!
//! `COSMIC_BRUTE_CASES` sets how many levels (default 300).

use cegar::xorshift::XorShift;
use cegar::{Options, Status};
use cosmic_express::grid::{Color, Entity, Point};
use cosmic_express::level::Level;
use cosmic_express::sim::simulate;
use cosmic_express::track::Track;

/// Whether `track` solves `level`.
fn solves(level: &Level, track: &Track) -> bool {
    let out = simulate(level, track);
    out.broken.is_none()
        && out.train.remaining_aliens().is_empty()
        && out.train.remaining_houses().is_empty()
}

/// The fewest cells of a solving track, by trying every simple track.
fn brute_force(level: &Level) -> Option<usize> {
    let mut best = None;
    let mut path = vec![level.entrance];
    extend(level, &mut path, &mut best);
    best
}

fn extend(level: &Level, path: &mut Vec<Point>, best: &mut Option<usize>) {
    let last = path[path.len() - 1];
    if last == level.exit {
        if best.is_none_or(|b| path.len() < b) && solves(level, &Track(path.clone())) {
            *best = Some(path.len());
        }
        return;
    }
    for q in last.neighbours() {
        let usable = q == level.exit || level.in_grid(q) && !level.blocked(q);
        if usable && !path.contains(&q) {
            path.push(q);
            extend(level, path, best);
            path.pop();
        }
    }
}

const COLORS: [Color; 3] = [Color::Purple, Color::Orange, Color::Green];

/// A random level: a small grid, the entrance on the left frame, the exit
/// on the right one, one to three cars (with three, the run is left to the
/// simulator and its dead-end clauses), up to two aliens with their houses
/// and a wall or two.
fn random_level(rng: &mut XorShift) -> Level {
    let width = 3 + rng.below(3) as i32;
    let height = 3 + rng.below(2) as i32;
    let mut free: Vec<Point> = (1..=height)
        .flat_map(|y| (1..=width).map(move |x| Point { x, y }))
        .collect();
    let mut take = |rng: &mut XorShift| free.swap_remove(rng.below(free.len() as u64) as usize);
    let mut entities = Vec::new();
    for _ in 0..1 + rng.below(2) {
        let color = COLORS[rng.below(3) as usize];
        entities.push((take(rng), Entity::Alien(color)));
        entities.push((take(rng), Entity::House(color)));
    }
    for _ in 0..rng.below(2) {
        entities.push((take(rng), Entity::Wall));
    }
    Level {
        width,
        height,
        length: 1 + rng.below(3) as usize,
        entrance: Point {
            x: 0,
            y: 1 + rng.below(height as u64) as i32,
        },
        exit: Point {
            x: width + 1,
            y: 1 + rng.below(height as u64) as i32,
        },
        entities,
    }
}

#[test]
fn solve_agrees_with_brute_force_on_tiny_random_levels() {
    let cases: usize = std::env::var("COSMIC_BRUTE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let mut rng = XorShift(0x5eed_c051_3c00);
    let (mut solvable, mut unsolvable) = (0, 0);
    for case in 0..cases {
        let level = random_level(&mut rng);
        let expected = brute_force(&level);
        for threads in [1, 2] {
            let opts = Options {
                threads,
                head_start: std::time::Duration::ZERO,
                ..Options::default()
            };
            let r = cosmic_express::puzzle::solve(&level, &opts, &mut |_| {}).expect("solve runs");
            let got = match r.status {
                Status::Optimal => r.cost,
                Status::Unsolvable => None,
                other => panic!("case {case}: status {other:?} on {level:?}"),
            };
            assert_eq!(got, expected, "case {case} ({threads} threads): {level:?}");
            if let Some(track) = &r.candidate {
                assert!(solves(&level, track), "case {case}: {track:?}");
            }
        }
        if expected.is_some() {
            solvable += 1;
        } else {
            unsolvable += 1;
        }
    }
    eprintln!("{solvable} solvable, {unsolvable} unsolvable tiny levels agree with brute force");
    assert!(
        solvable > cases / 10 && unsolvable > cases / 10,
        "{solvable} / {unsolvable}"
    );
}

/// Every simple track of `level`, as lists of cells.
fn every_track(level: &Level) -> Vec<Vec<Point>> {
    fn walk(level: &Level, path: &mut Vec<Point>, out: &mut Vec<Vec<Point>>) {
        let last = path[path.len() - 1];
        if last == level.exit {
            out.push(path.clone());
            return;
        }
        for q in last.neighbours() {
            let usable = q == level.exit || level.in_grid(q) && !level.blocked(q);
            if usable && !path.contains(&q) {
                path.push(q);
                walk(level, path, out);
                path.pop();
            }
        }
    }
    let mut out = Vec::new();
    walk(level, &mut vec![level.entrance], &mut out);
    out
}

/// The encoding with a track's cells and moves fixed is satisfiable exactly
/// when the simulator says the track solves the level: the run's clauses
/// (one or two cars) are exact, neither stronger nor weaker than the rules;
/// with three cars, the encoding admits at least every solving track.
#[test]
fn the_encoding_accepts_exactly_the_tracks_the_simulator_accepts() {
    use cegar::sat::{Answer, Backend, VarisatBackend};
    use cosmic_express::encode::Encoding;
    use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
    let mut rng = XorShift(0x0dd_ba11_5eed);
    let (mut solving, mut failing) = (0, 0);
    for case in 0..60 {
        let level = random_level(&mut rng);
        let mut vars = BasicVarManager::default();
        let mut cnf = Cnf::new();
        let enc = Encoding::new(&level, &mut cnf, &mut vars);
        let mut solver = VarisatBackend::default();
        cnf.iter().for_each(|cl| solver.add_clause(cl));
        for path in every_track(&level).into_iter().take(400) {
            let assume = enc.fixing(&path).expect("a simple track");
            let answer = solver
                .solve(&assume, vars.n_used(), None)
                .expect("varisat answers");
            let sat = matches!(answer, Answer::Sat(_));
            let track = Track(path);
            let solved = solves(&level, &track);
            if level.length <= 2 {
                assert_eq!(sat, solved, "case {case}: {track:?} on {level:?}");
            } else {
                // Three cars: the run is left to the simulator, and the
                // encoding is a relaxation that admits every solving track.
                assert!(sat || !solved, "case {case}: {track:?} on {level:?}");
            }
            if solved {
                solving += 1;
            } else {
                failing += 1;
            }
        }
    }
    eprintln!("{solving} solving and {failing} failing tracks: the encoding agrees on each");
    assert!(solving > 20 && failing > 100, "{solving} / {failing}");
}
