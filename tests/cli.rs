//! The `shaderlab` binary: exit codes (0 clean or warnings only, 1 errors, 2 unreadable input or bad usage),
//! `check --format json`, `parse --format json` and `dump-ir`.

mod common;

use common::*;
use serde_json::{json, Value};
use std::path::Path;
use std::process::Output;

fn stdout_json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", show(output)))
}

fn example_includes() -> String {
    examples_dir().join("includes").display().to_string()
}

/// A shader with one syntax error: `float broken = ;` on line 4 (the `;` at column 22).
const BROKEN: &str = "Shader \"Broken\" {\n  SubShader \"Default\" {\n    Pass \"P\" {\n      float broken = ;\n      \
                      void vert() { gl_Position = vec4(0.0); }\n      void frag() { gl_FragColor = vec4(1.0); }\n      \
                      VertexShader = vert;\n      FragmentShader = frag;\n    }\n  }\n}\n";

/// `(line, column)`, both 1-based, of a byte offset in ASCII text.
fn line_column(text: &str, offset: usize) -> (u64, u64) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = offset - before.rfind('\n').map(|i| i + 1).unwrap_or(0) + 1;
    (line as u64, column as u64)
}

fn check_position(text: &str, position: &Value, what: &str) -> usize {
    let offset = position["offset"].as_u64().unwrap_or_else(|| panic!("{what}: no offset in {position}")) as usize;
    assert!(offset <= text.len(), "{what}: offset {offset} beyond the text");
    let (line, column) = line_column(text, offset);
    assert_eq!(
        (position["line"].as_u64(), position["column"].as_u64()),
        (Some(line), Some(column)),
        "{what}: line/column disagree with offset {offset} in {position}"
    );
    offset
}

#[test]
fn clean_example_exits_0() {
    let output = shaderlab(&["check", &example_arg("unlit-textured.shader")]);
    assert_eq!(output.status.code(), Some(0), "{}", show(&output));
    let output =
        shaderlab(&["check", &example_arg("lit-includes.shader"), "-I", &example_includes(), "-D", "LIGHT_COUNT=2"]);
    assert_eq!(output.status.code(), Some(0), "{}", show(&output));
    let output = shaderlab(&["parse", &example_arg("multi-pass-outline.shader")]);
    assert_eq!(output.status.code(), Some(0), "{}", show(&output));
    assert!(String::from_utf8_lossy(&output.stdout).contains("Examples/MultiPassOutline"), "{}", show(&output));
}

#[test]
fn file_with_errors_exits_1() {
    let scratch = Scratch::new("errors");
    let path = scratch.write("broken.shader", BROKEN);
    let file = path.display().to_string();
    for args in [vec!["check", &file], vec!["check", &file, "-D", "GRAPHICS_API_WEBGL2"], vec!["parse", &file]] {
        let output = shaderlab(&args);
        assert_eq!(output.status.code(), Some(1), "{args:?}\n{}", show(&output));
    }
    let human = shaderlab(&["check", &file]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(text.contains("error[UnexpectedToken]") && text.contains(":4:"), "{}", show(&human));
}

#[test]
fn missing_input_exits_2() {
    let scratch = Scratch::new("missing");
    let missing = scratch.0.join("does-not-exist.shader").display().to_string();
    for command in ["check", "parse", "dump-ir"] {
        let output = shaderlab(&[command, &missing]);
        assert_eq!(output.status.code(), Some(2), "{command} on a missing file\n{}", show(&output));
        assert!(!output.stderr.is_empty(), "{command}: the reason goes to stderr\n{}", show(&output));
    }
    // A missing include folder is unreadable input too.
    let missing_dir = scratch.0.join("no-such-dir").display().to_string();
    let output = shaderlab(&["check", &example_arg("unlit-textured.shader"), "-I", &missing_dir]);
    assert_eq!(output.status.code(), Some(2), "missing -I folder\n{}", show(&output));
}

#[test]
fn bad_usage_exits_2() {
    let file = example_arg("unlit-textured.shader");
    for args in [vec!["check", &file, "--no-such-flag"], vec!["no-such-command"], vec![], vec!["check"]] {
        let output = shaderlab(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}\n{}", show(&output));
    }
    let output = shaderlab(&["check", &file, "--format", "xml"]);
    assert_eq!(output.status.code(), Some(2), "unknown format\n{}", show(&output));
}

#[test]
fn check_json_format() {
    let scratch = Scratch::new("json");
    let path = scratch.write("broken.shader", BROKEN);
    let file = path.display().to_string();
    let output = shaderlab(&["check", &file, "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", show(&output));
    let v = stdout_json(&output);
    assert_eq!(v["file"], json!(file), "{}", pretty(&v));
    let diagnostics = v["diagnostics"].as_array().unwrap_or_else(|| panic!("no diagnostics array: {}", pretty(&v)));
    assert_eq!(diagnostics.len(), 1, "one root cause, one diagnostic: {}", pretty(&v));
    for d in diagnostics {
        let object = d.as_object().unwrap_or_else(|| panic!("diagnostic is not an object: {d}"));
        let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["code", "file", "message", "notes", "range", "severity"], "{}", pretty(d));
        assert!(d["severity"] == "error" || d["severity"] == "warning", "{}", pretty(d));
        assert!(d["message"].as_str().is_some_and(|m| !m.is_empty()), "{}", pretty(d));
        assert!(d["notes"].is_array(), "{}", pretty(d));
        assert_eq!(d["file"], json!(file), "{}", pretty(d));
        let start = check_position(BROKEN, &d["range"]["start"], "start");
        let end = check_position(BROKEN, &d["range"]["end"], "end");
        assert!(start <= end, "{}", pretty(d));
    }
    let first = &diagnostics[0];
    assert_eq!((first["code"].as_str(), first["severity"].as_str()), (Some("UnexpectedToken"), Some("error")));
    let semicolon = BROKEN.find("= ;").expect("the error in BROKEN") + 2;
    assert_eq!(first["range"]["start"]["offset"].as_u64(), Some(semicolon as u64), "{}", pretty(first));
    assert_eq!(
        (first["range"]["start"]["line"].as_u64(), first["range"]["start"]["column"].as_u64()),
        (Some(4), Some(22))
    );

    // A clean file: no diagnostics, exit 0.
    let clean = example_arg("mrt-gbuffer.shader");
    let output = shaderlab(&["check", &clean, "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", show(&output));
    assert_eq!(stdout_json(&output), json!({ "file": clean, "diagnostics": [] }));
}

/// Warnings alone exit 0; a note points back at the first inclusion, in the chunk-relative JSON form.
#[test]
fn warnings_exit_0_and_notes_are_reported() {
    let scratch = Scratch::new("notes");
    // No guard and nothing to redefine: the duplicate inclusion is the only finding.
    scratch.write("chunks/Plain.glsl", "// a chunk without include guard\n");
    let main = scratch.write(
        "dup.shader",
        "Shader \"Dup\" {\n  SubShader \"Default\" {\n    Pass \"P\" {\n      #include \"Plain.glsl\"\n      \
         #include \"Plain.glsl\"\n      void vert() { gl_Position = vec4(0.0); }\n      \
         void frag() { gl_FragColor = vec4(1.0); }\n      VertexShader = vert;\n      FragmentShader = frag;\n    }\n  }\n}\n",
    );
    let chunks = scratch.0.join("chunks").display().to_string();
    let file = main.display().to_string();
    let output = shaderlab(&["check", &file, "-I", &chunks, "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "warnings only\n{}", show(&output));
    let v = stdout_json(&output);
    let diagnostics = v["diagnostics"].as_array().cloned().unwrap_or_default();
    assert_eq!(diagnostics.len(), 1, "{}", pretty(&v));
    let duplicate = diagnostics
        .iter()
        .find(|d| d["code"] == "DuplicateInclude")
        .unwrap_or_else(|| panic!("expected DuplicateInclude: {}", pretty(&v)));
    assert_eq!(duplicate["severity"], "warning");
    assert_eq!(duplicate["range"]["start"]["line"], 5, "{}", pretty(duplicate));
    let note = &duplicate["notes"][0];
    assert!(note["message"].as_str().is_some_and(|m| !m.is_empty()), "{}", pretty(duplicate));
    assert_eq!(note["file"], json!(file), "{}", pretty(duplicate));
    assert_eq!(note["range"]["start"]["line"], 4, "{}", pretty(duplicate));
}

#[test]
fn warning_switches_silence_and_promote() {
    let scratch = Scratch::new("wswitch");
    scratch.write("chunks/Plain.glsl", "// a chunk without include guard\n");
    let main = scratch.write(
        "dup.shader",
        "Shader \"Dup\" {\n  SubShader \"Default\" {\n    Pass \"P\" {\n      #include \"Plain.glsl\"\n      \
         #include \"Plain.glsl\"\n      void vert() { gl_Position = vec4(0.0); }\n      \
         void frag() { gl_FragColor = vec4(1.0); }\n      VertexShader = vert;\n      FragmentShader = frag;\n    }\n  }\n}\n",
    );
    let chunks = scratch.0.join("chunks").display().to_string();
    let file = main.display().to_string();
    let count = |args: &[&str]| {
        let mut all = vec!["check", &file, "-I", &chunks, "--format", "json"];
        all.extend_from_slice(args);
        let output = shaderlab(&all);
        let v = stdout_json(&output);
        (output.status.code(), v["diagnostics"].as_array().map(|d| d.len()).unwrap_or(0), v)
    };
    let (code, n, _) = count(&["-W", "no-DuplicateInclude"]);
    assert_eq!((code, n), (Some(0), 0), "silenced");
    let (code, n, v) = count(&["-W", "error=DuplicateInclude"]);
    assert_eq!((code, n), (Some(1), 1), "promoted");
    assert_eq!(v["diagnostics"][0]["severity"], "error");
    let (code, _, _) = count(&["-W", "error"]);
    assert_eq!(code, Some(1), "every warning an error");
    let output = shaderlab(&["check", &file, "-W", "no-UnexpectedToken"]);
    assert_eq!(output.status.code(), Some(2), "errors cannot be silenced\n{}", show(&output));
}

#[test]
fn dump_ir_prints_json() {
    for (args, mode) in [
        (vec!["dump-ir".to_owned(), example_arg("lit-includes.shader"), "-I".into(), example_includes()], "Preserving"),
        (
            vec![
                "dump-ir".to_owned(),
                example_arg("lit-includes.shader"),
                "-I".into(),
                example_includes(),
                "-D".into(),
                "USE_SPECULAR".into(),
            ],
            "Variant",
        ),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = shaderlab(&args);
        assert_eq!(output.status.code(), Some(0), "{args:?}\n{}", show(&output));
        let v = stdout_json(&output);
        for key in ["shader", "subshaders", "passes", "functions", "sources"] {
            assert!(v.get(key).is_some(), "dump-ir has no '{key}'");
        }
        let mode_text = v["mode"].to_string();
        assert!(mode_text.contains(mode), "dump-ir {args:?}: mode {mode_text}, expected {mode}");
    }
}

/// `parse --format json` for an example: the library's structure, printed as is.
#[test]
fn parse_json_equals_the_library_structure() {
    let path = examples_dir().join("multi-pass-outline.shader");
    let output = shaderlab(&["parse", &path.display().to_string(), "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", show(&output));
    let analysis = analyze_file(Path::new(&path), &[], None).expect("no panic");
    assert_eq!(stdout_json(&output), shaderlab::structure_json::shader_json(&analysis.module));
}
