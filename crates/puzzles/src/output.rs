//! Every file sokuc writes goes through this module, for two promises:
//!
//! - **No input is ever overwritten.** A path that names a file this process has read (an
//!   instance, a variant it refers to, a solution, a shard) is refused, whatever the spelling:
//!   files are compared by device and inode, so `./x.toml`, a symbolic link to it and a hard
//!   link all count as the same file.
//! - **No partial file is left behind.** Output goes to a temporary file beside the target
//!   and is renamed into place only when complete; on any error (or a panic, or an early
//!   return) the temporary file is removed.
//!
//! The files a command has read are an [`Inputs`], a value the command holds: it runs its
//! work inside [`Inputs::record`], and the readers add each file they open to the recording
//! of their thread (`crate::read_text` and every instance reader do it), so a command
//! cannot forget an input it did not know it had, such as the variant file an instance
//! names. Outside a recording nothing is kept: a program that embeds the library (or the
//! page's server, reading variants for every request) holds no list of what it has read.
//!
//! The input check runs as soon as the inputs are read, before any solving, so a refused path
//! costs nothing. Solvers write their proofs (`--proof`) into the temporary file too. When
//! presolve refutes an instance no solver runs, so `--proof` writes no file and says so
//! (`sokuc certify` proves such an instance instead).
//!
//! The one file written in place is the results file of `sweep -o`: it is a journal that
//! `--resume` continues after a kill, so it grows as instances are solved (it is still refused
//! when it names an input). `tests/outputs.rs` covers every command that writes, under every
//! kind of alias.

use std::cell::RefCell;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A file's identity on disk: (device, inode) where the platform has them, else its
/// canonical path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

fn file_id(path: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // `metadata` follows symbolic links: a link to an input is that input.
        let m = std::fs::metadata(path).ok()?;
        Some(FileId::Inode(m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(path).ok().map(FileId::Path)
    }
}

/// Files read, each with the name it was read under (for the message).
type Files = Rc<RefCell<Vec<(FileId, PathBuf)>>>;

thread_local! {
    /// The recording this thread's reads go to: the innermost [`Inputs::record`] running on
    /// it. The command's reads all happen on the thread that runs it; threads the library
    /// starts (solvers, workers, the server's) read no input of the command's.
    static RECORDING: RefCell<Option<Files>> = const { RefCell::new(None) };
}

/// The files a command has read, which it never writes over (see the module's page).
#[derive(Debug, Default)]
pub struct Inputs {
    files: Files,
}

impl Inputs {
    /// No files yet.
    pub fn new() -> Inputs {
        Inputs::default()
    }

    /// Runs `work` with every file read on this thread meanwhile added to these inputs, and
    /// every output it writes checked against them. The thread's previous recording, if
    /// any, is back when `work` ends, however it ends.
    pub fn record<T>(&self, work: impl FnOnce() -> T) -> T {
        /// Puts the outer recording back, on a return or a panic alike.
        struct Restore(Option<Files>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let outer = self.0.take();
                RECORDING.with(|r| *r.borrow_mut() = outer);
            }
        }
        let outer = RECORDING.with(|r| r.replace(Some(Rc::clone(&self.files))));
        let _restore = Restore(outer);
        work()
    }

    /// How many files are recorded.
    pub fn len(&self) -> usize {
        self.files.borrow().len()
    }

    /// Whether no file is recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Records that `path` is an input of the running command, if one is recording on this
/// thread. Call it after opening the file (a path that does not exist is nothing to protect).
pub fn note_input(path: &Path) {
    let Some(id) = file_id(path) else { return };
    RECORDING.with(|r| {
        let Some(files) = &*r.borrow() else { return };
        let mut inputs = files.borrow_mut();
        // An entry whose name no longer leads to this inode is a deleted input's (the inode
        // was reused): it does not stand for this file, so this one is added.
        if !inputs
            .iter()
            .any(|(i, name)| *i == id && file_id(name).as_ref() == Some(i))
        {
            inputs.push((id, path.to_path_buf()));
        }
    });
}

/// An output that cannot be written.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The output is one of the command's inputs, which sokuc never overwrites.
    #[error(
        "{path}: this is an input of the command ({input}); sokuc never overwrites its input, so choose another output path"
    )]
    IsInput {
        /// The output path.
        path: String,
        /// The input it is.
        input: String,
    },
    /// Writing failed.
    #[error("{path}: cannot write: {message}")]
    Io {
        /// The output path.
        path: String,
        /// Why, in words.
        message: String,
    },
}

impl OutputError {
    fn io(path: &Path, e: impl std::fmt::Display) -> OutputError {
        OutputError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        }
    }
}

/// Whether `path` is `-`: standard output, wherever a whole file is written
/// ([`write_atomic`]). Outputs that must be files ([`Pending`]: a solver's proof, a results
/// journal) refuse it.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Refuses `path` if it is a file the running command has read (the recording of this
/// thread: see [`Inputs::record`]). Commands call it as soon as their inputs are loaded, so a
/// long solve does not end in a refused write; [`Pending::new`] calls it again.
///
/// # Errors
///
/// [`OutputError::IsInput`] when `path` is, by any name, a file the recording has.
pub fn check(path: &Path) -> Result<(), OutputError> {
    if is_stdout(path) {
        return Ok(());
    }
    let Some(id) = file_id(path) else {
        return Ok(());
    };
    let found = RECORDING.with(|r| {
        let files = r.borrow();
        let inputs = files.as_ref()?.borrow();
        // An input that has since been deleted may have given its inode to a new file: that
        // file is not the input (whose data is gone anyway), so a match counts only while the
        // input's own name still leads to the same file. (Tests in one process delete their
        // inputs; that reuse once refused an unrelated test's output.)
        inputs
            .iter()
            .find(|(i, name)| *i == id && file_id(name).as_ref() == Some(i))
            .map(|(_, input)| input.clone())
    });
    match found {
        Some(input) => Err(OutputError::IsInput {
            path: path.display().to_string(),
            input: input.display().to_string(),
        }),
        None => Ok(()),
    }
}

/// An output file being written: a temporary file beside the target, renamed onto the
/// target by [`Pending::commit`] and removed if dropped before that.
#[derive(Debug)]
pub struct Pending {
    tmp: PathBuf,
    target: PathBuf,
    committed: bool,
    /// The target is a device or a pipe (`/dev/null`, `/dev/stdout`, a FIFO): written in
    /// place, because renaming a file onto it would replace the device node itself (as root,
    /// `-o /dev/null` used to turn /dev/null into an ordinary file for the whole machine).
    direct: bool,
}

impl Pending {
    /// Checks `target` and reserves a temporary path beside it (same directory, so the
    /// final rename is atomic). Nothing is created yet: writers that need a path (a solver
    /// writing its proof) open [`Pending::path`] themselves.
    ///
    /// # Errors
    ///
    /// [`OutputError::IsInput`] as [`check`]; [`OutputError::Io`] when `target` is standard
    /// output (`-`), a directory, or in a directory that does not exist.
    pub fn new(target: &Path) -> Result<Pending, OutputError> {
        if is_stdout(target) {
            return Err(OutputError::io(
                target,
                "this output must be a file, not standard output; give a file name",
            ));
        }
        check(target)?;
        // Write through a symbolic link to where it points, rather than replacing the link.
        let target = std::fs::canonicalize(target).unwrap_or_else(|_| target.to_path_buf());
        let dir = target
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = target
            .file_name()
            .ok_or_else(|| OutputError::io(&target, "not a file name"))?;
        if !dir.is_dir() {
            return Err(OutputError::io(
                &target,
                format!("no such directory: {}", dir.display()),
            ));
        }
        if target.is_dir() {
            return Err(OutputError::io(&target, "is a directory"));
        }
        if std::fs::metadata(&target).is_ok_and(|m| !m.is_file()) {
            return Ok(Pending {
                tmp: target.clone(),
                target,
                committed: false,
                direct: true,
            });
        }
        let tmp = dir.join(format!(".{}.sokuc-tmp-{}", name.to_string_lossy(), std::process::id()));
        Ok(Pending {
            tmp,
            target,
            committed: false,
            direct: false,
        })
    }

    /// Where to write until [`Pending::commit`].
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// The temporary file, created (or truncated) for writing.
    ///
    /// # Errors
    ///
    /// [`OutputError::Io`] when it cannot be created.
    pub fn create(&self) -> Result<File, OutputError> {
        File::create(&self.tmp).map_err(|e| OutputError::io(&self.target, e))
    }

    /// Moves the finished file into place.
    ///
    /// # Errors
    ///
    /// [`OutputError::Io`] when the rename fails; the target is then as it was.
    pub fn commit(mut self) -> Result<(), OutputError> {
        if self.direct {
            self.committed = true;
            return Ok(());
        }
        if let Ok(f) = File::open(&self.tmp) {
            // Durable before it becomes visible under the real name.
            let _ = f.sync_all();
        }
        std::fs::rename(&self.tmp, &self.target).map_err(|e| OutputError::io(&self.target, e))?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.committed && !self.direct {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Writes a whole file atomically: checked against the inputs, written to a temporary file,
/// renamed into place. On error nothing is left behind and the target is untouched. `-`
/// writes to standard output.
///
/// ```
/// use std::io::Write;
/// use sokuc_puzzles::output::{Inputs, write_atomic};
///
/// let dir = std::env::temp_dir().join(format!("sokuc-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let input = dir.join("puzzle.toml");
/// std::fs::write(&input, "pegs = 1")?;
/// let inputs = Inputs::new();
/// inputs.record(|| -> Result<(), Box<dyn std::error::Error>> {
///     let _ = sokuc_puzzles::input::read_text(&input)?; // read: now an input of this recording
///     write_atomic(&dir.join("out.txt"), |w| w.write_all(b"answer"))?;
///     assert!(write_atomic(&input, |w| w.write_all(b"clobbered")).is_err());
///     Ok(())
/// })?;
/// assert_eq!(std::fs::read_to_string(&input)?, "pegs = 1");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`OutputError::IsInput`] as [`check`]; [`OutputError::Io`] when the file cannot be
/// written, or `write` fails.
pub fn write_atomic(path: &Path, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), OutputError> {
    if is_stdout(path) {
        let stdout = std::io::stdout();
        let mut w = BufWriter::new(stdout.lock());
        write(&mut w).map_err(|e| OutputError::io(path, e))?;
        w.flush().map_err(|e| OutputError::io(path, e))?;
        return Ok(());
    }
    let pending = Pending::new(path)?;
    let mut w = BufWriter::new(pending.create()?);
    write(&mut w).map_err(|e| OutputError::io(path, e))?;
    w.flush().map_err(|e| OutputError::io(path, e))?;
    drop(w);
    pending.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn devices_are_written_in_place_never_replaced() {
        use std::os::unix::fs::FileTypeExt;
        write_atomic(Path::new("/dev/null"), |w| w.write_all(b"discarded")).unwrap();
        let m = std::fs::metadata("/dev/null").unwrap();
        assert!(m.file_type().is_char_device(), "/dev/null is no longer a device");
        // A failed write into a device leaves the device alone too.
        let e = write_atomic(Path::new("/dev/null"), |_| Err(std::io::Error::other("boom")));
        assert!(e.is_err());
        assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
    }

    #[test]
    fn refuses_inputs_by_any_name_and_leaves_them_intact() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let input = dir.join("in.toml");
        std::fs::write(&input, "original").unwrap();
        let inputs = Inputs::new();
        inputs.record(|| note_input(&input));
        let other_spelling = dir.join(".").join("in.toml");
        let hard = dir.join("hard.toml");
        std::fs::hard_link(&input, &hard).unwrap();
        let mut names = vec![input.clone(), other_spelling, hard];
        #[cfg(unix)]
        {
            let link = dir.join("link.toml");
            std::os::unix::fs::symlink(&input, &link).unwrap();
            names.push(link);
        }
        for name in names {
            let e = inputs
                .record(|| write_atomic(&name, |w| w.write_all(b"clobbered")))
                .unwrap_err();
            assert!(matches!(e, OutputError::IsInput { .. }), "{name:?}: {e}");
        }
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "original");
    }

    #[test]
    fn only_a_recording_keeps_inputs_and_each_keeps_its_own() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a.txt"), tmp.path().join("b.txt"));
        std::fs::write(&a, "a").unwrap();
        std::fs::write(&b, "b").unwrap();
        // Read with no recording: nothing is kept, so nothing is refused.
        note_input(&a);
        assert!(check(&a).is_ok());
        let (outer, inner) = (Inputs::new(), Inputs::new());
        outer.record(|| {
            note_input(&a);
            inner.record(|| {
                note_input(&b);
                // The inner recording is the thread's: it has b, not the outer's a.
                assert!(check(&b).is_err());
                assert!(check(&a).is_ok());
            });
            // Back to the outer one, which never saw b.
            assert!(check(&a).is_err());
            assert!(check(&b).is_ok());
        });
        assert_eq!((outer.len(), inner.len()), (1, 1));
        // The same file read twice is one input.
        outer.record(|| note_input(&a));
        assert_eq!(outer.len(), 1);
        // A recording ended by a panic is gone from the thread all the same.
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            inner.record(|| panic!("in the work"));
        }));
        assert!(caught.is_err());
        assert!(check(&b).is_ok(), "the panicked recording still refuses its input");
        // Another thread has no recording of its own, whatever this one has.
        outer.record(|| std::thread::scope(|s| s.spawn(|| assert!(check(&a).is_ok())).join().unwrap()));
    }

    #[test]
    fn failed_write_leaves_nothing_and_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.txt");
        std::fs::write(&out, "old").unwrap();
        let e = write_atomic(&out, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(e.is_err());
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "old");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "temporary file left behind: {names:?}");
    }

    #[test]
    fn missing_directory_is_an_error_naming_the_file() {
        let e = write_atomic(Path::new("/nonexistent-sokuc-dir/t.txt"), |w| w.write_all(b"x")).unwrap_err();
        assert!(e.to_string().starts_with("/nonexistent-sokuc-dir/t.txt: "), "{e}");
    }

    #[test]
    fn writes_through_a_symbolic_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.txt");
        std::fs::write(&real, "old").unwrap();
        #[cfg(unix)]
        {
            let link = dir.path().join("link.txt");
            std::os::unix::fs::symlink(&real, &link).unwrap();
            write_atomic(&link, |w| w.write_all(b"new")).unwrap();
            assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
            assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        }
    }
}
