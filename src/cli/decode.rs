//! `sokuc decode`: an external solver's answer for an emitted model, printed as `solve`
//! would print it.

use std::path::PathBuf;

use clap::Args;

use super::{EncodingArgs, Exit, ExitArgs, Format, PuzzleArgs, print};

#[derive(Args)]
pub struct DecodeArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    #[command(flatten)]
    pub enc: EncodingArgs,
    #[command(flatten)]
    pub exit: ExitArgs,
    /// The external solver's output: SAT-competition `s`/`v` lines (SAT solvers, minisat+,
    /// the MiniZinc export) or a CBC or HiGHS solution file.
    #[arg(long)]
    pub solution: PathBuf,
    /// Output format: text for people, json for programs (one schema for every kind: docs/src/output-formats.md).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(a: DecodeArgs) -> Exit {
    let p = a.puzzle.instance()?;
    let text = sokuc::read_text(&a.solution)?;
    let r = p.decode(&a.solution.display().to_string(), &text, &a.enc.options(None))?;
    match a.format {
        Format::Text => super::write_out(None, r.text())?,
        Format::Json => print(r.json())?,
    }
    Ok(a.exit.code(p.kind(), r.exit_code(), r.optimal() == Some(true)))
}
