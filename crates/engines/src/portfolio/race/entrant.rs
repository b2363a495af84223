//! What enters a race: an engine's name, and how to make the engine on the thread that runs
//! it (an engine need not be `Send`; the recipe is).

use crate::contract::{Backend, BackendError};
use crate::engines;

/// An engine given to the race: its name, and how to make it (on the thread that runs it).
pub struct Entrant {
    pub name: &'static str,
    pub(super) make: Box<dyn FnOnce() -> Result<Box<dyn Backend>, BackendError> + Send>,
}

// By hand: how it is made is a closure, which has nothing to show.
impl std::fmt::Debug for Entrant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entrant")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Entrant {
    /// An engine that `make` builds: a test's fake engine.
    #[cfg(any(test, feature = "testing"))]
    pub fn new(name: &'static str, make: impl FnOnce() -> Box<dyn Backend> + Send + 'static) -> Entrant {
        Entrant {
            name,
            make: Box::new(move || Ok(make())),
        }
    }

    /// The engine called `name` in this build.
    pub fn engine(name: &'static str) -> Entrant {
        Entrant {
            name,
            make: Box::new(move || {
                engines::engine(name).ok_or_else(|| BackendError::Solver {
                    backend: "auto",
                    message: format!("{name} is not in this build"),
                })
            }),
        }
    }
}

/// The engines of this build called `names`, in order.
pub fn entrants(names: &[&'static str]) -> Vec<Entrant> {
    names.iter().map(|&n| Entrant::engine(n)).collect()
}
