//! The scaling benchmark: solve time against the number of faces, per backend, on generated
//! 3SoKu families (`sokuc generate 3soku` makes the same instances).
//!
//! Each answer is also checked against what the family promises: random instances are
//! solvable (the planted arrangement), 4-unsat ones are not (the totals differ), and a
//! Partition instance is solvable exactly when its sizes split evenly (a subset-sum table here,
//! separate from sokuc's models). A wrong status stops the run with an error.

use std::io::Write;
use std::time::Instant;

use crate::backend::{self, BackendError, Status};
use crate::input::variant_file::load_variant;
use crate::model::{Instance, builtin};
use crate::run::{self, RunError, RunOptions};
use crate::soku::generate::{self, TileChoice};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Random tiles (weights 0..3) on random faces; capacities read off.
    Random,
    /// Seed 000's Partition reduction of random sizes in `1..=4n` (mostly solvable; the sums
    /// stay small enough for CNF).
    Partition,
    /// The same with sizes up to 10^6, near Partition's hard region (about `2^n` against the
    /// largest size) for the steps used: about half unsolvable, and sums too wide for CNF.
    PartitionWide,
    /// Random instance, one capacity + 1, 4 tiles fixed with a free turn.
    FourUnsat,
}

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::Random => "random",
            Family::Partition => "partition",
            Family::PartitionWide => "partition-wide",
            Family::FourUnsat => "4-unsat",
        }
    }
}

/// One size step of a family: a variant (by name) and how to make instance `k` of it.
#[derive(Debug, Clone)]
pub struct Step {
    pub variant: String,
    pub faces: usize,
    /// Partition: the number of sizes.
    pub n: usize,
}

/// The size steps, smallest first, up to `max_faces`.
pub fn steps(family: Family, max_faces: usize) -> Vec<Step> {
    let mut out = Vec::new();
    match family {
        Family::Random | Family::FourUnsat => {
            for name in builtin::DELTAHEDRA {
                out.push(name.to_string());
            }
            for n in [12, 16, 24, 32, 48, 64, 96, 128] {
                out.push(format!("bipyramid-{n}"));
            }
        }
        Family::Partition => {
            for n in [4, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64] {
                out.push(format!("bipyramid-{n}"));
            }
        }
        Family::PartitionWide => {
            for n in [4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 28, 32] {
                out.push(format!("bipyramid-{n}"));
            }
        }
    }
    out.into_iter()
        .map(|variant| {
            let v = load_variant(&variant, None, ("built-in", None)).expect("built-in variants load");
            Step {
                faces: v.num_faces(),
                n: v.num_faces() / 2,
                variant,
            }
        })
        .filter(|s| s.faces <= max_faces)
        .collect()
}

/// Largest Partition size for `n` sizes: `4n` keeps about half the instances solvable while
/// leaving no small-number shortcut.
pub fn partition_max_size(n: usize) -> u64 {
    4 * n as u64
}

/// Instance `k` of a step, and the status it must have (`None`: not known in advance).
pub fn instance(family: Family, step: &Step, k: u64) -> (Instance, Status) {
    let v = load_variant(&step.variant, None, ("built-in", None)).expect("built-in variants load");
    let random = TileChoice::Random { max_weight: 3 };
    match family {
        Family::Random => {
            let g = generate::random_solvable(&v, &random, 0, false, k).expect("valid parameters");
            (g.instance, Status::Sat)
        }
        Family::FourUnsat => {
            let g = generate::four_unsat(&v, &random, 4.min(v.num_faces()), k).expect("valid parameters");
            (g.instance, Status::Unsat)
        }
        Family::Partition | Family::PartitionWide => {
            let max = if family == Family::Partition {
                partition_max_size(step.n)
            } else {
                generate::MAX_WEIGHT
            };
            let sizes = generate::random_partition(step.n, max, k);
            let want = if splits(&sizes) { Status::Sat } else { Status::Unsat };
            (generate::from_partition(&sizes).expect("valid sizes"), want)
        }
    }
}

/// Can the sizes be split into two halves of equal sum? Subset sums, O(n * total).
pub fn splits(sizes: &[u64]) -> bool {
    let total: u64 = sizes.iter().sum();
    if total % 2 == 1 {
        return false;
    }
    let half = (total / 2) as usize;
    let mut reach = vec![false; half + 1];
    reach[0] = true;
    for &s in sizes {
        let s = s as usize;
        for t in (s..=half).rev() {
            if reach[t - s] {
                reach[t] = true;
            }
        }
    }
    reach[half]
}

/// One cell of the table: a backend on one size step.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Cell {
    pub family: String,
    pub variant: String,
    pub faces: usize,
    pub backend: String,
    pub sat: usize,
    pub unsat: usize,
    pub unknown: usize,
    /// Refused by the encoding's clause budget (`--max-clauses`) before solving.
    pub too_large: usize,
    #[serde(serialize_with = "crate::report::rounded")]
    pub median_ms: f64,
    #[serde(serialize_with = "crate::report::rounded")]
    pub max_ms: f64,
    /// Skipped: every instance of a smaller step already ran out of time.
    pub skipped: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ScalingError {
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("{backend} answered {got} on {family} instance {k} of {variant}, which must be {want}")]
    WrongStatus {
        backend: String,
        family: String,
        variant: String,
        k: u64,
        got: &'static str,
        want: &'static str,
    },
}

/// Runs every backend on `reps` instances per step, printing one line per instance to `out`
/// (unless it is a sink). A backend that answered no instance of a step (time limit or clause
/// budget) skips the larger steps.
pub fn run(
    family: Family,
    backends: &[String],
    reps: u64,
    max_faces: usize,
    opts: &RunOptions,
    out: &mut dyn Write,
) -> Result<Vec<Cell>, ScalingError> {
    let mut cells = Vec::new();
    let mut gave_up = vec![false; backends.len()];
    for step in steps(family, max_faces) {
        let instances: Vec<(Instance, Status)> = (0..reps).map(|k| instance(family, &step, k)).collect();
        for (bi, name) in backends.iter().enumerate() {
            let mut cell = Cell {
                family: family.name().into(),
                variant: step.variant.clone(),
                faces: step.faces,
                backend: name.clone(),
                sat: 0,
                unsat: 0,
                unknown: 0,
                too_large: 0,
                median_ms: 0.0,
                max_ms: 0.0,
                skipped: gave_up[bi],
            };
            if gave_up[bi] {
                cells.push(cell);
                continue;
            }
            let mut times = Vec::new();
            for (k, (inst, want)) in instances.iter().enumerate() {
                let mut b = backend::by_name(name).expect("backend names are checked by the caller");
                let t = Instant::now();
                let r = match run::solve(inst, b.as_mut(), opts) {
                    Ok(r) => r,
                    // The clause budget refused the model: a result of the encoding (a sum too
                    // wide for CNF), reported as such; other errors stop the run.
                    Err(RunError::Backend(BackendError::Encode(e))) => {
                        let ms = t.elapsed().as_secs_f64() * 1e3;
                        let _ = writeln!(
                            out,
                            "{:<14} {:<32} {:>4} faces  #{k:<3} {:<8} {:<7} {:>10.2} ms  ({e})",
                            family.name(),
                            step.variant,
                            step.faces,
                            name,
                            "too-large",
                            ms
                        );
                        cell.too_large += 1;
                        continue;
                    }
                    Err(e) => return Err(e.into()),
                };
                let ms = t.elapsed().as_secs_f64() * 1e3;
                let r = r.answer;
                match r.status {
                    Status::Sat => cell.sat += 1,
                    Status::Unsat => cell.unsat += 1,
                    Status::Unknown => cell.unknown += 1,
                }
                if r.status != Status::Unknown && (r.status != *want || (r.status == Status::Sat && !r.verified)) {
                    return Err(ScalingError::WrongStatus {
                        backend: name.clone(),
                        family: family.name().into(),
                        variant: step.variant.clone(),
                        k: k as u64,
                        got: if r.status == Status::Sat && !r.verified {
                            "an unverified sat"
                        } else {
                            r.status.as_str()
                        },
                        want: want.as_str(),
                    });
                }
                let _ = writeln!(
                    out,
                    "{:<14} {:<32} {:>4} faces  #{k:<3} {:<8} {:<7} {:>10.2} ms",
                    family.name(),
                    step.variant,
                    step.faces,
                    name,
                    r.status.as_str(),
                    ms
                );
                times.push(ms);
            }
            times.sort_by(|a, b| a.total_cmp(b));
            cell.median_ms = super::percentile(&times, 50.0);
            cell.max_ms = times.last().copied().unwrap_or(0.0);
            if (cell.unknown + cell.too_large) as u64 == reps {
                gave_up[bi] = true;
            }
            cells.push(cell);
        }
    }
    Ok(cells)
}

/// The table: one row per size step, per backend the median (and max) time of the instances
/// it answered or timed out on, then `N?` for N timeouts and `Nbig` for N models refused by
/// the clause budget.
pub fn print_table(cells: &[Cell], backends: &[String], out: &mut dyn Write) {
    let mut header = format!("{:<14} {:<32} {:>5} {:>9}", "family", "variant", "faces", "sat/unsat");
    for b in backends {
        header.push_str(&format!(" | {:>22}", format!("{b} median (max) ms")));
    }
    let _ = writeln!(out, "{header}");
    let _ = writeln!(out, "{}", "-".repeat(header.len()));
    let mut seen = Vec::new();
    for c in cells {
        if seen.contains(&(c.family.clone(), c.variant.clone())) {
            continue;
        }
        seen.push((c.family.clone(), c.variant.clone()));
        // The answers, from a backend that decided every instance of the step.
        let decided = cells.iter().find(|x| {
            x.family == c.family && x.variant == c.variant && !x.skipped && x.unknown == 0 && x.too_large == 0
        });
        let answers = decided.map_or("?".to_string(), |x| format!("{}/{}", x.sat, x.unsat));
        let mut line = format!("{:<14} {:<32} {:>5} {answers:>9}", c.family, c.variant, c.faces);
        for b in backends {
            let cell = cells
                .iter()
                .find(|x| x.family == c.family && x.variant == c.variant && &x.backend == b);
            let text = match cell {
                None => "-".to_string(),
                Some(x) if x.skipped => "skipped".to_string(),
                Some(x) if x.too_large == x.sat + x.unsat + x.unknown + x.too_large => "too large".to_string(),
                Some(x) => {
                    let mut t = format!("{:.1} ({:.1})", x.median_ms, x.max_ms);
                    if x.unknown > 0 {
                        t = format!("{t} {}?", x.unknown);
                    }
                    if x.too_large > 0 {
                        t = format!("{t} {}big", x.too_large);
                    }
                    t
                }
            };
            line.push_str(&format!(" | {text:>22}"));
        }
        let _ = writeln!(out, "{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subset_sums() {
        assert!(splits(&[3, 1, 1, 2, 2, 1]));
        assert!(!splits(&[3, 1, 1, 2, 2, 2]));
        assert!(!splits(&[2, 4, 8]));
        assert!(splits(&[5, 5]));
    }

    #[test]
    fn steps_grow_and_respect_the_cap() {
        for f in [
            Family::Random,
            Family::Partition,
            Family::PartitionWide,
            Family::FourUnsat,
        ] {
            let s = steps(f, 64);
            assert!(!s.is_empty());
            assert!(s.windows(2).all(|w| w[0].faces < w[1].faces), "{f:?}");
            assert!(s.iter().all(|x| x.faces <= 64));
        }
    }
}
