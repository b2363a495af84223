//! A pseudo-Boolean model built in code: variables, clauses, at-most-one and exactly-one
//! groups, cardinality and linear rows with coefficients of any size, and an objective.
//!
//! The model is kept as written, like an OPB file read from disk, so that it goes through
//! the run path of every other instance: compiled, presolved, encoded, solved, and every
//! answer checked against the rows as written, in exact arithmetic.

use std::collections::HashMap;
use std::io::Write;

use num_bigint::BigInt;

use super::cnf::{ClauseSink, Cnf, Encoding};
use super::instance::Instance;
use super::literal::{Cmp, Lit, Var};
use super::options::Options;
use super::outcome::Outcome;
use crate::error::Error;
use crate::input::InputError;
use crate::pb::{Objective, PbFile, Row, Term};
use crate::run::emit::Format;

/// The most variables a model may have: as many as an OPB file may declare (every answer
/// holds a value for each).
pub const MAX_VARS: usize = crate::pb::MAX_VARS as usize;

/// A pseudo-Boolean model: Boolean variables, rows over their literals, and optionally an
/// objective to minimise or maximise.
///
/// Build it, then [`solve`](Model::solve) it on any [`Backend`](crate::Backend),
/// [`enumerate`](Model::enumerate) or [`count`](Model::count) its solutions, compile it to
/// CNF with a chosen [`Encoding`] ([`Model::to_cnf`]), or [`write`](Model::write) it in any
/// export [`Format`]. Rows keep their coefficients exactly ([`BigInt`], anything that
/// converts into one); sokuc splits rows too wide for 64-bit arithmetic into digit columns
/// itself.
///
/// ```
/// use sokuc::{Cmp, Model, Options, Status};
///
/// let mut m = Model::new();
/// let [a, b, c] = [m.new_var(), m.new_var(), m.new_var()];
/// m.add_clause([a, b]);
/// m.add_at_most_one([a, b, c]);
/// m.add_linear([(2, a.pos()), (3, b.pos()), (1, c.pos())], Cmp::Ge, 3);
/// m.maximise([(5, a), (4, b), (3, c)]);
///
/// let best = m.solve(&Options::new())?;
/// assert_eq!(best.status(), Status::Sat);
/// assert_eq!(best.optimal(), Some(true));
/// assert_eq!(best.value(b), Some(true));
/// assert_eq!(best.objective_value(), Some(&4.into()));
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Model {
    num_vars: u32,
    rows: Vec<Row>,
    objective: Option<Objective>,
    names: Vec<(u32, String)>,
    by_name: HashMap<String, Var>,
}

impl Model {
    /// An empty model: no variables, no rows.
    pub fn new() -> Model {
        Model::default()
    }

    /// A new variable.
    ///
    /// # Panics
    ///
    /// Past [`MAX_VARS`] variables.
    pub fn new_var(&mut self) -> Var {
        assert!(
            (self.num_vars as usize) < MAX_VARS,
            "a model has at most {MAX_VARS} variables"
        );
        self.num_vars += 1;
        Var(self.num_vars - 1)
    }

    /// `n` new variables.
    ///
    /// # Panics
    ///
    /// Past [`MAX_VARS`] variables.
    pub fn new_vars(&mut self, n: usize) -> Vec<Var> {
        (0..n).map(|_| self.new_var()).collect()
    }

    /// A new variable with a name, which answers and exports use instead of `x<n>`.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when the name is taken or is not an OPB name (a letter or `_`,
    /// then letters, digits, `_`, `[`, `]`, `.`), or past [`MAX_VARS`] variables.
    pub fn new_named_var(&mut self, name: &str) -> Result<Var, Error> {
        let bad = |why: String| Error::Input(InputError::new("model", None, why));
        let mut chars = name.chars();
        let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric() || "_[].".contains(c)) {
            return Err(bad(format!(
                "{name:?} is not a variable name (a letter or _, then letters, digits, _ [ ] .)"
            )));
        }
        if self.by_name.contains_key(name) || is_index_name(name) {
            return Err(bad(format!("the variable name {name:?} is taken")));
        }
        if self.num_vars as usize >= MAX_VARS {
            return Err(bad(format!("a model has at most {MAX_VARS} variables")));
        }
        let v = self.new_var();
        self.names.push((v.0 + 1, name.to_string()));
        self.by_name.insert(name.to_string(), v);
        Ok(v)
    }

    /// The variable of that name ([`Model::new_named_var`]).
    pub fn var_named(&self, name: &str) -> Option<Var> {
        self.by_name.get(name).copied()
    }

    /// The variable's name: its own, or `x<n+1>`.
    pub fn name(&self, v: Var) -> String {
        match self.names.binary_search_by_key(&(v.0 + 1), |(i, _)| *i) {
            Ok(k) => self.names[k].1.clone(),
            Err(_) => v.to_string(),
        }
    }

    /// How many variables the model has.
    pub fn num_vars(&self) -> usize {
        self.num_vars as usize
    }

    /// How many rows the model has (each `add_*` call adds one).
    pub fn num_rows(&self) -> usize {
        self.rows.len()
    }

    /// A clause: at least one of the literals holds. An empty clause makes the model
    /// unsatisfiable.
    ///
    /// # Panics
    ///
    /// On a variable of another model (one this model has not made).
    pub fn add_clause(&mut self, lits: impl IntoIterator<Item = impl Into<Lit>>) {
        let lits = lits.into_iter().map(|l| self.file_lit(l.into())).collect();
        let line = self.next_row();
        self.rows.push(Row::Clause { lits, line });
    }

    /// At most one of the literals holds.
    ///
    /// # Panics
    ///
    /// On a variable of another model.
    pub fn add_at_most_one(&mut self, lits: impl IntoIterator<Item = impl Into<Lit>>) {
        self.add_cardinality(lits, Cmp::Le, 1);
    }

    /// Exactly one of the literals holds.
    ///
    /// # Panics
    ///
    /// On a variable of another model.
    pub fn add_exactly_one(&mut self, lits: impl IntoIterator<Item = impl Into<Lit>>) {
        self.add_cardinality(lits, Cmp::Eq, 1);
    }

    /// The number of literals that hold compares with `k`: at most `k` ([`Cmp::Le`]), at
    /// least ([`Cmp::Ge`]) or exactly ([`Cmp::Eq`]).
    ///
    /// # Panics
    ///
    /// On a variable of another model.
    pub fn add_cardinality(&mut self, lits: impl IntoIterator<Item = impl Into<Lit>>, cmp: Cmp, k: u64) {
        let terms: Vec<(BigInt, Lit)> = lits.into_iter().map(|l| (BigInt::from(1), l.into())).collect();
        self.add_linear(terms, cmp, k);
    }

    /// A linear row: `Σ coefficient · literal` compares with `rhs`, where a literal counts 1
    /// when it holds and 0 when not. Coefficients may be negative and of any size.
    ///
    /// ```
    /// use sokuc::{Cmp, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.new_vars(3);
    /// // 10^30 x1 - 10^30 x2 + x3 >= 1: wider than any machine integer.
    /// let big: num_bigint::BigInt = "1000000000000000000000000000000".parse().unwrap();
    /// m.add_linear([(big.clone(), x[0].pos()), (-big, x[1].pos()), (1.into(), x[2].pos())], Cmp::Ge, 1);
    /// assert_eq!(m.num_rows(), 1);
    /// ```
    ///
    /// # Panics
    ///
    /// On a variable of another model.
    pub fn add_linear<C: Into<BigInt>, L: Into<Lit>>(
        &mut self,
        terms: impl IntoIterator<Item = (C, L)>,
        cmp: Cmp,
        rhs: impl Into<BigInt>,
    ) {
        let terms = self.file_terms(terms);
        let line = self.next_row();
        self.rows.push(Row::Linear {
            terms,
            cmp,
            rhs: rhs.into(),
            line,
        });
    }

    /// The objective: minimise `Σ coefficient · literal` (replaces an earlier one).
    ///
    /// # Panics
    ///
    /// On a variable of another model.
    pub fn minimise<C: Into<BigInt>, L: Into<Lit>>(&mut self, terms: impl IntoIterator<Item = (C, L)>) {
        self.set_objective(terms, false);
    }

    /// The objective: maximise `Σ coefficient · literal` (replaces an earlier one).
    ///
    /// # Panics
    ///
    /// On a variable of another model.
    pub fn maximise<C: Into<BigInt>, L: Into<Lit>>(&mut self, terms: impl IntoIterator<Item = (C, L)>) {
        self.set_objective(terms, true);
    }

    /// Drops the objective: the model becomes a decision problem again.
    pub fn clear_objective(&mut self) {
        self.objective = None;
    }

    /// Whether the model has an objective.
    pub fn has_objective(&self) -> bool {
        self.objective.is_some()
    }

    fn set_objective<C: Into<BigInt>, L: Into<Lit>>(
        &mut self,
        terms: impl IntoIterator<Item = (C, L)>,
        maximise: bool,
    ) {
        let terms = self.file_terms(terms);
        self.objective = Some(Objective {
            terms,
            maximise,
            line: 0,
        });
    }

    /// Solves the model on the options' backend: the first solution, or with an objective
    /// the best one found (proven optimal when [`Outcome::optimal`] says so). Every solution
    /// is checked against the rows as they were added, in exact arithmetic.
    ///
    /// # Errors
    ///
    /// As [`Instance::solve`]: a backend this build lacks or that cannot take the model, a
    /// limit the model passes, and [`Error::Internal`] for an answer that breaks a row.
    pub fn solve(&self, options: &Options) -> Result<Outcome, Error> {
        Instance::from_pb(self.file("model")).solve(options)
    }

    /// Solves the model with each literal of `assumptions` fixed to hold: the model's rows
    /// and the assumptions, solved as one. The model itself is unchanged, so the next call
    /// may assume otherwise.
    ///
    /// ```
    /// use sokuc::{Model, Options, Status};
    ///
    /// let mut m = Model::new();
    /// let [a, b] = [m.new_var(), m.new_var()];
    /// m.add_clause([!a, !b]);
    /// assert_eq!(m.solve_assuming([a.pos()], &Options::new())?.value(b), Some(false));
    /// assert_eq!(m.solve_assuming([a.pos(), b.pos()], &Options::new())?.status(), Status::Unsat);
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Model::solve`].
    ///
    /// # Panics
    ///
    /// On a variable of another model.
    pub fn solve_assuming(
        &self,
        assumptions: impl IntoIterator<Item = Lit>,
        options: &Options,
    ) -> Result<Outcome, Error> {
        let mut file = self.file("model");
        for l in assumptions {
            let line = file.rows.len() + 1;
            file.rows.push(Row::Clause {
                lits: vec![self.file_lit(l)],
                line,
            });
        }
        Instance::from_pb(file).solve(options)
    }

    /// Every solution (of the model's rows; an objective is left out), up to `limit`, each
    /// passed to `each` as it is found; `each` returns `false` to stop. Gives how many were
    /// found and whether that is all of them ([`Enumerated::complete`](super::Enumerated::complete):
    /// a claim the gate accepted, with its [`evidence`](super::Enumerated::evidence)), as
    /// [`Instance::enumerate`](super::Instance::enumerate) does; [`Options::strict`] is
    /// honoured the same way.
    ///
    /// ```
    /// use sokuc::{Model, Options};
    ///
    /// let mut m = Model::new();
    /// let x = m.new_vars(3);
    /// m.add_exactly_one(x.iter().copied());
    /// let mut seen = Vec::new();
    /// let e = m.enumerate(&Options::new(), None, |s| {
    ///     seen.push(s.values().iter().position(|&v| v).unwrap());
    ///     true
    /// })?;
    /// seen.sort();
    /// assert_eq!((e.found(), e.complete(), seen), (3, true, vec![0, 1, 2]));
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Model::solve`].
    pub fn enumerate(
        &self,
        options: &Options,
        limit: Option<u64>,
        each: impl FnMut(&super::solution::Assignment) -> bool,
    ) -> Result<super::Enumerated, Error> {
        let mut file = self.file("model");
        file.objective = None;
        super::solutions::enumerate(&file, options, limit, each)
    }

    /// The exact number of solutions (of the model's rows), by projected model counting of
    /// its CNF: no solution is enumerated. `None` when the time limit came first.
    ///
    /// ```
    /// use sokuc::{Count, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.new_vars(40);
    /// m.add_at_most_one(x[..20].iter().copied());
    /// // 21 ways for the first twenty, 2^20 for the rest.
    /// let n = m.count(&Count::new())?.expect("no time limit");
    /// assert_eq!(n.to_string(), (21u64 << 20).to_string());
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Instance::count`].
    pub fn count(&self, options: &super::count::Count) -> Result<Option<num_bigint::BigUint>, Error> {
        let mut file = self.file("model");
        file.objective = None;
        options.run(&file)
    }

    /// Compiles the model to CNF with the chosen encoding of its linear rows (the
    /// objective is left out). Variable `n` of the model is DIMACS variable `n + 1`; the
    /// encoder's auxiliary variables follow. Presolve is off, so the CNF has every row.
    ///
    /// ```
    /// use sokuc::{Cmp, Encoding, Model};
    ///
    /// let mut m = Model::new();
    /// let x = m.new_vars(4);
    /// m.add_linear([(3, x[0]), (2, x[1]), (2, x[2]), (1, x[3])], Cmp::Le, 4);
    /// let bdd = m.to_cnf(Encoding::Bdd)?;
    /// let adder = m.to_cnf(Encoding::Adder)?;
    /// assert_eq!(bdd.dimacs(x[3].pos()), 4);
    /// assert!(bdd.num_vars() >= 4 && adder.num_vars() >= 4);
    /// let mut out = Vec::new();
    /// bdd.write_dimacs(&mut out)?;
    /// assert!(String::from_utf8(out).unwrap().contains("p cnf"));
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Limit`] when the CNF would pass the encoder's clause budget (20 million
    /// clauses) or its memory limit.
    pub fn to_cnf(&self, encoding: Encoding) -> Result<Cnf, Error> {
        super::cnf::compile(&self.file("model"), encoding)
    }

    /// Compiles the model to CNF as [`Model::to_cnf`] does, writing each clause into `sink`
    /// as it is made instead of keeping the CNF. Gives the number of variables (model and
    /// auxiliary) and of clauses.
    ///
    /// # Errors
    ///
    /// As [`Model::to_cnf`].
    pub fn encode_into(&self, encoding: Encoding, sink: &mut dyn ClauseSink) -> Result<(u64, u64), Error> {
        super::cnf::stream(&self.file("model"), encoding, sink)
    }

    /// Writes the model in an export format, as `sokuc solve --emit` writes an OPB file's:
    /// DIMACS CNF, OPB, CPLEX LP, MPS or MiniZinc.
    ///
    /// ```
    /// use sokuc::{Format, Model, Options};
    ///
    /// let mut m = Model::new();
    /// let x = m.new_vars(2);
    /// m.add_clause([x[0], x[1]]);
    /// m.minimise([(1, x[0]), (1, x[1])]);
    /// let mut lp = Vec::new();
    /// m.write(Format::Lp, &Options::new(), &mut lp)?;
    /// assert!(String::from_utf8(lp).unwrap().contains("Minimize"));
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Io`] when `out` fails, [`Error::Limit`] past the encoder's budget, and
    /// [`Error::Unsupported`] for a format that cannot hold the objective.
    pub fn write(&self, format: Format, options: &Options, out: &mut dyn Write) -> Result<(), Error> {
        Instance::from_pb(self.file("model")).emit(format, options, out)
    }

    /// The model as an [`Instance`] of kind `opb`, as if read from an OPB file named `name`:
    /// for [`Instance::decode`], which reads an external solver's answer to an export.
    pub fn to_instance(&self, name: &str) -> Instance {
        Instance::from_pb(self.file(name))
    }

    fn next_row(&self) -> usize {
        self.rows.len() + 1
    }

    fn file_lit(&self, l: Lit) -> crate::pb::Lit {
        assert!(l.var.0 < self.num_vars, "{} is not a variable of this model", l.var);
        crate::pb::Lit {
            var: l.var.0 + 1,
            neg: l.neg,
        }
    }

    fn file_terms<C: Into<BigInt>, L: Into<Lit>>(&self, terms: impl IntoIterator<Item = (C, L)>) -> Vec<Term> {
        terms
            .into_iter()
            .map(|(c, l)| Term {
                coef: c.into(),
                lits: vec![self.file_lit(l.into())],
            })
            .collect()
    }

    /// The model as the OPB front-end's file: rows numbered from 1 in the order added.
    pub(crate) fn file(&self, source: &str) -> PbFile {
        PbFile {
            source: source.to_string(),
            num_vars: self.num_vars,
            rows: self.rows.clone(),
            objective: self.objective.clone(),
            cnf: false,
            split: crate::ir::digits::Split::default(),
            warnings: Vec::new(),
            names: self.names.clone(),
        }
    }
}

/// `x12` and the like: the names answers give unnamed variables.
fn is_index_name(name: &str) -> bool {
    name.strip_prefix('x')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}
