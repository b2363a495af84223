//! Sane limits on input sizes, so that adversarial input gets a clear error instead of
//! exhausting memory. They are generous for any real puzzle; the two a user may outgrow
//! (file size and faces, e.g. for fine geodesic spheres) can be raised with
//! [`set_input_limits`] (the CLI: `SOKUC_MAX_FILE_BYTES`, `SOKUC_MAX_FACES`). The CNF size has
//! its own budget, `--max-clauses`.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Largest input file read, in bytes (default; see [`max_file_bytes`]).
pub const MAX_FILE_BYTES: usize = 64 << 20;
/// Most faces a variant may have (default; see [`max_faces`]).
pub const MAX_FACES: usize = 100_000;
/// Largest weight on a tile corner.
pub const MAX_WEIGHT: u64 = 1_000_000;
/// Largest vertex capacity.
pub const MAX_CAPACITY: u64 = 1_000_000_000;

/// The limits a user may raise: the file size and the faces of a variant. The library reads
/// them from here (they apply to every file it reads, from any entry point); the CLI sets
/// them from `SOKUC_MAX_FILE_BYTES` and `SOKUC_MAX_FACES`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputLimits {
    /// The largest file read, in bytes (64 MiB by default); compressed files are held to it
    /// as they are decompressed.
    pub max_file_bytes: usize,
    /// The most faces a 3SoKu variant may have (100,000 by default).
    pub max_faces: usize,
}

impl Default for InputLimits {
    fn default() -> InputLimits {
        InputLimits {
            max_file_bytes: MAX_FILE_BYTES,
            max_faces: MAX_FACES,
        }
    }
}

static FILE_BYTES: AtomicUsize = AtomicUsize::new(MAX_FILE_BYTES);
static FACES: AtomicUsize = AtomicUsize::new(MAX_FACES);

/// Sets the limits for every file read from now on, in this process: the one setting the
/// library keeps for the whole process, since every reader, from every entry point, applies
/// them. It holds two numbers and never grows.
///
/// ```
/// use sokuc_puzzles::model::limits::{InputLimits, set_input_limits};
/// set_input_limits(InputLimits { max_faces: 200_000, ..InputLimits::default() });
/// ```
pub fn set_input_limits(l: InputLimits) {
    FILE_BYTES.store(l.max_file_bytes, Ordering::Relaxed);
    FACES.store(l.max_faces, Ordering::Relaxed);
}

/// The largest input file read, in bytes ([`MAX_FILE_BYTES`] unless [`set_input_limits`]
/// raised or lowered it).
pub fn max_file_bytes() -> usize {
    FILE_BYTES.load(Ordering::Relaxed)
}

/// The most faces a variant may have ([`MAX_FACES`] unless [`set_input_limits`] changed it).
pub fn max_faces() -> usize {
    FACES.load(Ordering::Relaxed)
}
