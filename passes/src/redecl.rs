//! The first earlier declaration a new declaration conflicts with (Redefinition), found without comparing the
//! new one with every earlier declaration of its name.
//!
//! A declaration conflicts with an earlier one of its name and level when every variant of the new one has the
//! earlier one (its context implies the earlier context) and the two are not a legal redeclaration (an
//! overload, a prototype and its definition, one uniform declared twice). Name resolution compares a name's
//! few declarations one by one; once a name has [`INDEX_FROM`] declarations in one scope it builds a
//! [`ConflictIndex`], so that N declarations of one name, each under its own condition, cost O(N), not
//! O(N²) comparisons:
//!
//! - An earlier context implied by the new one has every branch of its path in the new path, so its innermost
//!   branch (or none, when unconditional) is one of the new path's: declarations are bucketed by innermost
//!   branch, and only the new path's buckets are looked at.
//! - Two declarations with the same context and the same [`KindKey`] conflict with exactly the same later
//!   declarations: only the first of them is kept (the first conflict found is the same declaration).
//! - A function conflicts only with non-functions and with functions of its own parameter signature: functions
//!   are also kept by signature, so N overloads of one name do not compare with each other.

use crate::variants::{BranchRef, CondCtx};
use shaderlab_ir::hash::{FastHashMap as HashMap, FastHashSet as HashSet};
use shaderlab_ir::TypeId;

/// How many declarations of one name in one scope are compared one by one before an index is built.
pub(crate) const INDEX_FROM: usize = 8;

/// [`INDEX_FROM`], or in this crate's tests what a test set ([`set_index_from`]), so that a test can compare
/// the index with the one-by-one comparison on the same program.
#[cfg(not(test))]
#[inline(always)]
pub(crate) fn index_from() -> usize {
    INDEX_FROM
}

#[cfg(test)]
thread_local! {
    static INDEX_FROM_NOW: std::cell::Cell<usize> = const { std::cell::Cell::new(INDEX_FROM) };
}

#[cfg(test)]
pub(crate) fn index_from() -> usize {
    INDEX_FROM_NOW.with(|n| n.get())
}

/// Build indexes from `n` declarations of a name on this thread (`usize::MAX`: never).
#[cfg(test)]
pub(crate) fn set_index_from(n: usize) {
    INDEX_FROM_NOW.with(|c| c.set(n));
}

/// A type as the redeclaration rules compare it: base type and number of array dimensions.
pub(crate) type ShapeKey = (TypeId, usize);

/// What of a declaration the redeclaration rules read.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum KindKey {
    Struct,
    /// A global variable that is not a uniform.
    PlainVar,
    Uniform(ShapeKey),
    Function {
        params: Box<[ShapeKey]>,
        body: bool,
        ret: ShapeKey,
    },
    /// A local variable or parameter (any earlier one in the same scope conflicts).
    Local,
}

impl KindKey {
    /// Whether `self`, declared first, and `later` may both be declared in one level: function overloads
    /// (different parameter types, or a prototype and its definition), and a uniform declared twice with the
    /// same type (the engine merges them).
    pub(crate) fn compatible(&self, later: &KindKey) -> bool {
        match (self, later) {
            (
                KindKey::Function { params: pa, body: ba, ret: ra },
                KindKey::Function { params: pb, body: bb, ret: rb },
            ) => pa != pb || ((!ba || !bb) && ra == rb),
            (KindKey::Uniform(a), KindKey::Uniform(b)) => a == b,
            _ => false,
        }
    }
}

/// One kept declaration: its position in the name's declaration list, its context and key.
struct Kept {
    at: u32,
    ctx: CondCtx,
    key: KindKey,
}

/// The kept declarations whose context has one innermost branch (or none).
#[derive(Default)]
struct Bucket {
    /// Declarations that are not functions, in order.
    others: Vec<Kept>,
    /// Functions, in order (a non-function conflicts with every one).
    functions: Vec<(u32, CondCtx)>,
    /// Functions by parameter signature, in order (a function conflicts only with these among functions).
    by_params: HashMap<Box<[ShapeKey]>, Vec<Kept>>,
}

/// Keep `indexes[name]` up to date after a declaration was appended to `decls`, the name's declarations in one
/// scope (`entry` reads a declaration's context and key): the index is built when the list reaches
/// [`INDEX_FROM`] declarations and extended after that.
pub(crate) fn record<K: std::hash::Hash + Eq, T>(
    indexes: &mut HashMap<K, ConflictIndex>,
    name: K,
    decls: &[T],
    entry: impl Fn(&T) -> (&CondCtx, KindKey),
) {
    let count = decls.len();
    if count > index_from() {
        if let (Some(index), Some(last)) = (indexes.get_mut(&name), decls.last()) {
            let (ctx, key) = entry(last);
            index.insert(count - 1, ctx, key);
        }
    } else if count == index_from() {
        let mut index = ConflictIndex::default();
        for (at, d) in decls.iter().enumerate() {
            let (ctx, key) = entry(d);
            index.insert(at, ctx, key);
        }
        indexes.insert(name, index);
    }
}

/// The declarations of one name in one scope, for [`ConflictIndex::first_conflict`].
#[derive(Default)]
pub(crate) struct ConflictIndex {
    /// `(context identity, key)` of every kept declaration.
    seen: HashSet<(usize, KindKey)>,
    buckets: HashMap<Option<BranchRef>, Bucket>,
}

impl ConflictIndex {
    /// Add the declaration at position `at` of the name's list (positions must grow).
    pub(crate) fn insert(&mut self, at: usize, ctx: &CondCtx, key: KindKey) {
        if !self.seen.insert((ctx.identity(), key.clone())) {
            return;
        }
        let at = at as u32;
        let bucket = self.buckets.entry(ctx.path.last().copied()).or_default();
        match &key {
            KindKey::Function { params, .. } => {
                bucket.functions.push((at, ctx.clone()));
                let params = params.clone();
                bucket.by_params.entry(params).or_default().push(Kept { at, ctx: ctx.clone(), key });
            }
            _ => bucket.others.push(Kept { at, ctx: ctx.clone(), key }),
        }
    }

    /// The position of the first earlier declaration that a new declaration `key` under `ctx` conflicts with.
    pub(crate) fn first_conflict(&self, ctx: &CondCtx, key: &KindKey) -> Option<usize> {
        let mut best: Option<u32> = None;
        // The first hit of a list in order, if it comes before the best so far.
        let consider = |best: &mut Option<u32>, hit: Option<u32>| {
            if let Some(at) = hit {
                if best.is_none_or(|b| at < b) {
                    *best = Some(at);
                }
            }
        };
        let inner = std::iter::once(None).chain(ctx.path.iter().copied().map(Some));
        for bucket in inner.filter_map(|b| self.buckets.get(&b)) {
            let before = |at: u32, best: Option<u32>| best.is_none_or(|b| at < b);
            let hit = bucket
                .others
                .iter()
                .take_while(|k| before(k.at, best))
                .find(|k| ctx.implies(&k.ctx) && !k.key.compatible(key))
                .map(|k| k.at);
            consider(&mut best, hit);
            let hit = match key {
                KindKey::Function { params, .. } => bucket.by_params.get(params).and_then(|same| {
                    same.iter()
                        .take_while(|k| before(k.at, best))
                        .find(|k| ctx.implies(&k.ctx) && !k.key.compatible(key))
                        .map(|k| k.at)
                }),
                _ => bucket
                    .functions
                    .iter()
                    .take_while(|(at, _)| before(*at, best))
                    .find(|(_, c)| ctx.implies(c))
                    .map(|(at, _)| *at),
            };
            consider(&mut best, hit);
        }
        best.map(|at| at as usize)
    }

    /// The position of the first declaration that is not a function, whose key passes `wanted` and whose
    /// context `ctx` implies (a declaration every variant of `ctx` has).
    pub(crate) fn first_implied(&self, ctx: &CondCtx, wanted: impl Fn(&KindKey) -> bool) -> Option<usize> {
        let inner = std::iter::once(None).chain(ctx.path.iter().copied().map(Some));
        inner
            .filter_map(|b| self.buckets.get(&b))
            .filter_map(|bucket| bucket.others.iter().find(|k| wanted(&k.key) && ctx.implies(&k.ctx)).map(|k| k.at))
            .min()
            .map(|at| at as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(n: u32) -> ShapeKey {
        (TypeId::from_u32(n), 0)
    }

    fn function(params: &[u32], body: bool, ret: u32) -> KindKey {
        KindKey::Function { params: params.iter().map(|&p| shape(p)).collect(), body, ret: shape(ret) }
    }

    /// The first conflict by comparing with every earlier declaration (what the index must agree with).
    fn linear(decls: &[(CondCtx, KindKey)], ctx: &CondCtx, key: &KindKey) -> Option<usize> {
        decls.iter().position(|(c, k)| ctx.implies(c) && !k.compatible(key))
    }

    #[test]
    fn agrees_with_comparing_every_declaration() {
        let keys = [
            KindKey::Struct,
            KindKey::PlainVar,
            KindKey::Uniform(shape(1)),
            KindKey::Uniform(shape(2)),
            function(&[1], true, 1),
            function(&[1], false, 1),
            function(&[1], false, 2),
            function(&[2], true, 1),
            function(&[], true, 1),
        ];
        let ctxs = crate::variants::test_contexts();
        // Every sequence of (context, key) from a small deterministic generator.
        let mut state = 0x2545_f491_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut checked = 0;
        for _ in 0..300 {
            let mut decls: Vec<(CondCtx, KindKey)> = Vec::new();
            let mut index = ConflictIndex::default();
            for _ in 0..24 {
                let ctx = ctxs[next(ctxs.len())].clone();
                let key = keys[next(keys.len())].clone();
                assert_eq!(index.first_conflict(&ctx, &key), linear(&decls, &ctx, &key), "{decls:?} then {key:?}");
                checked += 1;
                index.insert(decls.len(), &ctx, key.clone());
                decls.push((ctx, key));
            }
        }
        assert_eq!(checked, 300 * 24);
    }
}
