//! Statements and blocks. A statement strategy takes the scope before it and yields the statement with the
//! scope after it, so the next statement can use what it declared.
//!
//! What keeps blocks diagnostic-free: every name is fresh (no shadowing), a `return`/`break`/`continue`/
//! `discard` only ends an `if` block (never a loop body or an `else`, so no statement is ever unreachable and
//! no construct returns on every path except the function's own tail), every `switch` has a `default` and
//! distinct labels, loop indices are never written, and conditional regions only use what is declared in
//! every variant they are compiled in.

use super::expr::{expr_of, helper_call_returning, path_expr, value_type};
use super::{chance, just, lazy, one_of, pick, then, Gen};
use crate::ast::{Cond, Expr, Stmt};
use crate::scope::{Access, FunctionKind, Path, Scope, Stage};
use crate::ty::{Scalar, Ty};
use proptest::prelude::*;

/// Statements and the scope after them.
pub type Stmts = (Vec<Stmt>, Scope);

/// Exactly `count` statements, chained: each sees what the earlier ones declared.
pub fn stmt_list(scope: Scope, count: usize) -> Gen<Stmts> {
    if count == 0 {
        return just((Vec::new(), scope));
    }
    then(stmt(&scope), move |(first, after)| {
        stmt_list(after, count - 1)
            .prop_map(move |(rest, sc)| {
                let mut all = first.clone();
                all.extend(rest);
                (all, sc)
            })
            .boxed()
    })
}

/// 1 to `max_stmts_per_block` statements.
pub fn some_stmts(scope: &Scope) -> Gen<Stmts> {
    let max = scope.config.max_stmts_per_block.max(1);
    let s = scope.clone();
    then((1..=max).boxed(), move |n| stmt_list(s.clone(), n))
}

/// A nested block: its statements, possibly ended by a jump (`may_jump`: the block ends an `if`), and the
/// enclosing scope after it (the block's declarations dropped, the name counter kept).
pub fn nested_block(scope: &Scope, may_jump: bool) -> Gen<Stmts> {
    let mut inner = scope.clone();
    inner.block_depth += 1;
    let outer = scope.clone();
    then(some_stmts(&inner), move |(body, after)| {
        let outer = outer.after(&after);
        let jumps = if may_jump { jumps(&after) } else { Vec::new() };
        if jumps.is_empty() {
            return just((body, outer));
        }
        let body2 = body.clone();
        then(chance(25), move |jump| {
            if !jump {
                return just((body2.clone(), outer.clone()));
            }
            let (body, outer) = (body2.clone(), outer.clone());
            pick(jumps.iter().map(|(w, g)| (*w, g.clone())).collect())
                .prop_map(move |j| {
                    let mut b = body.clone();
                    b.push(j);
                    (b, outer.clone())
                })
                .boxed()
        })
    })
}

/// The jumps that may end an `if` block here.
fn jumps(scope: &Scope) -> Vec<(u32, Gen<Stmt>)> {
    let mut out = Vec::new();
    match &scope.function {
        Some(FunctionKind::Helper(Some(ty))) => {
            let g = expr_of(ty, scope.config.max_expr_depth, scope).prop_map(|e| Stmt::Return(Some(e))).boxed();
            out.push((3, g));
        }
        Some(FunctionKind::Helper(None)) => out.push((1, just(Stmt::Return(None)))),
        Some(FunctionKind::Entry) | None => {}
    }
    if scope.loops > 0 {
        out.push((2, one_of(vec![Stmt::Break, Stmt::Continue])));
    }
    if scope.stage == Stage::Fragment && scope.function == Some(FunctionKind::Entry) {
        out.push((1, just(Stmt::Discard)));
    }
    out
}

/// One statement (a conditional region may hold several).
pub fn stmt(scope: &Scope) -> Gen<(Vec<Stmt>, Scope)> {
    let f = &scope.config.features;
    let nest = scope.block_depth < scope.config.max_block_depth;
    let defer = |weight: u32, build: fn(&Scope) -> Gen<Stmts>| {
        let s = scope.clone();
        (weight, lazy(move || build(&s)))
    };
    let mut options = vec![defer(4, declaration), defer(5, assignment)];
    if scope.basic_paths(true).iter().any(|p| is_numeric(&p.ty)) {
        options.push(defer(1, inc_dec));
    }
    if scope.helpers.iter().any(|h| h.ret.is_none()) {
        options.push(defer(1, void_call));
    }
    if nest {
        if f.branches {
            options.push(defer(3, if_stmt));
        }
        if f.loops {
            options.push(defer(2, for_stmt));
        }
        if f.switch_allowed() {
            options.push(defer(1, switch_stmt));
        }
        options.push(defer(1, block_stmt));
        if f.macro_conditionals && !scope.free_macros().is_empty() {
            options.push(defer(2, cond_stmt));
        }
    }
    pick(options)
}

fn is_numeric(ty: &Ty) -> bool {
    ty.scalar_kind().is_some_and(Scalar::is_numeric)
}

/// `T name = e;`, `const T name = c;`, or an array `T name[N];` filled element by element later.
fn declaration(scope: &Scope) -> Gen<Stmts> {
    let s = scope.clone();
    let arrays = scope.config.features.arrays;
    then((value_type(scope), chance(10), chance(if arrays { 12 } else { 0 })).boxed(), move |(ty, constant, array)| {
        let mut s = s.clone();
        let name = s.fresh("l");
        let ty_text = s.glsl(&ty);
        if array && ty.is_basic() {
            let s2 = s.clone();
            return then((1u32..=4).boxed(), move |len| {
                let mut s = s2.clone();
                s.declare(name.clone(), Ty::Array(Box::new(ty.clone()), len), Access::Write);
                let decl = Stmt::Decl {
                    constant: false,
                    ty: ty_text.clone(),
                    name: name.clone(),
                    array: Some(len.to_string()),
                    init: None,
                };
                // Fill one element so that the array is used.
                let elem = expr_of(&ty, 1, &s);
                let target = Expr::Index(Box::new(Expr::place(&name)), Box::new(Expr::literal("0")));
                elem.prop_map(move |v| {
                    (vec![decl.clone(), Stmt::Assign { target: target.clone(), op: "=", value: v }], s.clone())
                })
                .boxed()
            });
        }
        let constant = constant && ty.is_basic();
        let mut init_scope = s.clone();
        init_scope.const_only = constant;
        let depth = s.config.max_expr_depth;
        let init = if constant {
            expr_of(&ty, depth, &init_scope).prop_map(Some).boxed()
        } else {
            let ty = ty.clone();
            then(chance(85), move |with_init| {
                if with_init {
                    expr_of(&ty, depth, &init_scope).prop_map(Some).boxed()
                } else {
                    just(None)
                }
            })
        };
        let access = if constant { Access::Const } else { Access::Write };
        let ty2 = ty.clone();
        init.prop_map(move |init| {
            let mut after = s.clone();
            after.declare(name.clone(), ty2.clone(), access);
            (vec![Stmt::Decl { constant, ty: ty_text.clone(), name: name.clone(), array: None, init }], after)
        })
        .boxed()
    })
}

/// `place op value;` on a writable scalar, vector or matrix (or a swizzle of a writable vector).
fn assignment(scope: &Scope) -> Gen<Stmts> {
    let places = scope.basic_paths(true);
    if places.is_empty() {
        return declaration(scope);
    }
    let s = scope.clone();
    then(one_of(places), move |p: Path| {
        let s = s.clone();
        let depth = s.config.max_expr_depth;
        let ty = p.ty.clone();
        let k = ty.scalar_kind().unwrap_or(Scalar::Float);
        let target = path_expr(&p, &s, false);
        let mut options: Vec<(u32, Gen<Stmt>)> = Vec::new();
        let assign = |op: &'static str, target: Gen<Expr>, value: Gen<Expr>| -> Gen<Stmt> {
            (target, value).prop_map(move |(target, value)| Stmt::Assign { target, op, value }).boxed()
        };
        options.push((4, assign("=", target.clone(), expr_of(&ty, depth, &s))));
        if k.is_numeric() {
            options.push((
                2,
                then(one_of(vec!["+=", "-=", "*="]), {
                    let (t, ty, s) = (target.clone(), ty.clone(), s.clone());
                    move |op| assign(op, t.clone(), expr_of(&ty, depth, &s))
                }),
            ));
            let divisor = match k {
                Scalar::Float => "2.0",
                Scalar::Int => "2",
                Scalar::Uint => "2u",
                Scalar::Bool => "true",
            };
            options.push((1, assign("/=", target.clone(), just(Expr::literal(divisor)))));
        }
        if let (Ty::Vector(_, n), true) = (&ty, s.config.features.swizzles) {
            let n = *n;
            let s2 = s.clone();
            let swizzled = then((1..=n as usize).boxed(), move |len| {
                let comps = prop::sample::subsequence((0..n).collect::<Vec<u8>>(), len).prop_shuffle();
                let s3 = s2.clone();
                let t = target.clone();
                then((comps, 0usize..3).boxed(), move |(comps, set)| {
                    let text: String =
                        comps.iter().map(|&c| [b"xyzw", b"rgba", b"stpq"][set][c as usize] as char).collect();
                    let value = expr_of(&Ty::gen(k, comps.len() as u8), depth, &s3);
                    (t.clone(), value)
                        .prop_map(move |(target, value)| Stmt::Assign {
                            target: Expr::Swizzle(Box::new(target), text.clone()),
                            op: "=",
                            value,
                        })
                        .boxed()
                })
            });
            options.push((2, swizzled));
        }
        let after = s.clone();
        pick(options).prop_map(move |st| (vec![st], after.clone())).boxed()
    })
}

/// `x++`, `--v`.
fn inc_dec(scope: &Scope) -> Gen<Stmts> {
    let places: Vec<Path> = scope.basic_paths(true).into_iter().filter(|p| is_numeric(&p.ty)).collect();
    if places.is_empty() {
        return declaration(scope);
    }
    let s = scope.clone();
    then((one_of(places), one_of(vec!["++", "--"]), any::<bool>()).boxed(), move |(p, op, prefix)| {
        let after = s.clone();
        path_expr(&p, &s, false)
            .prop_map(move |target| (vec![Stmt::IncDec { target, op, prefix }], after.clone()))
            .boxed()
    })
}

/// A call of a void helper as a statement.
fn void_call(scope: &Scope) -> Gen<Stmts> {
    match helper_call_returning(None, scope.config.max_expr_depth.saturating_sub(1), scope) {
        Some(g) => {
            let after = scope.clone();
            g.prop_map(move |e| (vec![Stmt::Call(e)], after.clone())).boxed()
        }
        None => declaration(scope),
    }
}

fn if_stmt(scope: &Scope) -> Gen<Stmts> {
    let cond = expr_of(&Ty::BOOL, scope.config.max_expr_depth, scope);
    let s = scope.clone();
    then((cond, chance(40)).boxed(), move |(cond, with_else)| {
        let s2 = s.clone();
        then(nested_block(&s, true), move |(then_body, after)| {
            let cond = cond.clone();
            if !with_else {
                return just((vec![Stmt::If { cond, then: then_body, otherwise: None }], after));
            }
            let s3 = s2.after(&after);
            nested_block(&s3, false)
                .prop_map(move |(else_body, after)| {
                    (vec![Stmt::If { cond: cond.clone(), then: then_body.clone(), otherwise: Some(else_body) }], after)
                })
                .boxed()
        })
    })
}

/// `for (int i = 0; i < bound; i++) { ... }`: the index is readable in the body, never written.
fn for_stmt(scope: &Scope) -> Gen<Stmts> {
    let s = scope.clone();
    then((1u32..=4).boxed(), move |bound| {
        let mut inner = s.clone();
        let var = inner.fresh("i");
        inner.declare(var.clone(), Ty::INT, Access::Read).loop_bound = Some(bound);
        inner.loops += 1;
        let outer = s.clone();
        nested_block(&inner, false)
            .prop_map(move |(body, after)| (vec![Stmt::For { var: var.clone(), bound, body }], outer.after(&after)))
            .boxed()
    })
}

/// `switch (i) { case a: { ... } break; ... default: { ... } break; }`
fn switch_stmt(scope: &Scope) -> Gen<Stmts> {
    let selector = expr_of(&Ty::INT, scope.config.max_expr_depth, scope);
    let labels = prop::sample::subsequence((0..8).collect::<Vec<i32>>(), 1..=3);
    let s = scope.clone();
    then((selector, labels).boxed(), move |(selector, labels)| {
        let cases = case_bodies(s.clone(), labels.len() + 1);
        let outer = s.clone();
        cases
            .prop_map(move |(mut bodies, after)| {
                let default = bodies.pop().unwrap_or_default();
                let cases = labels.iter().copied().zip(bodies).collect();
                (vec![Stmt::Switch { selector: selector.clone(), cases, default }], outer.after(&after))
            })
            .boxed()
    })
}

/// `count` blocks in sequence (the case bodies of a switch), threading the name counter.
fn case_bodies(scope: Scope, count: usize) -> Gen<(Vec<Vec<Stmt>>, Scope)> {
    if count == 0 {
        return just((Vec::new(), scope));
    }
    let s = scope.clone();
    then(nested_block(&scope, false), move |(body, after)| {
        let next = s.after(&after);
        case_bodies(next, count - 1)
            .prop_map(move |(mut rest, sc)| {
                rest.insert(0, body.clone());
                (rest, sc)
            })
            .boxed()
    })
}

fn block_stmt(scope: &Scope) -> Gen<Stmts> {
    nested_block(scope, false).prop_map(|(body, after)| (vec![Stmt::Block(body)], after)).boxed()
}

/// `#ifdef M ... [#else ...] #endif` around statements. Declarations inside stay visible after the region in
/// the variants of their branch; optionally both branches declare one more variable of the same type (with
/// different initializers), which is then visible in every variant.
fn cond_stmt(scope: &Scope) -> Gen<Stmts> {
    let macros = scope.free_macros();
    let s = scope.clone();
    then((one_of(macros), any::<bool>(), chance(50), chance(40)).boxed(), move |(m, defined, with_else, shared)| {
        let s = s.clone();
        let then_scope = s.under(&m, defined);
        let m2 = m.clone();
        then(some_stmts(&then_scope), move |(then_body, then_after)| {
            let s = s.clone();
            let m = m2.clone();
            let mut else_scope = s.under(&m, !defined);
            else_scope.next_id = then_after.next_id;
            let else_part = if with_else || shared {
                some_stmts(&else_scope).prop_map(|(b, sc)| (Some(b), sc)).boxed()
            } else {
                just((None, else_scope))
            };
            let then_after = then_after.clone();
            then(else_part, move |(else_body, else_after)| {
                // The region's declarations, with their branch guards, join the enclosing scope.
                let mut after = s.clone();
                let base = s.vars.len();
                after.vars.extend(then_after.vars.iter().skip(base).cloned());
                after.vars.extend(else_after.vars.iter().skip(base).cloned());
                after.next_id = else_after.next_id;
                let name = m.clone();
                let region = move |then: Vec<Stmt>, otherwise: Option<Vec<Stmt>>| Cond {
                    macro_name: name.clone(),
                    defined,
                    then,
                    otherwise,
                };
                if !shared {
                    return just((vec![Stmt::Cond(region(then_body.clone(), else_body))], after));
                }
                let (then_body, else_body) = (then_body.clone(), else_body.unwrap_or_default());
                let (then_after, else_after, m) = (then_after.clone(), else_after.clone(), m.clone());
                then(value_type(&after), move |ty| {
                    let mut after = after.clone();
                    let name = after.fresh("l");
                    after.declare(name.clone(), ty.clone(), Access::Write).declared_under.push(m.clone());
                    let depth = after.config.max_expr_depth;
                    let ty_text = after.glsl(&ty);
                    let decl = move |init: Expr| Stmt::Decl {
                        constant: false,
                        ty: ty_text.clone(),
                        name: name.clone(),
                        array: None,
                        init: Some(init),
                    };
                    let (tb, eb, region) = (then_body.clone(), else_body.clone(), region.clone());
                    (expr_of(&ty, depth, &then_after), expr_of(&ty, depth, &else_after))
                        .prop_map(move |(a, b)| {
                            let mut t = tb.clone();
                            t.push(decl(a));
                            let mut e = eb.clone();
                            e.push(decl(b));
                            (vec![Stmt::Cond(region(t, Some(e)))], after.clone())
                        })
                        .boxed()
                })
            })
        })
    })
}
