//! Properties of shaderlab on generated programs (`shaderlab_fuzz::program_strategy`), with fixed seeds so
//! that CI runs the same cases every time. Sizes keep the whole file well under a minute in a debug build.
//!
//! 1. A generated program has no diagnostic at all: preserving check, and variant checks with no macro, all
//!    macros, and a subset of its macros defined.
//! 4. Analysis is deterministic (same input, same diagnostics) and the IR survives a serde_json round trip.
//! 5. One catalogue mistake inserted into a generated program gives exactly that diagnostic, at the mutated
//!    place: a misspelled variable (UndeclaredIdentifier), a constructor missing an argument
//!    (ConstructorArgCount), a removed final `return` (MissingReturn).
//! 6. Mutants (truncation, bit flips, deleted and duplicated slices, inserted tokens) of generated programs and
//!    of the engine corpus never panic or hang, and every diagnostic range lies inside its file.
//!
//! `SHADERLAB_FUZZ_SCALE=20` multiplies the case counts, `SHADERLAB_FUZZ_SEED=n` changes the seeds and
//! `SHADERLAB_FUZZ_PRESET=default|es100` generates larger programs (the default is `GeneratorConfig::small`),
//! for deeper local runs.
//!
//! Compiler bugs the generator provoked (now fixed) are kept reproduced at the end of this file and in
//! `tests/regressions.rs`.

mod common;

use common::*;
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use shaderlab::ir::Module;
use shaderlab_fuzz::mistakes::{self, Mistake};
use shaderlab_fuzz::mutator::{self, Rng};
use shaderlab_fuzz::{program_strategy, GeneratedProgram, GeneratorConfig, SiteKind};
use std::path::PathBuf;
use std::time::Duration;

/// The generator configuration of these tests: everything on except the constructs of the known bugs
/// listed at the end of this file.
fn ci_config(passes: usize) -> GeneratorConfig {
    let mut config = match std::env::var("SHADERLAB_FUZZ_PRESET").as_deref() {
        Ok("default") => GeneratorConfig::default(),
        Ok("es100") => GeneratorConfig::es100(),
        _ => GeneratorConfig::small(),
    };
    config.passes = passes;
    config.max_globals = 4;
    // Bug 1: a call that passes (or leaves out) a conditional parameter's argument plainly, inside a region that
    // decides the parameter's condition, is rejected (NoMatchingOverload) in a preserving check.
    config.features.contextual_arguments = false;
    config
}

/// Programs of one or two passes.
fn programs() -> impl Strategy<Value = GeneratedProgram> {
    prop_oneof![3 => program_strategy(&ci_config(1)), 1 => program_strategy(&ci_config(2))]
}

/// `cases` times `$SHADERLAB_FUZZ_SCALE` (default 1) cases from a fixed seed (`$SHADERLAB_FUZZ_SEED` replaces it
/// for exploration).
fn proptest_config(cases: u32, seed: u64) -> ProptestConfig {
    let scale = std::env::var("SHADERLAB_FUZZ_SCALE").ok().and_then(|s| s.parse::<u32>().ok()).unwrap_or(1);
    let seed = std::env::var("SHADERLAB_FUZZ_SEED").ok().and_then(|s| s.parse::<u64>().ok()).map_or(seed, |s| s ^ seed);
    ProptestConfig {
        cases: cases.saturating_mul(scale.max(1)),
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        max_shrink_iters: 256,
        max_shrink_time: 30_000,
        ..ProptestConfig::default()
    }
}

/// The failure message of a check: what ran, what came out, and the program.
fn report(what: &str, program: &GeneratedProgram, diagnostics: &[String]) -> String {
    format!(
        "{what}: expected no diagnostic, got {}:\n  {}\nmacros: {:?}\n{}",
        diagnostics.len(),
        diagnostics.join("\n  "),
        program.macros,
        numbered(&program.source)
    )
}

proptest! {
    #![proptest_config(proptest_config(128, 0x5eed_0001))]

    /// Property 1: no diagnostic, in preserving mode and in variants.
    #[test]
    fn generated_programs_are_diagnostic_free(program in programs(), subset in any::<u64>()) {
        let a = run(&program.source, &preserving());
        prop_assert!(a.diagnostics.is_empty(), "{}", report("preserving check", &program, &describe(&a)));
        let some: Vec<String> =
            program.macros.iter().enumerate().filter(|(i, _)| subset >> i & 1 == 1).map(|(_, m)| m.clone()).collect();
        for defined in [Vec::new(), program.macros.clone(), some] {
            let a = run(&program.source, &variant(&defined));
            prop_assert!(
                a.diagnostics.is_empty(),
                "{}",
                report(&format!("variant check with {defined:?} defined"), &program, &describe(&a))
            );
        }
    }
}

proptest! {
    #![proptest_config(proptest_config(32, 0x5eed_0004))]

    /// Property 4: determinism and the IR's serde round trip.
    #[test]
    fn analysis_is_deterministic_and_the_ir_round_trips(program in programs()) {
        let first = run(&program.source, &preserving());
        let second = run(&program.source, &preserving());
        prop_assert_eq!(describe(&first), describe(&second));
        let json = serde_json::to_string(&first.module).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back: Module = serde_json::from_str(&json).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let again = serde_json::to_string(&back).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(json == again, "the IR's JSON changed in a round trip");
        prop_assert!(modules_equal(&first.module, &back), "the deserialized module differs from the original");
    }
}

/// `Module` equality after a round trip. `SourceFile` caches its line starts in a field serde skips and
/// `PartialEq` compares (bug 2 below), so the files are compared by what serde keeps.
fn modules_equal(a: &Module, b: &Module) -> bool {
    let files = |m: &Module| -> Vec<(String, String, Option<shaderlab::ir::Span>)> {
        m.sources.files.values().map(|f| (f.name.clone(), f.text.clone(), f.included_from)).collect()
    };
    if files(a) != files(b) {
        return false;
    }
    let mut a = a.clone();
    let mut b = b.clone();
    a.sources = Default::default();
    b.sources = Default::default();
    a == b
}

/// Property 5 on one program: every kind of mistake at up to two sites.
fn check_mistakes(program: &GeneratedProgram, pick: u64) -> Result<usize, TestCaseError> {
    let clean = run(&program.source, &preserving());
    prop_assert!(clean.diagnostics.is_empty(), "{}", report("the unmutated program", program, &describe(&clean)));
    let mut checked = 0;
    for kind in [Mistake::MisspelledName, Mistake::ConstructorArity, Mistake::RemovedReturn] {
        let sites: Vec<usize> = (0..program.sites.len()).filter(|&i| Mistake::of(&program.sites[i]) == kind).collect();
        if sites.is_empty() {
            continue;
        }
        for k in 0..2u64 {
            let site = sites[((pick.rotate_left(k as u32 * 17) ^ k) % sites.len() as u64) as usize];
            let m = mistakes::insert(program, site);
            let a = run(&m.source, &preserving());
            let got = describe(&a);
            let e = &m.expected;
            let at = |d: &shaderlab::Diagnostic| {
                a.module.sources.file(d.span.file).map(|f| f.line_col(d.span.start)) == Some((e.line, e.column))
            };
            let ok = a.diagnostics.len() == 1
                && a.diagnostics[0].code() == e.code
                && at(&a.diagnostics[0])
                && format!("{:?}", a.diagnostics[0].severity).eq_ignore_ascii_case(e.severity);
            prop_assert!(
                ok,
                "{}: expected exactly {} ({}) at {}:{}, got:\n  {}\n{}",
                m.description,
                e.code,
                e.severity,
                e.line,
                e.column,
                got.join("\n  "),
                numbered(&m.source)
            );
            checked += 1;
        }
    }
    Ok(checked)
}

proptest! {
    #![proptest_config(proptest_config(96, 0x5eed_0005))]

    /// Property 5: one inserted mistake, exactly its diagnostic at its place.
    #[test]
    fn an_inserted_mistake_gives_exactly_its_diagnostic(program in programs(), pick in any::<u64>()) {
        check_mistakes(&program, pick)?;
    }
}

/// Every kind of mistake has sites in generated programs (so property 5 is not vacuous).
#[test]
fn generated_programs_have_sites_of_every_kind() {
    let mut seen = std::collections::HashSet::new();
    for seed in 0..20 {
        let p = shaderlab_fuzz::program_from_seed(seed, &ci_config(1));
        for s in &p.sites {
            seen.insert(std::mem::discriminant(&s.kind));
        }
    }
    let all = [
        SiteKind::VariableRead { name: String::new() },
        SiteKind::ConstructorArgs { drop: 0..0 },
        SiteKind::FinalReturn { range: 0..0, function: String::new(), other_returns: false, close_brace: 0 },
    ];
    for kind in all {
        assert!(seen.contains(&std::mem::discriminant(&kind)), "no site of kind {kind:?} in 20 programs");
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Property 6: mutants never panic or hang, and diagnostics stay inside their files.
// ---------------------------------------------------------------------------------------------------------------

/// `$SHADERLAB_CORPUS` or `<CARGO_MANIFEST_DIR>/../../shared/corpus`.
fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SHADERLAB_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    dir.join("shaders").is_dir().then_some(dir)
}

fn corpus_inputs() -> (Vec<(String, String)>, shaderlab::MapResolver) {
    let Some(dir) = corpus_dir() else {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(!ci, "CI=true but the corpus is missing (set SHADERLAB_CORPUS or place it at ../shared/corpus)");
        eprintln!(
            "\n==================== SKIPPED: corpus not found ====================\n\
             property 6 runs on generated programs only; set SHADERLAB_CORPUS to add the engine corpus\n\
             ===================================================================\n"
        );
        return (Vec::new(), shaderlab::MapResolver::new());
    };
    let files = shaderlab_fuzz::harness::files_below(&dir.join("shaders"));
    let inputs = files
        .iter()
        .filter_map(|f| Some((f.file_name()?.to_string_lossy().into_owned(), std::fs::read_to_string(f).ok()?)))
        .collect();
    let includes = shaderlab_fuzz::harness::load_includes(&[dir.join("includes/dev2")]);
    (inputs, includes)
}

#[test]
fn mutants_never_panic_hang_or_leave_their_file() {
    let (mut inputs, includes) = corpus_inputs();
    for seed in 0..12 {
        let p = shaderlab_fuzz::program_from_seed(seed, &ci_config(1 + (seed % 2) as usize));
        inputs.push((format!("generated seed {seed}"), p.source));
    }
    let includes = std::sync::Arc::new(includes);
    let mut rng = Rng::new(0x5eed_0006);
    let mutants_per_input = if inputs.len() > 40 { 6 } else { 16 };
    let mut runs = 0;
    for (name, text) in &inputs {
        for i in 0..mutants_per_input {
            let mut bytes = text.as_bytes().to_vec();
            let other = inputs[rng.below(inputs.len())].1.as_bytes();
            let ops = mutator::mutate(&mut rng, &mut bytes, other);
            let mutant = String::from_utf8_lossy(&bytes).into_owned();
            let macros = shaderlab_fuzz::harness::tested_macros(&mutant);
            let includes = includes.clone();
            let input = mutant.clone();
            let outcome = watchdog(Duration::from_secs(20), move || -> Result<(), String> {
                for options in [preserving(), variant(&macros[..macros.len().min(2)])] {
                    let a = shaderlab::analyze(&input, includes.as_ref(), &options);
                    shaderlab_fuzz::harness::spans_in_bounds(&a.module, &a.diagnostics)?;
                }
                Ok(())
            });
            runs += 1;
            if let Ok(Err(e)) | Err(e) = outcome {
                let dir = std::env::temp_dir().join("shaderlab-fuzz-mutants");
                let _ = std::fs::create_dir_all(&dir);
                let path = dir.join(format!("{}-{i}.shader", name.replace(['/', ' '], "_")));
                let _ = std::fs::write(&path, &mutant);
                panic!("mutant {i} of '{name}' ({ops:?}): {e}\n  saved to {}", path.display());
            }
        }
    }
    assert!(runs > 0);
}

// ---------------------------------------------------------------------------------------------------------------
// Fixed compiler bugs, reproduced by the generator with every construct on.
// ---------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(proptest_config(40, 0x5eed_0101))]

    /// Bug 1 (NoMatchingOverload on calls whose arguments follow the code's conditions): the default generator
    /// configuration, every construct on.
    #[test]
    fn every_construct_is_diagnostic_free(program in program_strategy(&GeneratorConfig::default())) {
        let a = run(&program.source, &preserving());
        prop_assert!(a.diagnostics.is_empty(), "{}", report("preserving check", &program, &describe(&a)));
    }
}

/// Bug 2: `Module` does not equal itself after a serde round trip (`SourceFile::line_starts` is skipped by serde
/// but compared by the derived `PartialEq`).
#[test]
fn the_ir_round_trips_to_an_equal_module() {
    let p = shaderlab_fuzz::program_from_seed(1, &ci_config(1));
    let a = run(&p.source, &preserving());
    let json = serde_json::to_string(&a.module).expect("serialize");
    let back: Module = serde_json::from_str(&json).expect("deserialize");
    assert!(a.module == back, "the deserialized module differs from the original");
}
