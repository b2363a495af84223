//! The run path with the puzzle's type erased: [`AnyPuzzle`] is implemented once, for every
//! [`Puzzle`], so that commands hold any kind as `Box<dyn AnyPuzzle>` and print a [`Report`].

use std::io::Write;
use std::ops::ControlFlow;
use std::sync::Mutex;
use std::time::Instant;

use serde_json::{Value, json};

use super::emit::{self, Format};
use super::enumerate::Enumerated;
use super::error::RunError;
use super::options::RunOptions;
use super::pipeline::Outcome;
use super::stream::{Stream, verified_json, write_end, write_solution};
use crate::backend::{Backend, SolveStats, Status};
use crate::encode::EncodeOptions;
use crate::error::{Error, status_code};
use crate::input::InputError;
use crate::ir::{PbFormula, Var};
use crate::puzzle::{Answer, CompileOptions, Puzzle, Refutation};
use crate::report;

/// An outcome ready to print: what the text and JSON say, and what the exit code follows.
#[derive(Debug, Clone)]
pub struct Report {
    pub status: Status,
    pub verified: bool,
    pub reason: Option<String>,
    pub unique: Option<bool>,
    pub backend: String,
    pub stats: SolveStats,
    /// What `solve` prints for people (no timings).
    pub text: String,
    /// The one JSON schema of an outcome (docs/src/output-formats.md, "JSON").
    pub json: Value,
    /// The SVG picture, when asked for and the puzzle has one.
    pub svg: Option<String>,
    /// With an objective: whether the answer is proven optimal.
    pub optimal: Option<bool>,
    /// With an objective: the answer's value (minimised, as in the IR), exactly.
    pub objective: Option<num_bigint::BigInt>,
    /// Two engines contradicted each other on the optimum (see [`Answer::contradiction`]).
    pub contradiction: Option<String>,
    /// What each claim of the answer rests on, as the gate accepted or withheld it.
    pub evidence: crate::puzzle::evidence::Evidence,
}

impl Report {
    /// The status's exit code; 1 when engines contradicted each other, as `compare` exits
    /// on a disagreement.
    pub fn exit_code(&self) -> u8 {
        if self.contradiction.is_some() {
            return crate::error::exit::INTERNAL;
        }
        status_code(self.status)
    }
}

/// What `check` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checked {
    /// Valid; the text says what was checked.
    Valid(String),
    /// Not a solution; the text says why.
    Invalid(String),
}

/// A picture for `render`: the SVG, and why the solution drawn is invalid if it is.
#[derive(Debug)]
pub struct Picture {
    pub svg: String,
    pub invalid: Option<String>,
}

/// Every command, for any puzzle kind.
pub trait AnyPuzzle: Send + Sync {
    fn kind(&self) -> &'static str;
    /// What starts a comment line in the kind's answers (see [`Puzzle::comment`]).
    fn comment(&self) -> &'static str;
    fn source(&self) -> &str;
    /// Compile, solve, check, and (with `opts.unique`) prove uniqueness.
    fn solve(&self, b: &mut dyn Backend, opts: &RunOptions, picture: bool) -> Result<Report, RunError>;
    /// [`AnyPuzzle::solve`], with the line of each improving solution of an optimisation
    /// (the PB competition's `o <value>`) written to `progress` and flushed as it is found;
    /// the report's text then leaves those lines out. (The tests' entry; the facade calls
    /// [`solve_streaming`] itself.)
    #[cfg(feature = "testing")]
    fn solve_streaming(
        &self,
        b: &mut dyn Backend,
        opts: &RunOptions,
        picture: bool,
        progress: &mut dyn Write,
    ) -> Result<Report, RunError>;
    /// Every solution, up to `limit`, each verified and written to `out` (and flushed) as it
    /// is found, then the end: `==========` or the summary line. Nothing is collected.
    fn enumerate(
        &self,
        b: &mut dyn Backend,
        opts: &RunOptions,
        limit: Option<u64>,
        stream: Stream,
        out: &mut dyn Write,
    ) -> Result<Enumerated, RunError>;
    /// [`AnyPuzzle::enumerate`] on `jobs` threads (`--jobs`; backends with
    /// [`crate::backend::Capabilities::parallel`], others are refused): the same set of solutions, in an order that depends on timing, written
    /// in chunks of whole solutions. `jobs` 1 is [`AnyPuzzle::enumerate`] itself.
    fn enumerate_jobs(
        &self,
        b: &mut dyn Backend,
        opts: &RunOptions,
        limit: Option<u64>,
        jobs: usize,
        stream: Stream,
        out: &mut (dyn Write + Send),
    ) -> Result<Enumerated, RunError>;
    /// Write the compiled model for an external solver to a file (atomically), standard
    /// output or a writer.
    fn emit(&self, format: Format, copts: &CompileOptions, enc: EncodeOptions, to: emit::To<'_>) -> Result<(), Error>;
    /// Read an external solver's answer for the model emitted with `copts`.
    fn decode_answer(&self, copts: &CompileOptions, file: &str, text: &str) -> Result<Report, InputError>;
    /// Check a solution file against the puzzle's rules.
    fn check(&self, file: &str, text: &str) -> Result<Checked, InputError>;
    /// Draw the puzzle, or a solution read from `(file, text)`; `None` when the kind has no
    /// picture. With `labels`, draw the map of the vertex names instead (no solution read).
    fn picture(
        &self,
        solution: Option<(&str, &str)>,
        numbers: bool,
        labels: bool,
    ) -> Result<Option<Picture>, InputError>;
    /// Whether the kind has a picture (`--svg`, `render`).
    fn has_picture(&self) -> bool;
    /// Whether compiling with `copts` refutes the puzzle (presolve), and why.
    fn refutation(&self, copts: &CompileOptions) -> Option<Refutation>;
    /// The puzzle itself, for commands that work on one kind's model (the 3SoKu counter).
    fn as_any(&self) -> &dyn std::any::Any;
    /// The compiled formula and the variables that identify a solution (`Puzzle::primary`):
    /// what the generic counter projects on. `Err` when compiling refutes the puzzle.
    fn primary_model(&self, copts: &CompileOptions) -> Result<(PbFormula, Vec<Var>), Refutation>;
}

/// The JSON of an answer and its run's figures: the `outcome` of the schema.
pub(crate) fn answer_json<P: Puzzle>(p: &P, a: &Answer<P::Solution>, stats: &SolveStats) -> Value {
    outcome_json(p, a, Some(stats))
}

/// The JSON of an answer: the common envelope around the puzzle's own fields.
fn outcome_json<P: Puzzle>(p: &P, a: &Answer<P::Solution>, stats: Option<&SolveStats>) -> Value {
    let mut v = json!({
        "status": a.status.as_str(),
        "puzzle": p.kind(),
        "backend": a.backend,
        // Whether the solution passed the verifier: for a solution only (an unsat answer
        // has none; `verdict_by` says how it was decided).
        "verified": verified_json(a),
        "verdict_by": a.verdict_by,
    });
    let obj = v.as_object_mut().expect("an object");
    for (k, x) in p.json_fields(a.solution.as_ref()) {
        obj.insert(k, x);
    }
    obj.insert("unique".into(), json!(a.unique));
    // Only with an objective: proven optimal or the best found in time.
    if let Some(optimal) = a.optimal {
        obj.insert("optimal".into(), json!(optimal));
        if optimal {
            obj.insert("optimal_by".into(), json!(a.optimal_by));
        }
    }
    if let Some(c) = &a.contradiction {
        obj.insert("contradiction".into(), json!(c));
    }
    obj.insert("evidence".into(), json!(a.evidence));
    if let Some(stats) = stats {
        obj.insert("stats".into(), report::stats_json(stats));
    }
    if let Some(reason) = &a.reason {
        obj.insert("reason".into(), json!(reason));
    }
    if let Some(second) = &a.second {
        for (k, x) in p.json_fields(Some(second)) {
            obj.insert(format!("second_{k}"), x);
        }
    }
    v
}

pub(crate) fn report_of<P: Puzzle>(p: &P, o: Outcome<P::Solution>, picture: bool) -> Report {
    let svg = if picture { svg_of(p, &o.answer) } else { None };
    Report {
        status: o.answer.status,
        verified: o.answer.verified,
        reason: o.answer.reason.clone(),
        unique: o.answer.unique,
        backend: o.answer.backend.clone(),
        text: p.text(&o.answer),
        json: outcome_json(p, &o.answer, Some(&o.stats)),
        optimal: o.answer.optimal,
        objective: o.answer.improvements.last().cloned(),
        contradiction: o.answer.contradiction.clone(),
        evidence: o.answer.evidence.clone(),
        stats: o.stats,
        svg,
    }
}

/// The picture of an answer: the solution, or the puzzle when there is none.
fn svg_of<P: Puzzle>(p: &P, a: &Answer<P::Solution>) -> Option<String> {
    let what = match (a.status, a.verified) {
        (Status::Sat, true) => "solution, verified",
        (Status::Sat, false) => "solution, NOT verified",
        (Status::Unsat, _) => "no solution exists (the instance is drawn)",
        (Status::Unknown, _) => "no solution found in time (the instance is drawn)",
    };
    p.scene(a.solution.as_ref(), what)
        .map(|s| crate::render::svg::render(&s))
}

/// [`super::pipeline::solve`], with the line of each improving solution written to
/// `progress` and flushed as it is found (see [`AnyPuzzle::solve_streaming`]).
pub(crate) fn solve_streaming<P: Puzzle>(
    p: &P,
    b: &mut dyn Backend,
    opts: &RunOptions,
    progress: &mut dyn Write,
) -> Result<Outcome<P::Solution>, RunError> {
    let mut on = |s: &P::Solution, _value: &num_bigint::BigInt| -> Result<(), RunError> {
        if let Some(line) = p.improvement_line(s) {
            progress.write_all(line.as_bytes())?;
            progress.flush()?;
        }
        Ok(())
    };
    let mut o = super::pipeline::solve_with(p, b, opts, &mut on)?;
    o.answer.improvements_streamed = true;
    Ok(o)
}

impl<P: Puzzle> AnyPuzzle for P {
    fn kind(&self) -> &'static str {
        Puzzle::kind(self)
    }

    fn comment(&self) -> &'static str {
        Puzzle::comment(self)
    }

    fn source(&self) -> &str {
        Puzzle::source(self)
    }

    fn solve(&self, b: &mut dyn Backend, opts: &RunOptions, picture: bool) -> Result<Report, RunError> {
        let o = super::pipeline::solve(self, b, opts)?;
        Ok(report_of(self, o, picture))
    }

    #[cfg(feature = "testing")]
    fn solve_streaming(
        &self,
        b: &mut dyn Backend,
        opts: &RunOptions,
        picture: bool,
        progress: &mut dyn Write,
    ) -> Result<Report, RunError> {
        Ok(report_of(self, solve_streaming(self, b, opts, progress)?, picture))
    }

    fn enumerate(
        &self,
        b: &mut dyn Backend,
        opts: &RunOptions,
        limit: Option<u64>,
        stream: Stream,
        out: &mut dyn Write,
    ) -> Result<Enumerated, RunError> {
        let started = opts.solve.started.unwrap_or_else(Instant::now);
        let mut k = 0u64;
        // One buffer for every solution, and the front-end's writer, which may keep the
        // text of repeated parts between solutions; the bytes are those of `text` and of
        // `outcome_json` (the envelope is written here, field by field in its order).
        let mut writer = self.writer();
        let mut buf: Vec<u8> = Vec::new();
        let mut on = |s: P::Solution, engine: &'static str| -> Result<ControlFlow<()>, RunError> {
            k += 1;
            buf.clear();
            write_solution(self, writer.as_mut(), stream, s, engine, k, started, &mut buf);
            out.write_all(&buf)?;
            out.flush()?;
            Ok(ControlFlow::Continue(()))
        };
        let e = super::enumerate::enumerate(self, b, opts, limit, &mut on)?;
        write_end(self, stream, limit, &e, out)?;
        Ok(e)
    }

    fn enumerate_jobs(
        &self,
        b: &mut dyn Backend,
        opts: &RunOptions,
        limit: Option<u64>,
        jobs: usize,
        stream: Stream,
        out: &mut (dyn Write + Send),
    ) -> Result<Enumerated, RunError> {
        if jobs <= 1 {
            return self.enumerate(b, opts, limit, stream, out);
        }
        let e = super::parallel::enumerate_jobs(self, b, opts, limit, jobs, stream, &Mutex::new(&mut *out))?;
        write_end(self, stream, limit, &e, out)?;
        Ok(e)
    }

    fn emit(&self, format: Format, copts: &CompileOptions, enc: EncodeOptions, to: emit::To<'_>) -> Result<(), Error> {
        emit::write(self, format, copts, enc, to)
    }

    fn decode_answer(&self, copts: &CompileOptions, file: &str, text: &str) -> Result<Report, InputError> {
        let answer = super::external::decode(self, copts, file, text)?;
        Ok(report_of(
            self,
            Outcome {
                answer,
                stats: SolveStats::default(),
            },
            false,
        ))
    }

    fn check(&self, file: &str, text: &str) -> Result<Checked, InputError> {
        let s = self.read_solution(file, text)?;
        Ok(match self.verify(&s) {
            Ok(()) => Checked::Valid(self.valid_summary(&s)),
            Err(why) => Checked::Invalid(why.to_string()),
        })
    }

    fn picture(
        &self,
        solution: Option<(&str, &str)>,
        numbers: bool,
        labels: bool,
    ) -> Result<Option<Picture>, InputError> {
        if labels {
            return Ok(self.scene(None, "vertex names").map(|mut scene| {
                scene.labels = true;
                scene.title = format!("{}: vertex names", scene.variant.name);
                scene.pegs.iter_mut().for_each(|p| *p = None);
                scene.faces.iter_mut().for_each(|f| *f = crate::render::FaceDraw::Empty);
                Picture {
                    svg: crate::render::svg::render(&scene),
                    invalid: None,
                }
            }));
        }
        let (s, invalid) = match solution {
            None => (None, None),
            Some((file, text)) => {
                let s = self.read_solution(file, text)?;
                let invalid = self.verify(&s).err().map(|e| e.to_string());
                (Some(s), invalid)
            }
        };
        let what = match (&s, &invalid) {
            (None, _) => "the instance".to_string(),
            (Some(_), None) => "solution, verified".to_string(),
            (Some(_), Some(e)) => format!("INVALID solution: {e}"),
        };
        Ok(self.scene(s.as_ref(), &what).map(|mut scene| {
            scene.numbers = numbers;
            Picture {
                svg: crate::render::svg::render(&scene),
                invalid,
            }
        }))
    }

    fn has_picture(&self) -> bool {
        self.scene(None, "").is_some()
    }

    fn refutation(&self, copts: &CompileOptions) -> Option<Refutation> {
        self.compile(copts).err()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn primary_model(&self, copts: &CompileOptions) -> Result<(PbFormula, Vec<Var>), Refutation> {
        let c = self.compile(copts)?;
        Ok((self.formula(&c).clone(), self.primary(&c)))
    }
}
