//! Fault injection into enumerations: the lying engine ([`crate::backend::liar`]) through
//! `solve --all`'s whole path ([`AnyPuzzle::enumerate`], text and JSON), with and without
//! `--strict`. What may come of a lie: an internal error (a model that breaks a row, a
//! solution offered twice) with nothing wrong written before it; a claim withheld (no
//! `==========`, `stopped` `withheld`); a contradiction (exit 1); or, solo and without
//! `--strict` only, a claim of completeness whose evidence says it is the liar's word alone.
//! Never a solution written twice, never one that breaks a row, never a false "that is all
//! of them" with nothing to say so.

use std::collections::HashSet;
use std::time::Duration;

use super::{AnyPuzzle, RunError, RunOptions, Stream};
use crate::backend::liar::{Liar, Lie};
use crate::backend::{Ended, SolveOptions, Status};
use crate::pb::PbFile;
use crate::puzzle::evidence::{Backing, ClaimKind, Withheld};

/// Two of four items: six solutions.
fn items() -> PbFile {
    crate::pb::read_opb("items.opb", "* #variable= 4 #constraint= 1\n+1 x1 +1 x2 +1 x3 +1 x4 = 2 ;\n").unwrap()
}

const SOLUTIONS: u64 = 6;

/// What became of a lie.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Came {
    /// An internal error: a wrong model or a repeat, refused.
    Internal,
    /// A second engine's checked solution refutes the claim: exit 1.
    Contradiction,
    /// The claim was withheld (`--strict`, or made after the time limit).
    Withheld,
    /// Solo without `--strict`: the false claim is printed, and its evidence says it is
    /// the liar's word alone.
    WordAlone,
    /// Every solution, and a true claim.
    Honest,
}

/// Runs `lie` through `solve --all` in `stream`, and says what came of it after checking
/// what was written.
fn run(lie: Lie, stream: Stream, strict: bool) -> Came {
    let p = items();
    let opts = super::faults::liar_options(super::faults::liar_limit(lie, Duration::from_millis(50)), strict);
    let at = format!("{lie:?} {stream:?} strict {strict}");
    let mut out: Vec<u8> = Vec::new();
    let r = AnyPuzzle::enumerate(&p, &mut Liar { lie }, &opts, None, stream, &mut out);
    let text = String::from_utf8(out).unwrap();
    // What was written: each solution once, every one a solution.
    let written: Vec<String> = match stream {
        Stream::Text => text
            .split(super::stream::SEPARATOR)
            .filter(|s| s.contains("\nv ") || s.starts_with("v "))
            .map(|s| {
                s.lines()
                    .filter(|l| l.starts_with("v "))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect(),
        Stream::Json => text
            .lines()
            .filter(|l| l.contains("\"solution\":"))
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                assert_eq!(v["verified"], true, "{at}: {l}");
                v["model"].to_string()
            })
            .collect(),
    };
    let distinct: HashSet<&String> = written.iter().collect();
    assert_eq!(distinct.len(), written.len(), "{at}: a solution written twice:\n{text}");
    assert!(written.len() as u64 <= SOLUTIONS, "{at}: {text}");
    let complete_marker = text.lines().any(|l| l == super::stream::COMPLETE);
    let e = match r {
        Err(RunError::Wrong { .. }) => {
            assert!(!complete_marker, "{at}: {text}");
            return Came::Internal;
        }
        Err(e) => panic!("{at}: {e}"),
        Ok(e) => e,
    };
    assert_eq!(e.found, written.len() as u64, "{at}: {text}");
    if stream == Stream::Text {
        // The end marker is written for an accepted claim alone, and it is the last line.
        assert_eq!(complete_marker, e.ended == Ended::Complete, "{at}: {text}");
        if complete_marker {
            assert_eq!(text.lines().last(), Some(super::stream::COMPLETE), "{at}: {text}");
        }
    } else {
        let summary: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(summary["complete"], e.ended == Ended::Complete, "{at}: {summary}");
        assert_eq!(summary["evidence"], serde_json::json!(e.evidence), "{at}");
    }
    if e.contradiction() {
        let exit = crate::api::Enumerated { inner: e.clone() }.exit_code();
        assert_eq!(exit, crate::error::exit::INTERNAL, "{at}: a contradiction is exit 1");
        return Came::Contradiction;
    }
    let claim = e.evidence.claim(ClaimKind::Complete);
    if e.ended == Ended::Complete {
        assert_eq!(e.status, Status::Sat, "{at}");
        if e.found == SOLUTIONS {
            return Came::Honest;
        }
        let c = claim.unwrap_or_else(|| panic!("{at}: a complete end without a claim"));
        assert!(
            !strict && c.by == "liar" && c.backing == Backing::EngineWord,
            "{at}: a false complete stood: {e:?}"
        );
        return Came::WordAlone;
    }
    assert!(e.withheld.is_some(), "{at}: {e:?}");
    assert!(claim.is_some_and(|c| !c.accepted), "{at}: {e:?}");
    Came::Withheld
}

#[test]
fn no_enumeration_lie_reaches_the_output_as_a_claim() {
    let mut table = Vec::new();
    for lie in Liar::ENUMERATION {
        for stream in [Stream::Text, Stream::Json] {
            for strict in [false, true] {
                table.push((lie, stream, strict, run(lie, stream, strict)));
            }
        }
    }
    for &(lie, stream, strict, came) in &table {
        let at = format!("{lie:?} {stream:?} strict {strict}");
        match lie {
            // A repeat and a broken model are never written: internal errors.
            Lie::Duplicate | Lie::BrokenModel => assert_eq!(came, Came::Internal, "{at}"),
            // A false "no more" is the liar's word alone, and --strict's second engine
            // finds what it left out.
            Lie::FalseComplete | Lie::FalseUnique if strict => assert_eq!(came, Came::Contradiction, "{at}"),
            Lie::FalseComplete | Lie::FalseUnique => assert_eq!(came, Came::WordAlone, "{at}"),
            // After the time limit a claim counts for nothing.
            Lie::Late => assert_eq!(came, Came::Withheld, "{at}"),
            _ => {}
        }
    }
}

#[test]
fn a_late_complete_is_withheld_as_late() {
    let p = items();
    let opts = RunOptions {
        solve: SolveOptions {
            time_limit: Some(Duration::from_millis(50)),
            ..SolveOptions::default()
        },
        lp: super::LpMode::Off,
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    let e = AnyPuzzle::enumerate(&p, &mut Liar::late(), &opts, None, Stream::Text, &mut out).unwrap();
    assert_eq!(e.withheld, Some(Withheld::Late));
    assert!(e.evidence.faults.iter().any(|f| f.engine == "liar"));
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("c evidence: complete by liar"), "{text}");
    assert!(text.contains("after the time limit"), "{text}");
    assert!(!text.contains("=========="), "{text}");
}
