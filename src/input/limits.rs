//! Sane limits on input sizes, so that adversarial input gets a clear error instead of
//! exhausting memory. They are generous for any real puzzle.

/// Largest input file read, in bytes.
pub const MAX_FILE_BYTES: usize = 64 << 20;
/// Most faces a variant may have.
pub const MAX_FACES: usize = 100_000;
/// Largest weight on a tile corner.
pub const MAX_WEIGHT: u64 = 1_000_000;
/// Largest vertex capacity.
pub const MAX_CAPACITY: u64 = 1_000_000_000;
