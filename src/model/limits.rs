//! Sane limits on input sizes, so that adversarial input gets a clear error instead of
//! exhausting memory. They are generous for any real puzzle; the two a user may outgrow
//! (file size and faces, e.g. for fine geodesic spheres) can be raised through the
//! environment: `SOKUC_MAX_FILE_BYTES`, `SOKUC_MAX_FACES`. The CNF size has its own budget,
//! `--max-clauses`.

/// Largest input file read, in bytes (default; see [`max_file_bytes`]).
pub const MAX_FILE_BYTES: usize = 64 << 20;
/// Most faces a variant may have (default; see [`max_faces`]).
pub const MAX_FACES: usize = 100_000;
/// Largest weight on a tile corner.
pub const MAX_WEIGHT: u64 = 1_000_000;
/// Largest vertex capacity.
pub const MAX_CAPACITY: u64 = 1_000_000_000;

fn from_env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// [`MAX_FILE_BYTES`], or `$SOKUC_MAX_FILE_BYTES`.
pub fn max_file_bytes() -> usize {
    from_env("SOKUC_MAX_FILE_BYTES", MAX_FILE_BYTES)
}

/// [`MAX_FACES`], or `$SOKUC_MAX_FACES`.
pub fn max_faces() -> usize {
    from_env("SOKUC_MAX_FACES", MAX_FACES)
}
