//! The one error type of the library's commands, and the one place where errors and
//! statuses become exit codes (spec §3).
//!
//! Each layer keeps its own typed error (`InputError`, `OutputError`, `EncodeError`,
//! `BackendError`, `run::RunError`, ...); they all convert into [`Error`], whose variants are
//! exactly the distinctions the exit code makes: the user's to fix (2) or sokuc's (1).

use crate::backend::{self, BackendError};
use crate::encode::EncodeError;
use crate::input::InputError;
use crate::ir::Status;
use crate::output::OutputError;

/// The exit codes of the `sokuc` command, which [`Error::exit_code`] and
/// [`Outcome::exit_code`](crate::Outcome::exit_code) give.
///
/// ```
/// use sokuc::{Status, exit};
/// assert_eq!(exit::status_code(Status::Unsat), exit::UNSAT);
/// // The SAT competition's table, as kissat and CaDiCaL exit.
/// assert_eq!(exit::competition_code(exit::SAT, false), exit::competition::SAT);
/// ```
pub mod exit {
    pub use super::{competition, competition_code, status_code};

    /// A solution was found, or the command succeeded.
    pub const SAT: u8 = 0;
    /// An internal error: a bug in sokuc or a solver, or backends that disagree.
    pub const INTERNAL: u8 = 1;
    /// Bad input or usage: the message says what to change.
    pub const USAGE: u8 = 2;
    /// A solution given to `check` or `render` is not one.
    pub const INVALID: u8 = 3;
    /// Proven to have no solution.
    pub const UNSAT: u8 = 20;
    /// No answer (time limit, interrupt).
    pub const UNKNOWN: u8 = 30;
}

/// The exit code of a run that ended with `status`.
pub fn status_code(status: Status) -> u8 {
    match status {
        Status::Sat => exit::SAT,
        Status::Unsat => exit::UNSAT,
        Status::Unknown => exit::UNKNOWN,
    }
}

/// The competitions' exit codes (`--exit-codes competition`, the default on CNF and OPB
/// files). The SAT competition's, as kissat and cadical exit: 10 SAT, 20 UNSAT, 0 UNKNOWN.
/// The PB competition judges only the `s` line on standard output and prescribes no exit
/// code; its solvers (RoundingSat) exit as the SAT competition does, with 30 for
/// `s OPTIMUM FOUND`, and so does sokuc on OPB files with an objective.
pub mod competition {
    /// A solution (`s SATISFIABLE`).
    pub const SAT: u8 = 10;
    /// No solution (`s UNSATISFIABLE`).
    pub const UNSAT: u8 = 20;
    /// A proven optimum (`s OPTIMUM FOUND`).
    pub const OPTIMUM: u8 = 30;
    /// No answer (`s UNKNOWN`).
    pub const UNKNOWN: u8 = 0;
}

/// A run's exit code `code` (of [`status_code`]'s table) in the competitions' table;
/// `optimal`: a proven optimum. Errors keep their codes.
pub fn competition_code(code: u8, optimal: bool) -> u8 {
    match code {
        exit::SAT if optimal => competition::OPTIMUM,
        exit::SAT => competition::SAT,
        exit::UNSAT => competition::UNSAT,
        exit::UNKNOWN => competition::UNKNOWN,
        other => other,
    }
}

/// Everything that can stop a command: the one error type of the library, of the CLI and of
/// the JSON output. Its variants are the distinctions [`Error::exit_code`] makes.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Bad input, with its file and line.
    #[error(transparent)]
    Input(#[from] InputError),
    /// An output that cannot be written, or that is one of the inputs.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// A model over a limit the user set or can raise (clauses, memory, time while building).
    #[error(transparent)]
    Limit(#[from] EncodeError),
    /// A request the chosen backend or puzzle cannot honour; the message says what can.
    #[error("{option}: {message}")]
    Unsupported {
        /// The option (or backend) that cannot be honoured, as the user wrote it.
        option: String,
        /// What can be done instead.
        message: String,
    },
    /// sokuc's fault, or a solver's: a wrong answer, a solver that failed, a broken invariant.
    #[error("internal error: {message}")]
    Internal {
        /// What went wrong, in words.
        message: String,
        /// The error that caused it, when there is one (a solver's, an I/O error).
        #[source]
        source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
    },
    /// Writing to standard output failed (a closed pipe ends the command quietly).
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl Error {
    /// An internal error with no underlying cause.
    pub fn internal(message: impl Into<String>) -> Error {
        Error::Internal {
            message: message.into(),
            source: None,
        }
    }

    /// An internal error caused by `source`, which stays reachable through
    /// [`std::error::Error::source`].
    pub fn internal_from(message: impl Into<String>, source: impl std::error::Error + Send + Sync + 'static) -> Error {
        Error::Internal {
            message: message.into(),
            source: Some(Box::new(source)),
        }
    }

    /// A request the chosen backend or puzzle cannot honour.
    pub fn unsupported(option: impl Into<String>, message: impl Into<String>) -> Error {
        Error::Unsupported {
            option: option.into(),
            message: message.into(),
        }
    }

    /// The exit code for this error; a closed pipe on stdout is not a failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Input(_) | Error::Output(_) | Error::Limit(_) | Error::Unsupported { .. } => exit::USAGE,
            Error::Io(e) if e.kind() == std::io::ErrorKind::BrokenPipe => exit::SAT,
            Error::Internal { .. } | Error::Io(_) => exit::INTERNAL,
        }
    }

    /// Whether the message is for the user to act on (printed as `error:`), rather than a
    /// bug report (printed as `internal error:`).
    pub fn is_usage(&self) -> bool {
        self.exit_code() == exit::USAGE
    }
}

impl From<BackendError> for Error {
    fn from(e: BackendError) -> Error {
        match e {
            BackendError::Encode(e) => Error::Limit(e),
            BackendError::Unsupported { backend, feature } => refusal(backend, feature),
            BackendError::Unavailable { backend, message } => {
                Error::unsupported(format!("--backend {backend}"), message)
            }
            BackendError::Tuning { list, message } => Error::unsupported(list, message),
            BackendError::Solver { .. } | BackendError::Io(_) => Error::internal_from(e.to_string(), e),
        }
    }
}

/// "the cp backend does not support DRAT proofs; backends in this build that do: sat,
/// cadical", under the option that asked for it.
pub fn refusal(backend: &str, feature: &str) -> Error {
    let option = match feature {
        backend::feature::PROOF => "--proof",
        backend::feature::SEED => "--seed",
        backend::feature::TIME_LIMIT => "--timeout",
        backend::feature::PARALLEL => "--jobs",
        _ => "--backend",
    };
    let able = backend::supporting(feature);
    Error::unsupported(
        option,
        format!(
            "the {backend} backend does not support {feature}; backends in this build that do: {}",
            if able.is_empty() {
                "none".to_string()
            } else {
                able.join(", ")
            }
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn an_internal_error_keeps_its_cause() {
        let io = std::io::Error::other("pipe closed");
        let e: Error = BackendError::Io(io).into();
        assert_eq!(e.exit_code(), exit::INTERNAL);
        let cause = e.source().expect("the backend's error is kept as the source");
        assert!(cause.downcast_ref::<BackendError>().is_some(), "{cause:?}");
        assert_eq!(e.to_string(), "internal error: pipe closed");

        let wrong: Error = crate::run::RunError::Wrong {
            backend: "sat".into(),
            problem: crate::run::AnswerProblem::Violates("row 3".into()),
        }
        .into();
        assert!(wrong.source().is_some());
        assert!(Error::internal("plain").source().is_none());
    }
}
