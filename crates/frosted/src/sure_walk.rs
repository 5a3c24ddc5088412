//! Wrong deliveries by a source's first donut (X5): a walk no other donut
//! can touch.
//!
//! Every source, plain or any-source, sends a plain donut at tick 1. When
//! the layout walks that first donut along fixed cells (belts, bumpers, at
//! most one topper per cell, splitters, which send the first donut to
//! leave them to the left, and teleporters whose channel has one in, where
//! one copy is followed) to a target that refuses it, and no cell beside
//! the walk could ever move a donut onto it, nothing else on the board
//! decides that walk: no other donut is ever on a cell of the walk before
//! the first donut gets there, so none can delay it, turn a splitter
//! before it or keep the state from changing. The donut stands on the
//! target at the scan of a known tick, and the run fails then, unless it
//! has ended before on a stranded donut. [`sure_wrong_walk`] finds such a
//! walk in a failed layout; [`crate::encode::Encoding::sure_walk_clause`]
//! turns it into a clause, and `encodings/README.md` (X5) gives the
//! argument.

use crate::branch::{entries_onto, fixed_belts, Step, Walker};
use crate::grid::{CellId, Dir, Kind};
use crate::level::{Level, Tile};
use crate::sim::{End, Failure};

/// The part of a layout that decides a first donut's wrong delivery.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SureWalk {
    /// The source whose first donut walks.
    pub source: CellId,
    /// The `.` cells of the walk, each with its belt in the layout.
    pub fixed: Vec<(CellId, Dir)>,
    /// `.` cells beside the walk from which a donut could step onto it, each
    /// with the choice that would let it (`Some(d)`: a belt towards the
    /// walk; `None`: any belt, for a cell a bumper pushes towards it). The
    /// layout makes none of them.
    pub entries: Vec<(CellId, Option<Dir>)>,
    /// The target that refuses the donut, and the kind it arrives with.
    pub target: CellId,
    pub kind: Kind,
    /// The tick at whose scan the donut stands on the target (and the run
    /// fails, if it has not ended before).
    pub tick: u32,
}

/// How the first donut goes on from a cell.
enum Next {
    Move(Dir),
    /// A teleporter in whose channel has no other in: one copy to each out.
    Teleport(Vec<CellId>),
    Deliver,
    Stop,
}

/// The first donut's walk so far.
struct Walk<'w, 'a> {
    w: &'w Walker<'a>,
    /// Per cell: the walk stood on it (the target included).
    on_walk: Vec<bool>,
    /// The cells stood on before the target, each with the cell the donut
    /// came from.
    walked: Vec<(CellId, CellId)>,
}

/// The walk of the first donut of a source of `layout` that reaches a
/// target refusing it without any other donut able to touch it (see the
/// module doc), if the layout's run failed by that delivery (`end`): the
/// target and the tick agree. `None` when no source's first donut does.
pub fn sure_wrong_walk(level: &Level, layout: &Level, end: &End) -> Option<SureWalk> {
    let &End::Failed {
        tick,
        failure: Failure::WrongDelivery { target, .. },
    } = end
    else {
        return None;
    };
    let w = Walker::new(layout);
    layout
        .sources()
        .filter_map(|s| first_donut_walk(level, &w, s))
        .find(|sw| sw.tick == tick && sw.target == target)
}

/// The walk of source `src`'s first donut, if it fits the argument.
fn first_donut_walk(level: &Level, w: &Walker, src: CellId) -> Option<SureWalk> {
    let (Tile::Source(d) | Tile::AnySource(d)) = w.layout.tile(src) else {
        return None;
    };
    let mut walk = Walk {
        w,
        on_walk: vec![false; w.layout.shape.len()],
        walked: Vec::new(),
    };
    let first = w.next(src, d)?;
    let kind = w.topped(first, Kind::PLAIN)?;
    let (target, kind) = walk.go(first, kind, src)?;
    // A bumper on the target could move donuts off it (as in X2).
    if w.bumpers[target.index()].iter().any(Option::is_some) {
        return None;
    }
    let on_walk = &walk.on_walk;
    let fixed = |n: CellId| level.tile(n) != Tile::Empty || on_walk[n.index()];
    let entries = entries_onto(w, &walk.walked, fixed, None, target)?;
    let cells = walk.walked.iter().map(|(c, _)| c);
    Some(SureWalk {
        source: src,
        fixed: fixed_belts(level, layout_of(w), cells),
        entries,
        target,
        kind,
        tick: walk.walked.len() as u32 + 2,
    })
}

fn layout_of<'a>(w: &Walker<'a>) -> &'a Level {
    w.layout
}

impl Walk<'_, '_> {
    /// From a donut of kind `k` that has just arrived on `c` from `pred`:
    /// the target and the kind once it stands on a target that refuses it,
    /// or `None` (and the walk as before) where the argument does not
    /// cover a step.
    fn go(&mut self, c: CellId, k: Kind, pred: CellId) -> Option<(CellId, Kind)> {
        let (len, mut marked) = (self.walked.len(), Vec::new());
        let found = self.go_marking(c, k, pred, &mut marked);
        if found.is_none() {
            self.walked.truncate(len);
            for m in marked {
                self.on_walk[m.index()] = false;
            }
        }
        found
    }

    fn go_marking(
        &mut self,
        mut c: CellId,
        mut k: Kind,
        mut pred: CellId,
        marked: &mut Vec<CellId>,
    ) -> Option<(CellId, Kind)> {
        loop {
            if std::mem::replace(&mut self.on_walk[c.index()], true) {
                return None;
            }
            marked.push(c);
            match self.next(c, k) {
                Next::Move(d) => {
                    self.walked.push((c, pred));
                    pred = c;
                    c = self.w.next(c, d)?;
                    k = self.w.topped(c, k)?;
                }
                Next::Teleport(outs) => {
                    self.walked.push((c, pred));
                    return outs
                        .into_iter()
                        .find_map(|o| self.go(o, self.w.topped(o, k)?, c));
                }
                Next::Deliver => return Some((c, k)),
                Next::Stop => return None,
            }
        }
    }

    /// The move of the first donut (kind `k`) standing on `c`.
    fn next(&self, c: CellId, k: Kind) -> Next {
        let layout = self.w.layout;
        match self.w.step(c, k) {
            Step::Move(d) => Next::Move(d),
            Step::Split(f) => Next::Move(f.turn_left()),
            Step::Deliver => Next::Deliver,
            // No bumper moved the donut (the walker checks them first).
            Step::Stop => {
                match layout.tile(c) {
                    Tile::TeleOut(_, d) => Next::Move(d),
                    Tile::TeleIn(ch) => {
                        let ins = layout
                            .shape
                            .cells()
                            .filter(|&x| layout.tile(x) == Tile::TeleIn(ch))
                            .count();
                        match ins {
                        1 => Next::Teleport(
                            layout
                                .shape
                                .cells()
                                .filter(|&x| matches!(layout.tile(x), Tile::TeleOut(o, _) if o == ch))
                                .collect(),
                        ),
                        _ => Next::Stop,
                    }
                    }
                    _ => Next::Stop,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;
    use crate::sim::simulate;

    #[test]
    fn the_first_donut_reaches_a_target_that_refuses_it_at_the_tick_the_run_fails() {
        // Two sources; the lower one's first donut is plain, the target
        // at (4,2) wants frosting.
        let level =
            parse("+>  .   .   .   ->\n.   .   .   .   .\n+>  .   .   .   ->1\n").expect("level");
        let layout =
            parse("+>  >   >   >   ->\n.   .   .   .   .\n+>  >   >   >   ->1\n").expect("layout");
        let end = simulate(&layout).end;
        let sw = sure_wrong_walk(&level, &layout, &end).expect("a sure walk");
        assert_eq!(level.pos(sw.target), crate::grid::Pos { x: 4, y: 2 });
        assert_eq!(sw.kind, Kind::PLAIN);
        assert_eq!(sw.fixed.len(), 3);
        // Beside the walk: (1,1), (2,1), (3,1) must not point down into it.
        assert_eq!(sw.entries.len(), 3);
        assert_eq!(end.tick(), 5);
    }

    #[test]
    fn a_cell_that_could_feed_the_walk_stops_the_argument() {
        let level =
            parse("+>  .   .   .   ->\n.   .   .   .   .\n+>  .   .   .   ->1\n").expect("level");
        // (2,1) points down into the walk.
        let layout =
            parse("+>  >   v   >   ->\n.   .   v   .   .\n+>  >   >   >   ->1\n").expect("layout");
        assert_eq!(
            sure_wrong_walk(&level, &layout, &simulate(&layout).end),
            None
        );
    }
}
