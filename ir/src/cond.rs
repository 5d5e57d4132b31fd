//! Conditional compilation kept as structure (preserving mode).
//!
//! A [`CondRegion`] is one `#if`/`#ifdef`/`#ifndef` ... `#endif` block: one or more conditioned branches
//! (`#if`, then each `#elif`) and an optional `#else` branch. It stands where the language allows a block of
//! items: global items, struct members, statements, function parameters and call arguments.

use crate::names::Name;
use crate::span::Span;
use serde::{Deserialize, Serialize};

/// An item that may sit inside conditional regions. A region is boxed: regions are rare, and a list of items
/// (call arguments above all) stays as small as its items.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Guarded<T> {
    Item(T),
    Cond(Box<CondRegion<T>>),
}

impl<T> Guarded<T> {
    /// Visit every plain item, in source order, through every branch of every region.
    pub fn for_each_item<'a>(items: &'a [Guarded<T>], f: &mut impl FnMut(&'a T)) {
        for item in items {
            match item {
                Guarded::Item(t) => f(t),
                Guarded::Cond(region) => {
                    for branch in &region.branches {
                        Guarded::for_each_item(&branch.items, f);
                    }
                    if let Some(else_items) = &region.else_items {
                        Guarded::for_each_item(else_items, f);
                    }
                }
            }
        }
    }

    /// [`Guarded::for_each_item`] with mutable access.
    pub fn for_each_item_mut(items: &mut [Guarded<T>], f: &mut impl FnMut(&mut T)) {
        for item in items {
            match item {
                Guarded::Item(t) => f(t),
                Guarded::Cond(region) => {
                    for branch in &mut region.branches {
                        Guarded::for_each_item_mut(&mut branch.items, f);
                    }
                    if let Some(else_items) = &mut region.else_items {
                        Guarded::for_each_item_mut(else_items, f);
                    }
                }
            }
        }
    }
}

/// Which directive opened a branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CondKind {
    If,
    Ifdef,
    Ifndef,
    Elif,
}

/// The condition of one branch: its directive, its text as written and its parsed form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Condition {
    pub kind: CondKind,
    /// The text after the directive name (for `#ifdef X`: `X`).
    pub text: String,
    /// The condition as an expression; `#ifdef X` is `defined(X)`, `#ifndef X` is `!defined(X)`.
    pub expr: PpExpr,
    /// The whole directive line.
    pub span: Span,
}

/// One conditioned branch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CondBranch<T> {
    pub condition: Condition,
    pub items: Vec<Guarded<T>>,
}

/// `#if ... [#elif ...]* [#else ...] #endif`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CondRegion<T> {
    pub branches: Vec<CondBranch<T>>,
    pub else_items: Option<Vec<Guarded<T>>>,
    /// The `#else` directive, when there is one.
    pub else_span: Option<Span>,
    /// The `#endif` directive.
    pub end_span: Span,
}

/// Unary operators of preprocessor conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PpUnaryOp {
    Neg,
    Plus,
    Not,
    BitNot,
}

/// Binary operators of preprocessor conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PpBinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
}

/// A parsed preprocessor condition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PpExpr {
    Int(i64),
    /// `defined NAME` / `defined(NAME)`.
    Defined(Name),
    /// A macro name, replaced by its value (0 when undefined).
    Ident(Name),
    Unary(PpUnaryOp, Box<PpExpr>),
    Binary(PpBinaryOp, Box<PpExpr>, Box<PpExpr>),
    /// `c ? a : b`.
    Select(Box<PpExpr>, Box<PpExpr>, Box<PpExpr>),
    /// A condition that did not parse (reported as InvalidMacroCondition).
    Invalid,
}
