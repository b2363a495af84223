//! The mip backend's limits: CBC's solve runs in a child process that is killed at the
//! deadline, so a cut-off solve ends within a poll of the deadline and leaves nothing behind
//! (no core, no lock held for the next solve); CBC is loaded only by the helper program
//! `sokuc-cbc`, started with exec, and a missing helper or library is a clear error.
//!
//! These fail with CBC on a thread of the sokuc process (as it was through good_lp): the
//! abandoned thread went on with CBC's root work for seconds past the limit, burning a core,
//! and held the lock that let the next solve in the process start only after it.
#![cfg(feature = "mip")]

mod common;

use std::time::{Duration, Instant};

use sokuc::backend::{self, SolveOptions, Status};
use sokuc::input::instance_file;
use sokuc::run::{self, RunOptions};

/// The tests that solve in this process, one at a time: one measures the process's CPU time.
static IN_PROCESS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A random bipyramid-500: CBC's preprocessing and root LP take it well over 10 s, during
/// which CBC does not look at its own time limit (it ran 5-7 s past a 1 s limit).
fn hard(dir: &std::path::Path) -> String {
    common::generate_3soku(dir, "bp500.toml", &["--variant", "bipyramid-500", "--seed", "1"])
}

#[test]
fn a_cut_off_cbc_solve_ends_the_command_at_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let inst = hard(dir.path());
    let t = Instant::now();
    let o = common::sokuc()
        .args(["solve", &inst, "--backend", "mip", "--timeout", "2", "--format", "json"])
        .output()
        .unwrap();
    let secs = t.elapsed().as_secs_f64();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(30), "{out}{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "unknown");
    // The documented slack is 1 s. The bound is gross (a loaded 2-core machine, a debug build):
    // it checks that the command ends near the limit, not how near.
    assert!(secs < 12.0, "{secs:.2} s for --timeout 2");
}

/// CPU time this process has used (user + system, its threads but not its children).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // Fields after the command name (which may hold spaces) start at the state, field 3;
    // utime and stime are fields 14 and 15, in clock ticks (100 a second on Linux).
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

#[test]
fn a_cut_off_solve_leaves_nothing_running_and_the_next_solve_answers() {
    let _alone = IN_PROCESS.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let bp500 = instance_file::read_instance(std::path::Path::new(&hard(dir.path()))).unwrap();
    let mut b = backend::by_name("mip").unwrap();
    let limited = |secs: u64| RunOptions {
        solve: SolveOptions {
            time_limit: Some(Duration::from_secs(secs)),
            ..Default::default()
        },
        ..Default::default()
    };
    let t = Instant::now();
    let r = run::solve(&bp500, b.as_mut(), &limited(2)).unwrap();
    assert_eq!(r.answer.status, Status::Unknown);
    // Gross: a solve that waited for CBC's root work would take well over 10 s.
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());

    // Nothing of that solve goes on: over the next second this process (no other test
    // solves in it meanwhile) uses next to no CPU. An abandoned CBC thread would
    // use all of it on an idle machine (a share of it on a loaded one).
    let before = cpu_seconds();
    std::thread::sleep(Duration::from_secs(1));
    let used = cpu_seconds() - before;
    eprintln!("{used:.2} s of CPU in the second after a cut-off solve");
    assert!(used < 0.2, "{used:.2} s of CPU in the second after a cut-off solve");

    // The next solve starts at once: the seed IcoSoKu takes CBC well under a second.
    let seed = instance_file::read_instance(&common::root().join("instances/icosoku-seed.toml")).unwrap();
    let t = Instant::now();
    let r = run::solve(&seed, b.as_mut(), &limited(4)).unwrap();
    assert_eq!(r.answer.status, Status::Sat, "after {:?}", t.elapsed());
    assert!(r.answer.verified);
}

fn solve_tetrasoku(exe: &std::path::Path, backend: &str) -> (Option<i32>, String) {
    let o = std::process::Command::new(exe)
        .args(["solve", "instances/tetrasoku-seed.toml", "--backend", backend])
        .current_dir(common::root())
        .output()
        .unwrap();
    (o.status.code(), String::from_utf8_lossy(&o.stderr).to_string())
}

#[test]
fn a_missing_helper_is_a_clear_error() {
    let (_dir, exe) = common::lone_sokuc("sokuc-cbc", None);
    let (code, err) = solve_tetrasoku(&exe, "mip");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("sokuc: error: --backend mip: the mip backend's helper sokuc-cbc is not beside")
            && err.contains(
                "install it there from sokuc's repository with `cargo install --path helpers --features mip`"
            ),
        "{err}"
    );
    // Other backends do not need it.
    assert_eq!(solve_tetrasoku(&exe, "sat").0, Some(0));
}

#[test]
fn a_missing_cbc_library_is_a_clear_error() {
    // What the loader says when the helper's CBC library is missing, and its exit code.
    let (_dir, exe) = common::lone_sokuc("sokuc-cbc", Some(
        "#!/bin/sh
echo 'sokuc-cbc: error while loading shared libraries: libCbcSolver.so.3: cannot open shared object file: No such file or directory' >&2
exit 127
",
    ));
    let (code, err) = solve_tetrasoku(&exe, "mip");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("sokuc: error: --backend mip: CBC's library could not be loaded by the mip backend's helper")
            && err.contains("libCbcSolver.so.3")
            && err.contains("coinor-libcbc3"),
        "{err}"
    );
}

#[test]
fn a_helper_that_hangs_is_stopped_at_the_time_limit() {
    // It reads nothing and never answers; the model (over a pipe's buffer) cannot be written.
    let (_dir, exe) = common::lone_sokuc("sokuc-cbc", Some("#!/bin/sh\nexec sleep 600\n"));
    let t = Instant::now();
    let o = std::process::Command::new(&exe)
        .args([
            "solve",
            "instances/icosoku-seed.toml",
            "--backend",
            "mip",
            "--timeout",
            "1",
        ])
        .current_dir(common::root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(30), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
}

#[test]
fn a_helper_that_dies_is_an_internal_error_not_an_answer() {
    // It reads the model's first bytes, then fails.
    let (_dir, exe) = common::lone_sokuc(
        "sokuc-cbc",
        Some("#!/bin/sh\nhead -c 8 > /dev/null\necho 'boom' >&2\nexit 9\n"),
    );
    let (code, err) = solve_tetrasoku(&exe, "mip");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("CBC's process ended without an answer") && err.contains("boom"),
        "{err}"
    );
}

/// The mip backend answers while other threads of the process allocate and free without
/// pause: its helper is started with exec, so no lock another thread holds (the allocator's
/// among them) is inherited by a process that runs CBC.
#[test]
fn mip_answers_while_other_threads_hammer_the_allocator() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let _alone = IN_PROCESS.lock().unwrap_or_else(|e| e.into_inner());
    let seed = instance_file::read_instance(&common::root().join("instances/tetrasoku-seed.toml")).unwrap();
    let limited = RunOptions {
        solve: SolveOptions {
            time_limit: Some(Duration::from_secs(30)),
            ..Default::default()
        },
        ..Default::default()
    };
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                let mut keep = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    keep.push(vec![0u8; 4096]);
                    if keep.len() > 64 {
                        keep.clear();
                    }
                }
            });
        }
        for _ in 0..20 {
            let mut b = backend::lookup("mip").unwrap();
            let r = run::solve(&seed, b.as_mut(), &limited).unwrap();
            assert_eq!(r.answer.status, Status::Sat);
            assert!(r.answer.verified);
        }
        stop.store(true, Ordering::Relaxed);
    });
}

/// `compare` on every backend, two at a time, 200 times: each run must end by itself well
/// within its time limit (a hang shows as a run killed here).
#[test]
fn compare_on_two_jobs_never_hangs() {
    let names = {
        let mut v = backend::available();
        v.push("auto");
        v.join(",")
    };
    for i in 0..200 {
        let mut child = common::sokuc()
            .args([
                "compare",
                "instances/tetrasoku-seed.toml",
                "--backends",
                &names,
                "--jobs",
                "2",
                "--timeout",
                "20",
            ])
            .current_dir(common::root())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let t = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if t.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("run {i} of compare did not end within 60 s");
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(status.code(), Some(0), "run {i}");
    }
}

/// Ctrl-C in a terminal sends SIGINT to the whole process group, CBC's helper included: the
/// answer is still "interrupted" (exit 130), not a helper that died.
#[test]
fn an_interrupt_to_the_process_group_during_a_mip_solve_exits_130() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let inst = hard(dir.path());
    let child = common::sokuc()
        .args(["solve", &inst, "--backend", "mip"])
        .process_group(0)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Past compiling, into CBC's root work (bipyramid-500 keeps it busy for seconds).
    std::thread::sleep(Duration::from_millis(2500));
    let group = format!("-{}", child.id());
    let sent = std::process::Command::new("kill")
        .args(["-INT", "--", &group])
        .status()
        .unwrap();
    assert!(sent.success());
    let t = Instant::now();
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted by SIGINT"), "{err}");
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
}

/// CBC's library ends its process quietly (exit 0, nothing said) near CBC's own time limit:
/// that is no answer in time (`unknown`), while the same quiet exit long before the limit
/// is still an internal error.
#[test]
fn a_helper_that_ends_quietly_at_cbcs_limit_is_unknown_and_before_it_an_error() {
    let quiet = |script: &str| {
        let (_dir, exe) = common::lone_sokuc("sokuc-cbc", Some(script));
        std::process::Command::new(&exe)
            .args([
                "solve",
                "instances/tetrasoku-seed.toml",
                "--backend",
                "mip",
                "--timeout",
                "2",
            ])
            .current_dir(common::root())
            .output()
            .unwrap()
    };
    // Reads the model, then ends silently at about 95% of the 2 s limit.
    let o = quiet("#!/bin/sh\ncat > /dev/null &\nsleep 1.9\nexit 0\n");
    let out = String::from_utf8_lossy(&o.stdout);
    // The exit of an unknown answer, not an error's (1) or bad input's (2).
    assert!(
        !matches!(o.status.code(), Some(1 | 2)),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.starts_with("unknown"), "{out}");
    // Ends silently at once: a failure, exit 1.
    let o = quiet("#!/bin/sh\nhead -c 8 > /dev/null\nexit 0\n");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("ended without an answer (exit status: 0)"), "{err}");
}
