//! The HTML replay in a real browser: headless Chromium opens the page that
//! `frosted simulate --html` writes, at the tick of the first delivery
//! (`#tick=N`), and the page's own state (the `#tick` and `#delivered`
//! elements it fills, read back with `--dump-dom`) must show the deliveries
//! `frosted verify --json` counts by then. A screenshot of the page is kept
//! under `target/test-artifacts/`.
//!
//! Without Chromium (Debian's `chromium`) the tests say SKIPPED; in CI (`CI`
//! set) its absence is a failure, so they always run there.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root (the tests run the binary from there).
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `target/test-artifacts`, created.
fn artifacts() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp.parent().unwrap_or(tmp).join("test-artifacts");
    std::fs::create_dir_all(&dir).expect("create target/test-artifacts");
    dir
}

/// Chromium on the PATH, or `None` (SKIPPED) outside CI.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file());
    if found.is_none() {
        if std::env::var_os("CI").is_some() {
            panic!("CI is set but chromium is not installed (.ci/run installs it)");
        }
        eprintln!("SKIPPED: chromium is not installed (apt-get install chromium); the replay is not checked in a browser");
    }
    found
}

/// Runs `frosted args...` from the repository's root; its stdout.
fn frosted(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_frosted"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("run frosted");
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "frosted {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Headless Chromium with a fresh profile, run on `url` with `extra` flags.
fn browse(chrome: &Path, url: &str, extra: &[&str]) -> String {
    let profile = tempdir("chromium-profile");
    let out = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("run chromium");
    let _ = std::fs::remove_dir_all(&profile);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh folder under the test's temporary folder (one per call: the
/// tests run side by side, and two browsers cannot share a profile).
fn tempdir(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The number in the page's element `id`, as the player wrote it.
fn number_in(dom: &str, id: &str) -> u64 {
    let key = format!("id=\"{id}\">");
    let at = dom
        .find(&key)
        .unwrap_or_else(|| panic!("no #{id} in the page:\n{dom}"));
    let rest = &dom[at + key.len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("#{id} holds no number: {}", &rest[..rest.len().min(40)]))
}

/// The page at step `step`: the step and the deliveries it shows.
fn shown_at(chrome: &Path, page: &Path, step: u64) -> (u64, u64) {
    let url = format!("file://{}#tick={step}", page.display());
    let dom = browse(chrome, &url, &["--dump-dom"]);
    (number_in(&dom, "tick"), number_in(&dom, "delivered"))
}

/// Writes a screenshot of the page at `step` and checks it is a PNG.
fn screenshot(chrome: &Path, page: &Path, step: u64, png: &Path) {
    let _ = std::fs::remove_file(png);
    let url = format!("file://{}#tick={step}", page.display());
    let shot = format!("--screenshot={}", png.display());
    browse(chrome, &url, &[&shot, "--window-size=1280,760"]);
    let bytes = std::fs::read(png).expect("the screenshot was written");
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000,
        "{}",
        png.display()
    );
}

#[test]
fn frosted_replay_shows_the_first_delivery_as_verify_counts_it() {
    let Some(chrome) = chromium() else { return };
    let (level, layout) = (
        "levels/06-splitters/half-frosted.txt",
        "levels/06-splitters/half-frosted.solution.txt",
    );
    let page = artifacts().join("half-frosted.html");
    let page_arg = page.display().to_string();
    frosted(&["simulate", level, layout, "--html", "-o", &page_arg]);
    let verdict: Value = serde_json::from_str(&frosted(&["verify", level, layout, "--json"]))
        .expect("verify --json");
    let ticks: Vec<u64> = verdict["deliveries"]
        .as_array()
        .expect("deliveries")
        .iter()
        .filter_map(|d| d["tick"].as_u64())
        .collect();
    let first = *ticks.iter().min().expect("a delivery");
    let by_then = ticks.iter().filter(|&&t| t <= first).count() as u64;
    assert_eq!(shown_at(&chrome, &page, first), (first, by_then));
    // One tick earlier nothing was delivered yet: the count is the page's.
    assert_eq!(shown_at(&chrome, &page, first - 1), (first - 1, 0));
    screenshot(&chrome, &page, first, &artifacts().join("half-frosted.png"));
}

#[test]
fn cosmic_replay_ends_with_the_deliveries_verify_counts() {
    let Some(chrome) = chromium() else { return };
    let (level, track) = (
        "levels/cosmic-express/two-cars.json",
        "levels/cosmic-express/two-cars.path.json",
    );
    let page = artifacts().join("two-cars.html");
    let page_arg = page.display().to_string();
    frosted(&["simulate", level, track, "--html", "-o", &page_arg]);
    let verdict: Value =
        serde_json::from_str(&frosted(&["verify", level, track, "--json"])).expect("verify --json");
    let delivered = verdict["delivered"].as_u64().expect("delivered");
    let cells = verdict["cells"].as_u64().expect("cells");
    assert!(delivered > 0);
    // The run's last moment is N-2 for a track of N cells (rules §4.2).
    assert_eq!(shown_at(&chrome, &page, 999), (cells - 2, delivered));
    screenshot(&chrome, &page, cells - 2, &artifacts().join("two-cars.png"));
}
