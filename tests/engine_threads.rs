//! No engine thread outlives its solve: a solve that answered at its time limit leaves
//! nothing running behind it (a race's loser, a `bench` or `sweep` row, a page's cancelled
//! job would otherwise share the cores with whatever comes next). Threads are found by
//! name: every worker sokuc starts is named `sokuc-...`, which Linux shows in
//! `/proc/self/task/*/comm`. One test in this file, so that no other test's threads are
//! counted.

mod common;

use std::time::{Duration, Instant};

/// The threads of this process whose name starts with `prefix`, by name.
fn threads_named(prefix: &str) -> Vec<String> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .map(|n| n.trim().to_string())
        .filter(|n| n.starts_with(prefix))
        .collect()
}

/// How long a thread may run on after its solve returned.
const OUTLIVES: Duration = Duration::from_millis(200);

/// MIPLIB's nw04 as a decision problem, with a time limit, on each engine that runs in
/// threads of this process.
///
/// - On varisat with a 16 s limit: its CNF (9 million clauses) takes seconds to build and
///   load, and then varisat's first descent runs for seconds without a conflict, so without a
///   proof step, where its deadline hook used to look at the clock. The solve answered at the
///   limit, and its thread ran on (0.7 s on this 2-core machine shared with other builds, 5-8 s
///   where the limit fell earlier in the descent). With a 5 s limit, the limit fell while the
///   CNF was being loaded, where the thread stopped in time.
/// - On cp, at limits that fall while pumpkin is given the model's rows and while it
///   searches: the worker looks at the deadline between rows and at pumpkin's termination
///   checks, and the solve waits for the step it is in. Before, the worker ran on for 0.3 to
///   2.3 s: posting the objective row's 87,482 negated group literals one by one took 3 s,
///   and single search steps over that row took up to 0.9 s.
#[test]
fn no_engine_thread_runs_on_after_a_solve_at_its_time_limit() {
    if !cfg!(target_os = "linux") {
        return;
    }
    assert!(threads_named("sokuc-").is_empty(), "{:?}", threads_named("sokuc-"));
    let nw04 = common::root().join("instances/pb-bench/decision/miplib-nw04-leopt.opb.gz");
    let instance = sokuc::Instance::read(&nw04).unwrap();
    let mut failures = Vec::new();
    for (backend, secs) in [("sat", 16), ("cp", 2), ("cp", 10)] {
        let limit = Duration::from_secs(secs);
        let t0 = Instant::now();
        let outcome = instance
            .solve(&sokuc::Options::new().backend(backend.parse().unwrap()).timeout(limit))
            .unwrap();
        let took = t0.elapsed();
        let returned = Instant::now();
        // Looked at until none is left or the bound has passed: what is measured is how long
        // the solve's threads run on, not a wait for something to happen.
        let mut left = threads_named("sokuc-");
        while !left.is_empty() && returned.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(2));
            left = threads_named("sokuc-");
        }
        let lived = returned.elapsed();
        eprintln!(
            "nw04 on {backend}, --timeout {secs}: answered {:?} after {took:.2?}; its threads ran on {lived:.3?}",
            outcome.status()
        );
        assert!(
            matches!(outcome.status(), sokuc::Status::Unknown | sokuc::Status::Sat),
            "{backend}: {:?}",
            outcome.status()
        );
        // Gross: the answer near the limit (the documented slack is 1 s).
        assert!(
            took < limit + Duration::from_secs(3),
            "{backend}: {took:?} for a {secs} s limit"
        );
        if lived > OUTLIVES {
            failures.push(format!(
                "{backend} at {secs} s: a thread ran on {lived:?} after its solve returned"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
