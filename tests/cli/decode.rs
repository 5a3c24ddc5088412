//! `frosted decode`: models named through the dump's `c choice` lines, and
//! errors. Decoding real solvers' models is checked where they are made
//! (`dump_cnf.rs`: Debian's `cadical`; `solve.rs`: `--dump-calls`).

use crate::{command_line, run_in, scratch};

/// An UNSAT answer has no layout (exit 1). Bad models are bad input (exit 2):
/// no answer at all, a literal that is not a number (pointed at with a caret),
/// two different answers in one file, a missing file, and an endless one (`/dev/zero`, where it exists: it is
/// refused after 64 MiB and a little more, not read for ever).
#[test]
fn decode_errors() {
    let dir = scratch(
        "decode_errors",
        &[
            ("level.txt", b"+>  .   ->\n"),
            ("unsat.txt", b"s UNSATISFIABLE\n"),
            ("garbage.txt", b"hello\n"),
            ("bad-literal.txt", b"s SATISFIABLE\nv 1 -2 -3\nv -4 5x 0\n"),
            (
                "two-statuses.txt",
                b"s UNKNOWN\nc restarted\ns SATISFIABLE\nv 1 0\n",
            ),
        ],
    );
    let mut models = vec![
        "unsat.txt",
        "garbage.txt",
        "bad-literal.txt",
        "two-statuses.txt",
        "missing.txt",
    ];
    if std::path::Path::new("/dev/zero").exists() {
        models.push("/dev/zero");
    }
    for model in models {
        let args = ["decode", "level.txt", model];
        let out = run_in(&dir, &args);
        insta::with_settings!({ snapshot_suffix => model.replace(['.', '/'], "_"), description => command_line(&args), omit_expression => true }, {
            insta::assert_snapshot!(out);
        });
    }
}

/// Models written by hand from the `c choice VAR X Y OPTION` lines of a dump
/// (every other variable false): `decode` prints the layout they name, with
/// its belts and the simulator's verdict on stderr, whether it solves or not;
/// a model that sets no option, or two, on a free cell is bad input.
#[test]
fn decode_models_named_by_the_choice_lines() {
    let dir = scratch("decode_models", &[("level.txt", b"+>  .   .   ->\n")]);
    let out = run_in(&dir, &["dump-cnf", "level.txt", "-o", "level.cnf"]);
    assert!(out.starts_with("exit: 0"), "{out}");
    let cnf = std::fs::read_to_string(dir.join("level.cnf")).expect("read the dump");
    let n_vars: usize = cnf
        .lines()
        .find_map(|l| l.strip_prefix("p cnf "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a `p cnf` line");
    // (variable, "x y", option)
    let choices: Vec<(usize, String, String)> = cnf
        .lines()
        .filter_map(|l| l.strip_prefix("c choice "))
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            Some((
                w[0].parse().ok()?,
                format!("{} {}", w[1], w[2]),
                w[3].to_string(),
            ))
        })
        .collect();
    assert_eq!(choices.len(), 10, "two free cells, five options each");
    // The options set on each cell, as "x y option" words.
    let model = |set: &[&str]| -> String {
        let lits: Vec<String> = (1..=n_vars)
            .map(|v| {
                let on = choices
                    .iter()
                    .any(|(var, xy, o)| *var == v && set.contains(&format!("{xy} {o}").as_str()));
                if on {
                    format!("{v}")
                } else {
                    format!("-{v}")
                }
            })
            .collect();
        format!("s SATISFIABLE\nv {} 0\n", lits.join(" "))
    };
    let cases: [(&str, &[&str]); 4] = [
        ("solves.txt", &["1 0 right", "2 0 right"]),
        ("strands.txt", &["1 0 right", "2 0 none"]),
        ("cut_short.txt", &["1 0 right"]),
        ("two_options.txt", &["1 0 right", "2 0 none", "2 0 right"]),
    ];
    for (name, set) in cases {
        std::fs::write(dir.join(name), model(set)).expect("write the model");
        let args = ["decode", "level.txt", name];
        let out = run_in(&dir, &args);
        insta::with_settings!({ snapshot_suffix => name.replace('.', "_"), description => command_line(&args), omit_expression => true }, {
            insta::assert_snapshot!(out);
        });
    }
}
