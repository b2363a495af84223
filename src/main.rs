//! The `sokuc` command line: parse the arguments, dispatch to a subcommand (one file each
//! under `cli/`), and turn the result into an exit code. Exit codes come from `sokuc::exit`
//! and the errors' and outcomes' `exit_code` (spec §3); nothing else here decides one.

mod cli;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};

#[derive(Parser)]
#[command(
    name = "sokuc",
    version = cli::meta::VERSION.as_str(),
    about = "An encoding compiler for 3SoKu and related puzzles: compile, solve in-process, decode, verify.",
    long_about = "An encoding compiler for 3SoKu and related puzzles: compile, solve in-process, decode, verify.\n\n\
        It solves IcoSoKu (the icosahedron puzzle of twenty tiles and twelve pegs) from its pegs, \
        3SoKu on any solid with triangular faces, Kakuro, Tricky Triple, and OPB and DIMACS files.",
    after_help = "First example: the IcoSoKu with pegs 1,5,11,10,7,12,9,2,6,8,4,3 on vertices A to L:\n  \
        sokuc solve --pegs 1,5,11,10,7,12,9,2,6,8,4,3"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// The subcommands, with each one's name and one-line help. Each one's options are added to
// clap's tree only when that subcommand is parsed, or its help, manual page or completions are
// written (`clap::Command::defer`): `sokuc solve` builds the options of `solve` alone and
// `sokuc --version` none, where clap's derive builds all of them (about 600) at every start,
// about half of the instructions `sokuc --version` ran. The unit test `every_option_has_help`
// builds the whole tree; the goldens and the CLI reference (docs/src/cli.md) hold its help.
macro_rules! subcommands {
    ($($variant:ident($args:ty) = $name:literal, $about:literal;)*) => {
        enum Command {
            $($variant($args),)*
        }

        impl clap::Subcommand for Command {
            fn augment_subcommands(cmd: clap::Command) -> clap::Command {
                cmd$(.subcommand(
                    // The options' own doc comments would name the subcommand: its help is set again.
                    clap::Command::new($name)
                        .about($about)
                        .defer(|c| <$args as clap::Args>::augment_args(c).about($about).long_about(None)),
                ))*
            }

            fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
                Self::augment_subcommands(cmd)
            }

            fn has_subcommand(name: &str) -> bool {
                [$($name),*].contains(&name)
            }
        }

        impl clap::FromArgMatches for Command {
            fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
                Self::from_arg_matches_mut(&mut matches.clone())
            }

            fn from_arg_matches_mut(matches: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
                match matches.remove_subcommand() {
                    $(Some((name, mut sub)) if name == $name => Ok(Command::$variant(
                        <$args as clap::FromArgMatches>::from_arg_matches_mut(&mut sub)?,
                    )),)*
                    Some((other, _)) => Err(clap::Error::raw(
                        clap::error::ErrorKind::InvalidSubcommand,
                        format!("unrecognized subcommand '{other}'"),
                    )),
                    None => Err(clap::Error::raw(
                        clap::error::ErrorKind::MissingSubcommand,
                        "a subcommand is required",
                    )),
                }
            }

            fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
                *self = Self::from_arg_matches(matches)?;
                Ok(())
            }
        }
    };
}

subcommands! {
    Solve(cli::solve::SolveArgs) = "solve",
        "Solve a puzzle (or write the compiled model with --emit)";
    Decode(cli::decode::DecodeArgs) = "decode",
        "Read an external solver's answer for a model emitted with the same options";
    Check(cli::check::CheckArgs) = "check",
        "Verify a solution (what `solve` printed, text or JSON, or a grid solution file) against a puzzle, or (--partial) whether the tiles placed so far can stay";
    Bench(cli::bench::BenchArgs) = "bench",
        "Solve every instance of a batch file, or every OPB/CNF file of a folder or list (optionally next to an external solver, --vs), and print per-instance times and a summary";
    Compare(cli::compare::CompareArgs) = "compare",
        "Run several backends on one puzzle; their statuses must agree";
    Sweep(cli::sweep::SweepArgs) = "sweep",
        "Solve every capacity arrangement of a variant up to symmetry, verifying each answer";
    Generate(cli::generate::GenerateArgs) = "generate",
        "Make a puzzle: a 3SoKu instance (random solvable, Partition, 4-unsat) or a Tricky Triple with exactly one solution";
    Adts(cli::adts::AdtsArgs) = "adts",
        "All-different triangular solutions (Liu et al.): the 24 tile types of weights 0..3, each at most once, on the icosahedron, with given or free pegs";
    SweepMerge(cli::sweep::SweepMergeArgs) = "sweep-merge",
        "Combine the results files of `sweep --shard K/N` runs into one, checking that every instance is there exactly once";
    Certify(cli::certify::CertifyArgs) = "certify",
        "Solve with a certificate: a verified answer, or a DRAT proof of unsatisfiability for the emitted CNF, checked by drat-trim";
    Render(cli::render::RenderArgs) = "render",
        "Draw a polyhedron puzzle (3SoKu, pool), or a solution of it, as an SVG net";
    Scaling(cli::scaling::ScalingArgs) = "scaling",
        "Scaling benchmark: solve time against faces, per backend, on generated 3SoKu families (random solvable, Partition reduction, 4-unsat); prints per-instance lines and a table";
    Count(cli::count::CountArgs) = "count",
        "Count the distinct solutions exactly (3SoKu: configurations, what a person sees face by face), with the method used and the time";
    Serve(cli::serve::ServeArgs) = "serve",
        "Serve a local web page (on 127.0.0.1): the puzzle in 3-D, solved by any backend, with hints, every solution, counts, comparisons and exports";
    Completions(cli::meta::CompletionsArgs) = "completions",
        "Print a shell completion script for sokuc (bash, zsh, fish, elvish, powershell)";
    Man(cli::meta::ManArgs) = "man",
        "Print sokuc's manual page (roff, for `man -l -`), every subcommand included";
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
    let serving = matches!(parsed.command, Command::Serve(_));
    // Every file the command reads is one it never writes over. The server reads variants
    // for each request and writes no file, so it keeps no such list.
    let inputs = sokuc::output::Inputs::new();
    let result = if serving {
        dispatch(parsed.command)
    } else {
        inputs.record(|| dispatch(parsed.command))
    };
    let code = match result {
        Ok(code) => code,
        Err(e) => cli::failure::report(&e),
    };
    // Everything found before the signal has been written (the interrupt ends a search as a
    // time limit does); the exit code says the command did not run to its end.
    if let Some(signal) = cli::signals::caught() {
        if serving {
            // A server found nothing: it stops, and says so.
            eprintln!("sokuc serve: stopped by {signal}; the page is no longer served");
        } else {
            eprintln!("sokuc: interrupted by {signal}: the output above is what was found before it");
        }
        return ExitCode::from(cli::signals::INTERRUPTED);
    }
    ExitCode::from(code)
}

/// Runs the subcommand.
fn dispatch(command: Command) -> cli::Exit {
    match command {
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
        Command::Man(_) => cli::meta::man(Cli::command()),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    /// clap's own consistency checks, and: every option of every subcommand says what it
    /// does, and `--backend` names the backends of this build.
    #[test]
    fn every_option_has_help() {
        let mut cli = Cli::command();
        cli.clone().debug_assert();
        // The subcommands' options are deferred until the tree is built.
        cli.build();
        let solve = cli.find_subcommand("solve").expect("solve");
        assert!(solve.get_arguments().any(|a| a.get_id() == "backend"));
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
                        "certify" => sokuc::Backend::available()
                            .into_iter()
                            .filter(|b| b.writes_proofs())
                            .map(sokuc::Backend::name)
                            .collect(),
                        _ => sokuc::backends(),
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
