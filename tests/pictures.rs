//! The SVG pictures of every level in `levels/`, drawn to pixels by a real
//! SVG renderer (resvg): each must parse, and the cells where entities stand
//! must be drawn (many pixels unlike the cell's floor), while empty floor
//! stays plain. Both puzzles: the Freshly Frosted levels (alone and with
//! their solution and wrong layouts) and the Cosmic Express ones (alone and
//! with their tracks). The renders are kept as PNG files under
//! `target/test-artifacts/pictures/` to look at.

use freshly_frosted::level::{Level, Tile};
use picture::Sheet;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn artifacts() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp.parent().unwrap_or(tmp).join("test-artifacts/pictures");
    std::fs::create_dir_all(&dir).expect("create target/test-artifacts/pictures");
    dir
}

/// The renderer's options, with the system's fonts loaded once.
fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut o = usvg::Options::default();
        o.fontdb_mut().load_system_fonts();
        o
    })
}

/// The sheet's SVG drawn to pixels (and saved as `name.png`).
fn render(sheet: &Sheet, name: &str) -> Pixmap {
    let text = sheet.svg();
    let tree = usvg::Tree::from_str(&text, options())
        .unwrap_or_else(|e| panic!("{name}: the SVG does not parse: {e}"));
    let size = tree.size().to_int_size();
    let g = sheet.geometry();
    assert_eq!(
        (size.width(), size.height()),
        (g.width as u32, g.height as u32),
        "{name}"
    );
    let mut pixmap = Pixmap::new(size.width(), size.height()).expect("pixmap");
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    pixmap
        .save_png(artifacts().join(format!("{name}.png")))
        .expect("save the render");
    pixmap
}

/// `#RRGGBB` as bytes.
fn rgb(hex: &str) -> [u8; 3] {
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).expect("a #RRGGBB colour");
    [byte(1), byte(3), byte(5)]
}

/// The share of the pixels inside cell `(col, row)` (6 pixels in from its
/// edges, clear of grid lines and frames) that are unlike the cell's floor.
fn drawn_share(sheet: &Sheet, pixmap: &Pixmap, col: usize, row: usize) -> f64 {
    let floor = rgb(&sheet.cells[row * sheet.cols + col].floor);
    let (x, y, w, h) = sheet.geometry().cell_box(col, row);
    let (mut drawn, mut all) = (0, 0);
    for py in (y as u32 + 6)..((y + h) as u32 - 6) {
        for px in (x as u32 + 6)..((x + w) as u32 - 6) {
            let p = pixmap.pixel(px, py).expect("inside the picture");
            let far = [p.red(), p.green(), p.blue()]
                .iter()
                .zip(floor)
                .any(|(a, b)| a.abs_diff(b) > 24);
            drawn += usize::from(far);
            all += 1;
        }
    }
    drawn as f64 / all as f64
}

/// Checks the drawn cells: `full` ones must be drawn on, `empty` ones (when
/// nothing crosses them) must be plain floor.
fn check(sheet: &Sheet, name: &str, full: &[(usize, usize)], empty: &[(usize, usize)]) {
    let pixmap = render(sheet, name);
    for &(c, r) in full {
        let share = drawn_share(sheet, &pixmap, c, r);
        assert!(
            share > 0.05,
            "{name}: cell ({c}, {r}) is blank ({share:.3} drawn)"
        );
    }
    for &(c, r) in empty {
        let share = drawn_share(sheet, &pixmap, c, r);
        assert!(
            share < 0.02,
            "{name}: empty cell ({c}, {r}) is drawn on ({share:.3})"
        );
    }
}

/// Every file under `levels/` (sorted) whose name ends with `suffix`.
fn files(dir: &Path, suffix: &str, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("levels/")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, suffix, out);
        } else if p.to_string_lossy().ends_with(suffix) {
            out.push(p);
        }
    }
}

fn load_frosted(path: &Path) -> Level {
    let bytes = std::fs::read(path).expect("read");
    freshly_frosted::parse::parse_bytes(&bytes).expect("parse")
}

/// Cells as (column, row).
type Cells = Vec<(usize, usize)>;

/// The cells of a Freshly Frosted layout with something on them, and the
/// empty ones (unless a teleporter's pairing line may cross them).
fn frosted_cells(layout: &Level) -> (Cells, Cells) {
    let crossed = layout.tiles.iter().any(|t| matches!(t, Tile::TeleIn(_)));
    let (mut full, mut empty) = (Vec::new(), Vec::new());
    for c in layout.shape.cells() {
        let p = layout.pos(c);
        match layout.tile(c) {
            Tile::Empty if !crossed => empty.push((p.x, p.y)),
            Tile::Empty => {}
            _ => full.push((p.x, p.y)),
        }
    }
    (full, empty)
}

#[test]
fn every_frosted_level_and_layout_is_drawn() {
    let mut levels = Vec::new();
    files(&root().join("levels"), ".txt", &mut levels);
    let levels: Vec<PathBuf> = levels
        .into_iter()
        .filter(|p| !p.to_string_lossy().ends_with(".solution.txt"))
        .filter(|p| !p.to_string_lossy().ends_with(".wrong.txt"))
        .collect();
    assert!(levels.len() >= 30, "{} levels", levels.len());
    for path in &levels {
        let level = load_frosted(path);
        let stem = path
            .file_stem()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let (full, empty) = frosted_cells(&level);
        let sheet = freshly_frosted::picture::sheet(&level, &level, &stem);
        check(&sheet, &stem, &full, &empty);
        for kind in ["solution", "wrong"] {
            let file = path.with_extension(format!("{kind}.txt"));
            if !file.is_file() {
                continue;
            }
            let layout = load_frosted(&file);
            let (full, empty) = frosted_cells(&layout);
            let sheet = freshly_frosted::picture::sheet(&level, &layout, &stem);
            check(&sheet, &format!("{stem}.{kind}"), &full, &empty);
        }
    }
}

#[test]
fn every_cosmic_level_and_track_is_drawn() {
    let mut levels = Vec::new();
    files(&root().join("levels/cosmic-express"), ".json", &mut levels);
    levels.retain(|p| !p.to_string_lossy().ends_with(".path.json"));
    assert!(levels.len() >= 9, "{} levels", levels.len());
    for path in &levels {
        let text = std::fs::read_to_string(path).expect("read");
        let level = cosmic_express::parse_level(&text).expect("level");
        let stem = path
            .file_stem()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let at = |p: cosmic_express::Point| (p.x as usize, p.y as usize);
        let mut full: Vec<(usize, usize)> = level.entities.iter().map(|(p, _)| at(*p)).collect();
        full.extend([at(level.entrance), at(level.exit)]);
        let empty: Vec<(usize, usize)> = (0..=level.height + 1)
            .flat_map(|y| (0..=level.width + 1).map(move |x| cosmic_express::Point::new(x, y)))
            .filter(|&p| !level.blocked(p) && p != level.entrance && p != level.exit)
            .map(at)
            .collect();
        let sheet = cosmic_express::picture::sheet(&level, None, &stem);
        check(&sheet, &stem, &full, &empty);
        for kind in ["path", "wrong.path"] {
            let file = path.with_extension(format!("{kind}.json"));
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            let track = cosmic_express::parse_track(&level, &text).expect("track");
            let sheet = cosmic_express::picture::sheet(&level, Some(&track), &stem);
            // The track crosses the empty cells: only the full ones are checked.
            check(&sheet, &format!("{stem}.{kind}"), &full, &[]);
        }
    }
}
