//! The text the formats share: the check that every variable name can be written as it is
//! (run before anything is written), comment lines, signed coefficients.

use std::collections::HashMap;
use std::io;

/// The longest name CBC's LP reader (CoinLpIO) accepts; it renames longer columns.
pub const MAX_NAME_LEN: usize = 100;

/// Words LP readers take as keywords rather than names (CoinLpIO refuses a column called
/// `inf` or `end`). Compared without case.
const LP_KEYWORDS: &[&str] = &[
    "bin",
    "binaries",
    "binary",
    "bound",
    "bounds",
    "end",
    "free",
    "gen",
    "general",
    "generals",
    "infinity",
    "inf",
    "int",
    "integer",
    "integers",
    "max",
    "maximize",
    "maximise",
    "maximum",
    "min",
    "minimize",
    "minimise",
    "minimum",
    "semi",
    "semis",
    "semicontinuous",
    "sos",
    "st",
    "subject",
    "such",
    "that",
    "to",
];

/// Why `name` cannot be written as it is to LP, MPS and (after `v_`) MiniZinc, if it cannot.
fn name_problem(name: &str) -> Option<String> {
    let mut chars = name.chars();
    match chars.next() {
        None => return Some("it is empty".into()),
        Some(c) if !c.is_ascii_alphabetic() => return Some(format!("it starts with {c:?}, not an ASCII letter")),
        _ => {}
    }
    if let Some(c) = chars.find(|&c| !(c.is_ascii_alphanumeric() || c == '_')) {
        return Some(format!("{c:?} is not an ASCII letter, digit or '_'"));
    }
    if name.len() > MAX_NAME_LEN {
        return Some(format!("it is longer than {MAX_NAME_LEN} characters"));
    }
    if LP_KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(name)) {
        return Some("it is an LP keyword".into());
    }
    None
}

/// Checks that every variable name can be written as it is to every format, and that no
/// two variables share a name. A failure is a bug in sokuc, and the error says so.
pub fn check_names(names: &[String]) -> io::Result<()> {
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(names.len());
    for (i, n) in names.iter().enumerate() {
        if let Some(why) = name_problem(n) {
            return Err(io::Error::other(format!(
                "internal error: variable {} is named {n:?}, which the export formats do not accept: {why}",
                i + 1
            )));
        }
        if let Some(first) = seen.insert(n, i) {
            return Err(io::Error::other(format!(
                "internal error: variables {} and {} are both named {n:?}; the export would merge them",
                first + 1,
                i + 1
            )));
        }
    }
    Ok(())
}

/// Text for a comment line: line breaks and other control characters (which would end the
/// comment and start a line of model text) become spaces.
pub fn comment(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// `+3 x -2 y` style, with a caller-chosen variable spelling.
pub fn signed(c: i64) -> String {
    if c < 0 { format!("- {}", -c) } else { format!("+ {c}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn duplicate_and_unwritable_names_are_refused() {
        assert!(check_names(&names(&["p_ABC_012_r0", "p_f2_x_y__z__w_021_r0", "unsat"])).is_ok());
        let dup = check_names(&names(&["a_1", "b_2", "a_1"])).unwrap_err().to_string();
        assert!(
            dup.contains("variables 1 and 3") && dup.contains("internal error"),
            "{dup}"
        );
        for bad in ["", "1x", "_x", "x-y", "x y", "p_\u{c4}", "end", "Inf", "st"] {
            let e = check_names(&names(&["ok", bad])).unwrap_err().to_string();
            assert!(e.contains("variable 2"), "{bad:?}: {e}");
        }
        assert!(check_names(&[format!("p{}", "x".repeat(MAX_NAME_LEN - 1))]).is_ok());
        assert!(check_names(&[format!("p{}", "x".repeat(MAX_NAME_LEN))]).is_err());
    }

    #[test]
    fn comments_stay_on_one_line() {
        assert_eq!(comment("instance a\nb\r\tc \u{c4}"), "instance a b  c \u{c4}");
    }
}
