//! Semantic passes over the shaderlab IR (nanopass style). Each pass is one module with a documented input
//! contract; it reads the module and earlier passes' tables and produces its own side table. Passes never print,
//! never stop early, and never mutate another pass's table: an impossible fact is stored as a value with a reason
//! (a clue), and downstream passes skip unknowns silently.
//!
//! Order (enforced by the signatures): [`resolve::resolve`] -> [`typing::infer_types`] -> (IO roles, constant
//! folding, call graph).

pub mod builtins;
pub mod callgraph;
pub mod clue;
pub mod consts;
pub mod io;
mod redecl;
pub mod resolve;
pub mod small;
pub mod table;
pub mod ty;
pub mod typing;
pub mod variants;

pub use clue::{PassClue, PassClueKind, PassNote, SymbolClue, TypeClue};
pub use resolve::{resolve, Resolution};
pub use table::{ExprTable, Owner};
pub use ty::{ArrayLen, ArrayTy, Ty};
pub use typing::{infer_types, Type, Typing, UnknownReason};

/// Every pass's table for one module.
#[derive(Debug)]
pub struct Facts {
    pub resolution: Resolution,
    pub typing: Typing,
    pub calls: callgraph::CallGraph,
    pub io: io::IoRoles,
    pub consts: consts::Consts,
}

impl Facts {
    /// Every clue the passes left, in pass order.
    pub fn clues(&self) -> impl Iterator<Item = &PassClue> {
        self.resolution
            .clues
            .iter()
            .chain(self.typing.clues.iter())
            .chain(self.calls.clues.iter())
            .chain(self.io.clues.iter())
            .chain(self.consts.clues.iter())
    }
}

/// Run every pass in order.
pub fn run_passes(module: &shaderlab_ir::Module) -> Facts {
    // Type inference walks the conditional regions name resolution walked: it reuses their contexts.
    let (mut resolution, contexts) = resolve::resolve_recording(module);
    let typing = typing::infer_types_reusing(module, &resolution, &contexts);
    drop(contexts);
    // The call graph keeps the pass entries name resolution found (moved, not copied).
    let entries = std::mem::take(&mut resolution.pass_entries);
    let calls = callgraph::build_call_graph(module, &resolution, &typing, entries);
    let io = io::infer_io_roles(module, &resolution, &typing, &calls);
    let consts = consts::fold_constants(module, &resolution, &typing);
    Facts { resolution, typing, calls, io, consts }
}
