//! The passes' side tables as JSON (`shaderlab dump-ir --facts`): the type of every expression with its span,
//! resolutions, and a summary of expressions typed unknown with their reasons.

use serde_json::{json, Map, Value};
use shaderlab_ir::{ExprId, Expression, Module, PrimaryMap};
use shaderlab_passes::resolve::{CallTarget, Resolved, Symbol};
use shaderlab_passes::typing::type_name;
use shaderlab_passes::{Facts, Owner, Type};
use std::collections::BTreeMap;

fn type_json(m: &Module, t: &Type) -> Value {
    match t {
        Type::Known(ty) => Value::String(type_name(m, ty)),
        Type::Unknown(reason) => json!({ "unknown": format!("{reason:?}") }),
        Type::Untyped => Value::Null,
    }
}

fn symbol_json(m: &Module, s: &Symbol) -> Value {
    match s {
        Symbol::Local(l) => json!({ "local": l.as_u32() }),
        Symbol::Global(g) => json!({ "global": m.name(m.globals[*g].name) }),
        Symbol::Builtin(b) => json!({ "builtin": b.name() }),
        Symbol::DepthRange => json!({ "builtin": shaderlab_passes::builtins::DEPTH_RANGE }),
        Symbol::RuntimeMacro(n) => json!({ "runtimeMacro": m.name(*n) }),
        Symbol::IoMember(s, n) => {
            json!({ "ioMember": format!("{}.{}", m.name(m.structs[*s].name), m.name(*n)) })
        }
    }
}

/// Counts of expressions typed unknown, by reason.
pub fn unknown_summary(module: &Module, facts: &Facts) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    let mut count = |owner: Owner, arena: &PrimaryMap<ExprId, Expression>| {
        for (e, _) in arena.iter() {
            if let Type::Unknown(reason) = facts.typing.exprs.get(owner, e) {
                *counts.entry(format!("{reason:?}")).or_insert(0) += 1;
            }
        }
    };
    count(Owner::Global, &module.global_exprs);
    for (f, func) in module.functions.iter() {
        count(Owner::Function(f), &func.exprs);
    }
    counts
}

pub fn facts_json(module: &Module, facts: &Facts) -> Value {
    let arena_json = |owner: Owner, arena: &PrimaryMap<ExprId, Expression>| -> Value {
        let exprs: Vec<Value> = arena
            .iter()
            .map(|(e, expr)| {
                let mut obj = Map::new();
                obj.insert("expr".into(), json!(e.as_u32()));
                obj.insert("span".into(), json!([expr.span.file.as_u32(), expr.span.start, expr.span.end]));
                obj.insert("type".into(), type_json(module, facts.typing.exprs.get(owner, e)));
                if let Resolved::Symbols(s) = facts.resolution.idents.get(owner, e) {
                    obj.insert("resolves".into(), Value::Array(s.iter().map(|s| symbol_json(module, s)).collect()));
                }
                match facts.resolution.calls.get(owner, e) {
                    CallTarget::Callable { user, builtin } => {
                        obj.insert("calls".into(), json!({ "user": user.len(), "builtin": builtin.is_some() }));
                    }
                    CallTarget::Constructor(_) => {
                        obj.insert("calls".into(), json!("struct constructor"));
                    }
                    _ => {}
                }
                Value::Object(obj)
            })
            .collect();
        Value::Array(exprs)
    };
    let functions: Vec<Value> = module
        .functions
        .iter()
        .map(|(f, func)| json!({ "function": module.name(func.name), "exprs": arena_json(Owner::Function(f), &func.exprs) }))
        .collect();
    json!({
        "globalExprs": arena_json(Owner::Global, &module.global_exprs),
        "functions": functions,
        "unknownTypes": unknown_summary(module, facts),
    })
}
