//! Inputs the fuzzers and the generator found, kept as regression tests (`fuzz/regressions/*.shader`; each file
//! starts with a comment saying what went wrong).
//!
//! - Every file: analysis in preserving mode and in variants of its macros finishes without panic within the
//!   watchdog, with every diagnostic inside its file. Add a crashing or hanging input here as
//!   `fuzz/regressions/<what>.shader` and it is covered.
//! - Valid programs shaderlab wrongly rejects ([`FALSE_POSITIVES`]): must be diagnostic-free (the bugs they
//!   reproduced are fixed; the tests keep them fixed).

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn regressions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions")
}

fn read(name: &str) -> String {
    let path = regressions_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn regression_inputs_never_panic_or_hang() {
    let files = shaderlab_fuzz::harness::files_below(&regressions_dir());
    assert!(!files.is_empty(), "no regression inputs in {}", regressions_dir().display());
    for file in files.into_iter().filter(|f| f.extension().is_some_and(|e| e == "shader")) {
        let bytes = std::fs::read(&file).expect("read a regression input");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let macros = shaderlab_fuzz::harness::tested_macros(&text);
        let outcome = watchdog(Duration::from_secs(20), move || -> Result<(), String> {
            let mut runs = vec![preserving(), variant(&[]), variant(&macros)];
            runs.extend(macros.iter().map(|m| variant(std::slice::from_ref(m))));
            for options in runs {
                let a = run(&text, &options);
                shaderlab_fuzz::harness::spans_in_bounds(&a.module, &a.diagnostics)?;
            }
            Ok(())
        });
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(e)) | Err(e) => panic!("{}: {e}", file.display()),
        }
    }
}

/// Valid programs (in every variant) that shaderlab reports diagnostics on.
const FALSE_POSITIVES: &[&str] = &["conditional-parameter-calls.shader", "dead-region.shader"];

fn assert_diagnostic_free(name: &str) {
    let text = read(name);
    let macros = shaderlab_fuzz::harness::tested_macros(&text);
    let mut runs = vec![("preserving".to_owned(), preserving()), ("no macro".to_owned(), variant(&[]))];
    runs.extend(macros.iter().map(|m| (format!("{m} defined"), variant(std::slice::from_ref(m)))));
    for (what, options) in runs {
        let a = run(&text, &options);
        assert!(a.diagnostics.is_empty(), "{name}, {what}: {:#?}", describe(&a));
    }
}

#[test]
fn conditional_parameter_calls() {
    assert_diagnostic_free(FALSE_POSITIVES[0]);
}

#[test]
fn dead_region() {
    assert_diagnostic_free(FALSE_POSITIVES[1]);
}

/// The variant checks of the false positives already pass: only the preserving check is wrong.
#[test]
fn false_positives_are_clean_in_every_variant() {
    for name in FALSE_POSITIVES {
        let text = read(name);
        let macros = shaderlab_fuzz::harness::tested_macros(&text);
        for defined in [Vec::new(), macros.clone()] {
            let a = run(&text, &variant(&defined));
            assert!(a.diagnostics.is_empty(), "{name} with {defined:?}: {:#?}", describe(&a));
        }
    }
}

/// A function defined in both branches of a region keeps both definitions in the emitted GLSL.
#[cfg(feature = "compile")]
#[test]
fn both_branch_function_keeps_both_definitions() {
    let text = read("both-branch-function.shader");
    for target in [shaderlab::Target::Gles100, shaderlab::Target::Gles300] {
        let compiled = shaderlab::compile(&text, &shaderlab::MapResolver::new(), &preserving(), target)
            .unwrap_or_else(|d| panic!("refused: {d:?}"));
        for pass in &compiled.passes {
            let Some(s) = &pass.sources else { continue };
            assert_eq!(s.fragment.matches("vec4 fogged(").count(), 2, "{target:?} fragment:\n{}", s.fragment);
        }
    }
}

/// A `#define` continued over lines reaches the preserving output as one line that expands without error, in
/// every variant (its continuation's backslash used to stay, a stray character).
#[cfg(feature = "compile")]
#[test]
fn a_continued_define_expands_without_error() {
    let text = read("continued-define.shader");
    let compiled = shaderlab::compile(&text, &shaderlab::MapResolver::new(), &preserving(), shaderlab::Target::Gles300)
        .unwrap_or_else(|d| panic!("refused: {d:?}"));
    for pass in &compiled.passes {
        let Some(s) = &pass.sources else { continue };
        for glsl in [&s.vertex, &s.fragment] {
            for macros in [vec![], vec![("USE_SHADE".to_owned(), String::new())]] {
                let expanded = shaderlab::expand_macros(glsl, &macros);
                assert!(expanded.diagnostics.is_empty(), "{macros:?}: {:?}\n{glsl}", expanded.diagnostics);
            }
        }
    }
}

/// A character outside GLSL's character set inside a `#define` body is an error at that character, in preserving
/// mode and in every variant (it used to pass unreported and reach the emitted GLSL).
#[test]
fn invalid_character_in_a_define_body_is_reported() {
    let text = read("invalid-char-in-define.shader");
    let at = text.find('\u{a0}').expect("the fixture holds a no-break space") as u32;
    for (what, options) in
        [("preserving", preserving()), ("no macro", variant(&[])), ("USE_RED", variant(&["USE_RED".to_owned()]))]
    {
        let a = run(&text, &options);
        let errors: Vec<_> = a.diagnostics.iter().filter(|d| d.severity == shaderlab::ir::Severity::Error).collect();
        assert_eq!(errors.len(), 1, "{what}: {:#?}", describe(&a));
        assert_eq!(errors[0].code(), "UnexpectedToken", "{what}: {:#?}", describe(&a));
        assert_eq!(errors[0].span.start, at, "{what}: at the character: {:#?}", describe(&a));
    }
}

/// A macro whose value is not an integer expression makes a `#if` that tests it invalid in every variant that has
/// the definition: the preserving check reports it when that is every variant reaching the `#if` (it used to
/// report nothing, while expanding its output for a variant failed). Conditions invalid in some variants only
/// are left to the variant checks.
#[test]
fn non_integer_macro_value_in_a_condition_is_reported() {
    let text = read("non-integer-macro-in-condition.shader");
    let line_of = |needle: &str| text.lines().position(|l| l.contains(needle)).expect("the line is there") + 1;
    let invalid_lines = |options: &shaderlab::Options| -> Vec<usize> {
        let a = run(&text, options);
        assert!(a.diagnostics.iter().all(|d| d.code() == "InvalidMacroCondition"), "{:#?}", describe(&a));
        a.diagnostics
            .iter()
            .map(|d| a.module.sources.file(d.span.file).map_or(0, |f| f.line_col(d.span.start).0 as usize))
            .collect()
    };
    let everywhere = line_of("#if SCENE_SHADOW_TYPE == 2");
    assert_eq!(invalid_lines(&preserving()), vec![everywhere], "preserving");
    let with = |names: &[&str]| invalid_lines(&variant(&names.iter().map(|n| n.to_string()).collect::<Vec<_>>()));
    let (level, fog, elif) =
        (line_of("#if SHADOW_LEVEL"), line_of("#if defined(USE_FOG)"), line_of("#elif SCENE_SHADOW_TYPE"));
    assert_eq!(with(&[]), vec![everywhere, elif], "no macro");
    assert_eq!(with(&["USE_SHADOW"]), vec![everywhere, level, elif], "USE_SHADOW");
    assert_eq!(with(&["USE_FOG"]), vec![everywhere, fog], "USE_FOG");
}

/// Inputs on which the preserving check reported an error that no variant reports (the property `fuzz_variants`
/// tests): each error of the preserving check must be an error of some variant of the file's macros.
const PRESERVING_ERRORS_IN_SOME_VARIANT: &[&str] = &[
    "discard-vertex-call-context.shader",
    "entry-names-used-as-values.shader",
    "entry-name-as-value-under-macros.shader",
];

#[test]
fn preserving_errors_are_errors_of_some_variant() {
    use shaderlab::ir::Severity;
    let errors = |a: &shaderlab::Analysis| -> std::collections::BTreeSet<(&'static str, u32, u32)> {
        a.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.code(), d.span.start, d.span.end))
            .collect()
    };
    for name in PRESERVING_ERRORS_IN_SOME_VARIANT {
        let text = read(name);
        let macros = shaderlab_fuzz::harness::tested_macros(&text);
        assert!(macros.len() <= 8, "{name}: {} macros", macros.len());
        let wanted = errors(&run(&text, &preserving()));
        assert!(!wanted.is_empty(), "{name}: the preserving check reports no error (the input no longer tests this)");
        let mut seen = std::collections::BTreeSet::new();
        for mask in 0u32..(1 << macros.len()) {
            let defined: Vec<String> =
                macros.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, m)| m.clone()).collect();
            seen.extend(errors(&run(&text, &variant(&defined))));
        }
        let missing: Vec<_> = wanted.difference(&seen).collect();
        assert!(missing.is_empty(), "{name}: preserving errors no variant reports: {missing:?}");
    }
}
