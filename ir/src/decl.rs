//! Declarations: structs, global variables, functions with their locals, and macro definitions.

use crate::cond::Guarded;
use crate::expr::{ExprId, Expression};
use crate::names::Name;
use crate::span::Span;
use crate::stmt::Block;
use crate::types::TypeSpec;
use cranelift_entity::{entity_impl, PrimaryMap};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct StructId(u32);
entity_impl!(StructId, "struct");

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GlobalId(u32);
entity_impl!(GlobalId, "global");

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FunctionId(u32);
entity_impl!(FunctionId, "function");

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LocalId(u32);
entity_impl!(LocalId, "local");

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MacroId(u32);
entity_impl!(MacroId, "macro");

/// Storage qualifiers as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Storage {
    Const,
    Uniform,
    In,
    Out,
    InOut,
    Attribute,
    Varying,
}

/// Interpolation qualifiers (varyings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Interpolation {
    Flat,
    Smooth,
}

/// `layout(name = value, ...)` entries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayoutQualifier {
    pub name: Name,
    pub value: Option<i64>,
    pub span: Span,
}

/// The qualifiers in front of a declaration (precision sits in the [`TypeSpec`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Qualifiers {
    pub storage: Option<Storage>,
    pub interpolation: Option<Interpolation>,
    pub centroid: bool,
    pub invariant: bool,
    pub precise: bool,
    pub layout: Vec<LayoutQualifier>,
    /// The range of all qualifiers, when there is at least one.
    pub span: Option<Span>,
}

/// A struct member.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StructMember {
    pub name: Name,
    pub name_span: Span,
    pub ty: TypeSpec,
    pub qualifiers: Qualifiers,
    pub span: Span,
}

/// `struct Name { members };` (array sizes of members live in the module's `global_exprs`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StructDecl {
    pub name: Name,
    pub name_span: Span,
    pub members: Vec<Guarded<StructMember>>,
    pub span: Span,
}

/// A global variable. Without initializer and without `const` it is a uniform (ShaderLab rule), with or
/// without an explicit `uniform`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GlobalVar {
    pub name: Name,
    pub name_span: Span,
    pub ty: TypeSpec,
    pub qualifiers: Qualifiers,
    /// The initializer, in the module's `global_exprs`.
    pub init: Option<ExprId>,
    pub span: Span,
}

impl GlobalVar {
    /// Whether this global is a uniform: explicit `uniform`, or no storage qualifier and no initializer.
    pub fn is_uniform(&self) -> bool {
        match self.qualifiers.storage {
            Some(Storage::Uniform) => true,
            None => self.init.is_none(),
            Some(_) => false,
        }
    }
}

/// What a local stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LocalKind {
    Variable,
    Parameter,
}

/// A local variable or a named parameter of a function.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Local {
    pub name: Name,
    pub name_span: Span,
    pub ty: TypeSpec,
    pub qualifiers: Qualifiers,
    pub init: Option<ExprId>,
    pub kind: LocalKind,
    pub span: Span,
}

/// A parameter declaration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ParamKind {
    /// `[qualifiers] T [name][dims]`; unnamed parameters (prototypes) have a local without uses.
    Declared { local: LocalId },
    /// A macro use standing for a parameter, kept as written: `TEXTURE2D_SHADOW_PARAM(shadowMap)`.
    /// `declares` is the parameter name the expansion declares, when it could be read from the macro's body.
    Macro { name: Name, args: Vec<ExprId>, declares: Option<LocalId> },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    pub kind: ParamKind,
    pub span: Span,
}

/// A function definition (with body) or prototype (without).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Function {
    pub name: Name,
    pub name_span: Span,
    pub return_type: TypeSpec,
    pub params: Vec<Guarded<Param>>,
    pub body: Option<Block>,
    pub exprs: PrimaryMap<ExprId, Expression>,
    pub locals: PrimaryMap<LocalId, Local>,
    pub span: Span,
}

/// `#define NAME[(params)] body`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MacroDef {
    pub name: Name,
    pub name_span: Span,
    /// `Some` for a function-like macro.
    pub params: Option<Vec<Name>>,
    /// The replacement text, trimmed, comments removed.
    pub body: String,
    /// The body parsed as an expression (in the module's `global_exprs`), when it is one.
    pub body_expr: Option<ExprId>,
    pub span: Span,
}
