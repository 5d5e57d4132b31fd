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
        let mut table = ExprTable::new();
        table.global.resize(m.global_exprs.len());
        for (f, func) in m.functions.iter() {
            let mut map = SecondaryMap::with_capacity(func.exprs.len());
            map.resize(func.exprs.len());
            table.functions[f] = map;
        }
        table
    }

    pub fn get(&self, owner: Owner, e: ExprId) -> &T {
        match owner {
            Owner::Global => &self.global[e],
            Owner::Function(f) => &self.functions[f][e],
        }
    }

    pub fn set(&mut self, owner: Owner, e: ExprId, value: T) {
        match owner {
            Owner::Global => self.global[e] = value,
            Owner::Function(f) => self.functions[f][e] = value,
        }
    }
}
