//! `certify` for any puzzle: solve; a sat answer is verified as always, an unsat one must
//! come with a DRAT proof that drat-trim accepts for the CNF `--emit dimacs` writes with the
//! same options. When presolve refutes the puzzle, its argument is kept and the plain model
//! (presolve off) is refuted with a checked proof as well.

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use super::drat::{CheckReport, check, find_checker};
use super::verdict::{Verdict, contradiction_message, verdict};
use crate::backend::{self, SolveOptions, Status};
use crate::encode::EncodeOptions;
use crate::error::{Error, exit, refusal};
use crate::input::InputError;
use crate::puzzle::CompileOptions;
use crate::run::{AnyPuzzle, Report, RunOptions, emit};

/// What to certify with.
#[derive(Debug)]
pub struct Request<'a> {
    pub backend: &'a str,
    pub compile: CompileOptions,
    pub encode: EncodeOptions,
    pub time_limit: Option<Duration>,
    /// The DRAT checker (default: see [`find_checker`]).
    pub checker: Option<&'a Path>,
    /// Keep the CNF and the proof here (default: a temporary directory, removed).
    pub keep: Option<&'a Path>,
    /// Tuning experiments for the solve (none by default).
    pub tuning: backend::Tuning,
}

/// The outcome of `certify`.
#[derive(Debug)]
pub struct Certificate {
    pub source: String,
    pub verdict: Verdict,
    /// Presolve's refutation, when it refuted the puzzle (the run is then on the plain model).
    pub presolve: Option<String>,
    pub run: Report,
    pub proof: Option<CheckReport>,
    pub checker: PathBuf,
    /// The CNF and the proof, when kept.
    pub kept: Option<(PathBuf, PathBuf)>,
}

/// Certifies `p` (see the module comment).
pub fn certify(p: &dyn AnyPuzzle, req: &Request) -> Result<Certificate, Error> {
    // The backend first: a backend that writes no proof is refused the same way whether or
    // not a checker is installed.
    let mut b = backend::lookup(req.backend).map_err(|e| InputError::new("--backend", None, e.to_string()))?;
    if !b.capabilities().proof {
        // Refused under the option that chose the backend.
        return Err(match refusal(req.backend, backend::feature::PROOF) {
            Error::Unsupported { message, .. } => Error::unsupported("--backend", message),
            other => other,
        });
    }
    let checker = find_checker(req.checker).map_err(|e| InputError::new("--checker", None, e.to_string()))?;
    if !checker.is_file() {
        return Err(InputError::new("--checker", None, format!("{} does not exist", checker.display())).into());
    }
    let presolve = match req.compile.presolve {
        true => p.refutation(&req.compile).map(|r| r.to_string()),
        false => None,
    };
    let compile = CompileOptions {
        presolve: req.compile.presolve && presolve.is_none(),
    };
    // Without `keep`, a folder of this call's own, removed when `_temporary` is dropped
    // (also on an error or a panic): calls at once, in threads or processes, never share
    // the CNF or the proof.
    let (dir, _temporary) = match req.keep {
        Some(d) => {
            std::fs::create_dir_all(d)
                .map_err(|e| InputError::new(d.display().to_string(), None, format!("cannot create: {e}")))?;
            (d.to_path_buf(), None)
        }
        None => {
            let t = tempfile::Builder::new()
                .prefix("sokuc-certify-")
                .tempdir()
                .map_err(|e| Error::internal(format!("creating a temporary folder: {e}")))?;
            (t.path().to_path_buf(), Some(t))
        }
    };
    let cnf = dir.join("model.cnf");
    let proof_path = dir.join("proof.drat");
    (|| -> Result<Certificate, Error> {
        p.emit(emit::Format::Dimacs, &compile, req.encode, emit::To::File(&cnf))?;
        // Like every output, the proof is written beside its place and moved there whole.
        let pending = crate::output::Pending::new(&proof_path)?;
        let opts = RunOptions {
            solve: SolveOptions {
                time_limit: req.time_limit,
                proof: Some(pending.path().to_path_buf()),
                encode: req.encode,
                tuning: req.tuning.clone(),
                ..Default::default()
            },
            compile,
            // The point is the solver's DRAT proof, checked by drat-trim; an LP refutation
            // would answer before the solver writes one.
            lp: crate::run::LpMode::Off,
            unique: false,
            strict: false,
        };
        let run = p.solve(b.as_mut(), &opts, false)?;
        pending.commit()?;
        let proof = match run.status {
            Status::Unsat => {
                Some(check(&checker, &cnf, &proof_path, req.time_limit).map_err(|e| Error::internal(e.to_string()))?)
            }
            _ => None,
        };
        let verdict = verdict(
            presolve.is_some(),
            run.status,
            run.verified,
            proof.as_ref().map(|r| r.verified),
        );
        Ok(Certificate {
            source: p.source().to_string(),
            verdict,
            presolve: presolve.clone(),
            run,
            proof,
            checker: checker.clone(),
            kept: req.keep.map(|_| (cnf.clone(), proof_path.clone())),
        })
    })()
}

impl Certificate {
    pub fn exit_code(&self) -> u8 {
        match self.verdict {
            Verdict::Sat => exit::SAT,
            Verdict::Unsat => exit::UNSAT,
            Verdict::Unknown => exit::UNKNOWN,
            _ => exit::INTERNAL,
        }
    }

    /// For stderr, whatever the format: presolve decides every `solve`, so a wrong
    /// refutation is a wrong "unsat" everywhere.
    pub fn contradiction(&self) -> Option<String> {
        (self.verdict == Verdict::PresolveContradiction)
            .then(|| contradiction_message(self.presolve.as_deref().unwrap_or_default()))
    }

    pub fn json(&self) -> Value {
        json!({
            "status": self.run.status.as_str(),
            "instance": self.source,
            "backend": self.run.backend,
            "verified": self.run.verified,
            "presolve": self.presolve,
            "verdict": self.verdict,
            "proof": self.proof,
            "checker": self.checker.display().to_string(),
            "cnf": self.kept.as_ref().map(|(c, _)| c.display().to_string()),
        })
    }

    pub fn text(&self) -> String {
        let mut out = String::new();
        let contradiction = self.verdict == Verdict::PresolveContradiction;
        if let Some(reason) = &self.presolve {
            if contradiction {
                let _ = writeln!(
                    out,
                    "presolve claimed UNSAT ({reason}), but the model without presolve has a verified solution:"
                );
            } else {
                let _ = writeln!(out, "UNSAT (presolve: {reason})");
                if self.verdict == Verdict::Unsat {
                    let _ = writeln!(out, "the model without presolve is refuted too, with a proof:");
                } else {
                    let _ = writeln!(out, "the model without presolve:");
                }
            }
        }
        match (self.run.status, &self.proof) {
            (Status::Sat, _) => {
                out.push_str(&self.run.text);
                let _ = writeln!(out, "SAT (answer verified)");
                if contradiction {
                    let _ = writeln!(out, "CONTRADICTION: presolve's refutation is wrong (a bug in sokuc)");
                }
            }
            (Status::Unsat, Some(rep)) if rep.verified => {
                let _ = writeln!(
                    out,
                    "UNSAT (proof checked: {} lemmas, {} in the core; drat-trim {:.2} s)",
                    rep.lemmas.map_or("?".into(), |n| n.to_string()),
                    rep.core_lemmas.map_or("?".into(), |n| n.to_string()),
                    rep.seconds
                );
            }
            (Status::Unsat, Some(rep)) => {
                let _ = writeln!(out, "UNSAT CLAIM REJECTED: drat-trim did not verify the proof");
                for l in &rep.tail {
                    let _ = writeln!(out, "  {l}");
                }
            }
            _ => {
                let _ = writeln!(out, "unknown: no answer within the time limit");
            }
        }
        if let Some((cnf, proof)) = &self.kept {
            let _ = writeln!(out, "kept {} and {}", cnf.display(), proof.display());
        }
        out
    }
}
