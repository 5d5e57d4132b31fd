//! Fuzz target 2: the whole check (`shaderlab::analyze`: frontend, passes, validator) and the JSON rendering
//! of its diagnostics, in preserving mode and in a variant of the macros the input tests. Invariants: no
//! panic, no hang, every diagnostic span inside its file.
//!
//! `cargo run --profile fuzz -p shaderlab-fuzz --bin fuzz_check -- --seconds 600 --seed 1`

use shaderlab::{analyze, validator, Options};
use shaderlab_fuzz::harness::{self, Outcome};

fn target(data: &[u8]) -> Outcome {
    let text = String::from_utf8_lossy(data);
    let includes = harness::includes();
    let macros = harness::tested_macros(&text);
    // Preserving, then one variant: the macros at even positions defined (varies with the input).
    let variant: Vec<(String, String)> = macros
        .iter()
        .step_by(2)
        .map(|m| (m.clone(), if data.len().is_multiple_of(3) { "2" } else { "" }.to_owned()))
        .collect();
    let mut codes = Vec::new();
    for defines in [None, Some(variant)] {
        let options = Options { file_name: "fuzz.shader".into(), defines, ..Options::default() };
        let analysis = analyze(&text, includes, &options);
        harness::spans_in_bounds(&analysis.module, &analysis.diagnostics)?;
        let some = &analysis.diagnostics[..analysis.diagnostics.len().min(200)];
        let _ = validator::render_json(&analysis.module, "fuzz.shader", some);
        let _ = validator::summary(&analysis.diagnostics);
        codes.extend(analysis.diagnostics.iter().map(|d| d.code()));
    }
    codes.sort_unstable();
    codes.dedup();
    Ok(codes)
}

fn main() {
    harness::main("fuzz_check", target)
}
