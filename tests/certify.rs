//! DRAT proofs checked by drat-trim: every unsatisfiable example, a sample of the seed's
//! "4-unsat" batch with presolve off (so the SAT solver, not presolve, refutes it), and
//! damaged proofs that the checker must reject.
//!
//! drat-trim comes from `scripts/build-drat-trim.sh` (run by install-tools.sh, as CI does).
//! Without it these tests are ignored in a plain `cargo test`, and fail under
//! `--include-ignored` instead of passing silently.

mod common;

use std::path::PathBuf;

use common::{root, sokuc};
use sokuc::backend::{self, SolveOptions, Status};
use sokuc::encode::{EncodeOptions, PbEncoding};
use sokuc::run::{self, emit};

use common::Presolve;

fn drat_trim() -> PathBuf {
    let p = std::env::var_os("SOKUC_DRAT_TRIM")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/tools/drat-trim"));
    assert!(
        p.is_file(),
        "drat-trim not found at {}: run scripts/build-drat-trim.sh",
        p.display()
    );
    p
}

#[test]
#[ignore = "needs drat-trim: scripts/build-drat-trim.sh (run by install-tools.sh) builds it"]
fn unsat_examples_are_certified_through_the_cli() {
    let checker = drat_trim();
    for (file, presolve) in [
        ("instances/tetrasoku-unsat.toml", "on"),
        ("instances/tetrasoku-unsat.toml", "off"),
        ("instances/icosoku-unsat.toml", "on"),
        ("instances/icosoku-unsat.toml", "off"),
    ] {
        let o = sokuc()
            .current_dir(root())
            .args(["certify", file, "--presolve", presolve, "--checker"])
            .arg(&checker)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(20),
            "{file}: {out}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(out.contains("UNSAT (proof checked: "), "{out}");
        // With presolve on, its argument is named too.
        assert_eq!(presolve == "on", out.contains("UNSAT (presolve: "), "{out}");
    }
    // With presolve on and not refuting: the proof is for the presolved CNF. Random
    // octahedra with one unit of capacity moved until one is unsat past presolve.
    let dir = tempfile::tempdir().unwrap();
    let oct = sokuc::input::variant_file::load_variant("octahedron", None, ("test", None)).unwrap();
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = |m: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % m
    };
    let mut found = 0;
    for k in 0..400 {
        let tiles: Vec<[u64; 3]> = (0..8).map(|_| [next(4), next(4), next(4)]).collect();
        let mut caps = vec![0u64; 6];
        for (f, t) in oct.faces.iter().zip(&tiles) {
            for i in 0..3 {
                caps[f[i]] += t[i];
            }
        }
        let (a, b) = (next(6) as usize, next(6) as usize);
        if a == b || caps[a] == 0 {
            continue;
        }
        caps[a] -= 1;
        caps[b] += 1;
        let list = |xs: &[u64]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
        let tl: Vec<String> = tiles.iter().map(|t| format!("[{}]", list(t))).collect();
        let path = dir.path().join(format!("o{k}.toml"));
        std::fs::write(
            &path,
            format!(
                "variant = \"octahedron\"\ntiles = [{}]\ncapacities = [{}]\n",
                tl.join(","),
                list(&caps)
            ),
        )
        .unwrap();
        let o = sokuc()
            .arg("certify")
            .arg(&path)
            .arg("--checker")
            .arg(&checker)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        if o.status.code() == Some(20) && !out.contains("presolve:") {
            assert!(out.contains("UNSAT (proof checked: "), "{out}");
            found += 1;
            if found == 3 {
                break;
            }
        } else {
            assert!(matches!(o.status.code(), Some(0) | Some(20)), "{out}");
        }
    }
    assert_eq!(found, 3, "no unsat octahedron past presolve in 400 tries");
    // A satisfiable instance is certified by its verified answer.
    let o = sokuc()
        .current_dir(root())
        .args(["certify", "instances/icosoku-seed.toml", "--checker"])
        .arg(&checker)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("SAT (answer verified)"));
}

/// Solves with a proof on `backend` and checks it against the CNF `--emit dimacs` writes.
fn prove(inst: &sokuc::model::Instance, backend: &str, pb: PbEncoding, dir: &std::path::Path) -> (PathBuf, PathBuf) {
    let enc = EncodeOptions {
        pb,
        ..Default::default()
    };
    let cnf = dir.join("m.cnf");
    emit::write(
        inst,
        emit::Format::Dimacs,
        &Presolve::Off.compile(),
        enc,
        emit::To::File(&cnf),
    )
    .unwrap();
    let proof = dir.join("p.drat");
    let mut b = backend::by_name(backend).unwrap();
    let opts = SolveOptions {
        proof: Some(proof.clone()),
        encode: enc,
        ..Default::default()
    };
    let r = run::solve(inst, b.as_mut(), &Presolve::Off.with(opts)).unwrap();
    assert_eq!(r.answer.status, Status::Unsat, "{}", inst.source);
    (cnf, proof)
}

#[test]
#[ignore = "needs drat-trim: scripts/build-drat-trim.sh (run by install-tools.sh) builds it"]
fn four_unsat_sample_proofs_check_out_and_damaged_ones_do_not() {
    let checker = drat_trim();
    let text = std::fs::read_to_string(root().join("instances/batches/unsat-icosoku100.txt")).unwrap();
    let items = sokuc::input::batch::parse_batch("unsat-icosoku100.txt", &text).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut backends = vec!["sat"];
    if cfg!(feature = "cadical") {
        backends.push("cadical");
    }
    // Every 10th line, each with all three encodings of the linear rows on the first one.
    for (k, item) in items.iter().step_by(10).enumerate() {
        for &b in &backends {
            let encs: &[PbEncoding] = if k == 0 {
                &[PbEncoding::Domain, PbEncoding::Swc, PbEncoding::Totalizer]
            } else {
                &[PbEncoding::Domain]
            };
            for &pb in encs {
                let (cnf, proof) = prove(&item.instance, b, pb, dir.path());
                let rep = sokuc::certify::drat::check(&checker, &cnf, &proof, None).unwrap();
                assert!(rep.verified, "line {} on {b}: {:?}", item.line, rep.tail);
            }
        }
    }
    // A damaged proof must be rejected. The 3SoKu refutations above are nearly unit
    // propagation (drat-trim finds one core lemma), so damage is tested on pigeonhole(7),
    // which needs real lemmas: its proof with the lemmas removed, or cut short, fails.
    let f = common::pigeonhole(7);
    let mut cnf_buf = sokuc::encode::Cnf::new();
    let stats = sokuc::encode::encode(&f, EncodeOptions::default(), &mut cnf_buf).unwrap();
    let cnf = dir.path().join("php.cnf");
    let mut w = std::fs::File::create(&cnf).unwrap();
    sokuc::encode::dimacs::write(&mut w, &cnf_buf, &["pigeonhole 7".to_string()], &[], &stats.aux, &[]).unwrap();
    let proof = dir.path().join("php.drat");
    let mut b = backend::by_name("sat").unwrap();
    let opts = SolveOptions {
        proof: Some(proof.clone()),
        ..Default::default()
    };
    assert_eq!(b.solve(&f, &opts).unwrap().status, Status::Unsat);
    let rep = sokuc::certify::drat::check(&checker, &cnf, &proof, None).unwrap();
    assert!(rep.verified, "{:?}", rep.tail);
    assert!(rep.core_lemmas.unwrap() > 10, "{rep:?}");
    let good = std::fs::read_to_string(&proof).unwrap();
    for (what, damaged) in [
        ("empty", String::new()),
        (
            "deletions only",
            good.lines()
                .filter(|l| l.starts_with('d'))
                .map(|l| format!("{l}\n"))
                .collect(),
        ),
        (
            "first half",
            good.lines()
                .take(good.lines().count() / 2)
                .map(|l| format!("{l}\n"))
                .collect(),
        ),
    ] {
        std::fs::write(&proof, damaged).unwrap();
        let rep = sokuc::certify::drat::check(&checker, &cnf, &proof, None).unwrap();
        assert!(!rep.verified, "drat-trim accepted the {what} proof");
    }
}

#[test]
fn certify_without_a_checker_is_a_clear_error() {
    let o = sokuc()
        .current_dir(root())
        .args([
            "certify",
            "instances/tetrasoku-unsat.toml",
            "--checker",
            "/nonexistent/drat-trim",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--checker"));
    // A backend without proofs is refused by name.
    let o = sokuc()
        .current_dir(root())
        .args([
            "certify",
            "instances/tetrasoku-unsat.toml",
            "--backend",
            "search",
            "--checker",
        ])
        .arg(root().join("Cargo.toml"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("search backend does not support DRAT proofs"), "{err}");
    assert!(err.contains("that do: sat"), "{err}");
}

/// Issue 13: presolve refuted these satisfiable instances (one tile type), and `certify`
/// printed the refutation, then "SAT (answer verified)", and exited 0. With presolve fixed,
/// certify answers SAT without a presolve claim. (The contradiction path, presolve unsat
/// against a verified plain solution, is unit-tested in `crates/sokuc/src/certify/verdict.rs`: exit class 1.)
#[test]
fn certify_answers_sat_on_the_issue_13_instances() {
    let dir = tempfile::tempdir().unwrap();
    let repeat = |t: &str, n: usize| vec![t; n].join(",");
    for (variant, tiles, caps, fixed) in [
        ("tetrahedron", repeat("[0,0,1]", 4), repeat("1", 4), ""),
        (
            "tetrahedron",
            "[0,0,1],[0,1,0],[1,0,0],[0,0,1]".to_string(),
            repeat("1", 4),
            "",
        ),
        ("icosahedron", repeat("[1,1,1]", 20), repeat("5", 12), ""),
        // One type pinned by a fixed tile, the rest one type.
        (
            "tetrahedron",
            "[1,1,1],[0,0,1],[0,0,1],[0,0,1]".to_string(),
            "2,2,2,0".to_string(),
            "\n[[fixed]]\nface = \"ABC\"\ntile = 1\n",
        ),
    ] {
        let path = dir.path().join("issue13.toml");
        std::fs::write(
            &path,
            format!("variant = \"{variant}\"\ntiles = [{tiles}]\ncapacities = [{caps}]\n{fixed}"),
        )
        .unwrap();
        for format in ["text", "json"] {
            // The checker only runs on an unsat claim; any existing file passes the check
            // that --checker names one.
            let o = sokuc()
                .arg("certify")
                .arg(&path)
                .args(["--format", format, "--checker"])
                .arg(root().join("Cargo.toml"))
                .output()
                .unwrap();
            let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
            assert_eq!(o.status.code(), Some(0), "{variant} {tiles}: {out}{err}");
            assert!(!err.contains("CONTRADICTION"), "{err}");
            if format == "text" {
                assert!(out.contains("SAT (answer verified)"), "{out}");
                assert!(!out.contains("presolve"), "{out}");
            } else {
                let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
                assert_eq!(v["status"], "sat", "{out}");
                assert_eq!(v["verdict"], "sat", "{out}");
                assert!(v["presolve"].is_null(), "{out}");
                assert_eq!(v["verified"], true, "{out}");
            }
        }
    }
}

/// The formulas certified at once: two unsatisfiable, two satisfiable, all of different
/// sizes, so that one call's proof checked against another's CNF is rejected.
const PIGEONHOLES: [(u32, u32); 4] = [(5, 4), (4, 4), (6, 5), (5, 5)];

/// Certifications at once in one process: each call writes its CNF and its proof to a
/// folder of its own. They all used `sokuc-certify-{pid}`, so one call's proof was checked
/// against another's CNF (a rejected proof), or the first call to finish removed the others'
/// files (an error).
#[test]
#[ignore = "needs drat-trim: scripts/build-drat-trim.sh (run by install-tools.sh) builds it"]
fn certifications_at_once_in_threads_each_check_their_own_files() {
    let checker = drat_trim();
    for round in 0..3 {
        let start = std::sync::Arc::new(std::sync::Barrier::new(PIGEONHOLES.len()));
        let threads: Vec<_> = PIGEONHOLES
            .iter()
            .map(|&(pigeons, holes)| {
                let (checker, start) = (checker.clone(), start.clone());
                std::thread::spawn(move || {
                    let name = format!("php-{pigeons}-{holes}.cnf");
                    let inst = sokuc::Instance::parse("cnf", &name, &common::pigeonhole_cnf(pigeons, holes)).unwrap();
                    let options = sokuc::Options::new().backend(sokuc::Backend::Sat);
                    start.wait();
                    let c = inst.certify(&options, &sokuc::Certify::new().checker(&checker));
                    (pigeons, holes, c)
                })
            })
            .collect();
        for t in threads {
            let (pigeons, holes, c) = t.join().unwrap();
            let c = c.unwrap_or_else(|e| panic!("round {round}, {pigeons} in {holes}: {e}"));
            let text = c.text();
            if pigeons > holes {
                assert_eq!(
                    c.verdict(),
                    sokuc::Verdict::Unsat,
                    "round {round}, {pigeons} in {holes}: {text}"
                );
                assert!(text.contains("UNSAT (proof checked: "), "{text}");
            } else {
                assert_eq!(
                    c.verdict(),
                    sokuc::Verdict::Sat,
                    "round {round}, {pigeons} in {holes}: {text}"
                );
                assert!(text.contains("SAT (answer verified)"), "{text}");
                // The model is of this formula: one hole per pigeon, no hole shared.
                let model: Vec<i64> = text
                    .lines()
                    .filter_map(|l| l.strip_prefix("v "))
                    .flat_map(|l| l.split_whitespace().map(|w| w.parse::<i64>().unwrap()))
                    .filter(|&v| v > 0)
                    .collect();
                let mut holes_used: Vec<i64> = model.iter().map(|v| (v - 1) % i64::from(holes)).collect();
                holes_used.sort_unstable();
                holes_used.dedup();
                assert_eq!(
                    (model.len(), holes_used.len()),
                    (pigeons as usize, pigeons as usize),
                    "{text}"
                );
            }
            assert!(c.certified());
        }
    }
    // Asked to keep its files, a call leaves them where it was told, as before.
    let kept = tempfile::tempdir().unwrap();
    let inst = sokuc::Instance::parse("cnf", "php.cnf", &common::pigeonhole_cnf(5, 4)).unwrap();
    let c = inst
        .certify(
            &sokuc::Options::new().backend(sokuc::Backend::Sat),
            &sokuc::Certify::new().checker(&checker).keep(kept.path()),
        )
        .unwrap();
    assert_eq!(c.verdict(), sokuc::Verdict::Unsat);
    for file in ["model.cnf", "proof.drat"] {
        assert!(kept.path().join(file).is_file(), "{file} was not kept");
    }
}

/// `sokuc certify` processes at once, each with its own formula: each answers for its own,
/// and leaves nothing behind in the temporary folder.
#[test]
#[ignore = "needs drat-trim: scripts/build-drat-trim.sh (run by install-tools.sh) builds it"]
fn certify_processes_at_once_each_answer_for_their_own_formula() {
    let checker = drat_trim();
    let files = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let children: Vec<_> = PIGEONHOLES[..3]
        .iter()
        .map(|&(pigeons, holes)| {
            let path = files.path().join(format!("php-{pigeons}-{holes}.cnf"));
            std::fs::write(&path, common::pigeonhole_cnf(pigeons, holes)).unwrap();
            let child = sokuc()
                .arg("certify")
                .arg(&path)
                .args(["--backend", "sat", "--checker"])
                .arg(&checker)
                .env("TMPDIR", tmp.path())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            (pigeons, holes, child)
        })
        .collect();
    for (pigeons, holes, child) in children {
        let o = child.wait_with_output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        // A CNF file answers with the SAT competition's exit codes.
        let (code, says) = if pigeons > holes {
            (20, "UNSAT (proof checked: ")
        } else {
            (10, "SAT (answer verified)")
        };
        assert_eq!(
            o.status.code(),
            Some(code),
            "{pigeons} in {holes}: {out}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(out.contains(says), "{out}");
    }
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// `Batch::bench_spawned` on two threads at once: each writes its instance files to a folder
/// of its own. Both used `sokuc-bench-{pid}`, with the same file names (`line1.toml`, ...),
/// so one benchmark solved the other's instances, or failed when the other, done first,
/// removed the folder.
#[test]
fn benches_at_once_solve_their_own_instances() {
    let dir = tempfile::tempdir().unwrap();
    let batch = |file: &str, keep: usize| {
        let text = std::fs::read_to_string(root().join("instances/batches").join(file)).unwrap();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .collect();
        let path = dir.path().join(file);
        std::fs::write(&path, lines[..keep].join("\n") + "\n").unwrap();
        sokuc::Batch::read(&path).unwrap()
    };
    let n = 6;
    let (sat, unsat) = (batch("icosoku100.txt", n), batch("unsat-icosoku100.txt", n));
    let start = std::sync::Arc::new(std::sync::Barrier::new(2));
    let run = |b: sokuc::Batch| {
        let start = start.clone();
        std::thread::spawn(move || {
            start.wait();
            let exe = std::path::Path::new(env!("CARGO_BIN_EXE_sokuc"));
            let mut rows = Vec::new();
            b.bench_spawned(exe, sokuc::Backend::Sat, &[], &mut rows)
                .map(|s| (s.sat(), s.unsat(), String::from_utf8_lossy(&rows).into_owned()))
        })
    };
    let (a, b) = (run(sat), run(unsat));
    let (sat, unsat) = (a.join().unwrap().unwrap(), b.join().unwrap().unwrap());
    assert_eq!((sat.0, sat.1), (n, 0), "{}", sat.2);
    assert_eq!((unsat.0, unsat.1), (0, n), "{}", unsat.2);
}
