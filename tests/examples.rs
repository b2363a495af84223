//! The programs in `examples/`, which use the library's public API alone, run and checked:
//! each asserts its own answers against an independent computation (a DP, a count that is
//! published, a check of the colouring and of every vertex sum), and here their output is
//! held to what they must print. `cargo test` builds them beside the `sokuc` binary.

use std::path::PathBuf;
use std::process::Command;

fn example(name: &str) -> Command {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_sokuc"));
    let path = bin.parent().expect("a target folder").join("examples").join(name);
    assert!(
        path.exists(),
        "{} is not built: `cargo test` builds the examples beside the sokuc binary",
        path.display()
    );
    let mut c = Command::new(path);
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn run(name: &str, args: &[&str]) -> String {
    let out = example(name).args(args).output().expect("the example runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{name} {args:?} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn colouring_compiles_with_two_encodings_and_solves_on_two_backends() {
    let out = run("colouring", &[]);
    for line in [
        "totalizer: p cnf ",
        "adder: p cnf ",
        "sat: colours [",
        "cp: colours [",
        "two colours: Unsat",
    ] {
        assert!(out.contains(line), "no {line:?} in:\n{out}");
    }
    // The two encodings of the linear row make different CNFs: their `p cnf` headers differ.
    let header = |enc: &str| {
        let line = out.lines().find(|l| l.starts_with(enc)).expect("a header line");
        line.split("p cnf ")
            .nth(1)
            .and_then(|h| h.split(" (").next())
            .map(str::to_string)
    };
    assert_ne!(header("totalizer:"), header("adder:"), "{out}");
}

#[test]
fn knapsack_is_optimised_and_its_assignment_read_back() {
    let out = run("knapsack", &[]);
    assert!(out.contains("(optimal)"), "{out}");
    assert!(out.contains("evidence: optimum"), "{out}");
}

#[test]
fn the_icosoku_seed_is_solved_and_its_placements_printed() {
    let out = run("icosoku", &[]);
    assert_eq!(out.lines().filter(|l| l.starts_with("face ")).count(), 20, "{out}");
    assert!(out.contains("20 tiles placed"), "{out}");
}

#[test]
fn n_queens_is_counted_exactly() {
    for (n, count) in [("6", "4"), ("8", "92")] {
        let out = run("nqueens", &[n]);
        assert_eq!(out.trim(), format!("{n} queens: {count} solutions"));
    }
}
