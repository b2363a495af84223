//! Graph colouring built in code: the Petersen graph with three colours, compiled to DIMACS
//! with two encodings of its one linear row, and solved by two backends; then with two
//! colours, which no colouring of it has.
//!
//! Run: `cargo run --example colouring`

use sokuc::{Backend, ClaimKind, Cmp, Encoding, Model, Options, Status, Var};

/// The Petersen graph: an outer 5-cycle, an inner pentagram, and five spokes.
fn petersen() -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for i in 0..5 {
        edges.push((i, (i + 1) % 5));
        edges.push((5 + i, 5 + (i + 2) % 5));
        edges.push((i, 5 + i));
    }
    edges
}

/// `x[v][c]`: vertex `v` has colour `c`.
fn colouring(vertices: usize, edges: &[(usize, usize)], colours: usize) -> (Model, Vec<Vec<Var>>) {
    let mut m = Model::new();
    let x: Vec<Vec<Var>> = (0..vertices).map(|_| m.new_vars(colours)).collect();
    for row in &x {
        m.add_exactly_one(row.iter().copied());
    }
    for &(u, v) in edges {
        for (&a, &b) in x[u].iter().zip(&x[v]) {
            m.add_clause([!a, !b]);
        }
    }
    // A linear row for the encodings to differ on: colour 0 on at most four vertices.
    m.add_cardinality(x.iter().map(|row| row[0]), Cmp::Le, 4);
    (m, x)
}

fn main() -> Result<(), sokuc::Error> {
    let edges = petersen();
    let (m, x) = colouring(10, &edges, 3);

    for encoding in [Encoding::Totalizer, Encoding::Adder] {
        let cnf = m.to_cnf(encoding)?;
        let mut dimacs = Vec::new();
        cnf.write_dimacs(&mut dimacs)?;
        let text = String::from_utf8(dimacs).expect("DIMACS is text");
        let header = text.lines().find(|l| l.starts_with("p cnf")).expect("a header");
        println!("{}: {header} ({} bytes)", encoding.name(), text.len());
    }

    for backend in [Backend::Sat, Backend::Cp] {
        let outcome = m.solve(&Options::new().backend(backend))?;
        assert_eq!(outcome.status(), Status::Sat);
        let colour: Vec<usize> = x
            .iter()
            .map(|row| {
                row.iter()
                    .position(|&v| outcome.value(v) == Some(true))
                    .expect("a colour")
            })
            .collect();
        // The verifier checked the rows; check the colouring itself too.
        assert!(edges.iter().all(|&(u, v)| colour[u] != colour[v]));
        println!("{backend}: colours {colour:?}");
    }

    let (two, _) = colouring(10, &edges, 2);
    let outcome = two.solve(&Options::new())?;
    assert_eq!(outcome.status(), Status::Unsat);
    let claim = &outcome.claims()[0];
    assert_eq!(claim.kind(), ClaimKind::Unsat);
    println!("two colours: {:?}, {claim}", outcome.status());
    Ok(())
}
