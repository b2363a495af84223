//! 3SoKu instance generators.
//!
//! - [`random_solvable`]: place tiles at random (random faces, random turns) and read the
//!   capacities off the vertex sums, so the instance has at least that solution. Any variant,
//!   built-in or a file. The tiles are the IcoSoKu set on a 20-face variant, else random
//!   weights `0..=--max-weight` (default 3), or `--tiles`. `--fixed K` pre-places K tiles
//!   where the planted arrangement has them (turn free, or kept with `--fixed-rotation`).
//! - [`from_partition`]: seed 000's reduction (Lemma 1). Sizes `s_1..s_n` become
//!   `bipyramid-n` (`2n` faces; n >= 3, shorter lists are padded with blank tiles), tiles
//!   `(s_i,0,0)` and `n` blank tiles, capacity `s/2` at both apices (the first and last
//!   vertex) and 0 on the ring. It is solvable exactly when the sizes split into two halves of
//!   equal sum; an odd total gives both apices `floor(s/2)`, so the totals differ and the
//!   instance is unsatisfiable, as the Partition instance is.
//! - [`four_unsat`]: seed 000's "4-unsat" family, generalised to any variant: a solvable
//!   instance with one capacity raised by 1 and 4 tiles (or `--fixed K`) fixed to faces with
//!   a free turn. The totals differ by one, so it is unsatisfiable, trivially for a reasoner
//!   that adds up and slowly for one that does not.
//!
//! `tests/generate.rs` checks 80 random Partition instances against a subset-sum table (`sat`
//! and `search`, presolve off and on), random instances on every deltahedron (solvable,
//! repeatable), and 4-unsat instances refuted by two backends without presolve.

use crate::model::{Fixed, Instance, Placement, Tile, Variant, rotate};
use crate::rng::Rng;

/// The largest weight a generated tile may carry (the instance format's own limit).
pub const MAX_WEIGHT: u64 = 1_000_000;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    #[error("{given} tiles for the {faces} faces of {variant}")]
    TileCount {
        given: usize,
        faces: usize,
        variant: String,
    },
    #[error("{what} {value} is above the limit {limit}")]
    TooLarge { what: &'static str, value: u64, limit: u64 },
    #[error("{0}")]
    Invalid(String),
}

/// Where the tiles come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TileChoice {
    /// Exactly these tiles, one per face.
    List(Vec<Tile>),
    /// Each weight uniform in `0..=max_weight`.
    Random { max_weight: u64 },
}

/// An instance and a solution of it (for the random kinds: the planted arrangement).
#[derive(Debug, Clone)]
pub struct Generated {
    pub instance: Instance,
    pub planted: Option<Vec<Placement>>,
}

fn tiles_for(v: &Variant, choice: &TileChoice, rng: &mut Rng) -> Result<Vec<Tile>, GenerateError> {
    match choice {
        TileChoice::List(t) if t.len() != v.num_faces() => Err(GenerateError::TileCount {
            given: t.len(),
            faces: v.num_faces(),
            variant: v.name.clone(),
        }),
        TileChoice::List(t) => Ok(t.clone()),
        TileChoice::Random { max_weight } if *max_weight > MAX_WEIGHT => Err(GenerateError::TooLarge {
            what: "--max-weight",
            value: *max_weight,
            limit: MAX_WEIGHT,
        }),
        TileChoice::Random { max_weight } => Ok((0..v.num_faces())
            .map(|_| {
                let mut w = || rng.below(*max_weight as usize + 1) as u64;
                [w(), w(), w()]
            })
            .collect()),
    }
}

/// Random tiles on random faces with random turns; capacities are the vertex sums. The first
/// `fixed` tiles of a random order are pre-placed where the arrangement put them, with their
/// turn when `fixed_rotation`.
pub fn random_solvable(
    v: &Variant,
    tiles: &TileChoice,
    fixed: usize,
    fixed_rotation: bool,
    seed: u64,
) -> Result<Generated, GenerateError> {
    let mut rng = Rng::new(seed ^ SOKU_STREAM);
    let tiles = tiles_for(v, tiles, &mut rng)?;
    if fixed > v.num_faces() {
        return Err(GenerateError::Invalid(format!(
            "--fixed {fixed}: {} has only {} faces",
            v.name,
            v.num_faces()
        )));
    }
    let mut faces: Vec<usize> = (0..v.num_faces()).collect();
    rng.shuffle(&mut faces);
    let mut caps = vec![0u64; v.num_vertices()];
    let mut planted: Vec<Placement> = tiles
        .iter()
        .zip(&faces)
        .enumerate()
        .map(|(t, (&w, &f))| {
            let r = rng.below(3) as u8;
            let corners = rotate(w, r);
            for i in 0..3 {
                caps[v.faces[f][i]] += corners[i];
            }
            Placement {
                face: f,
                tile: t,
                rotation: r,
                corners,
            }
        })
        .collect();
    planted.sort_by_key(|p| p.face);
    let mut order: Vec<usize> = (0..tiles.len()).collect();
    rng.shuffle(&mut order);
    let mut fixed_list: Vec<Fixed> = order[..fixed]
        .iter()
        .map(|&t| Fixed {
            face: faces[t],
            tile: t,
            rotation: fixed_rotation.then_some(planted.iter().find(|p| p.tile == t).expect("placed").rotation),
        })
        .collect();
    fixed_list.sort_by_key(|f| f.face);
    Ok(Generated {
        instance: Instance {
            source: String::new(),
            variant: v.clone(),
            capacities: caps,
            tiles,
            fixed: fixed_list,
        },
        planted: Some(planted),
    })
}

/// Mixed into the seed so that the 3SoKu and Tricky Triple generators do not walk the same
/// stream for the same `--seed`.
const SOKU_STREAM: u64 = 0x3350_6b75;

/// The bipyramid variant `from_partition` uses: `n` is at least 3 (smaller inputs are padded
/// with zero sizes, which change nothing).
pub fn partition_ring(sizes: &[u64]) -> usize {
    sizes.len().max(3)
}

/// Seed 000, Lemma 1. The apices are the bipyramid's first and last vertex. An odd total has
/// no equal split; both apices then get half rounded down, so the capacities add up to one
/// less than the tiles and the instance is unsatisfiable, as the Partition instance is.
pub fn from_partition(sizes: &[u64]) -> Result<Instance, GenerateError> {
    if sizes.is_empty() {
        return Err(GenerateError::Invalid(
            "--from-partition needs at least one size".into(),
        ));
    }
    if let Some(&big) = sizes.iter().find(|&&s| s > MAX_WEIGHT) {
        return Err(GenerateError::TooLarge {
            what: "size",
            value: big,
            limit: MAX_WEIGHT,
        });
    }
    if sizes.contains(&0) {
        return Err(GenerateError::Invalid(
            "Partition sizes are positive integers; 0 is not a size".into(),
        ));
    }
    let n = partition_ring(sizes);
    let name = format!("bipyramid-{n}");
    let v = crate::input::variant_file::load_variant(&name, None, ("built-in", None))
        .map_err(|e| GenerateError::Invalid(e.to_string()))?;
    let total: u64 = sizes.iter().sum();
    let mut caps = vec![0u64; v.num_vertices()];
    caps[0] = total / 2;
    *caps.last_mut().expect("vertices") = total / 2;
    let mut tiles: Vec<Tile> = sizes.iter().map(|&s| [s, 0, 0]).collect();
    tiles.resize(2 * n, [0, 0, 0]);
    Ok(Instance {
        source: String::new(),
        variant: v,
        capacities: caps,
        tiles,
        fixed: Vec::new(),
    })
}

/// `count` sizes uniform in `1..=max_size`, the last raised by one if needed to make the total
/// even (an odd total would be refused by the first addition, which makes a poor benchmark).
pub fn random_partition(count: usize, max_size: u64, seed: u64) -> Vec<u64> {
    let mut rng = Rng::new(seed ^ 0x7061_7274);
    let mut s: Vec<u64> = (0..count).map(|_| 1 + rng.below(max_size as usize) as u64).collect();
    if s.iter().sum::<u64>() % 2 == 1
        && let Some(last) = s.last_mut()
    {
        *last += 1;
    }
    s
}

/// The "4-unsat" family on any variant: a random solvable instance, one capacity raised by 1,
/// `fixed` of its tiles fixed where the arrangement put them with their turn free.
pub fn four_unsat(v: &Variant, tiles: &TileChoice, fixed: usize, seed: u64) -> Result<Generated, GenerateError> {
    let mut g = random_solvable(v, tiles, fixed, false, seed)?;
    let mut rng = Rng::new(seed ^ 0x756e_7361);
    let at = rng.below(v.num_vertices());
    g.instance.capacities[at] += 1;
    g.planted = None;
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(name: &str) -> Variant {
        crate::input::variant_file::load_variant(name, None, ("test", None)).unwrap()
    }

    #[test]
    fn the_planted_arrangement_solves_the_random_instance() {
        for name in crate::model::builtin::DELTAHEDRA {
            let v = variant(name);
            for seed in 0..20 {
                let g = random_solvable(&v, &TileChoice::Random { max_weight: 3 }, 3, seed % 2 == 0, seed).unwrap();
                let planted = g.planted.clone().unwrap();
                crate::soku::verify::verify(&g.instance, &planted).unwrap();
                assert_eq!(g.instance.fixed.len(), 3.min(v.num_faces()));
            }
        }
    }

    #[test]
    fn partition_apices_are_the_first_and_last_vertex() {
        for n in [3usize, 5, 6, 9, 30] {
            let v = variant(&format!("bipyramid-{n}"));
            let degree = |x: usize| v.faces.iter().filter(|f| f.contains(&x)).count();
            assert_eq!(degree(0), n);
            assert_eq!(degree(v.num_vertices() - 1), n);
            // The two apices share no face.
            assert!(
                !v.faces
                    .iter()
                    .any(|f| f.contains(&0) && f.contains(&(v.num_vertices() - 1)))
            );
        }
    }

    #[test]
    fn four_unsat_totals_differ_by_one() {
        let v = variant("icosahedron");
        let tiles = TileChoice::List(crate::model::builtin::tile_set("icosoku").unwrap());
        for seed in 0..10 {
            let g = four_unsat(&v, &tiles, 4, seed).unwrap();
            assert_eq!(g.instance.total_capacity(), g.instance.total_weight() + 1);
            assert_eq!(g.instance.fixed.len(), 4);
            assert!(g.instance.fixed.iter().all(|f| f.rotation.is_none()));
        }
    }
}
