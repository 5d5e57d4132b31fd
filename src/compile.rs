//! `compile`: source -> validated module -> GLSL ES per pass (`spec/codegen.md`). Backend refusals become
//! diagnostics (`UnsupportedInTarget`, `ArrayOfArrays`) with a note naming the pass and target.

use crate::{Diagnostic, IncludeResolver, Options};
use serde_json::{json, Value};
use shaderlab_backends::{Backend, BackendErrorKind, Reflection, Stage, StageSources, Target};
use shaderlab_ir::{Module, Note, PassId, PassKind, Severity};
use shaderlab_validator::BackendCode;

/// One pass of the compile result.
#[derive(Clone, Debug)]
pub struct CompiledPass {
    pub pass: PassId,
    pub name: String,
    /// `None` for a UsePass.
    pub sources: Option<StageSources>,
}

/// A compiled shader: the module (for rendering diagnostics; its frontend clues have moved into `diagnostics`, so
/// `module.clues` is empty), the passes in structure order, and the diagnostics (warnings only when the compile
/// succeeded).
#[derive(Debug)]
pub struct Compiled {
    pub module: Module,
    pub target: Target,
    pub passes: Vec<CompiledPass>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Compiled {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity == Severity::Error)
    }

    /// The compile result of `codegen.md`: the structure JSON with `vertex`, `fragment` and `reflection` per
    /// program pass.
    pub fn to_json(&self) -> Value {
        let mut v = crate::structure_json::shader_json(&self.module);
        let mut order = Vec::new();
        for sub in self.module.subshaders.values() {
            order.push(sub.passes.clone());
        }
        if let Some(subs) = v.get_mut("subShaders").and_then(Value::as_array_mut) {
            for (sub, ids) in subs.iter_mut().zip(order) {
                let Some(passes) = sub.get_mut("passes").and_then(Value::as_array_mut) else { continue };
                for (pass, id) in passes.iter_mut().zip(ids) {
                    let Some(sources) = self.passes.iter().find(|p| p.pass == id).and_then(|p| p.sources.as_ref())
                    else {
                        continue;
                    };
                    if let Some(obj) = pass.as_object_mut() {
                        obj.insert("vertex".into(), Value::String(sources.vertex.clone()));
                        obj.insert("fragment".into(), Value::String(sources.fragment.clone()));
                        obj.insert("reflection".into(), reflection_json(&sources.reflection));
                    }
                }
            }
        }
        v
    }
}

fn stage_names(stages: &[Stage]) -> Vec<&'static str> {
    stages.iter().map(|s| s.name()).collect()
}

/// Reflection as JSON (`codegen.md`).
pub fn reflection_json(r: &Reflection) -> Value {
    json!({
        "attributes": r.attributes.iter().map(|a| json!({"name": a.name, "type": a.ty})).collect::<Vec<_>>(),
        "varyings": r.varyings.iter()
            .map(|v| json!({"name": v.name, "type": v.ty, "interpolation": v.interpolation}))
            .collect::<Vec<_>>(),
        "uniforms": r.uniforms.iter()
            .map(|u| json!({"name": u.name, "type": u.ty, "stages": stage_names(&u.stages)}))
            .collect::<Vec<_>>(),
        "samplers": r.samplers.iter()
            .map(|u| json!({"name": u.name, "type": u.ty, "stages": stage_names(&u.stages)}))
            .collect::<Vec<_>>(),
        "outputs": r.outputs.iter()
            .map(|o| json!({"name": o.name, "type": o.ty, "location": o.location}))
            .collect::<Vec<_>>(),
        "macros": r.macros,
    })
}

/// Compile `source` for `target`. `Err` carries every diagnostic (warnings included) when the source or a
/// backend refuses it.
pub fn compile(
    source: &str,
    includes: &dyn IncludeResolver,
    options: &Options,
    target: Target,
) -> Result<Compiled, Vec<Diagnostic>> {
    let compiled = compile_report(source, includes, options, target, &shaderlab_backends::Options::default());
    if compiled.has_errors() {
        Err(compiled.diagnostics)
    } else {
        Ok(compiled)
    }
}

/// Like [`compile`], but keeps the module when the compile is refused (to render the diagnostics) and takes
/// the backend options (`header`). When `diagnostics` has an error, `passes` is empty.
pub fn compile_report(
    source: &str,
    includes: &dyn IncludeResolver,
    options: &Options,
    target: Target,
    backend_options: &shaderlab_backends::Options,
) -> Compiled {
    // The frontend and the passes, without `analyze`'s diagnostics: `validate` collects the same list again (and
    // it is the one reported), so collecting it here too would be wasted work.
    let mut module = crate::parse(source, includes, options);
    let facts = shaderlab_passes::run_passes(&module);
    // The passes have read the frontend's clues: they move into the diagnostics (no copy of each), and the
    // module kept for rendering keeps none.
    let clues = std::mem::take(&mut module.clues);
    let (passes, diagnostics) = {
        match shaderlab_validator::validate_taking(&module, &facts, clues) {
            Err(diagnostics) => (Vec::new(), diagnostics),
            Ok(valid) => {
                let backend = shaderlab_backends::backend(target);
                let (passes, errors) = emit_all(&valid, backend, backend_options);
                let mut diagnostics = valid.into_warnings();
                if errors.is_empty() {
                    (passes, diagnostics)
                } else {
                    diagnostics.extend(errors);
                    (Vec::new(), diagnostics)
                }
            }
        }
    };
    Compiled { module, target, passes, diagnostics }
}

fn emit_all(
    valid: &shaderlab_validator::ValidModule,
    backend: &dyn Backend,
    options: &shaderlab_backends::Options,
) -> (Vec<CompiledPass>, Vec<Diagnostic>) {
    let m = valid.module();
    let mut passes = Vec::with_capacity(m.passes.len());
    let mut errors: Vec<Diagnostic> = Vec::new();
    for sub in m.subshaders.values() {
        for &id in &sub.passes {
            let Some(pass) = m.passes.get(id) else { continue };
            let sources = match &pass.kind {
                PassKind::UsePass { path } => {
                    passes.push(CompiledPass { pass: id, name: path.clone(), sources: None });
                    continue;
                }
                PassKind::Program { .. } => backend.emit_pass(valid, id, options),
            };
            match sources {
                Ok(s) => passes.push(CompiledPass { pass: id, name: pass.name.clone(), sources: Some(s) }),
                Err(list) => {
                    for e in list {
                        let code = match e.kind {
                            BackendErrorKind::ArrayOfArrays { .. } => BackendCode::ArrayOfArrays,
                            BackendErrorKind::UnsupportedInTarget { .. } | BackendErrorKind::NoProgram { .. } => {
                                BackendCode::UnsupportedInTarget
                            }
                        };
                        let message = e.message();
                        if errors.iter().any(|d| d.span == e.span && d.message() == message) {
                            continue;
                        }
                        let note = Note {
                            span: None,
                            message: format!("while writing pass '{}' for {}", pass.name, backend.target().name()),
                        };
                        errors.push(Diagnostic::backend(code, message, e.span, vec![note]));
                    }
                }
            }
        }
    }
    (passes, errors)
}
