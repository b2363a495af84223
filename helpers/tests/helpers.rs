//! The helper programs, built and started as sokuc starts them: each answers `--version`
//! with its solver's version, and solves through the library's MIP backend (which finds it
//! beside the running program, one folder up from this test's `target/*/deps/`) to the same
//! optimum that `cp`, an engine of another kind, proves in-process.

// Without a helper feature, no test is compiled and the helpers below go unused.
#![cfg_attr(not(any(feature = "mip", feature = "highs")), allow(dead_code, unused_imports))]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn version(exe: &str) -> String {
    let out = Command::new(exe).arg("--version").output().unwrap();
    assert!(out.status.success(), "{exe} --version: {:?}", out.status);
    String::from_utf8(out.stdout).unwrap()
}

/// The optimum of a 25-item knapsack on `backend`, proven.
fn optimum(backend: &str) -> i64 {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../instances/opb/knapsack-opt-25-s1.opb");
    let instance = sokuc::Instance::read(&file).unwrap();
    let options = sokuc::Options::new()
        .backend(backend.parse().unwrap())
        .timeout(Duration::from_secs(60));
    let out = instance.solve(&options).unwrap();
    assert_eq!(out.status(), sokuc::Status::Sat, "{backend}");
    assert_eq!(out.optimal(), Some(true), "{backend}: not proven optimal");
    assert!(out.verified(), "{backend}");
    out.objective().unwrap()
}

/// `exe` is `program`, built with `solver`, and the library's `backend` proves what `cp`
/// proves through it.
fn serves(exe: &str, program: &str, solver: &str, backend: &str) {
    let v = version(exe);
    let expected = format!("{program} {} ({solver} ", env!("CARGO_PKG_VERSION"));
    assert!(v.starts_with(&expected), "{v}");
    assert_eq!(optimum(backend), optimum("cp"));
}

#[cfg(feature = "mip")]
#[test]
fn sokuc_cbc_serves_the_mip_backend() {
    serves(env!("CARGO_BIN_EXE_sokuc-cbc"), "sokuc-cbc", "CBC", "mip");
}

#[cfg(feature = "highs")]
#[test]
fn sokuc_highs_serves_the_highs_backend() {
    serves(env!("CARGO_BIN_EXE_sokuc-highs"), "sokuc-highs", "HiGHS", "highs");
}
