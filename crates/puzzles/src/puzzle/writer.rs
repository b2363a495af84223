//! How an enumeration (`solve --all`) writes its solutions: the bytes of
//! [`Puzzle::text`](super::Puzzle::text) and of
//! [`Puzzle::json_fields`](super::Puzzle::json_fields), appended to a buffer that the run
//! path reuses from one solution to the next. The default ([`super::Plain`], beside the
//! trait whose methods it calls) goes through those two methods; a front-end whose
//! solutions repeat parts (3SoKu: the same placement on the same face in millions of
//! solutions) returns its own writer that keeps their text between solutions. Either way
//! the bytes are the same.

use super::outcome::Answer;

/// Writes answers as their puzzle's `text` and `json_fields` do.
pub trait SolutionWriter<S> {
    /// Appends exactly `Puzzle::text(a)`.
    fn text(&mut self, a: &Answer<S>, out: &mut Vec<u8>);
    /// Appends the fields `Puzzle::json_fields(solution)` gives, as JSON object members
    /// (`"key":value`, comma-separated, in order, without braces), written as `serde_json`
    /// writes them.
    fn json_fields(&mut self, solution: Option<&S>, out: &mut Vec<u8>);
}

/// Fields as JSON object members, as `serde_json` writes them inside an object.
pub fn push_fields(out: &mut Vec<u8>, fields: impl IntoIterator<Item = (String, serde_json::Value)>) {
    for (k, (key, value)) in fields.into_iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        push_json(out, &key);
        out.push(b':');
        push_json(out, &value);
    }
}

/// A value as `serde_json` writes it (compact).
pub fn push_json<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    serde_json::to_writer(&mut *out, value).expect("writing JSON into memory cannot fail");
}
