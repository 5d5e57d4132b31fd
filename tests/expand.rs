//! `expand_macros` is the engine's run-time step on our preserving output. For every dev/2.0 corpus pass, each
//! macro set the engine used and three generated sets (gles300): the preserving compile, expanded with the set, is accepted by
//! glslangValidator, declares the same attributes, varyings and outputs as the variant compile with the same set
//! (which glslang accepts too), and declares every uniform the variant uses (architecture.md, "Variants"). The
//! preserving output may also declare uniforms of helpers only other variants call: drivers drop those as
//! inactive, and the variant compile does not emit them.

mod common;

use common::*;
use shaderlab::fs_includes::FsIncludes;
use shaderlab::{compile, expand_macros, Options, Target};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The active interface of a GLSL ES 3.00 stage: names declared by `in`/`out` globals, and `uniform` globals the
/// code uses (a preserving output declares a uniform whose uses are all in other variants' branches; drivers drop
/// such inactive uniforms, and the variant compile does not emit them).
fn interface(glsl: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let words = |line: &str| -> Vec<String> {
        line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let mut declared = Vec::new();
    let mut used = BTreeSet::new();
    for line in glsl.lines() {
        let mut line = line.trim();
        if let Some(rest) = line.strip_prefix("layout") {
            line = rest.split_once(')').map(|(_, r)| r.trim()).unwrap_or(line);
        }
        let head = line.split('[').next().unwrap_or(line).trim_end_matches(';').trim();
        let parts: Vec<&str> = head.split_whitespace().collect();
        let storage = parts.iter().position(|w| matches!(*w, "in" | "out" | "uniform"));
        let is_decl = line.ends_with(';')
            && !line.contains('(')
            && storage
                .is_some_and(|i| parts[..i].iter().all(|w| matches!(*w, "flat" | "smooth" | "centroid" | "invariant")));
        if is_decl {
            if let (Some(i), Some(name)) = (storage, parts.last()) {
                declared.push((parts[i] == "uniform", (*name).to_owned()));
            }
        } else {
            used.extend(words(line));
        }
    }
    let io = declared.iter().filter(|(uniform, _)| !uniform).map(|(_, n)| n.clone()).collect();
    let uniforms =
        declared.into_iter().filter(|(uniform, name)| *uniform && used.contains(name)).map(|(_, n)| n).collect();
    (io, uniforms)
}

fn glslang_accepts(text: &str, stage: &str, dir: &Path, tag: &str) -> Result<(), String> {
    let header = if stage == "frag" {
        "#version 300 es\n#ifdef GL_FRAGMENT_PRECISION_HIGH\nprecision highp float;\nprecision highp int;\n#else\nprecision mediump float;\nprecision mediump int;\n#endif\n"
    } else {
        "#version 300 es\n"
    };
    let path = dir.join(format!("{tag}.{stage}"));
    std::fs::write(&path, format!("{header}{text}")).map_err(|e| e.to_string())?;
    let out = Command::new("glslangValidator").arg(&path).output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{}\n{}", String::from_utf8_lossy(&out.stdout), text))
    }
}

#[test]
fn expanded_preserving_output_matches_variant_compile() {
    let Some(corpus) = corpus_dir("expanded_preserving_output_matches_variant_compile") else { return };
    if !Command::new("glslangValidator").arg("--version").output().is_ok_and(|o| o.status.success()) {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI=true and glslangValidator is not installed");
        eprintln!("\n!!! SKIPPED: glslangValidator is not installed\n");
        return;
    }
    let base = if Path::new("/dev/shm").is_dir() { Path::new("/dev/shm") } else { Path::new("/tmp") };
    let dir = base.join(format!("shaderlab-expand-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
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
                for (stage, ours, theirs) in [("vert", &ps.vertex, &vs.vertex), ("frag", &ps.fragment, &vs.fragment)] {
                    checked += 1;
                    let tag = format!("{stem}-{}-{stage}-{checked}", p.name.replace(' ', "_"));
                    let expanded = expand_macros(ours, &macros);
                    if !expanded.diagnostics.is_empty() {
                        failures.push(format!("{tag}: expansion diagnostics {:?}", expanded.diagnostics));
                        continue;
                    }
                    if let Err(log) = glslang_accepts(&expanded.text, stage, &dir, &format!("{tag}-expanded")) {
                        failures.push(format!("{tag}: expanded preserving output rejected:\n{log}"));
                    }
                    if let Err(log) = glslang_accepts(theirs, stage, &dir, &format!("{tag}-variant")) {
                        failures.push(format!("{tag}: variant output rejected:\n{log}"));
                    }
                    // Attributes, varyings and outputs are the same; every uniform the variant uses is declared (the
                    // preserving output may keep helpers, and their uniforms, that only other variants call).
                    let ((io_a, u_a), (io_b, u_b)) = (interface(&expanded.text), interface(theirs));
                    if io_a != io_b {
                        failures
                            .push(format!("{tag}: stage interface differs\n expanded: {io_a:?}\n variant:  {io_b:?}"));
                    }
                    let missing: Vec<_> = u_b.difference(&u_a).collect();
                    if !missing.is_empty() {
                        failures.push(format!("{tag}: uniforms of the variant missing after expansion: {missing:?}"));
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("expand: {checked} stages checked");
    assert!(checked > 20, "too few stages checked: {checked}");
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n\n"));
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
