//! Interned identifiers. Every name in the IR is a [`Name`]; its text lives once in the [`Interner`].

use cranelift_entity::entity_impl;
use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, SerializeSeq, SerializeStruct, Serializer};
use std::fmt;

/// An interned identifier (or literal spelling).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Name(u32);
entity_impl!(Name, "name");

/// The string table behind [`Name`]. Interning the same text twice gives the same name.
///
/// Layout (chosen because interning is on the lexer's per-identifier path and a module's interner starts as a copy
/// of a seed on every compile, see [`InternerSeed`]):
/// - every spelling is appended to one `text` buffer, and `entries[i]` records where name `i` lies in it along with
///   its first eight bytes (`head`), so interning a new name allocates nothing per name and a clone is a few
///   `memcpy`s;
/// - `slots` is an open-addressing table (linear probing, power-of-two size, at most half full) of name indices,
///   `EMPTY_SLOT` where free. A lookup of a spelling of at most eight bytes (most identifiers) compares one head
///   word and a length per probe, never the text; longer ones also compare their last eight bytes. Hashes are not
///   kept (a module's interner is copied from a seed on every compile, and four more bytes per name cost more to
///   copy than the rare growth of the table, which hashes every name again, costs).
///
/// Equality, `Debug` and serialization only look at the names in order (`{"strings": [...]}`, in name order), never at the
/// table's size. A clone keeps the original's spare room (see [`Interner::reserve`]).
pub struct Interner {
    text: String,
    entries: Vec<Entry>,
    slots: Vec<u32>,
}

/// Where one name's spelling lies in [`Interner::text`], and its first eight bytes (see [`head_of`]).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Entry {
    head: u64,
    start: u32,
    len: u32,
}

/// A free slot (four billion names do not fit in memory, so no name has this index).
const EMPTY_SLOT: u32 = u32::MAX;
const MIN_SLOTS: usize = 64;

/// The first eight bytes of a spelling, zero-padded, as a little-endian word. Two spellings of at most eight
/// bytes are equal exactly when their heads and lengths are.
#[inline]
fn head_of(bytes: &[u8]) -> u64 {
    if let Some(word) = bytes.first_chunk::<8>() {
        return u64::from_le_bytes(*word);
    }
    // Shorter: two overlapping loads cover every byte; the second is shifted to where its bytes belong (the bytes
    // both loads hold are equal, so or-ing them in twice changes nothing).
    let len = bytes.len();
    if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        return u64::from(u32::from_le_bytes(*first)) | u64::from(u32::from_le_bytes(*last)) << (8 * (len - 4));
    }
    if let (Some(first), Some(last)) = (bytes.first_chunk::<2>(), bytes.last_chunk::<2>()) {
        return u64::from(u16::from_le_bytes(*first)) | u64::from(u16::from_le_bytes(*last)) << (8 * (len - 2));
    }
    bytes.first().map_or(0, |&b| u64::from(b))
}

/// The eight bytes of `bytes` at `at` as a word (0 past the end: callers only ask for words inside).
#[inline(always)]
fn word_at(bytes: &[u8], at: usize) -> u64 {
    bytes.get(at..at + 8).and_then(|w| w.first_chunk::<8>()).map_or(0, |w| u64::from_le_bytes(*w))
}

/// Hash of a spelling: its head and length, then (past eight bytes) its last eight bytes, which covers every byte
/// of a spelling of up to sixteen; longer ones also mix in their middle words (whole words from byte eight, the
/// last one overlapping the tail's), so that no family of inputs (same start, end and length) can pile onto one
/// hash and make lookups quadratic.
#[inline]
fn hash_text(bytes: &[u8], head: u64) -> u32 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let len = bytes.len();
    let mut hash = (head ^ (len as u64).rotate_left(56)).wrapping_mul(K);
    // One test of the length first (most identifiers are at most eight bytes long): testing `last_chunk` and the
    // length together compiled to a chain of flag computations on every lookup.
    if len > 8 {
        if let Some(tail) = bytes.last_chunk::<8>() {
            hash = (hash.rotate_left(5) ^ u64::from_le_bytes(*tail)).wrapping_mul(K);
        }
        if len > 16 {
            let mut at = 8;
            while at < len - 16 {
                hash = (hash.rotate_left(5) ^ word_at(bytes, at)).wrapping_mul(K);
                at += 8;
            }
            hash = (hash.rotate_left(5) ^ word_at(bytes, len - 16)).wrapping_mul(K);
        }
    }
    (hash >> 32) as u32
}

impl Default for Interner {
    fn default() -> Self {
        Self { text: String::new(), entries: Vec::new(), slots: vec![EMPTY_SLOT; MIN_SLOTS] }
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
        let entry = self.entries[index];
        let (start, end) = (entry.start as usize, entry.start as usize + entry.len as usize);
        debug_assert!(start <= end && end <= self.text.len());
        // SAFETY: an entry only ever records the position of a whole `&str` right after it was appended to `text`
        // (see `insert`), and `text` is only ever cut together with the entries past the cut (see `truncate`), so
        // `start..end` lies inside `text` on character boundaries. This is the resolve path of every name the
        // backends print; the checked slice's boundary tests showed up as a tenth of name resolution.
        unsafe { self.text.get_unchecked(start..end) }
    }

    /// Whether `entry`, whose head equals `bytes`'s, is `bytes`: same length, and for spellings longer than
    /// eight bytes the same last eight bytes (up to sixteen bytes that covers everything) or the same text.
    #[inline(always)]
    fn same_rest(&self, entry: Entry, bytes: &[u8]) -> bool {
        let len = bytes.len();
        if entry.len as usize != len {
            return false;
        }
        if len <= 8 {
            return true;
        }
        let start = entry.start as usize;
        let Some(stored) = self.text.as_bytes().get(start..start + len) else {
            return false;
        };
        if len <= 16 {
            return stored[len - 8..] == bytes[len - 8..];
        }
        // Longer (one name in nine in PBR.gs): word by word, the last two words first, then the middle from byte
        // eight (the head was compared already); words may overlap. A call to the library's compare and the
        // register saves around it cost more than the three or four words of a long name.
        if word_at(stored, len - 8) != word_at(bytes, len - 8) || word_at(stored, len - 16) != word_at(bytes, len - 16)
        {
            return false;
        }
        let mut at = 8;
        while at < len - 16 {
            if word_at(stored, at) != word_at(bytes, at) {
                return false;
            }
            at += 8;
        }
        true
    }

    /// The index of `bytes` (head `head`, hash `hash`), or the free slot where it would go.
    #[inline(always)]
    fn find(&self, bytes: &[u8], head: u64, hash: u32) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut slot = hash as usize & mask;
        loop {
            let index = self.slots[slot];
            if index == EMPTY_SLOT {
                return Err(slot);
            }
            if let Some(&entry) = self.entries.get(index as usize) {
                if entry.head == head && self.same_rest(entry, bytes) {
                    return Ok(index);
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Inlined everywhere: the lexer calls it once per identifier, and the call's register saves and restores
    /// cost as much as a lookup that finds a short name.
    #[inline(always)]
    pub fn intern(&mut self, text: &str) -> Name {
        self.intern_range(text, 0, text.len())
    }

    /// [`Interner::intern`] of `text[start..end]`. The lookup compares the bytes of the range, and only a new
    /// name slices `text` as a `str` (whose two character-boundary tests cost about as much as hashing a short
    /// name): the lexer interns every identifier this way, and finds most of them. Bytes equal to an interned
    /// spelling are valid UTF-8 and so lie on `text`'s character boundaries; a new range that does not (the
    /// lexer never asks for one) is interned as its lossy UTF-8 reading, an out-of-bounds one as the empty text.
    #[inline(always)]
    pub fn intern_range(&mut self, text: &str, start: usize, end: usize) -> Name {
        let Some(bytes) = text.as_bytes().get(start..end) else {
            return self.intern_invalid(text, start, end);
        };
        let head = head_of(bytes);
        let hash = hash_text(bytes, head);
        match self.find(bytes, head, hash) {
            Ok(index) => Name(index),
            Err(slot) => self.insert_range(text, start, end, head, slot),
        }
    }

    /// Adds `text[start..end]` (not interned yet, head `head`) as a new name in the free slot `slot`. Kept out of
    /// line: the lexer interns once per identifier and finds most of them.
    #[inline(never)]
    fn insert_range(&mut self, text: &str, start: usize, end: usize, head: u64, slot: usize) -> Name {
        match text.get(start..end) {
            Some(spelled) => self.insert(spelled, head, slot),
            None => self.intern_invalid(text, start, end),
        }
    }

    /// [`Interner::intern_range`] of a range that is not a `str` of `text` (see there).
    #[cold]
    #[inline(never)]
    fn intern_invalid(&mut self, text: &str, start: usize, end: usize) -> Name {
        let bytes = text.as_bytes().get(start..end).unwrap_or_default();
        self.intern(&String::from_utf8_lossy(bytes))
    }

    /// Adds `text` (not interned yet, head `head`) as a new name in the free slot `slot`.
    #[inline(always)]
    fn insert(&mut self, text: &str, head: u64, slot: usize) -> Name {
        let index = self.entries.len() as u32;
        self.entries.push(Entry { head, start: self.text.len() as u32, len: text.len() as u32 });
        self.text.push_str(text);
        self.slots[slot] = index;
        if self.entries.len() * 2 > self.slots.len() {
            self.grow(self.slots.len() * 2);
        }
        Name(index)
    }

    /// Rebuilds the table with `size` slots (a power of two), hashing every name again.
    fn grow(&mut self, size: usize) {
        let mut slots = vec![EMPTY_SLOT; size];
        let mask = size - 1;
        for index in 0..self.len() {
            let bytes = self.text_of(index).as_bytes();
            let mut slot = hash_text(bytes, self.entries[index].head) as usize & mask;
            while slots[slot] != EMPTY_SLOT {
                slot = (slot + 1) & mask;
            }
            slots[slot] = index as u32;
        }
        self.slots = slots;
    }

    /// Room for `additional` more names without rehashing (a clone keeps the table's room).
    pub fn reserve(&mut self, additional: usize) {
        let wanted = slots_for(self.len(), additional);
        if wanted > self.slots.len() {
            self.grow(wanted);
        }
        self.entries.reserve(additional);
        self.text.reserve(additional * 8);
    }

    /// Room for `total` names in all without rehashing: unlike [`Interner::reserve`], asking again as names are
    /// added changes nothing once the room is there.
    pub fn reserve_total(&mut self, total: usize) {
        if let Some(additional) = total.checked_sub(self.len()) {
            self.reserve(additional);
        }
    }

    /// The name of `text` if it was interned before.
    pub fn lookup(&self, text: &str) -> Option<Name> {
        let bytes = text.as_bytes();
        let head = head_of(bytes);
        self.find(bytes, head, hash_text(bytes, head)).ok().map(Name)
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
        self.entries.len()
    }

    /// Forgets the names from index `len` on (those interned since [`Interner::len`] was `len`), as if they had
    /// never been interned: the lexer, when it meets a line continuation, reads the text again with its lines
    /// joined, and the pieces of a joined word it interned on the first reading must not stay behind (a name that
    /// merely exists changes which fresh names the backends pick). The caller holds no [`Name`] of those.
    pub fn truncate(&mut self, len: usize) {
        let Some(&first_gone) = self.entries.get(len) else { return };
        self.text.truncate(first_gone.start as usize);
        self.entries.truncate(len);
        // Rare (once per text with a continuation): the table is rebuilt rather than the names taken out of it.
        self.grow(self.slots.len());
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every name's text, in name order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.text_of(i))
    }
}

/// `Vec::clone` drops spare capacity; this keeps it, so that a clone of a reserved interner takes its first names
/// without growing any buffer. (The frontend starts each module from an [`InternerSeed`] instead, which sizes the
/// copy for its text.)
impl Clone for Interner {
    fn clone(&self) -> Self {
        fn with_room<T: Copy>(v: &[T], capacity: usize) -> Vec<T> {
            let mut out = Vec::with_capacity(capacity);
            out.extend_from_slice(v);
            out
        }
        let mut text = String::with_capacity(self.text.capacity());
        text.push_str(&self.text);
        Self { text, entries: with_room(&self.entries, self.entries.capacity()), slots: self.slots.clone() }
    }
}

/// An interner that many interners start as a copy of (the frontend's keywords and builtin type names), with its
/// slot table built once at every size from the smallest that holds its names up to room for a given number more:
/// [`InternerSeed::copy_with_room`] copies the table of the size a copy needs, so a small text copies a small
/// table (the largest is 8 KB) and no copy hashes a name.
pub struct InternerSeed {
    names: Interner,
    /// The names' slot tables, in increasing (power-of-two) sizes.
    tables: Vec<Vec<u32>>,
}

/// The slots of a table for `len + room` names (at most half full).
fn slots_for(len: usize, room: usize) -> usize {
    ((len + room) * 2).next_power_of_two().max(MIN_SLOTS)
}

impl InternerSeed {
    /// `names`' names, with tables for copies with room for up to `max_room` more names.
    pub fn new(names: &Interner, max_room: usize) -> Self {
        let mut names = Interner { text: names.text.clone(), entries: names.entries.clone(), slots: Vec::new() };
        let mut tables = Vec::new();
        let mut size = slots_for(names.len(), 0);
        while size <= slots_for(names.len(), max_room) {
            names.grow(size);
            tables.push(names.slots.clone());
            size *= 2;
        }
        Self { names, tables }
    }

    /// How many names the seed holds.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the seed holds no name.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// A copy of the seed's names with room for `room` more without rehashing (more than the seed was built for
    /// rehashes once).
    pub fn copy_with_room(&self, room: usize) -> Interner {
        let names = &self.names;
        let wanted = slots_for(names.len(), room);
        let table = self.tables.iter().find(|t| t.len() >= wanted).or(self.tables.last());
        let mut text = String::with_capacity(names.text.len() + room * 8);
        text.push_str(&names.text);
        let mut entries = Vec::with_capacity(names.len() + room);
        entries.extend_from_slice(&names.entries);
        let mut copy = Interner { text, entries, slots: table.cloned().unwrap_or_default() };
        if copy.slots.len() < wanted {
            copy.grow(wanted);
        }
        copy
    }
}

impl PartialEq for Interner {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries && self.text == other.text
    }
}

impl fmt::Debug for Interner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Serialized as `{"strings": [...]}`, every name's text in name order (the IR's JSON form since the first
/// version; the table is rebuilt on the way back in).
impl Serialize for Interner {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Strings<'a>(&'a Interner);
        impl Serialize for Strings<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
                for text in self.0.iter() {
                    seq.serialize_element(text)?;
                }
                seq.end()
            }
        }
        let mut state = serializer.serialize_struct("Interner", 1)?;
        state.serialize_field("strings", &Strings(self))?;
        state.end()
    }
}

impl<'de> Deserialize<'de> for Interner {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(rename = "Interner")]
        struct Stored {
            strings: Vec<String>,
        }
        let stored = Stored::deserialize(deserializer)?;
        let mut names = Interner::default();
        for text in &stored.strings {
            names.intern(text);
        }
        Ok(names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncate_forgets_the_newest_names_and_keeps_the_rest() {
        let mut names = Interner::new();
        let kept: Vec<Name> = (0..40).map(|i| names.intern(&format!("kept_name_{i}"))).collect();
        let len = names.len();
        // Enough new names to grow the table past its first size in between.
        for i in 0..200 {
            names.intern(&format!("gone_{i}"));
        }
        names.truncate(len);
        assert_eq!(names.len(), len);
        for (i, n) in kept.iter().enumerate() {
            assert_eq!(names.lookup(&format!("kept_name_{i}")), Some(*n));
            assert_eq!(names.resolve(*n), format!("kept_name_{i}"));
        }
        assert_eq!(names.lookup("gone_0"), None);
        assert_eq!(names.lookup("gone_199"), None);
        // A name interned again after the cut takes the first free index, and its text follows the kept ones'.
        let again = names.intern("gone_7");
        assert_eq!(names.resolve(again), "gone_7");
        assert_eq!(names.len(), len + 1);
        let mut fresh = Interner::new();
        for i in 0..40 {
            fresh.intern(&format!("kept_name_{i}"));
        }
        fresh.intern("gone_7");
        assert_eq!(names, fresh);
    }

    #[test]
    fn same_text_same_name_and_different_text_different_name() {
        let mut names = Interner::new();
        // Heads shared, lengths, middles and tails differing; the empty string; a NUL that pads like the head.
        let words = [
            "",
            "a",
            "a\0",
            "ab",
            "position",
            "position_",
            "position_x",
            "position_y",
            "positionWS",
            "position_0123456",
            "position_0123457",
            "position_01234567890",
            "position_01234567891",
            "v_uv",
            "material_BaseColor",
        ];
        let ids: Vec<Name> = words.iter().map(|w| names.intern(w)).collect();
        for (i, w) in words.iter().enumerate() {
            assert_eq!(names.intern(w), ids[i], "{w:?} interned twice gave two names");
            assert_eq!(names.resolve(ids[i]), *w);
            assert_eq!(names.lookup(w), Some(ids[i]));
            for j in 0..i {
                assert_ne!(ids[i], ids[j], "{w:?} and {:?} got one name", words[j]);
            }
        }
        assert_eq!(ids[0], Interner::EMPTY);
        assert_eq!(names.lookup("positio"), None);
    }

    #[test]
    fn a_range_interns_as_its_text() {
        let mut names = Interner::new();
        let text = "vec4 position_0123456789 é x";
        let vec4 = names.intern_range(text, 0, 4);
        assert_eq!(names.resolve(vec4), "vec4");
        assert_eq!(names.intern("vec4"), vec4);
        let long = names.intern("position_0123456789");
        assert_eq!(names.intern_range(text, 5, 24), long);
        assert_eq!(names.intern_range(text, 25, 27), names.intern("é"));
        // Off a character boundary (half of `é`) and out of bounds: no panic, a lossy or empty spelling.
        let half = names.intern_range(text, 25, 26);
        assert_eq!(names.resolve(half), "\u{fffd}");
        assert_eq!(names.intern_range(text, 20, 99), Interner::EMPTY);
    }

    /// Every range of a text with multi-byte characters among its ranges' ends interns as its own text, a new
    /// name gets the next index and a name interned again keeps its own.
    #[test]
    fn every_range_of_a_text_interns_as_its_text() {
        let text = "ab_c1 é2 longer_than_sixteen_bytes x€yz q";
        let mut names = Interner::new();
        let mut seen: Vec<(String, Name)> = Vec::new();
        for start in 0..=text.len() {
            for end in start..=text.len() {
                let Some(spelled) = text.get(start..end) else { continue };
                let name = names.intern_range(text, start, end);
                assert_eq!(names.resolve(name), spelled, "{start}..{end}");
                match seen.iter().find(|(s, _)| s == spelled) {
                    Some((_, first)) => assert_eq!(name, *first, "{spelled:?}"),
                    None => {
                        assert_eq!(name.0 as usize, names.len() - 1, "{spelled:?}");
                        seen.push((spelled.to_owned(), name));
                    }
                }
            }
        }
        for (spelled, name) in &seen {
            assert_eq!(names.resolve(*name), spelled);
            assert_eq!(names.lookup(spelled), Some(*name));
        }
    }

    #[test]
    fn head_is_the_zero_padded_first_eight_bytes() {
        let text = b"abcdefghij";
        for len in 0..=text.len() {
            let mut padded = [0u8; 8];
            let n = len.min(8);
            padded[..n].copy_from_slice(&text[..n]);
            assert_eq!(head_of(&text[..len]), u64::from_le_bytes(padded), "length {len}");
        }
    }

    #[test]
    fn spellings_differing_only_in_the_middle_are_distinct() {
        let mut names = Interner::new();
        let mut spelled: Vec<String> = (0..2000).map(|i| format!("prefix__{i:08}__suffix")).collect();
        // Longer ones differing in one byte anywhere past the head.
        let long = "a_long_identifier_of_forty_one_bytes_xyz";
        for at in 8..long.len() {
            let mut s = long.as_bytes().to_vec();
            s[at] = b'#';
            spelled.push(String::from_utf8(s).expect("ascii"));
        }
        spelled.push(long.to_string());
        let ids: Vec<Name> = spelled.iter().map(|s| names.intern(s)).collect();
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), spelled.len());
        for (s, &id) in spelled.iter().zip(&ids) {
            assert_eq!(names.lookup(s), Some(id));
        }
    }

    #[test]
    fn a_seed_copy_has_the_seed_s_names_and_the_room_asked_for() {
        let mut names = Interner::new();
        let spelled: Vec<String> = (0..100).map(|i| format!("seed_{i}")).collect();
        let ids: Vec<Name> = spelled.iter().map(|s| names.intern(s)).collect();
        let seed = InternerSeed::new(&names, 512);
        for room in [0, 1, 20, 100, 512, 3000] {
            let mut copy = seed.copy_with_room(room);
            assert_eq!(copy, names);
            assert!(copy.slots.len() >= slots_for(names.len(), room), "room {room}");
            for (s, &id) in spelled.iter().zip(&ids) {
                assert_eq!(copy.lookup(s), Some(id));
            }
            // Past the room asked for, the table grows as usual.
            for i in 0..room + 300 {
                let name = copy.intern(&format!("new_{i}"));
                assert_eq!(copy.resolve(name), format!("new_{i}"));
            }
            assert_eq!(copy.lookup("seed_99"), Some(ids[99]));
            assert_eq!(copy.len(), names.len() + room + 300);
        }
    }

    #[test]
    fn growth_clone_and_serialization_keep_every_name() {
        let mut names = Interner::new();
        let spelled: Vec<String> = (0..5000).map(|i| format!("name_{i}")).collect();
        let ids: Vec<Name> = spelled.iter().map(|s| names.intern(s)).collect();
        let copy = names.clone();
        assert_eq!(copy, names);
        for (s, &id) in spelled.iter().zip(&ids) {
            assert_eq!(copy.lookup(s), Some(id));
            assert_eq!(copy.resolve(id), s);
        }
        let json = serde_json::to_string(&names).expect("serializes");
        assert!(json.starts_with(r#"{"strings":["","name_0","#), "{}", &json[..40]);
        let back: Interner = serde_json::from_str(&json).expect("deserializes");
        assert_eq!(back, names);
        assert_eq!(back.lookup("name_4999"), Some(ids[4999]));
    }
}
