//! The module: every arena of one compiled ShaderLab source.

use crate::clue::Clue;
use crate::cond::Guarded;
use crate::decl::{Function, FunctionId, GlobalId, GlobalVar, MacroDef, MacroId, StructDecl, StructId};
use crate::expr::{ExprId, Expression};
use crate::names::{Interner, Name};
use crate::source::SourceMap;
use crate::span::Span;
use crate::structure::{Pass, PassId, PassKind, Shader, SubShader, SubShaderId};
use crate::types::{Precision, TypeArena, TypeId};
use cranelift_entity::{entity_impl, PrimaryMap};
use serde::{Deserialize, Serialize};

/// The GLSL text of one structural level (Shader, SubShader or Pass), after preprocessing and parsing.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ScopeId(u32);
entity_impl!(ScopeId, "scope");

/// A top-level GLSL item.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum GlobalItem {
    Struct(StructId),
    Var(GlobalId),
    Function(FunctionId),
    Define(MacroId),
    Undef {
        name: Name,
        span: Span,
    },
    /// `precision highp float;`
    Precision {
        precision: Precision,
        ty: TypeId,
        span: Span,
    },
}

/// The items of one level; a pass sees its scope's items after its parents' (shader, then subshader, then pass).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scope {
    pub parent: Option<ScopeId>,
    pub items: Vec<Guarded<GlobalItem>>,
}

/// How conditionals and macros were treated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Mode {
    /// Conditionals and macro uses kept as structure ([`crate::CondRegion`], [`crate::Expr::MacroRef`]).
    Preserving,
    /// Conditionals evaluated and macros expanded with these `-D` definitions (name, value).
    Variant { defines: Vec<(String, String)> },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Module {
    pub mode: Mode,
    pub sources: SourceMap,
    pub names: Interner,
    pub types: TypeArena,
    pub structs: PrimaryMap<StructId, StructDecl>,
    pub globals: PrimaryMap<GlobalId, GlobalVar>,
    pub functions: PrimaryMap<FunctionId, Function>,
    pub macros: PrimaryMap<MacroId, MacroDef>,
    /// Global initializers, array sizes outside functions, and macro bodies.
    pub global_exprs: PrimaryMap<ExprId, Expression>,
    pub scopes: PrimaryMap<ScopeId, Scope>,
    /// `None` only when the source has no readable `Shader "name" { }`.
    pub shader: Option<Shader>,
    pub subshaders: PrimaryMap<SubShaderId, SubShader>,
    pub passes: PrimaryMap<PassId, Pass>,
    /// Problems found while reading the source (syntax, preprocessing, structure), in discovery order.
    pub clues: Vec<Clue>,
    /// Preserving mode: the guard macros of include guards that are not transparent, sorted. A guarded chunk is
    /// spliced again after a first inclusion that was conditional (or its guard macro was defined before it is
    /// included): each of its guards then holds in some variants only, and needs every `#define` of the macro
    /// written. Every include-guard-shaped region of such a macro is kept as a conditional (see
    /// [`Module::guard_is_kept`]); the others are flattened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept_guards: Vec<Name>,
}

impl Module {
    pub fn new(mode: Mode) -> Self {
        Self::with_names(mode, Interner::new())
    }

    /// An empty module whose interner starts as `names` (the frontend passes a copy of its seeded interner, so
    /// no fresh interner is built only to be replaced).
    pub fn with_names(mode: Mode, names: Interner) -> Self {
        Module {
            mode,
            sources: SourceMap::new(),
            names,
            types: TypeArena::new(),
            structs: PrimaryMap::new(),
            globals: PrimaryMap::new(),
            functions: PrimaryMap::new(),
            macros: PrimaryMap::new(),
            global_exprs: PrimaryMap::new(),
            scopes: PrimaryMap::new(),
            shader: None,
            subshaders: PrimaryMap::new(),
            passes: PrimaryMap::new(),
            clues: Vec::new(),
            kept_guards: Vec::new(),
        }
    }

    /// Whether the include guards of macro `guard` are kept as conditionals (see [`Module::kept_guards`]).
    #[inline]
    pub fn guard_is_kept(&self, guard: Name) -> bool {
        !self.kept_guards.is_empty() && self.kept_guards.binary_search(&guard).is_ok()
    }

    /// Keep the include guards of macro `guard` as conditionals.
    pub fn keep_guard(&mut self, guard: Name) {
        if let Err(at) = self.kept_guards.binary_search(&guard) {
            self.kept_guards.insert(at, guard);
        }
    }

    pub fn name(&self, name: Name) -> &str {
        self.names.resolve(name)
    }

    /// The scopes a scope sees, outermost first (shader, subshader, pass).
    pub fn scope_chain(&self, scope: ScopeId) -> Vec<ScopeId> {
        // Room for the usual shader, subshader and pass without regrowing.
        self.scope_chain_into(scope, Vec::with_capacity(4))
    }

    /// [`Module::scope_chain`] appended to `chain` (expected empty), for callers that keep the usual few scopes
    /// in a list without heap storage. A parent already in the chain ends it.
    pub fn scope_chain_into<L>(&self, scope: ScopeId, mut chain: L) -> L
    where
        L: Extend<ScopeId> + std::ops::DerefMut<Target = [ScopeId]>,
    {
        chain.extend([scope]);
        let mut current = scope;
        while let Some(parent) = self.scopes.get(current).and_then(|s| s.parent) {
            if chain.contains(&parent) {
                break;
            }
            chain.extend([parent]);
            current = parent;
        }
        chain.reverse();
        chain
    }

    /// The scope chain of a pass with a program; empty for a UsePass.
    pub fn pass_scopes(&self, pass: PassId) -> Vec<ScopeId> {
        match self.passes.get(pass).map(|p| &p.kind) {
            Some(PassKind::Program { scope, .. }) => self.scope_chain(*scope),
            _ => Vec::new(),
        }
    }
}
