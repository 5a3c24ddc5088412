//! The exact run of rules §3 and §4: the track checks T1–T6 and the train's
//! moments. This is the trusted reference: simple, exact, and cheap enough to
//! replay thousands of tracks (one allocation per run for the cars and lists).

use crate::grid::{Color, Entity, Point};
use crate::level::Level;
use crate::track::Track;

/// The first rule of §3 a track breaks, in the order of §7.3. `at` is the index of
/// the cell where the check fails (for T3, the second of the two cells).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Broken {
    /// `path[0]` is not the entrance (or the path is empty).
    T1,
    /// The last cell is not the exit (or the path has one cell).
    T2,
    /// `path[at-1]` and `path[at]` are not adjacent.
    T3 { at: usize },
    /// `path[at]` is neither a grid cell nor the entrance nor the exit.
    T4 { at: usize },
    /// `path[at]` is blocked by an entity.
    T5 { at: usize },
    /// `path[at]` repeats `path[first]`.
    T6 { at: usize, first: usize },
}

impl Broken {
    /// The rule's number: 1 for T1, ..., 6 for T6.
    pub fn rule(&self) -> u8 {
        match self {
            Broken::T1 => 1,
            Broken::T2 => 2,
            Broken::T3 { .. } => 3,
            Broken::T4 { .. } => 4,
            Broken::T5 { .. } => 5,
            Broken::T6 { .. } => 6,
        }
    }
}

/// Checks T1, T2, then T3 to T6 cell by cell from the start (rules §7.3).
pub fn check_track(level: &Level, track: &Track) -> Result<(), Broken> {
    let path = &track.0;
    if path.first() != Some(&level.entrance) {
        return Err(Broken::T1);
    }
    if path.len() < 2 || path.last() != Some(&level.exit) {
        return Err(Broken::T2);
    }
    let cells = (level.width as usize) * (level.height as usize);
    // Grid cells, then the entrance and the exit; u32::MAX = not seen yet.
    let mut seen = vec![u32::MAX; cells + 2];
    let slot = |p: Point| {
        if p == level.entrance {
            Some(cells)
        } else if p == level.exit {
            Some(cells + 1)
        } else if level.in_grid(p) {
            Some((p.y as usize - 1) * level.width as usize + (p.x as usize - 1))
        } else {
            None
        }
    };
    for (k, &p) in path.iter().enumerate() {
        if k > 0 && !path[k - 1].adjacent(p) {
            return Err(Broken::T3 { at: k });
        }
        let Some(s) = slot(p) else {
            return Err(Broken::T4 { at: k });
        };
        if level.blocked(p) {
            return Err(Broken::T5 { at: k });
        }
        if seen[s] != u32::MAX {
            let first = seen[s] as usize;
            return Err(Broken::T6 { at: k, first });
        }
        seen[s] = k as u32;
    }
    Ok(())
}

/// One car: what it holds (alien entity index and colour) and its goop flag.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Car {
    pub holds: Option<(usize, Color)>,
    pub gooped: bool,
}

/// What happens during a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Alien `alien` (entity index) boarded car `car` standing on `cell`.
    Boarded {
        moment: usize,
        car: usize,
        cell: Point,
        alien: usize,
    },
    /// Car `car` on `cell` delivered its alien to house `house` (entity index).
    Delivered {
        moment: usize,
        car: usize,
        cell: Point,
        house: usize,
    },
    /// Two or more willing aliens next to an empty car: nobody boards.
    Tie {
        moment: usize,
        car: usize,
        cell: Point,
        aliens: Vec<usize>,
    },
}

/// The state of the run (rules §4.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Train {
    aliens: Vec<usize>,
    houses: Vec<usize>,
    cars: Vec<Car>,
}

impl Train {
    /// Every car empty and clean; every alien and house remaining, in file order.
    pub fn new(level: &Level) -> Train {
        Train {
            aliens: level.aliens().into_iter().map(|a| a.0).collect(),
            houses: level.houses().into_iter().map(|h| h.0).collect(),
            cars: vec![Car::default(); level.length],
        }
    }

    /// Back to the start of a run, keeping the allocations (for replaying many
    /// tracks of one level).
    pub fn reset(&mut self, level: &Level) {
        self.aliens.clear();
        self.houses.clear();
        for (i, (_, e)) in level.entities.iter().enumerate() {
            match e {
                Entity::Alien(_) => self.aliens.push(i),
                Entity::House(_) => self.houses.push(i),
                Entity::Wall => {}
            }
        }
        self.cars.clear();
        self.cars.resize(level.length, Car::default());
    }

    /// Handles moment `t` (rules §4.2) with the engine on path[t]: each car i with t-1-i >= 0 on path[t-1-i], in order 0..length, drop-off then pick-up; pushes what happens.
    pub fn moment(&mut self, level: &Level, path: &[Point], t: usize, events: &mut Vec<Event>) {
        for car in 0..self.cars.len() {
            let Some(k) = t.checked_sub(1 + car) else {
                break;
            };
            let Some(&cell) = path.get(k) else {
                continue;
            };
            self.drop_off(level, t, car, cell, events);
            self.pick_up(level, t, car, cell, events);
        }
    }

    /// §4.3: a full car next to a remaining house of its colour serves the first one.
    fn drop_off(&mut self, level: &Level, t: usize, car: usize, cell: Point, ev: &mut Vec<Event>) {
        let Some((_, color)) = self.cars[car].holds else {
            return;
        };
        let found = self.houses.iter().position(|&h| {
            let (p, _) = level.entities[h];
            level.color_of(h) == Some(color) && p.adjacent(cell)
        });
        if let Some(i) = found {
            let house = self.houses.remove(i);
            self.cars[car].holds = None;
            ev.push(Event::Delivered {
                moment: t,
                car,
                cell,
                house,
            });
        }
    }

    /// §4.4: an empty car next to exactly one willing alien takes it.
    fn pick_up(&mut self, level: &Level, t: usize, car: usize, cell: Point, ev: &mut Vec<Event>) {
        let Car { holds, gooped } = self.cars[car];
        if holds.is_some() {
            return;
        }
        let willing = |a: &usize| {
            let color = level.color_of(*a);
            level.entities[*a].0.adjacent(cell) && (color == Some(Color::Green) || !gooped)
        };
        let mut first = None;
        let mut count = 0;
        for (i, a) in self.aliens.iter().enumerate() {
            if willing(a) {
                count += 1;
                first = first.or(Some(i));
            }
        }
        match (count, first) {
            (1, Some(i)) => {
                let alien = self.aliens.remove(i);
                let color = level.color_of(alien).unwrap_or(Color::Purple);
                self.cars[car].holds = Some((alien, color));
                self.cars[car].gooped |= color == Color::Green;
                ev.push(Event::Boarded {
                    moment: t,
                    car,
                    cell,
                    alien,
                });
            }
            (0 | 1, _) => {}
            _ => {
                let aliens = self.aliens.iter().copied().filter(willing).collect();
                ev.push(Event::Tie {
                    moment: t,
                    car,
                    cell,
                    aliens,
                });
            }
        }
    }

    /// Aliens still waiting (entity indices, file order).
    pub fn remaining_aliens(&self) -> &[usize] {
        &self.aliens
    }

    /// Houses not served yet (entity indices, file order).
    pub fn remaining_houses(&self) -> &[usize] {
        &self.houses
    }

    pub fn cars(&self) -> &[Car] {
        &self.cars
    }

    /// Solved (rules §5): nothing remains.
    pub fn done(&self) -> bool {
        self.aliens.is_empty() && self.houses.is_empty()
    }
}

/// The result of [`simulate`].
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The first rule of §3 broken; then no moment was run.
    pub broken: Option<Broken>,
    pub events: Vec<Event>,
    /// After the last moment N-2.
    pub train: Train,
}

impl Outcome {
    /// Valid and nothing remains (rules §5).
    pub fn solved(&self) -> bool {
        self.broken.is_none() && self.train.done()
    }
}

/// check_track, then moments 1..=N-2.
pub fn simulate(level: &Level, track: &Track) -> Outcome {
    let mut train = Train::new(level);
    let mut events = Vec::new();
    if let Err(b) = check_track(level, track) {
        return Outcome {
            broken: Some(b),
            events,
            train,
        };
    }
    let path = &track.0;
    for t in 1..path.len().saturating_sub(1) {
        train.moment(level, path, t, &mut events);
    }
    Outcome {
        broken: None,
        events,
        train,
    }
}

/// Whether `track` solves `level` (rules §5), without recording events; `train`
/// and `events` are scratch space reused between calls.
pub fn solves_with(
    level: &Level,
    track: &Track,
    train: &mut Train,
    events: &mut Vec<Event>,
) -> bool {
    if check_track(level, track).is_err() {
        return false;
    }
    train.reset(level);
    for t in 1..track.0.len().saturating_sub(1) {
        train.moment(level, &track.0, t, events);
        events.clear();
    }
    train.done()
}

/// Whether `track` solves `level` (rules §5).
pub fn solves(level: &Level, track: &Track) -> bool {
    solves_with(level, track, &mut Train::new(level), &mut Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_gives_a_new_train_and_odd_moments_do_nothing() {
        let level = Level {
            width: 3,
            height: 3,
            length: 2,
            entrance: Point::new(0, 2),
            exit: Point::new(4, 2),
            entities: vec![
                (Point::new(1, 1), Entity::Alien(Color::Green)),
                (Point::new(2, 1), Entity::Wall),
                (Point::new(3, 1), Entity::House(Color::Green)),
            ],
        };
        let path: Vec<Point> = (0..=4).map(|x| Point::new(x, 2)).collect();
        let mut train = Train::new(&level);
        let mut events = Vec::new();
        for t in 0..10 {
            train.moment(&level, &path, t, &mut events);
        }
        assert!(train.done() && train.cars()[0].gooped);
        assert_eq!(events.len(), 2);
        train.reset(&level);
        assert_eq!(train, Train::new(&level));
        // The run itself stops at moment N-2 = 3: car 0 delivers on (3,2) at moment 4 only.
        let out = simulate(&level, &Track(path.clone()));
        assert_eq!(out.train.remaining_houses(), [2]);
        assert!(!solves(&level, &Track(path)));
    }
}
