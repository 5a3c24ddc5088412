//! The chain bound: a lower bound on the belts of every solution, proved
//! without a SAT solver, for levels whose bumpers work only on free cells
//! (an any-source's chain carries every kind it emits). A preset belt, a
//! crossover or a teleporter with one out only carries a donut on to where
//! it lands, at no cost; a splitter or a teleporter with several outs is a
//! *fork*, and so is such a cell when a topper works on it (a *pass*, a
//! fork with one exit: the chain that meets it ends there, so the
//! toppings happen at a known place of the topology).
//!
//! On such a board a donut on a belt goes the belt's way, whatever its
//! kind, except where a bumper pushes it, so a layout is a set of *chains*:
//! each source's chain follows the
//! belts from the source until it reaches a fork, a target, a cell an
//! earlier chain owns (it *merges* there), or nothing more (a strand, a loop
//! into itself without bumpers, an invalid move: it is *dead*); each fork that a chain
//! reaches starts a chain at each of its exits (two for a splitter, one per
//! out for a teleporter), and so does each bumper working on a free cell a
//! chain passes (where it pushes the donuts of its kind). Chains own disjoint free
//! cells, every one of which holds a belt, so the belts are at least the sum
//! of the chains' lengths. A chain's length is at least the length of the
//! shortest path from its start through the *waypoints* it owns (the free
//! cells toppers or bumpers work on), in its order, to its end, and a
//! simple path enters and leaves a waypoint through two different
//! neighbours. Where another chain merges into it, the
//! two together are at least a shortest path that passes the merge cell.
//!
//! The bound is the least such total over every *topology*: which forks
//! are reached, which waypoints each chain owns and in which order, how
//! each chain ends and where each merge lands, among the topologies whose
//! donuts could make the level's deliveries (every exit of every fork
//! taken, every merge followed), and whose sources' first deliveries,
//! where the topology fixes them, are accepted (`search`). The topology of
//! a real solution is among
//! them and costs no more than its belts, so no layout with fewer belts than
//! the bound solves the level. `encodings/README.md` ("The chain bound")
//! gives the argument in full; `tests/chain_bound.rs` checks it against
//! brute force and against the known solutions.
//!
//! The files: `build` reads a level into the chain view, `distance` measures
//! the shortest paths a chain can take, `cost` prices one chain, and
//! `search` walks the topologies.

mod build;
mod cost;
mod distance;
mod fast_map;
mod pair;
mod search;
mod simple;

use crate::grid::{CellId, Kind, Pos};
use crate::level::Accepts;
use fast_map::FastMap;
use search::Search;
use std::cell::{Cell, RefCell};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A distance no path reaches.
const INF: u32 = u32::MAX / 4;

/// At most this many topped cells: the topologies grow with their
/// permutations.
const MAX_WAYPOINTS: usize = 10;

/// Where a donut moving from a cell lands: a free cell, the entry of a fork
/// (a splitter, a teleporter in with several outs, or a pass: a topped cell
/// a donut only passes) or of a target, or
/// somewhere the rules refuse (off the grid, a wall, a splitter or target
/// entered the wrong way, a ring of preset belts and teleporters).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Landing {
    Free(usize),
    Fork(usize),
    Target(usize),
    Invalid,
}

/// How a chain ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum End {
    /// In a fork (its index).
    Fork(usize),
    /// In a target (its index).
    Target(usize),
    /// On a cell of another chain, or nowhere (dead).
    Open,
}

/// The answer to "can a solution have at most `k` belts?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No: every topology costs more than `k`.
    Refuted,
    /// The bound allows it: a topology that makes the deliveries costs
    /// `cost` ≤ `k`.
    Allowed { cost: usize },
    /// The search ran out of its budget of work.
    OutOfBudget,
}

/// A waypoint: a free cell that a topper works on (or several), or a
/// bumper (or several), or both.
#[derive(Clone, Debug)]
struct Waypoint {
    cell: usize,
    /// The kinds its toppers make (none for a cell only bumpers work on).
    kinds: Vec<Kind>,
    /// Its bumpers' kinds and where they push a donut of that kind, in
    /// the order the rules try them: a chain that passes the cell starts a
    /// chain at each of these landings.
    pushes: Vec<(Kind, Landing)>,
    /// Where a belt on it can send a donut (not `Invalid`).
    succ: Vec<Landing>,
    /// The free cells from which a belt leads onto it.
    pred: Vec<usize>,
}

/// An exclusion set for a path: at most two free cells (`NONE` pads).
type Excl = [u32; 2];
const NONE: u32 = u32::MAX;

/// Distances already measured: per (point, exclusion set, forward).
type DistCache = RefCell<FastMap<(usize, Excl, bool), Arc<Vec<u32>>>>;

/// [`ChainBound::simple_chain`]'s answers per (start, waypoint order, end's
/// point).
type SimpleMemo = RefCell<FastMap<(usize, Vec<usize>, usize), simple::Memo>>;

/// [`ChainBound::pair_below`]'s answers per pair of chains (start, waypoint
/// order, end's point).
type PairMemo = RefCell<FastMap<(pair::Shape, pair::Shape), pair::Memo>>;

/// A level seen as chains, ready to bound.
pub struct ChainBound {
    /// Free cells, indexed densely.
    free: Vec<CellId>,
    /// Per free cell, the point a belt each way sends a donut to (none for
    /// a refused move).
    moves: Vec<[Option<usize>; 4]>,
    /// Per point (free cells, then forks, then targets): the free cells
    /// whose belt can lead there.
    back: Vec<Vec<usize>>,
    waypoints: Vec<Waypoint>,
    /// Per free cell, whether it is a waypoint's: a chain passes such a
    /// cell only as one of its waypoints, so the paths measured never run
    /// through one (`distance`).
    topped: Vec<bool>,
    /// Per fork: where its exits send a donut (a splitter's left, then
    /// right; a teleporter's outs, row by row; a pass's one way on).
    fork_exits: Vec<Vec<Landing>>,
    /// Per target: what it accepts.
    targets: Vec<Accepts>,
    /// Where each source's donuts land (the sources row by row).
    starts: Vec<Landing>,
    /// The kinds each source emits: plain, or every kind for an
    /// any-source.
    emits: Vec<&'static [Kind]>,
    /// Per fork: the kinds of the toppers working on its cell (a splitter,
    /// a teleporter in, or a pass's cell a donut only passes).
    fork_tops: Vec<Vec<Kind>>,
    /// Whether a source's first donuts can be followed to its target (the
    /// level has no crossover, where one could be lost; see
    /// `Search::first_deliveries`).
    first_deliveries: bool,
    /// Whether the level has bumpers: then a chain that comes back onto
    /// one of its own cells before a waypoint may go on (a bumper there
    /// may push its donuts off the loop once toppers have changed their
    /// kind), so it may merge into itself; without bumpers a donut that
    /// comes back moves round the same loop for ever, and such a chain is
    /// dead.
    bumpers: bool,
    /// Per kind, how many times `:targets` names it: so many sources must
    /// deliver it (each (source, kind) pair counts once).
    required: [usize; Kind::COUNT],
    /// Forward (`true`) and backward distances, per point and exclusion set.
    cache: DistCache,
    /// Whether chains that end in a target or a fork are priced by their
    /// fewest cells as simple paths ([`simple`]), not only by distances.
    simple_paths: bool,
    /// Per point, its cell's position.
    xy: Vec<Pos>,
    /// What [`ChainBound::simple_chain`] found per (start, waypoint order,
    /// end's point): the fewest cells, or that none is below the cap given.
    simple_memo: SimpleMemo,
    /// Free cells walled off while [`ChainBound::chain_cost_around`]
    /// prices a chain.
    walls: RefCell<Option<Vec<bool>>>,
    /// Whether pairs of chains are priced together ([`pair`]).
    pairs: bool,
    /// What [`ChainBound::pair_below`] learnt per pair of chains.
    pair_memo: PairMemo,
    /// Work done so far, in cells looked at (for the budget).
    work: Cell<u64>,
    /// The largest bound refuted so far, and the cheapest topology found
    /// (its cost), that make the deliveries.
    known: Cell<(Option<usize>, Option<usize>)>,
}

impl ChainBound {
    /// Whether a solution can have at most `k` belts, as far as the bound
    /// sees; `budget` caps the work of the search, in cells looked at (by
    /// the distances it measures and the merge points it tries) plus one
    /// per topology and chain cost tried, so that it bounds the time on
    /// large boards as on small ones.
    ///
    /// Answers are monotone in `k`, so a bound at or above the cost of a
    /// topology already found is allowed, and one at or below a bound
    /// already refuted is refuted, without a search.
    pub fn allows(&self, k: usize, budget: u64) -> Bound {
        self.allows_unless(k, budget, None)
    }

    /// The same bound, with every chain that ends in a target or a fork
    /// priced by the fewest cells of a simple path through its waypoints
    /// ([`simple`]): a higher bound where the parts of a chain must go round
    /// each other, at a much higher price in work. Off by default.
    #[must_use]
    pub fn with_simple_paths(mut self, on: bool) -> ChainBound {
        self.simple_paths = on;
        self.known.set((None, None));
        self
    }

    /// The same bound without what it knows of the sources' first
    /// deliveries (`false`; on by default, on levels without crossovers):
    /// for comparing the two in tests.
    #[must_use]
    pub fn with_first_deliveries(mut self, on: bool) -> ChainBound {
        self.first_deliveries &= on;
        self.known.set((None, None));
        self
    }

    /// The same bound with paths free to run through topped cells (`false`;
    /// on by default they pass one only as a waypoint): for comparing the
    /// two in tests.
    #[must_use]
    pub fn with_topped_cells_avoided(mut self, on: bool) -> ChainBound {
        if !on {
            self.topped.iter_mut().for_each(|t| *t = false);
            self.cache.borrow_mut().clear();
            self.known.set((None, None));
        }
        self
    }

    /// The same bound without pricing pairs of chains together (`false`;
    /// on by default): for comparing the two in tests.
    #[must_use]
    pub fn with_pairs(mut self, on: bool) -> ChainBound {
        self.pairs = on;
        self.known.set((None, None));
        self
    }

    /// [`ChainBound::allows`], giving up (`OutOfBudget`) soon after `stop`
    /// is set, when given.
    pub fn allows_unless(&self, k: usize, budget: u64, stop: Option<&AtomicBool>) -> Bound {
        let (refuted, allowed) = self.known.get();
        if let Some(cost) = allowed.filter(|&c| c <= k) {
            return Bound::Allowed { cost };
        }
        if refuted.is_some_and(|r| k <= r) {
            return Bound::Refuted;
        }
        let answer = Search::new(self, k, budget, stop).run();
        match answer {
            Bound::Allowed { cost } => self.known.set((refuted, Some(cost))),
            Bound::Refuted => self.known.set((refuted.max(Some(k)), allowed)),
            Bound::OutOfBudget => {}
        }
        answer
    }

    /// The work done by every search so far (the unit of the budget).
    pub fn work(&self) -> u64 {
        self.work.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse as parse_str;

    fn bound(text: &str) -> ChainBound {
        ChainBound::new(&parse_str(text).expect("level parses")).expect("the bound applies")
    }

    #[test]
    fn a_straight_line_needs_its_cells() {
        // The first level of the rules: three belts.
        let cb = bound(".  .  .  .  .\n+> .  .  .  ->\n.  .  .  .  .\n");
        assert_eq!(cb.allows(2, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(3, 1_000_000), Bound::Allowed { cost: 3 });
    }

    #[test]
    fn a_topper_off_the_way_costs_the_detour() {
        // The frosting topper stands in the way and works on (2, 0): the
        // way must pass there.
        let cb = bound(".  .  .  .  .\n+> .  1^ .  ->1\n.  .  .  .  .\n");
        // (1,1) (1,0) (2,0) (3,0) (3,1): five belts.
        assert_eq!(cb.allows(4, 1_000_000), Bound::Refuted);
        assert!(matches!(cb.allows(5, 1_000_000), Bound::Allowed { .. }));
    }

    #[test]
    fn a_topper_on_a_preset_belt_tops_only_the_donuts_that_pass_it() {
        // The only frosting topper works on the preset belt at (2, 2): the
        // way must pass it, (1,0) (1,1) (1,2), then (3,2) (3,1) (3,0).
        // While it counted as working anywhere, the straight way of three
        // belts was allowed.
        let cb = bound("+> .  .  .  ->1\n.  .  .  .  .\n.  .  >  .  .\n.  .  1^ .  .\n");
        assert_eq!(cb.allows(5, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(6, 1_000_000), Bound::Allowed { cost: 6 });
    }

    #[test]
    fn a_topped_crossover_tops_only_the_donuts_that_cross_it() {
        // The only frosting topper works on the crossover at (2, 2), passed
        // only across (the topper closes its other way): (1,1) (1,2), then
        // (3,2) (3,1), four belts. The straight way of three is not topped.
        let cb = bound(".  .  .  .  .\n+> .  .  .  ->1\n.  .  *  .  .\n.  .  1^ .  .\n");
        assert_eq!(cb.allows(3, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(4, 1_000_000), Bound::Allowed { cost: 4 });
    }

    #[test]
    fn levels_outside_the_class_are_named() {
        let err = |t: &str| ChainBound::new(&parse_str(t).expect("parses")).err();
        assert_eq!(
            err("+> b>1 ->\n").as_deref(),
            Some("a bumper working on a cell a donut passes")
        );
        assert_eq!(err("#  .  ->\n").as_deref(), Some("no source"));
        assert_eq!(
            err("#  #  1v\n+> .  ->?\n").as_deref(),
            Some("a topper working on a target")
        );
    }

    #[test]
    fn a_bumper_pushes_a_donut_off_its_loop_once_topped() {
        // The source's donuts land on (1, 1); the target at (2, 2) takes
        // sprinkles, pushed there from (1, 2). A donut must be frosted at
        // (1, 3) before it is sprinkled at (1, 0), so it passes (1, 2)
        // first, goes round the board and comes back onto (1, 1): ten
        // belts, with the chain merging into itself.
        let cb = bound("2>  .   .   .\n+>  .   .   .\nb>2 .   ->2 .\n1>  .   .   .\n");
        assert!(matches!(cb.allows(10, 1_000_000), Bound::Allowed { .. }));
        // A bumper pushes only its own kind: a plain source's donuts are
        // never pushed onto the sprinkles target.
        let cb = bound("+>  .   .   .\n.   .   .   .\nb>2 .   ->2 .\n");
        assert_eq!(cb.allows(12, 1_000_000), Bound::Refuted);
    }

    #[test]
    fn an_any_source_carries_every_kind() {
        // No topper: only an any-source can feed a frosting-only target
        // (as far as the bound sees: with a crossover on the level it
        // does not follow the first donuts).
        let cb = bound("+>? .  ->1\n*  #  #\n");
        assert_eq!(cb.allows(0, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(1, 1_000_000), Bound::Allowed { cost: 1 });
        let cb = bound("+>  .  ->1\n");
        assert_eq!(cb.allows(10, 1_000_000), Bound::Refuted);
    }

    #[test]
    fn an_any_source_delivers_its_first_donuts_in_turn() {
        // Its first donut, plain, is refused by a frosting-only target.
        let cb = bound("+>? .  ->1\n");
        assert_eq!(cb.allows(10, 1_000_000), Bound::Refuted);
        // Past a frosting topper the first is accepted, but with no dead
        // chain the third, sprinkles, comes too, and is refused.
        let level = "#  1v #\n+>? .  ->1\n";
        assert_eq!(bound(level).allows(10, 1_000_000), Bound::Refuted);
        let without = bound(level).with_first_deliveries(false);
        assert_eq!(without.allows(1, 1_000_000), Bound::Allowed { cost: 1 });
    }

    #[test]
    fn a_path_passes_a_topped_cell_only_as_a_waypoint() {
        // The straight way to the plain target passes the frosting
        // topper's cell (2,1), which would top the donut: the way round
        // it, above, takes five belts.
        let level = ".  .  .  .  .\n+> .  .  .  ->\n#  #  1^ #  #\n";
        let cb = bound(level);
        assert_eq!(cb.allows(4, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(5, 1_000_000), Bound::Allowed { cost: 5 });
        let through = bound(level).with_topped_cells_avoided(false);
        assert_eq!(through.allows(3, 1_000_000), Bound::Allowed { cost: 3 });
    }

    #[test]
    fn a_topper_on_a_preset_belt_tops_the_donuts_that_pass() {
        // Frosted only on the preset belt at (1,1).
        let cb = bound("#  1v #  #\n+> >  .  ->1\n");
        assert_eq!(cb.allows(0, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(1, 1_000_000), Bound::Allowed { cost: 1 });
    }

    #[test]
    fn two_toppers_on_one_cell_may_both_act() {
        // Frosting, then sprinkles, both on (1,1): a sprinkles-only target.
        let cb = bound("#  1v #  #\n+> .  .  ->3\n#  2^ #  #\n");
        assert_eq!(cb.allows(1, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(2, 1_000_000), Bound::Allowed { cost: 2 });
    }

    #[test]
    fn preset_belts_carry_donuts_for_free() {
        let cb = bound("+> .  >  .  ->\n");
        assert_eq!(cb.allows(1, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(2, 1_000_000), Bound::Allowed { cost: 2 });
    }

    #[test]
    fn crossovers_carry_donuts_straight_on_for_free() {
        // Up from (1,2) through the crossover to (1,0), then right: the
        // crossover's cell costs nothing.
        let cb = bound(".  .  -> \n#  *  #  \n#  .  #  \n#  +^ #  \n");
        assert_eq!(cb.allows(1, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(2, 1_000_000), Bound::Allowed { cost: 2 });
        // Two chains cross on one crossover.
        let cb = bound("#  +v #  #\n+> *  .  ->\n#  .  #  #\n#  -v #  #\n");
        assert_eq!(cb.allows(1, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(2, 1_000_000), Bound::Allowed { cost: 2 });
    }

    #[test]
    fn a_teleporter_with_two_outs_feeds_both_ways() {
        // The source's donuts are copied to both outs: each out needs its
        // own way to its own target, two belts each.
        let cb = bound("+> T- #  #  \n#  #  #  #  \nT+> .  .  ->\n#  #  #  #  \nT+> .  .  ->\n");
        assert_eq!(cb.allows(3, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(4, 1_000_000), Bound::Allowed { cost: 4 });
    }

    #[test]
    fn several_sources_each_need_their_way() {
        // Two sources, each with its own target: no merge helps.
        let cb = bound("+> .  .  ->\n#  #  #  #\n+> .  .  ->\n");
        assert_eq!(cb.allows(3, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(4, 1_000_000), Bound::Allowed { cost: 4 });
    }

    #[test]
    fn two_chains_that_cross_go_round_each_other() {
        // Alone, each source's way is straight: three belts and one, both
        // on (2,2). Together the lower one goes round the other's belt,
        // above or below: seven belts and one.
        let level = ".  .  .  .  .\n.  .  +v .  .\n+> .  .  .  ->\n.  .  -v .  .\n.  .  .  .  .\n";
        let cb = bound(level);
        assert_eq!(cb.allows(7, 1_000_000), Bound::Refuted);
        assert_eq!(cb.allows(8, 1_000_000), Bound::Allowed { cost: 8 });
        let alone = bound(level).with_pairs(false);
        assert_eq!(alone.allows(4, 1_000_000), Bound::Allowed { cost: 4 });
    }

    #[test]
    fn the_budget_is_kept() {
        let cb = bound(".  .  .  .  .\n+> .  1^ .  ->1\n.  .  .  .  .\n");
        assert_eq!(cb.allows(4, 1), Bound::OutOfBudget);
    }

    /// A search told to stop gives up at its first look at the flag, after
    /// a tenth of the work of the refutation it would reach (some 480 000
    /// units on this example level), and says nothing of the bound: asked
    /// again without the flag, it refutes.
    #[test]
    fn a_raised_stop_flag_ends_the_search() {
        let text = include_str!("../../../../levels/05-out-of-order/cherries-last.txt");
        let stop = AtomicBool::new(true);
        let cb = bound(text);
        let answer = cb.allows_unless(7, u64::MAX, Some(&stop));
        assert_eq!(answer, Bound::OutOfBudget);
        let stopped_after = cb.work();
        assert_eq!(cb.allows(7, u64::MAX), Bound::Refuted);
        assert!(
            stopped_after * 10 < cb.work(),
            "stopped after {stopped_after} of {} units",
            cb.work()
        );
    }
}
