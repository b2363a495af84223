//! The component cache: the count of every component already solved, keyed by the component
//! itself, within a byte budget.
//!
//! A key is the component's unassigned variables (sorted) and the ids of its unsatisfied
//! clauses that have a false literal (sorted), packed as gaps (`counter.rs`). Both lists
//! together fix the residual formula exactly: an unsatisfied clause restricted to the
//! unassigned variables is its literals over this component's variables, whatever the rest
//! of the assignment is, and a clause with no literal assigned belongs to the component
//! exactly when its variables do. So two branches of the search that reach the same key
//! have the same count, however they got there.

use num_bigint::BigUint;

use crate::ir::FastMap;

/// Heap bytes the allocator keeps around each boxed key and each big integer's digits
/// (a header and rounding), counted so that the budget is not an underestimate.
const ALLOC_OVERHEAD: u64 = 16;

struct Entry {
    count: BigUint,
    /// When the entry was last used: eviction drops the least recently used half.
    used: u64,
}

/// Bytes of one slot of the table itself (key pointer and length, entry, control byte).
const SLOT: u64 = (size_of::<(Box<[u8]>, Entry)>() + 1) as u64;

pub(super) struct Cache {
    map: FastMap<Box<[u8]>, Entry>,
    /// Bytes of the keys and counts on the heap (not the table's slots).
    payload: u64,
    clock: u64,
    pub hits: u64,
    pub evictions: u64,
    pub peak_bytes: u64,
}

impl Cache {
    pub fn new() -> Cache {
        Cache {
            map: FastMap::default(),
            payload: 0,
            clock: 0,
            hits: 0,
            evictions: 0,
            peak_bytes: 0,
        }
    }

    /// Bytes in use: entries and the table (whose capacity never shrinks here).
    pub fn bytes(&self) -> u64 {
        self.payload + self.map.capacity() as u64 * SLOT
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn get(&mut self, key: &[u8]) -> Option<BigUint> {
        self.clock += 1;
        let e = self.map.get_mut(key)?;
        e.used = self.clock;
        self.hits += 1;
        Some(e.count.clone())
    }

    fn entry_bytes(key: &[u8], count: &BigUint) -> u64 {
        let digits = count.bits().div_ceil(64) * 8;
        key.len() as u64 + digits + 2 * ALLOC_OVERHEAD
    }

    /// Stores a count if it fits in `limit` bytes (evicting older entries to make room);
    /// an entry that cannot fit even in an empty cache is not stored.
    pub fn insert(&mut self, key: Box<[u8]>, count: BigUint, limit: u64) {
        let add = Cache::entry_bytes(&key, &count);
        loop {
            // A full table grows to twice its capacity on this insert, and for a moment
            // holds both tables: count the larger one in advance.
            let cap = self.map.capacity() as u64;
            let table = if self.map.len() as u64 >= cap {
                (3 * cap).max(4) * SLOT
            } else {
                cap * SLOT
            };
            if self.payload + add + table <= limit {
                break;
            }
            if self.map.is_empty() {
                // Even the bare table does not fit: give its memory back and store nothing.
                self.map = FastMap::default();
                return;
            }
            self.evict_half();
        }
        self.clock += 1;
        let used = self.clock;
        let key_bytes = key.len() as u64;
        self.payload += add;
        if let Some(old) = self.map.insert(key, Entry { count, used }) {
            // The same component solved twice (its entry was evicted in between, or it was
            // met again inside its own search): the old entry's bytes are gone.
            self.payload -= key_bytes + old.count.bits().div_ceil(64) * 8 + 2 * ALLOC_OVERHEAD;
        }
        self.peak_bytes = self.peak_bytes.max(self.bytes());
    }

    /// Makes the cache fit in `limit` bytes, dropping entries (least recently used first);
    /// returns whether it fits.
    pub fn shrink_to(&mut self, limit: u64) -> bool {
        while self.bytes() > limit && !self.map.is_empty() {
            self.evict_half();
        }
        if self.bytes() > limit {
            self.map = FastMap::default();
        }
        self.bytes() <= limit
    }

    /// Drops the least recently used half of the entries. Halving (rather than one entry at
    /// a time) keeps eviction's cost amortized: a pass over the table frees half of it.
    fn evict_half(&mut self) {
        let mut stamps: Vec<u64> = self.map.values().map(|e| e.used).collect();
        let mid = stamps.len() / 2;
        let (_, &mut median, _) = stamps.select_nth_unstable(mid);
        let before = self.map.len();
        let mut freed = 0;
        self.map.retain(|k, e| {
            let keep = e.used > median;
            if !keep {
                freed += Cache::entry_bytes(k, &e.count);
            }
            keep
        });
        self.payload -= freed;
        self.evictions += (before - self.map.len()) as u64;
    }
}
