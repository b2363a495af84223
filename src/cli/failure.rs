//! How a command that fails says so: one line on standard error (`sokuc: error: ...` for
//! what the user can fix, `sokuc: internal error: ...` otherwise), and with `--format json`
//! also one JSON object on standard output, `{"status": "error", "message", "exit_code"}`,
//! so that a program reading the JSON always gets an object. The exit code is the error's
//! (`sokuc::Error::exit_code`).

use std::ffi::OsString;

use serde_json::json;

use sokuc::Error;
use sokuc::exit;

/// Whether the command line asks for JSON (`--format json` or `--format=json`). Read from
/// the arguments themselves, so that an argument error is reported as JSON too.
pub fn wants_json() -> bool {
    json_in(std::env::args_os().skip(1))
}

fn json_in(args: impl Iterator<Item = OsString>) -> bool {
    let args: Vec<OsString> = args.collect();
    args.iter()
        .enumerate()
        .any(|(i, a)| a == "--format=json" || (a == "--format" && args.get(i + 1).is_some_and(|v| v == "json")))
}

/// Prints the error (stderr, and JSON on stdout when asked for) and returns its exit code.
pub fn report(e: &Error) -> u8 {
    let code = e.exit_code();
    if code == exit::SAT {
        // A closed pipe on stdout: the reader went away, nothing to say.
        return code;
    }
    let message = if e.is_usage() {
        e.to_string()
    } else {
        // Internal errors already say "internal error"; anything else that is not the
        // user's to fix is reported as one.
        let msg = e.to_string();
        format!(
            "internal error: {}",
            msg.strip_prefix("internal error: ").unwrap_or(&msg)
        )
    };
    fail(&message, code)
}

/// The one line on stderr, and the JSON object when `--format json` was given.
fn fail(message: &str, code: u8) -> u8 {
    if message.starts_with("internal error: ") {
        eprintln!("sokuc: {message}");
    } else {
        eprintln!("sokuc: error: {message}");
    }
    if wants_json() {
        println!("{}", json!({"status": "error", "message": message, "exit_code": code}));
    }
    code
}

/// Argument errors keep the one-line `sokuc: error: ...` form of every other user error
/// (clap's own report spans several lines); help and version still print in full.
pub fn usage_error(e: clap::Error, cli: &clap::Command) -> u8 {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return exit::SAT;
    }
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = e.print();
        return exit::USAGE;
    }
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or("invalid arguments");
    let mut first = first.strip_prefix("error: ").unwrap_or(first).trim().to_string();
    // "the following required arguments were not provided:" lists them on the lines below:
    // they are the point of the message.
    if e.kind() == ErrorKind::MissingRequiredArgument
        && let Some(ContextValue::Strings(missing)) = e.get(ContextKind::InvalidArg)
    {
        first = format!("{}: {}", first.trim_end_matches(':'), missing.join(", "));
    }
    // Of clap's extra lines, the allowed values and "a similar argument exists: '--backend'"
    // are worth keeping.
    let extra: String = text
        .lines()
        .map(str::trim)
        .filter_map(|l| {
            l.strip_prefix("tip: ")
                .filter(|t| t.contains("similar"))
                .or_else(|| l.strip_prefix("[possible values: ").and_then(|v| v.strip_suffix(']')))
                .map(|v| {
                    if l.starts_with('[') {
                        format!("; possible values: {v}")
                    } else {
                        format!("; {v}")
                    }
                })
        })
        .collect();
    // Point to the help of the subcommand that was called, if it exists.
    let command = std::env::args()
        .nth(1)
        .filter(|a| cli.find_subcommand(a).is_some())
        .map_or("sokuc".to_string(), |a| format!("sokuc {a}"));
    fail(&format!("{first}{extra} (see {command} --help)"), exit::USAGE)
}

#[cfg(test)]
mod tests {
    use super::json_in;

    #[test]
    fn json_is_asked_for_in_either_spelling() {
        let args = |a: &[&str]| {
            a.iter()
                .map(|s| s.into())
                .collect::<Vec<std::ffi::OsString>>()
                .into_iter()
        };
        assert!(json_in(args(&["solve", "x.toml", "--format", "json"])));
        assert!(json_in(args(&["solve", "--format=json", "x.toml"])));
        assert!(!json_in(args(&["solve", "x.toml", "--format", "text"])));
        assert!(!json_in(args(&["solve", "json"])));
    }
}
