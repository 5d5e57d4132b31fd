//! Fuzz target 3: `shaderlab::compile_report` for GLSL ES 1.00 and GLSL ES 3.00. Invariants: no panic, no
//! hang, every diagnostic span inside its file, and a compile without errors yields both stages of every
//! program pass.
//!
//! Needs the `compile` feature (on by default).
//!
//! `cargo run --release -p shaderlab-fuzz --bin fuzz_compile -- --seconds 600`

use clap::Parser;
use shaderlab::{compile_report, MapResolver, Options, Target};
use shaderlab_fuzz::harness::{self, Args, Outcome};
use std::sync::OnceLock;

static INCLUDES: OnceLock<MapResolver> = OnceLock::new();

fn target(data: &[u8]) -> Outcome {
    let text = String::from_utf8_lossy(data);
    let includes = INCLUDES.get_or_init(MapResolver::new);
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
    let args = Args::parse();
    let roots = if args.includes.is_empty() { harness::default_include_roots() } else { args.includes.clone() };
    let _ = INCLUDES.set(harness::load_includes(&roots));
    let stats = harness::run("fuzz_compile", target, &args);
    std::process::exit(if stats.findings.is_empty() { 0 } else { 1 });
}
