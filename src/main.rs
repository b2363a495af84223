//! The `sokuc` command line. Errors are mapped to the exit codes of spec §3.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use clap::{Args, Parser, Subcommand, ValueEnum};

use sokuc::backend::{self, SolveOptions, Status};
use sokuc::encode::{EncodeOptions, PbEncoding, dimacs};
use sokuc::input::{self, InputError, answer, batch, instance_file, solution_json};
use sokuc::model::Instance;
use sokuc::pipeline::{self, PresolveMode, SokuResult};
use sokuc::{bench, export, report, verify};

const EXIT_SAT: u8 = 0;
const EXIT_INTERNAL: u8 = 1;
const EXIT_INPUT: u8 = 2;
const EXIT_INVALID: u8 = 3;
const EXIT_UNSAT: u8 = 20;
const EXIT_UNKNOWN: u8 = 30;

#[derive(Parser)]
#[command(
    name = "sokuc",
    version,
    about = "An encoding compiler for 3SoKu and related puzzles: compile, solve in-process, decode, verify."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve an instance (or write the compiled model with --emit).
    Solve(SolveArgs),
    /// Read an external solver's answer for a model emitted with the same options.
    Decode(DecodeArgs),
    /// Verify a solution (JSON as printed by `solve --format json`) against an instance.
    Check(CheckArgs),
    /// Solve every instance of a batch file and print per-instance times and a summary.
    Bench(BenchArgs),
    /// Run several backends on one instance; their statuses must agree.
    Compare(CompareArgs),
}

#[derive(Args)]
struct CompareArgs {
    #[command(flatten)]
    inst: InstanceArgs,
    #[command(flatten)]
    enc: EncodingArgs,
    /// Backends to run, comma-separated (default: every backend of this build).
    #[arg(long)]
    backends: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Time limit per backend, in seconds.
    #[arg(long)]
    timeout: Option<f64>,
}

#[derive(Args, Clone)]
struct InstanceArgs {
    /// Instance file (.toml for 3SoKu).
    instance: Option<PathBuf>,
    /// IcoSoKu pegs for vertices A..L, e.g. 1,5,11,10,7,12,9,2,6,8,4,3 (instead of a file).
    #[arg(long)]
    pegs: Option<String>,
}

#[derive(Args, Clone, Copy)]
struct EncodingArgs {
    /// How linear constraints (vertex sums, tile counts) become clauses.
    #[arg(long, value_enum, default_value_t = PbEncoding::Domain)]
    pb_encoding: PbEncoding,
    /// Presolve: necessary conditions and domain filtering before solving.
    #[arg(long, value_enum, default_value_t = OnOff::On)]
    presolve: OnOff,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum OnOff {
    On,
    Off,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Emit {
    Dimacs,
    Lp,
    Mps,
    Opb,
    Mzn,
}

#[derive(Args)]
struct SolveArgs {
    #[command(flatten)]
    inst: InstanceArgs,
    #[command(flatten)]
    enc: EncodingArgs,
    /// Backend: sat (varisat, embedded).
    #[arg(long, default_value = "sat")]
    backend: String,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Time limit in seconds; past it the answer is `unknown` (exit 30).
    #[arg(long)]
    timeout: Option<f64>,
    /// Random seed, for backends that use one.
    #[arg(long)]
    seed: Option<u64>,
    /// Write the compiled model in this format instead of solving.
    #[arg(long, value_enum)]
    emit: Option<Emit>,
    /// Output file for --emit (default: stdout).
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
    /// Write a DRAT proof of unsatisfiability (sat or cadical backend) for the CNF of --emit dimacs.
    #[arg(long)]
    proof: Option<PathBuf>,
}

#[derive(Args)]
struct DecodeArgs {
    #[command(flatten)]
    inst: InstanceArgs,
    #[command(flatten)]
    enc: EncodingArgs,
    /// The external solver's output: SAT-competition `s`/`v` lines (SAT solvers, minisat+,
    /// the MiniZinc export) or a CBC solution file (`cbc model.lp solve solu FILE`).
    #[arg(long)]
    solution: PathBuf,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Args)]
struct CheckArgs {
    instance: PathBuf,
    solution: PathBuf,
}

#[derive(Args)]
struct BenchArgs {
    /// Batch file: one IcoSoKu instance per line (pegs A..L, optionally fixed tiles).
    batch: PathBuf,
    #[command(flatten)]
    enc: EncodingArgs,
    /// Backends to run, comma-separated.
    #[arg(long, default_value = "sat")]
    backends: String,
    /// Per-instance time limit in seconds.
    #[arg(long)]
    timeout: Option<f64>,
    /// Only the first N instances.
    #[arg(long)]
    limit: Option<usize>,
    /// Print only the summary.
    #[arg(long)]
    quiet: bool,
    /// Time whole `sokuc solve` processes (start, parse, solve, print) instead of the
    /// in-process pipeline.
    #[arg(long)]
    spawn: bool,
    /// Summary as JSON.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) if is_broken_pipe(&e) => ExitCode::from(EXIT_SAT),
        Err(e) => {
            let code = if e.downcast_ref::<InputError>().is_some() {
                EXIT_INPUT
            } else {
                EXIT_INTERNAL
            };
            let mut msg = format!("{e}");
            if code == EXIT_INPUT {
                eprintln!("sokuc: error: {msg}");
            } else {
                for cause in e.chain().skip(1) {
                    msg.push_str(&format!(": {cause}"));
                }
                eprintln!("sokuc: internal error: {msg}");
            }
            ExitCode::from(code)
        }
    }
}

/// `sokuc ... | head` closes the pipe early; that is not an error worth reporting.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Solve(a) => solve(a),
        Command::Decode(a) => decode(a),
        Command::Check(a) => check(a),
        Command::Bench(a) => bench_cmd(a),
        Command::Compare(a) => compare(a),
    }
}

fn load_instance(a: &InstanceArgs) -> Result<Instance> {
    match (&a.instance, &a.pegs) {
        (Some(_), Some(_)) => {
            Err(InputError::new("command line", None, "give an instance file or --pegs, not both").into())
        }
        (None, None) => Err(InputError::new("command line", None, "give an instance file or --pegs").into()),
        (None, Some(p)) => Ok(instance_file::read_pegs(p)?),
        (Some(path), None) => {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            match ext {
                "toml" => Ok(instance_file::read_instance(path)?),
                "kakuro" | "tt" => Err(InputError::new(
                    path.display().to_string(),
                    None,
                    format!(".{ext} puzzles are not supported yet (3SoKu .toml files are)"),
                )
                .into()),
                _ => Err(InputError::new(
                    path.display().to_string(),
                    None,
                    "unknown puzzle kind: expected a .toml 3SoKu instance",
                )
                .into()),
            }
        }
    }
}

fn encode_options(e: &EncodingArgs) -> (EncodeOptions, PresolveMode) {
    let mode = if e.presolve == OnOff::On {
        PresolveMode::On
    } else {
        PresolveMode::Off
    };
    (EncodeOptions { pb: e.pb_encoding }, mode)
}

fn timeout(t: Option<f64>) -> Result<Option<Duration>> {
    match t {
        None => Ok(None),
        Some(s) if (0.0..1e9).contains(&s) => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(InputError::new("--timeout", None, format!("{s} is not a number of seconds")).into()),
    }
}

fn get_backend(name: &str) -> Result<Box<dyn backend::Backend>> {
    backend::by_name(name).ok_or_else(|| {
        InputError::new(
            "--backend",
            None,
            format!(
                "unknown backend {name:?} (available: {})",
                backend::available().join(", ")
            ),
        )
        .into()
    })
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, renamed into place, so
/// a failure never leaves a partial file.
fn write_atomic(path: &Path, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| InputError::new(path.display().to_string(), None, "not a file name"))?;
    let tmp = dir.join(format!(".{}.sokuc-tmp-{}", name.to_string_lossy(), std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        write(&mut f)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(InputError::new(path.display().to_string(), None, format!("cannot write: {e}")).into());
    }
    Ok(())
}

fn print_result(inst: &Instance, r: &SokuResult, format: Format) -> u8 {
    match format {
        Format::Text => print!("{}", report::text::soku(inst, r)),
        Format::Json => println!("{}", report::json::soku(inst, r)),
    }
    match r.status {
        Status::Sat => EXIT_SAT,
        Status::Unsat => EXIT_UNSAT,
        Status::Unknown => EXIT_UNKNOWN,
    }
}

fn solve(a: SolveArgs) -> Result<u8> {
    let inst = load_instance(&a.inst)?;
    let (enc, mode) = encode_options(&a.enc);
    if let Some(format) = a.emit {
        // Compile once, into the form this format needs.
        let write = |w: &mut dyn Write| match format {
            Emit::Dimacs => {
                let e = pipeline::to_cnf(&inst, enc, mode);
                dimacs::write(w, &e.cnf, &e.header, &e.names, &e.aux)
            }
            rows_format => {
                let (formula, names, header) = pipeline::to_formula(&inst, mode);
                let writer = match rows_format {
                    Emit::Lp => export::write_lp,
                    Emit::Mps => export::write_mps,
                    Emit::Opb => export::write_opb,
                    _ => export::write_mzn,
                };
                writer(w, &formula, &names, &header)
            }
        };
        match &a.output {
            Some(p) => write_atomic(p, write)?,
            None => write(&mut std::io::stdout().lock()).context("writing to stdout")?,
        }
        return Ok(EXIT_SAT);
    }
    if a.output.is_some() {
        return Err(InputError::new("-o", None, "-o/--output goes with --emit").into());
    }
    let mut b = get_backend(&a.backend)?;
    let opts = SolveOptions {
        time_limit: timeout(a.timeout)?,
        proof: a.proof.clone(),
        seed: a.seed,
        encode: enc,
        ..Default::default()
    };
    let r = pipeline::solve(&inst, b.as_mut(), &opts, mode)?;
    Ok(print_result(&inst, &r, a.format))
}

fn decode(a: DecodeArgs) -> Result<u8> {
    let inst = load_instance(&a.inst)?;
    let (_enc, mode) = encode_options(&a.enc);
    let file = a.solution.display().to_string();
    let text = input::read_text(&a.solution)?;
    let compiled = pipeline::compile(&inst, mode);
    let names = || compiled.as_ref().map(|c| c.model.names()).unwrap_or_default();
    let ans = if answer::looks_like_highs(&text) {
        answer::parse_highs_solution(&file, &text, &names())?
    } else if answer::looks_like_cbc(&text) {
        answer::parse_cbc_solution(&file, &text, &names())?
    } else {
        answer::parse_sat_answer(&file, &text)?
    };
    let backend = "external".to_string();
    let r = match (ans, compiled) {
        (answer::Answer::Sat(vals), Ok(c)) => {
            let n = c.model.formula.num_vars as usize;
            if vals.len() < n {
                return Err(InputError::new(&file, None, format!("the answer gives {} variables but the model has {n} primary variables (was it emitted with the same options?)", vals.len())).into());
            }
            let missing = (0..n).find(|&i| vals[i].is_none());
            if let Some(i) = missing {
                return Err(InputError::new(
                    &file,
                    None,
                    format!(
                        "the answer has no value for variable {} ({})",
                        i + 1,
                        c.model.pool.name(sokuc::ir::Var(i as u32))
                    ),
                )
                .into());
            }
            let assignment: Vec<bool> = vals.iter().take(n).map(|v| v.unwrap_or(false)).collect();
            let placements = pipeline::finish(&inst, &c, &assignment, &backend).map_err(|e| {
                InputError::new(&file, None, format!("the answer is not a solution of this model: {e}"))
            })?;
            SokuResult {
                status: Status::Sat,
                placements: Some(placements),
                reason: None,
                verified: true,
                stats: Default::default(),
                backend,
            }
        }
        (answer::Answer::Sat(_), Err(reason)) => {
            return Err(InputError::new(
                &file,
                None,
                format!("the answer says SATISFIABLE, but presolve proves the instance unsatisfiable: {reason}"),
            )
            .into());
        }
        (answer::Answer::Unsat, Ok(_)) => SokuResult {
            status: Status::Unsat,
            placements: None,
            reason: Some("proven by the external solver".into()),
            verified: false,
            stats: Default::default(),
            backend,
        },
        (answer::Answer::Unsat, Err(reason)) => SokuResult {
            status: Status::Unsat,
            placements: None,
            reason: Some(format!("presolve: {reason}")),
            verified: false,
            stats: Default::default(),
            backend,
        },
        (answer::Answer::Unknown, _) => SokuResult {
            status: Status::Unknown,
            placements: None,
            reason: Some("the external solver gave no answer".into()),
            verified: false,
            stats: Default::default(),
            backend,
        },
    };
    Ok(print_result(&inst, &r, a.format))
}

fn check(a: CheckArgs) -> Result<u8> {
    let inst = load_instance(&InstanceArgs {
        instance: Some(a.instance.clone()),
        pegs: None,
    })?;
    let file = a.solution.display().to_string();
    let text = input::read_text(&a.solution)?;
    let placements = solution_json::parse_solution(&file, &text, &inst)?;
    match verify::soku::verify(&inst, &placements) {
        Ok(()) => {
            println!(
                "valid: {} placements, every vertex sum equals its capacity",
                placements.len()
            );
            Ok(EXIT_SAT)
        }
        Err(e) => {
            println!("invalid: {e}");
            Ok(EXIT_INVALID)
        }
    }
}

fn bench_cmd(a: BenchArgs) -> Result<u8> {
    let mut items = batch::read_batch(&a.batch)?;
    if let Some(n) = a.limit {
        items.truncate(n);
    }
    let (enc, mode) = encode_options(&a.enc);
    let opts = SolveOptions {
        time_limit: timeout(a.timeout)?,
        encode: enc,
        ..Default::default()
    };
    let names: Vec<String> = a
        .backends
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    for n in &names {
        get_backend(n)?;
    }
    let mut summaries = Vec::new();
    let stdout = std::io::stdout();
    for n in &names {
        let mut sink: Box<dyn Write> = if a.quiet || a.format == Format::Json {
            Box::new(std::io::sink())
        } else {
            Box::new(stdout.lock())
        };
        let rows = if a.spawn {
            let exe = std::env::current_exe().context("locating the sokuc executable")?;
            let mut extra = vec!["--pb-encoding".to_string(), a.enc.pb_encoding.name().to_string()];
            if mode == PresolveMode::Off {
                extra.extend(["--presolve".to_string(), "off".to_string()]);
            }
            if let Some(t) = a.timeout {
                extra.extend(["--timeout".to_string(), t.to_string()]);
            }
            bench::run_spawned(&items, &exe, n, &extra, sink.as_mut())?
        } else {
            bench::run(&items, n, &opts, mode, sink.as_mut()).map_err(|e| anyhow!(e))?
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
        Format::Json => println!("{}", serde_json::to_string_pretty(&summaries)?),
    }
    Ok(EXIT_SAT)
}

/// Exit code when backends disagree on the status: a loud error.
const EXIT_DISAGREE: u8 = 1;

fn compare(a: CompareArgs) -> Result<u8> {
    let inst = load_instance(&a.inst)?;
    let (enc, mode) = encode_options(&a.enc);
    let names: Vec<String> = match &a.backends {
        Some(list) => list
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        None => backend::available().iter().map(|s| s.to_string()).collect(),
    };
    let opts = SolveOptions {
        time_limit: timeout(a.timeout)?,
        encode: enc,
        ..Default::default()
    };
    let mut rows = Vec::new();
    for n in &names {
        let mut b = get_backend(n)?;
        let t = std::time::Instant::now();
        let r = pipeline::solve(&inst, b.as_mut(), &opts, mode)?;
        rows.push((n.clone(), r, t.elapsed().as_secs_f64() * 1e3));
    }
    let decided: Vec<&str> = rows
        .iter()
        .map(|(_, r, _)| r.status)
        .filter(|s| *s != Status::Unknown)
        .map(|s| s.as_str())
        .collect();
    let agree = decided.windows(2).all(|w| w[0] == w[1]);
    match a.format {
        Format::Json => {
            let list: Vec<serde_json::Value> = rows
                .iter()
                .map(|(n, r, ms)| {
                    serde_json::json!({
                        "backend": n,
                        "status": r.status.as_str(),
                        "verified": r.verified,
                        "build_ms": r.stats.build_ms,
                        "solve_ms": r.stats.solve_ms,
                        "total_ms": ms,
                        "model_vars": r.stats.vars,
                        "model_rows": r.stats.clauses,
                        "reason": r.reason,
                    })
                })
                .collect();
            println!(
                "{}",
                serde_json::json!({"instance": inst.source, "agree": agree, "results": list})
            );
        }
        Format::Text => {
            println!(
                "{:<8} {:<8} {:>10} {:>10} {:>10} {:>8} {:>8}  verified",
                "backend", "status", "build ms", "solve ms", "total ms", "vars", "rows"
            );
            for (n, r, ms) in &rows {
                println!(
                    "{:<8} {:<8} {:>10.3} {:>10.3} {:>10.3} {:>8} {:>8}  {}",
                    n,
                    r.status.as_str(),
                    r.stats.build_ms,
                    r.stats.solve_ms,
                    ms,
                    r.stats.vars,
                    r.stats.clauses,
                    if r.verified { "yes" } else { "-" }
                );
            }
        }
    }
    if !agree {
        let summary: Vec<String> = rows
            .iter()
            .map(|(n, r, _)| format!("{n}={}", r.status.as_str()))
            .collect();
        eprintln!(
            "sokuc: error: BACKENDS DISAGREE on {}: {}",
            inst.source,
            summary.join(", ")
        );
        return Ok(EXIT_DISAGREE);
    }
    Ok(match decided.first() {
        Some(&"sat") => EXIT_SAT,
        Some(&"unsat") => EXIT_UNSAT,
        _ => EXIT_UNKNOWN,
    })
}
