//! All-different triangular solutions (Liu, Löffler & Hofstedt; seeds 001/003), as a
//! generalised 3SoKu front-end: tiles come from a *pool* (each type at most `max` times,
//! possibly unused) and the pegs are either given or *free* (any permutation of a multiset).
//!
//! For Liu's question the pool is all 24 types of corner triples over 0..3 up to rotation,
//! each at most once, and the pegs are 1..12, so every face gets a different type.
//!
//! Model: one variable per (face, pool type, distinct rotation), exactly one per face, at most
//! `max` per type. With free pegs, one-hot peg variables per vertex (exactly one peg per
//! vertex, each peg value as often as the multiset has it), and each vertex row
//! `sum(weights) - sum(peg value * peg variable) = 0`.

mod puzzle;
pub mod verify;

use std::fmt;

use crate::ir::{Cmp, Constraint, Linear, Model, Var};
pub use crate::model::pool::{Pegs, PoolInstance, PoolSolution, PoolType, all_types};
use crate::model::tiles::{Tile, rotate};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    Place { face: usize, ty: usize, rot: u8 },
    Peg { vertex: usize, value: u64 },
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Place { face, ty, rot } => write!(f, "p_f{}_t{}_r{}", face + 1, ty + 1, rot),
            Key::Peg { vertex, value } => write!(f, "peg_v{}_{}", vertex + 1, value),
        }
    }
}

impl PoolInstance {
    /// Liu's question: every one of the 24 types at most once on the icosahedron.
    pub fn liu(pegs: Pegs) -> PoolInstance {
        let variant = crate::input::variant_file::load_variant("icosahedron", None, ("built-in", None))
            .expect("the built-in icosahedron loads");
        PoolInstance {
            source: "Liu's all-different question (built in)".to_string(),
            variant,
            pool: all_types().into_iter().map(PoolType::once).collect(),
            pegs,
        }
    }

    /// The pseudo-Boolean model: a type and a turn per face, a value per free peg.
    pub fn compile(&self) -> Model<Key> {
        self.compile_with_rows().0
    }

    /// The model and the index of each vertex's sum row (for reuse with new fixed pegs).
    pub fn compile_with_rows(&self) -> (Model<Key>, Vec<usize>) {
        let v = &self.variant;
        let mut m = Model::new();
        let rotations = |t: Tile| -> Vec<u8> {
            let mut rs: Vec<u8> = Vec::new();
            for r in 0..3u8 {
                if !rs.iter().any(|&q| rotate(t, q) == rotate(t, r)) {
                    rs.push(r);
                }
            }
            rs
        };
        let mut face_vars: Vec<Vec<(Var, Tile)>> = Vec::new();
        for f in 0..v.num_faces() {
            let mut vars = Vec::new();
            for (ty, pt) in self.pool.iter().enumerate() {
                let t = pt.tile;
                for rot in rotations(t) {
                    vars.push((m.var(Key::Place { face: f, ty, rot }), rotate(t, rot)));
                }
            }
            m.add(
                format!("face {}", v.face_label(f)),
                Constraint::ExactlyOne(vars.iter().map(|(x, _)| x.pos()).collect()),
            );
            face_vars.push(vars);
        }
        for (ty, &PoolType { tile: t, min, max }) in self.pool.iter().enumerate() {
            let lits: Vec<_> = m
                .pool
                .iter()
                .filter(|(_, k)| matches!(k, Key::Place { ty: u, .. } if *u == ty))
                .map(|(x, _)| x.pos())
                .collect();
            let count = |cmp, rhs: u32| {
                Constraint::Linear(Linear::new(lits.iter().map(|&l| (1, l)).collect(), cmp, rhs as i64))
            };
            if min == max {
                m.add(format!("type {t:?} exactly {max}"), count(Cmp::Eq, max));
                continue;
            }
            if max == 1 {
                m.add(format!("type {t:?} at most 1"), Constraint::AtMostOne(lits.clone()));
            } else if (max as usize) < lits.len() {
                m.add(format!("type {t:?} at most {max}"), count(Cmp::Le, max));
            }
            if min > 0 {
                m.add(format!("type {t:?} at least {min}"), count(Cmp::Ge, min));
            }
        }
        let incidence = v.incidence();
        let mut peg_vars: Vec<Vec<(Var, u64)>> = vec![Vec::new(); v.num_vertices()];
        if let Pegs::Free(ms) = &self.pegs {
            let mut values = ms.clone();
            values.sort_unstable();
            values.dedup();
            for (x, pv) in peg_vars.iter_mut().enumerate() {
                for &value in &values {
                    pv.push((m.var(Key::Peg { vertex: x, value }), value));
                }
                m.add(
                    format!("vertex {} has one peg", v.vertices[x]),
                    Constraint::ExactlyOne(pv.iter().map(|(z, _)| z.pos()).collect()),
                );
            }
            for &value in &values {
                let count = ms.iter().filter(|&&q| q == value).count() as i64;
                let lits: Vec<_> = peg_vars
                    .iter()
                    .flat_map(|pv| pv.iter().filter(|(_, q)| *q == value).map(|(z, _)| (1, z.pos())))
                    .collect();
                m.add(
                    format!("peg {value} used {count} times"),
                    Constraint::Linear(Linear::new(lits, Cmp::Eq, count)),
                );
            }
        }
        let mut rows = Vec::new();
        for (x, inc) in incidence.iter().enumerate() {
            let mut terms = Vec::new();
            for &(f, i) in inc {
                for &(var, corners) in &face_vars[f] {
                    if corners[i] > 0 {
                        terms.push((corners[i] as i64, var.pos()));
                    }
                }
            }
            let rhs = match &self.pegs {
                Pegs::Fixed(caps) => caps[x] as i64,
                Pegs::Free(_) => {
                    for &(z, value) in &peg_vars[x] {
                        terms.push((-(value as i64), z.pos()));
                    }
                    0
                }
            };
            rows.push(m.add(
                format!("vertex {}", v.vertices[x]),
                Constraint::Linear(Linear::new(terms, Cmp::Eq, rhs)),
            ));
        }
        (m, rows)
    }

    /// The solution an assignment of [`PoolInstance::compile`]'s model stands for.
    pub fn decode(&self, m: &Model<Key>, a: &[bool]) -> PoolSolution {
        let v = &self.variant;
        let mut faces = vec![(usize::MAX, 0u8, [0u64; 3]); v.num_faces()];
        let mut pegs = match &self.pegs {
            Pegs::Fixed(c) => c.clone(),
            Pegs::Free(_) => vec![0; v.num_vertices()],
        };
        for (var, k) in m.pool.iter() {
            if !a.get(var.index()).copied().unwrap_or(false) {
                continue;
            }
            match *k {
                Key::Place { face, ty, rot } => faces[face] = (ty, rot, rotate(self.pool[ty].tile, rot)),
                Key::Peg { vertex, value } => pegs[vertex] = value,
            }
        }
        PoolSolution { faces, pegs }
    }
}
