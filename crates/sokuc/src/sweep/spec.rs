//! What a sweep covers: the variant, tiles and capacity multiset ([`Spec`]), and how its
//! canonical instances are split into blocks and shards: `--shard K/N` takes the blocks of
//! [`DEFAULT_BLOCK`] (64, `--block`) consecutive canonical instances whose block number is K
//! modulo N, and `sokuc sweep-merge` puts the shards together again (`merge.rs`).

use super::records::MAGIC;
use super::symmetry::{automorphisms, closed_under_mirroring};
use crate::input::Problem;
use crate::model::{Instance, Variant, tiles::Tile};

/// What is swept: a variant, a tile multiset and a capacity multiset.
#[derive(Debug, Clone)]
pub struct Spec {
    pub variant: Variant,
    pub tiles: Vec<Tile>,
    /// The capacity multiset, ascending.
    pub multiset: Vec<u64>,
    /// Pool mode (Liu's ADTS): `tiles` are types each available at most once, and faces
    /// take any of them; records name pool types instead of tiles.
    pub pool: bool,
}

impl Spec {
    pub fn new(variant: Variant, tiles: Vec<Tile>, mut multiset: Vec<u64>) -> Spec {
        multiset.sort_unstable();
        Spec {
            variant,
            tiles,
            multiset,
            pool: false,
        }
    }

    pub fn pool_instance(&self, caps: &[u64]) -> crate::pool::PoolInstance {
        crate::pool::PoolInstance {
            source: "sweep".to_string(),
            variant: self.variant.clone(),
            pool: self.tiles.iter().map(|&t| crate::pool::PoolType::once(t)).collect(),
            pegs: crate::pool::Pegs::Fixed(caps.to_vec()),
        }
    }

    /// Rotations always; reflections too when the tiles are their own mirror image.
    pub fn group(&self) -> Vec<super::symmetry::Perm> {
        automorphisms(&self.variant, closed_under_mirroring(&self.tiles))
    }

    pub fn instance(&self, caps: &[u64]) -> Instance {
        Instance {
            source: "sweep".into(),
            variant: self.variant.clone(),
            capacities: caps.to_vec(),
            tiles: self.tiles.clone(),
            fixed: Vec::new(),
        }
    }

    pub(crate) fn join<T: ToString>(xs: impl IntoIterator<Item = T>, sep: &str) -> String {
        xs.into_iter().map(|x| x.to_string()).collect::<Vec<_>>().join(sep)
    }

    /// The header line: everything that determines the list of instances and its split.
    pub fn header(&self, group: usize, shard: Shard, block: u64, total: u64, limit: Option<usize>) -> String {
        let v = &self.variant;
        let faces = Self::join(v.faces.iter().map(|f| Self::join(f.iter(), ".")), ",");
        format!(
            "{MAGIC} variant={} vertices={} faces={} {}={} caps={} symmetries={} block={} shard={}/{} total={} limit={}",
            v.name,
            v.vertices.join(","),
            faces,
            if self.pool { "pool" } else { "tiles" },
            Self::join(self.tiles.iter().map(|t| Self::join(t.iter(), ".")), ","),
            Self::join(self.multiset.iter(), ","),
            group,
            block,
            shard.k,
            shard.n,
            total,
            limit.map_or("none".to_string(), |l| l.to_string()),
        )
    }
}

/// How many consecutive canonical instances form a block, by default. Blocks are the unit of
/// sharding and of phase reuse: the search engine starts each block afresh and then carries
/// each solution over to the next instance as its first guess, so an instance's answer
/// depends only on its block, never on threads, shards or where a run was resumed.
pub const DEFAULT_BLOCK: u64 = 64;

/// `K/N`: this run takes the blocks of canonical instances whose block number is K modulo N.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    pub const ALL: Shard = Shard { k: 0, n: 1 };

    /// Whether instance `index` is in this shard, with blocks of `block` instances.
    pub fn owns(&self, index: u64, block: u64) -> bool {
        (index / block) % self.n == self.k
    }

    pub fn parse(s: &str) -> Result<Shard, Problem> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("--shard {s:?}: expected K/N"))?;
        let k: u64 = k
            .trim()
            .parse()
            .map_err(|_| format!("--shard {s:?}: K is not a number"))?;
        let n: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("--shard {s:?}: N is not a number"))?;
        if n == 0 || k >= n {
            return Err(format!("--shard {s:?}: need 0 <= K < N").into());
        }
        Ok(Shard { k, n })
    }
}
