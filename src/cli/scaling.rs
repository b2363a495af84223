//! `sokuc scaling`: solve time against faces on generated 3SoKu families.

use std::io::Write;
use std::time::Duration;

use clap::Args;

use super::progress::{Kind, When};
use super::{BACKENDS_HELP, EncodingArgs, Exit, Format, backend_list, print, seconds, whole};
use sokuc::exit;
use sokuc::{Error, InputError, Scaling};

#[derive(Args)]
pub struct ScalingArgs {
    /// Families to run, comma-separated: random, partition, partition-wide, 4-unsat.
    #[arg(long, default_value = "random,partition,4-unsat")]
    pub families: String,
    #[arg(long, alias = "backends", default_value = "sat,search", help = BACKENDS_HELP.as_str())]
    pub backend: String,
    /// Instances per size step (seeds 0..N).
    #[arg(long, default_value_t = 5, value_parser = whole::<u64>, allow_hyphen_values = true)]
    pub reps: u64,
    /// Largest number of faces.
    #[arg(long, default_value_t = 128, value_parser = whole::<usize>, allow_hyphen_values = true)]
    pub max_faces: usize,
    /// Per-instance time limit in seconds.
    #[arg(long, default_value = "10", value_parser = seconds, allow_hyphen_values = true)]
    pub timeout: Duration,
    #[command(flatten)]
    pub enc: EncodingArgs,
    /// Only the table, not the per-instance lines.
    #[arg(long)]
    pub quiet: bool,
    /// Output format: text for people, json for programs.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(a: ScalingArgs) -> Exit {
    let scaling = Scaling::new().families(&a.families)?;
    let backends = backend_list(&a.backend)?;
    if a.reps == 0 {
        return Err(InputError::new("--reps", None, "at least one instance per step").into());
    }
    let scaling = scaling
        .backends(&backends)
        .reps(a.reps)
        .max_faces(a.max_faces)
        .options(&a.enc.options(Some(a.timeout)));
    let stdout = std::io::stdout();
    // Cells measured so far, on standard error when it is a terminal: each writes one row.
    let done = sokuc::Progress::default();
    let shown = super::progress::show(&done, Kind::Count { unit: "cells measured" }, When::Auto);
    let inner: Box<dyn Write> = if a.quiet || a.format == Format::Json {
        Box::new(std::io::sink())
    } else {
        Box::new(stdout.lock())
    };
    let mut sink = shown.writer(inner, &done, None);
    let table = scaling.run(&mut sink);
    drop(sink);
    drop(shown);
    let table = table?;
    match a.format {
        Format::Text => {
            let _ = write!(stdout.lock(), "{}", table.text());
        }
        Format::Json => {
            print(serde_json::to_string_pretty(&table.json()).map_err(|e| Error::internal(e.to_string()))?)?
        }
    }
    Ok(exit::SAT)
}
