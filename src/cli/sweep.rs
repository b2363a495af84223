//! `sokuc sweep` and `sokuc sweep-merge`.

use super::progress::{Kind, When};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::words::{count, count_s};
use super::{BACKEND_HELP, Exit, Format, backend_named, print, seconds, whole};
use sokuc::exit;
use sokuc::{Error, Sweep, SweepSummary};

#[derive(Args)]
pub struct SweepArgs {
    /// A variant (built-in name or .toml file), or a 3SoKu instance file whose variant, tiles
    /// and capacity multiset are swept.
    #[arg(default_value = "icosahedron")]
    pub what: String,
    /// Tiles: a built-in set (icosoku) or a list like "0,0,1;0,1,2;..." (default: the
    /// instance's tiles, or icosoku for the icosahedron).
    #[arg(long)]
    pub tiles: Option<String>,
    /// The capacity multiset, e.g. 1,2,3,4 (default: the instance's capacities, or 1..V).
    #[arg(long)]
    pub caps: Option<String>,
    /// Pool mode (Liu's all-different triangular solutions): faces take any of these types,
    /// each at most once. `all24` is every corner triple over 0..3 up to rotation.
    #[arg(long, conflicts_with = "tiles")]
    pub pool: Option<String>,
    /// Print the number of canonical instances (orbits) and stop.
    #[arg(long)]
    pub count_only: bool,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = whole::<usize>, allow_hyphen_values = true)]
    pub threads: Option<usize>,
    /// Default search: one engine per worker, re-solved with new capacities.
    #[arg(long, default_value = "search", help = BACKEND_HELP.as_str())]
    pub backend: String,
    /// Take only the blocks of instances whose block number (index / block size) is K
    /// modulo N (0 <= K < N).
    #[arg(long)]
    pub shard: Option<String>,
    /// Block size: consecutive canonical instances that go to the same shard and share the
    /// search engine's carried solution; answers depend only on the block size.
    #[arg(long, default_value_t = Sweep::DEFAULT_BLOCK, value_parser = clap::value_parser!(u64).range(1..), allow_hyphen_values = true)]
    pub block: u64,
    /// Results file: a header and one record per instance, in order.
    #[arg(long, short = 'o', alias = "out")]
    pub output: Option<PathBuf>,
    /// Continue the results file given with --output where it stopped.
    #[arg(long, requires = "output")]
    pub resume: bool,
    /// Only the first M instances (of this shard).
    #[arg(long, value_parser = whole::<usize>, allow_hyphen_values = true)]
    pub limit: Option<usize>,
    /// Per-instance time limit in seconds (past it the record says unknown).
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
    /// Progress on stderr: auto (when stderr is a terminal), on or off.
    #[arg(long, value_enum, default_value_t = Progress::Auto)]
    pub progress: Progress,
    /// Summary format: text for people, json for programs.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Progress {
    Auto,
    On,
    Off,
}

#[derive(Args)]
pub struct SweepMergeArgs {
    /// Results files of the shards (every K of one K/N split).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write the combined results file here (identical to a single run's).
    #[arg(long, short = 'o', alias = "out")]
    pub output: Option<PathBuf>,
    /// Summary format: text for people, json for programs.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(a: SweepArgs) -> Exit {
    refuse_stdout(a.output.as_deref())?;
    let sweep = Sweep::new(&a.what, a.tiles.as_deref(), a.caps.as_deref(), a.pool.as_deref())?;
    if a.count_only {
        let (g, n) = (sweep.symmetries(), sweep.instances());
        if a.format == Format::Json {
            print(serde_json::json!({"variant": sweep.variant(), "symmetries": g, "instances": n}))?;
        } else {
            print(n)?;
            eprintln!(
                "sweep {}: {} ({})",
                sweep.variant(),
                count_s(n, "canonical instance"),
                count(g, "symmetry", "symmetries")
            );
        }
        return Ok(exit::SAT);
    }
    let backend = backend_named(&a.backend)?;
    let mut sweep = match &a.shard {
        Some(s) => sweep.shard(s)?,
        None => sweep,
    };
    let mut options = super::environment::tuned(sokuc::Options::new().backend(backend));
    if let Some(t) = a.timeout {
        options = options.timeout(t);
    }
    let progress = sokuc::Progress::default();
    sweep = sweep
        .options(&options)
        .block(a.block)
        .resume(a.resume)
        .progress(&progress);
    if let Some(t) = a.threads {
        sweep = sweep.threads(t);
    }
    if let Some(o) = &a.output {
        sweep = sweep.output(o);
    }
    if let Some(l) = a.limit {
        sweep = sweep.limit(l);
    }
    let when = match a.progress {
        Progress::Auto => When::Auto,
        Progress::On => When::Always,
        Progress::Off => When::Never,
    };
    let shown = super::progress::show(
        &progress,
        Kind::Steps {
            unit: "instances",
            figure: None,
        },
        when,
    );
    let s = sweep.run();
    drop(shown);
    let s = s?;
    summary(&s, a.format)?;
    Ok(s.exit_code())
}

pub fn merge(a: SweepMergeArgs) -> Exit {
    refuse_stdout(a.output.as_deref())?;
    let s = Sweep::merge(&a.files, a.output.as_deref())?;
    summary(&s, a.format)?;
    Ok(s.exit_code())
}

/// The results file is a file (a journal that --resume continues), and standard output
/// carries the summary.
fn refuse_stdout(output: Option<&std::path::Path>) -> Result<(), Error> {
    if output.is_some_and(sokuc::output::is_stdout) {
        return Err(Error::unsupported(
            "--output",
            "--output - is not possible: the results file is a journal that --resume continues, and standard output carries the summary; give a file name",
        ));
    }
    Ok(())
}

fn summary(s: &SweepSummary, format: Format) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    if format == Format::Json {
        let text = serde_json::to_string_pretty(&s.json()).map_err(|e| Error::internal(e.to_string()))?;
        writeln!(out, "{text}")?;
        return Ok(());
    }
    write!(out, "{}", s.text())?;
    Ok(())
}
