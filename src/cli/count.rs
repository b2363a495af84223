//! `sokuc count`: the exact number of distinct solutions of a puzzle.

use std::time::{Duration, Instant};

use clap::Args;
use serde_json::json;

use std::io::IsTerminal;

use super::progress::{self, Kind, When};
use super::{Exit, Format, PuzzleArgs, print, seconds};
use sokuc::{Count, Progress, exit};

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
    /// Accept the count only when more than one counter's word backs it. No counter of
    /// another kind exists yet, so this is refused (exit 2) rather than ignored.
    #[arg(long)]
    pub strict: bool,
}

pub fn run(a: CountArgs) -> Exit {
    // --timeout bounds the whole command: its clock starts before the instance is read.
    let started = Instant::now();
    let instance = a.puzzle.instance()?;
    if a.strict {
        // The library's refusal, in its words, before any work (--by-capacities included):
        // a strict count is refused before it starts, whatever the instance.
        instance.count_detailed(&Count::new().strict(true))?;
    }
    if a.by_capacities {
        return by_capacities(&a, &instance, started);
    }
    let progress = Progress::default();
    let shown = progress::show(
        &progress,
        Kind::Steps {
            unit: "faces",
            figure: Some("states"),
        },
        When::Auto,
    );
    if let Some(estimate) = instance.count_estimate()
        && std::io::stderr().is_terminal()
    {
        eprintln!("sokuc: {estimate}");
    }
    let counted = instance.count_detailed(&limits(&a, started).progress(progress.clone()));
    drop(shown);
    let Some(c) = counted? else {
        let far = how_far(&progress);
        match a.format {
            Format::Text if super::signals::caught().is_some() => {
                print(format!("unknown: interrupted before the count was complete{far}"))?
            }
            Format::Text => print(format!(
                "unknown: the time limit was reached before the count was complete{far}"
            ))?,
            Format::Json => {
                let got = progress.get();
                let mut v = json!({"status": "unknown", "puzzle": instance.kind(), "reason": stopped_by()});
                if got.total > 0 {
                    v["progress"] =
                        json!({"faces_placed": got.done, "faces": got.total, "last_layer_states": got.figure});
                }
                print(v)?
            }
        }
        return Ok(exit::UNKNOWN);
    };
    let ms = (c.time().as_secs_f64() * 1e6).round() / 1e3;
    let evidence = c.evidence().lines().join("\n");
    match a.format {
        Format::Text if c.placements() == c.count() => print(format!(
            "{} by {}, in {ms} ms\n{evidence}",
            distinct(c.count()),
            c.method()
        ))?,
        Format::Text => print(format!(
            "{} ({}) by {}, in {ms} ms\n{evidence}",
            distinct(c.count()),
            super::words::count(
                c.placements().clone(),
                "placement of distinguishable tiles",
                "placements of distinguishable tiles"
            ),
            c.method()
        ))?,
        Format::Json => print(c.json())?,
    }
    Ok(exit::SAT)
}

/// The command's limits, its time limit what is left of --timeout since `started`.
fn limits(a: &CountArgs, started: Instant) -> Count {
    let mut limits = Count::new().max_memory(a.max_memory);
    if let Some(limit) = a.timeout {
        limits = limits.timeout(limit.saturating_sub(started.elapsed()));
    }
    if let Some(flag) = super::signals::flag() {
        limits = limits.interrupt(flag);
    }
    limits
}

fn by_capacities(a: &CountArgs, instance: &sokuc::Instance, started: Instant) -> Exit {
    // Refused before the JSON object is begun, so that standard output is one error object.
    let mut arrangements = instance.by_capacities()?;
    if let Some(n) = a.sample {
        arrangements = arrangements.sample(n, a.seed);
    }
    let json = matches!(a.format, Format::Json);
    let lines = !a.summary;
    if json {
        print(format!(
            "{{\"status\":\"counted\",\"puzzle\":\"{}\",\"arrangements\":[",
            instance.kind()
        ))?;
    }
    let mut first = true;
    let s = arrangements.count(&limits(a, started), |x| {
        if !lines || x.count() == Some(0) {
            return Ok(());
        }
        if json {
            let sep = if std::mem::replace(&mut first, false) { "" } else { "," };
            return print(format!("{sep}{}", x.json()));
        }
        let caps = joined(x.capacities());
        match x.count() {
            Some(c) => print(format!("{caps} {c} {}", x.orbit())),
            None => print(format!(
                "{caps} skipped {} (counting it needs more than --max-memory)",
                x.orbit()
            )),
        }
    })?;
    if json {
        print(format!("],\"summary\":{}}}", s.json()))?;
    } else {
        let opt = |x: Option<u128>| x.map_or("-".to_string(), |v| v.to_string());
        let what = if s.sampled() {
            "random arrangements".to_string()
        } else {
            format!("arrangements up to {} symmetries", s.symmetries())
        };
        let skipped = if s.skipped() == 0 {
            String::new()
        } else {
            let first: Vec<String> = s.skipped_capacities().iter().map(|c| joined(c)).collect();
            format!(
                "; {} skipped over --max-memory (the figures leave them out; first: {})",
                s.skipped(),
                first.join(" ")
            )
        };
        print(format!(
            "{}{} {what}: {} with no solution; over the others min {}, median {}, max {}; hardest {}; {} solutions over all arrangements{}{skipped}, in {:.1} s",
            if s.complete() {
                String::new()
            } else {
                format!("stopped by the {} after ", stopped_by())
            },
            s.arrangements(),
            s.zero(),
            opt(s.min()),
            opt(s.median()),
            opt(s.max()),
            s.hardest().map_or_else(|| "-".to_string(), joined),
            s.total(),
            if s.sampled() {
                " sampled (each once)"
            } else {
                " (each orbit times its size)"
            },
            s.time().as_secs_f64(),
        ))?;
        for line in s.evidence().lines() {
            print(line)?;
        }
    }
    // A skipped arrangement leaves the figures incomplete, as the time limit does.
    Ok(if s.complete() && s.skipped() == 0 {
        exit::SAT
    } else {
        exit::UNKNOWN
    })
}

/// Pegs as the command writes them: "1,2,3".
fn joined(caps: &[u64]) -> String {
    caps.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
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
