//! Bad level and track files give a message naming the key or rule and, where
//! meaningful, a line and column; no input makes the readers panic.

mod common;

use common::*;
use cosmic_express::{parse_level, parse_track, InputError};

const GOOD: &str = r#"{
  "width": 7,
  "height": 7,
  "length": 1,

  "entrances": [{ "x": 0, "y": 4 }],
  "exits": [{ "x": 8, "y": 4 }],
  "entities": [
    [{ "x": 2, "y": 2 }, { "Alien": { "color": "Orange" } }],
    [{ "x": 6, "y": 2 }, { "Alien": { "color": "Purple" } }],

    [{ "x": 2, "y": 6 }, { "House": { "color": "Purple" } }],
    [{ "x": 6, "y": 6 }, { "House": { "color": "Orange" } }]
  ]
}"#;

/// The error of `GOOD` with `from` replaced by `to` (exactly once).
fn bad(from: &str, to: &str) -> InputError {
    assert_eq!(GOOD.matches(from).count(), 1, "{from}");
    match parse_level(&GOOD.replacen(from, to, 1)) {
        Ok(_) => panic!("{from} -> {to} was accepted"),
        Err(e) => e,
    }
}

/// 1-based (line, column) of the error.
fn place(e: &InputError) -> Option<(usize, usize)> {
    e.span.map(|s| (s.line + 1, s.col + 1))
}

#[test]
fn the_good_level_parses() {
    assert_eq!(parse_level(GOOD), Ok(andromeda_7()));
}

#[test]
fn structure_errors_name_the_key_and_point_at_it() {
    let e = bad(
        "2 }, { \"Alien\": { \"color\": \"Orange\"",
        "2 }, { \"Alien\": { \"colour\": \"Orange\"",
    );
    assert_eq!(
        e.message,
        "W1: unknown key `colour` in entities[0][1].Alien (expected `color`)"
    );
    assert_eq!(place(&e), Some((9, 39)));
    let r = e.render("a7.json");
    assert!(r.contains("--> a7.json:9:39"), "{r}");
    assert!(r.ends_with("^^^^^^^^"), "{r}");

    let e = bad("\"Purple\" } }],\n\n", "\"Red\" } }],\n\n");
    assert_eq!(
        e.message,
        "W1: `entities[1][1].Alien.color`: unknown colour `Red` (expected \"Purple\", \"Orange\" or \"Green\")"
    );
    assert_eq!(place(&e), Some((10, 48)));

    let e = bad("{ \"House\": { \"color\": \"Orange\" } }", "\"Tree\"");
    assert_eq!(
        e.message,
        "W1: `entities[3]`: unknown entity `Tree` (expected \"Wall\", {\"Alien\": {\"color\": C}} or {\"House\": {\"color\": C}})"
    );
    assert_eq!(place(&e), Some((13, 26)));

    let e = bad("\"width\": 7", "\"width\": 7.5");
    assert_eq!(
        e.message,
        "W1: `width` must be an integer from 1 to 1000, found `7.5`"
    );
    assert_eq!(place(&e), Some((2, 12)));
    let e = bad("\"length\": 1", "\"length\": 0");
    assert!(e
        .message
        .starts_with("W1: `length` must be an integer from 1"));
    let e = bad("  \"length\": 1,\n", "");
    assert_eq!(e.message, "W1: missing key `length` in the level");
    assert_eq!(place(&e), Some((1, 1)));
    let e = bad("\"width\": 7,", "\"width\": 7, \"width\": 7,");
    assert_eq!(e.message, "W1: duplicate key `width` in the level");
    let e = bad("{ \"x\": 0, \"y\": 4 }", "[0, 4]");
    assert_eq!(
        e.message,
        "W1: entrances[0] must be an object, found a list"
    );
}

#[test]
fn well_formedness_violations_name_the_rule() {
    let e = bad("[{ \"x\": 0, \"y\": 4 }]", "[]");
    assert_eq!(
        e.message,
        "W2: `entrances` must hold exactly one point, found 0"
    );
    assert_eq!(place(&e), Some((6, 16)));
    let e = bad(
        "[{ \"x\": 8, \"y\": 4 }]",
        "[{ \"x\": 8, \"y\": 4 }, { \"x\": 8, \"y\": 5 }]",
    );
    assert_eq!(
        e.message,
        "W2: `exits` must hold exactly one point, found 2"
    );
    let e = bad("{ \"x\": 8, \"y\": 4 }", "{ \"x\": 0, \"y\": 4 }");
    assert_eq!(
        e.message,
        "W3: the entrance and the exit are the same point (0,4)"
    );
    assert_eq!(place(&e), Some((7, 13)));
    let e = bad("{ \"x\": 6, \"y\": 6 }", "{ \"x\": 2, \"y\": 6 }");
    assert_eq!(
        e.message,
        "W4: entities[3] and entities[2] share the point (2,6)"
    );
    assert_eq!(place(&e), Some((13, 6)));
    let e = bad(
        "\"House\": { \"color\": \"Orange\"",
        "\"House\": { \"color\": \"Purple\"",
    );
    assert_eq!(e.message, "W5: 1 Purple alien but 2 Purple houses");
    let e = bad("{ \"x\": 6, \"y\": 6 }", "{ \"x\": 6, \"y\": 8 }");
    assert_eq!(
        e.message,
        "W6: entities[3] at (6,8) is outside the 7x7 grid"
    );
    assert_eq!(place(&e), Some((13, 6)));
    let e = bad("{ \"x\": 8, \"y\": 4 }", "{ \"x\": 6, \"y\": 6 }");
    assert_eq!(e.message, "W7: the exit (6,6) lies on an entity (O)");
    assert_eq!(place(&e), Some((7, 13)));
}

#[test]
fn invalid_json_has_serde_json_place() {
    let e = bad("\"height\": 7,", "\"height\": 7");
    assert!(
        e.message.starts_with("invalid JSON: expected `,` or `}`"),
        "{}",
        e.message
    );
    assert_eq!(place(&e), Some((4, 3)));
    let e = parse_level("").unwrap_err();
    assert!(e.message.starts_with("invalid JSON: EOF"), "{}", e.message);
    let e = parse_level("[1, 2]").unwrap_err();
    assert_eq!(e.message, "W1: the level must be an object, found a list");
    assert_eq!(place(&e), Some((1, 1)));
}

#[test]
fn cut_or_changed_levels_never_panic() {
    let mut errors = 0;
    let mut ok = 0;
    let texts = [GOOD.to_string(), GOOD.replace('\n', "\r\n")];
    for text in &texts {
        for (i, _) in text.char_indices() {
            let cut = &text[..i];
            match parse_level(cut) {
                Ok(_) => ok += 1,
                Err(e) => {
                    let _ = e.render("f");
                    errors += 1;
                }
            }
            for c in ['x', '"', '{', ']', '9', '-', ' ', 'é', '\u{0}', ','] {
                let mut changed = String::with_capacity(text.len() + 4);
                changed.push_str(cut);
                changed.push(c);
                changed.push_str(&text[i..].chars().skip(1).collect::<String>());
                match parse_level(&changed) {
                    Ok(_) => ok += 1,
                    Err(e) => {
                        let _ = e.render("f");
                        errors += 1;
                    }
                }
            }
        }
    }
    assert!(errors > 1000 && ok > 10, "{errors} errors, {ok} accepted");
}

#[test]
fn bad_tracks_are_errors_with_a_place() {
    let level = andromeda_7();
    let e = parse_track(&level, "{\"path\": [[0, 4], [1]]}").unwrap_err();
    assert_eq!(e.message, "`path[1]` must be a pair [x, y] of integers");
    assert_eq!(place(&e), Some((1, 19)));
    let e = parse_track(&level, "{\"cells\": 3}").unwrap_err();
    assert_eq!(e.message, "the track has no key `path`");
    let e = parse_track(&level, "{\"path\": [[0, 4], [1, 4.5]]}").unwrap_err();
    assert_eq!(e.message, "`path[1]` must be a pair [x, y] of integers");
    let e = parse_track(&level, "{\"path\": [[0, 4],").unwrap_err();
    assert!(e.message.starts_with("invalid JSON"));
    let e = parse_track(&level, "+++\n+.+\n+++\n").unwrap_err();
    assert_eq!(e.message, "the picture has no `S` (entrance)");
    let broken = ANDROMEDA_7_PICTURE.replacen("S>^", "S>.", 1);
    let e = parse_track(&level, &broken).unwrap_err();
    assert_eq!(e.message, "the track from S reaches `.`, not an arrow or E");
    assert_eq!(place(&e), Some((5, 3)));
    let circle = "+++++\n+>v.+\nS^<.E\n+++++\n";
    let e = parse_track(&level, circle).unwrap_err();
    assert_eq!(e.message, "the arrows run in a circle and never reach E");
    assert_eq!(place(&e), Some((3, 3)));
    let text = ANDROMEDA_7_PICTURE;
    for (i, _) in text.char_indices() {
        let _ = parse_track(&level, &text[..i]);
        let _ = parse_track(&level, &format!("{}<{}", &text[..i], &text[i + 1..]));
        let _ = parse_track(&level, &format!("{}v{}", &text[..i], &text[i + 1..]));
    }
}

#[test]
fn cut_real_levels_never_panic() {
    let Some(root) = ce_levels() else { return };
    for path in real_levels(&root).iter().take(3) {
        let text = read(path);
        for (i, _) in text.char_indices() {
            let _ = parse_level(&text[..i]);
            let mut changed = text.clone();
            changed.replace_range(
                i..i + text[i..].chars().next().map_or(0, char::len_utf8),
                "}",
            );
            let _ = parse_level(&changed);
        }
    }
}
