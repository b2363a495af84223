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
    /// The compression whose magic bytes begin `bytes` (standard input has no extension).
    pub fn of_magic(bytes: &[u8]) -> Option<Compression> {
        if bytes.starts_with(&[0x1f, 0x8b]) {
            Some(Compression::Gzip)
        } else if bytes.starts_with(b"BZh") {
            Some(Compression::Bzip2)
        } else if bytes.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Some(Compression::Xz)
        } else {
            None
        }
    }

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
#[cfg(feature = "decompress")]
struct Bounded {
    bytes: Vec<u8>,
    limit: usize,
    /// A write was refused for the limit (the decoder reports it as any I/O error).
    over: bool,
}

#[cfg(feature = "decompress")]
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

/// Reads standard input (`-` in place of a file name) as UTF-8 text, decompressed first when
/// its first bytes are gzip's, bzip2's or xz's: there is no file name to go by.
pub fn read_stdin() -> Result<String, InputError> {
    let bytes = super::read_bytes("<stdin>", std::io::stdin().lock())?;
    match Compression::of_magic(&bytes) {
        Some(how) => decompress("<stdin>", bytes.as_slice(), how),
        None => super::text_of("<stdin>", bytes),
    }
}

/// Reads a file a command names: `-` is standard input ([`read_stdin`]), a `.gz`, `.bz2` or
/// `.xz` file is decompressed, any other is read as text.
pub fn read_path(path: &Path) -> Result<String, InputError> {
    if path.as_os_str() == "-" {
        return read_stdin();
    }
    match path
        .extension()
        .and_then(|e| e.to_str())
        .and_then(Compression::of_extension)
    {
        Some(how) => read_compressed(path, how),
        None => super::read_text(path),
    }
}

/// Reads and decompresses `path` as UTF-8 text.
pub fn read_compressed(path: &Path, how: Compression) -> Result<String, InputError> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| InputError::new(&name, None, format!("cannot read: {e}")))?;
    let text = decompress(&name, std::io::BufReader::new(file), how)?;
    crate::output::note_input(path);
    Ok(text)
}

/// Decompresses what `file` reads as UTF-8 text (`name` names it in errors).
#[cfg(not(feature = "decompress"))]
pub fn decompress(name: &str, _file: impl std::io::Read, how: Compression) -> Result<String, InputError> {
    let why = format!("a {how:?} file, and this build reads no compressed input (the `decompress` feature)");
    Err(InputError::new(name, None, why))
}

/// Decompresses what `file` reads as UTF-8 text (`name` names it in errors).
#[cfg(feature = "decompress")]
pub fn decompress(name: &str, mut file: impl std::io::Read, how: Compression) -> Result<String, InputError> {
    let name = name.to_string();
    match how {
        Compression::Gzip => super::read_all(&name, flate2::read::MultiGzDecoder::new(&mut file)),
        Compression::Bzip2 => super::read_all(&name, bzip2::read::MultiBzDecoder::new(&mut file)),
        Compression::Xz => {
            let limit = crate::model::limits::max_file_bytes();
            let mut out = Bounded {
                bytes: Vec::new(),
                limit,
                over: false,
            };
            let mut file = std::io::BufReader::new(&mut file);
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
    })
}
