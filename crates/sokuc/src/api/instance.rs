//! A puzzle or model read from a file or a string, and what can be done with it.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use super::options::Options;
use super::outcome::Outcome;
use super::run::{backend_of, compile_options, encode_options, run_options};
use crate::error::Error;
use crate::pb::PbFile;
use crate::run::emit::{Format, To};
use crate::run::{AnyPuzzle, Checked, Stream};

/// One instance of any kind: a 3SoKu puzzle, a tile pool, a Kakuro or Tricky Triple grid, an
/// OPB or a CNF file.
///
/// Solve it on the backend of your choice:
///
/// ```
/// use sokuc::{Instance, Options, Status};
///
/// // A 2x2 Kakuro: black cells are X, a clue is down\across, white cells are dots.
/// let kakuro = r"kakuro 3 3
///  X  4\ 3\
/// \3  .  .
/// \4  .  .
/// ";
/// let instance = Instance::parse("kakuro", "small.kakuro", kakuro)?;
/// let outcome = instance.solve(&Options::new().backend(sokuc::Backend::Sat).unique(true))?;
/// assert_eq!(outcome.status(), Status::Sat);
/// assert_eq!(outcome.unique(), Some(true));
/// println!("{}", outcome.text());
/// # Ok::<(), sokuc::Error>(())
/// ```
pub struct Instance {
    puzzle: Box<dyn AnyPuzzle>,
}

impl std::fmt::Debug for Instance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Instance")
            .field("kind", &self.kind())
            .field("source", &self.source())
            .finish()
    }
}

impl Instance {
    /// Reads the instance in `path`; its kind follows from the extension (`.toml`,
    /// `.kakuro`, `.tt`, `.opb`, `.cnf`, each optionally `.gz`, `.bz2` or `.xz`).
    ///
    /// ```
    /// # std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).unwrap(); // the repository
    /// let instance = sokuc::Instance::read("instances/icosoku-seed.toml")?;
    /// assert_eq!(instance.kind(), "3soku");
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Input`], naming the file (and the line where there is one), when the file
    /// cannot be read, is larger than the input limit, does not decompress, is not UTF-8,
    /// has an extension of no kind, or is not a valid instance of its kind; the same for a
    /// variant file the instance names.
    pub fn read(path: impl AsRef<Path>) -> Result<Instance, Error> {
        Ok(Instance {
            puzzle: crate::registry::load(path.as_ref(), None)?,
        })
    }

    /// Reads the instance in `path` as the given kind (one of [`crate::kinds`]), whatever
    /// its extension.
    ///
    /// # Errors
    ///
    /// As [`Instance::read`], and [`Error::Input`] when `kind` is not one of the kinds.
    pub fn read_as(path: impl AsRef<Path>, kind: &str) -> Result<Instance, Error> {
        Ok(Instance {
            puzzle: crate::registry::load(path.as_ref(), Some(kind))?,
        })
    }

    /// Reads the instance on standard input, decompressed if it is compressed (gzip, bzip2,
    /// xz): of the given kind (one of [`crate::kinds`]), else of the kind the text looks like
    /// (a grid says so on its first line, OPB and DIMACS by their headers; else a 3SoKu
    /// instance in TOML). The same as [`Instance::read`] on the path `-`.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when standard input is empty, cannot be read, or is not a valid
    /// instance; as [`Instance::read`] otherwise.
    pub fn read_stdin(kind: Option<&str>) -> Result<Instance, Error> {
        Ok(Instance {
            puzzle: crate::registry::read_stdin(kind)?,
        })
    }

    /// Reads an instance of `kind` (one of [`crate::kinds`]) from `text`; `name` is what
    /// error messages call it.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when `kind` is not one of the kinds, or `text` is not a valid
    /// instance of it (the message names `name` and the line).
    pub fn parse(kind: &str, name: &str, text: &str) -> Result<Instance, Error> {
        Ok(Instance {
            puzzle: crate::registry::parse(kind, name, text)?,
        })
    }

    /// The instance of an already read puzzle (`sokuc serve` reads its own, from memory).
    pub(crate) fn from_puzzle(puzzle: Box<dyn AnyPuzzle>) -> Instance {
        Instance { puzzle }
    }

    /// The puzzle behind the instance, for the facade's other files.
    pub(super) fn puzzle(&self) -> &dyn AnyPuzzle {
        self.puzzle.as_ref()
    }

    /// The instance of a model built in code ([`crate::Model`]).
    pub(crate) fn from_pb(file: PbFile) -> Instance {
        Instance { puzzle: Box::new(file) }
    }

    /// The IcoSoKu puzzle with these pegs: twelve numbers for the vertices A to L, as
    /// `sokuc solve --pegs` takes them (`"1,2,...,12"`).
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when `pegs` is not twelve numbers within the peg limit.
    pub fn icosoku(pegs: &str) -> Result<Instance, Error> {
        Ok(Instance {
            puzzle: crate::registry::from_pegs(pegs)?,
        })
    }

    /// The instance's kind: `3soku`, `pool`, `kakuro`, `trickytriple`, `opb` or `cnf`.
    pub fn kind(&self) -> &'static str {
        self.puzzle.kind()
    }

    /// Where the instance was read from, as messages name it.
    pub fn source(&self) -> &str {
        self.puzzle.source()
    }

    /// What starts a comment line in the kind's answers (`c` for CNF and OPB, `#` for the
    /// puzzles): a program that adds a line to [`Outcome::text`] keeps it a valid answer
    /// file.
    pub fn comment(&self) -> &'static str {
        self.puzzle.comment()
    }

    /// Whether the kind has a picture: an SVG net of its polyhedron ([`Instance::picture`],
    /// [`Options::svg`]), for 3SoKu and tile pools.
    pub fn has_picture(&self) -> bool {
        self.puzzle.has_picture()
    }

    /// The SVG net of the polyhedron, as `sokuc render` draws it: the empty puzzle with its
    /// fixed tiles, or with `solution` (its file name and text, as `sokuc solve` printed it,
    /// text or JSON) the solution, drawn even when it is no solution
    /// ([`Picture::invalid`](super::Picture::invalid) says why). With `numbers`, every weight
    /// is a number (by default dots up to 3). `None` for a kind without a picture
    /// ([`Instance::has_picture`]).
    ///
    /// ```
    /// # std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).unwrap(); // the repository
    /// let octa = sokuc::Instance::read("instances/octasoku.toml")?;
    /// let picture = octa.picture(None, false)?.expect("a polyhedron");
    /// assert!(picture.svg().contains("<svg"));
    /// assert_eq!(picture.invalid(), None);
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Input`], naming the file and the line, when `solution` cannot be read as a
    /// solution of this puzzle.
    pub fn picture(&self, solution: Option<(&str, &str)>, numbers: bool) -> Result<Option<super::Picture>, Error> {
        Ok(self.puzzle.picture(solution, numbers, false)?.map(super::Picture::of))
    }

    /// The map of the polyhedron's vertex names, as `sokuc render --labels` draws it: every
    /// copy of a vertex labelled with its name, every face with its vertices in clockwise
    /// order, no pegs or tiles. `None` for a kind without a picture.
    pub fn names_picture(&self) -> Option<super::Picture> {
        // Without a solution to read, drawing cannot fail.
        self.puzzle
            .picture(None, false, true)
            .ok()
            .flatten()
            .map(super::Picture::of)
    }

    /// Every distinct solution, each verified and written to `out` (and flushed) as it is
    /// found, as `sokuc solve --all` writes them ([`Enumerate`](super::Enumerate) says how),
    /// then the end: nothing is collected. The options' backend enumerates, within their
    /// time limit. The end ("that is all of them", or "there is none") is a claim weighed
    /// as [`Instance::solve`] weighs its unsat: with [`Options::strict`] an engine of another
    /// kind must refute any other solution (asked for at most 2,000 solutions; past that the
    /// claim is withheld). Uniqueness, a proof and a picture are for [`Instance::solve`] and
    /// not used here.
    ///
    /// # Errors
    ///
    /// [`Error::Unsupported`] when the backend cannot enumerate this instance (or not on
    /// that many threads); [`Error::Io`] when writing to `out` fails; the errors of
    /// [`Instance::solve`] otherwise.
    pub fn enumerate(
        &self,
        options: &Options,
        how: &super::Enumerate,
        out: &mut (dyn Write + Send),
    ) -> Result<super::Enumerated, Error> {
        let started = Instant::now();
        let mut backend = backend_of(options)?;
        let run = run_options(options, started);
        let stream = if how.json { Stream::Json } else { Stream::Text };
        let inner = self
            .puzzle
            .enumerate_jobs(backend.as_mut(), &run, how.limit, how.jobs, stream, out)?;
        Ok(super::Enumerated { inner })
    }

    /// Solves the instance on each of `backends`, `jobs` at a time (1: one after another, so
    /// that their times compare), every answer checked as [`Instance::solve`] checks it. The
    /// options' own backend is not used; their time limit bounds the whole comparison, each
    /// backend getting its share of what is left when it starts.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when `backends` is empty or names one this build lacks (the message
    /// names the feature to build with); when every backend fails, the first one's error. A
    /// backend that fails while others answer only has an error row in the [`Comparison`].
    ///
    /// [`Comparison`]: crate::Comparison
    pub fn compare(
        &self,
        backends: &[super::Backend],
        options: &Options,
        jobs: usize,
    ) -> Result<super::Comparison, Error> {
        if backends.is_empty() {
            return Err(crate::input::InputError::new("backends", None, "no backend to compare").into());
        }
        for b in backends {
            b.check()?;
        }
        let names: Vec<String> = backends.iter().map(|b| b.name().to_string()).collect();
        let run = run_options(options, Instant::now());
        Ok(super::Comparison {
            inner: crate::compare::compare(self.puzzle.as_ref(), &names, &run, jobs)?,
        })
    }

    /// Certifies the answer: solves the instance's CNF (as [`Format::Dimacs`] writes it) on
    /// the options' backend, which must write DRAT proofs (`sat` or `cadical`), and has an
    /// unsat claim's proof checked by the DRAT checker, a program that shares no code with
    /// sokuc. A solution is verified as [`Instance::solve`] verifies it. When presolve
    /// refutes the instance, its argument is kept and the model without presolve is
    /// certified instead. The options' time limit bounds the solver and the checker each.
    ///
    /// # Errors
    ///
    /// [`Error::Unsupported`] when the backend writes no proofs; [`Error::Input`] when the
    /// backend is not in this build or no checker is found; [`Error::Limit`] when the CNF
    /// passes a limit of the options; [`Error::Internal`] when the solver or the checker
    /// fails to run.
    pub fn certify(&self, options: &Options, how: &super::Certify) -> Result<super::Certificate, Error> {
        let inner = crate::certify::certify(
            self.puzzle.as_ref(),
            &crate::certify::Request {
                backend: options.backend.name(),
                compile: compile_options(options),
                encode: encode_options(options),
                time_limit: options.timeout,
                checker: how.checker_path(),
                keep: how.keep_dir(),
                tuning: super::run::tuning(options),
            },
        )?;
        Ok(super::Certificate { inner })
    }

    /// Compiles the instance, solves it on the chosen backend, and checks the answer. A
    /// [`crate::Status::Sat`] outcome has passed the verifier; an answer that does not pass
    /// it is an [`Error::Internal`], never an outcome.
    ///
    /// A time limit is no error: the outcome is [`crate::Status::Unknown`].
    ///
    /// # Errors
    ///
    /// - [`Error::Unsupported`] when the backend is not in this build, or cannot honour
    ///   what the options ask of it on this instance (the message says what can);
    /// - [`Error::Limit`] when the model passes a limit the options set (clauses, memory);
    /// - [`Error::Internal`] when a solver fails, or gives an answer the verifier refuses.
    pub fn solve(&self, options: &Options) -> Result<Outcome, Error> {
        let started = Instant::now();
        self.solve_on(options, started, None)
    }

    /// [`Instance::solve`], with the line of each improving solution of an optimisation
    /// (the PB competition's `o <value>`, for OPB files and models with an objective)
    /// written to `progress` and flushed as it is found, as `sokuc solve` prints them; the
    /// outcome's [`text`](Outcome::text) then leaves those lines out.
    ///
    /// ```
    /// use sokuc::{Instance, Options};
    ///
    /// let opb = Instance::parse("opb", "min.opb", "min: +1 x1 +2 x2 ;\n+1 x1 +1 x2 >= 1 ;\n")?;
    /// let mut progress = Vec::new();
    /// let outcome = opb.solve_streaming(&Options::new(), &mut progress)?;
    /// assert_eq!(outcome.objective(), Some(1));
    /// assert!(String::from_utf8(progress).unwrap().ends_with("o 1\n"));
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Instance::solve`], and [`Error::Io`] when writing to `progress` fails.
    pub fn solve_streaming(&self, options: &Options, progress: &mut dyn Write) -> Result<Outcome, Error> {
        self.solve_on(options, Instant::now(), Some(progress))
    }

    fn solve_on(
        &self,
        options: &Options,
        started: Instant,
        progress: Option<&mut dyn Write>,
    ) -> Result<Outcome, Error> {
        let mut backend = backend_of(options)?;
        let run = run_options(options, started);
        // The kinds with a typed solution run the same path typed, so that the outcome
        // keeps the solution itself beside its text and JSON.
        let typed = super::typed::Run {
            run: &run,
            picture: options.svg,
            progress,
        };
        if let Some(typed) = super::typed::solve_typed(self.puzzle.as_any(), backend.as_mut(), typed) {
            return typed;
        }
        // The other kinds have no objective, so no improving solutions to stream.
        let report = self.puzzle.solve(backend.as_mut(), &run, options.svg)?;
        Ok(Outcome::of_report(report))
    }

    /// The exact number of the instance's distinct solutions, as `sokuc count` gives it:
    /// 3SoKu by its frontier counter, the other kinds by projected model counting of their
    /// CNF. `None` when the time limit came first.
    ///
    /// ```
    /// use sokuc::{Count, Instance};
    ///
    /// # std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).unwrap(); // the repository
    /// let octa = Instance::read("instances/octasoku.toml")?;
    /// let n = octa.count(&Count::new())?.expect("no time limit");
    /// assert!(n > 0u32.into());
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Unsupported`] when the count needs more memory than
    /// [`Count::max_memory`](crate::Count::max_memory) allows, or cannot be held, or is asked
    /// to be [`Count::strict`](crate::Count::strict).
    pub fn count(&self, options: &super::count::Count) -> Result<Option<num_bigint::BigUint>, Error> {
        options.run(self.puzzle.as_ref())
    }

    /// As [`Instance::count`], with how the count was found: the placements of
    /// distinguishable tiles, the method, the time, and the JSON `sokuc count` prints. `None`
    /// when the time limit (or the interrupt) came first; a
    /// [`Count::progress`](crate::Count::progress) then says how far the count got.
    ///
    /// ```
    /// use sokuc::{Count, Instance};
    ///
    /// # std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).unwrap(); // the repository
    /// let octa = Instance::read("instances/octasoku.toml")?;
    /// let counted = octa.count_detailed(&Count::new())?.expect("no time limit");
    /// assert!(counted.placements() >= counted.count());
    /// assert_eq!(counted.json()["status"], "counted");
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Instance::count`].
    pub fn count_detailed(&self, options: &super::count::Count) -> Result<Option<super::count::Counted>, Error> {
        options.counted(self.puzzle.as_ref())
    }

    /// What counting will go through, in words, before it starts ("counting 20 faces layer
    /// by layer, with at most ... vertices open at once, over about 10^... placements"): for
    /// 3SoKu instances, whose counter's work it foresees; `None` for the other kinds.
    pub fn count_estimate(&self) -> Option<String> {
        crate::count::estimate(self.puzzle.as_ref())
    }

    /// The peg arrangements of an instance whose pegs are free (`capacities = {
    /// permutation_of = [...] }`), to count each exactly, as `sokuc count --by-capacities`
    /// does.
    ///
    /// # Errors
    ///
    /// [`Error::Unsupported`] when the instance is no pool or 3SoKu instance with free pegs.
    pub fn by_capacities(&self) -> Result<super::by_capacities::ByCapacities<'_>, Error> {
        super::by_capacities::ByCapacities::of(self.puzzle.as_ref())
    }

    /// Writes the compiled model in `format`, for an external solver, exactly as `sokuc
    /// solve --emit` does.
    ///
    /// ```
    /// use sokuc::{Format, Instance, Options};
    ///
    /// let instance = Instance::parse("opb", "tiny.opb", "+1 x1 +1 x2 >= 1 ;\n")?;
    /// let mut cnf = Vec::new();
    /// instance.emit(Format::Dimacs, &Options::new(), &mut cnf)?;
    /// let cnf = String::from_utf8(cnf).unwrap();
    /// assert!(cnf.lines().any(|l| l.starts_with("p cnf ")));
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when `format` cannot hold this instance's objective (wider than 62
    /// bits, which only DIMACS, having no objective, takes), [`Error::Limit`] when the model
    /// passes a limit the options set (memory, clauses), and [`Error::Io`] when writing to
    /// `out` fails. Everything but the writing fails before anything is written.
    ///
    /// With a time limit or an interrupt ([`Options::timeout`], [`Options::interrupt`]), the
    /// compile, the encoding and the writing stop once it passes, and the emit fails with
    /// [`Error::Limit`] ([`EncodeError::TimedOut`](crate::EncodeError::TimedOut)), perhaps
    /// after part of the text was written. With [`Options::max_memory`], writing also stops
    /// with [`Error::Limit`] ([`EncodeError::Memory`](crate::EncodeError::Memory)) once the
    /// process holds more than the limit (an `out` that keeps the text in memory counts).
    pub fn emit(&self, format: Format, options: &Options, out: &mut dyn Write) -> Result<(), Error> {
        super::emit::within(options, out, |out| {
            self.puzzle.emit(
                format,
                &compile_options(options),
                encode_options(options),
                To::Writer(out),
            )
        })
    }

    /// [`Instance::emit`] to the file `path` (`-`: standard output), written atomically: the
    /// file appears whole or not at all, and nothing is written when the model cannot be.
    /// The options' memory limit bounds the encoding, as the command line's `--emit` has it;
    /// their time limit and interrupt are not watched here.
    ///
    /// # Errors
    ///
    /// As [`Instance::emit`], and [`Error::Output`] when the file cannot be written.
    pub fn emit_file(&self, format: Format, options: &Options, path: impl AsRef<Path>) -> Result<(), Error> {
        self.puzzle.emit(
            format,
            &compile_options(options),
            encode_options(options),
            To::File(path.as_ref()),
        )
    }

    /// Reads an external solver's answer to the model [`Instance::emit`] wrote with the
    /// same options (a SAT solver's `s`/`v` lines, a PB solver's, or CBC's or HiGHS's
    /// solution file) and decodes and verifies it like an answer of sokuc's own.
    ///
    /// ```
    /// use sokuc::{Instance, Options, Status};
    ///
    /// let instance = Instance::parse("opb", "tiny.opb", "+1 x1 +1 x2 >= 1 ;\n")?;
    /// let outcome = instance.decode("solver.log", "s SATISFIABLE\nv -x1 x2\n", &Options::new())?;
    /// assert_eq!(outcome.status(), Status::Sat);
    /// assert!(outcome.verified());
    ///
    /// // An answer that breaks the model is refused, naming the file.
    /// let wrong = instance.decode("solver.log", "s SATISFIABLE\nv -x1 -x2\n", &Options::new());
    /// assert!(wrong.is_err());
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Input`], naming `name`, when the answer cannot be read or does not satisfy
    /// the model: an external solver's wrong answer is refused, never an outcome.
    pub fn decode(&self, name: &str, answer: &str, options: &Options) -> Result<Outcome, Error> {
        let report = self.puzzle.decode_answer(&compile_options(options), name, answer)?;
        Ok(Outcome::of_report(report))
    }

    /// Checks a solution file (as `sokuc check` reads it) against the puzzle's rules:
    /// `Ok(Checked::Invalid(why))` when it is not a solution, `Err` when it cannot be read.
    ///
    /// # Errors
    ///
    /// [`Error::Input`], naming `name` and the line, when `solution` cannot be read as a
    /// solution of this kind of puzzle.
    pub fn check(&self, name: &str, solution: &str) -> Result<Checked, Error> {
        Ok(self.puzzle.check(name, solution)?)
    }

    /// The assistant, for a 3SoKu puzzle in progress: `placed` is the tiles placed so far,
    /// one per line, as `sokuc solve` prints placements (`ABC: (0,1,2)`) or as "ABC: (0,1,2),
    /// 2 touches C"; `name` is what messages call it. Solves for the completion that keeps
    /// the most of them, on the options' backend: the completion is verified as any
    /// solution, and "these are the fewest to take off" is an optimum claim like any other.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when the instance is no 3SoKu instance, or a line of `placed` is not
    /// a tile of it on a face of it (naming `name` and the line); the errors of
    /// [`Instance::solve`] otherwise.
    pub fn assist(&self, name: &str, placed: &str, options: &Options) -> Result<super::Assistance, Error> {
        let Some(inst) = self.puzzle.as_any().downcast_ref::<crate::model::Instance>() else {
            return Err(crate::input::InputError::new(
                name,
                None,
                format!("placed tiles are for 3SoKu instances; this puzzle is {}", self.kind()),
            )
            .into());
        };
        let partial = crate::assist::Partial {
            inst: inst.clone(),
            placed: crate::input::placed::read_placed(name, placed, inst)?,
        };
        let mut backend = backend_of(options)?;
        let found = crate::assist::assist(&partial, backend.as_mut(), &run_options(options, Instant::now()))?;
        Ok(super::Assistance { partial, found })
    }
}
