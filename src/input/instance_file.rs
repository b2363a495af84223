//! 3SoKu instance files (TOML, spec §2) and the `--pegs` shortcut.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::limits::{MAX_CAPACITY, MAX_WEIGHT};
use super::variant_file::load_variant;
use super::{InputError, line_of, read_text, toml_error};
use crate::model::{Fixed, Instance, Tile, Variant, builtin};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InstanceToml {
    #[allow(dead_code)]
    name: Option<String>,
    #[allow(dead_code)]
    description: Option<String>,
    variant: Spanned<String>,
    tiles: Spanned<TilesSpec>,
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
enum CapacitiesSpec {
    List(Vec<i64>),
    Table(BTreeMap<String, i64>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FixedToml {
    face: FaceRef,
    tile: i64,
    rotation: Option<i64>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum FaceRef {
    List(Vec<String>),
    Str(String),
}

/// Reads a 3SoKu instance file.
pub fn read_instance(path: &Path) -> Result<Instance, InputError> {
    let text = read_text(path)?;
    parse_instance(&path.display().to_string(), &text, path.parent())
}

/// Parses 3SoKu instance TOML; relative variant paths resolve against `base`.
pub fn parse_instance(file: &str, text: &str, base: Option<&Path>) -> Result<Instance, InputError> {
    let raw: InstanceToml = toml::from_str(text).map_err(|e| toml_error(file, text, &e))?;
    let at = |span: std::ops::Range<usize>| Some(line_of(text, span.start));

    let variant = load_variant(raw.variant.get_ref(), base, (file, at(raw.variant.span())))?;

    let tiles_line = at(raw.tiles.span());
    let tiles: Vec<Tile> = match raw.tiles.get_ref() {
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
                "{} tiles for a variant with {} faces (one tile per face is needed)",
                tiles.len(),
                variant.num_faces()
            ),
        ));
    }

    let cap_line = at(raw.capacities.span());
    let capacities = match raw.capacities.get_ref() {
        CapacitiesSpec::List(list) => {
            if list.len() != variant.num_vertices() {
                return Err(InputError::new(
                    file,
                    cap_line,
                    format!(
                        "{} capacities for a variant with {} vertices",
                        list.len(),
                        variant.num_vertices()
                    ),
                ));
            }
            list.iter()
                .enumerate()
                .map(|(i, &c)| {
                    capacity_from(c).map_err(|m| {
                        InputError::new(file, cap_line, format!("capacity of {}: {m}", variant.vertices[i]))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?
        }
        CapacitiesSpec::Table(table) => {
            let mut caps = vec![None; variant.num_vertices()];
            for (name, &c) in table {
                let v = variant
                    .vertex_index(name)
                    .ok_or_else(|| InputError::new(file, cap_line, format!("capacity for unknown vertex {name:?}")))?;
                caps[v] = Some(
                    capacity_from(c)
                        .map_err(|m| InputError::new(file, cap_line, format!("capacity of {name}: {m}")))?,
                );
            }
            caps.iter()
                .enumerate()
                .map(|(i, c)| {
                    c.ok_or_else(|| {
                        InputError::new(
                            file,
                            cap_line,
                            format!("no capacity for vertex {}", variant.vertices[i]),
                        )
                    })
                })
                .collect::<Result<Vec<_>, _>>()?
        }
    };

    let mut fixed = Vec::new();
    for f in &raw.fixed {
        let line = at(f.span());
        let spec = f.get_ref();
        let names = match &spec.face {
            FaceRef::List(l) => l.clone(),
            FaceRef::Str(s) => variant.split_face_string(s),
        };
        fixed.push(
            fixed_from(&variant, tiles.len(), &names, spec.tile, spec.rotation)
                .map_err(|m| InputError::new(file, line, m))?,
        );
    }

    Ok(Instance {
        source: file.to_string(),
        variant,
        capacities,
        tiles,
        fixed,
    })
}

fn tile_from(t: &[i64]) -> Result<Tile, String> {
    if t.len() != 3 {
        return Err(format!("a tile has exactly three weights, found {}", t.len()));
    }
    let mut w = [0u64; 3];
    for (k, &x) in t.iter().enumerate() {
        if x < 0 {
            return Err(format!("weight {x} is negative (weights are non-negative integers)"));
        }
        if x as u64 > MAX_WEIGHT {
            return Err(format!("weight {x} is larger than the limit {MAX_WEIGHT}"));
        }
        w[k] = x as u64;
    }
    Ok(w)
}

fn capacity_from(c: i64) -> Result<u64, String> {
    if c < 0 {
        return Err(format!("{c} is negative (capacities are non-negative integers)"));
    }
    if c as u64 > MAX_CAPACITY {
        return Err(format!("{c} is larger than the limit {MAX_CAPACITY}"));
    }
    Ok(c as u64)
}

/// Resolves a fixed placement; the error message says what is wrong.
pub fn fixed_from(
    variant: &Variant,
    ntiles: usize,
    face: &[String],
    tile: i64,
    rotation: Option<i64>,
) -> Result<Fixed, String> {
    let fi = variant
        .find_face(face)
        .ok_or_else(|| format!("fixed face {} is not a face of {}", face.join(""), variant.name))?;
    if tile < 1 || tile as usize > ntiles {
        return Err(format!(
            "fixed tile index {tile} is out of range (tiles are numbered 1..{ntiles})"
        ));
    }
    let rotation = match rotation {
        None => None,
        Some(r @ 0..=2) => Some(r as u8),
        Some(r) => return Err(format!("rotation {r} is not 0, 1 or 2")),
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
