//! The memory limit (`--max-memory`): sizes, the process's resident memory, and a cheap
//! guard that backends poll at safe points.
//!
//! Models are refused *before* they are built when an estimate says they would not fit
//! (see each backend and `crate::encode::estimate`); the guard catches what an estimate
//! misses (solver internals, learnt clauses) by reading the resident set size now and then.
//!
//! Who estimates what, before anything large is built: a 3SoKu or pool model from its
//! placement variables (faces times tile turns, about 400 bytes each); `sat` and `cadical`
//! count their CNF first without a solver (the same encoder into a counting sink) and weigh it
//! against the clause budget (`--max-clauses`) and the solver's measured bytes per clause,
//! literal and variable, so a hopeless encoding is refused after about half a second with the
//! default limits (a random bipyramid-500: 0.5 s and 43 MB, where filling varisat up to the
//! budget took 12 s and 1.3 GB); `cp`, `mip` and the search engine from the model's terms
//! (measured bytes per term) or by counting their tables as they make them. Value sets of sums
//! are bounded before they are built, and nothing is ever reserved from a number the user gave
//! (a clause budget of 10^13 or 2^64-1 once meant a 4 TB allocation). What an estimate cannot
//! see (learnt clauses, CBC's tree) the guard catches: encoders, `cadical`, `cp`, `mip`, and
//! `sat` when a time limit is set read the resident size now and then and stop with the same
//! error. Sums over large, distinct weights have no small CNF; `search`, `cp` and `mip` take
//! such rows as they are.

use std::time::Instant;

/// Default `--max-memory`: 8 GiB. On the 2-core, 24 GiB machine sokuc is measured on, two
/// solves at the limit (one per core: `sweep` shards, `parallel`, the test suite) plus the
/// estimates' error still leave several GiB for the system; no model of the scaling
/// families or of the shipped instances needs more than about 1.5 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 8 << 30;

/// A `--max-memory` value that is not a size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SizeError(String);

impl From<String> for SizeError {
    fn from(s: String) -> SizeError {
        SizeError(s)
    }
}

/// Parses `--max-memory`: a number of bytes, optionally with a binary suffix `K`, `M`, `G`
/// or `T` (powers of 1024; `KiB`, `MB`, `g` and so on are read alike).
///
/// ```
/// assert_eq!(sokuc_core::budget::memory::parse_size("8G")?, 8 << 30);
/// assert_eq!(sokuc_core::budget::memory::parse_size("512 MiB")?, 512 << 20);
/// assert!(sokuc_core::budget::memory::parse_size("lots").is_err());
/// # Ok::<(), sokuc_core::budget::memory::SizeError>(())
/// ```
///
/// # Errors
///
/// [`SizeError`] for text that is not a size, or a size below one byte or past 16 EiB.
pub fn parse_size(text: &str) -> Result<u64, SizeError> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(format!("{text:?} is not a size (e.g. 8G, 512M or a number of bytes)").into()),
    };
    let value: f64 = num
        .parse()
        .map_err(|_| format!("{text:?} is not a size (e.g. 8G, 512M or a number of bytes)"))?;
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes >= u64::MAX as f64 {
        return Err(format!("{text:?} is not a size from 1 byte to 16 EiB").into());
    }
    Ok(bytes as u64)
}

/// A size in words, as sokuc's messages give one: "1.5 GiB", "300 MiB", "12 KiB", "17 bytes"
/// (binary units; one decimal below 10).
///
/// ```
/// assert_eq!(sokuc_core::budget::memory::format_size(3 << 29), "1.5 GiB");
/// assert_eq!(sokuc_core::budget::memory::format_size(17), "17 bytes");
/// ```
pub fn format_size(bytes: u64) -> String {
    const UNITS: [(&str, u32); 4] = [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (name, shift) in UNITS {
        if bytes >= 1u64 << shift {
            let x = bytes as f64 / (1u64 << shift) as f64;
            return if x < 10.0 {
                format!("{x:.1} {name}")
            } else {
                format!("{x:.0} {name}")
            };
        }
    }
    format!("{bytes} bytes")
}

/// Resident memory of this process in bytes (Linux: `VmRSS` of `/proc/self/status`;
/// `None` where that cannot be read).
pub fn resident_bytes() -> Option<u64> {
    resident_bytes_in("/proc/self/status")
}

/// Resident memory of process `pid` (a child solving out of process), as [`resident_bytes`].
pub fn resident_bytes_of(pid: u32) -> Option<u64> {
    resident_bytes_in(&format!("/proc/{pid}/status"))
}

fn resident_bytes_in(path: &str) -> Option<u64> {
    let status = std::fs::read_to_string(path).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The memory the process would need for `bytes` more, when that is over `limit`: what it
/// holds now plus `bytes`. The resident size is read (about 20 microseconds) only when
/// `bytes` alone is more than an eighth of the limit; a smaller model passes without it (a
/// process already near the limit is left to the runtime guards), so small solves, which
/// take a millisecond, pay nothing for the check.
pub fn over_limit(bytes: u64, limit: u64) -> Option<u64> {
    if bytes <= limit / 8 {
        return None;
    }
    let needed = resident_bytes().unwrap_or(0).saturating_add(bytes);
    (needed > limit).then_some(needed)
}

/// Polled at safe points by encoders and backends: reads the resident set size at most
/// every `every` calls and at most every 20 ms (a read costs about 10 microseconds), and
/// reports once it is over the limit.
#[derive(Debug, Clone)]
pub struct Guard {
    limit: u64,
    every: u32,
    calls: u32,
    last: Option<Instant>,
}

impl Guard {
    pub fn new(limit: u64, every: u32) -> Guard {
        Guard {
            limit,
            every: every.max(1),
            calls: 0,
            last: None,
        }
    }

    /// The resident size, when it was read now and is over the limit.
    pub fn over(&mut self) -> Option<u64> {
        self.calls += 1;
        if self.calls < self.every {
            return None;
        }
        self.calls = 0;
        if self.last.is_some_and(|t| t.elapsed().as_millis() < 20) {
            return None;
        }
        self.last = Some(Instant::now());
        resident_bytes().filter(|&r| r > self.limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("2 KB"), Ok(2048));
        for bad in ["", "G", "-1G", "0", "8X", "1e30", "99999999999T"] {
            assert!(parse_size(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn sizes_format_for_people() {
        assert_eq!(format_size(8 << 30), "8.0 GiB");
        assert_eq!(format_size(300 << 20), "300 MiB");
        assert_eq!(format_size(17), "17 bytes");
    }

    #[test]
    fn this_process_has_a_resident_size_on_linux() {
        if cfg!(target_os = "linux") {
            let r = resident_bytes().expect("VmRSS");
            assert!(r > 100_000, "{r}");
            let mut g = Guard::new(1, 1);
            assert!(g.over().is_some());
            let mut g = Guard::new(u64::MAX, 1);
            assert!(g.over().is_none());
        }
    }
}
