//! The `sokuc` command line: parse the arguments, dispatch to a subcommand (one file each
//! under `cli/`), and turn the result into an exit code. Exit codes come from
//! `sokuc::error` (spec §3); nothing else here decides one.

mod cli;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "sokuc",
    version = cli::meta::VERSION.as_str(),
    about = "An encoding compiler for 3SoKu and related puzzles: compile, solve in-process, decode, verify."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a puzzle (or write the compiled model with --emit).
    Solve(cli::solve::SolveArgs),
    /// Read an external solver's answer for a model emitted with the same options.
    Decode(cli::decode::DecodeArgs),
    /// Verify a solution (what `solve` printed, text or JSON, or a grid solution file) against
    /// a puzzle.
    Check(cli::check::CheckArgs),
    /// Solve every instance of a batch file, or every OPB/CNF file of a folder or list (optionally next to an external solver, --vs), and print per-instance times and a summary.
    Bench(cli::bench::BenchArgs),
    /// Run several backends on one puzzle; their statuses must agree.
    Compare(cli::compare::CompareArgs),
    /// Solve every capacity arrangement of a variant up to symmetry, verifying each answer.
    Sweep(cli::sweep::SweepArgs),
    /// Make a puzzle: a 3SoKu instance (random solvable, Partition, 4-unsat) or a Tricky
    /// Triple with exactly one solution.
    Generate(cli::generate::GenerateArgs),
    /// All-different triangular solutions (Liu et al.): the 24 tile types of weights 0..3,
    /// each at most once, on the icosahedron, with given or free pegs.
    Adts(cli::adts::AdtsArgs),
    /// Combine the results files of `sweep --shard K/N` runs into one, checking that every
    /// instance is there exactly once.
    SweepMerge(cli::sweep::SweepMergeArgs),
    /// Solve with a certificate: a verified answer, or a DRAT proof of unsatisfiability for
    /// the emitted CNF, checked by drat-trim.
    Certify(cli::certify::CertifyArgs),
    /// Draw a polyhedron puzzle (3SoKu, pool), or a solution of it, as an SVG net.
    Render(cli::render::RenderArgs),
    /// Scaling benchmark: solve time against faces, per backend, on generated 3SoKu families
    /// (random solvable, Partition reduction, 4-unsat); prints per-instance lines and a table.
    Scaling(cli::scaling::ScalingArgs),
    /// Count the distinct solutions exactly (3SoKu: configurations, what a person sees face
    /// by face), with the method used and the time.
    Count(cli::count::CountArgs),
    /// Serve a local web page (on 127.0.0.1): the puzzle in 3-D, solved by any backend, with
    /// hints, every solution, counts, comparisons and exports.
    Serve(cli::serve::ServeArgs),
    /// Print a shell completion script for sokuc (bash, zsh, fish, elvish, powershell).
    Completions(cli::meta::CompletionsArgs),
    /// Print sokuc's manual page (roff, for `man -l -`), every subcommand included.
    Man,
}

fn main() -> ExitCode {
    let parsed = match Cli::try_parse() {
        Ok(parsed) => parsed,
        Err(e) => return ExitCode::from(cli::failure::usage_error(e, &<Cli as CommandFactory>::command())),
    };
    // Commands that solve (and may run long) turn SIGINT and SIGTERM into an interrupt;
    // the others keep the default, and start no faster or slower for it.
    if matches!(
        parsed.command,
        Command::Solve(_)
            | Command::Bench(_)
            | Command::Compare(_)
            | Command::Sweep(_)
            | Command::Generate(_)
            | Command::Adts(_)
            | Command::Certify(_)
            | Command::Scaling(_)
            | Command::Count(_)
            | Command::Serve(_)
    ) {
        cli::signals::install();
    }
    cli::environment::apply();
    let result = match parsed.command {
        Command::Solve(a) => cli::solve::run(a),
        Command::Decode(a) => cli::decode::run(a),
        Command::Check(a) => cli::check::run(a),
        Command::Bench(a) => cli::bench::run(a),
        Command::Compare(a) => cli::compare::run(a),
        Command::Sweep(a) => cli::sweep::run(a),
        Command::Generate(a) => cli::generate::run(a),
        Command::Adts(a) => cli::adts::run(a),
        Command::SweepMerge(a) => cli::sweep::merge(a),
        Command::Certify(a) => cli::certify::run(a),
        Command::Render(a) => cli::render::run(a),
        Command::Scaling(a) => cli::scaling::run(a),
        Command::Count(a) => cli::count::run(a),
        Command::Serve(a) => cli::serve::run(a),
        Command::Completions(a) => cli::meta::completions(a, Cli::command()),
        Command::Man => cli::meta::man(Cli::command()),
    };
    let code = match result {
        Ok(code) => code,
        Err(e) => cli::failure::report(&e),
    };
    // Everything found before the signal has been written (the interrupt ends a search as a
    // time limit does); the exit code says the command did not run to its end.
    if let Some(signal) = cli::signals::caught() {
        eprintln!("sokuc: interrupted by {signal}: the output above is what was found before it");
        return ExitCode::from(cli::signals::INTERRUPTED);
    }
    ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    /// clap's own consistency checks, and: every option of every subcommand says what it
    /// does, and `--backend` names the backends of this build.
    #[test]
    fn every_option_has_help() {
        let cli = Cli::command();
        cli.clone().debug_assert();
        for sub in cli.get_subcommands() {
            assert!(sub.get_about().is_some(), "{} has no help", sub.get_name());
            for arg in sub.get_arguments() {
                let id = arg.get_id().as_str();
                if id == "help" || id == "version" {
                    continue;
                }
                assert!(
                    arg.get_help().is_some() || arg.get_long_help().is_some(),
                    "sokuc {} --{id} has no help",
                    sub.get_name()
                );
                if id == "backend" {
                    let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
                    let named = match sub.get_name() {
                        "certify" => sokuc::backend::supporting(sokuc::backend::feature::PROOF),
                        _ => sokuc::backend::available(),
                    };
                    for b in named {
                        assert!(
                            help.contains(b),
                            "sokuc {} --backend help {help:?} lacks {b}",
                            sub.get_name()
                        );
                    }
                }
            }
        }
    }
}
