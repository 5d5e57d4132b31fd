//! Semantic passes over the shaderlab IR (nanopass style). Each pass is one module with a documented input
//! contract; it reads the module and earlier passes' tables and produces its own side table. Passes never print,
//! never stop early, and never mutate another pass's table: an impossible fact is stored as a value with a reason
//! (a clue), and downstream passes skip unknowns silently.

pub mod builtins;
pub mod ty;

pub use ty::{ArrayLen, Ty};
