//! A first layout without the SAT solver: each source's donuts are led, one
//! stream after another, along a shortest way of the move graph into a
//! target that accepts every kind they carry, over the belts laid so far
//! (a stream that meets them follows them: a merge); the other exits of a
//! splitter or a teleporter on the way become streams of their own. With
//! `:targets`, in half the tries each plain source's stream is first led
//! to arrive with one of the kinds it names (a different one per source
//! while they last; those of targets that accept one kind go first, to
//! sources aimed at such a target), and the kinds left go to the
//! any-sources, whose five kinds the toppers on their way must narrow to
//! exactly those. On a level with crossovers, half the tries let a way
//! pass a crossover only across a way laid before it (a crossover passed
//! on one axis refuses the next donut on that axis until one passes on
//! the other, so a lone stream through it jams). On a level with several
//! sources where the tries find no layout, as many tries again keep each
//! stream off the belts laid before it where they can. The ways are drawn
//! with random ties, and every sketch is judged by the simulator: only a
//! layout it accepts is ever returned, so a sketch can save the first SAT
//! calls but never make a claim (`docs/performance.md`, "Sketches").

use crate::encode::{Encoding, FreeId, NodeId, SourceId, CHOICES};
use crate::grid::{CellId, Dir};
use crate::judge::judge;
use crate::level::{Accepts, Level, Tile};
use cegar::xorshift::XorShift;
use std::collections::{BTreeMap, HashMap, VecDeque};

/// The tries `solve` makes (each leads every stream once and runs the
/// simulator): on the generated levels 175 of the 188 layouts that 200
/// tries find are found within 10, and a try takes about 0.2 ms.
pub const TRIES: usize = 16;

/// The tries after the first accepted layout, for a cheaper one (a
/// cheaper start leaves the neighbourhood search less to do).
pub const MORE: usize = 4;

/// The seed of the tries' random ties.
pub const SEED: u64 = 0x5ce7_c4ed_0000_0001;

/// Donuts that stand together: nodes of one cell (and entry), one per kind.
type Bundle = Vec<NodeId>;

/// Which targets a stream may end in.
#[derive(Clone, Copy)]
enum Goal {
    At(CellId),
    Unfed,
    Any,
    /// A fixed tile whose donuts part ways (no target).
    Fork,
}

/// How many ways a bundle's move parts into (0 where it has none).
fn k_exits(groups: Option<Vec<Bundle>>) -> usize {
    groups.map_or(0, |g| g.len())
}

/// A move out of a bundle: the belt it lays (none where it lays none),
/// and the bundles it lands in, grouped by where they stand.
type Move = (Option<(FreeId, Dir)>, Vec<Bundle>);

/// Where a bundle stands, and which kinds it holds (the search's key).
type Key = (usize, Option<usize>, u8);

/// A stream still to lead somewhere.
struct Stream {
    bundle: Bundle,
    /// The target this try sends it to first, if any.
    aim: Option<CellId>,
    /// Lead it to a fork first (a splitter, a teleporter with several
    /// outs), whose exits then go on as streams of their own.
    via_fork: bool,
    /// The kinds it must arrive with (a bit per kind), if this try gives
    /// it one of the kinds `:targets` names.
    kinds: Option<u8>,
}

/// One step of a way: from the bundle at `prev`, laying `belt` (when the
/// step leaves a `.` cell nobody laid one on yet), with the other exits
/// of a fork left behind as streams.
#[derive(Clone)]
struct Step {
    prev: Option<Key>,
    belt: Option<(FreeId, Dir)>,
    sides: Vec<Bundle>,
    bundle: Bundle,
}

/// The sketcher: the move graph of an encoding and the layout drawn so far.
pub struct Sketcher<'a> {
    enc: &'a Encoding,
    /// Per free cell, the belt laid there in this try.
    laid: HashMap<FreeId, Dir>,
    /// Targets that some stream already delivers to.
    fed: Vec<CellId>,
    /// Per crossover some laid way passes, the axes it is passed on (a
    /// bit each: [`axis_bit`]).
    crossed: HashMap<CellId, u8>,
    /// Whether this try lets a way pass a crossover only across a way laid
    /// before it ([`Sketcher::crosses_fairly`]).
    strict: bool,
    /// Whether these tries keep each stream off the belts laid before it,
    /// where it can ([`Sketcher::lead`]).
    apart: bool,
    /// Whether the search running now may not enter a cell whose belt was
    /// laid before (no merge).
    keep_off: bool,
    /// Whether the level has a crossover.
    has_crossover: bool,
    rng: XorShift,
    /// What the tries did so far.
    pub tally: Tally,
}

/// The tries a sketcher made, and how many of their layouts the simulator
/// rejected (the others found no way, or were accepted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub tries: usize,
    pub rejected: usize,
}

impl<'a> Sketcher<'a> {
    pub fn new(enc: &'a Encoding, seed: u64) -> Sketcher<'a> {
        Sketcher {
            enc,
            laid: HashMap::new(),
            fed: Vec::new(),
            crossed: HashMap::new(),
            strict: false,
            apart: false,
            keep_off: false,
            has_crossover: enc
                .level
                .shape
                .cells()
                .any(|c| matches!(enc.level.tile(c), Tile::Crossover)),
            rng: XorShift(seed | 1),
            tally: Tally::default(),
        }
    }

    /// Layouts drawn until `tries` are spent, or [`MORE`] more after the
    /// first the simulator accepts: the cheapest accepted one, if any. On a
    /// level with several sources where those tries find none, as many
    /// again with the streams kept apart ([`Sketcher::lead`]).
    pub fn sketch(&mut self, tries: usize) -> Option<Level> {
        self.apart = false;
        let merged = self.tries(tries);
        if merged.is_some() || self.enc.sources.len() < 2 {
            return merged;
        }
        self.apart = true;
        self.tries(tries)
    }

    /// The cheapest layout of `tries` tries (or [`MORE`] more after the
    /// first the simulator accepts), if any.
    fn tries(&mut self, tries: usize) -> Option<Level> {
        let mut best: Option<(usize, Level)> = None;
        let mut left = tries;
        while left > 0 {
            left -= 1;
            self.tally.tries += 1;
            let Some(layout) = self.draw() else { continue };
            if !judge(&layout).solved() {
                self.tally.rejected += 1;
                continue;
            }
            let belts = layout.added_belts(&self.enc.level);
            if best.is_none() {
                left = left.min(MORE);
            }
            if best.as_ref().is_none_or(|(b, _)| belts < *b) {
                best = Some((belts, layout));
            }
        }
        best.map(|(_, l)| l)
    }

    /// One try: every source's stream, in a random order, then the streams
    /// the forks left behind; `None` when some stream found no way.
    fn draw(&mut self) -> Option<Level> {
        self.laid.clear();
        self.fed.clear();
        self.crossed.clear();
        // (Drawn only where there is a crossover, so that the other levels'
        // tries draw what they drew before.)
        self.strict = self.has_crossover && self.rng.below(2) == 0;
        let mut order: Vec<SourceId> = self.enc.sources.keys().collect();
        cegar::sat::race::shuffle(&mut order, self.rng.next_u64());
        let mut targets: Vec<CellId> = self.enc.level.targets().collect();
        cegar::sat::race::shuffle(&mut targets, self.rng.next_u64());
        // Targets beyond one per source need a fork on some way.
        let spare = targets.len() > order.len();
        // With `:targets`, in half the tries each plain source is given
        // one of its kinds (the other half lets the ways pick them).
        let mut named: Vec<u8> = self
            .enc
            .level
            .flags
            .targets
            .iter()
            .flatten()
            .map(|k| 1u8 << k.index())
            .collect();
        if !named.is_empty() {
            cegar::sat::race::shuffle(&mut named, self.rng.next_u64());
            if self.rng.below(2) == 0 {
                named.clear();
            }
        }
        let mut aims: Vec<Option<CellId>> = (0..order.len())
            .map(|i| (!targets.is_empty()).then(|| targets[i % targets.len()]))
            .collect();
        if !named.is_empty() {
            named = self.aim_at_one_kind_targets(&order, &targets, named, &mut aims);
        }
        let kinds = self.kinds_per_source(&order, &named);
        let mut streams: VecDeque<Stream> = VecDeque::new();
        for (i, s) in order.into_iter().enumerate() {
            let via_fork = spare && self.rng.below(2) == 0;
            let kinds = kinds[i];
            let aim = aims[i];
            let bundle: Bundle = self
                .enc
                .edges
                .iter()
                .filter(|e| e.first && e.from == crate::encode::From::Source(s))
                .map(|e| e.to)
                .collect();
            if bundle.is_empty() {
                return None;
            }
            streams.push_back(Stream {
                bundle,
                aim,
                via_fork,
                kinds,
            });
        }
        let mut led = 0;
        while let Some(stream) = streams.pop_front() {
            led += 1;
            if led > 64 {
                return None;
            }
            let sides = match stream.via_fork {
                true => self.lead_to_fork(&stream.bundle),
                false => None,
            };
            let sides = match sides {
                Some(sides) => sides,
                None => self.lead(&stream.bundle, stream.aim, stream.kinds)?,
            };
            for bundle in sides {
                streams.push_back(Stream {
                    bundle,
                    aim: None,
                    via_fork: false,
                    kinds: None,
                });
            }
        }
        let belts = self
            .laid
            .iter()
            .map(|(&i, &d)| (self.enc.free[i], d))
            .collect::<Vec<_>>();
        Some(self.enc.level.with_belts(belts))
    }

    /// Aims the plain sources of `order`, one each while they last, at the
    /// targets (in the order of `targets`) that accept one kind only, a
    /// kind `named` holds: such a target is fed by a source that arrives
    /// with that kind, which a plain source can (an any-source only by
    /// passing every topper in turn). Returns `named` with those kinds
    /// first, in the order of the plain sources they go to.
    fn aim_at_one_kind_targets(
        &self,
        order: &[SourceId],
        targets: &[CellId],
        mut named: Vec<u8>,
        aims: &mut [Option<CellId>],
    ) -> Vec<u8> {
        let level = &self.enc.level;
        let mut plain = (0..order.len()).filter(|&i| self.is_plain(order[i]));
        let mut front = Vec::new();
        for &t in targets {
            let Tile::Target {
                accepts: Accepts::Only(k),
                ..
            } = level.tile(t)
            else {
                continue;
            };
            let bit = 1u8 << k.index();
            let Some(pos) = named.iter().position(|&m| m == bit) else {
                continue;
            };
            let Some(i) = plain.next() else { break };
            named.remove(pos);
            front.push(bit);
            aims[i] = Some(t);
        }
        front.extend(named);
        front
    }

    /// Whether source `s` is a plain one (not an any-source).
    fn is_plain(&self, s: SourceId) -> bool {
        matches!(self.enc.level.tile(self.enc.sources[s]), Tile::Source(_))
    }

    /// The kinds each source of `order` must arrive with, from the kinds
    /// `named` by `:targets` (a bit each, in a random order; empty: none
    /// asked): each plain source takes the next one while they last, and
    /// the ones left go round the any-sources, each of which must then
    /// arrive with exactly the kinds it was given (its five kinds narrowed
    /// by the toppers on its way; a kind given to it twice makes no
    /// sense, as each (source, kind) pair counts once, so it is given
    /// none then).
    fn kinds_per_source(&self, order: &[SourceId], named: &[u8]) -> Vec<Option<u8>> {
        let plain: Vec<bool> = order.iter().map(|&s| self.is_plain(s)).collect();
        let mut left = named.iter().copied();
        let mut kinds: Vec<Option<u8>> = plain
            .iter()
            .map(|&p| if p { left.next() } else { None })
            .collect();
        let any: Vec<usize> = (0..order.len()).filter(|&i| !plain[i]).collect();
        let mut twice = vec![false; order.len()];
        for (j, k) in left.enumerate() {
            let Some(&i) = any.get(j % any.len().max(1)) else {
                break;
            };
            let m = kinds[i].unwrap_or(0);
            twice[i] |= m & k != 0;
            kinds[i] = Some(m | k);
        }
        for (i, t) in twice.into_iter().enumerate() {
            if t {
                kinds[i] = None;
            }
        }
        kinds
    }

    fn key(&self, b: &Bundle) -> Key {
        let node = &self.enc.nodes[b[0]];
        let mask = b
            .iter()
            .fold(0u8, |m, &n| m | 1 << self.enc.nodes[n].kind.index());
        (node.cell.index(), node.entry.map(Dir::index), mask)
    }

    /// Leads one stream to a target that accepts all its kinds (one no
    /// stream feeds yet, when it can), with the `kinds` asked for when
    /// there is such a way, laying the belts of the way; returns the streams
    /// its forks leave behind, or `None` when there is no way. In tries
    /// that keep the streams apart, a way that enters no belt laid before
    /// comes first (a stream that meets laid belts must follow them, and so
    /// ends where they end).
    fn lead(
        &mut self,
        start: &Bundle,
        aim: Option<CellId>,
        kinds: Option<u8>,
    ) -> Option<Vec<Bundle>> {
        let mut found = None;
        if self.apart {
            self.keep_off = true;
            found = self.way_with_kinds(start, aim, kinds);
            self.keep_off = false;
        }
        let found = found.or_else(|| self.way_with_kinds(start, aim, kinds))?;
        Some(self.lay(found))
    }

    /// The way to a target with `kinds` if there is one, else with any.
    fn way_with_kinds(
        &mut self,
        start: &Bundle,
        aim: Option<CellId>,
        kinds: Option<u8>,
    ) -> Option<Vec<Step>> {
        self.way_to_target(start, aim, kinds)
            .or_else(|| kinds.and_then(|_| self.way_to_target(start, aim, None)))
    }

    /// Lays the belts of a way's steps; returns the streams its forks
    /// leave behind.
    fn lay(&mut self, way: Vec<Step>) -> Vec<Bundle> {
        let mut sides = Vec::new();
        for step in way {
            if let Some((i, d)) = step.belt {
                self.laid.insert(i, d);
            }
            let node = &self.enc.nodes[step.bundle[0]];
            if let (Tile::Crossover, Some(e)) = (self.enc.level.tile(node.cell), node.entry) {
                *self.crossed.entry(node.cell).or_default() |= axis_bit(e);
            }
            sides.extend(step.sides);
        }
        sides
    }

    /// The way to the target `aim` if nobody feeds it yet, else to one
    /// nobody feeds, else to any (each arriving with `kinds`, when given).
    fn way_to_target(
        &mut self,
        start: &Bundle,
        aim: Option<CellId>,
        kinds: Option<u8>,
    ) -> Option<Vec<Step>> {
        aim.filter(|t| !self.fed.contains(t))
            .and_then(|t| self.search(start, Goal::At(t), kinds))
            .or_else(|| self.search(start, Goal::Unfed, kinds))
            .or_else(|| self.search(start, Goal::Any, kinds))
    }

    /// Leads one stream to the nearest fork, laying the belts of the way;
    /// returns the fork's exits (and the sides of the way) as streams, or
    /// `None` when no fork is in reach.
    fn lead_to_fork(&mut self, start: &Bundle) -> Option<Vec<Bundle>> {
        let found = self.search(start, Goal::Fork, None)?;
        let fork = found.last()?.bundle.clone();
        let exits = self.landing(&fork, None)?;
        let mut sides = self.lay(found);
        sides.extend(exits);
        Some(sides)
    }

    /// A 0-1 breadth-first search from `start` (a belt laid costs one, a
    /// belt already there nothing) to where the stream may end
    /// ([`Sketcher::arrived`]); the steps of the way, last one last.
    fn search(&mut self, start: &Bundle, goal: Goal, kinds: Option<u8>) -> Option<Vec<Step>> {
        let mut steps: HashMap<Key, Step> = HashMap::new();
        let mut deque: VecDeque<(Key, usize)> = VecDeque::new();
        let mut cost: HashMap<Key, usize> = HashMap::new();
        let k0 = self.key(start);
        steps.insert(
            k0,
            Step {
                prev: None,
                belt: None,
                sides: Vec::new(),
                bundle: start.clone(),
            },
        );
        cost.insert(k0, 0);
        deque.push_back((k0, 0));
        while let Some((k, c)) = deque.pop_front() {
            if cost.get(&k).is_some_and(|&best| best < c) {
                continue;
            }
            let bundle = steps[&k].bundle.clone();
            match self.arrived(&bundle, goal, kinds) {
                Some(true) => {
                    if !matches!(goal, Goal::Fork) {
                        self.fed.push(self.enc.nodes[bundle[0]].cell);
                    }
                    return Some(self.way(&steps, k));
                }
                Some(false) => continue,
                None => {}
            }
            for (belt, groups) in self.moves(&bundle, &steps, k) {
                let step_cost = usize::from(belt.is_some());
                for (g, next) in groups.iter().enumerate() {
                    if !self.crosses_fairly(next) {
                        continue;
                    }
                    let nk = self.key(next);
                    let nc = c + step_cost;
                    if cost.get(&nk).is_some_and(|&best| best <= nc) {
                        continue;
                    }
                    let sides: Vec<Bundle> = groups
                        .iter()
                        .enumerate()
                        .filter(|&(h, _)| h != g)
                        .map(|(_, b)| b.clone())
                        .collect();
                    cost.insert(nk, nc);
                    steps.insert(
                        nk,
                        Step {
                            prev: Some(k),
                            belt,
                            sides,
                            bundle: next.clone(),
                        },
                    );
                    if step_cost == 0 {
                        deque.push_front((nk, nc));
                    } else {
                        deque.push_back((nk, nc));
                    }
                }
            }
        }
        None
    }

    /// Whether a bundle may stand where it does, in a strict try: not on
    /// a crossover, unless a way laid before crosses it on the other axis
    /// and none on this one. A crossover passed on one axis refuses the
    /// next donut on that axis until one passes on the other (rules §4),
    /// so a lone stream through it delivers one donut and jams; two
    /// streams across each other take turns.
    fn crosses_fairly(&self, bundle: &Bundle) -> bool {
        let node = &self.enc.nodes[bundle[0]];
        match (self.strict, self.enc.level.tile(node.cell), node.entry) {
            (true, Tile::Crossover, Some(e)) => {
                let used = self.crossed.get(&node.cell).copied().unwrap_or(0);
                used & axis_bit(e) == 0 && used != 0
            }
            _ => true,
        }
    }

    /// Whether the bundle ends the stream: `Some(true)` at a target that
    /// accepts every kind, that `goal` wants and with the `kinds` asked
    /// for (when asked); or, for [`Goal::Fork`], on a fork; `Some(false)` at
    /// a dead end (a refused delivery, a failing move),
    /// `None` while it goes on.
    fn arrived(&self, bundle: &Bundle, goal: Goal, kinds: Option<u8>) -> Option<bool> {
        let enc = self.enc;
        if bundle.iter().any(|&n| enc.node_is_forbidden(n)) {
            return Some(false);
        }
        let cell = enc.nodes[bundle[0]].cell;
        if matches!(goal, Goal::Fork) {
            let fork = enc.free_id(cell).is_none() && k_exits(self.landing(bundle, None)) >= 2;
            if fork {
                return Some(true);
            }
        }
        if matches!(enc.level.tile(cell), Tile::Target { .. }) {
            let ok = bundle.iter().all(|&n| enc.node_is_delivery(n));
            let wanted = match goal {
                Goal::At(t) => t == cell,
                Goal::Unfed => !self.fed.contains(&cell),
                Goal::Any => true,
                Goal::Fork => false,
            };
            let right_kinds = kinds.is_none_or(|m| self.key(bundle).2 == m);
            return Some(ok && wanted && right_kinds);
        }
        None
    }

    /// The moves out of a bundle: per belt choice that leaves it (none on a
    /// fixed tile, or on a `.` cell whose belt is laid), the bundles it
    /// lands in, grouped by where they stand.
    fn moves(&mut self, bundle: &Bundle, steps: &HashMap<Key, Step>, k: Key) -> Vec<Move> {
        let enc = self.enc;
        let cell = enc.nodes[bundle[0]].cell;
        let Some(i) = enc.free_id(cell) else {
            return self
                .landing(bundle, None)
                .map(|g| vec![(None, g)])
                .unwrap_or_default();
        };
        if self.keep_off && self.laid.contains_key(&i) {
            return Vec::new();
        }
        if let Some(d) = self.laid.get(&i).copied().or_else(|| on_way(steps, k, i)) {
            return self
                .landing(bundle, Some((i, d)))
                .map(|g| vec![(None, g)])
                .unwrap_or_default();
        }
        let mut dirs: Vec<Dir> = CHOICES.iter().flatten().copied().collect();
        cegar::sat::race::shuffle(&mut dirs, self.rng.next_u64());
        dirs.into_iter()
            .filter_map(|d| {
                self.landing(bundle, Some((i, d)))
                    .map(|g| (Some((i, d)), g))
            })
            .collect()
    }

    /// Where each node of `bundle` goes by its first-topping move (with the
    /// belt `belt` on its `.` cell), grouped by cell and entry; `None` when
    /// some node has no such move (it would fail or strand).
    fn landing(&self, bundle: &Bundle, belt: Option<(FreeId, Dir)>) -> Option<Vec<Bundle>> {
        let enc = self.enc;
        let guard = belt.map(|(i, d)| enc.choice[i][1 + d.index()]);
        let mut groups: BTreeMap<(usize, Option<usize>), Bundle> = BTreeMap::new();
        for &n in bundle {
            let mut any = false;
            for e in enc.out_edge_ids(n) {
                let edge = &enc.edges[e];
                if !edge.first || edge.guard != guard {
                    continue;
                }
                any = true;
                let to = &enc.nodes[edge.to];
                let g = groups
                    .entry((to.cell.index(), to.entry.map(Dir::index)))
                    .or_default();
                if !g.contains(&edge.to) {
                    g.push(edge.to);
                }
            }
            if !any {
                return None;
            }
        }
        Some(groups.into_values().collect())
    }

    /// The steps from the start to `k`, in order.
    fn way(&self, steps: &HashMap<Key, Step>, k: Key) -> Vec<Step> {
        let mut out = Vec::new();
        let mut at = Some(k);
        while let Some(key) = at {
            let step = steps[&key].clone();
            at = step.prev;
            out.push(step);
        }
        out.reverse();
        out
    }
}

/// The bit of the axis a move `d` runs on: 1 across, 2 up and down.
fn axis_bit(d: Dir) -> u8 {
    if d.is_vertical() {
        2
    } else {
        1
    }
}

/// The belt the way to `k` lays on free cell `i`, if it passes there.
fn on_way(steps: &HashMap<Key, Step>, k: Key, i: FreeId) -> Option<Dir> {
    let mut at = Some(k);
    while let Some(key) = at {
        let step = &steps[&key];
        if let Some((j, d)) = step.belt {
            if j == i {
                return Some(d);
            }
        }
        at = step.prev;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Encoding;
    use crate::parse::parse;
    use rustsat::instances::{BasicVarManager, Cnf};

    fn sketch_of(text: &str, seed: u64) -> Option<Level> {
        let level = parse(text).expect("the test level parses");
        let mut vars = BasicVarManager::default();
        let mut cnf = Cnf::new();
        let enc = Encoding::new(&level, &Default::default(), &mut cnf, &mut vars);
        Sketcher::new(&enc, seed).sketch(TRIES)
    }

    /// Two sources, two targets, a topper on the way of one: each stream
    /// gets its own target, and the simulator accepts the layout.
    #[test]
    fn each_source_is_led_to_a_target_of_its_own() {
        let text = "\
+>  .   .   .   ->1
.   .   .   .   .
.   1^  .   .   .
+>  .   .   .   ->
";
        let layout = sketch_of(text, SEED).expect("a sketch");
        assert!(judge(&layout).solved(), "{layout}");
        assert_eq!(
            sketch_of(text, SEED).map(|l| l.to_string()),
            Some(layout.to_string())
        );
    }

    /// A splitter's second exit is led on too: both targets receive.
    #[test]
    fn a_forks_other_exit_is_led_on() {
        let text = "\
.   .   .   .   ->
+>  .   x>  .   .
.   .   .   .   ->
";
        let layout = sketch_of(text, SEED).expect("a sketch");
        assert!(judge(&layout).solved(), "{layout}");
    }

    /// `:targets` asks for a frosted and a plain delivery, and both
    /// shortest ways miss the topper: a try that gives one source the
    /// frosting leads it past the topper, and the simulator accepts.
    #[test]
    fn targets_kinds_are_given_to_the_sources() {
        let text = "\
:targets 0 1
+>  .   .   .   ->?
.   .   .   .   .
.   .   1v  .   .
.   .   .   .   .
+>  .   .   .   ->?
";
        let layout = sketch_of(text, SEED).expect("a sketch");
        assert!(judge(&layout).solved(), "{layout}");
    }

    /// `:targets` asks for every kind but plain from one any-source: its
    /// stream is given those four kinds and led past the frosting topper
    /// (which turns its plain donuts frosted), where the shortest way
    /// delivers all five.
    #[test]
    fn an_any_sources_kinds_are_narrowed_by_its_toppers() {
        let text = "\
:targets 1 3 7 15
+>? .   .   .   ->?
.   .   .   .   .
.   .   1^  .   .
";
        let layout = sketch_of(text, SEED).expect("a sketch");
        assert!(judge(&layout).solved(), "{layout}");
    }

    /// The shortest way from the any-source runs through the crossover,
    /// which lets its first donut by and then jams (every kind must be
    /// delivered): a strict try leads it round the crossover instead.
    #[test]
    fn a_lone_stream_is_led_round_a_crossover() {
        let text = "\
:targets 0 1 3 7 15
+v? .   .   .
.   *   .   ->?
.   .   .   .
";
        let layout = sketch_of(text, SEED).expect("a sketch");
        assert!(judge(&layout).solved(), "{layout}");
    }

    /// Three sources and three targets (the generated level game-012):
    /// with these tries' random ties every try whose streams may merge is
    /// rejected, and the first try that keeps them apart is accepted, each
    /// source feeding a target of its own.
    #[test]
    fn streams_kept_apart_when_merged_ones_fail() {
        let text = "\
.   .   .   .   .   .   .   +<  .   .   .   .   .
.   .   .   .   .   .   .   .   .   .   1v  #   +v
.   +^  .   .   .   .   .   b>1 .   .   .   .   .
.   .   .   .   8v  .   #   .   .   .   .   .   .
.   .   .   .   .   .   1<  #   .   -v1 -<3 .   .
-v1 .   .   .   1<  .   .   .   .   .   .   2^  .
";
        let level = parse(text).expect("the test level parses");
        let mut vars = BasicVarManager::default();
        let mut cnf = Cnf::new();
        let enc = Encoding::new(&level, &Default::default(), &mut cnf, &mut vars);
        let mut sketcher = Sketcher::new(&enc, SEED);
        let layout = sketcher.sketch(TRIES).expect("a sketch");
        assert!(judge(&layout).solved(), "{layout}");
        assert!(
            sketcher.tally.tries > TRIES,
            "found before the tries kept apart: {:?}",
            sketcher.tally
        );
    }

    /// No way into the target: no sketch (and nothing claimed).
    #[test]
    fn a_walled_target_gets_no_sketch() {
        let text = "\
+>  .   #   ->
.   .   #   .
";
        assert!(sketch_of(text, SEED).is_none());
    }
}
