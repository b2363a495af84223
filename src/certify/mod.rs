//! Certified answers: a DRAT proof of unsatisfiability checked by an external checker
//! (drat-trim), for the CNF that `--emit dimacs` writes.
//!
//! sokuc does not trust its own "unsat": the proof comes from the SAT backend, the CNF from
//! the exporter, and the verdict from a program that shares no code with either. drat-trim
//! is one C file; the pumpkin-solver crate ships it, and `scripts/install-tools.sh` builds it
//! into `target/tools/drat-trim`.

mod certificate;
mod drat;
mod verdict;

pub use certificate::{Certificate, Request, certify};
pub use drat::{CertifyError, CheckReport, check, find_checker, parse_report};
pub use verdict::{Verdict, contradiction_message, verdict};
