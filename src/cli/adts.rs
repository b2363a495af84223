//! `sokuc adts`: Liu et al.'s all-different triangular solutions (the 24 tile types of
//! weights 0..3, each at most once, on the icosahedron).

use std::time::Duration;

use clap::Args;

use super::{BACKEND_HELP, Exit, Format, backend_named, print, seconds};
use sokuc::{Error, InputError, Instance, Options, exit};

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
    let mut opts = Options::new().backend(backend_named(&a.backend)?);
    if let Some(t) = a.timeout {
        opts = opts.timeout(t);
    }
    if let Some(flag) = super::signals::flag() {
        opts = opts.interrupt(flag);
    }
    let opts = super::environment::tuned(opts);
    if a.subsets {
        return subsets(&a, &opts);
    }
    let pool = (a.pool != "all24").then_some(a.pool.as_str());
    let inst = Instance::all_different(a.pegs.as_deref(), pool).map_err(|e| match e {
        // The library names its arguments `pegs` and `pool`; the command, `--pegs` and `--pool`.
        Error::Input(e) if e.file == "pegs" || e.file == "pool" => {
            Error::Input(InputError::new(format!("--{}", e.file), e.line, e.message))
        }
        e => e,
    })?;
    let r = inst.solve(&opts)?;
    match a.format {
        Format::Text => super::write_out(None, r.text())?,
        Format::Json => print(r.json())?,
    }
    Ok(r.exit_code())
}

fn subsets(a: &AdtsArgs, opts: &Options) -> Exit {
    let mut rows = Vec::new();
    let json = a.format == Format::Json;
    let s = sokuc::adts_subsets(opts, |row| {
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
    let (_, _, unknown) = s.counts();
    Ok(if unknown > 0 { exit::UNKNOWN } else { exit::SAT })
}
