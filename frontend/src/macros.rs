//! Macros by name, with an exact bit per name in front of the map. Most names asked about (every identifier of a
//! variant's text, every identifier and type name the parser reads in preserving mode) are not macros: the bit
//! answers those without a hash probe. Both the preprocessor's state and the parser's source macros are one.

use shaderlab_ir::hash::FastHashMap as HashMap;
use shaderlab_ir::EntityRef;
use shaderlab_ir::Name;

#[derive(Clone, Debug)]
pub struct MacroMap<V> {
    map: HashMap<Name, V>,
    /// Bit `i % 64` of word `i / 64`: name index `i` is in `map` (set on insert, cleared on remove).
    defined: Vec<u64>,
}

impl<V> Default for MacroMap<V> {
    fn default() -> Self {
        MacroMap { map: HashMap::default(), defined: Vec::new() }
    }
}

impl<V> MacroMap<V> {
    #[inline]
    pub fn contains_key(&self, name: &Name) -> bool {
        let i = name.index();
        self.defined.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
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
        let i = name.index();
        if self.defined.len() <= i / 64 {
            self.defined.resize(i / 64 + 1, 0);
        }
        self.defined[i / 64] |= 1 << (i % 64);
        self.map.insert(name, value);
    }

    pub fn remove(&mut self, name: &Name) {
        let i = name.index();
        if let Some(w) = self.defined.get_mut(i / 64) {
            *w &= !(1 << (i % 64));
        }
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
