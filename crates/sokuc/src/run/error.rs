//! What stops a run ([`RunError`]): a backend's error, a wrong answer, or a failed write.

use super::assignment::AnswerProblem;
use crate::backend::BackendError;

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Backend(#[from] BackendError),
    /// A backend's "sat" answer that is not a solution: a bug, never printed as an answer.
    #[error("the {backend} answer is wrong: {problem}")]
    Wrong { backend: String, problem: AnswerProblem },
    /// Writing a solution out failed (a closed pipe ends an enumeration quietly).
    #[error("{0}")]
    Output(#[from] std::io::Error),
}

impl From<RunError> for crate::Error {
    fn from(e: RunError) -> crate::Error {
        match e {
            RunError::Backend(b) => b.into(),
            wrong @ RunError::Wrong { .. } => crate::Error::internal_from(wrong.to_string(), wrong),
            RunError::Output(e) => crate::Error::Io(e),
        }
    }
}
