//! Interned identifiers. Every name in the IR is a [`Name`]; its text lives once in the [`Interner`].

use crate::hash::FastBuildHasher;
use cranelift_entity::entity_impl;
use indexmap::IndexSet;
use serde::{Deserialize, Serialize};

/// An interned identifier (or literal spelling).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Name(u32);
entity_impl!(Name, "name");

/// The string table behind [`Name`]. Interning the same text twice gives the same name.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Interner {
    strings: IndexSet<String, FastBuildHasher>,
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

    pub fn intern(&mut self, text: &str) -> Name {
        if let Some(index) = self.strings.get_index_of(text) {
            return Name(index as u32);
        }
        let (index, _) = self.strings.insert_full(text.to_owned());
        Name(index as u32)
    }

    /// Room for `additional` more names without rehashing (a clone keeps the table's room: a template interner
    /// reserved once makes every clone's first insertions cheap).
    pub fn reserve(&mut self, additional: usize) {
        self.strings.reserve(additional);
    }

    /// The name of `text` if it was interned before.
    pub fn lookup(&self, text: &str) -> Option<Name> {
        self.strings.get_index_of(text).map(|i| Name(i as u32))
    }

    pub fn resolve(&self, name: Name) -> &str {
        // A Name only comes from this interner, so the index exists.
        self.strings.get_index(name.0 as usize).map(String::as_str).unwrap_or("<invalid name>")
    }

    pub fn len(&self) -> usize {
        self.strings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.strings.is_empty()
    }
}
