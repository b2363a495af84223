//! `sokuc bench`: every instance of a batch file, per backend, with a summary; or every OPB
//! and CNF file of a folder or list, optionally next to an external solver (`--vs`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use super::progress::{Kind, When};
use super::{BACKENDS_HELP, EncodingArgs, Exit, Format, OnOff, backend_list, print, seconds, whole};
use sokuc::Error;
use sokuc::bench;
use sokuc::bench::{external, files};
use sokuc::exit;
use sokuc::input::{InputError, batch};

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
        [one] if !one.is_dir() && !files::is_pb_file(one) => one.clone(),
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
    let mut items = batch::read_batch(&batch_file)?;
    if items.is_empty() {
        return Err(InputError::new(batch_file.display().to_string(), None, "the batch holds no instances").into());
    }
    if let Some(n) = a.limit {
        if n == 0 {
            return Err(InputError::new("--limit", None, "--limit 0 leaves no instance to run").into());
        }
        items.truncate(n);
    }
    let mut opts = a.enc.run(a.timeout);
    opts.solve.seed = a.seed;
    opts.strict = a.strict;
    let names = backend_list(&a.backend)?;
    let mut summaries = Vec::new();
    let stdout = std::io::stdout();
    // Runs done of all, on standard error when it is a terminal: each run writes one row.
    let done = sokuc::Progress::default();
    done.set_total(u64::try_from(items.len() * names.len()).unwrap_or(u64::MAX));
    let shown = super::progress::show(
        &done,
        Kind::Steps {
            unit: "runs",
            figure: None,
        },
        When::Auto,
    );
    for n in &names {
        let inner: Box<dyn Write> = if a.quiet || a.format == Format::Json {
            Box::new(std::io::sink())
        } else {
            Box::new(stdout.lock())
        };
        let mut sink: Box<dyn Write> = Box::new(shown.writer(inner, &done, None));
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
            if a.strict {
                extra.push("--strict".to_string());
            }
            bench::run_spawned(&items, &exe, n, &extra, sink.as_mut())?
        } else {
            bench::run(&items, n, &opts, sink.as_mut())?
        };
        drop(sink);
        summaries.push(bench::summarize(n, &rows));
    }
    drop(shown);
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

/// `bench` over OPB and CNF files and folders.
fn run_files(a: BenchArgs) -> Exit {
    let mut list = Vec::new();
    for p in &a.inputs {
        if p.is_dir() {
            let found = files::folder_files(p)?;
            if found.is_empty() {
                return Err(InputError::new(
                    p.display().to_string(),
                    None,
                    "the folder holds no .opb, .cnf or .dimacs file",
                )
                .into());
            }
            list.extend(found);
        } else if files::is_pb_file(p) {
            list.push(p.clone());
        } else {
            return Err(InputError::new(
                p.display().to_string(),
                None,
                "not an OPB or CNF file or a folder (a 3SoKu batch file is given alone)",
            )
            .into());
        }
    }
    if a.spawn {
        return Err(InputError::new("--spawn", None, "--spawn times 3SoKu batches only").into());
    }
    if let Some(n) = a.limit {
        if n == 0 {
            return Err(InputError::new("--limit", None, "--limit 0 leaves no file to run").into());
        }
        list.truncate(n);
    }
    let vs_words = match &a.vs {
        None => None,
        Some(cmd) => Some(external::split_words(cmd)?),
    };
    let mut opts = a.enc.run(a.timeout);
    opts.solve.seed = a.seed;
    opts.strict = a.strict;
    let names = backend_list(&a.backend)?;
    let plan = files::Plan {
        files: &list,
        backends: &names,
        opts: &opts,
        vs: vs_words.as_deref(),
    };
    let width = list
        .iter()
        .map(|p| p.file_name().map_or(0, |n| n.to_string_lossy().chars().count()))
        .max()
        .unwrap_or(0);
    let stdout = std::io::stdout();
    let load = |p: &Path| sokuc::registry::load(p, None);
    let mut each = |r: &files::FileRow| {
        let mut out = stdout.lock();
        let _ = match a.format {
            Format::Json => writeln!(out, "{}", files::row_json(r)),
            Format::Text if a.quiet => Ok(()),
            Format::Text => files::write_row(r, width, &mut out),
        };
        let _ = out.flush();
    };
    let rows = files::run(&plan, &load, &mut each)?;
    let summary = files::summarize(&rows, &names, a.vs.as_deref(), a.timeout);
    match a.format {
        Format::Text => files::write_summary(&summary, &mut stdout.lock())?,
        Format::Json => print(
            serde_json::to_string(&serde_json::json!({ "summary": summary }))
                .map_err(|e| Error::internal(e.to_string()))?,
        )?,
    }
    Ok(files::exit_code(&rows))
}
