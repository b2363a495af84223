//! The IcoSoKu seed (the pegs 1, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3 on the vertices A to L)
//! solved, and its placements printed: which tile on which face, turned how.
//!
//! Run: `cargo run --example icosoku`

use sokuc::{Options, Soku, Status};

fn main() -> Result<(), sokuc::Error> {
    let pegs = [1, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3];
    let puzzle = Soku::icosoku(&pegs).build()?;
    let outcome = puzzle.solve(&Options::new())?;
    assert_eq!(outcome.status(), Status::Sat);
    assert!(outcome.verified());

    let placements = outcome.placements().expect("a solution");
    let mut sums = [0u64; 12];
    for p in placements {
        println!(
            "face {:>2} ({}): tile {:>2}, turned {}, weights {:?}",
            p.face, p.face_name, p.tile, p.rotation, p.weights
        );
        for (&v, w) in p.vertices.iter().zip(p.weights) {
            sums[v] += w;
        }
    }
    // Every vertex carries its peg.
    assert_eq!(sums, pegs);
    println!("{} tiles placed; every vertex sum equals its peg", placements.len());
    Ok(())
}
