//! The structure part of the compile result (`codegen.md`, "The compile result"): shader name, subshaders with
//! tags, passes with name (the referenced path for a UsePass), `isUsePass`, tags, merged render states with the
//! engine's numeric keys, and entries.

use serde_json::{json, Map, Number, Value};
use shaderlab_ir::{Module, PassKind, RenderStateValue, Tag};

/// A number as JavaScript writes it: integral values without a fraction.
pub fn js_number(v: f64) -> Value {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e15 {
        Value::Number(Number::from(v as i64))
    } else {
        Number::from_f64(v).map(Value::Number).unwrap_or(Value::Null)
    }
}

fn tags(tags: &[Tag]) -> Value {
    let mut map = Map::new();
    for t in tags {
        map.insert(t.key.clone(), Value::String(t.value.clone()));
    }
    Value::Object(map)
}

fn render_value(module: &Module, v: &RenderStateValue) -> Value {
    match v {
        RenderStateValue::Bool(b) => Value::Bool(*b),
        RenderStateValue::Number(n) => js_number(*n),
        RenderStateValue::Enum(e) => json!(e),
        RenderStateValue::Color { r, g, b, a } => {
            json!({ "r": js_number(*r), "g": js_number(*g), "b": js_number(*b), "a": js_number(*a) })
        }
        RenderStateValue::Variable(name) => Value::String(module.name(*name).to_owned()),
    }
}

/// Pass objects without sources; callers add `vertex`/`fragment`/`reflection` where they have them.
pub fn shader_json(module: &Module) -> Value {
    let Some(shader) = &module.shader else {
        return Value::Null;
    };
    let subshaders: Vec<Value> = module
        .subshaders
        .values()
        .map(|sub| {
            let passes: Vec<Value> = sub
                .passes
                .iter()
                .filter_map(|p| module.passes.get(*p))
                .map(|pass| {
                    let mut constants = Map::new();
                    let mut variables = Map::new();
                    for (key, entry) in &pass.render_state.entries {
                        match &entry.value {
                            RenderStateValue::Variable(name) => {
                                variables.insert(key.to_string(), Value::String(module.name(*name).to_owned()));
                            }
                            other => {
                                constants.insert(key.to_string(), render_value(module, other));
                            }
                        }
                    }
                    let mut obj = Map::new();
                    obj.insert("name".into(), Value::String(pass.name.clone()));
                    obj.insert("isUsePass".into(), Value::Bool(matches!(pass.kind, PassKind::UsePass { .. })));
                    obj.insert("tags".into(), tags(&pass.tags));
                    obj.insert(
                        "renderStates".into(),
                        json!({ "constantMap": Value::Object(constants), "variableMap": Value::Object(variables) }),
                    );
                    if let PassKind::Program { vertex, fragment, .. } = &pass.kind {
                        if let Some(v) = vertex {
                            obj.insert("vertexEntry".into(), Value::String(module.name(v.name).to_owned()));
                        }
                        if let Some(f) = fragment {
                            obj.insert("fragmentEntry".into(), Value::String(module.name(f.name).to_owned()));
                        }
                    }
                    Value::Object(obj)
                })
                .collect();
            json!({ "name": sub.name, "tags": tags(&sub.tags), "passes": passes })
        })
        .collect();
    json!({ "name": shader.name, "subShaders": subshaders })
}
