//! SIGINT and SIGTERM on commands that solve: the first sets the interrupt flag, which every
//! search, encoder and waiting thread already looks at (it ends their time limits), so the
//! command ends as at a time limit, with everything found so far written, and `main` exits
//! 130. A second signal ends the process at once (exit 130), for a stage that does not look.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::flag;

/// The exit code of a command ended by a signal (the shell's 128 + SIGINT, for SIGTERM too:
/// the command ended in order, which a death by SIGTERM, 143, would not say).
pub const INTERRUPTED: u8 = 130;

/// The handlers, once installed.
static INSTALLED: OnceLock<Signals> = OnceLock::new();

/// The handlers of the command.
struct Signals {
    flag: Arc<AtomicBool>,
    /// The last signal that came (0: none).
    which: Arc<AtomicUsize>,
}

/// Installs the handlers and makes their flag the process's interrupt flag
/// ([`sokuc::interrupt_process_on`]). Called only for commands that solve, so that
/// `--version`, `--help` and quick commands pay nothing. A handler that cannot be installed
/// leaves the signal's default (the process ends), as before this module.
pub fn install() {
    INSTALLED.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let which = Arc::new(AtomicUsize::new(0));
        for sig in [SIGINT, SIGTERM] {
            // The shutdown first: it acts only once the flag is set, i.e. on a second signal.
            let _ = flag::register_conditional_shutdown(sig, i32::from(INTERRUPTED), flag.clone());
            let _ = flag::register_usize(sig, which.clone(), sig as usize);
            let _ = flag::register(sig, flag.clone());
        }
        sokuc::interrupt_process_on(flag.clone());
        Signals { flag, which }
    });
}

/// The interrupt flag, for options that take one ([`sokuc::Options::interrupt`]);
/// `None` before [`install`].
pub fn flag() -> Option<Arc<AtomicBool>> {
    INSTALLED.get().map(|s| s.flag.clone())
}

/// The signal that interrupted the command, by name.
pub fn caught() -> Option<&'static str> {
    let s = INSTALLED.get()?;
    if !s.flag.load(Ordering::SeqCst) {
        return None;
    }
    Some(match s.which.load(Ordering::SeqCst) as i32 {
        SIGTERM => "SIGTERM",
        _ => "SIGINT",
    })
}
