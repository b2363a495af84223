//! Worker threads end with the solve that started them: a `--timeout` answer leaves nothing
//! running that would take a core from the next solve of a `bench` or `sweep` (in this
//! process, through the library, as those commands call it). The cp backend's worker, which
//! builds and solves pumpkin's model, is checked here, and so is the compiling worker of
//! `run::prepare::compile_within`.

mod common;

use std::time::{Duration, Instant};

use sokuc::backend::{SolveOptions, Status};
use sokuc::run::RunOptions;

/// The names of this process's threads that start with `prefix`.
fn threads(prefix: &str) -> Vec<String> {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .map(|n| n.trim().to_string())
        .filter(|n| n.starts_with(prefix))
        .collect()
}

/// How long threads named `prefix` live on after `since` (up to `most`): printed, for when
/// the assertion fails.
fn lingers(prefix: &str, since: Instant, most: Duration) -> Duration {
    while !threads(prefix).is_empty() && since.elapsed() < most {
        std::thread::sleep(Duration::from_millis(5));
    }
    since.elapsed()
}

#[test]
fn nothing_runs_on_after_a_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    // Building the cp model of bipyramid-2000 takes seconds: each limit stops the worker in
    // another part of building or solving it.
    let bp2000 = common::generate_3soku(
        dir.path(),
        "bp2000.toml",
        &["--variant", "bipyramid-2000", "--seed", "1"],
    );
    let p = sokuc::registry::load(std::path::Path::new(&bp2000), None).unwrap();
    for (backend, limit, prefix) in [
        ("cp", 0.3, "sokuc-cp"),
        ("cp", 1.0, "sokuc-cp"),
        ("cp", 2.5, "sokuc-cp"),
    ] {
        let mut b = sokuc::backend::lookup(backend).unwrap();
        let opts = RunOptions {
            solve: SolveOptions {
                time_limit: Some(Duration::from_secs_f64(limit)),
                ..Default::default()
            },
            ..Default::default()
        };
        let t = Instant::now();
        let r = p.solve(b.as_mut(), &opts, false).unwrap();
        let answered = t.elapsed();
        let left = threads(prefix);
        let gone = lingers(prefix, Instant::now(), Duration::from_secs(30));
        eprintln!(
            "{backend}: answered {r:?} in {answered:?}, left {left:?}, gone after {gone:?}",
            r = r.status
        );
        assert_eq!(r.status, Status::Unknown, "{backend}");
        // Ended with the solve, or (on a machine too busy for the worker to end in time)
        // waited for through the whole grace before the answer; a solve that left it running
        // at once (as before) answered within about 0.1 s of its limit.
        let waited = answered >= Duration::from_secs_f64(limit) + sokuc::budget::GRACE;
        assert!(
            left.is_empty() || waited,
            "{backend}: {left:?} still running {answered:?} after the start"
        );
    }
}

/// Compiling bipyramid-5000 takes about a second; under a 10 ms limit the compiling worker
/// sees the deadline between faces and ends, so none is left running once the solve has
/// answered (before, it was abandoned after the grace and compiled on for most of a second).
#[test]
fn a_compile_stops_at_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let bp5000 = common::generate_3soku(
        dir.path(),
        "bp5000.toml",
        &["--variant", "bipyramid-5000", "--seed", "1"],
    );
    let p = sokuc::registry::load(std::path::Path::new(&bp5000), None).unwrap();
    for presolve in [true, false] {
        let mut b = sokuc::backend::lookup("search").unwrap();
        let opts = RunOptions {
            solve: SolveOptions {
                time_limit: Some(Duration::from_millis(10)),
                ..Default::default()
            },
            compile: sokuc::puzzle::CompileOptions { presolve },
            ..Default::default()
        };
        let t = Instant::now();
        let r = p.solve(b.as_mut(), &opts, false).unwrap();
        let answered = t.elapsed();
        // The worker has returned from its compile when the solve answers; its thread may
        // still be a moment in tearing down.
        let gone = lingers("sokuc-compile", Instant::now(), Duration::from_secs(30));
        eprintln!(
            "presolve {presolve}: {:?} in {answered:?}, thread gone after {gone:?}",
            r.status
        );
        assert_eq!(r.status, Status::Unknown);
        assert!(
            gone < Duration::from_millis(500),
            "presolve {presolve}: still compiling {gone:?} after the answer"
        );
    }
}
