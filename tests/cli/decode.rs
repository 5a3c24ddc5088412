//! `frosted decode`: its errors. Decoding real models is checked where they
//! are made (`dump_cnf.rs`: Debian's `cadical`; `solve.rs`: `--dump-calls`).

use crate::{command_line, run_in, scratch};

#[test]
fn decode_errors() {
    let dir = scratch(
        "decode_errors",
        &[
            ("level.txt", b"+>  .   ->\n"),
            ("unsat.txt", b"s UNSATISFIABLE\n"),
            ("garbage.txt", b"hello\n"),
        ],
    );
    for model in ["unsat.txt", "garbage.txt", "missing.txt"] {
        let args = ["decode", "level.txt", model];
        let out = run_in(&dir, &args);
        insta::with_settings!({ snapshot_suffix => model.replace('.', "_"), description => command_line(&args), omit_expression => true }, {
            insta::assert_snapshot!(out);
        });
    }
}
