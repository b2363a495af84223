//! Counting rows over labels: "between `lo` and `hi` of these groups take label `r`", one
//! propagator for a whole family of disjoint cardinality rows.
//!
//! For 3SoKu these are the tile-type rows ("type t is on exactly one face"). Posted as linear
//! rows they need one 0/1 indicator integer per face and type, each with its own element
//! propagator woken by every change of the face's placement: about 15 per face against the 3
//! of its vertex rows, so most of the model's propagators, of its posting time and of the cost
//! of a search step. Here each group gets one label integer `L = label[P]` (through the table
//! element, with holes), and this propagator keeps every label's count within its bounds.
//! Its inferences are those of the linear rows over indicators (a full label leaves every
//! other group; a label with exactly `lo` possible groups fixes them), with reasons over the
//! labels.

use std::collections::HashMap;

use pumpkin_core::predicate;
use pumpkin_core::predicates::{Predicate, PropositionalConjunction};
use pumpkin_core::proof::{ConstraintTag, InferenceCode, InferenceLabel};
use pumpkin_core::propagation::{
    DomainEvents, EventsToRegister, LocalId, PropagationContext, Propagator, PropagatorConstructor,
    PropagatorConstructorContext, PropagatorSpec, ReadDomains, RuntimeCheckers,
};
use pumpkin_core::state::{PropagationStatusCP, propagator_conflict};
use pumpkin_core::variables::DomainId;

use crate::ir::{Cmp, Constraint, Lit, PbFormula};

#[derive(Clone, Copy, Debug)]
struct LabelCount;

impl InferenceLabel for LabelCount {
    fn to_str(&self) -> std::sync::Arc<str> {
        std::sync::Arc::from("label_count")
    }
}

/// One label's row: at least `lo` and at most `hi` of the groups in `scope` (indices into the
/// label integers) take it. `lo <= hi`, and `lo` is at most the scope's size.
#[derive(Clone, Debug)]
pub(super) struct Count {
    pub lo: usize,
    pub hi: usize,
    pub scope: Box<[u32]>,
}

/// Posts the counts `counts[r]` of label `r` over the label integers `labels`.
#[derive(Clone, Debug)]
pub(super) struct LabelCountArgs {
    pub labels: Box<[DomainId]>,
    /// `open[g]`: group `g` has a value in no counted row (label `counts.len()`).
    pub open: Box<[bool]>,
    pub counts: Box<[Count]>,
    /// Also look for a Hall set: more open groups than the labels they can still take have
    /// room for (a conflict the counts alone find only once those groups are placed).
    pub hall: bool,
    pub tag: ConstraintTag,
}

impl PropagatorConstructor for LabelCountArgs {
    type PropagatorImpl = LabelCountPropagator;

    fn create(self, _: PropagatorConstructorContext) -> PropagatorSpec<Self::PropagatorImpl> {
        let mut registration = EventsToRegister::builder();
        for (i, x) in self.labels.iter().enumerate() {
            registration = registration.add(
                x,
                DomainEvents::ANY_INT,
                LocalId::from(u32::try_from(i).expect("one label integer per group, fewer than 2^31")),
            );
        }
        PropagatorSpec {
            registration: registration.build(),
            // Checkers verify inferences for proof logging, which the cp backend does not do.
            checkers: RuntimeCheckers::empty(),
            propagator: LabelCountPropagator {
                of_group: of_group(self.labels.len(), &self.counts),
                labels: self.labels,
                open: self.open,
                hall: self.hall,
                counts: self.counts,
                code: InferenceCode::new(self.tag, LabelCount),
            },
        }
    }
}

#[derive(Clone, Debug)]
pub(super) struct LabelCountPropagator {
    labels: Box<[DomainId]>,
    open: Box<[bool]>,
    counts: Box<[Count]>,
    /// Each group's counted labels (the rows whose scope it is in).
    of_group: Box<[Box<[i32]>]>,
    hall: bool,
    code: InferenceCode,
}

fn of_group(groups: usize, counts: &[Count]) -> Box<[Box<[i32]>]> {
    let mut of: Vec<Vec<i32>> = vec![Vec::new(); groups];
    for (r, c) in counts.iter().enumerate() {
        for &g in c.scope.iter() {
            of[g as usize].push(super::ints::int(r));
        }
    }
    of.into_iter().map(Vec::into_boxed_slice).collect()
}

/// Kuhn's augmenting path search for group `g` (in the graph of the labels its domain still
/// has, each with `room` places): true when `g` gets a label, moving others along a path.
/// `seen_group` and `seen_label` keep what the search visited: on failure, a Hall set.
fn augment(
    g: usize,
    p: &LabelCountPropagator,
    context: &PropagationContext,
    room: &[usize],
    holders: &mut [Vec<usize>],
    seen_group: &mut [bool],
    seen_label: &mut [bool],
) -> bool {
    seen_group[g] = true;
    let x = p.labels[g];
    for &r in p.of_group[g].iter() {
        if seen_label[super::ints::at(r)] || !context.contains(&x, r) {
            continue;
        }
        seen_label[super::ints::at(r)] = true;
        if holders[super::ints::at(r)].len() < room[super::ints::at(r)] {
            holders[super::ints::at(r)].push(g);
            return true;
        }
        for i in 0..holders[super::ints::at(r)].len() {
            let h = holders[super::ints::at(r)][i];
            if !seen_group[h] && augment(h, p, context, room, holders, seen_group, seen_label) {
                holders[super::ints::at(r)][i] = g;
                return true;
            }
        }
    }
    false
}

impl LabelCountPropagator {
    /// Matches every unfixed group without a free value to a label with room left (`hi`
    /// minus the groups fixed to it, `taken`). A group that cannot be matched has a Hall set:
    /// the groups its search visited can take only the labels it visited (the others are gone
    /// from their domains), and those labels are full. That is a conflict, whose reason is
    /// those gone labels and the fixed groups that fill the visited ones.
    fn hall_set(&self, context: &PropagationContext, taken: &[Vec<Predicate>]) -> PropagationStatusCP {
        let none = super::ints::int(self.counts.len());
        let n = self.labels.len();
        let room: Vec<usize> = self
            .counts
            .iter()
            .zip(taken)
            .map(|(c, t)| c.hi.saturating_sub(t.len()))
            .collect();
        let mut holders: Vec<Vec<usize>> = vec![Vec::new(); self.counts.len()];
        let mut seen_group = vec![false; n];
        let mut seen_label = vec![false; self.counts.len()];
        for g in 0..n {
            let x = self.labels[g];
            if context.is_fixed(&x) || (self.open[g] && context.contains(&x, none)) {
                continue;
            }
            seen_group.iter_mut().for_each(|s| *s = false);
            seen_label.iter_mut().for_each(|s| *s = false);
            if augment(g, self, context, &room, &mut holders, &mut seen_group, &mut seen_label) {
                continue;
            }
            let mut reason: Vec<Predicate> = Vec::new();
            for h in (0..n).filter(|&h| seen_group[h]) {
                let y = self.labels[h];
                for &r in self.of_group[h].iter() {
                    if !seen_label[super::ints::at(r)] {
                        reason.push(predicate![y != r]);
                    }
                }
                if self.open[h] {
                    reason.push(predicate![y != none]);
                }
            }
            for r in (0..self.counts.len()).filter(|&r| seen_label[r]) {
                reason.extend(taken[r].iter().take(self.counts[r].hi).copied());
            }
            return propagator_conflict(PropositionalConjunction::new(reason), &self.code);
        }
        Ok(())
    }
}

impl Propagator for LabelCountPropagator {
    fn name(&self) -> &str {
        "LabelCount"
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        // A few dozen labels over a few dozen groups: every call looks at all of them (the
        // work is far below that of the element propagators this replaces).
        let mut fixed: Vec<Predicate> = Vec::new();
        // Per label: the groups fixed to it, for the Hall set search below.
        let mut taken: Vec<Vec<Predicate>> = vec![Vec::new(); self.counts.len()];
        for (r, count) in self.counts.iter().enumerate() {
            let r = super::ints::int(r);
            fixed.clear();
            let mut possible = 0;
            for &g in count.scope.iter() {
                let x = self.labels[g as usize];
                if context.contains(&x, r) {
                    possible += 1;
                    if context.fixed_value(&x) == Some(r) {
                        fixed.push(predicate![x == r]);
                    }
                }
            }
            // Full: every other group that could still take `r` loses it, because of the
            // first `hi` groups that have it (one more that has it is a conflict).
            if fixed.len() >= count.hi && possible > count.hi {
                let reason = PropositionalConjunction::new(fixed[..count.hi].to_vec());
                let mut kept = 0;
                for &g in count.scope.iter() {
                    let x = self.labels[g as usize];
                    if !context.contains(&x, r) {
                        continue;
                    }
                    if kept < count.hi && context.fixed_value(&x) == Some(r) {
                        kept += 1;
                        continue;
                    }
                    context.post(predicate![x != r], (reason.clone(), &self.code))?;
                }
            }
            // Short: with at most `lo` groups left that can take `r`, each must, because every
            // other group of the scope has lost it. With fewer than `lo` the first group that
            // lost it must have it after all, for the same reason: a conflict.
            if possible <= count.lo && fixed.len() < count.lo {
                let gone: Vec<Predicate> = count
                    .scope
                    .iter()
                    .map(|&g| self.labels[g as usize])
                    .filter(|x| !context.contains(x, r))
                    .map(|x| predicate![x != r])
                    .collect();
                if possible < count.lo {
                    // `lo` is at most the scope's size, so some group has lost the label.
                    if let Some((first, rest)) = gone.split_first() {
                        let x = first.get_domain();
                        let reason = PropositionalConjunction::new(rest.to_vec());
                        context.post(predicate![x == r], (reason, &self.code))?;
                    }
                    continue;
                }
                let reason = PropositionalConjunction::new(gone);
                for &g in count.scope.iter() {
                    let x = self.labels[g as usize];
                    if context.contains(&x, r) && context.fixed_value(&x) != Some(r) {
                        context.post(predicate![x == r], (reason.clone(), &self.code))?;
                    }
                }
            }
            if self.hall {
                taken[super::ints::at(r)] = fixed.clone();
            }
        }
        if self.hall {
            self.hall_set(&context, &taken)?;
        }
        Ok(())
    }
}

/// The counting rows found in a formula, and each group's labels.
pub(super) struct Labelling {
    /// `rows[i]`: constraint `i` is counted here (and not posted as a row).
    pub rows: Vec<bool>,
    /// For each group that meets a counted row (by the group's number): the label of each of
    /// its values, the counted row's number among `counts` or `counts.len()` for none.
    pub tables: Vec<(usize, Box<[i32]>)>,
    pub counts: Box<[Count]>,
}

/// The cardinality rows of `f` that can be counted over labels: `AtMostOne`, `ExactlyOne` and
/// linear rows with unit coefficients, over positive literals of distinct variables that are
/// all values of groups (`place[v]`: the group of variable `v` and its value there), taken in
/// order as long as they share no variable with one taken before. Rows in `skip` (the groups
/// themselves, rows whose sum an implied row needs) are left out, and so is a row whose
/// bounds no count can meet (the generic path finds that false). `None` when there is none.
pub(super) fn labelling(
    f: &PbFormula,
    skip: &[bool],
    place: &[Option<(usize, i32)>],
    group_len: &[usize],
) -> Option<Labelling> {
    let mut used = vec![false; place.len()];
    let mut rows = vec![false; f.constraints().len()];
    // Groups met so far, in order, and where each is in that list.
    let mut touched: Vec<usize> = Vec::new();
    let mut slot: HashMap<usize, u32> = HashMap::new();
    let mut members: Vec<Vec<(usize, i32)>> = Vec::new();
    let mut counts: Vec<Count> = Vec::new();
    for (i, (_, c)) in f.constraints().iter().enumerate() {
        if skip[i] {
            continue;
        }
        let (lits, lo, hi): (Vec<Lit>, i64, i64) = match c {
            Constraint::AtMostOne(ls) => (ls.clone(), 0, 1),
            Constraint::ExactlyOne(ls) => (ls.clone(), 1, 1),
            Constraint::Linear(l) if l.terms.iter().all(|&(c, _)| c == 1) => {
                let n = i64::try_from(l.terms.len()).expect("a row's terms fit in memory, so in i64");
                let lits = l.terms.iter().map(|&(_, x)| x).collect();
                match l.cmp {
                    Cmp::Eq => (lits, l.rhs, l.rhs),
                    Cmp::Le => (lits, 0, l.rhs),
                    Cmp::Ge => (lits, l.rhs, n),
                }
            }
            _ => continue,
        };
        if lits.is_empty() {
            continue;
        }
        let mut values = Vec::with_capacity(lits.len());
        let mut marked = Vec::with_capacity(lits.len());
        let mut ok = true;
        for &l in &lits {
            let v = l.var().index();
            match place[v] {
                Some(gi) if l.is_positive() && !used[v] => {
                    used[v] = true;
                    marked.push(v);
                    values.push(gi);
                }
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        let mut groups: Vec<usize> = values.iter().map(|&(g, _)| g).collect();
        groups.sort_unstable();
        groups.dedup();
        let lo = lo.max(0);
        let hi = hi.min(i64::try_from(groups.len()).expect("groups fit in memory, so in i64"));
        if !ok || lo > hi {
            for v in marked {
                used[v] = false;
            }
            continue;
        }
        rows[i] = true;
        let scope = groups
            .iter()
            .map(|&g| {
                *slot.entry(g).or_insert_with(|| {
                    touched.push(g);
                    members.push(Vec::new());
                    u32::try_from(touched.len() - 1).expect("one slot per group, fewer than 2^31")
                })
            })
            .collect();
        let label = super::ints::int(counts.len());
        for &(g, value) in &values {
            members[slot[&g] as usize].push((super::ints::at(value), label));
        }
        counts.push(Count {
            // 0 <= lo <= hi <= the number of groups, checked above.
            lo: usize::try_from(lo).expect("lo >= 0"),
            hi: usize::try_from(hi).expect("hi <= the number of groups"),
            scope,
        });
    }
    if counts.is_empty() {
        return None;
    }
    let none = super::ints::int(counts.len());
    let tables = touched
        .iter()
        .zip(members)
        .map(|(&g, ms)| {
            let mut table = vec![none; group_len[g]];
            for (value, label) in ms {
                table[value] = label;
            }
            (g, table.into_boxed_slice())
        })
        .collect();
    Some(Labelling {
        rows,
        tables,
        counts: counts.into_boxed_slice(),
    })
}
