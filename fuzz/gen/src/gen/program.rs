//! Whole programs: the Shader / SubShader / Pass structure, the IO structs and the two entries of each pass.
//!
//! The vertex entry writes `gl_Position` and every varying member (a conditional member under its own
//! condition); the fragment entry writes `gl_FragColor`, returns a color, or returns an MRT struct whose
//! members all get a value. Code at the Shader and SubShader levels is shared by every pass.

use super::expr::expr_of;
use super::items::{chain, engine_uniform, fresh_guard, global_decl, helper, prototypes, struct_decl, up_to, Items};
use super::render_state::{self, RenderVars};
use super::stmt::some_stmts;
use super::{chance, just, one_of, then, Gen};
use crate::ast::{Cond, Expr, Function, Guarded, Item, Member, Name, Param, PassDecl, Program, Stmt, StructDecl, Tail};
use crate::config::GeneratorConfig;
use crate::scope::{Access, FunctionKind, MacroLit, MemberInfo, Scope, Stage, StructInfo, StructRole};
use crate::ty::Ty;
use proptest::prelude::*;
use std::sync::Arc;

/// Macro names the conditionals draw from: engine-style run-time variant macros.
pub const MACRO_POOL: [&str; 8] = [
    "RENDERER_HAS_NORMAL",
    "MATERIAL_HAS_BASETEXTURE",
    "MATERIAL_IS_ALPHA_CUTOFF",
    "SCENE_USE_FOG",
    "RENDERER_HAS_SKIN",
    "MATERIAL_ENABLE_EMISSION",
    "FUZZ_VARIANT_A",
    "FUZZ_VARIANT_B",
];

/// A whole program for `config`.
pub fn program(config: &GeneratorConfig) -> Gen<Program> {
    let config = Arc::new(config.clone());
    let max_macros = if config.features.macro_conditionals { config.max_macros.min(MACRO_POOL.len()) } else { 0 };
    let macros = prop::sample::subsequence(MACRO_POOL.to_vec(), 0..=max_macros);
    then(macros.boxed(), move |macros| {
        let macros: Vec<Name> = macros.into_iter().map(Name::from).collect();
        shader(Scope::new(config.clone(), Arc::new(macros)))
    })
}

/// Structs, globals and helpers of one level (structs first, then globals, then helpers).
fn level_items(scope: &Scope, structs: usize, globals: usize, helpers: usize) -> Gen<Items> {
    let s = scope.clone();
    let structs = if s.config.features.structs { up_to(&s, structs, struct_decl) } else { just((Vec::new(), s)) };
    then(structs, move |(items, after)| {
        then(up_to(&after, globals, global_decl), move |(globals, after)| {
            let mut items = items.clone();
            items.extend(globals);
            then((chain(after, helpers, helper), chance(25)).boxed(), move |((defs, after), with_prototypes)| {
                let mut items = items.clone();
                if with_prototypes {
                    items.extend(prototypes(&defs));
                }
                items.extend(defs);
                just((items, after))
            })
        })
    })
}

/// The Shader level, the SubShader and its passes.
fn shader(scope: Scope) -> Gen<Program> {
    let c = scope.config.clone();
    then(render_state::level(&scope, &Vec::new()), move |(render, rs_vars, after)| {
        let shared = level_items(&after, c.max_structs, c.max_globals, c.shared_helper_functions);
        let c = c.clone();
        then(shared, move |(items, after)| {
            let (render, items, c) = (render.clone(), items.clone(), c.clone());
            then(render_state::level(&after, &rs_vars), move |(sub_render, sub_rs, after)| {
                let sub_items = up_to(&after, c.max_globals.min(2), global_decl);
                let (render, items, c) = (render.clone(), items.clone(), c.clone());
                then((sub_items, editor()).boxed(), move |((sub_items, after), editor)| {
                    let (render, items, sub_render) = (render.clone(), items.clone(), sub_render.clone());
                    passes(after, sub_rs.clone(), c.passes.max(1), 0)
                        .prop_map(move |passes| Program {
                            name: "Fuzz/Generated".to_owned(),
                            editor: editor.clone(),
                            render: render.clone(),
                            items: items.clone(),
                            subshader_name: "Default".to_owned(),
                            subshader_tags: vec![("replacementTag".to_owned(), "Opaque".to_owned())],
                            subshader_render: sub_render.clone(),
                            subshader_items: sub_items.clone(),
                            passes,
                        })
                        .boxed()
                })
            })
        })
    })
}

/// An `Editor { ... }` block (skipped by compilers) or none.
fn editor() -> Gen<Option<Vec<String>>> {
    then(chance(30), |with| {
        if !with {
            return just(None);
        }
        (0u32..100)
            .prop_map(|n| {
                Some(vec![
                    "Properties {".to_owned(),
                    format!("  material_BaseColor{n}(\"Base Color\", Color) = (1, 1, 1, 1);"),
                    format!("  material_Cutoff{n}(\"Alpha Cutoff\", Range(0, 1, 0.01)) = 0.5;"),
                    "}".to_owned(),
                ])
            })
            .boxed()
    })
}

/// `count` passes, each starting from the shared `scope` (with the name counter carried over).
fn passes(scope: Scope, rs: RenderVars, count: usize, index: usize) -> Gen<Vec<PassDecl>> {
    if count == 0 {
        return just(Vec::new());
    }
    let (s, rs2) = (scope.clone(), rs.clone());
    then(pass(&scope, &rs, index), move |(first, next_id)| {
        let mut next = s.clone();
        next.next_id = next_id;
        passes(next, rs2.clone(), count - 1, index + 1)
            .prop_map(move |mut rest| {
                rest.insert(0, first.clone());
                rest
            })
            .boxed()
    })
}

/// One pass and the name counter after it.
fn pass(scope: &Scope, rs: &RenderVars, index: usize) -> Gen<(PassDecl, u32)> {
    let c = scope.config.clone();
    let stage_tag = one_of(vec!["Forward", "Forward", "DepthOnly", "ShadowCaster"]);
    then(
        (render_state::level(scope, rs), stage_tag, chance(20)).boxed(),
        move |((render, _, after), tag, precision)| {
            let (mut items, after) = engine_uniform(&after, "renderer_MVPMat", Ty::Matrix(4));
            if precision {
                items.insert(0, Item::Precision("precision highp float;".to_owned()));
            }
            let body = level_items(&after, c.max_structs, c.max_globals, c.helper_functions);
            then(body, move |(more, after)| {
                let mut items = items.clone();
                items.extend(more);
                let (render, tag) = (render.clone(), tag.to_owned());
                entries(&after)
                    .prop_map(move |(entry_items, vertex, fragment, next_id)| {
                        let mut items = items.clone();
                        items.extend(entry_items);
                        let pass = PassDecl {
                            name: format!("P{index}"),
                            tags: vec![("pipelineStage".to_owned(), tag.clone())],
                            render: render.clone(),
                            items,
                            vertex,
                            fragment,
                        };
                        (pass, next_id)
                    })
                    .boxed()
            })
        },
    )
}

/// How the fragment entry produces its color.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Output {
    GlFragColor,
    ReturnColor,
    Mrt,
}

/// Attribute semantics besides `POSITION`, with their types.
const SEMANTICS: [(&str, Ty); 7] = [
    ("NORMAL", Ty::VEC3),
    ("TANGENT", Ty::VEC4),
    ("COLOR_0", Ty::VEC4),
    ("TEXCOORD_0", Ty::VEC2),
    ("TEXCOORD_1", Ty::VEC2),
    ("JOINTS_0", Ty::VEC4),
    ("WEIGHTS_0", Ty::VEC4),
];

fn member(location: Option<u32>, ty: &Ty, name: &Name, guard: &Option<MacroLit>) -> Guarded<Member> {
    let m = Member { location, ty: ty.glsl(&|i| format!("S{i}")), name: name.clone(), array: None };
    match guard {
        None => Guarded::Plain(m),
        Some(l) => {
            Guarded::Cond(Cond { macro_name: l.name.clone(), defined: l.defined, then: vec![m], otherwise: None })
        }
    }
}

/// An IO struct from `(name, type, guard)` members.
fn io_struct(
    scope: &mut Scope,
    prefix: &str,
    role: StructRole,
    members: Vec<(Name, Ty, Option<MacroLit>, Option<u32>)>,
) -> (Item, usize) {
    let name = scope.fresh(prefix);
    let decls = members.iter().map(|(n, t, g, loc)| member(*loc, t, n, g)).collect();
    let infos = members.into_iter().map(|(name, ty, guard, _)| MemberInfo { name, ty, guard }).collect();
    scope.structs.push(StructInfo { name: name.clone(), members: infos, role });
    (Item::Struct(StructDecl { name, members: decls }), scope.structs.len() - 1)
}

/// The draws that shape a pass's IO.
#[derive(Clone, Debug)]
struct IoShape {
    position: Ty,
    attributes: Vec<((&'static str, Ty), Option<MacroLit>)>,
    varyings: Vec<(Ty, Option<MacroLit>)>,
    output: Output,
    mrt_locations: Vec<u32>,
    with_varyings: bool,
}

fn io_shape(scope: &Scope) -> Gen<IoShape> {
    let f = &scope.config.features;
    let attrs = prop::sample::subsequence(SEMANTICS.to_vec(), 0..=4)
        .prop_flat_map({
            let s = scope.clone();
            move |sems| {
                let guards: Vec<Gen<Option<MacroLit>>> = sems.iter().map(|_| fresh_guard(&s, 20)).collect();
                (Just(sems), guards)
            }
        })
        .prop_map(|(sems, guards)| sems.into_iter().zip(guards).collect::<Vec<_>>())
        .boxed();
    let varying_ty = one_of(vec![Ty::FLOAT, Ty::VEC2, Ty::VEC3, Ty::VEC4]);
    let s = scope.clone();
    let varyings = then((1usize..=4).boxed(), move |n| {
        let items: Vec<Gen<(Ty, Option<MacroLit>)>> =
            (0..n).map(|i| (varying_ty.clone(), fresh_guard(&s, if i == 0 { 0 } else { 20 })).boxed()).collect();
        items.boxed()
    });
    let mut outputs = vec![Output::GlFragColor, Output::GlFragColor, Output::ReturnColor];
    if f.mrt_allowed() {
        outputs.push(Output::Mrt);
    }
    let locations = prop::sample::subsequence((0u32..8).collect::<Vec<_>>(), 1..=3).prop_shuffle();
    (one_of(vec![Ty::VEC4, Ty::VEC3]), attrs, varyings, one_of(outputs), locations, chance(90))
        .prop_map(|(position, attributes, varyings, output, mrt_locations, with_varyings)| IoShape {
            position,
            attributes,
            varyings,
            output,
            mrt_locations,
            with_varyings,
        })
        .boxed()
}

/// The IO structs and both entries: `(items, vertex name, fragment name, name counter after)`.
fn entries(scope: &Scope) -> Gen<(Vec<Item>, Name, Name, u32)> {
    let s = scope.clone();
    then(io_shape(scope), move |shape| {
        let mut s = s.clone();
        let mut items = Vec::new();
        // Attributes.
        let mut members = vec![("POSITION".into(), shape.position.clone(), None, None)];
        for ((name, ty), guard) in &shape.attributes {
            members.push(((*name).into(), ty.clone(), guard.clone(), None));
        }
        let (item, attributes) = io_struct(&mut s, "Attributes", StructRole::Attributes, members);
        items.push(item);
        // Varyings.
        let varyings = if shape.with_varyings {
            let members = shape.varyings.iter().map(|(ty, g)| (s.fresh("v"), ty.clone(), g.clone(), None)).collect();
            let (item, index) = io_struct(&mut s, "Varyings", StructRole::Varyings, members);
            items.push(item);
            Some(index)
        } else {
            None
        };
        let mrt = if shape.output == Output::Mrt {
            let members =
                shape.mrt_locations.iter().map(|&loc| (s.fresh("target"), Ty::VEC4, None, Some(loc))).collect();
            let (item, index) = io_struct(&mut s, "Mrt", StructRole::Mrt, members);
            items.push(item);
            Some(index)
        } else {
            None
        };
        let s2 = s.clone();
        let output = shape.output;
        then(vertex(&s, attributes, varyings), move |(vert, after)| {
            let mut s = s2.clone();
            s.next_id = after;
            let items = items.clone();
            let vname = vert.name.clone();
            fragment(&s, varyings, mrt, output)
                .prop_map(move |(frag, next_id)| {
                    let mut items = items.clone();
                    let fname = frag.name.clone();
                    items.push(Item::Function(vert.clone()));
                    items.push(Item::Function(frag));
                    (items, vname.clone(), fname, next_id)
                })
                .boxed()
        })
    })
}

/// The scope an entry body starts in.
fn entry_scope(scope: &Scope, stage: Stage) -> Scope {
    let mut s = scope.clone();
    s.stage = stage;
    s.function = Some(FunctionKind::Entry);
    s.block_depth = 0;
    s.loops = 0;
    s
}

/// Assignments of every member of the struct variable `var` (conditional members under their condition).
fn write_members(scope: &Scope, var: &Name, index: usize) -> Gen<Vec<Stmt>> {
    let depth = scope.config.max_expr_depth;
    let Some(info) = scope.structs.get(index) else { return just(Vec::new()) };
    let writes: Vec<Gen<Stmt>> = info
        .members
        .iter()
        .map(|m| {
            let target = Expr::Member(Box::new(Expr::place(var)), m.name.clone());
            let assign = move |value: Expr| Stmt::Assign { target: target.clone(), op: "=", value };
            match &m.guard {
                None => expr_of(&m.ty, depth, scope).prop_map(assign).boxed(),
                Some(l) => {
                    let (name, defined) = (l.name.clone(), l.defined);
                    expr_of(&m.ty, depth, &scope.under(&l.name, l.defined))
                        .prop_map(move |v| {
                            Stmt::Cond(Cond {
                                macro_name: name.clone(),
                                defined,
                                then: vec![assign(v)],
                                otherwise: None,
                            })
                        })
                        .boxed()
                }
            }
        })
        .collect();
    writes.boxed()
}

/// `Varyings vert(Attributes a) { Varyings o; ...; gl_Position = ...; o.m = ...; return o; }` (or a void
/// vertex entry when the pass has no varyings). Yields the function and the name counter after it.
fn vertex(scope: &Scope, attributes: usize, varyings: Option<usize>) -> Gen<(Function, u32)> {
    let mut s = entry_scope(scope, Stage::Vertex);
    let name = s.fresh("vert");
    let attr = s.fresh("attr");
    s.declare(attr.clone(), Ty::Struct(attributes), Access::Read);
    let out = varyings.map(|v| {
        let o = s.fresh("o");
        s.declare(o.clone(), Ty::Struct(v), Access::Write);
        (o, v, s.struct_name(v))
    });
    let params = vec![Guarded::Plain(Param { qualifier: None, ty: s.struct_name(attributes), name: attr })];
    let ret = varyings.map_or_else(|| "void".to_owned(), |v| s.struct_name(v));
    let depth = s.config.max_expr_depth;
    then(some_stmts(&s), move |(body, after)| {
        let (name, params, ret, out) = (name.clone(), params.clone(), ret.clone(), out.clone());
        let position = expr_of(&Ty::VEC4, depth, &after)
            .prop_map(|v| Stmt::Assign { target: Expr::place(&"gl_Position".into()), op: "=", value: v })
            .boxed();
        let writes = match &out {
            Some((o, v, _)) => write_members(&after, o, *v),
            None => just(Vec::new()),
        };
        let next_id = after.next_id;
        (position, writes)
            .prop_map(move |(position, writes)| {
                let mut stmts = Vec::new();
                if let Some((o, _, struct_name)) = &out {
                    let ty = struct_name.clone();
                    stmts.push(Stmt::Decl { constant: false, ty, name: o.clone(), array: None, init: None });
                }
                stmts.extend(body.iter().cloned());
                stmts.push(position);
                stmts.extend(writes);
                let tail = match &out {
                    Some((o, _, _)) => Tail::Return(Expr::read(o)),
                    None => Tail::None,
                };
                (Function { ret: ret.clone(), name: name.clone(), params: params.clone(), body: stmts, tail }, next_id)
            })
            .boxed()
    })
}

/// The fragment entry: reads the varyings (when there are any), writes its output. Yields the function and
/// the name counter after it.
fn fragment(scope: &Scope, varyings: Option<usize>, mrt: Option<usize>, output: Output) -> Gen<(Function, u32)> {
    let mut s = entry_scope(scope, Stage::Fragment);
    let name = s.fresh("frag");
    let mut params = Vec::new();
    if let Some(v) = varyings {
        let input = s.fresh("v");
        s.declare(input.clone(), Ty::Struct(v), Access::Read);
        params.push(Guarded::Plain(Param { qualifier: None, ty: s.struct_name(v), name: input }));
    }
    s.declare("gl_FragCoord".into(), Ty::VEC4, Access::Read);
    s.declare("gl_FrontFacing".into(), Ty::BOOL, Access::Read);
    let out = mrt.map(|m| {
        let o = s.fresh("out");
        s.declare(o.clone(), Ty::Struct(m), Access::Write);
        (o, m)
    });
    let (ret, output) = match (output, mrt) {
        (Output::Mrt, Some(m)) => (s.struct_name(m), Output::Mrt),
        (Output::ReturnColor, _) => ("vec4".to_owned(), Output::ReturnColor),
        _ => ("void".to_owned(), Output::GlFragColor),
    };
    let depth = s.config.max_expr_depth;
    let mrt_name = mrt.map(|m| s.struct_name(m));
    then(some_stmts(&s), move |(body, after)| {
        let (name, params, ret, out, mrt_name) =
            (name.clone(), params.clone(), ret.clone(), out.clone(), mrt_name.clone());
        let color = expr_of(&Ty::VEC4, depth, &after);
        let writes = match &out {
            Some((o, m)) => write_members(&after, o, *m),
            None => just(Vec::new()),
        };
        let next_id = after.next_id;
        (color, writes)
            .prop_map(move |(color, writes)| {
                let mut stmts = Vec::new();
                if let (Some((o, _)), Some(mrt_name)) = (&out, &mrt_name) {
                    stmts.push(Stmt::Decl {
                        constant: false,
                        ty: mrt_name.clone(),
                        name: o.clone(),
                        array: None,
                        init: None,
                    });
                }
                stmts.extend(body.iter().cloned());
                let tail = match (output, &out) {
                    (Output::Mrt, Some((o, _))) => {
                        stmts.extend(writes.iter().cloned());
                        Tail::Return(Expr::read(o))
                    }
                    (Output::ReturnColor, _) => Tail::Return(color),
                    _ => {
                        stmts.push(Stmt::Assign { target: Expr::place(&"gl_FragColor".into()), op: "=", value: color });
                        Tail::None
                    }
                };
                (Function { ret: ret.clone(), name: name.clone(), params: params.clone(), body: stmts, tail }, next_id)
            })
            .boxed()
    })
}
