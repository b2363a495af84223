//! How the architecture checks read a file: whole, with its comments, its string and char
//! literals and its test-only code blanked out. Blanking (not cutting) keeps every byte
//! offset and line number of what is left, so a finding points at the file's real line.

/// One file as the checks read it.
pub struct Source {
    /// Comments, literals and test-only items blanked: what the compiler builds outside tests,
    /// with no text in it that could pass for a path.
    pub code: String,
    /// The same with string and char literals left in (only comments and tests blanked), for
    /// the checks that look for a literal, such as `env!("SOKUC_...")`.
    pub with_strings: String,
}

/// Reads a file's text: see [`Source`].
pub fn read(text: &str) -> Source {
    let (mut code, mut with_strings) = blank_comments_and_literals(text.as_bytes());
    let mut i = 0;
    while i < code.len() {
        if code[i] != b'#' {
            i += 1;
            continue;
        }
        let Some((inner, end, test)) = attribute(&code, i) else {
            i += 1;
            continue;
        };
        if !test {
            i = end;
            continue;
        }
        if inner {
            // `#![cfg(test)]`: the whole file is test code.
            let all = 0..code.len();
            blank(&mut code, all.clone());
            blank(&mut with_strings, all);
            break;
        }
        let (item_end, _) = item_end(&code, end);
        blank(&mut code, i..item_end);
        blank(&mut with_strings, i..item_end);
        i = item_end;
    }
    Source {
        code: String::from_utf8_lossy(&code).into_owned(),
        with_strings: String::from_utf8_lossy(&with_strings).into_owned(),
    }
}

fn blank(v: &mut [u8], r: std::ops::Range<usize>) {
    for b in &mut v[r] {
        if *b != b'\n' {
            *b = b' ';
        }
    }
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// (code, code with literals): comments blanked in both, the insides of string and char
/// literals (and a raw string's `#`s) in the first. Block comments nest, as in Rust.
fn blank_comments_and_literals(b: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut code = b.to_vec();
    let mut strs = b.to_vec();
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if at(i + 1) == b'/' => {
                let end = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |n| i + n);
                blank(&mut code, i..end);
                blank(&mut strs, i..end);
                i = end;
            }
            b'/' if at(i + 1) == b'*' => {
                let (mut j, mut depth) = (i + 2, 1);
                while j < b.len() && depth > 0 {
                    if b[j] == b'/' && at(j + 1) == b'*' {
                        depth += 1;
                        j += 2;
                    } else if b[j] == b'*' && at(j + 1) == b'/' {
                        depth -= 1;
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
                blank(&mut code, i..j);
                blank(&mut strs, i..j);
                i = j;
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                let j = j.min(b.len());
                blank(&mut code, i + 1..j);
                i = j + 1;
            }
            b'\'' => {
                // A char literal ('x', '\n', '\u{1F600}', b'x') or a lifetime ('a).
                if at(i + 1) == b'\\' {
                    let mut j = i + 3;
                    while j < b.len() && b[j] != b'\'' {
                        j += 1;
                    }
                    let j = j.min(b.len());
                    blank(&mut code, i + 1..j);
                    i = j + 1;
                } else {
                    let len = match at(i + 1) {
                        c if c < 0x80 => 1,
                        c if c >= 0xf0 => 4,
                        c if c >= 0xe0 => 3,
                        _ => 2,
                    };
                    if at(i + 1 + len) == b'\'' && at(i + 1) != b'\n' {
                        blank(&mut code, i + 1..i + 1 + len);
                        i += 2 + len;
                    } else {
                        i += 1;
                    }
                }
            }
            c if is_word(c) => {
                let mut j = i;
                while j < b.len() && is_word(b[j]) {
                    j += 1;
                }
                let word = &b[i..j];
                if matches!(word, b"r" | b"br" | b"cr") && matches!(at(j), b'#' | b'"') {
                    // A raw string: r"...", r#"..."#, with as many #s closing as opening.
                    let hashes = b[j..].iter().take_while(|&&c| c == b'#').count();
                    let open = j + hashes;
                    if at(open) == b'"' {
                        let mut k = open + 1;
                        let close = loop {
                            if k >= b.len() {
                                break b.len();
                            }
                            if b[k] == b'"' && b[k + 1..].iter().take(hashes).filter(|&&c| c == b'#').count() == hashes
                            {
                                break k;
                            }
                            k += 1;
                        };
                        blank(&mut code, j..open);
                        blank(&mut code, open + 1..close);
                        let end = (close + 1 + hashes).min(b.len());
                        blank(&mut code, (close + 1).min(end)..end);
                        i = end;
                        continue;
                    }
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    (code, strs)
}

fn skip_space(code: &[u8], mut i: usize) -> usize {
    while i < code.len() && code[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The end (exclusive) of the bracket group opening at `open`.
fn group_end(code: &[u8], open: usize) -> usize {
    let mut depth = 0;
    for (k, &c) in code.iter().enumerate().skip(open) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// An attribute starting at `#`: (inner, end, test-only). Test-only is `cfg(test)`, or
/// `cfg(all(...))` with `test` among its conditions.
fn attribute(code: &[u8], hash: usize) -> Option<(bool, usize, bool)> {
    let mut j = skip_space(code, hash + 1);
    let inner = code.get(j) == Some(&b'!');
    if inner {
        j = skip_space(code, j + 1);
    }
    if code.get(j) != Some(&b'[') {
        return None;
    }
    let end = group_end(code, j);
    let body: String = String::from_utf8_lossy(&code[j + 1..end - 1])
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let test = body == "cfg(test)"
        || body
            .strip_prefix("cfg(all(")
            .and_then(|r| r.strip_suffix("))"))
            .is_some_and(|conds| top_level_split(conds).contains(&"test"));
    Some((inner, end, test))
}

fn top_level_split(s: &str) -> Vec<&str> {
    let (mut out, mut depth, mut from) = (Vec::new(), 0, 0);
    for (k, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[from..k]);
                from = k + 1;
            }
            _ => {}
        }
    }
    out.push(&s[from..]);
    out
}

/// Where the item (or field, statement, match arm) after an attribute ends, its further
/// attributes included; and the module's name when it is a `mod x;` declaration.
///
/// Items that end with a block (fn, mod, impl, trait, struct, enum, union, extern blocks)
/// end at their first block's `}` or at a `;` (`struct S(u8);`, `mod x;`); `use`, `const`,
/// `static`, `type`, `let` and `extern crate` end at their `;`; anything else at a `,` or
/// `;` or a block's `}`, or just before the bracket that closes around it.
fn item_end(code: &[u8], from: usize) -> (usize, Option<String>) {
    let mut j = skip_space(code, from);
    while code.get(j) == Some(&b'#') {
        match attribute(code, j) {
            Some((false, end, _)) => j = skip_space(code, end),
            _ => break,
        }
    }
    let start = j;
    let mut words: Vec<String> = Vec::new();
    loop {
        j = skip_space(code, j);
        match code.get(j) {
            Some(&c) if is_word(c) => {
                let w = j;
                while j < code.len() && is_word(code[j]) {
                    j += 1;
                }
                words.push(String::from_utf8_lossy(&code[w..j]).into_owned());
            }
            Some(b'"' | b'!') => j += 1,
            Some(b'(') if words.last().is_some_and(|w| w == "pub") => j = group_end(code, j),
            _ => break,
        }
    }
    let has = |k: &str| words.iter().any(|w| w == k);
    let first = words.iter().find(|w| !matches!(w.as_str(), "pub" | "unsafe"));
    #[derive(PartialEq)]
    enum Kind {
        Block,
        Semi,
        Other,
    }
    let kind = if ["fn", "mod", "impl", "trait", "struct", "enum", "union", "macro_rules"]
        .iter()
        .any(|k| has(k))
    {
        Kind::Block
    } else if first.is_some_and(|w| matches!(w.as_str(), "use" | "const" | "static" | "type" | "let"))
        || (has("extern") && has("crate"))
    {
        Kind::Semi
    } else if has("extern") {
        Kind::Block
    } else {
        Kind::Other
    };
    let module = (first.is_some_and(|w| w == "mod") && code.get(j) == Some(&b';'))
        .then(|| words.last().cloned())
        .flatten();
    let mut depth = 0i32;
    for (k, &c) in code.iter().enumerate().skip(start) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth < 0 {
                    return (k, module);
                }
                if c == b'}' && depth == 0 && kind != Kind::Semi {
                    return (k + 1, module);
                }
            }
            b';' if depth == 0 => return (k + 1, module),
            b',' if depth == 0 && kind == Kind::Other => return (k + 1, module),
            _ => {}
        }
    }
    (code.len(), module)
}
