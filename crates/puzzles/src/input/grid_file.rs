//! The plain-text grid format shared by Kakuro and Tricky Triple (spec §2): a header line
//! `<kind> <rows> <cols>`, then one line of `cols` whitespace-separated tokens per row.
//! `#` starts a comment line; blank lines are ignored.

use super::InputError;

/// A grid as tokens, each with the line it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawGrid {
    pub file: String,
    pub kind: String,
    pub rows: usize,
    pub cols: usize,
    /// `tokens[r][c]`
    pub tokens: Vec<Vec<String>>,
    /// Line of each row.
    pub lines: Vec<usize>,
    pub header_line: usize,
}

impl RawGrid {
    pub fn error(&self, r: usize, message: impl Into<String>) -> InputError {
        InputError::new(&self.file, self.lines.get(r).copied(), message)
    }
}

/// Largest side accepted (a 1000 x 1000 grid is far beyond any published puzzle).
pub const MAX_SIDE: usize = 1000;

pub fn parse_grid(file: &str, text: &str, want_kind: &str) -> Result<RawGrid, InputError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let (hl, header) = lines
        .next()
        .ok_or_else(|| InputError::new(file, None, format!("empty file: expected `{want_kind} <rows> <cols>`")))?;
    let h: Vec<&str> = header.split_whitespace().collect();
    if h.len() != 3 || h[0] != want_kind {
        return Err(InputError::new(
            file,
            Some(hl),
            format!("expected the header `{want_kind} <rows> <cols>`, found {header:?}"),
        ));
    }
    let side = |s: &str, what: &str| -> Result<usize, InputError> {
        match s.parse::<usize>() {
            Ok(n) if (1..=MAX_SIDE).contains(&n) => Ok(n),
            _ => Err(InputError::new(
                file,
                Some(hl),
                format!("{what} must be a number from 1 to {MAX_SIDE}, found {s:?}"),
            )),
        }
    };
    let rows = side(h[1], "rows")?;
    let cols = side(h[2], "cols")?;
    let mut tokens = Vec::with_capacity(rows);
    let mut row_lines = Vec::with_capacity(rows);
    for (ln, line) in lines {
        if tokens.len() == rows {
            return Err(InputError::new(
                file,
                Some(ln),
                format!("more rows than the {rows} the header announces"),
            ));
        }
        let t: Vec<String> = line.split_whitespace().map(String::from).collect();
        if t.len() != cols {
            return Err(InputError::new(
                file,
                Some(ln),
                format!(
                    "ragged row: {} where the header says {cols}",
                    crate::words::count_s(t.len(), "cell")
                ),
            ));
        }
        tokens.push(t);
        row_lines.push(ln);
    }
    if tokens.len() != rows {
        return Err(InputError::new(
            file,
            None,
            format!("{} rows where the header says {rows}", tokens.len()),
        ));
    }
    Ok(RawGrid {
        file: file.to_string(),
        kind: want_kind.to_string(),
        rows,
        cols,
        tokens,
        lines: row_lines,
        header_line: hl,
    })
}

/// Writes rows of tokens as a grid file, columns right-aligned.
pub fn render(kind: &str, cells: &[Vec<String>]) -> String {
    let cols = cells.first().map_or(0, Vec::len);
    let width: Vec<usize> = (0..cols)
        .map(|c| cells.iter().map(|r| r[c].len()).max().unwrap_or(1))
        .collect();
    let mut s = format!("{kind} {} {cols}\n", cells.len());
    for row in cells {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, t)| format!("{t:>w$}", w = width[c]))
            .collect();
        s.push_str(&line.join(" "));
        s.push('\n');
    }
    s
}
