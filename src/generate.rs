//! `generate`: puzzle files whose first lines say how they were made, checked before they
//! are written (a 3SoKu instance must read back as itself; a Tricky Triple's solution must
//! verify).
//!
//! A generated file starts with the command that makes it again (same seed, same bytes) and
//! ends with a comment saying what the construction promises (solvable, satisfiable exactly
//! when the sizes split into equal halves, or unsatisfiable). The constructions are in
//! `soku::generate` and `tricky::generate`.

use crate::error::Error;
use crate::input::{InputError, instance_file, lists};
use crate::soku::generate::{self as generator, TileChoice};

/// What `generate 3soku` makes.
#[derive(Debug)]
pub struct SokuRequest<'a> {
    pub seed: u64,
    /// A built-in variant name or a variant file.
    pub variant: &'a str,
    pub tiles: Option<&'a str>,
    pub max_weight: u64,
    pub fixed: usize,
    pub fixed_rotation: bool,
    pub from_partition: Option<&'a str>,
    pub random_partition: Option<usize>,
    pub max_size: u64,
    pub four_unsat: bool,
}

/// A 3SoKu instance file, with a comment saying how it was made.
pub fn soku(a: &SokuRequest) -> Result<String, Error> {
    let generated_by = |what: String| format!("made by sokuc generate 3soku {what}");
    let (inst, variant_ref, note) = if a.from_partition.is_some() || a.random_partition.is_some() {
        let sizes = match (a.from_partition, a.random_partition) {
            (Some(list), _) => lists::numbers("--from-partition", list, "size")?,
            (None, Some(n)) => {
                if !(1..=50_000).contains(&n) {
                    return Err(
                        InputError::new("--random-partition", None, format!("{n} sizes: give 1 to 50000")).into(),
                    );
                }
                if !(1..=generator::MAX_WEIGHT).contains(&a.max_size) {
                    return Err(InputError::new(
                        "--max-size",
                        None,
                        format!("{}: give 1 to {}", a.max_size, generator::MAX_WEIGHT),
                    )
                    .into());
                }
                generator::random_partition(n, a.max_size, a.seed)
            }
            _ => unreachable!("one of the two is set"),
        };
        let what = if a.from_partition.is_some() {
            "--from-partition"
        } else {
            "--random-partition"
        };
        let mut inst = generator::from_partition(&sizes).map_err(|e| InputError::new(what, None, e.to_string()))?;
        let list: Vec<String> = sizes.iter().map(u64::to_string).collect();
        let total: u64 = sizes.iter().sum();
        inst.source = generated_by(format!("--from-partition {}", list.join(",")));
        let name = inst.variant.name.clone();
        let note = format!(
            "Partition -> 3SoKu (seed 000, Lemma 1): sizes {} (total {total}) as tiles (s,0,0), {} blank tiles, capacity {} at both apices, 0 on the ring; solvable exactly when the sizes split into two halves of equal sum{}",
            list.join(","),
            inst.tiles.len() - sizes.len(),
            total / 2,
            if total % 2 == 1 {
                " (an odd total never does)"
            } else {
                ""
            }
        );
        (inst, name, note)
    } else {
        let v = crate::input::variant_file::load_variant(a.variant, None, ("--variant", None))?;
        let tiles = match a.tiles {
            Some(t) => TileChoice::List(lists::tiles("--tiles", t)?),
            None if v.num_faces() == 20 => {
                TileChoice::List(crate::model::builtin::tile_set("icosoku").expect("built in"))
            }
            None => TileChoice::Random {
                max_weight: a.max_weight,
            },
        };
        let fixed = if a.four_unsat && a.fixed == 0 { 4 } else { a.fixed };
        let bad = |e: generator::GenerateError| InputError::new("command line", None, e.to_string());
        let g = if a.four_unsat {
            generator::four_unsat(&v, &tiles, fixed, a.seed).map_err(bad)?
        } else {
            generator::random_solvable(&v, &tiles, fixed, a.fixed_rotation, a.seed).map_err(bad)?
        };
        let mut inst = g.instance;
        let tiles_arg = match (a.tiles, &tiles) {
            (Some(t), _) => format!(" --tiles {t}"),
            (None, TileChoice::Random { max_weight }) => format!(" --max-weight {max_weight}"),
            (None, TileChoice::List(_)) => String::new(),
        };
        inst.source = generated_by(format!(
            "--variant {}{tiles_arg} --seed {}{}{}{}",
            a.variant,
            a.seed,
            if a.four_unsat { " --four-unsat" } else { "" },
            if fixed > 0 {
                format!(" --fixed {fixed}")
            } else {
                String::new()
            },
            if a.fixed_rotation { " --fixed-rotation" } else { "" },
        ));
        // A built-in is referred to by name; a file by its absolute path, so the instance
        // reads back from wherever it is written.
        let variant_ref = if crate::model::builtin::variant_text(a.variant).is_some() {
            a.variant.to_string()
        } else {
            std::fs::canonicalize(a.variant)
                .map_err(|e| InputError::new(a.variant, None, format!("cannot resolve: {e}")))?
                .display()
                .to_string()
        };
        let note = if a.four_unsat {
            format!(
                "4-unsat: capacities from a random arrangement with one raised by 1 (total {} against {} on the tiles), {fixed} tiles fixed with a free turn: unsatisfiable",
                inst.total_capacity(),
                inst.total_weight()
            )
        } else {
            "capacities read off a random arrangement of the tiles: solvable".to_string()
        };
        (inst, variant_ref, note)
    };
    let text = format!("{}# {note}\n", inst.to_toml(&variant_ref));
    // The file must read back as this instance.
    let back = instance_file::parse_instance("generated", &text, None)
        .map_err(|e| Error::internal(format!("the generated instance does not read back: {e}")))?;
    if back.capacities != inst.capacities || back.tiles != inst.tiles || back.fixed != inst.fixed {
        return Err(Error::internal("the generated instance reads back differently"));
    }
    Ok(text)
}

/// A Tricky Triple of `size` x `size` with exactly one solution, and the milliseconds it
/// took.
pub fn tricky(size: usize, seed: u64, black: u32) -> Result<(String, f64), Error> {
    if !(3..=200).contains(&size) {
        return Err(InputError::new("--size", None, format!("{size} is not a size from 3 to 200")).into());
    }
    if black > 50 {
        return Err(InputError::new("--black", None, "at most 50 percent black cells").into());
    }
    let t = std::time::Instant::now();
    let g = crate::tricky::generate::generate(size, size, seed, black);
    let ms = t.elapsed().as_secs_f64() * 1e3;
    // The solution must check out.
    crate::tricky::verify::verify(&g.puzzle, &g.solution)
        .map_err(|e| Error::internal(format!("generated solution is wrong: {e}")))?;
    let text = format!(
        "# Tricky Triple {0}x{0} made by sokuc generate (seed {1}, {2}% black cells)\n# {3} givens kept after {4} uniqueness checks; the solution is unique\n{5}",
        size,
        seed,
        black,
        g.givens,
        g.checks,
        g.puzzle.render(&vec![vec![None; size]; size]),
    );
    Ok((text, ms))
}
