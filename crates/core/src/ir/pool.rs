use std::fmt::Display;
use std::hash::Hash;

use super::formula::{Constraint, PbFormula};
use super::hash::FastMap;
use super::lit::Var;

/// One variable pool that maps both ways: front-end object -> variable (to build
/// constraints) and variable -> object (to decode answers and name variables in exports).
/// All primary variables of a model come from here, so IDs cannot clash.
#[derive(Debug, Clone)]
pub struct VarPool<K> {
    keys: Vec<K>,
    index: FastMap<K, Var>,
}

impl<K: Clone + Eq + Hash + Display> VarPool<K> {
    pub fn new() -> Self {
        VarPool {
            keys: Vec::new(),
            index: FastMap::default(),
        }
    }

    /// The variable of `key`, created on first use.
    pub fn var(&mut self, key: K) -> Var {
        if let Some(&v) = self.index.get(&key) {
            return v;
        }
        let v = Var(self.keys.len() as u32);
        self.keys.push(key.clone());
        self.index.insert(key, v);
        v
    }

    /// The variable of `key`, if it exists.
    pub fn get(&self, key: &K) -> Option<Var> {
        self.index.get(key).copied()
    }

    /// The object behind a variable.
    pub fn key(&self, var: Var) -> &K {
        &self.keys[var.index()]
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    // With `len`, for the tests' view (clippy's `len_without_is_empty` on a public type).
    #[cfg(feature = "testing")]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (Var, &K)> {
        self.keys.iter().enumerate().map(|(i, k)| (Var(i as u32), k))
    }
}

impl<K: Clone + Eq + Hash + Display> Default for VarPool<K> {
    fn default() -> Self {
        Self::new()
    }
}

/// A front-end's compiled model: its pool and the formula over the pool's variables.
#[derive(Debug, Clone)]
pub struct Model<K> {
    pub pool: VarPool<K>,
    pub formula: PbFormula,
}

impl<K: Clone + Eq + Hash + Display> Model<K> {
    pub fn new() -> Self {
        Model {
            pool: VarPool::new(),
            formula: PbFormula::default(),
        }
    }

    pub fn var(&mut self, key: K) -> Var {
        let v = self.pool.var(key);
        self.formula.num_vars = self.pool.len() as u32;
        v
    }

    /// Adds a constraint; returns its index.
    pub fn add(&mut self, label: impl Into<String>, c: Constraint) -> usize {
        self.formula.add(label, c)
    }

    /// Variable names in index order, for exporters.
    pub fn names(&self) -> Vec<String> {
        self.pool.iter().map(|(_, k)| k.to_string()).collect()
    }
}

impl<K: Clone + Eq + Hash + Display> Default for Model<K> {
    fn default() -> Self {
        Self::new()
    }
}
