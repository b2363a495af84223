//! Enumerating a model's solutions for a caller's closure.

use std::ops::ControlFlow;
use std::time::Instant;

use super::options::Options;
use super::run::{backend_of, run_options};
use super::solution::Assignment;
use crate::error::Error;
use crate::pb::PbFile;

/// Every solution of `file` up to `limit`, each checked, handed to `each` until it says
/// stop: how many, and whether that is all of them, as the gate judged that claim.
pub(crate) fn enumerate(
    file: &PbFile,
    options: &Options,
    limit: Option<u64>,
    mut each: impl FnMut(&Assignment) -> bool,
) -> Result<super::Enumerated, Error> {
    let mut backend = backend_of(options)?;
    let run = run_options(options, Instant::now());
    let mut on = |values: Vec<bool>, _engine: &'static str| {
        let a = Assignment::new(values);
        Ok(if each(&a) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        })
    };
    let inner = crate::run::enumerate::enumerate(file, backend.as_mut(), &run, limit, &mut on)?;
    Ok(super::Enumerated { inner })
}
