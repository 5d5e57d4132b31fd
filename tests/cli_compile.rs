//! The `shaderlab compile` command: exit codes (0 compiled, 1 refused, 2 bad usage or unreadable input), the JSON
//! compile result, `--header`, `--out-dir`, and backend refusals reported as diagnostics.

mod common;

use common::*;
use serde_json::Value;

#[test]
fn json_result_has_sources_and_reflection_per_pass() {
    let out = shaderlab(&["compile", &example_arg("unlit-textured.shader"), "--target", "gles300", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", show(&out)));
    let pass = &v["subShaders"][0]["passes"][0];
    assert_eq!(pass["name"], "Forward");
    assert_eq!(pass["vertexEntry"], "vert");
    let vertex = pass["vertex"].as_str().expect("vertex source");
    let fragment = pass["fragment"].as_str().expect("fragment source");
    assert!(vertex.contains("void main() {") && vertex.contains("in vec4 POSITION;"), "{vertex}");
    assert!(fragment.contains("out vec4 GS_glFragColor;"), "{fragment}");
    assert!(fragment.contains("#ifdef MATERIAL_HAS_BASETEXTURE"), "preserving mode keeps conditionals: {fragment}");
    let r = &pass["reflection"];
    assert_eq!(r["attributes"][0]["name"], "POSITION");
    assert_eq!(r["varyings"][0]["interpolation"], "smooth");
    assert_eq!(r["outputs"][0]["name"], "GS_glFragColor");
    let macros: Vec<&str> = r["macros"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    assert!(macros.contains(&"MATERIAL_HAS_BASETEXTURE"), "{macros:?}");
    assert!(v["diagnostics"].as_array().is_some_and(|d| d.is_empty()), "{}", show(&out));
}

#[test]
fn header_and_out_dir() {
    let scratch = Scratch::new("out-dir");
    let dir = scratch.0.display().to_string();
    let out = shaderlab(&[
        "compile",
        &example_arg("unlit-textured.shader"),
        "--target",
        "gles100",
        "-D",
        "MATERIAL_HAS_BASETEXTURE",
        "--header",
        "--out-dir",
        &dir,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let vertex = std::fs::read_to_string(scratch.0.join("Forward.vert")).expect("Forward.vert written");
    let fragment = std::fs::read_to_string(scratch.0.join("Forward.frag")).expect("Forward.frag written");
    assert!(vertex.starts_with("#version 100\nuniform mat4 renderer_MVPMat;"), "{vertex}");
    assert!(
        fragment.starts_with("#version 100\n#extension GL_EXT_shader_texture_lod : enable\n"),
        "the engine's ES 1.00 fragment header: {fragment}"
    );
    assert!(fragment.contains("gl_FragColor = color;"), "{fragment}");
    let code = fragment.split("#endif\n").nth(1).unwrap_or_default();
    assert!(code.starts_with("uniform vec4 material_BaseColor;") && !code.contains('#'), "variant mode: {fragment}");
}

#[test]
fn human_output_names_pass_and_stage() {
    let out = shaderlab(&["compile", &example_arg("multi-pass-outline.shader"), "--target", "gles300"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("// Pass \"") && text.contains("\": vertex shader\n"), "{text}");
    assert!(text.contains("\": fragment shader\n"), "{text}");
}

#[test]
fn backend_refusals_are_diagnostics() {
    let scratch = Scratch::new("refusal");
    let path = scratch.0.join("bits.shader");
    std::fs::write(
        &path,
        "Shader \"t\" { SubShader \"s\" { Pass \"p\" {
            struct Attributes { vec4 POSITION; };
            VertexShader = vert;
            FragmentShader = frag;
            void vert(Attributes a) { int k = 5 & 3; gl_Position = a.POSITION * float(k); }
            void frag() { float x[2][2]; x[0][0] = 1.0; gl_FragColor = vec4(x[0][0]); }
        } } }",
    )
    .expect("write the shader");
    let file = path.display().to_string();
    let out = shaderlab(&["compile", &file, "--target", "gles100", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", show(&out)));
    let codes: Vec<&str> =
        v["diagnostics"].as_array().into_iter().flatten().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, ["UnsupportedInTarget", "ArrayOfArrays"], "{}", show(&out));
    let first = &v["diagnostics"][0];
    assert_eq!(first["message"], "'&' : operator not available in GLSL ES 1.00");
    assert_eq!(first["range"]["start"]["line"], 5);
    let gles300 = shaderlab(&["compile", &file, "--target", "gles300"]);
    assert_eq!(gles300.status.code(), Some(1), "arrays of arrays are refused in ES 3.00 too: {}", show(&gles300));
    let human = String::from_utf8_lossy(&gles300.stdout);
    assert!(human.contains("error[ArrayOfArrays]"), "{human}");
    assert!(human.contains("while writing pass 'p' for gles300"), "{human}");
}

#[test]
fn usage_errors_exit_2() {
    let missing_target = shaderlab(&["compile", &example_arg("unlit-textured.shader")]);
    assert_eq!(missing_target.status.code(), Some(2), "{}", show(&missing_target));
    let bad_target = shaderlab(&["compile", &example_arg("unlit-textured.shader"), "--target", "gles200"]);
    assert_eq!(bad_target.status.code(), Some(2), "{}", show(&bad_target));
    let unreadable = shaderlab(&["compile", "/nonexistent/x.shader", "--target", "gles300"]);
    assert_eq!(unreadable.status.code(), Some(2), "{}", show(&unreadable));
}
