//! `sokuc bench` over OPB and CNF files and folders (issue 17, item 6): per-file rows and the
//! summary, and `--vs` with real external commands (small shell scripts written here that
//! print competition answers, and minisat+ itself in an ignored test): status parsing, the
//! disagreement flag, the check of the external model, and the kill at the time limit.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

mod common;

fn sokuc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sokuc")).args(args).output().unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A folder with two sat and two unsat files (OPB and CNF), and a file bench must skip.
fn folder() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let w = |name: &str, body: &str| std::fs::write(d.path().join(name), body).unwrap();
    w("a-sat.opb", "* #variable= 2 #constraint= 1\n+1 x1 +1 x2 >= 1 ;\n");
    w(
        "b-unsat.opb",
        "* #variable= 2 #constraint= 2\n+1 x1 +1 x2 >= 2 ;\n+1 x1 +1 x2 <= 1 ;\n",
    );
    w("c-sat.cnf", "p cnf 2 2\n1 2 0\n-1 0\n");
    w("d-unsat.cnf", "p cnf 1 2\n1 0\n-1 0\n");
    w("notes.txt", "not an instance\n");
    d
}

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    // Through a process of its own, so that no fork of another test thread can hold the
    // script open for writing when it runs (common::write_executable says why).
    common::write_executable(&p, format!("#!/bin/sh\n{body}\n").as_bytes());
    p
}

fn dir_arg(d: &tempfile::TempDir) -> String {
    d.path().to_str().unwrap().to_string()
}

#[test]
fn a_folder_gives_a_row_per_file_in_name_order_and_a_summary() {
    let d = folder();
    let o = sokuc(&["bench", &dir_arg(&d), "--timeout", "20"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}\n{}", String::from_utf8_lossy(&o.stderr));
    let rows: Vec<&str> = t.lines().take(4).collect();
    for (row, (name, status)) in rows.iter().zip([
        ("a-sat.opb", "sat"),
        ("b-unsat.opb", "unsat"),
        ("c-sat.cnf", "sat"),
        ("d-unsat.cnf", "unsat"),
    ]) {
        let w: Vec<&str> = row.split_whitespace().collect();
        assert_eq!((w[0], w[1], w[3]), (name, status, "ms"), "{t}");
    }
    assert!(!t.contains("notes.txt"), "{t}");
    assert!(t.contains("4 files, 20 s per file"), "{t}");
    assert!(
        t.contains("sokuc --backend auto: solved 4 (2 sat, 2 unsat), 0 unknown, 0 errors"),
        "{t}"
    );
    assert!(t.contains("disagreements: 0"), "{t}");

    // Files named one by one, two backends, JSON: one object per file, then the summary.
    let a = d.path().join("a-sat.opb");
    let b = d.path().join("d-unsat.cnf");
    let o = sokuc(&[
        "bench",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--backend",
        "auto,search",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = text(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["sokuc"][1]["backend"], "search");
    assert_eq!(lines[0]["sokuc"][1]["status"], "sat");
    assert_eq!(lines[1]["sokuc"][0]["status"], "unsat");
    assert_eq!(lines[2]["summary"]["files"], 2);
    assert_eq!(lines[2]["summary"]["sokuc"][1]["solved"], 2);
}

#[test]
fn an_unreadable_file_is_an_error_row_and_the_run_goes_on() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("bad.opb"), "+1 x1 >= 1\n").unwrap();
    std::fs::write(d.path().join("good.opb"), "+1 x1 >= 1 ;\n").unwrap();
    let o = sokuc(&["bench", &dir_arg(&d)]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(30), "{t}");
    let bad = t.lines().find(|l| l.starts_with("bad.opb")).unwrap();
    assert!(bad.contains(" error ") && bad.contains("bad.opb:1"), "{t}");
    assert!(
        t.lines().any(|l| l.starts_with("good.opb") && l.contains(" sat ")),
        "{t}"
    );
    assert!(t.contains("1 errors"), "{t}");
}

#[test]
fn vs_runs_an_external_command_and_compares_its_status() {
    let d = folder();
    let honest = script(
        d.path(),
        "honest.sh",
        r#"case "$1" in *unsat*) echo "c fake"; echo "s UNSATISFIABLE";; *) echo "s SATISFIABLE";; esac"#,
    );
    let o = sokuc(&["bench", &dir_arg(&d), "--vs", &format!("{} {{}}", honest.display())]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.lines().take(4).all(|l| l.contains(" | vs ")), "{t}");
    assert!(
        t.contains("solved 4 (2 sat or optimum, 2 unsat), 0 unknown, 0 errors"),
        "{t}"
    );
    assert!(t.contains("both solved (auto and vs): 4 files"), "{t}");
    assert!(t.contains("disagreements: 0"), "{t}");

    // Always "sat": the two unsat files disagree, loudly, and the exit code is 1.
    let liar = script(d.path(), "liar.sh", r#"echo "s SATISFIABLE""#);
    let o = sokuc(&["bench", &dir_arg(&d), "--vs", liar.to_str().unwrap()]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    let flagged: Vec<&str> = t.lines().filter(|l| l.contains("DISAGREEMENT")).collect();
    assert!(flagged.iter().any(|l| l.starts_with("b-unsat.opb")), "{t}");
    assert!(flagged.iter().any(|l| l.starts_with("d-unsat.cnf")), "{t}");
    assert!(t.contains("DISAGREEMENTS: 2"), "{t}");

    // No status line: an error for the external solver, not a disagreement.
    let mute = script(d.path(), "mute.sh", "echo oops >&2; exit 3");
    let o = sokuc(&[
        "bench",
        &dir_arg(&d),
        "--vs",
        mute.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let lines: Vec<serde_json::Value> = text(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(lines[0]["vs"]["status"], "error");
    assert_eq!(lines[0]["vs"]["reason"], "no 's' line (exit 3): oops");
    assert_eq!(lines[4]["summary"]["vs"]["errors"], 4);
    assert_eq!(lines[4]["summary"]["sokuc"][0]["both"]["files"], 0);
    assert!(lines[4]["summary"]["vs"].get("both").is_none());
}

#[test]
fn vs_models_are_checked_by_the_exact_verifier() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("one.opb");
    std::fs::write(&f, "* #variable= 2 #constraint= 1\n+1 x1 +1 x2 >= 1 ;\n").unwrap();
    let good = script(d.path(), "good.sh", r#"echo "s SATISFIABLE"; echo "v x1 -x2""#);
    let o = sokuc(&[
        "bench",
        f.to_str().unwrap(),
        "--vs",
        &format!("{} {{}}", good.display()),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.lines().next().unwrap().contains("model verified"), "{t}");
    assert!(t.contains("vs models: 1 verified, 0 wrong"), "{t}");

    let wrong = script(d.path(), "wrong.sh", r#"echo "s SATISFIABLE"; echo "v -x1 -x2""#);
    let o = sokuc(&["bench", f.to_str().unwrap(), "--vs", wrong.to_str().unwrap()]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(
        t.contains("VS MODEL WRONG: the constraint at line 2 does not hold"),
        "{t}"
    );
    assert!(t.contains("vs models: 0 verified, 1 wrong"), "{t}");
}

#[test]
fn vs_is_killed_with_its_process_group_at_the_time_limit() {
    let d = folder();
    let pid_file = d.path().join("sleeper.pid");
    // The script's child holds the pipe: only a kill of the whole group ends it in time.
    let slow = script(
        d.path(),
        "slow.sh",
        &format!(
            "sleep 60 &\necho $! > {}\nwait\necho 's SATISFIABLE'",
            pid_file.display()
        ),
    );
    let a = d.path().join("a-sat.opb");
    let t0 = Instant::now();
    let o = sokuc(&[
        "bench",
        a.to_str().unwrap(),
        "--timeout",
        "1",
        "--vs",
        slow.to_str().unwrap(),
    ]);
    let took = t0.elapsed();
    let t = text(&o);
    assert!(took < Duration::from_secs(20), "took {took:?}: {t}");
    assert_eq!(o.status.code(), Some(0), "{t}");
    let row = t.lines().next().unwrap();
    assert!(row.contains("| vs unknown"), "{t}");
    let pid = std::fs::read_to_string(&pid_file).unwrap().trim().to_string();
    std::thread::sleep(Duration::from_millis(200));
    // Gone, or a zombie waiting for its reaper.
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .next()
        .unwrap_or("");
    assert!(
        stat.is_empty() || state == "Z",
        "the sleeper {pid} is still running: {stat}"
    );
}

#[test]
fn mistakes_are_usage_errors() {
    let d = folder();
    let a = d.path().join("a-sat.opb");
    let a = a.to_str().unwrap();
    let cases: [&[&str]; 5] = [
        &["bench", "instances/batches/icosoku100.txt", "--vs", "true"],
        &["bench", a, "instances/batches/icosoku100.txt"],
        &["bench", a, "--vs", "'unclosed"],
        &["bench", a, "--vs", "/nonexistent/solver {}"],
        &["bench", a, "--spawn"],
    ];
    for args in cases {
        let o = sokuc(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(sokuc(&["bench", &dir_arg(&empty)]).status.code(), Some(2));
}

#[test]
#[ignore = "needs minisat+ (scripts/install-tools.sh installs it)"]
fn side_by_side_with_minisat_plus() {
    let o = sokuc(&[
        "bench",
        "instances/opb/php-6-5.opb",
        "instances/opb/knapsack-60-s1.opb",
        "--timeout",
        "60",
        "--vs",
        "minisat+ {}",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(t.lines().next().unwrap().starts_with("php-6-5.opb"), "{t}");
    assert!(
        t.contains("vs 'minisat+ {}': solved 2 (1 sat or optimum, 1 unsat)"),
        "{t}"
    );
    assert!(t.contains("both solved (auto and vs): 2 files"), "{t}");
    assert!(t.contains("vs models: 1 verified, 0 wrong"), "{t}");
    assert!(t.contains("disagreements: 0"), "{t}");
}
