//! Wrong deliveries that do not depend on timing: the first splitter of a lone
//! source.
//!
//! A counterexample from a failed run (X1) names every `.` cell a donut stood
//! on, because merges, splitters and crossovers make the run depend on all of
//! them. One failure is common and much narrower: in a level with one plain
//! source, the source's donuts walk one fixed path `P` to the first splitter
//! `Z`, where the first donut goes left and the second goes right; each then
//! walks a fixed path `B` to a target that refuses its kind. Nothing but the
//! belts on `P` and `B` decides that, as long as no other donut can step onto
//! `B` and the run does not end first by a stranded donut. [`wrong_branch`]
//! finds such a path in a failed layout and says what the clause must mention;
//! `encodings/README.md` (X2) gives the argument.

use crate::grid::{CellId, Dir, Kind};
use crate::level::{Level, Tile};

/// The part of a layout that decides a timing-free wrong delivery.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongBranch {
    /// The `.` cells of `P` and `B`, each with its belt in the layout.
    pub fixed: Vec<(CellId, Dir)>,
    /// `.` cells beside `B` from which a donut could step onto it, each with the
    /// choice that would let it (`Some(d)`: a belt towards `B`; `None`: any belt,
    /// for a cell a bumper pushes towards `B`). The layout makes none of them.
    pub entries: Vec<(CellId, Option<Dir>)>,
    /// Which exit of the splitter: `false` for the first donut (left).
    pub right: bool,
    /// The target that refuses the donut, and the kind it arrives with.
    pub target: CellId,
    pub kind: Kind,
    /// The splitter, and the kind its donuts have there.
    pub splitter: CellId,
    pub splitter_kind: Kind,
    /// Whether `P` meets no cell a bumper acts on and no exit cell of a
    /// splitter (then the encoding's `pre` marks it, and `fixed` and `entries`
    /// leave it out: see `prefix_free`).
    pub plain_prefix: bool,
}

/// How the walk of one donut goes on from a cell.
enum Step {
    Move(Dir),
    Split(Dir),
    Deliver,
    /// Anything the argument does not cover (a teleporter, a crossover, an empty
    /// cell, a failed move): no generalisation.
    Stop,
}

struct Walker<'a> {
    layout: &'a Level,
    /// Per cell: the toppers that work on it (kind), in scan order.
    toppers: Vec<Vec<Kind>>,
    /// Per cell and direction `d`: the kind a bumper at `p - d` facing `d` pushes.
    bumpers: Vec<[Option<Kind>; 4]>,
}

impl<'a> Walker<'a> {
    fn new(layout: &'a Level) -> Walker<'a> {
        let shape = layout.shape;
        let mut toppers = vec![Vec::new(); shape.len()];
        for c in shape.scan_order() {
            if let Tile::Topper { kind, dir } = layout.tile(c) {
                if let Some(t) = shape.step(c, dir) {
                    toppers[t.index()].push(kind);
                }
            }
        }
        Walker {
            layout,
            toppers,
            bumpers: layout.bumper_pushes(),
        }
    }

    /// The kind after the toppers act on a donut that just arrived on `c`, or
    /// `None` where two toppers work on `c` (a waiting donut could be topped
    /// twice: timing).
    fn topped(&self, c: CellId, k: Kind) -> Option<Kind> {
        match self.toppers[c.index()].as_slice() {
            [] => Some(k),
            [t] if t.prev() == Some(k) => Some(*t),
            [_] => Some(k),
            _ => None,
        }
    }

    /// The move of a donut of kind `k` standing on `c` (rules §4 step 2).
    fn step(&self, c: CellId, k: Kind) -> Step {
        let tile = self.layout.tile(c);
        if tile == Tile::Empty {
            return Step::Stop;
        }
        if let Some(d) = Dir::ALL
            .into_iter()
            .find(|d| self.bumpers[c.index()][d.index()] == Some(k))
        {
            return Step::Move(d);
        }
        match tile {
            Tile::Belt(d) => Step::Move(d),
            Tile::Target { accepts, .. } if !accepts.accepts(k) => Step::Deliver,
            Tile::Splitter(f) => Step::Split(f),
            _ => Step::Stop,
        }
    }

    /// The cell a move from `c` towards `d` lands on, if it is a valid move.
    fn next(&self, c: CellId, d: Dir) -> Option<CellId> {
        let t = self.layout.shape.step(c, d)?;
        self.layout.tile(t).can_enter(d).then_some(t)
    }

    /// Whether a donut on `n` (a fixed tile, or a cell of `P` or `B`) could
    /// move towards `d` in some run.
    fn could_send(&self, n: CellId, d: Dir) -> bool {
        let bumped = self.bumpers[n.index()][d.index()].is_some();
        match self.layout.tile(n) {
            Tile::Block | Tile::Topper { .. } | Tile::Bumper { .. } => false,
            Tile::Empty => false,
            Tile::Belt(b) => b == d || bumped,
            Tile::Source(b) | Tile::AnySource(b) | Tile::TeleOut(_, b) => b == d || bumped,
            Tile::Splitter(f) => f.turn_left() == d || f.turn_right() == d || bumped,
            Tile::Crossover => true,
            Tile::Target { .. } | Tile::TeleIn(_) => bumped,
        }
    }
}

/// Finds, in a failed layout of `level`, a splitter exit whose donut reaches a
/// target that refuses it without depending on timing (see the module doc).
/// `None` when the level has other than one plain source, or the layout does
/// not fit the argument.
///
/// With `prefix_free`, `P` is left out of the answer when it meets no bumper
/// (`plain_prefix`): the caller then names `P` through the encoding's `pre`
/// literal of the splitter instead of its belts, and the cells beside `B` are
/// judged as if `P` could be anywhere.
pub fn wrong_branch(level: &Level, layout: &Level, prefix_free: bool) -> Option<WrongBranch> {
    let (src, sd) = lone_plain_source(layout)?;
    let w = Walker::new(layout);
    let p = Prefix::walk(&w, src, sd)?;
    let plain_prefix = prefix_free && p.meets_no_bumper_or_exit(&w);
    let none = vec![false; layout.shape.len()];
    let (guard_p, prefix): (&[bool], &[CellId]) = if plain_prefix {
        (&none, &[])
    } else {
        (&p.on_p, &p.cells)
    };
    for right_exit in [false, true] {
        if let Some(b) = walk_branch(level, &w, guard_p, p.splitter, p.facing, p.kind, right_exit) {
            if plain_prefix && b.walked.iter().any(|(c, _)| p.on_p[c.index()]) {
                continue;
            }
            let walked = b.walked.iter().map(|(c, _)| c);
            let fixed = fixed_belts(level, layout, prefix.iter().chain(walked));
            return Some(WrongBranch {
                fixed,
                entries: b.entries,
                right: right_exit,
                target: b.target,
                kind: b.kind,
                splitter: p.splitter,
                splitter_kind: p.kind,
                plain_prefix,
            });
        }
    }
    None
}

/// The layout's one source and its facing, if it has exactly one source and
/// that is a plain one.
fn lone_plain_source(layout: &Level) -> Option<(CellId, Dir)> {
    let mut sources = layout.shape.cells().filter(|&c| layout.tile(c).is_source());
    let (src, None) = (sources.next()?, sources.next()) else {
        return None;
    };
    match layout.tile(src) {
        Tile::Source(sd) => Some((src, sd)),
        _ => None,
    }
}

/// `P`: the source's path to the first splitter.
struct Prefix {
    /// Per cell: on `P`.
    on_p: Vec<bool>,
    /// The cells of `P`, in order.
    cells: Vec<CellId>,
    /// The splitter, its facing, and the kind its donuts have there.
    splitter: CellId,
    facing: Dir,
    kind: Kind,
}

impl Prefix {
    /// Walks from the source at `src` (facing `sd`) to the first splitter, in
    /// lockstep (no crossover, no cell twice); `None` unless the splitter's
    /// donuts surely leave it by its exits, onto cells off `P`.
    fn walk(w: &Walker, src: CellId, sd: Dir) -> Option<Prefix> {
        let shape = w.layout.shape;
        let mut on_p = vec![false; shape.len()];
        let mut cells = Vec::new();
        let mut c = w.next(src, sd)?;
        let mut k = w.topped(c, Kind::PLAIN)?;
        let (z, f) = loop {
            if std::mem::replace(&mut on_p[c.index()], true) {
                return None;
            }
            cells.push(c);
            match w.step(c, k) {
                Step::Move(d) => {
                    c = w.next(c, d)?;
                    k = w.topped(c, k)?;
                }
                Step::Split(f) => break (c, f),
                _ => return None,
            }
        };
        // No bumper may move a donut off the splitter.
        if w.bumpers[z.index()].iter().any(Option::is_some) {
            return None;
        }
        let left = shape.step(z, f.turn_left())?;
        let right = shape.step(z, f.turn_right())?;
        if on_p[left.index()] || on_p[right.index()] {
            return None;
        }
        Some(Prefix {
            on_p,
            cells,
            splitter: z,
            facing: f,
            kind: k,
        })
    }

    /// Whether `P` meets no cell a bumper acts on and no exit cell of a
    /// splitter: the encoding's `pre` stops on those, so only a prefix that
    /// meets none is named through it.
    fn meets_no_bumper_or_exit(&self, w: &Walker) -> bool {
        let shape = w.layout.shape;
        let exit_cells: Vec<CellId> = shape
            .cells()
            .filter_map(|c| match w.layout.tile(c) {
                Tile::Splitter(g) => {
                    Some([g.turn_left(), g.turn_right()].map(|d| shape.step(c, d)))
                }
                _ => None,
            })
            .flatten()
            .flatten()
            .collect();
        self.cells
            .iter()
            .all(|c| w.bumpers[c.index()].iter().all(Option::is_none) && !exit_cells.contains(c))
    }
}

/// The `.` cells of `level` among `cells`, each with its belt in `layout`,
/// sorted.
fn fixed_belts<'c>(
    level: &Level,
    layout: &Level,
    cells: impl Iterator<Item = &'c CellId>,
) -> Vec<(CellId, Dir)> {
    let mut fixed: Vec<(CellId, Dir)> = cells
        .filter(|&&c| level.tile(c) == Tile::Empty)
        .filter_map(|&c| match layout.tile(c) {
            Tile::Belt(d) => Some((c, d)),
            _ => None,
        })
        .collect();
    fixed.sort();
    fixed
}

struct Branch {
    /// The cells walked, from the splitter's exit to (not including) the
    /// target, each with the cell the donut came from.
    walked: Vec<(CellId, CellId)>,
    entries: Vec<(CellId, Option<Dir>)>,
    target: CellId,
    kind: Kind,
}

/// The walk from one exit of the splitter `z` (facing `f`) to a target that
/// refuses the donut, with the cells beside it that could let another donut in.
fn walk_branch(
    level: &Level,
    w: &Walker,
    on_p: &[bool],
    z: CellId,
    f: Dir,
    kz: Kind,
    right: bool,
) -> Option<Branch> {
    let shape = w.layout.shape;
    let out = if right { f.turn_right() } else { f.turn_left() };
    let mut c = w.next(z, out)?;
    let mut k = w.topped(c, kz)?;
    let mut on_b = vec![false; shape.len()];
    let mut walked = Vec::new();
    let mut prev = z;
    let target = loop {
        if on_p[c.index()] || c == z || std::mem::replace(&mut on_b[c.index()], true) {
            return None;
        }
        match w.step(c, k) {
            Step::Move(d) => {
                walked.push((c, prev));
                prev = c;
                c = w.next(c, d)?;
                k = w.topped(c, k)?;
            }
            Step::Deliver => break c,
            _ => return None,
        }
    };
    // A bumper on the target could move donuts off it, and a move into it
    // could then be blocked: the walk would no longer be sure to arrive.
    if w.bumpers[target.index()].iter().any(Option::is_some) {
        return None;
    }
    let fixed = |n: CellId| level.tile(n) != Tile::Empty || on_b[n.index()] || on_p[n.index()];
    let entries = entries_onto(w, &walked, fixed, z, target)?;
    Some(Branch {
        walked,
        entries,
        target,
        kind: k,
    })
}

/// Every way onto a cell of `B` (`walked`) other than from its predecessor:
/// `None` if a fixed cell (`fixed`), the splitter `z`'s other exit, or the
/// layout itself could send a donut onto `B`; else the `.` cells beside `B`
/// with the choices that would let a donut in.
fn entries_onto(
    w: &Walker,
    walked: &[(CellId, CellId)],
    fixed: impl Fn(CellId) -> bool,
    z: CellId,
    target: CellId,
) -> Option<Vec<(CellId, Option<Dir>)>> {
    let shape = w.layout.shape;
    let mut entries = Vec::new();
    for &(b, pred) in walked {
        for d in Dir::ALL {
            let Some(n) = shape.step(b, d) else { continue };
            if n == pred || n == target {
                continue;
            }
            let towards = d.opposite();
            if n == z {
                // The splitter's other exit.
                return None;
            }
            if fixed(n) {
                if w.could_send(n, towards) {
                    return None;
                }
                continue;
            }
            // A `.` cell off P and B: which choices would let a donut in.
            let bumped = w.bumpers[n.index()][towards.index()].is_some();
            let has = w.layout.tile(n);
            if bumped {
                if has != Tile::Empty {
                    return None;
                }
                entries.push((n, None));
            } else {
                if has == Tile::Belt(towards) {
                    return None;
                }
                entries.push((n, Some(towards)));
            }
        }
    }
    entries.sort();
    entries.dedup();
    Some(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    const LEVEL: &str = "-<1 .   .   .   ->\n.   .   x^  .   .\n+>  .   .   .   .\n";

    #[test]
    fn the_first_donut_goes_left_to_a_target_that_refuses_it() {
        let level = parse(LEVEL).expect("level");
        let layout =
            parse("-<1 <   .   >   ->\n.   ^   x^  ^   .\n+>  >   ^   .   .\n").expect("layout");
        let wb = wrong_branch(&level, &layout, false).expect("a wrong branch");
        assert!(!wb.right);
        assert_eq!(wb.kind, Kind::PLAIN);
        assert_eq!(level.pos(wb.target), crate::grid::Pos { x: 0, y: 0 });
        // P: (1,2) (2,2); B: (1,1) (1,0).
        assert_eq!(wb.fixed.len(), 4);
        // Beside B: (0,1) and (2,0) must not point into it.
        assert_eq!(wb.entries.len(), 2);
        assert!(!wb.plain_prefix);
        // Named through the encoding's prefix instead, P drops out: only B's
        // belts are fixed, and (1,2) on P becomes a cell that must not turn
        // into B.
        let wb = wrong_branch(&level, &layout, true).expect("a wrong branch");
        assert!(wb.plain_prefix);
        assert_eq!(wb.fixed.len(), 2);
        assert_eq!(wb.entries.len(), 3);
    }

    #[test]
    fn a_cell_that_could_feed_the_branch_stops_the_argument() {
        let level = parse(LEVEL).expect("level");
        // (0,1) points into (1,1): another donut could step onto B.
        let layout =
            parse("-<1 <   .   >   ->\n>   ^   x^  ^   .\n+>  >   ^   .   .\n").expect("layout");
        assert_eq!(wrong_branch(&level, &layout, false), None);
    }
}

#[cfg(test)]
mod clause_tests {
    use crate::encode::Encoding;
    use crate::parse::parse;
    use rustsat::instances::{BasicVarManager, Cnf};

    #[test]
    fn the_encoding_turns_a_wrong_branch_into_a_clause() {
        let level =
            parse("-<1 .   .   .   ->\n.   .   x^  .   .\n+>  .   .   .   .\n").expect("level");
        let layout =
            parse("-<1 <   .   >   ->\n.   ^   x^  ^   .\n+>  >   ^   .   .\n").expect("layout");
        let mut vars = BasicVarManager::default();
        let mut cnf = Cnf::new();
        let enc = Encoding::new(&level, &Default::default(), &mut cnf, &mut vars);
        let cl = enc.wrong_branch_clause(&layout).expect("a clause");
        // The prefix literal of the splitter, B's 2 belts, 3 cells that must
        // not turn into B, and one strand literal per free cell.
        assert_eq!(cl.len(), 4 + 2 + enc.free.len());
    }
}
