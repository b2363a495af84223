//! `sokuc compare`: several backends on one puzzle (the work is in `sokuc::Instance::compare`).

use std::time::Duration;

use clap::Args;

use super::{BACKENDS_HELP, EncodingArgs, Exit, ExitArgs, Format, PuzzleArgs, backend_list, print, seconds};
use sokuc::Backend;

#[derive(Args)]
pub struct CompareArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    #[command(flatten)]
    pub enc: EncodingArgs,
    #[command(flatten)]
    pub exit: ExitArgs,
    /// Default: every backend of this build that takes any formula (all but `mitm`).
    #[arg(long, alias = "backends", help = BACKENDS_HELP.as_str())]
    pub backend: Option<String>,
    /// Output format: text for people, json for programs (one schema for every kind: docs/src/output-formats.md).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Time limit in seconds for the whole command: each backend gets its share of what is
    /// left when its turn comes (with `--jobs`, so that every queue ends by the deadline).
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
    /// How many backends run at once. Default: 1, one after another, each with the machine
    /// to itself, so that their times compare. More finishes sooner, but the times then
    /// include sharing the machine.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
}

pub fn run(a: CompareArgs) -> Exit {
    let p = a.puzzle.instance()?;
    let backends = match &a.backend {
        Some(list) => backend_list(list)?,
        None => Backend::general(),
    };
    let jobs = a.jobs.map_or(1, usize::from);
    let c = p.compare(&backends, &a.enc.options(a.timeout), jobs)?;
    match a.format {
        Format::Json => print(c.json())?,
        Format::Text => super::write_out(None, &c.text())?,
    }
    if let Some(message) = c.disagreement() {
        eprintln!("sokuc: error: {message}");
    }
    Ok(a.exit.code(p.kind(), c.exit_code(), c.proven_optimal()))
}
