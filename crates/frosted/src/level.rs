//! The level model: what stands on each cell, the `:` flags, and printing a level
//! back in the level format with aligned columns.
//!
//! A layout (a candidate solution) is a `Level` too: the same board with belts on
//! some of the `.` cells.

use crate::grid::{CellId, Dir, Kind, Pos, Shape};
use std::fmt;

/// Which donuts a target accepts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Accepts {
    Any,
    Only(Kind),
}

impl Accepts {
    pub fn accepts(self, k: Kind) -> bool {
        match self {
            Accepts::Any => true,
            Accepts::Only(j) => j == k,
        }
    }
}

/// A teleporter channel: `T` or `U`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Channel {
    T,
    U,
}

impl Channel {
    pub fn letter(self) -> char {
        match self {
            Channel::T => 'T',
            Channel::U => 'U',
        }
    }
}

/// What stands on one cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    /// `.`: empty floor, where the player may place a belt.
    Empty,
    /// A belt: preset in a level, or placed by the player in a layout.
    Belt(Dir),
    Block,
    Source(Dir),
    AnySource(Dir),
    Target {
        dir: Dir,
        accepts: Accepts,
    },
    Topper {
        kind: Kind,
        dir: Dir,
    },
    Splitter(Dir),
    Bumper {
        dir: Dir,
        kind: Kind,
    },
    TeleIn(Channel),
    TeleOut(Channel, Dir),
    Crossover,
}

impl Tile {
    /// The belt's direction, if this is a belt (on a free cell of a layout:
    /// the player's choice there, `None` for none).
    pub fn belt(self) -> Option<Dir> {
        match self {
            Tile::Belt(d) => Some(d),
            _ => None,
        }
    }

    /// `can_enter(e, d)` of the rules (section 3); belts and empty cells can always
    /// be entered.
    pub fn can_enter(self, d: Dir) -> bool {
        match self {
            Tile::Empty | Tile::Belt(_) | Tile::TeleIn(_) | Tile::Crossover => true,
            Tile::Target { dir, .. } | Tile::Splitter(dir) => dir == d,
            Tile::Block
            | Tile::Source(_)
            | Tile::AnySource(_)
            | Tile::Topper { .. }
            | Tile::Bumper { .. }
            | Tile::TeleOut(..) => false,
        }
    }

    pub fn is_source(self) -> bool {
        matches!(self, Tile::Source(_) | Tile::AnySource(_))
    }

    pub fn is_target(self) -> bool {
        matches!(self, Tile::Target { .. })
    }

    /// The level-format token of this tile, in canonical spelling.
    pub fn token(self) -> String {
        match self {
            Tile::Empty => ".".into(),
            Tile::Belt(d) => d.arrow().to_string(),
            Tile::Block => "#".into(),
            Tile::Source(d) => format!("+{}", d.arrow()),
            Tile::AnySource(d) => format!("+{}?", d.arrow()),
            Tile::Target { dir, accepts } => match accepts {
                Accepts::Any => format!("-{}?", dir.arrow()),
                Accepts::Only(k) if k == Kind::PLAIN => format!("-{}", dir.arrow()),
                Accepts::Only(k) => format!("-{}{}", dir.arrow(), k.target_char()),
            },
            Tile::Topper { kind, dir } => format!("{}{}", kind.topper_char(), dir.arrow()),
            Tile::Splitter(d) => format!("x{}", d.arrow()),
            Tile::Bumper { dir, kind } => format!("b{}{}", dir.arrow(), kind.target_char()),
            Tile::TeleIn(c) => format!("{}-", c.letter()),
            Tile::TeleOut(c, d) => format!("{}+{}", c.letter(), d.arrow()),
            Tile::Crossover => "*".into(),
        }
    }

    /// A human name for messages.
    pub fn describe(self) -> String {
        match self {
            Tile::Empty => "empty floor".into(),
            Tile::Belt(d) => format!("a belt pointing {d}"),
            Tile::Block => "a block".into(),
            Tile::Source(d) => format!("a source facing {d}"),
            Tile::AnySource(d) => format!("an any-source facing {d}"),
            Tile::Target { dir, accepts } => match accepts {
                Accepts::Any => format!("a target for any donut, entered moving {dir}"),
                Accepts::Only(k) => format!("a target for {k} donuts, entered moving {dir}"),
            },
            Tile::Topper { kind, dir } => format!("a {kind} topper facing {dir}"),
            Tile::Splitter(d) => format!("a splitter entered moving {d}"),
            Tile::Bumper { dir, kind } => format!("a bumper facing {dir} for {kind} donuts"),
            Tile::TeleIn(c) => format!("teleporter in {}", c.letter()),
            Tile::TeleOut(c, d) => format!("teleporter out {} facing {d}", c.letter()),
            Tile::Crossover => "a crossover".into(),
        }
    }
}

/// The `:` flags of a level file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// `:targets`: the exact multiset of delivered kinds, if given.
    pub targets: Option<Vec<Kind>>,
    /// `:comment` lines, kept verbatim (without the flag word) so printing keeps them.
    pub comments: Vec<String>,
    /// Compatibility flags that change nothing about what a solution is.
    pub tickwise: bool,
    pub allow_invalid_deliveries: bool,
    pub loop_threshold: Option<u64>,
}

/// A level, or a layout: a rectangular board of tiles plus flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub shape: Shape,
    /// Row-major tiles, indexed by `CellId`.
    pub tiles: Vec<Tile>,
    pub flags: Flags,
}

impl Level {
    pub fn tile(&self, c: CellId) -> Tile {
        self.tiles[c.index()]
    }

    pub fn at(&self, x: usize, y: usize) -> Tile {
        self.tiles[self.shape.cell(Pos { x, y }).index()]
    }

    pub fn pos(&self, c: CellId) -> Pos {
        self.shape.pos(c)
    }

    /// Cells where the player may place a belt (`.` cells).
    pub fn free_cells(&self) -> impl Iterator<Item = CellId> + '_ {
        self.shape
            .cells()
            .filter(move |c| self.tile(*c) == Tile::Empty)
    }

    pub fn sources(&self) -> impl Iterator<Item = CellId> + '_ {
        self.shape
            .cells()
            .filter(move |c| self.tile(*c).is_source())
    }

    pub fn targets(&self) -> impl Iterator<Item = CellId> + '_ {
        self.shape
            .cells()
            .filter(move |c| self.tile(*c).is_target())
    }

    /// The teleporter outs of channel `ch`, in scan order.
    pub fn tele_outs(&self, ch: Channel) -> impl Iterator<Item = CellId> + '_ {
        self.shape
            .cells()
            .filter(move |&o| matches!(self.tile(o), Tile::TeleOut(c, _) if c == ch))
    }

    /// For each cell `p` and direction `d` (indexed by `Dir::index`), the kind
    /// a bumper at `p - d` facing `d` pushes from `p` (rules §4, "bumper
    /// first").
    pub fn bumper_pushes(&self) -> Vec<[Option<Kind>; 4]> {
        let mut pushes = vec![[None; 4]; self.shape.len()];
        for b in self.shape.cells() {
            if let Tile::Bumper { dir, kind } = self.tile(b) {
                if let Some(p) = self.shape.step(b, dir) {
                    pushes[p.index()][dir.index()] = Some(kind);
                }
            }
        }
        pushes
    }

    /// The number of belts this layout adds on `.` cells of `level`.
    pub fn added_belts(&self, level: &Level) -> usize {
        self.tiles
            .iter()
            .zip(&level.tiles)
            .filter(|(a, b)| **b == Tile::Empty && matches!(a, Tile::Belt(_)))
            .count()
    }

    /// Checks that `self` is a layout of `level`: same size, and differing only by
    /// belts on `.` cells. Flags are not compared.
    pub fn check_layout_of(&self, level: &Level) -> Result<(), LayoutMismatch> {
        if self.shape != level.shape {
            return Err(LayoutMismatch::Size {
                level: level.shape,
                layout: self.shape,
            });
        }
        for c in level.shape.cells() {
            let (want, got) = (level.tile(c), self.tile(c));
            let ok = want == got || (want == Tile::Empty && matches!(got, Tile::Belt(_)));
            if !ok {
                return Err(LayoutMismatch::Cell {
                    pos: level.pos(c),
                    level: want,
                    layout: got,
                });
            }
        }
        Ok(())
    }

    /// This layout with the free cell `c` holding `belt` (none: empty).
    pub fn with_choice(&self, c: CellId, belt: Option<Dir>) -> Level {
        let mut out = self.clone();
        out.tiles[c.index()] = belt.map_or(Tile::Empty, Tile::Belt);
        out
    }

    /// The layout with the level's flags and the given belts placed on free cells.
    pub fn with_belts(&self, belts: impl IntoIterator<Item = (CellId, Dir)>) -> Level {
        let mut out = self.clone();
        for (c, d) in belts {
            debug_assert_eq!(self.tile(c), Tile::Empty);
            out.tiles[c.index()] = Tile::Belt(d);
        }
        out
    }
}

/// Why a layout does not fit its level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutMismatch {
    Size { level: Shape, layout: Shape },
    Cell { pos: Pos, level: Tile, layout: Tile },
}

impl fmt::Display for LayoutMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutMismatch::Size { level, layout } => write!(
                f,
                "the layout is {}x{} but the level is {}x{} (width x height)",
                layout.width, layout.height, level.width, level.height
            ),
            LayoutMismatch::Cell { pos, level, layout } => write!(
                f,
                "the layout changes cell {pos} (row {}, column {}): the level has `{}` ({}), the layout has `{}`; a layout may only put belts on `.` cells",
                pos.y + 1,
                pos.x + 1,
                level.token(),
                level.describe(),
                layout.token()
            ),
        }
    }
}

impl std::error::Error for LayoutMismatch {}

impl fmt::Display for Level {
    /// Prints the level format: flags first, then the grid with every column padded
    /// to one width, so columns line up. Parsing the output gives the same `Level`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.flags.comments {
            if c.is_empty() {
                writeln!(f, ":comment")?;
            } else {
                writeln!(f, ":comment {c}")?;
            }
        }
        if let Some(t) = &self.flags.targets {
            write!(f, ":targets")?;
            for k in t {
                write!(f, " {}", k.target_code())?;
            }
            writeln!(f)?;
        }
        if self.flags.tickwise {
            writeln!(f, ":tickwise")?;
        }
        if self.flags.allow_invalid_deliveries {
            writeln!(f, ":allow-invalid-deliveries")?;
        }
        if let Some(n) = self.flags.loop_threshold {
            writeln!(f, ":loop-threshold {n}")?;
        }
        let tokens: Vec<String> = self.tiles.iter().map(|t| t.token()).collect();
        let width = tokens.iter().map(|t| t.chars().count()).max().unwrap_or(1) + 1;
        let width = width.max(4);
        for row in tokens.chunks(self.shape.width.max(1)) {
            let mut line = String::new();
            for (i, t) in row.iter().enumerate() {
                line.push_str(t);
                if i + 1 < row.len() {
                    for _ in t.chars().count()..width {
                        line.push(' ');
                    }
                }
            }
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}
