//! The static facts about a level that every tick needs: scan order, bumper
//! pushes, toppers, teleporter outs and the indices of targets and sources.

use crate::grid::{CellId, Dir, Kind, Shape};
use crate::level::{Level, Tile};

/// Static facts about a level that every tick needs.
#[derive(Clone)]
pub(super) struct Board {
    pub(super) shape: Shape,
    pub(super) tiles: Vec<Tile>,
    pub(super) scan: Vec<CellId>,
    /// Position of each cell in scan order.
    pub(super) scan_pos: Vec<u32>,
    /// For each cell and direction (in `Dir::index` order), the neighbour
    /// that way (`None` off the grid): `Shape::step`, looked up.
    pub(super) neighbours: Vec<[Option<CellId>; 4]>,
    /// For each cell and direction `d` (Up, Down, Left, Right), the kind pushed by a
    /// bumper at `p - d` facing `d`.
    pub(super) bumpers: Vec<[Option<Kind>; 4]>,
    /// Toppers in scan order: (cell topped, kind given).
    pub(super) toppers: Vec<(CellId, Kind)>,
    /// Teleporter outs of each channel, in row-major order.
    pub(super) outs: [Vec<CellId>; 2],
    /// Index of each target and source cell among targets / sources.
    pub(super) target_ix: Vec<u32>,
    pub(super) source_ix: Vec<u32>,
    pub(super) n_targets: usize,
    pub(super) n_sources: usize,
}

impl Board {
    pub(super) fn new(level: &Level) -> Board {
        let shape = level.shape;
        let scan: Vec<CellId> = shape.scan_order().collect();
        let mut scan_pos = vec![0; shape.len()];
        for (i, c) in scan.iter().enumerate() {
            scan_pos[c.index()] = i as u32;
        }
        let neighbours = shape
            .cells()
            .map(|c| Dir::ALL.map(|d| shape.step(c, d)))
            .collect();
        let bumpers = level.bumper_pushes();
        let mut toppers = Vec::new();
        for &c in &scan {
            if let Tile::Topper { kind, dir } = level.tile(c) {
                if let Some(t) = shape.step(c, dir) {
                    toppers.push((t, kind));
                }
            }
        }
        let mut outs = [Vec::new(), Vec::new()];
        let mut target_ix = vec![u32::MAX; shape.len()];
        let mut source_ix = vec![u32::MAX; shape.len()];
        let (mut nt, mut ns) = (0, 0);
        for c in shape.cells() {
            match level.tile(c) {
                Tile::TeleOut(ch, _) => outs[ch as usize].push(c),
                Tile::Target { .. } => {
                    target_ix[c.index()] = nt;
                    nt += 1;
                }
                Tile::Source(_) | Tile::AnySource(_) => {
                    source_ix[c.index()] = ns;
                    ns += 1;
                }
                _ => {}
            }
        }
        Board {
            shape,
            tiles: level.tiles.clone(),
            scan,
            scan_pos,
            neighbours,
            bumpers,
            toppers,
            outs,
            target_ix,
            source_ix,
            n_targets: nt as usize,
            n_sources: ns as usize,
        }
    }

    pub(super) fn tile(&self, c: CellId) -> Tile {
        self.tiles[c.index()]
    }

    /// The cell next to `c` towards `d`, if it is on the grid.
    #[inline]
    pub(super) fn step(&self, c: CellId, d: Dir) -> Option<CellId> {
        self.neighbours[c.index()][d.index()]
    }
}
