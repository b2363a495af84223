//! What the command line says about itself: `--version` (with the backends compiled into
//! this build), `sokuc completions SHELL` and `sokuc man`, both generated from the clap
//! command itself, so they never fall behind the options.

use std::io::Write;
use std::sync::LazyLock;

use clap::Args;
use clap_complete::Shell;

use super::Exit;
use sokuc::Error;
use sokuc::exit;

/// `sokuc --version`: the version and this build's backends ("0.1.0 (backends: auto, sat,
/// cp, search)"). A format of a fixed list: `--version` stays as fast as `true`.
pub static VERSION: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{} (backends: auto, {})",
        env!("CARGO_PKG_VERSION"),
        sokuc::backends().join(", ")
    )
});

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell. Bash: `sokuc completions bash >
    /// ~/.local/share/bash-completion/completions/sokuc`; zsh: into a directory of $fpath as
    /// `_sokuc`; fish: `~/.config/fish/completions/sokuc.fish`.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// `sokuc man` takes no options.
#[derive(Args)]
pub struct ManArgs {}

/// `sokuc completions SHELL`: the completion script on standard output.
pub fn completions(a: CompletionsArgs, mut cli: clap::Command) -> Exit {
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cli, "sokuc", &mut out);
    std::io::stdout().lock().write_all(&out)?;
    Ok(exit::SAT)
}

/// `sokuc man`: one manual page, in roff, with a section for every subcommand (its synopsis,
/// what it does and its options).
pub fn man(cli: clap::Command) -> Exit {
    let mut cli = cli.disable_help_subcommand(true);
    cli.build();
    let source = format!("sokuc {}", env!("CARGO_PKG_VERSION"));
    let mut out = Vec::new();
    let page = clap_mangen::Man::new(cli.clone()).source(source.clone());
    // Section by section, not `render`: its SUBCOMMANDS list points at a page per
    // subcommand (sokuc-solve(1), ...), and there is one page, with a section for each.
    page.render_title(&mut out).map_err(roff_error)?;
    page.render_name_section(&mut out).map_err(roff_error)?;
    page.render_synopsis_section(&mut out).map_err(roff_error)?;
    page.render_description_section(&mut out).map_err(roff_error)?;
    page.render_options_section(&mut out).map_err(roff_error)?;
    writeln!(out, ".SH SUBCOMMANDS")?;
    for sub in cli.get_subcommands().filter(|s| !s.is_hide_set()) {
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        writeln!(out, ".TP\n\\fBsokuc {}\\fR\n{}", sub.get_name(), roff_text(&about))?;
    }
    writeln!(out, "Each has a section of its own below.")?;
    for sub in cli.get_subcommands().filter(|s| !s.is_hide_set()) {
        writeln!(out, ".SH \"SOKUC {}\"", sub.get_name().to_uppercase())?;
        let page = clap_mangen::Man::new(sub.clone()).source(source.clone());
        let mut section = Vec::new();
        page.render_synopsis_section(&mut section).map_err(roff_error)?;
        page.render_description_section(&mut section).map_err(roff_error)?;
        page.render_options_section(&mut section).map_err(roff_error)?;
        // The subcommand's sections become subsections of its own.
        for line in String::from_utf8_lossy(&section).lines() {
            match line.strip_prefix(".SH ") {
                Some(title) => writeln!(out, ".SS {}", title_case(title))?,
                None => writeln!(out, "{line}")?,
            }
        }
    }
    out.extend_from_slice(EXIT_STATUS.as_bytes());
    page.render_version_section(&mut out).map_err(roff_error)?;
    std::io::stdout().lock().write_all(&out)?;
    Ok(exit::SAT)
}

/// The manual's EXIT STATUS section: the two tables of docs/src/exit-codes.md.
const EXIT_STATUS: &str = r#".SH "EXIT STATUS"
For puzzles (3SoKu, pools, Kakuro, Tricky Triple, IcoSoKu pegs):
.TP
.B 0
solved (a verified solution), or the command did what was asked; \fBcheck \-\-partial\fR: every placed tile can stay
.TP
.B 20
proven unsatisfiable: no solution exists; \fBcheck \-\-partial\fR: some placed tiles must come off
.TP
.B 30
unknown: the time limit was reached first
.TP
.B 2
bad input or usage, in one line on standard error
.TP
.B 3
\fBcheck\fR (and \fBrender \-\-solution\fR): the solution is invalid
.TP
.B 1
an internal error, a disagreement between backends, or a contradiction
.TP
.B 130
interrupted by SIGINT or SIGTERM, after what was found is written
.PP
On OPB and CNF files, \fBsolve\fR, \fBdecode\fR, \fBcompare\fR and \fBcertify\fR exit as SAT
and pseudo\-Boolean solvers do:
.TP
.B 10
satisfiable (with an objective: a best solution found, not proven optimal)
.TP
.B 20
unsatisfiable
.TP
.B 30
an objective's optimum, proven
.TP
.B 0
unknown: the time limit was reached first
"#;

/// `text` with roff's special characters escaped: a backslash, and a dot or quote that
/// would start a line.
fn roff_text(text: &str) -> String {
    let t = text.replace('\\', "\\\\").replace('-', "\\-");
    if t.starts_with('.') || t.starts_with('\'') {
        format!("\\&{t}")
    } else {
        t
    }
}

fn roff_error(e: std::io::Error) -> Error {
    Error::internal(format!("writing the manual page: {e}"))
}

/// "OPTIONS" -> "Options".
fn title_case(s: &str) -> String {
    let s = s.trim_matches('"').to_lowercase();
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => s,
    }
}
