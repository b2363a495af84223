//! `sokuc solve`: one puzzle on one backend, or its compiled model with `--emit`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use super::{BACKEND_HELP, EncodingArgs, Exit, Format, PuzzleArgs, get_backend, print, seconds, whole};
use sokuc::Error;
use sokuc::backend::SolveOptions;
use sokuc::error::exit;
use sokuc::input::InputError;
use sokuc::run::{RunOptions, emit};

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    #[command(flatten)]
    pub enc: EncodingArgs,
    #[arg(long, default_value = "auto", help = BACKEND_HELP.as_str())]
    pub backend: String,
    /// Output format: text for people, json for programs (one schema, see README).
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
    /// Output file for --emit (default: stdout).
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// Write a DRAT proof of unsatisfiability (sat or cadical backend) for the CNF that
    /// --emit dimacs writes with the same options.
    #[arg(long)]
    pub proof: Option<PathBuf>,
    /// After the first solution, prove it unique or show a second one.
    #[arg(long)]
    pub unique: bool,
    /// Also draw the answer as an SVG net of the polyhedron (the empty puzzle when there is
    /// no solution); polyhedron puzzles only.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum EmitFormat {
    Dimacs,
    Lp,
    Mps,
    Opb,
    Mzn,
}

impl From<EmitFormat> for emit::Format {
    fn from(f: EmitFormat) -> emit::Format {
        match f {
            EmitFormat::Dimacs => emit::Format::Dimacs,
            EmitFormat::Lp => emit::Format::Lp,
            EmitFormat::Mps => emit::Format::Mps,
            EmitFormat::Opb => emit::Format::Opb,
            EmitFormat::Mzn => emit::Format::Mzn,
        }
    }
}

pub fn run(a: SolveArgs) -> Exit {
    // --timeout bounds the whole command: its clock starts before the instance is read.
    let started = Instant::now();
    if a.svg.is_some() && a.emit.is_some() {
        return Err(Error::unsupported(
            "--svg",
            "--svg draws a solved puzzle; it does not go with --emit",
        ));
    }
    let p = a.puzzle.load()?;
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
        if a.unique || a.proof.is_some() {
            let opt = if a.unique { "--unique" } else { "--proof" };
            return Err(Error::unsupported(
                opt,
                format!("{opt} goes with solving, not with --emit"),
            ));
        }
        p.emit(format.into(), &a.enc.compile(), a.enc.encode(), a.output.as_deref())?;
        return Ok(exit::SAT);
    }
    if a.output.is_some() {
        return Err(InputError::new("-o", None, "-o/--output goes with --emit").into());
    }
    let mut b = get_backend(&a.backend)?;
    // The solver writes its proof to a temporary file; it becomes the named file only once
    // the solve is over.
    let proof = a.proof.as_deref().map(sokuc::output::Pending::new).transpose()?;
    let opts = RunOptions {
        solve: SolveOptions {
            time_limit: a.timeout,
            started: Some(started),
            proof: proof.as_ref().map(|p| p.path().to_path_buf()),
            seed: a.seed,
            encode: a.enc.encode(),
            ..Default::default()
        },
        compile: a.enc.compile(),
        lp: a.enc.lp.into(),
        unique: a.unique,
    };
    let r = p.solve(b.as_mut(), &opts, a.svg.is_some())?;
    if let (Some(pending), Some(path)) = (proof, &a.proof) {
        if pending.path().exists() {
            pending.commit()?;
        } else {
            eprintln!(
                "sokuc: note: no proof written to {}: the instance was refuted before any solver ran ({}); `sokuc certify` refutes the model without presolve or LP and checks its DRAT proof",
                path.display(),
                r.reason.as_deref().unwrap_or("no solver call")
            );
        }
    }
    if let (Some(path), Some(svg)) = (&a.svg, &r.svg) {
        super::write_out(Some(path), svg)?;
    }
    match a.format {
        Format::Text if a.backend == "auto" && r.backend != "auto" => {
            // Which engine `auto` picked (the JSON's `backend`, with the reason in
            // `stats.extra.auto`); a comment line, so grid answers stay solution files.
            let line = format!("# answered by the {} backend (picked by --backend auto)\n", r.backend);
            super::write_out(None, &format!("{}{line}", r.text))?
        }
        Format::Text => super::write_out(None, &r.text)?,
        Format::Json => print(&r.json)?,
    }
    Ok(r.exit_code())
}
