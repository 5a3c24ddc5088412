//! Signals. Ctrl-C (or a SIGTERM, as `timeout` sends) during a long `solve` or
//! `bench`: the first interrupt asks them to stop and report what they have,
//! as at a timeout (`solve`: the best verified layout as `solved`, or
//! `unknown`; `bench`: the table so far); a second one ends the process at
//! once, as Ctrl-C usually does. And a closed pipe on stdout ends the process
//! quietly.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};

/// Set by the first Ctrl-C or SIGTERM after [`catch`].
static INTERRUPTED: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// The exit code after a second interrupt: 128 + SIGINT, as a shell reports it.
#[cfg(unix)]
const EXIT_INTERRUPTED: i32 = 130;

/// From now on, Ctrl-C (SIGINT) and SIGTERM set [`interrupted`] instead of
/// ending the process, and a second one ends it at once with code 130 (on
/// Unix; elsewhere they keep their usual effect). Calling it again does
/// nothing more.
pub fn catch() {
    #[cfg(unix)]
    {
        static CAUGHT: std::sync::Once = std::sync::Once::new();
        CAUGHT.call_once(register_handlers);
    }
}

/// The actions of SIGINT and SIGTERM, in the order they run: end the process
/// if an earlier signal set the flag, set it, and stop every solver.
#[cfg(unix)]
fn register_handlers() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::{flag, low_level};
    for signal in [SIGINT, SIGTERM] {
        let registered =
            flag::register_conditional_shutdown(signal, EXIT_INTERRUPTED, INTERRUPTED.clone())
                .and_then(|_| flag::register(signal, INTERRUPTED.clone()))
                // SAFETY: `stop_all` only stores to an atomic, which is
                // async-signal-safe. A `cmd:` solver running now is then
                // killed and its file removed, even when the signal reached
                // only this process.
                .and_then(|_| unsafe { low_level::register(signal, crate::sat::stop_all) });
        if let Err(e) = registered {
            note!("warning: cannot catch signal {signal} ({e}): it ends frosted at once");
        }
    }
}

/// Writing to a closed pipe (`frosted bench DIR | head -3`) ends the process
/// quietly, as it ends `cat` or `grep`, instead of a panic in `println!`
/// (Rust ignores SIGPIPE by default). Unix only.
pub fn quiet_broken_pipe() {
    // signal-hook only adds actions to a signal; restoring its default
    // action takes libc.
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
