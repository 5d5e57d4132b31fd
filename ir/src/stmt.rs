//! Block-structured statements, shaped like the source (bodies keep their form so that `if (c);` is visible).

use crate::cond::Guarded;
use crate::decl::{FunctionId, LocalId, MacroId, StructId};
use crate::expr::ExprId;
use crate::names::Name;
use crate::span::Span;
use crate::types::{Precision, TypeId};
use cranelift_entity::EntityRef;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

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
    Declare(LocalRange),
    /// A struct declared inside a function, with the locals declared after its closing brace.
    Struct {
        id: StructId,
        declares: LocalRange,
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

/// The locals one declaration statement declares: consecutive ids of its function's locals (the parser pushes a
/// declaration's locals in a row), so a statement holds no list of its own. Serialized as the list of ids; a list
/// that is not consecutive does not deserialize.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LocalRange {
    first: u32,
    len: u32,
}

impl LocalRange {
    /// `len` locals from `first` on.
    pub fn new(first: LocalId, len: usize) -> Self {
        LocalRange { first: first.index() as u32, len: len as u32 }
    }

    pub fn len(self) -> usize {
        self.len as usize
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    pub fn first(self) -> Option<LocalId> {
        (self.len > 0).then(|| LocalId::new(self.first as usize))
    }

    /// The one local of a single declaration.
    pub fn single(self) -> Option<LocalId> {
        (self.len == 1).then(|| LocalId::new(self.first as usize))
    }

    pub fn contains(self, l: LocalId) -> bool {
        (l.index() as u64).wrapping_sub(u64::from(self.first)) < u64::from(self.len)
    }

    pub fn iter(self) -> <Self as IntoIterator>::IntoIter {
        self.into_iter()
    }
}

impl IntoIterator for LocalRange {
    type Item = LocalId;
    type IntoIter = std::iter::Map<std::ops::Range<usize>, fn(usize) -> LocalId>;

    fn into_iter(self) -> Self::IntoIter {
        let first = self.first as usize;
        (first..first + self.len as usize).map(LocalId::new as fn(usize) -> LocalId)
    }
}

impl Serialize for LocalRange {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for LocalRange {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let ids = Vec::<LocalId>::deserialize(d)?;
        let Some(&first) = ids.first() else { return Ok(LocalRange::default()) };
        if ids.iter().enumerate().any(|(i, l)| l.index() != first.index() + i) {
            return Err(serde::de::Error::custom("a declaration's locals must be consecutive"));
        }
        Ok(LocalRange::new(first, ids.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_range_reads_and_serializes_as_its_ids() {
        let r = LocalRange::new(LocalId::new(3), 2);
        assert_eq!(r.iter().map(|l| l.index()).collect::<Vec<_>>(), [3, 4]);
        assert!(r.contains(LocalId::new(4)) && !r.contains(LocalId::new(5)) && !r.contains(LocalId::new(2)));
        assert_eq!((r.single(), r.first()), (None, Some(LocalId::new(3))));
        assert_eq!(LocalRange::new(LocalId::new(7), 1).single(), Some(LocalId::new(7)));
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(json, "[3,4]");
        assert_eq!(serde_json::from_str::<LocalRange>(&json).unwrap(), r);
        assert_eq!(serde_json::from_str::<LocalRange>("[]").unwrap(), LocalRange::default());
        assert!(serde_json::from_str::<LocalRange>("[3,5]").is_err(), "ids with a gap are not a range");
    }
}
