//! The Rust code of the guide's library page (docs/src/library.md), run: each of its
//! `rust` blocks (not those marked `ignore`, which are rustsat's) is a test body here,
//! and the page must hold them exactly as written below, so the two cannot drift apart.

use sokuc::{Backend, Cmp, Encoding, Model, Options, Soku, Status};

#[test]
fn a_model_in_code() -> Result<(), sokuc::Error> {
    // page: a model in code
    let mut m = Model::new();
    let x = m.new_vars(4);
    m.add_clause([x[0], x[1]]);
    m.add_cardinality(x.iter().copied(), Cmp::Le, 2);
    m.add_linear([(3, x[0]), (2, x[1]), (1, x[2])], Cmp::Ge, 3);
    m.minimise([(4, x[0]), (3, x[1]), (1, x[2]), (1, x[3])]);

    let outcome = m.solve(&Options::new().backend(Backend::Sat))?;
    assert_eq!(outcome.status(), Status::Sat);
    assert_eq!(outcome.optimal(), Some(true));
    assert_eq!(outcome.objective_value(), Some(&4.into()));
    for claim in outcome.claims() {
        println!("{claim}");
    }

    let cnf = m.to_cnf(Encoding::Totalizer)?;
    assert_eq!(cnf.dimacs(x[2].pos()), 3);
    cnf.write_dimacs(&mut std::io::sink())?;
    // end
    Ok(())
}

#[test]
fn puzzles() -> Result<(), sokuc::Error> {
    // page: puzzles
    let puzzle = Soku::icosoku(&[1, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3]).build()?;
    let outcome = puzzle.solve(&Options::new())?;
    for p in outcome.placements().expect("a solution") {
        println!(
            "{}: tile {} turned {} puts {:?}",
            p.face_name, p.tile, p.rotation, p.weights
        );
    }
    // end
    Ok(())
}

/// The page's `rust` blocks, without their `use` lines.
fn blocks(page: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in page.lines() {
        match &mut current {
            None if line == "```rust" => current = Some(Vec::new()),
            Some(lines) if line == "```" => {
                let body: Vec<&str> = lines.iter().copied().filter(|l| !l.starts_with("use ")).collect();
                out.push(body.join("\n").trim().to_string());
                current = None;
            }
            Some(lines) => lines.push(line),
            None => {}
        }
    }
    out
}

/// The bodies between `// page:` and `// end` in this file, unindented.
fn bodies(source: &str) -> Vec<String> {
    source
        .split("// page:")
        .skip(1)
        .map(|part| {
            let body = part.split_once('\n').map_or("", |(_, rest)| rest);
            let body = body.split("// end").next().unwrap_or("");
            body.lines()
                .map(|l| l.strip_prefix("    ").unwrap_or(l))
                .collect::<Vec<_>>()
                .join("\n")
                .trim()
                .to_string()
        })
        .collect()
}

#[test]
fn the_page_holds_exactly_the_code_run_here() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/library.md")).unwrap();
    let source = include_str!("library_guide.rs");
    let (on_page, here) = (blocks(&page), bodies(source));
    assert_eq!(on_page.len(), 2, "the page's rust blocks: {on_page:#?}");
    assert_eq!(on_page, here[..2].to_vec());
}
