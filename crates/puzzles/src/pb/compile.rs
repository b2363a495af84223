//! OPB/CNF rows into the IR: 64-bit rows, normalised, with product terms linearised.
//!
//! Per linear row: the net coefficient of each variable (`x` and `~x` in one row merge, a
//! constant moves to the right), negative coefficients become positive ones on the negated
//! literal, `<=` becomes `>=` over the negated literals, a `>=` row's coefficients are
//! saturated at its right-hand side and divided by their gcd, and what is left is a clause,
//! an exactly-one, or a linear row. All of it in exact arithmetic (`BigInt`), so a row of any
//! width normalises the same way; a linear row that is still too wide for the IR's 64-bit
//! rows is split into digit columns with carries (`ir/digits.rs`). Each step keeps the set of
//! solutions exactly; the verifier does not trust any of it and checks the file's own rows.

use std::collections::BTreeMap;
use std::fmt;

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, ToPrimitive, Zero};

use super::file::{Lit, PbFile, Row, Term};
use crate::ir::digits::{self, Aux, NoSplit};
use crate::ir::{Cmp, Constraint, Linear, Lit as IrLit, Model, Var, WideRow};
use crate::puzzle::Refutation;

/// A variable of the compiled model: a variable of the file, the product of literals, or a
/// bit of a split row's slack or carry (`row` counts the file's constraints from 1; row 0
/// is a wide objective's), or a bit of a wide objective's value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PbKey {
    X(u32),
    And(Vec<Lit>),
    Slack {
        row: u32,
        bit: u32,
    },
    Carry {
        row: u32,
        digit: u32,
        bit: u32,
    },
    /// Bit `b` of an objective too wide for 64 bits (its value in binary).
    ObjectiveBit(u32),
}

impl fmt::Display for PbKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PbKey::X(i) => write!(f, "x{i}"),
            PbKey::And(lits) => {
                f.write_str("and")?;
                for l in lits {
                    write!(f, "_{}x{}", if l.neg { "n" } else { "" }, l.var)?;
                }
                Ok(())
            }
            PbKey::Slack { row, bit } => write!(f, "c{row}_slack{bit}"),
            PbKey::Carry {
                row: OBJECTIVE_ROW,
                digit,
                bit,
            } => write!(f, "objective_carry{digit}_{bit}"),
            PbKey::Carry { row, digit, bit } => write!(f, "c{row}_carry{digit}_{bit}"),
            PbKey::ObjectiveBit(bit) => write!(f, "objective_bit{bit}"),
        }
    }
}

/// The file as a model. The file's variables come first, `x1` as variable 0, so the
/// primary variables are `0..num_vars` (a declared variable that no row uses is free, and
/// each of its values is another solution). With `presolve`, a row that no assignment can
/// satisfy is a refutation naming its line; without, it becomes the empty clause.
pub fn compile(p: &PbFile, presolve: bool) -> Result<Model<PbKey>, Refutation> {
    let mut m: Model<PbKey> = Model::new();
    for i in 1..=p.num_vars {
        m.var(PbKey::X(i));
    }
    let x = |l: Lit| IrLit::new(Var(l.var - 1), !l.neg);
    let limit = BigInt::one() << p.split.above.min(62);
    for (index, r) in p.rows.iter().enumerate() {
        if crate::budget::compile_stop() {
            return Err(Refutation::stopped());
        }
        match r {
            Row::Clause { lits, line } => {
                let mut ls: Vec<IrLit> = lits.iter().map(|&l| x(l)).collect();
                ls.sort_unstable();
                ls.dedup();
                // A clause with x and ~x always holds.
                if ls.windows(2).any(|w| w[0].var() == w[1].var()) {
                    continue;
                }
                if ls.is_empty() && presolve {
                    return Err(Refutation(format!("the clause at line {line} is empty")));
                }
                m.add(format!("line {line}"), Constraint::Clause(ls));
            }
            Row::Linear { terms, cmp, rhs, line } => {
                // Rows as narrow as the file wrote them compile to one IR row as they always
                // did; wider ones only when normalising made them narrow.
                let written: BigInt = terms.iter().map(|t| t.coef.abs()).sum::<BigInt>() + rhs.abs();
                let narrow = written < limit;
                let mut net: BTreeMap<Var, BigInt> = BTreeMap::new();
                let mut rhs = rhs.clone();
                for t in terms {
                    let Some(l) = product(&mut m, t) else { continue };
                    let c = &t.coef;
                    if l.is_positive() {
                        *net.entry(l.var()).or_default() += c;
                    } else {
                        // c·~x = c - c·x
                        rhs -= c;
                        *net.entry(l.var()).or_default() -= c;
                    }
                }
                let label = format!("line {line}");
                let refuted = |why: String| Refutation(format!("the constraint at line {line} can never hold ({why})"));
                let mut whole = None;
                let rows = match normalise(net, *cmp, rhs) {
                    Normal::True => Vec::new(),
                    Normal::False(why) if presolve => return Err(refuted(why)),
                    Normal::False(_) => vec![Constraint::Clause(Vec::new())],
                    Normal::Rows(cs) => cs,
                    Normal::Wide(terms, cmp, rhs) => {
                        let width = terms.iter().map(|t| &t.0).sum::<BigInt>() + &rhs;
                        let fits = (narrow || width < limit).then(|| to_i64(&terms, &rhs)).flatten();
                        // Past what one IR row holds whatever `--split-above` says: a row
                        // of a few terms becomes the clauses it means (`few.rs`), not a
                        // chain of digit columns.
                        let few = || {
                            (width >= BigInt::one() << 62)
                                .then(|| super::few::clauses(&terms, cmp, &rhs))
                                .flatten()
                        };
                        match fits {
                            Some((terms, rhs)) => vec![Constraint::Linear(Linear::new(terms, cmp, rhs))],
                            None if let Some(cs) = few() => cs.into_iter().map(Constraint::Clause).collect(),
                            None => {
                                let first_aux = m.formula.num_vars();
                                match split(
                                    &mut m,
                                    u32::try_from(index + 1).unwrap_or(u32::MAX),
                                    &terms,
                                    cmp,
                                    &rhs,
                                    p.split.digit_bits,
                                ) {
                                    Ok(rows) => {
                                        whole = Some((terms, cmp, rhs, first_aux..m.formula.num_vars()));
                                        rows
                                    }
                                    Err(why) if presolve => return Err(refuted(why.0)),
                                    Err(_) => vec![Constraint::Clause(Vec::new())],
                                }
                            }
                        }
                    }
                };
                let first = m.formula.constraints().len();
                for c in rows {
                    m.add(label.clone(), c);
                }
                if let Some((terms, cmp, rhs, aux)) = whole {
                    let columns = first..m.formula.constraints().len();
                    m.formula.add_wide(WideRow {
                        terms,
                        cmp,
                        rhs,
                        columns,
                        aux,
                    });
                }
            }
        }
    }
    if let Some(o) = &p.objective {
        // Minimised in the IR: a `max:` objective is negated.
        let mut terms: Vec<(BigInt, IrLit)> = Vec::new();
        for t in &o.terms {
            let c = if o.maximise { -&t.coef } else { t.coef.clone() };
            if let Some(l) = product(&mut m, t)
                && !c.is_zero()
            {
                terms.push((c, l));
            }
        }
        let width = p.split.above.clamp(2, 62);
        let total: BigInt = terms.iter().map(|t| t.0.abs()).sum();
        match terms
            .iter()
            .map(|(c, l)| Some((c.to_i64()?, *l)))
            .collect::<Option<Vec<_>>>()
        {
            Some(narrow) if total < BigInt::one() << width => m.formula.set_objective(Some(narrow)),
            _ => staged(&mut m, terms, p.split.digit_bits),
        }
    }
    if presolve {
        super::presolve::presolve(&mut m.formula)?;
    }
    Ok(m)
}

/// An objective whose coefficients add up to `2^62` or more (the IR's objective is one
/// 64-bit sum), as stages (see [`crate::ir::Staged`]): its value in binary over fresh bits
/// `z_b`, defined by one exact `=` row written as digit columns, and the bits minimised a
/// chunk at a time, top first.
fn staged(m: &mut Model<PbKey>, exact: Vec<(BigInt, IrLit)>, digit_bits: u32) {
    // `V = constant + Σ w·l` with every `w > 0`: net per variable, a negative net on the
    // negated literal. The constant does not change which assignment is best.
    let mut net: BTreeMap<Var, BigInt> = BTreeMap::new();
    for (c, l) in &exact {
        *net.entry(l.var()).or_default() += if l.is_positive() { c.clone() } else { -c };
    }
    let mut row: Vec<(BigInt, IrLit)> = Vec::new();
    for (v, c) in net {
        if c.is_positive() {
            row.push((c, IrLit::new(v, true)));
        } else if c.is_negative() {
            row.push((-c, IrLit::new(v, false)));
        }
    }
    let total: BigInt = row.iter().map(|t| &t.0).sum();
    let bits = u32::try_from(total.bits()).unwrap_or(u32::MAX).max(1);
    let first_aux = m.formula.num_vars();
    let z: Vec<Var> = (0..bits).map(|bit| m.var(PbKey::ObjectiveBit(bit))).collect();
    // Σ w·l = Σ 2^b·z_b, written with positive coefficients: Σ w·l + Σ 2^b·¬z_b = 2^bits - 1.
    for (b, &v) in z.iter().enumerate() {
        row.push((BigInt::one() << b, IrLit::new(v, false)));
    }
    let rhs = (BigInt::one() << bits) - 1;
    // The row always holds for some `z` (the binary form of `Σ w·l < 2^bits`), so splitting
    // it cannot fail: no column is impossible and no number is past `u32` bits.
    let columns =
        split(m, OBJECTIVE_ROW, &row, Cmp::Eq, &rhs, digit_bits).expect("the objective's value has a binary form");
    let first = m.formula.constraints().len();
    for c in columns {
        m.add("objective value in binary", c);
    }
    // The bits `z_b` count as the row's auxiliaries: the row defines them from the rest.
    let columns = first..m.formula.constraints().len();
    m.formula.add_wide(WideRow {
        terms: row,
        cmp: Cmp::Eq,
        rhs,
        columns,
        aux: first_aux..m.formula.num_vars(),
    });
    let staged = crate::ir::Staged {
        exact,
        bits: z.iter().map(|&v| IrLit::new(v, true)).collect(),
    };
    m.formula.set_staged_objective(staged);
}

/// The row number of the objective's own digit columns (the file's rows count from 1).
const OBJECTIVE_ROW: u32 = 0;

/// A row too wide for one IR row, as digit columns over fresh slack and carry bits (each
/// column normalised as any `=` row). `Err`: no assignment satisfies the row.
fn split(
    m: &mut Model<PbKey>,
    row: u32,
    terms: &[(BigInt, IrLit)],
    cmp: Cmp,
    rhs: &BigInt,
    digit_bits: u32,
) -> Result<Vec<Constraint>, NoSplit> {
    let unsigned = |x: &BigInt| x.to_biguint().unwrap_or_default();
    let terms: Vec<(BigUint, IrLit)> = terms.iter().map(|(c, l)| (unsigned(c), *l)).collect();
    let mut new_var = |a: Aux| match a {
        Aux::Slack(bit) => m.var(PbKey::Slack { row, bit }),
        Aux::Carry(digit, bit) => m.var(PbKey::Carry { row, digit, bit }),
    };
    let columns = digits::split(&terms, cmp, &unsigned(rhs), digit_bits, &mut new_var)?;
    let mut out = Vec::new();
    for (d, (terms, rhs)) in columns.into_iter().enumerate() {
        let terms = terms.into_iter().map(|(c, l)| (BigInt::from(c), l)).collect();
        match eq_rows(terms, BigInt::from(rhs)) {
            Normal::True => {}
            Normal::False(why) => return Err(NoSplit(format!("digit column {d}: {why}"))),
            Normal::Rows(cs) => out.extend(cs),
            // Column rows are narrow (ir/digits.rs bounds them far below 2^62).
            Normal::Wide(terms, cmp, rhs) => {
                let (terms, rhs) = to_i64(&terms, &rhs).ok_or_else(|| NoSplit("a digit column is too wide".into()))?;
                out.push(Constraint::Linear(Linear::new(terms, cmp, rhs)));
            }
        }
    }
    Ok(out)
}

/// The literal of a term: the file's literal, or the variable of the product (defined once
/// by clauses: `and -> l` for each factor, and `all factors -> and`). `None`: a product with
/// `x` and `~x`, always 0.
fn product(m: &mut Model<PbKey>, t: &Term) -> Option<IrLit> {
    let x = |l: Lit| IrLit::new(Var(l.var - 1), !l.neg);
    if t.lits.len() == 1 {
        return Some(x(t.lits[0]));
    }
    let mut lits = t.lits.clone();
    lits.sort_unstable();
    lits.dedup();
    if lits.windows(2).any(|w| w[0].var == w[1].var) {
        return None;
    }
    if lits.len() == 1 {
        return Some(x(lits[0]));
    }
    let key = PbKey::And(lits.clone());
    if let Some(v) = m.pool.get(&key) {
        return Some(IrLit::new(v, true));
    }
    let y = m.var(key.clone());
    let name = key.to_string();
    let mut back = vec![IrLit::new(y, true)];
    for &l in &lits {
        m.add(
            format!("{name} implies {l}"),
            Constraint::Clause(vec![IrLit::new(y, false), x(l)]),
        );
        back.push(!x(l));
    }
    m.add(format!("{name} when all hold"), Constraint::Clause(back));
    Some(IrLit::new(y, true))
}

enum Normal {
    True,
    False(String),
    /// Clauses and exactly-ones.
    Rows(Vec<Constraint>),
    /// One linear row over positive coefficients, exactly, whatever its width.
    Wide(Vec<(BigInt, IrLit)>, Cmp, BigInt),
}

/// `Σ net[v]·v cmp rhs` over positive coefficients.
fn normalise(net: BTreeMap<Var, BigInt>, cmp: Cmp, rhs: BigInt) -> Normal {
    // Positive coefficients: a·x with a < 0 is a + |a|·~x.
    let mut rhs = rhs;
    let mut terms: Vec<(BigInt, IrLit)> = Vec::new();
    for (v, a) in net {
        if a.is_positive() {
            terms.push((a, IrLit::new(v, true)));
        } else if a.is_negative() {
            rhs -= &a;
            terms.push((-a, IrLit::new(v, false)));
        }
    }
    match cmp {
        Cmp::Ge => at_least(terms, rhs),
        // Σ b·l <= R  <=>  Σ b·~l >= Σb - R
        Cmp::Le => {
            let total: BigInt = terms.iter().map(|t| &t.0).sum();
            at_least(terms.into_iter().map(|(b, l)| (b, !l)).collect(), total - rhs)
        }
        Cmp::Eq => eq_rows(terms, rhs),
    }
}

/// `Σ terms = rhs`, positive coefficients.
fn eq_rows(terms: Vec<(BigInt, IrLit)>, rhs: BigInt) -> Normal {
    let total: BigInt = terms.iter().map(|t| &t.0).sum();
    if rhs.is_negative() || rhs > total {
        return Normal::False(format!("the sum reaches only 0..{total}, never {rhs}"));
    }
    if rhs.is_zero() || rhs == total {
        let want = rhs == total;
        return Normal::Rows(
            terms
                .into_iter()
                .map(|(_, l)| Constraint::Clause(vec![if want { l } else { !l }]))
                .collect(),
        );
    }
    let g = terms.iter().fold(BigInt::zero(), |g, t| gcd(g, t.0.clone()));
    if !(&rhs % &g).is_zero() {
        return Normal::False(format!(
            "every coefficient is a multiple of {g}, the right-hand side {rhs} is not"
        ));
    }
    let (terms, rhs) = (scale(terms, &g), rhs / &g);
    if rhs.is_one() && terms.iter().all(|t| t.0.is_one()) {
        return Normal::Rows(vec![Constraint::ExactlyOne(terms.into_iter().map(|t| t.1).collect())]);
    }
    Normal::Wide(terms, Cmp::Eq, rhs)
}

fn at_least(terms: Vec<(BigInt, IrLit)>, rhs: BigInt) -> Normal {
    if !rhs.is_positive() {
        return Normal::True;
    }
    let total: BigInt = terms.iter().map(|t| &t.0).sum();
    if total < rhs {
        return Normal::False(format!("the left side reaches at most {total} < {rhs}"));
    }
    // Saturation: a literal worth more than the right-hand side is worth exactly it.
    let terms: Vec<(BigInt, IrLit)> = terms.into_iter().map(|(b, l)| (b.min(rhs.clone()), l)).collect();
    let g = terms.iter().fold(BigInt::zero(), |g, t| gcd(g, t.0.clone()));
    let rhs = (rhs + &g - 1) / &g;
    let terms = scale(terms, &g);
    if terms.iter().all(|t| t.0 >= rhs) {
        return Normal::Rows(vec![Constraint::Clause(terms.into_iter().map(|t| t.1).collect())]);
    }
    Normal::Wide(terms, Cmp::Ge, rhs)
}

fn scale(terms: Vec<(BigInt, IrLit)>, g: &BigInt) -> Vec<(BigInt, IrLit)> {
    terms.into_iter().map(|(b, l)| (b / g, l)).collect()
}

/// The row in 64 bits, `None` when a number does not fit.
fn to_i64(terms: &[(BigInt, IrLit)], rhs: &BigInt) -> Option<(Vec<(i64, IrLit)>, i64)> {
    let terms = terms
        .iter()
        .map(|(b, l)| Some((b.to_i64()?, *l)))
        .collect::<Option<Vec<_>>>()?;
    Some((terms, rhs.to_i64()?))
}

fn gcd(a: BigInt, b: BigInt) -> BigInt {
    if b.is_zero() { a } else { gcd(b.clone(), a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(v: u32, neg: bool) -> Lit {
        Lit { var: v, neg }
    }

    fn row(terms: &[(i64, &[Lit])], cmp: Cmp, rhs: i64) -> Row {
        Row::Linear {
            terms: terms
                .iter()
                .map(|(c, ls)| Term {
                    coef: BigInt::from(*c),
                    lits: ls.to_vec(),
                })
                .collect(),
            cmp,
            rhs: BigInt::from(rhs),
            line: 1,
        }
    }

    fn file(rows: Vec<Row>) -> PbFile {
        PbFile {
            warnings: Vec::new(),
            names: Vec::new(),
            source: "t".into(),
            num_vars: 3,
            rows,
            objective: None,
            cnf: false,
            split: Default::default(),
        }
    }

    /// Every assignment of the file's variables satisfies the compiled model (with some
    /// values of the auxiliaries) exactly when it satisfies the file.
    fn same_solutions(rows: Vec<Row>) {
        same_solutions_split(rows, digits::Split::default());
    }

    fn same_solutions_split(rows: Vec<Row>, split: digits::Split) {
        let mut p = file(rows);
        p.split = split;
        let n = p.num_vars as usize;
        let m = match compile(&p, false) {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        };
        for bits in 0..1u32 << n {
            let xs: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
            let want = super::super::verify::check_values(&p, &xs).is_ok();
            let mut all = xs.clone();
            all.resize(m.formula.num_vars() as usize, false);
            let mut set = vec![false; all.len()];
            set[..n].fill(true);
            let got = extends(m.formula.constraints(), &mut all, &mut set);
            assert_eq!(got, want, "assignment {xs:?} of {:?}", p.rows);
            if got {
                assert!(m.formula.evaluate(&all).is_ok());
            }
        }
    }

    /// Whether values of the unset variables satisfy every constraint, constraint by
    /// constraint: the auxiliaries each constraint brings in (a product, a column's slack and
    /// carry bits) are few, so this stays small however wide the row.
    fn extends(cs: &[(String, Constraint)], a: &mut [bool], set: &mut [bool]) -> bool {
        let Some(((_, c), rest)) = cs.split_first() else {
            return true;
        };
        let lits: Vec<IrLit> = match c {
            Constraint::Clause(ls) | Constraint::ExactlyOne(ls) | Constraint::AtMostOne(ls) => ls.clone(),
            Constraint::Linear(lin) => lin.terms.iter().map(|t| t.1).collect(),
            Constraint::SumOf { .. } => unreachable!("no sum-of rows here"),
        };
        let mut free: Vec<usize> = lits.iter().map(|l| l.var().index()).filter(|&v| !set[v]).collect();
        free.sort_unstable();
        free.dedup();
        assert!(free.len() <= 12, "{} new variables in one constraint", free.len());
        for v in &free {
            set[*v] = true;
        }
        let mut found = false;
        for bits in 0..1u32 << free.len() {
            for (i, &v) in free.iter().enumerate() {
                a[v] = bits >> i & 1 == 1;
            }
            let on = lits.iter().filter(|l| l.eval(a)).count();
            let holds = match c {
                Constraint::Clause(_) => on >= 1,
                Constraint::ExactlyOne(_) => on == 1,
                Constraint::AtMostOne(_) => on <= 1,
                Constraint::Linear(lin) => lin.holds(a),
                Constraint::SumOf { .. } => false,
            };
            if holds && extends(rest, a, set) {
                found = true;
                break;
            }
        }
        if !found {
            for v in &free {
                set[*v] = false;
            }
        }
        found
    }

    #[test]
    fn normalisation_keeps_the_solutions() {
        let (a, na, b, nb, c) = (lit(1, false), lit(1, true), lit(2, false), lit(2, true), lit(3, false));
        for cmp in [Cmp::Ge, Cmp::Le, Cmp::Eq] {
            for rhs in -4..=8 {
                same_solutions(vec![row(&[(3, &[a]), (-2, &[nb]), (5, &[c])], cmp, rhs)]);
                same_solutions(vec![row(&[(2, &[a]), (2, &[na]), (-4, &[b])], cmp, rhs)]);
                same_solutions(vec![row(&[(4, &[a, b]), (-3, &[c, na]), (2, &[b, nb])], cmp, rhs)]);
                same_solutions(vec![row(&[(6, &[a]), (4, &[b]), (2, &[c])], cmp, rhs)]);
                same_solutions(vec![row(&[(1, &[a]), (1, &[b]), (1, &[c])], cmp, rhs)]);
            }
        }
    }

    #[test]
    fn an_impossible_row_is_refuted_with_its_line_only_under_presolve() {
        let p = file(vec![row(&[(1, &[lit(1, false)]), (1, &[lit(2, false)])], Cmp::Ge, 3)]);
        let Err(e) = compile(&p, true) else {
            panic!("not refuted")
        };
        assert!(e.0.contains("line 1"), "{e}");
        let m = compile(&p, false).expect("plain model");
        assert!(m.formula.evaluate(&[true, true]).is_err());
    }

    #[test]
    fn forced_digit_columns_keep_the_solutions() {
        let (a, na, b, nb, c) = (lit(1, false), lit(1, true), lit(2, false), lit(2, true), lit(3, false));
        for digit_bits in [1, 2, 3] {
            let split = digits::Split { above: 0, digit_bits };
            for cmp in [Cmp::Ge, Cmp::Le, Cmp::Eq] {
                for rhs in -4..=9 {
                    same_solutions_split(vec![row(&[(3, &[a]), (-2, &[nb]), (5, &[c])], cmp, rhs)], split);
                    same_solutions_split(vec![row(&[(6, &[a]), (4, &[b]), (2, &[c])], cmp, rhs)], split);
                    same_solutions_split(vec![row(&[(4, &[a]), (4, &[b]), (4, &[c])], cmp, rhs)], split);
                    same_solutions_split(vec![row(&[(7, &[a]), (5, &[b]), (3, &[c])], cmp, rhs)], split);
                    same_solutions_split(vec![row(&[(2, &[a, b]), (-3, &[c, na]), (1, &[b])], cmp, rhs)], split);
                }
            }
        }
    }

    #[test]
    fn narrow_rows_get_no_auxiliaries_and_wide_ones_do() {
        let (a, b, c) = (lit(1, false), lit(2, false), lit(3, false));
        let narrow = file(vec![row(&[(7, &[a]), (5, &[b]), (3, &[c])], Cmp::Ge, 8)]);
        let m = compile(&narrow, true).unwrap();
        assert_eq!(m.formula.num_vars(), 3);
        let mut forced = narrow.clone();
        forced.split = digits::Split {
            above: 0,
            digit_bits: 1,
        };
        let m = compile(&forced, true).unwrap();
        assert!(m.formula.num_vars() > 3);
        assert!(m.names().iter().any(|n| n.starts_with("c1_slack")), "{:?}", m.names());
    }

    /// 2^62 and 2^255 coefficients: split (base 16), the solutions unchanged.
    #[test]
    fn rows_past_62_bits_are_split_and_keep_their_solutions() {
        let (a, na, b, c) = (lit(1, false), lit(1, true), lit(2, false), lit(3, false));
        let big = |bits: u32, plus: i64| Term {
            coef: (BigInt::one() << bits) + plus,
            lits: vec![a],
        };
        for bits in [62u32, 63, 100, 255] {
            for cmp in [Cmp::Ge, Cmp::Le, Cmp::Eq] {
                let two = BigInt::one() << bits;
                for rhs in [BigInt::from(1), two.clone(), &two + 3, &two * 2 + 1, -two.clone()] {
                    let terms = vec![
                        big(bits, 0),
                        Term {
                            coef: &two - 1,
                            lits: vec![b],
                        },
                        Term {
                            coef: BigInt::from(3),
                            lits: vec![c],
                        },
                        Term {
                            coef: BigInt::from(-5),
                            lits: vec![na, c],
                        },
                    ];
                    let r = Row::Linear {
                        terms,
                        cmp,
                        rhs,
                        line: 1,
                    };
                    let mut p = file(vec![r.clone()]);
                    p.split.digit_bits = 4;
                    same_solutions_split(vec![r], p.split);
                }
            }
        }
    }

    /// Narrow widths force stages on small objectives: for every assignment of the file's
    /// variables, the compiled model extends to one whose stage bits, read as one binary
    /// number top stage first, are the exact objective minus one constant. So minimising the
    /// stages in turn minimises the objective.
    #[test]
    fn a_staged_objective_is_its_value_in_binary() {
        let (a, na, b, c) = (lit(1, false), lit(1, true), lit(2, false), lit(3, false));
        let objectives: [&[(i64, &[Lit])]; 3] = [
            &[(5, &[a]), (-3, &[b]), (6, &[c])],
            &[(7, &[na]), (2, &[a, b]), (-9, &[c]), (4, &[a])],
            &[(1, &[a]), (1, &[b]), (1, &[c])],
        ];
        for above in [2u32, 3, 4] {
            for terms in objectives {
                let total: i64 = terms.iter().map(|t| t.0.abs()).sum();
                for maximise in [false, true] {
                    let mut p = file(vec![row(&[(1, &[a]), (1, &[b]), (1, &[c])], Cmp::Ge, 0)]);
                    p.split = digits::Split { above, digit_bits: 1 };
                    let Row::Linear { terms: written, .. } = row(terms, Cmp::Ge, 0) else {
                        unreachable!()
                    };
                    p.objective = Some(super::super::Objective {
                        terms: written,
                        maximise,
                        line: 1,
                    });
                    let m = compile(&p, true).expect("no refutation");
                    assert_eq!(
                        m.formula.staged().is_some(),
                        total >= 1 << above,
                        "{terms:?} at width {above}"
                    );
                    let Some(staged) = &m.formula.staged() else { continue };
                    assert_eq!(m.formula.objective(), staged.stages(61).first().map(Vec::as_slice));
                    let stages = staged.stages(above - 1);
                    assert!(stages.len() >= 2, "{stages:?}");
                    let mut constant: Option<BigInt> = None;
                    for bits in 0..8u32 {
                        let xs: Vec<bool> = (0..3).map(|i| bits >> i & 1 == 1).collect();
                        let mut all = xs.clone();
                        all.resize(m.formula.num_vars() as usize, false);
                        let mut set = vec![false; all.len()];
                        set[..3].fill(true);
                        assert!(extends(m.formula.constraints(), &mut all, &mut set), "{xs:?}");
                        let mut value = BigInt::zero();
                        for stage in &stages {
                            let width = stage.len();
                            let s: i64 = stage.iter().filter(|t| t.1.eval(&all)).map(|t| t.0).sum();
                            value = (value << width) + s;
                        }
                        let exact = m.formula.exact_objective_value(&all).unwrap();
                        let want = super::super::verify::objective_value(&p, &xs).unwrap();
                        assert_eq!(exact, if maximise { -want } else { want });
                        let d = exact - value;
                        assert_eq!(constant.get_or_insert(d.clone()), &d, "{xs:?} at width {above}");
                    }
                }
            }
        }
    }
}
