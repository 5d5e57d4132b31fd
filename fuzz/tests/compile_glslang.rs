//! Differential check of the GLSL backends on generated programs (feature `compile`, on by default):
//! every generated program compiles for its target (`GeneratorConfig::es100()` programs for GLSL ES 1.00,
//! default programs for GLSL ES 3.00), in preserving mode and in a variant with every macro defined, and
//! glslangValidator accepts each emitted stage (with the engine's header). Without glslangValidator the test
//! passes with a loud banner.
//!
//! `cargo test -p shaderlab-fuzz --test compile_glslang`

#![cfg(feature = "compile")]

mod common;

use common::*;
use shaderlab::{compile_report, MapResolver, Target};
use shaderlab_fuzz::{program_from_seed, GeneratorConfig};
use std::process::Command;

fn glslang_available() -> bool {
    Command::new("glslangValidator").arg("--version").output().is_ok_and(|o| o.status.success())
}

#[test]
fn generated_programs_compile_and_pass_glslang() {
    if !glslang_available() {
        eprintln!("\n===== SKIPPED: glslangValidator not found; only the compiles are checked =====\n");
    }
    let dir = std::env::temp_dir().join(format!("shaderlab-fuzz-glslang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut failures = Vec::new();
    for (target, mut config) in
        [(Target::Gles100, GeneratorConfig::es100()), (Target::Gles300, GeneratorConfig::default())]
    {
        config.features.contextual_arguments = false;
        for seed in 0..24 {
            let program = program_from_seed(seed, &config);
            for options in [preserving(), variant(&program.macros)] {
                let backend = shaderlab::backends::Options { header: true };
                let compiled = compile_report(&program.source, &MapResolver::new(), &options, target, &backend);
                if compiled.has_errors() {
                    let codes: Vec<&str> = compiled.diagnostics.iter().map(|d| d.code()).collect();
                    failures.push(format!("seed {seed} {target:?} {:?}: refused {codes:?}", options.defines));
                    continue;
                }
                if !glslang_available() {
                    continue;
                }
                for pass in &compiled.passes {
                    let Some(s) = &pass.sources else { continue };
                    for (ext, text) in [("vert", &s.vertex), ("frag", &s.fragment)] {
                        let path = dir.join(format!("seed{seed}-{}.{ext}", target.name()));
                        std::fs::write(&path, text).expect("write a stage");
                        let out = Command::new("glslangValidator").arg(&path).output().expect("run glslangValidator");
                        if !out.status.success() {
                            let log = String::from_utf8_lossy(&out.stdout);
                            let first = log.lines().find(|l| l.contains("ERROR")).unwrap_or("").to_owned();
                            failures.push(format!("seed {seed} {target:?} {:?} {ext}: {first}", options.defines));
                        }
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
