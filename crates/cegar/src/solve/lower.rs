//! The puzzle's lower bound on a thread of its own, beside the SAT calls.
//!
//! A lower-bound search either refutes a bound quickly or runs out of its
//! budget, and one that runs out has cost a few hundredths of a second for
//! nothing. When the loop has a second core (`--threads` above 1), the
//! searches run beside the SAT calls, with a budget 250 times larger
//! (`Options::lower_bound_beside_budget`: there a search costs only what
//! it takes from the racing copies), and the loop reads their answers
//! between calls. A question goes first to a short search the loop waits
//! for (a [`Lower::SLICE`] of the budget: small levels are answered there,
//! the same way every time) and beside the calls only when that runs out;
//! but on a puzzle with more decisions than
//! `Options::lower_bound_wait_decisions`, the questions after each
//! candidate go beside the calls at once. A refutation that arrives during
//! a call interrupts it ([`crate::sat::Backend::interrupt_on`]). A new
//! question (after a new candidate) stops the search still running beside
//! the calls and reads its answer. With one thread every search runs to
//! its full budget while the loop waits.
//!
//! A bound may also have a deeper search ([`LowerBound::allows_deeper`]):
//! the loop asks it only after the plain search allowed one unit under a
//! verified candidate, with a small budget (with a second core, beside the
//! neighbourhood search's calls: at once or after a slice, as above), then,
//! if that runs out, beside the next call over the whole instance
//! (`Loop::ask_deeper`, `Loop::deeper_beside`).
//!
//! An answer read late means the same as one read at once: a refutation of
//! "cost at most `k`" holds whatever the solver has found since, and the
//! solver can find nothing that costs at most `k` once it holds.

use crate::puzzle::{Bound, LowerBound};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// One question: could a candidate cost at most `top`? Searched with the
/// bounds `from`, `2 from`, `4 from`, ... up to `top` under one `budget`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Question {
    pub from: usize,
    pub top: usize,
    pub budget: u64,
    /// What a refutation proves: no candidate costs at most this (`None`:
    /// none at all).
    pub claim: Option<usize>,
    /// Asked after a verified candidate (an answer that runs out of budget
    /// then ends the questions; see `Loop::on_lower`).
    pub after_candidate: bool,
    /// For the deeper bound ([`LowerBound::allows_deeper`]), with the
    /// bound `top` alone.
    pub deeper: bool,
}

/// The answer to a [`Question`], with the work and time it took.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reply {
    pub question: Question,
    pub bound: Bound,
    pub work: u64,
    pub time: Duration,
    /// Searched beside the SAT calls rather than while the loop waited.
    pub beside: bool,
    /// The loop stopped the search (a newer question made it moot): an
    /// `OutOfBudget` then says nothing about the budget.
    pub stopped: bool,
}

/// A question as the thread gets it: searched beside the calls or not,
/// and the flag that stops it.
struct Asked {
    question: Question,
    beside: bool,
    stop: Arc<AtomicBool>,
}

/// The lower bound, owned by its thread.
pub(super) struct Lower {
    name: &'static str,
    /// Whether the bound has a deeper search.
    deeper: bool,
    questions: Sender<Asked>,
    replies: Receiver<Reply>,
    /// Questions sent whose replies the loop has not read.
    open: usize,
    /// The stop flag of the last question sent beside the calls.
    stop: Arc<AtomicBool>,
    /// Set by the thread when it sends a refutation.
    refuted: Arc<AtomicBool>,
}

impl Lower {
    /// The share of a question's budget the loop waits for before the
    /// search goes beside the SAT calls (a quarter: every search of the
    /// project's example levels but one first question fits in it).
    pub const SLICE: u64 = 4;

    /// Moves `lb` onto a thread of its own.
    pub fn new(lb: Box<dyn LowerBound>) -> Lower {
        let name = lb.name();
        let deeper = lb.has_deeper();
        let (questions, asked) = mpsc::channel::<Asked>();
        let (answer, replies) = mpsc::channel::<Reply>();
        let refuted = Arc::new(AtomicBool::new(false));
        let flag = refuted.clone();
        // If the thread cannot start, the first question finds the channel
        // closed and the loop goes on without a lower bound.
        let _ = thread::Builder::new()
            .name("cegar-lower-bound".into())
            .spawn(move || answer_questions(&*lb, &asked, &answer, &flag));
        Lower {
            name,
            deeper,
            questions,
            replies,
            open: 0,
            stop: Arc::new(AtomicBool::new(false)),
            refuted,
        }
    }

    /// Its name in claims.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Whether the bound has a deeper search.
    pub fn has_deeper(&self) -> bool {
        self.deeper
    }

    /// Set once a refutation has been sent (for interrupting a SAT call).
    pub fn refuted_flag(&self) -> Arc<AtomicBool> {
        self.refuted.clone()
    }

    /// Whether the thread has sent a refutation.
    pub fn refuted(&self) -> bool {
        self.refuted.load(Ordering::SeqCst)
    }

    /// Waits for the reply to a question sent beside the calls (`None`
    /// when none is open).
    pub fn wait(&mut self) -> Option<Reply> {
        if self.open == 0 {
            return None;
        }
        self.open -= 1;
        self.replies.recv().ok()
    }

    /// Whether a question is being searched beside the calls.
    pub fn busy(&self) -> bool {
        self.open > 0
    }

    /// Asks `q` and waits for the answer (`None`: the thread is gone).
    /// Only when no question is open.
    pub fn ask(&mut self, q: Question) -> Option<Reply> {
        debug_assert!(!self.busy());
        let asked = Asked {
            question: q,
            beside: false,
            stop: Arc::new(AtomicBool::new(false)),
        };
        self.questions.send(asked).ok()?;
        self.replies.recv().ok()
    }

    /// Asks `q` beside the calls; its reply comes through [`Lower::poll`].
    pub fn send(&mut self, q: Question) {
        self.stop = Arc::new(AtomicBool::new(false));
        let asked = Asked {
            question: q,
            beside: true,
            stop: self.stop.clone(),
        };
        if self.questions.send(asked).is_ok() {
            self.open += 1;
        }
    }

    /// Stops the search beside the calls soon (its reply still comes).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// A reply to a question sent beside the calls, if one has come.
    pub fn poll(&mut self) -> Option<Reply> {
        if self.open == 0 {
            return None;
        }
        match self.replies.try_recv() {
            Ok(r) => {
                self.open -= 1;
                Some(r)
            }
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.open = 0;
                None
            }
        }
    }
}

impl Drop for Lower {
    /// Stops the search still running beside the calls, so that a finished
    /// solve leaves no work on the other core; the thread then ends.
    fn drop(&mut self) {
        self.stop();
    }
}

/// The thread: answers questions in order until the loop drops its end.
fn answer_questions(
    lb: &dyn LowerBound,
    asked: &Receiver<Asked>,
    answer: &Sender<Reply>,
    refuted: &AtomicBool,
) {
    while let Ok(Asked {
        question,
        beside,
        stop,
    }) = asked.recv()
    {
        let t = Instant::now();
        let before = lb.work();
        let bound = match question.deeper {
            true => lb.allows_deeper(question.top, question.budget, &stop),
            false => search(lb, &question, &stop),
        };
        let reply = Reply {
            question,
            bound,
            work: lb.work() - before,
            time: t.elapsed(),
            beside,
            stopped: stop.load(Ordering::SeqCst),
        };
        if answer.send(reply).is_err() {
            return;
        }
        if bound == Bound::Refuted {
            refuted.store(true, Ordering::SeqCst);
        }
    }
}

/// Searches with the bounds `from`, `2 from`, `4 from`, ... up to `top`
/// under one budget (a search without a tight bound prunes little, while one
/// that finds a cheap way is quick): the first answer that is not a
/// refutation below `top`.
fn search(lb: &dyn LowerBound, q: &Question, stop: &AtomicBool) -> Bound {
    let until = lb.work() + q.budget;
    let mut k = q.from.max(1);
    loop {
        let k_now = k.min(q.top);
        match lb.allows_unless(k_now, until.saturating_sub(lb.work()), stop) {
            Bound::Refuted if k_now < q.top => k = k_now * 2,
            answer => return answer,
        }
    }
}
