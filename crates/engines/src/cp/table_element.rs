//! `W = table[P]` for a table of constants: an element constraint whose explanations name
//! only the values of `P` that matter.
//!
//! pumpkin 0.5.0's `element` explains a bound of `W` by every value `P` has lost, also those
//! whose table entry is on the allowed side of the bound. The nogoods learnt from such
//! explanations name placements that play no part in a conflict, so they rarely apply again.
//! Here `[W >= v]` is explained by `[P != k]` for exactly the `k` with `table[k] < v` (the
//! weakest reason there is, given only `P`'s domain), and a value `k` of `P` is removed
//! because of the one bound or hole of `W` that excludes `table[k]`. Every reason is lazy
//! (built only when conflict analysis asks), and propagation walks the table's few distinct
//! entries (a corner's weights 0..3) instead of every value of `P`.

use pumpkin_core::predicate;
use pumpkin_core::predicates::Predicate;
use pumpkin_core::proof::{ConstraintTag, InferenceCode, InferenceLabel};
use pumpkin_core::propagation::{
    DomainEvents, EventsToRegister, ExplanationContext, LazyExplanation, LocalId, Priority, PropagationContext,
    Propagator, PropagatorConstructor, PropagatorConstructorContext, PropagatorSpec, ReadDomains, RuntimeCheckers,
};
use pumpkin_core::state::PropagationStatusCP;
use pumpkin_core::variables::DomainId;

/// The label of this propagator's inferences (what pumpkin's proof log would name).
#[derive(Clone, Copy, Debug)]
struct TableElement;

impl InferenceLabel for TableElement {
    fn to_str(&self) -> std::sync::Arc<str> {
        std::sync::Arc::from("table_element")
    }
}

/// Posts `rhs = table[index]`; `index` must range within the table.
#[derive(Clone, Debug)]
pub(super) struct TableElementArgs {
    pub index: DomainId,
    pub table: Box<[i32]>,
    pub rhs: DomainId,
    pub tag: ConstraintTag,
    /// Also remove from `rhs` the entries between its bounds that no value of `index` has
    /// left. A weight in a linear row needs only its bounds; a label counted by
    /// [`super::counts`] needs its holes ("this face can no longer take this type").
    pub holes: bool,
}

impl PropagatorConstructor for TableElementArgs {
    type PropagatorImpl = TableElementPropagator;

    fn create(self, _: PropagatorConstructorContext) -> PropagatorSpec<Self::PropagatorImpl> {
        let registration = EventsToRegister::builder()
            .add(&self.index, DomainEvents::ANY_INT, LocalId::from(0))
            .add(&self.rhs, DomainEvents::ANY_INT, LocalId::from(1))
            .build();
        let entries = by_value(&self.table);
        PropagatorSpec {
            registration,
            // Checkers verify inferences for proof logging, which the cp backend does not do.
            checkers: RuntimeCheckers::empty(),
            propagator: TableElementPropagator {
                index: self.index,
                support: vec![0; entries.len()].into_boxed_slice(),
                by_value: entries,
                table: self.table,
                rhs: self.rhs,
                holes: self.holes,
                code: InferenceCode::new(self.tag, TableElement),
                buffer: Vec::new(),
            },
        }
    }
}

#[derive(Clone, Debug)]
pub(super) struct TableElementPropagator {
    index: DomainId,
    rhs: DomainId,
    /// The table's distinct entries in increasing order, each with the indices that hold it:
    /// propagation looks at the entries (a few weights) instead of every value of `index`.
    by_value: Box<[(i32, Box<[i32]>)]>,
    /// Per entry, where in its indices one was last found possible.
    support: Box<[u32]>,
    table: Box<[i32]>,
    holes: bool,
    code: InferenceCode,
    /// The last lazy explanation.
    buffer: Vec<Predicate>,
}

fn by_value(table: &[i32]) -> Box<[(i32, Box<[i32]>)]> {
    let mut entries: Vec<i32> = table.to_vec();
    entries.sort_unstable();
    entries.dedup();
    entries
        .into_iter()
        .map(|t| {
            let ks: Box<[i32]> = (0..super::ints::int(table.len()))
                .filter(|&k| table[super::ints::at(k)] == t)
                .collect();
            (t, ks)
        })
        .collect()
}

/// What a lazy reason explains: a bound of `rhs` from `index`'s values, or a value of `index`
/// removed because of one bound or hole of `rhs` (no reason is built while propagating: most
/// are never asked for).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Why {
    /// `[rhs >= v]`: the values `k` with `table[k] < v` are gone.
    Lower(i32),
    /// `[rhs <= v]`: the values `k` with `table[k] > v` are gone.
    Upper(i32),
    /// `[index != k]` for a `k` with `table[k] = t`, because `[rhs >= t + 1]`.
    AboveEntry(i32),
    /// ... because `[rhs <= t - 1]`.
    BelowEntry(i32),
    /// ... because `[rhs != t]`.
    NotEntry(i32),
    /// `[rhs != t]`: the values `k` with `table[k] = t` are gone.
    Dead(i32),
}

fn encode(why: Why) -> u64 {
    let (kind, value) = match why {
        Why::Lower(v) => (0, v),
        Why::Upper(v) => (1, v),
        Why::AboveEntry(t) => (2, t),
        Why::BelowEntry(t) => (3, t),
        Why::NotEntry(t) => (4, t),
        Why::Dead(t) => (5, t),
    };
    // The value's 32 bits, as they are (a negative value too); `decode` reads them back.
    (u64::from(value.cast_unsigned()) << 3) | kind
}

fn decode(code: u64) -> Why {
    let value = u32::try_from(code >> 3).expect("encode stores 32 bits").cast_signed();
    match code & 7 {
        0 => Why::Lower(value),
        1 => Why::Upper(value),
        2 => Why::AboveEntry(value),
        3 => Why::BelowEntry(value),
        4 => Why::NotEntry(value),
        _ => Why::Dead(value),
    }
}

impl TableElementPropagator {
    /// Whether some index with entry number `e` is still possible. The one found last is
    /// looked at first (a residual support): it usually still is, and a domain lookup is a
    /// hash lookup in pumpkin 0.5.0.
    fn live(&mut self, context: &PropagationContext, e: usize) -> bool {
        let ks = &self.by_value[e].1;
        let s = self.support[e] as usize;
        if context.contains(&self.index, ks[s]) {
            return true;
        }
        match ks.iter().position(|&k| context.contains(&self.index, k)) {
            Some(j) => {
                self.support[e] = u32::try_from(j).expect("an index of the table, fewer than 2^31");
                true
            }
            None => false,
        }
    }
}

impl TableElementPropagator {
    /// For a label (`holes`), whose values name rows, not amounts: only `[rhs != t]` and
    /// `[index != k]` are inferred, never a bound (`rhs` must have exactly the table's
    /// entries as its domain). A bound of a label, `[L >= 5]`, would say "one of the rows
    /// numbered 5 and up", and nogoods learnt through it mix rows that have nothing in common.
    fn propagate_holes(&mut self, mut context: PropagationContext) -> PropagationStatusCP {
        let index = self.index;
        for e in 0..self.by_value.len() {
            let t = self.by_value[e].0;
            if context.contains(&self.rhs, t) {
                if !self.live(&context, e) {
                    context.post(predicate![self.rhs != t], encode(Why::Dead(t)))?;
                }
                continue;
            }
            for &k in self.by_value[e].1.iter() {
                if context.contains(&index, k) {
                    context.post(predicate![index != k], encode(Why::NotEntry(t)))?;
                }
            }
        }
        Ok(())
    }
}

impl Propagator for TableElementPropagator {
    fn name(&self) -> &str {
        "TableElement"
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    fn propagate_from_scratch(&self, context: PropagationContext) -> PropagationStatusCP {
        self.clone().propagate(context)
    }

    fn propagate(&mut self, mut context: PropagationContext) -> PropagationStatusCP {
        let index = self.index;
        if self.holes {
            return self.propagate_holes(context);
        }
        // A placed index (every decision makes one) fixes `rhs` to its entry; nothing else
        // is left to remove.
        if let Some(k) = context.fixed_value(&index) {
            let t = self.table[super::ints::at(k)];
            context.post(predicate![self.rhs >= t], encode(Why::Lower(t)))?;
            context.post(predicate![self.rhs <= t], encode(Why::Upper(t)))?;
            return Ok(());
        }
        // The bounds of `rhs`: the smallest and the largest entry some value of `index` still
        // has; the reasons are computed when conflict analysis asks (most are never needed).
        let n = self.by_value.len();
        let Some(first) = (0..n).find(|&e| self.live(&context, e)) else {
            return Ok(());
        };
        let last = (first..n).rev().find(|&e| self.live(&context, e)).unwrap_or(first);
        let (lo, hi) = (self.by_value[first].0, self.by_value[last].0);
        context.post(predicate![self.rhs >= lo], encode(Why::Lower(lo)))?;
        context.post(predicate![self.rhs <= hi], encode(Why::Upper(hi)))?;
        if self.holes {
            for e in first + 1..last {
                let t = self.by_value[e].0;
                if context.contains(&self.rhs, t) && !self.live(&context, e) {
                    context.post(predicate![self.rhs != t], encode(Why::Dead(t)))?;
                }
            }
        }
        // The values of `index` whose entry `rhs` no longer allows, each for the one bound or
        // hole that excludes it.
        let (rlo, rhi) = (context.lower_bound(&self.rhs), context.upper_bound(&self.rhs));
        for (t, ks) in self.by_value.iter() {
            let t = *t;
            let why = if t < rlo {
                Why::AboveEntry(t)
            } else if t > rhi {
                Why::BelowEntry(t)
            } else if !context.contains(&self.rhs, t) {
                Why::NotEntry(t)
            } else {
                continue;
            };
            for &k in ks.iter() {
                if context.contains(&index, k) {
                    context.post(predicate![index != k], encode(why))?;
                }
            }
        }
        Ok(())
    }

    fn lazy_explanation(&mut self, code: u64, _: ExplanationContext) -> LazyExplanation<'_> {
        let (index, rhs) = (self.index, self.rhs);
        self.buffer.clear();
        match decode(code) {
            Why::Lower(v) => self.buffer.extend(
                self.by_value
                    .iter()
                    .take_while(|(t, _)| *t < v)
                    .flat_map(|(_, ks)| ks.iter().map(move |&k| predicate![index != k])),
            ),
            Why::Upper(v) => self.buffer.extend(
                self.by_value
                    .iter()
                    .rev()
                    .take_while(|(t, _)| *t > v)
                    .flat_map(|(_, ks)| ks.iter().map(move |&k| predicate![index != k])),
            ),
            Why::AboveEntry(t) => self.buffer.push(predicate![rhs >= t + 1]),
            Why::BelowEntry(t) => self.buffer.push(predicate![rhs <= t - 1]),
            Why::NotEntry(t) => self.buffer.push(predicate![rhs != t]),
            Why::Dead(t) => {
                if let Ok(i) = self.by_value.binary_search_by_key(&t, |e| e.0) {
                    self.buffer
                        .extend(self.by_value[i].1.iter().map(|&k| predicate![index != k]));
                }
            }
        }
        LazyExplanation {
            predicates: &self.buffer,
            inference_code: self.code.clone(),
        }
    }
}
