//! `solve --strict`: an unsat, optimum or uniqueness verdict is printed only with checked
//! evidence or a second engine of another kind behind it; otherwise the best checked answer
//! goes out with an unknown status, and the evidence says what was withheld. Each case runs
//! the binary and reads the JSON's `evidence`, so what a user sees is what is tested.

use std::process::Output;

use serde_json::Value;

mod common;

fn run(args: &[&str]) -> Output {
    common::sokuc().args(args).output().unwrap()
}

fn json(args: &[&str]) -> (Value, Option<i32>) {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let o = run(&a);
    let v = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{a:?}: {e}\n{}", String::from_utf8_lossy(&o.stderr)));
    (v, o.status.code())
}

/// The claim of kind `kind` in the answer's evidence.
fn claim<'v>(v: &'v Value, kind: &str) -> &'v Value {
    v["evidence"]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["claim"] == kind)
        .unwrap_or_else(|| panic!("no {kind} claim in {}", v["evidence"]))
}

#[test]
fn an_engines_unsat_is_confirmed_by_an_engine_of_another_kind() {
    let (v, code) = json(&["solve", "instances/cnf/php-5-4.cnf", "--backend", "sat", "--strict"]);
    assert_eq!((v["status"].as_str(), code), (Some("unsat"), Some(20)), "{v}");
    let c = claim(&v, "unsat");
    assert_eq!(c["backing"], "second-engine");
    assert_eq!(c["by"], "sat");
    assert_eq!(c["confirmed_by"], "cp");
    assert_eq!(c["accepted"], true);
    // Without --strict the same verdict is the engine's word.
    let (v, _) = json(&["solve", "instances/cnf/php-5-4.cnf", "--backend", "sat"]);
    assert_eq!(claim(&v, "unsat")["backing"], "engine-word");
}

#[test]
fn an_unsat_no_second_engine_can_check_is_withheld() {
    // cp refutes the pigeonhole; the one engine of another kind that could check it is
    // clause learning, and a clause budget of 1 keeps it from taking the formula.
    let args = [
        "solve",
        "instances/cnf/php-5-4.cnf",
        "--backend",
        "cp",
        "--strict",
        "--max-clauses",
        "1",
    ];
    let (v, code) = json(&args);
    assert_eq!(v["status"], "unknown", "{v}");
    assert_eq!(code, Some(0), "a CNF file's unknown exits 0, as SAT solvers do");
    let c = claim(&v, "unsat");
    assert_eq!((c["by"].as_str(), c["accepted"].as_bool()), (Some("cp"), Some(false)));
    assert!(v["reason"].as_str().unwrap().contains("--strict"), "{v}");
    let text = String::from_utf8(run(&args).stdout).unwrap();
    assert!(text.starts_with("s UNKNOWN\n"), "{text}");
    assert!(text.contains("withheld by --strict"), "{text}");
}

#[test]
fn a_presolve_refutation_is_checked_on_the_model_without_presolve() {
    let (v, code) = json(&["solve", "instances/tetrasoku-unsat.toml", "--strict"]);
    assert_eq!((v["status"].as_str(), code), (Some("unsat"), Some(20)), "{v}");
    let c = claim(&v, "unsat");
    assert_eq!(
        (c["by"].as_str(), c["backing"].as_str()),
        (Some("presolve"), Some("second-engine"))
    );
    assert!(c["confirmed_by"].is_string());
}

#[test]
fn an_lp_certificate_needs_no_second_engine() {
    let (v, _) = json(&[
        "solve",
        "tests/golden/inputs/unsat.kakuro",
        "--backend",
        "sat",
        "--strict",
    ]);
    assert_eq!(v["status"], "unsat", "{v}");
    let c = claim(&v, "unsat");
    assert_eq!(
        (c["backing"].as_str(), c["certificate"].as_str()),
        (Some("certificate"), Some("farkas"))
    );
}

#[test]
fn an_optimum_is_confirmed_and_names_what_proved_its_bound() {
    for backend in ["sat", "cp"] {
        let args = [
            "solve",
            "instances/opb/knapsack-opt-25-s1.opb",
            "--backend",
            backend,
            "--strict",
        ];
        let (v, code) = json(&args);
        assert_eq!((v["optimal"].as_bool(), code), (Some(true), Some(30)), "{backend}: {v}");
        let c = claim(&v, "optimum");
        assert_eq!(c["by"], backend);
        assert_eq!(c["backing"], "second-engine", "{backend}: {c}");
        assert_ne!(c["confirmed_by"], backend);
        let method = if backend == "sat" { "refuted" } else { "native" };
        assert_eq!(c["bound"]["method"], method, "{backend}: {c}");
        // The same optimum without --strict: the strict run withheld nothing and changed
        // nothing.
        let (plain, _) = json(&args[..4]);
        assert_eq!(plain["objective"], v["objective"], "{backend}");
    }
}

#[test]
fn uniqueness_is_confirmed_or_withheld() {
    let tt = "instances/trickytriple/feup-lekinasa-4x4-01.tt";
    let (v, code) = json(&["solve", tt, "--unique", "--strict", "--backend", "sat"]);
    assert_eq!((v["unique"].as_bool(), code), (Some(true), Some(0)), "{v}");
    assert_eq!(claim(&v, "unique")["backing"], "second-engine");
    // cp's word alone, with clause learning kept out by the clause budget: the solution is
    // printed, checked, and its uniqueness is left open.
    let args = [
        "solve",
        tt,
        "--unique",
        "--strict",
        "--backend",
        "cp",
        "--max-clauses",
        "1",
    ];
    let (v, _) = json(&args);
    assert_eq!(
        (v["status"].as_str(), v["unique"].is_null()),
        (Some("sat"), true),
        "{v}"
    );
    assert_eq!(claim(&v, "unique")["accepted"], false);
    let text = String::from_utf8(run(&args).stdout).unwrap();
    assert!(text.contains("uniqueness not confirmed (--strict)"), "{text}");
}
