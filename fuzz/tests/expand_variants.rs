//! Property 3 of issue 6 on generated programs: run-time expansion of the preserving output is the variant
//! compile. For a generated program with macros M and every subset S of M (at most 8: the presets test at most 3
//! macros), for both targets (`GeneratorConfig::es100()` programs for GLSL ES 1.00, default programs for 3.00):
//! each stage of the preserving compile, expanded with S defined (`shaderlab::expand_macros`), declares the same
//! varyings and outputs (names, types, qualifiers) as the same stage of the variant compile with S defined, and
//! every attribute and uniform the variant uses (the comparison `tests/expand.rs` makes on the corpus:
//! `same_interface` in `tests/common/glsl.rs`); and glslangValidator accepts both. Without glslangValidator the
//! glslang part is skipped with a loud banner, except under `CI=true`, where that is a failure.
//!
//! Why attributes are compared like uniforms (what the variant reads must be declared, more may be): an
//! attributes-struct member read only under `#ifdef M` is declared unconditionally by the preserving compile
//! (`codegen.md` §3 and §8: only declarations the source guarded are kept inside a conditional), so in a variant
//! without M it is declared and unread, an inactive attribute; the variant compile leaves it out. Seeds 0 and 3
//! (gles300) and 2 (gles100) have such members.
//!
//! A failure names the seed: `shaderlab generate --seed N [--preset es100] --no-contextual-arguments` prints
//! the program.
//!
//! `cargo test -p shaderlab-fuzz --test expand_variants`

#![cfg(feature = "compile")]

mod common;

use common::glsl::{glslang_accepts, glslang_available, same_interface, stage_ext, Scratch};
use shaderlab::backends::Stage;
use shaderlab::{compile, expand_macros, MapResolver, Options, Target};
use shaderlab_fuzz::{program_from_seed, GeneratorConfig};
use std::collections::HashSet;

/// Programs per target (times `$SHADERLAB_FUZZ_SCALE`, from seed `$SHADERLAB_FUZZ_SEED`, for deeper local runs).
const SEEDS: u64 = 12;

fn seeds() -> std::ops::Range<u64> {
    let env = |name: &str| std::env::var(name).ok().and_then(|s| s.parse::<u64>().ok());
    let first = env("SHADERLAB_FUZZ_SEED").unwrap_or(0);
    first..first.saturating_add(SEEDS * env("SHADERLAB_FUZZ_SCALE").unwrap_or(1).max(1))
}

/// Every subset of `macros`, as `-D` lists (the first is empty, the last all of them).
fn subsets(macros: &[String]) -> Vec<Vec<(String, String)>> {
    assert!(macros.len() <= 3, "the presets test at most 3 macros: {macros:?}");
    (0..1u32 << macros.len())
        .map(|mask| {
            let chosen = macros.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0);
            chosen.map(|(_, m)| (m.clone(), String::new())).collect()
        })
        .collect()
}

#[test]
fn expanded_preserving_output_is_the_variant_compile() {
    let glslang = glslang_available("expanded_preserving_output_is_the_variant_compile");
    let scratch = Scratch::new("fuzz-expand-variants");
    let includes = MapResolver::new();
    let mut validated: HashSet<String> = HashSet::new();
    let (mut stages, mut failures) = (0, Vec::new());
    for (target, mut config, preset) in [
        (Target::Gles100, GeneratorConfig::es100(), "--preset es100"),
        (Target::Gles300, GeneratorConfig::default(), "--preset default"),
    ] {
        // The construct of a known compiler bug (see `tests/properties.rs`, bug 1).
        config.features.contextual_arguments = false;
        for seed in seeds() {
            let program = program_from_seed(seed, &config);
            let case = format!("{} seed {seed} ({preset})", target.name());
            let preserving = match compile(&program.source, &includes, &Options::default(), target) {
                Ok(c) => c,
                Err(d) => {
                    failures.push(format!("{case}: preserving compile refused: {:?}", codes(&d)));
                    continue;
                }
            };
            for defined in subsets(&program.macros) {
                let names: Vec<&str> = defined.iter().map(|(n, _)| n.as_str()).collect();
                let options = Options { defines: Some(defined.clone()), ..Options::default() };
                let variant = match compile(&program.source, &includes, &options, target) {
                    Ok(c) => c,
                    Err(d) => {
                        failures.push(format!("{case} -D {names:?}: variant compile refused: {:?}", codes(&d)));
                        continue;
                    }
                };
                for (p, v) in preserving.passes.iter().zip(&variant.passes) {
                    let (Some(ps), Some(vs)) = (&p.sources, &v.sources) else { continue };
                    for (stage, ours, theirs) in
                        [(Stage::Vertex, &ps.vertex, &vs.vertex), (Stage::Fragment, &ps.fragment, &vs.fragment)]
                    {
                        stages += 1;
                        let what = format!("{case} -D {names:?} pass {} {}", p.name, stage_ext(stage));
                        let expanded = expand_macros(ours, &defined);
                        if !expanded.diagnostics.is_empty() {
                            let codes: Vec<&str> = expanded.diagnostics.iter().map(|d| d.code()).collect();
                            failures.push(format!("{what}: expansion diagnostics {codes:?}"));
                            continue;
                        }
                        if let Err(why) = same_interface(&expanded.text, theirs, stage) {
                            failures.push(format!("{what}: {why}"));
                        }
                        if !glslang {
                            continue;
                        }
                        for (kind, text) in [("expanded preserving output", &expanded.text), ("variant output", theirs)]
                        {
                            // Expansions of different subsets often give the same text: validate it once.
                            if !validated.insert(format!("{}{}{text}", target.name(), stage_ext(stage))) {
                                continue;
                            }
                            let tag = format!("{}-{}", validated.len(), stage_ext(stage));
                            if let Err(log) = glslang_accepts(text, target, stage, scratch.path(), &tag) {
                                failures.push(format!("{what}: glslang rejects the {kind}:\n{log}"));
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!("expand_variants: {stages} stages compared, {} distinct texts validated", validated.len());
    assert!(stages >= 4 * SEEDS as usize * 2, "too few stages compared: {stages}");
    assert!(failures.is_empty(), "{} failure(s):\n\n{}", failures.len(), failures.join("\n\n"));
}

fn codes(diagnostics: &[shaderlab::Diagnostic]) -> Vec<&'static str> {
    diagnostics.iter().map(|d| d.code()).collect()
}
