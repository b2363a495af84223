//! SIGINT and SIGTERM: a command that solves ends as at a time limit, with everything found
//! so far written whole, and exits 130. Each test waits until the process is inside its
//! search (its first output, or a fixed pause where it prints nothing before the end), then
//! signals it with `kill`.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use common::{root, sokuc};
use serde_json::Value;

/// `n` pigeons in `n - 1` holes, unsat; with `escape`, variable `x1` false forces every
/// pigeon out instead (one solution, found first), and only `x1` true asks for the
/// placement. The search needs seconds to refute n = 10.
fn pigeons(n: usize, escape: bool) -> String {
    let h = n - 1;
    let p = |i: usize, j: usize| format!("x{}", 2 + i * h + j);
    let mut rows = Vec::new();
    for i in 0..n {
        let terms: Vec<String> = (0..h).map(|j| format!("+1 {}", p(i, j))).collect();
        rows.push(format!("{} -1 x1 >= 0 ;", terms.join(" ")));
    }
    for j in 0..h {
        let terms: Vec<String> = (0..n).map(|i| format!("-1 {}", p(i, j))).collect();
        rows.push(format!("{} >= -1 ;", terms.join(" ")));
    }
    for i in 0..n {
        for j in 0..h {
            rows.push(format!("+1 x1 -1 {} >= 0 ;", p(i, j)));
        }
    }
    if !escape {
        rows.push("+1 x1 >= 1 ;".into());
    }
    format!(
        "* #variable= {} #constraint= {}\n{}\n",
        1 + n * h,
        rows.len(),
        rows.join("\n")
    )
}

fn spawn(args: &[&str]) -> Child {
    sokuc()
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn signal(child: &Child, name: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

struct Ended {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Reads what is left of the child's output (unless the caller took it) and waits for it;
/// `head` is what the caller read.
fn finish(mut child: Child, head: String, since: Instant) -> Ended {
    let mut rest = String::new();
    if let Some(mut out) = child.stdout.take() {
        out.read_to_string(&mut rest).unwrap();
    }
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    Ended {
        code: status.code(),
        stdout: head + &rest,
        stderr,
        took: since.elapsed(),
    }
}

/// Spawns `args`, reads `lines` lines of standard output, sends `sig`, and collects the rest.
fn interrupt_after_output(args: &[&str], lines: usize, sig: &str) -> Ended {
    let mut child = spawn(args);
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut head = String::new();
    for _ in 0..lines {
        assert!(out.read_line(&mut head).unwrap() > 0, "ended before the signal: {head}");
    }
    let t = Instant::now();
    signal(&child, sig);
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    finish(child, head + &rest, t)
}

fn says_interrupted(e: &Ended, sig: &str) {
    assert_eq!(e.code, Some(130), "{}", e.stderr);
    assert!(e.stderr.contains(&format!("interrupted by {sig}")), "{}", e.stderr);
    // The process ends in order and soon, not at the end of its search.
    assert!(e.took < Duration::from_secs(20), "{:?}", e.took);
}

#[test]
fn one_solve_answers_unknown_and_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("php10.opb");
    std::fs::write(&file, pigeons(10, false)).unwrap();
    let file = file.to_str().unwrap();
    for (format, sig) in [("text", "INT"), ("json", "TERM")] {
        let child = spawn(&["solve", file, "--backend", "search", "--lp", "off", "--format", format]);
        // Nothing is printed before the answer: the pause puts the signal inside the search.
        sleep(Duration::from_millis(700));
        let t = Instant::now();
        signal(&child, sig);
        let e = finish(child, String::new(), t);
        says_interrupted(&e, &format!("SIG{sig}"));
        if format == "text" {
            assert!(e.stdout.starts_with("s UNKNOWN\n"), "{}", e.stdout);
            assert!(e.stdout.contains("c the command was interrupted\n"), "{}", e.stdout);
        } else {
            let v: Value = serde_json::from_str(&e.stdout).unwrap();
            assert_eq!(v["status"], "unknown", "{v}");
            assert_eq!(v["reason"], "the command was interrupted", "{v}");
        }
    }
}

#[test]
fn every_solution_found_before_the_signal_is_written_whole() {
    // Millions of solutions: the signal comes long before the end.
    let seed = "instances/icosoku-seed.toml";
    for (jobs, sig) in [("1", "INT"), ("2", "TERM"), ("2", "INT")] {
        // Text: whole blocks, each ending with the verifier's line and `----------`, as many
        // as the summary on standard error counts, and no end line.
        let e = interrupt_after_output(
            &["solve", seed, "--all", "--backend", "search", "--jobs", jobs],
            50,
            sig,
        );
        says_interrupted(&e, &format!("SIG{sig}"));
        assert!(
            e.stdout.ends_with("----------\n"),
            "--jobs {jobs}: {:?}",
            e.stdout.lines().last()
        );
        assert!(!e.stdout.contains("=========="));
        let blocks: Vec<&str> = e.stdout.split("----------\n").filter(|b| !b.is_empty()).collect();
        for b in &blocks {
            assert!(b.ends_with("verified: every vertex sum equals its capacity\n"), "{b}");
        }
        let n = blocks.len();
        assert!(n >= 1);
        assert!(
            e.stderr
                .contains(&format!("sokuc: {n} solutions (interrupted; there may be more)")),
            "{n}: {}",
            e.stderr
        );
        // JSON lines: each a whole solution, numbered 1..=n, then the summary counting them.
        let e = interrupt_after_output(
            &[
                "solve",
                seed,
                "--all",
                "--backend",
                "search",
                "--jobs",
                jobs,
                "--format",
                "json",
            ],
            50,
            sig,
        );
        says_interrupted(&e, &format!("SIG{sig}"));
        let mut lines: Vec<Value> = e
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|err| panic!("{err}: {l:?}")))
            .collect();
        let summary = lines.pop().unwrap();
        let mut numbers: Vec<u64> = lines
            .iter()
            .map(|v| {
                assert_eq!(v["verified"], true, "{v}");
                v["solution"].as_u64().unwrap()
            })
            .collect();
        numbers.sort_unstable();
        assert!(numbers.iter().copied().eq(1..=lines.len() as u64));
        assert_eq!(summary["solutions"], lines.len() as u64, "{summary}");
        assert_eq!(summary["complete"], false, "{summary}");
        assert_eq!(summary["stopped"], "interrupted", "{summary}");
    }
}

#[test]
fn bench_keeps_its_rows_and_stops() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.opb", "b.opb", "c.opb"] {
        std::fs::write(dir.path().join(name), pigeons(11, false)).unwrap();
    }
    let d = dir.path().to_str().unwrap();
    let child = spawn(&["bench", d, "--backend", "search", "--lp", "off", "--format", "json"]);
    sleep(Duration::from_millis(700));
    let t = Instant::now();
    signal(&child, "INT");
    let e = finish(child, String::new(), t);
    says_interrupted(&e, "SIGINT");
    // The file that was running when the signal came is a row; the others were not started.
    let lines: Vec<Value> = e.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{}", e.stdout);
    assert!(lines[1]["summary"].is_object(), "{}", e.stdout);
}

/// In the library: an enumeration that the interrupt flag ends says so (the CLI's summary
/// reads it), and one that the time limit ends does not.
#[test]
fn an_enumeration_knows_an_interrupt_from_the_time_limit() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use sokuc::backend::{Ended, SolveOptions};
    use sokuc::run::{RunOptions, Stream};

    let p = sokuc::registry::load(&root().join("instances/icosoku-seed.toml"), None).unwrap();
    for (interrupt, jobs) in [(true, 1), (true, 2), (false, 1), (false, 2)] {
        let flag = Arc::new(AtomicBool::new(false));
        let opts = RunOptions {
            solve: SolveOptions {
                time_limit: Some(Duration::from_millis(if interrupt { 60_000 } else { 300 })),
                interrupt: Some(flag.clone()),
                ..Default::default()
            },
            ..Default::default()
        };
        let setter = std::thread::spawn(move || {
            sleep(Duration::from_millis(300));
            flag.store(interrupt, Ordering::Relaxed);
        });
        let mut b = sokuc::backend::lookup("search").unwrap();
        let e = p
            .enumerate_jobs(b.as_mut(), &opts, None, jobs, Stream::Json, &mut std::io::sink())
            .unwrap();
        setter.join().unwrap();
        assert_eq!(e.ended, Ended::Unknown);
        assert!(e.found > 0);
        assert_eq!(e.interrupted, interrupt, "--jobs {jobs}");
    }
}

/// `sweep -o FILE`: the results file after a signal holds the instances solved in order and
/// no `unknown` that the interrupt caused (each would be skipped by `--resume`); resuming
/// finishes the sweep.
#[test]
fn sweep_writes_what_it_solved_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sweep.txt");
    let f = file.to_str().unwrap();
    let args = ["sweep", "--limit", "40000", "--threads", "2", "-o", f];
    let child = spawn(&args);
    // Solving the 40,000 takes seconds; wait until some are written.
    let t = Instant::now();
    while std::fs::read_to_string(&file).map_or(0, |s| s.lines().count()) < 100 && t.elapsed() < Duration::from_secs(30)
    {
        sleep(Duration::from_millis(20));
    }
    let t = Instant::now();
    signal(&child, "INT");
    let e = finish(child, String::new(), t);
    says_interrupted(&e, "SIGINT");
    let records = |text: &str| -> Vec<(u64, String)> {
        text.lines()
            .skip(1)
            .map(|l| {
                let w: Vec<&str> = l.split(' ').collect();
                (w[0].parse().unwrap(), w[2].to_string())
            })
            .collect()
    };
    let before = records(&std::fs::read_to_string(&file).unwrap());
    assert!(!before.is_empty() && before.len() < 40_000, "{}", before.len());
    assert!(before.iter().map(|r| r.0).eq(0..before.len() as u64), "not a prefix");
    assert!(
        before.iter().all(|r| r.1 == "sat"),
        "an interrupted instance was recorded"
    );
    assert!(
        e.stdout
            .contains(&format!("{} instances: {} sat", before.len(), before.len())),
        "{}",
        e.stdout
    );
    let o = sokuc().args(args).arg("--resume").current_dir(root()).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let after = records(&std::fs::read_to_string(&file).unwrap());
    assert!(after.iter().map(|r| r.0).eq(0..40_000));
    assert!(after.iter().all(|r| r.1 == "sat"));
}

/// `count`: an interrupted count says so (not "the time limit") and exits 130.
#[test]
fn count_says_it_was_interrupted() {
    let child = spawn(&["count", "instances/icosoku-free-pegs.toml", "--by-capacities"]);
    sleep(Duration::from_millis(700));
    let t = Instant::now();
    signal(&child, "INT");
    let e = finish(child, String::new(), t);
    says_interrupted(&e, "SIGINT");
    assert!(e.stdout.contains("stopped by the interrupt after "), "{}", e.stdout);
}
