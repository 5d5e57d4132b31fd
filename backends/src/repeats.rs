//! Uniforms declared more than once in a pass's scope chain (at two levels, twice in one level, under several
//! conditions): every variant of a stage must declare such a uniform once, or it does not compile.
//!
//! The declarations of one name that a stage writes are planned together, when the first of them is written, in
//! chain order (which is the order they are written in). A declaration whose conditions imply those of one
//! written before it is skipped: every variant that has it has the earlier one (so is one under `defined` tests
//! all its variants pass: a second `#ifdef A` region). One that some variant shares with earlier written ones
//! (`compatible` contexts, [`CondCtx::compatible`]) is written under a guard that is false where they are: the
//! negation of their conditions (`#ifdef A` `float u;` `#endif` `float u;` writes the second one under
//! `#ifndef A`). By induction, where a declaration is written its variants have no earlier one, and the variants
//! having some declaration are those having some written one.
//!
//! The negation is written only when it is short and reads the same at both places: each earlier declaration
//! sits in the first branch of its regions (`#if`, `#ifdef`, `#ifndef`; the negation of an `#elif` or `#else`
//! branch would repeat the branches before it), and no name it tests is `#define`d or `#undef`ined by the source
//! (between the two places it could change meaning). Otherwise, and for a name declared more than
//! [`crate::SCANNED`] times (hostile input: planning compares each declaration with the earlier ones, and the
//! negations would grow with their number), a marker macro is defined after each declaration a later one must
//! yield to, and tested there (`#ifndef SHADERLAB_UNIFORM_u`): a line each, however many there are.

use crate::plan::IdSet;
use shaderlab_ir::hash::{FastHashMap, FastHashSet};
use shaderlab_ir::{
    CondKind, CondRegion, Condition, GlobalId, GlobalItem, Guarded, Module, Name, PpBinaryOp, PpExpr, PpUnaryOp,
    ScopeId, Span, Statement, StmtKind,
};
use shaderlab_passes::variants::CondCtx;
use shaderlab_passes::Facts;

/// How one declaration of a uniform declared more than once is written.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Repeat {
    /// Every variant that has it has an earlier written declaration.
    pub skip: bool,
    /// The directive opening a guard around the declaration (`#ifndef A`), closed by `#endif` after it.
    pub guard: Option<String>,
    /// The marker `#define` written after the declaration (inside its guard).
    pub define: Option<String>,
}

/// What a stage's planning needs of the module and the pass.
pub(crate) struct PlanInput<'a> {
    pub m: &'a Module,
    pub facts: &'a Facts,
    /// The globals the stage writes.
    pub kept: &'a IdSet<GlobalId>,
    pub scopes: &'a [ScopeId],
}

/// The plans of one stage (nothing is allocated until a name declared more than once is written).
#[derive(Default)]
pub(crate) struct Repeats<'a> {
    planned: FastHashMap<GlobalId, Repeat>,
    /// Marker names handed out in this stage.
    markers: Vec<String>,
    /// The chain's regions of global items by their `#endif` (a context names a region so), made when asked.
    regions: Option<FastHashMap<Span, &'a CondRegion<GlobalItem>>>,
    /// Macro names the source defines or undefines anywhere, made when asked.
    redefined: Option<FastHashSet<Name>>,
}

/// One condition of an earlier declaration, written for a guard.
struct Term {
    /// The condition holding: `defined(A)`, `!defined(A)`, `(e)`.
    holds: String,
    /// The condition failing: `!defined(A)`, `defined(A)`, `!(e)`.
    fails: String,
    /// The directive of a guard that is its failing alone: `#ifndef A`, `#ifdef A`, `#if !(e)`.
    fails_directive: String,
}

impl<'a> Repeats<'a> {
    /// How declaration `g` (of a name with the declarations `same` in the chain, `g` among them) is written (the
    /// default: as it is).
    pub(crate) fn get(&mut self, input: &PlanInput<'a>, g: GlobalId, same: &[GlobalId]) -> Repeat {
        if !self.planned.contains_key(&g) {
            self.plan(input, same);
        }
        self.planned.get(&g).cloned().unwrap_or_default()
    }

    fn plan(&mut self, input: &PlanInput<'a>, same: &[GlobalId]) {
        let m = input.m;
        let unconditional = CondCtx::default();
        let contexts = &input.facts.resolution.global_ctx;
        let written = |g: &&GlobalId| input.kept.contains(**g) && m.globals.get(**g).is_some_and(|x| x.is_uniform());
        if same.iter().filter(written).take(2).count() < 2 {
            // The stage writes one of them (it does not use the others, or a lower level's declaration hides
            // them): written as it is, and nothing is kept.
            return;
        }
        let decls: Vec<(GlobalId, &CondCtx)> = same
            .iter()
            .filter(written)
            .map(|&g| (g, contexts.get(g).and_then(Option::as_ref).unwrap_or(&unconditional)))
            .collect();
        let name = same.first().and_then(|&g| m.globals.get(g)).map(|x| m.name(x.name)).unwrap_or_default();
        if decls.len() > crate::SCANNED {
            self.plan_markers(input, name, &decls);
            return;
        }
        // For each declaration: `None` when skipped, else the earlier written ones some of its variants have.
        let mut before: Vec<Option<Vec<usize>>> = Vec::with_capacity(decls.len());
        let mut written: Vec<usize> = Vec::with_capacity(decls.len());
        for (j, &(_, ctx)) in decls.iter().enumerate() {
            crate::work::count(written.len().max(1));
            if written.iter().any(|&i| ctx.implies(decls[i].1)) {
                before.push(None);
                continue;
            }
            let earlier: Vec<usize> = written.iter().copied().filter(|&i| ctx.compatible(decls[i].1)).collect();
            if earlier.iter().any(|&i| self.certainly_has(input, decls[i].1, ctx)) {
                before.push(None);
                continue;
            }
            before.push(Some(earlier));
            written.push(j);
        }
        match self.negations(input, &decls, &before) {
            Some(guards) => {
                for ((&(g, _), b), guard) in decls.iter().zip(&before).zip(guards) {
                    self.planned.insert(g, Repeat { skip: b.is_none(), guard, define: None });
                }
            }
            None => {
                // A marker: tested where a declaration has earlier ones, defined after each of those.
                let marker = self.marker(m, name);
                let mut yielded = vec![false; decls.len()];
                for &i in before.iter().flatten().flatten() {
                    yielded[i] = true;
                }
                for ((&(g, _), b), yielded) in decls.iter().zip(&before).zip(yielded) {
                    let repeat = match b {
                        None => Repeat { skip: true, ..Repeat::default() },
                        Some(earlier) => Repeat {
                            skip: false,
                            guard: (!earlier.is_empty()).then(|| ["#ifndef ", &marker].concat()),
                            define: yielded.then(|| ["#define ", &marker].concat()),
                        },
                    };
                    self.planned.insert(g, repeat);
                }
            }
        }
    }

    /// A name declared more than [`crate::SCANNED`] times: every declaration after the first written one is
    /// guarded by the marker and every one but the last defines it, with no comparison of conditions except
    /// those that cost one step (a declaration after an unconditional one, or in the context of the one before,
    /// is skipped).
    fn plan_markers(&mut self, input: &PlanInput<'a>, name: &str, decls: &[(GlobalId, &CondCtx)]) {
        crate::work::count(decls.len());
        let marker = self.marker(input.m, name);
        let mut written: Vec<usize> = Vec::with_capacity(decls.len());
        let mut covered = false;
        for (j, &(g, ctx)) in decls.iter().enumerate() {
            let skip = covered || written.last().is_some_and(|&i| ctx.is_same(decls[i].1));
            if !skip {
                written.push(j);
                covered |= ctx.is_unconditional();
            }
            self.planned.insert(g, Repeat { skip, ..Repeat::default() });
        }
        for (k, &j) in written.iter().enumerate() {
            if let Some(repeat) = self.planned.get_mut(&decls[j].0) {
                repeat.guard = (k > 0).then(|| ["#ifndef ", &marker].concat());
                repeat.define = (k + 1 < written.len()).then(|| ["#define ", &marker].concat());
            }
        }
    }

    /// The guard of each declaration as negations of the conditions of the earlier ones (`None` in the list: no
    /// guard), or `None` when some negation cannot be written (see the module's comment).
    fn negations(
        &mut self,
        input: &PlanInput<'a>,
        decls: &[(GlobalId, &CondCtx)],
        before: &[Option<Vec<usize>>],
    ) -> Option<Vec<Option<String>>> {
        let mut guards = Vec::with_capacity(decls.len());
        for (j, earlier) in before.iter().enumerate() {
            let Some(earlier) = earlier.as_ref().filter(|e| !e.is_empty()) else {
                guards.push(None);
                continue;
            };
            let here = decls[j].1;
            // One term per earlier declaration: the negation of the conditions it has and this one has not.
            let mut terms: Vec<(String, Option<String>)> = Vec::with_capacity(earlier.len());
            for &i in earlier {
                let extra: Vec<Term> = decls[i]
                    .1
                    .path
                    .iter()
                    .filter(|b| !here.path.contains(b))
                    .map(|b| self.term(input, b.region, b.branch))
                    .collect::<Option<_>>()?;
                let term = match extra.as_slice() {
                    [] => return None,
                    [one] => (one.fails.clone(), Some(one.fails_directive.clone())),
                    many => {
                        let all: Vec<&str> = many.iter().map(|t| t.holds.as_str()).collect();
                        (["!(", &all.join(" && "), ")"].concat(), None)
                    }
                };
                if !terms.iter().any(|t| t.0 == term.0) {
                    terms.push(term);
                }
            }
            guards.push(Some(match terms.as_mut_slice() {
                [(_, Some(directive))] => std::mem::take(directive),
                _ => {
                    let all: Vec<&str> = terms.iter().map(|t| t.0.as_str()).collect();
                    ["#if ", &all.join(" && ")].concat()
                }
            }));
        }
        Some(guards)
    }

    /// The condition of branch `branch` of the region ending at `end`, when it is the first branch (its
    /// condition alone decides it) and the source never defines or undefines a name it tests (it reads the same
    /// wherever it is tested again).
    fn stable_condition(&mut self, input: &PlanInput<'a>, end: Span, branch: u32) -> Option<&'a Condition> {
        if branch != 0 {
            return None;
        }
        let region = *self.regions(input).get(&end)?;
        let condition = &region.branches.first()?.condition;
        let mut stable = !matches!(condition.expr, PpExpr::Invalid);
        let redefined = self.redefined(input);
        crate::writer::collect_condition_names(&condition.expr, &mut |n| stable &= !redefined.contains(&n));
        stable.then_some(condition)
    }

    /// Whether every variant of `here` has the conditions of `earlier` (beyond the branches both are in): each is
    /// a stable test of `defined` names (`#ifdef A`, `#if defined(A) && !defined(B)`) whose facts `here` is
    /// certain of (two `#ifdef A` regions). [`CondCtx::implies`] compares branches only.
    fn certainly_has(&mut self, input: &PlanInput<'a>, earlier: &CondCtx, here: &CondCtx) -> bool {
        earlier.path.iter().filter(|b| !here.path.contains(b)).all(|b| {
            self.stable_condition(input, b.region, b.branch).is_some_and(|c| facts_hold(&c.expr, true, &here.atoms))
        })
    }

    /// Branch `branch` of the region ending at `end` as a guard term ([`Repeats::stable_condition`]).
    fn term(&mut self, input: &PlanInput<'a>, end: Span, branch: u32) -> Option<Term> {
        let condition = self.stable_condition(input, end, branch)?;
        let text = condition.text.trim();
        Some(match condition.kind {
            CondKind::Ifdef => Term {
                holds: ["defined(", text, ")"].concat(),
                fails: ["!defined(", text, ")"].concat(),
                fails_directive: ["#ifndef ", text].concat(),
            },
            CondKind::Ifndef => Term {
                holds: ["!defined(", text, ")"].concat(),
                fails: ["defined(", text, ")"].concat(),
                fails_directive: ["#ifdef ", text].concat(),
            },
            CondKind::If | CondKind::Elif => Term {
                holds: ["(", text, ")"].concat(),
                fails: ["!(", text, ")"].concat(),
                fails_directive: ["#if !(", text, ")"].concat(),
            },
        })
    }

    fn regions(&mut self, input: &PlanInput<'a>) -> &FastHashMap<Span, &'a CondRegion<GlobalItem>> {
        self.regions.get_or_insert_with(|| {
            let mut map = FastHashMap::default();
            for &s in input.scopes {
                if let Some(scope) = input.m.scopes.get(s) {
                    collect_regions(&scope.items, &mut map);
                }
            }
            map
        })
    }

    fn redefined(&mut self, input: &PlanInput<'a>) -> &FastHashSet<Name> {
        self.redefined.get_or_insert_with(|| {
            let m = input.m;
            let mut set: FastHashSet<Name> = m.macros.values().map(|d| d.name).collect();
            for &s in input.scopes {
                if let Some(scope) = m.scopes.get(s) {
                    Guarded::for_each_item(&scope.items, &mut |item| {
                        if let GlobalItem::Undef { name, .. } = item {
                            set.insert(*name);
                        }
                    });
                }
            }
            for f in m.functions.values() {
                if let Some(body) = &f.body {
                    statement_undefs(&body.stmts, &mut set);
                }
            }
            set
        })
    }

    /// A marker macro for uniform `name`, spelled like no name of the module and no other marker.
    fn marker(&mut self, m: &Module, name: &str) -> String {
        // (A name starting with `_` would make `__`, reserved in macro names.)
        let base = ["SHADERLAB_UNIFORM_", name.trim_start_matches('_')].concat();
        let mut candidate = base.clone();
        let mut k = 0;
        while m.names.lookup(&candidate).is_some() || self.markers.contains(&candidate) {
            k += 1;
            candidate = format!("{base}_{k}");
        }
        self.markers.push(candidate.clone());
        candidate
    }
}

/// Whether `expr` certainly evaluates to `value` given the facts `atoms` (`(name, defined?)`): only `defined`
/// tests joined by `!` and `&&` (or `||` for `false`) are decided.
fn facts_hold(expr: &PpExpr, value: bool, atoms: &[(Name, bool)]) -> bool {
    match expr {
        PpExpr::Defined(n) => atoms.contains(&(*n, value)),
        PpExpr::Unary(PpUnaryOp::Not, e) => facts_hold(e, !value, atoms),
        PpExpr::Binary(PpBinaryOp::And, a, b) if value => facts_hold(a, true, atoms) && facts_hold(b, true, atoms),
        PpExpr::Binary(PpBinaryOp::Or, a, b) if !value => facts_hold(a, false, atoms) && facts_hold(b, false, atoms),
        _ => false,
    }
}

fn collect_regions<'a>(items: &'a [Guarded<GlobalItem>], out: &mut FastHashMap<Span, &'a CondRegion<GlobalItem>>) {
    for item in items {
        if let Guarded::Cond(r) = item {
            out.insert(r.end_span, r);
            for b in &r.branches {
                collect_regions(&b.items, out);
            }
            if let Some(items) = &r.else_items {
                collect_regions(items, out);
            }
        }
    }
}

/// The names `#undef`ined in a function body.
fn statement_undefs(stmts: &[Guarded<Statement>], out: &mut FastHashSet<Name>) {
    Guarded::for_each_item(stmts, &mut |s| statement_undef(s, out));
}

fn statement_undef(s: &Statement, out: &mut FastHashSet<Name>) {
    if let StmtKind::Undef(name) = s.kind {
        out.insert(name);
    }
    if let Some(block) = s.kind.nested_block() {
        statement_undefs(&block.stmts, out);
    }
    s.kind.for_each_nested(&mut |n| statement_undef(n, out));
}
