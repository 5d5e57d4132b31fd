//! Macros by name, with an exact bit per name in front of the map. Most names asked about (every identifier of a
//! variant's text, every identifier and type name the parser reads in preserving mode) are not macros: the bit
//! answers those without a hash probe. Both the preprocessor's state and the parser's source macros are one.
//! The bits alone ([`NameSet`]) are also the parser's set of struct names.

use shaderlab_ir::hash::FastHashMap as HashMap;
use shaderlab_ir::EntityRef;
use shaderlab_ir::Name;

/// A set of names, one bit per name index (bit `i % 64` of word `i / 64`): names are small dense indices, so a
/// test is a bounds check and a load, with no hashing, and the set takes a word per 64 names up to its largest.
#[derive(Clone, Debug, Default)]
pub struct NameSet(Vec<u64>);

impl NameSet {
    #[inline]
    pub fn contains(&self, name: Name) -> bool {
        let i = name.index();
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    pub fn insert(&mut self, name: Name) {
        let i = name.index();
        if self.0.len() <= i / 64 {
            self.0.resize(i / 64 + 1, 0);
        }
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub fn remove(&mut self, name: Name) {
        let i = name.index();
        if let Some(w) = self.0.get_mut(i / 64) {
            *w &= !(1 << (i % 64));
        }
    }
}

#[derive(Clone, Debug)]
pub struct MacroMap<V> {
    map: HashMap<Name, V>,
    /// The names in `map` (set on insert, cleared on remove).
    defined: NameSet,
}

impl<V> Default for MacroMap<V> {
    fn default() -> Self {
        MacroMap { map: HashMap::default(), defined: NameSet::default() }
    }
}

impl<V> MacroMap<V> {
    #[inline]
    pub fn contains_key(&self, name: &Name) -> bool {
        self.defined.contains(*name)
    }

    pub fn get(&self, name: &Name) -> Option<&V> {
        if self.contains_key(name) {
            self.map.get(name)
        } else {
            None
        }
    }

    /// Define (or redefine) a macro.
    pub fn insert(&mut self, name: Name, value: V) {
        self.defined.insert(name);
        self.map.insert(name, value);
    }

    pub fn remove(&mut self, name: &Name) {
        self.defined.remove(*name);
        self.map.remove(name);
    }

    pub fn reserve(&mut self, additional: usize) {
        self.map.reserve(additional);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_a_macro_exactly_between_insert_and_remove() {
        let mut names = shaderlab_ir::Interner::default();
        let (a, b) = (names.intern("A"), names.intern("B"));
        let mut m = MacroMap::default();
        assert!(!m.contains_key(&a) && m.get(&a).is_none());
        m.insert(a, 1);
        assert!(m.contains_key(&a) && !m.contains_key(&b));
        assert_eq!(m.get(&a), Some(&1));
        m.remove(&a);
        assert!(!m.contains_key(&a) && m.get(&a).is_none());
        m.remove(&b);
        assert!(!m.contains_key(&b));
    }
}
