//! Exports read back by the real tools: LP and MPS by cbc and HiGHS, OPB by minisat+,
//! MiniZinc by `minizinc --solver gecode`, DIMACS by cadical. Each answer goes through
//! `sokuc decode` and the verifier. (tests/export_names.rs does the same for vertex names
//! of every kind.)
//! The tools are installed by scripts/install-tools.sh; without them these tests are
//! ignored (with the reason), never silently passed.

mod common;

use std::fs;
use std::process::Command;

use common::{root, sokuc, which};

const CASES: &[(&str, i32)] = &[
    ("instances/icosoku-seed.toml", 0),
    ("instances/icosoku-fixed.toml", 0),
    ("instances/octasoku.toml", 0),
    ("instances/tetrasoku-unsat.toml", 20),
    // An OPB file in the spellings other tools read, with `max: ;` (an objective of no
    // terms): a decoded answer is a checked model whose optimality is not proven here.
    ("fuzz/seeds/opb/minisat-plus-spellings.opb", 10),
];

/// Emits `format`, runs `tool` to produce an answer file, decodes it, and checks the
/// outcome against `sokuc solve` (presolve off, so unsat cases reach the tool).
fn round_trip(format: &str, run_tool: &dyn Fn(&std::path::Path, &std::path::Path)) {
    let dir = tempfile::tempdir().unwrap();
    for (k, (inst, want)) in CASES.iter().enumerate() {
        let model = dir.path().join(format!("m{k}.{format}"));
        let answer = dir.path().join(format!("m{k}.answer"));
        let o = sokuc()
            .current_dir(root())
            .args(["solve", inst, "--presolve", "off", "--emit", format, "-o"])
            .arg(&model)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        run_tool(&model, &answer);
        let d = sokuc()
            .current_dir(root())
            .args(["decode", inst, "--presolve", "off", "--format", "json", "--solution"])
            .arg(&answer)
            .output()
            .unwrap();
        assert_eq!(
            d.status.code(),
            Some(*want),
            "{format} {inst}: {} / answer: {}",
            String::from_utf8_lossy(&d.stderr),
            fs::read_to_string(&answer)
                .unwrap_or_default()
                .chars()
                .take(300)
                .collect::<String>()
        );
        let v: serde_json::Value = serde_json::from_slice(&d.stdout).unwrap();
        if *want != 20 {
            assert_eq!(v["verified"], true, "{format} {inst}");
        } else {
            assert_eq!(v["status"], "unsat");
        }
    }
}

fn tool(name: &str) -> std::path::PathBuf {
    which(name).unwrap_or_else(|| panic!("{name} is not installed: run scripts/install-tools.sh"))
}

/// `cbc MODEL solve solu ANSWER`: CBC reads LP and (free) MPS alike.
fn through_cbc(format: &str) {
    let cbc = tool("cbc");
    round_trip(format, &|m, a| {
        let o = Command::new(&cbc)
            .arg(m)
            .args(["solve", "solu"])
            .arg(a)
            .output()
            .unwrap();
        assert!(o.status.success());
    });
}

#[test]
#[ignore = "needs cbc (Debian coinor-cbc); scripts/test.sh installs it and runs ignored tests"]
fn lp_through_cbc() {
    through_cbc("lp");
}

/// HiGHS through scripts/highs-solve.py (the highspy package): it writes HiGHS's own
/// solution file, which `decode` reads.
fn through_highs(format: &str) {
    let python = tool("python3");
    let script = root().join("scripts/highs-solve.py");
    round_trip(format, &|m, a| {
        let o = Command::new(&python).arg(&script).arg(m).arg(a).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    });
}

#[test]
#[ignore = "needs python3 with highspy (PyPI); scripts/test.sh installs it and runs ignored tests"]
fn lp_through_highs() {
    through_highs("lp");
}

#[test]
#[ignore = "needs python3 with highspy (PyPI); scripts/test.sh installs it and runs ignored tests"]
fn mps_through_highs() {
    through_highs("mps");
}

#[test]
#[ignore = "needs cbc (Debian coinor-cbc); scripts/test.sh installs it and runs ignored tests"]
fn mps_through_cbc() {
    through_cbc("mps");
}

#[test]
#[ignore = "needs minisat+ (Debian minisat+); scripts/test.sh installs it and runs ignored tests"]
fn opb_through_minisat_plus() {
    let ms = tool("minisat+");
    round_trip("opb", &|m, a| {
        let o = Command::new(&ms).arg(m).output().unwrap();
        fs::write(a, &o.stdout).unwrap();
    });
}

#[test]
#[ignore = "needs minizinc with gecode (Debian minizinc); scripts/test.sh installs it and runs ignored tests"]
fn mzn_through_minizinc_gecode() {
    let mz = tool("minizinc");
    round_trip("mzn", &|m, a| {
        let o = Command::new(&mz).args(["--solver", "gecode"]).arg(m).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        fs::write(a, &o.stdout).unwrap();
    });
}

#[test]
#[ignore = "needs cadical (Debian cadical); scripts/test.sh installs it and runs ignored tests"]
fn dimacs_through_cadical() {
    let cadical = tool("cadical");
    round_trip("dimacs", &|m, a| {
        let o = Command::new(&cadical).arg(m).output().unwrap();
        // SAT-competition exit codes: 10 satisfiable, 20 unsatisfiable.
        assert!(
            matches!(o.status.code(), Some(10 | 20)),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        fs::write(a, &o.stdout).unwrap();
    });
}

#[test]
fn exports_are_deterministic() {
    for format in ["dimacs", "lp", "mps", "opb", "mzn"] {
        let run = || {
            sokuc()
                .current_dir(root())
                .args(["solve", "instances/octasoku.toml", "--emit", format])
                .output()
                .unwrap()
                .stdout
        };
        let a = run();
        assert!(!a.is_empty());
        assert_eq!(a, run(), "{format}");
        let text = String::from_utf8(a).unwrap();
        // Readable names survive into every format (OPB names them in comments).
        assert!(text.contains("p_ACB_"), "{format}");
    }
}

#[test]
fn compare_on_the_seed_example_verifies_every_backend() {
    let o = sokuc()
        .current_dir(root())
        .args([
            "compare",
            "instances/icosoku-seed.toml",
            "--format",
            "json",
            "--timeout",
            "120",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["agree"], true);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), sokuc::backend::general().len());
    for r in results {
        assert_eq!(r["status"], "sat", "{r}");
        assert_eq!(r["verified"], true, "{r}");
    }
}
