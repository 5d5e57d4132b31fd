//! The GLSL syntax tree of one structural level, as parsed (before lowering into the IR).
//!
//! Only statements and declarations are tree nodes here. Expressions are IR [`Expression`]s from the start: the
//! parser pushes each one, operands first, into the arena that owns it in the IR (the function's, or the
//! module's `global_exprs` for global initializers, array sizes outside functions and macro bodies), and the
//! tree refers to them by [`ExprId`]. Types are interned by the parser too, in first-use order. Lowering then only
//! turns declarations into IR entities. Conditional regions already have their IR shape ([`Guarded`]), since the
//! parser builds them from the preprocessor's directive markers.

use cranelift_entity::PrimaryMap;
use shaderlab_ir::{ExprId, Expression, Guarded, Name, Precision, Qualifiers, Span, TypeId, TypeSpec};

/// `name[dims] = init` of a declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct AstDeclarator {
    pub name: Name,
    pub name_span: Span,
    /// The declaration's type with this declarator's dimensions appended. The dimensions written on the type
    /// are the declarator's own copies: each declarator after the first has its own expressions for them.
    pub ty: TypeSpec,
    pub init: Option<ExprId>,
    pub span: Span,
}

/// `qualifiers type a = 1, b[2];`
#[derive(Clone, Debug, PartialEq)]
pub struct AstVarDecl {
    pub qualifiers: Qualifiers,
    pub declarators: Vec<AstDeclarator>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AstStruct {
    pub name: Name,
    pub name_span: Span,
    /// Each member declaration (array sizes in the module's `global_exprs`).
    pub members: Vec<Guarded<AstVarDecl>>,
    pub span: Span,
}

/// The name a parameter macro declares, and the type the parameter gets (the user type named after the macro).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MacroDeclares {
    pub name: Name,
    pub span: Span,
    pub ty: TypeId,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AstParam {
    Declared { qualifiers: Qualifiers, ty: TypeSpec, name: Option<(Name, Span)>, span: Span },
    Macro { name: Name, args: Vec<ExprId>, declares: Option<MacroDeclares>, span: Span },
}

#[derive(Clone, Debug, PartialEq)]
pub struct AstFunction {
    pub return_type: TypeSpec,
    pub name: Name,
    pub name_span: Span,
    pub params: Vec<Guarded<AstParam>>,
    pub body: Option<AstBlock>,
    pub span: Span,
    /// The function's expressions (return type dimensions, parameters, body), already in IR order.
    pub exprs: PrimaryMap<ExprId, Expression>,
}

/// A `#define` seen by the parser (preserving mode).
#[derive(Clone, Debug, PartialEq)]
pub struct AstDefine {
    pub name: Name,
    pub name_span: Span,
    pub params: Option<Vec<Name>>,
    pub text: String,
    /// The body as an expression, in the module's `global_exprs`.
    pub body_expr: Option<ExprId>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AstBlock {
    pub stmts: Vec<Guarded<AstStmt>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AstStmt {
    pub kind: AstStmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AstStmtKind {
    Empty,
    Expr(ExprId),
    Decl(AstVarDecl),
    Struct(AstStruct, Option<AstVarDecl>),
    Prototype(AstFunction),
    Precision { precision: Precision, ty: TypeId },
    Block(AstBlock),
    If { condition: ExprId, accept: Box<AstStmt>, reject: Option<Box<AstStmt>> },
    For { init: Option<Box<AstStmt>>, condition: Option<ExprId>, update: Option<ExprId>, body: Box<AstStmt> },
    While { condition: ExprId, body: Box<AstStmt> },
    DoWhile { body: Box<AstStmt>, condition: ExprId },
    Switch { selector: ExprId, body: AstBlock },
    Case(ExprId),
    Default,
    Break,
    Continue,
    Return(Option<ExprId>),
    Discard,
    Define(AstDefine),
    Undef(Name),
}

#[derive(Clone, Debug, PartialEq)]
pub enum AstItem {
    Var(AstVarDecl),
    /// `struct S { } [declarators];`
    Struct(AstStruct, Option<AstVarDecl>),
    Function(AstFunction),
    Define(AstDefine),
    Undef(Name, Span),
    Precision {
        precision: Precision,
        ty: TypeId,
        span: Span,
    },
}

/// The parse of one level's text (its expressions are already in the module or in the functions here).
#[derive(Debug, Default)]
pub struct AstLevel {
    pub items: Vec<Guarded<AstItem>>,
}
