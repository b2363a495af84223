//! The engines of this build by name, without the portfolio: what `auto` and its race look
//! engines up in, so that the portfolio depends on the engines and never on the registry
//! that also holds it ([`crate::by_name`], which adds `auto`).

use crate::contract::Backend;
use crate::{cp, mitm, sat::varisat, search};

/// The engine called `name` (a `--backend` name other than `auto`), if this build has it.
pub fn engine(name: &str) -> Option<Box<dyn Backend>> {
    match name {
        "sat" | "varisat" => Some(Box::new(varisat::Varisat)),
        #[cfg(feature = "cadical")]
        "cadical" => Some(Box::new(crate::sat::cadical::Cadical)),
        #[cfg(feature = "mip")]
        "mip" | "cbc" => Some(Box::new(crate::mip::cbc::Mip)),
        #[cfg(feature = "highs")]
        "highs" => Some(Box::new(crate::mip::highs::Highs)),
        "cp" | "pumpkin" => Some(Box::new(cp::Cp::default())),
        "mitm" => Some(Box::new(mitm::Mitm::default())),
        "search" => Some(Box::new(search::Search)),
        _ => None,
    }
}

/// The kind of search an engine does: two engines of one kind share their blind spots, so a
/// confirmation counts only from another kind (the CDCL engines `sat` and `cadical` are one
/// kind, CBC and HiGHS another; every other engine is a kind of its own).
pub fn kind(name: &str) -> &str {
    match name {
        "sat" | "varisat" | "cadical" => "cdcl",
        "mip" | "cbc" | "highs" => "mip",
        other => other,
    }
}
