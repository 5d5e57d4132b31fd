//! Variant contexts: under which preprocessor conditions a piece of code exists (preserving mode).
//!
//! A context is the path of conditional-region branches around a piece of code. Two contexts are *compatible*
//! (some variant has both pieces of code) unless they take different branches of one region, or their certain
//! facts contradict (`X` defined in one, not defined in the other). Anything we cannot decide counts as
//! compatible: a preserving check reports a problem only when it holds in every variant.
//!
//! Include guards (`#ifndef X_INCLUDED` / `#define X_INCLUDED` as the first item of the only branch) are
//! transparent: their code exists in every variant that includes the chunk.

use shaderlab_ir::{
    CondKind, CondRegion, Condition, GlobalItem, Guarded, Module, Name, PpBinaryOp, PpExpr, PpUnaryOp, Span,
};
use std::fmt::Write as _;
use std::sync::Arc;

/// Branch `branch` of the region ending at `region` (`u32::MAX` for the `#else` branch).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BranchRef {
    pub region: Span,
    pub branch: u32,
}

/// The conditions around a piece of code (shared: cloning a context is cheap).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CondCtx {
    data: Option<Arc<CtxData>>,
}

/// What a [`CondCtx`] knows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CtxData {
    pub path: Vec<BranchRef>,
    /// Certain facts: `(macro, defined?)`.
    pub atoms: Vec<(Name, bool)>,
    /// Human descriptions, outermost first (`MATERIAL_HAS_BASETEXTURE is defined`); shared, so entering a region
    /// copies pointers, not text.
    pub descriptions: Vec<Arc<str>>,
}

static UNCONDITIONAL: CtxData = CtxData { path: Vec::new(), atoms: Vec::new(), descriptions: Vec::new() };

impl std::ops::Deref for CondCtx {
    type Target = CtxData;

    fn deref(&self) -> &CtxData {
        self.data.as_deref().unwrap_or(&UNCONDITIONAL)
    }
}

pub const ELSE_BRANCH: u32 = u32::MAX;

/// Whether two lists of certain facts (`(macro, defined?)`, as in [`CtxData::atoms`]) say opposite things of some
/// macro.
pub fn facts_contradict(a: &[(Name, bool)], b: &[(Name, bool)]) -> bool {
    a.iter().any(|(n, v)| b.iter().any(|(m, w)| n == m && v != w))
}

/// The contexts one walk over a module entered, so that a later walk over the same module takes them instead
/// of entering every region again (name resolution records, type inference reuses).
///
/// A context is keyed by the region's address, the branch and the outer context's address (0 when
/// unconditional). [`CondCtx::enter`] is a function of the three, so a recorded context equals what entering
/// would give. Addresses stay unique while the memo lives: the module is borrowed, and every recorded context,
/// which is what an outer address can point to, is kept alive by the memo itself.
#[derive(Default)]
pub struct BranchContexts {
    entered: shaderlab_ir::hash::FastHashMap<(usize, u32, usize), CondCtx>,
}

/// The last answer of [`CondCtx::compatible`] for a context tested against itself (the common case: a name used
/// in the conditional branch that declares it), keyed by the context's address.
///
/// Use one only while every context it may have seen stays alive (so an address is not reused by another
/// context): name resolution keeps each context it enters in its [`BranchContexts`].
#[derive(Default)]
pub struct SelfCompatible(std::cell::Cell<(usize, bool)>);

impl BranchContexts {
    fn key<T>(outer: &CondCtx, region: &CondRegion<T>, branch: u32) -> (usize, u32, usize) {
        (region as *const CondRegion<T> as usize, branch, outer.identity())
    }
}

impl CondCtx {
    /// Whether both are the same shared context (the same `enter` result, or both unconditional): a cheap
    /// test that implies equality.
    pub fn is_same(&self, other: &CondCtx) -> bool {
        match (&self.data, &other.data) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    pub fn is_unconditional(&self) -> bool {
        self.path.is_empty()
    }

    /// The address of the shared context (0 when unconditional): equal for [`CondCtx::is_same`] contexts, and
    /// unique among the contexts alive at one time.
    pub fn identity(&self) -> usize {
        self.data.as_ref().map_or(0, |d| Arc::as_ptr(d) as usize)
    }

    /// Whether some variant contains code of both contexts.
    pub fn compatible(&self, other: &CondCtx) -> bool {
        if self.data.is_none() || other.data.is_none() {
            // An unconditional context has no branches and no facts.
            return true;
        }
        for a in &self.path {
            for b in &other.path {
                if a.region == b.region && a.branch != b.branch {
                    return false;
                }
            }
        }
        !facts_contradict(&self.atoms, &other.atoms)
    }

    /// [`CondCtx::compatible`], remembering the answer for a context tested against itself in `memo`.
    pub fn compatible_memo(&self, other: &CondCtx, memo: &SelfCompatible) -> bool {
        match (&self.data, &other.data) {
            (Some(a), Some(b)) if Arc::ptr_eq(a, b) => {
                let address = Arc::as_ptr(a) as usize;
                let (last, answer) = memo.0.get();
                if last == address {
                    return answer;
                }
                let answer = self.compatible(other);
                memo.0.set((address, answer));
                answer
            }
            _ => self.compatible(other),
        }
    }

    /// Whether no variant has this code (`#ifdef M` inside `#ifndef M`): nothing in it is ever compiled.
    pub fn is_dead(&self) -> bool {
        facts_contradict(&self.atoms, &self.atoms)
    }

    /// Whether every variant of `self` is a variant of `other` (code under `self` always has code under `other`).
    pub fn implies(&self, other: &CondCtx) -> bool {
        #[cfg(test)]
        IMPLIES_CALLS.with(|n| n.set(n.get() + 1));
        // A context implies itself (the common case: two declarations in one branch).
        self.is_same(other)
            || other.path.iter().all(|b| self.path.contains(b)) && other.atoms.iter().all(|a| self.atoms.contains(a))
    }

    /// The context of branch `branch` (or [`ELSE_BRANCH`]) of `region`.
    pub fn enter<T>(&self, module: &Module, region: &CondRegion<T>, branch: u32) -> CondCtx {
        let outer: &CtxData = self;
        let mut path = Vec::with_capacity(outer.path.len() + 1);
        path.extend_from_slice(&outer.path);
        path.push(BranchRef { region: region.end_span, branch });
        let mut atoms = Vec::with_capacity(outer.atoms.len() + 2);
        atoms.extend_from_slice(&outer.atoms);
        let taken = if branch == ELSE_BRANCH { region.branches.len() } else { branch as usize };
        for (i, b) in region.branches.iter().enumerate().take(taken + 1).skip(first_read(taken)) {
            let holds = i == taken && branch != ELSE_BRANCH;
            if i == taken && branch == ELSE_BRANCH {
                break;
            }
            certain_atoms(&b.condition.expr, holds, &mut atoms);
        }
        let mut descriptions = Vec::with_capacity(outer.descriptions.len() + 1);
        descriptions.extend(outer.descriptions.iter().cloned());
        descriptions.push(describe_branch(module, region, branch));
        CondCtx { data: Some(Arc::new(CtxData { path, atoms, descriptions })) }
    }

    /// The context of code under both contexts (the branches and facts of both; `self`'s descriptions first),
    /// or `None` when no variant has both. Either one when the other adds nothing.
    pub fn conjoin(&self, other: &CondCtx) -> Option<CondCtx> {
        if !self.compatible(other) {
            return None;
        }
        if other.implies(self) {
            return Some(other.clone());
        }
        if self.implies(other) {
            return Some(self.clone());
        }
        /// Append the items of `more` that `list` does not hold.
        fn add_new<T: PartialEq + Clone>(list: &mut Vec<T>, more: &[T]) {
            for item in more {
                if !list.contains(item) {
                    list.push(item.clone());
                }
            }
        }
        let mut data = CtxData::clone(self);
        add_new(&mut data.path, &other.path);
        add_new(&mut data.atoms, &other.atoms);
        add_new(&mut data.descriptions, &other.descriptions);
        Some(CondCtx { data: Some(Arc::new(data)) })
    }

    /// [`CondCtx::enter`], recording the result in `memo`.
    pub fn enter_recording<T>(
        &self,
        module: &Module,
        region: &CondRegion<T>,
        branch: u32,
        memo: &mut BranchContexts,
    ) -> CondCtx {
        let inner = self.enter(module, region, branch);
        memo.entered.insert(BranchContexts::key(self, region, branch), inner.clone());
        inner
    }

    /// [`CondCtx::enter`], taken from `memo` when it was recorded there.
    pub fn enter_recorded<T>(
        &self,
        module: &Module,
        region: &CondRegion<T>,
        branch: u32,
        memo: &BranchContexts,
    ) -> CondCtx {
        match memo.entered.get(&BranchContexts::key(self, region, branch)) {
            Some(inner) => inner.clone(),
            None => self.enter(module, region, branch),
        }
    }

    /// The descriptions as owned strings (for a clue).
    pub fn description_strings(&self) -> Vec<String> {
        self.descriptions.iter().map(|d| String::from(&**d)).collect()
    }
}

/// Facts that certainly hold when `expr` evaluates to `value`.
fn certain_atoms(expr: &PpExpr, value: bool, out: &mut Vec<(Name, bool)>) {
    match expr {
        PpExpr::Defined(n) => out.push((*n, value)),
        PpExpr::Unary(PpUnaryOp::Not, e) => certain_atoms(e, !value, out),
        PpExpr::Binary(PpBinaryOp::And, a, b) if value => {
            certain_atoms(a, true, out);
            certain_atoms(b, true, out);
        }
        PpExpr::Binary(PpBinaryOp::Or, a, b) if !value => {
            certain_atoms(a, false, out);
            certain_atoms(b, false, out);
        }
        // `#if X` holding means X is defined (an undefined name is 0).
        PpExpr::Ident(n) if value => out.push((*n, true)),
        _ => {}
    }
}

/// Appends the description of `c` evaluating to `holds` to `out`.
fn describe_condition(module: &Module, c: &Condition, holds: bool, out: &mut String) {
    let (expr, holds) = match &c.expr {
        PpExpr::Unary(PpUnaryOp::Not, e) if matches!(**e, PpExpr::Defined(_)) => (&**e, !holds),
        e => (e, holds),
    };
    match (expr, holds) {
        (PpExpr::Defined(n), true) => {
            out.push_str(module.name(*n));
            out.push_str(" is defined");
        }
        (PpExpr::Defined(n), false) => {
            out.push_str(module.name(*n));
            out.push_str(" is not defined");
        }
        (_, true) => {
            out.push('`');
            out.push_str(c.text.trim());
            out.push_str("` holds");
        }
        (_, false) => {
            out.push('`');
            out.push_str(c.text.trim());
            out.push_str("` does not hold");
        }
    }
}

/// How many failed branches before the taken one a context reads: their conditions give it facts and a
/// description. An `#elif` chain of N branches would otherwise cost N^2 facts and description text (8,000
/// branches: 0.84 s and 1.07 GB to check). Leaving out the facts of earlier branches only makes a context less
/// specific (more contexts count as compatible, as everything undecided does), and no hand-written chain comes
/// near it.
const READ_BRANCHES: usize = 32;

/// The first of the failed branches before branch `taken` (or the `#else`, `taken` = the branch count) that a
/// context reads.
fn first_read(taken: usize) -> usize {
    taken.saturating_sub(READ_BRANCHES)
}

fn describe_branch<T>(module: &Module, region: &CondRegion<T>, branch: u32) -> Arc<str> {
    thread_local! {
        /// Where descriptions are written before they are shared (one allocation each: the shared copy).
        static SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    SCRATCH.with(|scratch| {
        let mut out = scratch.borrow_mut();
        out.clear();
        let (failed, taken) = if branch == ELSE_BRANCH {
            (region.branches.len(), None)
        } else {
            (branch as usize, region.branches.get(branch as usize))
        };
        let first = first_read(failed);
        if first > 0 {
            // (`write!` to a `String` cannot fail.)
            let _ = write!(out, "the first {first} conditions of the chain are false");
        }
        for (i, b) in region.branches.iter().enumerate().take(failed).skip(first) {
            if i > 0 {
                out.push_str(" and ");
            }
            describe_condition(module, &b.condition, false, &mut out);
        }
        if let Some(b) = taken {
            if failed > 0 {
                out.push_str(" and ");
            }
            describe_condition(module, &b.condition, true, &mut out);
        }
        Arc::from(out.as_str())
    })
}

/// Whether a region of global items is shaped like an include guard (`#ifndef X` / `#define X` / ... / `#endif`),
/// transparent or not: its macro is the source's own, never a variant key.
pub fn is_include_guard(module: &Module, region: &CondRegion<GlobalItem>) -> bool {
    include_guard_macro(module, region).is_some()
}

/// Whether a region of global items is an include guard that holds in every variant reaching it: shaped like one,
/// and its macro not among the [`Module::kept_guards`] (a chunk spliced again after a conditional first inclusion
/// keeps its guards, which then hold in some variants only).
pub fn is_transparent_include_guard(module: &Module, region: &CondRegion<GlobalItem>) -> bool {
    include_guard_macro(module, region).is_some_and(|guard| !module.guard_is_kept(guard))
}

/// The macro of a region shaped like an include guard.
fn include_guard_macro(module: &Module, region: &CondRegion<GlobalItem>) -> Option<Name> {
    let [branch] = region.branches.as_slice() else {
        return None;
    };
    if region.else_items.is_some() || branch.condition.kind != CondKind::Ifndef {
        return None;
    }
    let PpExpr::Unary(PpUnaryOp::Not, inner) = &branch.condition.expr else {
        return None;
    };
    let PpExpr::Defined(guard) = **inner else {
        return None;
    };
    match branch.items.first() {
        Some(Guarded::Item(GlobalItem::Define(m))) if module.macros.get(*m).is_some_and(|d| d.name == guard) => {
            Some(guard)
        }
        _ => None,
    }
}

/// Contexts for tests of code that compares contexts: unconditional, both branches of `#ifdef A`, branches of
/// `#ifdef B` inside `#ifdef A`, a region of `#if` with no certain fact, one branch entered twice (two shared
/// contexts with equal content), and a branch whose innermost region is reached through two different outer
/// branches (a chunk included in both branches of `#ifdef A`).
#[cfg(test)]
pub(crate) fn test_contexts() -> Vec<CondCtx> {
    use cranelift_entity::EntityRef;
    use shaderlab_ir::FileId;
    let branch = |region: u32, branch: u32| BranchRef { region: Span::new(FileId::new(0), region, region + 1), branch };
    let name = |n: usize| Name::new(n);
    let ctx = |path: Vec<BranchRef>, atoms: Vec<(Name, bool)>| CondCtx {
        data: Some(Arc::new(CtxData { path, atoms, descriptions: Vec::new() })),
    };
    let (a, b) = (name(1), name(2));
    vec![
        CondCtx::default(),
        ctx(vec![branch(10, 0)], vec![(a, true)]),
        ctx(vec![branch(10, ELSE_BRANCH)], vec![(a, false)]),
        ctx(vec![branch(10, 0), branch(20, 0)], vec![(a, true), (b, true)]),
        ctx(vec![branch(10, 0), branch(20, ELSE_BRANCH)], vec![(a, true), (b, false)]),
        ctx(vec![branch(10, 0)], vec![(a, true)]),
        ctx(vec![branch(30, 0)], vec![]),
        ctx(vec![branch(30, 0), branch(20, 0)], vec![(b, true)]),
        ctx(vec![branch(10, ELSE_BRANCH), branch(20, 0)], vec![(a, false), (b, true)]),
    ]
}

#[cfg(test)]
thread_local! {
    /// How many times [`CondCtx::implies`] ran on this thread (tests of how work grows with input).
    pub(crate) static IMPLIES_CALLS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}
