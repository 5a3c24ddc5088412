//! Steps 5 and 6 of a tick: the moves that go ahead, then the toppers.

use super::simulator::Simulator;
use super::Cross;
use crate::level::Tile;

impl Simulator {
    /// Step 5: empty the cells left, then place the donuts in collection order.
    pub(super) fn apply_moves(&mut self) {
        for mv in self.moves.iter().filter(|m| !m.refused) {
            let st = &mut self.cells[mv.from.index()];
            st.donut = None;
            st.next_right = !st.next_right;
            if self.board.tiles[mv.from.index()] == Tile::Crossover {
                st.cross = match mv.dir {
                    Some(d) if d.is_vertical() => Cross::OpenHorizontal,
                    _ => Cross::OpenVertical,
                };
            }
        }
        for mv in self.moves.iter().filter(|m| !m.refused) {
            let st = &mut self.cells[mv.to.index()];
            st.donut = Some(mv.donut);
            if self.board.tiles[mv.to.index()] == Tile::Crossover {
                if let Some(d) = mv.dir {
                    st.cross = Cross::Occupied(d);
                }
            }
        }
    }

    /// Step 6: toppers, in scan order.
    pub(super) fn apply_toppers(&mut self) {
        for &(t, kind) in &self.board.toppers {
            if let Some(d) = &mut self.cells[t.index()].donut {
                if kind.prev() == Some(d.kind) {
                    d.kind = kind;
                }
            }
        }
    }
}
