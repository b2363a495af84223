//! `sokuc count`: the exact number of distinct solutions of a puzzle.

use std::time::{Duration, Instant};

use clap::Args;
use serde_json::json;

use super::{Exit, Format, PuzzleArgs, print, seconds};
use sokuc::budget::Deadline;
use sokuc::count::{CountError, CountOptions};
use sokuc::error::exit;

#[derive(Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// Output format: text for people, json for programs ("count" is a decimal string).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Time limit in seconds for the whole command; past it there is no count (exit 30).
    #[arg(long, value_parser = seconds, allow_hyphen_values = true)]
    pub timeout: Option<Duration>,
    /// Memory limit for the counter's states (bytes, or with a K, M, G or T suffix): past it
    /// counting stops with a clear error instead of exhausting memory.
    #[arg(long, default_value = "8G", value_parser = sokuc::budget::memory::parse_size)]
    pub max_memory: u64,
}

pub fn run(a: CountArgs) -> Exit {
    let started = Instant::now();
    let p = a.puzzle.load()?;
    let opts = CountOptions {
        max_memory: a.max_memory,
        deadline: Deadline::counted_from(started, a.timeout, None),
    };
    let c = match sokuc::count::count(p.as_ref(), &opts) {
        Ok(c) => c,
        Err(CountError::TimedOut) => {
            match a.format {
                Format::Text => print("unknown: the time limit was reached before the count was complete")?,
                Format::Json => print(json!({"status": "unknown", "puzzle": p.kind(), "reason": "time limit"}))?,
            }
            return Ok(exit::UNKNOWN);
        }
        Err(CountError::Refused(e)) => return Err(e),
    };
    let ms = (c.time.as_secs_f64() * 1e6).round() / 1e3;
    match a.format {
        Format::Text if c.placements == c.count => {
            print(format!("{} distinct solutions by {}, in {ms} ms", c.count, c.method))?
        }
        Format::Text => print(format!(
            "{} distinct solutions ({} placements of distinguishable tiles) by {}, in {ms} ms",
            c.count, c.placements, c.method
        ))?,
        Format::Json => print(json!({
            "status": "counted",
            "puzzle": p.kind(),
            "count": c.count.to_string(),
            "placements": c.placements.to_string(),
            "method": c.method,
            "time_ms": ms,
            "stats": {
                "faces": c.stats.faces,
                "frontier": c.stats.frontier,
                "peak_states": c.stats.peak_states,
                "total_states": c.stats.total_states,
                "decisions": c.stats.decisions,
                "components": c.stats.components,
                "cache_hits": c.stats.cache_hits,
                "peak_cache_bytes": c.stats.peak_cache_bytes,
            },
        }))?,
    }
    Ok(exit::SAT)
}
