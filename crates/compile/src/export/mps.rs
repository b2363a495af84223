//! Free MPS (read by CBC, HiGHS, SCIP, ...). Columns are binary via `BV` bounds.

use std::io::{self, Write};

use super::rows::{objective, rows};
use super::text::{check_names, comment};
use crate::ir::{Cmp, PbFormula};

pub fn write_mps(out: &mut dyn Write, f: &PbFormula, names: &[String], header: &[String]) -> io::Result<()> {
    check_names(names)?;
    let mut w = io::BufWriter::new(out);
    for h in header {
        writeln!(w, "* {}", comment(h))?;
    }
    let rs = rows(f);
    // "FREE" after the name tells CoinMpsIO (CBC) to read free format.
    writeln!(w, "NAME sokuc FREE")?;
    writeln!(w, "ROWS")?;
    writeln!(w, " N obj")?;
    for (i, r) in rs.iter().enumerate() {
        let t = match r.cmp {
            Cmp::Le => "L",
            Cmp::Ge => "G",
            Cmp::Eq => "E",
        };
        writeln!(w, " {t} r{}", i + 1)?;
    }
    // Column-major entries.
    let mut cols: Vec<Vec<(usize, i64)>> = vec![Vec::new(); names.len()];
    let obj = objective(f);
    for (i, r) in rs.iter().enumerate() {
        for &(c, v) in &r.terms {
            cols[v].push((i, c));
        }
    }
    // The objective row is written as `obj` (index usize::MAX below).
    if let Some((terms, _)) = &obj {
        for &(c, v) in terms {
            cols[v].insert(0, (usize::MAX, c));
        }
    }
    writeln!(w, "COLUMNS")?;
    writeln!(w, " MARKER 'MARKER' 'INTORG'")?;
    for (v, entries) in cols.iter().enumerate() {
        if entries.is_empty() {
            writeln!(w, " {} obj 0", names[v])?;
        }
        for &(i, c) in entries {
            if i == usize::MAX {
                writeln!(w, " {} obj {}", names[v], c)?;
            } else {
                writeln!(w, " {} r{} {}", names[v], i + 1, c)?;
            }
        }
    }
    writeln!(w, " MARKER 'MARKER' 'INTEND'")?;
    writeln!(w, "RHS")?;
    // MPS's objective constant: minus the right-hand side of the objective row.
    if let Some((_, constant)) = obj
        && constant != 0
    {
        writeln!(w, " rhs obj {}", -constant)?;
    }
    for (i, r) in rs.iter().enumerate() {
        if r.rhs != 0 {
            writeln!(w, " rhs r{} {}", i + 1, r.rhs)?;
        }
    }
    writeln!(w, "BOUNDS")?;
    for n in names {
        writeln!(w, " BV bnd {n}")?;
    }
    writeln!(w, "ENDATA")?;
    w.flush()
}
