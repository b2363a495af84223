//! The user documentation is tested like code:
//!
//! - every `$ sokuc ...` line in a ```` ```console ```` block of README.md and docs/src/ is run
//!   with the built binary, its exit code checked (0, or what the `$ echo $?` line after it
//!   shows) and the output lines shown under it looked for in the real output, in order
//!   (a line `...` skips; numbers with a decimal point, such as timings, match any such number);
//! - `sokuc` commands in other code blocks (long runs, or next to other programs) name real
//!   subcommands and options;
//! - every relative link points to a file that exists (and a `#anchor` to a heading there), and
//!   docs/src/SUMMARY.md lists every page;
//! - the CLI reference (docs/src/cli.md) and the vertex map (docs/src/img/vertices.svg) are what
//!   the binary prints now. `SOKUC_UPDATE_DOCS=1 cargo test --release --test docs` (or
//!   `bash scripts/gen-cli-docs.sh`) rewrites both.
//!
//! Commands whose `--backend` names a backend this build lacks (`mip`, `cadical`) are skipped
//! with the reason on stderr, `certify` when drat-trim is missing, and so is the CLI reference comparison in builds with those features: their `--help` lists
//! more backends. The reference is generated from a default build.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_sokuc");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn update() -> bool {
    std::env::var_os("SOKUC_UPDATE_DOCS").is_some_and(|v| v == "1")
}

/// README.md and every Markdown file under docs/src, relative to the repository root.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "md") {
                out.push(p);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs/src"), &mut out);
    out
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

// ---------------------------------------------------------------------------------------------
// Console blocks

/// One `$ ...` line of a console block, the lines shown under it, and the exit code expected.
struct Example {
    page: String,
    line: usize,
    command: String,
    shown: Vec<String>,
    exit: i32,
}

fn examples(page: &Path) -> Vec<Example> {
    let text = fs::read_to_string(page).unwrap();
    let mut out: Vec<Example> = Vec::new();
    let mut in_console = false;
    let mut in_other = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") {
            if in_console || in_other {
                in_console = false;
                in_other = false;
            } else if t.trim_start_matches('`').trim() == "console" {
                in_console = true;
            } else {
                in_other = true;
            }
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            if cmd.trim() == "echo $?" {
                continue;
            }
            out.push(Example {
                page: rel(page),
                line: i + 1,
                command: cmd.trim().to_string(),
                shown: Vec::new(),
                exit: 0,
            });
        } else if let Some(last) = out.last_mut() {
            // The line after `$ echo $?` is the previous command's exit code.
            let prev = text.lines().nth(i.wrapping_sub(1)).unwrap_or("");
            if prev.trim() == "$ echo $?" {
                last.exit = line
                    .trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("{}:{}: `$ echo $?` must be followed by a number", rel(page), i + 1));
            } else if !line.trim().is_empty() {
                last.shown.push(line.to_string());
            }
        } else {
            panic!("{}:{}: a console block must start with a `$ ` line", rel(page), i + 1);
        }
    }
    out
}

/// Splits a command line into words as a shell does for simple commands: '...', "...", \x.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut any = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                any = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    cur.push(c);
                }
            }
            '"' => {
                any = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => cur.extend(chars.next()),
                        c => cur.push(c),
                    }
                }
            }
            '\\' => {
                any = true;
                cur.extend(chars.next());
            }
            c if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                any = true;
                cur.push(c);
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

/// Numbers with a decimal point (timings) become `N.N`, so shown and real output compare.
fn mask(line: &str) -> String {
    let mut out = String::new();
    let mut num = String::new();
    let flush = |num: &mut String, out: &mut String| {
        if num.contains('.') && num.chars().next().is_some_and(|c| c.is_ascii_digit()) && num.len() > 1 {
            let trailing = num.ends_with('.');
            out.push_str("N.N");
            if trailing {
                out.push('.');
            }
        } else {
            out.push_str(num);
        }
        num.clear();
    };
    for c in line.chars() {
        if c.is_ascii_digit() || (c == '.' && !num.is_empty()) {
            num.push(c);
        } else {
            flush(&mut num, &mut out);
            out.push(c);
        }
    }
    flush(&mut num, &mut out);
    out.trim().to_string()
}

/// drat-trim, as scripts/install-tools.sh builds it, or SOKUC_DRAT_TRIM.
fn drat_trim() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SOKUC_DRAT_TRIM") {
        return Some(PathBuf::from(p));
    }
    let built = root().join("target/tools/drat-trim");
    built.exists().then_some(built)
}

/// Why this build cannot run a command: a backend it lacks (`mip`, `cadical`), or drat-trim.
fn skip_reason(command: &str) -> Option<String> {
    let w = words(command);
    let named: Vec<&str> = w
        .windows(2)
        .filter(|p| p[0] == "--backend")
        .flat_map(|p| p[1].split(','))
        .collect();
    for (backend, built) in [
        ("mip", cfg!(feature = "mip")),
        ("highs", cfg!(feature = "highs")),
        ("cadical", cfg!(feature = "cadical")),
    ] {
        if !built && named.contains(&backend) {
            return Some(format!(
                "needs the `{backend}` feature (cargo test --features {backend})"
            ));
        }
    }
    if w.get(1).is_some_and(|c| c == "certify") && drat_trim().is_none() {
        return Some("needs drat-trim (bash scripts/build-drat-trim.sh)".into());
    }
    None
}

/// A scratch folder that sees the repository's inputs, so examples may write files freely.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["instances", "variants", "tests", "docs", "examples", "encodings"] {
        #[cfg(unix)]
        std::os::unix::fs::symlink(root().join(name), dir.path().join(name)).unwrap();
    }
    dir
}

fn run_example(ex: &Example, dir: &Path) -> Result<(), String> {
    let mut w = words(&ex.command);
    if w.first().map(String::as_str) != Some("sokuc") {
        return Err(format!(
            "only `sokuc ...` commands go in console blocks (use ```sh for others): {}",
            ex.command
        ));
    }
    let mut stdout_to = None;
    let mut stdin_from = None;
    while w.len() >= 2 && (w[w.len() - 2] == ">" || w[w.len() - 2] == "<") {
        let file = w.pop().unwrap();
        let op = w.pop().unwrap();
        if op == ">" {
            stdout_to = Some(file);
        } else {
            stdin_from = Some(file);
        }
    }
    if w.iter().any(|x| matches!(x.as_str(), "|" | ">" | "<" | "&&" | ";")) {
        return Err(format!(
            "a console command may end with `> FILE` or `< FILE`, nothing more: {}",
            ex.command
        ));
    }
    let mut cmd = Command::new(BIN);
    cmd.args(&w[1..]).current_dir(dir);
    if let Some(d) = drat_trim() {
        cmd.env("SOKUC_DRAT_TRIM", d);
    }
    cmd.stdin(match &stdin_from {
        Some(f) => Stdio::from(fs::File::open(dir.join(f)).map_err(|e| format!("{f}: {e}"))?),
        None => Stdio::null(),
    });
    let out = cmd.output().map_err(|e| e.to_string())?;
    if let Some(f) = &stdout_to {
        fs::write(dir.join(f), &out.stdout).unwrap();
    }
    let code = out.status.code().unwrap_or(-1);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if code != ex.exit {
        return Err(format!(
            "exit code {code}, the page says {}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
            ex.exit
        ));
    }
    let real: Vec<String> = stdout.lines().chain(stderr.lines()).map(mask).collect();
    let mut at = 0;
    for shown in &ex.shown {
        let s = mask(shown);
        if s == "..." {
            continue;
        }
        match real[at..].iter().position(|r| r.contains(&s)) {
            Some(k) => at += k + 1,
            None => {
                return Err(format!(
                    "shown line not in the output (in order): {shown}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn every_console_command_runs_as_shown_in_this_build() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for page in pages() {
        let dir = scratch();
        for ex in examples(&page) {
            if let Some(why) = skip_reason(&ex.command) {
                eprintln!("skipped {}:{}: {why}: {}", ex.page, ex.line, ex.command);
                continue;
            }
            ran += 1;
            if let Err(e) = run_example(&ex, dir.path()) {
                failures.push(format!("{}:{}: $ {}\n{e}", ex.page, ex.line, ex.command));
            }
        }
    }
    assert!(ran >= 20, "only {ran} console commands found");
    assert!(
        failures.is_empty(),
        "{} failing examples:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_console_parser_reads_exit_codes_and_output() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("p.md");
    fs::write(
        &page,
        "text\n```console\n$ sokuc a 'b c'\nout 1\n\n$ echo $?\n20\n$ sokuc d\n```\n```sh\n$ not run\n```\n",
    )
    .unwrap();
    let ex = examples(&page);
    assert_eq!(ex.len(), 2);
    assert_eq!(ex[0].command, "sokuc a 'b c'");
    assert_eq!(ex[0].shown, vec!["out 1"]);
    assert_eq!(ex[0].exit, 20);
    assert_eq!(ex[1].exit, 0);
    assert_eq!(
        words("sokuc a 'b c' \"d\\\"e\" f\\ g"),
        vec!["sokuc", "a", "b c", "d\"e", "f g"]
    );
    assert_eq!(
        mask("by search in 0.05 s (12 solutions, 1.5 ms)."),
        "by search in N.N s (12 solutions, N.N ms)."
    );
}

/// `sokuc` lines of the other code blocks (```sh: long runs, or next to other programs).
fn other_sokuc_lines(page: &Path) -> Vec<(usize, String)> {
    let text = fs::read_to_string(page).unwrap();
    let mut out = Vec::new();
    // Some(true) inside a console block; blocks of another language (Rust, a Cargo.toml) hold
    // no commands at all.
    let mut fence: Option<bool> = None;
    let mut code = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") {
            let lang = t.trim_start_matches('`').trim();
            fence = match fence {
                Some(_) => None,
                None => Some(lang == "console"),
            };
            code = fence.is_some() && (lang.starts_with("rust") || lang == "toml");
            continue;
        }
        if fence == Some(false) && !code {
            let cmd = t.strip_prefix("$ ").unwrap_or(t);
            let cmd = cmd.split(" #").next().unwrap_or(cmd);
            if cmd.starts_with("sokuc ") {
                out.push((i + 1, cmd.trim().to_string()));
            }
        }
    }
    out
}

/// Commands that are shown but not run (they take long, or need another program) must at
/// least name a real subcommand and real options, so a renamed flag is caught here.
#[test]
fn commands_not_run_use_real_options() {
    let mut helps = std::collections::HashMap::new();
    let mut bad = Vec::new();
    let mut seen = 0;
    for page in pages() {
        for (line, cmd) in other_sokuc_lines(&page) {
            seen += 1;
            let w = words(&cmd);
            let sub = w.get(1).cloned().unwrap_or_default();
            let help = helps.entry(sub.clone()).or_insert_with(|| {
                let out = Command::new(BIN).args([sub.as_str(), "--help"]).output().unwrap();
                out.status
                    .success()
                    .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
            });
            let Some(help) = help else {
                bad.push(format!("{}:{line}: no subcommand `{sub}`: {cmd}", rel(&page)));
                continue;
            };
            for flag in w.iter().filter(|x| x.starts_with("--")) {
                let flag = flag.split('=').next().unwrap();
                let known = help.match_indices(flag).any(|(k, _)| {
                    help[k + flag.len()..]
                        .chars()
                        .next()
                        .is_none_or(|c| !(c.is_alphanumeric() || c == '-'))
                });
                if !known {
                    bad.push(format!(
                        "{}:{line}: `sokuc {sub}` has no option {flag}: {cmd}",
                        rel(&page)
                    ));
                }
            }
        }
    }
    assert!(seen >= 10, "only {seen} commands outside console blocks");
    assert!(bad.is_empty(), "commands that would not run:\n{}", bad.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Links

/// A heading's anchor as GitHub and mdBook make it: lower case, spaces to `-`, punctuation out.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(page: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(page).unwrap_or_default();
    let mut out = BTreeSet::new();
    let mut fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        }
        if !fence && line.starts_with('#') {
            out.insert(slug(line.trim_start_matches('#').replace('`', "").as_str()));
        }
    }
    out
}

/// The targets of `[text](target)` and `![alt](target)` outside code.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        // Drop inline code spans.
        let mut clean = String::new();
        let mut code = false;
        for c in line.chars() {
            if c == '`' {
                code = !code;
            } else if !code {
                clean.push(c);
            }
        }
        let mut rest = clean.as_str();
        while let Some(k) = rest.find("](") {
            let after = &rest[k + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = after[..end].split_whitespace().next().unwrap_or("").to_string();
            out.push((i + 1, target));
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let mut bad = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        for (line, target) in links(&text) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !path.exists() {
                bad.push(format!("{}:{line}: {target}: no such file", rel(&page)));
                continue;
            }
            if let Some(a) = anchor
                && path.extension().is_some_and(|e| e == "md")
                && !anchors(&path).contains(a)
            {
                bad.push(format!("{}:{line}: {target}: no heading with that anchor", rel(&page)));
            }
        }
    }
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

#[test]
fn the_summary_lists_every_page() {
    let src = root().join("docs/src");
    let summary = fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = links(&summary).into_iter().map(|(_, t)| t).collect();
    let mut missing = Vec::new();
    for page in pages().into_iter().skip(1) {
        let r = page.strip_prefix(&src).unwrap().display().to_string();
        if r != "SUMMARY.md" && !listed.contains(&r) {
            missing.push(r);
        }
    }
    assert!(missing.is_empty(), "pages not in docs/src/SUMMARY.md: {missing:?}");
}

// ---------------------------------------------------------------------------------------------
// Generated files

fn help(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).arg("--help").output().unwrap();
    assert!(out.status.success(), "sokuc {args:?} --help failed");
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands, in the order `sokuc --help` lists them.
fn subcommands(top: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut on = false;
    for line in top.lines() {
        if line.starts_with("Commands:") {
            on = true;
            continue;
        }
        if on {
            if !line.starts_with("  ") {
                break;
            }
            let name = line.split_whitespace().next().unwrap();
            if name != "help" {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// docs/src/cli.md from the binary's own `--help` text.
fn cli_reference() -> String {
    let top = help(&[]);
    let mut s = String::from(
        "# Command-line reference\n\n\
         <!-- Generated from `sokuc --help` and `sokuc COMMAND --help` of a default build by\n     \
         `bash scripts/gen-cli-docs.sh`; tests/docs.rs fails when it is out of date. Do not edit. -->\n\n\
         This page is the `--help` text of every command, as a default build prints it (a build\n\
         with the `mip` or `cadical` feature lists those backends too). Exit codes are on the\n\
         [exit codes](exit-codes.md) page.\n\n",
    );
    s.push_str("## sokuc\n\n```text\n");
    s.push_str(top.trim_end());
    s.push_str("\n```\n");
    for cmd in subcommands(&top) {
        s.push_str(&format!("\n## sokuc {cmd}\n\n```text\n"));
        s.push_str(help(&[&cmd]).trim_end());
        s.push_str("\n```\n");
    }
    s
}

fn compare_or_update(rel_path: &str, now: &str) {
    let path = root().join(rel_path);
    if update() {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, now).unwrap();
        return;
    }
    let old = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        old == now,
        "{rel_path} is out of date: run `bash scripts/gen-cli-docs.sh` (SOKUC_UPDATE_DOCS=1 cargo test --release --test docs) and commit it"
    );
}

#[test]
fn the_cli_reference_is_current_for_the_default_build() {
    if cfg!(any(feature = "mip", feature = "highs", feature = "cadical")) {
        eprintln!("skipped: docs/src/cli.md is generated from a default build (this build lists more backends)");
        return;
    }
    compare_or_update("docs/src/cli.md", &cli_reference());
}

/// `sokuc render INSTANCE --labels`: the solid's vertex map, with a disc for every vertex.
fn vertex_map(instance: &str, vertices: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("map.svg");
    let status = Command::new(BIN)
        .args(["render", instance, "--labels", "-o"])
        .arg(&out)
        .current_dir(root())
        .status()
        .unwrap();
    assert!(status.success(), "sokuc render {instance} --labels");
    let svg = fs::read_to_string(&out).unwrap();
    for name in vertices {
        assert!(
            svg.contains(&format!("data-vertex=\"{name}\"")),
            "{instance}: no disc for {name}"
        );
    }
    svg
}

#[test]
fn the_vertex_map_is_current() {
    let names = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"];
    compare_or_update(
        "docs/src/img/vertices.svg",
        &vertex_map("instances/icosoku-seed.toml", &names),
    );
    // The octahedron's, for the pools tutorial.
    compare_or_update(
        "docs/src/img/octahedron-vertices.svg",
        &vertex_map("instances/octasoku.toml", &names[..6]),
    );
}
