//! The formula as the enumeration sees it: forced variables fixed, rows over the variables
//! left free, wide rows whole instead of their digit columns.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use crate::ir::{Cmp, Linear, Lit, PbFormula, WideRow};

/// The Mersenne prime the equality keys are reduced by.
pub(super) const P: u64 = (1 << 61) - 1;

/// An equality row over the free variables, reduced mod [`P`]: only its hash key is needed,
/// as every candidate is checked exactly.
#[derive(Debug, Clone)]
pub(super) struct EqRow {
    pub terms: Vec<(u64, usize)>,
    pub rhs: u64,
}

/// `Σ coef·x ≥ rhs` over the free variables, exactly.
#[derive(Debug, Clone)]
pub(super) struct GeRow {
    pub terms: Vec<(i128, usize)>,
    pub rhs: i128,
}

impl GeRow {
    pub fn width(&self) -> u128 {
        self.terms.iter().map(|t| t.0.unsigned_abs()).sum()
    }
}

/// The formula with its forced variables fixed, over the variables still free.
pub(super) struct Reduced {
    /// A value for every variable of the formula (the free ones `false`; the auxiliary bits
    /// of whole rows are filled in from their columns later).
    pub base: Vec<bool>,
    pub free: Vec<usize>,
    pub eq: Vec<EqRow>,
    /// Inequality rows whose sums fit in `i128` (one of them is sorted on).
    pub ge: Vec<GeRow>,
    /// Rows checked pair by pair only: inequalities too wide for `i128`.
    pub unsorted: usize,
    /// The objective over the free variables (its constant dropped: only differences count).
    pub objective: Option<Vec<i128>>,
    pub fixed: usize,
    /// What a candidate must satisfy, exactly: the 64-bit rows (digit columns of whole rows
    /// left out) and the whole rows.
    pub narrow: Vec<Linear>,
    pub whole: Vec<WideRow>,
    /// The objective is a staged objective taken whole (its bits are auxiliaries).
    pub whole_objective: bool,
}

/// What fixing the forced variables found.
pub(super) enum Reduction {
    Reduced(Reduced),
    /// No assignment satisfies the formula under the assumptions.
    Impossible,
    /// The objective's sums do not fit in 126 bits.
    TooWide,
}

/// Exact coefficients over variables (indices into the formula's variables).
type Terms = Vec<(BigInt, usize)>;

/// A row's net coefficients per unfixed variable and its right-hand side under the fixed
/// values, exactly.
fn net<C: Clone + Into<BigInt>>(terms: &[(C, Lit)], rhs: BigInt, fixed: &[Option<bool>]) -> (Terms, BigInt) {
    let mut by_var: BTreeMap<usize, BigInt> = BTreeMap::new();
    let mut rhs = rhs;
    for (c, l) in terms {
        let c: BigInt = c.clone().into();
        let v = l.var().index();
        match fixed[v] {
            Some(value) => {
                if value == l.is_positive() {
                    rhs -= c;
                }
            }
            None if l.is_positive() => *by_var.entry(v).or_default() += c,
            None => {
                rhs -= &c;
                *by_var.entry(v).or_default() -= c;
            }
        }
    }
    (
        by_var
            .into_iter()
            .filter(|(_, c)| !c.is_zero())
            .map(|(v, c)| (c, v))
            .collect(),
        rhs,
    )
}

/// Fixes what `Σ c·x ≥ rhs` forces; `Err` when it cannot hold, `Ok(true)` when it holds
/// whatever the unfixed variables are.
fn force_ge(
    terms: &[(BigInt, usize)],
    rhs: &BigInt,
    fixed: &mut [Option<bool>],
    changed: &mut bool,
) -> Result<bool, ()> {
    let max: BigInt = terms.iter().filter(|t| t.0.is_positive()).map(|t| &t.0).sum();
    let min: BigInt = terms.iter().filter(|t| t.0.is_negative()).map(|t| &t.0).sum();
    if &max < rhs {
        return Err(());
    }
    if &min >= rhs {
        return Ok(true);
    }
    for (c, v) in terms {
        if &max - c.abs() < *rhs {
            // The row needs this variable at its larger contribution. (An equality's second
            // half runs on terms from before the first half fixed anything, so the variable
            // may be fixed already: the other way round means the row cannot hold.)
            match fixed[*v] {
                Some(x) if x != c.is_positive() => return Err(()),
                Some(_) => {}
                None => {
                    fixed[*v] = Some(c.is_positive());
                    *changed = true;
                }
            }
        }
    }
    Ok(false)
}

/// Fixes what the row forces (both halves of an equality); see [`force_ge`].
fn force(
    terms: &[(BigInt, usize)],
    cmp: Cmp,
    rhs: &BigInt,
    fixed: &mut [Option<bool>],
    changed: &mut bool,
) -> Result<bool, ()> {
    let negated = || -> Vec<(BigInt, usize)> { terms.iter().map(|(c, v)| (-c, *v)).collect() };
    match cmp {
        Cmp::Ge => force_ge(terms, rhs, fixed, changed),
        Cmp::Le => force_ge(&negated(), &-rhs, fixed, changed),
        Cmp::Eq => {
            let a = force_ge(terms, rhs, fixed, changed)?;
            let b = force_ge(&negated(), &-rhs, fixed, changed)?;
            Ok(a && b)
        }
    }
}

/// The wide rows taken whole: those whose auxiliary bits no other constraint and no
/// assumption uses, nor the objective when one is minimised (a staged objective's bits
/// excepted: it is minimised whole, and the row that defines its bits is one of these).
/// Also which constraints they stand for, and which of them defines a staged objective.
fn whole_rows(f: &PbFormula, objective: bool, assumptions: &[Lit]) -> (Vec<WideRow>, Vec<bool>, Option<usize>) {
    let n = f.num_vars() as usize;
    let mut skip = vec![false; f.constraints().len()];
    let mut owner: Vec<Option<usize>> = vec![None; n];
    // Which wide row each constraint is a column of.
    let mut column_of: Vec<Option<usize>> = vec![None; f.constraints().len()];
    for (i, w) in f.wide_rows().iter().enumerate() {
        for v in w.aux.clone() {
            owner[v as usize] = Some(i);
        }
        for k in w.columns.clone() {
            column_of[k] = Some(i);
        }
    }
    let mut usable = vec![true; f.wide_rows().len()];
    for (k, (_, c)) in f.constraints().iter().enumerate() {
        let mine = column_of[k];
        for l in c.lits() {
            if let Some(o) = owner[l.var().index()]
                && Some(o) != mine
            {
                usable[o] = false;
            }
        }
    }
    // The row that defines a staged objective's bits.
    let defining = f
        .staged()
        .as_ref()
        .and_then(|s| s.bits.first())
        .and_then(|b| owner[b.var().index()]);
    let used = f
        .objective()
        .filter(|_| objective && f.staged().is_none())
        .unwrap_or_default()
        .iter()
        .map(|t| t.1)
        .chain(assumptions.iter().copied());
    for l in used {
        if let Some(o) = owner.get(l.var().index()).copied().flatten() {
            usable[o] = false;
        }
    }
    let mut rows = Vec::new();
    let mut definition = None;
    for (i, w) in f.wide_rows().iter().enumerate() {
        if usable[i] {
            for k in w.columns.clone() {
                skip[k] = true;
            }
            if Some(i) == defining {
                definition = Some(rows.len());
            }
            rows.push(w.clone());
        }
    }
    (rows, skip, definition)
}

/// The auxiliary bits of the rows [`reduce`] takes whole, which it never enumerates: filled
/// in from their digit columns once the other variables have values.
pub(super) fn aux_bits(f: &PbFormula, objective: bool, assumptions: &[Lit]) -> Vec<bool> {
    let (whole, _, _) = whole_rows(f, objective, assumptions);
    aux_of(&whole, f.num_vars() as usize)
}

/// Which of `n` variables are auxiliary bits of the rows `whole`.
fn aux_of(whole: &[WideRow], n: usize) -> Vec<bool> {
    let mut aux = vec![false; n];
    for v in whole.iter().flat_map(|w| w.aux.clone()) {
        aux[v as usize] = true;
    }
    aux
}

/// Fixes the variables the assumptions, the unit rows and bound reasoning on every 64-bit
/// row force (to a fixpoint, or 64 rounds), then keeps the rows that can still fail.
/// `objective`: none, the formula's, or (`exact`) a staged objective whole.
pub(super) fn reduce(f: &PbFormula, objective: bool, assumptions: &[Lit]) -> Reduction {
    let n = f.num_vars() as usize;
    let (mut whole, skip, definition) = whole_rows(f, objective, assumptions);
    let aux = aux_of(&whole, n);
    let narrow: Vec<Linear> = f
        .linear_rows()
        .into_iter()
        .zip(&skip)
        .filter(|(_, s)| !**s)
        .map(|(r, _)| r)
        .collect();
    let mut fixed: Vec<Option<bool>> = vec![None; n];
    for l in assumptions {
        let v = l.var().index();
        if fixed[v].is_some_and(|x| x != l.is_positive()) {
            return Reduction::Impossible;
        }
        fixed[v] = Some(l.is_positive());
    }
    let mut live: Vec<bool> = vec![true; narrow.len()];
    for _round in 0..64 {
        let mut changed = false;
        for (row, alive) in narrow.iter().zip(live.iter_mut()).filter(|(_, a)| **a) {
            let (terms, rhs) = net(&row.terms, row.rhs.into(), &fixed);
            match force(&terms, row.cmp, &rhs, &mut fixed, &mut changed) {
                Err(()) => return Reduction::Impossible,
                Ok(true) => *alive = false,
                Ok(false) => {}
            }
        }
        if !changed {
            break;
        }
    }
    // The definition of a staged objective's bits always holds for some bits: it is left to
    // the filling in of auxiliaries, and the objective is taken whole.
    let definition = definition.map(|d| whole.remove(d));
    let mut rows: Vec<(Terms, BigInt, Cmp)> = Vec::new();
    for row in narrow.iter().zip(&live).filter(|(_, a)| **a).map(|(r, _)| r) {
        let (terms, rhs) = net(&row.terms, row.rhs.into(), &fixed);
        rows.push((terms, rhs, row.cmp));
    }
    for w in &whole {
        let (terms, rhs) = net(&w.terms, w.rhs.clone(), &fixed);
        rows.push((terms, rhs, w.cmp));
    }
    let objective: Option<(Vec<(BigInt, usize)>, BigInt)> = match (&definition, objective) {
        (_, false) => None,
        (Some(_), true) => f.staged().as_ref().map(|s| net(&s.exact, BigInt::zero(), &fixed)),
        (None, true) => f.objective().map(|o| net(o, BigInt::zero(), &fixed)),
    };
    let mut index = vec![usize::MAX; n];
    let mut free = Vec::new();
    let vars = rows
        .iter()
        .flat_map(|r| r.0.iter())
        .chain(objective.iter().flat_map(|o| o.0.iter()));
    for (_, v) in vars {
        if index[*v] == usize::MAX && !aux[*v] {
            index[*v] = free.len();
            free.push(*v);
        }
    }
    let fits = |terms: &[(BigInt, usize)], rhs: &BigInt| {
        let w: BigInt = terms.iter().map(|t| t.0.abs()).sum::<BigInt>() + rhs.abs();
        w.bits() <= 126
    };
    let mut eq = Vec::new();
    let mut ge = Vec::new();
    let mut unsorted = 0;
    for (terms, rhs, cmp) in &rows {
        if terms.is_empty() {
            let holds = match cmp {
                Cmp::Ge => rhs <= &BigInt::zero(),
                Cmp::Le => rhs >= &BigInt::zero(),
                Cmp::Eq => rhs.is_zero(),
            };
            if !holds {
                return Reduction::Impossible;
            }
            continue;
        }
        let to_mod = |x: &BigInt| {
            let p = BigInt::from(P);
            ((x % &p + &p) % &p).to_u64().unwrap_or(0)
        };
        match cmp {
            Cmp::Eq => eq.push(EqRow {
                terms: terms.iter().map(|(c, v)| (to_mod(c), index[*v])).collect(),
                rhs: to_mod(rhs),
            }),
            _ if !fits(terms, rhs) => unsorted += 1,
            _ => {
                let sign = if *cmp == Cmp::Le { -1 } else { 1 };
                let narrow = |x: &BigInt| x.to_i128().unwrap_or(0) * sign;
                ge.push(GeRow {
                    terms: terms.iter().map(|(c, v)| (narrow(c), index[*v])).collect(),
                    rhs: narrow(rhs),
                });
            }
        }
    }
    let objective = match objective {
        None => None,
        Some((terms, rhs)) if !fits(&terms, &rhs) => return Reduction::TooWide,
        Some((terms, _)) => {
            let mut per = vec![0i128; free.len()];
            for (c, v) in terms {
                per[index[v]] = c.to_i128().unwrap_or(0);
            }
            Some(per)
        }
    };
    let base = fixed.iter().map(|x| x.unwrap_or(false)).collect();
    // A staged objective minimised: it was taken whole.
    let whole_objective = objective.is_some() && definition.is_some();
    Reduction::Reduced(Reduced {
        base,
        free,
        eq,
        ge,
        unsorted,
        objective,
        fixed: fixed.iter().filter(|x| x.is_some()).count(),
        narrow,
        whole,
        whole_objective,
    })
}
