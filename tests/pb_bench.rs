//! The public PB benchmark (`instances/pb-bench/`): its manifest is complete and well formed,
//! and no answer of `sokuc solve` (default backend, short limit) contradicts an expected
//! answer it lists. The expected answers were established independently of the engine under
//! test (by construction, published optima, or two solvers agreeing; see SOURCE.md there),
//! so a wrong refutation or a wrong optimum on real structure shows up here.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use common::{on_two_threads, root, sokuc};
use serde_json::Value;

struct Entry {
    path: String,
    kind: String,
    expected: String,
}

fn bench_dir() -> PathBuf {
    root().join("instances/pb-bench")
}

fn manifest() -> Vec<Entry> {
    let text = std::fs::read_to_string(bench_dir().join("MANIFEST.tsv")).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with("path\tkind\texpected"), "{header}");
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert!(cols.len() >= 7, "a manifest line of {} columns: {l}", cols.len());
            Entry {
                path: cols[0].to_string(),
                kind: cols[1].to_string(),
                expected: cols[2].to_string(),
            }
        })
        .collect()
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn the_manifest_lists_every_file_once_with_a_well_formed_answer() {
    let entries = manifest();
    let mut listed: Vec<&str> = entries.iter().map(|e| e.path.as_str()).collect();
    listed.sort_unstable();
    let before = listed.len();
    listed.dedup();
    assert_eq!(before, listed.len(), "a file is listed twice");
    let mut on_disk = Vec::new();
    for kind in ["decision", "optimisation"] {
        for f in files_in(&bench_dir().join(kind)) {
            on_disk.push(format!("{kind}/{f}"));
        }
    }
    on_disk.sort();
    assert_eq!(listed, on_disk.iter().map(String::as_str).collect::<Vec<_>>());
    for e in &entries {
        assert!(
            e.path.starts_with(&format!("{}/", e.kind)),
            "{} is not in {}/",
            e.path,
            e.kind
        );
        let ok = match e.kind.as_str() {
            "decision" => ["sat", "unsat", "unknown"].contains(&e.expected.as_str()),
            "optimisation" => e.expected == "unknown" || e.expected.parse::<i128>().is_ok(),
            _ => false,
        };
        assert!(ok, "{}: kind {} with expected {:?}", e.path, e.kind, e.expected);
    }
    let count = |k: &str| entries.iter().filter(|e| e.kind == k).count();
    assert!(count("decision") >= 100, "{} decision instances", count("decision"));
    assert!(
        count("optimisation") >= 30,
        "{} optimisation instances",
        count("optimisation")
    );
}

/// What one `sokuc solve` said, against the manifest: `Err` on a contradiction.
fn judge(e: &Entry, v: &Value) -> Result<bool, String> {
    let status = v["status"].as_str().unwrap_or("?");
    let verified = v["verified"].as_bool() == Some(true);
    if status == "sat" && !verified {
        return Err(format!("{}: a model that was not verified: {v}", e.path));
    }
    match (e.kind.as_str(), e.expected.as_str(), status) {
        (_, _, "unknown") => Ok(false),
        ("decision", "unknown", _) => Ok(true),
        ("decision", want, got) if want == got => Ok(true),
        ("decision", want, got) => Err(format!("{}: expected {want}, sokuc said {got}", e.path)),
        ("optimisation", _, "unsat") if e.expected != "unknown" => {
            Err(format!("{}: has an optimum {}, sokuc said unsat", e.path, e.expected))
        }
        ("optimisation", "unknown", _) => Ok(v["optimal"].as_bool() == Some(true)),
        ("optimisation", want, "sat") => {
            let want: i128 = want.parse().unwrap();
            let got: i128 = v["objective"]
                .as_str()
                .and_then(|o| o.parse().ok())
                .ok_or_else(|| format!("{}: no objective: {v}", e.path))?;
            let optimal = v["optimal"].as_bool() == Some(true);
            if got < want {
                Err(format!("{}: a model of value {got}, below the optimum {want}", e.path))
            } else if optimal && got != want {
                Err(format!("{}: claims {got} optimal, the optimum is {want}", e.path))
            } else {
                Ok(optimal)
            }
        }
        _ => Err(format!("{}: unexpected answer {v}", e.path)),
    }
}

/// Every instance at a 1 s limit, two at a time: an answer may be `unknown`, never one that
/// contradicts the manifest. (The solved counts go to stderr; figures at real limits are on
/// the benchmarks page.)
#[test]
fn no_answer_contradicts_the_manifest() {
    let entries = manifest();
    let decided = Mutex::new(0usize);
    on_two_threads(&entries, |e| {
        let o = sokuc()
            .arg("solve")
            .arg(bench_dir().join(&e.path))
            .args(["--format", "json", "--timeout", "1"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        let v: Value = serde_json::from_slice(&o.stdout)
            .map_err(|err| format!("{}: no JSON ({err}), exit {:?}: {stderr}", e.path, o.status.code()))?;
        if judge(e, &v)? {
            *decided.lock().unwrap() += 1;
        }
        Ok(())
    });
    eprintln!(
        "decided (or proven optimal) within 1 s: {} of {}",
        decided.into_inner().unwrap(),
        entries.len()
    );
}
