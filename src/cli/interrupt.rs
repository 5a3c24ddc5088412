//! Signals. Ctrl-C (or a SIGTERM, as `timeout` sends) during a long `solve` or
//! `bench`: the first interrupt asks them to stop and report what they have,
//! as at a timeout (`solve`: the best verified layout as `solved`, or
//! `unknown`; `bench`: the table so far); a second one ends the process at
//! once, as Ctrl-C usually does. And a closed pipe on stdout ends the process
//! quietly.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_interrupt(_: libc::c_int) {
    // Only async-signal-safe work here: atomics, and `_exit`.
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // SAFETY: `_exit` is async-signal-safe and ends the process.
        unsafe { libc::_exit(130) };
    }
    // A `cmd:` solver running now is killed and its file removed, even when
    // the signal reached only this process.
    crate::sat::stop_all();
}

/// From now on, Ctrl-C (SIGINT) and SIGTERM set [`interrupted`] instead of
/// ending the process (on Unix; elsewhere they keep their usual effect).
pub fn catch() {
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only touches atomics and calls `_exit`.
        unsafe {
            libc::signal(
                signal,
                on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t,
            );
        }
    }
}

/// Writing to a closed pipe (`frosted bench DIR | head -3`) ends the process
/// quietly, as it ends `cat` or `grep`, instead of a panic in `println!`
/// (Rust ignores SIGPIPE by default). Unix only.
pub fn quiet_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: restores the default action of a signal.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Ctrl-C was pressed (or SIGTERM came) since [`catch`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
