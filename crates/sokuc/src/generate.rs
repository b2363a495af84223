//! `generate`: puzzle files whose first lines say how they were made, and whose last say
//! what they claim with its evidence, checked before they are written.
//!
//! A generated file starts with the command that makes it again (same seed, same bytes).
//! Every claim a file makes is proven before it is written, and the evidence says how:
//!
//! - a random 3SoKu instance is solvable: its planted arrangement passes the 3SoKu verifier on
//!   the instance as it reads back;
//! - a 4-unsat instance (and a Partition instance of odd total) is unsatisfiable: its
//!   capacities and its tiles add up to different totals, and every weight ends up at exactly
//!   one vertex;
//! - a Partition instance of even total claims nothing about itself (solvable exactly when the
//!   sizes split, which is the reduction's lemma, not a solve), and says so;
//! - a Tricky Triple is unique: after the removals (`tricky::generate`, on one engine's word)
//!   the grid, as it reads back, is solved again through the run path with `--unique`, and
//!   the gate's claim is the file's evidence. A generation stopped by the time limit or the
//!   interrupt, or whose final check does not prove uniqueness, makes no file at all.

use serde_json::{Value, json};

use crate::backend::Backend;
use crate::error::Error;
use crate::input::{InputError, instance_file, lists};
use crate::puzzle::evidence::{Backing, Claim, ClaimKind, Evidence};
use crate::run::RunOptions;
use crate::soku::generate::{self as generator, TileChoice};
use crate::tricky::generate::{self as tricky_generator, Step};

/// Who makes the claims that a construction proves (in the evidence's `by`).
const BY: &str = "generate";

/// What a generation made: the file and the claim it makes with its evidence, or why no
/// file was made.
#[derive(Debug, Clone)]
pub struct Made {
    /// `3soku` or `trickytriple`.
    pub kind: &'static str,
    /// The file; `None` when nothing was made ([`Made::stopped`] says why).
    pub text: Option<String>,
    /// The claim the file makes, proven: `unique` for a Tricky Triple, `sat` or `unsat` for
    /// a 3SoKu instance, none for a Partition instance of even total.
    pub claim: Option<ClaimKind>,
    /// The claims with what backs them (for a Tricky Triple, the final check's, as the
    /// run path's gate recorded them, withheld ones included).
    pub evidence: Evidence,
    /// Why no file was made.
    pub stopped: Option<Stopped>,
    /// A Tricky Triple's givens kept, and the uniqueness checks made.
    pub givens: Option<usize>,
    pub checks: Option<usize>,
}

/// Why a generation made no file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stopped {
    /// The interrupt flag (a signal) was set first.
    Interrupted,
    /// The time limit passed first.
    TimeLimit,
    /// The final check did not prove the grid unique (no answer, or `--strict` withheld
    /// one engine's word): the reason says why.
    Unproven(String),
}

impl Stopped {
    /// Why, in words.
    pub fn words(&self) -> String {
        match self {
            Stopped::Interrupted => "interrupted before uniqueness was proven".into(),
            Stopped::TimeLimit => "the time limit was reached before uniqueness was proven".into(),
            Stopped::Unproven(why) => format!("uniqueness was not proven: {why}"),
        }
    }
}

impl Made {
    /// The document `sokuc generate --format json` prints (`generated` in the schema).
    pub fn json(&self) -> Value {
        json!({
            "status": if self.text.is_some() { "made" } else { "unproven" },
            "kind": self.kind,
            "claim": self.claim,
            "evidence": self.evidence,
            "reason": self.stopped.as_ref().map(Stopped::words),
            "givens": self.givens,
            "checks": self.checks,
            "text": self.text,
        })
    }
}

/// What `generate 3soku` makes.
#[derive(Debug)]
pub struct SokuRequest<'a> {
    pub seed: u64,
    /// A built-in variant name or a variant file.
    pub variant: &'a str,
    pub tiles: Option<&'a str>,
    pub max_weight: u64,
    pub fixed: usize,
    pub fixed_rotation: bool,
    pub from_partition: Option<&'a str>,
    pub random_partition: Option<usize>,
    pub max_size: u64,
    pub four_unsat: bool,
}

/// A 3SoKu instance file, with comments saying how it was made and what it claims.
pub fn soku(a: &SokuRequest) -> Result<Made, Error> {
    let generated_by = |what: String| format!("made by sokuc generate 3soku {what}");
    let (inst, variant_ref, note, planted) = if a.from_partition.is_some() || a.random_partition.is_some() {
        let sizes = match (a.from_partition, a.random_partition) {
            (Some(list), _) => lists::numbers("--from-partition", list, "size")?,
            (None, Some(n)) => {
                if !(1..=50_000).contains(&n) {
                    return Err(
                        InputError::new("--random-partition", None, format!("{n} sizes: give 1 to 50000")).into(),
                    );
                }
                if !(1..=generator::MAX_WEIGHT).contains(&a.max_size) {
                    return Err(InputError::new(
                        "--max-size",
                        None,
                        format!("{}: give 1 to {}", a.max_size, generator::MAX_WEIGHT),
                    )
                    .into());
                }
                generator::random_partition(n, a.max_size, a.seed)
            }
            _ => unreachable!("one of the two is set"),
        };
        let what = if a.from_partition.is_some() {
            "--from-partition"
        } else {
            "--random-partition"
        };
        let mut inst = generator::from_partition(&sizes).map_err(|e| InputError::new(what, None, e.to_string()))?;
        let list: Vec<String> = sizes.iter().map(u64::to_string).collect();
        let total: u64 = sizes.iter().sum();
        inst.source = generated_by(format!("--from-partition {}", list.join(",")));
        let name = inst.variant.name.clone();
        let note = format!(
            "Partition -> 3SoKu (seed 000, Lemma 1): sizes {} (total {total}) as tiles (s,0,0), {} blank tiles, capacity {} at both apices, 0 on the ring; solvable exactly when the sizes split into two halves of equal sum{}",
            list.join(","),
            inst.tiles.len() - sizes.len(),
            total / 2,
            if total % 2 == 1 {
                " (an odd total never does)"
            } else {
                ""
            }
        );
        (inst, name, note, None)
    } else {
        let v = crate::input::variant_file::load_variant(a.variant, None, ("--variant", None))?;
        let tiles = match a.tiles {
            Some(t) => TileChoice::List(lists::tiles("--tiles", t)?),
            None if v.num_faces() == 20 => {
                TileChoice::List(crate::model::builtin::tile_set("icosoku").expect("built in"))
            }
            None => TileChoice::Random {
                max_weight: a.max_weight,
            },
        };
        let fixed = if a.four_unsat && a.fixed == 0 { 4 } else { a.fixed };
        let bad = |e: generator::GenerateError| InputError::new("command line", None, e.to_string());
        let g = if a.four_unsat {
            generator::four_unsat(&v, &tiles, fixed, a.seed).map_err(bad)?
        } else {
            generator::random_solvable(&v, &tiles, fixed, a.fixed_rotation, a.seed).map_err(bad)?
        };
        let mut inst = g.instance;
        let tiles_arg = match (a.tiles, &tiles) {
            (Some(t), _) => format!(" --tiles {t}"),
            (None, TileChoice::Random { max_weight }) => format!(" --max-weight {max_weight}"),
            (None, TileChoice::List(_)) => String::new(),
        };
        inst.source = generated_by(format!(
            "--variant {}{tiles_arg} --seed {}{}{}{}",
            a.variant,
            a.seed,
            if a.four_unsat { " --four-unsat" } else { "" },
            if fixed > 0 {
                format!(" --fixed {fixed}")
            } else {
                String::new()
            },
            if a.fixed_rotation { " --fixed-rotation" } else { "" },
        ));
        // A built-in is referred to by name; a file by its absolute path, so the instance
        // reads back from wherever it is written.
        let variant_ref = if crate::model::builtin::variant_text(a.variant).is_some() {
            a.variant.to_string()
        } else {
            std::fs::canonicalize(a.variant)
                .map_err(|e| InputError::new(a.variant, None, format!("cannot resolve: {e}")))?
                .display()
                .to_string()
        };
        let note = if a.four_unsat {
            format!(
                "4-unsat: capacities from a random arrangement with one raised by 1 (total {} against {} on the tiles), {fixed} tiles fixed with a free turn: unsatisfiable",
                inst.total_capacity(),
                inst.total_weight()
            )
        } else {
            "capacities read off a random arrangement of the tiles: solvable".to_string()
        };
        (inst, variant_ref, note, g.planted)
    };
    // What the file claims and why, decided from the instance's own numbers and solution.
    let (capacity, weight) = totals(&inst);
    let (claim, evidence) = match &planted {
        Some(_) => (
            Some(Claim::new(ClaimKind::Sat, BY, Backing::CheckedModel)),
            "evidence: solvable: the planted arrangement passed the 3SoKu verifier before this file was written"
                .to_string(),
        ),
        None if capacity != weight => {
            let mut c = Claim::new(ClaimKind::Unsat, BY, Backing::Certificate);
            c.certificate = Some("totals");
            let words = format!(
                "evidence: unsatisfiable: the capacities add up to {capacity} and the tiles to {weight}, and every weight ends up at exactly one vertex"
            );
            (Some(c), words)
        }
        None if a.four_unsat => {
            return Err(Error::internal(
                "the 4-unsat instance's capacities add up to its tiles' total",
            ));
        }
        None => (
            None,
            "unproven: whether this instance is solvable is not decided here (the reduction's lemma is no solve): solve it to know".to_string(),
        ),
    };
    let text = format!("{}# {note}\n# {evidence}\n", inst.to_toml(&variant_ref));
    // The file must read back as this instance.
    let back = instance_file::parse_instance("generated", &text, None)
        .map_err(|e| Error::internal(format!("the generated instance does not read back: {e}")))?;
    if back.capacities != inst.capacities || back.tiles != inst.tiles || back.fixed != inst.fixed {
        return Err(Error::internal("the generated instance reads back differently"));
    }
    // The claim holds of the file as it reads back.
    if let Some(planted) = &planted {
        crate::soku::verify::verify(&back, planted)
            .map_err(|e| Error::internal(format!("the planted arrangement does not solve the generated instance: {e}")))?;
    }
    if claim.as_ref().is_some_and(|c| c.claim == ClaimKind::Unsat) && totals(&back) != (capacity, weight) {
        return Err(Error::internal("the generated instance's totals read back differently"));
    }
    Ok(Made {
        kind: "3soku",
        text: Some(text),
        claim: claim.as_ref().map(|c| c.claim),
        evidence: Evidence {
            claims: claim.into_iter().collect(),
            ..Evidence::default()
        },
        stopped: None,
        givens: None,
        checks: None,
    })
}

/// The capacities' total and the tiles', exactly: a solution places every weight at one
/// vertex, so a solvable instance has the two equal.
fn totals(inst: &crate::model::Instance) -> (u128, u128) {
    let capacity = inst.capacities.iter().map(|&c| u128::from(c)).sum();
    let weight = inst.tiles.iter().flatten().map(|&w| u128::from(w)).sum();
    (capacity, weight)
}


/// What `generate trickytriple` makes.
#[derive(Debug, Clone, Copy)]
pub struct TrickyRequest {
    /// The side of the square grid.
    pub size: usize,
    pub seed: u64,
    /// The percentage of black cells.
    pub black: u32,
}

/// A Tricky Triple of `size` x `size` with exactly one solution, proven.
///
/// The givens are removed on `checker`'s word (`tricky::generate`, within the time limit and
/// the interrupt of `run.solve`); the grid, as its text reads back, is then solved once more
/// on `backend` through the run path with `--unique` (and `run.strict`), and only an accepted
/// uniqueness claim makes a file, whose header carries the claim's evidence. A stopped
/// generation, or a final check without that claim, makes no file; a final check that finds
/// a second solution is an error (the checks were wrong). `at` is called at each [`Step`].
///
/// # Errors
///
/// [`Error::Input`] for a size or share of black cells out of range; [`Error::Limit`] for a
/// model past the memory limit; [`Error::Internal`] when a solution does not verify, the
/// file does not read back, or the final check contradicts the removals.
pub fn tricky(
    req: TrickyRequest,
    run: &RunOptions,
    backend: &mut dyn Backend,
    checker: &mut dyn Backend,
    at: &mut dyn FnMut(Step),
) -> Result<Made, Error> {
    let TrickyRequest { size, seed, black } = req;
    if !(3..=200).contains(&size) {
        return Err(InputError::new("--size", None, format!("{size} is not a size from 3 to 200")).into());
    }
    if black > 50 {
        return Err(InputError::new("--black", None, "at most 50 percent black cells").into());
    }
    let deadline = run.solve.deadline();
    let stopped = |checks: usize, evidence: Evidence, why: Option<String>| Made {
        kind: "trickytriple",
        text: None,
        claim: None,
        evidence,
        stopped: Some(if deadline.interrupted() {
            Stopped::Interrupted
        } else if deadline.passed() {
            Stopped::TimeLimit
        } else {
            Stopped::Unproven(why.unwrap_or_else(|| "the engine that finds the solution gave no answer".into()))
        }),
        givens: None,
        checks: Some(checks),
    };
    let g = match tricky_generator::generate(size, size, seed, black, checker, &run.solve, at)? {
        tricky_generator::Made::Done(g) => g,
        tricky_generator::Made::Stopped { checks } => return Ok(stopped(checks, Evidence::default(), None)),
    };
    crate::tricky::verify::verify(&g.puzzle, &g.solution)
        .map_err(|e| Error::internal(format!("generated solution is wrong: {e}")))?;
    let grid = g.puzzle.render(&vec![vec![None; size]; size]);
    // The grid as the file holds it: what the final check solves.
    let back = crate::tricky::Tricky::parse("generated", &grid)
        .map_err(|e| Error::internal(format!("the generated grid does not read back: {e}")))?;
    if back.cells != g.puzzle.cells {
        return Err(Error::internal("the generated grid reads back differently"));
    }
    let opts = RunOptions {
        unique: true,
        ..run.clone()
    };
    let a = crate::run::solve(&back, backend, &opts)?.answer;
    let unique = a
        .evidence
        .claim(ClaimKind::Unique)
        .is_some_and(|c| c.accepted);
    match (a.status, a.unique) {
        (crate::ir::Status::Sat, Some(true)) if unique => {}
        (crate::ir::Status::Sat, Some(false)) => {
            return Err(Error::internal(format!(
                "the uniqueness checks on {} were wrong: {} found a second solution of the generated grid",
                checker.name(),
                a.backend
            )));
        }
        (crate::ir::Status::Unsat, _) => {
            return Err(Error::internal(format!(
                "{} found no solution of a generated grid whose solution verifies",
                a.backend
            )));
        }
        _ => {
            let why = a
                .reason
                .clone()
                .unwrap_or_else(|| "the final check did not decide it".into());
            return Ok(stopped(g.checks, a.evidence, Some(why)));
        }
    }
    if a.solution.as_ref() != Some(&g.solution) {
        return Err(Error::internal(
            "the final check's unique solution is not the generator's",
        ));
    }
    let mut text = format!(
        "# Tricky Triple {size}x{size} made by sokuc generate (seed {seed}, {black}% black cells)\n# {} givens kept after {} uniqueness checks\n",
        g.givens, g.checks,
    );
    a.evidence.push_lines(&mut text, "# ");
    text.push_str(&grid);
    Ok(Made {
        kind: "trickytriple",
        text: Some(text),
        claim: Some(ClaimKind::Unique),
        evidence: a.evidence,
        stopped: None,
        givens: Some(g.givens),
        checks: Some(g.checks),
    })
}
