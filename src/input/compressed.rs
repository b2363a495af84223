//! Compressed inputs (`.gz`, `.bz2`, `.xz`), read transparently as competition solvers do.
//!
//! The decompressed text is bounded by the same file-size limit as a plain file, counted on
//! the *decompressed* bytes, so a small archive cannot expand into all of memory. All three
//! decoders are pure Rust (the default build links no C).

use std::path::Path;

use super::InputError;

/// A compression, by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    Gzip,
    Bzip2,
    Xz,
}

impl Compression {
    pub fn of_extension(ext: &str) -> Option<Compression> {
        match ext {
            "gz" => Some(Compression::Gzip),
            "bz2" => Some(Compression::Bzip2),
            "xz" => Some(Compression::Xz),
            _ => None,
        }
    }
}

/// A writer that refuses to grow past `limit` bytes.
struct Bounded {
    bytes: Vec<u8>,
    limit: usize,
    /// A write was refused for the limit (the decoder reports it as any I/O error).
    over: bool,
}

impl std::io::Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len() + buf.len() > self.limit {
            self.over = true;
            return Err(std::io::Error::other("too large"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Reads and decompresses `path` as UTF-8 text.
pub fn read_compressed(path: &Path, how: Compression) -> Result<String, InputError> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| InputError::new(&name, None, format!("cannot read: {e}")))?;
    let file = std::io::BufReader::new(file);
    let text = match how {
        Compression::Gzip => super::read_all(&name, flate2::read::MultiGzDecoder::new(file)),
        Compression::Bzip2 => super::read_all(&name, bzip2::read::MultiBzDecoder::new(file)),
        Compression::Xz => {
            let limit = crate::model::limits::max_file_bytes();
            let mut out = Bounded {
                bytes: Vec::new(),
                limit,
                over: false,
            };
            let mut file = file;
            if let Err(e) = lzma_rs::xz_decompress(&mut file, &mut out) {
                let why = if out.over {
                    format!("decompresses to more than the limit of {limit} bytes (SOKUC_MAX_FILE_BYTES raises it)")
                } else {
                    format!("not a valid .xz file: {e}")
                };
                return Err(InputError::new(&name, None, why));
            }
            super::read_all(&name, out.bytes.as_slice())
        }
    }
    .map_err(|e| {
        // A corrupt archive shows up as a read error: say what the file was expected to be.
        if e.message.starts_with("cannot read") {
            InputError::new(&name, None, format!("not a valid {how:?} file ({})", e.message))
        } else {
            e
        }
    })?;
    crate::output::note_input(path);
    Ok(text)
}
