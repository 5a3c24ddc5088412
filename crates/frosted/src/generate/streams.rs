//! Streams: where the donuts of the hidden layout will go. A stream's head is
//! a free cell that a donut will reach moving in a known direction; the
//! operations lay belts to a waypoint, put a topper beside the head, or end
//! the stream at a target, a splitter, a teleporter or a sorting bumper.
//! The kinds a stream carries are a guess that guides the choice of
//! toppers and bumpers; the simulator has the last word.

use super::board::{Board, StreamId};
use super::rng::Rng;
use crate::grid::{CellId, Dir, Kind};
use crate::level::{Accepts, Channel, Tile};

/// Where donuts are headed: they will reach `cell` moving `dir`.
#[derive(Clone, Debug)]
pub struct Stream {
    pub id: StreamId,
    pub cell: CellId,
    pub dir: Dir,
    /// Bit `k`: donuts of kind `k` may arrive (a guess).
    pub kinds: u8,
}

impl Stream {
    /// The kinds it carries, as a list.
    pub fn kind_list(&self) -> Vec<Kind> {
        Kind::ALL
            .into_iter()
            .filter(|k| self.kinds & (1 << k.index()) != 0)
            .collect()
    }
}

/// Hands out stream ids.
#[derive(Default)]
pub struct Ids(usize);

impl Ids {
    pub fn next(&mut self) -> StreamId {
        self.0 += 1;
        self.0
    }
}

impl Board {
    /// A new stream headed for `cell` (which it takes), moving `dir`.
    pub fn open(&mut self, ids: &mut Ids, cell: CellId, dir: Dir, kinds: u8) -> Stream {
        self.taken[cell.index()] = true;
        Stream {
            id: ids.next(),
            cell,
            dir,
            kinds,
        }
    }

    /// Lays the route's belts; the stream's head moves to its end.
    fn lay(&mut self, s: &mut Stream, steps: &[super::board::Step]) {
        for &step in steps {
            self.tiles[step.from.index()] = Tile::Belt(step.dir);
            self.laid[step.from.index()] = Some((s.dir, s.id));
            if let Some(b) = step.over {
                self.tiles[b.index()] = Tile::Crossover;
            }
            s.cell = self.landing(step);
            s.dir = step.dir;
            self.taken[s.cell.index()] = true;
        }
    }

    /// Lays belts from the head to `goal` (a free cell); false when no
    /// route exists.
    pub fn walk_to(&mut self, s: &mut Stream, goal: CellId) -> bool {
        match self.route(s.cell, &|c| c == goal) {
            Some(steps) => {
                self.lay(s, &steps);
                true
            }
            None => false,
        }
    }

    /// Lays belts from the head to some free cell with `ok`.
    pub fn walk_until(&mut self, s: &mut Stream, ok: &dyn Fn(&Board, CellId) -> bool) -> bool {
        let steps = self.route(s.cell, &|c| ok(self, c));
        match steps {
            Some(steps) => {
                self.lay(s, &steps);
                true
            }
            None => false,
        }
    }

    /// Free neighbours of the head other than straight back.
    pub fn exits(&self, s: &Stream) -> Vec<Dir> {
        Dir::ALL
            .into_iter()
            .filter(|&d| d != s.dir.opposite() && self.free_step(s.cell, d).is_some())
            .collect()
    }

    /// A topper beside the head that tops the kind after one the stream
    /// carries; keeps an exit free. False when there is no room or nothing
    /// left to top.
    pub fn topper(&mut self, s: &mut Stream, rng: &mut Rng) -> bool {
        let toppable: Vec<Kind> = s
            .kind_list()
            .into_iter()
            .filter(|k| k.index() < 4)
            .collect();
        let exits = self.exits(s);
        if toppable.is_empty() || exits.len() < 2 {
            return false;
        }
        let side = rng.pick(&exits);
        let Some(t) = self.shape.step(s.cell, side) else {
            return false;
        };
        let from = rng.pick(&toppable);
        let kind = Kind::ALL[from.index() + 1];
        self.put(
            t,
            Tile::Topper {
                kind,
                dir: side.opposite(),
            },
        );
        s.kinds = (s.kinds & !(1 << from.index())) | (1 << kind.index());
        true
    }

    /// Ends the stream at a target entered moving its direction; the
    /// target accepts any donut until the run says which it gets.
    pub fn target(&mut self, s: &Stream) {
        self.put(
            s.cell,
            Tile::Target {
                dir: s.dir,
                accepts: Accepts::Any,
            },
        );
    }

    /// Ends the stream at a splitter: two streams, to its left and right.
    pub fn splitter(&mut self, ids: &mut Ids, s: &Stream) -> Option<Vec<Stream>> {
        let (l, r) = (s.dir.turn_left(), s.dir.turn_right());
        let lc = self.free_step(s.cell, l)?;
        let rc = self.free_step(s.cell, r)?;
        self.put(s.cell, Tile::Splitter(s.dir));
        Some(vec![
            self.open(ids, lc, l, s.kinds),
            self.open(ids, rc, r, s.kinds),
        ])
    }

    /// Ends the stream at a teleporter in of `ch` with `outs` outs placed on
    /// free cells (the farthest of a few tries each when `far`): one stream
    /// per out. With `split`, each out's first cell has room for a splitter.
    #[allow(clippy::too_many_arguments)]
    pub fn teleporter(
        &mut self,
        ids: &mut Ids,
        s: &Stream,
        ch: Channel,
        outs: usize,
        (far, split): (bool, bool),
        rng: &mut Rng,
    ) -> Option<Vec<Stream>> {
        self.put(s.cell, Tile::TeleIn(ch));
        let mut streams = Vec::new();
        for _ in 0..outs {
            let spots = self.out_spots(split);
            if spots.is_empty() {
                return None;
            }
            let tries = if far { 6 } else { 1 };
            let (o, d) = (0..tries)
                .map(|_| rng.pick(&spots))
                .max_by_key(|&(o, _)| self.distance(o, s.cell))?;
            self.put(o, Tile::TeleOut(ch, d));
            let head = self.free_step(o, d)?;
            streams.push(self.open(ids, head, d, s.kinds));
        }
        Some(streams)
    }

    /// Free cells with a free neighbour, and the direction to it; with
    /// `split`, a neighbour with free cells on both sides.
    fn out_spots(&self, split: bool) -> Vec<(CellId, Dir)> {
        let mut spots = Vec::new();
        for c in self.free_cells() {
            for d in Dir::ALL {
                let head = self.free_step(c, d);
                let sides = |h| {
                    self.free_step(h, d.turn_left()).is_some()
                        && self.free_step(h, d.turn_right()).is_some()
                };
                if head.is_some_and(|h| !split || sides(h)) {
                    spots.push((c, d));
                }
            }
        }
        spots
    }

    /// A bumper beside the head that pushes one kind sideways: the others
    /// (if the stream carries others) go straight on. Returns the streams
    /// after it.
    pub fn bumper(&mut self, ids: &mut Ids, s: &Stream, rng: &mut Rng) -> Option<Vec<Stream>> {
        let kinds = s.kind_list();
        let kind = rng.pick(&kinds);
        let push = if rng.chance(1, 2) {
            s.dir.turn_left()
        } else {
            s.dir.turn_right()
        };
        let at = self.free_step(s.cell, push.opposite())?;
        let side = self.free_step(s.cell, push)?;
        let ahead = self.free_step(s.cell, s.dir);
        let rest = s.kinds & !(1 << kind.index());
        if rest != 0 && ahead.is_none() {
            return None;
        }
        self.put(at, Tile::Bumper { dir: push, kind });
        let belt = if rest == 0 { push } else { s.dir };
        self.tiles[s.cell.index()] = Tile::Belt(belt);
        self.laid[s.cell.index()] = Some((s.dir, s.id));
        let mut out = vec![self.open(ids, side, push, 1 << kind.index())];
        if let (true, Some(a)) = (rest != 0, ahead) {
            out.push(self.open(ids, a, s.dir, rest));
        }
        Some(out)
    }

    /// Ends the stream by joining a belt of a stream in `done` (streams
    /// whose donuts reach a target without coming back here): a route to a
    /// free cell next to such a belt, then a belt into it.
    pub fn merge(&mut self, s: &mut Stream, done: &[StreamId]) -> bool {
        let joins = |b: &Board, c: CellId| b.join_dir(c, done).is_some();
        if !self.walk_until(s, &joins) {
            return false;
        }
        let Some(d) = self.join_dir(s.cell, done) else {
            return false;
        };
        self.tiles[s.cell.index()] = Tile::Belt(d);
        self.laid[s.cell.index()] = Some((s.dir, s.id));
        true
    }

    /// A direction from `c` into a belt of a stream in `done` that does not
    /// point back at `c`.
    fn join_dir(&self, c: CellId, done: &[StreamId]) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| {
            let Some(n) = self.shape.step(c, d) else {
                return false;
            };
            match (self.tiles[n.index()], self.laid[n.index()]) {
                (Tile::Belt(out), Some((_, id))) => out != d.opposite() && done.contains(&id),
                _ => false,
            }
        })
    }
}
