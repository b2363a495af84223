//! What the command line says about itself: `--version` (with the backends compiled into
//! this build), `sokuc completions SHELL` and `sokuc man`, both generated from the clap
//! command itself, so they never fall behind the options.

use std::io::Write;
use std::sync::LazyLock;

use clap::Args;
use clap_complete::Shell;

use super::Exit;
use sokuc::Error;
use sokuc::error::exit;

/// `sokuc --version`: the version and this build's backends ("0.1.0 (backends: auto, sat,
/// cp, search)"). A format of a fixed list: `--version` stays as fast as `true`.
pub static VERSION: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{} (backends: auto, {})",
        env!("CARGO_PKG_VERSION"),
        sokuc::backend::available().join(", ")
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
    page.render(&mut out).map_err(roff_error)?;
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
    std::io::stdout().lock().write_all(&out)?;
    Ok(exit::SAT)
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
