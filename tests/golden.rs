//! Golden outputs of the command line: every shipped instance solved (text and JSON), the grid
//! puzzles' `--unique`, every `--emit` format for each puzzle kind, `decode`, `check` and
//! `compare --format json`. Each case's exit code, stdout and stderr are compared with
//! `tests/golden/NAME.txt`; times are masked (`<t>`), everything else must match to the byte.
//!
//! These pin behaviour while the code above the IR is restructured: a change to a golden file
//! must be deliberate, in its own commit that says why. To regenerate after such a change:
//! `SOKUC_BLESS=1 cargo test --release --all-features --test golden`, then read the diff.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{root, sokuc};

fn golden_dir() -> PathBuf {
    root().join("tests/golden")
}

/// Replaces every time in the output by `<t>`: JSON values of keys that hold times, and in
/// text any number followed by "ms" or " s".
fn mask(text: &str) -> String {
    text.lines()
        .map(|line| match serde_json::from_str::<serde_json::Value>(line) {
            Ok(mut v) if v.is_object() || v.is_array() => {
                mask_json(&mut v, "");
                v.to_string()
            }
            _ => mask_text(line),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_time_key(key: &str) -> bool {
    key == "ms"
        || key.ends_with("_ms")
        || key.ends_with("_s")
        || key == "seconds"
        || key == "per_second"
        // Solver counters (conflicts, nodes) are not part of the contract.
        || key == "extra"
        // Who was fastest depends on the machine's timing.
        || key == "fastest"
}

fn mask_json(v: &mut serde_json::Value, key: &str) {
    if is_time_key(key) && !v.is_null() {
        *v = serde_json::Value::String("<t>".into());
        return;
    }
    // The engine that answered is fixed; whether `auto`'s second opinion confirmed the
    // optimum within its time slice is not.
    if key == "optimal_by"
        && let serde_json::Value::Array(a) = v
    {
        a.truncate(1);
        return;
    }
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                mask_json(x, k);
            }
        }
        serde_json::Value::Array(a) => {
            for x in a {
                mask_json(x, key);
            }
        }
        _ => {}
    }
}

fn mask_text(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let number = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '.');
        let next = words.get(i + 1).copied().unwrap_or("");
        if number(w)
            && (next.starts_with("ms")
                || next == "s"
                || next.starts_with("s,")
                || next.starts_with("s;")
                || next.starts_with("s)"))
        {
            out.push("<t>".to_string());
        } else if let Some(n) = w.strip_suffix("ms").filter(|n| number(n)) {
            let _ = n;
            out.push("<t>ms".to_string());
        } else {
            out.push(w.to_string());
        }
    }
    out.join(" ")
}

/// Runs one case and compares (or, with SOKUC_BLESS, writes) its golden file. A last
/// argument `<FILE` is not passed on: FILE becomes the command's standard input.
fn case(name: &str, args: &[&str]) -> Result<(), String> {
    let (args, stdin) = match args.split_last() {
        Some((last, rest)) if last.starts_with('<') => (rest, Some(root().join(&last[1..]))),
        _ => (args, None),
    };
    let mut cmd = sokuc();
    cmd.args(args).current_dir(root());
    if let Some(f) = &stdin {
        cmd.stdin(fs::File::open(f).unwrap());
    }
    let o = cmd.output().unwrap();
    let shown = match &stdin {
        Some(f) => format!("{} < {}", args.join(" "), f.strip_prefix(root()).unwrap().display()),
        None => args.join(" "),
    };
    let got = format!(
        "$ sokuc {}\nexit: {}\n--- stdout\n{}\n--- stderr\n{}\n",
        shown,
        o.status.code().map_or("signal".to_string(), |c| c.to_string()),
        mask(&String::from_utf8_lossy(&o.stdout)),
        mask(&String::from_utf8_lossy(&o.stderr)),
    );
    let path = golden_dir().join(format!("{name}.txt"));
    if std::env::var_os("SOKUC_BLESS").is_some() {
        fs::create_dir_all(golden_dir()).unwrap();
        fs::write(&path, &got).unwrap();
        return Ok(());
    }
    let want = fs::read_to_string(&path).map_err(|e| {
        format!(
            "{name}: no golden file {} ({e}); run with SOKUC_BLESS=1",
            path.display()
        )
    })?;
    if want == got {
        return Ok(());
    }
    let line = want
        .lines()
        .zip(got.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(want.lines().count().min(got.lines().count()));
    Err(format!(
        "{name}: output differs from {} at line {}:\n  want: {:?}\n  got:  {:?}",
        path.display(),
        line + 1,
        want.lines().nth(line).unwrap_or("<end>"),
        got.lines().nth(line).unwrap_or("<end>")
    ))
}

fn run_all(cases: &[(String, Vec<String>)]) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(name, args)| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            case(name, &args).err()
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} golden case(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Shipped instance files below `dir` with this extension, sorted, relative to the root.
fn instances(dir: &str, ext: &str) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .map(|p| format!("{dir}/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    v.sort();
    v
}

fn stem(path: &str) -> String {
    Path::new(path).file_stem().unwrap().to_string_lossy().into_owned()
}

fn owned(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// Every shipped instance on `auto`, whose engines are those of this build: an objective is
/// optimised by highs or mip where the build has them, by search otherwise (its own golden
/// files, `-default`).
#[test]
fn every_shipped_instance_solves_in_this_build_as_before() {
    let mut cases = Vec::new();
    for f in instances("instances", "toml") {
        let s = stem(&f);
        cases.push((format!("solve-{s}"), owned(&["solve", &f])));
        cases.push((format!("solve-{s}-json"), owned(&["solve", &f, "--format", "json"])));
    }
    for (dir, ext) in [("instances/kakuro", "kakuro"), ("instances/trickytriple", "tt")] {
        for f in instances(dir, ext) {
            let s = stem(&f);
            cases.push((format!("solve-{s}"), owned(&["solve", &f])));
            cases.push((format!("solve-{s}-json"), owned(&["solve", &f, "--format", "json"])));
            cases.push((format!("solve-{s}-unique"), owned(&["solve", &f, "--unique"])));
        }
    }
    // The OPB/CNF front-ends: the small files of the public set (the large ones print a
    // model of thousands of variables), by extension and compressed.
    for f in [
        "instances/opb/php-6-5.opb",
        "instances/opb/knapsack-30-s1.opb",
        "instances/opb/knapsack-opt-25-s1.opb",
        "instances/opb/marketsplit-2-10-s1.opb",
        "instances/opb/subsetsum-24-unsat-s1.opb",
        "instances/cnf/php-5-4.cnf",
        "instances/cnf/planted-3sat-40-160-s1.cnf",
    ] {
        // `auto` answers an objective with highs (or mip) where the build has it, with
        // search otherwise, and they stream different improving solutions: a build without
        // them has its own golden file. (The file without a suffix is the build with every
        // feature, where highs answers.)
        let s = if f.contains("-opt-") && !cfg!(any(feature = "mip", feature = "highs")) {
            format!("{}-default", stem(f))
        } else {
            stem(f)
        };
        // An objective is optimised by engines side by side, whose improving solutions
        // stream in the order of their timing: a seed asks for one engine and a repeatable
        // stream.
        let seed: &[&str] = if f.contains("-opt-") { &["--seed", "1"] } else { &[] };
        cases.push((format!("solve-{s}"), owned(&[&["solve", f], seed].concat())));
        cases.push((
            format!("solve-{s}-json"),
            owned(&[&["solve", f, "--format", "json"], seed].concat()),
        ));
    }
    cases.push((
        "solve-pegs".into(),
        owned(&["solve", "--pegs", "1,5,11,10,7,12,9,2,6,8,4,3"]),
    ));
    cases.push((
        "solve-3soku-unique".into(),
        owned(&["solve", "instances/tetrasoku-seed.toml", "--unique"]),
    ));
    run_all(&cases);
}

#[test]
fn every_export_of_every_kind_is_as_before() {
    let mut cases = Vec::new();
    let kinds = [
        "instances/tetrasoku-seed.toml",
        "instances/octahedron-pool.toml",
        "instances/kakuro/gecode-k0-easy.kakuro",
        "instances/trickytriple/feup-lekinasa-4x4-01.tt",
        "instances/opb/knapsack-opt-25-s1.opb",
        "instances/cnf/php-5-4.cnf",
    ];
    for f in kinds {
        for format in ["dimacs", "lp", "mps", "opb", "mzn"] {
            cases.push((
                format!("emit-{}-{format}", stem(f)),
                owned(&["solve", f, "--emit", format]),
            ));
        }
    }
    cases.push((
        "emit-tetrasoku-unsat-dimacs".into(),
        owned(&["solve", "instances/tetrasoku-unsat.toml", "--emit", "dimacs"]),
    ));
    cases.push((
        "emit-tetrasoku-seed-dimacs-plain-swc".into(),
        owned(&[
            "solve",
            "instances/tetrasoku-seed.toml",
            "--emit",
            "dimacs",
            "--presolve",
            "off",
            "--pb-encoding",
            "swc",
        ]),
    ));
    run_all(&cases);
}

#[test]
fn decode_and_check_are_as_before() {
    let inputs = "tests/golden/inputs";
    let cases = vec![
        (
            "decode-tetrasoku-seed-dimacs".to_string(),
            owned(&[
                "decode",
                "instances/tetrasoku-seed.toml",
                "--solution",
                &format!("{inputs}/tetrasoku-seed.cnf.out"),
            ]),
        ),
        (
            "decode-tetrasoku-seed-dimacs-json".to_string(),
            owned(&[
                "decode",
                "instances/tetrasoku-seed.toml",
                "--solution",
                &format!("{inputs}/tetrasoku-seed.cnf.out"),
                "--format",
                "json",
            ]),
        ),
        (
            "decode-kakuro".to_string(),
            owned(&[
                "decode",
                "instances/kakuro/gecode-k0-easy.kakuro",
                "--solution",
                &format!("{inputs}/tetrasoku-seed.cnf.out"),
            ]),
        ),
        (
            "check-tetrasoku-seed".to_string(),
            owned(&[
                "check",
                "instances/tetrasoku-seed.toml",
                &format!("{inputs}/tetrasoku-seed.sol.json"),
            ]),
        ),
        (
            "check-tetrasoku-seed-tampered".to_string(),
            owned(&[
                "check",
                "instances/tetrasoku-seed.toml",
                &format!("{inputs}/tetrasoku-seed.tampered.json"),
            ]),
        ),
    ];
    run_all(&cases);
}

/// `compare` on every kind, with the backends of this build (the default pass of
/// scripts/test.sh runs it on a default build, the second pass on every feature).
#[test]
fn compare_runs_the_backends_of_this_build_as_before() {
    let mut cases = Vec::new();
    let (suffix, backends) = compare_backends();
    for f in [
        "instances/tetrasoku-seed.toml",
        "instances/tetrasoku-unsat.toml",
        "instances/octahedron-pool.toml",
        "instances/kakuro/gecode-k0-easy.kakuro",
        "instances/trickytriple/feup-lekinasa-4x4-01.tt",
    ] {
        cases.push((
            format!("compare-{}{suffix}-json", stem(f)),
            owned(&[
                "compare",
                f,
                "--backend",
                backends,
                "--format",
                "json",
                "--timeout",
                "60",
            ]),
        ));
    }
    run_all(&cases);
}

/// The backends the `compare` goldens pin, and their files' suffix. `compare` runs every
/// backend of the build by default, and `cadical` and `mip` are cargo features, so each case
/// names its backends and keeps one golden file per set: every backend with
/// `--all-features` (no suffix), the backends of every build otherwise (`-default`, which a
/// build with only one of the two features uses too).
fn compare_backends() -> (&'static str, &'static str) {
    if cfg!(all(feature = "cadical", feature = "mip")) {
        ("", "sat,cadical,mip,cp,search")
    } else {
        ("-default", "sat,cp,search")
    }
}

/// The commands that took only 3SoKu before the one run path (decode, check, certify,
/// render), standard input, --kind, --unique and an unsat grid, on every kind.
#[test]
fn every_command_takes_every_kind() {
    let i = "tests/golden/inputs";
    let k0 = "instances/kakuro/gecode-k0-easy.kakuro";
    let tt = "instances/trickytriple/feup-lekinasa-4x4-01.tt";
    let pool = "instances/octahedron-pool.toml";
    let unsat = &format!("{i}/unsat.kakuro");
    let cases: Vec<(&str, Vec<String>)> = vec![
        (
            "decode-gecode-k0-easy",
            owned(&["decode", k0, "--solution", &format!("{i}/gecode-k0-easy.cnf.out")]),
        ),
        (
            "decode-feup-lekinasa-4x4-01-json",
            owned(&[
                "decode",
                tt,
                "--solution",
                &format!("{i}/feup-lekinasa-4x4-01.cnf.out"),
                "--format",
                "json",
            ]),
        ),
        (
            "decode-octahedron-pool-cbc",
            owned(&["decode", pool, "--solution", &format!("{i}/octahedron-pool.cbc.sol")]),
        ),
        (
            "check-gecode-k0-easy",
            owned(&["check", k0, "instances/kakuro/solutions/gecode-k0-easy.sol.kakuro"]),
        ),
        (
            "check-gecode-k0-easy-tampered",
            owned(&["check", k0, &format!("{i}/gecode-k0-easy.tampered.sol.kakuro")]),
        ),
        (
            "check-feup-lekinasa-4x4-01",
            owned(&[
                "check",
                tt,
                "instances/trickytriple/solutions/feup-lekinasa-4x4-01.sol.tt",
            ]),
        ),
        (
            "check-octahedron-pool",
            owned(&["check", pool, &format!("{i}/octahedron-pool.sol.json")]),
        ),
        (
            "render-kakuro-refused",
            owned(&["render", k0, "-o", "/tmp/sokuc-golden-never-written.svg"]),
        ),
        ("solve-unsat-kakuro", owned(&["solve", unsat])),
        ("solve-unsat-kakuro-json", owned(&["solve", unsat, "--format", "json"])),
        // The LP relaxation refutes it by default; without it, the backend does.
        ("solve-unsat-kakuro-lp-off", owned(&["solve", unsat, "--lp", "off"])),
        // `--lp auto` tries the LP only after search's quick attempt; `on` always does.
        ("solve-unsat-kakuro-lp-on", owned(&["solve", unsat, "--lp", "on"])),
        ("solve-octahedron-pool-unique", owned(&["solve", pool, "--unique"])),
        // Every solution, as MiniZinc separates them; JSON lines up to a limit; none.
        (
            "solve-tetrasoku-seed-all",
            owned(&["solve", "instances/tetrasoku-seed.toml", "--all"]),
        ),
        (
            "solve-feup-lekinasa-4x4-01-all-json",
            owned(&["solve", tt, "--all", "--format", "json", "--limit", "2"]),
        ),
        ("solve-unsat-kakuro-all", owned(&["solve", unsat, "--all"])),
        (
            "solve-stdin-kind",
            owned(&["solve", "-", "--kind", "trickytriple", &format!("<{tt}")]),
        ),
        ("solve-stdin-sniffed", owned(&["solve", "-", &format!("<{k0}")])),
        ("solve-unknown-kind", owned(&["solve", k0, "--kind", "sudoku"])),
        ("solve-unknown-extension", owned(&["solve", "README.md"])),
    ];
    let cases: Vec<(String, Vec<String>)> = cases.into_iter().map(|(n, a)| (n.to_string(), a)).collect();
    run_all(&cases);
}

/// `certify` on a grid: the unsat claim comes with a DRAT proof that drat-trim checks.
#[test]
#[ignore = "needs drat-trim: scripts/install-tools.sh builds it into target/tools"]
fn certify_takes_a_grid() {
    run_all(&[(
        "certify-unsat-kakuro".to_string(),
        owned(&["certify", "tests/golden/inputs/unsat.kakuro"]),
    )]);
}

#[test]
fn masking_hides_times_and_nothing_else() {
    assert_eq!(
        mask_text("median 0.579 ms, total 1.9 ms"),
        "median <t> ms, total <t> ms"
    );
    assert_eq!(mask_text("wall 1.5 s, 3 sat"), "wall <t> s, 3 sat");
    assert_eq!(mask_text("tile #3 rotation 0"), "tile #3 rotation 0");
    let mut v: serde_json::Value = serde_json::from_str(r#"{"stats":{"vars":5,"build_ms":1.2},"ms":3}"#).unwrap();
    mask_json(&mut v, "");
    assert_eq!(v.to_string(), r#"{"stats":{"vars":5,"build_ms":"<t>"},"ms":"<t>"}"#);
}
