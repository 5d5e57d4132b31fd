//! `expand_macros` is the engine's run-time step on our preserving output. For every dev/2.0 corpus pass, each
//! macro set the engine used and three generated sets (gles300): the preserving compile, expanded with the set, is
//! accepted by glslangValidator, declares the same varyings and outputs (names, types, qualifiers) as the variant
//! compile with the same set (which glslang accepts too), and declares every attribute and uniform the variant uses
//! (architecture.md, "Variants"). The preserving output may also declare uniforms and attributes that only other
//! variants read: drivers drop those as inactive, and the variant compile does not emit them. The comparison
//! (`same_interface`, `tests/common/glsl.rs`) is shared with the same property on generated programs
//! (`fuzz/tests/expand_variants.rs`).

mod common;

use common::*;
use shaderlab::backends::Stage;
use shaderlab::fs_includes::FsIncludes;
use shaderlab::{compile, expand_macros, MapResolver, Options, Target};
use std::collections::BTreeSet;

#[test]
fn expanded_preserving_output_matches_variant_compile() {
    let Some(corpus) = corpus_dir("expanded_preserving_output_matches_variant_compile") else { return };
    if !glslang_available("expanded_preserving_output_matches_variant_compile") {
        return;
    }
    let scratch = Scratch::new("expand");
    let dir = scratch.path();
    let includes = FsIncludes::new(&[corpus.join("includes/dev2")], None).expect("includes");
    let (mut checked, mut failures) = (0, Vec::new());
    let mut references: Vec<_> = std::fs::read_dir(corpus.join("reference/dev2"))
        .expect("reference/dev2")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("dev_2.0__")))
        .collect();
    references.sort();
    for reference in references {
        let stem = reference.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let Some(shader) = list_files(&corpus.join("shaders"), |n| n.starts_with(&format!("{stem}."))).pop() else {
            continue;
        };
        let source = read_text(&shader);
        let preserving = compile(&source, &includes, &Options::default(), Target::Gles300);
        let Ok(preserving) = preserving else { continue }; // render-state only, or refused: covered elsewhere
                                                           // The engine's own macro sets, then generated ones: deterministic subsets of the pass's variant keys (its
                                                           // reflection `macros`) on top of the platform macros, numeric keys given small values.
        let mut sets: Vec<Vec<(String, String)>> =
            list_files(&reference, |n| n.ends_with(".es300.expanded.macros.txt"))
                .iter()
                .map(|list| parse_macro_list(&read_text(list)))
                .collect();
        let keys: BTreeSet<String> = preserving
            .passes
            .iter()
            .filter_map(|p| p.sources.as_ref())
            .flat_map(|s| s.reflection.macros.iter().cloned())
            .filter(|k| !k.starts_with("GRAPHICS_API") && k != "HAS_TEX_LOD" && k != "HAS_DERIVATIVES")
            .collect();
        let mut seed = stem.bytes().fold(0x9e37_79b9u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
        for _ in 0..3 {
            let mut set = platform_macros();
            for key in &keys {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                if (seed >> 33) % 2 == 0 {
                    let numeric = key.ends_with("COUNT") || key.ends_with("MODE") || key.ends_with("TYPE");
                    set.push((key.clone(), if numeric { ((seed >> 40) % 3 + 1).to_string() } else { String::new() }));
                }
            }
            sets.push(set);
        }
        for macros in sets {
            let options = Options { defines: Some(macros.clone()), ..Options::default() };
            // A generated set may select an invalid variant (a key the code needs left out): refused, not emitted.
            let Ok(variant) = compile(&source, &includes, &options, Target::Gles300) else { continue };
            for (p, v) in preserving.passes.iter().zip(&variant.passes) {
                let (Some(ps), Some(vs)) = (&p.sources, &v.sources) else { continue };
                for (stage, ours, theirs) in
                    [(Stage::Vertex, &ps.vertex, &vs.vertex), (Stage::Fragment, &ps.fragment, &vs.fragment)]
                {
                    checked += 1;
                    let tag = format!("{stem}-{}-{}-{checked}", p.name.replace(' ', "_"), stage_ext(stage));
                    let expanded = expand_macros(ours, &macros);
                    if !expanded.diagnostics.is_empty() {
                        failures.push(format!("{tag}: expansion diagnostics {:?}", expanded.diagnostics));
                        continue;
                    }
                    let gles300 = Target::Gles300;
                    if let Err(log) = glslang_accepts(&expanded.text, gles300, stage, dir, &format!("{tag}-expanded")) {
                        failures.push(format!("{tag}: expanded preserving output rejected:\n{log}"));
                    }
                    if let Err(log) = glslang_accepts(theirs, gles300, stage, dir, &format!("{tag}-variant")) {
                        failures.push(format!("{tag}: variant output rejected:\n{log}"));
                    }
                    if let Err(why) = same_interface(&expanded.text, theirs, stage) {
                        failures.push(format!("{tag}: {why}"));
                    }
                }
            }
        }
    }
    eprintln!("expand: {checked} stages checked");
    assert!(checked > 20, "too few stages checked: {checked}");
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n\n"));
}

/// A uniform declared more than once, under conditions that overlap (`docs/decisions.md`, "Order."): every variant
/// of the preserving output, in both targets, declares it once. Each case declares `u` in every variant, and each
/// is expanded with every subset of its macros and accepted by glslangValidator (the variant with `A` of the
/// first case once declared `u` twice).
#[test]
fn a_uniform_declared_again_is_declared_once_in_every_variant() {
    if !glslang_available("a_uniform_declared_again_is_declared_once_in_every_variant") {
        return;
    }
    let many: String = (0..20).map(|i| format!("#ifdef {}\nfloat u;\n#endif\n", ["A", "B", "C"][i % 3])).collect();
    let cases = [
        "#ifdef A\nfloat u;\n#endif\nfloat u;",
        "#ifdef A\nfloat u;\n#endif\n#ifndef B\nfloat u;\n#endif\n#if defined(C) && !defined(A)\nfloat u;\n#endif\n\
         float u;",
        "#ifdef A\n#ifdef B\nfloat u;\n#endif\n#endif\n#ifdef C\nfloat u;\n#endif\nfloat u;",
        "#ifdef A\nfloat u;\n#endif\n#ifdef A\nfloat u;\n#endif\nfloat u;",
        "#if defined(A)\nfloat u;\n#elif defined(B)\nfloat u;\n#else\nfloat u;\n#endif\nfloat u;",
        "#ifdef A\nfloat u;\n#endif\n#ifdef B\n#undef A\n#endif\nfloat u;",
        &format!("{many}float u;"),
    ];
    let scratch = Scratch::new("repeated-uniforms");
    let mut failures = Vec::new();
    let mut checked = 0;
    for (k, decls) in cases.iter().enumerate() {
        let source = format!(
            "Shader \"t\" {{ SubShader \"s\" {{ Pass \"p\" {{\nVertexShader = vert;\nFragmentShader = frag;\n{decls}\n\
             void vert() {{ gl_Position = vec4(u); }}\nvoid frag() {{ gl_FragColor = vec4(u); }}\n}} }} }}\n"
        );
        for target in [Target::Gles100, Target::Gles300] {
            let compiled = match compile(&source, &MapResolver::new(), &Options::default(), target) {
                Ok(c) => c,
                Err(e) => panic!("case {k} refused: {:?}", e.iter().map(|d| d.message()).collect::<Vec<_>>()),
            };
            let Some(sources) = compiled.passes.first().and_then(|p| p.sources.as_ref()) else {
                panic!("case {k}: no program");
            };
            for set in 0..8u32 {
                let macros: Vec<(String, String)> = ["A", "B", "C"]
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| set >> i & 1 != 0)
                    .map(|(_, n)| (n.to_string(), String::new()))
                    .collect();
                for (stage, text) in [(Stage::Vertex, &sources.vertex), (Stage::Fragment, &sources.fragment)] {
                    checked += 1;
                    let expanded = expand_macros(text, &macros);
                    let tag = format!("case{k}-{}-{set}", target.name());
                    if let Err(log) = glslang_accepts(&expanded.text, target, stage, scratch.path(), &tag) {
                        failures.push(format!("{tag} {macros:?}:\n{log}\npreserving output:\n{text}"));
                    }
                }
            }
        }
    }
    assert_eq!(checked, 7 * 2 * 8 * 2);
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n\n"));
}

/// A guarded chunk included under a condition and again (`tests/guarded_includes`, `docs/decisions.md`, "Include
/// guards"): every variant of the preserving output, in both targets, defines each function of the chunk exactly
/// once. Each shader uses `helper` (and `outer`) outside any conditional; it is expanded with every subset of `A`
/// and `B` and accepted by glslangValidator, and the check agrees: no error without `-D`, nor in any variant; the
/// guard macros are no reflected variant keys. Once, a chunk's guard was dropped when it was spliced again
/// (variants with `A` defined `helper` twice; the preserving check reported a Redefinition in
/// `in-both-branches`), and a chunk included from a conditional chunk (`through-a-conditional-chunk`) or under a
/// guard that is not transparent (`outer-guard-defined-before`) counted as included unconditionally (its later
/// inclusions were skipped, so some variants lacked `helper`).
#[test]
fn a_guarded_chunk_included_under_a_condition_is_defined_once_in_every_variant() {
    let test = "a_guarded_chunk_included_under_a_condition_is_defined_once_in_every_variant";
    if !glslang_available(test) {
        return;
    }
    let dir = manifest_dir().join("tests/guarded_includes");
    let roots = [dir.join("includes")];
    let includes = FsIncludes::new(&roots, None).expect("includes");
    let scratch = Scratch::new("guarded-includes");
    let shaders = list_files(&dir, |n| n.ends_with(".shader"));
    assert_eq!(shaders.len(), 7);
    let subsets: Vec<Macros> = [vec![], vec!["A"], vec!["B"], vec!["A", "B"]].iter().map(|n| macros(n)).collect();
    let (mut checked, mut failures) = (0, Vec::new());
    for shader in &shaders {
        let name = file_name(shader);
        for defines in std::iter::once(None).chain(subsets.iter().cloned().map(Some)) {
            match analyze_file(shader, &roots, defines.clone()) {
                Ok(a) if error_count(&a) == 0 => {}
                Ok(a) => failures.push(format!("{name} ({}):\n{}", describe_macros(&defines), render(&a))),
                Err(panic) => failures.push(format!("{name} ({}): panicked: {panic}", describe_macros(&defines))),
            }
        }
        let source = read_text(shader);
        for target in [Target::Gles100, Target::Gles300] {
            let compiled = match compile(&source, &includes, &Options::default(), target) {
                Ok(c) => c,
                Err(e) => {
                    failures.push(format!("{name} refused: {:?}", e.iter().map(|d| d.message()).collect::<Vec<_>>()));
                    continue;
                }
            };
            let Some(sources) = compiled.passes.first().and_then(|p| p.sources.as_ref()) else {
                panic!("{name}: no program");
            };
            // A guard macro is the source's own, never a variant key, even when its guards are written.
            let keys = &sources.reflection.macros;
            if keys.iter().any(|k| k.ends_with("_INCLUDED")) {
                failures.push(format!("{name} ({}): reflected macros {keys:?}", target.name()));
            }
            for set in &subsets {
                for (stage, text) in [(Stage::Vertex, &sources.vertex), (Stage::Fragment, &sources.fragment)] {
                    checked += 1;
                    let expanded = expand_macros(text, set);
                    let names: Vec<&str> = set.iter().map(|(n, _)| n.as_str()).collect();
                    let tag = format!("{}-{}-{}", name.trim_end_matches(".shader"), target.name(), names.join(""));
                    if let Err(log) = glslang_accepts(&expanded.text, target, stage, scratch.path(), &tag) {
                        failures.push(format!("{tag}:\n{log}\npreserving output:\n{text}"));
                    }
                }
            }
        }
    }
    fail_if_any(test, &failures);
    assert_eq!(checked, 7 * 2 * 4 * 2);
}

#[test]
fn expand_evaluates_conditions_and_macros() {
    let glsl = "#define SCALE(x) ((x) * 2.0)\n#if MODE == 2\nuniform float a;\n#else\nuniform float b;\n#endif\n\
                void main() { gl_FragColor = vec4(SCALE(1.0)); }\n";
    let two = expand_macros(glsl, &[("MODE".into(), "2".into())]);
    assert!(two.text.contains("uniform float a"), "{}", two.text);
    assert!(!two.text.contains("uniform float b"));
    assert!(two.text.contains("( ( 1.0 ) * 2.0 )"), "{}", two.text);
    let other = expand_macros(glsl, &[]);
    assert!(other.text.contains("uniform float b") && !other.text.contains("uniform float a"));
    let bad = expand_macros("#if 1 / 0\n#endif\n", &[]);
    assert_eq!(bad.diagnostics.first().map(|d| d.code()), Some("InvalidMacroCondition"));
}

#[test]
fn interface_reads_declarations_of_both_versions() {
    let list = |set: &BTreeSet<String>| set.iter().cloned().collect::<Vec<_>>().join(", ");
    let es300 = "layout(location = 1) out highp vec4 color;\nflat in int id;\nuniform vec3 lights[2 + 1];\n\
                 uniform float unused;\nvoid main() { color = vec4(lights[id], 1.0); }\n";
    let i = interface(es300, Stage::Fragment);
    assert_eq!(list(&i.io), "flat in int id, layout ( location = 1 ) out vec4 color");
    assert_eq!(list(&i.uniforms), "uniform vec3 lights [ 2 + 1 ]");
    assert!(i.attributes.is_empty());
    let es100 = "attribute vec4 POSITION;\nattribute vec2 UNREAD;\nvarying mediump vec2 v_uv;\nuniform mat4 mvp;\n\
                 void main() { gl_Position = mvp * POSITION; v_uv = POSITION.xy; }\n";
    let i = interface(es100, Stage::Vertex);
    assert_eq!(list(&i.attributes), "attribute vec4 POSITION");
    assert_eq!(list(&i.io), "varying vec2 v_uv");
    assert_eq!(list(&i.uniforms), "uniform mat4 mvp");
    assert!(same_interface(es100, es100, Stage::Vertex).is_ok());
    let retyped = es100.replace("vec2 v_uv", "vec3 v_uv");
    assert!(same_interface(es100, &retyped, Stage::Vertex).is_err(), "a type change is a difference");
    let without = es100.replace("uniform mat4 mvp;", "");
    assert!(same_interface(&without, es100, Stage::Vertex).is_err(), "a uniform the variant uses must be declared");
}
