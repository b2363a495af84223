//! The OPB reader (the pseudo-Boolean competition's format, with the usual extensions).
//!
//! ```text
//! * #variable= 3 #constraint= 2
//! min: +2 x1 -1 x3 ;
//! +1 x1 +1 ~x2 >= 1 ;
//! 3 x1 x2 -2 x3 <= 1 ;      <- a product term, and `<=` (an extension minisat+ reads too)
//! ```
//!
//! What minisat+, RoundingSat, VeriPB, Gurobi or GLPK read beyond that is read too, so that
//! a file one of them takes is never refused here: `min: ;` (no terms: a constant 0
//! objective), a sign apart from its digits (`- 3`), a variable glued to its coefficient
//! (`+2x1`, `2*x1`), a literal with no coefficient (`x1 + x2`: the coefficient 1), and the
//! relations `==`, `>` and `<`. Fractional coefficients (Gurobi's) stay errors.
//!
//! Statements end with `;` and may span lines. Coefficients are integers of any size (the
//! competition's BIGINT files go to 2^255 and beyond), read exactly as [`BigInt`]. Every
//! problem is an [`InputError`] with the line it is on. The header's counts are hints, as
//! minisat+, RoundingSat and the competition's checkers take them: a count that does not
//! match the file is a warning, and nothing is reserved from it.

use num_bigint::BigInt;

use super::file::{Lit, MAX_VARS, Objective, PbFile, Row, Term};
use crate::input::InputError;
use crate::ir::Cmp;

/// A coefficient longer than this is refused: parsing a decimal number is quadratic in its
/// length, and 10^1000 is far past any benchmark (BIGINT files stay under 10^80).
const MAX_DIGITS: usize = 1000;

#[derive(Debug, Clone, PartialEq)]
enum Tok<'a> {
    Int(&'a str),
    Lit(Lit),
    /// A relation; `true` for the strict `>` and `<` minisat+ reads (the right-hand side
    /// moves by one, as the left-hand side is an integer).
    Rel(Cmp, bool),
    Semi,
    Min,
    Max,
}

struct Lexer<'a> {
    file: &'a str,
    text: &'a str,
    pos: usize,
    line: usize,
    /// Variables named otherwise than `x<digits>`, with their stand-in indices.
    names: std::collections::HashMap<&'a str, u32>,
}

/// The bytes of a variable's name after its first: what minisat+, RoundingSat and VeriPB
/// files use (`x12`, `iv0_b_0`, `y[3]`, `a.b-2`).
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'[' | b']' | b'.' | b'-' | b'{' | b'}' | b'^')
}

impl<'a> Lexer<'a> {
    fn err(&self, line: usize, msg: impl Into<String>) -> InputError {
        InputError::new(self.file, Some(line), msg)
    }

    /// The next token and its line; comments (`*` to the end of the line) are skipped.
    fn next(&mut self) -> Result<Option<(Tok<'a>, usize)>, InputError> {
        let b = self.text.as_bytes();
        loop {
            while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
                if b[self.pos] == b'\n' {
                    self.line += 1;
                }
                self.pos += 1;
            }
            if self.pos < b.len() && b[self.pos] == b'*' {
                while self.pos < b.len() && b[self.pos] != b'\n' {
                    self.pos += 1;
                }
                continue;
            }
            break;
        }
        if self.pos >= b.len() {
            return Ok(None);
        }
        let line = self.line;
        let start = self.pos;
        let c = b[start];
        let tok = match c {
            b';' => {
                self.pos += 1;
                Tok::Semi
            }
            b'>' | b'<' => {
                let cmp = if c == b'>' { Cmp::Ge } else { Cmp::Le };
                if b.get(start + 1) == Some(&b'=') {
                    self.pos += 2;
                    Tok::Rel(cmp, false)
                } else {
                    self.pos += 1;
                    Tok::Rel(cmp, true)
                }
            }
            b'=' => {
                self.pos += 1;
                // `==` is minisat+'s spelling of `=`; `=>` is neither OPB nor an extension.
                match b.get(self.pos) {
                    Some(b'=') => self.pos += 1,
                    Some(b'>') => return Err(self.err(line, "unknown relation '=>': use >=, <=, = (or >, <)")),
                    _ => {}
                }
                Tok::Rel(Cmp::Eq, false)
            }
            b'+' | b'-' | b'0'..=b'9' => {
                if c == b'+' || c == b'-' {
                    self.pos += 1;
                    // minisat+ reads `- 3` and `+ 4` as numbers: spaces or tabs may follow a sign.
                    while self.pos < b.len() && matches!(b[self.pos], b' ' | b'\t') {
                        self.pos += 1;
                    }
                }
                let digits_start = self.pos;
                while self.pos < b.len() && b[self.pos].is_ascii_digit() {
                    self.pos += 1;
                }
                let word = &self.text[start..self.pos];
                let digits = &self.text[digits_start..self.pos];
                let literal_next = |p: usize| {
                    b.get(p)
                        .is_some_and(|&n| n.is_ascii_alphabetic() || matches!(n, b'_' | b'~'))
                };
                if digits.is_empty() && literal_next(self.pos) {
                    // `+ x1`, `-x2`: a sign with no digits before a literal is the coefficient
                    // +1 or -1 (as Gurobi's and GLPK's OPB writers and readers have it).
                    return Ok(Some((Tok::Int(if c == b'-' { "-1" } else { "+1" }), line)));
                }
                if digits.is_empty() {
                    return Err(self.err(
                        line,
                        format!(
                            "'{}' is not a number: a sign must be followed by digits",
                            word.trim_end()
                        ),
                    ));
                }
                // A variable may follow its coefficient with no space between (`+3x1`, as
                // minisat+ reads it) or after a `*` (`3*x1`, minisat+'s old format and
                // GLPK's); anything else glued to the digits is no number.
                let ends = |n: u8| n.is_ascii_whitespace() || matches!(n, b';' | b'>' | b'<' | b'=');
                if b.get(self.pos) == Some(&b'*') && literal_next(self.pos + 1) {
                    self.pos += 1;
                } else if b.get(self.pos).is_some_and(|&n| !ends(n)) && !literal_next(self.pos) {
                    let end = self.word_end(self.pos);
                    return Err(self.err(
                        line,
                        format!("'{}' is not an integer coefficient", &self.text[start..end]),
                    ));
                }
                if digits.len() > MAX_DIGITS {
                    return Err(self.err(
                        line,
                        format!(
                            "a number with {} digits is too long (at most {MAX_DIGITS})",
                            digits.len()
                        ),
                    ));
                }
                Tok::Int(word)
            }
            b'm' if matches!(&self.text[start..self.word_end(start)], "min:" | "max:") => {
                let end = self.word_end(start);
                self.pos = end;
                if &self.text[start..end] == "min:" {
                    Tok::Min
                } else {
                    Tok::Max
                }
            }
            b'~' | b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let neg = c == b'~';
                let name_start = start + usize::from(neg);
                let mut p = name_start;
                while p < b.len() && is_name_byte(b[p]) {
                    p += 1;
                }
                let end = self.word_end(p);
                let name = &self.text[name_start..p];
                let first_ok = b.get(name_start).is_some_and(|&f| f.is_ascii_alphabetic() || f == b'_');
                if name.is_empty() || !first_ok || end != p {
                    return Err(self.err(
                        line,
                        format!(
                            "'{}' is not a literal: a variable is a name such as x1 or flag_2 (letters, digits, _ [ ] . -, starting with a letter or _), negated as ~x1",
                            &self.text[start..end.max(p).max(start + 1).min(b.len())]
                        ),
                    ));
                }
                self.pos = p;
                let ds = name_start + 1;
                let numbered =
                    name.len() > 1 && name.as_bytes()[0] == b'x' && name.as_bytes()[1..].iter().all(u8::is_ascii_digit);
                if !numbered {
                    let var = self
                        .named(name)
                        .ok_or_else(|| self.err(line, format!("more than {} variables", MAX_VARS)))?;
                    return Ok(Some((Tok::Lit(Lit { var, neg }), line)));
                }
                let index: u32 = self.text[ds..p]
                    .parse()
                    .ok()
                    .filter(|&i| (1..=MAX_VARS).contains(&i))
                    .ok_or_else(|| {
                        self.err(
                            line,
                            format!(
                                "variable '{}' is out of range (x1 .. x{})",
                                &self.text[start..p],
                                MAX_VARS
                            ),
                        )
                    })?;
                Tok::Lit(Lit { var: index, neg })
            }
            _ => {
                let end = self
                    .word_end(start)
                    .max(start + self.text[start..].chars().next().map_or(1, char::len_utf8));
                return Err(self.err(
                    line,
                    format!(
                        "unexpected '{}': expected a term, a relation or ';'",
                        &self.text[start..end]
                    ),
                ));
            }
        };
        Ok(Some((tok, line)))
    }

    /// The variable called `name` (not `x<digits>`): a stand-in index counted down from
    /// `u32::MAX`, renumbered after the last `x<digits>` once the file is read.
    fn named(&mut self, name: &'a str) -> Option<u32> {
        if let Some(&v) = self.names.get(name) {
            return Some(v);
        }
        let k = u32::try_from(self.names.len()).ok().filter(|&k| k < MAX_VARS)?;
        let v = u32::MAX - k;
        self.names.insert(name, v);
        Some(v)
    }

    /// The end of the word starting at `from` (up to whitespace or `;`).
    fn word_end(&self, from: usize) -> usize {
        let b = self.text.as_bytes();
        let mut p = from;
        while p < b.len() && !b[p].is_ascii_whitespace() && b[p] != b';' {
            p += 1;
        }
        p
    }
}

/// The header's counts, when the first line has them.
fn header(text: &str) -> (Option<u64>, Option<u64>) {
    let first = text.lines().next().unwrap_or("");
    if !first.starts_with('*') {
        return (None, None);
    }
    let value = |key: &str| {
        let at = first.find(key)? + key.len();
        first[at..].split_whitespace().next()?.parse::<u64>().ok()
    };
    (value("#variable="), value("#constraint="))
}

/// Reads an OPB file.
pub fn parse(file: &str, text: &str) -> Result<PbFile, InputError> {
    let (declared_vars, declared_rows) = header(text);
    if let Some(n) = declared_vars
        && n > u64::from(MAX_VARS)
    {
        return Err(InputError::new(
            file,
            Some(1),
            format!("#variable= {n} is more than sokuc takes ({})", MAX_VARS),
        ));
    }
    let mut lx = Lexer {
        file,
        text,
        pos: 0,
        line: 1,
        names: std::collections::HashMap::new(),
    };
    let mut rows = Vec::new();
    let mut objective = None;
    let mut max_var = 0u32;
    let mut tok = lx.next()?;
    while let Some((t, line)) = tok.clone() {
        let goal = match t {
            Tok::Min => Some(false),
            Tok::Max => Some(true),
            _ => None,
        };
        if goal.is_some() {
            if objective.is_some() || !rows.is_empty() {
                return Err(lx.err(line, "the objective must come once, before the constraints"));
            }
            tok = lx.next()?;
        }
        // Terms: a coefficient, then one or more literals (more than one: a product).
        let mut terms = Vec::new();
        let mut end = line;
        loop {
            match tok.clone() {
                Some((first, l)) if matches!(first, Tok::Int(_) | Tok::Lit(_)) => {
                    end = l;
                    // A literal with no coefficient before it has the coefficient 1 (`x1 +
                    // x2`, as Gurobi reads OPB); literals side by side stay a product.
                    let n = match first {
                        Tok::Int(n) => {
                            tok = lx.next()?;
                            match tok {
                                Some((Tok::Lit(_), _)) => {}
                                Some((_, l2)) => {
                                    return Err(lx.err(
                                        l2,
                                        format!("'{n}' has no variable: a term is a coefficient and a literal"),
                                    ));
                                }
                                None => return Err(lx.err(l, format!("the file ends after the coefficient '{n}'"))),
                            }
                            n
                        }
                        _ => "+1",
                    };
                    let mut lits = Vec::new();
                    while let Some((Tok::Lit(lit), l2)) = tok {
                        end = l2;
                        if lit.var <= MAX_VARS {
                            max_var = max_var.max(lit.var);
                        }
                        lits.push(lit);
                        tok = lx.next()?;
                    }
                    terms.push(Term {
                        coef: parse_int(&lx, l, n)?,
                        lits,
                    });
                }
                _ => break,
            }
        }
        if let Some(maximise) = goal {
            match tok {
                Some((Tok::Semi, _)) => {}
                Some((_, l)) => return Err(lx.err(l, "the objective must end with ';' (it takes no relation)")),
                None => return Err(lx.err(end, "missing ';' at the end of the objective")),
            }
            // `min: ;` (no terms) is an objective of constant 0, as minisat+, RoundingSat
            // and VeriPB read it: every model is optimal.
            objective = Some(Objective { terms, maximise, line });
            tok = lx.next()?;
            continue;
        }
        let (cmp, strict) = match tok {
            Some((Tok::Rel(c, strict), _)) => (c, strict),
            Some((Tok::Semi, l)) => {
                return Err(lx.err(l, "the constraint has no relation and right-hand side (>=, <= or =)"));
            }
            Some((_, l)) => return Err(lx.err(l, "expected a term or a relation (>=, <= or =)")),
            None => return Err(lx.err(end, "the file ends in the middle of a constraint")),
        };
        let (rhs, rhs_line) = match lx.next()? {
            Some((Tok::Int(n), l)) => (parse_int(&lx, l, n)?, l),
            Some((_, l)) => return Err(lx.err(l, "expected an integer right-hand side after the relation")),
            None => return Err(lx.err(end, "the file ends before the right-hand side")),
        };
        match lx.next()? {
            Some((Tok::Semi, _)) => {}
            _ => return Err(lx.err(rhs_line, "missing ';' after the right-hand side")),
        }
        // Sides are integers: `> k` is `>= k + 1`, `< k` is `<= k - 1`.
        let rhs = match (strict, cmp) {
            (true, Cmp::Ge) => rhs + 1,
            (true, _) => rhs - 1,
            (false, _) => rhs,
        };
        rows.push(Row::Linear { terms, cmp, rhs, line });
        tok = lx.next()?;
    }
    // Named variables come after the numbered ones (and the header's count), in the order
    // they first appear.
    let names = std::mem::take(&mut lx.names);
    let mut named: Vec<(u32, String)> = Vec::new();
    if !names.is_empty() {
        let base = declared_vars
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or(0)
            .max(max_var);
        let mut order: Vec<(&str, u32)> = names.into_iter().collect();
        // Stand-ins count down from u32::MAX in order of appearance.
        order.sort_unstable_by_key(|&(_, stand_in)| std::cmp::Reverse(stand_in));
        if u64::from(base) + order.len() as u64 > u64::from(MAX_VARS) {
            return Err(InputError::new(file, None, format!("more than {} variables", MAX_VARS)));
        }
        let index = |stand_in: u32| base + (u32::MAX - stand_in) + 1;
        for (name, stand_in) in &order {
            named.push((index(*stand_in), (*name).to_string()));
        }
        let renumber = |lit: &mut Lit| {
            if lit.var > MAX_VARS {
                lit.var = index(lit.var);
            }
        };
        for row in &mut rows {
            if let Row::Linear { terms, .. } = row {
                for t in terms {
                    t.lits.iter_mut().for_each(renumber);
                }
            }
        }
        if let Some(o) = &mut objective {
            for t in &mut o.terms {
                t.lits.iter_mut().for_each(renumber);
            }
        }
    }
    let mut warnings = Vec::new();
    if let Some(n) = declared_vars
        && u64::from(max_var) > n
    {
        let line = first_line_with(text, &format!("x{max_var}")).unwrap_or(1);
        warnings.push(format!(
            "{file}:{line}: variable x{max_var} is above the header's #variable= {n} (read as {max_var} variables)"
        ));
    }
    if let Some(m) = declared_rows
        && m != rows.len() as u64
    {
        warnings.push(format!(
            "{file}:1: the header says #constraint= {m}, but the file has {}",
            rows.len()
        ));
    }
    let num_vars = declared_vars.map_or(max_var, |n| u32::try_from(n).unwrap_or(max_var));
    let num_vars = named.last().map_or(num_vars.max(max_var), |(i, _)| *i);
    Ok(PbFile {
        source: file.to_string(),
        num_vars,
        rows,
        objective,
        cnf: false,
        split: Default::default(),
        warnings,
        names: named,
    })
}

/// The first line holding `word` as a whole literal (for the header check's message).
fn first_line_with(text: &str, word: &str) -> Option<usize> {
    text.lines()
        .position(|l| {
            !l.starts_with('*')
                && l.split(|c: char| c.is_whitespace() || c == '~' || c == ';')
                    .any(|w| w == word)
        })
        .map(|i| i + 1)
}

fn parse_int(lx: &Lexer<'_>, line: usize, word: &str) -> Result<BigInt, InputError> {
    // The lexer made sure this is an optional sign, spaces or tabs, and digits.
    let digits = word.trim_start_matches(['+', '-']).trim_start_matches([' ', '\t']);
    let value: BigInt = digits
        .parse()
        .map_err(|_| lx.err(line, format!("'{word}' is not an integer")))?;
    Ok(if word.starts_with('-') { -value } else { value })
}
