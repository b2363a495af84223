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
