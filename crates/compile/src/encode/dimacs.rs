//! DIMACS CNF output, deterministic, with comment lines naming the variables.

use std::io::{self, Write};

use super::cnf::AuxRange;
use super::sink::Cnf;
use crate::ir::Var;

/// Writes `cnf` as DIMACS. `header` lines become `c` comments first; then each primary
/// variable is named (`c var 7 p_ABC_012_r1`), auxiliary ranges are attributed to the
/// constraint they encode (`c aux 241-318 vertex A`), and `show` (the variables that identify
/// a solution) becomes the projection set of model counters, `c p show 1 2 ... 0` (the model
/// counting competition's form; SAT solvers read it as a comment).
pub fn write(
    out: &mut dyn Write,
    cnf: &Cnf,
    header: &[String],
    names: &[String],
    aux: &[AuxRange],
    show: &[Var],
) -> io::Result<()> {
    let mut w = io::BufWriter::new(out);
    for h in header {
        writeln!(w, "c {}", one_line(h))?;
    }
    for (i, n) in names.iter().enumerate() {
        writeln!(w, "c var {} {}", i + 1, n)?;
    }
    for a in aux {
        writeln!(w, "c aux {}-{} {}", a.first + 1, a.last + 1, one_line(&a.label))?;
    }
    if !show.is_empty() {
        let mut line = String::from("c p show");
        for v in show {
            line.push(' ');
            line.push_str(&(v.0 + 1).to_string());
        }
        line.push_str(" 0");
        writeln!(w, "{line}")?;
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

/// A comment's text on one line: a line break in it (a file name can hold one) would start
/// a line that solvers read as clauses.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn comments_stay_on_their_line() {
        let mut out = Vec::new();
        let cnf = super::Cnf::new();
        super::write(&mut out, &cnf, &["instance a\n1 2 0\r".to_string()], &[], &[], &[]).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.lines().all(|l| l.starts_with("c ") || l.starts_with("p cnf")),
            "{text}"
        );
    }
}
