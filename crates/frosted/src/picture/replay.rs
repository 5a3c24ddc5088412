//! The frames of a run for the replay page: the simulator runs the layout
//! tick by tick, and each tick's state becomes a [`Frame`]: the donuts as
//! tokens (kind colour and digit), waiting counters, splitters' next sides,
//! crossovers' states and any-sources' next kinds as marks, the deliveries so
//! far per target. The player draws these and computes nothing.

use super::sprites::kind_color;
use crate::grid::{CellId, Kind};
use crate::judge::{describe_end, explain, reason_for};
use crate::level::{Level, Tile};
use crate::sim::{Cross, Delivery, End, Simulator};
use picture::replay::Corner;
use picture::{Frame, Mark, Replay, Token};

/// The most frames a page holds; a longer run is played to its end, and its
/// page says the frames stop early.
pub const MAX_FRAMES: u32 = 3000;

const BADGE: &str = "#FFFFFF";

/// The run of `layout`, frame by frame, with its outcome as `verify` states it.
pub fn replay(layout: &Level) -> Replay {
    let mut sim = Simulator::new(layout);
    let mut frames = vec![frame(layout, &sim, 0)];
    let end = loop {
        if let Some(end) = sim.step() {
            break end;
        }
        let done = sim.tick() - 1;
        if done <= MAX_FRAMES {
            frames.push(frame(layout, &sim, done));
        }
    };
    let outcome = sim.into_outcome();
    let reason = reason_for(layout, &outcome);
    let ended = describe_end(layout, &end);
    if let Some(last) = frames.last_mut() {
        last.alert = alert(&end).map(|c| xy(layout, c));
        last.lines.insert(0, format!("then: {ended}"));
    }
    let shown = frames.last().map_or(0, |f| f.step);
    let note = (shown + 1 < end.tick()).then(|| {
        format!(
            "The page shows the first {shown} ticks; the run goes on to tick {}.",
            end.tick()
        )
    });
    let verdict = match &reason {
        None => "solved: every source delivered and every target received".to_string(),
        Some(r) => format!("not solved: {}", explain(layout, r, &outcome)),
    };
    Replay {
        unit: "tick".into(),
        outcome: format!("{verdict} (run: {ended})"),
        solved: reason.is_none(),
        note,
        frames,
    }
}

/// The cell to ring on the last frame: where the run failed or a donut was
/// stranded.
fn alert(end: &End) -> Option<CellId> {
    match end {
        End::Failed { failure, .. } => Some(failure.cell()),
        End::Stranded { cell, .. } => Some(*cell),
        End::Steady { .. } | End::TickLimit { .. } => None,
    }
}

fn xy(level: &Level, c: CellId) -> [usize; 2] {
    let p = level.pos(c);
    [p.x, p.y]
}

/// The state after `step` ticks.
fn frame(layout: &Level, sim: &Simulator, step: u32) -> Frame {
    let cells = sim.cells();
    let mut tokens = Vec::new();
    let mut marks = Vec::new();
    let mut lines = Vec::new();
    let mut mark = |c: CellId, text: String, corner: Corner, fill: &str| {
        marks.push(Mark {
            at: xy(layout, c),
            text,
            corner,
            fill: fill.to_string(),
        })
    };
    for c in layout.shape.cells() {
        let st = &cells[c.index()];
        let p = layout.pos(c);
        if let Some(d) = st.donut {
            tokens.push(Token {
                at: xy(layout, c),
                fill: kind_color(d.kind).to_string(),
                mark: d.kind.digit().to_string(),
                ..Token::default()
            });
        }
        if st.waiting > 0 {
            mark(c, format!("w{}", st.waiting), Corner::Sw, BADGE);
            let ticks = if st.waiting == 1 { "tick" } else { "ticks" };
            lines.push(format!("{p}: waiting {} {ticks}", st.waiting));
        }
        match layout.tile(c) {
            Tile::Splitter(f) => {
                let (side, d) = match st.next_right {
                    true => ("right", f.turn_right()),
                    false => ("left", f.turn_left()),
                };
                mark(c, d.glyph().to_string(), Corner::Ne, BADGE);
                lines.push(format!("{p} splitter: the next donut goes {side} ({d})"));
            }
            Tile::Crossover => {
                let (badge, words) = cross_state(st.cross);
                if !badge.is_empty() {
                    mark(c, badge, Corner::Ne, BADGE);
                }
                lines.push(format!("{p} crossover: {words}"));
            }
            Tile::AnySource(_) => {
                mark(
                    c,
                    st.cycle.digit().to_string(),
                    Corner::Ne,
                    kind_color(st.cycle),
                );
                lines.push(format!(
                    "{p} any-source: emits kind {} next",
                    st.cycle.digit()
                ));
            }
            _ => {}
        }
    }
    let ds = sim.deliveries();
    for t in layout.targets() {
        let n = ds.iter().filter(|d| d.target == t).count();
        if n > 0 {
            mark(t, format!("\u{d7}{n}"), Corner::Se, BADGE);
        }
    }
    lines.extend(ds.iter().map(|d| delivery_line(layout, d)));
    Frame {
        step,
        tokens,
        marks,
        lines,
        delivered: ds.len() as u32,
        alert: None,
    }
}

/// A crossover's state: a badge (empty when open) and words.
fn cross_state(c: Cross) -> (String, String) {
    match c {
        Cross::Open => (String::new(), "open".into()),
        Cross::Occupied(d) => (d.glyph().to_string(), format!("a donut crossing {d}")),
        Cross::OpenHorizontal => ("\u{2194}".into(), "open to horizontal entries only".into()),
        Cross::OpenVertical => ("\u{2195}".into(), "open to vertical entries only".into()),
    }
}

fn delivery_line(layout: &Level, d: &Delivery) -> String {
    let kind: Kind = d.kind;
    format!(
        "delivered at tick {}: {} got kind {} ({}) from {}",
        d.tick,
        layout.pos(d.target),
        kind.digit(),
        kind,
        layout.pos(d.origin)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::judge;
    use crate::parse::parse;

    #[test]
    fn frames_follow_the_simulator() {
        let l = parse("+> > > ->").expect("level");
        let r = replay(&l);
        let v = judge(&l);
        assert!(r.solved && v.solved());
        assert_eq!(r.frames[0].step, 0);
        assert!(r.frames[0].tokens.is_empty());
        // The first delivery's tick: one delivery in that frame, none before.
        let first = v.outcome.deliveries[0].tick as usize;
        assert_eq!(r.frames[first].delivered, 1);
        assert_eq!(r.frames[first - 1].delivered, 0);
        assert_eq!(
            r.frames.last().map(|f| f.step),
            Some(v.outcome.end.tick() - 1)
        );
    }

    #[test]
    fn states_are_marked_where_they_are() {
        let l = parse("+>? x> . \n.   v  . \n.   .  .").expect("level");
        let r = replay(&l);
        let first = &r.frames[0];
        // The any-source's next kind (plain) and the splitter's next side (up).
        assert!(first.marks.iter().any(|m| m.at == [0, 0] && m.text == "0"));
        assert!(first
            .marks
            .iter()
            .any(|m| m.at == [1, 0] && m.text == "\u{2191}"));
        assert!(first
            .lines
            .iter()
            .any(|l| l.contains("splitter: the next donut goes left")));
    }

    #[test]
    fn a_failure_rings_its_cell() {
        let l = parse("+> > >").expect("level");
        let r = replay(&l);
        assert!(!r.solved);
        assert!(r.outcome.starts_with("not solved"), "{}", r.outcome);
        assert_eq!(r.frames.last().and_then(|f| f.alert), Some([2, 0]));
    }
}
