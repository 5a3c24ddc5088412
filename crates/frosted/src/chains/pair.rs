//! Two chains priced together. The bound prices each chain alone, so two
//! chains of a topology may both be priced through the same cells, where
//! a layout must send one of them round the other. For two chains that
//! each end in a fork or a target, one of which no chain merges into, the
//! bound can ask instead for the fewest cells of the two together: every
//! simple path the first can take (as [`super::simple`] walks them), plus
//! the second's price ([`ChainBound::chain_cost`], with the chains that
//! merge into it) with the first's cells walled off. In every layout the
//! first's cells are disjoint from the second's and from those of the
//! chains merging into it, so that least total is a lower bound of what
//! the two are priced for, and it is found only up to what the topology
//! may still cost.

use super::{ChainBound, End};
use std::sync::atomic::AtomicBool;

/// A chain as the pair pricing sees it: its start (a free cell), its
/// waypoint order and its end's point.
pub(super) type Shape = (usize, Vec<usize>, usize);

/// One chain of a pair: its start, waypoint order, end, the tails of the
/// chains merging into each of its segments (empty when none does), and
/// its price with them.
pub(super) struct Part<'p> {
    pub(super) start: usize,
    pub(super) order: &'p [usize],
    pub(super) end: End,
    pub(super) cost: u32,
    pub(super) tails: &'p [Vec<&'p [u32]>],
}

/// What the pricing of a pair found.
pub(super) enum Pair {
    /// The two can have fewer cells than the cap: this many, for one way.
    Below(u32),
    /// They cannot.
    AtLeastCap,
    /// The work allowed ran out first.
    OutOfWork,
}

/// What is kept per pair between searches: a total the two can have, or
/// that they cannot have fewer cells than this.
#[derive(Clone, Copy, Debug)]
pub(super) enum Memo {
    Below(u32),
    AtLeast(u32),
}

impl ChainBound {
    /// Whether chains `a` and `b` (with the tails merging into them) can
    /// own fewer than `cap` cells together; one of the two has no chain
    /// merging into it. At most `work_cap` units of work; `stop`, when
    /// set, ends the search as running out of work does. What is learnt
    /// is kept per pair without merges.
    pub(super) fn pair_below(
        &self,
        a: &Part,
        b: &Part,
        cap: u32,
        work_cap: u64,
        stop: Option<&AtomicBool>,
    ) -> Pair {
        if !a.tails.is_empty() || !b.tails.is_empty() {
            // Not kept: the merges are part of the question.
            return self.walk_pair(a, b, cap, work_cap, stop);
        }
        let key = {
            let (ka, kb) = (self.shape(a), self.shape(b));
            if ka <= kb {
                (ka, kb)
            } else {
                (kb, ka)
            }
        };
        match self.pair_memo.borrow().get(&key) {
            Some(&Memo::Below(t)) if t < cap => return Pair::Below(t),
            Some(&Memo::AtLeast(c)) if cap <= c => return Pair::AtLeastCap,
            _ => {}
        }
        let answer = self.walk_pair(a, b, cap, work_cap, stop);
        let memo = match answer {
            Pair::Below(t) => Memo::Below(t),
            Pair::AtLeastCap => Memo::AtLeast(cap),
            Pair::OutOfWork => return answer,
        };
        self.pair_memo.borrow_mut().insert(key, memo);
        answer
    }

    fn shape(&self, p: &Part) -> Shape {
        (p.start, p.order.to_vec(), self.end_point(p.end))
    }

    /// Walks the simple paths of one chain of the two (the one no chain
    /// merges into; of two such, the cheaper), those that leave room for
    /// the other's price under `cap`, and prices the other around each;
    /// stops at the first total under `cap`.
    fn walk_pair(
        &self,
        a: &Part,
        b: &Part,
        cap: u32,
        work_cap: u64,
        stop: Option<&AtomicBool>,
    ) -> Pair {
        let walk_a = match (a.tails.is_empty(), b.tails.is_empty()) {
            (true, false) => true,
            (false, true) => false,
            _ => a.cost <= b.cost,
        };
        let (walked, priced) = if walk_a { (a, b) } else { (b, a) };
        let Some(room) = cap.checked_sub(priced.cost) else {
            return Pair::AtLeastCap;
        };
        let offer = |used: &[bool], len: u32| {
            let total = len
                + self.chain_cost_around(
                    priced.start,
                    priced.order,
                    priced.end,
                    priced.tails,
                    used,
                );
            (total < cap).then_some(total)
        };
        let mut walk = self
            .walk(walked.order, walked.end, room, work_cap, stop)
            .offering_to(&offer);
        match walk.run(walked.start) {
            None => Pair::OutOfWork,
            Some(true) => Pair::Below(walk.taken()),
            Some(false) => Pair::AtLeastCap,
        }
    }
}
