//! Random tracks on the real levels: the simulator agrees with a second, naive
//! reading of rules §4 written here, `judge` and `solves` agree with it, and the
//! picture and JSON forms read back to the same track.

mod common;

use common::{ce_levels, load, real_levels};
use cosmic_express::sim::solves;
use cosmic_express::{
    judge, parse_track, show_track, simulate, Color, Entity, Level, Point, Track,
};

/// A small deterministic generator (64-bit LCG, high bits).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// A random self-avoiding walk from the entrance that prefers to keep going;
/// it may end anywhere (then it is not a valid track, T2).
fn random_walk(level: &Level, rng: &mut Rng) -> Track {
    let mut path = vec![level.entrance];
    loop {
        let here = path[path.len() - 1];
        if here == level.exit {
            break;
        }
        let next: Vec<Point> = here
            .neighbours()
            .into_iter()
            .filter(|&q| {
                (level.in_grid(q) || q == level.exit) && !level.blocked(q) && !path.contains(&q)
            })
            .collect();
        if next.is_empty() {
            break;
        }
        path.push(next[rng.below(next.len())]);
    }
    Track(path)
}

/// Rules §4 read again, as plainly as possible: remaining aliens and houses as
/// (point, colour) lists, cars as (colour held, goop).
fn naive_leftovers(level: &Level, path: &[Point]) -> (Vec<Point>, Vec<Point>) {
    let mut aliens: Vec<(Point, Color)> = Vec::new();
    let mut houses: Vec<(Point, Color)> = Vec::new();
    for &(p, e) in &level.entities {
        match e {
            Entity::Alien(c) => aliens.push((p, c)),
            Entity::House(c) => houses.push((p, c)),
            Entity::Wall => {}
        }
    }
    let mut cars: Vec<(Option<Color>, bool)> = vec![(None, false); level.length];
    let n = path.len();
    for t in 1..=n.saturating_sub(2) {
        for (i, car) in cars.iter_mut().enumerate() {
            if t < 1 + i {
                continue;
            }
            let cell = path[t - 1 - i];
            if let Some(c) = car.0 {
                if let Some(h) = houses
                    .iter()
                    .position(|&(hp, hc)| hc == c && hp.adjacent(cell))
                {
                    houses.remove(h);
                    car.0 = None;
                }
            }
            if car.0.is_none() {
                let willing: Vec<usize> = (0..aliens.len())
                    .filter(|&a| aliens[a].0.adjacent(cell))
                    .filter(|&a| aliens[a].1 == Color::Green || !car.1)
                    .collect();
                if let [a] = willing[..] {
                    let (_, c) = aliens.remove(a);
                    car.0 = Some(c);
                    car.1 |= c == Color::Green;
                }
            }
        }
    }
    let points = |v: Vec<(Point, Color)>| v.into_iter().map(|(p, _)| p).collect();
    (points(aliens), points(houses))
}

#[test]
fn random_tracks_agree_with_a_naive_reading_of_the_rules() {
    let Some(root) = ce_levels() else { return };
    let mut rng = Rng(7);
    let (mut valid, mut solved) = (0, 0);
    for path in real_levels(&root) {
        let level = load(&path);
        for _ in 0..300 {
            let track = random_walk(&level, &mut rng);
            let out = simulate(&level, &track);
            let v = judge(&level, &track);
            assert_eq!(v.solved, out.solved(), "{}", v.reason);
            assert_eq!(solves(&level, &track), out.solved());
            if out.broken.is_some() {
                assert!(v.reason.starts_with("T2:"), "{}", v.reason);
                continue;
            }
            valid += 1;
            solved += usize::from(out.solved());
            let points = |v: &[usize]| v.iter().map(|&i| level.point_of(i)).collect::<Vec<_>>();
            let got = (
                points(out.train.remaining_aliens()),
                points(out.train.remaining_houses()),
            );
            assert_eq!(got, naive_leftovers(&level, &track.0), "{}", path.display());
            let picture = show_track(&level, &track);
            assert_eq!(parse_track(&level, &picture).as_ref(), Ok(&track));
            assert_eq!(parse_track(&level, &track.to_json(None)), Ok(track));
        }
    }
    eprintln!("{valid} valid random tracks, {solved} solved");
    assert!(valid > 100);
}
