//! OPB/CNF rows into the IR: 64-bit rows, normalised, with product terms linearised.
//!
//! Per linear row: the net coefficient of each variable (`x` and `~x` in one row merge, a
//! constant moves to the right), negative coefficients become positive ones on the negated
//! literal, `<=` becomes `>=` over the negated literals, a `>=` row's coefficients are
//! saturated at its right-hand side and divided by their gcd, and what is left is a clause,
//! an exactly-one, or a linear row. Each step keeps the set of solutions exactly; the
//! verifier does not trust any of it and checks the file's own rows.

use std::collections::BTreeMap;
use std::fmt;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};

use super::{Lit, PbFile, Row, Term};
use crate::input::InputError;
use crate::ir::{Cmp, Constraint, Linear, Lit as IrLit, Model, Var};
use crate::puzzle::Refutation;

/// The largest total the IR's rows may reach: sums of coefficients and right-hand sides stay
/// far from `i64` overflow in every encoder and backend.
const WIDTH: u64 = 1 << 62;

/// A variable of the compiled model: a variable of the file, or the product of literals.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PbKey {
    X(u32),
    And(Vec<Lit>),
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
        }
    }
}

/// Refuses a row whose coefficients and right-hand side add up past [`WIDTH`]: the IR
/// holds 64-bit rows, and a silent overflow would be a wrong answer.
pub fn check_width(p: &PbFile) -> Result<(), InputError> {
    let limit = BigInt::from(WIDTH);
    for r in &p.rows {
        if let Row::Linear { terms, rhs, line, .. } = r {
            let total: BigInt = terms.iter().map(|t| t.coef.abs()).sum::<BigInt>() + rhs.abs();
            if total >= limit {
                return Err(InputError::new(
                    &p.source,
                    Some(*line),
                    format!(
                        "the coefficients of this constraint add up to {} bits, more than the 62 that sokuc's 64-bit rows hold (big-integer rows are not supported yet)",
                        total.bits()
                    ),
                ));
            }
        }
    }
    if let Some(o) = &p.objective {
        let total: BigInt = o.terms.iter().map(|t| t.coef.abs()).sum();
        if total >= limit {
            return Err(InputError::new(
                &p.source,
                Some(o.line),
                format!(
                    "the objective's coefficients add up to {} bits, more than the 62 that sokuc's 64-bit rows hold",
                    total.bits()
                ),
            ));
        }
    }
    Ok(())
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
    for r in &p.rows {
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
                let mut net: BTreeMap<Var, i128> = BTreeMap::new();
                // The width check bounds every sum here by 2^62.
                let mut rhs = rhs.to_i128().unwrap_or(0);
                for t in terms {
                    let c = t.coef.to_i128().unwrap_or(0);
                    let Some(l) = product(&mut m, t) else { continue };
                    if l.is_positive() {
                        *net.entry(l.var()).or_default() += c;
                    } else {
                        // c·~x = c - c·x
                        rhs -= c;
                        *net.entry(l.var()).or_default() -= c;
                    }
                }
                let label = format!("line {line}");
                match normalise(net, *cmp, rhs) {
                    Normal::True => {}
                    Normal::False(why) => {
                        if presolve {
                            return Err(Refutation(format!(
                                "the constraint at line {line} can never hold ({why})"
                            )));
                        }
                        m.add(label, Constraint::Clause(Vec::new()));
                    }
                    Normal::Rows(cs) => {
                        for c in cs {
                            m.add(label.clone(), c);
                        }
                    }
                }
            }
        }
    }
    if let Some(o) = &p.objective {
        // Minimised in the IR: a `max:` objective is negated (the width check bounds it).
        let sign = if o.maximise { -1 } else { 1 };
        let mut terms = Vec::new();
        for t in &o.terms {
            let c = t.coef.to_i64().unwrap_or(0) * sign;
            if let Some(l) = product(&mut m, t)
                && c != 0
            {
                terms.push((c, l));
            }
        }
        m.formula.objective = Some(terms);
    }
    Ok(m)
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
    Rows(Vec<Constraint>),
}

/// `Σ net[v]·v cmp rhs` as IR rows over positive coefficients.
fn normalise(net: BTreeMap<Var, i128>, cmp: Cmp, rhs: i128) -> Normal {
    // Positive coefficients: a·x with a < 0 is a + |a|·~x.
    let mut rhs = rhs;
    let mut terms: Vec<(i128, IrLit)> = Vec::new();
    for (v, a) in net {
        match a.cmp(&0) {
            std::cmp::Ordering::Greater => terms.push((a, IrLit::new(v, true))),
            std::cmp::Ordering::Less => {
                rhs -= a;
                terms.push((-a, IrLit::new(v, false)));
            }
            std::cmp::Ordering::Equal => {}
        }
    }
    let total: i128 = terms.iter().map(|t| t.0).sum();
    match cmp {
        Cmp::Ge => at_least(terms, rhs),
        // Σ b·l <= R  <=>  Σ b·~l >= Σb - R
        Cmp::Le => at_least(terms.into_iter().map(|(b, l)| (b, !l)).collect(), total - rhs),
        Cmp::Eq => {
            if rhs < 0 || rhs > total {
                return Normal::False(format!("the sum reaches only 0..{total}, never {rhs}"));
            }
            if rhs == 0 || rhs == total {
                let want = rhs == total;
                return Normal::Rows(
                    terms
                        .into_iter()
                        .map(|(_, l)| Constraint::Clause(vec![if want { l } else { !l }]))
                        .collect(),
                );
            }
            let g = terms.iter().fold(0, |g, t| gcd(g, t.0));
            if rhs % g != 0 {
                return Normal::False(format!(
                    "every coefficient is a multiple of {g}, the right-hand side {rhs} is not"
                ));
            }
            let (terms, rhs) = (scale(terms, g), rhs / g);
            if rhs == 1 && terms.iter().all(|t| t.0 == 1) {
                return Normal::Rows(vec![Constraint::ExactlyOne(terms.into_iter().map(|t| t.1).collect())]);
            }
            Normal::Rows(vec![Constraint::Linear(Linear::new(
                to_i64(terms),
                Cmp::Eq,
                rhs as i64,
            ))])
        }
    }
}

fn at_least(terms: Vec<(i128, IrLit)>, rhs: i128) -> Normal {
    if rhs <= 0 {
        return Normal::True;
    }
    let total: i128 = terms.iter().map(|t| t.0).sum();
    if total < rhs {
        return Normal::False(format!("the left side reaches at most {total} < {rhs}"));
    }
    // Saturation: a literal worth more than the right-hand side is worth exactly it.
    let terms: Vec<(i128, IrLit)> = terms.into_iter().map(|(b, l)| (b.min(rhs), l)).collect();
    let g = terms.iter().fold(0, |g, t| gcd(g, t.0));
    let (terms, rhs) = (scale(terms, g), (rhs + g - 1) / g);
    if terms.iter().all(|t| t.0 >= rhs) {
        return Normal::Rows(vec![Constraint::Clause(terms.into_iter().map(|t| t.1).collect())]);
    }
    Normal::Rows(vec![Constraint::Linear(Linear::new(
        to_i64(terms),
        Cmp::Ge,
        rhs as i64,
    ))])
}

fn scale(terms: Vec<(i128, IrLit)>, g: i128) -> Vec<(i128, IrLit)> {
    terms.into_iter().map(|(b, l)| (b / g, l)).collect()
}

/// The width check keeps every coefficient below 2^62.
fn to_i64(terms: Vec<(i128, IrLit)>) -> Vec<(i64, IrLit)> {
    terms.into_iter().map(|(b, l)| (b as i64, l)).collect()
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a } else { gcd(b, a % b) }
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
            source: "t".into(),
            num_vars: 3,
            rows,
            objective: None,
            cnf: false,
        }
    }

    /// Every assignment of the file's variables satisfies the compiled model (with some
    /// values of the auxiliaries) exactly when it satisfies the file.
    fn same_solutions(rows: Vec<Row>) {
        let p = file(rows);
        let n = p.num_vars as usize;
        let m = match compile(&p, false) {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        };
        let aux = m.formula.num_vars as usize - n;
        for bits in 0..1u32 << n {
            let xs: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
            let want = super::super::verify::check_values(&p, &xs).is_ok();
            let got = (0..1u32 << aux).any(|a| {
                let mut all = xs.clone();
                all.extend((0..aux).map(|i| a >> i & 1 == 1));
                m.formula.evaluate(&all).is_ok()
            });
            assert_eq!(got, want, "assignment {xs:?} of {:?}", p.rows);
        }
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
    fn rows_past_62_bits_are_refused_with_their_line() {
        let mut p = file(vec![row(&[(1, &[lit(1, false)])], Cmp::Ge, 1)]);
        p.rows.push(Row::Linear {
            terms: vec![Term {
                coef: BigInt::from(1u64 << 62),
                lits: vec![lit(2, false)],
            }],
            cmp: Cmp::Ge,
            rhs: BigInt::from(1),
            line: 7,
        });
        let e = check_width(&p).unwrap_err();
        assert_eq!(e.line, Some(7));
    }
}
