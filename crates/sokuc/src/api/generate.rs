//! Puzzles made by sokuc: what `sokuc generate` writes, with the claim each file makes and
//! its evidence.

use std::time::Instant;

use super::evidence::Claim;
use super::options::Options;
use crate::backend::Backend;
use crate::backend::sat::varisat::Varisat;
use crate::error::Error;
use crate::generate::{self, Made, SokuRequest, Stopped, TrickyRequest};
use crate::tricky::generate::Step;

/// What a generator made: the file and the claim it makes, with the claim's evidence, or why
/// no file was made. A file is made only with its claim proven (or, for a Partition instance
/// of even total, a file that says it claims nothing about itself).
///
/// ```
/// use sokuc::{ClaimKind, Options, TrickyGenerator};
///
/// let made = TrickyGenerator::new(6, 3).generate(&Options::new())?;
/// let claim = made.claim().expect("no time limit, no interrupt");
/// assert_eq!(claim.kind(), ClaimKind::Unique);
/// assert!(made.text().unwrap().contains(&format!("# evidence: {claim}")));
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Generated {
    made: Made,
}

impl Generated {
    /// The file; `None` when the generation stopped (time limit, interrupt) or its final
    /// check did not prove the claim ([`Generated::reason`] says which).
    pub fn text(&self) -> Option<&str> {
        self.made.text.as_deref()
    }

    /// The claim the file makes, with its evidence: unique for a Tricky Triple (the final
    /// check's claim, as `solve --unique` records it), sat (a planted solution, verified) or
    /// unsat (totals that differ) for a 3SoKu instance. `None` when no file was made, and for
    /// a Partition instance of even total, whose file claims nothing about itself.
    pub fn claim(&self) -> Option<Claim<'_>> {
        let kind = self.made.claim?;
        self.made.evidence.claim(kind).map(Claim::of)
    }

    /// Every claim on record, withheld ones included (a uniqueness claim `strict` withheld
    /// is why no file was made).
    pub fn claims(&self) -> Vec<Claim<'_>> {
        self.made.evidence.claims.iter().map(Claim::of).collect()
    }

    /// Why no file was made; `None` when one was.
    pub fn reason(&self) -> Option<String> {
        self.made.stopped.as_ref().map(Stopped::words)
    }

    /// Whether the interrupt flag stopped the generation.
    pub fn interrupted(&self) -> bool {
        self.made.stopped == Some(Stopped::Interrupted)
    }

    /// Whether the time limit stopped the generation.
    pub fn timed_out(&self) -> bool {
        self.made.stopped == Some(Stopped::TimeLimit)
    }

    /// A Tricky Triple's givens, when a file was made.
    pub fn givens(&self) -> Option<usize> {
        self.made.givens
    }

    /// A Tricky Triple's uniqueness checks, made before the grid was finished or the
    /// generation stopped.
    pub fn checks(&self) -> Option<usize> {
        self.made.checks
    }

    /// The document `sokuc generate --format json` prints (`generated` in the schema).
    pub fn json(&self) -> serde_json::Value {
        self.made.json()
    }
}

/// A 3SoKu instance made at random or by a construction, as `sokuc generate 3soku` writes it:
/// a TOML instance file whose first line is the command that makes it again (the same seed
/// gives the same bytes) and whose last says what the construction promises. The file is
/// read back as itself before it is given. Its last lines say what it claims and the evidence
/// ([`SokuGenerator::generate`] gives the claim typed).
///
/// By default a random solvable instance on the icosahedron with the IcoSoKu tiles; a
/// Partition reduction ([`SokuGenerator::from_partition`]) is solvable exactly when its
/// sizes split into two equal halves.
///
/// ```
/// use sokuc::{Backing, Instance, Options, SokuGenerator, Status};
///
/// let text = SokuGenerator::new(7).variant("octahedron").max_weight(3).text()?;
/// let made = Instance::parse("3soku", "made.toml", &text)?;
/// assert_eq!(made.solve(&Options::new())?.status(), Status::Sat);
/// // The same seed makes the same file.
/// assert_eq!(text, SokuGenerator::new(7).variant("octahedron").max_weight(3).text()?);
///
/// // 3 + 1 + 2 = 2 + 2 + 1 + 1: two equal halves, so solvable.
/// let split = SokuGenerator::new(1).from_partition("3,1,2,2,2,1,1").text()?;
/// let split = Instance::parse("3soku", "split.toml", &split)?;
/// assert_eq!(split.solve(&Options::new())?.status(), Status::Sat);
///
/// // The random instance claims to be solvable: its planted arrangement was verified.
/// let made = SokuGenerator::new(7).variant("octahedron").generate()?;
/// assert_eq!(made.claim().map(|c| c.backing()), Some(Backing::CheckedModel));
/// // A Partition instance claims nothing about itself (the reduction is no solve).
/// assert!(SokuGenerator::new(1).from_partition("3,1,2").generate()?.claim().is_none());
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SokuGenerator {
    seed: u64,
    variant: String,
    tiles: Option<String>,
    max_weight: u64,
    fixed: usize,
    fixed_rotation: bool,
    from_partition: Option<String>,
    random_partition: Option<usize>,
    max_size: u64,
    four_unsat: bool,
}

impl SokuGenerator {
    /// A random solvable instance on the icosahedron from this seed; the setters change it.
    pub fn new(seed: u64) -> SokuGenerator {
        SokuGenerator {
            seed,
            variant: "icosahedron".into(),
            tiles: None,
            max_weight: 3,
            fixed: 0,
            fixed_rotation: false,
            from_partition: None,
            random_partition: None,
            max_size: 20,
            four_unsat: false,
        }
    }

    /// The solid: a built-in variant's name or a variant file.
    pub fn variant(mut self, name_or_file: impl Into<String>) -> SokuGenerator {
        self.variant = name_or_file.into();
        self
    }

    /// The tiles: a built-in set (`icosoku`) or a list such as `"0,1,2;0,0,1;..."`. By
    /// default the IcoSoKu tiles on a 20-face solid, else random tiles.
    pub fn tiles(mut self, spec: impl Into<String>) -> SokuGenerator {
        self.tiles = Some(spec.into());
        self
    }

    /// Random tiles have weights `0..=weight` (3 by default).
    pub fn max_weight(mut self, weight: u64) -> SokuGenerator {
        self.max_weight = weight;
        self
    }

    /// This many tiles placed where the planted solution has them (none by default); with
    /// `keep_rotation`, each keeps its turn too, else the turn is left free.
    pub fn fixed(mut self, tiles: usize, keep_rotation: bool) -> SokuGenerator {
        self.fixed = tiles;
        self.fixed_rotation = keep_rotation;
        self
    }

    /// The Partition reduction for these sizes (`"3,1,1,2,2,1"`): a bipyramid that is
    /// solvable exactly when the sizes split into two equal halves.
    pub fn from_partition(mut self, sizes: impl Into<String>) -> SokuGenerator {
        self.from_partition = Some(sizes.into());
        self
    }

    /// The Partition reduction for `n` random sizes in `1..=max_size` (their total made
    /// even).
    pub fn random_partition(mut self, n: usize, max_size: u64) -> SokuGenerator {
        self.random_partition = Some(n);
        self.max_size = max_size;
        self
    }

    /// The "4-unsat" family: a solvable instance with one capacity raised by 1, and the fixed
    /// tiles (4 unless [`SokuGenerator::fixed`] says otherwise) placed with a free turn.
    pub fn four_unsat(mut self) -> SokuGenerator {
        self.four_unsat = true;
        self
    }

    /// The instance file.
    ///
    /// # Errors
    ///
    /// As [`SokuGenerator::generate`].
    pub fn text(&self) -> Result<String, Error> {
        let made = self.generate()?;
        made.made
            .text
            .ok_or_else(|| Error::internal("a 3SoKu generation made no file"))
    }

    /// The instance file and what it claims: solvable (its planted arrangement, verified),
    /// unsatisfiable (totals that differ), or, for a Partition instance of even total,
    /// nothing about itself. Nothing is solved, so no time limit applies.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] for settings out of range (the message names the command line's
    /// option), an unknown variant or tile set, or sizes that are not numbers;
    /// [`Error::Internal`] when the file does not read back or the claim does not hold of it.
    pub fn generate(&self) -> Result<Generated, Error> {
        generate::soku(&SokuRequest {
            seed: self.seed,
            variant: &self.variant,
            tiles: self.tiles.as_deref(),
            max_weight: self.max_weight,
            fixed: self.fixed,
            fixed_rotation: self.fixed_rotation,
            from_partition: self.from_partition.as_deref(),
            random_partition: self.random_partition,
            max_size: self.max_size,
            four_unsat: self.four_unsat,
        })
        .map(|made| Generated { made })
    }
}

/// A Tricky Triple with exactly one solution, as `sokuc generate trickytriple` writes it: a
/// square grid whose givens are removed while the solution stays unique (each removal on the
/// `sat` engine's word), then solved once more through the run path with
/// [`Options::unique`], whose uniqueness claim, with its evidence, heads the file.
///
/// The options' time limit, interrupt flag and memory limit bound the whole generation;
/// their backend and [`Options::strict`] make the final check. A generation that stops, or
/// whose final check does not prove uniqueness, makes no file.
///
/// ```
/// use std::time::Duration;
/// use sokuc::{Instance, Options, Status, TrickyGenerator};
///
/// let made = TrickyGenerator::new(6, 3).black(10).generate(&Options::new())?;
/// let grid = Instance::parse("trickytriple", "made.txt", made.text().unwrap())?;
/// let outcome = grid.solve(&Options::new().unique(true))?;
/// assert_eq!((outcome.status(), outcome.unique()), (Status::Sat, Some(true)));
///
/// // Out of time: no file, and no claim.
/// let late = TrickyGenerator::new(30, 3).generate(&Options::new().timeout(Duration::ZERO))?;
/// assert!(late.timed_out() && late.text().is_none() && late.claim().is_none());
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct TrickyGenerator {
    size: usize,
    seed: u64,
    black: u32,
}

impl TrickyGenerator {
    /// A `size` x `size` grid from this seed, 10% of its cells black.
    pub fn new(size: usize, seed: u64) -> TrickyGenerator {
        TrickyGenerator { size, seed, black: 10 }
    }

    /// The percentage of black cells (at most 50).
    pub fn black(mut self, percent: u32) -> TrickyGenerator {
        self.black = percent;
        self
    }

    /// The grid file, and its uniqueness claim with the evidence; or no file, and why.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when the size is not from 3 to 200 or more than half the cells
    /// would be black; [`Error::Unsupported`] when the options' backend is not in this build
    /// or cannot honour them; [`Error::Limit`] past the memory limit; [`Error::Internal`]
    /// if the made solution does not verify or the final check finds a second solution.
    pub fn generate(&self, options: &Options) -> Result<Generated, Error> {
        self.generate_with(options, &mut Varisat, &mut |_| {})
    }

    /// [`TrickyGenerator::generate`] with the removals checked on `checker`, and `at` called
    /// at each step (the tests' lying engine, and their interrupts at each point).
    pub(crate) fn generate_with(
        &self,
        options: &Options,
        checker: &mut dyn Backend,
        at: &mut dyn FnMut(Step),
    ) -> Result<Generated, Error> {
        let run = super::run::run_options(options, Instant::now());
        let mut backend = super::run::backend_of(options)?;
        let req = TrickyRequest {
            size: self.size,
            seed: self.seed,
            black: self.black,
        };
        generate::tricky(req, &run, backend.as_mut(), checker, at).map(|made| Generated { made })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    use super::*;
    use crate::backend::contract::{BackendError, Capabilities, Outcome, SolveOptions, SolveStats};
    use crate::backend::liar::{Liar, Lie};
    use crate::ir::{PbFormula, Status};
    use crate::{Backend as Engine, ClaimKind, Instance};

    /// The grid the tests generate: small, so that every engine answers at once.
    fn small() -> TrickyGenerator {
        TrickyGenerator::new(7, 3)
    }

    /// The file's grid has exactly one solution, by `--unique` on the search engine (not the
    /// sat engine that made it).
    fn unique_elsewhere(text: &str) {
        let grid = Instance::parse("trickytriple", "made.tt", text).unwrap();
        let o = grid
            .solve(&Options::new().backend(Engine::Search).unique(true))
            .unwrap();
        assert_eq!((o.status(), o.unique()), (Status::Sat, Some(true)), "{text}");
    }

    /// A generation interrupted at any point (before it starts, once the solution is found,
    /// at several checks, before the final check) makes no file and claims nothing; the
    /// same generation uninterrupted makes a file whose claim holds on another engine.
    #[test]
    fn an_interrupt_at_any_point_of_a_generation_writes_no_claim() {
        let whole = small().generate(&Options::new()).unwrap();
        let text = whole.text().unwrap();
        unique_elsewhere(text);
        let checks = whole.checks().unwrap();
        assert!(checks > 10, "{checks}");
        for point in [
            Step::Start,
            Step::Solved,
            Step::Check(1),
            Step::Check(checks / 2),
            Step::Check(checks),
            Step::Final,
        ] {
            let flag = Arc::new(AtomicBool::new(false));
            let mut reached = false;
            let made = small()
                .generate_with(&Options::new().interrupt(flag.clone()), &mut Varisat, &mut |step| {
                    if step == point {
                        flag.store(true, Ordering::SeqCst);
                        reached = true;
                    }
                })
                .unwrap();
            assert!(reached, "{point:?} was never reached");
            assert!(made.text().is_none(), "{point:?}: {:?}", made.text());
            assert!(made.claim().is_none() && made.interrupted(), "{point:?}");
            assert!(made.claims().iter().all(|c| !c.accepted()), "{point:?}");
            let json = made.json();
            assert_eq!(
                (json["status"].as_str(), json["text"].as_str()),
                (Some("unproven"), None)
            );
        }
    }

    /// An engine with no answer to anything, as one that gives up says: "unknown".
    struct Unsure;

    impl Backend for Unsure {
        fn name(&self) -> &'static str {
            "unsure"
        }
        fn capabilities(&self) -> Capabilities {
            Varisat.capabilities()
        }
        fn solve(&mut self, _: &PbFormula, _: &SolveOptions) -> Result<Outcome, BackendError> {
            Ok(Outcome {
                status: Status::Unknown,
                assignment: None,
                stats: SolveStats::default(),
            })
        }
    }

    /// "Unknown" proves nothing, so it keeps the given: every given stays, and the full grid
    /// is unique (where treating it as "no other solution" drops every given).
    #[test]
    fn an_unknown_keeps_the_given() {
        let made = small()
            .generate_with(&Options::new(), &mut Unsure, &mut |_| {})
            .unwrap();
        let text = made.text().unwrap();
        assert_eq!(made.givens(), made.checks(), "{text}");
        assert!(!text.lines().any(|l| !l.starts_with('#') && l.contains('.')), "{text}");
        unique_elsewhere(text);
    }

    /// Every lie of the lying engine, as the engine that checks the removals: a false "no
    /// other solution" drops givens it must not, and the final check through the run path
    /// finds the second solution (an error, no file); a `--strict` final check does too. No
    /// lie makes a file whose uniqueness claim is false.
    #[test]
    fn a_lying_checker_never_makes_a_false_uniqueness_claim() {
        let mut caught = 0;
        for lie in Liar::ALL {
            for options in [
                Options::new(),
                Options::new().backend(Engine::Search),
                Options::new().strict(true),
            ] {
                match small().generate_with(&options, &mut Liar { lie }, &mut |_| {}) {
                    Ok(made) => {
                        let text = made.text().unwrap();
                        assert_eq!(made.claim().unwrap().kind(), ClaimKind::Unique);
                        unique_elsewhere(text);
                    }
                    Err(e) => {
                        assert!(matches!(e, Error::Internal { .. }), "{lie:?}: {e}");
                        assert!(e.to_string().contains("found a second solution"), "{lie:?}: {e}");
                        caught += 1;
                    }
                }
            }
        }
        // The false "no other solution" is caught by each final check.
        assert!(caught >= 3, "{caught}");
        let lied = small().generate_with(&Options::new(), &mut Liar { lie: Lie::UnsatOnSat }, &mut |_| {});
        assert!(lied.is_err());
    }

    /// Past the time limit nothing is made, and nothing claimed.
    #[test]
    fn a_time_limit_makes_no_file() {
        let made = TrickyGenerator::new(40, 1)
            .generate(&Options::new().timeout(Duration::from_millis(50)))
            .unwrap();
        assert!(made.timed_out() && !made.interrupted(), "{:?}", made.reason());
        assert!(made.text().is_none() && made.claim().is_none());
        assert!(made.reason().unwrap().contains("time limit"));
    }

    /// A memory limit the model passes is a typed error, not a panic.
    #[test]
    fn a_memory_limit_is_an_error() {
        let refused = TrickyGenerator::new(20, 1).generate(&Options::new().max_memory(1 << 10));
        assert!(matches!(refused, Err(Error::Limit(_))), "{refused:?}");
    }

    /// Each 3SoKu claim is backed: the planted arrangement, checked (sat); totals that
    /// differ (unsat); and a Partition instance of even total claims nothing, and says so.
    #[test]
    fn every_3soku_claim_is_backed_or_marked_unproven() {
        let random = SokuGenerator::new(4).variant("octahedron").generate().unwrap();
        let claim = random.claim().unwrap();
        assert_eq!(
            (claim.kind(), claim.backing()),
            (ClaimKind::Sat, crate::Backing::CheckedModel)
        );
        let unsat = SokuGenerator::new(4)
            .variant("octahedron")
            .four_unsat()
            .generate()
            .unwrap();
        let claim = unsat.claim().unwrap();
        assert_eq!(
            (claim.kind(), claim.backing()),
            (ClaimKind::Unsat, crate::Backing::Certificate)
        );
        assert!(
            unsat
                .text()
                .unwrap()
                .contains("unsatisfiable: the capacities add up to")
        );
        let odd = SokuGenerator::new(1).from_partition("3,1,1").generate().unwrap();
        assert_eq!(odd.claim().unwrap().kind(), ClaimKind::Unsat);
        let even = SokuGenerator::new(1).from_partition("3,1,2").generate().unwrap();
        assert!(even.claim().is_none());
        assert!(even.text().unwrap().contains("# unproven: "), "{:?}", even.text());
    }
}
