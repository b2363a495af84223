//! Certified answers: a DRAT proof of unsatisfiability checked by an external checker
//! (drat-trim), for the CNF that `--emit dimacs` writes.
//!
//! sokuc does not trust its own "unsat": the proof comes from the SAT backend, the CNF from
//! the exporter, and the verdict from a program that shares no code with either. drat-trim
//! is one C file; the pumpkin-solver crate ships it, and `scripts/install-tools.sh` builds it
//! into `target/tools/drat-trim`.
//!
//! What `certify` prints: `UNSAT (proof checked: N lemmas, K in the core)`, or `UNSAT CLAIM
//! REJECTED` with exit 1. When presolve refutes the puzzle, its argument is printed and the
//! model without presolve is refuted with a checked proof as well; if that model has a
//! verified solution instead, presolve was wrong: `CONTRADICTION` on stderr with presolve's
//! argument, called a bug in sokuc, exit 1 (JSON `"verdict": "presolve-contradiction"`).
//!
//! An optimum is certified the same way, by hand: bound the objective one below it and certify
//! that the decision problem is unsatisfiable (on an OPB file, replace the `min:` line with
//! the row `-c1 x1 -c2 x2 ... >= -(optimum - 1) ;`). The proofs come from `sat` or `cadical`,
//! the only backends that write DRAT. `tests/certify.rs` checks a proof for each
//! unsatisfiable example and for every 10th line of the 4-unsat batch (the first on all three
//! order encodings), and that damaged proofs (empty, deletions only, cut in half) of
//! pigeonhole(7) are rejected.

mod certificate;
pub mod drat;
mod verdict;

pub use certificate::{Certificate, Request, certify};
pub use verdict::Verdict;
