//! `sokuc solve`: one puzzle on one backend, or its compiled model with `--emit`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use super::progress::{Kind, When};
use super::{BACKEND_HELP, EncodingArgs, Exit, ExitArgs, Format, PuzzleArgs, backend_named, print, seconds, whole};
use sokuc::exit;
use sokuc::{Ended, Enumerate, Error, InputError, Instance, MipSettings, Options};

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    #[command(flatten)]
    pub enc: EncodingArgs,
    #[command(flatten)]
    pub exit: ExitArgs,
    #[arg(long, default_value = "auto", help = BACKEND_HELP.as_str())]
    pub backend: String,
    /// Output format: text for people, json for programs (one schema for every kind: docs/src/output-formats.md).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Time limit in seconds for the whole command; past it the answer is `unknown` (exit 30).
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
    /// Random seed, for backends that take one (others refuse it).
    #[arg(long, value_parser = whole::<u64>, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// Write the compiled model in this format instead of solving.
    #[arg(long, value_enum)]
    pub emit: Option<EmitFormat>,
    /// Output file for --emit (default, or `-`: stdout).
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// Write a DRAT proof of unsatisfiability (sat or cadical backend) for the CNF that
    /// --emit dimacs writes with the same options.
    #[arg(long)]
    pub proof: Option<PathBuf>,
    /// After the first solution, prove it unique or show a second one (the first two of
    /// --all).
    #[arg(long, conflicts_with = "all")]
    pub unique: bool,
    /// Print an unsat, optimum or uniqueness verdict only when checked evidence (a checked
    /// certificate) or a second engine of another kind backs it; a verdict that rests on
    /// one engine's word alone is withheld, and the best checked answer is printed with an
    /// unknown status. Costs a second solve where no certificate exists. With --all, the
    /// claim that every solution was listed is put to the second engine (up to 2,000
    /// solutions; past that it is withheld).
    #[arg(long)]
    pub strict: bool,
    /// Every distinct solution, written as it is found: text with `----------` after each
    /// and `==========` when that is all of them (as MiniZinc does), or JSON lines (one per
    /// solution, then a summary). Exit 0 with a solution, 20 when there is none, 30 when
    /// none was found in time.
    #[arg(long)]
    pub all: bool,
    /// With --all: enumerate on this many threads (1 to 64; the search backend, and auto where
    /// it enumerates on search, else one thread). The same solutions, in an order that depends
    /// on timing; 1 (the default) keeps one order.
    #[arg(long, value_name = "N", value_parser = jobs, allow_hyphen_values = true)]
    pub jobs: Option<usize>,
    /// Stop after this many solutions (implies --all).
    #[arg(long, value_name = "N", value_parser = positive, allow_hyphen_values = true)]
    pub limit: Option<u64>,
    /// Also draw the answer as an SVG net of the polyhedron (the empty puzzle when there is
    /// no solution); polyhedron puzzles only.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// CBC's settings for a feasibility problem on the mip backend: staged (the default:
    /// light for about a second, then CBC's defaults), light or full. For tests and
    /// experiments: each is a code path the MIPLIB differential suite runs.
    #[arg(long, value_enum, default_value_t = MipArg::Staged, hide = true)]
    pub mip_settings: MipArg,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum MipArg {
    Staged,
    Light,
    Full,
}

impl From<MipArg> for MipSettings {
    fn from(m: MipArg) -> MipSettings {
        match m {
            MipArg::Staged => MipSettings::Staged,
            MipArg::Light => MipSettings::Light,
            MipArg::Full => MipSettings::Full,
        }
    }
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum EmitFormat {
    Dimacs,
    Lp,
    Mps,
    Opb,
    Mzn,
}

impl From<EmitFormat> for sokuc::Format {
    fn from(f: EmitFormat) -> sokuc::Format {
        match f {
            EmitFormat::Dimacs => sokuc::Format::Dimacs,
            EmitFormat::Lp => sokuc::Format::Lp,
            EmitFormat::Mps => sokuc::Format::Mps,
            EmitFormat::Opb => sokuc::Format::Opb,
            EmitFormat::Mzn => sokuc::Format::Mzn,
        }
    }
}

pub fn run(a: SolveArgs) -> Exit {
    // --timeout bounds the whole command: its clock starts before the instance is read.
    let started = Instant::now();
    let mut a = a;
    // `--limit N` is "the first N solutions": --all is implied.
    if a.limit.is_some() && !a.unique {
        a.all = true;
    }
    if a.limit.is_some() && a.unique {
        return Err(Error::unsupported(
            "--limit",
            "--limit N enumerates the first N solutions; --unique looks for two: give one of them",
        ));
    }
    for (path, opt, why) in [
        (&a.proof, "--proof", "the proof is written by the solver to a file"),
        (&a.svg, "--svg", "standard output carries the answer"),
    ] {
        if path.as_deref().is_some_and(sokuc::output::is_stdout) {
            return Err(Error::unsupported(
                opt,
                format!("{opt} - is not possible: {why}; give a file name"),
            ));
        }
    }
    if a.jobs.is_some() && !a.all {
        return Err(Error::unsupported("--jobs", "--jobs goes with --all"));
    }
    if a.svg.is_some() && a.emit.is_some() {
        return Err(Error::unsupported(
            "--svg",
            "--svg draws a solved puzzle; it does not go with --emit",
        ));
    }
    let p = a.puzzle.instance()?;
    if a.svg.is_some() && !p.has_picture() {
        return Err(Error::unsupported(
            "--svg",
            format!(
                "--svg draws polyhedron nets (3soku, pool); a {} puzzle prints its grid",
                p.kind()
            ),
        ));
    }
    // An output that is one of the inputs is refused before any work.
    for path in [&a.output, &a.svg, &a.proof].into_iter().flatten() {
        sokuc::output::check(path)?;
    }
    if let Some(format) = a.emit {
        if a.unique || a.all || a.proof.is_some() {
            let opt = match (a.unique, a.all) {
                (true, _) => "--unique",
                (_, true) => "--all",
                _ => "--proof",
            };
            return Err(Error::unsupported(
                opt,
                format!("{opt} goes with solving, not with --emit"),
            ));
        }
        let options = a.enc.options(None);
        match &a.output {
            Some(path) => p.emit_file(format.into(), &options, path)?,
            None => p.emit(format.into(), &options, &mut std::io::stdout().lock())?,
        }
        return Ok(exit::SAT);
    }
    if a.output.is_some() {
        return Err(InputError::new("-o", None, "-o/--output goes with --emit").into());
    }
    if a.all {
        return all(&a, &p, started);
    }

    let backend = backend_named(&a.backend)?;
    // The solver writes its proof to a temporary file; it becomes the named file only once
    // the solve is over.
    let proof = a.proof.as_deref().map(sokuc::output::Pending::new).transpose()?;
    // Without a time limit, say on stderr which engine searches once 30 s have passed.
    let board = a.timeout.is_none().then(sokuc::Searching::new);
    let _watcher = board
        .clone()
        .map(|board| super::searching::watch(board, backend.name(), started));
    let mut opts = options(&a, backend, started)
        .unique(a.unique)
        .strict(a.strict)
        .svg(a.svg.is_some());
    if let Some(pending) = &proof {
        opts = opts.proof(pending.path());
    }
    if let Some(board) = board {
        opts = opts.searching(board);
    }
    // Text streams the `o` line of each improving solution as it is found (the PB
    // competition's convention); JSON is one object at the end.
    let r = match a.format {
        Format::Text => p.solve_streaming(&opts, &mut std::io::stdout())?,
        Format::Json => p.solve(&opts)?,
    };
    if let (Some(pending), Some(path)) = (proof, &a.proof) {
        if pending.path().exists() {
            pending.commit()?;
        } else {
            eprintln!(
                "sokuc: note: no proof written to {}: the instance was refuted before any solver ran ({}); `sokuc certify` refutes the model without presolve or LP and checks its DRAT proof",
                path.display(),
                r.reason().unwrap_or("no solver call")
            );
        }
    }
    if let (Some(path), Some(svg)) = (&a.svg, r.svg()) {
        super::write_out(Some(path), svg)?;
    }
    match a.format {
        // On an unknown answer no engine answered.
        Format::Text if a.backend == "auto" && r.backend() != "auto" && r.status() != sokuc::Status::Unknown => {
            // Which engine `auto` picked (the JSON's `backend`, with the reason in
            // `stats.extra.auto`); a comment line, so grid answers stay solution files.
            let line = format!(
                "{} answered by the {} backend (picked by --backend auto)\n",
                p.comment(),
                r.backend()
            );
            super::write_out(None, &format!("{}{line}", r.text()))?
        }
        Format::Text => super::write_out(None, r.text())?,
        Format::Json => print(r.json())?,
    }
    if let Some(c) = r.contradiction() {
        eprintln!("sokuc: ENGINES CONTRADICT EACH OTHER on {}: {c}", p.source());
    }
    if r.status() == sokuc::Status::Unsat {
        peg_hint(a.puzzle.pegs.as_deref());
    }
    Ok(a.exit.code(p.kind(), r.exit_code(), r.optimal() == Some(true)))
}

/// IcoSoKu's 12 pegs are the numbers 1 to 12, each once: `--pegs` that are not (a repeat,
/// or a number past 12) are solved as given, but an unsat answer then says so.
fn peg_hint(pegs: Option<&str>) {
    let Some(pegs) = pegs else { return };
    let mut given: Vec<u64> = pegs.split(',').filter_map(|p| p.trim().parse().ok()).collect();
    given.sort_unstable();
    if given.len() == 12 && given != (1..=12).collect::<Vec<u64>>() {
        eprintln!(
            "sokuc: note: these pegs are not the numbers 1 to 12, each once, as in the physical IcoSoKu (its pegs are a permutation of 1..12); they were solved as given"
        );
    }
}

/// `--limit`: a whole number from 1.
fn positive(text: &str) -> Result<u64, String> {
    match whole::<u64>(text)? {
        0 => Err("the limit must be at least 1".to_string()),
        n => Ok(n),
    }
}

/// `--jobs`: a whole number from 1 to [`Enumerate::MAX_JOBS`].
fn jobs(text: &str) -> Result<usize, String> {
    let max = Enumerate::MAX_JOBS;
    match whole::<usize>(text)? {
        n if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("the number of jobs must be from 1 to {max}")),
    }
}

/// The options every solve of the command shares: the encoding's, the backend, the time
/// limit counted from the command's start, the seed and CBC's settings.
fn options(a: &SolveArgs, backend: sokuc::Backend, started: Instant) -> Options {
    let mut o = a
        .enc
        .options(a.timeout)
        .backend(backend)
        .clock_started(started)
        .mip_settings(a.mip_settings.into());
    if let Some(seed) = a.seed {
        o = o.seed(seed);
    }
    o
}

/// `solve --all`: every solution streamed to standard output by the library, and one line on
/// standard error that says how many and whether that is all of them.
fn all(a: &SolveArgs, p: &Instance, started: Instant) -> Exit {
    for (given, opt, why) in [
        (
            a.proof.is_some(),
            "--proof",
            "a DRAT proof covers one solve, not an enumeration",
        ),
        (a.svg.is_some(), "--svg", "--svg draws one solution"),
    ] {
        if given {
            return Err(Error::unsupported(opt, format!("{opt} does not go with --all: {why}")));
        }
    }
    let opts = options(a, backend_named(&a.backend)?, started).strict(a.strict);
    let mut how = Enumerate::new()
        .jobs(a.jobs.unwrap_or(1))
        .json(a.format == Format::Json);
    if let Some(limit) = a.limit {
        how = how.limit(limit);
    }
    // A count of the solutions so far on standard error, when it is a terminal: each
    // solution ends with the separator line, or is one JSON line.
    let found = sokuc::Progress::default();
    let shown = super::progress::show(&found, Kind::Count { unit: "solutions" }, When::Auto);
    let each = (a.format == Format::Text).then_some(Enumerate::SEPARATOR);
    let e = match a.jobs.unwrap_or(1) {
        1 => {
            let mut out = shown.writer(std::io::BufWriter::new(std::io::stdout()), &found, each);
            p.enumerate(&opts, &how, &mut out)
        }
        // The workers write whole chunks, so standard output's own line buffer is enough.
        _ => {
            let mut out = shown.writer(std::io::stdout(), &found, each);
            p.enumerate(&opts, &how, &mut out)
        }
    };
    drop(shown);
    let e = e?;
    if a.format == Format::Text {
        let withheld = e.evidence().claims().into_iter().find(|c| !c.accepted());
        let how = match e.ended() {
            Ended::Complete if e.found() == 0 => "there is none".to_string(),
            Ended::Complete => "all of them".to_string(),
            Ended::Stopped => format!("stopped at --limit {}; there may be more", a.limit.unwrap_or(e.found())),
            _ if withheld.is_some() => "the claim that there are no more was withheld; there may be more".to_string(),
            _ if e.interrupted() => "interrupted; there may be more".to_string(),
            _ => "the time limit was reached; there may be more".to_string(),
        };
        let secs = e.elapsed().as_secs_f64();
        eprintln!(
            "sokuc: {} ({how}), by the {} backend in {secs:.3} s",
            super::words::count_s(e.found(), "solution"),
            e.backend(),
        );
    }
    Ok(a.exit.code(p.kind(), e.exit_code(), false))
}
