//! Interned identifiers. Every name in the IR is a [`Name`]; its text lives once in the [`Interner`].

use cranelift_entity::entity_impl;
use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, SerializeSeq, Serializer};
use std::fmt;

/// An interned identifier (or literal spelling).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Name(u32);
entity_impl!(Name, "name");

/// The string table behind [`Name`]. Interning the same text twice gives the same name.
///
/// Layout (chosen because interning is on the lexer's per-identifier path and a module's interner is cloned from a
/// seed on every compile):
/// - every spelling is appended to one `text` buffer; name `i` is `text[bounds[i]..bounds[i + 1]]` (`bounds`
///   starts with 0 and only grows by appending), so interning a new name allocates nothing per name and a clone is
///   a few `memcpy`s;
/// - `slots` is an open-addressing table (linear probing, power-of-two size, at most half full) of name indices,
///   `EMPTY_SLOT` where free; `hashes[i]` keeps name `i`'s hash, so probing compares a word before any bytes and
///   growing the table never rehashes text.
///
/// Equality, `Debug` and serialization only look at the names in order (a JSON array of strings), never at the
/// table's size. A clone keeps the original's spare room (see [`Interner::reserve`]).
pub struct Interner {
    text: String,
    bounds: Vec<u32>,
    hashes: Vec<u32>,
    slots: Vec<u32>,
}

const EMPTY_SLOT: u32 = u32::MAX;
const MIN_SLOTS: usize = 64;

/// Hash of a spelling: multiply-rotate over little-endian words, the length folded into the last one. Fast for
/// the short spellings that dominate shader text.
#[inline]
fn hash_text(bytes: &[u8]) -> u32 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut hash = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        hash = (hash.rotate_left(5) ^ word).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        hash = (hash.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    (hash >> 32) as u32
}

impl Default for Interner {
    fn default() -> Self {
        Self { text: String::new(), bounds: vec![0], hashes: Vec::new(), slots: vec![EMPTY_SLOT; MIN_SLOTS] }
    }
}

impl Interner {
    /// A new interner where the empty string is [`Interner::EMPTY`].
    pub fn new() -> Self {
        let mut names = Self::default();
        names.intern("");
        names
    }

    /// The empty string, interned first by [`Interner::new`].
    pub const EMPTY: Name = Name(0);

    #[inline]
    fn text_of(&self, index: usize) -> &str {
        let (start, end) = (self.bounds[index] as usize, self.bounds[index + 1] as usize);
        debug_assert!(start <= end && end <= self.text.len());
        // SAFETY: `bounds` only ever records `text.len()` right after a whole `&str` was appended to `text` (see
        // `intern`), and `text` is never truncated, so `start..end` lies inside `text` on character boundaries.
        // This is the resolve path of every name the backends print; the checked slice's boundary tests showed up
        // as a tenth of name resolution.
        unsafe { self.text.get_unchecked(start..end) }
    }

    /// The slot holding `text` (hash `hash`), or the free slot where it would go.
    #[inline]
    fn find(&self, text: &str, hash: u32) -> (usize, Option<u32>) {
        let mask = self.slots.len() - 1;
        let mut slot = hash as usize & mask;
        loop {
            let index = self.slots[slot];
            if index == EMPTY_SLOT {
                return (slot, None);
            }
            if self.hashes[index as usize] == hash && self.text_of(index as usize) == text {
                return (slot, Some(index));
            }
            slot = (slot + 1) & mask;
        }
    }

    pub fn intern(&mut self, text: &str) -> Name {
        let hash = hash_text(text.as_bytes());
        let (slot, found) = self.find(text, hash);
        if let Some(index) = found {
            return Name(index);
        }
        let index = self.hashes.len() as u32;
        self.text.push_str(text);
        self.bounds.push(self.text.len() as u32);
        self.hashes.push(hash);
        self.slots[slot] = index;
        if self.hashes.len() * 2 > self.slots.len() {
            self.grow(self.slots.len() * 2);
        }
        Name(index)
    }

    /// Rebuilds the table with `size` slots (a power of two) from the kept hashes.
    fn grow(&mut self, size: usize) {
        let mut slots = vec![EMPTY_SLOT; size];
        let mask = size - 1;
        for (index, &hash) in self.hashes.iter().enumerate() {
            let mut slot = hash as usize & mask;
            while slots[slot] != EMPTY_SLOT {
                slot = (slot + 1) & mask;
            }
            slots[slot] = index as u32;
        }
        self.slots = slots;
    }

    /// Room for `additional` more names without rehashing (a clone keeps the table's room: a template interner
    /// reserved once makes every clone's first insertions cheap).
    pub fn reserve(&mut self, additional: usize) {
        let wanted = ((self.len() + additional) * 2).next_power_of_two();
        if wanted > self.slots.len() {
            self.grow(wanted);
        }
        self.bounds.reserve(additional);
        self.hashes.reserve(additional);
        self.text.reserve(additional * 8);
    }

    /// The name of `text` if it was interned before.
    pub fn lookup(&self, text: &str) -> Option<Name> {
        self.find(text, hash_text(text.as_bytes())).1.map(Name)
    }

    pub fn resolve(&self, name: Name) -> &str {
        // A Name only comes from this interner, so the index exists.
        let index = name.0 as usize;
        if index < self.len() {
            self.text_of(index)
        } else {
            "<invalid name>"
        }
    }

    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// Every name's text, in name order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.text_of(i))
    }
}

/// `Vec::clone` drops spare capacity; this keeps it, so that a module's interner cloned from a reserved seed takes
/// its first few hundred names without growing any buffer.
impl Clone for Interner {
    fn clone(&self) -> Self {
        fn with_room<T: Copy>(v: &[T], capacity: usize) -> Vec<T> {
            let mut out = Vec::with_capacity(capacity);
            out.extend_from_slice(v);
            out
        }
        let mut text = String::with_capacity(self.text.capacity());
        text.push_str(&self.text);
        Self {
            text,
            bounds: with_room(&self.bounds, self.bounds.capacity()),
            hashes: with_room(&self.hashes, self.hashes.capacity()),
            slots: self.slots.clone(),
        }
    }
}

impl PartialEq for Interner {
    fn eq(&self, other: &Self) -> bool {
        self.bounds == other.bounds && self.text == other.text
    }
}

impl fmt::Debug for Interner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl Serialize for Interner {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for text in self.iter() {
            seq.serialize_element(text)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Interner {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let strings = Vec::<String>::deserialize(deserializer)?;
        let mut names = Interner::default();
        for text in &strings {
            names.intern(text);
        }
        Ok(names)
    }
}
