//! Fuzz target 1: the frontend (lexer, preprocessor, structure parser, GLSL parser into the IR) on arbitrary bytes
//! (`String::from_utf8_lossy`), in preserving mode and, for odd-length inputs, also in a variant of the
//! macros the input tests. Invariants: no panic, no hang, every diagnostic span inside its file.
//!
//! `cargo run --profile fuzz -p shaderlab-fuzz --bin fuzz_frontend -- --seconds 600 --seed 1`

use shaderlab::{frontend, validator, Limits};
use shaderlab_fuzz::harness::{self, Outcome};

fn target(data: &[u8]) -> Outcome {
    let text = String::from_utf8_lossy(data);
    let includes = harness::includes();
    let mut runs: Vec<Option<Vec<(String, String)>>> = vec![None];
    if data.len() % 2 == 1 {
        let macros = harness::tested_macros(&text);
        runs.push(Some(macros.iter().take(macros.len().div_ceil(2)).map(|m| (m.clone(), "1".to_owned())).collect()));
    }
    let mut codes = Vec::new();
    for defines in runs {
        let options = frontend::Options { defines: defines.as_deref(), limits: Limits::default() };
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
    harness::main("fuzz_frontend", target)
}
