//! `sokuc certify`: a verified answer, or an unsat claim with a DRAT proof checked by
//! drat-trim (the work is in `sokuc::certify`).

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{EncodingArgs, Exit, ExitArgs, Format, PuzzleArgs, print, seconds};
use sokuc::certify::{self, Request};

#[derive(Args)]
pub struct CertifyArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    #[command(flatten)]
    pub enc: EncodingArgs,
    #[command(flatten)]
    pub exit: ExitArgs,
    #[arg(long, default_value = "sat", help = super::PROOF_BACKEND_HELP.as_str())]
    pub backend: String,
    /// The DRAT checker (default: $SOKUC_DRAT_TRIM, drat-trim on PATH, or target/tools/drat-trim).
    #[arg(long)]
    pub checker: Option<PathBuf>,
    /// Keep the CNF and the proof in this directory (default: a temporary one, removed).
    #[arg(long)]
    pub keep: Option<PathBuf>,
    /// Time limit in seconds, for the solver and for the checker each.
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
    /// Output format: text for people, json for programs.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(a: CertifyArgs) -> Exit {
    let p = a.puzzle.load()?;
    let checker = a.checker.clone().or_else(super::environment::drat_trim);
    let c = certify::certify(
        p.as_ref(),
        &Request {
            backend: &a.backend,
            compile: a.enc.compile(),
            encode: a.enc.encode(),
            time_limit: a.timeout,
            checker: checker.as_deref(),
            keep: a.keep.as_deref(),
            tuning: super::environment::tuning(),
        },
    )?;
    if let Some(message) = c.contradiction() {
        eprintln!("sokuc: {message}");
    }
    match a.format {
        Format::Json => print(c.json())?,
        Format::Text => super::write_out(None, &c.text())?,
    }
    Ok(a.exit.code(p.kind(), c.exit_code(), false))
}
