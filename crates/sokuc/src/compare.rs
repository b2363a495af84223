//! `compare`: several backends on one puzzle through the one run path; their statuses must
//! agree (a disagreement is a bug somewhere, reported loudly).
//!
//! Rows come in the order the backends were asked, `--jobs` at a time (one at a time by
//! default); a backend that fails is an error row, not the end of the run. The time limit
//! covers the whole command: a backend that starts with `k` backends (itself included) not yet
//! started gets `1/ceil(k/jobs)` of what is left, so every worker's queue ends by the deadline.
//! With an objective, two backends that prove different optima, or one that finds a solution
//! better than another's proven optimum, are a disagreement (exit 1).

use num_bigint::BigInt;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde_json::{Value, json};

use crate::backend::{self, Status};
use crate::error::{Error, exit};
use crate::input::InputError;
use crate::puzzle::evidence::ClaimKind;
use crate::report::round_ms;
use crate::run::{AnyPuzzle, Report, RunOptions};

/// One backend's run: its report, or why it gave none (a limit such as the clause budget,
/// a refused option). One backend's refusal does not hide the others' answers.
#[derive(Debug)]
pub struct Row {
    pub backend: String,
    pub outcome: Result<Report, Error>,
    /// Wall time of the whole run, compiling included.
    pub total_ms: f64,
}

#[derive(Debug)]
pub struct Comparison {
    pub source: String,
    pub rows: Vec<Row>,
    /// The decided statuses (sat/unsat) are all the same.
    pub agree: bool,
    /// How many backends ran at once.
    pub jobs: usize,
}

/// Runs each backend of `names` on `p` with `opts`, `jobs` at a time (each run is
/// independent, and a 2-core machine otherwise leaves a core idle: `mip` solves in a child
/// process of its own anyway). Rows keep the order of `names`. A backend that fails gets an
/// error row and the others still run; only when every backend fails is the first error, in
/// that order, the result (exit 2 for a limit, as `solve` would give).
///
/// A time limit bounds the whole comparison: a backend starting with `k` backends (itself
/// included) not yet started gets `left / ceil(k / jobs)` of what is left, so every worker's
/// queue ends by the deadline, and time a fast backend does not use goes to those after it.
pub fn compare(p: &dyn AnyPuzzle, names: &[String], opts: &RunOptions, jobs: usize) -> Result<Comparison, Error> {
    let started = opts.solve.started.unwrap_or_else(Instant::now);
    let jobs = jobs.clamp(1, names.len().max(1));
    // Longest first: `mip` and `highs` (a child process each) and then `cp` (a worker thread and its
    // model) take the longest on small instances, and the others fill the second core
    // meanwhile (icosoku-seed: mip 50-90 ms, every other backend under 25 ms; started third,
    // mip ended the comparison 15-20 ms later). Rows still keep the order of `names`.
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by_key(|&i| match names[i].as_str() {
        "mip" | "highs" => 0,
        "cp" => 1,
        _ => 2,
    });
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<Row>>> = Mutex::new((0..names.len()).map(|_| None).collect());
    let work = || {
        loop {
            let k = next.fetch_add(1, Ordering::SeqCst);
            let Some(&i) = order.get(k) else { break };
            let row = run_one(p, &names[i], opts, started, (names.len() - k).div_ceil(jobs));
            lock(&done)[i] = Some(row);
        }
    };
    if jobs == 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..jobs {
                s.spawn(work);
            }
        });
    }
    // A slot is empty only when its run panicked (the panic went through the scope).
    let mut rows: Vec<Row> = done
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect();
    if !rows.is_empty() && rows.iter().all(|r| r.outcome.is_err()) {
        rows.swap_remove(0).outcome?;
    }
    let decided: Vec<Status> = rows
        .iter()
        .filter_map(|r| r.outcome.as_ref().ok())
        .map(|r| r.status)
        .filter(|s| *s != Status::Unknown)
        .collect();
    let agree = decided.windows(2).all(|w| w[0] == w[1]) && optima_agree(&rows);
    Ok(Comparison {
        source: p.source().to_string(),
        agree,
        rows,
        jobs,
    })
}

/// With an objective: every proven optimum is the same value, and no backend found a
/// solution better than one another proved optimal. (Unproven values may differ: each is
/// only the best its backend found in time.)
fn optima_agree(rows: &[Row]) -> bool {
    let reports = || rows.iter().filter_map(|r| r.outcome.as_ref().ok());
    let proven: Vec<&BigInt> = reports()
        .filter(|r| r.optimal == Some(true))
        .filter_map(|r| r.objective.as_ref())
        .collect();
    let Some(best) = reports().filter_map(|r| r.objective.as_ref()).min() else {
        return true;
    };
    proven.iter().all(|&v| v == best)
}

/// One backend's run, with its share of the time left (see [`compare`]).
fn run_one(p: &dyn AnyPuzzle, n: &str, opts: &RunOptions, started: Instant, turns_left: usize) -> Row {
    let t = Instant::now();
    let outcome = backend::lookup(n)
        .map_err(|e| Error::from(InputError::new("--backend", None, e.to_string())))
        .and_then(|mut b| {
            let mut mine = opts.clone();
            if let Some(limit) = opts.solve.time_limit {
                let left = limit.saturating_sub(started.elapsed());
                mine.solve.time_limit = Some(left / turns_left.max(1) as u32);
                mine.solve.started = Some(t);
            }
            Ok(p.solve(b.as_mut(), &mine, false)?)
        });
    Row {
        backend: n.to_string(),
        outcome,
        total_ms: t.elapsed().as_secs_f64() * 1e3,
    }
}

/// A poisoned lock only means another run panicked; its slot stays empty.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Comparison {
    /// 0/20/30 by the agreed status; 1 when the backends disagree or one had an internal
    /// error (such as an answer its verifier rejected: never hidden behind the others'). A
    /// backend refused for a limit or an option only adds its error row.
    pub fn exit_code(&self) -> u8 {
        let internal = self
            .rows
            .iter()
            .any(|r| r.outcome.as_ref().is_err_and(|e| e.exit_code() == exit::INTERNAL));
        let contradiction = self
            .rows
            .iter()
            .any(|r| r.outcome.as_ref().is_ok_and(|o| o.contradiction.is_some()));
        if !self.agree || internal || contradiction {
            return exit::INTERNAL;
        }
        let decided = self
            .rows
            .iter()
            .filter_map(|r| r.outcome.as_ref().ok())
            .map(|r| r.status)
            .find(|s| *s != Status::Unknown);
        crate::error::status_code(decided.unwrap_or(Status::Unknown))
    }

    /// With an objective: whether a backend proved its answer optimal (the exit code of
    /// `--exit-codes competition` then says "optimum found", when the backends agree).
    pub fn proven_optimal(&self) -> bool {
        self.rows
            .iter()
            .any(|r| r.outcome.as_ref().is_ok_and(|o| o.optimal == Some(true)))
    }

    /// "sat: the CNF would need more than ...", one line per backend that failed.
    pub fn errors(&self) -> Vec<String> {
        self.rows
            .iter()
            .filter_map(|r| r.outcome.as_ref().err().map(|e| format!("{}: {e}", r.backend)))
            .collect()
    }

    /// "BACKENDS DISAGREE on FILE: sat=sat, search=unsat", when they do.
    pub fn disagreement(&self) -> Option<String> {
        (!self.agree).then(|| {
            let summary: Vec<String> = self
                .rows
                .iter()
                .filter_map(|r| {
                    r.outcome.as_ref().ok().map(|o| {
                        let value = match (&o.objective, o.optimal) {
                            (Some(v), Some(true)) => format!(" (optimum {v})"),
                            (Some(v), _) => format!(" (best {v}, unproven)"),
                            _ => String::new(),
                        };
                        format!("{}={}{value}", r.backend, o.status.as_str())
                    })
                })
                .collect();
            format!("BACKENDS DISAGREE on {}: {}", self.source, summary.join(", "))
        })
    }

    /// The fastest row whose backend decided the answer (sat or unsat), by wall time: who
    /// answered first, had the backends all started together. A row that presolve or the
    /// LP relaxation decided before its backend ran does not count: no backend raced there.
    pub fn fastest(&self) -> Option<&Row> {
        self.rows
            .iter()
            .filter(|r| {
                r.outcome
                    .as_ref()
                    .is_ok_and(|o| decided_by(o).is_some() && !before_any_backend(o))
            })
            .min_by(|a, b| a.total_ms.total_cmp(&b.total_ms))
    }

    /// Every decided row was decided before its backend ran (by presolve or the LP).
    fn decided_before_every_backend(&self) -> bool {
        let decided: Vec<&Report> = self
            .rows
            .iter()
            .filter_map(|r| r.outcome.as_ref().ok())
            .filter(|o| decided_by(o).is_some())
            .collect();
        !decided.is_empty() && decided.iter().all(|o| before_any_backend(o))
    }

    /// Each result is the outcome JSON `solve` prints (its `evidence` included), plus the
    /// run's wall time, who decided it ([`decided_by`], from that evidence; `null` when
    /// nothing was decided) and the size of the model the solver saw ([`model_size`]); a
    /// backend that failed has `"status": "error"`, the message and the exit code `solve`
    /// would give.
    pub fn json(&self) -> Value {
        let results: Vec<Value> = self
            .rows
            .iter()
            .map(|r| {
                let mut v = match &r.outcome {
                    Ok(report) => {
                        let mut v = report.json.clone();
                        v["decided_by"] = json!(decided_by(report));
                        let (vars, constraints, unit) = model_size(report);
                        // Beside the answer's own fields (OPB's `model` is its literals).
                        v["model_size"] = json!({"vars": vars, "constraints": constraints, "unit": unit});
                        v
                    }
                    Err(e) => json!({
                        "status": "error",
                        "backend": r.backend,
                        "error": e.to_string(),
                        "exit_code": e.exit_code(),
                    }),
                };
                v["total_ms"] = json!(round_ms(r.total_ms));
                v
            })
            .collect();
        json!({
            "instance": self.source,
            "agree": self.agree,
            "jobs": self.jobs,
            "fastest": self.fastest().map(|r| r.backend.as_str()),
            "results": results,
        })
    }

    /// A table for people: one row per backend, then the reasons and who was fastest.
    pub fn text(&self) -> String {
        let objective = self
            .rows
            .iter()
            .any(|r| r.outcome.as_ref().is_ok_and(|o| o.objective.is_some()));
        let fastest = self.fastest().map(|r| r.backend.clone());
        let mut table: Vec<Vec<String>> = vec![
            [
                "backend  ",
                "answer",
                "decided by",
                "total ms",
                "build ms",
                "solve ms",
                "model",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ];
        if objective {
            table[0].push("objective".into());
        }
        table[0].push("verified".into());
        let mut notes: Vec<String> = Vec::new();
        for r in &self.rows {
            // The mark keeps its place on every row, so that the table's widths do not
            // depend on who was fastest.
            let name = match fastest.as_deref() == Some(r.backend.as_str()) {
                true => format!("{} *", r.backend),
                false => format!("{}  ", r.backend),
            };
            let Ok(report) = &r.outcome else {
                let mut row = vec![name, "error".into(), "-".into(), format!("{:.3}", r.total_ms)];
                row.extend(["-", "-", "-"].map(String::from));
                if objective {
                    row.push("-".into());
                }
                row.push("-".into());
                table.push(row);
                continue;
            };
            let by = decided_by(report).unwrap_or("-");
            let before = before_any_backend(report);
            let s = &report.stats;
            let (vars, constraints, unit) = model_size(report);
            let mut row = vec![
                name,
                report.status.as_str().to_string(),
                by.to_string(),
                format!("{:.3}", r.total_ms),
                format!("{:.3}", s.build_ms),
                if before {
                    "-".into()
                } else {
                    format!("{:.3}", s.solve_ms)
                },
                if before {
                    "-".into()
                } else {
                    format!("{vars} vars, {constraints} {unit}")
                },
            ];
            if objective {
                row.push(match (&report.objective, report.optimal) {
                    (Some(v), Some(true)) => format!("{v} optimal"),
                    (Some(v), _) => format!("{v} unproven"),
                    _ => "-".into(),
                });
            }
            row.push(if report.verified { "yes".into() } else { "-".into() });
            table.push(row);
            // Why a row has no solution when that is more than "the backend proved it".
            if let Some(reason) = report
                .reason
                .as_ref()
                .filter(|_| before || report.status == Status::Unknown)
            {
                let note = match before {
                    true => format!("decided before any backend ran, by {reason}"),
                    false => format!("{}: {reason}", r.backend),
                };
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
        }
        let widths: Vec<usize> = (0..table[0].len())
            .map(|c| table.iter().map(|row| row[c].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for row in &table {
            let mut line = String::new();
            for (c, cell) in row.iter().enumerate() {
                // Numbers to the right, words to the left.
                let right = (3..6).contains(&c);
                let w = widths[c];
                let _ = match right {
                    true => write!(line, "{cell:>w$}  "),
                    false => write!(line, "{cell:<w$}  "),
                };
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        for note in notes {
            let _ = writeln!(out, "# {note}");
        }
        if let Some(f) = self.fastest() {
            let _ = writeln!(
                out,
                "# * fastest: {} ({:.3} ms){}",
                f.backend,
                f.total_ms,
                match self.jobs {
                    1 => String::new(),
                    j => format!("; {j} backends ran at once, so times include sharing the machine"),
                }
            );
        }
        if self.decided_before_every_backend() {
            let _ = writeln!(
                out,
                "# * decided before any backend ran (by presolve or the LP relaxation), so no backend was fastest"
            );
        }
        for e in self.errors() {
            let _ = writeln!(out, "# {e}");
        }
        out
    }
}

/// Whether presolve or the LP relaxation decided `report` before any backend ran.
fn before_any_backend(report: &Report) -> bool {
    matches!(decided_by(report), Some("presolve" | "lp"))
}

/// Who decided a report's answer, from the gate's evidence alone: who made the accepted
/// claim of its status (`sat`: the engine whose model was checked; `unsat`: presolve, the
/// LP relaxation or the engine that refuted it). `None` when nothing was decided: an
/// unknown answer, a claim the gate withheld.
pub fn decided_by(report: &Report) -> Option<&str> {
    let kind = match report.status {
        Status::Sat => ClaimKind::Sat,
        Status::Unsat => ClaimKind::Unsat,
        Status::Unknown => return None,
    };
    report
        .evidence
        .claim(kind)
        .filter(|c| c.accepted)
        .map(|c| c.by.as_str())
}

/// The size of the model the engine saw, with what its constraints are: CNF clauses for the
/// SAT solvers, rows (linear or of the IR) for the others.
pub fn model_size(report: &Report) -> (u64, u64, &'static str) {
    let unit = match report.backend.as_str() {
        "sat" | "cadical" => "clauses",
        _ => "rows",
    };
    (report.stats.vars, report.stats.clauses, unit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::evidence::{Backing, Claim, Evidence};

    /// What the gate records for a checked solution by `backend`, optimal or not.
    fn solved(backend: &str, optimal: bool) -> Evidence {
        let mut claims = vec![Claim::new(ClaimKind::Sat, backend, Backing::CheckedModel)];
        if optimal {
            claims.push(Claim::new(ClaimKind::Optimum, backend, Backing::EngineWord));
        }
        Evidence {
            claims,
            ..Evidence::default()
        }
    }

    /// A row as `compare` builds it from a run: the report's evidence is the gate's record,
    /// which is all that `decided by` reads.
    fn row(backend: &str, objective: i64, optimal: bool) -> Row {
        Row {
            backend: backend.into(),
            outcome: Ok(Report {
                status: Status::Sat,
                verified: true,
                reason: None,
                unique: None,
                backend: backend.into(),
                stats: Default::default(),
                text: String::new(),
                json: Value::Null,
                svg: None,
                optimal: Some(optimal),
                objective: Some(BigInt::from(objective)),
                contradiction: None,
                evidence: solved(backend, optimal),
            }),
            total_ms: 0.0,
        }
    }

    #[test]
    fn a_refutation_before_any_backend_is_named() {
        let mut r = row("sat", 0, false);
        let Ok(report) = &mut r.outcome else { unreachable!() };
        report.status = Status::Unsat;
        report.objective = None;
        report.optimal = None;
        report.reason = Some("presolve: the weights add up to 78, the pegs to 79".into());
        report.evidence = Evidence {
            claims: vec![Claim::new(ClaimKind::Unsat, "presolve", Backing::Presolve)],
            ..Evidence::default()
        };
        assert_eq!(decided_by(report), Some("presolve"));
        let c = Comparison {
            source: "x.toml".into(),
            rows: vec![r],
            agree: true,
            jobs: 1,
        };
        let text = c.text();
        assert!(
            text.contains("decided before any backend ran, by presolve: the weights"),
            "{text}"
        );
        assert!(
            !text.contains("clauses"),
            "no model is shown for a row no backend solved: {text}"
        );
        assert_eq!(c.json()["results"][0]["decided_by"], "presolve");
    }

    #[test]
    fn a_withheld_claim_decides_nothing() {
        // --strict withheld sat's unsat: the status is unknown, and nobody decided it, even
        // though the claim's maker and the row's backend are named in the record.
        let mut r = row("sat", 0, false);
        let Ok(report) = &mut r.outcome else { unreachable!() };
        report.status = Status::Unknown;
        report.objective = None;
        report.optimal = None;
        report.reason = Some("--strict: the claim rests on one engine's word alone".into());
        let mut claim = Claim::new(ClaimKind::Unsat, "sat", Backing::EngineWord);
        claim.withhold(crate::puzzle::evidence::Withheld::Strict);
        report.evidence = Evidence {
            claims: vec![claim],
            ..Evidence::default()
        };
        assert_eq!(decided_by(report), None);
        // A status the evidence does not back decides nothing either.
        let mut bare = row("cp", 0, false);
        let Ok(b) = &mut bare.outcome else { unreachable!() };
        b.evidence = Evidence::default();
        assert_eq!(decided_by(b), None);
        let c = Comparison {
            source: "x.cnf".into(),
            rows: vec![r],
            agree: true,
            jobs: 1,
        };
        assert_eq!(c.json()["results"][0]["decided_by"], Value::Null);
        assert!(c.fastest().is_none());
        let text = c.text();
        let line = text.lines().nth(1).unwrap();
        assert!(line.starts_with("sat") && line.contains("unknown  -"), "{text}");
    }

    #[test]
    fn the_table_shows_the_objective_and_the_fastest() {
        let mut slow = row("sat", 5, true);
        slow.total_ms = 9.0;
        let mut fast = row("search", 5, true);
        fast.total_ms = 2.0;
        let c = Comparison {
            source: "x.opb".into(),
            rows: vec![slow, fast],
            agree: true,
            jobs: 1,
        };
        let text = c.text();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains("objective"), "{text}");
        assert!(
            lines[1].starts_with("sat    ") && lines[1].contains("5 optimal"),
            "{text}"
        );
        assert!(lines[2].starts_with("search *"), "{text}");
        assert!(lines[1].contains("clauses") && lines[2].contains("rows"), "{text}");
        assert!(text.contains("# * fastest: search (2.000 ms)"), "{text}");
        assert_eq!(c.json()["fastest"], "search");
    }

    #[test]
    fn differing_proven_optima_disagree() {
        assert!(optima_agree(&[row("mip", 1120, true), row("cp", 1120, true)]));
        assert!(!optima_agree(&[row("mip", 1128, true), row("cp", 1120, true)]));
    }

    #[test]
    fn a_solution_better_than_a_proven_optimum_disagrees() {
        // lseu: CBC with threads=1 proved 1128, cp found 1120 without proving it.
        assert!(!optima_agree(&[row("mip", 1128, true), row("cp", 1120, false)]));
        // Unproven values only bound the optimum from above.
        assert!(optima_agree(&[row("mip", 1120, true), row("cp", 1128, false)]));
        assert!(optima_agree(&[row("sat", 1312, false), row("cp", 1128, false)]));
    }

    #[test]
    fn the_disagreement_names_each_value() {
        let c = Comparison {
            source: "lseu.opb".into(),
            rows: vec![row("mip", 1128, true), row("cp", 1120, false)],
            agree: false,
            jobs: 1,
        };
        assert_eq!(
            c.disagreement().unwrap(),
            "BACKENDS DISAGREE on lseu.opb: mip=sat (optimum 1128), cp=sat (best 1120, unproven)"
        );
        assert_eq!(c.exit_code(), exit::INTERNAL);
    }
}
