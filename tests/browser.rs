//! The page of `sokuc serve` in a real headless Chromium (Debian's `chromium` and
//! `chromium-driver`, driven by Selenium from `tests/browser/run.py`): pegs set by clicking
//! and typing, a solve on every backend checked against the pegs, hints, the next solution,
//! unsat and bad input, an uploaded variant, a shared link, grids, edits that take the answer
//! off, and screenshots (`target/browser-shots`; with `SOKUC_UPDATE_DOCS=1` also the guide's
//! `docs/src/img/serve-*.png`).

use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_sokuc");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
#[ignore = "needs chromium, chromium-driver and python3 with selenium; scripts/test.sh installs them and runs ignored tests"]
fn the_page_works_in_headless_chromium() {
    let shots = root().join("target/browser-shots");
    std::fs::create_dir_all(&shots).unwrap();
    let out = Command::new("python3")
        .arg(root().join("tests/browser/run.py"))
        .args(["--sokuc", BIN, "--shots"])
        .arg(&shots)
        .current_dir(root())
        .output()
        .expect("running python3 tests/browser/run.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(out.status.success(), "the browser run failed:\n{stdout}\n{stderr}");
    let last = stdout.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    assert!(last.ends_with(" 0 failed") || last.contains(", 0 failed"), "{last}");
    let passed: u32 = last.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(passed >= 20, "{last}");
    for shot in ["page-solved.png", "hint.png", "grid-kakuro.png", "compare.png"] {
        let p = shots.join(shot);
        let len = std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
        assert!(len > 10_000, "{} is missing or blank ({len} bytes)", p.display());
        if std::env::var_os("SOKUC_UPDATE_DOCS").is_some_and(|v| v == "1") {
            std::fs::copy(&p, root().join("docs/src/img").join(format!("serve-{shot}"))).unwrap();
        }
    }
}
