//! The shaderlab IR: one [`Module`] per ShaderLab source, holding every entity in typed arenas.
//!
//! Invariants (every producer must keep them, every consumer may rely on them):
//! - Every entity carries a [`Span`] whose file id is registered in the module's [`SourceMap`], and whose byte
//!   range lies inside that file's text.
//! - Types are interned: structurally equal [`TypeInner`]s share one [`TypeId`].
//! - Expressions live in the arena of their owner (a [`Function`], or the module's `global_exprs` for global
//!   initializers, struct member array sizes and macro bodies); an expression only refers to expressions of the
//!   same arena that were created before it.
//! - Names are interned once ([`Name`]); nothing in the IR is resolved: identifiers, type names and callees are
//!   names, and the passes map them to declarations.
//! - Conditional compilation is structure: a [`Guarded`] item is either a plain item or a [`CondRegion`] whose
//!   branches hold items of the same context (global items, struct members, statements, parameters, arguments).
//!
//! The IR knows nothing about GLSL text, diagnostics rendering or any backend.

pub mod clue;
pub mod cond;
pub mod decl;
pub mod expr;
pub mod hash;
pub mod module;
pub mod names;
pub mod source;
pub mod span;
pub mod stmt;
pub mod structure;
pub mod types;

pub use clue::{Clue, ClueKind, Deprecated, Note, Severity, StructureClue, SyntaxClue};
pub use cond::{CondBranch, CondKind, CondRegion, Condition, Guarded, PpBinaryOp, PpExpr, PpUnaryOp};
pub use decl::{
    Function, FunctionId, GlobalId, GlobalVar, Interpolation, LayoutQualifier, Local, LocalId, LocalKind, MacroDef,
    MacroId, Param, ParamKind, Qualifiers, Storage, StructDecl, StructId, StructMember,
};
pub use expr::{Arg, BinaryOp, Expr, ExprId, Expression, IncDecOp, Literal, UnaryOp};
pub use module::{GlobalItem, Mode, Module, Scope, ScopeId};
pub use names::{Interner, InternerSeed, Name};
pub use source::{SourceFile, SourceMap};
pub use span::{FileId, Span};
pub use stmt::{Block, LocalRange, Statement, StmtKind};
pub use structure::{
    EntryRef, Pass, PassId, PassKind, RenderStateEntry, RenderStateMap, RenderStateValue, Shader, SubShader,
    SubShaderId, Tag,
};
pub use types::{ArrayDim, Precision, SamplerDim, SamplerType, ScalarKind, TypeArena, TypeId, TypeInner, TypeSpec};

pub use cranelift_entity::{EntityRef, EntitySet, PrimaryMap, SecondaryMap};
