//! The GLSL syntax tree of one structural level, as parsed (before lowering into the IR).
//!
//! Expressions live in a `la-arena`; statements and items are owned trees. Conditional regions already have
//! their IR shape ([`Guarded`]), since the parser builds them from the preprocessor's directive markers.

use la_arena::{Arena, Idx};
use shaderlab_ir::{BinaryOp, Guarded, IncDecOp, Literal, Name, Precision, Qualifiers, Span, TypeInner, UnaryOp};

pub type ExprIdx = Idx<AstExpr>;
pub type AstArg = Guarded<ExprIdx>;

#[derive(Clone, Debug, PartialEq)]
pub struct AstExpr {
    pub kind: AstExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AstExprKind {
    Literal(Literal),
    Ident(Name),
    MacroRef { name: Name, args: Option<Vec<AstArg>> },
    Unary { op: UnaryOp, operand: ExprIdx },
    Binary { op: BinaryOp, left: ExprIdx, right: ExprIdx },
    Assign { op: Option<BinaryOp>, target: ExprIdx, value: ExprIdx },
    IncDec { op: IncDecOp, target: ExprIdx },
    Select { condition: ExprIdx, accept: ExprIdx, reject: ExprIdx },
    Sequence { left: ExprIdx, right: ExprIdx },
    Call { callee: Name, callee_span: Span, args: Vec<AstArg> },
    Construct { ty: Box<AstType>, args: Vec<AstArg> },
    Member { base: ExprIdx, member: Name, member_span: Span },
    Index { base: ExprIdx, index: ExprIdx },
    Length { base: ExprIdx },
    Error,
}

/// A type as written: builtin keyword or user name, precision, array dimensions.
#[derive(Clone, Debug, PartialEq)]
pub struct AstType {
    pub inner: TypeInner,
    pub precision: Option<Precision>,
    /// `None` for `[]`.
    pub dims: Vec<Option<ExprIdx>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AstDeclarator {
    pub name: Name,
    pub name_span: Span,
    pub dims: Vec<Option<ExprIdx>>,
    pub init: Option<ExprIdx>,
    pub span: Span,
}

/// `qualifiers type a = 1, b[2];`
#[derive(Clone, Debug, PartialEq)]
pub struct AstVarDecl {
    pub qualifiers: Qualifiers,
    pub ty: AstType,
    pub declarators: Vec<AstDeclarator>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AstMember {
    pub qualifiers: Qualifiers,
    pub ty: AstType,
    pub declarators: Vec<AstDeclarator>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AstStruct {
    pub name: Name,
    pub name_span: Span,
    pub members: Vec<Guarded<AstMember>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AstParam {
    Declared { qualifiers: Qualifiers, ty: AstType, name: Option<(Name, Span)>, span: Span },
    Macro { name: Name, args: Vec<ExprIdx>, declares: Option<(Name, Span)>, span: Span },
}

impl AstParam {
    pub fn span(&self) -> Span {
        match self {
            AstParam::Declared { span, .. } | AstParam::Macro { span, .. } => *span,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct AstFunction {
    pub return_type: AstType,
    pub name: Name,
    pub name_span: Span,
    pub params: Vec<Guarded<AstParam>>,
    pub body: Option<AstBlock>,
    pub span: Span,
    /// How many expressions the parser made for the parameters and the body: the size the function's IR
    /// expression arena is reserved at, so lowering does not regrow (and copy) it.
    pub expr_count: usize,
}

/// A `#define` seen by the parser (preserving mode).
#[derive(Clone, Debug, PartialEq)]
pub struct AstDefine {
    pub name: Name,
    pub name_span: Span,
    pub params: Option<Vec<Name>>,
    pub text: String,
    pub body_expr: Option<ExprIdx>,
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
    Expr(ExprIdx),
    Decl(AstVarDecl),
    Struct(AstStruct, Option<AstVarDecl>),
    Prototype(AstFunction),
    Precision { precision: Precision, ty: TypeInner },
    Block(AstBlock),
    If { condition: ExprIdx, accept: Box<AstStmt>, reject: Option<Box<AstStmt>> },
    For { init: Option<Box<AstStmt>>, condition: Option<ExprIdx>, update: Option<ExprIdx>, body: Box<AstStmt> },
    While { condition: ExprIdx, body: Box<AstStmt> },
    DoWhile { body: Box<AstStmt>, condition: ExprIdx },
    Switch { selector: ExprIdx, body: AstBlock },
    Case(ExprIdx),
    Default,
    Break,
    Continue,
    Return(Option<ExprIdx>),
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
        ty: TypeInner,
        span: Span,
    },
}

/// The parse of one level's text.
#[derive(Debug, Default)]
pub struct AstLevel {
    pub exprs: Arena<AstExpr>,
    pub items: Vec<Guarded<AstItem>>,
}
