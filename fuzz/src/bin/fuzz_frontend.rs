//! Fuzz target 1: the frontend (lexer, preprocessor, structure and GLSL parsers, lowering) on arbitrary bytes
//! (`String::from_utf8_lossy`), in preserving mode and, for odd-length inputs, also in a variant of the
//! macros the input tests. Invariants: no panic, no hang, every diagnostic span inside its file.
//!
//! `cargo run --release -p shaderlab-fuzz --bin fuzz_frontend -- --seconds 600 --seed 1`

use clap::Parser;
use shaderlab::{frontend, validator, Limits, MapResolver};
use shaderlab_fuzz::harness::{self, Args, Outcome};
use std::sync::OnceLock;

static INCLUDES: OnceLock<MapResolver> = OnceLock::new();

fn target(data: &[u8]) -> Outcome {
    let text = String::from_utf8_lossy(data);
    let includes = INCLUDES.get_or_init(MapResolver::new);
    let mut runs = vec![None];
    if data.len() % 2 == 1 {
        let macros = harness::tested_macros(&text);
        runs.push(Some(macros.iter().take(macros.len().div_ceil(2)).map(|m| (m.clone(), "1".to_owned())).collect()));
    }
    let mut codes = Vec::new();
    for defines in runs {
        let options = frontend::Options { defines, limits: Limits::default() };
        let module = frontend::parse("fuzz.shader", &text, includes, &options);
        let diagnostics = validator::collect(&module, None);
        harness::spans_in_bounds(&module, &diagnostics)?;
        codes.extend(diagnostics.iter().map(|d| d.code()));
    }
    codes.sort_unstable();
    codes.dedup();
    Ok(codes)
}

fn main() {
    let args = Args::parse();
    let roots = if args.includes.is_empty() { harness::default_include_roots() } else { args.includes.clone() };
    let _ = INCLUDES.set(harness::load_includes(&roots));
    let stats = harness::run("fuzz_frontend", target, &args);
    std::process::exit(if stats.findings.is_empty() { 0 } else { 1 });
}
