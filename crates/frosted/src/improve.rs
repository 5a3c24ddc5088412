//! Neighbourhood search: once a layout is verified, look for a smaller one that
//! keeps most of it.
//!
//! Each try frees the `.` cells inside one window and fixes every
//! other `.` cell to what the best layout holds there (by assumptions, so the
//! solver keeps everything it learned), with the belt bound one below the best.
//! Such calls are small and quick, where a call over the whole board near the
//! optimum can take minutes: on 09-tropical-rain/11 the calls from 50 belts
//! down took 40–50 s each. Their answers prove nothing: an UNSAT only says "not
//! by changing this window alone". So the loop still ends with the call over
//! the whole board, which is the proof (see [`cegar::solve`](mod@cegar::solve)).
//!
//! The windows are squares and bands of the grid ([`windows`]), then, for the
//! layout searched around, one source's route and the cells beside it
//! ([`streams`]).

use crate::grid::{CellId, Pos, Shape};
use crate::level::Level;
use crate::sim::Simulator;
use std::collections::BTreeMap;

/// The windows tried, as sets of indices into the list of `.` cells: squares
/// of growing sides sliding over the grid (half a side at a time), then
/// bands of full rows and of full columns. Windows that hold no `.` cell, or
/// the same cells as an earlier one, are left out.
pub fn windows(shape: Shape, free: &[CellId]) -> Vec<Vec<usize>> {
    let (w, h) = (shape.width, shape.height);
    let mut rects: Vec<(usize, usize, usize, usize)> = Vec::new();
    for side in [3, 4, 5, 6] {
        let (sw, sh) = (side.min(w), side.min(h));
        let stride = (side / 2).max(1);
        for y in starts(h, sh, stride) {
            for x in starts(w, sw, stride) {
                rects.push((x, y, sw, sh));
            }
        }
    }
    for band in [2, 3] {
        for y in starts(h, band.min(h), 1) {
            rects.push((0, y, w, band.min(h)));
        }
        for x in starts(w, band.min(w), 1) {
            rects.push((x, 0, band.min(w), h));
        }
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (x0, y0, rw, rh) in rects {
        let set: Vec<usize> = free
            .iter()
            .enumerate()
            .filter(|(_, &c)| {
                let p = shape.pos(c);
                (x0..x0 + rw).contains(&p.x) && (y0..y0 + rh).contains(&p.y)
            })
            .map(|(i, _)| i)
            .collect();
        keep_window(&mut out, set, free.len());
    }
    out
}

/// Adds `set` to the windows `out` unless it is empty, holds all `n_free`
/// `.` cells (that is the call over the whole board) or is there already.
fn keep_window(out: &mut Vec<Vec<usize>>, set: Vec<usize>, n_free: usize) {
    if !set.is_empty() && set.len() < n_free && !out.contains(&set) {
        out.push(set);
    }
}

/// Windows that follow `layout`: per source, the `.` cells its donuts visit
/// in the layout's run and those within `reach` steps of them (diagonals
/// count as one step), for each `reach` in [`STREAM_REACHES`], so one
/// source's route can move as a whole while the others keep theirs. Windows
/// that hold every `.` cell are left out (that is the call over the whole
/// board).
pub fn streams(layout: &Level, free: &[CellId]) -> Vec<Vec<usize>> {
    let shape = layout.shape;
    let outcome = Simulator::recording(layout).run();
    let mut by_origin: BTreeMap<CellId, Vec<bool>> = BTreeMap::new();
    for &(cell, _, origin, _) in &outcome.occupancy {
        by_origin
            .entry(origin)
            .or_insert_with(|| vec![false; shape.len()])[cell.index()] = true;
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    for reach in STREAM_REACHES {
        for visited in by_origin.values() {
            let near = within(shape, visited, reach);
            let set: Vec<usize> = (0..free.len()).filter(|&i| near[free[i].index()]).collect();
            keep_window(&mut out, set, free.len());
        }
    }
    out
}

/// How far around a source's cells its windows reach.
const STREAM_REACHES: [usize; 2] = [1, 2];

/// The cells within `reach` steps (diagonals count as one) of a marked one.
fn within(shape: Shape, marked: &[bool], reach: usize) -> Vec<bool> {
    let mut near = vec![false; shape.len()];
    for c in shape.cells().filter(|c| marked[c.index()]) {
        let p = shape.pos(c);
        for y in p.y.saturating_sub(reach)..=(p.y + reach).min(shape.height - 1) {
            for x in p.x.saturating_sub(reach)..=(p.x + reach).min(shape.width - 1) {
                near[shape.cell(Pos { x, y }).index()] = true;
            }
        }
    }
    near
}

/// Where a window of `len` cells may start on an axis of `size` cells, every
/// `stride` cells, the last one flush with the end.
fn starts(size: usize, len: usize, stride: usize) -> Vec<usize> {
    if len >= size {
        return vec![0];
    }
    let mut v: Vec<usize> = (0..=size - len).step_by(stride).collect();
    if v.last() != Some(&(size - len)) {
        v.push(size - len);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_cover_every_free_cell_and_never_all_of_them() {
        let shape = Shape {
            width: 7,
            height: 5,
        };
        let free: Vec<CellId> = shape.cells().filter(|c| c.index() % 3 != 0).collect();
        let ws = windows(shape, &free);
        assert!(!ws.is_empty());
        for i in 0..free.len() {
            assert!(ws.iter().any(|w| w.contains(&i)), "cell {i} never freed");
        }
        for w in &ws {
            assert!(!w.is_empty() && w.len() < free.len());
            assert!(w.windows(2).all(|p| p[0] < p[1]));
        }
        // No window twice.
        for (i, a) in ws.iter().enumerate() {
            assert!(!ws[..i].contains(a));
        }
    }

    /// Two lanes, one per source: each source's window is its row and the
    /// middle one; with a reach of 2 a window would hold every `.` cell,
    /// so there is none.
    #[test]
    fn streams_free_one_sources_route_and_the_cells_beside_it() {
        let read = |text: &str| match crate::parse::parse(text) {
            Ok(l) => l,
            Err(e) => panic!("{e:?}"),
        };
        let level = read(include_str!("../../../levels/02-several/two-lanes.txt"));
        let layout = read(include_str!(
            "../../../levels/02-several/two-lanes.solution.txt"
        ));
        let free: Vec<CellId> = level
            .shape
            .cells()
            .filter(|&c| matches!(level.tile(c), crate::level::Tile::Empty))
            .collect();
        assert_eq!(free.len(), 10);
        let top: Vec<usize> = (0..7).collect();
        let bottom: Vec<usize> = (3..10).collect();
        assert_eq!(streams(&layout, &free), vec![top, bottom]);
    }

    #[test]
    fn starts_end_flush() {
        assert_eq!(starts(9, 4, 2), vec![0, 2, 4, 5]);
        assert_eq!(starts(9, 9, 1), vec![0]);
        assert_eq!(starts(3, 5, 2), vec![0]);
        assert_eq!(starts(6, 3, 1), vec![0, 1, 2, 3]);
    }
}
