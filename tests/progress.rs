//! Progress on long work: a bar on standard error when it is a terminal, silence when it is
//! piped, and a time-out that says how far the work got.

mod common;

use std::process::Command;

#[test]
fn a_count_that_times_out_says_how_far_it_got() {
    let out = common::sokuc()
        .current_dir(common::root())
        .args(["count", "instances/icosoku-seed.toml", "--timeout", "1"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(30), "{stdout}");
    assert!(stdout.contains("before the count was complete: "), "{stdout}");
    assert!(stdout.contains(" of 20 faces placed ("), "{stdout}");
    // Piped: no bar and no estimate.
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));

    let out = common::sokuc()
        .current_dir(common::root())
        .args([
            "count",
            "instances/icosoku-seed.toml",
            "--timeout",
            "1",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "unknown");
    assert_eq!(v["progress"]["faces"], 20, "{v}");
    assert!(v["progress"]["faces_placed"].as_u64().unwrap() < 20, "{v}");
}

#[test]
fn an_enumeration_piped_is_silent_on_stderr_but_its_summary() {
    let out = common::sokuc()
        .current_dir(common::root())
        .args(["solve", "instances/icosoku-seed.toml", "--all", "--limit", "50"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("sokuc: 50 solutions"), "{stderr}");
}

/// Under a pseudo-terminal (util-linux's `script`), the count draws its estimate and a bar of
/// faces on standard error.
#[test]
fn a_terminal_gets_an_estimate_and_a_bar() {
    // `script` is in bsdutils, which every Debian system has.
    assert!(
        common::which("script").is_some(),
        "needs util-linux `script` for a pseudo-terminal"
    );
    let exe = env!("CARGO_BIN_EXE_sokuc");
    let line = format!("{exe} count instances/icosoku-seed.toml --timeout 1.5");
    let out = Command::new("script")
        .current_dir(common::root())
        .args(["-qec", &line, "/dev/null"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("sokuc: counting 20 faces layer by layer"), "{text}");
    assert!(text.contains("/20 faces"), "a bar of faces: {text}");
    assert!(text.contains("faces placed ("), "{text}");
}
