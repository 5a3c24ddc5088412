//! Corner cases of rules §3 and §4 as small corridor levels: the train runs along
//! row 2 from the entrance (0,2) to the exit on the right frame, with aliens and
//! houses in rows 1 and 3.

mod common;

use common::*;
use cosmic_express::{check_track, judge, simulate, Broken, Entity, Event, Level, Point, Track};

/// The straight track along row 2 of a corridor `width` wide.
fn straight(width: i32) -> Track {
    Track((0..=width + 1).map(|x| p(x, 2)).collect())
}

fn corridor(width: i32, cars: usize, entities: &[((i32, i32), Entity)]) -> Level {
    level((width, 3), cars, (0, 2), (width + 1, 2), entities)
}

/// (kind, moment, car, cell x) of every event.
fn summary(events: &[Event]) -> Vec<(char, usize, usize, i32)> {
    events
        .iter()
        .map(|e| match e {
            Event::Boarded {
                moment, car, cell, ..
            } => ('b', *moment, *car, cell.x),
            Event::Delivered {
                moment, car, cell, ..
            } => ('d', *moment, *car, cell.x),
            Event::Tie {
                moment, car, cell, ..
            } => ('t', *moment, *car, cell.x),
        })
        .collect()
}

#[test]
fn car_1_is_never_handled_on_the_last_two_cells_before_the_exit() {
    let with_house = |house: (i32, i32)| {
        corridor(
            6,
            2,
            &[
                ((1, 1), Entity::Alien(PURPLE)),
                ((2, 1), Entity::Alien(ORANGE)),
                ((4, 1), Entity::House(PURPLE)),
                (house, Entity::House(ORANGE)),
            ],
        )
    };
    // N = 8: moments 1..=6; car 1 stands on path[4] = (4,2) at the last moment.
    let ok = with_house((4, 3));
    let out = simulate(&ok, &straight(6));
    assert_eq!(
        summary(&out.events),
        [
            ('b', 2, 0, 1),
            ('b', 4, 1, 2),
            ('d', 5, 0, 4),
            ('d', 6, 1, 4)
        ]
    );
    assert!(out.solved());
    // Next to path[5] = (5,2) only: car 0 is handled there, car 1 never.
    let late = with_house((5, 3));
    let out = simulate(&late, &straight(6));
    assert!(!out.solved());
    assert_eq!(out.train.cars()[1].holds, Some((1, ORANGE)));
    let v = judge(&late, &straight(6));
    assert!(!v.solved);
    assert!(
        v.reason.contains("the orange house at (5,3) was never served: the orange alien from (2,1) boarded at moment 4 was still on car 1 at the end"),
        "{}",
        v.reason
    );
}

#[test]
fn one_car_delivers_then_picks_up_at_the_same_cell() {
    let level = corridor(
        6,
        1,
        &[
            ((1, 1), Entity::Alien(PURPLE)),
            ((3, 1), Entity::House(PURPLE)),
            ((3, 3), Entity::Alien(ORANGE)),
            ((5, 1), Entity::House(ORANGE)),
        ],
    );
    let out = simulate(&level, &straight(6));
    assert_eq!(
        summary(&out.events),
        [
            ('b', 2, 0, 1),
            ('d', 4, 0, 3),
            ('b', 4, 0, 3),
            ('d', 6, 0, 5)
        ]
    );
    assert!(out.solved());
}

#[test]
fn two_willing_aliens_at_once_board_nobody() {
    let level = corridor(
        6,
        1,
        &[
            ((2, 1), Entity::Alien(PURPLE)),
            ((2, 3), Entity::Alien(ORANGE)),
            ((4, 1), Entity::House(PURPLE)),
            ((5, 1), Entity::House(ORANGE)),
        ],
    );
    let out = simulate(&level, &straight(6));
    assert_eq!(summary(&out.events), [('t', 3, 0, 2)]);
    assert!(matches!(&out.events[0], Event::Tie { aliens, .. } if aliens == &[0, 1]));
    assert_eq!(out.train.remaining_aliens(), [0, 1]);
    let v = judge(&level, &straight(6));
    assert!(!v.solved);
    assert!(
        v.reason.contains("the purple alien at (2,1) was never picked up: a car passed next to it only when it was next to a second willing alien (moment 3)"),
        "{}",
        v.reason
    );
}

#[test]
fn an_unwilling_purple_next_to_a_gooped_car_does_not_block_a_green() {
    let level = corridor(
        7,
        1,
        &[
            ((1, 1), Entity::Alien(GREEN)),
            ((2, 1), Entity::House(GREEN)),
            ((3, 1), Entity::Alien(PURPLE)),
            ((3, 3), Entity::Alien(GREEN)),
            ((5, 1), Entity::House(GREEN)),
            ((7, 3), Entity::House(PURPLE)),
        ],
    );
    let out = simulate(&level, &straight(7));
    assert_eq!(
        summary(&out.events),
        [
            ('b', 2, 0, 1),
            ('d', 3, 0, 2),
            ('b', 4, 0, 3),
            ('d', 6, 0, 5)
        ]
    );
    assert!(matches!(out.events[2], Event::Boarded { alien: 3, .. }));
    assert!(out.train.cars()[0].gooped);
    assert_eq!(out.train.remaining_aliens(), [2]);
    let v = judge(&level, &straight(7));
    assert!(
        v.reason.contains("the purple alien at (3,1) was never picked up: a car passed next to it only when it was gooped by a green alien (moment 4)"),
        "{}",
        v.reason
    );
    // The goop stays after the green alien left: the purple alien is unwilling.
    assert!(v
        .reason
        .contains("the purple house at (7,3) was never served"));
}

#[test]
fn the_first_house_in_file_order_is_served() {
    for (first, second) in [((3, 1), (3, 3)), ((3, 3), (3, 1))] {
        let level = corridor(
            6,
            1,
            &[
                ((1, 1), Entity::Alien(PURPLE)),
                (first, Entity::House(PURPLE)),
                (second, Entity::House(PURPLE)),
                ((5, 1), Entity::Alien(PURPLE)),
            ],
        );
        let out = simulate(&level, &straight(6));
        assert!(matches!(
            out.events[1],
            Event::Delivered {
                house: 1,
                moment: 4,
                ..
            }
        ));
        assert_eq!(out.train.remaining_houses(), [2]);
        assert_eq!(level.point_of(1), p(first.0, first.1));
    }
}

#[test]
fn checks_run_in_the_order_of_section_7_3() {
    let level = corridor(
        4,
        1,
        &[
            ((2, 1), Entity::Alien(PURPLE)),
            ((3, 1), Entity::House(PURPLE)),
        ],
    );
    let t = |cells: &[(i32, i32)]| check_track(&level, &track(cells));
    assert_eq!(t(&[]), Err(Broken::T1));
    assert_eq!(t(&[(1, 2), (5, 2)]), Err(Broken::T1));
    assert_eq!(t(&[(0, 2)]), Err(Broken::T2));
    assert_eq!(t(&[(0, 2), (1, 2), (2, 2)]), Err(Broken::T2));
    assert_eq!(
        t(&[(0, 2), (1, 2), (3, 2), (4, 2), (5, 2)]),
        Err(Broken::T3 { at: 2 })
    );
    assert_eq!(
        t(&[
            (0, 2),
            (0, 1),
            (1, 1),
            (1, 2),
            (2, 2),
            (3, 2),
            (4, 2),
            (5, 2)
        ]),
        Err(Broken::T4 { at: 1 })
    );
    assert_eq!(
        t(&[
            (0, 2),
            (1, 2),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
            (4, 2),
            (5, 2)
        ]),
        Err(Broken::T5 { at: 3 })
    );
    assert_eq!(
        t(&[(0, 2), (1, 2), (2, 2), (1, 2), (2, 2), (5, 2)]),
        Err(Broken::T6 { at: 3, first: 1 })
    );
    // A cell can break several rules: the first one checked, cell by cell, wins.
    assert_eq!(
        t(&[(0, 2), (1, 2), (1, 1), (1, 2), (9, 9), (5, 2)]),
        Err(Broken::T6 { at: 3, first: 1 })
    );
    assert_eq!(t(&[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2)]), Ok(()));
    let reason = |cells: &[(i32, i32)]| judge(&level, &track(cells)).reason;
    assert_eq!(
        reason(&[(0, 2), (1, 2), (3, 2), (4, 2), (5, 2)]),
        "T3: path[1] (1,2) and path[2] (3,2) are not adjacent"
    );
    assert_eq!(
        reason(&[(0, 2), (1, 2), (2, 2)]),
        "T2: the last cell (2,2) is not the exit (5,2)"
    );
    assert_eq!(
        reason(&[(0, 2), (1, 2), (2, 2), (1, 2), (2, 2), (5, 2)]),
        "T6: path[3] (1,2) repeats path[1]"
    );
}

#[test]
fn an_alien_next_only_to_the_last_cells_is_explained() {
    let level = corridor(
        4,
        1,
        &[
            ((4, 1), Entity::Alien(ORANGE)),
            ((1, 3), Entity::House(ORANGE)),
        ],
    );
    let v = judge(&level, &straight(4));
    assert!(!v.solved);
    assert!(v.reason.contains("the orange alien at (4,1) was never picked up: the track passes next to it only near the exit (path[4] (4,2))"), "{}", v.reason);
    assert!(v.reason.contains("the orange house at (1,3) was never served: the orange alien at (4,1) that it waits for never boarded"), "{}", v.reason);
    let _ = Point::new(0, 0);
}
