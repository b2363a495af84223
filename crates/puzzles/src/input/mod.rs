//! Parsing: files and command-line data into puzzle models.
//!
//! Every problem with user input becomes an [`InputError`] naming the file, the line where it
//! is known, and what is wrong. Nothing in this layer panics on bad input.

pub mod answer;
pub mod batch;
pub mod compressed;
pub mod grid_file;
pub mod instance_file;
pub mod lists;
pub mod placed;
pub mod solution_json;
pub mod variant_file;

use std::fmt;

/// What is wrong with a piece of input, before the caller knows its file and line (it
/// becomes an [`InputError`] there).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Problem(pub String);

impl From<String> for Problem {
    fn from(s: String) -> Problem {
        Problem(s)
    }
}

impl From<&str> for Problem {
    fn from(s: &str) -> Problem {
        Problem(s.to_string())
    }
}

impl From<Problem> for String {
    fn from(p: Problem) -> String {
        p.0
    }
}

/// A problem with user input: which file, which line (1-based, when known), and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct InputError {
    /// The file (or the option, or the model) the input came from, as messages name it.
    pub file: String,
    /// The line, from 1, when the problem has one.
    pub line: Option<usize>,
    /// What is wrong, in words.
    pub message: String,
}

impl InputError {
    /// A problem with `file`, at `line` when known.
    pub fn new(file: impl Into<String>, line: Option<usize>, message: impl Into<String>) -> Self {
        InputError {
            file: file.into(),
            line,
            message: message.into(),
        }
    }

    /// An error located at a byte offset of `text`.
    pub fn at_offset(file: &str, text: &str, offset: usize, message: impl Into<String>) -> Self {
        InputError::new(file, Some(line_of(text, offset)), message)
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.file, line, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// 1-based line number of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() + 1
}

/// Reads a whole file as UTF-8, turning I/O problems into an [`InputError`].
pub fn read_text(path: &std::path::Path) -> Result<String, InputError> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| InputError::new(&name, None, format!("cannot read: {e}")))?;
    let text = read_all(&name, file)?;
    crate::output::note_input(path);
    Ok(text)
}

/// Reads at most the file-size limit, as UTF-8 without a byte-order mark.
pub fn read_all(name: &str, reader: impl std::io::Read) -> Result<String, InputError> {
    text_of(name, read_bytes(name, reader)?)
}

/// Reads at most the file-size limit.
pub fn read_bytes(name: &str, reader: impl std::io::Read) -> Result<Vec<u8>, InputError> {
    let limit = crate::model::limits::max_file_bytes();
    // Read at most one byte past the limit, so a huge file is refused without loading it.
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(reader, limit as u64 + 1), &mut bytes)
        .map_err(|e| InputError::new(name, None, format!("cannot read: {e}")))?;
    if bytes.len() > limit {
        return Err(InputError::new(
            name,
            None,
            format!("file is larger than the limit of {limit} bytes (SOKUC_MAX_FILE_BYTES raises it)"),
        ));
    }
    Ok(bytes)
}

/// The bytes as UTF-8 text, without a byte-order mark.
pub fn text_of(name: &str, bytes: Vec<u8>) -> Result<String, InputError> {
    let mut text = String::from_utf8(bytes).map_err(|e| {
        InputError::new(
            name,
            None,
            format!("not valid UTF-8 (at byte {})", e.utf8_error().valid_up_to()),
        )
    })?;
    // Editors on Windows start UTF-8 files with a byte-order mark; it is not content.
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// Turns a `toml` parse error into an [`InputError`] with the line of the problem.
pub fn toml_error(file: &str, text: &str, err: &toml::de::Error) -> InputError {
    let line = err.span().map(|s| line_of(text, s.start));
    // One line per error: toml's messages may span several.
    let msg: Vec<&str> = err.message().lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    InputError::new(file, line, msg.join("; "))
}
