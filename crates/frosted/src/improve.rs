//! Neighbourhood search: once a layout is verified, look for a smaller one that
//! keeps most of it.
//!
//! Each try frees the `.` cells inside one window of the grid and fixes every
//! other `.` cell to what the best layout holds there (by assumptions, so the
//! solver keeps everything it learned), with the belt bound one below the best.
//! Such calls are small and quick, where a call over the whole board near the
//! optimum can take minutes: on 09-tropical-rain/11 the calls from 50 belts
//! down took 40–50 s each. Their answers prove nothing: an UNSAT only says "not
//! by changing this window alone". So the loop still ends with the call over
//! the whole board, which is the proof (see [`cegar::solve`](mod@cegar::solve)).

use crate::grid::{CellId, Shape};

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
        if !set.is_empty() && set.len() < free.len() && !out.contains(&set) {
            out.push(set);
        }
    }
    out
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

    #[test]
    fn starts_end_flush() {
        assert_eq!(starts(9, 4, 2), vec![0, 2, 4, 5]);
        assert_eq!(starts(9, 9, 1), vec![0]);
        assert_eq!(starts(3, 5, 2), vec![0]);
        assert_eq!(starts(6, 3, 1), vec![0, 1, 2, 3]);
    }
}
