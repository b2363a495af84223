//! Tile pools (Liu, Löffler & Hofstedt's all-different triangular solutions, seeds 001/003):
//! what a pool instance and its answer are, independent of files and solvers. The pool
//! front-end (`crate::pool`) compiles them.

use super::Variant;
use super::tiles::{Tile, canonical};

/// The 24 tile types over weights 0..3, each canonical (smallest rotation), ascending.
pub fn all_types() -> Vec<Tile> {
    let mut out = Vec::new();
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                let t = [a, b, c];
                if canonical(t) == t {
                    out.push(t);
                }
            }
        }
    }
    out
}

#[derive(Debug, Clone)]
pub enum Pegs {
    Fixed(Vec<u64>),
    /// Any arrangement of this multiset.
    Free(Vec<u64>),
}

/// A tile type of a pool (canonical rotation) and how many faces may take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolType {
    pub tile: Tile,
    pub min: u32,
    pub max: u32,
}

impl PoolType {
    /// A type usable at most once (Liu's pools).
    pub fn once(tile: Tile) -> PoolType {
        PoolType { tile, min: 0, max: 1 }
    }
}

#[derive(Debug, Clone)]
pub struct PoolInstance {
    /// Where it came from: a file name, or a description.
    pub source: String,
    pub variant: Variant,
    pub pool: Vec<PoolType>,
    pub pegs: Pegs,
}

/// A decoded answer: per face (pool type index, rotation, corners), and the pegs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PoolSolution {
    pub faces: Vec<(usize, u8, Tile)>,
    pub pegs: Vec<u64>,
}
