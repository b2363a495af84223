//! The facade's run options and its comparison, through the public API alone: each option
//! the command line has is a setter of `Options` that changes what a run does, and
//! `Instance::compare` is `sokuc compare`'s table and verdict.

mod common;

use std::io::Write;
use std::process::Stdio;

use common::{root, sokuc};
use sokuc::{Backend, Error, Instance, LpMode, Options, Status};

fn unsat() -> Instance {
    Instance::read(root().join("instances/icosoku-unsat.toml")).unwrap()
}

fn seed() -> Instance {
    Instance::read(root().join("instances/icosoku-seed.toml")).unwrap()
}

#[test]
fn the_lp_setting_decides_whether_the_relaxation_refutes() {
    // The unsat IcoSoKu is refuted by its LP relaxation when the LP is tried; with the LP off,
    // presolve off, the backend has to refute it, and the outcome says which did.
    let base = Options::new().backend(Backend::Sat).presolve(false);
    let by_lp = unsat().solve(&base.clone().lp(LpMode::On)).unwrap();
    let by_sat = unsat().solve(&base.lp(LpMode::Off)).unwrap();
    assert_eq!(by_lp.status(), Status::Unsat);
    assert_eq!(by_sat.status(), Status::Unsat);
    let evidence = |o: &sokuc::Outcome| format!("{:?}", o.claims());
    assert_ne!(evidence(&by_lp), evidence(&by_sat), "the LP setting changed nothing");
    assert!(evidence(&by_lp).to_lowercase().contains("lp"), "{}", evidence(&by_lp));
}

#[test]
fn the_clause_budget_refuses_a_larger_cnf() {
    let opts = Options::new().backend(Backend::Sat).presolve(false);
    assert_eq!(seed().solve(&opts.clone()).unwrap().status(), Status::Sat);
    let refused = seed().solve(&opts.max_clauses(10));
    assert!(matches!(refused, Err(Error::Limit(_))), "{refused:?}");
}

#[test]
fn a_tuning_experiment_is_passed_to_its_engine() {
    // The cp engine reads its tuning; a setting it does not know is refused, not ignored.
    let opts = Options::new().backend(Backend::Cp);
    let tuned = seed()
        .solve(&opts.clone().cp_tuning("order=first-fail,value=min"))
        .unwrap();
    assert_eq!(tuned.status(), Status::Sat);
    let refused = seed().solve(&opts.cp_tuning("no-such-setting=1"));
    assert!(refused.is_err(), "{refused:?}");
}

#[test]
fn compare_agrees_on_both_verdicts_and_keeps_the_order_asked() {
    let backends = [Backend::Search, Backend::Sat, Backend::Cp];
    let sat = seed().compare(&backends, &Options::new(), 1).unwrap();
    assert_eq!(sat.backends(), ["search", "sat", "cp"]);
    assert_eq!((sat.status(), sat.exit_code()), (Status::Sat, 0));
    assert!(sat.disagreement().is_none());
    let rows = sat.json()["results"].as_array().map(Vec::len);
    assert_eq!(rows, Some(3), "{}", sat.json());
    let no = unsat().compare(&backends, &Options::new(), 2).unwrap();
    assert_eq!((no.status(), no.exit_code()), (Status::Unsat, 20));
    for b in ["search", "sat", "cp"] {
        assert!(no.text().contains(b), "{}", no.text());
    }
}

#[test]
fn compare_refuses_no_backends_and_one_this_build_lacks() {
    let none = seed().compare(&[], &Options::new(), 1);
    assert!(matches!(none, Err(Error::Input(_))), "{none:?}");
    for b in Backend::ALL.into_iter().filter(|b| !b.is_available()) {
        let e = seed().compare(&[Backend::Sat, b], &Options::new(), 1).unwrap_err();
        assert!(matches!(e, Error::Input(_)), "{b}: {e}");
        assert!(e.to_string().contains("--features"), "{b}: {e}");
        assert!(b.check().is_err());
    }
    for b in Backend::available() {
        assert_eq!(b.check().unwrap(), b);
    }
    assert!(!Backend::general().contains(&Backend::Auto));
    assert!(!Backend::general().contains(&Backend::Mitm));
    assert!(Backend::general().contains(&Backend::Sat));
}

#[test]
fn an_empty_standard_input_is_no_puzzle() {
    for cmd in ["solve", "compare"] {
        let mut child = sokuc()
            .arg(cmd)
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"  \n").unwrap();
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {err}");
        assert!(err.contains("standard input is empty"), "{cmd}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{cmd}: {err}");
    }
}

fn drat_trim() -> std::path::PathBuf {
    let p = std::env::var_os("SOKUC_DRAT_TRIM")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root().join("target/tools/drat-trim"));
    assert!(
        p.is_file(),
        "drat-trim not found at {}: run scripts/build-drat-trim.sh",
        p.display()
    );
    p
}

#[test]
#[ignore = "needs drat-trim: scripts/build-drat-trim.sh (run by install-tools.sh) builds it"]
fn certify_checks_the_proof_of_unsat_and_verifies_a_solution() {
    use sokuc::{Certify, Verdict};
    let how = Certify::new().checker(drat_trim());
    // Presolve off, so that the solver refutes the CNF and drat-trim checks its proof.
    let opts = Options::new().backend(Backend::Sat).presolve(false).lp(LpMode::Off);
    let no = unsat().certify(&opts, &how).unwrap();
    assert_eq!(
        (no.verdict(), no.certified(), no.exit_code()),
        (Verdict::Unsat, true, 20),
        "{}",
        no.text()
    );
    assert_eq!(no.json()["verdict"], "unsat");
    let yes = seed().certify(&opts, &how).unwrap();
    assert_eq!(
        (yes.verdict(), yes.certified(), yes.exit_code()),
        (Verdict::Sat, true, 0),
        "{}",
        yes.text()
    );
    // With presolve on, presolve's refutation is kept and the plain model is certified too.
    let presolved = unsat().certify(&opts.clone().presolve(true), &how).unwrap();
    assert_eq!(presolved.verdict(), Verdict::Unsat);
    assert!(presolved.contradiction().is_none());
    // A checker that rejects every proof: the claim is not certified, and the exit code says
    // it is sokuc's failure, not an answer.
    let dir = tempfile::tempdir().unwrap();
    let liar = dir.path().join("reject-all");
    std::fs::write(&liar, "#!/bin/sh\necho 's NOT VERIFIED'\nexit 1\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&liar, std::fs::Permissions::from_mode(0o755)).unwrap();
        let rejected = unsat().certify(&opts, &Certify::new().checker(&liar)).unwrap();
        assert_eq!(
            (rejected.verdict(), rejected.certified(), rejected.exit_code()),
            (Verdict::ProofRejected, false, 1)
        );
    }
    // A backend that writes no proof is refused.
    let refused = unsat().certify(&opts.backend(Backend::Search), &how);
    assert!(matches!(refused, Err(Error::Unsupported { .. })), "{refused:?}");
}

#[test]
fn the_assistant_takes_off_the_fewest_tiles_and_completes_the_rest() {
    use sokuc::Advice;
    let placed = std::fs::read_to_string(root().join("instances/icosoku-placed.txt")).unwrap();
    let opts = Options::new().backend(Backend::Sat);
    let help = seed().assist("placed.txt", &placed, &opts).unwrap();
    assert_eq!(help.placed(), 4);
    // Their corners at A add up to 6 against a peg of 1: the (0,0,0) tile and one other can
    // stay at most, so some must come off, and the assistant proves how few.
    assert_eq!(help.verdict(), Advice::TakeOff, "{}", help.text());
    assert_eq!((help.exit_code(), help.status()), (20, Status::Sat));
    let removed = help.removed().to_vec();
    assert!(!removed.is_empty() && removed.len() < 4, "{removed:?}");
    let completion = help.completion().expect("a completion");
    assert_eq!(completion.len(), 20);
    // The completion is a solution, checked here: every tile once, every vertex at its peg.
    let pegs = [1, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3];
    let mut sums = [0u64; 12];
    let mut tiles: Vec<usize> = completion.iter().map(|p| p.tile).collect();
    tiles.sort_unstable();
    assert_eq!(tiles, (0..20).collect::<Vec<_>>());
    for p in &completion {
        for (v, w) in p.vertices.iter().zip(p.weights) {
            sums[*v] += w;
        }
    }
    assert_eq!(sums, pegs);
    let text: String = completion
        .iter()
        .map(|p| {
            format!(
                "{}: ({},{},{})\n",
                p.face_name, p.weights[0], p.weights[1], p.weights[2]
            )
        })
        .collect();
    // Every placed tile not taken off is in the completion as placed.
    let kept: Vec<&str> = placed
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .enumerate()
        .filter(|(i, _)| !removed.contains(i))
        .map(|(_, l)| l)
        .collect();
    for line in kept {
        assert!(text.contains(line), "{line} is kept but not in the completion:\n{text}");
    }
    assert!(help.hint().is_some());
    assert_eq!(help.json()["assist"], "take-off");

    // Tiles that fit can all stay.
    let one = seed().assist("one", "ABC: (0,0,0)", &opts).unwrap();
    assert_eq!(
        (one.verdict(), one.removed().len(), one.exit_code()),
        (Advice::Completable, 0, 0)
    );

    // A line that is no tile of the puzzle, and a puzzle that is no 3SoKu, are the user's.
    let e = seed().assist("mine.txt", "ABC: (9,9,9)", &opts).unwrap_err();
    assert!(
        matches!(e, Error::Input(_)) && e.to_string().starts_with("mine.txt"),
        "{e}"
    );
    let grid = Instance::read(root().join("instances/kakuro/adi7em-input01.kakuro")).unwrap();
    let e = grid.assist("mine.txt", "ABC: (0,0,0)", &opts).unwrap_err();
    assert!(matches!(e, Error::Input(_)), "{e}");
}

#[test]
fn liu_all_different_question_through_the_facade() {
    let sat = Options::new().backend(Backend::Sat);
    // Free pegs: Liu et al. found all-different solutions.
    let free = Instance::all_different(None, None).unwrap();
    let o = free.solve(&sat).unwrap();
    assert_eq!((o.status(), o.verified()), (Status::Sat, true));
    // Nineteen types cannot fill twenty faces once each.
    let nineteen = "0,0,0;0,0,1;0,0,2;0,0,3;0,1,1;0,1,2;0,1,3;0,2,1;0,2,2;0,2,3;0,3,1;0,3,2;0,3,3;1,1,1;1,1,2;1,1,3;1,2,2;1,2,3;1,3,2";
    let short = Instance::all_different(None, Some(nineteen)).unwrap();
    assert_eq!(short.solve(&sat).unwrap().status(), Status::Unsat);
    // The arguments' mistakes are the user's, named by the argument.
    for (pegs, pool, named) in [(Some("1,2,3"), None, "pegs"), (None, Some("0,1"), "pool")] {
        let e = Instance::all_different(pegs, pool).unwrap_err();
        assert!(matches!(&e, Error::Input(i) if i.file == named), "{e}");
    }
}
