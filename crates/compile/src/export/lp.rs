//! CPLEX LP format (read by CBC, HiGHS, CPLEX, Gurobi, SCIP).

use std::io::{self, Write};

use super::rows::{objective, rows};
use super::text::{check_names, comment, signed};
use crate::ir::{Cmp, PbFormula};

pub fn write_lp(out: &mut dyn Write, f: &PbFormula, names: &[String], header: &[String]) -> io::Result<()> {
    check_names(names)?;
    let mut w = io::BufWriter::new(out);
    for h in header {
        writeln!(w, "\\ {}", comment(h))?;
    }
    writeln!(w, "Minimize")?;
    match objective(f) {
        Some((terms, constant)) if !terms.is_empty() => {
            if constant != 0 {
                writeln!(w, "\\ objective constant {constant} (not in the objective row)")?;
            }
            write!(w, " obj:")?;
            for (k, &(c, v)) in terms.iter().enumerate() {
                if k > 0 && k % 8 == 0 {
                    write!(w, "\n   ")?;
                }
                write!(w, " {} {}", signed(c), names[v])?;
            }
            writeln!(w)?;
        }
        // A feasibility problem: a zero objective over the first column keeps every reader happy.
        _ => match names.first() {
            Some(n) => writeln!(w, " obj: 0 {n}")?,
            None => writeln!(w, " obj:")?,
        },
    }
    writeln!(w, "Subject To")?;
    for (i, r) in rows(f).iter().enumerate() {
        writeln!(w, "\\ {}", comment(&r.label))?;
        write!(w, " r{}:", i + 1)?;
        if r.terms.is_empty() {
            // An empty row still needs a variable on the left.
            write!(w, " 0 {}", names.first().map(String::as_str).unwrap_or("x"))?;
        }
        for (k, &(c, v)) in r.terms.iter().enumerate() {
            // Keep lines short: LP readers limit line length.
            if k > 0 && k % 8 == 0 {
                write!(w, "\n   ")?;
            }
            write!(w, " {} {}", signed(c), names[v])?;
        }
        let op = match r.cmp {
            Cmp::Le => "<=",
            Cmp::Ge => ">=",
            Cmp::Eq => "=",
        };
        writeln!(w, " {op} {}", r.rhs)?;
    }
    writeln!(w, "Binaries")?;
    for chunk in names.chunks(8) {
        writeln!(w, " {}", chunk.join(" "))?;
    }
    writeln!(w, "End")?;
    w.flush()
}
