//! How the encoder is asked to work: the encoding of linear rows and the limits.

use crate::budget::memory::DEFAULT_MAX_MEMORY;

/// How linear and cardinality rows become clauses (clauses stay as they are; at-most-one and
/// exactly-one groups get their own encodings in every case). The guide's "Encodings" page
/// and `encodings/` describe each.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PbEncoding {
    /// Per row, from size estimates: `domain` while it fits half the clause budget left
    /// (every puzzle row), else `bdd` while its diagram is small, else `adder`
    /// (encodings/pb-large.md).
    #[default]
    Auto,
    /// Domain-aware: terms that share an exactly-one/at-most-one group become one small
    /// integer (order-encoded "weight at this corner"), then a running unary sum.
    Domain,
    /// Generic sequential weight counter over the raw literals.
    Swc,
    /// Generic generalized totalizer (balanced tree of unary adders) over the raw literals.
    Totalizer,
    /// Reduced ordered BDD with interval memoisation (arc consistent, may be exponential).
    Bdd,
    /// Binary adder network and comparator (polynomial in the coefficients' bits).
    Adder,
}

impl PbEncoding {
    /// Every encoding, `Auto` first.
    pub const ALL: [PbEncoding; 6] = [
        PbEncoding::Auto,
        PbEncoding::Domain,
        PbEncoding::Swc,
        PbEncoding::Totalizer,
        PbEncoding::Bdd,
        PbEncoding::Adder,
    ];

    /// The name `--pb-encoding` takes.
    pub fn name(self) -> &'static str {
        match self {
            PbEncoding::Auto => "auto",
            PbEncoding::Domain => "domain",
            PbEncoding::Swc => "swc",
            PbEncoding::Totalizer => "totalizer",
            PbEncoding::Bdd => "bdd",
            PbEncoding::Adder => "adder",
        }
    }
}

/// Default clause budget of one encoding. Measured: 50M short clauses took 4.3 GB in varisat
/// (sequential counter on large weights), so 20M keeps a solve under about 2 GB.
pub const DEFAULT_MAX_CLAUSES: u64 = 20_000_000;

#[derive(Debug, Clone, Copy)]
pub struct EncodeOptions {
    pub pb: PbEncoding,
    /// Give up (with [`EncodeError::TooLarge`](super::EncodeError::TooLarge)) rather than
    /// write more clauses than this.
    pub max_clauses: u64,
    /// The memory limit of the process, in bytes (`--max-memory`): a model whose estimated
    /// size (with what is already in use) exceeds it is refused with
    /// [`EncodeError::Memory`](super::EncodeError::Memory). Every backend honours it, not
    /// only the CNF ones.
    pub max_memory: u64,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            pb: PbEncoding::default(),
            max_clauses: DEFAULT_MAX_CLAUSES,
            max_memory: DEFAULT_MAX_MEMORY,
        }
    }
}
