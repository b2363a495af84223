//! The resource limits every stage keeps: a [`Deadline`] (the command's `--timeout` and an
//! interrupt flag) and the memory guard and estimates (`--max-memory`). They sit below the
//! encoders and the backends, which both build models that must stay within them.

mod deadline;
pub mod memory;
mod progress;
mod stop;

pub use deadline::{Deadline, GRACE, Waited, interrupt_process_on, join_within, process_interrupted};
pub use progress::{Progress, Snapshot};
pub use stop::{compile_stop, compiling_within};
