//! The train's run, encoded exactly for one or two cars (every real level):
//! per track cell, the state of the run at the moment car 0 stands there
//! (which aliens still wait, which houses are still open, what each car
//! holds and whether it is gooped), the events of that moment (rules §4.3
//! and §4.4, car 0 on the cell, then car 1 on the cell before it), and the
//! state at the next cell along the track's move.
//!
//! The state at the cell before the exit is the state after the last moment
//! (no car is handled there, rules §4.2); it must have no alien waiting and
//! no house open (rules §5). Every clause is an exact consequence of the
//! rules for the track the moves describe, so a solving track satisfies
//! them all, with its run's states; and a model's path is a solving track.
//! With three cars or more, the run is left to the simulator.

use super::{CellId, Encoding};
use crate::grid::{Color, Point};
use crate::level::Level;
use cegar::keyed::KeyedVec;
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};

/// What a car holds: nothing, or an alien of a colour.
const SLOTS: usize = 4;

/// The slot of an alien's colour (0 is "empty").
fn slot(c: Color) -> usize {
    match c {
        Color::Purple => 1,
        Color::Orange => 2,
        Color::Green => 3,
    }
}

/// A car at a moment: what it holds (one literal per slot) and its goop.
#[derive(Clone, Debug)]
struct Car {
    hold: [Lit; SLOTS],
    goo: Lit,
}

/// The run's state when car 0 is about to be handled on a cell.
#[derive(Clone, Debug)]
struct State {
    /// Per alien (in `Run::aliens` order): still waiting.
    wait: Vec<Lit>,
    /// Per house (in `Run::houses` order): still open.
    open: Vec<Lit>,
    cars: Vec<Car>,
}

/// Writes gates into the clause collector.
struct Gates<'a, C: CollectClauses> {
    col: &'a mut C,
    vm: &'a mut dyn ManageVars,
    truth: Lit,
}

impl<C: CollectClauses> Gates<'_, C> {
    fn clause(&mut self, lits: &[Lit]) {
        let _ = self.col.add_clause(Clause::from_iter(lits.iter().copied()));
    }

    /// A literal equal to the conjunction of `lits` (true when empty).
    fn and(&mut self, lits: &[Lit]) -> Lit {
        match lits {
            [] => self.truth,
            [l] => *l,
            _ => {
                let g = self.vm.new_lit();
                let mut long = vec![g];
                for &l in lits {
                    self.clause(&[!g, l]);
                    long.push(!l);
                }
                self.clause(&long);
                g
            }
        }
    }

    /// A literal equal to the disjunction of `lits` (false when empty).
    fn or(&mut self, lits: &[Lit]) -> Lit {
        let negated: Vec<Lit> = lits.iter().map(|&l| !l).collect();
        !self.and(&negated)
    }

    /// `when → (a ↔ b)`.
    fn equal_when(&mut self, when: Lit, a: Lit, b: Lit) {
        self.clause(&[!when, !a, b]);
        self.clause(&[!when, a, !b]);
    }
}

/// The aliens and houses, and the track cells next to each.
struct Run<'l> {
    level: &'l Level,
    aliens: Vec<(Point, Color)>,
    houses: Vec<(Point, Color)>,
}

impl Run<'_> {
    /// The aliens next to `p` (indices into `aliens`).
    fn aliens_at(&self, p: Point) -> Vec<usize> {
        (0..self.aliens.len())
            .filter(|&a| self.aliens[a].0.adjacent(p))
            .collect()
    }

    /// The houses next to `p`, in file order.
    fn houses_at(&self, p: Point) -> Vec<usize> {
        (0..self.houses.len())
            .filter(|&h| self.houses[h].0.adjacent(p))
            .collect()
    }
}

/// What happens to one car on one cell at one moment.
struct Events {
    /// Per house next to the cell: this car serves it.
    served: Vec<(usize, Lit)>,
    /// Per alien next to the cell: it boards this car.
    boarded: Vec<(usize, Lit)>,
    /// The car after the moment.
    after: Car,
}

impl Encoding {
    /// Encodes the run of a level with one or two cars (nothing otherwise).
    pub(super) fn run_is_solved(
        &self,
        level: &Level,
        col: &mut impl CollectClauses,
        vm: &mut dyn ManageVars,
    ) {
        if level.length > 2 {
            return;
        }
        let run = Run {
            level,
            aliens: level.aliens().iter().map(|&(_, p, c)| (p, c)).collect(),
            houses: level.houses().iter().map(|&(_, p, c)| (p, c)).collect(),
        };
        let truth = vm.new_lit();
        let mut g = Gates { col, vm, truth };
        g.clause(&[truth]);
        let states: KeyedVec<CellId, Option<State>> = self
            .cells
            .keys()
            .map(|c| (c != self.exit).then(|| self.fresh_state(&run, &mut g)))
            .collect();
        let mut boarded = vec![Vec::new(); run.aliens.len()];
        let mut served = vec![Vec::new(); run.houses.len()];
        for c in self.cells.keys() {
            let Some(state) = &states[c] else { continue };
            if c == self.entrance {
                self.run_starts(state, &mut g);
            }
            for e in self.moment_on(c, state, &states, &run, &mut g) {
                e.boarded.iter().for_each(|&(a, l)| boarded[a].push(l));
                e.served.iter().for_each(|&(h, l)| served[h].push(l));
            }
        }
        // Implied by the end of the run, said outright: every alien boards
        // at some moment, every house is served at some moment.
        for events in boarded.iter().chain(&served) {
            g.clause(events);
        }
    }

    /// Fresh variables for a state.
    fn fresh_state<C: CollectClauses>(&self, run: &Run, g: &mut Gates<C>) -> State {
        let car = |g: &mut Gates<C>| Car {
            hold: [(); SLOTS].map(|_| g.vm.new_lit()),
            goo: g.vm.new_lit(),
        };
        State {
            wait: run.aliens.iter().map(|_| g.vm.new_lit()).collect(),
            open: run.houses.iter().map(|_| g.vm.new_lit()).collect(),
            cars: (0..run.level.length).map(|_| car(g)).collect(),
        }
    }

    /// At the entrance every alien waits, every house is open, every car
    /// is empty and clean.
    fn run_starts<C: CollectClauses>(&self, s: &State, g: &mut Gates<C>) {
        s.wait.iter().chain(&s.open).for_each(|&l| g.clause(&[l]));
        for car in &s.cars {
            g.clause(&[car.hold[0]]);
            car.hold[1..].iter().for_each(|&l| g.clause(&[!l]));
            g.clause(&[!car.goo]);
        }
    }

    /// The moment car 0 stands on `c` (if it happens: `c` is used and not
    /// the cell before the exit), and the state it leaves at the next cell;
    /// at the cell before the exit, the run must be over.
    fn moment_on<C: CollectClauses>(
        &self,
        c: CellId,
        s: &State,
        states: &KeyedVec<CellId, Option<State>>,
        run: &Run,
        g: &mut Gates<C>,
    ) -> Vec<Events> {
        let to_exit = self.move_between(c, self.exit).map(|m| self.moves[m].lit);
        let happens = match to_exit {
            Some(x) => g.and(&[self.on[c], !x]),
            None => self.on[c],
        };
        if let Some(x) = to_exit {
            for &l in s.wait.iter().chain(&s.open) {
                g.clause(&[!x, !l]);
            }
        }
        let here = self.cells[c];
        let now = Moment {
            happens,
            wait: &s.wait,
            open: &s.open,
        };
        let front = car_on(here, &now, &s.cars[0], run, g);
        let (wait, open) = after(&s.wait, &s.open, &front, g);
        let mut events = vec![front];
        let (wait, open) = match s.cars.get(1) {
            None => (wait, open),
            Some(back) => {
                let now = Moment {
                    happens,
                    wait: &wait,
                    open: &open,
                };
                let back = self.second_car(c, &now, back, run, g);
                let (wait, open) = after(&wait, &open, &back, g);
                events.push(back);
                (wait, open)
            }
        };
        let cars = events.iter().map(|e| e.after.clone()).collect();
        let next = State { wait, open, cars };
        for &m in &self.out_moves[c] {
            let d = self.moves[m].to;
            if let Some(t) = &states[d] {
                carry(self.moves[m].lit, &next, t, g);
            }
        }
        events
    }

    /// Car 1 at the moment car 0 stands on `c`: on the cell the track came
    /// from, whichever move it came by.
    fn second_car<C: CollectClauses>(
        &self,
        c: CellId,
        now: &Moment,
        car: &Car,
        run: &Run,
        g: &mut Gates<C>,
    ) -> Events {
        let mut per_move = Vec::new();
        for &m in &self.in_moves[c] {
            let from = self.cells[self.moves[m].from];
            let case = Moment {
                happens: g.and(&[now.happens, self.moves[m].lit]),
                ..*now
            };
            per_move.push(car_on(from, &case, car, run, g));
        }
        merge_events(per_move, car, g)
    }
}

/// A moment of the run, as one car sees it: whether it happens, and the
/// aliens still waiting and the houses still open when the car's turn comes.
#[derive(Copy, Clone)]
struct Moment<'a> {
    happens: Lit,
    wait: &'a [Lit],
    open: &'a [Lit],
}

/// One car on cell `p` at a moment: drop-off (rules §4.3), then pick-up
/// (§4.4).
fn car_on<C: CollectClauses>(
    p: Point,
    now: &Moment,
    car: &Car,
    run: &Run,
    g: &mut Gates<C>,
) -> Events {
    let (happens, wait, open) = (now.happens, now.wait, now.open);
    let served = drop_off(p, happens, car, open, run, g);
    let delivered: Vec<Lit> = served.iter().map(|&(_, l)| l).collect();
    let delivered = g.or(&delivered);
    let empty = g.or(&[car.hold[0], delivered]);
    let boarded = pick_up(p, happens, empty, car, wait, run, g);
    let after = car_after(car, delivered, empty, &boarded, run, g);
    Events {
        served,
        boarded,
        after,
    }
}

/// Rules §4.3: the first open house next to `p` of the colour the car holds
/// is served.
fn drop_off<C: CollectClauses>(
    p: Point,
    happens: Lit,
    car: &Car,
    open: &[Lit],
    run: &Run,
    g: &mut Gates<C>,
) -> Vec<(usize, Lit)> {
    let near = run.houses_at(p);
    let mut served = Vec::new();
    for (i, &h) in near.iter().enumerate() {
        let color = run.houses[h].1;
        let mut all = vec![happens, car.hold[slot(color)], open[h]];
        let earlier = near[..i].iter().filter(|&&e| run.houses[e].1 == color);
        all.extend(earlier.map(|&e| !open[e]));
        served.push((h, g.and(&all)));
    }
    served
}

/// Rules §4.4: an empty car takes the one willing alien next to `p`, if
/// exactly one is willing (a Green always, another only into a clean car).
fn pick_up<C: CollectClauses>(
    p: Point,
    happens: Lit,
    empty: Lit,
    car: &Car,
    wait: &[Lit],
    run: &Run,
    g: &mut Gates<C>,
) -> Vec<(usize, Lit)> {
    let near = run.aliens_at(p);
    let willing: Vec<Lit> = near
        .iter()
        .map(|&a| match run.aliens[a].1 {
            Color::Green => wait[a],
            _ => g.and(&[wait[a], !car.goo]),
        })
        .collect();
    let mut boarded = Vec::new();
    for (i, &a) in near.iter().enumerate() {
        let mut all = vec![happens, empty, willing[i]];
        all.extend((0..near.len()).filter(|&j| j != i).map(|j| !willing[j]));
        boarded.push((a, g.and(&all)));
    }
    boarded
}

/// The car after its drop-off and pick-up.
fn car_after<C: CollectClauses>(
    car: &Car,
    delivered: Lit,
    empty: Lit,
    boarded: &[(usize, Lit)],
    run: &Run,
    g: &mut Gates<C>,
) -> Car {
    let any: Vec<Lit> = boarded.iter().map(|&(_, l)| l).collect();
    let any = g.or(&any);
    let mut hold = [car.hold[0]; SLOTS];
    hold[0] = g.and(&[empty, !any]);
    for (k, slot_lit) in hold.iter_mut().enumerate().skip(1) {
        let kept = g.and(&[car.hold[k], !delivered]);
        let mut ways = vec![kept];
        ways.extend(
            boarded
                .iter()
                .filter(|&&(a, _)| slot(run.aliens[a].1) == k)
                .map(|&(_, l)| l),
        );
        *slot_lit = g.or(&ways);
    }
    let mut goo = vec![car.goo];
    goo.extend(
        boarded
            .iter()
            .filter(|&&(a, _)| run.aliens[a].1 == Color::Green)
            .map(|&(_, l)| l),
    );
    Car {
        hold,
        goo: g.or(&goo),
    }
}

/// Car 1's events over the moves it may have come by. Each case's events
/// are false, and its car unchanged, unless its move is made; at most one is.
fn merge_events<C: CollectClauses>(per_move: Vec<Events>, car: &Car, g: &mut Gates<C>) -> Events {
    let mut served: Vec<(usize, Vec<Lit>)> = Vec::new();
    let mut boarded: Vec<(usize, Vec<Lit>)> = Vec::new();
    for e in &per_move {
        gather(&mut served, &e.served);
        gather(&mut boarded, &e.boarded);
    }
    let served = served.into_iter().map(|(i, ls)| (i, g.or(&ls))).collect();
    let boarded = boarded.into_iter().map(|(i, ls)| (i, g.or(&ls))).collect();
    let mut hold = car.hold;
    for (k, h) in hold.iter_mut().enumerate() {
        let cases: Vec<Lit> = per_move.iter().map(|e| e.after.hold[k]).collect();
        *h = the_odd_one(car.hold[k], &cases, g);
    }
    let cases: Vec<Lit> = per_move.iter().map(|e| e.after.goo).collect();
    let after = Car {
        hold,
        goo: the_odd_one(car.goo, &cases, g),
    };
    Events {
        served,
        boarded,
        after,
    }
}

/// Adds `events` into `into`, one list of literals per index.
fn gather(into: &mut Vec<(usize, Vec<Lit>)>, events: &[(usize, Lit)]) {
    for &(i, l) in events {
        match into.iter_mut().find(|(j, _)| *j == i) {
            Some((_, ls)) => ls.push(l),
            None => into.push((i, vec![l])),
        }
    }
}

/// Given `cases` that all equal `base` but at most one, that one's value
/// (`base` when there is none): `(base ∧ ∧cases) ∨ (¬base ∧ ∨cases)`.
fn the_odd_one<C: CollectClauses>(base: Lit, cases: &[Lit], g: &mut Gates<C>) -> Lit {
    let all = g.and(cases);
    let any = g.or(cases);
    let stays = g.and(&[base, all]);
    let rises = g.and(&[!base, any]);
    g.or(&[stays, rises])
}

/// The aliens still waiting and the houses still open after a car's events.
fn after<C: CollectClauses>(
    wait: &[Lit],
    open: &[Lit],
    e: &Events,
    g: &mut Gates<C>,
) -> (Vec<Lit>, Vec<Lit>) {
    let mut wait = wait.to_vec();
    for &(a, l) in &e.boarded {
        wait[a] = g.and(&[wait[a], !l]);
    }
    let mut open = open.to_vec();
    for &(h, l) in &e.served {
        open[h] = g.and(&[open[h], !l]);
    }
    (wait, open)
}

/// The state after a moment becomes the next cell's when the track moves
/// there.
fn carry<C: CollectClauses>(moved: Lit, from: &State, to: &State, g: &mut Gates<C>) {
    let pairs = from
        .wait
        .iter()
        .zip(&to.wait)
        .chain(from.open.iter().zip(&to.open));
    for (&a, &b) in pairs {
        g.equal_when(moved, a, b);
    }
    for (x, y) in from.cars.iter().zip(&to.cars) {
        for k in 0..SLOTS {
            g.equal_when(moved, x.hold[k], y.hold[k]);
        }
        g.equal_when(moved, x.goo, y.goo);
    }
}
