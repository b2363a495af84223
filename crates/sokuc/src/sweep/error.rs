//! What can go wrong in a sweep, a merge or the reading of a sweep request.

#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    #[error("{0}")]
    Usage(String),
    #[error("{file}:{line}: {message}")]
    File { file: String, line: usize, message: String },
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The results file is an input of the command, or cannot be written.
    #[error(transparent)]
    Output(#[from] crate::output::OutputError),
    #[error("internal error on instance {index} ({caps}): {message}")]
    Internal { index: u64, caps: String, message: String },
}
