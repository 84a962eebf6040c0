//! The transposition table: a fixed number of slots, each with the position's key, the score,
//! the kind of bound, the depth searched and the best move (its index in the position's
//! move list, which the generator gives in a fixed order). Always-replace, with a depth
//! preference within a bucket of two.

/// What a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The exact value.
    Exact,
    /// At least this (a cut-off).
    Lower,
    /// At most this (no move raised alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub key: u64,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The best move's index in the move list, `u8::MAX` for none.
    pub best: u8,
}

/// An entry as kept: 16 bytes (scores fit 16 bits, depths 8).
#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    score: i16,
    depth: i8,
    bound: u8,
    best: u8,
}

const EMPTY: Slot = Slot {
    key: 0,
    score: 0,
    depth: -1,
    bound: 2,
    best: u8::MAX,
};

impl Slot {
    fn of(e: Entry) -> Slot {
        Slot {
            key: e.key,
            score: e.score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth: e.depth.clamp(0, 127) as i8,
            bound: match e.bound {
                Bound::Exact => 0,
                Bound::Lower => 1,
                Bound::Upper => 2,
            },
            best: e.best,
        }
    }

    fn entry(self) -> Entry {
        Entry {
            key: self.key,
            score: i32::from(self.score),
            depth: i32::from(self.depth),
            bound: match self.bound {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: self.best,
        }
    }
}

/// The table.
pub(crate) struct Table {
    slots: Vec<Slot>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` slots.
    pub(crate) fn new(bits: u32) -> Table {
        let n = 1usize << bits.clamp(4, 30);
        Table {
            slots: vec![EMPTY; n],
            mask: n - 2,
        }
    }

    /// The entry of a key, if stored.
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let i = (key as usize) & self.mask;
        self.slots[i..i + 2]
            .iter()
            .find(|e| e.key == key && e.depth >= 0)
            .map(|s| s.entry())
    }

    /// Stores an entry: over the same key, else over the shallower of the bucket's two.
    pub(crate) fn store(&mut self, e: Entry) {
        let i = (e.key as usize) & self.mask;
        let bucket = &mut self.slots[i..i + 2];
        let j = if bucket[0].key == e.key || bucket[1].key == e.key {
            usize::from(bucket[0].key != e.key)
        } else if bucket[0].depth <= bucket[1].depth {
            0
        } else {
            1
        };
        bucket[j] = Slot::of(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_takes_sixteen_bytes_and_keeps_scores_and_depths() {
        assert_eq!(std::mem::size_of::<Slot>(), 16);
        let e = Entry {
            key: 9,
            score: -29_990,
            depth: 37,
            bound: Bound::Lower,
            best: 3,
        };
        assert_eq!(Slot::of(e).entry(), e);
    }

    #[test]
    fn a_stored_entry_is_found_by_its_key_and_the_deeper_one_is_kept() {
        let mut t = Table::new(8);
        let e = |key, depth| Entry {
            key,
            score: 7,
            depth,
            bound: Bound::Exact,
            best: 1,
        };
        t.store(e(0x100, 5));
        assert_eq!(t.probe(0x100), Some(e(0x100, 5)));
        assert_eq!(t.probe(0x200), None);
        // same bucket (same low bits): both fit, a third replaces the shallower
        t.store(e(0x1100, 3));
        assert!(t.probe(0x100).is_some() && t.probe(0x1100).is_some());
        t.store(e(0x2100, 4));
        assert!(t.probe(0x100).is_some());
        assert!(t.probe(0x1100).is_none());
        assert!(t.probe(0x2100).is_some());
    }
}
