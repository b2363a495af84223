//! Liu, Löffler & Hofstedt's question 3 (seeds 001/003): for every 20-subset of the 24 tile
//! types over 0..3, is there an all-different triangular solution with free pegs that uses
//! exactly those types? Each subset goes through the one run path, so every "sat" is
//! verified.

use serde_json::{Value, json};

use crate::backend::Status;
use crate::error::Error;
use crate::input::InputError;
use crate::model::Tile;
use crate::pool::{Pegs, PoolInstance, PoolType, all_types};
use crate::report::round_ms;
use crate::run::{self, RunOptions};

/// One subset that passed the weight test, and what the backend found.
#[derive(Debug)]
pub struct Row {
    /// The four types left out.
    pub without: Vec<Tile>,
    pub status: Status,
    /// The pegs of the verified solution.
    pub pegs: Option<Vec<u64>>,
    pub ms: f64,
}

impl Row {
    pub fn json(&self) -> Value {
        json!({
            "without": self.without,
            "status": self.status.as_str(),
            "verified": self.pegs.is_some(),
            "ms": round_ms(self.ms),
            "pegs": self.pegs,
        })
    }

    pub fn text(&self) -> String {
        let excluded: Vec<String> = self.without.iter().map(|t| format!("{t:?}")).collect();
        let detail = self.pegs.as_ref().map_or(String::new(), |p| {
            format!("pegs {}", p.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(","))
        });
        format!(
            "without {}: {} ({:.1} ms) {detail}",
            excluded.join(" "),
            self.status.as_str(),
            self.ms
        )
    }
}

#[derive(Debug, Default)]
pub struct Summary {
    pub subsets: u64,
    pub fail_weight_test: u64,
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
}

impl Summary {
    pub fn json(&self, rows: Vec<Value>) -> Value {
        json!({
            "subsets": self.subsets,
            "fail_weight_test": self.fail_weight_test,
            "sat": self.sat,
            "unsat": self.unsat,
            "unknown": self.unknown,
            "results": rows,
        })
    }

    pub fn text(&self) -> String {
        format!(
            "20-subsets: {} in all; {} fail the weight test (types must add up to 78); of the rest {} sat, {} unsat, {} unknown",
            self.subsets, self.fail_weight_test, self.sat, self.unsat, self.unknown
        )
    }
}

/// Runs every 20-subset. A subset whose weights do not add up to 1 + ... + 12 = 78 cannot
/// serve any arrangement (every corner lands on one vertex); the others are solved with free
/// pegs on `backend`, and `each` sees every row as it is decided.
pub fn subsets(
    backend: &str,
    opts: &RunOptions,
    mut each: impl FnMut(&Row) -> Result<(), Error>,
) -> Result<Summary, Error> {
    let types = all_types();
    let total: u64 = types.iter().flatten().sum();
    let mut s = Summary::default();
    let n = types.len();
    for a0 in 0..n {
        for a1 in a0 + 1..n {
            for a2 in a1 + 1..n {
                for a3 in a2 + 1..n {
                    s.subsets += 1;
                    let out = [a0, a1, a2, a3];
                    let out_weight: u64 = out.iter().map(|&i| types[i].iter().sum::<u64>()).sum();
                    if total - out_weight != 78 {
                        s.fail_weight_test += 1;
                        continue;
                    }
                    let mut inst = PoolInstance::liu(Pegs::Free((1..=12).collect()));
                    inst.pool = (0..n)
                        .filter(|i| !out.contains(i))
                        .map(|i| PoolType::once(types[i]))
                        .collect();
                    let mut b = crate::backend::lookup(backend)
                        .map_err(|e| InputError::new("--backend", None, e.to_string()))?;
                    let t = std::time::Instant::now();
                    let r = run::solve(&inst, b.as_mut(), opts)?;
                    let row = Row {
                        without: out.iter().map(|&i| types[i]).collect(),
                        status: r.answer.status,
                        pegs: r.answer.solution.map(|s| s.pegs),
                        ms: t.elapsed().as_secs_f64() * 1e3,
                    };
                    match row.status {
                        Status::Sat => s.sat += 1,
                        Status::Unsat => s.unsat += 1,
                        Status::Unknown => s.unknown += 1,
                    }
                    each(&row)?;
                }
            }
        }
    }
    Ok(s)
}
