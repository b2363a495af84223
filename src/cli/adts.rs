//! `sokuc adts`: Liu et al.'s all-different triangular solutions (the 24 tile types of
//! weights 0..3, each at most once, on the icosahedron).

use std::time::Duration;

use clap::Args;

use super::{BACKEND_HELP, Exit, Format, get_backend, print, seconds};
use sokuc::backend::SolveOptions;
use sokuc::exit;
use sokuc::input::{InputError, lists};
use sokuc::pool::{Pegs, PoolInstance, PoolType};
use sokuc::run::{AnyPuzzle, RunOptions};

#[derive(Args)]
pub struct AdtsArgs {
    /// Pegs for vertices A..L (default: free, any arrangement of 1..12).
    #[arg(long)]
    pub pegs: Option<String>,
    /// The types faces may take, each at most once: all24 (default) or "a,b,c;...".
    #[arg(long, default_value = "all24")]
    pub pool: String,
    /// Liu's Q3: for every 20-subset of the 24 types, is there an ADTS with free pegs that
    /// uses exactly those types? Prints one line per subset that passes the weight test.
    #[arg(long, conflicts_with_all = ["pegs", "pool"])]
    pub subsets: bool,
    #[arg(long, default_value = "sat", help = BACKEND_HELP.as_str())]
    pub backend: String,
    /// Output format: text for people, json for programs (one schema for every kind: docs/src/output-formats.md).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Time limit in seconds (per subset with --subsets); past it the answer is `unknown`
    /// (exit 30).
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
}

pub fn run(a: AdtsArgs) -> Exit {
    let pegs = match &a.pegs {
        None => Pegs::Free((1..=12).collect()),
        Some(p) => {
            let caps = lists::numbers("--pegs", p, "peg")?;
            if caps.len() != 12 {
                return Err(InputError::new("--pegs", None, format!("{} pegs for 12 vertices", caps.len())).into());
            }
            Pegs::Fixed(caps)
        }
    };
    let mut b = get_backend(&a.backend)?;
    let opts = RunOptions {
        solve: SolveOptions {
            time_limit: a.timeout,
            interrupt: super::signals::flag(),
            tuning: super::environment::tuning(),
            ..Default::default()
        },
        ..Default::default()
    };
    if a.subsets {
        return subsets(&a, &opts);
    }
    let mut inst = PoolInstance::liu(pegs);
    if a.pool != "all24" {
        inst.pool = lists::tiles("--pool", &a.pool)?
            .into_iter()
            .map(|t| PoolType::once(sokuc::model::tiles::canonical(t)))
            .collect();
    }
    let r = inst.solve(b.as_mut(), &opts, false)?;
    match a.format {
        Format::Text => super::write_out(None, &r.text)?,
        Format::Json => print(&r.json)?,
    }
    Ok(r.exit_code())
}

fn subsets(a: &AdtsArgs, opts: &RunOptions) -> Exit {
    let mut rows = Vec::new();
    let json = a.format == Format::Json;
    let s = sokuc::liu::subsets(&a.backend, opts, |row| {
        if json {
            rows.push(row.json());
            Ok(())
        } else {
            print(row.text())
        }
    })?;
    if json {
        print(s.json(rows))?;
    } else {
        print(s.text())?;
    }
    Ok(if s.unknown > 0 { exit::UNKNOWN } else { exit::SAT })
}
