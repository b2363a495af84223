//! `--emit`: the compiled model of any puzzle, written for an external solver. One path for
//! every puzzle kind and every format; the bytes depend only on the input and the options.

use std::io::Write;
use std::path::Path;

use crate::encode::{self, Cnf, EncodeOptions, dimacs};
use crate::error::Error;
use crate::export;
use crate::ir::{Constraint, PbFormula, Var};
use crate::puzzle::{CompileOptions, Puzzle};

/// The export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Dimacs,
    Lp,
    Mps,
    Opb,
    Mzn,
}

impl Format {
    pub const ALL: [Format; 5] = [Format::Dimacs, Format::Lp, Format::Mps, Format::Opb, Format::Mzn];

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
            let mut formula = PbFormula {
                num_vars: 1,
                ..Default::default()
            };
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

/// Writes `p`'s model in `format` to `output` (atomically) or to standard output. Everything
/// that can fail (the clause budget, the names) fails before any file is opened.
pub fn write<P: Puzzle>(
    p: &P,
    format: Format,
    copts: &CompileOptions,
    enc: EncodeOptions,
    output: Option<&Path>,
) -> Result<(), Error> {
    p.check_size(enc.max_memory)?;
    let encoding = (format == Format::Dimacs).then(|| enc.pb.name());
    let e = model(p, copts, encoding);
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
            Some((cnf, Vec::new(), Vec::new(), Vec::new()))
        }
        Format::Dimacs => {
            let mut cnf = Cnf::new();
            let stats = encode::encode(&e.formula, enc, &mut cnf)?;
            Some((cnf, e.names.clone(), stats.aux, e.primary.clone()))
        }
        _ => None,
    };
    let write = |w: &mut dyn Write| match format {
        Format::Dimacs => {
            let (cnf, names, aux, primary) = cnf.as_ref().expect("built above");
            dimacs::write(w, cnf, &e.header, names, aux, primary)
        }
        Format::Lp => export::write_lp(w, &e.formula, &e.names, &e.header),
        Format::Mps => export::write_mps(w, &e.formula, &e.names, &e.header),
        Format::Opb => export::write_opb(w, &e.formula, &e.names, &e.header),
        Format::Mzn => export::write_mzn(w, &e.formula, &e.names, &e.header),
    };
    match output {
        Some(path) => crate::output::write_atomic(path, write)?,
        None => write(&mut std::io::stdout().lock())?,
    }
    Ok(())
}
