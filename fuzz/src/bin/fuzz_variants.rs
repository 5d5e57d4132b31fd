//! Fuzz target: the preserving check against the variant checks. The language's rule (`diagnostics.md`,
//! "Conditionals"): a preserving check reports a problem only when it holds in every variant compatible with
//! the code's conditions. So an error the preserving check reports must be reported, at the same place, by at
//! least one variant check. This target enumerates every subset of the macros an input tests (inputs testing
//! at most 4 macros, with only `#ifdef`/`#ifndef`/`#else` conditionals, no `#define`/`#undef` and no `#include`) and reports
//! a preserving-only error as a violated invariant. Inputs with a syntax or preprocessing diagnostic (category S)
//! are left out: error recovery legitimately differs between the modes.
//!
//! `cargo run --profile fuzz -p shaderlab-fuzz --bin fuzz_variants -- --seconds 600 --seed 1`

use shaderlab::ir::Severity;
use shaderlab::validator::catalogue;
use shaderlab::{analyze, Analysis, Options};
use shaderlab_fuzz::harness::{self, Outcome};
use std::collections::BTreeSet;

/// `(code, file name, start, end)` of each error.
fn errors(a: &Analysis) -> BTreeSet<(&'static str, String, u32, u32)> {
    a.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| {
            let file = a.module.sources.file(d.span.file).map(|f| f.name.clone()).unwrap_or_default();
            (d.code(), file, d.span.start, d.span.end)
        })
        .collect()
}

fn is_syntax(code: &str) -> bool {
    catalogue::CODES.iter().any(|(c, category, _)| *c == code && *category == catalogue::Category::Syntax)
}

fn oracle_applies(text: &str, macros: &[String]) -> bool {
    let directives = text.lines().map(str::trim_start).filter(|l| l.starts_with('#'));
    macros.len() <= 4
        && directives.clone().all(|l| {
            let word = l[1..].trim_start().split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
            // No `#include`: the chunks test macros of their own (`#ifdef RENDERER_USE_JOINT_TEXTURE` inside
            // Skin.glsl), which this enumeration of the input's own macros would not cover.
            matches!(word, "ifdef" | "ifndef" | "else" | "endif")
        })
}

fn target(data: &[u8]) -> Outcome {
    let text = String::from_utf8_lossy(data);
    let includes = harness::includes();
    let options = |defines| Options { file_name: "fuzz.shader".into(), defines, ..Options::default() };
    let preserving = analyze(&text, includes, &options(None));
    harness::spans_in_bounds(&preserving.module, &preserving.diagnostics)?;
    let mut codes: Vec<&'static str> = preserving.diagnostics.iter().map(|d| d.code()).collect();
    codes.sort_unstable();
    codes.dedup();
    let macros = harness::tested_macros(&text);
    let wanted = errors(&preserving);
    let syntax = preserving.diagnostics.iter().any(|d| is_syntax(d.code()));
    if wanted.is_empty() || syntax || !oracle_applies(&text, &macros) {
        return Ok(codes);
    }
    let mut seen = BTreeSet::new();
    for mask in 0u32..(1 << macros.len()) {
        let defines =
            macros.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, m)| (m.clone(), String::new()));
        let a = analyze(&text, includes, &options(Some(defines.collect())));
        if a.diagnostics.iter().any(|d| is_syntax(d.code())) {
            return Ok(codes);
        }
        seen.extend(errors(&a));
        if wanted.is_subset(&seen) {
            return Ok(codes);
        }
    }
    let only: Vec<String> =
        wanted.difference(&seen).map(|(code, file, start, end)| format!("{code} at {file}:{start}..{end}")).collect();
    Err(format!("errors of the preserving check that no variant of {macros:?} reports: {}", only.join(", ")))
}

fn main() {
    harness::main("fuzz_variants", target)
}
