//! The syntax the generator produces: a small ShaderLab/GLSL tree that [`crate::render`] prints. Types are
//! already spelled (`"vec3"`, `"S2"`): the tree is an output format, the typing lives in the generator.

use std::sync::Arc;

/// An identifier.
pub type Name = Arc<str>;

/// A region `#ifdef NAME` / `#ifndef NAME`, an optional `#else`, `#endif` around a list of `T`.
#[derive(Clone, Debug, PartialEq)]
pub struct Cond<T> {
    pub macro_name: Name,
    /// `#ifdef` (true) or `#ifndef` (false).
    pub defined: bool,
    pub then: Vec<T>,
    pub otherwise: Option<Vec<T>>,
}

/// An element of a list that may stand in a conditional region (struct members, parameters, arguments).
#[derive(Clone, Debug, PartialEq)]
pub enum Guarded<T> {
    Plain(T),
    Cond(Cond<T>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A literal as written (`1.5`, `3`, `2u`, `true`).
    Literal(String),
    /// A variable; `read` marks a read (a mutation site for a misspelled name), not an assignment target or
    /// an `out` argument.
    Var {
        name: Name,
        read: bool,
    },
    Member(Box<Expr>, Name),
    Swizzle(Box<Expr>, String),
    Index(Box<Expr>, Box<Expr>),
    /// `ty(args)`; `scalar_args` when every argument is a scalar (then `vecN(a, b, ...)` with N arguments is a
    /// mutation site for a wrong constructor arity). The first argument is never conditional.
    Construct {
        ty: String,
        args: Vec<Guarded<Expr>>,
        scalar_args: bool,
    },
    /// A call of a builtin or a helper. The first argument is never conditional.
    Call {
        name: Name,
        args: Vec<Guarded<Expr>>,
    },
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
}

impl Expr {
    pub fn read(name: &Name) -> Expr {
        Expr::Var { name: name.clone(), read: true }
    }

    pub fn place(name: &Name) -> Expr {
        Expr::Var { name: name.clone(), read: false }
    }

    pub fn literal(text: impl Into<String>) -> Expr {
        Expr::Literal(text.into())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `[const] ty name[array] [= init];`
    Decl {
        constant: bool,
        ty: String,
        name: Name,
        array: Option<String>,
        init: Option<Expr>,
    },
    /// `target op value;` with `op` one of `=`, `+=`, `-=`, `*=`, `/=`.
    Assign {
        target: Expr,
        op: &'static str,
        value: Expr,
    },
    /// `++x;`, `x--;`
    IncDec {
        target: Expr,
        op: &'static str,
        prefix: bool,
    },
    /// A call for its effect (a void helper).
    Call(Expr),
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Option<Vec<Stmt>>,
    },
    /// `for (int var = 0; var < bound; var++) { body }`
    For {
        var: Name,
        bound: u32,
        body: Vec<Stmt>,
    },
    /// Every case body is a block followed by `break;`.
    Switch {
        selector: Expr,
        cases: Vec<(i32, Vec<Stmt>)>,
        default: Vec<Stmt>,
    },
    Block(Vec<Stmt>),
    Cond(Cond<Stmt>),
    Return(Option<Expr>),
    Break,
    Continue,
    Discard,
}

impl Stmt {
    /// Whether a `return` or a `discard` (which ends a path like a return) appears anywhere inside.
    pub fn contains_return(&self) -> bool {
        match self {
            Stmt::Return(_) | Stmt::Discard => true,
            Stmt::If { then, otherwise, .. } => {
                then.iter().any(Stmt::contains_return)
                    || otherwise.as_ref().is_some_and(|o| o.iter().any(Stmt::contains_return))
            }
            Stmt::For { body, .. } | Stmt::Block(body) => body.iter().any(Stmt::contains_return),
            Stmt::Switch { cases, default, .. } => {
                cases.iter().any(|(_, b)| b.iter().any(Stmt::contains_return))
                    || default.iter().any(Stmt::contains_return)
            }
            Stmt::Cond(c) => {
                c.then.iter().any(Stmt::contains_return)
                    || c.otherwise.as_ref().is_some_and(|o| o.iter().any(Stmt::contains_return))
            }
            Stmt::Decl { .. }
            | Stmt::Assign { .. }
            | Stmt::IncDec { .. }
            | Stmt::Call(_)
            | Stmt::Break
            | Stmt::Continue => false,
        }
    }
}

/// A struct member.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// `layout(location = N)` (MRT members).
    pub location: Option<u32>,
    pub ty: String,
    pub name: Name,
    pub array: Option<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StructDecl {
    pub name: Name,
    /// The first member is never conditional.
    pub members: Vec<Guarded<Member>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// `in`, `out`, `inout` or none.
    pub qualifier: Option<&'static str>,
    pub ty: String,
    pub name: Name,
}

/// How a function body ends.
#[derive(Clone, Debug, PartialEq)]
pub enum Tail {
    /// Nothing (void functions).
    None,
    /// `return e;` — a mutation site for a removed return.
    Return(Expr),
    /// `return;` in a void function.
    ReturnVoid,
    /// `#ifdef M return a; #else return b; #endif`
    CondReturn(Cond<Stmt>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub ret: String,
    pub name: Name,
    /// The first parameter is never conditional.
    pub params: Vec<Guarded<Param>>,
    pub body: Vec<Stmt>,
    pub tail: Tail,
}

/// A global item of a level's GLSL text.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Struct(StructDecl),
    /// A uniform (no initializer), constant, or private global.
    Global {
        qualifier: Option<&'static str>,
        ty: String,
        name: Name,
        array: Option<String>,
        init: Option<Expr>,
    },
    Function(Function),
    /// A function prototype (`float f(float a);`).
    Prototype(Function),
    /// `precision mediump float;`
    Precision(String),
    Cond(Cond<Item>),
}

/// One pass.
#[derive(Clone, Debug, PartialEq)]
pub struct PassDecl {
    pub name: String,
    pub tags: Vec<(String, String)>,
    /// Render-state statements (each a complete statement, possibly several lines).
    pub render: Vec<String>,
    pub items: Vec<Item>,
    pub vertex: Name,
    pub fragment: Name,
}

/// A whole ShaderLab program: one Shader with one SubShader.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub name: String,
    /// Editor-only text (skipped by compilers), without the `Editor` keyword and braces.
    pub editor: Option<Vec<String>>,
    pub render: Vec<String>,
    pub items: Vec<Item>,
    pub subshader_name: String,
    pub subshader_tags: Vec<(String, String)>,
    pub subshader_render: Vec<String>,
    pub subshader_items: Vec<Item>,
    pub passes: Vec<PassDecl>,
}
