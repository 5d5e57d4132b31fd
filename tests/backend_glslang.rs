//! Oracle checks of the GLSL ES backends against Khronos glslangValidator and the engine's own output.
//!
//! - Every program pass of every valid corpus shader, for both targets, in variant mode with the platform macros
//!   (`GRAPHICS_API_WEBGL1` for gles100, `GRAPHICS_API_WEBGL2` for gles300, plus `HAS_TEX_LOD`,
//!   `HAS_DERIVATIVES`) and with each macro set the engine used (`reference/dev2/<stem>/*.expanded.macros.txt`,
//!   the `.es100.` sets for gles100 and the `.es300.` sets for gles300), and for PBR files with most features on
//!   ([`RICH_PBR`]): each emitted stage, with the engine's header, is accepted by glslangValidator. A variant the
//!   compiler refuses must be one of [`REFUSALS`], with its codes.
//! - Preserving mode: each dev/2.0 pass's two stages, expanded with each engine macro set (and [`RICH_PBR`]),
//!   link in glslang.
//! - Interface parity: the attribute, varying, uniform and output names we declare equal those of the engine's
//!   output (`reference/dev2/<stem>/S-P.es300|es100.vert|frag.glsl`), both sides expanded with the engine's macro
//!   set. One justified difference: the fragment stage declares every varying either stage uses (`codegen.md` §4,
//!   so that the program links), the engine only those the fragment reads. In variant mode the engine keeps
//!   uniforms of other variants (its reachability is per preserved source), so ours must be a subset there.
//! - Right examples: every `ok*.shader` fixture compiles for gles300, and each stage it emits, for both targets
//!   (gles100 may refuse ES 3.00-only features), is accepted by glslangValidator.
//!
//! glslang runs batched (one process validates many files) on files under /dev/shm when it exists. Without the
//! corpus or glslangValidator the tests pass with a loud banner, except under `CI=true`.

mod common;

use common::*;
use shaderlab::fs_includes::FsIncludes;
use shaderlab::{compile_report, Compiled, Options, Target};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Inputs that are not valid ShaderLab as stored (see `tests/corpus.rs`).
fn skipped(name: &str) -> bool {
    name == "1.4__shader-lab-multi-pass__1.shader"
        || name.contains("builtin-function")
        || name.contains("unlit")
        || name.contains("compilation-error")
        || name == "1.5__mrt-error1.shader"
        || name == "dev_2.0__render-state.shader"
}

/// A variant the compiler refuses, with the diagnostics it must give.
struct Refusal {
    /// File name prefix match (`dev_2.0__macro-pre` matches the v1 copies too when written `macro-pre`).
    file: &'static str,
    target: Option<Target>,
    codes: &'static [&'static str],
    why: &'static str,
}

const REFUSALS: &[Refusal] = &[
    Refusal {
        file: "macro-pre",
        target: Some(Target::Gles100),
        codes: &["UnsupportedInTarget"],
        why: "an unconditional `mediump sampler2DShadow` and `textureLod` on it: ES 1.00 has no shadow samplers",
    },
    Refusal {
        file: "waterfull",
        target: Some(Target::Gles100),
        codes: &["UnsupportedInTarget"],
        why: "the vertex entry calls `inverse(mat4)`, an ES 3.00-only builtin",
    },
    Refusal {
        file: "dev_2.0__shaderlab-05-advance__1.shader",
        target: None,
        codes: &["UndefinedFunction"],
        why: "vert calls getSkinMatrix, defined only under RENDERER_HAS_SKIN (the validator's refusal; the engine \
              emits a call to an undefined function)",
    },
];

fn refusal_for(name: &str, target: Target) -> Option<&'static Refusal> {
    REFUSALS.iter().find(|r| name.contains(r.file) && r.target.is_none_or(|t| t == target))
}

fn target_tag(target: Target) -> &'static str {
    match target {
        Target::Gles100 => "es100",
        Target::Gles300 => "es300",
    }
}

fn platform(target: Target) -> Macros {
    let api = match target {
        Target::Gles100 => "GRAPHICS_API_WEBGL1",
        Target::Gles300 => "GRAPHICS_API_WEBGL2",
    };
    macros(&[api, "HAS_TEX_LOD", "HAS_DERIVATIVES"])
}

fn roots(corpus: &Path, name: &str) -> Vec<PathBuf> {
    if name.starts_with("dev_2.0__") {
        vec![corpus.join("includes/dev2")]
    } else {
        vec![corpus.join("includes/v1.5"), corpus.join("includes/tests-v1.5")]
    }
}

/// The engine's macro sets for a file and target: `(pass tag S-P, macros)`.
fn engine_sets(corpus: &Path, path: &Path, target: Target) -> Vec<(String, Macros)> {
    let dir = corpus
        .join("reference/dev2")
        .join(path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default());
    if !file_name(path).starts_with("dev_2.0__") || !dir.is_dir() {
        return Vec::new();
    }
    let suffix = format!(".{}.expanded.macros.txt", target_tag(target));
    list_files(&dir, |n| n.ends_with(&suffix))
        .into_iter()
        .map(|f| {
            let tag = file_name(&f).split('.').next().unwrap_or_default().to_owned();
            (tag, parse_macro_list(&read_text(&f)))
        })
        .collect()
}

fn compile_file(path: &Path, roots: &[PathBuf], defines: Option<Macros>, target: Target, header: bool) -> Compiled {
    let text = read_text(path);
    let includes = FsIncludes::new(roots, Some(path)).unwrap_or_else(|e| panic!("include roots {roots:?}: {e}"));
    let options = Options { file_name: path.display().to_string(), defines, ..Options::default() };
    compile_report(&text, &includes, &options, target, &shaderlab::backends::Options { header })
}

/// Validate many files with a few glslang processes; the errors of each failing file.
fn glslang_batch(files: &[PathBuf]) -> BTreeMap<PathBuf, Vec<String>> {
    let failures = Mutex::new(BTreeMap::new());
    let workers = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(4).clamp(1, 8);
    let chunk = files.len().div_ceil(workers).max(1);
    std::thread::scope(|s| {
        for part in files.chunks(chunk) {
            let failures = &failures;
            s.spawn(move || {
                let out = Command::new("glslangValidator").args(part).output().expect("run glslangValidator");
                let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
                let mut current: Option<PathBuf> = None;
                let mut found: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
                for line in text.lines() {
                    if let Some(p) = part.iter().find(|p| p.as_os_str() == line.trim()) {
                        current = Some(p.clone());
                    } else if line.starts_with("ERROR") {
                        let key = current.clone().unwrap_or_else(|| PathBuf::from("<unknown>"));
                        found.entry(key).or_default().push(line.to_owned());
                    }
                }
                if !out.status.success() && found.is_empty() {
                    found.insert(PathBuf::from("<glslang>"), vec![text]);
                }
                failures.lock().expect("no poisoned lock").extend(found);
            });
        }
    });
    failures.into_inner().expect("no poisoned lock")
}

/// One compile to run: file, target, mode.
struct Case {
    path: PathBuf,
    target: Target,
    defines: Macros,
    label: String,
}

/// A compile's program passes as `(pass, vertex, fragment)`, or its error messages.
type Outcome = Result<Vec<(String, String, String)>, Vec<String>>;

#[test]
fn every_corpus_stage_is_accepted_by_glslang() {
    let test = "every_corpus_stage_is_accepted_by_glslang";
    let Some(corpus) = corpus_dir(test) else { return };
    if !glslang_available(test) {
        return;
    }
    let mut cases = Vec::new();
    for path in list_files(&corpus.join("shaders"), |n| n.ends_with(".shader") || n.ends_with(".gs")) {
        let name = file_name(&path);
        if skipped(&name) {
            continue;
        }
        for target in [Target::Gles100, Target::Gles300] {
            let mut sets = vec![("platform".to_owned(), platform(target))];
            sets.extend(engine_sets(&corpus, &path, target));
            if name.to_lowercase().contains("pbr") {
                let mut rich = platform(target);
                rich.extend(macros(RICH_PBR));
                sets.push(("rich".to_owned(), rich));
            }
            let mut seen = Vec::new();
            for (tag, defines) in sets {
                if seen.contains(&defines) {
                    continue;
                }
                seen.push(defines.clone());
                let label = format!("{name} [{} {tag}: {}]", target.name(), describe_macros(&Some(defines.clone())));
                cases.push(Case { path: path.clone(), target, defines, label });
            }
        }
    }
    let scratch = Scratch::new("glslang");
    let results: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(4).clamp(1, 8);
    std::thread::scope(|s| {
        for w in 0..workers {
            let (cases, results, corpus) = (&cases, &results, &corpus);
            s.spawn(move || {
                for (i, case) in cases.iter().enumerate().skip(w).step_by(workers) {
                    let name = file_name(&case.path);
                    let compiled =
                        compile_file(&case.path, &roots(corpus, &name), Some(case.defines.clone()), case.target, true);
                    let outcome = if compiled.has_errors() {
                        Err(compiled
                            .diagnostics
                            .iter()
                            .filter(|d| d.severity == shaderlab::ir::Severity::Error)
                            .map(|d| format!("{} {}", d.code(), d.message()))
                            .collect())
                    } else {
                        Ok(compiled
                            .passes
                            .iter()
                            .filter_map(|p| {
                                p.sources.as_ref().map(|s| (p.name.clone(), s.vertex.clone(), s.fragment.clone()))
                            })
                            .collect())
                    };
                    results.lock().expect("no poisoned lock").push((i, outcome));
                }
            });
        }
    });
    let mut results = results.into_inner().expect("no poisoned lock");
    results.sort_by_key(|(i, _)| *i);
    let mut failures = Vec::new();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut labels: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut refused: Vec<String> = Vec::new();
    let mut used_refusals = BTreeSet::new();
    let mut passes = [0usize; 2];
    for (i, outcome) in results {
        let case = &cases[i];
        let name = file_name(&case.path);
        match outcome {
            Err(codes) => match refusal_for(&name, case.target) {
                Some(r) if codes.iter().all(|c| r.codes.iter().any(|rc| c.starts_with(&format!("{rc} ")))) => {
                    used_refusals.insert(r.file);
                    refused.push(format!("{} -> {}", case.label, codes.join("; ")));
                }
                _ => failures.push(format!("{}: refused unexpectedly:\n  {}", case.label, codes.join("\n  "))),
            },
            Ok(stages) => {
                passes[(case.target == Target::Gles300) as usize] += stages.len();
                for (k, (pass, vertex, fragment)) in stages.into_iter().enumerate() {
                    for (ext, text) in [("vert", vertex), ("frag", fragment)] {
                        let file = scratch.write(&format!("{i}-{k}.{ext}"), &text);
                        labels.insert(file.clone(), format!("{} pass '{pass}' {ext}", case.label));
                        files.push(file);
                    }
                }
            }
        }
    }
    for r in REFUSALS {
        if !used_refusals.contains(r.file) {
            failures.push(format!("refusal entry '{}' is never used: remove it ({})", r.file, r.why));
        }
    }
    let rejected = glslang_batch(&files);
    for (file, errors) in &rejected {
        let label = labels.get(file).cloned().unwrap_or_else(|| file.display().to_string());
        let text = std::fs::read_to_string(file).unwrap_or_default();
        failures.push(format!("{label}: glslang rejects it:\n  {}\n--- source\n{text}", errors.join("\n  ")));
    }
    uncaptured(&format!(
        "glslang: {} compiles ({} refused as expected), {} program passes for gles100 and {} for gles300, {} stages \
         validated, {} rejected",
        cases.len(),
        refused.len(),
        passes[0],
        passes[1],
        files.len(),
        rejected.len()
    ));
    for r in &refused {
        eprintln!("  refused: {r}");
    }
    fail_if_any(test, &failures);
}

/// The names a GLSL text declares at global scope, by storage word (`in`, `out`, `uniform`, `attribute`,
/// `varying`). Declarations in any style: `uniform mediump sampler2D s;`, `layout(location = 0) out vec4 c;`,
/// `uniform mat4 m [ N ];`.
fn declared_names(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let code = strip_comments_and_directives(text);
    for statement in code.split([';', '{', '}']) {
        let mut words: Vec<&str> =
            statement.split(|c: char| c.is_whitespace() || c == '[' || c == ']').filter(|w| !w.is_empty()).collect();
        if words.first().is_some_and(|w| w.starts_with("layout")) {
            let Some(end) = statement.find(')') else { continue };
            words = statement[end + 1..].split_whitespace().collect();
        }
        let qualifiers = ["flat", "smooth", "centroid", "invariant"];
        while words.first().is_some_and(|w| qualifiers.contains(w)) {
            words.remove(0);
        }
        let Some(&storage) = words.first() else { continue };
        if !["in", "out", "uniform", "attribute", "varying"].contains(&storage) {
            continue;
        }
        let rest: Vec<&str> =
            words[1..].iter().copied().filter(|w| !["highp", "mediump", "lowp"].contains(w)).collect();
        if let Some(name) = rest.get(1) {
            if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !statement.contains('(') {
                out.entry(storage.to_owned()).or_default().insert((*name).to_owned());
            }
        }
    }
    out
}

/// The text without comments and preprocessor lines.
fn strip_comments_and_directives(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map(|i| &after[i..]).unwrap_or("");
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map(|i| &after[i + 2..]).unwrap_or("");
            out.push(' ');
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out.lines().filter(|l| !l.trim_start().starts_with('#')).collect::<Vec<_>>().join("\n")
}

/// Expand macros with glslang's preprocessor (`-E`); the header is added when the text has no `#version`.
fn preprocess(scratch: &Scratch, name: &str, text: &str, target: Target, defines: &Macros) -> Result<String, String> {
    let version = match target {
        Target::Gles100 => "#version 100\n",
        Target::Gles300 => "#version 300 es\n",
    };
    let text = if text.trim_start().starts_with("#version") { text.to_owned() } else { format!("{version}{text}") };
    let path = scratch.write(name, &text);
    let mut cmd = Command::new("glslangValidator");
    cmd.arg("-E");
    for (n, v) in defines {
        cmd.arg(if v.is_empty() { format!("-D{n}") } else { format!("-D{n}={v}") });
    }
    let out = cmd.arg(&path).output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    }
}

/// Link both stages of a pass in glslang with a macro set (`-l` checks the interface across stages).
fn link(scratch: &Scratch, base: &str, vertex: &str, fragment: &str, defines: &Macros) -> Result<(), String> {
    let v = scratch.write(&format!("{base}.vert"), vertex);
    let f = scratch.write(&format!("{base}.frag"), fragment);
    let mut cmd = Command::new("glslangValidator");
    cmd.arg("-l");
    for (n, val) in defines {
        cmd.arg(if val.is_empty() { format!("-D{n}") } else { format!("-D{n}={val}") });
    }
    let out = cmd.arg(&v).arg(&f).output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// The dev/2.0 corpus files with engine references.
fn v2_references(corpus: &Path) -> Vec<PathBuf> {
    list_files(&corpus.join("shaders"), |n| n.starts_with("dev_2.0__") && !skipped(n))
}

/// Justified difference: a varying the vertex stage writes and the fragment stage does not read is declared in
/// both stages by us (`codegen.md` §4), only in the vertex stage by the engine.
fn drop_unread_fragment_varyings(
    ours: &mut BTreeMap<String, BTreeSet<String>>,
    engine: &BTreeMap<String, BTreeSet<String>>,
    vertex_out: &BTreeSet<String>,
    key: &str,
) {
    let Some(set) = ours.get_mut(key) else { return };
    let engine_set = engine.get(key).cloned().unwrap_or_default();
    set.retain(|n| engine_set.contains(n) || !vertex_out.contains(n));
    if set.is_empty() {
        ours.remove(key);
    }
}

/// Features of the PBR chunks the engine's reference macro sets do not turn on.
const RICH_PBR: &[&str] = &[
    "RENDERER_HAS_SKIN",
    "RENDERER_JOINTS_NUM=4",
    "RENDERER_HAS_UV",
    "RENDERER_HAS_UV1",
    "RENDERER_HAS_TANGENT",
    "RENDERER_ENABLE_VERTEXCOLOR",
    "RENDERER_HAS_BLENDSHAPE",
    "RENDERER_BLENDSHAPE_HAS_NORMAL",
    "MATERIAL_HAS_BASETEXTURE",
    "MATERIAL_HAS_NORMALTEXTURE",
    "MATERIAL_HAS_EMISSIVETEXTURE",
    "MATERIAL_HAS_OCCLUSION_TEXTURE",
    "MATERIAL_IS_ALPHA_CUTOFF",
    "MATERIAL_ENABLE_CLEAR_COAT",
    "MATERIAL_ENABLE_SHEEN",
    "MATERIAL_ENABLE_IRIDESCENCE",
    "MATERIAL_ENABLE_ANISOTROPY",
    "SCENE_POINT_LIGHT_COUNT=2",
    "SCENE_SPOT_LIGHT_COUNT=1",
];

/// The storage word of a fragment input varying.
fn varying_in(target: Target) -> &'static str {
    match target {
        Target::Gles100 => "varying",
        Target::Gles300 => "in",
    }
}

#[test]
fn preserving_output_links_and_matches_the_engine_interface() {
    let test = "preserving_output_links_and_matches_the_engine_interface";
    let Some(corpus) = corpus_dir(test) else { return };
    if !glslang_available(test) {
        return;
    }
    let scratch = Scratch::new("parity");
    let mut failures = Vec::new();
    let (mut compared, mut linked, mut variant_compared) = (0, 0, 0);
    for path in v2_references(&corpus) {
        let name = file_name(&path);
        let reference = corpus
            .join("reference/dev2")
            .join(path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default());
        for target in [Target::Gles100, Target::Gles300] {
            let tag = target_tag(target);
            let preserved = compile_file(&path, &roots(&corpus, &name), None, target, true);
            let mut sets = engine_sets(&corpus, &path, target);
            // The PBR passes again with most features on (skinning, blend shapes, tangents, lights, material
            // layers), variants the engine's macro sets leave out.
            if name.to_lowercase().contains("pbr") {
                if let Some((tag, base)) = sets.first().cloned() {
                    let mut rich = base;
                    rich.extend(macros(RICH_PBR));
                    sets.push((tag, rich));
                }
            }
            for (pass_tag, defines) in sets {
                let label = format!("{name} {pass_tag} [{}]", target.name());
                let Some((s, p)) = pass_tag
                    .split_once('-')
                    .and_then(|(s, p)| Some((s.parse::<usize>().ok()?, p.parse::<usize>().ok()?)))
                else {
                    continue;
                };
                let Some(pass_id) =
                    preserved.module.subshaders.values().nth(s).and_then(|sub| sub.passes.get(p).copied())
                else {
                    failures.push(format!("{label}: no pass {pass_tag}"));
                    continue;
                };
                // Variant mode with the same macros: ours is a subset of the engine's (it keeps other variants'
                // uniforms).
                let variant = compile_file(&path, &roots(&corpus, &name), Some(defines.clone()), target, true);
                let mut per_stage = Vec::new();
                for (stage, ext) in [("vertex", "vert"), ("fragment", "frag")] {
                    let engine_text = read_text(&reference.join(format!("{pass_tag}.{tag}.{ext}.glsl")));
                    let engine =
                        match preprocess(&scratch, &format!("e-{pass_tag}.{ext}"), &engine_text, target, &defines) {
                            Ok(t) => declared_names(&t),
                            Err(e) => {
                                failures.push(format!("{label} {stage}: the engine's output does not preprocess: {e}"));
                                continue;
                            }
                        };
                    per_stage.push((stage, ext, engine));
                }
                let engine_vertex_out = per_stage
                    .first()
                    .and_then(|(_, _, e)| e.get("out").or(e.get("varying")).cloned())
                    .unwrap_or_default();
                if let Some(sources) =
                    variant.passes.iter().find(|x| x.pass == pass_id).and_then(|x| x.sources.as_ref())
                {
                    variant_compared += 1;
                    for (stage, ext, engine) in &per_stage {
                        let text = if *ext == "vert" { &sources.vertex } else { &sources.fragment };
                        let mut ours = declared_names(text);
                        if *stage == "fragment" {
                            drop_unread_fragment_varyings(&mut ours, engine, &engine_vertex_out, varying_in(target));
                        }
                        for (kind, names) in &ours {
                            let theirs = engine.get(kind).cloned().unwrap_or_default();
                            let extra: Vec<_> = names.difference(&theirs).collect();
                            if !extra.is_empty() {
                                failures.push(format!(
                                    "{label} {stage} (variant mode): we declare {kind} {extra:?} the engine does not"
                                ));
                            }
                        }
                    }
                } else if !variant.has_errors() {
                    failures.push(format!("{label}: variant compile has no sources for the pass"));
                }
                let Some(sources) =
                    preserved.passes.iter().find(|x| x.pass == pass_id).and_then(|x| x.sources.as_ref())
                else {
                    // Refused in preserving mode (a latent bug of the source, see tests/corpus.rs TOLERATED).
                    continue;
                };
                // An invalid variant (an expected refusal) cannot link once expanded either.
                if !(variant.has_errors() && refusal_for(&name, target).is_some()) {
                    match link(&scratch, &format!("l-{pass_tag}-{tag}"), &sources.vertex, &sources.fragment, &defines) {
                        Ok(()) => linked += 1,
                        Err(e) => failures.push(format!(
                            "{label}: the preserving output does not link with the engine's macros:\n{e}"
                        )),
                    }
                }
                for (stage, ext, engine) in &per_stage {
                    let text = if *ext == "vert" { &sources.vertex } else { &sources.fragment };
                    let mut ours = match preprocess(&scratch, &format!("o-{pass_tag}.{ext}"), text, target, &defines) {
                        Ok(t) => declared_names(&t),
                        Err(e) => {
                            failures.push(format!("{label} {stage}: our output does not preprocess: {e}"));
                            continue;
                        }
                    };
                    if *stage == "fragment" {
                        drop_unread_fragment_varyings(&mut ours, engine, &engine_vertex_out, varying_in(target));
                    }
                    compared += 1;
                    if &ours != engine {
                        failures.push(format!(
                            "{label} {stage}: interface differs\n  ours:   {ours:?}\n  engine: {engine:?}"
                        ));
                    }
                }
            }
        }
    }
    uncaptured(&format!(
        "parity: {compared} preserving stages compared with the engine, {linked} preserving passes linked, \
         {variant_compared} variant passes checked as subsets"
    ));
    fail_if_any(test, &failures);
}

/// Every fixture and example, valid or not, in both targets and both modes: the backends never panic, and a
/// refused compile has an error diagnostic.
#[test]
fn backends_never_panic_on_fixtures_and_examples() {
    let mut inputs: Vec<(PathBuf, Vec<PathBuf>)> = Vec::new();
    let fixtures = manifest_dir().join("tests/fixtures");
    for dir in std::fs::read_dir(&fixtures).expect("tests/fixtures").flatten().map(|e| e.path()) {
        if dir.is_dir() {
            for file in list_files(&dir, |n| n.ends_with(".shader")) {
                inputs.push((file, vec![dir.clone()]));
            }
        }
    }
    for file in list_files(&examples_dir(), |n| n.ends_with(".shader")) {
        inputs.push((file, vec![examples_dir().join("includes")]));
    }
    assert!(inputs.len() > 50, "fixtures and examples found: {}", inputs.len());
    let mut failures = Vec::new();
    for (path, roots) in &inputs {
        for target in [Target::Gles100, Target::Gles300] {
            for defines in [None, Some(platform(target))] {
                let mode = describe_macros(&defines);
                let run = std::panic::catch_unwind(|| compile_file(path, roots, defines.clone(), target, true));
                match run {
                    Err(_) => failures.push(format!("{} [{} {mode}]: panicked", path.display(), target.name())),
                    Ok(c) if c.passes.is_empty() && !c.has_errors() && !c.module.passes.is_empty() => {
                        failures.push(format!("{} [{} {mode}]: no passes and no error", path.display(), target.name()))
                    }
                    Ok(_) => {}
                }
            }
        }
    }
    fail_if_any("backends_never_panic_on_fixtures_and_examples", &failures);
}

/// Writes every stage of `compiled` into `scratch` as `<stem>-<pass index>.<target>.<vert|frag>` and hands each to
/// `each` with its pass's name, its extension and its text.
fn write_stages(
    scratch: &Scratch,
    compiled: &Compiled,
    stem: &str,
    target: Target,
    mut each: impl FnMut(PathBuf, &str, &str, &str),
) {
    for (k, pass) in compiled.passes.iter().enumerate() {
        let Some(sources) = &pass.sources else { continue };
        for (ext, text) in [("vert", &sources.vertex), ("frag", &sources.fragment)] {
            let file = scratch.write(&format!("{stem}-{k}.{}.{ext}", target.name()), text);
            each(file, &pass.name, ext, text);
        }
    }
}

/// Every right example of the fixtures (`ok*.shader`), in both targets in variant mode with the platform macros:
/// each emitted stage, with the engine's header, is accepted by glslangValidator (a fixture's glslang twin checks
/// the rule; this checks what the backends make of the legal forms, such as a matrix constructor whose last
/// argument is partly used). Every right example compiles for gles300; a gles100 compile the target refuses
/// (ES 3.00-only features) is skipped.
#[test]
fn every_ok_fixture_stage_is_accepted_by_glslang() {
    let test = "every_ok_fixture_stage_is_accepted_by_glslang";
    if !glslang_available(test) {
        return;
    }
    let scratch = Scratch::new("glslang-ok-fixtures");
    let fixtures = manifest_dir().join("tests/fixtures");
    let (mut files, mut labels, mut refused, mut failures) = (Vec::new(), BTreeMap::new(), 0, Vec::new());
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .expect("tests/fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|d| d.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        for path in list_files(&dir, |n| n.starts_with("ok") && n.ends_with(".shader")) {
            for target in [Target::Gles100, Target::Gles300] {
                let compiled = compile_file(&path, std::slice::from_ref(&dir), Some(platform(target)), target, true);
                if compiled.has_errors() {
                    if target == Target::Gles300 {
                        failures.push(format!(
                            "{} [gles300]: refused, but a right example is legal GLSL ES 3.00",
                            path.display()
                        ));
                    }
                    refused += 1;
                    continue;
                }
                let stem = format!("{}-{}", file_name(&dir), file_name(&path));
                write_stages(&scratch, &compiled, &stem, target, |file, pass, ext, _| {
                    labels.insert(file.clone(), format!("{} [{}] pass '{pass}' {ext}", path.display(), target.name()));
                    files.push(file);
                });
            }
        }
    }
    let rejected = glslang_batch(&files);
    for (file, errors) in &rejected {
        let label = labels.get(file).cloned().unwrap_or_else(|| file.display().to_string());
        let text = std::fs::read_to_string(file).unwrap_or_default();
        failures.push(format!("{label}: glslang rejects it:\n  {}\n--- source\n{text}", errors.join("\n  ")));
    }
    uncaptured(&format!(
        "ok fixtures: {} stages validated, {refused} gles100 compiles refused by the target",
        files.len()
    ));
    fail_if_any(test, &failures);
}

/// Line continuations are joined before anything else reads the source (`docs/decisions.md`, "Line
/// continuations"), and GLSL ES 1.00 has none: the fixture that continues a word, a number, an operator, a
/// comment's `//`, a `#define` body and an `#if` condition over lines compiles, in preserving mode (the `#define`
/// and the `#if` are written into the output) and in variant mode, for both targets, to stages without a
/// backslash that glslangValidator accepts.
#[test]
fn continued_lines_reach_no_output() {
    let test = "continued_lines_reach_no_output";
    if !glslang_available(test) {
        return;
    }
    let scratch = Scratch::new("glslang-continued");
    let dir = manifest_dir().join("tests/fixtures/UndeclaredIdentifier");
    let path = dir.join("ok-line-continuation.shader");
    let (mut files, mut failures) = (Vec::new(), Vec::new());
    for target in [Target::Gles100, Target::Gles300] {
        for (mode, defines) in [("preserving", None), ("variant", Some(platform(target)))] {
            let compiled = compile_file(&path, std::slice::from_ref(&dir), defines, target, true);
            if compiled.has_errors() {
                failures.push(format!("[{} {mode}]: refused", target.name()));
                continue;
            }
            write_stages(&scratch, &compiled, &format!("continued-{mode}"), target, |file, _, ext, text| {
                if text.contains('\\') {
                    failures.push(format!("[{} {mode}] {ext}: a backslash in the output:\n{text}", target.name()));
                }
                files.push(file);
            });
        }
    }
    for (file, errors) in glslang_batch(&files) {
        failures.push(format!("{}: glslang rejects it:\n  {}", file.display(), errors.join("\n  ")));
    }
    fail_if_any(test, &failures);
}
