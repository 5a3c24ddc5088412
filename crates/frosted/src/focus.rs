//! Corridors for the first searches: the free cells a layout is likely to
//! need, so that the first SAT calls look there before the whole board.
//!
//! The places a layout must link are the free cells next to the level's
//! tiles: where a source or a teleporter out sends its donuts, where a
//! topper or a bumper works, where a target is entered from, and every
//! free cell beside a splitter, a teleporter in or a crossover. The
//! corridor holds them and every free cell on a shortest path (over free
//! cells) from each of them to its two nearest others; the wider corridors
//! add the free cells next to the previous one. A corridor is only a
//! guess: the loop assumes the cells outside it hold no belt, and a model
//! under that is a layout like any other, judged by the simulator; an
//! UNSAT answer under it proves nothing, and the loop widens it
//! (`cegar::Puzzle::focus`; FO in `encodings/README.md`).

use crate::grid::{CellId, Dir, Shape};
use crate::level::{Level, Tile};
use std::collections::VecDeque;

/// How many nearest places each place is linked to.
const NEAREST: usize = 2;

/// How many corridors, from the narrowest: each adds the free cells next
/// to the one before.
const STEPS: usize = 3;

/// The corridors, narrowest first, as "free cell is inside" per cell index;
/// only those that leave some free cell out, each wider than the one
/// before.
pub fn corridors(level: &Level) -> Vec<Vec<bool>> {
    let free: Vec<bool> = level
        .shape
        .cells()
        .map(|c| level.tile(c) == Tile::Empty)
        .collect();
    let places = places(level, &free);
    let mut inside = shortest_links(level.shape, &free, &places);
    let mut out: Vec<Vec<bool>> = Vec::new();
    for _ in 0..STEPS {
        let leaves_some_out = free.iter().zip(&inside).any(|(&f, &i)| f && !i);
        if !leaves_some_out || out.last() == Some(&inside) {
            break;
        }
        out.push(inside.clone());
        inside = widened(level.shape, &free, &inside);
    }
    out
}

/// The free cells a layout must link: in front of sources, teleporter
/// outs, toppers and bumpers, behind targets, and beside splitters,
/// teleporter ins and crossovers.
fn places(level: &Level, free: &[bool]) -> Vec<CellId> {
    let shape = level.shape;
    let mut out: Vec<CellId> = Vec::new();
    let mut add = |c: Option<CellId>| {
        if let Some(c) = c.filter(|c| free[c.index()] && !out.contains(c)) {
            out.push(c);
        }
    };
    for c in shape.cells() {
        match level.tile(c) {
            Tile::Source(d)
            | Tile::AnySource(d)
            | Tile::TeleOut(_, d)
            | Tile::Topper { dir: d, .. }
            | Tile::Bumper { dir: d, .. } => add(shape.step(c, d)),
            Tile::Target { dir, .. } => add(shape.step(c, dir.opposite())),
            Tile::Splitter(_) | Tile::TeleIn(_) | Tile::Crossover => {
                for d in Dir::ALL {
                    add(shape.step(c, d));
                }
            }
            Tile::Empty | Tile::Belt(_) | Tile::Block => {}
        }
    }
    out
}

/// The places, and every free cell on a shortest path from each place to
/// its [`NEAREST`] nearest other places.
fn shortest_links(shape: Shape, free: &[bool], places: &[CellId]) -> Vec<bool> {
    let mut inside = vec![false; shape.len()];
    let dist: Vec<Vec<u32>> = places.iter().map(|&p| distances(shape, free, p)).collect();
    for (i, &p) in places.iter().enumerate() {
        inside[p.index()] = true;
        let mut others: Vec<(u32, usize)> = (0..places.len())
            .filter(|&j| j != i && dist[i][places[j].index()] != u32::MAX)
            .map(|j| (dist[i][places[j].index()], j))
            .collect();
        others.sort_unstable();
        for &(d, j) in others.iter().take(NEAREST) {
            for c in 0..shape.len() {
                let (a, b) = (dist[i][c], dist[j][c]);
                if a != u32::MAX && b != u32::MAX && a + b == d {
                    inside[c] = true;
                }
            }
        }
    }
    inside
}

/// Steps over free cells from `from` to every free cell (`u32::MAX`: none).
fn distances(shape: Shape, free: &[bool], from: CellId) -> Vec<u32> {
    let mut dist = vec![u32::MAX; shape.len()];
    dist[from.index()] = 0;
    let mut queue = VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        for d in Dir::ALL {
            let Some(n) = shape.step(c, d) else { continue };
            if free[n.index()] && dist[n.index()] == u32::MAX {
                dist[n.index()] = dist[c.index()] + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// `inside` and the free cells next to it.
fn widened(shape: Shape, free: &[bool], inside: &[bool]) -> Vec<bool> {
    let mut out = inside.to_vec();
    for c in shape.cells().filter(|c| inside[c.index()]) {
        for n in Dir::ALL.into_iter().filter_map(|d| shape.step(c, d)) {
            if free[n.index()] {
                out[n.index()] = true;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn level(text: &str) -> Level {
        match parse(text) {
            Ok(l) => l,
            Err(e) => panic!("{e:?}"),
        }
    }

    /// The cells of a corridor as a picture: `o` inside, `.` outside, the
    /// level's other tiles as `#`.
    fn picture(level: &Level, inside: &[bool]) -> Vec<String> {
        let w = level.shape.width;
        let cells: Vec<char> = level
            .shape
            .cells()
            .map(|c| match (level.tile(c), inside[c.index()]) {
                (Tile::Empty, true) => 'o',
                (Tile::Empty, false) => '.',
                _ => '#',
            })
            .collect();
        cells.chunks(w).map(|r| r.iter().collect()).collect()
    }

    #[test]
    fn the_narrowest_corridor_is_the_shortest_path_between_source_and_target() {
        let l = level(
            ".  .  .  .  .\n\
             +> .  .  .  -> \n\
             .  .  .  .  .\n",
        );
        let c = corridors(&l);
        assert_eq!(picture(&l, &c[0]), [".....", "#ooo#", "....."]);
        assert_eq!(picture(&l, &c[1]), [".ooo.", "#ooo#", ".ooo."]);
        assert_eq!(c.len(), 2, "the third would hold every free cell");
    }

    #[test]
    fn a_topper_s_cell_is_a_place_to_link() {
        let l = level(
            ".  .  1v .  .\n\
             .  .  .  .  .\n\
             +> .  .  .  .\n\
             .  .  .  .  ->1\n",
        );
        let c = corridors(&l);
        let p = picture(&l, &c[0]);
        assert_eq!(&p[1][2..3], "o", "the cell the topper works on: {p:?}");
        assert_eq!(&p[2][1..2], "o", "the cell the source sends to: {p:?}");
        assert_eq!(
            &p[3][3..4],
            "o",
            "the cell the target is entered from: {p:?}"
        );
    }
}
