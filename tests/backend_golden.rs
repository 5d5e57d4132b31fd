//! Golden outputs of the GLSL ES backends for a few corpus passes: `tests/golden/<name>.glsl` (both stages) and
//! `<name>.reflection.json`. `UPDATE_EXPECT=1 cargo test --test backend_golden` rewrites them; review the diff.

mod common;

use common::*;
use shaderlab::fs_includes::FsIncludes;
use shaderlab::{compile, Options, Target};
use std::path::{Path, PathBuf};

struct Golden {
    /// The golden file's base name.
    name: &'static str,
    file: &'static str,
    /// The pass, by name.
    pass: &'static str,
    target: Target,
    /// `None`: preserving mode.
    defines: Option<&'static [&'static str]>,
}

const GOLDENS: &[Golden] = &[
    Golden {
        name: "basic-shader.gles300",
        file: "dev_2.0__shaderlab-01-basic-shader__1.shader",
        pass: "Forward",
        target: Target::Gles300,
        defines: None,
    },
    Golden {
        name: "basic-shader.gles100",
        file: "dev_2.0__shaderlab-01-basic-shader__1.shader",
        pass: "Forward",
        target: Target::Gles100,
        defines: None,
    },
    Golden {
        name: "mrt-struct.gles100",
        file: "dev_2.0__mrt-struct.shader",
        pass: "Pass0",
        target: Target::Gles100,
        defines: None,
    },
    Golden {
        name: "macro-pre.preserving.gles300",
        file: "dev_2.0__macro-pre.shader",
        pass: "default",
        target: Target::Gles300,
        defines: None,
    },
    Golden {
        name: "pbr-forward.webgl2.gles300",
        file: "dev_2.0__PBR.gs",
        pass: "Forward Pass",
        target: Target::Gles300,
        defines: Some(&["GRAPHICS_API_WEBGL2", "HAS_TEX_LOD", "HAS_DERIVATIVES"]),
    },
];

fn golden_dir() -> PathBuf {
    manifest_dir().join("tests").join("golden")
}

/// Compare with (or, under `UPDATE_EXPECT=1`, write) a golden file; `Err` describes the first difference.
fn check_golden(path: &Path, actual: &str) -> Result<(), String> {
    if std::env::var("UPDATE_EXPECT").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(golden_dir()).map_err(|e| e.to_string())?;
        std::fs::write(path, actual).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {} ({e}); run with UPDATE_EXPECT=1 to create it", path.display()))?;
    if expected == actual {
        return Ok(());
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    Err(format!(
        "{} differs at line {}:\n  expected: {:?}\n  actual:   {:?}\n(UPDATE_EXPECT=1 rewrites it; review the diff)",
        path.display(),
        line + 1,
        expected.lines().nth(line).unwrap_or("<end>"),
        actual.lines().nth(line).unwrap_or("<end>")
    ))
}

#[test]
fn golden_outputs() {
    let Some(corpus) = corpus_dir("golden_outputs") else { return };
    let mut failures = Vec::new();
    for g in GOLDENS {
        let path = corpus.join("shaders").join(g.file);
        let roots = if g.file.starts_with("dev_2.0__") {
            vec![corpus.join("includes/dev2")]
        } else {
            vec![corpus.join("includes/v1.5")]
        };
        let includes = FsIncludes::new(&roots, Some(&path)).expect("include roots");
        let options = Options { file_name: g.file.to_owned(), defines: g.defines.map(macros), ..Options::default() };
        let compiled = match compile(&read_text(&path), &includes, &options, g.target) {
            Ok(c) => c,
            Err(d) => {
                failures.push(format!("{}: refused: {:?}", g.name, d.iter().map(|d| d.message()).collect::<Vec<_>>()));
                continue;
            }
        };
        let Some(sources) = compiled.passes.iter().find(|p| p.name == g.pass).and_then(|p| p.sources.as_ref()) else {
            failures.push(format!("{}: no program pass '{}'", g.name, g.pass));
            continue;
        };
        let text = format!("// vertex\n{}\n// fragment\n{}", sources.vertex, sources.fragment);
        let json = pretty(&shaderlab::compile::reflection_json(&sources.reflection)) + "\n";
        for (file, content) in [(format!("{}.glsl", g.name), text), (format!("{}.reflection.json", g.name), json)] {
            if let Err(e) = check_golden(&golden_dir().join(file), &content) {
                failures.push(e);
            }
        }
    }
    fail_if_any("golden_outputs", &failures);
}
