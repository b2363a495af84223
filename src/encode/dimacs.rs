//! DIMACS CNF output, deterministic, with comment lines naming the variables.

use std::io::{self, Write};

use super::cnf::AuxRange;
use super::sink::Cnf;

/// Writes `cnf` as DIMACS. `header` lines become `c` comments first; then each primary
/// variable is named (`c var 7 p_ABC_012_r1`), and auxiliary ranges are attributed to the
/// constraint they encode (`c aux 241-318 vertex A`).
pub fn write(out: &mut dyn Write, cnf: &Cnf, header: &[String], names: &[String], aux: &[AuxRange]) -> io::Result<()> {
    let mut w = io::BufWriter::new(out);
    for h in header {
        writeln!(w, "c {h}")?;
    }
    for (i, n) in names.iter().enumerate() {
        writeln!(w, "c var {} {}", i + 1, n)?;
    }
    for a in aux {
        writeln!(w, "c aux {}-{} {}", a.first + 1, a.last + 1, a.label)?;
    }
    writeln!(w, "p cnf {} {}", cnf.num_vars, cnf.num_clauses())?;
    let mut line = String::new();
    for c in cnf.clauses() {
        line.clear();
        for l in c {
            line.push_str(&l.dimacs().to_string());
            line.push(' ');
        }
        line.push_str("0\n");
        w.write_all(line.as_bytes())?;
    }
    w.flush()
}
