//! The `shaderlab bench` command: JSON shape, stages, targets, and usage errors. No wall-clock assertion: only
//! that the numbers are consistent (min <= median <= max, positive) and the iteration count is honoured.

mod common;

use common::*;
use serde_json::Value;

fn bench_json(args: &[&str]) -> Value {
    let out = shaderlab(args);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", show(&out)))
}

fn assert_consistent(v: &Value, iterations: u64) {
    let obj = v.as_object().expect("an object");
    let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    assert_eq!(keys.len(), 4, "exactly median_us, min_us, max_us, iterations: {v}");
    assert_eq!(v["iterations"].as_u64(), Some(iterations), "{v}");
    let (min, median, max) = (v["min_us"].as_f64(), v["median_us"].as_f64(), v["max_us"].as_f64());
    let (Some(min), Some(median), Some(max)) = (min, median, max) else { panic!("numbers expected: {v}") };
    assert!(0.0 < min && min <= median && median <= max, "{v}");
}

#[test]
fn json_timing_for_every_stage_and_target() {
    let file = example_arg("lit-includes.shader");
    let includes = examples_dir().join("includes").display().to_string();
    for stage in ["parse", "check", "compile"] {
        for target in ["gles100", "gles300"] {
            let v = bench_json(&[
                "bench",
                &file,
                "-I",
                &includes,
                "--stage",
                stage,
                "--target",
                target,
                "--iterations",
                "5",
                "--format",
                "json",
            ]);
            assert_consistent(&v, 5);
        }
    }
}

#[test]
fn human_output_names_the_file_and_the_numbers() {
    let out = shaderlab(&["bench", &example_arg("unlit-textured.shader"), "--iterations", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("unlit-textured.shader: median ") && text.contains("over 3 iterations"), "{text}");
}

#[test]
fn variant_defines_are_accepted() {
    let v = bench_json(&[
        "bench",
        &example_arg("unlit-textured.shader"),
        "-D",
        "MATERIAL_HAS_BASETEXTURE",
        "--iterations",
        "2",
        "--format",
        "json",
    ]);
    assert_consistent(&v, 2);
}

#[test]
fn zero_iterations_and_missing_files_are_usage_errors() {
    let out = shaderlab(&["bench", &example_arg("unlit-textured.shader"), "--iterations", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let out = shaderlab(&["bench", "no/such/file.shader"]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
}

#[test]
fn a_file_with_errors_is_timed_with_a_note() {
    let scratch = Scratch::new("bench-errors");
    let file = scratch.write(
        "broken.shader",
        "Shader \"B\" { SubShader \"S\" { Pass \"P\" { VertexShader = v; FragmentShader = f;\n void v() { gl_Position = missing; }\n void f() { gl_FragColor = vec4(1.0); } } } }\n",
    );
    let out = shaderlab(&["bench", &file.display().to_string(), "--iterations", "2", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has errors"), "{}", show(&out));
}
