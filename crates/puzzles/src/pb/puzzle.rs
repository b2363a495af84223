//! The OPB/CNF front-end behind [`Puzzle`]: answers in the competitions' output conventions.
//!
//! Text follows the PB and SAT competitions: `s SATISFIABLE` / `s UNSATISFIABLE` /
//! `s UNKNOWN`, an `o` line with the objective's value when the file has one, and `v` lines
//! with every variable of the file (`x1 -x2 ...` for OPB, `1 -2 ... 0` for CNF). Comments
//! (`c`) say what was verified. With an objective, `o` lines give each improving solution's
//! value (the last one exact, from the file's own terms), and `s OPTIMUM FOUND` only when the
//! run path proved that nothing better exists.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::compile::{PbKey, compile};
use super::file::{PbFile, Values};
use super::verify::{check_values, objective_value};
use crate::input::{InputError, answer};
use crate::ir::{Model, PbFormula, Status, Var};
use crate::puzzle::{Answer, CompileOptions, Invalid, Puzzle, Refutation};

/// Literals per `v` line.
const PER_LINE: usize = 16;

impl PbFile {
    fn v_lines(&self, values: &[bool]) -> String {
        let mut out = String::new();
        let n = self.num_vars as usize;
        let named: std::collections::HashMap<u32, &str> = self.names.iter().map(|(i, s)| (*i, s.as_str())).collect();
        for start in (0..n.max(1)).step_by(PER_LINE) {
            out.push('v');
            for i in start..(start + PER_LINE).min(n) {
                let on = values.get(i).copied().unwrap_or(false);
                let sign = if on { "" } else { "-" };
                let index = u32::try_from(i + 1).unwrap_or(u32::MAX);
                let _ = if self.cnf {
                    write!(out, " {sign}{}", i + 1)
                } else if let Some(name) = named.get(&index) {
                    write!(out, " {sign}{name}")
                } else {
                    write!(out, " {sign}x{}", i + 1)
                };
            }
            if self.cnf && start + PER_LINE >= n {
                out.push_str(" 0");
            }
            out.push('\n');
        }
        out
    }

    /// "all 3 constraints of the file hold", "the file's 1 constraint holds".
    fn all_hold(&self) -> String {
        match self.rows.len() {
            1 => "the file's 1 constraint holds".to_string(),
            n => format!("all {n} constraints of the file hold"),
        }
    }

    fn dimacs_model(&self, values: &[bool]) -> Vec<i64> {
        (0..self.num_vars as usize)
            .map(|i| {
                let v = i as i64 + 1;
                if values.get(i).copied().unwrap_or(false) { v } else { -v }
            })
            .collect()
    }
}

impl Puzzle for PbFile {
    type Compiled = Model<PbKey>;
    type Solution = Values;

    fn kind(&self) -> &'static str {
        if self.cnf { "cnf" } else { "opb" }
    }

    fn comment(&self) -> &'static str {
        "c"
    }

    fn source(&self) -> &str {
        &self.source
    }

    fn header(&self, _opts: &CompileOptions, _encoding: Option<&str>) -> Vec<String> {
        vec![
            format!("sokuc {} {} model", env!("CARGO_PKG_VERSION"), self.kind()),
            format!("instance {}", self.source),
        ]
    }

    fn check_size(&self, max_memory: u64) -> Result<(), crate::encode::EncodeError> {
        // Each declared variable is a pool entry (name and index) and a value in every answer.
        const PER_VAR: u64 = 64;
        let needed = u64::from(self.num_vars) * PER_VAR;
        if needed > max_memory {
            return Err(crate::encode::EncodeError::Memory {
                what: format!("the model of {} ({} variables)", self.source, self.num_vars),
                needed,
                limit: max_memory,
                hint: String::new(),
            });
        }
        Ok(())
    }

    fn compile(&self, opts: &CompileOptions) -> Result<Model<PbKey>, Refutation> {
        compile(self, opts.presolve)
    }

    fn formula<'c>(&self, c: &'c Model<PbKey>) -> &'c PbFormula {
        &c.formula
    }

    fn names(&self, c: &Model<PbKey>) -> Vec<String> {
        c.names()
    }

    fn decode(&self, _c: &Model<PbKey>, assignment: &[bool]) -> Result<Values, Invalid> {
        let n = self.num_vars as usize;
        if assignment.len() < n {
            return Err(Invalid(format!(
                "the answer has {} values, the file {n} variables",
                assignment.len()
            )));
        }
        Ok(assignment[..n].to_vec())
    }

    fn verify(&self, s: &Values) -> Result<(), Invalid> {
        check_values(self, s)
    }

    fn primary(&self, _c: &Model<PbKey>) -> Vec<Var> {
        (0..self.num_vars).map(Var).collect()
    }

    fn text(&self, a: &Answer<Values>) -> String {
        let mut out = String::new();
        for w in &self.warnings {
            let _ = writeln!(out, "c warning: {w}");
        }
        match (&a.solution, a.status) {
            (Some(s), _) => {
                // The competition's order: `o` lines as solutions improved, then the status.
                let maximise = self.objective.as_ref().is_some_and(|o| o.maximise);
                // Streamed lines went out already, each as its solution was found.
                if !a.improvements_streamed {
                    for v in &a.improvements[..a.improvements.len().saturating_sub(1)] {
                        let _ = writeln!(out, "o {}", if maximise { -v } else { v.clone() });
                    }
                    if let Some(o) = objective_value(self, s) {
                        let _ = writeln!(out, "o {o}");
                    }
                }
                out.push_str(if a.optimal == Some(true) {
                    "s OPTIMUM FOUND\n"
                } else {
                    "s SATISFIABLE\n"
                });
                out.push_str(&self.v_lines(s));
                match (a.unique, &a.second) {
                    (Some(true), _) => {
                        let _ = writeln!(
                            out,
                            "c unique: the {} backend proved there is no other solution",
                            a.backend
                        );
                    }
                    (Some(false), Some(s2)) => {
                        let _ = writeln!(out, "c not unique: a second solution is");
                        for line in self.v_lines(s2).lines() {
                            let _ = writeln!(out, "c {line}");
                        }
                    }
                    _ if !a.asked_unique => {}
                    _ => {
                        let _ = writeln!(out, "c {}", a.uniqueness_unknown());
                    }
                }
                let _ = writeln!(out, "c verified: {} (exact arithmetic)", self.all_hold());
                a.evidence.push_lines(&mut out, "c ");
            }
            (None, Status::Unsat) => {
                out.push_str("s UNSATISFIABLE\n");
                if let Some(why) = &a.reason {
                    let _ = writeln!(out, "c {why}");
                }
                a.evidence.push_lines(&mut out, "c ");
            }
            (None, _) => {
                out.push_str("s UNKNOWN\n");
                if let Some(why) = &a.reason {
                    let _ = writeln!(out, "c {why}");
                }
                a.evidence.push_lines(&mut out, "c ");
            }
        }
        out
    }

    fn json_fields(&self, solution: Option<&Values>) -> Vec<(String, Value)> {
        let objective = solution.and_then(|s| objective_value(self, s)).map(|o| o.to_string());
        vec![
            ("variables".into(), json!(self.num_vars)),
            ("constraints".into(), json!(self.rows.len())),
            ("model".into(), json!(solution.map(|s| self.dimacs_model(s)))),
            ("objective".into(), json!(objective)),
        ]
    }

    fn read_solution(&self, file: &str, text: &str) -> Result<Values, InputError> {
        if self.names.is_empty() {
            return read_values(file, text, self.num_vars as usize);
        }
        // `v` lines name the file's own variables: read them as `x<index>`.
        let index: std::collections::HashMap<&str, u32> = self.names.iter().map(|(i, s)| (s.as_str(), *i)).collect();
        let renamed: String = text
            .lines()
            .map(|l| match l.strip_prefix("v ") {
                Some(rest) => {
                    let words: Vec<String> = rest
                        .split_whitespace()
                        .map(|w| {
                            let (sign, name) = w.strip_prefix('-').map_or(("", w), |n| ("-", n));
                            match index.get(name) {
                                Some(i) => format!("{sign}x{i}"),
                                None => w.to_string(),
                            }
                        })
                        .collect();
                    format!("v {}\n", words.join(" "))
                }
                None => format!("{l}\n"),
            })
            .collect();
        read_values(file, &renamed, self.num_vars as usize)
    }

    /// `o <value>`, exact, from the file's own terms (as the last `o` line of the text).
    fn improvement_line(&self, s: &Values) -> Option<String> {
        objective_value(self, s).map(|o| format!("o {o}\n"))
    }

    fn valid_summary(&self, s: &Values) -> String {
        match objective_value(self, s) {
            Some(o) => format!("{} (exact arithmetic), objective {o}", self.all_hold()),
            None => format!("{} (exact arithmetic)", self.all_hold()),
        }
    }
}

/// Reads an answer: the JSON of `solve --format json` (its `model`), or competition output
/// (`s` and `v` lines, read by the same parser as `decode`). Unlisted variables are false.
pub fn read_values(file: &str, text: &str, n: usize) -> Result<Values, InputError> {
    let mut values = vec![false; n];
    let out_of_range = |v: usize| InputError::new(file, None, format!("variable {v} is not one of the file's 1..{n}"));
    if !text.trim_start().starts_with('{') {
        let text = crate::input::solution_json::first_text(text);
        return match answer::parse_sat_answer(file, text)? {
            answer::Answer::Sat(listed) => {
                if listed.len() > n {
                    return Err(out_of_range(listed.len()));
                }
                for (slot, v) in values.iter_mut().zip(listed) {
                    *slot = v.unwrap_or(false);
                }
                Ok(values)
            }
            _ => Err(InputError::new(
                file,
                None,
                "the answer has no model to check (it is not SATISFIABLE)",
            )),
        };
    }
    let raw: Value = crate::input::solution_json::first_json(file, text)?;
    let model = raw
        .get("model")
        .and_then(Value::as_array)
        .ok_or_else(|| InputError::new(file, None, "no \"model\" to check (a list of literals such as [1, -2])"))?;
    for x in model {
        let lit = x
            .as_i64()
            .ok_or_else(|| InputError::new(file, None, format!("{x} in \"model\" is not a literal")))?;
        let v = lit.unsigned_abs() as usize;
        if v == 0 || v > n {
            return Err(out_of_range(v));
        }
        values[v - 1] = lit > 0;
    }
    Ok(values)
}
