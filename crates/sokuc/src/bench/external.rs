//! `bench --vs 'CMD {}'`: an external solver run on each file, with the same time limit as
//! sokuc, and its competition-style answer read back.
//!
//! The command is split into words as a POSIX shell would split a simple command (blanks;
//! `'...'`, `"..."` and `\` quote), with no shell in between: no globbing, variables,
//! pipes or redirections. Every `{}` inside a word is replaced by the file's path; a command
//! without `{}` gets the path as its last word. The process runs in a process group of its
//! own, and at the deadline the whole group is killed (`kill -KILL -- -PGID`), so a wrapper
//! script's children die with it.
//!
//! Its last `s` line is read (`SATISFIABLE`, `OPTIMUM FOUND`, `UNSATISFIABLE`, `UNKNOWN`); no
//! `s` line is an `error` with its exit code and last stderr line, and the kill at the
//! deadline makes it `unknown`. When it prints `v` lines, the model is checked against the file
//! by the pb front-end's exact verifier: the row says `model verified`, or `VS MODEL WRONG:
//! why`. A command that cannot be started at all (`--vs nosuch {}`) is exit 2 before any row.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::input::InputError;

/// What the external solver said about one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VsStatus {
    Sat,
    Optimum,
    Unsat,
    /// `s UNKNOWN`, or killed at the time limit.
    Unknown,
    /// No `s` line, or a process that could not be waited for; the reason.
    Error(String),
}

impl VsStatus {
    pub fn as_str(&self) -> &'static str {
        match self {
            VsStatus::Sat => "sat",
            VsStatus::Optimum => "optimum",
            VsStatus::Unsat => "unsat",
            VsStatus::Unknown => "unknown",
            VsStatus::Error(_) => "error",
        }
    }

    /// `Some(true)` for a model found (sat or optimum), `Some(false)` for unsat.
    pub fn decided(&self) -> Option<bool> {
        match self {
            VsStatus::Sat | VsStatus::Optimum => Some(true),
            VsStatus::Unsat => Some(false),
            _ => None,
        }
    }
}

/// One run of the external command.
#[derive(Debug, Clone)]
pub struct VsRun {
    pub status: VsStatus,
    pub ms: f64,
    /// Killed at the time limit.
    pub timed_out: bool,
    /// Its standard output (for the `v` lines).
    pub stdout: String,
}

/// Splits a command line into words (see the module's documentation).
pub fn split_words(cmd: &str) -> Result<Vec<String>, InputError> {
    let bad = |why: &str| InputError::new("--vs", None, format!("cannot split the command: {why}"));
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => return Err(bad("an unclosed ' quote")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x @ ('"' | '\\' | '$' | '`')) => cur.push(x),
                            Some(x) => {
                                cur.push('\\');
                                cur.push(x);
                            }
                            None => return Err(bad("an unclosed \" quote")),
                        },
                        Some(x) => cur.push(x),
                        None => return Err(bad("an unclosed \" quote")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(x) => cur.push(x),
                    None => return Err(bad("a \\ at the end")),
                }
            }
            x => {
                in_word = true;
                cur.push(x);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err(bad("an empty command"));
    }
    Ok(words)
}

/// The command's words for one file: `{}` replaced by the path, or the path appended.
pub fn words_for(template: &[String], path: &Path) -> Vec<String> {
    let p = path.display().to_string();
    if template.iter().any(|w| w.contains("{}")) {
        template.iter().map(|w| w.replace("{}", &p)).collect()
    } else {
        let mut w = template.to_vec();
        w.push(p);
        w
    }
}

/// The status of competition output: the last `s` line wins.
pub fn parse_status(stdout: &str) -> Option<VsStatus> {
    let mut found = None;
    for line in stdout.lines() {
        let Some(rest) = line.strip_prefix("s ") else { continue };
        found = Some(match rest.trim() {
            "SATISFIABLE" => VsStatus::Sat,
            "OPTIMUM FOUND" => VsStatus::Optimum,
            "UNSATISFIABLE" => VsStatus::Unsat,
            "UNKNOWN" | "UNSUPPORTED" => VsStatus::Unknown,
            other => VsStatus::Error(format!("unrecognised status line 's {other}'")),
        });
    }
    found
}

/// At most this much of each output stream is kept (a `v` line of 2^25 variables fits).
const MAX_OUTPUT: u64 = 512 << 20;

fn reader(mut r: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = (&mut r).take(MAX_OUTPUT).read_to_end(&mut buf);
        // Drain the rest so the writer never blocks on a full pipe.
        let _ = std::io::copy(&mut r, &mut std::io::sink());
        let _ = tx.send(String::from_utf8_lossy(&buf).into_owned());
    });
    rx
}

fn kill_group(child: &mut std::process::Child) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
}

/// Runs the command on one file. `Err` only when it cannot be started at all.
pub fn run(words: &[String], limit: Option<Duration>) -> std::io::Result<VsRun> {
    let t0 = Instant::now();
    let mut child = Command::new(&words[0])
        .args(&words[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    let out = reader(child.stdout.take().expect("piped"));
    let err = reader(child.stderr.take().expect("piped"));
    let mut timed_out = false;
    let exit = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) => {}
            Err(_) => break None,
        }
        if limit.is_some_and(|l| t0.elapsed() >= l) {
            timed_out = true;
            kill_group(&mut child);
            break child.wait().ok();
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    // A grandchild that left the group may hold the pipes open: do not wait for it forever.
    let grace = Duration::from_secs(2);
    let stdout = out.recv_timeout(grace).unwrap_or_default();
    let stderr = err.recv_timeout(grace).unwrap_or_default();
    let status = match (parse_status(&stdout), timed_out) {
        // An answer printed just before the kill still counts.
        (Some(s), _) => s,
        (None, true) => VsStatus::Unknown,
        (None, false) => {
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
            let how = match exit.and_then(|e| e.code()) {
                Some(c) => format!("exit {c}"),
                None => "killed by a signal".to_string(),
            };
            VsStatus::Error(if last.is_empty() {
                format!("no 's' line ({how})")
            } else {
                format!("no 's' line ({how}): {last}")
            })
        }
    };
    Ok(VsRun {
        status,
        ms,
        timed_out,
        stdout,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_like_a_shell() {
        assert_eq!(split_words("minisat+ {}").unwrap(), ["minisat+", "{}"]);
        assert_eq!(
            split_words(r#" a 'b c' "d \"e\"" f\ g "#).unwrap(),
            ["a", "b c", "d \"e\"", "f g"]
        );
        assert!(split_words("a 'b").is_err());
        assert!(split_words("  ").is_err());
        let t = split_words("s --f={}").unwrap();
        assert_eq!(words_for(&t, Path::new("x.opb")), ["s", "--f=x.opb"]);
        assert_eq!(words_for(&["s".into()], Path::new("x.opb")), ["s", "x.opb"]);
    }

    #[test]
    fn the_last_status_line_counts() {
        assert_eq!(
            parse_status("c hi\ns UNKNOWN\no 5\ns OPTIMUM FOUND\nv x1\n"),
            Some(VsStatus::Optimum)
        );
        assert_eq!(parse_status("s UNSATISFIABLE"), Some(VsStatus::Unsat));
        assert_eq!(parse_status("nothing"), None);
    }
}
