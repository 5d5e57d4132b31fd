//! Oracle check of the builtin catalogue (`passes/src/builtins.txt`) against glslangValidator.
//!
//! Every overload is compiled alone, in each stage and GLSL ES version the catalogue gives it, with uniform (or
//! constant, or local for `out`) arguments of the parameter types and its result assigned to a local of the
//! return type; it must be accepted. What the catalogue leaves out must be rejected: each overload in a stage
//! or version it lacks, ES 1.00 extension names without their `#extension`, non-constant offsets, non-l-value
//! `out` arguments, and wrong-typed calls (every single-argument type change of one overload per family line
//! that no overload of the name accepts, wrong argument counts, and a few hand-written calls). The variables
//! get the same treatment (read, write, constant use; wrong stage, version, write to an input).
//!
//! Each case is its own shader file; glslangValidator compiles many files per run, so a failure names exactly
//! the overload and the glslang message. Without glslangValidator the tests print SKIPPED (and fail under
//! `CI=true`).

use shaderlab_ir::{SamplerDim, SamplerType, ScalarKind};
use shaderlab_passes::builtins::{self, Availability, BuiltinVar, Overload, ParamMode, Stages};
use shaderlab_passes::Ty;
use std::collections::{BTreeSet, HashSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

const VALIDATOR: &str = "glslangValidator";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Version {
    Es100,
    Es300,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Stage {
    Vert,
    Frag,
}

const VERSIONS: [Version; 2] = [Version::Es100, Version::Es300];
const STAGES: [Stage; 2] = [Stage::Vert, Stage::Frag];

impl Version {
    fn has(self, availability: Availability) -> bool {
        match self {
            Version::Es100 => availability.in_es100(),
            Version::Es300 => availability.in_es300(),
        }
    }
}

impl Stage {
    fn in_stages(self, stages: Stages) -> bool {
        match self {
            Stage::Vert => stages.vertex,
            Stage::Frag => stages.fragment,
        }
    }

    fn suffix(self) -> &'static str {
        match self {
            Stage::Vert => "vert",
            Stage::Frag => "frag",
        }
    }
}

/// One shader to compile and whether glslang must accept it.
struct Case {
    what: String,
    version: Version,
    stage: Stage,
    source: String,
    expect_ok: bool,
}

/// A shader body with the uniforms it reads.
#[derive(Default)]
struct Body {
    uniforms: BTreeSet<String>,
    text: String,
}

impl Body {
    /// The uniform of type `ty` (`u_vec3`), declared on use.
    fn uniform(&mut self, ty: &Ty) -> String {
        let precision = if matches!(ty, Ty::Sampler(_)) { "highp " } else { "" };
        self.uniforms.insert(format!("uniform {precision}{ty} u_{ty};"));
        format!("u_{ty}")
    }

    fn line(&mut self, line: &str) {
        self.text.push_str("    ");
        self.text.push_str(line);
        self.text.push('\n');
    }
}

fn shader(version: Version, extension: Option<&str>, body: &Body) -> String {
    let mut s = String::from(match version {
        Version::Es100 => "#version 100\n",
        Version::Es300 => "#version 300 es\n",
    });
    if let Some(ext) = extension {
        let _ = writeln!(s, "#extension {ext} : enable");
    }
    s.push_str("precision highp float;\nprecision highp int;\n");
    for u in &body.uniforms {
        s.push_str(u);
        s.push('\n');
    }
    let _ = write!(s, "void main() {{\n{}}}\n", body.text);
    s
}

/// How to pass the arguments of a call.
#[derive(Clone, Copy, PartialEq)]
enum Args {
    /// Uniforms, constant constructors for `const` parameters, locals for `out` parameters.
    Proper,
    /// A uniform for every argument (breaks `const` and `out` parameters).
    AllUniforms,
}

/// `R r = name(args);` for an overload's parameter types (with `modes` of the catalogue).
fn call_body(name: &str, params: &[Ty], modes: &[ParamMode], ret: Option<&Ty>, args: Args) -> Body {
    let mut body = Body::default();
    let mut list = Vec::new();
    for (i, ty) in params.iter().enumerate() {
        let mode = modes.get(i).copied().unwrap_or(ParamMode::In);
        let arg = match (mode, args) {
            (ParamMode::Const, Args::Proper) if !matches!(ty, Ty::Sampler(_)) => format!("{ty}(0)"),
            (ParamMode::Out, Args::Proper) if !matches!(ty, Ty::Sampler(_)) => {
                body.line(&format!("{ty} o{i};"));
                format!("o{i}")
            }
            _ => body.uniform(ty),
        };
        list.push(arg);
    }
    let call = format!("{name}({})", list.join(", "));
    match ret {
        Some(Ty::Void) | None => body.line(&format!("{call};")),
        Some(ret) => body.line(&format!("{ret} r = {call};")),
    }
    body
}

fn describe(o: &Overload) -> String {
    let params: Vec<String> = o
        .params
        .iter()
        .zip(&o.modes)
        .map(|(t, m)| match m {
            ParamMode::In => t.to_string(),
            ParamMode::Out => format!("out {t}"),
            ParamMode::Const => format!("const {t}"),
        })
        .collect();
    format!("{} {}({}) (builtins.txt line {})", o.ret, o.name, params.join(", "), o.family_line)
}

fn signature(name: &str, args: &[Ty]) -> String {
    let args: Vec<String> = args.iter().map(|t| t.to_string()).collect();
    format!("{name}({})", args.join(", "))
}

fn overload_case(o: &Overload, version: Version, stage: Stage, extension: bool, args: Args, expect_ok: bool) -> Case {
    let body = call_body(o.name, &o.params, &o.modes, Some(&o.ret), args);
    let ext = if extension && version == Version::Es100 { o.es100_extension } else { None };
    Case { what: describe(o), version, stage, source: shader(version, ext, &body), expect_ok }
}

// ---- Running glslangValidator ----

/// Whether glslangValidator can run; prints SKIPPED (or panics under CI=true) when it cannot.
fn validator_available(test: &str) -> bool {
    let ok = Command::new(VALIDATOR).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status();
    if ok.is_ok_and(|s| s.success()) {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{VALIDATOR} is not installed, and CI=true: {test} cannot be skipped");
    }
    // Straight to stderr: the test harness captures `eprintln!` of passing tests.
    let _ = writeln!(
        std::io::stderr(),
        "\n**************** SKIPPED {test}: {VALIDATOR} is not installed ****************\n"
    );
    false
}

/// Compiles every case (each its own file, many files per glslangValidator run, two runs at a time) and returns,
/// per case, the glslang errors (empty when accepted).
fn compile_all(dir_name: &str, cases: &[Case]) -> Vec<String> {
    // Thousands of small files: on tmpfs (/dev/shm) when there is one, creating them is far cheaper than on disk.
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() { shm.to_path_buf() } else { std::env::temp_dir() };
    let dir = base.join(format!("shaderlab-builtins-glslang-{}-{dir_name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the temporary shader directory");
    let names: Vec<String> = cases.iter().enumerate().map(|(i, c)| format!("c{i}.{}", c.stage.suffix())).collect();
    for (case, name) in cases.iter().zip(&names) {
        std::fs::write(dir.join(name), &case.source).expect("write a temporary shader");
    }
    const CHUNK: usize = 1500;
    let chunks: Vec<&[String]> = names.chunks(CHUNK).collect();
    let mut errors = vec![String::new(); cases.len()];
    // Two processes at a time: glslang is single-threaded and each run caches the builtin symbol tables.
    for (pair_index, pair) in chunks.chunks(2).enumerate() {
        let running: Vec<(Child, PathBuf)> = pair
            .iter()
            .enumerate()
            .map(|(k, chunk)| {
                let log = dir.join(format!("log{pair_index}_{k}.txt"));
                let out = std::fs::File::create(&log).expect("create a glslang log file");
                let child = Command::new(VALIDATOR)
                    .args(chunk.iter())
                    .current_dir(&dir)
                    .stdout(out)
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("run glslangValidator");
                (child, log)
            })
            .collect();
        for (mut child, log) in running {
            child.wait().expect("wait for glslangValidator");
            let text = std::fs::read_to_string(&log).expect("read a glslang log");
            let mut current: Option<usize> = None;
            for line in text.lines() {
                let trimmed = line.trim();
                if let Some(index) = trimmed.strip_prefix('c').and_then(|rest| rest.split('.').next()) {
                    if let Ok(index) = index.parse::<usize>() {
                        if names.get(index).is_some_and(|n| n == trimmed) {
                            current = Some(index);
                            continue;
                        }
                    }
                }
                if let Some(index) = current {
                    if trimmed.starts_with("ERROR:") && !trimmed.contains("compilation errors") {
                        errors[index].push_str(trimmed);
                        errors[index].push('\n');
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    errors
}

/// The glslang messages a rejected case may start with.
const REJECTION_REASONS: &[&str] = &[
    "no matching overloaded function found",
    "required extension not requested",
    "l-value required",
    "argument must be compile-time constant",
    "undeclared identifier",
    "no such field in structure",
];

/// Compiles the cases and panics listing every case whose outcome differs from its expectation.
fn check(dir_name: &str, cases: &[Case]) {
    assert!(!cases.is_empty(), "no cases generated for {dir_name}");
    let errors = compile_all(dir_name, cases);
    let mut failures = Vec::new();
    for (case, err) in cases.iter().zip(&errors) {
        let accepted = err.is_empty();
        // A rejection must be for the reason the case is about, not a flaw of the generated shader.
        let first_error = err.lines().next().unwrap_or("");
        let unrelated = !accepted && !REJECTION_REASONS.iter().any(|r| first_error.contains(r));
        if accepted != case.expect_ok || unrelated {
            let verdict = match (case.expect_ok, accepted) {
                (true, _) => "glslang REJECTED",
                (false, true) => "glslang ACCEPTED",
                (false, false) => "glslang rejected for an unrelated reason",
            };
            let mut text = format!("{verdict} [{:?} {:?}] {}", case.version, case.stage, case.what);
            if !err.is_empty() {
                let _ = write!(text, "\n    {}", err.trim_end().replace('\n', "\n    "));
            }
            if failures.len() < 5 {
                let _ = write!(text, "\n  source:\n{}", case.source);
            }
            failures.push(text);
        }
    }
    eprintln!("{dir_name}: {} shaders compiled, {} mismatches", cases.len(), failures.len());
    if !failures.is_empty() {
        let shown: Vec<&String> = failures.iter().take(60).collect();
        panic!(
            "{} of {} cases disagree with glslang (first {}):\n{}",
            failures.len(),
            cases.len(),
            shown.len(),
            shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
        );
    }
}

// ---- Types for wrong-typed calls ----

fn sampler(dim: SamplerDim, sampled: ScalarKind, shadow: bool) -> Ty {
    Ty::Sampler(SamplerType { dim, sampled, shadow })
}

/// Every non-array type a GLSL ES version has (GLSL ES 1.00: no uint, square matrices, 2D and cube samplers).
fn all_types(version: Version) -> Vec<Ty> {
    let mut types = Vec::new();
    for kind in [ScalarKind::Float, ScalarKind::Int, ScalarKind::Uint, ScalarKind::Bool] {
        if version == Version::Es100 && kind == ScalarKind::Uint {
            continue;
        }
        for size in 1..=4 {
            types.push(Ty::vector(kind, size));
        }
    }
    for (columns, rows) in [(2, 2), (3, 3), (4, 4), (2, 3), (2, 4), (3, 2), (3, 4), (4, 2), (4, 3)] {
        if version == Version::Es300 || columns == rows {
            types.push(Ty::Matrix { columns, rows });
        }
    }
    if version == Version::Es100 {
        types.push(sampler(SamplerDim::D2, ScalarKind::Float, false));
        types.push(sampler(SamplerDim::Cube, ScalarKind::Float, false));
    } else {
        for &(_, s) in shaderlab_ir::types::SAMPLERS {
            types.push(Ty::Sampler(s));
        }
    }
    types
}

fn type_in_version(ty: &Ty, version: Version) -> bool {
    all_types(version).contains(ty)
}

/// Whether the catalogue has an overload of `name` with exactly `args` in this version and stage.
fn catalogue_accepts(name: &str, args: &[Ty], version: Version, stage: Stage) -> bool {
    builtins::overloads(name)
        .iter()
        .any(|o| o.params == args && version.has(o.availability) && stage.in_stages(o.stages))
}

// ---- The tests ----

#[test]
fn every_overload_is_accepted_where_the_catalogue_has_it() {
    if !validator_available("every_overload_is_accepted_where_the_catalogue_has_it") {
        return;
    }
    let mut cases = Vec::new();
    for o in builtins::functions() {
        for version in VERSIONS {
            for stage in STAGES {
                if version.has(o.availability) && stage.in_stages(o.stages) {
                    cases.push(overload_case(o, version, stage, true, Args::Proper, true));
                }
            }
        }
    }
    check("accepted", &cases);
}

#[test]
fn overloads_are_rejected_where_the_catalogue_lacks_them() {
    if !validator_available("overloads_are_rejected_where_the_catalogue_lacks_them") {
        return;
    }
    let mut cases = Vec::new();
    for o in builtins::functions() {
        let expressible = |v: Version| o.params.iter().chain([&o.ret]).all(|t| type_in_version(t, v));
        for version in VERSIONS {
            for stage in STAGES {
                let has_version = version.has(o.availability);
                let has_stage = stage.in_stages(o.stages);
                // The wrong stage, in a version that has the overload.
                if has_version && !has_stage && !glslang_accepts_in_stage(o, stage) {
                    let mut case = overload_case(o, version, stage, true, Args::Proper, false);
                    case.what = format!("{} in the {stage:?} stage", case.what);
                    cases.push(case);
                }
                // The wrong version, where its types exist.
                if !has_version && has_stage && expressible(version) {
                    let mut case = overload_case(o, version, stage, false, Args::Proper, false);
                    case.what = format!("{} in {version:?}", case.what);
                    cases.push(case);
                }
                if has_version && has_stage {
                    // The ES 1.00 extension not enabled.
                    if version == Version::Es100 && o.es100_extension.is_some() {
                        let mut case = overload_case(o, version, stage, false, Args::Proper, false);
                        case.what = format!("{} without #extension", case.what);
                        cases.push(case);
                    }
                    // A uniform for a `const` or `out` parameter.
                    if o.modes.iter().any(|m| *m != ParamMode::In) {
                        let mut case = overload_case(o, version, stage, true, Args::AllUniforms, false);
                        case.what = format!("{} with a uniform for a const/out argument", case.what);
                        cases.push(case);
                    }
                }
            }
        }
    }
    check("wrong_stage_version", &cases);
}

/// Where glslang is more lenient about stages than the catalogue, on purpose.
fn glslang_accepts_in_stage(o: &Overload, stage: Stage) -> bool {
    // glslang declares the GL_EXT_shader_texture_lod *GradEXT names in the vertex stage too; the extension (and
    // WebGL) is fragment-only, and the engine enables extensions in fragment shaders only.
    stage == Stage::Vert && o.name.ends_with("GradEXT")
}

#[test]
fn wrong_typed_calls_are_rejected() {
    if !validator_available("wrong_typed_calls_are_rejected") {
        return;
    }
    let mut cases = Vec::new();
    let mut seen = HashSet::new();
    // The first overload of each family line with one argument of any other type, one argument fewer, one more.
    let mut families = HashSet::new();
    for o in builtins::functions() {
        if !families.insert(o.family_line) {
            continue;
        }
        for version in VERSIONS {
            if !version.has(o.availability) {
                continue;
            }
            // The fragment stage has every overload but the vertex-only ES 1.00 ones.
            let stage = if o.stages.fragment { Stage::Frag } else { Stage::Vert };
            let mut variants: Vec<Vec<Ty>> = Vec::new();
            for i in 0..o.params.len() {
                for ty in all_types(version).into_iter().filter(|t| *t != o.params[i]) {
                    let mut args = o.params.clone();
                    args[i] = ty;
                    variants.push(args);
                }
            }
            let mut fewer = o.params.clone();
            fewer.pop();
            variants.push(fewer);
            let mut more = o.params.clone();
            more.push(Ty::FLOAT);
            variants.push(more);
            for args in variants {
                if catalogue_accepts(o.name, &args, version, stage) {
                    continue;
                }
                if !seen.insert((o.name, args.clone(), version, stage)) {
                    continue;
                }
                let body = call_body(o.name, &args, &o.modes, None, Args::Proper);
                let ext = if version == Version::Es100 { o.es100_extension } else { None };
                cases.push(Case {
                    what: format!("{} (wrong call of family line {})", signature(o.name, &args), o.family_line),
                    version,
                    stage,
                    source: shader(version, ext, &body),
                    expect_ok: false,
                });
            }
        }
    }
    cases.extend(hand_written_wrong_calls());
    check("wrong_calls", &cases);
}

/// Calls with literals, as people write them; the catalogue must reject their types too.
fn hand_written_wrong_calls() -> Vec<Case> {
    let f = || Ty::FLOAT;
    let i = || Ty::INT;
    let v = |n| Ty::Vector(ScalarKind::Float, n);
    let s2d = || sampler(SamplerDim::D2, ScalarKind::Float, false);
    let calls: Vec<(Version, Stage, &str, &str, Vec<Ty>)> = vec![
        (Version::Es300, Stage::Frag, "pow(1, 2.0)", "pow", vec![i(), f()]),
        (Version::Es100, Stage::Frag, "pow(1, 2.0)", "pow", vec![i(), f()]),
        (Version::Es300, Stage::Frag, "texture(u_sampler2D, 1.0)", "texture", vec![s2d(), f()]),
        (Version::Es300, Stage::Frag, "dot(u_vec2, u_vec3)", "dot", vec![v(2), v(3)]),
        (
            Version::Es300,
            Stage::Frag,
            "mix(u_vec3, u_vec3, u_bvec2)",
            "mix",
            vec![v(3), v(3), Ty::Vector(ScalarKind::Bool, 2)],
        ),
        (Version::Es300, Stage::Frag, "clamp(u_vec3, 0, 1)", "clamp", vec![v(3), i(), i()]),
        (Version::Es300, Stage::Frag, "max(u_int, 1.0)", "max", vec![i(), f()]),
        (Version::Es300, Stage::Frag, "step(0, u_vec2)", "step", vec![i(), v(2)]),
        (Version::Es100, Stage::Frag, "texture2D(u_sampler2D, 0.5)", "texture2D", vec![s2d(), f()]),
        (
            Version::Es100,
            Stage::Frag,
            "texture2D(u_samplerCube, u_vec2)",
            "texture2D",
            vec![sampler(SamplerDim::Cube, ScalarKind::Float, false), v(2)],
        ),
        (Version::Es300, Stage::Frag, "texelFetch(u_sampler2D, u_vec2, 0)", "texelFetch", vec![s2d(), v(2), i()]),
        (Version::Es300, Stage::Frag, "textureLod(u_sampler2D, u_vec2, 0)", "textureLod", vec![s2d(), v(2), i()]),
        (Version::Es300, Stage::Frag, "length(u_ivec3)", "length", vec![Ty::Vector(ScalarKind::Int, 3)]),
        (Version::Es300, Stage::Frag, "cross(u_vec4, u_vec4)", "cross", vec![v(4), v(4)]),
        (Version::Es300, Stage::Frag, "any(u_vec2)", "any", vec![v(2)]),
        (Version::Es300, Stage::Frag, "inverse(u_mat2x3)", "inverse", vec![Ty::Matrix { columns: 2, rows: 3 }]),
    ];
    let mut cases = Vec::new();
    for (version, stage, call, name, types) in calls {
        assert!(
            !catalogue_accepts(name, &types, version, stage),
            "the catalogue accepts the wrong call {call} ({})",
            signature(name, &types)
        );
        let mut body = Body::default();
        for ty in all_types(version) {
            if call.contains(&format!("u_{ty},")) || call.contains(&format!("u_{ty})")) {
                body.uniform(&ty);
            }
        }
        body.line(&format!("{call};"));
        cases.push(Case {
            what: format!("{call} (hand-written)"),
            version,
            stage,
            source: shader(version, None, &body),
            expect_ok: false,
        });
    }
    cases
}

#[test]
fn variables_are_accepted_where_the_catalogue_has_them() {
    if !validator_available("variables_are_accepted_where_the_catalogue_has_them") {
        return;
    }
    let mut cases = Vec::new();
    for var in builtins::variables() {
        for version in VERSIONS {
            for stage in STAGES {
                let has_version = version.has(var.availability);
                let has_stage = stage.in_stages(var.stages);
                let ext = if version == Version::Es100 { var.es100_extension } else { None };
                let case = |body: Body, what: &str, ext: Option<&str>, expect_ok: bool| Case {
                    what: format!("{} {what}", var.name),
                    version,
                    stage,
                    source: shader(version, ext, &body),
                    expect_ok,
                };
                if has_version && has_stage {
                    cases.push(case(use_variable(var), "used", ext, true));
                    if !var.writable {
                        cases.push(case(write_variable(var), "written", ext, false));
                    }
                    if ext.is_some() {
                        cases.push(case(use_variable(var), "without #extension", None, false));
                    }
                }
                if !has_version || !has_stage {
                    cases.push(case(use_variable(var), "where the catalogue lacks it", ext, false));
                }
            }
        }
    }
    // gl_DepthRange: a uniform struct in both stages and versions.
    for version in VERSIONS {
        for stage in STAGES {
            for (field, expect_ok) in [("near", true), ("far", true), ("diff", true), ("depth", false)] {
                assert_eq!(builtins::depth_range_field(field).is_some(), expect_ok);
                let mut body = Body::default();
                body.line(&format!("float x = {}.{field};", builtins::DEPTH_RANGE));
                cases.push(Case {
                    what: format!("gl_DepthRange.{field}"),
                    version,
                    stage,
                    source: shader(version, None, &body),
                    expect_ok,
                });
            }
        }
    }
    check("variables", &cases);
}

/// Reads (inputs, constants) or writes (outputs) the variable with its catalogue type.
fn use_variable(var: &BuiltinVar) -> Body {
    let mut body = Body::default();
    match &var.ty {
        Ty::Array(a) => {
            let value = body.uniform(&a.elem());
            body.line(&format!("{}[0] = {value};", var.name));
        }
        ty if var.writable => {
            let value = body.uniform(ty);
            body.line(&format!("{} = {value};", var.name));
            body.line(&format!("{ty} readback = {};", var.name));
        }
        ty if var.constant => body.line(&format!("const {ty} x = {};", var.name)),
        ty => body.line(&format!("{ty} x = {};", var.name)),
    }
    body
}

fn write_variable(var: &BuiltinVar) -> Body {
    let mut body = Body::default();
    let value = body.uniform(&var.ty);
    body.line(&format!("{} = {value};", var.name));
    body
}
