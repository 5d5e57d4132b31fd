//! Fuzz target 4: `shaderlab::expand_macros` on arbitrary text and macro sets.
//!
//! The macro set of an input is drawn from the input itself: the names its directives test
//! ([`harness::tested_macros`]) plus two fixed names, each defined or not and given a value from a small list
//! (empty, `0`, `1`, `2`, an expression, a name), by bits of a hash of the input, so a mutant of the same
//! text explores other sets. Invariants:
//!
//! - on the raw input: no panic, no hang, every diagnostic span inside its file;
//! - when the input is a ShaderLab file whose preserving GLSL ES 3.00 compile has no error, every emitted stage
//!   is expanded with the macro set where every value is `1` (a value every `#if` of a valid source accepts),
//!   and that expansion must report no error: the preserving output is valid GLSL for every variant.
//!
//! `cargo run --profile fuzz -p shaderlab-fuzz --bin fuzz_expand -- --seconds 600`

use shaderlab::ir::Severity;
use shaderlab::{compile_report, expand_macros, Options, Target};
use shaderlab_fuzz::harness::{self, Outcome};

const VALUES: [&str; 6] = ["", "0", "1", "2", "(1 + 2) * 3", "OTHER_NAME"];

/// The macro set of an input: `(name, value)` pairs chosen by a hash of `data`.
fn macro_set(data: &[u8], text: &str) -> Vec<(String, String)> {
    let mut bits = harness::hash_of(data);
    let mut names = harness::tested_macros(text);
    names.extend(["GL_ES".to_owned(), "FUZZ_EXTRA".to_owned()]);
    let mut out = Vec::new();
    for name in names {
        let defined = bits & 1 == 1;
        let value = VALUES[((bits >> 1) % VALUES.len() as u64) as usize];
        bits = bits.rotate_right(5) ^ 0x9e37_79b9_7f4a_7c15;
        if defined {
            out.push((name, value.to_owned()));
        }
    }
    out
}

fn target(data: &[u8]) -> Outcome {
    let text = String::from_utf8_lossy(data);
    let macros = macro_set(data, &text);
    let raw = expand_macros(&text, &macros);
    harness::spans_in_bounds(&raw.module, &raw.diagnostics)?;
    let mut codes: Vec<&'static str> = raw.diagnostics.iter().map(|d| d.code()).collect();

    let options = Options { file_name: "fuzz.shader".into(), ..Options::default() };
    let compiled =
        compile_report(&text, harness::includes(), &options, Target::Gles300, &shaderlab::backends::Options::default());
    if !compiled.has_errors() {
        let ones: Vec<(String, String)> = macros.iter().map(|(n, _)| (n.clone(), "1".to_owned())).collect();
        for pass in &compiled.passes {
            let Some(sources) = &pass.sources else { continue };
            for (stage, glsl) in [("vertex", &sources.vertex), ("fragment", &sources.fragment)] {
                let expanded = expand_macros(glsl, &ones);
                harness::spans_in_bounds(&expanded.module, &expanded.diagnostics)?;
                if let Some(d) = expanded.diagnostics.iter().find(|d| d.severity == Severity::Error) {
                    return Err(format!(
                        "expanding the {stage} stage of pass '{}' with {ones:?} reports {} at {}..{}: {}",
                        pass.name,
                        d.code(),
                        d.span.start,
                        d.span.end,
                        d.message()
                    ));
                }
                codes.extend(expanded.diagnostics.iter().map(|d| d.code()));
            }
        }
    }
    codes.sort_unstable();
    codes.dedup();
    Ok(codes)
}

fn main() {
    harness::main("fuzz_expand", target)
}
