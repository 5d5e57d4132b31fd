//! `shaderlab generate` (feature `generate`, on by default): programs written to a folder are clean for
//! `shaderlab check`, the same seed gives the same bytes, and `--target` writes each program's GLSL pair, which
//! glslangValidator accepts (without it the last test passes with a loud banner, except under `CI=true`).

#![cfg(feature = "generate")]

mod common;

use common::*;
use std::path::{Path, PathBuf};

fn generate(args: &[&str]) {
    let out = shaderlab(&[&["generate"], args].concat());
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
}

/// The files of `dir` (sorted), as paths relative to it.
fn files(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot list {}: {e}", d.display())).flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(relative) = path.strip_prefix(dir) {
                found.push(relative.display().to_string());
            }
        }
    }
    found.sort();
    found
}

#[test]
fn generated_programs_check_clean() {
    let scratch = Scratch::new("generate-check");
    let dir = scratch.path().display().to_string();
    generate(&["--seed", "3", "--count", "3", "--out", &dir]);
    assert_eq!(files(scratch.path()), ["gen-3.shader", "gen-4.shader", "gen-5.shader"]);
    for name in files(scratch.path()) {
        let path = scratch.path().join(&name).display().to_string();
        let out = shaderlab(&["check", &path]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", show(&out));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(stdout.trim(), "0 errors, 0 warnings", "{name}: {}", show(&out));
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let scratch = Scratch::new("generate-same");
    let (a, b) = (scratch.path().join("a"), scratch.path().join("b"));
    for dir in [&a, &b] {
        generate(&[
            "--seed",
            "11",
            "--count",
            "2",
            "--preset",
            "small",
            "--passes",
            "2",
            "--out",
            &dir.display().to_string(),
        ]);
    }
    for name in ["gen-11.shader", "gen-12.shader"] {
        let (x, y) =
            (std::fs::read(a.join(name)).expect("first run"), std::fs::read(b.join(name)).expect("second run"));
        assert!(x == y, "{name} differs between two runs with the same seed");
    }
    assert_ne!(std::fs::read(a.join("gen-11.shader")).ok(), std::fs::read(a.join("gen-12.shader")).ok());
    // Printed to stdout: the same text as written.
    let printed = shaderlab(&["generate", "--seed", "11", "--preset", "small", "--passes", "2"]);
    assert_eq!(printed.status.code(), Some(0), "{}", show(&printed));
    assert!(printed.stdout == std::fs::read(a.join("gen-11.shader")).expect("written"), "stdout differs from the file");
}

#[test]
fn target_writes_glsl_pairs_that_glslang_accepts() {
    let scratch = Scratch::new("generate-target");
    let mut stages: Vec<PathBuf> = Vec::new();
    for target in ["gles300", "gles100"] {
        let dir = scratch.path().join(target);
        generate(&[
            "--seed",
            "0",
            "--count",
            "3",
            "--passes",
            "2",
            "--target",
            target,
            "--out",
            &dir.display().to_string(),
        ]);
        let written = files(&dir);
        for seed in 0..3 {
            assert!(written.contains(&format!("gen-{seed}.shader")), "{target}: {written:?}");
            for pass in ["P0", "P1"] {
                for ext in ["vert", "frag"] {
                    let name = format!("gen-{seed}/{pass}.{ext}");
                    assert!(written.contains(&name), "{target}: no {name} in {written:?}");
                    stages.push(dir.join(name));
                }
            }
        }
        let first = std::fs::read_to_string(dir.join("gen-0/P0.vert")).expect("a vertex stage");
        let version = if target == "gles300" { "#version 300 es\n" } else { "#version 100\n" };
        assert!(first.starts_with(version), "{target}: written with the header:\n{first}");
    }
    if !glslang_available("target_writes_glsl_pairs_that_glslang_accepts") {
        return;
    }
    for stage in stages {
        let out = std::process::Command::new("glslangValidator").arg(&stage).output().expect("run glslangValidator");
        assert!(out.status.success(), "{} rejected:\n{}", stage.display(), show(&out));
    }
}

#[test]
fn target_needs_out_and_refusals_exit_1() {
    let out = shaderlab(&["generate", "--target", "gles300"]);
    assert_eq!(out.status.code(), Some(2), "--target without --out is a usage error: {}", show(&out));
    // A program with ES 3.00 constructs does not compile for GLSL ES 1.00: reported, exit 1 (seed 0 has one).
    let scratch = Scratch::new("generate-refused");
    let dir = scratch.path().display().to_string();
    let out = shaderlab(&["generate", "--preset", "default", "--target", "gles100", "--count", "4", "--out", &dir]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not compile for gles100"), "{}", show(&out));
}
