//! `sokuc render`: an SVG net of a polyhedron puzzle, or of a solution of it.

use std::path::PathBuf;

use clap::Args;

use super::{Exit, PuzzleArgs};
use sokuc::Error;
use sokuc::exit;

#[derive(Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// A solution to draw, as `solve` printed it (text or `--format json`); without it the
    /// empty puzzle is drawn, with its fixed tiles.
    #[arg(long)]
    pub solution: Option<PathBuf>,
    /// The SVG file to write (`-`: standard output).
    #[arg(short = 'o', long)]
    pub output: PathBuf,
    /// Write every weight as a number (default: dots up to 3, numbers above).
    #[arg(long)]
    pub numbers: bool,
    /// Draw the map of vertex names instead: every vertex copy labelled with its name, every
    /// face with its vertices in clockwise order (pegs and tiles are left out).
    #[arg(long, conflicts_with_all = ["solution", "numbers"])]
    pub labels: bool,
}

pub fn run(a: RenderArgs) -> Exit {
    let p = a.puzzle.instance()?;
    let solution = match &a.solution {
        Some(path) => Some((path.display().to_string(), sokuc::read_text(path)?)),
        None => None,
    };
    sokuc::output::check(&a.output)?;
    let picture = if a.labels {
        p.names_picture()
    } else {
        p.picture(solution.as_ref().map(|(f, t)| (f.as_str(), t.as_str())), a.numbers)?
    };
    let picture = picture.ok_or_else(|| {
        Error::unsupported(
            p.source(),
            format!(
                "render draws polyhedron nets (3soku, pool); a {} puzzle has no net: `sokuc solve` prints its grid",
                p.kind()
            ),
        )
    })?;
    super::write_out(Some(&a.output), picture.svg())?;
    // An invalid solution is still drawn (it helps to see what is wrong), but says so.
    Ok(match picture.invalid() {
        Some(why) => {
            eprintln!("sokuc: the solution is invalid: {why}");
            exit::INVALID
        }
        None => exit::SAT,
    })
}
