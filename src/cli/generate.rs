//! `sokuc generate`: 3SoKu instances and unique Tricky Triples (the work is the library's
//! `SokuGenerator` and `TrickyGenerator`). A file is written only with its claim proven: a
//! Tricky Triple stopped by `--timeout` or a signal, or whose final check does not prove it
//! unique, writes nothing and exits 30 (130 after a signal).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use super::{Exit, Format, print, seconds, whole};
use sokuc::{InputError, SokuGenerator, TrickyGenerator, exit};

#[derive(Args)]
pub struct GenerateArgs {
    /// Puzzle kind: 3soku (random solvable, --from-partition, --four-unsat) or trickytriple.
    #[arg(value_enum)]
    pub kind: GenerateKind,
    /// Random seed (the same seed gives the same puzzle).
    #[arg(long, default_value_t = 1, value_parser = whole::<u64>, allow_hyphen_values = true)]
    pub seed: u64,
    /// Write the puzzle here (default, or `-`: standard output). Nothing is written when
    /// the puzzle's claim is not proven.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// Output format: text (the puzzle file) or json (one document with the file, its claim
    /// and the evidence; the file also goes to -o FILE when given).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// trickytriple: time limit in seconds for the whole generation; past it nothing is
    /// written (exit 30), as after SIGINT or SIGTERM (exit 130).
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
    /// Claims must rest on more than one engine's word: trickytriple's final uniqueness
    /// check needs a second engine of another kind to confirm it, else nothing is written
    /// (exit 30); 3soku's claims rest on a verified solution or on totals, which is enough.
    #[arg(long)]
    pub strict: bool,
    /// trickytriple: side of the square grid.
    #[arg(long, value_parser = whole::<usize>, allow_hyphen_values = true)]
    pub size: Option<usize>,
    /// trickytriple: percentage of black cells.
    #[arg(long, default_value_t = 10, value_parser = whole::<u32>, allow_hyphen_values = true)]
    pub black: u32,
    /// 3soku: the variant (a built-in name or a variant file).
    #[arg(long, default_value = "icosahedron")]
    pub variant: String,
    /// 3soku: the tiles: a built-in set (icosoku) or a list such as "0,1,2;0,0,1;...".
    /// Default: icosoku on a 20-face variant, else random tiles.
    #[arg(long)]
    pub tiles: Option<String>,
    /// 3soku: random tiles have weights 0..=N.
    #[arg(long, default_value_t = 3, value_parser = whole::<u64>, allow_hyphen_values = true)]
    pub max_weight: u64,
    /// 3soku: pre-place this many tiles where the planted solution has them.
    #[arg(long, default_value_t = 0, value_parser = whole::<usize>, allow_hyphen_values = true)]
    pub fixed: usize,
    /// 3soku: pre-placed tiles keep their turn (default: the turn is left free).
    #[arg(long)]
    pub fixed_rotation: bool,
    /// 3soku: the Partition reduction for these sizes, e.g. 3,1,1,2,2,1: a bipyramid
    /// that is solvable exactly when the sizes split into two equal halves.
    #[arg(long, value_name = "SIZES", conflicts_with_all = ["random_partition", "four_unsat"])]
    pub from_partition: Option<String>,
    /// 3soku: the Partition reduction for N random sizes in 1..=--max-size (total made even).
    #[arg(long, value_name = "N", conflicts_with = "four_unsat", value_parser = whole::<usize>, allow_hyphen_values = true)]
    pub random_partition: Option<usize>,
    /// 3soku: largest size for --random-partition.
    #[arg(long, default_value_t = 20, value_parser = whole::<u64>, allow_hyphen_values = true)]
    pub max_size: u64,
    /// 3soku: the "4-unsat" family: a solvable instance with one capacity raised by 1
    /// and --fixed tiles (default 4) pre-placed with a free turn.
    #[arg(long)]
    pub four_unsat: bool,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum GenerateKind {
    Trickytriple,
    #[value(name = "3soku")]
    Soku,
}

pub fn run(a: GenerateArgs) -> Exit {
    // --timeout bounds the whole command.
    let started = Instant::now();
    if a.format == Format::Json && a.output.as_deref().is_some_and(|p| p.as_os_str() == "-") {
        return Err(InputError::new(
            "-o",
            None,
            "--format json prints the document on standard output: give -o FILE for the puzzle, or leave -o out (the puzzle is in the document)",
        )
        .into());
    }
    let made = if a.kind == GenerateKind::Soku {
        if a.size.is_some() {
            return Err(InputError::new("--size", None, "--size is for trickytriple; 3soku takes --variant").into());
        }
        if a.timeout.is_some() {
            return Err(
                InputError::new("--timeout", None, "--timeout is for trickytriple; 3soku solves nothing").into(),
            );
        }
        let mut g = SokuGenerator::new(a.seed)
            .variant(a.variant.as_str())
            .max_weight(a.max_weight)
            .fixed(a.fixed, a.fixed_rotation);
        if let Some(tiles) = &a.tiles {
            g = g.tiles(tiles.as_str());
        }
        if let Some(sizes) = &a.from_partition {
            g = g.from_partition(sizes.as_str());
        }
        if let Some(n) = a.random_partition {
            g = g.random_partition(n, a.max_size);
        }
        if a.four_unsat {
            g = g.four_unsat();
        }
        g.generate()?
    } else {
        // Options of the other kind are refused rather than silently ignored.
        let soku_only = [
            ("--tiles", a.tiles.is_some()),
            ("--fixed", a.fixed > 0),
            ("--fixed-rotation", a.fixed_rotation),
            ("--from-partition", a.from_partition.is_some()),
            ("--random-partition", a.random_partition.is_some()),
            ("--four-unsat", a.four_unsat),
        ];
        if let Some((opt, _)) = soku_only.iter().find(|(_, set)| *set) {
            return Err(InputError::new(*opt, None, format!("{opt} is for 3soku, not trickytriple")).into());
        }
        let Some(size) = a.size else {
            return Err(InputError::new("--size", None, "trickytriple needs --size (the side of the grid)").into());
        };
        let mut options = sokuc::Options::new().strict(a.strict).clock_started(started);
        if let Some(t) = a.timeout {
            options = options.timeout(t);
        }
        if let Some(flag) = super::signals::flag() {
            options = options.interrupt(flag);
        }
        let made = TrickyGenerator::new(size, a.seed)
            .black(a.black)
            .generate(&super::environment::tuned(options))?;
        let ms = started.elapsed().as_secs_f64() * 1e3;
        match made.claim() {
            Some(claim) => eprintln!("sokuc generate: {size}x{size} in {ms:.0} ms; {claim}"),
            None => eprintln!("sokuc generate: {}; nothing written", made.reason().unwrap_or_default()),
        }
        made
    };
    if let Some(text) = made.text() {
        match a.format {
            Format::Text => super::write_out(a.output.as_deref(), text)?,
            Format::Json if a.output.is_some() => super::write_out(a.output.as_deref(), text)?,
            Format::Json => {}
        }
    }
    if a.format == Format::Json {
        print(made.json())?;
    }
    // No file: the claim was not proven (main exits 130 instead after a signal).
    Ok(if made.text().is_some() {
        exit::SAT
    } else {
        exit::UNKNOWN
    })
}
