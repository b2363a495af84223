//! One capacity arrangement per symmetry orbit, by orderly generation.
//!
//! An arrangement puts the capacity multiset on the vertices. We describe it the other way
//! round: for each value class (equal capacities, ascending), the set of vertices holding
//! it. The canonical arrangement of an orbit is the one whose sequence of classes, each
//! class as a sorted vertex list, is lexicographically smallest among its images under the
//! group. Generation fills classes in order and stops a branch as soon as some group element
//! maps the completed classes to something smaller, so every leaf is canonical and no orbit
//! is produced twice. Symmetries that map the completed classes onto themselves stay
//! "alive" for the next class; the others can no longer win.

use super::symmetry::Perm;

/// The canonical arrangements of `multiset` (capacities, any order) on `n` vertices under
/// `group`, in generation order. `f` gets each as a capacity vector (vertex order) and
/// returns false to stop early.
pub fn for_each_canonical(n: usize, multiset: &[u64], group: &[Perm], f: &mut dyn FnMut(&[u64]) -> bool) {
    assert_eq!(multiset.len(), n, "one capacity per vertex");
    let mut values: Vec<u64> = multiset.to_vec();
    values.sort_unstable();
    let mut classes: Vec<(u64, usize)> = Vec::new();
    for v in values {
        match classes.last_mut() {
            Some((x, c)) if *x == v => *c += 1,
            _ => classes.push((v, 1)),
        }
    }
    let mut g = Gen {
        n,
        classes,
        group,
        caps: vec![0; n],
        used: vec![false; n],
        chosen: Vec::new(),
        stop: false,
    };
    let alive: Vec<usize> = (1..group.len()).collect();
    g.class(0, &alive, f);
}

struct Gen<'a> {
    n: usize,
    classes: Vec<(u64, usize)>,
    group: &'a [Perm],
    caps: Vec<u64>,
    used: Vec<bool>,
    /// Vertices of the current class chosen so far (ascending).
    chosen: Vec<usize>,
    stop: bool,
}

impl Gen<'_> {
    fn class(&mut self, k: usize, alive: &[usize], f: &mut dyn FnMut(&[u64]) -> bool) {
        if self.stop {
            return;
        }
        if k == self.classes.len() {
            if !f(&self.caps) {
                self.stop = true;
            }
            return;
        }
        self.chosen.clear();
        self.members(k, 0, alive, f);
    }

    /// Chooses the remaining members of class `k`, ascending, starting at vertex `from`.
    fn members(&mut self, k: usize, from: usize, alive: &[usize], f: &mut dyn FnMut(&[u64]) -> bool) {
        let (value, size) = self.classes[k];
        if self.chosen.len() == size {
            // Compare the class's image under each alive symmetry with the class itself.
            let mut next = Vec::with_capacity(alive.len());
            let mut image = Vec::with_capacity(size);
            for &gi in alive {
                image.clear();
                image.extend(self.chosen.iter().map(|&v| self.group[gi][v]));
                image.sort_unstable();
                match image.as_slice().cmp(self.chosen.as_slice()) {
                    std::cmp::Ordering::Less => return, // not canonical
                    std::cmp::Ordering::Equal => next.push(gi),
                    std::cmp::Ordering::Greater => {}
                }
            }
            let saved = std::mem::take(&mut self.chosen);
            self.class(k + 1, &next, f);
            self.chosen = saved;
            return;
        }
        // Leave room for the rest of the class.
        let need = size - self.chosen.len();
        for v in from..self.n {
            if self.stop {
                return;
            }
            if self.used[v] {
                continue;
            }
            if (v..self.n).filter(|&u| !self.used[u]).count() < need {
                break;
            }
            self.used[v] = true;
            self.caps[v] = value;
            self.chosen.push(v);
            self.members(k, v + 1, alive, f);
            self.chosen.pop();
            self.used[v] = false;
        }
    }
}

/// The number of orbits without listing them.
pub fn count(n: usize, multiset: &[u64], group: &[Perm]) -> u64 {
    let mut c = 0u64;
    for_each_canonical(n, multiset, group, &mut |_| {
        c += 1;
        true
    });
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::variant_file::load_variant;
    use crate::sweep::symmetry::automorphisms;

    #[test]
    fn icosoku_has_the_seeds_3991680_orbits() {
        let v = load_variant("icosahedron", None, ("test", None)).unwrap();
        let g = automorphisms(&v, true);
        let caps: Vec<u64> = (1..=12).collect();
        assert_eq!(count(12, &caps, &g), 3_991_680);
    }
}
