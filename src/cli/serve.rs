//! `sokuc serve`: the web page on 127.0.0.1 until Ctrl-C (the work is the library's `Server`).

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::Exit;
use sokuc::Error;
use sokuc_cli::serve::{ServeOptions, Server};

#[derive(Args)]
pub struct ServeArgs {
    /// The port on 127.0.0.1 (0: a free one, printed at start).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Open the page in the desktop's browser (xdg-open, or open on macOS).
    #[arg(long)]
    pub open: bool,
    /// Memory for one request's model or count (bytes, or with a K, M, G or T suffix).
    #[arg(long, default_value = "2G", value_parser = sokuc::parse_size)]
    pub max_memory: u64,
}

pub fn run(a: ServeArgs) -> Exit {
    let mut options = ServeOptions::new().port(a.port).max_memory(a.max_memory);
    let tuning = super::environment::tuning();
    if let Some(cp) = tuning.cp {
        options = options.cp_tuning(cp);
    }
    if let Some(cadical) = tuning.cadical {
        options = options.cadical_tuning(cadical);
    }
    let server = Server::bind(&options).map_err(|e| Error::unsupported("--port", e.to_string()))?;
    let url = server.url();
    // The first line is the address, for people and for scripts that start the server.
    let mut out = std::io::stdout();
    writeln!(out, "sokuc serve: {url}")?;
    writeln!(out, "sokuc serve: press Ctrl-C to stop")?;
    out.flush()?;
    if a.open {
        open(&url);
    }
    let stop = super::signals::flag().unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
    server.run(&stop);
    Ok(super::signals::INTERRUPTED)
}

/// Hands the address to the desktop's opener, a separate program started with exec (never a
/// bare fork in this threaded process); a missing opener is only a note.
fn open(url: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    match std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(_) => {}
        Err(e) => eprintln!("sokuc: note: could not open a browser ({opener}: {e}); open {url} yourself"),
    }
}
