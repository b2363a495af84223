//! `sokuc bench`: every instance of a batch file, per backend, with a summary; or every OPB
//! and CNF file of a folder or list, optionally next to an external solver (`--vs`).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::progress::{Kind, When};
use super::{BACKENDS_HELP, EncodingArgs, Exit, Format, OnOff, backend_list, print, seconds, whole};
use sokuc::exit;
use sokuc::{Batch, Error, FileBench, InputError};

#[derive(Args)]
pub struct BenchArgs {
    /// A batch file (one IcoSoKu instance per line: pegs A..L, optionally fixed tiles), given
    /// alone; or OPB/CNF files and folders (every .opb, .cnf, .dimacs of a folder, also
    /// .gz/.bz2/.xz, sorted by name).
    #[arg(required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,
    /// OPB/CNF files only: an external solver run on each file after sokuc, with the same
    /// --timeout (its process group is killed at the deadline). Split into words like a
    /// shell command (quotes, backslash) but run without a shell; every {} is replaced by
    /// the file's path (no {}: the path is appended). Its `s` line is compared with
    /// sokuc's, and its `v` model, if any, is checked by sokuc's verifier.
    #[arg(long, value_name = "'CMD {}'")]
    pub vs: Option<String>,
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
    /// As solve's --strict: an unsat, optimum or uniqueness verdict counts only with checked
    /// evidence or a second engine of another kind behind it; otherwise the run is unknown.
    /// Compare with a run without it to see what the second opinion costs.
    #[arg(long)]
    pub strict: bool,
    /// Print only the summary.
    #[arg(long)]
    pub quiet: bool,
    /// Time whole `sokuc solve` processes (start, parse, solve, print) instead of the
    /// in-process run path.
    #[arg(long)]
    pub spawn: bool,
    /// Summary format: text for people, json for programs (OPB/CNF files: one JSON line per
    /// file, then a {"summary": ...} line).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(a: BenchArgs) -> Exit {
    let batch_file = match a.inputs.as_slice() {
        [one] if !FileBench::takes(one) => one.clone(),
        _ => return run_files(a),
    };
    if a.vs.is_some() {
        return Err(InputError::new(
            "--vs",
            None,
            "--vs takes OPB or CNF files or folders, not a 3SoKu batch",
        )
        .into());
    }
    let mut batch = Batch::read(&batch_file)?;
    if let Some(n) = a.limit {
        if n == 0 {
            return Err(InputError::new("--limit", None, "--limit 0 leaves no instance to run").into());
        }
        batch.truncate(n);
    }
    let mut opts = a.enc.options(a.timeout).strict(a.strict);
    if let Some(s) = a.seed {
        opts = opts.seed(s);
    }
    let backends = backend_list(&a.backend)?;
    let mut summaries = Vec::new();
    let stdout = std::io::stdout();
    // Runs done of all, on standard error when it is a terminal: each run writes one row.
    let done = sokuc::Progress::default();
    done.set_total(u64::try_from(batch.len() * backends.len()).unwrap_or(u64::MAX));
    let shown = super::progress::show(
        &done,
        Kind::Steps {
            unit: "runs",
            figure: None,
        },
        When::Auto,
    );
    for &b in &backends {
        let inner: Box<dyn Write> = if a.quiet || a.format == Format::Json {
            Box::new(std::io::sink())
        } else {
            Box::new(stdout.lock())
        };
        let mut sink: Box<dyn Write> = Box::new(shown.writer(inner, &done, None));
        let summary = if a.spawn {
            let exe =
                std::env::current_exe().map_err(|e| Error::internal(format!("locating the sokuc executable: {e}")))?;
            let pb: sokuc::Encoding = a.enc.pb_encoding.into();
            let mut extra = vec!["--pb-encoding".to_string(), pb.name().to_string()];
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
            if a.strict {
                extra.push("--strict".to_string());
            }
            batch.bench_spawned(&exe, b, &extra, sink.as_mut())?
        } else {
            batch.bench(b, &opts, sink.as_mut())?
        };
        drop(sink);
        summaries.push(summary);
    }
    drop(shown);
    match a.format {
        Format::Text => {
            for s in &summaries {
                let _ = write!(stdout.lock(), "{}", s.text());
            }
        }
        Format::Json => {
            let all = serde_json::Value::Array(summaries.iter().map(|s| s.json()).collect());
            print(serde_json::to_string_pretty(&all).map_err(|e| Error::internal(e.to_string()))?)?
        }
    }
    // As for solve: an answer that is not known is not a success.
    Ok(if summaries.iter().any(|s| s.unknown() > 0) {
        exit::UNKNOWN
    } else {
        exit::SAT
    })
}

/// `bench` over OPB and CNF files and folders.
fn run_files(a: BenchArgs) -> Exit {
    let mut bench = FileBench::new(&a.inputs)?;
    if a.spawn {
        return Err(InputError::new("--spawn", None, "--spawn times 3SoKu batches only").into());
    }
    if let Some(n) = a.limit {
        if n == 0 {
            return Err(InputError::new("--limit", None, "--limit 0 leaves no file to run").into());
        }
        bench.truncate(n);
    }
    if let Some(cmd) = &a.vs {
        bench = bench.vs(cmd)?;
    }
    let mut opts = a.enc.options(a.timeout).strict(a.strict);
    if let Some(s) = a.seed {
        opts = opts.seed(s);
    }
    let bench = bench.backends(&backend_list(&a.backend)?).options(&opts);
    let stdout = std::io::stdout();
    let mut each = |r: &sokuc::BenchRow| {
        let mut out = stdout.lock();
        let _ = match a.format {
            Format::Json => writeln!(out, "{}", r.json()),
            Format::Text if a.quiet => Ok(()),
            Format::Text => write!(out, "{}", r.text()),
        };
        let _ = out.flush();
    };
    let report = bench.run(&mut each)?;
    match a.format {
        Format::Text => write!(stdout.lock(), "{}", report.text())?,
        Format::Json => print(serde_json::to_string(&report.json()).map_err(|e| Error::internal(e.to_string()))?)?,
    }
    Ok(report.exit_code())
}
