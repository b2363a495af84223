//! A self-contained MiniZinc model. Its output is in SAT-competition form (`s`/`v` lines
//! over the same variable numbering as DIMACS), so `sokuc decode` reads MiniZinc answers
//! like any SAT solver's.

use std::io::{self, Write};

use super::rows::{objective, rows};
use super::text::{check_names, comment};
use crate::ir::{Cmp, PbFormula};

/// The MiniZinc identifier of a variable. Names are ASCII letters, digits and '_' starting
/// with a letter ([`check_names`]), so `v_` + name is an identifier, distinct for distinct
/// names, and never a keyword (none starts with `v_`).
fn ident(name: &str) -> String {
    format!("v_{name}")
}

pub fn write_mzn(out: &mut dyn Write, f: &PbFormula, names: &[String], header: &[String]) -> io::Result<()> {
    check_names(names)?;
    let mut w = io::BufWriter::new(out);
    for h in header {
        writeln!(w, "% {}", comment(h))?;
    }
    let ids: Vec<String> = names.iter().map(|n| ident(n)).collect();
    for id in &ids {
        writeln!(w, "var 0..1: {id};")?;
    }
    writeln!(w, "array[1..{}] of var 0..1: x = [{}];", ids.len(), ids.join(", "))?;
    for r in rows(f) {
        writeln!(w, "% {}", comment(&r.label))?;
        let sum: Vec<String> = r.terms.iter().map(|&(c, v)| format!("{c}*{}", ids[v])).collect();
        let lhs = if sum.is_empty() {
            "0".to_string()
        } else {
            sum.join(" + ")
        };
        let op = match r.cmp {
            Cmp::Le => "<=",
            Cmp::Ge => ">=",
            Cmp::Eq => "=",
        };
        writeln!(w, "constraint {lhs} {op} {};", r.rhs)?;
    }
    match objective(f) {
        Some((terms, constant)) => {
            let mut sum: Vec<String> = terms.iter().map(|&(c, v)| format!("{c}*{}", ids[v])).collect();
            if constant != 0 || sum.is_empty() {
                sum.push(constant.to_string());
            }
            writeln!(w, "solve minimize {};", sum.join(" + "))?;
        }
        None => writeln!(w, "solve satisfy;")?,
    }
    writeln!(
        w,
        "output [\"s SATISFIABLE\\nv \"] ++ [if fix(x[i]) = 1 then show(i) else \"-\" ++ show(i) endif ++ \" \" | i in 1..{}] ++ [\"0\\n\"];",
        ids.len()
    )?;
    w.flush()
}
