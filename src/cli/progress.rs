//! Progress on standard error while a long command works: an indicatif bar when standard
//! error is a terminal, nothing when it is piped (or, where the user asked for progress
//! anyway, a plain line every 30 s, for logs). The library only counts
//! ([`sokuc::Progress`]); a thread here draws what it counted.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sokuc::Progress;

/// What the counters mean: `steps` of a known total (with a figure beside them), or a count
/// that only grows.
#[derive(Clone, Copy)]
pub enum Kind {
    Steps {
        unit: &'static str,
        figure: Option<&'static str>,
    },
    Count {
        unit: &'static str,
    },
}

/// When to show progress.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// A bar when standard error is a terminal, else nothing.
    Auto,
    /// A bar on a terminal, else a line every 30 s.
    Always,
    Never,
}

/// A progress display, drawn until it is dropped.
pub struct Shown {
    bar: Option<ProgressBar>,
    stop: Arc<AtomicBool>,
    ticker: Option<JoinHandle<()>>,
}

/// How often the bar is redrawn, and how often a log line is written.
const TICK: Duration = Duration::from_millis(100);
const LOG_EVERY: Duration = Duration::from_secs(30);

/// Starts showing `progress` as `kind`.
pub fn show(progress: &Progress, kind: Kind, when: When) -> Shown {
    let terminal = std::io::stderr().is_terminal();
    let stop = Arc::new(AtomicBool::new(false));
    let bar = match (when, terminal) {
        (When::Never, _) | (When::Auto, false) => None,
        (_, true) => Some(new_bar(kind)),
        (When::Always, false) => None,
    };
    let log = when == When::Always && !terminal;
    if bar.is_none() && !log {
        return Shown {
            bar: None,
            stop,
            ticker: None,
        };
    }
    let (p, b, s) = (progress.clone(), bar.clone(), Arc::clone(&stop));
    let ticker = std::thread::Builder::new()
        .name("sokuc-progress".into())
        .spawn(move || tick(&p, kind, b.as_ref(), log, &s))
        .ok();
    Shown { bar, stop, ticker }
}

fn new_bar(kind: Kind) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(10));
    let template = match kind {
        Kind::Steps { unit, .. } => format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit} {{msg}}"),
        Kind::Count { unit } => format!("{{spinner}} {{elapsed_precise}} {{pos}} {unit} {{msg}}"),
    };
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("#>."));
    }
    bar
}

fn tick(p: &Progress, kind: Kind, bar: Option<&ProgressBar>, log: bool, stop: &AtomicBool) {
    let started = Instant::now();
    let mut logged = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        let now = p.get();
        let figure = match kind {
            Kind::Steps { figure: Some(f), .. } if now.figure > 0 => format!("({} {f})", now.figure),
            _ => String::new(),
        };
        // Steps are drawn once their total is known (a bar of 0/0 would look complete).
        let known = !matches!(kind, Kind::Steps { .. }) || now.total > 0;
        if let Some(bar) = bar.filter(|_| known) {
            if let Kind::Steps { .. } = kind {
                bar.set_length(now.total);
            }
            bar.set_position(now.done);
            bar.set_message(figure.clone());
        }
        if log && logged.elapsed() >= LOG_EVERY {
            logged = Instant::now();
            let of = match kind {
                Kind::Steps { unit, .. } => format!("{}/{} {unit}", now.done, now.total),
                Kind::Count { unit } => format!("{} {unit}", now.done),
            };
            eprintln!("sokuc: {of} {figure} after {:.0} s", started.elapsed().as_secs_f64());
        }
        std::thread::sleep(TICK);
    }
}

impl Shown {
    /// `inner`, counting into `progress` each line it is given (or each line equal to
    /// `separator`), and keeping the bar out of the way of what it writes.
    pub fn writer<W: Write>(&self, inner: W, progress: &Progress, separator: Option<&'static str>) -> Counting<W> {
        Counting {
            inner,
            bar: self.bar.clone(),
            progress: progress.clone(),
            separator,
            seen: 0,
        }
    }
}

impl Drop for Shown {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.ticker.take() {
            let _ = t.join();
        }
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// See [`Shown::writer`].
pub struct Counting<W> {
    inner: W,
    bar: Option<ProgressBar>,
    progress: Progress,
    separator: Option<&'static str>,
    seen: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = match &self.bar {
            Some(bar) => bar.suspend(|| self.inner.write(buf))?,
            None => self.inner.write(buf)?,
        };
        // The library writes whole lines (whole solutions, whole rows) in one call.
        let lines = buf[..n].split(|&b| b == b'\n');
        let counted = match self.separator {
            Some(sep) => lines.filter(|l| *l == sep.as_bytes()).count(),
            None => buf[..n].iter().filter(|&&b| b == b'\n').count(),
        };
        self.seen += u64::try_from(counted).unwrap_or(0);
        self.progress.set_done(self.seen);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &self.bar {
            Some(bar) => bar.suspend(|| self.inner.flush()),
            None => self.inner.flush(),
        }
    }
}
