//! The assistant for a 3SoKu puzzle in progress: the tiles a player has placed so far.

use super::solution::Placement;
use crate::Status;

/// What the assistant concluded about the tiles placed so far ([`Assistance::verdict`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Advice {
    /// Every placed tile can stay: a completion keeps them all.
    Completable,
    /// Some tiles must come off, and these are the fewest (proven).
    TakeOff,
    /// Taking these tiles off is enough, but they are not claimed the fewest: the time ran
    /// out first, or the claim was withheld ([`Assistance::claims`] says why).
    TakeOffEnough,
    /// The puzzle has no solution, whatever is placed.
    NoSolution,
    /// No answer within the time limit.
    Unknown,
}

/// The assistant's answer ([`crate::Instance::assist`]): whether the placed tiles can all
/// stay, which to take off if not (the fewest), a verified completion, and a tile to place
/// next.
///
/// ```
/// use sokuc::{Advice, Backend, Instance, Options};
///
/// let icosoku = Instance::icosoku("1,5,11,10,7,12,9,2,6,8,4,3")?;
/// // One tile on the face ABC: the tile (0,1,1), turned so that its 0 touches A.
/// let sat = Options::new().backend(Backend::Sat);
/// let help = icosoku.assist("placed", "ABC: (0,1,1), 0 touches A", &sat)?;
/// assert_eq!(help.placed(), 1);
/// match help.verdict() {
///     Advice::Completable => assert_eq!(help.completion().expect("a completion").len(), 20),
///     Advice::TakeOff => assert_eq!(help.removed(), [0]),
///     other => panic!("{other:?}"),
/// }
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug)]
pub struct Assistance {
    pub(crate) partial: crate::assist::Partial,
    pub(crate) found: crate::assist::Assisted,
}

impl Assistance {
    /// What the assistant concluded.
    pub fn verdict(&self) -> Advice {
        match crate::assist::verdict(&self.found) {
            "completable" => Advice::Completable,
            "take-off" => Advice::TakeOff,
            "take-off-enough" => Advice::TakeOffEnough,
            "no-solution" => Advice::NoSolution,
            _ => Advice::Unknown,
        }
    }

    /// How many tiles were placed.
    pub fn placed(&self) -> usize {
        self.partial.placed.len()
    }

    /// The placed tiles the completion takes off, by their place in the placed list (from
    /// 0, in the order of the text's lines); empty when every one can stay.
    pub fn removed(&self) -> &[usize] {
        &self.found.removed
    }

    /// The completion: a verified solution that keeps every placed tile but those
    /// [`Assistance::removed`] names. `None` when there is none, or none was found in time.
    pub fn completion(&self) -> Option<Vec<Placement>> {
        let s = self.found.answer.solution.as_ref()?;
        Some(super::typed::placements(&self.partial.inst, s))
    }

    /// A tile to place next: on a face not yet placed that shares the most vertices with the
    /// tiles kept, as the completion has it.
    pub fn hint(&self) -> Option<Placement> {
        let h = self.found.hint.as_ref()?;
        super::typed::placements(&self.partial.inst, std::slice::from_ref(h)).pop()
    }

    /// Every claim of the completion's run with what backs it, as
    /// [`crate::Outcome::claims`]: "the fewest" is its optimum, and when it is not claimed
    /// although an engine made it, [`super::evidence::Claim::withheld`] says why.
    pub fn claims(&self) -> Vec<super::evidence::Claim<'_>> {
        self.found
            .answer
            .evidence
            .claims
            .iter()
            .map(super::evidence::Claim::of)
            .collect()
    }

    /// The status of the completion's run: sat with a completion, unsat when the puzzle has
    /// none.
    pub fn status(&self) -> Status {
        self.found.answer.status
    }

    /// What `sokuc check --partial` prints.
    pub fn text(&self) -> String {
        crate::assist::text(&self.partial, &self.found)
    }

    /// The same as JSON (the schema's `assisted` object, as the page's `/api/assist`
    /// answers).
    pub fn json(&self) -> serde_json::Value {
        crate::assist::json(&self.partial, &self.found)
    }

    /// The exit code of `sokuc check --partial`: 0 when every placed tile can stay, 20 when
    /// some must come off (proven) or the puzzle has no solution, 30 when it is not known.
    pub fn exit_code(&self) -> u8 {
        crate::assist::exit_code(&self.found)
    }
}
