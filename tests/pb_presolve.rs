//! Presolve of OPB files on real structure: MIPLIB problems, Tseitin formulas and set
//! covers of `instances/pb-bench/`, where presolve fixes variables and drops and rewrites
//! rows (up to 1,620 fixed variables on harp2).
//!
//! Presolve must keep every solution (`crates/puzzles/src/pb/presolve.rs`), so a model found *without*
//! presolve must satisfy the presolved formula. The presolved formula is read through
//! `--emit opb`, and the model is checked against it with `sokuc check`, whose exact
//! evaluation shares no code with presolve. A fixing that cut off a solution, or a rewritten
//! row that lost one, fails here. Unsatisfiable files must stay refuted with presolve on and
//! off, as the benchmark's manifest says.
//!
//! The smaller rows of the unit tests in `presolve.rs` are checked against brute force
//! there, and `tests/pb_files.rs` and `tests/pb_bigint.rs` compare every backend with
//! presolve on and off against brute force on random files.

mod common;

use std::path::Path;

use common::{on_two_threads, root, sokuc};

fn bench(file: &str) -> std::path::PathBuf {
    root().join("instances").join(file)
}

/// Solves `file` and returns what `solve` printed and its `s` line.
fn solve(file: &Path, args: &[&str]) -> (String, String) {
    let out = sokuc().arg("solve").arg(file).args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let status = text.lines().find(|l| l.starts_with("s ")).unwrap_or("").to_string();
    (text, status)
}

/// The model of `file` found without presolve satisfies the presolved model.
fn model_survives(file: &str, args: &[&str]) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let path = bench(file);
    let mut plain_args = vec!["--presolve", "off"];
    plain_args.extend_from_slice(args);
    let (model, status) = solve(&path, &plain_args);
    // An optimisation stopped at its limit still prints its best model.
    if !(status == "s SATISFIABLE" || status == "s OPTIMUM FOUND") {
        return Err(format!("{file}: no model without presolve ({status})"));
    }
    let answer = dir.path().join("model.txt");
    std::fs::write(&answer, &model).unwrap();
    let emit = |presolve: &str, name: &str| -> Result<(std::path::PathBuf, String), String> {
        let to = dir.path().join(name);
        let out = sokuc()
            .arg("solve")
            .arg(&path)
            .args(["--presolve", presolve, "--emit", "opb", "-o"])
            .arg(&to)
            .output()
            .unwrap();
        if !out.status.success() {
            return Err(format!("{file}: --emit opb: {}", String::from_utf8_lossy(&out.stderr)));
        }
        let text = std::fs::read_to_string(&to).unwrap();
        Ok((to, text))
    };
    let (presolved, text) = emit("on", "presolved.opb")?;
    let (_, plain) = emit("off", "plain.opb")?;
    // The file must be one presolve changes, or the check below proves nothing.
    if text == plain {
        return Err(format!("{file}: presolve changed nothing"));
    }
    let check = sokuc().arg("check").arg(&presolved).arg(&answer).output().unwrap();
    if !check.status.success() {
        return Err(format!(
            "{file}: a model of the plain formula breaks the presolved one: {}{}",
            String::from_utf8_lossy(&check.stdout),
            String::from_utf8_lossy(&check.stderr)
        ));
    }
    Ok(())
}

#[test]
fn models_without_presolve_satisfy_the_presolved_formula() {
    // The MIPLIB problems as given (`min:`): any model will do, the best at the limit.
    let jobs = [
        "pb-bench/decision/tseitin-20-d4-sat-s7.opb",
        "pb-bench/decision/tseitin-60-d4-sat-s9.opb",
        "pb-bench/decision/miplib-enigma-leopt.opb",
        "pb-bench/optimisation/setcover-30-40-s1.opb",
        "miplib/p0201.opb.gz",
        "miplib/p2756.opb.gz",
    ];
    on_two_threads(&jobs, |f| model_survives(f, &["--timeout", "20"]));
}

/// The largest fixings of the set, on models HiGHS finds in a few seconds (the best model
/// at the limit; no optimum is needed for the check), and MIPLIB decision files the
/// default build does not solve in time.
#[cfg(feature = "highs")]
#[test]
fn models_of_harp2_seymour_and_fast0507_satisfy_their_presolved_formulas() {
    let jobs = [
        "pb-bench/optimisation/miplib3-harp2.opb.gz",
        "pb-bench/optimisation/miplib3-seymour.opb.gz",
        "pb-bench/optimisation/miplib3-fast0507.opb.gz",
        "pb-bench/decision/miplib-p0548-leopt.opb",
        "pb-bench/decision/miplib-p0201-leopt.opb",
    ];
    on_two_threads(&jobs, |f| model_survives(f, &["--backend", "highs", "--timeout", "15"]));
}

/// Refutations stay refutations with presolve on and off, as the manifest says.
#[test]
fn unsatisfiable_files_stay_refuted_with_presolve_on_and_off() {
    let files = [
        "pb-bench/decision/tseitin-16-d4-unsat-s2.opb",
        "pb-bench/decision/tseitin-24-d4-unsat-s4.opb",
        "pb-bench/decision/miplib-enigma-leopt-1.opb",
    ];
    let jobs: Vec<(&str, &str)> = files.iter().flat_map(|f| [(*f, "on"), (*f, "off")]).collect();
    on_two_threads(&jobs, |(f, presolve)| {
        let (_, status) = solve(&bench(f), &["--presolve", presolve, "--timeout", "120"]);
        if status == "s UNSATISFIABLE" {
            Ok(())
        } else {
            Err(format!("{f} with presolve {presolve}: {status}"))
        }
    });
}

/// Presolve must not take a wide row away from `mitm`. Propagation fixes some carry bits
/// of these files' digit columns; a unit clause on them would make the row's bits used
/// elsewhere, and `mitm` would then enumerate the carry bits as free variables instead of
/// taking the row whole (the subset sums went from 0.1 s to past 20 s that way). So `mitm`
/// must enumerate no more variables than the file declares, on every file of the benchmark
/// with rows past 62 bits where presolve fixes carry bits.
#[test]
fn wide_rows_stay_whole_for_mitm_after_presolve() {
    let jobs = [
        "pb-bench/decision/knapsack-dec-24-big-sat-s4.opb",
        "pb-bench/decision/knapsack-dec-24-big-unsat-s4.opb",
        "pb-bench/decision/marketsplit-agg-4-30-s8.opb",
        "pb-bench/decision/subsetsum-24-b80-sat-s4.opb",
        "pb-bench/decision/subsetsum-24-b80-unsat-s104.opb",
        "pb-bench/decision/subsetsum-30-b100-sat-s5.opb",
        "pb-bench/decision/subsetsum-34-b128-unsat-s106.opb",
        "pb-bench/optimisation/knapsack-big-30-s5.opb",
    ];
    on_two_threads(&jobs, |f| {
        let path = bench(f);
        let text = std::fs::read_to_string(&path).unwrap();
        let declared: usize = text
            .split("#variable=")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .ok_or(format!("{f}: no #variable= header"))?;
        let out = sokuc()
            .arg("solve")
            .arg(&path)
            .args(["--backend", "mitm", "--format", "json", "--timeout", "60"])
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("{f}: {e}"))?;
        if v["status"] == "unknown" {
            return Err(format!("{f}: mitm did not decide: {v}"));
        }
        // "15 + 15 free variables, 0 fixed"
        let halves = v["stats"]["extra"]["mitm_halves"].as_str().unwrap_or("").to_string();
        let words: Vec<&str> = halves.split_whitespace().collect();
        let free: usize = match words.as_slice() {
            [a, "+", b, ..] => a.parse::<usize>().unwrap_or(usize::MAX) + b.parse::<usize>().unwrap_or(0),
            _ => return Err(format!("{f}: no mitm_halves in {v}")),
        };
        if free > declared {
            return Err(format!(
                "{f}: mitm enumerated {free} variables, the file has {declared}: {halves}"
            ));
        }
        Ok(())
    });
}
