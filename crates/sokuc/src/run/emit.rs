//! `--emit`: the compiled model of any puzzle, written for an external solver. One path for
//! every puzzle kind and every format; the bytes depend only on the input and the options.

use std::io::Write;
use std::path::Path;

use crate::encode::{self, AuxRange, Cnf, EncodeOptions, dimacs};
use crate::error::Error;
use crate::export;
use crate::ir::{Constraint, PbFormula, Var};
use crate::puzzle::{CompileOptions, Puzzle};

/// The formats a compiled model can be written in, for an external solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// CNF in DIMACS, for SAT solvers (kissat, CaDiCaL, minisat); variable names in `c`
    /// comment lines.
    Dimacs,
    /// CPLEX LP, for MIP solvers (CBC, HiGHS).
    Lp,
    /// Free MPS, for MIP solvers (CBC, HiGHS).
    Mps,
    /// OPB, for pseudo-Boolean solvers (the PB competition's format; minisat+, RoundingSat).
    Opb,
    /// A MiniZinc model over Boolean variables.
    Mzn,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 5] = [Format::Dimacs, Format::Lp, Format::Mps, Format::Opb, Format::Mzn];

    /// The format's name as `--emit` takes it: `dimacs`, `lp`, `mps`, `opb`, `mzn`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Dimacs => "dimacs",
            Format::Lp => "lp",
            Format::Mps => "mps",
            Format::Opb => "opb",
            Format::Mzn => "mzn",
        }
    }
}

/// A model ready to write: the formula, its variable names and the comment header.
#[derive(Debug)]
pub struct Emitted {
    pub formula: PbFormula,
    pub names: Vec<String>,
    /// The variables that identify a solution (`Puzzle::primary`): DIMACS names them in a
    /// `c p show` line, the projection set of model counters.
    pub primary: Vec<Var>,
    pub header: Vec<String>,
    /// Presolve refuted the puzzle; the formula is one impossible row.
    pub refuted: bool,
}

/// Compiles `p` for export. When compiling refutes the puzzle, the model is one variable and
/// one impossible row, with the argument in the header, so that every solver agrees.
pub fn model<P: Puzzle>(p: &P, opts: &CompileOptions, encoding: Option<&str>) -> Emitted {
    let mut header = p.header(opts, encoding);
    match p.compile(opts) {
        Ok(c) => Emitted {
            names: p.names(&c),
            primary: p.primary(&c),
            formula: p.formula(&c).clone(),
            header,
            refuted: false,
        },
        Err(refutation) => {
            header.push(format!("UNSAT by presolve: {refutation}"));
            let mut formula = PbFormula::new(1);
            formula.add("presolve: unsatisfiable", Constraint::Clause(vec![]));
            Emitted {
                formula,
                names: vec!["unsat".to_string()],
                primary: Vec::new(),
                header,
                refuted: true,
            }
        }
    }
}

/// Where an emitted model goes.
pub enum To<'a> {
    /// A file, written atomically.
    File(&'a Path),
    /// Any writer (the library's [`crate::Instance::emit`]).
    Writer(&'a mut dyn Write),
}

// By hand: a writer is a trait object, shown by what it is.
impl std::fmt::Debug for To<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            To::File(path) => f.debug_tuple("File").field(path).finish(),
            To::Writer(_) => f.write_str("Writer(..)"),
        }
    }
}

/// Writes `p`'s model in `format`. Everything that can fail (the clause budget, the names)
/// fails before any file is opened.
pub fn write<P: Puzzle>(
    p: &P,
    format: Format,
    copts: &CompileOptions,
    enc: EncodeOptions,
    to: To<'_>,
) -> Result<(), Error> {
    let ready = prepare(p, format, copts, enc)?;
    match to {
        To::File(path) => crate::output::write_atomic(path, |w| ready.write(w))?,
        To::Writer(w) => ready.write(w)?,
    }
    Ok(())
}

/// A model compiled and encoded for one format: only the writing is left, which cannot fail
/// but for I/O.
struct Ready {
    format: Format,
    e: Emitted,
    /// DIMACS: the CNF and its auxiliary-variable ranges.
    cnf: Option<(Cnf, Vec<AuxRange>)>,
}

fn prepare<P: Puzzle>(p: &P, format: Format, copts: &CompileOptions, enc: EncodeOptions) -> Result<Ready, Error> {
    p.check_size(enc.max_memory)?;
    let encoding = (format == Format::Dimacs).then(|| enc.pb.name());
    let e = model(p, copts, encoding);
    // The formats' objective is one sum of 64-bit (LP, MPS: double) numbers; the model's own
    // objective is only the first stage of a wider one. DIMACS has no objective.
    if e.formula.staged().is_some() && format != Format::Dimacs {
        return Err(crate::input::InputError::new(
            p.source(),
            None,
            format!(
                "the objective is wider than 62 bits, which --emit {} cannot write (sokuc solve minimises it in stages)",
                format.name()
            ),
        )
        .into());
    }
    // Names no format can take, or two alike, are sokuc's bug (exit 1).
    export::check_names(&e.names).map_err(|err| {
        let msg = err.to_string();
        Error::internal(msg.strip_prefix("internal error: ").unwrap_or(&msg).to_string())
    })?;
    let cnf = match format {
        // A refuted model is the empty clause alone: no variables to name.
        Format::Dimacs if e.refuted => {
            let mut cnf = Cnf::new();
            cnf.add_clause_public(&[]);
            Some((cnf, Vec::new()))
        }
        Format::Dimacs => {
            let mut cnf = Cnf::new();
            let stats = encode::encode(&e.formula, enc, &mut cnf)?;
            Some((cnf, stats.aux))
        }
        _ => None,
    };
    Ok(Ready { format, e, cnf })
}

impl Ready {
    fn write(&self, w: &mut dyn Write) -> std::io::Result<()> {
        let e = &self.e;
        match self.format {
            Format::Dimacs => {
                let (cnf, aux) = self.cnf.as_ref().expect("built in prepare");
                // A refuted model's one variable is not the CNF's: nothing to name or show.
                let (names, primary): (&[String], &[Var]) = match e.refuted {
                    true => (&[], &[]),
                    false => (&e.names, &e.primary),
                };
                dimacs::write(w, cnf, &e.header, names, aux, primary)
            }
            Format::Lp => export::write_lp(w, &e.formula, &e.names, &e.header),
            Format::Mps => export::write_mps(w, &e.formula, &e.names, &e.header),
            Format::Opb => export::write_opb(w, &e.formula, &e.names, &e.header),
            Format::Mzn => export::write_mzn(w, &e.formula, &e.names, &e.header),
        }
    }
}
