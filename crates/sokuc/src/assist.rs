//! The assistant for a 3SoKu puzzle in progress (`check --partial`): the tiles a player
//! has placed ([`crate::input::placed`]), solved as a [`Partial`] puzzle through the run
//! path, so that the completion is verified like any solution and "these are the fewest
//! tiles to take off" is an optimum claim with the gate's evidence like any other.

use std::fmt::Write;

use serde_json::{Value, json};

use crate::backend::Backend;
use crate::error::exit;
use crate::input::placed::Placed;
use crate::ir::Status;
use crate::model::{Instance, Placement, rotate};
use crate::puzzle::Answer;
use crate::puzzle::evidence::{ClaimKind, Withheld};
use crate::run::{self, RunOptions};
pub use crate::soku::partial::Partial;
use crate::soku::{VERIFIED, placement_json, push_line, status_line};

/// What the assistant found.
#[derive(Debug, Clone)]
pub struct Assisted {
    /// The run's answer: a completion (verified), or none.
    pub answer: Answer<Vec<Placement>>,
    /// Indices into the placed tiles of those the completion takes off.
    pub removed: Vec<usize>,
    /// The face a player could fill next, and its tile in the completion: a face not yet
    /// placed that shares the most vertices with the player's kept tiles.
    pub hint: Option<Placement>,
    /// The run's figures (model size, times).
    pub stats: crate::backend::SolveStats,
}

/// Runs the assistant: the completion keeping the most placed tiles on backend `b`.
///
/// # Errors
/// The run path's errors (a backend's failure, a wrong answer), and an internal error when
/// the tiles the completion takes off are not as many as its objective value says.
pub fn assist(p: &Partial, b: &mut dyn Backend, opts: &RunOptions) -> Result<Assisted, crate::Error> {
    let outcome = run::solve(p, b, opts)?;
    let stats = outcome.stats;
    let mut answer = outcome.answer;
    let mut removed = Vec::new();
    let mut hint = None;
    if let Some(s) = answer.solution.as_mut() {
        removed = p.removed(s);
        // The objective counts the same tiles from the model's side: a difference is a bug.
        if let Some(last) = answer.improvements.last()
            && *last != num_bigint::BigInt::from(removed.len())
        {
            return Err(crate::Error::internal(format!(
                "the completion takes off {} placed tiles, its objective says {last}",
                removed.len()
            )));
        }
        keep_tile_numbers(&p.inst, &p.placed, &removed, s);
        crate::soku::verify::verify(&p.inst, s)
            .map_err(|e| crate::Error::internal(format!("the completion, renumbered: {e}")))?;
        hint = next_hint(p, &removed, s);
    }
    Ok(Assisted {
        answer,
        removed,
        hint,
        stats,
    })
}

/// Gives each kept tile the number the player gave it: identical tiles are interchangeable,
/// so the completion may have put another of them there. Swaps numbers between two faces
/// whose tiles are the same tile.
fn keep_tile_numbers(inst: &Instance, placed: &[Placed], removed: &[usize], s: &mut [Placement]) {
    for (i, p) in placed.iter().enumerate() {
        if removed.contains(&i) || s[p.face].tile == p.tile {
            continue;
        }
        let Some(g) = s.iter().position(|q| q.tile == p.tile) else {
            continue;
        };
        let mine = s[p.face].tile;
        let (Some(r1), Some(r2)) = (
            turn_of(inst, p.tile, s[p.face].corners),
            turn_of(inst, mine, s[g].corners),
        ) else {
            continue;
        };
        s[p.face].tile = p.tile;
        s[p.face].rotation = r1;
        s[g].tile = mine;
        s[g].rotation = r2;
    }
}

/// The turn of tile `t` that puts `corners` on a face, if any.
fn turn_of(inst: &Instance, t: usize, corners: [u64; 3]) -> Option<u8> {
    (0..3u8).find(|&r| rotate(inst.tiles[t], r) == corners)
}

fn next_hint(p: &Partial, removed: &[usize], s: &[Placement]) -> Option<Placement> {
    let v = &p.inst.variant;
    let kept: Vec<usize> = (0..p.placed.len())
        .filter(|i| !removed.contains(i))
        .map(|i| p.placed[i].face)
        .collect();
    (0..v.num_faces())
        .filter(|f| !kept.contains(f))
        .max_by_key(|&f| {
            let shared = kept
                .iter()
                .map(|&g| v.faces[f].iter().filter(|x| v.faces[g].contains(x)).count())
                .sum::<usize>();
            (shared, std::cmp::Reverse(f))
        })
        .map(|f| s[f].clone())
}

/// The text of an assistant's answer: its verdict line, the tiles to take off, the next
/// hint, and the completion as `solve` prints it (so it can be checked or rendered).
pub fn text(p: &Partial, a: &Assisted) -> String {
    let inst = &p.inst;
    let mut s = String::new();
    let ans = &a.answer;
    match (&ans.solution, ans.status) {
        (Some(sol), _) => {
            let n = p.placed.len();
            if a.removed.is_empty() {
                let _ = writeln!(
                    s,
                    "can be completed: {} placed, {} to go",
                    plural(n, "tile"),
                    inst.variant.num_faces() - n
                );
            } else {
                if ans.optimal == Some(true) {
                    let _ = writeln!(
                        s,
                        "cannot be completed: take off {} (the fewest):",
                        plural(a.removed.len(), "tile")
                    );
                } else {
                    // Without the optimum, nothing says the tiles cannot all stay.
                    let _ = writeln!(
                        s,
                        "unknown: {}; taking off {} is enough:",
                        why_not_fewest(ans),
                        plural(a.removed.len(), "tile")
                    );
                }
                for &i in &a.removed {
                    let q = &p.placed[i];
                    s.push_str("  ");
                    push_line(&mut s, inst, &as_placement(inst, q));
                    s.pop();
                    let _ = writeln!(s, "  (line {})", q.line);
                }
            }
            if let Some(h) = &a.hint {
                s.push_str("next: ");
                push_line(&mut s, inst, h);
            }
            s.push_str(if a.removed.is_empty() {
                "a completion that keeps every placed tile:\n"
            } else {
                "a completion after taking them off:\n"
            });
            s.push_str(&status_line(inst, Status::Sat));
            for q in sol {
                push_line(&mut s, inst, q);
            }
            s.push_str(if ans.verified { VERIFIED } else { "verified: NO\n" });
        }
        (None, Status::Unsat) => {
            let _ = writeln!(
                s,
                "cannot be completed: this puzzle has no solution, whatever tiles are placed"
            );
            if let Some(r) = &ans.reason {
                let _ = writeln!(s, "reason: {r}");
            }
        }
        (None, _) => {
            let _ = writeln!(
                s,
                "unknown: {}",
                ans.reason.as_deref().unwrap_or("no answer within the time limit")
            );
        }
    }
    ans.evidence.push_lines(&mut s, "");
    s
}

/// Why the completion's tiles to take off are not claimed the fewest, in words: the reason
/// the gate withheld the optimum for ([`Withheld`], in the evidence), else that the time
/// ran out before an engine claimed it.
fn why_not_fewest(a: &Answer<Vec<Placement>>) -> &'static str {
    let withheld = a
        .evidence
        .claims
        .iter()
        .filter(|c| c.claim == ClaimKind::Optimum)
        .find_map(|c| c.withheld);
    match withheld {
        Some(Withheld::Strict) => {
            "--strict withheld the claim that these are the fewest, which rests on one engine's word alone"
        }
        Some(Withheld::Late) => "the claim that these are the fewest came after the time limit, so it is withheld",
        Some(Withheld::Contradicted) => "a checked completion contradicts an engine's claim of the fewest",
        None => "not decided within the time limit whether every placed tile can stay",
    }
}

/// What the assistant found, in one word: `completable` (every placed tile can stay),
/// `take-off` (the fewest tiles to take off, proven), `take-off-enough` (tiles whose removal
/// is enough, not claimed the fewest: the time ran out, or the gate withheld the claim, as
/// the evidence says), `no-solution` (the puzzle has none, whatever is placed) or
/// `unknown`.
pub fn verdict(a: &Assisted) -> &'static str {
    match (&a.answer.solution, a.answer.status) {
        (Some(_), _) if a.removed.is_empty() => "completable",
        (Some(_), _) if a.answer.optimal == Some(true) => "take-off",
        (Some(_), _) => "take-off-enough",
        (None, Status::Unsat) => "no-solution",
        (None, _) => "unknown",
    }
}

/// The JSON of an assistant's answer (`check --partial --format json`, `/api/assist`): the
/// verdict, the placed tiles to take off (each with its line), the next tile, and the run's
/// outcome, whose placements are the completion.
pub fn json(p: &Partial, a: &Assisted) -> Value {
    let inst = &p.inst;
    let removed: Vec<Value> = a
        .removed
        .iter()
        .map(|&i| {
            let q = &p.placed[i];
            let mut v = placement_json(inst, &as_placement(inst, q));
            v["line"] = json!(q.line);
            v
        })
        .collect();
    json!({
        "assist": verdict(a),
        "puzzle": "3soku",
        "placed": p.placed.len(),
        "faces": inst.variant.num_faces(),
        "removed": removed,
        "fewest": a.answer.solution.as_ref().map(|_| matches!(verdict(a), "completable" | "take-off")),
        "hint": a.hint.as_ref().map(|h| placement_json(inst, h)),
        // The claims behind `assist` (the fewest, no solution), as the gate recorded them;
        // the same record as the outcome's, at the top where a reader of the verdict looks.
        "evidence": a.answer.evidence,
        "outcome": run::answer_json(p, &a.answer, &a.stats),
    })
}

/// The exit status of an assistant's answer: 0 when every placed tile can stay, 20 when
/// some must come off (proven) or the puzzle has no solution, 30 when it is not known.
pub fn exit_code(a: &Assisted) -> u8 {
    match verdict(a) {
        "completable" => exit::SAT,
        "take-off" | "no-solution" => exit::UNSAT,
        _ => exit::UNKNOWN,
    }
}

/// A placed tile as a placement: the turn of its tile that puts its corners down.
fn as_placement(inst: &Instance, q: &Placed) -> Placement {
    Placement {
        face: q.face,
        tile: q.tile,
        rotation: turn_of(inst, q.tile, q.corners).unwrap_or(0),
        corners: q.corners,
    }
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}
