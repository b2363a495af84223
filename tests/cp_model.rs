//! The shape of the cp backend's model: which exactly-one groups become integer variables.
//! For 3SoKu they must be the faces (one placement integer per face); the single-copy tile
//! types' exactly-one rows, which overlap them, must not push them out (they did, when the
//! largest groups were taken first: a type spans up to 60 placements, a face at most 34).

mod common;

use std::collections::BTreeSet;

use sokuc::backend::cp;
use sokuc::input::{batch, instance_file};
use sokuc::ir::Lit;
use sokuc::model::Instance;
use sokuc::soku::Compiled;

fn load(name: &str) -> Instance {
    instance_file::read_instance(&common::root().join("instances").join(name)).unwrap()
}

/// The face groups of a compiled 3SoKu model.
fn face_groups(compiled: &Compiled) -> BTreeSet<Vec<Lit>> {
    compiled
        .face_vars
        .iter()
        .map(|vars| vars.iter().map(|v| v.pos()).collect())
        .collect()
}

fn assert_faces(what: &str, compiled: &Compiled) {
    let groups = cp::integer_groups(&compiled.model.formula);
    let n = groups.len();
    let set: BTreeSet<Vec<Lit>> = groups.into_iter().collect();
    assert_eq!(set.len(), n, "{what}: a group chosen twice");
    assert_eq!(set, face_groups(compiled), "{what}: the integers are not the faces");
}

#[test]
fn icosoku_gets_one_placement_integer_per_face() {
    let compiled = sokuc::soku::compile(&load("icosoku-seed.toml")).unwrap();
    let groups = cp::integer_groups(&compiled.model.formula);
    assert_eq!(groups.len(), 20);
    let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
    assert!(sizes.iter().all(|&s| s <= 34), "{sizes:?}");
    assert_faces("icosoku-seed", &compiled);
    // Without presolve every face has all 14 types' rotations: 10 x 3, and one each for the
    // four uniform tiles (0,0,0) to (3,3,3).
    let plain = sokuc::soku::compile_plain(&load("icosoku-seed.toml"));
    let plain_sizes: Vec<usize> = cp::integer_groups(&plain.model.formula).iter().map(Vec::len).collect();
    assert_eq!(plain_sizes, vec![34; 20]);
    assert_faces("icosoku-seed without presolve", &plain);
}

/// Every tile different (every type is once-only, so faces and types tie), fixed tiles, and
/// the batches, with and without presolve.
#[test]
fn the_integers_are_the_faces_on_every_instance() {
    for name in [
        "tetrasoku-seed.toml",
        "octasoku.toml",
        "icosoku-fixed.toml",
        "icosoku-unsat.toml",
    ] {
        let inst = load(name);
        if let Ok(compiled) = sokuc::soku::compile(&inst) {
            assert_faces(name, &compiled);
        }
        assert_faces(&format!("{name} without presolve"), &sokuc::soku::compile_plain(&inst));
    }
    for file in ["icosoku100.txt", "hard-unsat50.txt", "unsat-icosoku100.txt"] {
        let path = common::root().join("instances/batches").join(file);
        for item in batch::read_batch(&path).unwrap() {
            let what = format!("{file} line {}", item.line);
            if let Ok(compiled) = sokuc::soku::compile(&item.instance) {
                assert_faces(&what, &compiled);
            }
            assert_faces(
                &format!("{what} without presolve"),
                &sokuc::soku::compile_plain(&item.instance),
            );
        }
    }
}

/// The choice depends on the formula only: the same formula gives the same groups.
#[test]
fn the_choice_is_deterministic() {
    let compiled = sokuc::soku::compile(&load("octasoku.toml")).unwrap();
    let first = cp::integer_groups(&compiled.model.formula);
    for _ in 0..5 {
        assert_eq!(cp::integer_groups(&compiled.model.formula), first);
    }
}
