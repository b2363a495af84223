//! 3SoKu instance files (TOML, spec §2) and the `--pegs` shortcut.
//!
//! A `[[fixed]]` entry means "this face carries a tile identical to tile t" (turn given or
//! free). The general form (a `pool` of types with bounds instead of `tiles`, or free pegs
//! `capacities = { permutation_of = [...] }`) compiles through `crate::pool` and is checked by
//! `pool/verify.rs`; fixed placements need a tile list and given capacities.
//!
//! Shipped examples (`instances/`): `icosoku-seed.toml` (seed 000's example),
//! `tetrasoku-seed.toml` (its TetraSoKu), `octasoku.toml`, `icosoku-fixed.toml` (fixed tiles),
//! `icosoku-unsat.toml` (a "4-unsat" line), `tetrasoku-unsat.toml` (totals agree, but no
//! arrangement exists), and for the general form `liu-adts.toml` (Liu's Q1),
//! `icosoku-free-pegs.toml` and `octahedron-pool.toml`.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::variant_file::{Variants, load_variant, resolve_variant};
use super::{InputError, line_of, toml_error};
use crate::model::limits::{MAX_CAPACITY, MAX_WEIGHT};
use crate::model::pool::{Pegs, PoolInstance, PoolType};
use crate::model::{Fixed, Instance, Tile, Variant, builtin};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InstanceToml {
    #[allow(dead_code)]
    name: Option<String>,
    #[allow(dead_code)]
    description: Option<String>,
    variant: Spanned<String>,
    tiles: Option<Spanned<TilesSpec>>,
    /// Instead of `tiles`: tile types with bounds on how often each is used.
    pool: Option<Spanned<PoolSpec>>,
    capacities: Spanned<CapacitiesSpec>,
    #[serde(default)]
    fixed: Vec<Spanned<FixedToml>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum TilesSpec {
    Named(String),
    List(Vec<Vec<i64>>),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum PoolSpec {
    Named(String),
    List(Vec<PoolEntry>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PoolEntry {
    tile: Vec<i64>,
    #[serde(default)]
    min: i64,
    #[serde(default = "one")]
    max: i64,
}

fn one() -> i64 {
    1
}

#[derive(Deserialize)]
#[serde(untagged)]
enum CapacitiesSpec {
    List(Vec<i64>),
    /// Free capacities: any arrangement of this multiset on the vertices.
    Free {
        permutation_of: Vec<i64>,
    },
    Table(BTreeMap<String, i64>),
}

/// A 3SoKu instance file: the classic form (a tile per face, given capacities), or the
/// general form of Liu's question (a pool of types with bounds, and/or capacities that are
/// any arrangement of a multiset), which compiles through the `pool` module.
#[derive(Debug, Clone)]
pub enum Puzzle {
    Classic(Instance),
    Pool(PoolInstance),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FixedToml {
    face: Spanned<FaceRef>,
    tile: Spanned<i64>,
    #[serde(default)]
    rotation: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum FaceRef {
    List(Vec<String>),
    Str(String),
}

/// Reads a 3SoKu instance file (the tests' shortcut).
#[cfg(feature = "testing")]
pub fn read_instance(path: &Path) -> Result<Instance, InputError> {
    let text = super::read_text(path)?;
    parse_instance(&path.display().to_string(), &text, path.parent())
}

/// Reads an instance file in either form.
#[cfg(any(test, feature = "testing"))]
pub fn read_puzzle(path: &Path) -> Result<Puzzle, InputError> {
    let text = super::read_text(path)?;
    parse_puzzle(&path.display().to_string(), &text, path.parent())
}

/// Parses classic 3SoKu instance TOML; a pool or free capacities are refused with a pointer
/// to the commands that take them.
pub fn parse_instance(file: &str, text: &str, base: Option<&Path>) -> Result<Instance, InputError> {
    match parse_puzzle(file, text, base)? {
        Puzzle::Classic(i) => Ok(i),
        Puzzle::Pool(_) => Err(InputError::new(
            file,
            None,
            "this instance has a tile pool or free capacities, which `sokuc solve` and `sokuc compare` take; this command needs a tile list and given capacities",
        )),
    }
}

/// Parses instance TOML in either form; relative variant paths resolve against `base`.
pub fn parse_puzzle(file: &str, text: &str, base: Option<&Path>) -> Result<Puzzle, InputError> {
    parse_puzzle_in(file, text, Variants::Files(base))
}

/// Parses instance TOML in either form, its variant found among `variants`.
pub fn parse_puzzle_in(file: &str, text: &str, variants: Variants<'_>) -> Result<Puzzle, InputError> {
    let raw: InstanceToml = toml::from_str(text).map_err(|e| {
        let mut err = toml_error(file, text, &e);
        // serde's message for a value of the wrong shape names only the Rust enum.
        for (enum_name, shapes) in [
            ("TilesSpec", "tiles must be a built-in set name or a list of [a, b, c] weights"),
            (
                "CapacitiesSpec",
                "capacities must be a list of integers, a table vertex = integer, or { permutation_of = [integers] }",
            ),
            ("FaceRef", super::variant_file::FACE_SHAPES),
            (
                "PoolSpec",
                "pool must be \"all24\" or a list of { tile = [a, b, c], min = integer, max = integer } (min and max optional)",
            ),
        ] {
            if err.message.contains(&format!("untagged enum {enum_name}")) {
                err.message = shapes.to_string();
            }
        }
        err
    })?;
    let at = |span: std::ops::Range<usize>| Some(line_of(text, span.start));

    let variant = resolve_variant(raw.variant.get_ref(), variants, (file, at(raw.variant.span())))?;

    let pool = match (&raw.tiles, &raw.pool) {
        (Some(_), None) => None,
        (None, Some(p)) => Some(pool_from(file, text, &variant, p)?),
        (Some(_), Some(p)) => {
            return Err(InputError::new(file, at(p.span()), "give `tiles` or `pool`, not both"));
        }
        (None, None) => {
            return Err(InputError::new(
                file,
                None,
                "missing `tiles` (one tile per face) or `pool` (tile types with bounds)",
            ));
        }
    };
    let cap_line = at(raw.capacities.span());
    if let CapacitiesSpec::Free { permutation_of } = raw.capacities.get_ref()
        && permutation_of.len() != variant.num_vertices()
    {
        return Err(InputError::new(
            file,
            cap_line,
            format!(
                "{} capacities in permutation_of for a variant with {} vertices",
                permutation_of.len(),
                variant.num_vertices()
            ),
        ));
    }
    if (pool.is_some() || matches!(raw.capacities.get_ref(), CapacitiesSpec::Free { .. }))
        && let Some(f) = raw.fixed.first()
    {
        return Err(InputError::new(
            file,
            at(f.span()),
            "fixed placements need a tile list and given capacities",
        ));
    }
    if let Some(pool) = pool {
        let pegs = pegs_from(file, cap_line, &variant, raw.capacities.get_ref())?;
        return Ok(Puzzle::Pool(PoolInstance {
            source: file.to_string(),
            variant,
            pool,
            pegs,
        }));
    }
    let Some(raw_tiles) = &raw.tiles else {
        unreachable!("tiles are present when there is no pool")
    };
    let tiles_line = at(raw_tiles.span());
    let tiles: Vec<Tile> = match raw_tiles.get_ref() {
        TilesSpec::Named(name) => builtin::tile_set(name).ok_or_else(|| {
            InputError::new(
                file,
                tiles_line,
                format!(
                    "unknown tile set {name:?} (built-in: {})",
                    builtin::TILE_SETS.join(", ")
                ),
            )
        })?,
        TilesSpec::List(list) => list
            .iter()
            .enumerate()
            .map(|(i, t)| tile_from(t).map_err(|m| InputError::new(file, tiles_line, format!("tile {}: {m}", i + 1))))
            .collect::<Result<_, _>>()?,
    };
    if tiles.len() != variant.num_faces() {
        return Err(InputError::new(
            file,
            tiles_line,
            format!(
                "{} for a variant with {} faces (one tile per face is needed)",
                crate::words::count_s(tiles.len(), "tile"),
                variant.num_faces()
            ),
        ));
    }

    if let CapacitiesSpec::Free { .. } = raw.capacities.get_ref() {
        // A tile list with free capacities is a pool where each type is used exactly as
        // often as the list has it.
        let pool = crate::model::tiles::group_types(&tiles)
            .iter()
            .map(|t| PoolType {
                tile: t.weights,
                min: t.multiplicity() as u32,
                max: t.multiplicity() as u32,
            })
            .collect();
        let pegs = pegs_from(file, cap_line, &variant, raw.capacities.get_ref())?;
        return Ok(Puzzle::Pool(PoolInstance {
            source: file.to_string(),
            variant,
            pool,
            pegs,
        }));
    }
    let Pegs::Fixed(capacities) = pegs_from(file, cap_line, &variant, raw.capacities.get_ref())? else {
        unreachable!("free capacities are handled above")
    };

    let mut fixed = Vec::new();
    for f in &raw.fixed {
        let line = at(f.span());
        let spec = f.get_ref();
        let names = match spec.face.get_ref() {
            FaceRef::List(l) => l.clone(),
            FaceRef::Str(s) => crate::model::variant::split_face_text(&variant.vertices, s)
                .map_err(|m| InputError::new(file, at(spec.face.span()), m.0))?,
        };
        // The error names the line of the key that is wrong, not the table's first line.
        let key_line = if variant.find_face(&names).is_none() {
            at(spec.face.span())
        } else if !(1..=tiles.len() as i64).contains(spec.tile.get_ref()) {
            at(spec.tile.span())
        } else {
            spec.rotation.as_ref().map_or(line, |r| at(r.span()))
        };
        let rotation = spec.rotation.as_ref().map(|r| *r.get_ref());
        fixed.push(
            fixed_from(&variant, tiles.len(), &names, *spec.tile.get_ref(), rotation)
                .map_err(|m| InputError::new(file, key_line, m))?,
        );
    }

    Ok(Puzzle::Classic(Instance {
        source: file.to_string(),
        variant,
        capacities,
        tiles,
        fixed,
    }))
}

/// The pool: `"all24"` (Liu's 24 types over 0..3, each at most once) or a list of
/// `{ tile = [a, b, c], min = .., max = .. }` (defaults min 0, max 1).
fn pool_from(file: &str, text: &str, variant: &Variant, spec: &Spanned<PoolSpec>) -> Result<Vec<PoolType>, InputError> {
    let line = Some(line_of(text, spec.span().start));
    let pool: Vec<PoolType> = match spec.get_ref() {
        PoolSpec::Named(n) if n == "all24" => crate::model::pool::all_types()
            .into_iter()
            .map(PoolType::once)
            .collect(),
        PoolSpec::Named(n) => {
            return Err(InputError::new(
                file,
                line,
                format!("unknown pool {n:?} (built-in: all24; or a list of {{ tile = [a, b, c], max = n }})"),
            ));
        }
        PoolSpec::List(list) => {
            let mut out: Vec<PoolType> = Vec::new();
            for (i, e) in list.iter().enumerate() {
                let err = |m: String| InputError::new(file, line, format!("pool type {}: {m}", i + 1));
                let tile = tile_from(&e.tile).map_err(|p| err(p.into()))?;
                if e.min < 0 || e.max < e.min {
                    return Err(err(format!(
                        "bounds min = {}, max = {} are not 0 <= min <= max",
                        e.min, e.max
                    )));
                }
                let cap = variant.num_faces() as i64;
                if e.min > cap {
                    return Err(err(format!("min = {} is more than the {cap} faces", e.min)));
                }
                let tile = crate::model::tiles::canonical(tile);
                if let Some(j) = out.iter().position(|p| p.tile == tile) {
                    return Err(err(format!(
                        "{:?} is a rotation of pool type {} (list each type once, with its bounds)",
                        e.tile,
                        j + 1
                    )));
                }
                out.push(PoolType {
                    tile,
                    min: e.min as u32,
                    max: e.max.min(cap) as u32,
                });
            }
            out
        }
    };
    if pool.is_empty() {
        return Err(InputError::new(file, line, "the pool is empty"));
    }
    Ok(pool)
}

/// Capacities of a pool instance: given (list or table) or free.
fn pegs_from(file: &str, line: Option<usize>, variant: &Variant, spec: &CapacitiesSpec) -> Result<Pegs, InputError> {
    let check =
        |what: String, c: i64| capacity_from(c).map_err(|m| InputError::new(file, line, format!("{what}: {m}")));
    match spec {
        CapacitiesSpec::Free { permutation_of } => Ok(Pegs::Free(
            permutation_of
                .iter()
                .enumerate()
                .map(|(i, &c)| check(format!("permutation_of value {}", i + 1), c))
                .collect::<Result<_, _>>()?,
        )),
        CapacitiesSpec::List(list) => {
            if list.len() != variant.num_vertices() {
                return Err(InputError::new(
                    file,
                    line,
                    format!(
                        "{} capacities for a variant with {} vertices",
                        list.len(),
                        variant.num_vertices()
                    ),
                ));
            }
            Ok(Pegs::Fixed(
                list.iter()
                    .enumerate()
                    .map(|(i, &c)| check(format!("capacity of {}", variant.vertices[i]), c))
                    .collect::<Result<_, _>>()?,
            ))
        }
        CapacitiesSpec::Table(table) => {
            let mut caps = vec![None; variant.num_vertices()];
            for (name, &c) in table {
                let v = variant
                    .vertex_index(name)
                    .ok_or_else(|| InputError::new(file, line, format!("capacity for unknown vertex {name:?}")))?;
                caps[v] = Some(check(format!("capacity of {name}"), c)?);
            }
            Ok(Pegs::Fixed(
                caps.iter()
                    .enumerate()
                    .map(|(i, c)| {
                        c.ok_or_else(|| {
                            InputError::new(file, line, format!("no capacity for vertex {}", variant.vertices[i]))
                        })
                    })
                    .collect::<Result<_, _>>()?,
            ))
        }
    }
}

fn tile_from(t: &[i64]) -> Result<Tile, crate::input::Problem> {
    if t.len() != 3 {
        return Err(format!("a tile has exactly three weights, found {}", t.len()).into());
    }
    let mut w = [0u64; 3];
    for (k, &x) in t.iter().enumerate() {
        if x < 0 {
            return Err(format!("weight {x} is negative (weights are non-negative integers)").into());
        }
        if x as u64 > MAX_WEIGHT {
            return Err(format!("weight {x} is larger than the limit {MAX_WEIGHT}").into());
        }
        w[k] = x as u64;
    }
    Ok(w)
}

fn capacity_from(c: i64) -> Result<u64, crate::input::Problem> {
    if c < 0 {
        return Err(format!("{c} is negative (capacities are non-negative integers)").into());
    }
    if c as u64 > MAX_CAPACITY {
        return Err(format!("{c} is larger than the limit {MAX_CAPACITY}").into());
    }
    Ok(c as u64)
}

/// "; ACB is: faces are listed clockwise from outside" when `face`, turned the other way,
/// is a face of the variant (the mistake of listing a face anticlockwise); else nothing.
pub fn other_orientation(variant: &Variant, face: &[String], sep: &str) -> String {
    if face.len() != 3 {
        return String::new();
    }
    let other = [face[0].clone(), face[2].clone(), face[1].clone()];
    match variant.find_face(&other) {
        Some(_) => format!(
            "; {} is (the same vertices the other way round: faces are listed clockwise seen from outside)",
            other.join(sep)
        ),
        None => String::new(),
    }
}

/// Resolves a fixed placement; the error message says what is wrong.
pub fn fixed_from(
    variant: &Variant,
    ntiles: usize,
    face: &[String],
    tile: i64,
    rotation: Option<i64>,
) -> Result<Fixed, crate::input::Problem> {
    let fi = variant.find_face(face).ok_or_else(|| {
        let sep = if variant.short_names() { "" } else { "," };
        format!(
            "fixed face {} is not a face of {}{}",
            face.join(sep),
            variant.name,
            other_orientation(variant, face, sep)
        )
    })?;
    if tile < 1 || tile as usize > ntiles {
        return Err(format!("fixed tile index {tile} is out of range (tiles are numbered 1..{ntiles})").into());
    }
    let rotation = match rotation {
        None => None,
        Some(r @ 0..=2) => Some(r as u8),
        Some(r) => return Err(format!("rotation {r} is not 0, 1 or 2").into()),
    };
    // A face named from another starting vertex is the same face, but the rotation is
    // relative to the variant's listing: shift it accordingly.
    let ids: Vec<usize> = face.iter().filter_map(|n| variant.vertex_index(n)).collect();
    let shift = (0..3).find(|&s| variant.faces[fi][s] == ids[0]).unwrap_or(0) as u8;
    Ok(Fixed {
        face: fi,
        tile: tile as usize - 1,
        rotation: rotation.map(|r| (r + shift) % 3),
    })
}

/// The IcoSoKu instance given by 12 pegs for A..L, as `--pegs 1,5,11,...`.
pub fn read_pegs(pegs: &str) -> Result<Instance, InputError> {
    pegs_instance(pegs)
}

/// The IcoSoKu instance given by 12 pegs (see [`read_pegs`]).
pub fn pegs_instance(pegs: &str) -> Result<Instance, InputError> {
    let variant = load_variant("icosahedron", None, ("--pegs", None))?;
    let parts: Vec<&str> = pegs
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    if parts.len() != variant.num_vertices() {
        return Err(InputError::new(
            "--pegs",
            None,
            format!("expected 12 pegs for vertices A..L, got {}", parts.len()),
        ));
    }
    let capacities = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let c: i64 = p
                .parse()
                .map_err(|_| InputError::new("--pegs", None, format!("peg {} ({p:?}) is not an integer", i + 1)))?;
            capacity_from(c).map_err(|m| InputError::new("--pegs", None, format!("peg {}: {m}", i + 1)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Instance {
        source: format!("--pegs {pegs}"),
        variant,
        capacities,
        tiles: builtin::ICOSOKU_TILES.to_vec(),
        fixed: Vec::new(),
    })
}

#[cfg(test)]
mod face_tests {
    use super::*;

    /// The issue's octahedron, where "x_y_z_w" could be two faces.
    const VARIANT: &str = r#"vertices = ["x_y", "z", "w", "y_z", "x", "v"]
faces = [["x_y", "z", "w"], ["w", "z", "x"], ["x", "y_z", "w"], ["w", "y_z", "x_y"],
         ["v", "z", "x_y"], ["v", "x", "z"], ["v", "y_z", "x"], ["v", "x_y", "y_z"]]
"#;

    fn parse_with_face(face: &str) -> Result<Instance, InputError> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("oct.toml"), VARIANT).unwrap();
        let text = format!(
            "variant = \"oct.toml\"\ntiles = [[0,0,1],[0,0,1],[0,0,1],[0,0,1],[0,0,1],[0,0,1],[0,0,1],[0,0,1]]\ncapacities = [1, 1, 1, 1, 2, 2]\n\n[[fixed]]\nface = {face}\ntile = 1\n"
        );
        parse_instance("i.toml", &text, Some(dir.path()))
    }

    #[test]
    fn fixed_faces_are_read_by_list_commas_or_an_unambiguous_underscore_string() {
        for face in [r#"["x", "y_z", "w"]"#, r#""x,y_z,w""#, r#""w, x, y_z""#] {
            let i = parse_with_face(face).unwrap_or_else(|e| panic!("{face}: {e}"));
            assert_eq!(i.fixed[0].face, 2, "{face}");
        }
        assert_eq!(parse_with_face(r#""v_x_z""#).unwrap().fixed[0].face, 5);
    }

    #[test]
    fn a_bad_key_of_a_fixed_table_is_an_error_at_the_key_s_line() {
        let text = "variant = \"octahedron\"\ntiles = [[0,0,1],[0,0,1],[0,0,1],[0,0,1],[0,0,1],[0,0,1],[0,0,1],[0,0,1]]\ncapacities = [1, 1, 1, 1, 2, 2]\n\n[[fixed]]\nface = FACE\ntile = TILE\nrotation = ROT\n";
        let first = load_variant("octahedron", None, ("test", None)).unwrap();
        let face: Vec<&str> = first.faces[0].iter().map(|&v| first.vertices[v].as_str()).collect();
        let good = format!("{:?}", face);
        for (f, t, r, line, what) in [
            ("[\"A\", \"A\", \"A\"]", "1", "0", 6, "face"),
            (good.as_str(), "99", "0", 7, "tile index 99"),
            (good.as_str(), "1", "5", 8, "rotation 5"),
        ] {
            let text = text.replace("FACE", f).replace("TILE", t).replace("ROT", r);
            let e = parse_instance("i.toml", &text, None).unwrap_err();
            assert_eq!(e.line, Some(line), "{what}: {e}");
            assert!(e.message.contains(what), "{what}: {e}");
        }
    }

    #[test]
    fn an_ambiguous_or_misshapen_face_is_an_error_at_its_line() {
        let e = parse_with_face(r#""x_y_z_w""#).unwrap_err();
        assert_eq!(e.line, Some(6), "{e}");
        assert!(e.message.contains("ambiguous") && e.message.contains("x_y,z,w"), "{e}");
        for bad in ["3", r#"["x_y", 1, "w"]"#] {
            let e = parse_with_face(bad).unwrap_err();
            assert!(!e.message.contains("untagged"), "{bad}: {e}");
            assert!(
                e.message.contains("a face is a list of three vertex names"),
                "{bad}: {e}"
            );
            assert_eq!(e.line, Some(6), "{bad}: {e}");
        }
        let e = parse_with_face(r#""x,z,w""#).unwrap_err();
        assert!(e.message.contains("fixed face x,z,w is not a face"), "{e}");
    }
}
