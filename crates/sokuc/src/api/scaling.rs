//! Solve time against the number of faces, per backend, on generated 3SoKu families: what
//! `sokuc scaling` runs.

use super::backend::Backend;
use super::options::Options;
use crate::bench::scaling::{self, Cell, Family, ScalingError};
use crate::error::Error;
use crate::input::InputError;

/// The scaling benchmark: per family of generated 3SoKu instances, size steps of growing
/// face counts, each backend on a few instances of each step. Every answer is checked
/// against what the family promises (random instances are solvable, 4-unsat ones are not, a
/// Partition instance is solvable exactly when its sizes split evenly). A backend that
/// answers no instance of a step skips the larger ones. Build it with [`Scaling::new`] and
/// its setters, then [`Scaling::run`]:
///
/// ```
/// use std::time::Duration;
/// use sokuc::{Backend, Options, Scaling};
///
/// let scaling = Scaling::new()
///     .families("random")?
///     .backends(&[Backend::Search])
///     .reps(1)
///     .max_faces(8)
///     .options(&Options::new().timeout(Duration::from_secs(10)));
/// let table = scaling.run(&mut std::io::sink())?;
/// assert!(table.text().starts_with("family"));
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Scaling {
    families: Vec<Family>,
    backends: Vec<Backend>,
    reps: u64,
    max_faces: usize,
    options: Options,
}

impl Default for Scaling {
    fn default() -> Scaling {
        Scaling {
            families: vec![Family::Random, Family::Partition, Family::FourUnsat],
            backends: vec![Backend::Sat, Backend::Search],
            reps: 5,
            max_faces: 128,
            options: Options::new(),
        }
    }
}

impl Scaling {
    /// The families random, partition and 4-unsat; the backends sat and search; 5 instances
    /// per step, up to 128 faces; the default [`Options`] (no time limit: set one).
    pub fn new() -> Scaling {
        Scaling::default()
    }

    /// The families to run, comma-separated: `random` (random tiles on random faces, the
    /// capacities read off), `partition` (the Partition reduction of random sizes up to 4n),
    /// `partition-wide` (sizes up to 10^6, near Partition's hard region), `4-unsat` (a random
    /// instance with one capacity raised, four tiles fixed).
    ///
    /// # Errors
    ///
    /// [`Error::Input`], under the name `--families`, for a name that is none of these.
    pub fn families(mut self, list: &str) -> Result<Scaling, Error> {
        self.families = list
            .split(',')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(|f| match f {
                "random" => Ok(Family::Random),
                "partition" => Ok(Family::Partition),
                "partition-wide" => Ok(Family::PartitionWide),
                "4-unsat" => Ok(Family::FourUnsat),
                other => Err(InputError::new(
                    "--families",
                    None,
                    format!("unknown family {other:?} (random, partition, partition-wide, 4-unsat)"),
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(self)
    }

    /// The backends to time, a column each.
    pub fn backends(mut self, backends: &[Backend]) -> Scaling {
        self.backends = backends.to_vec();
        self
    }

    /// Instances per size step (seeds 0 to `reps` - 1).
    pub fn reps(mut self, reps: u64) -> Scaling {
        self.reps = reps;
        self
    }

    /// The largest number of faces.
    pub fn max_faces(mut self, faces: usize) -> Scaling {
        self.max_faces = faces;
        self
    }

    /// The options of every solve; the time limit is per instance.
    pub fn options(mut self, options: &Options) -> Scaling {
        self.options = options.clone();
        self
    }

    /// Runs every family, writing a line per instance to `out` (family, variant, faces,
    /// backend, status, time).
    ///
    /// # Errors
    ///
    /// As [`crate::Instance::solve`] (a model over the clause budget is not one: it counts
    /// as too large); [`Error::Internal`] when a backend's answer is not the one the family
    /// promises.
    pub fn run(&self, out: &mut dyn std::io::Write) -> Result<ScalingTable, Error> {
        let names = self
            .backends
            .iter()
            .map(|b| Ok(b.check()?.name().to_string()))
            .collect::<Result<Vec<_>, Error>>()?;
        let mut opts = super::run::run_options(&self.options, std::time::Instant::now());
        // The time limit is each solve's.
        opts.solve.started = None;
        let mut cells = Vec::new();
        for &f in &self.families {
            let run = scaling::run(f, &names, self.reps, self.max_faces, &opts, out);
            cells.extend(run.map_err(|e| match e {
                ScalingError::Run(r) => r.into(),
                other => Error::internal(other.to_string()),
            })?);
        }
        Ok(ScalingTable { cells, backends: names })
    }
}

/// The figures of a [`Scaling`] run: per family, size step and backend the answers and the
/// median and largest time.
#[derive(Debug, Clone)]
pub struct ScalingTable {
    cells: Vec<Cell>,
    backends: Vec<String>,
}

impl ScalingTable {
    /// The table `sokuc scaling` prints: a row per size step, per backend the median (and
    /// largest) time in milliseconds, then `N?` for N timeouts and `Nbig` for N models over
    /// the clause budget.
    pub fn text(&self) -> String {
        let mut out = Vec::new();
        scaling::print_table(&self.cells, &self.backends, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The same as JSON: a list of cells, one per family, size step and backend.
    pub fn json(&self) -> serde_json::Value {
        // Plain numbers and names: serializing into a value cannot fail.
        serde_json::to_value(&self.cells).unwrap_or_default()
    }
}
