//! The corpus of real engine shaders (`$SHADERLAB_CORPUS`, default `../shared/corpus`; see its README).
//!
//! - every valid shader reads with no error, in preserving mode and in variant mode (the engine's platform macros,
//!   and for dev/2.0 files every macro set the engine used in `reference/dev2/<stem>/*.expanded.macros.txt`);
//! - the known-invalid inputs report the error they deserve;
//! - the structure (`parse --format json`) equals the engine's `IShaderSource.json`, through the library for every
//!   dev/2.0 reference and through the binary for one.
//!
//! Without a corpus the tests pass with a loud banner, except under `CI=true`.

mod common;

use common::*;
use serde_json::{json, Map, Value};
use shaderlab::ir::{PassKind, Severity};
use shaderlab::Analysis;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What a corpus file is expected to produce.
#[derive(Clone, Copy, Debug)]
enum Class {
    /// dev/2.0 syntax: no diagnostic at all.
    V2Clean,
    /// 1.3-1.5 syntax: no error; the only warnings allowed are DeprecatedSyntax.
    V1Clean,
    /// `dev_2.0__render-state.shader`: render states only, so exactly one MissingEntry per pass and nothing else.
    RenderStateOnly,
    /// Not valid ShaderLab as stored: at least one error with this code (in every mode).
    Invalid { code: &'static str, why: &'static str },
    /// The engine's expected-compile-error tests: errors, codes pinned by the validator's own tests.
    ExpectedErrors,
    /// `1.5__mrt-error1.shader`: its error is semantic (gl_FragData with gl_FragColor: GlFragColorWithMrt); the
    /// frontend may accept it.
    SemanticError,
}

fn classify(name: &str) -> Class {
    if name == "1.4__shader-lab-multi-pass__1.shader" {
        Class::Invalid { code: "UnexpectedToken", why: "JavaScript `${...}` template interpolation left in the source" }
    } else if name.contains("builtin-function") {
        Class::Invalid { code: "UnexpectedToken", why: "`__$$insert_maros$$__` placeholder the engine test replaces" }
    } else if name.contains("unlit") {
        Class::Invalid { code: "IncludeNotFound", why: "needs the old engine chunk `brdf`, not in the corpus" }
    } else if name.contains("compilation-error") {
        Class::ExpectedErrors
    } else if name == "1.5__mrt-error1.shader" {
        Class::SemanticError
    } else if name == "dev_2.0__render-state.shader" {
        Class::RenderStateOnly
    } else if is_v2(name) {
        Class::V2Clean
    } else {
        Class::V1Clean
    }
}

/// Files every special case of [`classify`] must still find (a renamed corpus must not skip a check silently).
const SPECIAL_FILES: [&str; 3] =
    ["1.4__shader-lab-multi-pass__1.shader", "1.5__mrt-error1.shader", "dev_2.0__render-state.shader"];
const SPECIAL_PATTERNS: [&str; 3] = ["builtin-function", "unlit", "compilation-error"];

/// A compiler bug found by these tests: the correct expectation stays in the test, only these diagnostics are
/// tolerated (with a loud message). Once the compiler is fixed the test fails until the entry is removed.
struct KnownBug {
    files: &'static [&'static str],
    /// Only in variant mode (`-D`).
    variant_only: bool,
    code: &'static str,
    bug: &'static str,
}

const KNOWN_BUGS: &[KnownBug] = &[];

/// A finding that is right: the engine's own source is wrong in some variants. Tolerated, not required (the
/// validator's fixtures pin the rule itself).
struct Tolerated {
    file: &'static str,
    /// Only in variant mode: a preserving check must stay silent on what holds in some variants only.
    variant_only: bool,
    code: &'static str,
    why: &'static str,
}

const TOLERATED: &[Tolerated] = &[
    Tolerated {
        file: "dev_2.0__shaderlab-05-advance__1.shader",
        variant_only: true,
        code: "UndefinedFunction",
        why: "vert calls getSkinMatrix(attr) unconditionally, but Skin.glsl defines it only under RENDERER_HAS_SKIN; \
              the engine's own output for these macros (reference 0-0.es300.vert.expanded.glsl) calls an undefined \
              getSkinMatrix()",
    },
    Tolerated {
        file: "dev_2.0__shaderLab-mrt__1.shader",
        variant_only: false,
        code: "UndeclaredIdentifier",
        why: "latent bug: material_BaseTexture (under MATERIAL_HAS_BASETEXTURE) and material_AlphaCutoff (under \
              MATERIAL_IS_ALPHA_CUTOFF) are used but declared nowhere (required in preserving mode, see \
              mrt_latent_bugs_are_found)",
    },
    Tolerated {
        file: "dev_2.0__shaderLab-mrt__1.shader",
        variant_only: false,
        code: "UndefinedFunction",
        why: "latent bug: gammaToLinear (under MATERIAL_HAS_BASETEXTURE) and getSkinMatrix (under RENDERER_HAS_SKIN) \
              are called but defined nowhere",
    },
    Tolerated {
        file: "1.4__shaderLab-mrt__1.shader",
        variant_only: false,
        code: "UndeclaredIdentifier",
        why: "the same latent bug as dev_2.0__shaderLab-mrt__1",
    },
    Tolerated {
        file: "1.4__shaderLab-mrt__1.shader",
        variant_only: false,
        code: "UndefinedFunction",
        why: "the same latent bug as dev_2.0__shaderLab-mrt__1",
    },
    Tolerated {
        file: "dev_2.0__waterfull.shader",
        variant_only: false,
        code: "Redefinition",
        why: "latent bug: `vec2 uv1` is declared at function level and again under #ifdef _WATERQULIATY_HIGH in the \
              same scope; the engine logs 'Replace symbol: uv1', GLSL rejects the HIGH variant",
    },
    Tolerated {
        file: "1.5__waterfull.shader",
        variant_only: false,
        code: "Redefinition",
        why: "the same latent bug as dev_2.0__waterfull",
    },
    Tolerated {
        file: "1.4__shader-lab-simple__2.shader",
        variant_only: false,
        code: "ShadowedDeclaration",
        why: "warning, as the catalogue says: `for (float i ...)` hides the parameter `i` of frag(v2f i)",
    },
    Tolerated {
        file: "1.4__shader-water__1.shader",
        variant_only: false,
        code: "ShadowedDeclaration",
        why: "warning, as the catalogue says: a loop variable `i` hides the parameter `i`",
    },
];

fn is_v2(name: &str) -> bool {
    name.starts_with("dev_2.0__")
}

fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

fn include_roots(corpus: &Path, name: &str) -> Vec<PathBuf> {
    if is_v2(name) {
        vec![corpus.join("includes/dev2")]
    } else {
        vec![corpus.join("includes/v1.5"), corpus.join("includes/tests-v1.5")]
    }
}

fn shader_files(corpus: &Path) -> Vec<PathBuf> {
    list_files(&corpus.join("shaders"), |n| n.ends_with(".shader") || n.ends_with(".gs"))
}

/// The modes a file is checked in: preserving, the platform macros, and (dev/2.0) the engine's own macro sets.
fn modes(corpus: &Path, path: &Path) -> Vec<Option<Macros>> {
    let mut modes = vec![None, Some(platform_macros())];
    if is_v2(&file_name(path)) {
        let reference = corpus.join("reference/dev2").join(stem(path));
        if reference.is_dir() {
            for list in list_files(&reference, |n| n.ends_with(".expanded.macros.txt")) {
                let set = Some(parse_macro_list(&read_text(&list)));
                if !modes.contains(&set) {
                    modes.push(set);
                }
            }
        }
    }
    modes
}

/// Check one analysis against its class; `Err` explains the failure.
fn check(class: Class, analysis: &Analysis) -> Result<(), String> {
    let codes = codes(analysis);
    match class {
        Class::V2Clean => {
            if !codes.is_empty() {
                return Err(format!("expected no diagnostic, got {codes:?}"));
            }
        }
        Class::V1Clean => {
            let other: Vec<_> = codes.iter().filter(|c| **c != "DeprecatedSyntax").collect();
            if !other.is_empty() || analysis.has_errors() {
                return Err(format!("expected only DeprecatedSyntax warnings, got {codes:?}"));
            }
            if analysis.diagnostics.iter().any(|d| d.severity != Severity::Warning) {
                return Err("DeprecatedSyntax must be a warning".to_owned());
            }
        }
        Class::RenderStateOnly => {
            let passes: Vec<_> = analysis.module.passes.values().collect();
            if passes.len() != 3 || passes.iter().any(|p| !matches!(p.kind, PassKind::Program { .. })) {
                return Err(format!("expected 3 program passes, got {}", passes.len()));
            }
            if codes.iter().any(|c| *c != "MissingEntry") || codes.len() != passes.len() {
                return Err(format!("expected exactly one MissingEntry per pass ({}), got {codes:?}", passes.len()));
            }
            for pass in &passes {
                let inside = analysis
                    .diagnostics
                    .iter()
                    .filter(|d| {
                        d.span.file == pass.span.file && pass.span.start <= d.span.start && d.span.end <= pass.span.end
                    })
                    .count();
                if inside != 1 {
                    return Err(format!("pass '{}' has {inside} MissingEntry diagnostics, expected 1", pass.name));
                }
            }
            if analysis.diagnostics.iter().any(|d| d.severity != Severity::Error) {
                return Err("MissingEntry must be an error".to_owned());
            }
        }
        Class::Invalid { code, why } => {
            let found = analysis.diagnostics.iter().any(|d| d.code() == code && d.severity == Severity::Error);
            if !found {
                return Err(format!("invalid input ({why}) must report an error {code}, got {codes:?}"));
            }
            // One root cause, one diagnostic: no cascade of other errors.
            let cascade: Vec<_> = analysis
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error && d.code() != code)
                .map(|d| d.code())
                .collect();
            if !cascade.is_empty() {
                return Err(format!("invalid input ({why}): {code} is the root cause, but also got {cascade:?}"));
            }
        }
        Class::ExpectedErrors => {
            if !analysis.has_errors() {
                return Err(format!("expected-error file must report errors, got {codes:?}"));
            }
        }
        Class::SemanticError => {
            // The frontend may accept it; the only error it deserves is the semantic one (gl_FragColor together
            // with gl_FragData), once the validator reports it.
            let unexpected: Vec<_> = analysis
                .diagnostics
                .iter()
                .map(|d| d.code())
                .filter(|c| *c != "DeprecatedSyntax" && *c != "GlFragColorWithMrt")
                .collect();
            if !unexpected.is_empty() {
                return Err(format!("expected nothing but GlFragColorWithMrt, got {codes:?}"));
            }
            if !codes.contains(&"GlFragColorWithMrt") {
                return Err(format!(
                    "expected GlFragColorWithMrt (gl_FragColor together with gl_FragData), got {codes:?}"
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn corpus_shaders_read_without_errors_in_every_mode() {
    let Some(corpus) = corpus_dir("corpus_shaders_read_without_errors_in_every_mode") else {
        return;
    };
    let files = shader_files(&corpus);
    let mut failures = Vec::new();
    let names: Vec<String> = files.iter().map(|f| file_name(f)).collect();
    for special in SPECIAL_FILES {
        if !names.iter().any(|n| n == special) {
            failures.push(format!("corpus file {special} is missing (its special case would go unchecked)"));
        }
    }
    for pattern in SPECIAL_PATTERNS {
        if !names.iter().any(|n| n.contains(pattern)) {
            failures.push(format!("no corpus file matches '{pattern}' (its special case would go unchecked)"));
        }
    }
    let (mut v1, mut v2, mut analyses, mut known) = (0, 0, 0, 0);
    eprintln!("checking {} corpus shaders in {}", files.len(), corpus.join("shaders").display());
    for path in &files {
        let name = file_name(path);
        let class = classify(&name);
        if is_v2(&name) {
            v2 += 1;
        } else {
            v1 += 1;
        }
        let roots = include_roots(&corpus, &name);
        let modes = modes(&corpus, path);
        for defines in &modes {
            analyses += 1;
            let mode = describe_macros(defines);
            let mut analysis = match analyze_file(path, &roots, defines.clone()) {
                Ok(a) => a,
                Err(panic) => {
                    failures.push(format!("{name} [{mode}]: the compiler panicked: {panic}"));
                    continue;
                }
            };
            for bug in KNOWN_BUGS.iter().filter(|b| b.files.contains(&name.as_str())) {
                if bug.variant_only && defines.is_none() {
                    continue;
                }
                let before = analysis.diagnostics.len();
                analysis.diagnostics.retain(|d| d.code() != bug.code);
                if analysis.diagnostics.len() == before {
                    failures.push(format!(
                        "{name} [{mode}]: known bug no longer reproduces, remove it from KNOWN_BUGS: {}",
                        bug.bug
                    ));
                } else {
                    known += 1;
                    uncaptured(&format!(
                        "!!! KNOWN FAILURE (compiler bug, skipped) {name} [{mode}]: {}: {}",
                        bug.code, bug.bug
                    ));
                }
            }
            for t in TOLERATED.iter().filter(|t| t.file == name && (defines.is_some() || !t.variant_only)) {
                let before = analysis.diagnostics.len();
                analysis.diagnostics.retain(|d| d.code() != t.code);
                if analysis.diagnostics.len() != before {
                    eprintln!("  tolerated {name} [{mode}]: {}: {}", t.code, t.why);
                }
            }
            match check(class, &analysis) {
                Ok(()) => {}
                Err(why) => failures.push(format!("{name} [{mode}] ({class:?}): {why}\n{}", render(&analysis))),
            }
        }
        eprintln!("  {name}: {class:?}, {} mode(s)", modes.len());
    }
    uncaptured(&format!(
        "corpus: {} files checked ({v1} v1, {v2} v2), {analyses} analyses, {known} known-bug skips \
         (--nocapture lists them)",
        files.len()
    ));
    if v1 == 0 || v2 == 0 {
        failures.push(format!("the corpus looks incomplete: {v1} v1 and {v2} v2 shaders"));
    }
    fail_if_any("corpus", &failures);
}

/// The engine's `IShaderSource.json` reduced to what `structure_json::shader_json` gives.
fn normalize_reference(reference: &Value) -> Value {
    let object = |v: Option<&Value>| v.cloned().unwrap_or_else(|| Value::Object(Map::new()));
    let subshaders: Vec<Value> = reference["subShaders"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|sub| {
            let passes: Vec<Value> = sub["passes"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|pass| {
                    let states = &pass["renderStates"];
                    let mut out = Map::new();
                    out.insert("name".into(), pass["name"].clone());
                    out.insert("isUsePass".into(), pass.get("isUsePass").cloned().unwrap_or(Value::Bool(false)));
                    out.insert("tags".into(), object(pass.get("tags")));
                    out.insert(
                        "renderStates".into(),
                        json!({
                            "constantMap": object(states.get("constantMap")),
                            "variableMap": object(states.get("variableMap")),
                        }),
                    );
                    for entry in ["vertexEntry", "fragmentEntry"] {
                        if let Some(v) = pass.get(entry) {
                            out.insert(entry.into(), v.clone());
                        }
                    }
                    Value::Object(out)
                })
                .collect();
            json!({ "name": sub["name"].clone(), "tags": object(sub.get("tags")), "passes": passes })
        })
        .collect();
    json!({ "name": reference["name"].clone(), "subShaders": subshaders })
}

/// `(shader source, IShaderSource.json)` for every dev/2.0 reference.
fn structure_references(corpus: &Path) -> Vec<(PathBuf, PathBuf)> {
    let root = corpus.join("reference/dev2");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", root.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && file_name(p).starts_with("dev_2.0__") && p.join("IShaderSource.json").is_file())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let stem = file_name(&dir);
            let source = [".shader", ".gs"]
                .iter()
                .map(|ext| corpus.join("shaders").join(format!("{stem}{ext}")))
                .find(|p| p.is_file())
                .unwrap_or_else(|| panic!("reference {} has no source in shaders/", dir.display()));
            (source, dir.join("IShaderSource.json"))
        })
        .collect()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&read_text(path)).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

#[test]
fn structure_json_matches_the_engine() {
    let Some(corpus) = corpus_dir("structure_json_matches_the_engine") else {
        return;
    };
    let references = structure_references(&corpus);
    assert!(!references.is_empty(), "no reference/dev2/dev_2.0__*/IShaderSource.json in {}", corpus.display());
    let mut failures = Vec::new();
    for (source, reference) in &references {
        let name = file_name(source);
        let expected = normalize_reference(&read_json(reference));
        let analysis = match analyze_file(source, &[corpus.join("includes/dev2")], None) {
            Ok(a) => a,
            Err(panic) => {
                failures.push(format!("{name}: the compiler panicked: {panic}"));
                continue;
            }
        };
        let actual = shaderlab::structure_json::shader_json(&analysis.module);
        if actual == expected {
            eprintln!("  {name}: structure matches {}", reference.display());
        } else {
            failures.push(format!(
                "{name}: structure differs from {}\n--- expected (engine)\n{}\n--- actual\n{}",
                reference.display(),
                pretty(&expected),
                pretty(&actual)
            ));
        }
    }
    uncaptured(&format!("structure: {} dev/2.0 IShaderSource.json references compared", references.len()));
    fail_if_any("structure_json", &failures);
}

#[test]
fn cli_parse_json_matches_the_engine() {
    let Some(corpus) = corpus_dir("cli_parse_json_matches_the_engine") else {
        return;
    };
    // PBR.gs: #include through -I, a UsePass, render-state variables and tags.
    let source = corpus.join("shaders/dev_2.0__PBR.gs");
    let reference = corpus.join("reference/dev2/dev_2.0__PBR/IShaderSource.json");
    let output = Command::new(env!("CARGO_BIN_EXE_shaderlab"))
        .arg("parse")
        .arg(&source)
        .arg("-I")
        .arg(corpus.join("includes/dev2"))
        .args(["--format", "json"])
        .output()
        .expect("run shaderlab");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "shaderlab parse failed\nstdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stderr.trim().is_empty(), "a clean file prints no diagnostics on stderr, got:\n{stderr}");
    let actual: Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("parse --format json is not JSON ({e}):\n{stdout}"));
    let expected = normalize_reference(&read_json(&reference));
    assert!(
        actual == expected,
        "CLI structure differs from {}\n--- expected (engine)\n{}\n--- actual\n{}",
        reference.display(),
        pretty(&expected),
        pretty(&actual)
    );
}

#[test]
fn reference_macro_lists_parse() {
    // The helper the corpus test relies on: `NAME` or `NAME VALUE`, blank lines ignored.
    let set = parse_macro_list("GRAPHICS_API_WEBGL1\nSCENE_FOG_MODE 0\n\n  HAS_TEX_LOD  \nA  1 + 2\n");
    let expected: Macros = vec![
        ("GRAPHICS_API_WEBGL1".into(), String::new()),
        ("SCENE_FOG_MODE".into(), "0".into()),
        ("HAS_TEX_LOD".into(), String::new()),
        ("A".into(), "1 + 2".into()),
    ];
    assert_eq!(set, expected);
}

/// The known latent bug of `dev_2.0__shaderLab-mrt__1.shader`: a texture used inside
/// `#ifdef MATERIAL_HAS_BASETEXTURE` but never declared is an UndeclaredIdentifier with a note naming the condition.
#[test]
fn mrt_latent_bugs_are_found() {
    let Some(corpus) = corpus_dir("mrt_latent_bugs_are_found") else {
        return;
    };
    let path = corpus.join("shaders/dev_2.0__shaderLab-mrt__1.shader");
    let analysis = analyze_file(&path, &include_roots(&corpus, "dev_2.0__x"), None).expect("no panic");
    let texture = analysis
        .diagnostics
        .iter()
        .find(|d| d.code() == "UndeclaredIdentifier" && d.message().contains("'material_BaseTexture'"))
        .expect("material_BaseTexture is reported");
    assert!(
        texture.notes.iter().any(|n| n.message == "in variants where MATERIAL_HAS_BASETEXTURE is defined"),
        "the note names the condition: {:?}",
        texture.notes
    );
    let mut found: Vec<String> = analysis.diagnostics.iter().map(|d| format!("{} {}", d.code(), d.message())).collect();
    found.sort();
    assert_eq!(found.len(), 4, "{found:#?}");
    for name in ["material_BaseTexture", "material_AlphaCutoff", "gammaToLinear", "getSkinMatrix"] {
        assert!(found.iter().any(|f| f.contains(&format!("'{name}'"))), "{name} missing in {found:#?}");
    }
}
