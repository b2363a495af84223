//! Benchmarks: what `sokuc bench` runs. A batch of 3SoKu instances per backend
//! ([`Batch`]), or OPB and CNF files per backend and optionally next to an external solver
//! ([`FileBench`]). Times are wall-clock for the whole in-process pipeline (compile, encode,
//! solve, decode, verify).

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::backend::Backend;
use super::options::Options;
use crate::bench::files;
use crate::error::Error;
use crate::input::InputError;
use crate::input::batch::BatchItem;
use crate::run::RunOptions;

/// The run path's options for one run of a benchmark: its time limit counts from the start
/// of each run, not of the benchmark.
fn per_run(options: &Options) -> RunOptions {
    let mut o = super::run::run_options(options, Instant::now());
    o.solve.started = None;
    o
}

/// A batch file of IcoSoKu instances (one a line: pegs A..L, optionally fixed tiles), to be
/// solved on one backend after another ([`Batch::bench`]).
///
/// ```
/// use sokuc::{Backend, Batch, Options};
///
/// let path = std::env::temp_dir().join(format!("sokuc-doc-batch-{}.txt", std::process::id()));
/// std::fs::write(&path, "1,5,11,10,7,12,9,2,6,8,4,3\n1,2,3,4,5,6,7,8,9,10,11,12\n")?;
/// let batch = Batch::read(&path)?;
/// std::fs::remove_file(&path)?;
/// let mut rows = Vec::new();
/// let summary = batch.bench(Backend::Sat, &Options::new(), &mut rows)?;
/// assert_eq!((summary.instances(), summary.sat()), (2, 2));
/// assert!(summary.text().starts_with("backend sat: 2 instances, 2 sat"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Batch {
    items: Vec<BatchItem>,
}

impl Batch {
    /// Reads a batch file.
    ///
    /// # Errors
    ///
    /// [`Error::Input`], with the file and line, when it cannot be read, a line is not an
    /// instance, or it holds no instance.
    pub fn read(path: impl AsRef<Path>) -> Result<Batch, Error> {
        let path = path.as_ref();
        let items = crate::input::batch::read_batch(path)?;
        if items.is_empty() {
            return Err(InputError::new(path.display().to_string(), None, "the batch holds no instances").into());
        }
        Ok(Batch { items })
    }

    /// The number of instances.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the batch holds no instance (never, as read; after [`Batch::truncate`] to 0).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Keeps only the first `n` instances.
    pub fn truncate(&mut self, n: usize) {
        self.items.truncate(n);
    }

    /// Solves every instance on `backend` with `options` (its time limit is per instance),
    /// writing a line per instance to `out` (its line number, status, time, model size).
    /// After an interrupt ([`Options::interrupt`], [`crate::interrupt_process_on`]) the
    /// instances solved so far are the benchmark.
    ///
    /// # Errors
    ///
    /// As [`crate::Instance::solve`]: a backend this build lacks, a limit, an option the
    /// backend cannot honour.
    pub fn bench(
        &self,
        backend: Backend,
        options: &Options,
        out: &mut dyn std::io::Write,
    ) -> Result<BatchSummary, Error> {
        let name = backend.check()?.name();
        let rows = crate::bench::run(&self.items, name, &per_run(options), out)?;
        Ok(BatchSummary {
            inner: crate::bench::summarize(name, &rows),
        })
    }

    /// Like [`Batch::bench`], but each instance is solved by a fresh process of the `sokuc`
    /// executable `exe` (`sokuc solve FILE --backend NAME` followed by `args`, such as
    /// `--timeout 10`), so times include process start, parsing and output. The lines to
    /// `out` carry no model size.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] for a backend this build lacks; [`Error::Io`] when the instance
    /// files cannot be written, a process cannot be started, or one fails (an exit code that
    /// is no answer's).
    pub fn bench_spawned(
        &self,
        exe: &Path,
        backend: Backend,
        args: &[String],
        out: &mut dyn std::io::Write,
    ) -> Result<BatchSummary, Error> {
        let name = backend.check()?.name();
        let rows = crate::bench::run_spawned(&self.items, exe, name, args, out)?;
        Ok(BatchSummary {
            inner: crate::bench::summarize(name, &rows),
        })
    }
}

/// One backend's figures on a [`Batch`]: counts by status and times.
#[derive(Debug, Clone)]
pub struct BatchSummary {
    inner: crate::bench::Summary,
}

impl BatchSummary {
    /// The instances run (fewer than the batch's after an interrupt).
    pub fn instances(&self) -> usize {
        self.inner.instances
    }

    /// The instances answered sat.
    pub fn sat(&self) -> usize {
        self.inner.sat
    }

    /// The instances answered unsat.
    pub fn unsat(&self) -> usize {
        self.inner.unsat
    }

    /// The instances left unknown (a time limit).
    pub fn unknown(&self) -> usize {
        self.inner.unknown
    }

    /// The line `sokuc bench` prints: the backend, the counts, the median, 90th percentile,
    /// largest and total time.
    pub fn text(&self) -> String {
        let mut out = Vec::new();
        crate::bench::print_summary(&self.inner, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The same figures as JSON, by name (times in milliseconds, rounded to the microsecond).
    pub fn json(&self) -> serde_json::Value {
        // Plain numbers and a name: serializing into a value cannot fail.
        serde_json::to_value(&self.inner).unwrap_or_default()
    }
}

/// OPB and CNF files, each solved on every backend of a list and optionally by an external
/// solver after them, with the same time limit; its model, if it prints one, checked by
/// sokuc's verifier. Build it with [`FileBench::new`] and its setters, then
/// [`FileBench::run`]:
///
/// ```
/// use sokuc::{Backend, FileBench, Options};
///
/// let path = std::env::temp_dir().join(format!("sokuc-doc-bench-{}.opb", std::process::id()));
/// std::fs::write(&path, "* #variable= 2 #constraint= 1\n+1 x1 +1 x2 >= 2 ;\n")?;
/// let bench = FileBench::new(&[path.clone()])?.backends(&[Backend::Auto, Backend::Sat]);
/// let mut rows = Vec::new();
/// let report = bench.options(&Options::new()).run(&mut |row| rows.push(row.text()))?;
/// std::fs::remove_file(&path)?;
/// assert!(rows[0].contains("sat"));
/// assert_eq!((report.files(), report.disagreements(), report.exit_code()), (1, 0, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// With [`FileBench::vs`], say `.vs("roundingsat {}")?`, each row also has the external
/// solver's answer and time, and the report compares the two.
#[derive(Debug, Clone)]
pub struct FileBench {
    files: Vec<PathBuf>,
    backends: Vec<Backend>,
    options: Options,
    /// The external command as given, and split into words.
    vs: Option<(String, Vec<String>)>,
}

impl FileBench {
    /// Whether [`FileBench::new`] takes the path: a folder, or an OPB or CNF file by its
    /// extension (`.opb`, `.cnf`, `.dimacs`, also compressed: `.gz`, `.bz2`, `.xz`).
    pub fn takes(path: &Path) -> bool {
        path.is_dir() || files::is_pb_file(path)
    }

    /// The files of `inputs`: each OPB or CNF file, and every OPB and CNF file of each
    /// folder (not its subfolders, sorted by name). Run on [`Backend::Auto`] with the
    /// default [`Options`] until the setters say otherwise.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] for an input that is neither, or a folder that cannot be read or
    /// holds no such file.
    pub fn new(inputs: &[PathBuf]) -> Result<FileBench, Error> {
        let mut list = Vec::new();
        for p in inputs {
            if p.is_dir() {
                let found = files::folder_files(p)?;
                if found.is_empty() {
                    return Err(InputError::new(
                        p.display().to_string(),
                        None,
                        "the folder holds no .opb, .cnf or .dimacs file",
                    )
                    .into());
                }
                list.extend(found);
            } else if files::is_pb_file(p) {
                list.push(p.clone());
            } else {
                return Err(InputError::new(
                    p.display().to_string(),
                    None,
                    "not an OPB or CNF file or a folder (a 3SoKu batch file is given alone)",
                )
                .into());
            }
        }
        Ok(FileBench {
            files: list,
            backends: vec![Backend::Auto],
            options: Options::new(),
            vs: None,
        })
    }

    /// The number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether there is no file (never, as made; after [`FileBench::truncate`] to 0).
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Keeps only the first `n` files.
    pub fn truncate(&mut self, n: usize) {
        self.files.truncate(n);
    }

    /// The backends each file is solved on, in this order.
    pub fn backends(mut self, backends: &[Backend]) -> FileBench {
        self.backends = backends.to_vec();
        self
    }

    /// The options of every run; the time limit is per file and per backend, and holds for
    /// the external solver too.
    pub fn options(mut self, options: &Options) -> FileBench {
        self.options = options.clone();
        self
    }

    /// An external solver run on each file after sokuc's backends: `command` is split into
    /// words like a shell command (quotes, backslash) but run without a shell, and every
    /// `{}` is replaced by the file's path (no `{}`: the path is appended). Its `s` line is
    /// compared with sokuc's answers; its process group is killed at the time limit.
    ///
    /// # Errors
    ///
    /// [`Error::Input`], under the name `--vs`, when the command is empty or its quotes do
    /// not close.
    pub fn vs(mut self, command: &str) -> Result<FileBench, Error> {
        let words = crate::bench::external::split_words(command)?;
        self.vs = Some((command.to_string(), words));
        Ok(self)
    }

    /// Runs every file, calling `each` with its row as soon as it is done. A file that does
    /// not parse, or a run that fails, is an `error` row, and the benchmark goes on. After
    /// an interrupt the files done so far are the benchmark.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when a backend is not in this build or the external command cannot
    /// be started (every file would fail the same way).
    pub fn run(&self, each: &mut dyn FnMut(&BenchRow)) -> Result<BenchReport, Error> {
        let names = self
            .backends
            .iter()
            .map(|b| Ok(b.check()?.name().to_string()))
            .collect::<Result<Vec<_>, Error>>()?;
        let opts = per_run(&self.options);
        let plan = files::Plan {
            files: &self.files,
            backends: &names,
            opts: &opts,
            vs: self.vs.as_ref().map(|(_, words)| words.as_slice()),
        };
        let width = self
            .files
            .iter()
            .map(|p| p.file_name().map_or(0, |n| n.to_string_lossy().chars().count()))
            .max()
            .unwrap_or(0);
        let mut each_row = |r: &files::FileRow| each(&BenchRow { row: r.clone(), width });
        let rows = files::run(&plan, &mut each_row)?;
        let summary = files::summarize(
            &rows,
            &names,
            self.vs.as_ref().map(|(cmd, _)| cmd.as_str()),
            self.options.timeout,
        );
        Ok(BenchReport { rows, summary })
    }
}

/// One file's row of a [`FileBench`]: per backend its status, time and the engine that
/// answered; the external solver's status, time and model check; whether they disagree.
#[derive(Debug, Clone)]
pub struct BenchRow {
    row: files::FileRow,
    /// The longest file name of the benchmark, so that the rows line up.
    width: usize,
}

impl BenchRow {
    /// The file.
    pub fn path(&self) -> &Path {
        &self.row.path
    }

    /// Whether decided answers differ (between sokuc's backends and the external solver): a
    /// bug in one of them.
    pub fn disagreement(&self) -> bool {
        self.row.disagreement
    }

    /// The row `sokuc bench` prints for people, a line ending in a newline.
    pub fn text(&self) -> String {
        let mut out = Vec::new();
        let _ = files::write_row(&self.row, self.width, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The row as JSON, as `sokuc bench --format json` prints it (one object per file).
    pub fn json(&self) -> serde_json::Value {
        files::row_json(&self.row)
    }
}

/// What a [`FileBench`] found: per backend and for the external solver the solved, unknown
/// and error counts and median times, per family of files the solved counts, the external
/// models verified and wrong, the disagreements.
#[derive(Debug, Clone)]
pub struct BenchReport {
    rows: Vec<files::FileRow>,
    summary: files::FilesSummary,
}

impl BenchReport {
    /// The files run (fewer than asked after an interrupt).
    pub fn files(&self) -> usize {
        self.summary.files
    }

    /// The files where decided answers differ.
    pub fn disagreements(&self) -> usize {
        self.summary.disagreements
    }

    /// The summary `sokuc bench` prints after the rows.
    pub fn text(&self) -> String {
        let mut out = Vec::new();
        let _ = files::write_summary(&self.summary, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The summary as JSON: `{"summary": {...}}`, the line `sokuc bench --format json`
    /// prints after the rows.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({ "summary": self.summary })
    }

    /// The exit code of `sokuc bench`: 1 for a disagreement, a wrong external model or a
    /// wrong sokuc answer; else 30 when a file was left unknown or with an error; else 0.
    pub fn exit_code(&self) -> u8 {
        files::exit_code(&self.rows)
    }
}
