//! The chain bound (`crates/frosted/src/chains/`) must never rule out a real solution: on
//! random small levels of its class, brute force finds the fewest belts and
//! the bound must allow that many; on the real levels, it must allow the belt
//! count of every known solution; on the example levels, `solve` proves
//! the same minima with it as without it. On 09-tropical-rain/11 it proves the
//! minimum that the SAT calls cannot prove within the minute.
//!
//! `FROSTED_CHAIN_CASES` sets how many random levels, `FROSTED_BRUTE_SEED`
//! draws other ones.

mod common;

use common::tiny::{block_until_free, fewest_belts_by_reads, inward, shuffled, Rng};
use frosted::chains::{Bound, ChainBound};
use frosted::grid::{CellId, Dir, Kind, Shape};
use frosted::level::{Accepts, Channel, Flags, Level, Tile};

const BUDGET: u64 = 500_000_000;

/// The budget of a search that prices chains by simple paths, in the
/// tests on larger boards.
const SIMPLE_BUDGET: u64 = 20_000_000;

/// `FROSTED_BRUTE_SEED` when set to a number, else `default`.
fn seed(default: u64) -> u64 {
    std::env::var("FROSTED_BRUTE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A random level in the bound's class: one source (two, one time in
/// three; an any-source, one time in four), targets, toppers, splitters, teleporters (with two outs, one time
/// in three), and now and then preset belts or crossovers, at most
/// `max_free` free cells.
fn random_chain_level(rng: &mut Rng, max_free: usize) -> Level {
    let shape = Shape {
        width: 3 + rng.below(3),
        height: 3 + rng.below(2),
    };
    let mut tiles = vec![Tile::Empty; shape.len()];
    let mut it = shuffled(rng, shape.len()).into_iter();
    let inward = |rng: &mut Rng, c: usize, back: bool| inward(rng, shape, c, back);
    let kind = |rng: &mut Rng, n: usize| Kind::new(rng.below(n) as u8).unwrap_or(Kind::PLAIN);
    let mut next = || it.next();
    if let Some(c) = next() {
        let d = inward(rng, c, false);
        tiles[c] = match rng.below(4) {
            0 => Tile::AnySource(d),
            _ => Tile::Source(d),
        };
    }
    for _ in 0..1 + rng.below(2) {
        if let Some(c) = next() {
            let accepts = match rng.below(3) {
                0 => Accepts::Any,
                _ => Accepts::Only(kind(rng, 4)),
            };
            tiles[c] = Tile::Target {
                dir: inward(rng, c, true),
                accepts,
            };
        }
    }
    for _ in 0..rng.below(4) {
        if let Some(c) = next() {
            tiles[c] = Tile::Topper {
                kind: Kind::new(1 + rng.below(3) as u8).unwrap_or(Kind::PLAIN),
                dir: rng.dir(),
            };
        }
    }
    for _ in 0..rng.below(3) {
        if let Some(c) = next() {
            tiles[c] = Tile::Splitter(rng.dir());
        }
    }
    for ch in [Channel::T, Channel::U] {
        if rng.below(3) == 0 {
            if let (Some(a), Some(b)) = (next(), next()) {
                tiles[a] = Tile::TeleIn(ch);
                tiles[b] = Tile::TeleOut(ch, rng.dir());
                if rng.below(3) == 0 {
                    if let Some(c) = next() {
                        tiles[c] = Tile::TeleOut(ch, rng.dir());
                    }
                }
            }
        }
    }
    if rng.below(3) == 0 {
        for _ in 0..1 + rng.below(2) {
            if let Some(c) = next() {
                tiles[c] = Tile::Crossover;
            }
        }
    }
    if rng.below(3) == 0 {
        for _ in 0..1 + rng.below(2) {
            if let Some(c) = next() {
                tiles[c] = Tile::Belt(rng.dir());
            }
        }
    }
    let sources = 1 + usize::from(rng.below(3) == 0);
    if sources == 2 {
        if let Some(c) = next() {
            tiles[c] = Tile::Source(inward(rng, c, false));
        }
    }
    block_until_free(rng, &mut tiles, max_free);
    let mut flags = Flags::default();
    if rng.below(3) == 0 {
        let mut kinds: Vec<Kind> = (0..sources + rng.below(2)).map(|_| kind(rng, 4)).collect();
        kinds.sort();
        if sources == 1 {
            kinds.dedup();
        }
        flags.targets = Some(kinds);
    }
    Level {
        shape,
        tiles,
        flags,
    }
}

#[test]
fn the_bound_allows_the_fewest_belts_of_random_levels() {
    let cases = common::cases("FROSTED_CHAIN_CASES", 400);
    let mut rng = Rng::new(seed(0xc4a1_0b0d_0001));
    let (mut checked, mut tight, mut branching) = (0, 0, 0);
    let (mut tight_simple, mut by_pairs) = (0, 0);
    let mut seen = Mechanics::default();
    let mut case = 0;
    while checked < cases {
        case += 1;
        let max_free = 7 + rng.below(5);
        let level = random_chain_level(&mut rng, max_free);
        let Ok(cb) = ChainBound::new(&level) else {
            continue;
        };
        let (best, _) = fewest_belts_by_reads(&level);
        let Some(m) = best else { continue };
        checked += 1;
        match cb.allows(m, BUDGET) {
            Bound::Allowed { cost } => assert!(cost <= m, "case {case}: cost {cost} > {m}"),
            Bound::Refuted => panic!(
                "case {case}: the bound rules out {m} belts, but a layout with {m} solves\n{level}"
            ),
            Bound::OutOfBudget => panic!("case {case}: out of budget\n{level}"),
        }
        if m > 0 && cb.allows(m - 1, BUDGET) == Bound::Refuted {
            tight += 1;
            // Without pricing pairs of chains together, the bound is lower.
            let alone = ChainBound::new(&level)
                .expect("the bound applies")
                .with_pairs(false);
            by_pairs += usize::from(alone.allows(m - 1, BUDGET) != Bound::Refuted);
        }
        // Priced by simple paths, the bound is higher, and still allows
        // the minimum.
        let simple = ChainBound::new(&level)
            .expect("the bound applies")
            .with_simple_paths(true);
        match simple.allows(m, BUDGET) {
            Bound::Allowed { cost } => assert!(cost <= m, "case {case}: simple paths cost {cost} > {m}"),
            Bound::Refuted => panic!(
                "case {case}: by simple paths the bound rules out {m} belts, but a layout with {m} solves\n{level}"
            ),
            Bound::OutOfBudget => {}
        }
        if m > 0 && simple.allows(m - 1, BUDGET) == Bound::Refuted {
            tight_simple += 1;
        }
        if level.tiles.iter().any(|t| matches!(t, Tile::Splitter(_))) {
            branching += 1;
        }
        seen.count(&level);
    }
    let Mechanics {
        several,
        preset,
        crossing,
        copying,
        any,
        passing,
        double,
    } = seen;
    eprintln!(
        "{checked} solvable levels of the class ({case} drawn): the bound allowed each \
         minimum, and proved it on {tight} ({tight_simple} by simple paths, {by_pairs} only with pairs of chains priced together); \
         {branching} have a splitter, {several} two sources, \
         {preset} preset belts, {crossing} crossovers, {copying} a teleporter with two outs, \
         {any} an any-source, {passing} a topper working on a cell donuts pass, {double} two \
         toppers working on one cell"
    );
    // The comparison must bite: the bound proves many minima, and many
    // levels branch.
    assert!(tight >= cases / 4, "tight on {tight} of {cases}");
    assert!(
        tight_simple >= tight,
        "simple paths tight on {tight_simple}, {tight} without"
    );
    assert!(
        branching >= cases / 10,
        "{branching} of {cases} with a splitter"
    );
    assert!(
        several >= cases / 20,
        "{several} of {cases} with two sources"
    );
    assert!(
        preset >= cases / 20,
        "{preset} of {cases} with preset belts"
    );
    assert!(
        crossing >= cases / 20,
        "{crossing} of {cases} with crossovers"
    );
    assert!(
        copying >= cases / 40,
        "{copying} of {cases} with a teleporter with two outs"
    );
    assert!(any >= cases / 20, "{any} of {cases} with an any-source");
    assert!(
        passing >= cases / 20,
        "{passing} of {cases} with a topper working on a cell donuts pass"
    );
    assert!(
        double >= cases / 100,
        "{double} of {cases} with two toppers working on one cell"
    );
}

/// What the bound knows of the sources' first deliveries (a source whose
/// chain runs alone into a target delivers its first donut there first)
/// rules out topologies, never a solution: on random levels of the class,
/// whose first source is an any-source one time in two or more and whose
/// targets accept every kind one time in three, the bound
/// still allows each minimum that brute force finds, and it refutes bounds
/// below the minimum that the bound without it allowed.
#[test]
fn first_deliveries_rule_out_no_solution() {
    let cases = common::cases("FROSTED_CHAIN_CASES", 400);
    let mut rng = Rng::new(seed(0xf1a5_7d0e_0003));
    let (mut checked, mut raised, mut unsolvable) = (0, 0, 0);
    while checked < cases {
        let max_free = 7 + rng.below(5);
        let mut level = random_chain_level(&mut rng, max_free);
        if rng.below(2) == 0 {
            first_source_emits_every_kind(&mut level);
        }
        if rng.below(3) == 0 {
            every_target_accepts_every_kind(&mut level);
        }
        let Ok(cb) = ChainBound::new(&level) else {
            continue;
        };
        let without = ChainBound::new(&level)
            .expect("the bound applies")
            .with_first_deliveries(false);
        match against_brute_force(&level, &cb, &without) {
            Gain::Solvable { raised: r } => (checked, raised) = (checked + 1, raised + r),
            Gain::Unsolvable { refuted } => unsolvable += refuted,
        }
    }
    eprintln!(
        "{checked} solvable levels: the bound with first deliveries allowed each minimum, \
         and refuted more bounds than without on {raised}; it alone proved {unsolvable} \
         unsolvable levels unsolvable"
    );
    assert!(
        raised + unsolvable >= cases / 50,
        "raised on {raised}, {unsolvable} unsolvable"
    );
}

/// What a part of the bound (`cb`, against `without` it) gains on one
/// level, as 0 or 1.
enum Gain {
    /// A layout solves: whether `cb` refutes a larger bound below the
    /// minimum.
    Solvable { raised: usize },
    /// None does: whether `cb` refutes every size and `without` does not.
    Unsolvable { refuted: usize },
}

/// Checks the bound `cb` against brute force on `level` (it must allow the
/// minimum, when a layout solves), and says what it gains over `without`.
fn against_brute_force(level: &Level, cb: &ChainBound, without: &ChainBound) -> Gain {
    let (Some(m), _) = fewest_belts_by_reads(level) else {
        // No layout solves: a refutation of every size is right.
        let all = level.free_cells().count();
        let refutes = |b: &ChainBound| b.allows(all, BUDGET) == Bound::Refuted;
        return Gain::Unsolvable {
            refuted: usize::from(refutes(cb) && !refutes(without)),
        };
    };
    match cb.allows(m, BUDGET) {
        Bound::Allowed { cost } => assert!(cost <= m, "cost {cost} > {m}\n{level}"),
        other => panic!("{other:?} at {m} belts, but a layout with {m} solves\n{level}"),
    }
    let refuted = |b: &ChainBound| {
        (0..m)
            .rev()
            .find(|&k| b.allows(k, BUDGET) == Bound::Refuted)
    };
    Gain::Solvable {
        raised: usize::from(refuted(cb) > refuted(without)),
    }
}

/// Pricing two chains together (each ends in a target or a fork, and no
/// chain merges into one of them, which walks its simple paths; the other
/// is priced around each) rules out topologies, never a solution: on
/// random levels with two sources and two targets, where the chains often
/// cross, the bound still allows each minimum that brute force finds, and
/// it refutes bounds below the minimum that the bound pricing each chain
/// alone allowed.
#[test]
fn pairs_of_chains_rule_out_no_solution() {
    let cases = common::cases("FROSTED_CHAIN_CASES", 400);
    let mut rng = Rng::new(seed(0x9a12_c4a1_0004));
    let (mut checked, mut raised, mut unsolvable) = (0, 0, 0);
    while checked < cases {
        let max_free = 9 + rng.below(5);
        let level = random_crossing_level(&mut rng, max_free);
        let Ok(cb) = ChainBound::new(&level) else {
            continue;
        };
        let alone = ChainBound::new(&level)
            .expect("the bound applies")
            .with_pairs(false);
        match against_brute_force(&level, &cb, &alone) {
            Gain::Solvable { raised: r } => (checked, raised) = (checked + 1, raised + r),
            Gain::Unsolvable { refuted } => unsolvable += refuted,
        }
    }
    eprintln!(
        "{checked} solvable levels with two sources: the bound with pairs of chains priced \
         together allowed each minimum, and refuted more bounds than without on {raised}; \
         it alone proved {unsolvable} unsolvable levels unsolvable"
    );
    assert!(
        raised + unsolvable >= cases / 50,
        "raised on {raised}, {unsolvable} unsolvable"
    );
}

/// Bumpers push the donuts of their kind off a chain onto a chain of
/// their own (`encodings/README.md`, "The chain bound": a free cell a
/// bumper works on is a waypoint, which starts a chain where the bumper
/// pushes, and with bumpers a chain may merge into itself before a
/// waypoint). On random levels of the class with one or two bumpers
/// working on free cells (the first source an any-source one time in two),
/// the bound allows each minimum that brute force finds, and proves many
/// of them.
#[test]
fn bumpers_push_donuts_onto_chains_of_their_own() {
    // Levels whose minimum the bumpers change: the bumpers push donuts on
    // the way of every smallest solution (about one solvable level in 25).
    let cases = common::cases("FROSTED_CHAIN_CASES", 400) / 4;
    let mut rng = Rng::new(seed(0xb0b0_5e1f_0005));
    let (mut checked, mut tight, mut unsolvable, mut drawn) = (0, 0, 0, 0);
    let (mut pushing, mut tight_pushing) = (0, 0);
    while pushing < cases {
        drawn += 1;
        let max_free = 7 + rng.below(5);
        let mut level = random_chain_level(&mut rng, max_free);
        if rng.below(4) != 0 {
            first_source_emits_every_kind(&mut level);
        }
        if !bumpers_on_free_cells(&mut rng, &mut level) {
            continue;
        }
        let Ok(cb) = ChainBound::new(&level) else {
            continue;
        };
        let (Some(m), _) = fewest_belts_by_reads(&level) else {
            let all = level.free_cells().count();
            unsolvable += usize::from(cb.allows(all, BUDGET) == Bound::Refuted);
            continue;
        };
        checked += 1;
        match cb.allows(m, BUDGET) {
            Bound::Allowed { cost } => assert!(cost <= m, "cost {cost} > {m}\n{level}"),
            other => panic!("{other:?} at {m} belts, but a layout with {m} solves\n{level}"),
        }
        let proved = m > 0 && cb.allows(m - 1, BUDGET) == Bound::Refuted;
        tight += usize::from(proved);
        // Priced by simple paths (the deeper search `solve` asks), too.
        let simple = ChainBound::new(&level)
            .expect("the bound applies")
            .with_simple_paths(true);
        match simple.allows(m, BUDGET) {
            Bound::Allowed { cost } => assert!(cost <= m, "simple paths cost {cost} > {m}"),
            Bound::Refuted => panic!("by simple paths {m} belts are refuted\n{level}"),
            Bound::OutOfBudget => {}
        }
        if fewest_belts_by_reads(&without_bumpers(&level)).0 != Some(m) {
            pushing += 1;
            tight_pushing += usize::from(proved);
        }
    }
    eprintln!(
        "{checked} solvable levels with bumpers ({drawn} drawn): the bound allowed each \
         minimum and proved it on {tight}; on the {pushing} whose minimum changes once the \
         bumpers are walls, on {tight_pushing}; it proved {unsolvable} unsolvable levels unsolvable"
    );
    assert!(tight >= checked / 4, "tight on {tight} of {checked}");
    assert!(
        tight_pushing >= pushing / 4,
        "tight on {tight_pushing} of the {pushing} the bumpers matter on"
    );
}

/// `level` with a wall for each bumper.
fn without_bumpers(level: &Level) -> Level {
    let mut level = level.clone();
    for t in &mut level.tiles {
        if matches!(t, Tile::Bumper { .. }) {
            *t = Tile::Block;
        }
    }
    level
}

/// Puts one or two bumpers of random kinds on walls or free cells of
/// `level`, each facing a free cell; whether one was put.
fn bumpers_on_free_cells(rng: &mut Rng, level: &mut Level) -> bool {
    let shape = level.shape;
    let mut put = false;
    for _ in 0..1 + rng.below(2) {
        let free = |l: &Level, c: CellId| l.tile(c) == Tile::Empty;
        let spots: Vec<(CellId, Dir)> = shape
            .cells()
            .filter(|&c| matches!(level.tile(c), Tile::Empty | Tile::Block))
            .flat_map(|c| Dir::ALL.into_iter().map(move |d| (c, d)))
            .filter(|&(c, d)| shape.step(c, d).is_some_and(|p| free(level, p)))
            .collect();
        if spots.is_empty() {
            break;
        }
        let (c, dir) = spots[rng.below(spots.len())];
        // Plain half the time: every source's donuts start plain.
        let kind = Kind::new(rng.below(8).saturating_sub(4) as u8).unwrap_or(Kind::PLAIN);
        level.tiles[c.index()] = Tile::Bumper { dir, kind };
        put = true;
    }
    put
}

/// A random level of the class with two plain sources and two targets
/// that accept every kind, now and then a topper or a splitter, on a
/// board of 4×4 to 5×5 with at most `max_free` free cells.
fn random_crossing_level(rng: &mut Rng, max_free: usize) -> Level {
    let shape = Shape {
        width: 4 + rng.below(2),
        height: 4 + rng.below(2),
    };
    let mut tiles = vec![Tile::Empty; shape.len()];
    let mut it = shuffled(rng, shape.len()).into_iter();
    for _ in 0..2 {
        if let (Some(s), Some(t)) = (it.next(), it.next()) {
            tiles[s] = Tile::Source(inward(rng, shape, s, false));
            tiles[t] = Tile::Target {
                dir: inward(rng, shape, t, true),
                accepts: Accepts::Any,
            };
        }
    }
    if rng.below(3) == 0 {
        if let Some(c) = it.next() {
            tiles[c] = Tile::Topper {
                kind: Kind::new(1).unwrap_or(Kind::PLAIN),
                dir: rng.dir(),
            };
        }
    }
    if rng.below(4) == 0 {
        if let Some(c) = it.next() {
            tiles[c] = Tile::Splitter(rng.dir());
        }
    }
    block_until_free(rng, &mut tiles, max_free);
    Level {
        shape,
        tiles,
        flags: Flags::default(),
    }
}

/// Makes every target of `level` accept every kind (so that `:targets`
/// alone decides which kinds may come).
fn every_target_accepts_every_kind(level: &mut Level) {
    for t in &mut level.tiles {
        if let Tile::Target { accepts, .. } = t {
            *accepts = Accepts::Any;
        }
    }
}

/// Turns the first source of `level` into an any-source facing the same way.
fn first_source_emits_every_kind(level: &mut Level) {
    if let Some(t) = level
        .tiles
        .iter_mut()
        .find(|t| matches!(t, Tile::Source(_)))
    {
        if let Tile::Source(d) = *t {
            *t = Tile::AnySource(d);
        }
    }
}

/// How many of the levels checked have each mechanic of the bound's class,
/// so that the tests can insist that each one is covered.
#[derive(Default)]
struct Mechanics {
    several: usize,
    preset: usize,
    crossing: usize,
    copying: usize,
    any: usize,
    passing: usize,
    double: usize,
}

impl Mechanics {
    /// Counts the mechanics of `level`.
    fn count(&mut self, level: &Level) {
        let has = |f: fn(&Tile) -> bool| level.tiles.iter().any(f);
        self.several += usize::from(level.sources().count() > 1);
        self.preset += usize::from(has(|t| matches!(t, Tile::Belt(_))));
        self.crossing += usize::from(has(|t| *t == Tile::Crossover));
        self.copying += usize::from(several_outs(level));
        self.any += usize::from(has(|t| matches!(t, Tile::AnySource(_))));
        self.passing += usize::from(topper_on_a_passing_cell(level));
        self.double += usize::from(two_toppers_on_one_cell(level));
    }
}

/// Whether two toppers of `level` work on one cell.
fn two_toppers_on_one_cell(level: &Level) -> bool {
    let mut worked = vec![0; level.shape.len()];
    for c in level.shape.cells() {
        if let Tile::Topper { dir, .. } = level.tile(c) {
            if let Some(w) = level.shape.step(c, dir) {
                worked[w.index()] += 1;
            }
        }
    }
    worked.iter().any(|&n| n > 1)
}

/// Whether a topper of `level` works on a preset belt, a crossover, a
/// splitter or a teleporter.
fn topper_on_a_passing_cell(level: &Level) -> bool {
    level.shape.cells().any(|c| match level.tile(c) {
        Tile::Topper { dir, .. } => level.shape.step(c, dir).is_some_and(|w| {
            matches!(
                level.tile(w),
                Tile::Belt(_)
                    | Tile::Crossover
                    | Tile::Splitter(_)
                    | Tile::TeleIn(_)
                    | Tile::TeleOut(..)
            )
        }),
        _ => false,
    })
}

/// Whether some teleporter channel of `level` has several outs.
fn several_outs(level: &Level) -> bool {
    [Channel::T, Channel::U]
        .into_iter()
        .any(|ch| level.tele_outs(ch).nth(1).is_some())
}

/// The belts a layout adds to its level.
fn added(level: &Level, layout: &Level) -> usize {
    layout.added_belts(level)
}

#[test]
fn the_bound_allows_every_known_solution_of_the_real_levels() {
    let Some(root) = common::ff_levels() else {
        return;
    };
    let mut checked = 0;
    for path in common::real_levels(&root) {
        let level = common::load(&path);
        let Ok(cb) = ChainBound::new(&level) else {
            continue;
        };
        let solution = path.with_extension("solution.txt");
        if !solution.exists() {
            continue;
        }
        let belts = added(&level, &common::load(&solution));
        let answer = cb.allows(belts, BUDGET);
        assert!(
            matches!(answer, Bound::Allowed { cost } if cost <= belts),
            "{}: {answer:?} for a solution with {belts} belts",
            path.display()
        );
        let simple = cb.with_simple_paths(true).allows(belts, SIMPLE_BUDGET);
        assert!(
            matches!(simple, Bound::Allowed { cost } if cost <= belts)
                || simple == Bound::OutOfBudget,
            "{}: by simple paths {simple:?} for a solution with {belts} belts",
            path.display()
        );
        checked += 1;
    }
    eprintln!("{checked} real levels of the class with a known solution");
    assert!(checked >= 5, "only {checked} real levels checked");
}

#[test]
fn the_bound_proves_37_belts_minimal_on_tropical_rain_11() {
    let Some(root) = common::ff_levels() else {
        return;
    };
    let level = common::load(&root.join("09-tropical-rain/11.txt"));
    let cb = ChainBound::new(&level).expect("09/11 is in the class");
    assert_eq!(cb.allows(36, BUDGET), Bound::Refuted);
    assert_eq!(cb.allows(37, BUDGET), Bound::Allowed { cost: 37 });
}

/// A random solution-shaped board of the class: walks of belts from the
/// source (from each of two sources, one time in three), some of which end in a target, some in a splitter (whose exits
/// walk on), some on a belt already laid (a merge), some through a
/// teleporter; then toppers beside the belts. `(level, layout)`, where the
/// level has `.` wherever the layout has a belt, but for a few preset belts
/// on some boards. Many of them solve.
fn random_chain_board(rng: &mut Rng) -> (Level, Level) {
    let shape = Shape {
        width: 5 + rng.below(4),
        height: 5 + rng.below(4),
    };
    let mut tiles = vec![Tile::Empty; shape.len()];
    let source = CellId(rng.below(shape.len()) as u32);
    let sd = rng.dir();
    tiles[source.index()] = match rng.below(4) {
        0 => Tile::AnySource(sd),
        _ => Tile::Source(sd),
    };
    let mut channels = vec![Channel::U, Channel::T];
    // Walks still to lay: (the cell a donut moves from, its direction).
    let mut walks = vec![(source, sd)];
    let other = CellId(rng.below(shape.len()) as u32);
    if rng.below(3) == 0 && other != source {
        let od = rng.dir();
        tiles[other.index()] = Tile::Source(od);
        walks.push((other, od));
    }
    let mut laid = 0;
    while let Some((from, d)) = walks.pop() {
        let (mut from, mut d) = (from, d);
        while let Some(c) = shape.step(from, d) {
            let i = c.index();
            if tiles[i] == Tile::Crossover {
                from = c;
                continue;
            }
            if tiles[i] != Tile::Empty {
                // A belt, a splitter or a target already there: a merge (or
                // a failing move, which the judge will reject).
                break;
            }
            laid += 1;
            let roll = rng.below(20);
            if laid > 40 || roll == 0 {
                tiles[i] = Tile::Target {
                    dir: d,
                    accepts: Accepts::Any,
                };
                break;
            }
            if roll <= 3 {
                tiles[i] = Tile::Splitter(d);
                walks.push((c, d.turn_right()));
                walks.push((c, d.turn_left()));
                break;
            }
            if roll == 4 {
                if let Some(ch) = channels.pop() {
                    let empty: Vec<usize> = (0..tiles.len())
                        .filter(|&j| j != i && tiles[j] == Tile::Empty)
                        .collect();
                    if let Some(&o) = empty.get(rng.below(empty.len().max(1))) {
                        let od = rng.dir();
                        tiles[i] = Tile::TeleIn(ch);
                        tiles[o] = Tile::TeleOut(ch, od);
                        // A second out, one time in two: its walk is laid later.
                        let second = empty.get(rng.below(empty.len().max(1)));
                        if let Some(&o2) = second.filter(|&&o2| o2 != o && rng.below(2) == 0) {
                            let od2 = rng.dir();
                            tiles[o2] = Tile::TeleOut(ch, od2);
                            walks.push((CellId(o2 as u32), od2));
                        }
                        (from, d) = (CellId(o as u32), od);
                        continue;
                    }
                }
            }
            if roll == 5 && shape.step(c, d).is_some() {
                // A crossover: the walk goes straight on (and may cross it
                // again later).
                tiles[i] = Tile::Crossover;
                from = c;
                continue;
            }
            // A belt, turning now and then, never straight back nor off the
            // board.
            let ways: Vec<Dir> = [d, d, d, d.turn_left(), d.turn_right()]
                .into_iter()
                .filter(|&w| shape.step(c, w).is_some())
                .collect();
            let Some(&nd) = ways.get(rng.below(ways.len().max(1))) else {
                tiles[i] = Tile::Target {
                    dir: d,
                    accepts: Accepts::Any,
                };
                break;
            };
            tiles[i] = Tile::Belt(nd);
            (from, d) = (c, nd);
        }
    }
    // Toppers beside the belts, working on them; walls here and there.
    for c in shape.cells() {
        if tiles[c.index()] != Tile::Empty {
            continue;
        }
        let beside = Dir::ALL.into_iter().find(|&d| {
            shape
                .step(c, d)
                .is_some_and(|n| matches!(tiles[n.index()], Tile::Belt(_)))
        });
        match (beside, rng.below(6)) {
            (Some(d), 0) => {
                tiles[c.index()] = Tile::Topper {
                    kind: Kind::new(1 + rng.below(3) as u8).unwrap_or(Kind::PLAIN),
                    dir: d,
                }
            }
            (_, 1) => tiles[c.index()] = Tile::Block,
            _ => {}
        }
    }
    let layout = Level {
        shape,
        tiles,
        flags: Flags::default(),
    };
    // One belt in eight stays in the level as a preset belt (on one board
    // in three).
    let preset = rng.below(3) == 0;
    let mut level = layout.clone();
    for t in level.tiles.iter_mut() {
        if matches!(t, Tile::Belt(_)) && !(preset && rng.below(8) == 0) {
            *t = Tile::Empty;
        }
    }
    (level, layout)
}

#[test]
fn the_bound_allows_reduced_random_solutions() {
    let cases = common::cases("FROSTED_CHAIN_CASES", 400);
    let mut rng = Rng::new(seed(0x0b0d_c4a1_0002));
    let (mut checked, mut drawn, mut split, mut tight) = (0, 0, 0, 0);
    let mut out_of_budget = 0;
    let mut seen = Mechanics::default();
    while checked < cases {
        drawn += 1;
        let (level, mut layout) = random_chain_board(&mut rng);
        if !frosted::judge::judge(&layout).solved() {
            continue;
        }
        let Ok(cb) = ChainBound::new(&level) else {
            continue;
        };
        // Drop every belt the layout can do without, one at a time.
        let mut belts: Vec<usize> = level.free_cells().map(|c| c.index()).collect();
        for i in (1..belts.len()).rev() {
            let j = rng.below(i + 1);
            belts.swap(i, j);
        }
        for c in belts {
            let keep = layout.tiles[c];
            layout.tiles[c] = Tile::Empty;
            if !frosted::judge::judge(&layout).solved() {
                layout.tiles[c] = keep;
            }
        }
        let n = added(&level, &layout);
        let outcome = frosted::judge::judge(&layout).outcome;
        if level
            .shape
            .cells()
            .any(|c| matches!(level.tile(c), Tile::Splitter(_)) && outcome.visited[c.index()])
        {
            split += 1;
        }
        let answer = cb.allows(n, BUDGET);
        if answer == Bound::OutOfBudget {
            // No proof either way: a search too large to finish.
            out_of_budget += 1;
            continue;
        }
        assert!(
            matches!(answer, Bound::Allowed { cost } if cost <= n),
            "{answer:?} for a solution with {n} belts:\n{layout}"
        );
        if n > 0 && cb.allows(n - 1, BUDGET) == Bound::Refuted {
            tight += 1;
        }
        // Priced by simple paths (with a budget a search may run out of).
        let simple = cb.with_simple_paths(true).allows(n, SIMPLE_BUDGET);
        assert!(
            matches!(simple, Bound::Allowed { cost } if cost <= n) || simple == Bound::OutOfBudget,
            "by simple paths {simple:?} for a solution with {n} belts:\n{layout}"
        );
        seen.count(&level);
        checked += 1;
    }
    let Mechanics {
        several,
        preset,
        crossing,
        copying,
        any,
        passing,
        ..
    } = seen;
    eprintln!(
        "{checked} reduced random solutions ({drawn} boards drawn), {split} through a splitter, \
         {several} from two sources, {preset} with preset belts, {crossing} with crossovers, \
         {copying} with a teleporter with two outs, {any} from an any-source, {passing} with a \
         topper working on a cell donuts pass: the bound allowed each, and \
         proved {tight} of them minimal ({out_of_budget} more ran out of budget)"
    );
    assert!(
        split >= cases / 10,
        "only {split} of {cases} pass a splitter"
    );
    assert!(
        several >= cases / 20,
        "only {several} of {cases} from two sources"
    );
    assert!(
        preset >= cases / 20,
        "only {preset} of {cases} with preset belts"
    );
    assert!(
        crossing >= cases / 20,
        "only {crossing} of {cases} with crossovers"
    );
    assert!(
        copying >= cases / 40,
        "only {copying} of {cases} with a teleporter with two outs"
    );
    assert!(
        any >= cases / 20,
        "only {any} of {cases} from an any-source"
    );
    assert!(
        out_of_budget <= cases / 50,
        "{out_of_budget} searches out of budget"
    );
}

/// On the example levels of the class, `solve` finds the same minimum with
/// the chain bound as with SAT proofs alone, and says which proof it used.
#[test]
fn chain_bound_proofs_agree_with_sat_proofs_on_the_example_levels() {
    use common::solving::{claim, proof, proved_by_chains, solve, Options, Status};
    let (mut compared, mut by_chains) = (0, 0);
    for path in common::example_levels() {
        let level = common::load(&path);
        if ChainBound::new(&level).is_err() {
            continue;
        }
        let with = solve(&level, &Options::default(), &mut |_| {}).expect("solve runs");
        let sat_only = Options {
            lower_bound: false,
            ..Options::default()
        };
        let without = solve(&level, &sat_only, &mut |_| {}).expect("solve runs");
        let name = path.display();
        assert!(
            matches!(with.status, Status::Optimal | Status::Unsolvable),
            "{name}: {:?}",
            with.status
        );
        assert_eq!(with.status, without.status, "{name}");
        assert_eq!(with.cost, without.cost, "{name}");
        assert_eq!(proof(&with), proof(&without), "{name}");
        assert!(!proved_by_chains(&without), "{name}");
        if proved_by_chains(&with) {
            by_chains += 1;
            assert!(
                claim(&with).starts_with("proved by the chain bound"),
                "{name}"
            );
        }
        compared += 1;
    }
    eprintln!("{compared} example levels of the class; the chain bound proved {by_chains}");
    assert!(
        compared >= 10 && by_chains >= 5,
        "{compared} compared, {by_chains} by chains"
    );
}

/// The chain bound of the generated level `name`, plain and priced by
/// simple paths.
fn plain_and_simple(name: &str) -> (ChainBound, ChainBound) {
    let path = format!("{}/levels/generated/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    let level = common::load(std::path::Path::new(&path));
    let plain = ChainBound::new(&level).expect("the bound applies");
    let simple = ChainBound::new(&level)
        .expect("the bound applies")
        .with_simple_paths(true);
    (plain, simple)
}

/// Priced by simple paths, the bound proves the minimum of the generated
/// level far-031 (38 belts, which the SAT calls take minutes to prove;
/// the plain bound refutes only 33): the second source's route must go
/// round its own toppers and target. A budget far above the loop's.
#[test]
fn simple_paths_prove_38_belts_minimal_on_far_031() {
    let (plain, simple) = plain_and_simple("far-031");
    assert!(matches!(plain.allows(34, BUDGET), Bound::Allowed { .. }));
    assert_eq!(simple.allows(37, 2_000_000_000), Bound::Refuted);
    assert!(matches!(
        simple.allows(38, 2_000_000_000),
        Bound::Allowed { cost: 38 }
    ));
}

/// A deeper search told to stop prices its chains by their plain cost from
/// then on; a topology it finds that way proves nothing, so it answers "out
/// of budget", not "allowed" (an "allowed" is remembered, and would answer
/// every later question): on generated game-019 (minimum 38), stopped at
/// once at 37 belts, and at every larger bound, then asked again in full,
/// it still refutes 37, which the plain bound allows.
#[test]
fn a_stopped_deeper_search_allows_nothing() {
    let (plain, simple) = plain_and_simple("game-019");
    assert!(matches!(plain.allows(37, BUDGET), Bound::Allowed { .. }));
    let stop = std::sync::atomic::AtomicBool::new(true);
    for k in [37, 40, 45, 49] {
        let answer = simple.allows_unless(k, u64::MAX, Some(&stop));
        assert_eq!(answer, Bound::OutOfBudget, "stopped at {k} belts");
    }
    assert_eq!(simple.allows(37, 100_000_000), Bound::Refuted);
}
