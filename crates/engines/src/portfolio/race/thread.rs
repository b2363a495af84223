//! The thread that runs one engine of a race, and owns what it needs, so that the race can
//! leave behind an engine that ignores its stop flag.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use super::entrant::Entrant;
use super::events::{Event, Said, Task};
use crate::algorithms::Algorithms;
use crate::contract::{BackendError, SolveOptions};
use crate::ir::{PbFormula, Status};

/// The thread of one engine of a race: makes it, runs it for `task` (sending each model as
/// it comes), and says how it ended. A panic is an engine's failure, not the race's: it must
/// still say it ended, or the coordinator would wait for it until the grace is over.
pub(super) fn run(
    entrant: Entrant,
    formula: &PbFormula,
    mine: &SolveOptions,
    stop: &AtomicBool,
    task: Task,
    who: usize,
    tx: &mpsc::Sender<Event>,
) {
    let name = entrant.name;
    let run = std::panic::AssertUnwindSafe(|| {
        (entrant.make)().and_then(|mut b| match task {
            Task::Decide => b.solve(formula, mine).map(|out| {
                if let (Status::Sat, Some(a)) = (out.status, out.assignment) {
                    // The receiver is gone only when the race has ended.
                    let _ = tx.send(Event::Model {
                        who,
                        assignment: a,
                        at: Instant::now(),
                    });
                }
                Said {
                    status: out.status,
                    optimal: false,
                    stats: out.stats,
                }
            }),
            Task::Optimise => {
                let mut send = |a: &[bool]| {
                    let _ = tx.send(Event::Model {
                        who,
                        assignment: a.to_vec(),
                        at: Instant::now(),
                    });
                    if stop.load(Ordering::Relaxed) {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                };
                b.optimise(formula, mine, &mut send).map(|o| Said {
                    status: o.status,
                    optimal: o.optimal,
                    stats: o.stats,
                })
            }
        })
    });
    let result = std::panic::catch_unwind(run).unwrap_or_else(|_| {
        Err(BackendError::Solver {
            backend: "auto",
            message: format!("{name} panicked"),
        })
    });
    let _ = tx.send(Event::Done {
        who,
        result: result.map(Box::new),
        at: Instant::now(),
    });
}
