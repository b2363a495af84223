//! `sokuc count`: the exact number of distinct solutions of a puzzle.

use std::time::{Duration, Instant};

use clap::Args;
use serde_json::json;

use std::io::IsTerminal;

use super::progress::{self, Kind, When};
use super::{Exit, Format, PuzzleArgs, print, seconds};
use sokuc::Progress;
use sokuc::budget::Deadline;
use sokuc::count::{CountError, CountOptions};
use sokuc::exit;

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
    #[arg(long, default_value = "8G", value_parser = sokuc::parse_size)]
    pub max_memory: u64,
    /// Free pegs: count each peg arrangement (one per symmetry orbit) and print one line per
    /// arrangement with a solution (`caps count orbit-size`), then a summary. An arrangement
    /// whose count needs more than --max-memory is listed as skipped and left out of the
    /// figures (exit 30, as for the time limit).
    #[arg(long)]
    pub by_capacities: bool,
    /// With --by-capacities: print only the summary (min/median/max, arrangements with no
    /// solution, the hardest arrangement).
    #[arg(long, requires = "by_capacities")]
    pub summary: bool,
    /// With --by-capacities: count N random arrangements instead of every orbit.
    #[arg(long, requires = "by_capacities", value_name = "N")]
    pub sample: Option<u64>,
    /// The seed of --sample.
    #[arg(long, requires = "sample", default_value_t = 1)]
    pub seed: u64,
}

pub fn run(a: CountArgs) -> Exit {
    let started = Instant::now();
    let p = a.puzzle.load()?;
    let opts = CountOptions {
        max_memory: a.max_memory,
        deadline: Deadline::counted_from(started, a.timeout, super::signals::flag()),
        progress: Progress::default(),
    };
    if a.by_capacities {
        return by_capacities(&a, p.as_ref(), &opts);
    }
    let shown = progress::show(
        &opts.progress,
        Kind::Steps {
            unit: "faces",
            figure: Some("states"),
        },
        When::Auto,
    );
    if let Some(estimate) = sokuc::count::estimate(p.as_ref())
        && std::io::stderr().is_terminal()
    {
        eprintln!("sokuc: {estimate}");
    }
    let counted = sokuc::count::count(p.as_ref(), &opts);
    drop(shown);
    let c = match counted {
        Ok(c) => c,
        Err(CountError::TimedOut) => {
            let far = how_far(&opts.progress);
            match a.format {
                Format::Text if super::signals::caught().is_some() => {
                    print(format!("unknown: interrupted before the count was complete{far}"))?
                }
                Format::Text => print(format!(
                    "unknown: the time limit was reached before the count was complete{far}"
                ))?,
                Format::Json => {
                    let got = opts.progress.get();
                    let mut v = json!({"status": "unknown", "puzzle": p.kind(), "reason": stopped_by()});
                    if got.total > 0 {
                        v["progress"] =
                            json!({"faces_placed": got.done, "faces": got.total, "last_layer_states": got.figure});
                    }
                    print(v)?
                }
            }
            return Ok(exit::UNKNOWN);
        }
        Err(CountError::Refused(e) | CountError::OverMemory(e)) => return Err(e),
    };
    let ms = (c.time.as_secs_f64() * 1e6).round() / 1e3;
    match a.format {
        Format::Text if c.placements == c.count => {
            print(format!("{} by {}, in {ms} ms", distinct(&c.count), c.method))?
        }
        Format::Text => print(format!(
            "{} ({}) by {}, in {ms} ms",
            distinct(&c.count),
            super::words::count(
                c.placements.clone(),
                "placement of distinguishable tiles",
                "placements of distinguishable tiles"
            ),
            c.method
        ))?,
        Format::Json => print(c.json(p.kind()))?,
    }
    Ok(exit::SAT)
}

fn by_capacities(a: &CountArgs, p: &dyn sokuc::run::AnyPuzzle, opts: &CountOptions) -> Exit {
    use sokuc::count::by_caps::{Which, by_capacities};
    let Some(inst) = p.as_any().downcast_ref::<sokuc::model::pool::PoolInstance>() else {
        return Err(sokuc::Error::unsupported(
            "--by-capacities",
            "needs an instance with free pegs (capacities = { permutation_of = [...] })".to_string(),
        ));
    };
    // Refused before the JSON object is begun, so that standard output is one error object.
    if !matches!(inst.pegs, sokuc::model::pool::Pegs::Free(_)) {
        return Err(sokuc::Error::unsupported(
            "--by-capacities",
            "needs free pegs (capacities = { permutation_of = [...] }); this instance's pegs are given".to_string(),
        ));
    }
    let which = match a.sample {
        Some(n) => Which::Sample { n, seed: a.seed },
        None => Which::Orbits,
    };
    let json = matches!(a.format, Format::Json);
    let lines = !a.summary;
    if json {
        print(format!(
            "{{\"status\":\"counted\",\"puzzle\":\"{}\",\"arrangements\":[",
            p.kind()
        ))?;
    }
    let mut first = true;
    let started = Instant::now();
    let found = by_capacities(inst, which, opts, &mut |x| {
        if !lines || x.count == Some(0) {
            return Ok(());
        }
        let caps: Vec<String> = x.caps.iter().map(u64::to_string).collect();
        if json {
            let sep = if std::mem::replace(&mut first, false) { "" } else { "," };
            let line = match x.count {
                Some(c) => json!({"capacities": x.caps, "count": c.to_string(), "orbit": x.orbit}),
                None => json!({"capacities": x.caps, "skipped": "over --max-memory", "orbit": x.orbit}),
            };
            print(format!("{sep}{line}"))
        } else {
            match x.count {
                Some(c) => print(format!("{} {c} {}", caps.join(","), x.orbit)),
                None => print(format!(
                    "{} skipped {} (counting it needs more than --max-memory)",
                    caps.join(","),
                    x.orbit
                )),
            }
        }
    });
    let s = match found {
        Ok(s) => s,
        Err(CountError::TimedOut) => return Ok(exit::UNKNOWN),
        Err(CountError::Refused(e) | CountError::OverMemory(e)) => return Err(e),
    };
    let secs = started.elapsed().as_secs_f64();
    let opt = |x: Option<u128>| x.map_or("-".to_string(), |v| v.to_string());
    let hardest = s
        .hardest
        .as_ref()
        .map(|h| h.iter().map(u64::to_string).collect::<Vec<_>>().join(","));
    if json {
        print(format!(
            "],\"summary\":{}}}",
            json!({
                "arrangements": s.arrangements,
                "symmetries": s.symmetries,
                "sampled": a.sample.is_some(),
                "complete": s.complete,
                "skipped": s.skipped,
                "skipped_capacities": s.skipped_caps,
                "zero": s.zero,
                "min": s.min.map(|v| v.to_string()),
                "median": s.median.map(|v| v.to_string()),
                "max": s.max.map(|v| v.to_string()),
                "hardest": s.hardest,
                "total": s.total.to_string(),
                "time_ms": (secs * 1e6).round() / 1e3,
            })
        ))?;
    } else {
        let what = if a.sample.is_some() {
            "random arrangements".to_string()
        } else {
            format!("arrangements up to {} symmetries", s.symmetries)
        };
        let skipped = if s.skipped == 0 {
            String::new()
        } else {
            let first: Vec<String> = s
                .skipped_caps
                .iter()
                .map(|c| c.iter().map(u64::to_string).collect::<Vec<_>>().join(","))
                .collect();
            format!(
                "; {} skipped over --max-memory (the figures leave them out; first: {})",
                s.skipped,
                first.join(" ")
            )
        };
        print(format!(
            "{}{} {what}: {} with no solution; over the others min {}, median {}, max {}; hardest {}; {} solutions over all arrangements{}{skipped}, in {secs:.1} s",
            if s.complete {
                String::new()
            } else {
                format!("stopped by the {} after ", stopped_by())
            },
            s.arrangements,
            s.zero,
            opt(s.min),
            opt(s.median),
            opt(s.max),
            hardest.unwrap_or_else(|| "-".to_string()),
            s.total,
            if a.sample.is_some() {
                " sampled (each once)"
            } else {
                " (each orbit times its size)"
            },
        ))?;
    }
    // A skipped arrangement leaves the figures incomplete, as the time limit does.
    Ok(if s.complete && s.skipped == 0 {
        exit::SAT
    } else {
        exit::UNKNOWN
    })
}

/// What ended an incomplete count: a signal, or the time limit.
fn stopped_by() -> &'static str {
    if super::signals::caught().is_some() {
        "interrupt"
    } else {
        "time limit"
    }
}

/// "1 distinct solution", "12 distinct solutions".
fn distinct(n: &num_bigint::BigUint) -> String {
    super::words::count(n.clone(), "distinct solution", "distinct solutions")
}

/// ": 14 of 20 faces placed (1234 states in the last layer)", when the counter got that far
/// (the 3SoKu counter reports its layers; the others nothing).
fn how_far(p: &Progress) -> String {
    let got = p.get();
    if got.total == 0 {
        return String::new();
    }
    format!(
        ": {} of {} faces placed ({} in the last layer)",
        got.done,
        got.total,
        super::words::count_s(got.figure, "state")
    )
}
