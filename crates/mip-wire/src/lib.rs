//! The wire format between sokuc's MIP backends and their helper programs: `sokuc-cbc`
//! (CBC, the `mip` backend) and `sokuc-highs` (HiGHS, the `highs` backend), the package
//! `sokuc-helpers`. sokuc starts a helper, writes a [`Problem`] to its standard input
//! ([`Problem::encode`]), and reads one answer from its standard output ([`parse`]); a
//! helper is a program that calls [`serve`] with a function from the problem to its answer
//! ([`message`] with one of the tags). Another MIP solver's helper is written against this
//! module alone.
//!
//! The format is little-endian and starts with magic bytes, so a change fails loudly; it
//! is versioned with sokuc, and a helper runs with the sokuc it was built with.
//!
//! ```
//! use sokuc_mip_wire::{self as mip_wire, Answer, Problem};
//!
//! // x0 + x1 >= 1, both 0/1, minimise x0 + 2 x1.
//! let p = Problem {
//!     col_lower: vec![0.0, 0.0],
//!     col_upper: vec![1.0, 1.0],
//!     integer: vec![true, true],
//!     objective: vec![1.0, 2.0],
//!     rows: vec![(vec![(0, 1.0), (1, 1.0)], 1.0, f64::INFINITY)],
//!     parameters: vec![],
//! };
//! assert_eq!(Problem::decode(&p.encode()[..])?, p);
//! // A helper's answer, as sokuc reads it.
//! let reply = mip_wire::message(mip_wire::SOLUTION, &mip_wire::values_payload(&[1.0, 0.0]));
//! assert!(matches!(mip_wire::parse(&reply), Some(Answer::Solution { .. })));
//! # Ok::<(), mip_wire::WireError>(())
//! ```

#![deny(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use std::io::{self, Read, Write};

/// One row: `(column, coefficient)` terms, then its lower and upper bound (infinite for
/// none).
pub type Row = (Vec<(u32, f64)>, f64, f64);

/// A 0/1 (or integer) program, row by row.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Problem {
    /// Each column's lower bound.
    pub col_lower: Vec<f64>,
    /// Each column's upper bound.
    pub col_upper: Vec<f64>,
    /// Which columns are integer.
    pub integer: Vec<bool>,
    /// The objective's coefficient of each column, minimised (empty: a feasibility problem).
    pub objective: Vec<f64>,
    /// The rows, each with its bounds.
    pub rows: Vec<Row>,
    /// The solver's parameters: CBC's as its command line names them ("sec", "5.000"), or
    /// HiGHS's options ("time_limit", "5.000").
    pub parameters: Vec<(String, String)>,
}

/// The start of every model on the wire: a format change fails loudly, not subtly.
const MAGIC: &[u8; 8] = b"SOKUCBC1";

/// Reads at most this many entries of a count before it is known to be real: a count
/// comes from the wire, and memory is never reserved from a number alone.
pub const RESERVE_AT_MOST: usize = 1 << 16;

impl Problem {
    /// The number of columns.
    pub fn num_cols(&self) -> usize {
        self.col_lower.len()
    }

    /// The model as the helper reads it.
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + self.rows.iter().map(|r| 20 + 12 * r.0.len()).sum::<usize>());
        b.extend_from_slice(MAGIC);
        put_len(&mut b, self.num_cols());
        for j in 0..self.num_cols() {
            b.extend_from_slice(&self.col_lower[j].to_le_bytes());
            b.extend_from_slice(&self.col_upper[j].to_le_bytes());
            b.push(u8::from(self.integer.get(j).copied().unwrap_or(false)));
        }
        put_len(&mut b, self.objective.len());
        for c in &self.objective {
            b.extend_from_slice(&c.to_le_bytes());
        }
        put_len(&mut b, self.rows.len());
        for (terms, lo, up) in &self.rows {
            b.extend_from_slice(&lo.to_le_bytes());
            b.extend_from_slice(&up.to_le_bytes());
            put_len(&mut b, terms.len());
            for &(j, c) in terms {
                b.extend_from_slice(&j.to_le_bytes());
                b.extend_from_slice(&c.to_le_bytes());
            }
        }
        put_len(&mut b, self.parameters.len());
        for (k, v) in &self.parameters {
            for s in [k, v] {
                put_len(&mut b, s.len());
                b.extend_from_slice(s.as_bytes());
            }
        }
        b
    }

    /// The model [`Problem::encode`] wrote.
    ///
    /// # Errors
    ///
    /// [`WireError`], naming what is wrong with the bytes: the wrong magic bytes, an end
    /// before the model's, a term on a column the model does not have, a parameter that is
    /// not UTF-8.
    pub fn decode(mut r: impl Read) -> Result<Problem, WireError> {
        let mut magic = [0u8; 8];
        r.read_exact(&mut magic)
            .map_err(|e| WireError::new(format!("no model: {e}")))?;
        if &magic != MAGIC {
            return Err(WireError::new("not a sokuc-cbc model (wrong magic bytes)"));
        }
        let mut p = Problem::default();
        let n = get_len(&mut r)?;
        for _ in 0..n {
            p.col_lower.push(get_f64(&mut r)?);
            p.col_upper.push(get_f64(&mut r)?);
            p.integer.push(get_u8(&mut r)? != 0);
        }
        let k = get_len(&mut r)?;
        if k != 0 && k != n {
            return Err(WireError::new(format!("{k} objective coefficients for {n} columns")));
        }
        for _ in 0..k {
            p.objective.push(get_f64(&mut r)?);
        }
        let m = get_len(&mut r)?;
        p.rows.reserve(m.min(RESERVE_AT_MOST));
        for _ in 0..m {
            let lo = get_f64(&mut r)?;
            let up = get_f64(&mut r)?;
            let t = get_len(&mut r)?;
            let mut terms = Vec::with_capacity(t.min(RESERVE_AT_MOST));
            for _ in 0..t {
                let j = get_u32(&mut r)?;
                if j as usize >= n {
                    return Err(WireError::new(format!("a term on column {j} of {n}")));
                }
                terms.push((j, get_f64(&mut r)?));
            }
            p.rows.push((terms, lo, up));
        }
        let q = get_len(&mut r)?;
        for _ in 0..q {
            let k = get_string(&mut r)?;
            let v = get_string(&mut r)?;
            p.parameters.push((k, v));
        }
        Ok(p)
    }
}

/// A model that cannot be read: what is wrong with its bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct WireError(pub String);

impl WireError {
    fn new(m: impl Into<String>) -> WireError {
        WireError(m.into())
    }
}

fn put_len(b: &mut Vec<u8>, n: usize) {
    // Counts past u32 are refused before a model is encoded (see `start`).
    b.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
}

fn get_u8(r: &mut impl Read) -> Result<u8, WireError> {
    let mut x = [0u8; 1];
    r.read_exact(&mut x)
        .map_err(|e| WireError::new(format!("the model ends early: {e}")))?;
    Ok(x[0])
}

fn get_u32(r: &mut impl Read) -> Result<u32, WireError> {
    let mut x = [0u8; 4];
    r.read_exact(&mut x)
        .map_err(|e| WireError::new(format!("the model ends early: {e}")))?;
    Ok(u32::from_le_bytes(x))
}

fn get_len(r: &mut impl Read) -> Result<usize, WireError> {
    get_u32(r).map(|n| n as usize)
}

fn get_f64(r: &mut impl Read) -> Result<f64, WireError> {
    let mut x = [0u8; 8];
    r.read_exact(&mut x)
        .map_err(|e| WireError::new(format!("the model ends early: {e}")))?;
    Ok(f64::from_le_bytes(x))
}

fn get_string(r: &mut impl Read) -> Result<String, WireError> {
    let n = get_len(r)?;
    let mut s = Vec::with_capacity(n.min(RESERVE_AT_MOST));
    r.take(n as u64)
        .read_to_end(&mut s)
        .map_err(|e| WireError::new(format!("the model ends early: {e}")))?;
    if s.len() != n {
        return Err(WireError::new("the model ends inside a parameter"));
    }
    String::from_utf8(s).map_err(|_| WireError::new("a parameter is not UTF-8"))
}

/// The solver's verdict.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The model has no solution.
    Infeasible,
    /// The columns' values; `time_limit`: the solver stopped at its own time limit and these are
    /// whatever point it had, feasible or not; `bound`: with an objective, the least value the
    /// solver proved any solution has (its dual bound), where it sends one.
    Solution {
        /// Each column's value.
        values: Vec<f64>,
        /// Whether the solver stopped at its own time limit.
        time_limit: bool,
        /// The solver's dual bound, where it sends one.
        bound: Option<f64>,
    },
    /// The solver stopped at its own time limit with no point.
    TimeLimit,
    /// The helper failed: its message.
    Error(String),
}

// Message tags, helper to parent: a tag byte, a little-endian `u32` length, the payload.

/// No solution: an empty payload.
pub const INFEASIBLE: u8 = 0;
/// A finished search's solution: the columns' values ([`values_payload`]).
pub const SOLUTION: u8 = 1;
/// The point the solver had at its own time limit, feasible or not ([`values_payload`]).
pub const SOLUTION_AT_LIMIT: u8 = 2;
/// The solver stopped at its own time limit with no point: an empty payload.
pub const TIME_LIMIT: u8 = 3;
/// The helper failed: its message as UTF-8.
pub const ERROR: u8 = 4;
/// A finished search's solution with the solver's dual bound: the bound's 8 bytes, then the
/// values as in [`SOLUTION`].
pub const SOLUTION_BOUNDED: u8 = 5;
const HEADER: usize = 5;

/// One answer as the helper writes it.
pub fn message(tag: u8, payload: &[u8]) -> Vec<u8> {
    let mut m = Vec::with_capacity(HEADER + payload.len());
    m.push(tag);
    put_len(&mut m, payload.len());
    m.extend_from_slice(payload);
    m
}

/// The columns' values as a [`SOLUTION`] payload.
pub fn values_payload(values: &[f64]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A [`SOLUTION_BOUNDED`] payload.
pub fn bounded_payload(bound: f64, values: &[f64]) -> Vec<u8> {
    let mut b = bound.to_le_bytes().to_vec();
    b.extend(values_payload(values));
    b
}

/// The answer in `buf`, once all of it has arrived.
pub fn parse(buf: &[u8]) -> Option<Answer> {
    let header = buf.get(..HEADER)?;
    let len = u32::from_le_bytes([header[1], header[2], header[3], header[4]]) as usize;
    let payload = buf.get(HEADER..HEADER + len)?;
    let values = |payload: &[u8]| -> Vec<f64> {
        payload
            .chunks_exact(8)
            .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
            .collect()
    };
    Some(match header[0] {
        INFEASIBLE => Answer::Infeasible,
        SOLUTION => Answer::Solution {
            values: values(payload),
            time_limit: false,
            bound: None,
        },
        SOLUTION_AT_LIMIT => Answer::Solution {
            values: values(payload),
            time_limit: true,
            bound: None,
        },
        SOLUTION_BOUNDED if payload.len() >= 8 => Answer::Solution {
            values: values(&payload[8..]),
            time_limit: false,
            bound: Some(f64::from_le_bytes(payload[..8].try_into().expect("8 bytes"))),
        },
        TIME_LIMIT => Answer::TimeLimit,
        ERROR => Answer::Error(String::from_utf8_lossy(payload).into_owned()),
        SOLUTION_BOUNDED => Answer::Error("the solver's process sent a bounded solution without its bound".into()),
        other => Answer::Error(format!("the solver's process sent an unknown answer (tag {other})")),
    })
}

/// A helper's life: reads one model from standard input, answers it with `solve` on
/// standard output, and exits.
pub fn serve(program: &str, solve: impl FnOnce(&Problem) -> Vec<u8>) {
    // Ctrl-C in a terminal reaches the whole process group, the helper too: sokuc decides
    // what an interrupt means (it writes what it found and kills the helper), so the signal
    // itself is caught here and ignored.
    let ignored = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, ignored);
    let mut stdin = io::stdin().lock();
    let answer = match Problem::decode(&mut stdin) {
        Ok(p) => {
            drop(stdin);
            // The parent keeps our standard input open while it waits: its end (the parent
            // ended, or gave the solve up) means nobody wants the answer any more.
            std::thread::spawn(|| {
                let _ = io::copy(&mut io::stdin().lock(), &mut io::sink());
                std::process::exit(3);
            });
            solve(&p)
        }
        Err(e) => message(ERROR, format!("{program}: {e}").as_bytes()),
    };
    let mut out = io::stdout().lock();
    let _ = out.write_all(&answer).and_then(|()| out.flush());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_parse_only_when_complete() {
        let m = message(SOLUTION, &values_payload(&[1.0, 0.0, 0.25]));
        for cut in 0..m.len() {
            assert_eq!(parse(&m[..cut]), None, "{cut}");
        }
        assert_eq!(
            parse(&m),
            Some(Answer::Solution {
                values: vec![1.0, 0.0, 0.25],
                time_limit: false,
                bound: None,
            })
        );
        let m = message(SOLUTION_BOUNDED, &bounded_payload(-2.5, &[1.0, 0.0]));
        assert_eq!(
            parse(&m),
            Some(Answer::Solution {
                values: vec![1.0, 0.0],
                time_limit: false,
                bound: Some(-2.5),
            })
        );
        // A bounded solution too short to hold its bound is no answer a parent can use.
        assert!(matches!(
            parse(&message(SOLUTION_BOUNDED, &[0; 4])),
            Some(Answer::Error(_))
        ));
        assert_eq!(parse(&message(INFEASIBLE, &[])), Some(Answer::Infeasible));
        assert_eq!(parse(&message(ERROR, b"boom")), Some(Answer::Error("boom".into())));
    }

    fn sample() -> Problem {
        Problem {
            col_lower: vec![0.0, 0.0, 1.0],
            col_upper: vec![1.0, 1.0, 1.0],
            integer: vec![true, true, false],
            objective: vec![3.0, -1.5, 0.0],
            rows: vec![
                (vec![(0, 2.0), (2, -1.0)], f64::NEG_INFINITY, 1.0),
                (vec![(1, 1.0)], 0.5, 0.5),
                (vec![], 0.0, f64::INFINITY),
            ],
            parameters: vec![("log".into(), "0".into()), ("sec".into(), "1.500".into())],
        }
    }

    #[test]
    fn models_round_trip_through_the_wire() {
        let p = sample();
        assert_eq!(Problem::decode(&p.encode()[..]).unwrap(), p);
        let feasibility = Problem {
            objective: Vec::new(),
            ..sample()
        };
        assert_eq!(Problem::decode(&feasibility.encode()[..]).unwrap(), feasibility);
    }

    #[test]
    fn damaged_models_are_refused_not_read() {
        let bytes = sample().encode();
        for cut in 0..bytes.len() {
            assert!(Problem::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut wrong = bytes.clone();
        wrong[0] = b'X';
        assert!(Problem::decode(&wrong[..]).unwrap_err().0.contains("magic"));
        // A huge count is not a reason to reserve memory: it fails when the data ends.
        let mut huge = MAGIC.to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(Problem::decode(&huge[..]).unwrap_err().0.contains("ends early"));
    }
}
