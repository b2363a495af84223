//! The puzzle kinds, in one table: which files each front-end reads. Adding a kind is its
//! folder (implementing [`crate::puzzle::Puzzle`]) plus one line in [`KINDS`]; every command
//! then takes it through [`load`].

use std::path::Path;

use crate::input::compressed::Compression;
use crate::input::variant_file::Variants;
use crate::input::{self, InputError, instance_file};
use crate::kakuro::Kakuro;
use crate::run::AnyPuzzle;
use crate::tricky::Tricky;

/// Reads a puzzle of one kind: (file name for messages, text, directory for relative paths).
type Reader = fn(&str, &str, Variants<'_>) -> Result<Box<dyn AnyPuzzle>, InputError>;

/// One puzzle kind: its name (`--kind`), the file extensions that select it, a line of help,
/// and its reader.
#[derive(Debug)]
pub struct Kind {
    pub name: &'static str,
    pub extensions: &'static [&'static str],
    read: Reader,
    /// How to recognise the kind's text on standard input.
    sniff: fn(&str) -> bool,
}

/// Every puzzle kind sokuc reads.
pub const KINDS: &[Kind] = &[
    Kind {
        name: "3soku",
        extensions: &["toml"],
        read: read_toml,
        sniff: |_| false,
    },
    Kind {
        name: "pool",
        extensions: &[],
        read: read_pool,
        sniff: |_| false,
    },
    Kind {
        name: "kakuro",
        extensions: &["kakuro"],
        read: |file, text, _| Ok(Box::new(Kakuro::parse(file, text)?)),
        sniff: |text| first_word(text) == Some("kakuro"),
    },
    Kind {
        name: "trickytriple",
        extensions: &["tt"],
        read: |file, text, _| Ok(Box::new(Tricky::parse(file, text)?)),
        sniff: |text| first_word(text) == Some("trickytriple"),
    },
    Kind {
        name: "opb",
        extensions: &["opb"],
        read: |file, text, _| Ok(Box::new(crate::pb::read_opb(file, text)?)),
        sniff: |text| text.trim_start().starts_with('*') || text.trim_start().starts_with("min:"),
    },
    Kind {
        name: "cnf",
        extensions: &["cnf", "dimacs"],
        read: |file, text, _| Ok(Box::new(crate::pb::read_cnf(file, text)?)),
        // The header, or (a file that lacks it) a clause: whole numbers, ending in 0, so
        // that the CNF reader names what is missing instead of the TOML reader.
        sniff: |text| {
            text.lines()
                .map(str::trim)
                .find(|l| !l.is_empty() && !l.starts_with('c'))
                .is_some_and(|l| {
                    l.starts_with("p cnf")
                        || l.split_whitespace().last() == Some("0")
                            && l.split_whitespace().all(|w| w.parse::<i64>().is_ok())
                })
        },
    },
];

/// 3SoKu TOML in either form: a classic instance, or a pool instance.
fn read_toml(file: &str, text: &str, variants: Variants<'_>) -> Result<Box<dyn AnyPuzzle>, InputError> {
    Ok(match instance_file::parse_puzzle_in(file, text, variants)? {
        instance_file::Puzzle::Classic(i) => Box::new(i),
        instance_file::Puzzle::Pool(p) => Box::new(p),
    })
}

fn read_pool(file: &str, text: &str, variants: Variants<'_>) -> Result<Box<dyn AnyPuzzle>, InputError> {
    match instance_file::parse_puzzle_in(file, text, variants)? {
        instance_file::Puzzle::Pool(p) => Ok(Box::new(p)),
        instance_file::Puzzle::Classic(_) => Err(InputError::new(
            file,
            None,
            "this is a classic 3SoKu instance (a tile per face, given capacities), not a pool: read it as --kind 3soku",
        )),
    }
}

/// The first word of the first line that is not blank or a comment.
fn first_word(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .and_then(|l| l.split_whitespace().next())
}

/// "3soku (.toml), pool, kakuro (.kakuro), trickytriple (.tt)".
pub fn kinds_list() -> String {
    KINDS
        .iter()
        .map(|k| match k.extensions {
            [] => k.name.to_string(),
            exts => format!(
                "{} ({})",
                k.name,
                exts.iter().map(|e| format!(".{e}")).collect::<Vec<_>>().join(", ")
            ),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn by_name(name: &str, origin: &str) -> Result<&'static Kind, InputError> {
    KINDS.iter().find(|k| k.name == name).ok_or_else(|| {
        InputError::new(
            origin,
            None,
            format!("unknown puzzle kind {name:?}; the kinds are: {}", kinds_list()),
        )
    })
}

/// Reads the puzzle in `path` (`-` for standard input). Its kind is `kind` when given (as
/// `--kind`), else the file's extension, else (on standard input) what the text looks like.
pub fn load(path: &Path, kind: Option<&str>) -> Result<Box<dyn AnyPuzzle>, InputError> {
    let stdin = path.as_os_str() == "-";
    let name = if stdin {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    let chosen = match kind {
        Some(k) => Some(by_name(k, "--kind")?),
        None if stdin => None,
        None => {
            let ext = kind_extension(path);
            Some(KINDS.iter().find(|k| k.extensions.contains(&ext)).ok_or_else(|| {
                InputError::new(
                    &name,
                    None,
                    format!(
                        "unknown puzzle kind{}: the kinds are {}; name the kind with --kind",
                        if ext.is_empty() {
                            String::new()
                        } else {
                            format!(" (.{ext})")
                        },
                        kinds_list()
                    ),
                )
            })?)
        }
    };
    if stdin {
        return read_stdin(kind);
    }
    let text = if let Some(how) = compression(path) {
        input::compressed::read_compressed(path, how)?
    } else {
        input::read_text(path)?
    };
    let k = chosen.unwrap_or(&KINDS[0]);
    (k.read)(&name, &text, Variants::Files(path.parent()))
}

/// The puzzle on standard input (decompressed if it is compressed), as [`from_stdin`] reads
/// it; an empty standard input is no puzzle.
pub fn read_stdin(kind: Option<&str>) -> Result<Box<dyn AnyPuzzle>, InputError> {
    let text = input::compressed::read_stdin()?;
    if text.trim().is_empty() {
        return Err(InputError::new(
            "<stdin>",
            None,
            "no puzzle: standard input is empty; give an instance file (`-` for standard input) or --pegs",
        ));
    }
    from_stdin(&text, kind)
}

/// The puzzle in `text`, read from standard input: of the kind named `kind` (`--kind`), else
/// of the kind the text looks like (a grid says so on its first line; else TOML).
pub fn from_stdin(text: &str, kind: Option<&str>) -> Result<Box<dyn AnyPuzzle>, InputError> {
    let k = match kind {
        Some(k) => by_name(k, "--kind")?,
        None => KINDS.iter().find(|k| (k.sniff)(text)).unwrap_or(&KINDS[0]),
    };
    (k.read)("<stdin>", text, Variants::Files(None))
}

fn compression(path: &Path) -> Option<Compression> {
    Compression::of_extension(path.extension()?.to_str()?)
}

/// The extension that names the kind: `x.opb.gz` is OPB.
fn kind_extension(path: &Path) -> &str {
    fn ext(p: &Path) -> &str {
        p.extension().and_then(|e| e.to_str()).unwrap_or("")
    }
    match compression(path) {
        Some(_) => path.file_stem().map_or("", |stem| ext(Path::new(stem))),
        None => ext(path),
    }
}

/// Reads `text` as a puzzle of the kind named `kind` (`file` names it in errors).
pub fn parse(kind: &str, file: &str, text: &str) -> Result<Box<dyn AnyPuzzle>, InputError> {
    (by_name(kind, "--kind")?.read)(file, text, Variants::Files(None))
}

/// Reads `text` as a puzzle whose kind is `kind`, else the one `file`'s extension names,
/// else the one the text looks like; its variant, if any, is a built-in or `variant`, and
/// nothing is read from disk (`sokuc serve`).
pub fn parse_in_memory(
    kind: Option<&str>,
    file: &str,
    text: &str,
    variant: Option<&crate::model::Variant>,
) -> Result<Box<dyn AnyPuzzle>, InputError> {
    let k = match kind {
        Some(k) => by_name(k, "kind")?,
        None => {
            let ext = kind_extension(Path::new(file));
            match KINDS.iter().find(|k| k.extensions.contains(&ext)) {
                Some(k) => k,
                None => KINDS.iter().find(|k| (k.sniff)(text)).unwrap_or(&KINDS[0]),
            }
        }
    };
    (k.read)(file, text, Variants::Given(variant))
}

/// IcoSoKu from its twelve pegs (`--pegs`), no file needed.
pub fn from_pegs(pegs: &str) -> Result<Box<dyn AnyPuzzle>, InputError> {
    Ok(Box::new(instance_file::read_pegs(pegs)?))
}
