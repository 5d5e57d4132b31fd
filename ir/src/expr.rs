//! Expressions. Each lives in an arena owned by a function (or by the module, for global initializers,
//! array sizes and macro bodies) and refers only to earlier expressions of the same arena.

use crate::cond::Guarded;
use crate::names::Name;
use crate::span::Span;
use crate::types::TypeSpec;
use cranelift_entity::entity_impl;
use serde::{Deserialize, Serialize};

/// An expression in its owner's arena.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ExprId(u32);
entity_impl!(ExprId, "expr");

/// A literal with its value and its spelling in the source.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Literal {
    /// `true` / `false`: type `bool`.
    Bool(bool),
    /// Decimal, hex or octal integer without suffix: type `int` (the value is kept unwrapped; constant folding
    /// applies GLSL's 32-bit rules).
    Int { value: u64, spelling: Name },
    /// Integer with `u`/`U` suffix: type `uint`.
    Uint { value: u64, spelling: Name },
    /// Floating literal (`1.`, `.5`, `1e3`, `2.0f`): type `float`.
    Float { value: f64, spelling: Name },
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnaryOp {
    /// `-e`: numeric scalar, vector or matrix; same type.
    Negate,
    /// `+e`: numeric; same type.
    Plus,
    /// `!e`: scalar bool.
    Not,
    /// `~e`: int/uint scalar or vector.
    BitNot,
}

/// Binary operators (GLSL ES 3.00 §5.9), also used by compound assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinaryOp {
    /// `+ - / `: component-wise on matching shapes, or scalar with vector/matrix.
    Add,
    Sub,
    /// `*`: component-wise, or linear-algebra product when a matrix is involved.
    Mul,
    Div,
    /// `%`: integers only.
    Rem,
    /// `< > <= >=`: scalar int/uint/float operands, bool result.
    Less,
    Greater,
    LessEqual,
    GreaterEqual,
    /// `== !=`: operands of the same type, bool result.
    Equal,
    NotEqual,
    /// `&& || ^^`: scalar bool.
    LogicalAnd,
    LogicalOr,
    LogicalXor,
    /// `& | ^`: integer scalars/vectors.
    BitAnd,
    BitOr,
    BitXor,
    /// `<< >>`: integer scalars/vectors.
    ShiftLeft,
    ShiftRight,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Less => "<",
            Greater => ">",
            LessEqual => "<=",
            GreaterEqual => ">=",
            Equal => "==",
            NotEqual => "!=",
            LogicalAnd => "&&",
            LogicalOr => "||",
            LogicalXor => "^^",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            ShiftLeft => "<<",
            ShiftRight => ">>",
        }
    }
}

impl UnaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Negate => "-",
            UnaryOp::Plus => "+",
            UnaryOp::Not => "!",
            UnaryOp::BitNot => "~",
        }
    }
}

/// `++` / `--`, prefix or postfix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IncDecOp {
    PreIncrement,
    PreDecrement,
    PostIncrement,
    PostDecrement,
}

/// A call or constructor argument; may be guarded by a conditional region.
pub type Arg = Guarded<ExprId>;

/// An expression node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Expr {
    Literal(Literal),
    /// A name in expression position: a variable, parameter, constant or builtin variable.
    Ident(Name),
    /// A use of a source-defined macro kept as written (preserving mode). `args` is `Some` for a
    /// function-like use `NAME(a, b)`.
    MacroRef {
        name: Name,
        args: Option<Vec<Arg>>,
    },
    Unary {
        op: UnaryOp,
        operand: ExprId,
    },
    Binary {
        op: BinaryOp,
        left: ExprId,
        right: ExprId,
    },
    /// `target = value` or a compound assignment `target op= value`; the value of the expression is the target's.
    Assign {
        op: Option<BinaryOp>,
        target: ExprId,
        value: ExprId,
    },
    IncDec {
        op: IncDecOp,
        target: ExprId,
    },
    /// `condition ? accept : reject`.
    Select {
        condition: ExprId,
        accept: ExprId,
        reject: ExprId,
    },
    /// `left, right`: evaluates both, value of `right`.
    Sequence {
        left: ExprId,
        right: ExprId,
    },
    /// `name(args)`: a user function, a builtin function, or a struct constructor (decided by name resolution).
    Call {
        callee: Name,
        callee_span: Span,
        args: Vec<Arg>,
    },
    /// A constructor of a builtin type or an array: `vec3(...)`, `float[3](...)`, `S[2](...)`.
    Construct {
        /// Boxed: a type specifier (with its array dimensions) is as large as the rest of an expression, and
        /// constructors are a minority of expressions; every pass walks the expression arena.
        ty: Box<TypeSpec>,
        args: Vec<Arg>,
    },
    /// `base.name`: a struct member or a swizzle (decided by typing).
    Member {
        base: ExprId,
        member: Name,
        member_span: Span,
    },
    /// `base[index]`.
    Index {
        base: ExprId,
        index: ExprId,
    },
    /// `.length()` on an array.
    ArrayLength {
        base: ExprId,
    },
    /// An expression the parser could not read; its error is already reported.
    Error,
}

/// An expression with its source range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Expression {
    pub kind: Expr,
    pub span: Span,
}

impl Expr {
    /// Visit the direct operands mutably, in the order of [`Expr::for_each_child`] (for a producer that renumbers
    /// a run of expressions it moves or copies).
    pub fn for_each_child_mut(&mut self, f: &mut impl FnMut(&mut ExprId)) {
        match self {
            Expr::Literal(_) | Expr::Ident(_) | Expr::Error => {}
            Expr::MacroRef { args, .. } => {
                if let Some(args) = args {
                    Guarded::for_each_item_mut(args, f);
                }
            }
            Expr::Unary { operand, .. } => f(operand),
            Expr::Binary { left, right, .. } | Expr::Sequence { left, right } => {
                f(left);
                f(right);
            }
            Expr::Assign { target, value, .. } => {
                f(target);
                f(value);
            }
            Expr::IncDec { target, .. } => f(target),
            Expr::Select { condition, accept, reject } => {
                f(condition);
                f(accept);
                f(reject);
            }
            Expr::Call { args, .. } => Guarded::for_each_item_mut(args, f),
            Expr::Construct { ty, args } => {
                for d in &mut ty.dims {
                    if let crate::types::ArrayDim::Sized(e) = d {
                        f(e);
                    }
                }
                Guarded::for_each_item_mut(args, f);
            }
            Expr::Member { base, .. } | Expr::ArrayLength { base } => f(base),
            Expr::Index { base, index } => {
                f(base);
                f(index);
            }
        }
    }

    /// Visit the direct operands, in source order; arguments in every branch of their conditional regions.
    pub fn for_each_child(&self, f: &mut impl FnMut(ExprId)) {
        match self {
            Expr::Literal(_) | Expr::Ident(_) | Expr::Error => {}
            Expr::MacroRef { args, .. } => {
                if let Some(args) = args {
                    Guarded::for_each_item(args, &mut |a| f(*a));
                }
            }
            Expr::Unary { operand, .. } => f(*operand),
            Expr::Binary { left, right, .. } | Expr::Sequence { left, right } => {
                f(*left);
                f(*right);
            }
            Expr::Assign { target, value, .. } => {
                f(*target);
                f(*value);
            }
            Expr::IncDec { target, .. } => f(*target),
            Expr::Select { condition, accept, reject } => {
                f(*condition);
                f(*accept);
                f(*reject);
            }
            Expr::Call { args, .. } => Guarded::for_each_item(args, &mut |a| f(*a)),
            Expr::Construct { ty, args } => {
                for d in &ty.dims {
                    if let crate::types::ArrayDim::Sized(e) = d {
                        f(*e);
                    }
                }
                Guarded::for_each_item(args, &mut |a| f(*a));
            }
            Expr::Member { base, .. } | Expr::ArrayLength { base } => f(*base),
            Expr::Index { base, index } => {
                f(*base);
                f(*index);
            }
        }
    }
}

// Every pass walks the expression arena: keep a node small (a constructor's type specifier is boxed for this).
const _: () = assert!(std::mem::size_of::<Expression>() == 56);
