//! `W = table[P]` for a table of constants: an element constraint whose explanations name
//! only the values of `P` that matter.
//!
//! pumpkin 0.5.0's `element` explains a bound of `W` by every value `P` has lost, also those
//! whose table entry is on the allowed side of the bound. The nogoods learnt from such
//! explanations name placements that play no part in a conflict, so they rarely apply again.
//! Here `[W >= v]` is explained by `[P != k]` for exactly the `k` with `table[k] < v` (the
//! weakest reason there is, given only `P`'s domain), and a value `k` of `P` is removed
//! because of the one bound or hole of `W` that excludes `table[k]`.

use pumpkin_solver::core::predicate;
use pumpkin_solver::core::predicates::{Predicate, PropositionalConjunction};
use pumpkin_solver::core::proof::{ConstraintTag, InferenceCode, InferenceLabel};
use pumpkin_solver::core::propagation::{
    DomainEvents, EventsToRegister, ExplanationContext, LazyExplanation, LocalId, Priority, PropagationContext,
    Propagator, PropagatorConstructor, PropagatorConstructorContext, PropagatorSpec, ReadDomains, RuntimeCheckers,
};
use pumpkin_solver::core::state::PropagationStatusCP;
use pumpkin_solver::core::variables::DomainId;

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
}

impl PropagatorConstructor for TableElementArgs {
    type PropagatorImpl = TableElementPropagator;

    fn create(self, _: PropagatorConstructorContext) -> PropagatorSpec<Self::PropagatorImpl> {
        let registration = EventsToRegister::builder()
            .add(&self.index, DomainEvents::ANY_INT, LocalId::from(0))
            .add(&self.rhs, DomainEvents::ANY_INT, LocalId::from(1))
            .build();
        PropagatorSpec {
            registration,
            // Checkers verify inferences for proof logging, which the cp backend does not do.
            checkers: RuntimeCheckers::empty(),
            propagator: TableElementPropagator {
                index: self.index,
                table: self.table,
                rhs: self.rhs,
                code: InferenceCode::new(self.tag, TableElement),
                buffer: Vec::new(),
                values: Vec::new(),
            },
        }
    }
}

#[derive(Clone, Debug)]
pub(super) struct TableElementPropagator {
    index: DomainId,
    table: Box<[i32]>,
    rhs: DomainId,
    code: InferenceCode,
    /// The last lazy explanation.
    buffer: Vec<Predicate>,
    /// `index`'s values, while propagating.
    values: Vec<i32>,
}

/// A lazy reason's payload: which bound of `rhs` was set, and to what.
fn encode(upper: bool, value: i32) -> u64 {
    ((value as u32 as u64) << 1) | upper as u64
}

fn decode(code: u64) -> (bool, i32) {
    (code & 1 == 1, (code >> 1) as u32 as i32)
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
        // One pass over `index`'s domain (pumpkin's iterator tests every value in the bounds).
        self.values.clear();
        self.values.extend(context.iterate_domain(&self.index));
        let (mut lo, mut hi) = (i32::MAX, i32::MIN);
        for &k in &self.values {
            let t = self.table[k as usize];
            lo = lo.min(t);
            hi = hi.max(t);
        }
        // The bounds of `rhs` from the values `index` has left; the reasons are computed when
        // conflict analysis asks (most are never needed).
        context.post(predicate![self.rhs >= lo], encode(false, lo))?;
        context.post(predicate![self.rhs <= hi], encode(true, hi))?;
        let (rlo, rhi) = (context.lower_bound(&self.rhs), context.upper_bound(&self.rhs));
        for &k in &self.values {
            let t = self.table[k as usize];
            let why = if t < rlo {
                predicate![self.rhs >= t + 1]
            } else if t > rhi {
                predicate![self.rhs <= t - 1]
            } else if !context.contains(&self.rhs, t) {
                predicate![self.rhs != t]
            } else {
                continue;
            };
            context.post(
                predicate![self.index != k],
                (PropositionalConjunction::from(why), &self.code),
            )?;
        }
        Ok(())
    }

    fn lazy_explanation(&mut self, code: u64, _: ExplanationContext) -> LazyExplanation<'_> {
        let (upper, value) = decode(code);
        let index = self.index;
        self.buffer.clear();
        self.buffer.extend(
            self.table
                .iter()
                .enumerate()
                .filter(|&(_, &t)| if upper { t > value } else { t < value })
                .map(|(k, _)| predicate![index != k as i32]),
        );
        LazyExplanation {
            predicates: &self.buffer,
            inference_code: self.code.clone(),
        }
    }
}
