//! 3SoKu -> pseudo-Boolean model.
//!
//! One variable per (face, tile type, distinct rotation): identical tiles share variables,
//! so the model has no identical-tile symmetry to break, and a uniform tile has a single
//! rotation. Constraints: exactly one option per face, each type used exactly as often as
//! it occurs, every vertex sum equal to its capacity, and the implied global sum.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use super::presolve::{Domains, Presolved, presolve};
use crate::ir::{Cmp, Constraint, Linear, Model, Var};
use crate::model::{Instance, TileType};
use crate::puzzle::Refutation;

/// The object behind a primary variable: "face `face` carries type `ty` turned by `rot`".
/// `name` is only for display; identity is (face, ty, rot).
#[derive(Clone)]
pub struct Place {
    pub face: usize,
    pub ty: usize,
    pub rot: u8,
    name: Arc<str>,
}

impl PartialEq for Place {
    fn eq(&self, o: &Self) -> bool {
        (self.face, self.ty, self.rot) == (o.face, o.ty, o.rot)
    }
}
impl Eq for Place {}
impl Hash for Place {
    fn hash<H: Hasher>(&self, h: &mut H) {
        (self.face, self.ty, self.rot).hash(h)
    }
}
impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}
impl fmt::Debug for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// A compiled 3SoKu instance.
#[derive(Debug)]
pub struct Compiled {
    pub types: Vec<TileType>,
    pub model: Model<Place>,
    /// Options of each face, as variables.
    pub face_vars: Vec<Vec<Var>>,
    /// Index of each vertex's sum row in the formula, in vertex order.
    pub vertex_rows: Vec<usize>,
}

impl Compiled {
    /// Sets new capacities in the vertex rows. Only sound for a model compiled without
    /// presolve ([`compile_plain`]): presolve's filtering depends on the capacities.
    pub fn set_capacities(&mut self, caps: &[u64]) {
        for (&ci, &c) in self.vertex_rows.iter().zip(caps) {
            self.model.formula.set_rhs(ci, c as i64);
        }
    }
}

/// The longest vertex-name part of a variable name (see [`face_part`]); with the face
/// number, weights up to 10^6 and the rotation, names stay within CBC's LP limit of 100.
const LABEL_CHARS: usize = 40;

/// The face part of a variable name, for a variant whose vertex names are
/// `one_char_ascii` (every name is a single ASCII letter, digit or '_') or not.
///
/// With one-character names it is the three names, `ABC`: each name is one character, so
/// the string determines the face. Otherwise names may contain '_' (faces [x_y, z, w] and
/// [x, y_z, w] would both read `x_y_z_w`) and any script's letters, so the part starts with
/// the face's number, `f2`, which alone tells faces apart. The names follow for the reader,
/// separated by `__`, with non-ASCII characters written as `U` and their hex code
/// (`Ä` -> `U00C4`), and cut to [`LABEL_CHARS`]: `f2_x_y__z__w`.
fn face_part(v: &crate::model::Variant, face: usize, one_char_ascii: bool) -> String {
    let names = v.faces[face].iter().map(|&x| v.vertices[x].as_str());
    if one_char_ascii {
        return names.collect();
    }
    let mut label = String::new();
    for (k, n) in names.enumerate() {
        if k > 0 {
            label.push_str("__");
        }
        for c in n.chars() {
            if c.is_ascii_alphanumeric() || c == '_' {
                label.push(c);
            } else {
                label.push_str(&format!("U{:04X}", c as u32));
            }
        }
    }
    label.truncate(LABEL_CHARS);
    format!("f{}_{label}", face + 1)
}

/// A readable variable name: `p_ABC_012_r1` (face, type weights, rotation), or
/// `p_f2_x_y__z__w_012_r1` when vertex names are longer than one character (see
/// [`face_part`]). Weights over 9 are separated by '_' (`p_ABC_10_2_0_r1`). Only ASCII
/// letters, digits and '_' are used, starting with a letter, so every format sokuc writes
/// takes the name as it is. Distinct (face, type, rotation) give distinct names: the face
/// part is fixed-width or starts with the face number, the weights of distinct types
/// differ, and the rotation ends the name.
fn place_name(face: &str, ty: &TileType, rot: u8) -> String {
    // Built by hand, not with `format!`: every solve names hundreds of these, and the
    // formatting machinery was a tenth of a default `sokuc solve` (callgrind).
    fn push_number(name: &mut String, mut x: u64) {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (x % 10) as u8;
            x /= 10;
            if x == 0 {
                break;
            }
        }
        name.extend(digits[i..].iter().map(|&d| d as char));
    }
    let mut name = String::with_capacity(face.len() + 16);
    name.push_str("p_");
    name.push_str(face);
    name.push('_');
    let digits = ty.weights.iter().all(|&x| x < 10);
    for (i, &x) in ty.weights.iter().enumerate() {
        if i > 0 && !digits {
            name.push('_');
        }
        push_number(&mut name, x);
    }
    name.push_str("_r");
    push_number(&mut name, u64::from(rot));
    name
}

/// Presolves and compiles; `Err` carries the presolve's unsatisfiability argument.
pub fn compile(inst: &Instance) -> Result<Compiled, Refutation> {
    let types = inst.types();
    let domains: Domains = match presolve(inst, &types) {
        Presolved::Open(d) => d,
        Presolved::Unsat(reason) => return Err(Refutation(reason)),
    };
    build(inst, types, &domains).ok_or_else(Refutation::stopped)
}

/// Compiles without presolve: only fixed placements restrict faces. The model may be
/// unsatisfiable in ways presolve would have reported.
pub fn compile_plain(inst: &Instance) -> Compiled {
    plain(inst).expect("a compile stops only in the run path's worker, which calls `plain`")
}

/// [`compile_plain`], or `None` when it stopped at the deadline (`budget::compile_stop`).
pub fn plain(inst: &Instance) -> Option<Compiled> {
    let types = inst.types();
    let all: Vec<(usize, u8)> = types
        .iter()
        .enumerate()
        .flat_map(|(t, ty)| ty.rotations.iter().map(move |&r| (t, r)))
        .collect();
    let mut domains: Domains = vec![all; inst.variant.num_faces()];
    for fx in &inst.fixed {
        let t = types.iter().position(|ty| ty.members.contains(&fx.tile)).unwrap_or(0);
        let want = fx.rotation.map(|r| crate::model::rotate(inst.tiles[fx.tile], r));
        domains[fx.face].retain(|&(u, q)| u == t && want.is_none_or(|c| types[t].corners(q) == c));
    }
    build(inst, types, &domains)
}

/// The model over the placements left in `domains`; `None` when the compile stopped at the
/// deadline (`budget::compile_stop`, asked once per face and per vertex).
fn build(inst: &Instance, types: Vec<TileType>, domains: &Domains) -> Option<Compiled> {
    let v = &inst.variant;
    let mut model: Model<Place> = Model::new();
    let mut face_vars = Vec::with_capacity(v.num_faces());
    let one_char_ascii = v
        .vertices
        .iter()
        .all(|n| n.len() == 1 && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    for (f, dom) in domains.iter().enumerate() {
        if crate::budget::compile_stop() {
            return None;
        }
        let label = face_part(v, f, one_char_ascii);
        let vars: Vec<Var> = dom
            .iter()
            .map(|&(ty, rot)| {
                model.var(Place {
                    face: f,
                    ty,
                    rot,
                    name: place_name(&label, &types[ty], rot).into(),
                })
            })
            .collect();
        face_vars.push(vars);
    }
    for (f, vars) in face_vars.iter().enumerate() {
        model.add(
            format!("face {}", v.face_label(f)),
            Constraint::ExactlyOne(vars.iter().map(|x| x.pos()).collect()),
        );
    }
    // Literals by type in one pass over the pool (in pool order, as a filter per type gave):
    // one pass per type was quadratic on large tile sets.
    let mut by_type: Vec<Vec<_>> = vec![Vec::new(); types.len()];
    for (x, p) in model.pool.iter() {
        by_type[p.ty].push(x.pos());
    }
    for (ty, lits) in types.iter().zip(by_type) {
        let label = format!("tile {:?} x{}", ty.weights, ty.multiplicity());
        let c = if ty.multiplicity() == 1 {
            Constraint::ExactlyOne(lits)
        } else {
            Constraint::Linear(Linear::new(
                lits.into_iter().map(|l| (1, l)).collect(),
                Cmp::Eq,
                ty.multiplicity() as i64,
            ))
        };
        model.add(label, c);
    }
    let mut vertex_rows = Vec::new();
    for (x, inc) in v.incidence().iter().enumerate() {
        if crate::budget::compile_stop() {
            return None;
        }
        let mut terms = Vec::new();
        for &(f, i) in inc {
            for (k, &(ty, rot)) in domains[f].iter().enumerate() {
                let w = types[ty].corners(rot)[i];
                if w > 0 {
                    terms.push((w as i64, face_vars[f][k].pos()));
                }
            }
        }
        vertex_rows.push(model.add(
            format!("vertex {}", v.vertices[x]),
            Constraint::Linear(Linear::new(terms, Cmp::Eq, inst.capacities[x] as i64)),
        ));
    }
    // Implied: every weight lands at exactly one vertex, so the vertex sums add up to the
    // tiles' total weight. Built from the vertex sums, it lets propagation refute a
    // capacity total that differs from the weight total at once (the "4-unsat" batch).
    model.add(
        "global sum",
        Constraint::SumOf {
            parts: vertex_rows.clone(),
            cmp: Cmp::Eq,
            rhs: inst.total_weight() as i64,
        },
    );
    Some(Compiled {
        types,
        model,
        face_vars,
        vertex_rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Variant;

    fn octahedron(names: &[&str]) -> Instance {
        // The built-in octahedron's faces over these names.
        let builtin = crate::input::variant_file::load_variant("octahedron", None, ("test", None)).unwrap();
        let faces: Vec<Vec<String>> = builtin
            .faces
            .iter()
            .map(|f| f.iter().map(|&v: &usize| names[v].to_string()).collect())
            .collect();
        let variant = Variant::new("oct", names.iter().map(|n| n.to_string()).collect(), &faces).unwrap();
        Instance {
            source: "test".into(),
            variant,
            capacities: vec![0; 6],
            tiles: vec![
                [0, 1, 2],
                [0, 1, 2],
                [1, 1, 1],
                [0, 0, 3],
                [10, 2, 0],
                [0, 0, 0],
                [1, 2, 3],
                [2, 2, 2],
            ],
            fixed: Vec::new(),
        }
    }

    fn names(inst: &Instance) -> Vec<String> {
        compile_plain(inst).model.names()
    }

    #[test]
    fn one_character_names_keep_the_short_form() {
        let n = names(&octahedron(&["A", "B", "C", "D", "E", "F"]));
        assert!(n.contains(&"p_ACB_012_r1".to_string()), "{n:?}");
        assert!(n.contains(&"p_ACB_0_10_2_r0".to_string()), "{n:?}");
    }

    #[test]
    fn names_are_distinct_and_plain_ascii_whatever_the_vertex_names() {
        let long = "Ä".repeat(64);
        for vs in [
            ["x_y", "z", "x", "y_z", "w", "v"],
            ["x", "x_", "_x", "x__", "__x", "_"],
            ["Ä", "A", "U00C4", "ä", "中", "ω"],
            [long.as_str(), "a", "b", "c", "d", "e"],
        ] {
            let n = names(&octahedron(&vs));
            let distinct: std::collections::HashSet<&String> = n.iter().collect();
            assert_eq!(distinct.len(), n.len(), "{vs:?}: {n:?}");
            for name in &n {
                assert!(
                    name.len() <= crate::export::MAX_NAME_LEN
                        && name.starts_with("p_f")
                        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                    "{name}"
                );
            }
            crate::export::check_names(&n).unwrap();
        }
    }
}
