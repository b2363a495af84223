//! Liu, Löffler and Hofstedt's all-different triangular solutions (ADTS): the 24 tile types
//! of weights 0 to 3 on the icosahedron, each at most once.

use super::instance::Instance;
use super::options::Options;
use crate::Status;
use crate::error::Error;
use crate::input::{InputError, lists};
use crate::pool::{Pegs, PoolInstance, PoolType};

impl Instance {
    /// Liu's all-different question, as `sokuc adts` asks it: an arrangement of tile types on
    /// the icosahedron's 20 faces, each type at most once, whose corners add up to the pegs.
    /// `pegs`: twelve numbers for the vertices A to L (`"1,5,11,..."`), or `None` for free
    /// pegs (any arrangement of 1 to 12). `pool`: the types the faces may take
    /// (`"a,b,c;..."`), or `None` for all 24 types of weights 0 to 3.
    ///
    /// ```
    /// use sokuc::{Instance, Options, Status};
    /// let adts = Instance::all_different(None, None)?;
    /// assert_eq!(adts.solve(&Options::new().backend(sokuc::Backend::Sat))?.status(), Status::Sat);
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Input`] (naming `pegs` or `pool`) when the pegs are not twelve numbers or
    /// the pool is not a list of tiles.
    pub fn all_different(pegs: Option<&str>, pool: Option<&str>) -> Result<Instance, Error> {
        let pegs = match pegs {
            None => Pegs::Free((1..=12).collect()),
            Some(p) => {
                let caps = lists::numbers("pegs", p, "peg")?;
                if caps.len() != 12 {
                    return Err(InputError::new("pegs", None, format!("{} pegs for 12 vertices", caps.len())).into());
                }
                Pegs::Fixed(caps)
            }
        };
        let mut inst = PoolInstance::liu(pegs);
        if let Some(types) = pool {
            inst.pool = lists::tiles("pool", types)?
                .into_iter()
                .map(|t| PoolType::once(crate::model::tiles::canonical(t)))
                .collect();
        }
        Ok(Instance::from_puzzle(Box::new(inst)))
    }
}

/// One 20-subset of the 24 types that passed the weight test, and what the backend found
/// ([`adts_subsets`]).
#[derive(Debug)]
pub struct AdtsSubset<'a> {
    row: &'a crate::liu::Row,
}

impl AdtsSubset<'_> {
    /// The four types left out, each as its three corner weights.
    pub fn without(&self) -> &[[u64; 3]] {
        &self.row.without
    }

    /// Whether an all-different solution with free pegs uses exactly the other 20.
    pub fn status(&self) -> Status {
        self.row.status
    }

    /// The pegs of the verified solution, for the vertices A to L.
    pub fn pegs(&self) -> Option<&[u64]> {
        self.row.pegs.as_deref()
    }

    /// The line `sokuc adts --subsets` prints for it.
    pub fn text(&self) -> String {
        self.row.text()
    }

    /// The same as JSON.
    pub fn json(&self) -> serde_json::Value {
        self.row.json()
    }
}

/// The tally of every 20-subset ([`adts_subsets`]).
#[derive(Debug)]
pub struct AdtsSummary {
    inner: crate::liu::Summary,
}

impl AdtsSummary {
    /// The 20-subsets in all: C(24, 4) = 10,626.
    pub fn subsets(&self) -> u64 {
        self.inner.subsets
    }

    /// Those whose weights do not add up to 1 + ... + 12 = 78, which no arrangement can use.
    pub fn fail_weight_test(&self) -> u64 {
        self.inner.fail_weight_test
    }

    /// Of the rest: how many have a solution, none, or no answer in time.
    pub fn counts(&self) -> (u64, u64, u64) {
        (self.inner.sat, self.inner.unsat, self.inner.unknown)
    }

    /// The summary line `sokuc adts --subsets` ends with.
    pub fn text(&self) -> String {
        self.inner.text()
    }

    /// The summary as JSON, with `rows` (the subsets' JSON, as collected) as its results.
    pub fn json(&self, rows: Vec<serde_json::Value>) -> serde_json::Value {
        self.inner.json(rows)
    }
}

/// Liu's question 3: for every 20-subset of the 24 types, is there an all-different
/// solution with free pegs that uses exactly those types? The subsets that pass the weight
/// test are solved on the options' backend, every solution verified, and `each` sees each
/// one as it is decided. The options' time limit is for each subset.
///
/// # Errors
///
/// The first error of `each`, or of a solve (as [`Instance::solve`]'s); [`Error::Input`]
/// when the backend is not in this build.
pub fn adts_subsets(
    options: &Options,
    mut each: impl FnMut(&AdtsSubset<'_>) -> Result<(), Error>,
) -> Result<AdtsSummary, Error> {
    options.backend.check()?;
    let mut run = super::run::run_options(options, std::time::Instant::now());
    // Each subset's clock starts with its own solve.
    run.solve.started = None;
    let inner = crate::liu::subsets(options.backend.name(), &run, |row| each(&AdtsSubset { row }))?;
    Ok(AdtsSummary { inner })
}
