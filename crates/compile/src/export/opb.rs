//! OPB, the pseudo-Boolean competition format (read by minisat+, RoundingSat, ...).
//! Variables must be called `x1..xn`; a comment line names each one.

use std::io::{self, Write};

use super::rows::{objective, rows};
use super::text::{check_names, comment, signed};
use crate::ir::{Cmp, PbFormula};

pub fn write_opb(out: &mut dyn Write, f: &PbFormula, names: &[String], header: &[String]) -> io::Result<()> {
    check_names(names)?;
    let mut w = io::BufWriter::new(out);
    let rs = rows(f);
    // `<=` is not in the format: write it as `>=` with every sign flipped.
    let count = rs.len();
    writeln!(w, "* #variable= {} #constraint= {count}", names.len())?;
    for h in header {
        writeln!(w, "* {}", comment(h))?;
    }
    for (i, n) in names.iter().enumerate() {
        writeln!(w, "* var x{} {n}", i + 1)?;
    }
    if let Some((terms, constant)) = objective(f) {
        if constant != 0 {
            // OPB has no constant term: the file's values are the model's minus it.
            writeln!(w, "* objective constant {constant} (not in the min: line)")?;
        }
        let mut line = String::from("min:");
        for &(c, v) in &terms {
            line.push_str(&format!(" {} x{}", signed(c).replace(' ', ""), v + 1));
        }
        if terms.is_empty() && !names.is_empty() {
            line.push_str(" +0 x1");
        }
        if !terms.is_empty() || !names.is_empty() {
            writeln!(w, "{line} ;")?;
        }
    }
    for r in &rs {
        let (sign, op) = match r.cmp {
            Cmp::Le => (-1, ">="),
            Cmp::Ge => (1, ">="),
            Cmp::Eq => (1, "="),
        };
        let mut line = String::new();
        for &(c, v) in &r.terms {
            line.push_str(&format!("{} x{} ", signed(sign * c).replace(' ', ""), v + 1));
        }
        if r.terms.is_empty() {
            line.push_str("+0 x1 ");
        }
        writeln!(w, "{line}{op} {} ;", sign * r.rhs)?;
    }
    w.flush()
}
