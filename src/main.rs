//! The `sokuc` command line. Errors are mapped to the exit codes of spec §3.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use clap::{Args, Parser, Subcommand, ValueEnum};

use sokuc::backend::{self, SolveOptions, Status};
use sokuc::encode::{EncodeOptions, PbEncoding, dimacs};
use sokuc::grid_pipeline::{self, GridPuzzle, GridResult};
use sokuc::input::{self, InputError, answer, batch, instance_file, solution_json};
use sokuc::model::Instance;
use sokuc::pipeline::{self, PresolveMode, SokuResult};
use sokuc::render::Scene;
use sokuc::words::{count, count_s};
use sokuc::{bench, export, report, sweep, verify};

const EXIT_SAT: u8 = 0;
/// `println!` that returns the write error (a closed pipe) instead of panicking on it.
macro_rules! outln {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout().lock(), $($arg)*)?
    };
}

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
    /// Solve every capacity arrangement of a variant up to symmetry, verifying each answer.
    Sweep(SweepArgs),
    /// Make a puzzle with exactly one solution (trickytriple).
    Generate(GenerateArgs),
    /// All-different triangular solutions (Liu et al.): the 24 tile types of weights 0..3,
    /// each at most once, on the icosahedron, with given or free pegs.
    Adts(AdtsArgs),
    /// Combine the results files of `sweep --shard K/N` runs into one, checking that every
    /// instance is there exactly once.
    SweepMerge(SweepMergeArgs),
    /// Solve with a certificate: a verified answer, or a DRAT proof of unsatisfiability for
    /// the emitted CNF, checked by drat-trim.
    Certify(CertifyArgs),
    /// Draw a 3SoKu instance, or a solution of it, as an SVG net of the polyhedron.
    Render(RenderArgs),
    /// Scaling benchmark: solve time against faces, per backend, on generated 3SoKu families
    /// (random solvable, Partition reduction, 4-unsat); prints per-instance lines and a table.
    Scaling(ScalingArgs),
}

#[derive(Args)]
struct ScalingArgs {
    /// Families to run, comma-separated: random, partition, partition-wide, 4-unsat.
    #[arg(long, default_value = "random,partition,4-unsat")]
    families: String,
    /// Backends to run, comma-separated.
    #[arg(long, default_value = "sat,search")]
    backends: String,
    /// Instances per size step (seeds 0..N).
    #[arg(long, default_value_t = 5, value_parser = whole::<u64>, allow_hyphen_values = true)]
    reps: u64,
    /// Largest number of faces.
    #[arg(long, default_value_t = 128, value_parser = whole::<usize>, allow_hyphen_values = true)]
    max_faces: usize,
    /// Per-instance time limit in seconds.
    #[arg(long, default_value_t = 10.0, value_parser = seconds, allow_hyphen_values = true)]
    timeout: f64,
    #[command(flatten)]
    enc: EncodingArgs,
    /// Only the table, not the per-instance lines.
    #[arg(long)]
    quiet: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Args)]
struct RenderArgs {
    #[command(flatten)]
    inst: InstanceArgs,
    /// A solution to draw (JSON as printed by `solve --format json`); without it the empty
    /// instance is drawn, with its fixed tiles.
    #[arg(long)]
    solution: Option<PathBuf>,
    /// The SVG file to write.
    #[arg(short = 'o', long)]
    output: PathBuf,
    /// Write every weight as a number (default: dots up to 3, numbers above).
    #[arg(long)]
    numbers: bool,
}

#[derive(Args)]
struct CertifyArgs {
    #[command(flatten)]
    inst: InstanceArgs,
    #[command(flatten)]
    enc: EncodingArgs,
    /// A SAT backend that writes DRAT proofs: sat (varisat) or cadical.
    #[arg(long, default_value = "sat")]
    backend: String,
    /// The DRAT checker (default: $SOKUC_DRAT_TRIM, drat-trim on PATH, or target/tools/drat-trim).
    #[arg(long)]
    checker: Option<PathBuf>,
    /// Keep the CNF and the proof in this directory (default: a temporary one, removed).
    #[arg(long)]
    keep: Option<PathBuf>,
    /// Time limit in seconds, for the solver and for the checker each.
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
    timeout: Option<f64>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Args)]
struct SweepArgs {
    /// A variant (built-in name or .toml file), or a 3SoKu instance file whose variant, tiles
    /// and capacity multiset are swept.
    #[arg(default_value = "icosahedron")]
    what: String,
    /// Tiles: a built-in set (icosoku) or a list like "0,0,1;0,1,2;..." (default: the
    /// instance's tiles, or icosoku for the icosahedron).
    #[arg(long)]
    tiles: Option<String>,
    /// The capacity multiset, e.g. 1,2,3,4 (default: the instance's capacities, or 1..V).
    #[arg(long)]
    caps: Option<String>,
    /// Pool mode (Liu's all-different triangular solutions): faces take any of these types,
    /// each at most once. `all24` is every corner triple over 0..3 up to rotation.
    #[arg(long, conflicts_with = "tiles")]
    pool: Option<String>,
    /// Print the number of canonical instances (orbits) and stop.
    #[arg(long)]
    count_only: bool,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = whole::<usize>, allow_hyphen_values = true)]
    threads: Option<usize>,
    /// Backend: search (default; one engine per worker, reused across instances) or any
    /// other backend (a fresh pipeline run per instance).
    #[arg(long, default_value = "search")]
    backend: String,
    /// Take only the blocks of instances whose block number (index / block size) is K
    /// modulo N (0 <= K < N).
    #[arg(long)]
    shard: Option<String>,
    /// Block size: consecutive canonical instances that go to the same shard and share the
    /// search engine's carried solution; answers depend only on the block size.
    #[arg(long, default_value_t = sweep::run::DEFAULT_BLOCK, value_parser = clap::value_parser!(u64).range(1..), allow_hyphen_values = true)]
    block: u64,
    /// Results file: a header and one record per instance, in order.
    #[arg(long, short = 'o')]
    out: Option<PathBuf>,
    /// Continue the results file given with --out where it stopped.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Only the first M instances (of this shard).
    #[arg(long, value_parser = whole::<usize>, allow_hyphen_values = true)]
    limit: Option<usize>,
    /// Per-instance time limit in seconds (past it the record says unknown).
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
    timeout: Option<f64>,
    /// Progress on stderr: auto (when stderr is a terminal), on or off.
    #[arg(long, value_enum, default_value_t = Progress::Auto)]
    progress: Progress,
    /// Summary format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Args)]
struct GenerateArgs {
    /// Puzzle kind: 3soku (random solvable, --from-partition, --four-unsat) or trickytriple.
    #[arg(value_enum)]
    kind: GenerateKind,
    /// Random seed (the same seed gives the same puzzle).
    #[arg(long, default_value_t = 1, value_parser = whole::<u64>, allow_hyphen_values = true)]
    seed: u64,
    /// Write the puzzle here (default: stdout).
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
    /// trickytriple: side of the square grid.
    #[arg(long, value_parser = whole::<usize>, allow_hyphen_values = true)]
    size: Option<usize>,
    /// trickytriple: percentage of black cells.
    #[arg(long, default_value_t = 10, value_parser = whole::<u32>, allow_hyphen_values = true)]
    black: u32,
    /// 3soku: the variant (a built-in name or a variant file).
    #[arg(long, default_value = "icosahedron")]
    variant: String,
    /// 3soku: the tiles: a built-in set (icosoku) or a list such as "0,1,2;0,0,1;...".
    /// Default: icosoku on a 20-face variant, else random tiles.
    #[arg(long)]
    tiles: Option<String>,
    /// 3soku: random tiles have weights 0..=N.
    #[arg(long, default_value_t = 3, value_parser = whole::<u64>, allow_hyphen_values = true)]
    max_weight: u64,
    /// 3soku: pre-place this many tiles where the planted solution has them.
    #[arg(long, default_value_t = 0, value_parser = whole::<usize>, allow_hyphen_values = true)]
    fixed: usize,
    /// 3soku: pre-placed tiles keep their turn (default: the turn is left free).
    #[arg(long)]
    fixed_rotation: bool,
    /// 3soku: seed 000's Partition reduction for these sizes, e.g. 3,1,1,2,2,1: a bipyramid
    /// that is solvable exactly when the sizes split into two equal halves.
    #[arg(long, value_name = "SIZES", conflicts_with_all = ["random_partition", "four_unsat"])]
    from_partition: Option<String>,
    /// 3soku: the Partition reduction for N random sizes in 1..=--max-size (total made even).
    #[arg(long, value_name = "N", conflicts_with = "four_unsat", value_parser = whole::<usize>, allow_hyphen_values = true)]
    random_partition: Option<usize>,
    /// 3soku: largest size for --random-partition.
    #[arg(long, default_value_t = 20, value_parser = whole::<u64>, allow_hyphen_values = true)]
    max_size: u64,
    /// 3soku: seed 000's "4-unsat" family: a solvable instance with one capacity raised by 1
    /// and --fixed tiles (default 4) pre-placed with a free turn.
    #[arg(long)]
    four_unsat: bool,
}

#[derive(Args)]
struct AdtsArgs {
    /// Pegs for vertices A..L (default: free, any arrangement of 1..12).
    #[arg(long)]
    pegs: Option<String>,
    /// The types faces may take, each at most once: all24 (default) or "a,b,c;...".
    #[arg(long, default_value = "all24")]
    pool: String,
    /// Liu's Q3: for every 20-subset of the 24 types, is there an ADTS with free pegs that
    /// uses exactly those types? Prints one line per subset that passes the weight test.
    #[arg(long, conflicts_with_all = ["pegs", "pool"])]
    subsets: bool,
    #[arg(long, default_value = "sat")]
    backend: String,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Time limit in seconds; past it the answer is `unknown` (exit 30).
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
    timeout: Option<f64>,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum GenerateKind {
    Trickytriple,
    #[value(name = "3soku")]
    Soku,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Progress {
    Auto,
    On,
    Off,
}

#[derive(Args)]
struct SweepMergeArgs {
    /// Results files of the shards (every K of one K/N split).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the combined results file here (identical to a single run's).
    #[arg(long, short = 'o')]
    out: Option<PathBuf>,
    /// Summary format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
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
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
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
    /// Clause budget of the CNF encoding: a larger model is refused with a clear error
    /// instead of exhausting memory.
    #[arg(long, default_value_t = sokuc::encode::DEFAULT_MAX_CLAUSES, value_parser = whole::<u64>, allow_hyphen_values = true)]
    max_clauses: u64,
    /// Memory limit (bytes, or with a K, M, G or T suffix): a model whose estimated size
    /// exceeds it is refused before it is built, and building stops if the process passes it.
    #[arg(long, default_value = "8G", value_parser = sokuc::backend::memory::parse_size)]
    max_memory: u64,
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
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
    timeout: Option<f64>,
    /// Random seed, for backends that use one.
    #[arg(long, value_parser = whole::<u64>, allow_hyphen_values = true)]
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
    /// Grid puzzles: after the first solution, prove it unique or show a second one.
    #[arg(long)]
    unique: bool,
    /// 3SoKu: also draw the answer as an SVG net of the polyhedron (the empty instance when
    /// there is no solution).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
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
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
    timeout: Option<f64>,
    /// Only the first N instances.
    #[arg(long, value_parser = whole::<usize>, allow_hyphen_values = true)]
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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) if is_broken_pipe(&e) => ExitCode::from(EXIT_SAT),
        Err(e) => {
            let code = if is_user_error(&e) { EXIT_INPUT } else { EXIT_INTERNAL };
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

/// Argument errors keep the one-line `sokuc: error: ...` form of every other user error
/// (clap's own report spans several lines); help and version still print in full.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::from(EXIT_SAT);
    }
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = e.print();
        return ExitCode::from(EXIT_INPUT);
    }
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or("invalid arguments");
    let first = first.strip_prefix("error: ").unwrap_or(first).trim();
    // Of clap's extra lines, the allowed values and "a similar argument exists: '--backend'"
    // are worth keeping.
    let extra: String = text
        .lines()
        .map(str::trim)
        .filter_map(|l| {
            l.strip_prefix("tip: ")
                .filter(|t| t.contains("similar"))
                .or_else(|| l.strip_prefix("[possible values: ").and_then(|v| v.strip_suffix(']')))
                .map(|v| {
                    if l.starts_with('[') {
                        format!("; possible values: {v}")
                    } else {
                        format!("; {v}")
                    }
                })
        })
        .collect();
    // Point to the help of the subcommand that was called, if it exists.
    let command = std::env::args()
        .nth(1)
        .filter(|a| <Cli as clap::CommandFactory>::command().find_subcommand(a).is_some())
        .map_or("sokuc".to_string(), |a| format!("sokuc {a}"));
    eprintln!("sokuc: error: {first}{extra} (see {command} --help)");
    ExitCode::from(EXIT_INPUT)
}

/// Errors that are the user's to fix (exit 2): bad input, an output path that cannot be
/// written or is an input, a limit the model exceeds, an option the backend cannot honour.
fn is_user_error(e: &anyhow::Error) -> bool {
    e.downcast_ref::<InputError>().is_some()
        || e.downcast_ref::<sokuc::output::OutputError>().is_some()
        || is_resource_limit(e)
}

/// A model too large for the chosen encoding, or an option the backend lacks: the user's
/// request, not a bug (exit 2).
fn is_resource_limit(e: &anyhow::Error) -> bool {
    use sokuc::backend::BackendError;
    let backend = |b: &BackendError| matches!(b, BackendError::Encode(_) | BackendError::Unsupported { .. });
    e.downcast_ref::<sokuc::encode::EncodeError>().is_some()
        || e.downcast_ref::<BackendError>().is_some_and(backend)
        || matches!(e.downcast_ref::<pipeline::PipelineError>(), Some(pipeline::PipelineError::Backend(b)) if backend(b))
        || matches!(e.downcast_ref::<sokuc::adts::PoolError>(), Some(sokuc::adts::PoolError::Backend(b)) if backend(b))
        || matches!(e.downcast_ref::<grid_pipeline::GridError>(), Some(grid_pipeline::GridError::Backend(b)) if backend(b))
}

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
        Command::Sweep(a) => sweep_cmd(a),
        Command::Generate(a) => generate(a),
        Command::Adts(a) => adts_cmd(a),
        Command::SweepMerge(a) => sweep_merge(a),
        Command::Certify(a) => certify_cmd(a),
        Command::Render(a) => render_cmd(a),
        Command::Scaling(a) => scaling_cmd(a),
    }
}

/// `certify`: solve; a sat answer is verified as always, an unsat one must come with a DRAT
/// proof that drat-trim accepts for the CNF `--emit dimacs` writes with the same options. When
/// presolve refutes the instance, its argument is printed and the plain model (presolve off)
/// is refuted with a checked proof as well.
fn certify_cmd(a: CertifyArgs) -> Result<u8> {
    use sokuc::certify;
    let inst = load_instance(&a.inst)?;
    let (enc, asked_mode) = encode_options(&a.enc);
    let limit = timeout(a.timeout)?;
    let checker =
        certify::find_checker(a.checker.as_deref()).map_err(|e| InputError::new("--checker", None, e.to_string()))?;
    if !checker.is_file() {
        return Err(InputError::new("--checker", None, format!("{} does not exist", checker.display())).into());
    }
    let mut presolve_reason = None;
    let mode = match (asked_mode, sokuc::pipeline::compile(&inst, asked_mode)) {
        (PresolveMode::On, Err(reason)) => {
            presolve_reason = Some(reason);
            PresolveMode::Off
        }
        _ => asked_mode,
    };
    let (dir, temporary) = match &a.keep {
        Some(d) => {
            std::fs::create_dir_all(d)
                .map_err(|e| InputError::new(d.display().to_string(), None, format!("cannot create: {e}")))?;
            (d.clone(), false)
        }
        None => {
            let d = std::env::temp_dir().join(format!("sokuc-certify-{}", std::process::id()));
            std::fs::create_dir_all(&d).with_context(|| format!("creating {}", d.display()))?;
            (d, true)
        }
    };
    let result = (|| -> Result<u8> {
        let cnf_path = dir.join("model.cnf");
        let proof_path = dir.join("proof.drat");
        let mut b = get_backend(&a.backend)?;
        if !b.capabilities().proof {
            return Err(unsupported(&a.backend, "--backend", "DRAT proofs", |c| c.proof).into());
        }
        let e = pipeline::to_cnf(&inst, enc, mode)?;
        write_atomic(&cnf_path, |w| dimacs::write(w, &e.cnf, &e.header, &e.names, &e.aux))?;
        // Like every output, the proof is written beside its place and moved there whole.
        let proof = sokuc::output::Pending::new(&proof_path)?;
        let opts = SolveOptions {
            time_limit: limit,
            proof: Some(proof.path().to_path_buf()),
            encode: enc,
            ..Default::default()
        };
        let r = pipeline::solve(&inst, b.as_mut(), &opts, mode)?;
        proof.commit()?;
        let report = match r.status {
            Status::Unsat => Some(certify::check(&checker, &cnf_path, &proof_path, limit)?),
            _ => None,
        };
        let mut out = std::io::stdout().lock();
        let verdict = certify::verdict(
            presolve_reason.is_some(),
            r.status,
            r.verified,
            report.as_ref().map(|rep| rep.verified),
        );
        let code = match verdict {
            certify::Verdict::Sat => EXIT_SAT,
            certify::Verdict::Unsat => EXIT_UNSAT,
            certify::Verdict::Unknown => EXIT_UNKNOWN,
            _ => EXIT_INTERNAL,
        };
        let contradiction = verdict == certify::Verdict::PresolveContradiction;
        if contradiction {
            // Loud, on stderr, whatever the format: presolve decides every `solve`, so a
            // wrong refutation is a wrong "unsat" everywhere (issue 13).
            eprintln!(
                "sokuc: {}",
                certify::contradiction_message(presolve_reason.as_deref().unwrap_or_default())
            );
        }
        if a.format == Format::Json {
            let v = serde_json::json!({
                "status": r.status.as_str(),
                "instance": inst.source,
                "backend": r.backend,
                "verified": r.verified,
                "presolve": presolve_reason,
                "verdict": verdict,
                "proof": report,
                "checker": checker.display().to_string(),
                "cnf": a.keep.as_ref().map(|_| cnf_path.display().to_string()),
            });
            writeln!(out, "{v}")?;
            return Ok(code);
        }
        if let Some(reason) = &presolve_reason {
            if contradiction {
                writeln!(
                    out,
                    "presolve claimed UNSAT ({reason}), but the model without presolve has a verified solution:"
                )?;
            } else {
                writeln!(out, "UNSAT (presolve: {reason})")?;
                if verdict == certify::Verdict::Unsat {
                    writeln!(out, "the model without presolve is refuted too, with a proof:")?;
                } else {
                    writeln!(out, "the model without presolve:")?;
                }
            }
        }
        match (&r.status, &report) {
            (Status::Sat, _) => {
                out.write_all(sokuc::report::text::soku(&inst, &r).as_bytes())?;
                writeln!(out, "SAT (answer verified)")?;
                if contradiction {
                    writeln!(out, "CONTRADICTION: presolve's refutation is wrong (a bug in sokuc)")?;
                }
            }
            (Status::Unsat, Some(rep)) if rep.verified => writeln!(
                out,
                "UNSAT (proof checked: {} lemmas, {} in the core; drat-trim {:.2} s)",
                rep.lemmas.map_or("?".into(), |n| n.to_string()),
                rep.core_lemmas.map_or("?".into(), |n| n.to_string()),
                rep.seconds
            )?,
            (Status::Unsat, Some(rep)) => {
                writeln!(out, "UNSAT CLAIM REJECTED: drat-trim did not verify the proof")?;
                for l in &rep.tail {
                    writeln!(out, "  {l}")?;
                }
            }
            _ => writeln!(out, "unknown: no answer within the time limit")?,
        }
        if a.keep.is_some() {
            writeln!(out, "kept {} and {}", cnf_path.display(), proof_path.display())?;
        }
        Ok(code)
    })();
    if temporary {
        let _ = std::fs::remove_dir_all(&dir);
    }
    result
}

fn sweep_error(e: sweep::run::SweepError) -> anyhow::Error {
    use sweep::run::SweepError as E;
    match e {
        E::Usage(m) => InputError::new("sweep", None, m).into(),
        E::File { file, line, message } => InputError::new(file, (line > 0).then_some(line), message).into(),
        E::Output(o) => o.into(),
        other => anyhow!(other),
    }
}

fn parse_tiles(s: &str) -> Result<Vec<sokuc::model::tiles::Tile>> {
    if let Some(t) = sokuc::model::builtin::tile_set(s) {
        return Ok(t);
    }
    let bad = |m: String| -> anyhow::Error { InputError::new("--tiles", None, m).into() };
    s.split(';')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            let w: Vec<u64> = t
                .split(',')
                .map(|x| {
                    x.trim()
                        .parse()
                        .map_err(|_| bad(format!("{x:?} is not a weight in tile {t:?}")))
                })
                .collect::<Result<_>>()?;
            <[u64; 3]>::try_from(w).map_err(|_| bad(format!("tile {t:?} needs three weights")))
        })
        .collect()
}

/// A comma-separated list of non-negative integers from the command line.
fn parse_numbers(option: &str, list: &str, what: &str) -> Result<Vec<u64>> {
    list.split(',')
        .map(|x| {
            x.trim()
                .parse()
                .map_err(|_| InputError::new(option, None, format!("{x:?} is not a {what}")).into())
        })
        .collect()
}

fn sweep_spec(a: &SweepArgs) -> Result<sweep::run::Spec> {
    let path = Path::new(&a.what);
    let is_instance = path.extension().is_some_and(|e| e == "toml")
        && std::fs::read_to_string(path)
            .map(|t| t.lines().any(|l| l.trim_start().starts_with("capacities")))
            .unwrap_or(false);
    let (variant, tiles, caps) = if is_instance {
        let inst = instance_file::read_instance(path)?;
        if !inst.fixed.is_empty() {
            return Err(InputError::new(&a.what, None, "sweep does not take fixed tiles").into());
        }
        (inst.variant, Some(inst.tiles), Some(inst.capacities))
    } else {
        let v = input::variant_file::load_variant(&a.what, None, ("command line", None))?;
        let tiles = (v.num_faces() == 20).then(|| sokuc::model::builtin::ICOSOKU_TILES.to_vec());
        (v, tiles, None)
    };
    let caps: Vec<u64> = match &a.caps {
        Some(c) => parse_numbers("--caps", c, "capacity")?,
        None => caps.unwrap_or_else(|| (1..=variant.num_vertices() as u64).collect()),
    };
    if caps.len() != variant.num_vertices() {
        return Err(InputError::new(
            "--caps",
            None,
            format!("{} capacities for {} vertices", caps.len(), variant.num_vertices()),
        )
        .into());
    }
    if let Some(p) = &a.pool {
        let types = if p == "all24" {
            sokuc::adts::all_types()
        } else {
            parse_tiles(p)?
        };
        if types.len() < variant.num_faces() {
            return Err(InputError::new(
                "--pool",
                None,
                format!("{} types for {} faces", types.len(), variant.num_faces()),
            )
            .into());
        }
        let mut spec = sweep::run::Spec::new(variant, types, caps);
        spec.pool = true;
        return Ok(spec);
    }
    let tiles = match &a.tiles {
        Some(t) => parse_tiles(t)?,
        None => tiles.ok_or_else(|| {
            InputError::new(
                "--tiles",
                None,
                format!("{} has no default tile set: give --tiles", variant.name),
            )
        })?,
    };
    if tiles.len() != variant.num_faces() {
        return Err(InputError::new(
            "--tiles",
            None,
            format!("{} tiles for {} faces", tiles.len(), variant.num_faces()),
        )
        .into());
    }
    Ok(sweep::run::Spec::new(variant, tiles, caps))
}

fn sweep_cmd(a: SweepArgs) -> Result<u8> {
    let spec = sweep_spec(&a)?;
    let mut out = std::io::stdout().lock();
    if a.count_only {
        let (g, n) = sweep::run::count_only(&spec);
        if a.format == Format::Json {
            writeln!(
                out,
                "{}",
                serde_json::json!({"variant": spec.variant.name, "symmetries": g, "instances": n})
            )?;
        } else {
            writeln!(out, "{n}")?;
            eprintln!(
                "sweep {}: {} ({})",
                spec.variant.name,
                count_s(n, "canonical instance"),
                count(g, "symmetry", "symmetries")
            );
        }
        return Ok(EXIT_SAT);
    }
    if a.backend != "search" {
        get_backend(&a.backend)?;
    }
    let shard = match &a.shard {
        Some(s) => sweep::run::Shard::parse(s).map_err(|m| InputError::new("--shard", None, m))?,
        None => sweep::run::Shard::ALL,
    };
    let opts = sweep::run::Options {
        threads: a
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        backend: a.backend.clone(),
        shard,
        block: a.block,
        out: a.out.clone(),
        resume: a.resume,
        limit: a.limit,
        timeout: timeout(a.timeout)?,
        progress: match a.progress {
            Progress::Auto => None,
            Progress::On => Some(true),
            Progress::Off => Some(false),
        },
    };
    let s = sweep::run::run(&spec, &opts).map_err(sweep_error)?;
    print_sweep_summary(&mut out, &spec.variant.name, &s, a.format)?;
    Ok(if s.unknown > 0 { EXIT_UNKNOWN } else { EXIT_SAT })
}

fn generate(a: GenerateArgs) -> Result<u8> {
    // Options of the other kind are refused rather than silently ignored.
    let soku_only = [
        ("--tiles", a.tiles.is_some()),
        ("--fixed", a.fixed > 0),
        ("--fixed-rotation", a.fixed_rotation),
        ("--from-partition", a.from_partition.is_some()),
        ("--random-partition", a.random_partition.is_some()),
        ("--four-unsat", a.four_unsat),
    ];
    if a.kind == GenerateKind::Soku {
        if a.size.is_some() {
            return Err(InputError::new("--size", None, "--size is for trickytriple; 3soku takes --variant").into());
        }
        return generate_soku(&a);
    }
    if let Some((opt, _)) = soku_only.iter().find(|(_, set)| *set) {
        return Err(InputError::new(*opt, None, format!("{opt} is for 3soku, not trickytriple")).into());
    }
    let Some(size) = a.size else {
        return Err(InputError::new("--size", None, "trickytriple needs --size (the side of the grid)").into());
    };
    if !(3..=200).contains(&size) {
        return Err(InputError::new("--size", None, format!("{size} is not a size from 3 to 200")).into());
    }
    if a.black > 50 {
        return Err(InputError::new("--black", None, "at most 50 percent black cells").into());
    }
    let t = std::time::Instant::now();
    let g = sokuc::tricky::generate::generate(size, size, a.seed, a.black);
    let ms = t.elapsed().as_secs_f64() * 1e3;
    // The solution must check out, and the file must read back as the same puzzle.
    sokuc::verify::tricky::verify(&g.puzzle, &g.solution).map_err(|e| anyhow!("generated solution is wrong: {e}"))?;
    let text = format!(
        "# Tricky Triple {0}x{0} made by sokuc generate (seed {1}, {2}% black cells)\n# {3} givens kept after {4} uniqueness checks; the solution is unique\n{5}",
        size,
        a.seed,
        a.black,
        g.givens,
        g.checks,
        g.puzzle.render(&vec![vec![None; size]; size]),
    );
    eprintln!("sokuc generate: {size}x{size} in {ms:.0} ms");
    let write = |w: &mut dyn Write| w.write_all(text.as_bytes());
    match &a.output {
        Some(p) => write_atomic(p, write)?,
        None => write(&mut std::io::stdout().lock()).context("writing to stdout")?,
    }
    Ok(EXIT_SAT)
}

/// `generate 3soku`: writes an instance file; its first lines say how it was made.
fn generate_soku(a: &GenerateArgs) -> Result<u8> {
    use sokuc::soku::generate::{self as generator, TileChoice};
    let generated_by = |what: String| format!("made by sokuc generate 3soku {what}");
    let (inst, variant_ref, note) = if a.from_partition.is_some() || a.random_partition.is_some() {
        let sizes = match (&a.from_partition, a.random_partition) {
            (Some(list), _) => parse_numbers("--from-partition", list, "size")?,
            (None, Some(n)) => {
                if !(1..=50_000).contains(&n) {
                    return Err(
                        InputError::new("--random-partition", None, format!("{n} sizes: give 1 to 50000")).into(),
                    );
                }
                if !(1..=generator::MAX_WEIGHT).contains(&a.max_size) {
                    return Err(InputError::new(
                        "--max-size",
                        None,
                        format!("{}: give 1 to {}", a.max_size, generator::MAX_WEIGHT),
                    )
                    .into());
                }
                generator::random_partition(n, a.max_size, a.seed)
            }
            _ => unreachable!("one of the two is set"),
        };
        let what = if a.from_partition.is_some() {
            "--from-partition"
        } else {
            "--random-partition"
        };
        let mut inst = generator::from_partition(&sizes).map_err(|e| InputError::new(what, None, e.to_string()))?;
        let list: Vec<String> = sizes.iter().map(u64::to_string).collect();
        let total: u64 = sizes.iter().sum();
        inst.source = generated_by(format!("--from-partition {}", list.join(",")));
        let name = inst.variant.name.clone();
        let note = format!(
            "Partition -> 3SoKu (seed 000, Lemma 1): sizes {} (total {total}) as tiles (s,0,0), {} blank tiles, capacity {} at both apices, 0 on the ring; solvable exactly when the sizes split into two halves of equal sum{}",
            list.join(","),
            inst.tiles.len() - sizes.len(),
            total / 2,
            if total % 2 == 1 {
                " (an odd total never does)"
            } else {
                ""
            }
        );
        (inst, name, note)
    } else {
        let v = sokuc::input::variant_file::load_variant(&a.variant, None, ("--variant", None))?;
        let tiles = match &a.tiles {
            Some(t) => TileChoice::List(parse_tiles(t)?),
            None if v.num_faces() == 20 => {
                TileChoice::List(sokuc::model::builtin::tile_set("icosoku").expect("built in"))
            }
            None => TileChoice::Random {
                max_weight: a.max_weight,
            },
        };
        let fixed = if a.four_unsat && a.fixed == 0 { 4 } else { a.fixed };
        let bad = |e: sokuc::soku::generate::GenerateError| InputError::new("command line", None, e.to_string());
        let g = if a.four_unsat {
            generator::four_unsat(&v, &tiles, fixed, a.seed).map_err(bad)?
        } else {
            generator::random_solvable(&v, &tiles, fixed, a.fixed_rotation, a.seed).map_err(bad)?
        };
        let mut inst = g.instance;
        let tiles_arg = match (&a.tiles, &tiles) {
            (Some(t), _) => format!(" --tiles {t}"),
            (None, TileChoice::Random { max_weight }) => format!(" --max-weight {max_weight}"),
            (None, TileChoice::List(_)) => String::new(),
        };
        inst.source = generated_by(format!(
            "--variant {}{tiles_arg} --seed {}{}{}{}",
            a.variant,
            a.seed,
            if a.four_unsat { " --four-unsat" } else { "" },
            if fixed > 0 {
                format!(" --fixed {fixed}")
            } else {
                String::new()
            },
            if a.fixed_rotation { " --fixed-rotation" } else { "" },
        ));
        // A built-in is referred to by name; a file by its absolute path, so the instance
        // reads back from wherever it is written.
        let variant_ref = if sokuc::model::builtin::variant_text(&a.variant).is_some() {
            a.variant.clone()
        } else {
            std::fs::canonicalize(&a.variant)
                .map_err(|e| InputError::new(&a.variant, None, format!("cannot resolve: {e}")))?
                .display()
                .to_string()
        };
        let note = if a.four_unsat {
            format!(
                "4-unsat: capacities from a random arrangement with one raised by 1 (total {} against {} on the tiles), {fixed} tiles fixed with a free turn: unsatisfiable",
                inst.total_capacity(),
                inst.total_weight()
            )
        } else {
            "capacities read off a random arrangement of the tiles: solvable".to_string()
        };
        (inst, variant_ref, note)
    };
    let text = format!("{}# {note}\n", inst.to_toml(&variant_ref));
    // The file must read back as this instance.
    let back = instance_file::parse_instance("generated", &text, None)
        .map_err(|e| anyhow!("internal error: the generated instance does not read back: {e}"))?;
    if back.capacities != inst.capacities || back.tiles != inst.tiles || back.fixed != inst.fixed {
        return Err(anyhow!("internal error: the generated instance reads back differently"));
    }
    let write = |w: &mut dyn Write| w.write_all(text.as_bytes());
    match &a.output {
        Some(p) => write_atomic(p, write)?,
        None => write(&mut std::io::stdout().lock()).context("writing to stdout")?,
    }
    Ok(EXIT_SAT)
}

fn adts_cmd(a: AdtsArgs) -> Result<u8> {
    use sokuc::adts::{Pegs, PoolInstance};
    let pegs = match &a.pegs {
        None => Pegs::Free((1..=12).collect()),
        Some(p) => {
            let caps = parse_numbers("--pegs", p, "peg")?;
            if caps.len() != 12 {
                return Err(InputError::new("--pegs", None, format!("{} pegs for 12 vertices", caps.len())).into());
            }
            Pegs::Fixed(caps)
        }
    };
    if a.subsets {
        return adts_subsets(&a);
    }
    let mut inst = PoolInstance::liu(pegs);
    if a.pool != "all24" {
        inst.pool = parse_tiles(&a.pool)?
            .into_iter()
            .map(|t| sokuc::adts::PoolType::once(sokuc::model::tiles::canonical(t)))
            .collect();
    }
    let mut b = get_backend(&a.backend)?;
    let opts = SolveOptions {
        time_limit: timeout(a.timeout)?,
        ..Default::default()
    };
    let r = sokuc::adts::solve(&inst, b.as_mut(), &opts)?;
    print_pool_result(&inst, &r, a.format)
}

/// Prints a pool answer (ADTS and other pool instances): the pegs, then per face the type
/// and how it is turned; JSON has the same fields.
fn print_pool_result(inst: &sokuc::adts::PoolInstance, r: &sokuc::adts::PoolResult, format: Format) -> Result<u8> {
    let mut w = std::io::stdout().lock();
    let v = &inst.variant;
    if format == Format::Json {
        let s = r.solution.as_ref();
        let j = serde_json::json!({
            "status": r.status.as_str(),
            "puzzle": "pool",
            "variant": v.name,
            "backend": r.backend,
            "verified": s.is_some(),
            "pegs": s.map(|s| s.pegs.clone()),
            "faces": s.map(|s| s.faces.iter().enumerate().map(|(f, &(ty, rot, c))| serde_json::json!({
                "face": v.face_label(f), "type": inst.pool[ty].tile, "rotation": rot, "corners": c,
            })).collect::<Vec<_>>()),
            "stats": r.stats,
        });
        writeln!(w, "{j}")?;
    } else if let Some(s) = &r.solution {
        let pegs: Vec<String> = v
            .vertices
            .iter()
            .zip(&s.pegs)
            .map(|(n, p)| format!("{n}={p}"))
            .collect();
        writeln!(w, "sat on the {}: pegs {}", v.name, pegs.join(" "))?;
        for (f, &(ty, rot, c)) in s.faces.iter().enumerate() {
            writeln!(
                w,
                "{}.  [type {:?}, rotation {rot}]",
                sokuc::report::instruction::sentence(v, f, &inst.pool[ty].tile, &c, &s.pegs),
                inst.pool[ty].tile
            )?;
        }
        writeln!(
            w,
            "verified: every type within its bounds, the pegs as required, every vertex sum equal to its peg"
        )?;
    } else {
        writeln!(
            w,
            "{}: no solution{}",
            r.status.as_str(),
            if r.status == Status::Unknown {
                " found before the time limit"
            } else {
                " exists"
            }
        )?;
    }
    Ok(match r.status {
        Status::Sat => EXIT_SAT,
        Status::Unsat => EXIT_UNSAT,
        Status::Unknown => EXIT_UNKNOWN,
    })
}

/// Q3: every 20-subset of the 24 types. A subset whose weights do not add up to 1 + ... + 12
/// = 78 cannot serve any arrangement (every corner lands on one vertex); the others are solved
/// with free pegs.
fn adts_subsets(a: &AdtsArgs) -> Result<u8> {
    use sokuc::adts::{Pegs, PoolInstance, all_types};
    let types = all_types();
    let total: u64 = types.iter().flatten().sum();
    let mut w = std::io::stdout().lock();
    let (mut by_weight, mut sat, mut unsat, mut unknown) = (0u64, 0u64, 0u64, 0u64);
    let mut rows = Vec::new();
    let n = types.len();
    for a0 in 0..n {
        for a1 in a0 + 1..n {
            for a2 in a1 + 1..n {
                for a3 in a2 + 1..n {
                    let out = [a0, a1, a2, a3];
                    let out_weight: u64 = out.iter().map(|&i| types[i].iter().sum::<u64>()).sum();
                    if total - out_weight != 78 {
                        by_weight += 1;
                        continue;
                    }
                    let mut inst = PoolInstance::liu(Pegs::Free((1..=12).collect()));
                    inst.pool = (0..n)
                        .filter(|i| !out.contains(i))
                        .map(|i| sokuc::adts::PoolType::once(types[i]))
                        .collect();
                    let m = inst.compile();
                    let mut b = get_backend(&a.backend)?;
                    let opts = SolveOptions {
                        time_limit: timeout(a.timeout)?,
                        ..Default::default()
                    };
                    let t = std::time::Instant::now();
                    let r = b.solve(&m.formula, &opts)?;
                    let ms = t.elapsed().as_secs_f64() * 1e3;
                    let excluded: Vec<String> = out.iter().map(|&i| format!("{:?}", types[i])).collect();
                    let pegs = match (r.status, r.assignment) {
                        (Status::Sat, Some(asg)) => {
                            let s = inst
                                .finish(&m, &asg)
                                .map_err(|e| anyhow!("the {} answer {e}", a.backend))?;
                            sat += 1;
                            Some(s.pegs)
                        }
                        (Status::Unsat, _) => {
                            unsat += 1;
                            None
                        }
                        _ => {
                            unknown += 1;
                            None
                        }
                    };
                    if a.format == Format::Json {
                        rows.push(serde_json::json!({
                            "without": out.iter().map(|&i| types[i]).collect::<Vec<_>>(),
                            "status": r.status.as_str(),
                            "verified": pegs.is_some(),
                            "ms": round3(ms),
                            "pegs": pegs,
                        }));
                        continue;
                    }
                    let detail = pegs.map_or(String::new(), |p| {
                        format!("pegs {}", p.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(","))
                    });
                    writeln!(
                        w,
                        "without {}: {} ({ms:.1} ms) {detail}",
                        excluded.join(" "),
                        r.status.as_str()
                    )?;
                }
            }
        }
    }
    let all = by_weight + sat + unsat + unknown;
    if a.format == Format::Json {
        let v = serde_json::json!({
            "subsets": all,
            "fail_weight_test": by_weight,
            "sat": sat,
            "unsat": unsat,
            "unknown": unknown,
            "results": rows,
        });
        writeln!(w, "{v}")?;
    } else {
        writeln!(
            w,
            "20-subsets: {all} in all; {by_weight} fail the weight test (types must add up to 78); of the rest {sat} sat, {unsat} unsat, {unknown} unknown"
        )?;
    }
    Ok(if unknown > 0 { EXIT_UNKNOWN } else { EXIT_SAT })
}

fn sweep_merge(a: SweepMergeArgs) -> Result<u8> {
    let s = sweep::merge::merge(&a.files, a.out.as_deref()).map_err(sweep_error)?;
    print_sweep_summary(&mut std::io::stdout().lock(), "merged", &s, a.format)?;
    Ok(if s.unknown > 0 { EXIT_UNKNOWN } else { EXIT_SAT })
}

fn print_sweep_summary(out: &mut dyn Write, name: &str, s: &sweep::run::Summary, format: Format) -> Result<()> {
    if format == Format::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(s)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "sweep {name}: {}: {} sat, {} unsat, {} unknown ({} from the results file, {} solved now)",
        count_s(s.instances, "instance"),
        s.sat,
        s.unsat,
        s.unknown,
        s.resumed,
        s.solved_now
    )?;
    if s.solved_now > 0 {
        writeln!(
            out,
            "wall {:.1} s, {:.0} instances/s; per instance p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
            s.wall_s, s.per_second, s.p50_ms, s.p99_ms, s.max_ms
        )?;
        let slow: Vec<String> = s
            .slowest
            .iter()
            .map(|(i, c, ms)| {
                format!(
                    "#{i} ({}) {ms:.3} ms",
                    c.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
                )
            })
            .collect();
        writeln!(out, "slowest: {}", slow.join("; "))?;
    }
    for (i, c, st) in s.not_sat.iter().take(20) {
        let c: Vec<String> = c.iter().map(|x| x.to_string()).collect();
        writeln!(out, "{st}: #{i} ({})", c.join(","))?;
    }
    if s.not_sat.len() > 20 {
        writeln!(out, "... and {} more that are not sat", s.not_sat.len() - 20)?;
    }
    Ok(())
}

/// Loads an instance in either form (see [`instance_file::Puzzle`]).
fn load_puzzle(a: &InstanceArgs) -> Result<instance_file::Puzzle> {
    match &a.instance {
        Some(path) if a.pegs.is_none() && path.extension().is_some_and(|e| e == "toml") => {
            Ok(instance_file::read_puzzle(path)?)
        }
        _ => Ok(instance_file::Puzzle::Classic(load_instance(a)?)),
    }
}

/// What `solve` does alike for the front-ends besides classic 3SoKu (pools, grids): with
/// --emit, write the model (built by `model`: formula, names, header) and return None;
/// otherwise refuse options that do not apply and return the backend and its options.
fn emit_or_prepare(
    a: &SolveArgs,
    model: impl FnOnce() -> (sokuc::ir::PbFormula, Vec<String>, Vec<String>),
) -> Result<Option<(Box<dyn backend::Backend>, SolveOptions)>> {
    let (enc, _) = encode_options(&a.enc);
    check_outputs(a)?;
    if let Some(format) = a.emit {
        let (formula, names, header) = model();
        write_emitted(format, &formula, &names, &header, enc, a.output.as_deref())?;
        return Ok(None);
    }
    if a.output.is_some() {
        return Err(InputError::new("-o", None, "-o/--output goes with --emit").into());
    }
    if a.proof.is_some() {
        return Err(InputError::new("--proof", None, "--proof is for classic 3SoKu instances").into());
    }
    let b = get_backend(&a.backend)?;
    if a.seed.is_some() && !b.capabilities().seed {
        return Err(unsupported(&a.backend, "--seed", "a random seed", |c| c.seed).into());
    }
    let opts = SolveOptions {
        time_limit: timeout(a.timeout)?,
        seed: a.seed,
        encode: enc,
        ..Default::default()
    };
    Ok(Some((b, opts)))
}

/// `solve` on a pool instance (a tile pool and/or free capacities).
fn solve_pool(a: &SolveArgs, inst: &sokuc::adts::PoolInstance) -> Result<u8> {
    let prepared = emit_or_prepare(a, || {
        let m = inst.compile();
        let names = (0..m.formula.num_vars)
            .map(|i| m.pool.name(sokuc::ir::Var(i)))
            .collect();
        let header = vec![
            format!("sokuc {} pool model", env!("CARGO_PKG_VERSION")),
            format!("variant {}", inst.variant.name),
        ];
        (m.formula, names, header)
    })?;
    let Some((mut b, opts)) = prepared else {
        return Ok(EXIT_SAT);
    };
    let r = sokuc::adts::solve(inst, b.as_mut(), &opts)?;
    if let Some(path) = &a.svg {
        write_svg(path, &pool_scene(inst, &r, a.inst.instance.as_deref()))?;
    }
    print_pool_result(inst, &r, a.format)
}

/// A pool answer as a picture: the pegs found, and each face's tile type at its corners.
fn pool_scene<'a>(inst: &'a sokuc::adts::PoolInstance, r: &sokuc::adts::PoolResult, file: Option<&Path>) -> Scene<'a> {
    use sokuc::render::FaceDraw;
    let source = file.map_or("pool".to_string(), |p| p.display().to_string());
    let title = picture_title(&source, &inst.variant.name, r.status, r.solution.is_some());
    let n = inst.variant.num_faces();
    let (pegs, faces) = match &r.solution {
        Some(s) => (
            s.pegs.iter().map(|&p| Some(p)).collect(),
            s.faces
                .iter()
                .map(|&(ty, _, c)| FaceDraw::Tile {
                    label: format!("type {}", ty + 1),
                    weights: inst.pool[ty].tile,
                    corners: Some(c),
                    fixed: false,
                })
                .collect(),
        ),
        None => {
            let pegs = match &inst.pegs {
                sokuc::adts::Pegs::Fixed(p) => p.iter().map(|&x| Some(x)).collect(),
                sokuc::adts::Pegs::Free(_) => vec![None; inst.variant.num_vertices()],
            };
            (pegs, vec![FaceDraw::Empty; n])
        }
    };
    Scene {
        variant: &inst.variant,
        title,
        pegs,
        faces,
        numbers: false,
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
                    format!("this command does not take .{ext} puzzles yet (solve and compare do)"),
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
    (
        EncodeOptions {
            pb: e.pb_encoding,
            max_clauses: e.max_clauses,
            max_memory: e.max_memory,
        },
        mode,
    )
}

/// The longest `--timeout`: about 31 years, far past any solve, and still a valid [`Duration`].
const MAX_TIMEOUT_SECONDS: f64 = 1e9;

/// Whole-number options: the message says what is allowed, whatever the type's range.
fn whole<T: std::str::FromStr + Bounded>(text: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("not a whole number from 0 to {}", T::MAX_TEXT))
}

trait Bounded {
    const MAX_TEXT: &'static str;
}
impl Bounded for u32 {
    const MAX_TEXT: &'static str = "4294967295";
}
impl Bounded for u64 {
    const MAX_TEXT: &'static str = "18446744073709551615";
}
impl Bounded for usize {
    // Options of this type are counts that fit in 64 bits on every supported platform.
    const MAX_TEXT: &'static str = "18446744073709551615";
}

/// `--timeout`: a number of seconds, checked when the arguments are read.
fn seconds(text: &str) -> Result<f64, String> {
    let s: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("not a number of seconds (give 0 to {MAX_TIMEOUT_SECONDS:e}, e.g. 10 or 0.5)"))?;
    if (0.0..=MAX_TIMEOUT_SECONDS).contains(&s) {
        Ok(s)
    } else {
        Err(format!(
            "the time limit must be from 0 to {MAX_TIMEOUT_SECONDS:e} seconds"
        ))
    }
}

fn timeout(t: Option<f64>) -> Result<Option<Duration>> {
    match t {
        None => Ok(None),
        Some(s) => Ok(Some(Duration::from_secs_f64(
            seconds(&s.to_string()).map_err(|m| InputError::new("--timeout", None, m))?,
        ))),
    }
}

fn get_backend(name: &str) -> Result<Box<dyn backend::Backend>> {
    backend::by_name(name).ok_or_else(|| {
        let available = backend::available().join(", ");
        // Backends behind a cargo feature exist, just not in this build: say how to get them.
        let feature = match name {
            "cadical" => Some("cadical"),
            "mip" | "cbc" => Some("mip"),
            _ => None,
        };
        let message = match feature {
            Some(f) => format!(
                "backend {name:?} is not compiled into this build (it has: {available}); build with `cargo build --release --features {f}` or `--all-features`"
            ),
            None => format!("unknown backend {name:?} (this build has: {available})"),
        };
        InputError::new("--backend", None, message).into()
    })
}

/// A request for something the backend cannot do, refused with the backends that can.
fn unsupported(backend: &str, option: &str, what: &str, has: impl Fn(&backend::Capabilities) -> bool) -> InputError {
    let able: Vec<&str> = backend::available()
        .into_iter()
        .filter(|n| backend::by_name(n).is_some_and(|b| has(&b.capabilities())))
        .collect();
    InputError::new(
        option,
        None,
        format!(
            "the {backend} backend does not support {what}; backends in this build that do: {}",
            if able.is_empty() {
                "none".to_string()
            } else {
                able.join(", ")
            }
        ),
    )
}

/// Refuses, before any work, an output path that is one of the inputs just read.
fn check_outputs(a: &SolveArgs) -> Result<()> {
    for p in [&a.output, &a.svg, &a.proof].into_iter().flatten() {
        sokuc::output::check(p)?;
    }
    Ok(())
}

/// Every file written goes through [`sokuc::output`]: never onto an input, never partial.
fn write_atomic(path: &Path, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    Ok(sokuc::output::write_atomic(path, write)?)
}

fn print_result(inst: &Instance, r: &SokuResult, format: Format) -> Result<u8> {
    let mut w = std::io::stdout().lock();
    match format {
        Format::Text => write!(w, "{}", report::text::soku(inst, r))?,
        Format::Json => writeln!(w, "{}", report::json::soku(inst, r))?,
    }
    Ok(match r.status {
        Status::Sat => EXIT_SAT,
        Status::Unsat => EXIT_UNSAT,
        Status::Unknown => EXIT_UNKNOWN,
    })
}

fn solve(a: SolveArgs) -> Result<u8> {
    // --timeout bounds the whole command: its clock starts before the instance is read.
    let started = std::time::Instant::now();
    if a.svg.is_some() && a.emit.is_some() {
        return Err(InputError::new(
            "--svg",
            None,
            "--svg draws a solved instance; it does not go with --emit",
        )
        .into());
    }
    if let Some(path) = a.inst.instance.as_deref().filter(|p| GridPuzzle::is_grid_file(p)) {
        if a.svg.is_some() {
            return Err(InputError::new("--svg", None, "--svg draws 3SoKu nets; grid puzzles print their grid").into());
        }
        return solve_grid(&a, path);
    }
    if a.unique {
        return Err(InputError::new("--unique", None, "--unique applies to grid puzzles (.kakuro, .tt)").into());
    }
    let inst = match load_puzzle(&a.inst)? {
        instance_file::Puzzle::Classic(i) => i,
        instance_file::Puzzle::Pool(p) => return solve_pool(&a, &p),
    };
    check_outputs(&a)?;
    let (enc, mode) = encode_options(&a.enc);
    if let Some(format) = a.emit {
        // Compile once, into the form this format needs; the CNF before any file is opened,
        // so a model over the clause budget leaves nothing behind.
        if format != Emit::Dimacs {
            let (formula, names, header) = pipeline::to_formula(&inst, mode);
            write_emitted(format, &formula, &names, &header, enc, a.output.as_deref())?;
            return Ok(EXIT_SAT);
        }
        let e = pipeline::to_cnf(&inst, enc, mode)?;
        export::check_names(&e.names).map_err(|e| anyhow!(e))?;
        let write = |w: &mut dyn Write| dimacs::write(w, &e.cnf, &e.header, &e.names, &e.aux);
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
    if a.seed.is_some() && !b.capabilities().seed {
        return Err(unsupported(&a.backend, "--seed", "a random seed", |c| c.seed).into());
    }
    if a.proof.is_some() && !b.capabilities().proof {
        return Err(unsupported(&a.backend, "--proof", "DRAT proofs", |c| c.proof).into());
    }
    // The solver writes its proof to a temporary file; it becomes the named file only once
    // the solve is over.
    let proof = a.proof.as_deref().map(sokuc::output::Pending::new).transpose()?;
    let opts = SolveOptions {
        time_limit: timeout(a.timeout)?,
        started: Some(started),
        proof: proof.as_ref().map(|p| p.path().to_path_buf()),
        seed: a.seed,
        encode: enc,
        ..Default::default()
    };
    let r = pipeline::solve(&inst, b.as_mut(), &opts, mode)?;
    if let (Some(pending), Some(path)) = (proof, &a.proof) {
        if pending.path().exists() {
            pending.commit()?;
        } else {
            eprintln!(
                "sokuc: note: no proof written to {}: presolve refuted the instance before any solver ran ({}); `sokuc certify` refutes the model without presolve and checks its DRAT proof",
                path.display(),
                r.reason.as_deref().unwrap_or("no solver call")
            );
        }
    }
    if let Some(path) = &a.svg {
        let title = picture_title(&inst.source, &inst.variant.name, r.status, r.verified);
        let scene = match &r.placements {
            Some(ps) => Scene::solution(&inst, ps, title),
            None => Scene::instance(&inst, title),
        };
        write_svg(path, &scene)?;
    }
    print_result(&inst, &r, a.format)
}

/// "icosoku-seed.toml, icosahedron: sat, verified".
fn picture_title(source: &str, variant: &str, status: Status, verified: bool) -> String {
    let what = match (status, verified) {
        (Status::Sat, true) => "solution, verified",
        (Status::Sat, false) => "solution, NOT verified",
        (Status::Unsat, _) => "no solution exists (the instance is drawn)",
        (Status::Unknown, _) => "no solution found in time (the instance is drawn)",
    };
    titled(source, variant, what)
}

/// "FILE, VARIANT: WHAT", with the file's name only.
fn titled(source: &str, variant: &str, what: &str) -> String {
    let name = Path::new(source)
        .file_name()
        .map_or(source.to_string(), |n| n.to_string_lossy().into_owned());
    format!("{name}, {variant}: {what}")
}

fn write_svg(path: &Path, scene: &Scene) -> Result<()> {
    let svg = sokuc::render::svg::render(scene);
    write_atomic(path, |w| w.write_all(svg.as_bytes()))
}

fn render_cmd(a: RenderArgs) -> Result<u8> {
    let inst = load_instance(&a.inst)?;
    if let Some(sol) = &a.solution {
        sokuc::output::note_input(sol);
    }
    sokuc::output::check(&a.output)?;
    let (mut scene, code) = match &a.solution {
        None => {
            let title = titled(&inst.source, &inst.variant.name, "the instance");
            (Scene::instance(&inst, title), EXIT_SAT)
        }
        Some(sol) => {
            let file = sol.display().to_string();
            let text = input::read_text(sol)?;
            let placements = solution_json::parse_solution(&file, &text, &inst)?;
            // An invalid solution is still drawn (it helps to see what is wrong), but says so.
            let (verdict, code) = match verify::soku::verify(&inst, &placements) {
                Ok(()) => ("solution, verified".to_string(), EXIT_SAT),
                Err(e) => {
                    eprintln!("sokuc: the solution is invalid: {e}");
                    (format!("INVALID solution: {e}"), EXIT_INVALID)
                }
            };
            let title = titled(&inst.source, &inst.variant.name, &verdict);
            (Scene::solution(&inst, &placements, title), code)
        }
    };
    scene.numbers = a.numbers;
    write_svg(&a.output, &scene)?;
    Ok(code)
}

fn write_emitted(
    format: Emit,
    formula: &sokuc::ir::PbFormula,
    names: &[String],
    header: &[String],
    enc: EncodeOptions,
    output: Option<&Path>,
) -> Result<()> {
    // Names no format can take, or two alike, are sokuc's bug (exit 1), found before any
    // file is opened.
    export::check_names(names).map_err(|e| anyhow!(e))?;
    let cnf = match format {
        Emit::Dimacs => {
            let mut cnf = sokuc::encode::Cnf::new();
            let stats = sokuc::encode::encode(formula, enc, &mut cnf)?;
            Some((cnf, stats))
        }
        _ => None,
    };
    let write = |w: &mut dyn Write| match format {
        Emit::Dimacs => {
            let (cnf, stats) = cnf.as_ref().expect("built above");
            dimacs::write(w, cnf, header, names, &stats.aux)
        }
        Emit::Lp => export::write_lp(w, formula, names, header),
        Emit::Mps => export::write_mps(w, formula, names, header),
        Emit::Opb => export::write_opb(w, formula, names, header),
        Emit::Mzn => export::write_mzn(w, formula, names, header),
    };
    match output {
        Some(p) => write_atomic(p, write)?,
        None => write(&mut std::io::stdout().lock()).context("writing to stdout")?,
    }
    Ok(())
}

fn solve_grid(a: &SolveArgs, path: &Path) -> Result<u8> {
    let p = GridPuzzle::load(path)?;
    let prepared = emit_or_prepare(a, || {
        let m = p.compile();
        let header = vec![
            format!("sokuc {} {} model", env!("CARGO_PKG_VERSION"), p.kind()),
            format!("instance {}", p.source()),
        ];
        (m.formula, m.names, header)
    })?;
    let Some((mut b, opts)) = prepared else {
        return Ok(EXIT_SAT);
    };
    let r = grid_pipeline::solve(&p, b.as_mut(), &opts, a.unique)?;
    print_grid_result(&p, &r, a.format, a.unique)
}

fn grid_json(g: &Option<grid_pipeline::Grid>) -> serde_json::Value {
    match g {
        Some(g) => serde_json::json!(g),
        None => serde_json::Value::Null,
    }
}

fn print_grid_result(p: &GridPuzzle, r: &GridResult, format: Format, asked_unique: bool) -> Result<u8> {
    let mut out = std::io::stdout().lock();
    match format {
        Format::Json => {
            let mut v = serde_json::json!({
                "status": r.status.as_str(),
                "puzzle": p.kind(),
                "backend": r.backend,
                "verified": r.verified,
                "grid": grid_json(&r.grid),
                "unique": r.unique,
                "stats": r.stats,
            });
            if r.second.is_some() {
                v["second_grid"] = grid_json(&r.second);
            }
            writeln!(out, "{v}")?;
        }
        Format::Text => match (&r.grid, r.status) {
            (Some(g), _) => {
                out.write_all(p.render(g).as_bytes())?;
                match (r.unique, &r.second) {
                    (Some(true), _) => writeln!(
                        out,
                        "# unique: the {} backend proved there is no other solution",
                        r.backend
                    )?,
                    (Some(false), Some(g2)) => {
                        writeln!(out, "# not unique: a second solution is")?;
                        for line in p.render(g2).lines() {
                            writeln!(out, "# {line}")?;
                        }
                    }
                    _ if !asked_unique => {}
                    _ => writeln!(out, "# uniqueness unknown (time limit)")?,
                }
                writeln!(out, "# verified: every rule of the puzzle holds")?;
            }
            (None, Status::Unsat) => writeln!(
                out,
                "unsat: {} has no solution (proven by the {} backend)",
                p.source(),
                r.backend
            )?,
            (None, _) => writeln!(out, "unknown: the time limit was reached")?,
        },
    }
    Ok(match r.status {
        Status::Sat => EXIT_SAT,
        Status::Unsat => EXIT_UNSAT,
        Status::Unknown => EXIT_UNKNOWN,
    })
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
            // Here a failed check is the file's fault (another model's answer, or a wrong one),
            // not sokuc's: say what is wrong without calling it internal.
            let placements = pipeline::finish(&inst, &c, &assignment, &backend).map_err(|e| {
                let why = match e {
                    pipeline::PipelineError::ModelViolated { detail, .. } => format!("it violates {detail}"),
                    pipeline::PipelineError::Decode { detail, .. } => format!("it cannot be decoded: {detail}"),
                    pipeline::PipelineError::Verification { detail, .. } => format!("it fails verification: {detail}"),
                    other => other.to_string(),
                };
                InputError::new(
                    &file,
                    None,
                    format!("the answer is not a solution of this model (was the model emitted from this instance with the same options?): {why}"),
                )
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
    print_result(&inst, &r, a.format)
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
            outln!(
                "valid: {} placements, every vertex sum equals its capacity",
                placements.len()
            );
            Ok(EXIT_SAT)
        }
        Err(e) => {
            outln!("invalid: {e}");
            Ok(EXIT_INVALID)
        }
    }
}

fn bench_cmd(a: BenchArgs) -> Result<u8> {
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
    let (enc, mode) = encode_options(&a.enc);
    let opts = SolveOptions {
        time_limit: timeout(a.timeout)?,
        encode: enc,
        ..Default::default()
    };
    let names = backend_list(&a.backends)?;
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
        Format::Json => outln!("{}", serde_json::to_string_pretty(&summaries)?),
    }
    // As for solve: an answer that is not known is not a success.
    Ok(if summaries.iter().any(|s| s.unknown > 0) {
        EXIT_UNKNOWN
    } else {
        EXIT_SAT
    })
}

/// A comma-separated list, trimmed, without empty items.
fn split_list(list: &str) -> Vec<String> {
    list.split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// `--backends a,b,c`: at least one name, each a backend of this build.
fn backend_list(list: &str) -> Result<Vec<String>> {
    let names = split_list(list);
    if names.is_empty() {
        return Err(InputError::new(
            "--backends",
            None,
            format!("no backend named (this build has: {})", backend::available().join(", ")),
        )
        .into());
    }
    for n in &names {
        get_backend(n)?;
    }
    Ok(names)
}

fn scaling_cmd(a: ScalingArgs) -> Result<u8> {
    use sokuc::bench::scaling::{self, Family};
    let families = a
        .families
        .split(',')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(|f| match f {
            "random" => Ok(Family::Random),
            "partition" => Ok(Family::Partition),
            "partition-wide" => Ok(Family::PartitionWide),
            "4-unsat" => Ok(Family::FourUnsat),
            other => Err(InputError::new(
                "--families",
                None,
                format!("unknown family {other:?} (random, partition, partition-wide, 4-unsat)"),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let names = backend_list(&a.backends)?;
    if a.reps == 0 {
        return Err(InputError::new("--reps", None, "at least one instance per step").into());
    }
    let (enc, mode) = encode_options(&a.enc);
    let opts = SolveOptions {
        time_limit: timeout(Some(a.timeout))?,
        encode: enc,
        ..Default::default()
    };
    let stdout = std::io::stdout();
    let mut cells = Vec::new();
    for f in families {
        let mut sink: Box<dyn Write> = if a.quiet || a.format == Format::Json {
            Box::new(std::io::sink())
        } else {
            Box::new(stdout.lock())
        };
        cells.extend(scaling::run(f, &names, a.reps, a.max_faces, &opts, mode, sink.as_mut()).map_err(|e| anyhow!(e))?);
    }
    match a.format {
        Format::Text => scaling::print_table(&cells, &names, &mut stdout.lock()),
        Format::Json => outln!("{}", serde_json::to_string_pretty(&cells)?),
    }
    Ok(EXIT_SAT)
}

/// Milliseconds for JSON, to the microsecond: `0.05`, not `0.049999999999999996`.
fn round3(ms: f64) -> f64 {
    (ms * 1e3).round() / 1e3
}

/// Exit code when backends disagree on the status: a loud error.
const EXIT_DISAGREE: u8 = 1;

fn compare(a: CompareArgs) -> Result<u8> {
    let grid = match a.inst.instance.as_deref().filter(|p| GridPuzzle::is_grid_file(p)) {
        Some(p) => Some(GridPuzzle::load(p)?),
        None => None,
    };
    let (inst, pool) = match &grid {
        Some(_) => (None, None),
        None => match load_puzzle(&a.inst)? {
            instance_file::Puzzle::Classic(i) => (Some(i), None),
            instance_file::Puzzle::Pool(p) => (None, Some(p)),
        },
    };
    let source = match (&grid, &inst) {
        (Some(g), _) => g.source().to_string(),
        (_, Some(i)) => i.source.clone(),
        _ => a
            .inst
            .instance
            .as_ref()
            .map_or(String::new(), |p| p.display().to_string()),
    };
    let (enc, mode) = encode_options(&a.enc);
    let names: Vec<String> = match &a.backends {
        Some(list) => backend_list(list)?,
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
        let r = match (&grid, &inst) {
            (Some(g), _) => {
                let g = grid_pipeline::solve(g, b.as_mut(), &opts, false)?;
                SokuResult {
                    status: g.status,
                    placements: None,
                    reason: None,
                    verified: g.verified,
                    stats: g.stats,
                    backend: g.backend,
                }
            }
            (_, Some(i)) => pipeline::solve(i, b.as_mut(), &opts, mode)?,
            _ => {
                let p = pool.as_ref().expect("one of the three is loaded");
                let r = sokuc::adts::solve(p, b.as_mut(), &opts)?;
                SokuResult {
                    status: r.status,
                    placements: None,
                    reason: None,
                    verified: r.solution.is_some(),
                    stats: r.stats,
                    backend: r.backend,
                }
            }
        };
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
            outln!(
                "{}",
                serde_json::json!({"instance": source, "agree": agree, "results": list})
            );
        }
        Format::Text => {
            outln!(
                "{:<8} {:<8} {:>10} {:>10} {:>10} {:>8} {:>8}  verified",
                "backend",
                "status",
                "build ms",
                "solve ms",
                "total ms",
                "vars",
                "rows"
            );
            for (n, r, ms) in &rows {
                outln!(
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
        eprintln!("sokuc: error: BACKENDS DISAGREE on {}: {}", source, summary.join(", "));
        return Ok(EXIT_DISAGREE);
    }
    Ok(match decided.first() {
        Some(&"sat") => EXIT_SAT,
        Some(&"unsat") => EXIT_UNSAT,
        _ => EXIT_UNKNOWN,
    })
}
