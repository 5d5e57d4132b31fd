//! Side tables keyed by expressions, which live in one arena per owner (a function, or the module's global
//! expressions).

use shaderlab_ir::{ExprId, FunctionId};
use std::sync::Arc;

/// The arena an expression belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    /// The module's `global_exprs` (global initializers, array sizes outside functions, macro bodies).
    Global,
    Function(FunctionId),
}

/// A map with an entry (the default value) for each of the first `n` keys: one allocation, and a write by index
/// never has to grow it (a map filled by indexing grows entry by entry, a call and a copy of the default each
/// time). Reads are the same as for a map grown by indexing: a key outside it reads as the default value too.
pub fn filled_map<K: cranelift_entity::EntityRef, V: Clone + Default>(
    n: usize,
) -> cranelift_entity::SecondaryMap<K, V> {
    let mut map = cranelift_entity::SecondaryMap::with_capacity(n);
    map.resize(n);
    map
}

/// An owner's expressions.
pub type Arena = cranelift_entity::PrimaryMap<ExprId, shaderlab_ir::Expression>;

impl Owner {
    /// This owner's expressions in `m` (a function of `m`).
    #[inline]
    pub fn arena(self, m: &shaderlab_ir::Module) -> &Arena {
        match self {
            Owner::Global => &m.global_exprs,
            Owner::Function(f) => &m.functions[f].exprs,
        }
    }
}

/// Where each arena's entries lie in a table's one list, as `(start, len)`: the global arena's first (at index
/// 0, starting at 0), then each function's in function order (function `i` at index `i + 1`). The same for every
/// table of a module, so the tables share it.
type Layout = Arc<[(u32, u32)]>;

/// A value per expression, for every arena of a module: one list for all arenas (one allocation per table, not
/// one per function), allocated on the first write (a table nothing is written to, such as the call targets of a
/// module without calls, costs no allocation; its entries all read as the default value).
#[derive(Clone, Debug, Default)]
pub struct ExprTable<T: Clone + Default> {
    entries: Vec<T>,
    layout: Layout,
    /// What an expression outside the table maps to.
    default: T,
}

/// One arena's range in the tables of one layout (see [`ExprTable::place`]).
#[derive(Clone, Copy, Debug)]
pub struct ArenaPlace {
    start: usize,
    len: usize,
}

/// The entries of one arena of an [`ExprTable`], indexed by [`ExprId`] (an expression outside it maps to the
/// default value).
#[derive(Clone, Copy, Debug)]
pub struct ArenaEntries<'t, T> {
    entries: &'t [T],
    default: &'t T,
}

impl<'t, T> ArenaEntries<'t, T> {
    /// The entry of `e` (like indexing, but borrowed for as long as the table is).
    #[inline]
    pub fn get(&self, e: ExprId) -> &'t T {
        self.entries.get(cranelift_entity::EntityRef::index(e)).unwrap_or(self.default)
    }

    /// The entries in arena order.
    pub fn values(&self) -> std::slice::Iter<'_, T> {
        self.entries.iter()
    }
}

impl<T> std::ops::Index<ExprId> for ArenaEntries<'_, T> {
    type Output = T;

    #[inline]
    fn index(&self, e: ExprId) -> &T {
        self.get(e)
    }
}

impl<T: Clone + Default> ExprTable<T> {
    pub fn new() -> Self {
        Self::default()
    }

    /// A table with an entry (the default value) for every expression of the module.
    pub fn for_module(m: &shaderlab_ir::Module) -> Self {
        let mut end = 0;
        let mut arena = |len: usize| {
            let start = end;
            end += len as u32;
            (start, len as u32)
        };
        let layout: Layout = std::iter::once(m.global_exprs.len())
            .chain(m.functions.values().map(|f| f.exprs.len()))
            .map(&mut arena)
            .collect();
        ExprTable { entries: Vec::new(), layout, default: T::default() }
    }

    /// A table for the same module as `other`, every entry the default value.
    pub fn like<U: Clone + Default>(other: &ExprTable<U>) -> Self {
        ExprTable { entries: Vec::new(), layout: other.layout.clone(), default: T::default() }
    }

    /// A table with no entries yet, for the module of `other`: [`ExprTable::push`] adds them in order (every
    /// arena's, global first); an entry not pushed yet reads as the default value. Such a table is not written
    /// through [`ExprTable::get_mut`] or [`ExprTable::set`] (the first write would fill it).
    pub fn building_like<U: Clone + Default>(other: &ExprTable<U>) -> Self {
        let mut table = Self::like(other);
        table.entries.reserve_exact(table.len());
        table
    }

    /// The number of entries of a full table.
    fn len(&self) -> usize {
        self.layout.last().map_or(0, |&(start, len)| (start + len) as usize)
    }

    /// Every entry not there yet, with the default value (on the first write).
    #[inline(never)]
    fn fill(&mut self) {
        let len = self.len();
        self.entries.reserve_exact(len.saturating_sub(self.entries.len()));
        self.entries.resize_with(len, T::default);
    }

    /// The next entry, in the order of [`ExprTable::building_like`].
    #[inline]
    pub fn push(&mut self, value: T) {
        self.entries.push(value);
    }

    /// `(start, len)` of `owner`'s arena in `entries` (empty for an arena the table does not have).
    #[inline]
    fn arena(&self, owner: Owner) -> (usize, usize) {
        let k = match owner {
            Owner::Global => 0,
            Owner::Function(f) => cranelift_entity::EntityRef::index(f) + 1,
        };
        self.layout.get(k).map_or((0, 0), |&(start, len)| (start as usize, len as usize))
    }

    /// The index in `entries` of `e` of `owner`'s arena.
    #[inline]
    fn position(&self, owner: Owner, e: ExprId) -> Option<usize> {
        let (start, len) = self.arena(owner);
        let e = cranelift_entity::EntityRef::index(e);
        (e < len).then_some(start + e)
    }

    #[inline]
    pub fn get(&self, owner: Owner, e: ExprId) -> &T {
        self.position(owner, e).and_then(|i| self.entries.get(i)).unwrap_or(&self.default)
    }

    /// The entry of `e`, to write it (`None` for an expression outside the table).
    #[inline]
    pub fn get_mut(&mut self, owner: Owner, e: ExprId) -> Option<&mut T> {
        let place = self.place(owner);
        self.get_mut_in(place, e)
    }

    /// The entries of one arena (for many lookups in it).
    #[inline]
    pub fn get_arena(&self, owner: Owner) -> ArenaEntries<'_, T> {
        let (start, len) = self.arena(owner);
        // A table being built has only part of its entries.
        let end = (start + len).min(self.entries.len());
        ArenaEntries { entries: self.entries.get(start.min(end)..end).unwrap_or_default(), default: &self.default }
    }

    /// Where `owner`'s entries are, for [`ExprTable::get_mut_in`]: valid for every table of the same layout
    /// (all tables made [`ExprTable::like`] one another), so a pass that writes several tables per expression
    /// finds the arena once.
    #[inline]
    pub fn place(&self, owner: Owner) -> ArenaPlace {
        let (start, len) = self.arena(owner);
        ArenaPlace { start, len }
    }

    /// [`ExprTable::get_mut`] at a place found with [`ExprTable::place`].
    #[inline]
    pub fn get_mut_in(&mut self, place: ArenaPlace, e: ExprId) -> Option<&mut T> {
        let e = cranelift_entity::EntityRef::index(e);
        if e >= place.len {
            return None;
        }
        let i = place.start + e;
        if i >= self.entries.len() {
            self.fill();
        }
        self.entries.get_mut(i)
    }

    #[inline]
    pub fn set(&mut self, owner: Owner, e: ExprId, value: T) {
        if let Some(slot) = self.get_mut(owner, e) {
            *slot = value;
        }
    }

    /// The entries written: the global arena's, then each function's in function order (none for a table never
    /// written, whose entries all read as the default value).
    pub fn values(&self) -> std::slice::Iter<'_, T> {
        self.entries.iter()
    }
}
