//! Fuzz target 3: `shaderlab::compile_report` for GLSL ES 1.00 and GLSL ES 3.00. Invariants: no panic, no
//! hang, every diagnostic span inside its file, and a compile without errors yields both stages of every
//! program pass.
//!
//! Needs the `compile` feature (on by default).
//!
//! `cargo run --profile fuzz -p shaderlab-fuzz --bin fuzz_compile -- --seconds 600`

use shaderlab::{compile_report, Options, Target};
use shaderlab_fuzz::harness::{self, Outcome};

fn target(data: &[u8]) -> Outcome {
    let text = String::from_utf8_lossy(data);
    let includes = harness::includes();
    let mut codes = Vec::new();
    for target in [Target::Gles100, Target::Gles300] {
        let options = Options { file_name: "fuzz.shader".into(), ..Options::default() };
        let compiled = compile_report(&text, includes, &options, target, &shaderlab::backends::Options::default());
        harness::spans_in_bounds(&compiled.module, &compiled.diagnostics)?;
        if !compiled.has_errors() {
            for pass in &compiled.passes {
                if let Some(s) = &pass.sources {
                    if s.vertex.is_empty() || s.fragment.is_empty() {
                        return Err(format!(
                            "pass '{}' compiled for {} without a stage's source",
                            pass.name,
                            target.name()
                        ));
                    }
                }
            }
        }
        codes.extend(compiled.diagnostics.iter().map(|d| d.code()));
    }
    codes.sort_unstable();
    codes.dedup();
    Ok(codes)
}

fn main() {
    harness::main("fuzz_compile", target)
}
