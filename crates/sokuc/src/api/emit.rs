//! [`Instance::emit`](crate::Instance::emit) within the options' time limit, interrupt and
//! memory limit: what a caller that holds the text in memory (`sokuc serve`) needs bounded.

use std::io::Write;
use std::time::Instant;

use super::options::Options;
use crate::budget::memory::Guard;
use crate::budget::{Deadline, compiling_within};
use crate::encode::EncodeError;
use crate::error::Error;

/// How often (in bytes written) the writer looks at the clock and the resident size: a look
/// costs tens of nanoseconds, and the formats write a few bytes at a time.
const LOOK_EVERY: usize = 64 << 10;

/// Runs `emit` (a compile, an encode and the writing to `out`) within the options' time
/// limit and interrupt, when they set one: the compile and the encoder look at the deadline
/// as they go (through the thread's compile stop), and the writer between writes, so an
/// emit past its deadline ends within moments, with [`EncodeError::TimedOut`]. With a memory
/// limit, the writer also refuses to go on once the process holds more than it: the model
/// and its CNF are held beside what `out` keeps of the text until it is written.
pub(super) fn within(
    options: &Options,
    out: &mut dyn Write,
    emit: impl FnOnce(&mut dyn Write) -> Result<(), Error>,
) -> Result<(), Error> {
    let timed = options.timeout.is_some() || options.interrupt.is_some();
    if !timed && options.max_memory.is_none() {
        return emit(out);
    }
    let deadline = timed.then(|| {
        let started = options.started.unwrap_or_else(Instant::now);
        Deadline::counted_from(started, options.timeout, options.interrupt.clone())
    });
    let mut watched = Watched {
        out,
        deadline: deadline.clone(),
        guard: options.max_memory.map(|limit| (limit, Guard::new(limit, 1))),
        written: 0,
        // The first look comes once some text is out: a caller that holds the text then
        // has it to show beside the refusal.
        next_look: 1,
        over: None,
    };
    let emitted = match &deadline {
        Some(d) => compiling_within(d, || emit(&mut watched)),
        None => emit(&mut watched),
    };
    // Past the deadline, whatever came back is unusable: a compile that stopped returns a
    // partial model, and an encoder or the writer that stopped an error.
    if deadline.as_ref().is_some_and(Deadline::passed) {
        return Err(EncodeError::TimedOut.into());
    }
    if let (Some(rss), Some((limit, _))) = (watched.over, &watched.guard) {
        return Err(EncodeError::memory("writing the model", rss, *limit, "").into());
    }
    emitted
}

/// `out`, refused past the deadline or the memory limit: a write then fails, which ends the
/// emit. `over` is the resident size that passed the limit.
struct Watched<'a> {
    out: &'a mut dyn Write,
    deadline: Option<Deadline>,
    guard: Option<(u64, Guard)>,
    written: usize,
    next_look: usize,
    over: Option<u64>,
}

impl Write for Watched<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.written >= self.next_look {
            self.next_look = self.written + LOOK_EVERY;
            if self.deadline.as_ref().is_some_and(Deadline::passed) {
                return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "time limit"));
            }
            if let Some((_, guard)) = &mut self.guard
                && let Some(rss) = guard.over()
            {
                self.over = Some(rss);
                return Err(std::io::Error::other("over the memory limit"));
            }
        }
        let n = self.out.write(bytes)?;
        self.written += n;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
