//! `encodings/levels/` holds the dumped first-iteration CNF of every example level;
//! this test checks they are current. After changing the encoding, regenerate
//! them with `FROSTED_BLESS=1 cargo test --test encodings`.

mod common;

use std::path::Path;

#[test]
fn dumped_cnfs_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("FROSTED_BLESS").is_some();
    let mut stale = Vec::new();
    let mut n = 0;
    for f in common::example_levels() {
        let rel = f.strip_prefix(root).expect("inside the repository");
        let cnf = root.join("encodings").join(rel).with_extension("cnf");
        let text = frosted::encode::dimacs(&common::load(&f), &Default::default())
            .expect("no facts to check");
        if bless {
            std::fs::create_dir_all(cnf.parent().expect("parent")).expect("mkdir");
            std::fs::write(&cnf, &text).expect("write");
        } else if std::fs::read_to_string(&cnf).ok().as_deref() != Some(text.as_str()) {
            stale.push(cnf.display().to_string());
        }
        n += 1;
    }
    assert!(n >= 36);
    assert!(
        stale.is_empty(),
        "stale or missing (regenerate with FROSTED_BLESS=1 cargo test --test encodings):\n{}",
        stale.join("\n")
    );
}
