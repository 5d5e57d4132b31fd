//! Block-structured statements, shaped like the source (bodies keep their form so that `if (c);` is visible).

use crate::cond::Guarded;
use crate::decl::{FunctionId, LocalId, MacroId, StructId};
use crate::expr::ExprId;
use crate::names::Name;
use crate::span::Span;
use crate::types::{Precision, TypeId};
use serde::{Deserialize, Serialize};

/// `{ ... }`: a statement list whose entries may be guarded by conditional regions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub stmts: Vec<Guarded<Statement>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Statement {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum StmtKind {
    /// `;`
    Empty,
    /// `e;`
    Expr(ExprId),
    /// `T a = e, b[2];`: one or more locals, initialized in order.
    Declare(Vec<LocalId>),
    /// A struct declared inside a function, with the locals declared after its closing brace.
    Struct {
        id: StructId,
        declares: Vec<LocalId>,
    },
    /// A function prototype inside a function body.
    Prototype(FunctionId),
    /// `precision highp float;`
    Precision {
        precision: Precision,
        ty: TypeId,
    },
    Block(Block),
    If {
        condition: ExprId,
        accept: Box<Statement>,
        reject: Option<Box<Statement>>,
    },
    /// `for (init; condition; update) body`; `init` is a declaration or expression statement.
    For {
        init: Option<Box<Statement>>,
        condition: Option<ExprId>,
        update: Option<ExprId>,
        body: Box<Statement>,
    },
    While {
        condition: ExprId,
        body: Box<Statement>,
    },
    DoWhile {
        body: Box<Statement>,
        condition: ExprId,
    },
    /// `switch (selector) { ... }`: the body holds `Case`/`Default` labels among its statements.
    Switch {
        selector: ExprId,
        body: Block,
    },
    Case(ExprId),
    Default,
    Break,
    Continue,
    Return(Option<ExprId>),
    Discard,
    /// `#define` inside a function (preserving mode).
    Define(MacroId),
    /// `#undef NAME` inside a function (preserving mode).
    Undef(Name),
}

impl StmtKind {
    /// The block this statement opens: a `{ ... }` statement or a `switch` body.
    pub fn nested_block(&self) -> Option<&Block> {
        match self {
            StmtKind::Block(b) | StmtKind::Switch { body: b, .. } => Some(b),
            _ => None,
        }
    }

    /// The statements nested directly in this one, outside any block, in source order: the branches of an `if`,
    /// a `for`'s init and body, a loop's body.
    pub fn for_each_nested<'a>(&'a self, f: &mut impl FnMut(&'a Statement)) {
        match self {
            StmtKind::If { accept, reject, .. } => {
                f(accept);
                if let Some(r) = reject {
                    f(r);
                }
            }
            StmtKind::For { init, body, .. } => {
                if let Some(i) = init {
                    f(i);
                }
                f(body);
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => f(body),
            _ => {}
        }
    }
}
