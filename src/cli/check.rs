//! `sokuc check`: a solution file against a puzzle, by the puzzle's own verifier; with
//! `--partial`, the tiles a player has placed so far, and whether the rest can be completed.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use serde_json::json;

use super::{BACKEND_HELP, Exit, Format, KIND_HELP, PuzzleArgs, backend_named, print, seconds, signals};
use sokuc::{Checked, InputError, Options, exit};

#[derive(Args)]
pub struct CheckArgs {
    /// The puzzle file (.toml, .kakuro, .tt, .opb, .cnf, also compressed; `-` reads standard
    /// input), then the solution. With --pegs, the solution alone takes this place.
    ///
    /// The solution is what `solve` printed (text or `--format json`; with `--all`, its
    /// first solution), or (grids) a solution file, or (OPB/CNF) a solver's `s`/`v` lines.
    /// With --partial, it is the tiles placed so far, one per line, as `solve` prints them
    /// or as "ABC: (0,1,2), 2 touches C".
    #[arg(value_name = "PUZZLE")]
    pub puzzle_file: PathBuf,
    /// The solution, or with --partial the tiles placed so far (see PUZZLE).
    #[arg(value_name = "SOLUTION")]
    pub solution: Option<PathBuf>,
    /// IcoSoKu pegs for vertices A..L, e.g. 1,5,11,10,7,12,9,2,6,8,4,3 (instead of a puzzle file).
    #[arg(long)]
    pub pegs: Option<String>,
    #[arg(long, help = KIND_HELP.as_str())]
    pub kind: Option<String>,
    /// The solution is part of one (3SoKu): the tiles placed so far. Says whether they can
    /// all stay (exit 0, with a completion that keeps them and a next tile), or which of them
    /// to take off, the fewest (exit 20, with a completion after taking them off).
    #[arg(long)]
    pub partial: bool,
    /// With --partial: the backend that completes the puzzle.
    #[arg(long, default_value = "auto", requires = "partial", help = BACKEND_HELP.as_str())]
    pub backend: String,
    /// With --partial: time limit in seconds for the whole command.
    #[arg(long, value_parser = seconds, allow_hyphen_values = true, requires = "partial")]
    pub timeout: Option<Duration>,
    /// Output format: text for people, json for programs.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

impl CheckArgs {
    /// The puzzle and the solution file, from the positional files and --pegs.
    fn split(&self) -> Result<(PuzzleArgs, &Path), InputError> {
        let usage = |m: &str| InputError::new("command line", None, m);
        match (&self.pegs, &self.solution) {
            (Some(_), None) => Ok((self.puzzle(None), &self.puzzle_file)),
            (Some(_), Some(_)) => Err(usage("give a puzzle file or --pegs, not both")),
            (None, Some(solution)) => Ok((self.puzzle(Some(self.puzzle_file.clone())), solution)),
            (None, None) => Err(usage(
                "the following required arguments were not provided: <SOLUTION> (give the puzzle file, then the solution; or --pegs and the solution)",
            )),
        }
    }

    fn puzzle(&self, instance: Option<PathBuf>) -> PuzzleArgs {
        PuzzleArgs {
            instance,
            pegs: self.pegs.clone(),
            kind: self.kind.clone(),
        }
    }
}

pub fn run(a: CheckArgs) -> Exit {
    let (puzzle, solution) = a.split()?;
    if puzzle.instance.as_deref() == Some(Path::new("-")) && solution == Path::new("-") {
        return Err(InputError::new(
            "command line",
            None,
            "only one of the files can be standard input (`-`)",
        )
        .into());
    }
    let p = puzzle.instance()?;
    let name = if solution == Path::new("-") {
        "<stdin>".to_string()
    } else {
        solution.display().to_string()
    };
    let text = sokuc::read_text(solution)?;
    if a.partial {
        if p.kind() != "3soku" {
            return Err(InputError::new(
                &name,
                None,
                format!("--partial checks 3SoKu placements; this puzzle is {}", p.kind()),
            )
            .into());
        }
        let mut opts = Options::new().backend(backend_named(&a.backend)?);
        if let Some(t) = a.timeout {
            opts = opts.timeout(t);
        }
        if let Some(flag) = signals::flag() {
            opts = opts.interrupt(flag);
        }
        let assisted = p.assist(&name, &text, &super::environment::tuned(opts))?;
        print(match a.format {
            Format::Text => assisted.text(),
            Format::Json => assisted.json().to_string(),
        })?;
        return Ok(assisted.exit_code());
    }
    let (valid, words, code) = match p.check(&name, &text)? {
        Checked::Valid(what) => (true, what, exit::SAT),
        Checked::Invalid(why) => (false, why, exit::INVALID),
    };
    print(match a.format {
        Format::Text => format!("{}: {words}", if valid { "valid" } else { "invalid" }),
        Format::Json => json!({
            "check": if valid { "valid" } else { "invalid" },
            "valid": valid,
            "message": words.trim_end(),
        })
        .to_string(),
    })?;
    Ok(code)
}
