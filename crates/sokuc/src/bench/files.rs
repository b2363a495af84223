//! `bench` over OPB and CNF files (issue 17): per file, each sokuc backend through the one run
//! path, and optionally an external solver (`--vs`, [`super::external`]) with the same time
//! limit; a row per file and a summary that compares the two.
//!
//! sokuc's time is wall-clock from reading the file to the verified answer, and the time
//! limit counts from the same instant. The external solver runs after sokuc, never at the
//! same time, so the two do not share the cores. When it prints a model (`v` lines), the
//! model is checked against the file by the front-end's exact verifier (`AnyPuzzle::check`).
//!
//! Files: a folder gives its `.opb`, `.cnf` and `.dimacs` files (also `.gz`, `.bz2`, `.xz`; not
//! its subfolders), sorted by name; files named one by one keep their order. There is no
//! list-file form: the shell's globbing names files. Each file is read by the registry, by its
//! extension, as `sokuc solve` reads it.
//!
//! Per file, one row: per backend of `--backend` (default `auto`) the status (`sat`, `unsat`,
//! `unknown` or `error`), the time, and the engine that answered (what `auto` picked; `auto`
//! itself when presolve or the LP answered). An `error` row (a file that does not parse, a
//! clause budget exceeded) carries its one-line reason, and the run goes on. `--timeout` is
//! per file and per backend; `--limit N` takes the first N files; `--spawn` is for batches only.
//!
//! The summary gives, per backend and for the external solver, the solved (sat + unsat),
//! unknown and error counts and the median time over the files each solved; per backend, the
//! files both it and the external solver solved, with both medians there; the external models
//! verified and wrong; per family (the file name up to its first all-digit part:
//! `knapsack-opt-25-s1.opb` is `knapsack-opt`) the files and solved counts; the disagreements
//! (decided answers that differ, between any of sokuc's backends and the external solver;
//! `OPTIMUM FOUND` counts as sat). Exit code: 1 for a disagreement, a wrong external model or
//! a wrong sokuc answer; else 30 when sokuc left a file unknown or with an error; else 0.
//!
//! `--format json`: one object per file as it finishes (`file`, `family`, `sokuc`: per
//! backend `backend`, `answered_by`, `status`, `verified`, `ms`, `reason`; `vs`: `status`,
//! `ms`, `timed_out`, `model` (`verified`, `wrong` or `none`), `model_problem`, `reason`;
//! `disagreement`), then one `{"summary": {...}}` line with the figures above.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::external::{self, VsRun, VsStatus};
use super::percentile;
use crate::backend::{self, Status};
use crate::error::{Error, exit};
use crate::input::InputError;
use crate::report::round_ms;
use crate::run::{AnyPuzzle, Checked, RunOptions};

/// The extensions a folder is searched for, before any `.gz`, `.bz2` or `.xz`.
pub const EXTENSIONS: [&str; 3] = ["opb", "cnf", "dimacs"];
const COMPRESSED: [&str; 3] = ["gz", "bz2", "xz"];

/// Whether the path names an OPB or CNF file by its extension (compressed or not).
pub fn is_pb_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let mut parts: Vec<&str> = name.split('.').skip(1).collect();
    if parts.last().is_some_and(|e| COMPRESSED.contains(e)) {
        parts.pop();
    }
    parts.last().is_some_and(|e| EXTENSIONS.contains(e))
}

/// The OPB and CNF files of a folder (not its subfolders), sorted by name.
pub fn folder_files(dir: &Path) -> Result<Vec<PathBuf>, InputError> {
    let name = dir.display().to_string();
    let entries =
        std::fs::read_dir(dir).map_err(|e| InputError::new(&name, None, format!("cannot read the folder: {e}")))?;
    let mut files = Vec::new();
    for e in entries {
        let e = e.map_err(|e| InputError::new(&name, None, format!("cannot read the folder: {e}")))?;
        let p = e.path();
        if p.is_file() && is_pb_file(&p) {
            files.push(p);
        }
    }
    files.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    Ok(files)
}

/// The family of a file, for the summary: its name up to the first all-digit part
/// (`knapsack-opt-25-s1.opb` is `knapsack-opt`, `php-6-5.opb` is `php`).
pub fn family(path: &Path) -> String {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let stem = name.split('.').next().unwrap_or(name);
    let parts: Vec<&str> = stem
        .split('-')
        .take_while(|p| p.is_empty() || !p.chars().all(|c| c.is_ascii_digit()))
        .collect();
    if parts.is_empty() {
        stem.to_string()
    } else {
        parts.join("-")
    }
}

/// One sokuc backend on one file.
#[derive(Debug, Clone)]
pub struct Cell {
    /// The backend asked for (`auto`, `sat`, ...).
    pub backend: String,
    /// The engine that answered (what `auto` picked).
    pub answered_by: String,
    /// `sat`, `unsat`, `unknown` or `error`.
    pub status: &'static str,
    pub verified: bool,
    pub ms: f64,
    /// Why it is unknown or an error, in one line.
    pub reason: Option<String>,
    /// An error that is a bug in sokuc (a wrong answer caught by the verifier).
    pub internal: bool,
}

impl Cell {
    fn decided(&self) -> Option<bool> {
        match self.status {
            "sat" => Some(true),
            "unsat" => Some(false),
            _ => None,
        }
    }
}

/// What became of the external solver's model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelCheck {
    /// No `v` line (or not a sat answer).
    None,
    Verified,
    Wrong(String),
}

#[derive(Debug, Clone)]
pub struct Vs {
    pub status: VsStatus,
    pub ms: f64,
    pub timed_out: bool,
    pub model: ModelCheck,
}

/// One file's row.
#[derive(Debug, Clone)]
pub struct FileRow {
    pub path: PathBuf,
    pub family: String,
    pub cells: Vec<Cell>,
    pub vs: Option<Vs>,
    /// Decided answers that differ (sokuc's backends and the external solver).
    pub disagreement: bool,
}

impl FileRow {
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map_or_else(|| self.path.display().to_string(), |n| n.to_string_lossy().into_owned())
    }
}

/// What to run.
#[derive(Debug)]
pub struct Plan<'a> {
    pub files: &'a [PathBuf],
    pub backends: &'a [String],
    pub opts: &'a RunOptions,
    /// The external command, split into words (see [`external::split_words`]).
    pub vs: Option<&'a [String]>,
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn solve_one(path: &Path, name: &str, opts: &RunOptions) -> (Cell, Option<Box<dyn AnyPuzzle>>) {
    let t0 = Instant::now();
    let mut o = opts.clone();
    o.solve.started = Some(t0);
    let error = |reason: String, internal: bool, ms: f64| Cell {
        backend: name.to_string(),
        answered_by: String::new(),
        status: "error",
        verified: false,
        ms,
        reason: Some(one_line(&reason)),
        internal,
    };
    let p = match crate::registry::load(path, None) {
        Ok(p) => p,
        Err(e) => return (error(e.to_string(), false, t0.elapsed().as_secs_f64() * 1e3), None),
    };
    let mut b = backend::by_name(name).expect("backend names are checked by the caller");
    let r = p.solve(b.as_mut(), &o, false);
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let cell = match r {
        Ok(r) => Cell {
            backend: name.to_string(),
            answered_by: r.backend.clone(),
            status: r.status.as_str(),
            verified: r.verified,
            ms,
            reason: (r.status == Status::Unknown)
                .then(|| r.reason.as_deref().map(one_line))
                .flatten(),
            internal: false,
        },
        Err(e) => {
            let e = Error::from(e);
            let internal = e.exit_code() == exit::INTERNAL;
            error(e.to_string(), internal, ms)
        }
    };
    (cell, Some(p))
}

fn check_model(p: Option<&dyn AnyPuzzle>, path: &Path, run: &VsRun) -> ModelCheck {
    if run.status.decided() != Some(true) || !run.stdout.lines().any(|l| l.starts_with('v')) {
        return ModelCheck::None;
    }
    let Some(p) = p else { return ModelCheck::None };
    // The status and value lines only: a solver's other chatter is not part of its answer.
    let answer: String = run
        .stdout
        .lines()
        .filter(|l| l.starts_with('v') || l.starts_with("s "))
        .flat_map(|l| [l, "\n"])
        .collect();
    match p.check(&path.display().to_string(), &answer) {
        Ok(Checked::Valid(_)) => ModelCheck::Verified,
        Ok(Checked::Invalid(why)) => ModelCheck::Wrong(one_line(&why)),
        Err(e) => ModelCheck::Wrong(one_line(&e.to_string())),
    }
}

/// Runs every file, calling `each` with its row as soon as it is done. `Err` only when the
/// external command cannot be started (exit 2: every file would fail the same way).
pub fn run(plan: &Plan, each: &mut dyn FnMut(&FileRow)) -> Result<Vec<FileRow>, Error> {
    let limit: Option<Duration> = plan.opts.solve.time_limit;
    let mut rows = Vec::with_capacity(plan.files.len());
    for path in plan.files {
        // After an interrupt every file left would answer `unknown` at once: the rows so
        // far are the benchmark.
        if super::interrupted(Some(&plan.opts.solve)) {
            break;
        }
        let mut cells = Vec::new();
        let mut puzzle = None;
        for n in plan.backends {
            let (cell, p) = solve_one(path, n, plan.opts);
            cells.push(cell);
            if puzzle.is_none() {
                puzzle = p;
            }
        }
        let vs = match plan.vs {
            None => None,
            Some(words) => {
                let w = external::words_for(words, path);
                let r = external::run(&w, limit).map_err(|e| {
                    Error::Input(InputError::new("--vs", None, format!("cannot run '{}': {e}", words[0])))
                })?;
                let model = check_model(puzzle.as_deref(), path, &r);
                Some(Vs {
                    status: r.status,
                    ms: r.ms,
                    timed_out: r.timed_out,
                    model,
                })
            }
        };
        let decided: Vec<bool> = cells
            .iter()
            .filter_map(Cell::decided)
            .chain(vs.as_ref().and_then(|v| v.status.decided()))
            .collect();
        let disagreement = decided.windows(2).any(|w| w[0] != w[1]);
        let row = FileRow {
            family: family(path),
            path: path.clone(),
            cells,
            vs,
            disagreement,
        };
        each(&row);
        rows.push(row);
    }
    Ok(rows)
}

/// Solved counts and median times.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Side {
    pub name: String,
    pub sat: usize,
    pub unsat: usize,
    pub unknown: usize,
    pub errors: usize,
    pub solved: usize,
    /// Median over the files this side solved.
    #[serde(serialize_with = "crate::report::rounded")]
    pub median_ms: f64,
    /// With `--vs`, for sokuc's backends: the files both solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub both: Option<Both>,
}

/// The files a backend and the external solver both solved, and each one's median there.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Both {
    pub files: usize,
    #[serde(serialize_with = "crate::report::rounded")]
    pub median_ms: f64,
    #[serde(serialize_with = "crate::report::rounded")]
    pub vs_median_ms: f64,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Family {
    pub family: String,
    pub files: usize,
    /// Per backend, in the order asked.
    pub solved: Vec<usize>,
    pub vs_solved: Option<usize>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct FilesSummary {
    pub files: usize,
    #[serde(serialize_with = "crate::report::rounded")]
    pub timeout_s: f64,
    pub sokuc: Vec<Side>,
    pub vs: Option<Side>,
    pub vs_command: Option<String>,
    pub disagreements: usize,
    pub vs_models_verified: usize,
    pub vs_models_wrong: usize,
    pub families: Vec<Family>,
}

fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(|a, b| a.total_cmp(b));
    percentile(&t, 50.0)
}

fn vs_side(rows: &[FileRow], cmd: &str) -> Side {
    let vs: Vec<&Vs> = rows.iter().filter_map(|r| r.vs.as_ref()).collect();
    let count = |f: &dyn Fn(&VsStatus) -> bool| vs.iter().filter(|v| f(&v.status)).count();
    Side {
        name: cmd.to_string(),
        sat: count(&|s| matches!(s, VsStatus::Sat | VsStatus::Optimum)),
        unsat: count(&|s| *s == VsStatus::Unsat),
        unknown: count(&|s| *s == VsStatus::Unknown),
        errors: count(&|s| matches!(s, VsStatus::Error(_))),
        solved: count(&|s| s.decided().is_some()),
        median_ms: median(
            vs.iter()
                .filter(|v| v.status.decided().is_some())
                .map(|v| v.ms)
                .collect(),
        ),
        both: None,
    }
}

pub fn summarize(
    rows: &[FileRow],
    backends: &[String],
    vs_command: Option<&str>,
    limit: Option<Duration>,
) -> FilesSummary {
    let sokuc = backends
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let cells: Vec<&Cell> = rows.iter().map(|r| &r.cells[i]).collect();
            let count = |s: &str| cells.iter().filter(|c| c.status == s).count();
            let both: Vec<&FileRow> = rows
                .iter()
                .filter(|r| {
                    r.cells[i].decided().is_some() && r.vs.as_ref().is_some_and(|v| v.status.decided().is_some())
                })
                .collect();
            Side {
                name: n.clone(),
                sat: count("sat"),
                unsat: count("unsat"),
                unknown: count("unknown"),
                errors: count("error"),
                solved: count("sat") + count("unsat"),
                median_ms: median(cells.iter().filter(|c| c.decided().is_some()).map(|c| c.ms).collect()),
                both: vs_command.map(|_| Both {
                    files: both.len(),
                    median_ms: median(both.iter().map(|r| r.cells[i].ms).collect()),
                    vs_median_ms: median(both.iter().filter_map(|r| r.vs.as_ref()).map(|v| v.ms).collect()),
                }),
            }
        })
        .collect();
    let mut families: Vec<Family> = Vec::new();
    for r in rows {
        let i = match families.iter().position(|f| f.family == r.family) {
            Some(i) => i,
            None => {
                families.push(Family {
                    family: r.family.clone(),
                    files: 0,
                    solved: vec![0; backends.len()],
                    vs_solved: vs_command.map(|_| 0),
                });
                families.len() - 1
            }
        };
        let f = &mut families[i];
        f.files += 1;
        for (k, c) in r.cells.iter().enumerate() {
            f.solved[k] += usize::from(c.decided().is_some());
        }
        if let (Some(n), Some(v)) = (f.vs_solved.as_mut(), r.vs.as_ref()) {
            *n += usize::from(v.status.decided().is_some());
        }
    }
    let models = |f: &dyn Fn(&ModelCheck) -> bool| {
        rows.iter()
            .filter(|r| r.vs.as_ref().is_some_and(|v| f(&v.model)))
            .count()
    };
    FilesSummary {
        files: rows.len(),
        timeout_s: limit.map_or(0.0, |l| l.as_secs_f64()),
        sokuc,
        vs: vs_command.map(|c| vs_side(rows, c)),
        vs_command: vs_command.map(str::to_string),
        disagreements: rows.iter().filter(|r| r.disagreement).count(),
        vs_models_verified: models(&|m| *m == ModelCheck::Verified),
        vs_models_wrong: models(&|m| matches!(m, ModelCheck::Wrong(_))),
        families,
    }
}

/// The exit code: 1 for a disagreement, a wrong external model or a wrong sokuc answer;
/// else 30 when sokuc left a file without an answer (unknown or error); else 0.
pub fn exit_code(rows: &[FileRow]) -> u8 {
    let bad = rows.iter().any(|r| {
        r.disagreement
            || r.cells.iter().any(|c| c.internal)
            || r.vs.as_ref().is_some_and(|v| matches!(v.model, ModelCheck::Wrong(_)))
    });
    if bad {
        exit::INTERNAL
    } else if rows.iter().any(|r| r.cells.iter().any(|c| c.decided().is_none())) {
        exit::UNKNOWN
    } else {
        exit::SAT
    }
}

/// One row for people: name, then per backend status, time and the engine that answered,
/// then the external solver's status and time, then the flags.
pub fn write_row(r: &FileRow, width: usize, out: &mut dyn Write) -> std::io::Result<()> {
    let mut line = format!("{:<width$}", r.name());
    let mut notes = Vec::new();
    for c in &r.cells {
        let by = if c.answered_by.is_empty() { "-" } else { &c.answered_by };
        line += &format!("  {:<7} {:>10.1} ms {:<8}", c.status, c.ms, by);
        if let Some(why) = &c.reason {
            notes.push(format!("{}: {why}", c.backend));
        }
    }
    if let Some(v) = &r.vs {
        line += &format!(" | vs {:<7} {:>10.1} ms", v.status.as_str(), v.ms);
        match &v.model {
            ModelCheck::Verified => line += "  model verified",
            ModelCheck::Wrong(why) => notes.push(format!("VS MODEL WRONG: {why}")),
            ModelCheck::None => {}
        }
        if let VsStatus::Error(why) = &v.status {
            notes.push(format!("vs: {why}"));
        }
    }
    if r.disagreement {
        line += "  <<< DISAGREEMENT";
    }
    for n in notes {
        line += &format!("  [{n}]");
    }
    writeln!(out, "{}", line.trim_end())
}

pub fn write_summary(s: &FilesSummary, out: &mut dyn Write) -> std::io::Result<()> {
    let limit = if s.timeout_s > 0.0 {
        format!("{} s per file", s.timeout_s)
    } else {
        "no time limit".to_string()
    };
    writeln!(out, "{}, {limit}", crate::words::count_s(s.files, "file"))?;
    for side in &s.sokuc {
        writeln!(
            out,
            "sokuc --backend {}: solved {} ({} sat, {} unsat), {} unknown, {} errors; median {:.1} ms over its solved",
            side.name, side.solved, side.sat, side.unsat, side.unknown, side.errors, side.median_ms
        )?;
    }
    if let Some(v) = &s.vs {
        writeln!(
            out,
            "vs '{}': solved {} ({} sat or optimum, {} unsat), {} unknown, {} errors; median {:.1} ms over its solved",
            v.name, v.solved, v.sat, v.unsat, v.unknown, v.errors, v.median_ms
        )?;
        for (side, b) in s.sokuc.iter().filter_map(|x| x.both.as_ref().map(|b| (x, b))) {
            writeln!(
                out,
                "both solved ({} and vs): {}; median sokuc {:.1} ms, vs {:.1} ms",
                side.name,
                crate::words::count_s(b.files, "file"),
                b.median_ms,
                b.vs_median_ms
            )?;
        }
        writeln!(
            out,
            "vs models: {} verified, {} wrong",
            s.vs_models_verified, s.vs_models_wrong
        )?;
    }
    writeln!(
        out,
        "families (files: solved per backend{}):",
        if s.vs.is_some() { " / vs" } else { "" }
    )?;
    for f in &s.families {
        let solved: Vec<String> = f.solved.iter().map(|n| n.to_string()).collect();
        let vs = f.vs_solved.map_or(String::new(), |n| format!(" / vs {n}"));
        let files = crate::words::count_s(f.files, "file");
        writeln!(out, "  {:<20} {files:>9}: sokuc {}{vs}", f.family, solved.join(", "))?;
    }
    if s.disagreements > 0 {
        writeln!(
            out,
            "DISAGREEMENTS: {} (see the rows marked DISAGREEMENT)",
            s.disagreements
        )
    } else {
        writeln!(out, "disagreements: 0")
    }
}

/// One JSON object per file.
pub fn row_json(r: &FileRow) -> Value {
    let cells: Vec<Value> = r
        .cells
        .iter()
        .map(|c| {
            json!({
                "backend": c.backend,
                "answered_by": c.answered_by,
                "status": c.status,
                "verified": c.verified,
                "ms": round_ms(c.ms),
                "reason": c.reason,
            })
        })
        .collect();
    let vs = r.vs.as_ref().map(|v| {
        let (model, why) = match &v.model {
            ModelCheck::None => ("none", None),
            ModelCheck::Verified => ("verified", None),
            ModelCheck::Wrong(w) => ("wrong", Some(w.clone())),
        };
        json!({
            "status": v.status.as_str(),
            "ms": round_ms(v.ms),
            "timed_out": v.timed_out,
            "model": model,
            "model_problem": why,
            "reason": match &v.status { VsStatus::Error(w) => Some(w.clone()), _ => None },
        })
    });
    json!({
        "file": r.path.display().to_string(),
        "family": r.family,
        "sokuc": cells,
        "vs": vs,
        "disagreement": r.disagreement,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_and_extensions() {
        assert_eq!(family(Path::new("a/knapsack-opt-25-s1.opb")), "knapsack-opt");
        assert_eq!(family(Path::new("php-6-5.opb")), "php");
        assert_eq!(family(Path::new("planted-3sat-40-160-s1.cnf")), "planted-3sat");
        assert_eq!(family(Path::new("x.opb")), "x");
        assert!(is_pb_file(Path::new("d/x.opb.gz")));
        assert!(is_pb_file(Path::new("x.dimacs")));
        assert!(!is_pb_file(Path::new("x.txt")));
        assert!(!is_pb_file(Path::new("x.gz")));
    }
}
