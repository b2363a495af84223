//! `sokuc certify`: a verified answer, or an unsat claim with a DRAT proof checked by
//! drat-trim (the work is in `sokuc::Instance::certify`).

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{EncodingArgs, Exit, ExitArgs, Format, PuzzleArgs, backend_named, print, seconds};
use sokuc::Certify;

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
    let p = a.puzzle.instance()?;
    let options = a.enc.options(a.timeout).backend(backend_named(&a.backend)?);
    let mut how = Certify::new();
    if let Some(checker) = a.checker.clone().or_else(super::environment::drat_trim) {
        how = how.checker(checker);
    }
    if let Some(dir) = &a.keep {
        how = how.keep(dir);
    }
    let c = p.certify(&options, &how)?;
    if let Some(message) = c.contradiction() {
        eprintln!("sokuc: {message}");
    }
    match a.format {
        Format::Json => print(c.json())?,
        Format::Text => super::write_out(None, &c.text())?,
    }
    Ok(a.exit.code(p.kind(), c.exit_code(), false))
}
