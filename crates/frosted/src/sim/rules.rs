//! One test per rule of sections 4 and 5, each on a tiny board.

use super::*;
use crate::judge::{judge, Reason};
use crate::parse::parse;

fn level(text: &str) -> Level {
    parse(text).expect("test level parses")
}

fn run(text: &str) -> Outcome {
    simulate(&level(text))
}

fn at(l: &Level, x: usize, y: usize) -> CellId {
    l.shape.cell(crate::grid::Pos { x, y })
}

fn donut_at(sim: &Simulator, c: CellId) -> Option<Donut> {
    sim.cells()[c.index()].donut
}

#[test]
fn steady_state_ends_the_run_with_its_period() {
    let o = run("+>  >   ->\n");
    assert!(matches!(o.end, End::Steady { .. }), "{:?}", o.end);
    assert_eq!(o.deliveries.len(), 1);
}

#[test]
fn a_source_emits_a_plain_donut_every_tick() {
    let l = level("+>  >   >   >\n#   #   #   #\n");
    let mut s = Simulator::new(&l);
    s.step();
    assert_eq!(
        donut_at(&s, at(&l, 1, 0)).map(|d| d.kind),
        Some(Kind::PLAIN)
    );
    s.step();
    assert!(donut_at(&s, at(&l, 1, 0)).is_some() && donut_at(&s, at(&l, 2, 0)).is_some());
}

#[test]
fn an_any_source_cycles_through_the_kinds() {
    let l = level("+>? >   >   >   >   >   >\n");
    let mut s = Simulator::new(&l);
    for _ in 0..5 {
        s.step();
    }
    let kinds: Vec<usize> = (1..=5)
        .rev()
        .map(|x| donut_at(&s, at(&l, x, 0)).map_or(9, |d| d.kind.index()))
        .collect();
    assert_eq!(kinds, vec![0, 1, 2, 3, 4]);
}

#[test]
fn a_donut_on_an_empty_cell_strands_the_run() {
    let l = level("+>  >   .\n");
    let o = simulate(&l);
    assert_eq!(
        o.end,
        End::Stranded {
            tick: 3,
            cell: at(&l, 2, 0),
            donut: Donut {
                kind: Kind::PLAIN,
                origin: at(&l, 0, 0)
            }
        }
    );
}

#[test]
fn bumpers_act_before_belts() {
    // The bumper below (1,1) faces up: plain donuts on (1,1) go up, not right.
    let l = level("#   -^  #\n+>  >   >\n#   b^0 #\n");
    let o = simulate(&l);
    assert_eq!(o.deliveries.len(), 1, "{:?}", o.end);
    assert_eq!(o.deliveries[0].target, at(&l, 1, 0));
}

#[test]
fn a_belt_pushing_off_the_grid_fails() {
    let l = level("+>  >\n");
    assert!(matches!(
        simulate(&l).end,
        End::Failed {
            failure: Failure::OffGrid { .. },
            ..
        }
    ));
}

#[test]
fn a_belt_pushing_into_an_unenterable_entity_fails() {
    let l = level("+>  >   #\n");
    assert!(matches!(
        simulate(&l).end,
        End::Failed {
            failure: Failure::CannotEnter { .. },
            ..
        }
    ));
    // A target entered against its facing cannot be entered either.
    let l = level("+>  >   -<\n");
    assert!(matches!(
        simulate(&l).end,
        End::Failed {
            failure: Failure::CannotEnter { .. },
            ..
        }
    ));
}

#[test]
fn a_target_records_accepted_donuts_and_fails_on_others() {
    assert_eq!(run("+>  ->\n").deliveries.len(), 1);
    assert!(matches!(
        run("+>  ->1\n").end,
        End::Failed {
            failure: Failure::WrongDelivery { .. },
            ..
        }
    ));
    assert_eq!(run("+>  ->?\n").deliveries.len(), 1);
}

#[test]
fn a_splitter_sends_left_then_right() {
    // Splitter entered moving right: left is up, right is down.
    let l = level(".   -^? .\n+>  x>  .\n.   -v? .\n");
    let o = simulate(&l);
    let mut d: Vec<(CellId, u32)> = o.deliveries.iter().map(|d| (d.target, d.tick)).collect();
    d.sort_by_key(|x| x.1);
    assert_eq!(d[0].0, at(&l, 1, 0), "the first donut goes left (up)");
    assert_eq!(d[1].0, at(&l, 1, 2));
}

#[test]
fn a_teleporter_copies_to_every_out() {
    let l = level("+>  T-  #\nT+> ->? #\nT+> ->? #\n");
    let o = simulate(&l);
    assert_eq!(o.deliveries.len(), 2, "{:?}", o.end);
}

#[test]
fn a_crossover_passes_straight_and_alternates_axes() {
    // Only the horizontal stream uses the crossover: one donut passes, then the
    // crossover waits for a vertical entry forever.
    let l = level("+>  *   ->\n");
    let o = simulate(&l);
    assert_eq!(o.deliveries.len(), 1);
    assert!(matches!(o.end, End::Steady { .. }));
    let mut s = Simulator::new(&l);
    s.step();
    assert_eq!(
        s.cells()[at(&l, 1, 0).index()].cross,
        Cross::Occupied(Dir::Right)
    );
    s.step();
    assert_eq!(s.cells()[at(&l, 1, 0).index()].cross, Cross::OpenVertical);
}

#[test]
fn merges_rank_by_waiting_then_toppings_then_scan_order() {
    // Two sources feed (1,1) in the same tick: (1,0) is scanned before (0,1)'s
    // ... both fresh donuts rank plain, waiting 0: collection (scan) order wins.
    let l = level("#   +v  #\n+>  >   ->\n#   #   #\n");
    let mut s = Simulator::new(&l);
    s.step();
    assert_eq!(
        donut_at(&s, at(&l, 1, 1)).map(|d| d.origin),
        Some(at(&l, 0, 1))
    );
    // The loser waits; next time it outranks the winner.
    assert_eq!(s.cells()[at(&l, 1, 0).index()].waiting, 1);
    s.step();
    assert_eq!(s.cells()[at(&l, 1, 0).index()].waiting, 0);
    assert_eq!(s.cells()[at(&l, 0, 1).index()].waiting, 1);
}

#[test]
fn merges_prefer_more_toppings_at_equal_waiting() {
    // Belts (1,0)↓ and (0,1)→ both feed (1,1). The donut from the top was
    // frosted on (1,0) by the topper at (2,0) facing left.
    let l = level("+>  v   1<\n+>  >   ->?\n#   #   #\n");
    let o = simulate(&l);
    assert!(!matches!(o.end, End::Failed { .. }), "{:?}", o.end);
    // Tick 2: the source at (0,1) (collected first, plain) and the frosted
    // donut on (1,0) both move into (1,1), both waiting 0: frosting wins.
    let mut s = Simulator::new(&l);
    s.step();
    s.step();
    assert_eq!(donut_at(&s, at(&l, 1, 1)).map(|d| d.kind.index()), Some(1));
    assert_eq!(s.cells()[at(&l, 0, 1).index()].waiting, 1);
}

#[test]
fn blocking_refuses_moves_into_a_refused_donut() {
    // (1,1) is full and refused at the merge: the belt behind it is blocked too.
    let l = level("#   +v  #   #\n+>  >   >   ->\n#   #   #   #\n");
    let mut s = Simulator::new(&l);
    for _ in 0..3 {
        s.step();
    }
    let total: u32 = s.cells().iter().map(|c| c.waiting).sum();
    assert!(total > 0);
    assert!(!matches!(s.end(), Some(End::Failed { .. })));
}

#[test]
fn toppers_act_after_moves_in_scan_order() {
    // Topper 1 at (1,0) and topper 2 at (1,2) both work on (1,1); in scan order
    // the frosting topper comes first, so a plain donut becomes sprinkles in
    // one tick.
    let l = level("#   1v  #\n+>  >   ->?\n#   2^  #\n");
    let mut s = Simulator::new(&l);
    s.step();
    assert_eq!(donut_at(&s, at(&l, 1, 1)).map(|d| d.kind.index()), Some(2));
}

#[test]
fn a_starved_merge_fails_the_run() {
    // A loop of belts keeps (1,1) busy, so the source never gets in.
    let l = level(".   >   v\n+>  ^   <\n");
    let o = simulate(&l);
    assert!(
        matches!(
            o.end,
            End::Failed {
                failure: Failure::Starved { .. },
                ..
            } | End::Steady { .. }
                | End::Stranded { .. }
        ),
        "{:?}",
        o.end
    );
}

#[test]
fn verdicts_follow_section_5() {
    // 5.1: a failed run is not a solution.
    let v = judge(&level("+>  >\n"));
    assert!(matches!(v.reason, Some(Reason::Failed(_))));
    // 5.2: every source delivers.
    let v = judge(&level("+>  ->\n+>  .\n"));
    assert!(
        matches!(v.reason, Some(Reason::SourceNeverDelivered(_))),
        "{:?}",
        v.reason
    );
    // 5.3: every target receives.
    let v = judge(&level("+>  ->\n#   ->\n"));
    assert!(
        matches!(v.reason, Some(Reason::TargetNeverReceived(_))),
        "{:?}",
        v.reason
    );
    // 5.4: :targets compares the multiset of distinct (origin, kind) pairs.
    assert!(judge(&level(":targets 0\n+>  ->\n")).solved());
    let v = judge(&level(":targets 0 0\n+>  ->\n"));
    assert!(matches!(v.reason, Some(Reason::TargetsMismatch { .. })));
}

#[test]
fn the_reason_names_every_silent_source() {
    // Two sources feed loops that never reach the target.
    let l = level("+>  ->  #\n+>  >   v\n#   ^   <\n+>  >   v\n#   ^   <\n");
    let v = judge(&l);
    let want = vec![at(&l, 0, 1), at(&l, 0, 3)];
    assert_eq!(v.reason, Some(Reason::SourceNeverDelivered(want)));
    let text = crate::judge::explain(&l, v.reason.as_ref().unwrap(), &v.outcome);
    assert!(
        text.starts_with(
            "a source facing right at (0, 1) and a source facing right at (0, 3) never"
        ),
        "{text}"
    );
}
