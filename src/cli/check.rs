//! `sokuc check`: a solution file against a puzzle, by the puzzle's own verifier.

use std::path::PathBuf;

use clap::Args;

use super::{Exit, KIND_HELP, print};
use sokuc::error::exit;
use sokuc::input;
use sokuc::run::Checked;

#[derive(Args)]
pub struct CheckArgs {
    /// Puzzle file: .toml (3SoKu, pools), .kakuro, .tt, .opb, .cnf (also .gz, .bz2, .xz); `-` reads standard input.
    pub instance: PathBuf,
    /// The solution: what `solve` printed (text or `--format json`; with `--all`, its first
    /// solution), or (grids) a solution file, or (OPB/CNF) a solver's `s`/`v` lines.
    pub solution: PathBuf,
    #[arg(long, help = KIND_HELP.as_str())]
    pub kind: Option<String>,
}

pub fn run(a: CheckArgs) -> Exit {
    let p = sokuc::registry::load(&a.instance, a.kind.as_deref())?;
    let text = input::read_text(&a.solution)?;
    match p.check(&a.solution.display().to_string(), &text)? {
        Checked::Valid(what) => {
            print(format!("valid: {what}"))?;
            Ok(exit::SAT)
        }
        Checked::Invalid(why) => {
            print(format!("invalid: {why}"))?;
            Ok(exit::INVALID)
        }
    }
}
