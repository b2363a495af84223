//! Running drat-trim on a CNF and its proof, and reading what it says.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    #[error(
        "no DRAT checker found: pass --checker PATH, set SOKUC_DRAT_TRIM, put drat-trim on PATH, or run scripts/install-tools.sh (it builds target/tools/drat-trim)"
    )]
    NoChecker,
    #[error("running {checker}: {message}")]
    Run { checker: String, message: String },
}

/// What the checker said.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CheckReport {
    pub verified: bool,
    /// Lemmas in the proof, and those the refutation needed, as drat-trim counts them.
    pub lemmas: Option<u64>,
    pub core_lemmas: Option<u64>,
    pub seconds: f64,
    /// The checker's last lines, for a rejected proof.
    pub tail: Vec<String>,
}

/// The checker to use: `explicit`, else `tools/drat-trim` beside the directory of this
/// executable (`target/release/../tools`, where `scripts/build-drat-trim.sh` builds it). The
/// CLI passes `--checker`, `$SOKUC_DRAT_TRIM` or `drat-trim` on `PATH` as `explicit`.
pub fn find_checker(explicit: Option<&Path>) -> Result<PathBuf, CertifyError> {
    if let Some(p) = explicit {
        return Ok(p.to_path_buf());
    }
    let exe = std::env::current_exe().ok();
    let candidates = exe
        .iter()
        .filter_map(|e| e.parent())
        .flat_map(|d| [d.join("../tools/drat-trim"), d.join("../../tools/drat-trim")]);
    for p in candidates {
        if p.is_file() {
            return Ok(p);
        }
    }
    Err(CertifyError::NoChecker)
}

/// Runs drat-trim on `cnf` and `proof` (text or binary DRAT; drat-trim detects which).
pub fn check(checker: &Path, cnf: &Path, proof: &Path, limit: Option<Duration>) -> Result<CheckReport, CertifyError> {
    let t = std::time::Instant::now();
    let mut cmd = Command::new(checker);
    cmd.arg(cnf).arg(proof);
    if let Some(l) = limit {
        // drat-trim's own limit is in whole seconds (default 20,000).
        cmd.arg("-t").arg(l.as_secs().max(1).to_string());
    }
    let out = cmd.output().map_err(|e| CertifyError::Run {
        checker: checker.display().to_string(),
        message: e.to_string(),
    })?;
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(parse_report(&text, t.elapsed().as_secs_f64()))
}

/// Reads drat-trim's output: `s VERIFIED` and `c N of M lemmas in core ...`.
pub fn parse_report(text: &str, seconds: f64) -> CheckReport {
    let verified = text.lines().any(|l| l.trim() == "s VERIFIED");
    let mut lemmas = None;
    let mut core_lemmas = None;
    for l in text.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        // "c 1 of 88 lemmas in core using 21 resolution steps"
        if w.len() >= 5 && w[0] == "c" && w[2] == "of" && w[4] == "lemmas" {
            core_lemmas = w[1].parse().ok();
            lemmas = w[3].parse().ok();
        }
    }
    let tail = text.lines().rev().take(5).map(str::to_string).collect::<Vec<_>>();
    CheckReport {
        verified,
        lemmas,
        core_lemmas,
        seconds,
        tail: tail.into_iter().rev().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_drat_trim_reports() {
        let ok = "c parsing input formula\nc 21 of 898 clauses in core\nc 1 of 88 lemmas in core using 21 resolution steps\ns VERIFIED\nc verification time: 0.1 seconds\n";
        let r = parse_report(ok, 0.1);
        assert!(r.verified);
        assert_eq!((r.lemmas, r.core_lemmas), (Some(88), Some(1)));
        let bad = "c ERROR: no conflict\ns NOT VERIFIED\n";
        let r = parse_report(bad, 0.1);
        assert!(!r.verified);
        assert_eq!(r.lemmas, None);
        assert!(r.tail.iter().any(|l| l.contains("NOT VERIFIED")));
    }
}
