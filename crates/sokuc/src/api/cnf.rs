//! A model compiled to CNF: the encodings of linear rows, the CNF with its variable map,
//! and a sink for clauses as they are made.

use std::io::Write;

use crate::encode::{self, EncodeOptions};
use crate::error::Error;
use crate::ir::{Lit as IrLit, Var as IrVar};
use crate::pb::PbFile;
use crate::puzzle::{CompileOptions, Puzzle};

use super::literal::{Lit, Var};

pub use crate::encode::PbEncoding as Encoding;

/// Where [`crate::Model::encode_into`] writes each clause as it is made (cf. a SAT solver's
/// "add clause"): DIMACS literals, `v` or `-v` for variable `v`, from 1. Variables past the
/// model's are the encoder's auxiliary ones, numbered in the order of first use.
///
/// ```
/// use sokuc::{ClauseSink, Cmp, Encoding, Model};
///
/// struct Longest(usize);
/// impl ClauseSink for Longest {
///     fn add_clause(&mut self, lits: &[i64]) {
///         self.0 = self.0.max(lits.len());
///     }
/// }
///
/// let mut m = Model::new();
/// let x = m.new_vars(5);
/// m.add_cardinality(x.iter().copied(), Cmp::Le, 2);
/// let mut longest = Longest(0);
/// let (vars, clauses) = m.encode_into(Encoding::Totalizer, &mut longest)?;
/// assert!(vars > 5 && clauses > 0 && longest.0 > 0);
/// # Ok::<(), sokuc::Error>(())
/// ```
pub trait ClauseSink {
    /// One clause.
    fn add_clause(&mut self, lits: &[i64]);
}

impl ClauseSink for Vec<Vec<i64>> {
    fn add_clause(&mut self, lits: &[i64]) {
        self.push(lits.to_vec());
    }
}

/// A model compiled to CNF ([`crate::Model::to_cnf`]): its clauses, and which variable of the
/// CNF each variable of the model is.
#[derive(Debug, Clone)]
pub struct Cnf {
    cnf: encode::Cnf,
    model_vars: u32,
    names: Vec<String>,
    encoding: Encoding,
}

impl Cnf {
    /// The CNF's variables: the model's, then the encoder's.
    pub fn num_vars(&self) -> u64 {
        u64::from(self.cnf.num_vars)
    }

    /// The model's variables, which come first (`1..=n` in DIMACS).
    pub fn num_model_vars(&self) -> u64 {
        u64::from(self.model_vars)
    }

    /// How many clauses there are.
    pub fn num_clauses(&self) -> usize {
        self.cnf.num_clauses()
    }

    /// The clauses, each as DIMACS literals.
    pub fn clauses(&self) -> impl Iterator<Item = Vec<i64>> + '_ {
        self.cnf.clauses().map(|c| c.iter().map(|l| l.dimacs()).collect())
    }

    /// The DIMACS literal of a literal of the model.
    pub fn dimacs(&self, lit: impl Into<Lit>) -> i64 {
        lit.into().dimacs()
    }

    /// The model's variable of a DIMACS variable, `None` for an auxiliary one (or one the
    /// CNF does not have).
    pub fn model_var(&self, dimacs: i64) -> Option<Var> {
        let v = dimacs.unsigned_abs();
        (1..=u64::from(self.model_vars))
            .contains(&v)
            .then(|| Var::from_index((v - 1) as usize))
    }

    /// The encoding the CNF was made with.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Whether an assignment of all the CNF's variables (`values[i]` for DIMACS variable
    /// `i + 1`) satisfies every clause.
    pub fn satisfied_by(&self, values: &[bool]) -> bool {
        values.len() >= self.cnf.num_vars as usize && self.cnf.satisfied_by(values)
    }

    /// Writes the CNF in DIMACS, readable by any SAT solver, with `c var` lines naming the
    /// model's variables.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] when `out` fails.
    pub fn write_dimacs(&self, out: &mut dyn Write) -> Result<(), Error> {
        let header = vec![format!(
            "sokuc {} model, linear rows encoded by {}",
            env!("CARGO_PKG_VERSION"),
            self.encoding.name()
        )];
        let show: Vec<IrVar> = (0..self.model_vars).map(IrVar).collect();
        encode::dimacs::write(out, &self.cnf, &header, &self.names, &[], &show)?;
        Ok(())
    }
}

/// The model, compiled without presolve (every row stays, so the variable map is the
/// identity on the model's variables), its rows encoded by `encoding`.
fn formula(file: &PbFile) -> (crate::ir::PbFormula, Vec<String>) {
    let opts = CompileOptions { presolve: false };
    match file.compile(&opts) {
        Ok(m) => {
            let names = file.names(&m);
            (m.formula, names)
        }
        // Without presolve a row no assignment satisfies becomes the empty clause, so
        // compiling does not refute; should it, the CNF says so with the empty clause.
        Err(_) => {
            let mut f = crate::ir::PbFormula::new(file.num_vars);
            f.add("refuted", crate::ir::Constraint::Clause(Vec::new()));
            (f, Vec::new())
        }
    }
}

fn encode_options(encoding: Encoding) -> EncodeOptions {
    EncodeOptions {
        pb: encoding,
        ..EncodeOptions::default()
    }
}

pub(crate) fn compile(file: &PbFile, encoding: Encoding) -> Result<Cnf, Error> {
    let (f, mut names) = formula(file);
    let mut cnf = encode::Cnf::new();
    encode::encode(&f, encode_options(encoding), &mut cnf)?;
    names.truncate(file.num_vars as usize);
    Ok(Cnf {
        cnf,
        model_vars: file.num_vars,
        names,
        encoding,
    })
}

/// The encoder's sink over the caller's: variables counted here, clauses passed on.
struct Forward<'a> {
    to: &'a mut dyn ClauseSink,
    vars: u32,
    clauses: u64,
    buf: Vec<i64>,
}

impl encode::ClauseSink for Forward<'_> {
    fn new_var(&mut self) -> IrVar {
        self.vars += 1;
        IrVar(self.vars - 1)
    }
    fn add_clause(&mut self, lits: &[IrLit]) {
        self.buf.clear();
        self.buf.extend(lits.iter().map(|l| l.dimacs()));
        self.clauses += 1;
        self.to.add_clause(&self.buf);
    }
    fn reserve_vars(&mut self, n: u32) {
        self.vars = self.vars.max(n);
    }
    fn num_vars(&self) -> u32 {
        self.vars
    }
}

pub(crate) fn stream(file: &PbFile, encoding: Encoding, sink: &mut dyn ClauseSink) -> Result<(u64, u64), Error> {
    let (f, _) = formula(file);
    let mut fw = Forward {
        to: sink,
        vars: 0,
        clauses: 0,
        buf: Vec::new(),
    };
    encode::encode(&f, encode_options(encoding), &mut fw)?;
    Ok((u64::from(fw.vars), fw.clauses))
}
