//! Global items: structs, uniforms and samplers, constants, private globals, helper functions, and the
//! conditional regions around them.
//!
//! A helper function is callable from both stages (no stage-only builtins), only calls helpers defined
//! before it (no recursion), and returns on every path: its body ends with `return e;`, or with a region whose
//! branches both return.

use super::expr::{expr_of, value_type};
use super::stmt::some_stmts;
use super::{chance, just, one_of, pick, then, Gen};
use crate::ast::{Cond, Expr, Function, Guarded, Item, Member, Param, Stmt, StructDecl, Tail};
use crate::scope::{
    Access, FunctionKind, HelperSig, MacroLit, MemberInfo, ParamInfo, Scope, Stage, StructInfo, StructRole,
};
use crate::ty::{Sampler, Ty};
use proptest::prelude::*;
use std::sync::Arc;

/// Items and the scope after them.
pub type Items = (Vec<Item>, Scope);

/// `count` items drawn by `one`, each seeing the ones before.
pub fn chain(scope: Scope, count: usize, one: fn(&Scope) -> Gen<Items>) -> Gen<Items> {
    if count == 0 {
        return just((Vec::new(), scope));
    }
    then(one(&scope), move |(first, after)| {
        chain(after, count - 1, one)
            .prop_map(move |(rest, sc)| {
                let mut all = first.clone();
                all.extend(rest);
                (all, sc)
            })
            .boxed()
    })
}

/// Up to `max` items drawn by `one`.
pub fn up_to(scope: &Scope, max: usize, one: fn(&Scope) -> Gen<Items>) -> Gen<Items> {
    let s = scope.clone();
    then((0..=max).boxed(), move |n| chain(s.clone(), n, one))
}

/// With probability `percent`, a test of a macro the current point does not test yet (when conditionals are on
/// and one is left).
pub fn fresh_guard(scope: &Scope, percent: u32) -> Gen<Option<MacroLit>> {
    let free = scope.free_macros();
    if !scope.config.features.macro_conditionals || free.is_empty() {
        return just(None);
    }
    then(chance(percent), move |guarded| {
        if !guarded {
            return just(None);
        }
        (one_of(free.clone()), any::<bool>()).prop_map(|(name, defined)| Some(MacroLit { name, defined })).boxed()
    })
}

fn guarded<T>(item: T, guard: &Option<MacroLit>) -> Guarded<T> {
    match guard {
        None => Guarded::Plain(item),
        Some(l) => {
            Guarded::Cond(Cond { macro_name: l.name.clone(), defined: l.defined, then: vec![item], otherwise: None })
        }
    }
}

/// The type of a struct member: a scalar, vector, matrix, an earlier struct, or an array of a basic type.
fn member_type(scope: &Scope) -> Gen<Ty> {
    // A struct with an array member can only be constructed with an array constructor (GLSL ES 3.00).
    let arrays = scope.config.features.arrays && scope.config.features.es300;
    then((value_type(scope), chance(if arrays { 10 } else { 0 }), 1u32..=4).boxed(), |(ty, array, len)| {
        if array && ty.is_basic() {
            just(Ty::Array(Box::new(ty), len))
        } else {
            just(ty)
        }
    })
}

/// `struct S { ... };` with members possibly in conditional regions (never the first).
pub fn struct_decl(scope: &Scope) -> Gen<Items> {
    let max = scope.config.max_struct_members.max(1);
    let s = scope.clone();
    then((1..=max).boxed(), move |count| {
        let members: Vec<Gen<(Ty, Option<MacroLit>)>> =
            (0..count).map(|i| (member_type(&s), fresh_guard(&s, if i == 0 { 0 } else { 20 })).boxed()).collect();
        let s = s.clone();
        members
            .prop_map(move |members| {
                let mut after = s.clone();
                let name = after.fresh("S");
                let mut infos = Vec::new();
                let mut decls = Vec::new();
                for (ty, guard) in members {
                    let member = after.fresh("m");
                    let (base, array) = match &ty {
                        Ty::Array(base, n) => ((**base).clone(), Some(*n)),
                        _ => (ty.clone(), None),
                    };
                    let text = after.glsl(&base);
                    decls.push(guarded(Member { location: None, ty: text, name: member.clone(), array }, &guard));
                    infos.push(MemberInfo { name: member, ty, guard });
                }
                after.structs.push(StructInfo { name: name.clone(), members: infos, role: StructRole::User });
                (vec![Item::Struct(StructDecl { name, members: decls })], after)
            })
            .boxed()
    })
}

fn uniform_prefix() -> Gen<&'static str> {
    one_of(vec!["material_", "renderer_", "u_", "scene_"])
}

/// A global: uniform, sampler, constant or private global, possibly in a conditional region.
pub fn global_decl(scope: &Scope) -> Gen<Items> {
    let s = scope.clone();
    let mut options: Vec<(u32, Gen<Items>)> = vec![
        (4, super::lazy(move || uniform(&s))),
        (2, sampler(scope)),
        (2, constant(scope)),
        (1, private_global(scope)),
    ];
    if scope.config.features.macro_conditionals && !scope.free_macros().is_empty() {
        options.push((2, cond_global(scope)));
    }
    pick(options)
}

fn uniform(scope: &Scope) -> Gen<Items> {
    let s = scope.clone();
    let arrays = scope.config.features.arrays;
    then((value_type(scope), uniform_prefix(), chance(30), chance(if arrays { 15 } else { 0 }), 1u32..=4).boxed(), {
        move |(ty, prefix, explicit, array, len)| {
            let mut after = s.clone();
            let name = after.fresh(&format!("{prefix}U"));
            let text = after.glsl(&ty);
            let (ty, array) =
                if array && ty.is_basic() { (Ty::Array(Box::new(ty), len), Some(len.to_string())) } else { (ty, None) };
            after.declare(name.clone(), ty, Access::Read);
            let qualifier = explicit.then_some("uniform");
            just((vec![Item::Global { qualifier, ty: text, name, array, init: None }], after))
        }
    })
}

fn sampler(scope: &Scope) -> Gen<Items> {
    let s = scope.clone();
    (one_of(vec![Sampler::D2, Sampler::D2, Sampler::Cube]), chance(20))
        .prop_map(move |(kind, explicit)| {
            let mut after = s.clone();
            let name = after.fresh("material_Tex");
            let ty = Ty::Sampler(kind);
            let text = after.glsl(&ty);
            after.declare(name.clone(), ty, Access::Read);
            (
                vec![Item::Global {
                    qualifier: explicit.then_some("uniform"),
                    ty: text,
                    name,
                    array: None,
                    init: None,
                }],
                after,
            )
        })
        .boxed()
}

/// `const T K = c;` (an `int` constant with a literal value serves as array size and constant index).
fn constant(scope: &Scope) -> Gen<Items> {
    let s = scope.clone();
    let ints = scope.config.features.integer_ops || scope.config.features.arrays;
    then((value_type(scope), chance(if ints { 30 } else { 0 })).boxed(), move |(ty, int_literal)| {
        let mut after = s.clone();
        let name = after.fresh("K");
        if int_literal {
            return (1i64..=6)
                .prop_map(move |v| {
                    let mut after = after.clone();
                    after.declare(name.clone(), Ty::INT, Access::Const).int_value = Some(v);
                    let init = Some(Expr::literal(v.to_string()));
                    (
                        vec![Item::Global {
                            qualifier: Some("const"),
                            ty: "int".into(),
                            name: name.clone(),
                            array: None,
                            init,
                        }],
                        after,
                    )
                })
                .boxed();
        }
        let ty = if ty.is_basic() { ty } else { Ty::FLOAT };
        let depth = after.config.max_expr_depth;
        initialized_global(after, name, ty, Some("const"), Access::Const, depth)
    })
}

/// `T g = c;`: a private global variable with a constant initializer, writable by functions.
fn private_global(scope: &Scope) -> Gen<Items> {
    let s = scope.clone();
    then(value_type(scope), move |ty| {
        let ty = if ty.is_basic() { ty } else { Ty::VEC3 };
        let mut after = s.clone();
        let name = after.fresh("g");
        initialized_global(after, name, ty, None, Access::Write, 1)
    })
}

/// `[qualifier] T name = c;` with a constant initializer of at most `depth`, declared in `after` with `access`.
fn initialized_global(
    after: Scope,
    name: crate::ast::Name,
    ty: Ty,
    qualifier: Option<&'static str>,
    access: Access,
    depth: u32,
) -> Gen<Items> {
    let mut init_scope = after.clone();
    init_scope.const_only = true;
    let text = after.glsl(&ty);
    expr_of(&ty, depth, &init_scope)
        .prop_map(move |init| {
            let mut after = after.clone();
            after.declare(name.clone(), ty.clone(), access);
            (
                vec![Item::Global { qualifier, ty: text.clone(), name: name.clone(), array: None, init: Some(init) }],
                after,
            )
        })
        .boxed()
}

/// `#ifdef M <global> [#else <global of the same name and type>] #endif`. With both branches the name exists
/// in every variant (a constant in all of them only if both declare a constant).
fn cond_global(scope: &Scope) -> Gen<Items> {
    let s = scope.clone();
    then(
        (one_of(scope.free_macros()), any::<bool>(), chance(50), value_type(scope)).boxed(),
        move |(m, defined, both, ty)| {
            let s = s.clone();
            if !both {
                // One branch: a uniform or sampler that exists only in the variants of that branch.
                let inner = s.under(&m, defined);
                let outer = s.clone();
                let (m, defined) = (m.clone(), defined);
                let one: Gen<Items> = pick(vec![(2, uniform(&inner)), (1, sampler(&inner))]);
                return one
                    .prop_map(move |(items, after)| {
                        let mut result = outer.after(&after);
                        result.vars.extend(after.vars.iter().skip(outer.vars.len()).cloned());
                        (
                            vec![Item::Cond(Cond { macro_name: m.clone(), defined, then: items, otherwise: None })],
                            result,
                        )
                    })
                    .boxed();
            }
            let ty = if ty.is_basic() { ty } else { Ty::FLOAT };
            let mut after = s.clone();
            let name = after.fresh("material_C");
            let text = after.glsl(&ty);
            let mut init_scope = s.clone();
            init_scope.const_only = true;
            let depth = s.config.max_expr_depth;
            let branch = |init_scope: &Scope, ty: &Ty, name: &crate::ast::Name, text: &str| -> Gen<(bool, Item)> {
                let (name, text, init_scope, ty) = (name.clone(), text.to_owned(), init_scope.clone(), ty.clone());
                then(chance(50), move |is_const| {
                    let (name, text) = (name.clone(), text.clone());
                    if !is_const {
                        return just((
                            false,
                            Item::Global { qualifier: None, ty: text, name, array: None, init: None },
                        ));
                    }
                    expr_of(&ty, depth, &init_scope)
                        .prop_map(move |init| {
                            (
                                true,
                                Item::Global {
                                    qualifier: Some("const"),
                                    ty: text.clone(),
                                    name: name.clone(),
                                    array: None,
                                    init: Some(init),
                                },
                            )
                        })
                        .boxed()
                })
            };
            (branch(&init_scope, &ty, &name, &text), branch(&init_scope, &ty, &name, &text))
                .prop_map(move |((c1, i1), (c2, i2))| {
                    let mut after = after.clone();
                    let access = if c1 && c2 { Access::Const } else { Access::Read };
                    after.declare(name.clone(), ty.clone(), access).declared_under.push(m.clone());
                    (
                        vec![Item::Cond(Cond {
                            macro_name: m.clone(),
                            defined,
                            then: vec![i1],
                            otherwise: Some(vec![i2]),
                        })],
                        after,
                    )
                })
                .boxed()
        },
    )
}

/// A helper's signature and the parameters as the body sees them.
#[derive(Clone, Debug)]
pub struct Signature {
    pub sig: HelperSig,
    pub ret_text: String,
    pub params: Vec<Guarded<Param>>,
    /// `(name, type, access, guard)` of each parameter, for the body's scope.
    pub vars: Vec<(crate::ast::Name, Ty, Access, Option<MacroLit>)>,
    /// The name counter after the names the signature drew.
    pub next_id: u32,
}

/// A parameter type: a value type, sometimes a sampler of a kind some visible variable has.
fn param_type(scope: &Scope) -> Gen<Ty> {
    let samplers: Vec<Ty> = [Sampler::D2, Sampler::Cube]
        .into_iter()
        .map(Ty::Sampler)
        .filter(|t| !scope.paths(t, false).is_empty())
        .collect();
    let mut options = vec![(9, value_type(scope))];
    if !samplers.is_empty() {
        options.push((1, one_of(samplers)));
    }
    pick(options)
}

/// A helper signature: 0 to 3 parameters (`in`, `inout`, `out`, samplers), the ones after the first possibly in
/// a conditional region when `guards`.
pub fn signature(scope: &Scope, guards: bool) -> Gen<Signature> {
    let s = scope.clone();
    let ret = pick(vec![(6, value_type(scope).prop_map(Some).boxed()), (1, just(None))]);
    then((ret, 0usize..=3).boxed(), move |(ret, count)| {
        let params: Vec<Gen<(Ty, u32, Option<MacroLit>)>> = (0..count)
            .map(|i| (param_type(&s), 0u32..10, fresh_guard(&s, if guards && i > 0 { 20 } else { 0 })).boxed())
            .collect();
        let (s, ret) = (s.clone(), ret.clone());
        params
            .prop_map(move |params| {
                let mut names = s.clone();
                let name = names.fresh("fn");
                let mut out = Signature {
                    sig: HelperSig {
                        name,
                        ret: ret.clone(),
                        params: Vec::new(),
                        guard: s.guard.clone(),
                        declared_under: Vec::new(),
                    },
                    ret_text: ret.as_ref().map_or_else(|| "void".to_owned(), |t| s.glsl(t)),
                    params: Vec::new(),
                    vars: Vec::new(),
                    next_id: 0,
                };
                for (ty, q, guard) in params {
                    let pname = names.fresh("p");
                    let qualifier = match (q, ty.is_sampler()) {
                        (0, _) => Some("in"),
                        (1, false) => Some("inout"),
                        (2, false) => Some("out"),
                        _ => None,
                    };
                    let by_reference = matches!(qualifier, Some("inout" | "out"));
                    out.params.push(guarded(Param { qualifier, ty: s.glsl(&ty), name: pname.clone() }, &guard));
                    let access = if ty.is_sampler() { Access::Read } else { Access::Write };
                    out.vars.push((pname, ty.clone(), access, guard.clone()));
                    out.sig.params.push(ParamInfo { ty, by_reference, guard });
                }
                out.next_id = names.next_id;
                out
            })
            .boxed()
    })
}

/// The scope a helper body starts in.
fn body_scope(scope: &Scope, sig: &Signature) -> Scope {
    let mut b = scope.clone();
    b.function = Some(FunctionKind::Helper(sig.sig.ret.clone()));
    b.stage = Stage::Shared;
    b.block_depth = 0;
    b.loops = 0;
    b.const_only = false;
    for (name, ty, access, guard) in &sig.vars {
        let mut g = b.guard.clone();
        g.extend(guard.clone());
        b.vars.push(crate::scope::Var {
            name: name.clone(),
            ty: ty.clone(),
            access: *access,
            guard: g,
            loop_bound: None,
            int_value: None,
            declared_under: Vec::new(),
        });
    }
    b
}

/// A helper body: statements and a tail that returns on every path.
pub fn body(scope: &Scope, sig: &Signature) -> Gen<(Function, Scope)> {
    let b = body_scope(scope, sig);
    let sig = sig.clone();
    let outer = scope.clone();
    then(some_stmts(&b), move |(stmts, after)| {
        let (sig, outer) = (sig.clone(), outer.clone());
        tail(&after)
            .prop_map(move |tail| {
                let f = Function {
                    ret: sig.ret_text.clone(),
                    name: sig.sig.name.clone(),
                    params: sig.params.clone(),
                    body: stmts.clone(),
                    tail,
                };
                (f, outer.after(&after))
            })
            .boxed()
    })
}

/// How a helper body ends: `return e;`, a region returning in both branches, `return;` or nothing (void).
fn tail(scope: &Scope) -> Gen<Tail> {
    let depth = scope.config.max_expr_depth;
    match &scope.function {
        Some(FunctionKind::Helper(Some(ty))) => {
            let mut options = vec![(5, expr_of(ty, depth, scope).prop_map(Tail::Return).boxed())];
            let free = scope.free_macros();
            if scope.config.features.macro_conditionals && !free.is_empty() {
                let (s, ty) = (scope.clone(), ty.clone());
                options.push((
                    1,
                    then((one_of(free), any::<bool>()).boxed(), move |(m, defined)| {
                        let a = expr_of(&ty, depth, &s.under(&m, defined));
                        let b = expr_of(&ty, depth, &s.under(&m, !defined));
                        let m = m.clone();
                        (a, b)
                            .prop_map(move |(a, b)| {
                                Tail::CondReturn(Cond {
                                    macro_name: m.clone(),
                                    defined,
                                    then: vec![Stmt::Return(Some(a))],
                                    otherwise: Some(vec![Stmt::Return(Some(b))]),
                                })
                            })
                            .boxed()
                    }),
                ));
            }
            pick(options)
        }
        _ => one_of(vec![Tail::None, Tail::ReturnVoid]),
    }
}

/// A helper function, possibly in a conditional region: defined in one branch only (callable in those
/// variants), or in both with the same signature and different bodies (callable everywhere).
pub fn helper(scope: &Scope) -> Gen<Items> {
    let free = scope.free_macros();
    if !scope.config.features.macro_conditionals || free.is_empty() {
        return plain_helper(scope);
    }
    let s = scope.clone();
    let region = (chance(25), one_of(free), any::<bool>(), any::<bool>()).boxed();
    then(region, move |(in_region, m, defined, both)| {
        if !in_region {
            return plain_helper(&s);
        }
        // The signature is drawn where the definition stands: inside the region (one branch), or outside
        // without conditional parameters (both branches define the same signature).
        let sig = if both { signature(&s, false) } else { signature(&s.under(&m, defined), true) };
        let s = s.clone();
        then(sig, move |sig| {
            let mut s = s.clone();
            s.next_id = s.next_id.max(sig.next_id);
            let (s2, sig2, m2) = (s.clone(), sig.clone(), m.clone());
            then(body(&s.under(&m, defined), &sig), move |(f1, after1)| {
                let mut next = s2.under(&m2, !defined);
                next.next_id = after1.next_id;
                let second: Gen<Option<(Function, Scope)>> =
                    if both { body(&next, &sig2).prop_map(Some).boxed() } else { just(None) };
                let (s3, sig3, m3) = (s2.clone(), sig2.clone(), m2.clone());
                second
                    .prop_map(move |second| {
                        let (after, otherwise) = match second {
                            Some((f2, after2)) => (s3.after(&after2), Some(vec![Item::Function(f2)])),
                            None => (s3.after(&after1), None),
                        };
                        let mut after = after;
                        let mut sig = sig3.sig.clone();
                        if both {
                            sig.declared_under.push(m3.clone());
                        }
                        Arc::make_mut(&mut after.helpers).push(sig);
                        let then = vec![Item::Function(f1.clone())];
                        (vec![Item::Cond(Cond { macro_name: m3.clone(), defined, then, otherwise })], after)
                    })
                    .boxed()
            })
        })
    })
}

/// A helper function outside any region.
fn plain_helper(scope: &Scope) -> Gen<Items> {
    let s = scope.clone();
    then(signature(scope, true), move |sig| {
        let mut s = s.clone();
        s.next_id = s.next_id.max(sig.next_id);
        let sig2 = sig.clone();
        body(&s, &sig)
            .prop_map(move |(f, mut after)| {
                Arc::make_mut(&mut after.helpers).push(sig2.sig.clone());
                (vec![Item::Function(f)], after)
            })
            .boxed()
    })
}

/// Prototypes for the plain (unconditional) helper definitions among `items`, for a prototype section.
pub fn prototypes(items: &[Item]) -> Vec<Item> {
    items
        .iter()
        .filter_map(|i| match i {
            Item::Function(f) => Some(Item::Prototype(f.clone())),
            _ => None,
        })
        .collect()
}

/// `mat4 renderer_MVPMat;`-like engine uniforms every pass declares.
pub fn engine_uniform(scope: &Scope, name: &str, ty: Ty) -> Items {
    let mut after = scope.clone();
    let text = after.glsl(&ty);
    let name: crate::ast::Name = name.into();
    after.declare(name.clone(), ty, Access::Read);
    (vec![Item::Global { qualifier: None, ty: text, name, array: None, init: None }], after)
}
