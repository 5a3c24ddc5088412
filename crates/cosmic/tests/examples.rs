//! The worked examples of rules §8.1 and §8.2: events, picture and track forms.

mod common;

use common::*;
use cosmic_express::{judge, parse_track, show_track, simulate, Entity, Event, Point};

/// (moment, car, cell) of every boarding and delivery, in order; ties are errors.
fn events(outcome: &cosmic_express::Outcome) -> Vec<(&'static str, usize, usize, Point)> {
    outcome
        .events
        .iter()
        .map(|e| match *e {
            Event::Boarded {
                moment, car, cell, ..
            } => ("boarded", moment, car, cell),
            Event::Delivered {
                moment, car, cell, ..
            } => ("delivered", moment, car, cell),
            Event::Tie { .. } => panic!("unexpected tie {e:?}"),
        })
        .collect()
}

#[test]
fn andromeda_7_gives_the_events_of_section_8_1() {
    let level = andromeda_7();
    let out = simulate(&level, &andromeda_7_track());
    assert_eq!(out.broken, None);
    assert_eq!(
        events(&out),
        [
            ("boarded", 4, 0, p(2, 3)),
            ("delivered", 16, 0, p(6, 5)),
            ("boarded", 20, 0, p(5, 2)),
            ("delivered", 26, 0, p(3, 6)),
        ]
    );
    // Which alien and which house.
    assert!(matches!(out.events[0], Event::Boarded { alien: 0, .. }));
    assert!(matches!(out.events[1], Event::Delivered { house: 3, .. }));
    assert!(matches!(out.events[2], Event::Boarded { alien: 1, .. }));
    assert!(matches!(out.events[3], Event::Delivered { house: 2, .. }));
    assert!(out.solved());
    let v = judge(&level, &andromeda_7_track());
    assert!(v.solved);
    assert_eq!(v.reason, "valid track of 35 cells; every alien delivered");
}

#[test]
fn andromeda_7_picture_is_the_one_of_section_8_1() {
    let level = andromeda_7();
    let t = andromeda_7_track();
    assert_eq!(show_track(&level, &t), ANDROMEDA_7_PICTURE);
    assert_eq!(parse_track(&level, ANDROMEDA_7_PICTURE), Ok(t.clone()));
    // Without the final newline, and with CR LF line ends, too.
    assert_eq!(
        parse_track(&level, ANDROMEDA_7_PICTURE.trim_end()),
        Ok(t.clone())
    );
    let crlf = ANDROMEDA_7_PICTURE.replace('\n', "\r\n");
    assert_eq!(parse_track(&level, &crlf), Ok(t.clone()));
    let json = t.to_json(Some("Andromeda 7"));
    assert!(json.starts_with("{\"level\": \"Andromeda 7\", \"path\": [[0,4],[1,4],[2,4],"));
    assert!(!json.contains('\n'));
    assert_eq!(parse_track(&level, &json), Ok(t.clone()));
    assert_eq!(parse_track(&level, &t.to_json(None)), Ok(t));
}

fn ursa_minor_1() -> cosmic_express::Level {
    level(
        (7, 7),
        2,
        (0, 4),
        (8, 4),
        &[
            ((4, 1), Entity::Wall),
            ((4, 7), Entity::Wall),
            ((6, 4), Entity::Wall),
            ((4, 5), Entity::Alien(PURPLE)),
            ((4, 3), Entity::Alien(ORANGE)),
            ((7, 1), Entity::House(PURPLE)),
            ((7, 7), Entity::House(ORANGE)),
        ],
    )
}

#[test]
fn ursa_minor_1_gives_the_events_of_section_8_2() {
    let level = ursa_minor_1();
    let t = cells(
        "(0,4) (1,4) (2,4) (2,5) (3,5) (3,4) (3,3) (3,2) (4,2) (5,2) (6,2) (7,2) (7,3) \
         (6,3) (5,3) (5,4) (5,5) (6,5) (6,6) (7,6) (7,5) (7,4) (8,4)",
    );
    let out = simulate(&level, &t);
    assert_eq!(
        events(&out),
        [
            ("boarded", 5, 0, p(3, 5)),
            ("boarded", 8, 1, p(3, 3)),
            ("delivered", 12, 0, p(7, 2)),
            ("delivered", 21, 1, p(7, 6)),
        ]
    );
    assert!(out.solved());
    let picture = "\
+++++++++
+...#..P+
+..>>>>v+
+..^ov<<+
S>v^.v#>E
+.>^p>v^+
+.....>^+
+...#..O+
+++++++++
";
    assert_eq!(show_track(&level, &t), picture);
    assert_eq!(parse_track(&level, picture), Ok(t));
}
