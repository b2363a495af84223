//! The registry of backends by their command-line names: the engines ([`crate::engines`])
//! and `auto`, the portfolio ([`crate::portfolio`]). It is apart from the backend trait so
//! that the portfolio, which uses the trait, never uses a file that uses it back.

use crate::contract::Backend;
use crate::{engines, portfolio};

/// The backends of this build that have `feature`, so that a refusal can say what works.
pub fn supporting(name: &str) -> Vec<&'static str> {
    available()
        .into_iter()
        .filter(|n| by_name(n).is_some_and(|b| b.capabilities().has(name)))
        .collect()
}

/// Names accepted by `--backend` in this build, in the order `compare` runs them.
pub fn available() -> Vec<&'static str> {
    let mut v = vec!["sat"];
    if cfg!(feature = "cadical") {
        v.push("cadical");
    }
    if cfg!(feature = "mip") {
        v.push("mip");
    }
    if cfg!(feature = "highs") {
        v.push("highs");
    }
    v.push("cp");
    v.push("mitm");
    v.push("search");
    v
}

/// Engines for one narrow kind of formula, which refuse most others by design: accepted by
/// name, and left out of [`general`].
pub const SPECIALISED: [&str; 1] = ["mitm"];

/// The backends of this build that take any formula: those `compare` runs when none are
/// named, and the web page offers ([`available`] without `SPECIALISED`).
pub fn general() -> Vec<&'static str> {
    available().into_iter().filter(|n| !SPECIALISED.contains(n)).collect()
}

/// A `--backend` name this build does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnknownBackend {
    /// A backend behind a cargo feature this build was made without.
    #[error(
        "backend {name:?} is not compiled into this build (it has: {available}); build with `cargo build --release --features {feature}` or `--all-features`"
    )]
    NotCompiled {
        name: String,
        feature: &'static str,
        available: String,
    },
    #[error("unknown backend {name:?} (this build has: {available})")]
    Unknown { name: String, available: String },
}

/// A backend by name, or why there is none.
pub fn lookup(name: &str) -> Result<Box<dyn Backend>, UnknownBackend> {
    by_name(name).ok_or_else(|| {
        let available = available().join(", ");
        let feature = match name {
            "cadical" => Some("cadical"),
            "mip" | "cbc" => Some("mip"),
            "highs" => Some("highs"),
            _ => None,
        };
        match feature {
            Some(feature) => UnknownBackend::NotCompiled {
                name: name.to_string(),
                feature,
                available,
            },
            None => UnknownBackend::Unknown {
                name: name.to_string(),
                available,
            },
        }
    })
}

/// Creates a backend by its command-line name: an engine ([`engines::engine`]) or `auto`.
pub fn by_name(name: &str) -> Option<Box<dyn Backend>> {
    match name {
        "auto" => Some(Box::new(portfolio::auto::Auto::default())),
        _ => engines::engine(name),
    }
}
