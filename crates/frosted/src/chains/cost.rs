//! The price of one chain: the fewest free cells it owns when it passes its
//! waypoints in order and ends where the topology says, with the chains that
//! merge into each of its segments; and a merging chain's own cells up to
//! each merge cell.

use super::{ChainBound, End, Excl, Landing, INF, NONE};

/// Per way out of the last waypoint passed, the least cost so far.
type Ways = Vec<(Landing, u32)>;

/// The chains merging into each segment of a chain: per segment, their
/// tails (each `tail[x]`: the merging chain's own cells up to a merge on `x`).
type Tails<'t> = [Vec<&'t [u32]>];

/// The cost of segment `a`: `plain` when no chain merges into it, else the
/// most that `with_tail` asks for any of the tails merging there.
fn segment(tails: &Tails, plain: u32, a: usize, with_tail: &dyn Fn(&[u32]) -> u32) -> u32 {
    match tails.get(a) {
        Some(ts) if !ts.is_empty() => ts.iter().map(|t| with_tail(t)).max().unwrap_or(plain),
        _ => plain,
    }
}

/// Records the way out `l` at cost `c`, keeping the cheaper of two costs of
/// one way.
fn keep_cheapest(ways: &mut Ways, l: Landing, c: u32) {
    if c >= INF {
        return;
    }
    match ways.iter_mut().find(|(m, _)| *m == l) {
        Some(e) => e.1 = e.1.min(c),
        None => ways.push((l, c)),
    }
}

/// The exclusion set of one free cell.
fn excluding(w: usize) -> Excl {
    [w as u32, NONE]
}

impl ChainBound {
    /// The fewest free cells a chain from free cell `s` owns when it passes
    /// the waypoints `order` in that order and ends at `end`, and, for each
    /// segment `a` (before waypoint `a`, or after the last), the chains in
    /// `tails[a]` merge into it (each `tail[x]`: the merging chain's own
    /// cells up to a merge on `x`).
    pub(super) fn chain_cost(&self, s: usize, order: &[usize], end: End, tails: &Tails) -> u32 {
        let Some((&last, _)) = order.split_last() else {
            return self.cost_without_waypoints(s, end, tails);
        };
        let mut ways = self.ways_out_of_first(s, order[0], tails);
        for a in 1..order.len() {
            ways = self.ways_out_of_next(&ways, order[a - 1], order[a], a, tails);
        }
        self.cost_to_end(&ways, last, order.len(), end, tails)
    }

    /// [`ChainBound::chain_cost`] of a chain that passes no waypoint.
    fn cost_without_waypoints(&self, s: usize, end: End, tails: &Tails) -> u32 {
        match end {
            End::Open => segment(tails, 0, 0, &|t| self.via(s, None, [NONE; 2], t, 1)),
            _ => {
                let b = self.end_point(end);
                let plain = self.dx(s, b, [NONE; 2]);
                if plain >= INF {
                    return INF;
                }
                segment(tails, plain, 0, &|t| self.via(s, Some(b), [NONE; 2], t, 0))
            }
        }
    }

    /// The ways out of the first waypoint `first` of a chain from free cell
    /// `s`, each with the least cost of the chain up to it.
    fn ways_out_of_first(&self, s: usize, first: usize, tails: &Tails) -> Ways {
        let mut ways = Vec::new();
        let first = &self.waypoints[first];
        let w1 = first.cell;
        if s == w1 {
            let c = segment(tails, 0, 0, &|t| t[w1]);
            for &r in &first.succ {
                keep_cheapest(&mut ways, r, c);
            }
            return ways;
        }
        for &q in &first.pred {
            let d0 = self.dx(s, q, excluding(w1));
            if d0 >= INF {
                continue;
            }
            let plain = d0 + 1;
            let c = segment(tails, plain, 0, &|t| {
                (plain + t[w1]).min(self.via(s, Some(q), excluding(w1), t, 1))
            });
            for &r in &first.succ {
                if r != Landing::Free(q) {
                    keep_cheapest(&mut ways, r, c);
                }
            }
        }
        ways
    }

    /// The ways out of waypoint `next` (segment `a` of the chain), going on
    /// from the ways out of the waypoint `prev` before it.
    fn ways_out_of_next(
        &self,
        ways: &Ways,
        prev: usize,
        next: usize,
        a: usize,
        tails: &Tails,
    ) -> Ways {
        let w = self.waypoints[prev].cell;
        let next = &self.waypoints[next];
        let w2 = next.cell;
        let ex = [w as u32, w2 as u32];
        let mut out = Vec::new();
        for &(r, c0) in ways {
            let Landing::Free(rc) = r else { continue };
            for &q in &next.pred {
                let c = if rc == w2 {
                    if q != w {
                        continue;
                    }
                    c0 + segment(tails, 1, a, &|t| 1 + t[w2])
                } else {
                    if q == w || q == w2 {
                        continue;
                    }
                    let d = self.dx(rc, q, ex);
                    if d >= INF {
                        continue;
                    }
                    let plain = d + 2;
                    c0 + segment(tails, plain, a, &|t| {
                        (plain + t[w2]).min(1 + self.via(rc, Some(q), ex, t, 1))
                    })
                };
                for &r2 in &next.succ {
                    if r2 != Landing::Free(q) {
                        keep_cheapest(&mut out, r2, c);
                    }
                }
            }
        }
        out
    }

    /// The least cost of the whole chain: from the ways out of its last
    /// waypoint `last` through its last segment `m` to `end`.
    fn cost_to_end(&self, ways: &Ways, last: usize, m: usize, end: End, tails: &Tails) -> u32 {
        let wm = self.waypoints[last].cell;
        let mut best = INF;
        for &(r, c0) in ways {
            let c = match (end, r) {
                (End::Open, Landing::Free(rc)) => {
                    c0 + segment(tails, 1, m, &|t| {
                        (1 + t[wm]).min(1 + self.via(rc, None, excluding(wm), t, 1))
                    })
                }
                (End::Open, _) => c0 + segment(tails, 1, m, &|t| 1 + t[wm]),
                (End::Fork(z), Landing::Fork(y)) if z == y => c0 + segment(tails, 1, m, &|_| INF),
                (End::Target(z), Landing::Target(y)) if z == y => {
                    c0 + segment(tails, 1, m, &|_| INF)
                }
                (_, Landing::Free(rc)) => {
                    let b = self.end_point(end);
                    let d = self.dx(rc, b, excluding(wm));
                    if d >= INF {
                        continue;
                    }
                    c0 + segment(tails, 1 + d, m, &|t| {
                        1 + self.via(rc, Some(b), excluding(wm), t, 0)
                    })
                }
                _ => continue,
            };
            best = best.min(c);
        }
        best.min(INF)
    }

    /// A merging chain's own cells up to a merge on each free cell.
    pub(super) fn tail(&self, start: Landing, order: &[usize]) -> Vec<u32> {
        match (order.last(), start) {
            (Some(&w), _) => {
                let p = self.waypoints[w].cell;
                let d = self.dist(p, [NONE; 2], true);
                (0..self.n())
                    .map(|x| if x == p || d[x] >= INF { INF } else { d[x] - 1 })
                    .collect()
            }
            (None, Landing::Free(s)) => self.dist(s, [NONE; 2], true)[..self.n()].to_vec(),
            (None, _) => vec![INF; self.n()],
        }
    }
}
