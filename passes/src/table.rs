//! Side tables keyed by expressions, which live in one arena per owner (a function, or the module's global
//! expressions).

use cranelift_entity::SecondaryMap;
use shaderlab_ir::{ExprId, FunctionId};

/// The arena an expression belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    /// The module's `global_exprs` (global initializers, array sizes outside functions, macro bodies).
    Global,
    Function(FunctionId),
}

/// A value per expression, for every arena of a module.
#[derive(Clone, Debug, Default)]
pub struct ExprTable<T: Clone + Default> {
    pub global: SecondaryMap<ExprId, T>,
    pub functions: SecondaryMap<FunctionId, SecondaryMap<ExprId, T>>,
}

impl<T: Clone + Default> ExprTable<T> {
    pub fn new() -> Self {
        ExprTable { global: SecondaryMap::new(), functions: SecondaryMap::new() }
    }

    /// A table with an entry (the default value) for every expression of the module.
    pub fn for_module(m: &shaderlab_ir::Module) -> Self {
        /// A map with the default value for each of `n` expressions.
        fn filled<T: Clone + Default>(n: usize) -> SecondaryMap<ExprId, T> {
            let mut elems = Vec::with_capacity(n);
            elems.resize_with(n, T::default);
            SecondaryMap::from(elems)
        }
        let functions: Vec<SecondaryMap<ExprId, T>> = m.functions.values().map(|f| filled(f.exprs.len())).collect();
        ExprTable { global: filled(m.global_exprs.len()), functions: SecondaryMap::from(functions) }
    }

    #[inline]
    pub fn get(&self, owner: Owner, e: ExprId) -> &T {
        match owner {
            Owner::Global => &self.global[e],
            Owner::Function(f) => &self.functions[f][e],
        }
    }

    /// The map of one arena (for many lookups in it).
    #[inline]
    pub fn get_arena(&self, owner: Owner) -> &SecondaryMap<ExprId, T> {
        match owner {
            Owner::Global => &self.global,
            Owner::Function(f) => &self.functions[f],
        }
    }

    #[inline]
    pub fn set(&mut self, owner: Owner, e: ExprId, value: T) {
        match owner {
            Owner::Global => self.global[e] = value,
            Owner::Function(f) => self.functions[f][e] = value,
        }
    }
}
