//! `sokuc generate`: random solvable 3SoKu instances, seed 000's Partition reduction and the
//! 4-unsat family, checked against what each construction promises (the Partition instances
//! against a subset-sum search written here), and the claims each file makes: a Tricky
//! Triple stopped by a signal or a time limit writes nothing.

mod common;

use std::process::{Command, Output, Stdio};
use std::time::Duration;

use common::{generate_3soku as generate, root, sokuc};

fn run(args: &[&str]) -> Output {
    sokuc().args(args).current_dir(root()).output().expect("run sokuc")
}

/// Exit code of `solve` (0 sat, 20 unsat); sat answers must be verified.
fn solve(path: &str, extra: &[&str]) -> i32 {
    let mut args = vec!["solve", path, "--format", "json"];
    args.extend_from_slice(extra);
    let o = run(&args);
    let code = o.status.code().unwrap();
    if code == 0 {
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(j["verified"], true, "{path}");
    }
    code
}

/// Can the sizes be split into two halves of equal sum? (subset sums, independent of sokuc)
fn splits(sizes: &[u64]) -> bool {
    let total: u64 = sizes.iter().sum();
    if total % 2 == 1 {
        return false;
    }
    let half = (total / 2) as usize;
    let mut reach = vec![false; half + 1];
    reach[0] = true;
    for &s in sizes {
        for t in (s as usize..=half).rev() {
            reach[t] |= reach[t - s as usize];
        }
    }
    reach[half]
}

#[test]
fn partition_instances_are_solvable_exactly_when_the_sizes_split() {
    let dir = tempfile::tempdir().unwrap();
    let mut state = 12345u64;
    let mut next = |n: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % n
    };
    let (mut yes, mut no) = (0, 0);
    for case in 0..80 {
        let len = 1 + next(8) as usize;
        let sizes: Vec<u64> = (0..len).map(|_| 1 + next(9)).collect();
        let list: Vec<String> = sizes.iter().map(u64::to_string).collect();
        let p = generate(
            dir.path(),
            &format!("p{case}.toml"),
            &["--from-partition", &list.join(",")],
        );
        let want = if splits(&sizes) { 0 } else { 20 };
        // Presolve off: the model itself must decide, on two backends.
        for backend in ["sat", "search"] {
            assert_eq!(
                solve(&p, &["--backend", backend, "--presolve", "off"]),
                want,
                "{sizes:?} on {backend}"
            );
        }
        assert_eq!(solve(&p, &[]), want, "{sizes:?} with presolve");
        if want == 0 { yes += 1 } else { no += 1 }
    }
    assert!(yes >= 10 && no >= 10, "both answers occur: {yes} sat, {no} unsat");
    // The seed's own example: 3+1+1 = 2+2+1.
    let p = generate(dir.path(), "seed.toml", &["--from-partition", "3,1,1,2,2,1"]);
    assert_eq!(solve(&p, &[]), 0);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains("variant = \"bipyramid-6\""), "{text}");
    assert!(text.contains("capacities = [5, 0, 0, 0, 0, 0, 0, 5]"), "{text}");
}

#[test]
fn random_instances_are_solvable_on_every_deltahedron_and_repeatable() {
    let dir = tempfile::tempdir().unwrap();
    for variant in sokuc::model::builtin::DELTAHEDRA {
        for seed in 0..4u64 {
            let s = seed.to_string();
            let mut args = vec!["--variant", variant, "--seed", &s];
            if seed % 2 == 1 {
                args.extend_from_slice(&["--fixed", "2"]);
            }
            if seed == 3 {
                args.push("--fixed-rotation");
            }
            let a = generate(dir.path(), "a.toml", &args);
            assert_eq!(solve(&a, &[]), 0, "{variant} seed {seed}");
            assert_eq!(solve(&a, &["--backend", "search"]), 0, "{variant} seed {seed}");
            let first = std::fs::read(&a).unwrap();
            let b = generate(dir.path(), "b.toml", &args);
            assert_eq!(first, std::fs::read(&b).unwrap(), "same seed, same file");
        }
        let x = std::fs::read(generate(dir.path(), "x.toml", &["--variant", variant, "--seed", "100"])).unwrap();
        let y = std::fs::read(generate(dir.path(), "y.toml", &["--variant", variant, "--seed", "101"])).unwrap();
        assert_ne!(x, y, "{variant}: different seeds give different instances");
    }
    // The icosahedron takes the IcoSoKu tiles by default.
    let i = generate(dir.path(), "i.toml", &["--seed", "5"]);
    let text = std::fs::read_to_string(&i).unwrap();
    assert!(text.contains("[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 0, 3]"), "{text}");
}

#[test]
fn four_unsat_instances_are_refuted_without_presolve_by_two_backends() {
    let dir = tempfile::tempdir().unwrap();
    for variant in ["tetrahedron", "octahedron", "snub-disphenoid", "icosahedron"] {
        for seed in 0..3u64 {
            let s = seed.to_string();
            let p = generate(
                dir.path(),
                "u.toml",
                &["--four-unsat", "--variant", variant, "--seed", &s],
            );
            let text = std::fs::read_to_string(&p).unwrap();
            assert_eq!(text.matches("[[fixed]]").count(), 4);
            assert!(!text.contains("rotation ="), "4-unsat leaves the turns free");
            for backend in ["sat", "search"] {
                assert_eq!(
                    solve(&p, &["--backend", backend, "--presolve", "off"]),
                    20,
                    "{variant} {seed} {backend}"
                );
            }
            assert_eq!(solve(&p, &[]), 20);
        }
    }
}

#[test]
fn bad_generate_requests_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.toml");
    let o_str = out.to_str().unwrap();
    for (args, says) in [
        (vec!["--from-partition", "3,x"], "\"x\" is not a size"),
        (vec!["--from-partition", "3,0,1"], "0 is not a size"),
        (vec!["--from-partition", "2000000,1"], "above the limit"),
        (
            vec!["--variant", "octahedron", "--tiles", "icosoku"],
            "20 tiles for the 8 faces",
        ),
        (vec!["--variant", "nonesuch"], "unknown variant"),
        (vec!["--variant", "octahedron", "--fixed", "9"], "only 8 faces"),
        (vec!["--random-partition", "0"], "give 1 to 50000"),
    ] {
        let mut all = vec!["generate", "3soku", "-o", o_str];
        all.extend_from_slice(&args);
        let o = run(&all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!out.exists());
    }
    for args in [
        vec!["generate", "3soku", "--from-partition", "1,2", "--four-unsat"],
        vec!["generate", "3soku", "--size", "5"],
        vec!["generate", "trickytriple", "--size", "5", "--four-unsat"],
        vec!["generate", "trickytriple"],
        vec!["generate", "3soku", "--timeout", "1"],
        vec!["generate", "trickytriple", "--size", "5", "--format", "json", "-o", "-"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&o.stderr).is_empty());
    }
}

#[test]
fn the_scaling_benchmark_reports_every_step_and_backend() {
    let o = run(&[
        "scaling",
        "--max-faces",
        "12",
        "--reps",
        "2",
        "--backends",
        "sat,search",
        "--timeout",
        "20",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let cells: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
    // random and 4-unsat: the five deltahedra up to 12 faces; partition: bipyramid-4 and -6.
    assert_eq!(cells.len(), (5 + 2 + 5) * 2);
    for c in &cells {
        let n = |k: &str| c[k].as_u64().unwrap();
        assert_eq!(n("unknown"), 0, "{c}");
        match c["family"].as_str().unwrap() {
            "random" => assert_eq!(n("sat"), 2, "{c}"),
            "4-unsat" => assert_eq!(n("unsat"), 2, "{c}"),
            "partition" => assert_eq!(n("sat") + n("unsat"), 2, "{c}"),
            other => panic!("family {other}"),
        }
        assert!(c["faces"].as_u64().unwrap() <= 12);
        assert!(c["median_ms"].as_f64().unwrap() >= 0.0);
    }
    let t = run(&["scaling", "--max-faces", "8", "--reps", "1", "--families", "random"]);
    let text = String::from_utf8_lossy(&t.stdout);
    assert!(
        text.contains("sat median (max) ms") && text.contains("search median (max) ms"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("random") && l.contains("octahedron") && l.contains("faces  #0"))
    );
    let bad = run(&["scaling", "--families", "random,nonsense"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown family \"nonsense\""));
}

/// SIGINT at several points of a Tricky Triple generation (a 40x40 grid takes minutes): the
/// command exits 130 and writes no file, so no uniqueness claim; a generation that ends
/// before the signal has its claim backed by evidence.
#[test]
fn an_interrupted_tricky_triple_generation_writes_no_uniqueness_claim() {
    let dir = tempfile::tempdir().unwrap();
    let mut interrupted = 0;
    for (k, delay) in [250u64, 600, 1000].into_iter().enumerate() {
        let out = dir.path().join(format!("tt{k}.tt"));
        let child = sokuc()
            .args(["generate", "trickytriple", "--size", "40", "--seed", "2", "-o"])
            .arg(&out)
            .current_dir(root())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        let sent = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let o = child.wait_with_output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert!(
            !stdout.contains("unique") && !stderr.contains("the solution is unique"),
            "{stdout}{stderr}"
        );
        match o.status.code() {
            Some(130) => {
                interrupted += 1;
                assert!(
                    !out.exists(),
                    "after {delay} ms: {}",
                    std::fs::read_to_string(&out).unwrap()
                );
                assert!(stderr.contains("nothing written"), "{stderr}");
            }
            // Killed before its handlers were installed (a very slow start): nothing written.
            None => assert!(!out.exists()),
            // Finished before the signal came (a fast machine): the claim has its evidence.
            Some(0) => {
                let text = std::fs::read_to_string(&out).unwrap();
                assert!(text.contains("# evidence: unique by "), "{text}");
            }
            other => panic!("after {delay} ms: exit {other:?}: {stderr}"),
        }
    }
    assert!(interrupted >= 1, "no generation was still running at its signal");
}

/// Past `--timeout` nothing is written and the command exits 30, in text and in JSON.
#[test]
fn a_tricky_triple_generation_past_its_time_limit_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("late.tt");
    let o = run(&[
        "generate",
        "trickytriple",
        "--size",
        "40",
        "--timeout",
        "0.05",
        "-o",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(30), "{stderr}");
    assert!(!out.exists());
    assert!(
        stderr.contains("time limit") && stderr.contains("nothing written"),
        "{stderr}"
    );
    let o = run(&[
        "generate",
        "trickytriple",
        "--size",
        "40",
        "--timeout",
        "0.05",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(30));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["status"], "unproven");
    assert!(doc["text"].is_null() && doc["claim"].is_null(), "{doc}");
    assert!(doc["evidence"]["claims"].is_array(), "{doc}");
}

/// A made file states its claim with the evidence: a Tricky Triple's uniqueness as the final
/// check through the run path recorded it, a 3SoKu instance's solvability by its verified
/// planted arrangement, unsatisfiability by its totals, and a Partition instance's lack of
/// any claim about itself.
#[test]
fn generated_files_state_their_claims_with_evidence() {
    let o = run(&["generate", "trickytriple", "--size", "7", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("\n# evidence: unique by sat: "), "{text}");
    assert!(!text.contains("the solution is unique"), "{text}");
    let o = run(&[
        "generate",
        "trickytriple",
        "--size",
        "7",
        "--seed",
        "3",
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (doc["status"].as_str(), doc["claim"].as_str()),
        (Some("made"), Some("unique"))
    );
    assert_eq!(doc["text"].as_str(), Some(&*text), "the same file, in the document");
    let unique = &doc["evidence"]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["claim"] == "unique")
        .unwrap();
    assert_eq!(unique["accepted"], true);
    for (args, says) in [
        (
            vec!["--variant", "octahedron"],
            "# evidence: solvable: the planted arrangement passed the 3SoKu verifier",
        ),
        (
            vec!["--four-unsat", "--variant", "octahedron"],
            "# evidence: unsatisfiable: the capacities add up to",
        ),
        (
            vec!["--from-partition", "3,1,1"],
            "# evidence: unsatisfiable: the capacities add up to 4 and the tiles to 5",
        ),
        (
            vec!["--from-partition", "3,1,2"],
            "# unproven: whether this instance is solvable is not decided here",
        ),
    ] {
        let mut all = vec!["generate", "3soku"];
        all.extend_from_slice(&args);
        let o = run(&all);
        assert_eq!(o.status.code(), Some(0));
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains(says), "{args:?}: {text}");
    }
}
