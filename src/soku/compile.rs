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
            if let crate::ir::Constraint::Linear(l) = &mut self.model.formula.constraints[ci].1 {
                l.rhs = c as i64;
            }
        }
    }
}

/// A readable, export-safe name: `p_ABC_012_r1` (face, type weights, rotation). Only
/// letters, digits, '_' and '.' are used, which every format sokuc writes accepts.
fn place_name(face: &str, ty: &TileType, rot: u8) -> String {
    let w = if ty.weights.iter().all(|&x| x < 10) {
        ty.weights.iter().map(|x| x.to_string()).collect::<String>()
    } else {
        ty.weights.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(".")
    };
    format!("p_{face}_{w}_r{rot}")
}

/// Presolves and compiles; `Err` carries the presolve's unsatisfiability argument.
pub fn compile(inst: &Instance) -> Result<Compiled, String> {
    let types = inst.types();
    let domains: Domains = match presolve(inst, &types) {
        Presolved::Open(d) => d,
        Presolved::Unsat(reason) => return Err(reason),
    };
    Ok(build(inst, types, &domains))
}

/// Compiles without presolve: only fixed placements restrict faces. The model may be
/// unsatisfiable in ways presolve would have reported.
pub fn compile_plain(inst: &Instance) -> Compiled {
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

fn build(inst: &Instance, types: Vec<TileType>, domains: &Domains) -> Compiled {
    let v = &inst.variant;
    let mut model: Model<Place> = Model::new();
    let mut face_vars = Vec::with_capacity(v.num_faces());
    for (f, dom) in domains.iter().enumerate() {
        let label = v.face_label(f);
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
    for (t, ty) in types.iter().enumerate() {
        let lits: Vec<_> = model
            .pool
            .iter()
            .filter(|(_, p)| p.ty == t)
            .map(|(x, _)| x.pos())
            .collect();
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
    Compiled {
        types,
        model,
        face_vars,
        vertex_rows,
    }
}
