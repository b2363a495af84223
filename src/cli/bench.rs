//! `sokuc bench`: every instance of a batch file, per backend, with a summary.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{BACKENDS_HELP, EncodingArgs, Exit, Format, OnOff, backend_list, print, seconds, whole};
use sokuc::Error;
use sokuc::bench;
use sokuc::error::exit;
use sokuc::input::{InputError, batch};

#[derive(Args)]
pub struct BenchArgs {
    /// Batch file: one IcoSoKu instance per line (pegs A..L, optionally fixed tiles).
    pub batch: PathBuf,
    #[command(flatten)]
    pub enc: EncodingArgs,
    #[arg(long, alias = "backends", default_value = "auto", help = BACKENDS_HELP.as_str())]
    pub backend: String,
    /// Per-instance time limit in seconds.
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
    /// Random seed, for backends that take one (others refuse it), the same for every
    /// instance.
    #[arg(long, value_parser = whole::<u64>, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// Only the first N instances.
    #[arg(long, value_parser = whole::<usize>, allow_hyphen_values = true)]
    pub limit: Option<usize>,
    /// Print only the summary.
    #[arg(long)]
    pub quiet: bool,
    /// Time whole `sokuc solve` processes (start, parse, solve, print) instead of the
    /// in-process run path.
    #[arg(long)]
    pub spawn: bool,
    /// Summary format: text for people, json for programs.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(a: BenchArgs) -> Exit {
    let mut items = batch::read_batch(&a.batch)?;
    if items.is_empty() {
        return Err(InputError::new(a.batch.display().to_string(), None, "the batch holds no instances").into());
    }
    if let Some(n) = a.limit {
        if n == 0 {
            return Err(InputError::new("--limit", None, "--limit 0 leaves no instance to run").into());
        }
        items.truncate(n);
    }
    let mut opts = a.enc.run(a.timeout);
    opts.solve.seed = a.seed;
    let names = backend_list(&a.backend)?;
    let mut summaries = Vec::new();
    let stdout = std::io::stdout();
    for n in &names {
        let mut sink: Box<dyn Write> = if a.quiet || a.format == Format::Json {
            Box::new(std::io::sink())
        } else {
            Box::new(stdout.lock())
        };
        let rows = if a.spawn {
            let exe =
                std::env::current_exe().map_err(|e| Error::internal(format!("locating the sokuc executable: {e}")))?;
            let mut extra = vec!["--pb-encoding".to_string(), opts.solve.encode.pb.name().to_string()];
            if a.enc.presolve == OnOff::Off {
                extra.extend(["--presolve".to_string(), "off".to_string()]);
            }
            extra.extend(["--lp".to_string(), a.enc.lp.name().to_string()]);
            if let Some(t) = a.timeout {
                extra.extend(["--timeout".to_string(), t.as_secs_f64().to_string()]);
            }
            if let Some(s) = a.seed {
                extra.extend(["--seed".to_string(), s.to_string()]);
            }
            bench::run_spawned(&items, &exe, n, &extra, sink.as_mut())?
        } else {
            bench::run(&items, n, &opts, sink.as_mut())?
        };
        drop(sink);
        summaries.push(bench::summarize(n, &rows));
    }
    match a.format {
        Format::Text => {
            for s in &summaries {
                bench::print_summary(s, &mut stdout.lock());
            }
        }
        Format::Json => print(serde_json::to_string_pretty(&summaries).map_err(|e| Error::internal(e.to_string()))?)?,
    }
    // As for solve: an answer that is not known is not a success.
    Ok(if summaries.iter().any(|s| s.unknown > 0) {
        exit::UNKNOWN
    } else {
        exit::SAT
    })
}
