//! `shaderlab check --all-variants`: the macros a source's conditionals test, every variant (or a covering subset
//! above `--max-variants`), each diagnostic once with the variants it occurs in.
//!
//! The fixture `tests/all_variants/three-macros.shader` varies A and B (tested for definition) and C (compared with
//! 1 and 2: undefined, 1, 2, 3), 16 variants. Its include guard, the flag it derives with `#define` and the driver's
//! `GL_` name are not varied. Its diagnostics: a stray `;` in every variant, an undeclared name where A is defined
//! and B is not, a shift out of range where C = 2, a division by zero where A or B is defined.
//! The corpus test runs PBR.gs (skipped loudly without the corpus, failing under `CI=true`).

mod common;

use common::*;
use serde_json::{json, Value};
use shaderlab::all_variants::{check_all_variants, Occurrence, Strategy};
use shaderlab::{MapResolver, Options};

fn fixture() -> String {
    manifest_dir().join("tests/all_variants/three-macros.shader").display().to_string()
}

fn fixture_includes() -> String {
    manifest_dir().join("tests/all_variants/includes").display().to_string()
}

fn run_json(extra: &[&str]) -> (std::process::Output, Value) {
    let (file, includes) = (fixture(), fixture_includes());
    let mut args = vec!["check", "--all-variants", &file, "-I", &includes, "--format", "json"];
    args.extend_from_slice(extra);
    let output = shaderlab(&args);
    let v = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", show(&output)));
    (output, v)
}

fn by_code<'a>(v: &'a Value, code: &str) -> &'a Value {
    let all = v["diagnostics"].as_array().unwrap_or_else(|| panic!("no diagnostics: {}", pretty(v)));
    let found: Vec<&Value> = all.iter().filter(|d| d["code"] == code).collect();
    assert_eq!(found.len(), 1, "{code} must be reported exactly once: {}", pretty(v));
    found[0]
}

fn sets(d: &Value) -> Vec<Vec<String>> {
    serde_json::from_value(d["variants"]["sets"].clone()).unwrap_or_else(|e| panic!("sets ({e}): {}", pretty(d)))
}

#[test]
fn every_variant_each_diagnostic_once_with_its_variants() {
    let (output, v) = run_json(&[]);
    assert_eq!(output.status.code(), Some(1), "an error in some variant exits 1\n{}", show(&output));
    let summary = &v["all_variants"];
    assert_eq!(summary["strategy"], "exhaustive", "{}", pretty(summary));
    assert_eq!((summary["variants_checked"].as_u64(), summary["variants_total"].as_u64()), (Some(16), Some(16)));
    assert_eq!(
        summary["macros"],
        json!([
            { "name": "A", "values": [null, ""] },
            { "name": "B", "values": [null, ""] },
            { "name": "C", "values": [null, "1", "2", "3"] },
        ]),
        "the include guard, the derived flag and GL_ names are not varied"
    );
    let codes: Vec<&str> =
        v["diagnostics"].as_array().into_iter().flatten().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(
        codes,
        ["EmptyStatementBody", "UndeclaredIdentifier", "ShiftOutOfRange", "ConstDivideByZero"],
        "each diagnostic once, in source order: {}",
        pretty(&v)
    );

    let everywhere = by_code(&v, "EmptyStatementBody");
    assert_eq!(everywhere["variants"]["every"], true, "{}", pretty(everywhere));
    assert_eq!(everywhere["variants"]["count"], 16);
    assert_eq!(everywhere["variants"]["note"], "in every variant (all 16)");

    let undeclared = by_code(&v, "UndeclaredIdentifier");
    assert_eq!(undeclared["severity"], "error");
    assert_eq!(undeclared["range"]["start"]["line"], 28, "{}", pretty(undeclared));
    assert_eq!(undeclared["variants"]["every"], false);
    assert_eq!(undeclared["variants"]["count"], 4);
    assert_eq!(undeclared["variants"]["where"], json!(["defined(A)", "!defined(B)"]), "{}", pretty(undeclared));
    assert_eq!(sets(undeclared), [vec!["A"], vec!["A", "C=1"], vec!["A", "C=2"], vec!["A", "C=3"]]);
    assert_eq!(undeclared["variants"]["note"], "in 4 of 16 variants: those where A is defined and B is not defined");

    let shift = by_code(&v, "ShiftOutOfRange");
    assert_eq!(shift["variants"]["where"], json!(["C==2"]), "{}", pretty(shift));
    assert_eq!(sets(shift), [vec!["C=2"], vec!["B", "C=2"], vec!["A", "C=2"], vec!["A", "B", "C=2"]]);

    // `defined(A) || defined(B)` is no conjunction: the sets are listed.
    let division = by_code(&v, "ConstDivideByZero");
    assert_eq!(division["variants"]["where"], Value::Null, "{}", pretty(division));
    assert_eq!(division["variants"]["count"], 12);
    let division_sets = sets(division);
    assert_eq!(division_sets.len(), 12);
    assert!(
        division_sets.iter().all(|s| s.iter().any(|m| m == "A" || m == "B")),
        "only variants defining A or B: {division_sets:?}"
    );
    assert_eq!(division["variants"]["note"], "in 12 of 16 variants: {B}, {B, C=1}, {B, C=2} and 9 more");
}

#[test]
fn human_output_renders_each_diagnostic_once_with_a_variants_note() {
    let (file, includes) = (fixture(), fixture_includes());
    let output = shaderlab(&["check", "--all-variants", &file, "-I", &includes]);
    assert_eq!(output.status.code(), Some(1), "{}", show(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    for header in [
        "warning[EmptyStatementBody]",
        "error[UndeclaredIdentifier]",
        "warning[ShiftOutOfRange]",
        "warning[ConstDivideByZero]",
    ] {
        assert_eq!(text.matches(header).count(), 1, "{header} once\n{text}");
    }
    for note in [
        "= in every variant (all 16)",
        "= in 4 of 16 variants: those where A is defined and B is not defined",
        "= in 4 of 16 variants: those where C = 2",
        "and 9 more",
        "variants: checked 16 of 16 (every combination)",
        "macros (3): A, B, C (undefined|1|2|3)",
        "1 error, 3 warnings",
    ] {
        assert!(text.contains(note), "missing {note:?}\n{text}");
    }
}

/// Above the cap: a pairwise covering subset, stated as such, still finds every diagnostic; neighbouring variants
/// explain the ones that are not everywhere.
#[test]
fn above_the_cap_a_covering_subset_is_checked_and_stated() {
    let (output, v) = run_json(&["--max-variants", "4"]);
    assert_eq!(output.status.code(), Some(1), "{}", show(&output));
    let summary = &v["all_variants"];
    assert_eq!(summary["strategy"], "pairwise", "{}", pretty(summary));
    assert_eq!(summary["variants_total"], 16);
    let chosen = summary["variants_chosen"].as_u64().unwrap_or(0);
    assert!((1..16).contains(&chosen), "a subset: {}", pretty(summary));
    assert_eq!(
        summary["blocks_taken"],
        summary["blocks_total"],
        "every conditional block is taken: {}",
        pretty(summary)
    );
    let codes: Vec<&str> =
        v["diagnostics"].as_array().into_iter().flatten().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, ["EmptyStatementBody", "UndeclaredIdentifier", "ShiftOutOfRange", "ConstDivideByZero"]);
    let undeclared = by_code(&v, "UndeclaredIdentifier");
    assert_eq!(
        undeclared["variants"]["needs"]["conditions"],
        json!(["defined(A)", "!defined(B)"]),
        "{}",
        pretty(undeclared)
    );
    let shift = by_code(&v, "ShiftOutOfRange");
    assert_eq!(shift["variants"]["needs"]["conditions"], json!(["C==2"]), "{}", pretty(shift));

    let (file, includes) = (fixture(), fixture_includes());
    let human = shaderlab(&["check", "--all-variants", "--max-variants", "4", &file, "-I", &includes]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(text.contains("of 16 (pairwise)"), "the strategy is stated\n{text}");
    assert!(text.contains("chosen: every pair of values of two macros occurs in one"), "{text}");
    assert!(text.contains("it stays exactly while A is defined and B is not defined"), "{text}");
}

#[test]
fn all_variants_conflicts_with_defines_and_max_variants_needs_it() {
    let (file, includes) = (fixture(), fixture_includes());
    let output = shaderlab(&["check", "--all-variants", "-D", "A", &file, "-I", &includes]);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot be used with"), "{}", show(&output));
    let output = shaderlab(&["check", "--max-variants", "4", &file, "-I", &includes]);
    assert_eq!(output.status.code(), Some(2), "{}", show(&output));
}

#[test]
fn warning_switches_apply_to_every_variant() {
    let (output, v) = run_json(&["-W", "no-EmptyStatementBody", "-W", "error=ShiftOutOfRange"]);
    assert_eq!(output.status.code(), Some(1), "{}", show(&output));
    let codes: Vec<&str> =
        v["diagnostics"].as_array().into_iter().flatten().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, ["UndeclaredIdentifier", "ShiftOutOfRange", "ConstDivideByZero"], "{}", pretty(&v));
    assert_eq!(by_code(&v, "ShiftOutOfRange")["severity"], "error");
}

/// Values of compared macros, ordered comparisons, run-time values in code, and a clean file.
#[test]
fn library_values_and_run_time_macros() {
    let source = r#"Shader "Values" { SubShader "S" { Pass "P" {
  mat4 renderer_MVPMat;
  #if LEVEL > 2
    float weights[WEIGHT_COUNT];
  #endif
  #if defined(SKIN) && MODE == -1
    const float skin = 1.0;
  #endif
  void vert() { gl_Position = renderer_MVPMat * vec4(1.0); }
  void frag() { gl_FragColor = vec4(1.0); }
  VertexShader = vert;
  FragmentShader = frag;
} } }"#;
    let options = Options { file_name: "values.shader".into(), ..Options::default() };
    let report = check_all_variants(source, &MapResolver::new(), &options, 1 << 12);
    let axes: Vec<(&str, Vec<Option<&str>>)> =
        report.axes.iter().map(|a| (a.name.as_str(), a.values.iter().map(|v| v.as_deref()).collect())).collect();
    assert_eq!(
        axes,
        [
            ("LEVEL", vec![None, Some("1"), Some("2"), Some("3"), Some("4")]),
            ("MODE", vec![None, Some("-1"), Some("0")]),
            ("SKIN", vec![None, Some("")]),
        ]
    );
    assert_eq!(report.fixed, [("WEIGHT_COUNT".to_owned(), "1".to_owned())], "a run-time value of the code");
    assert_eq!(report.strategy, Strategy::Exhaustive);
    assert_eq!(report.variants.len(), 30);
    assert!(report.diagnostics.is_empty(), "{}", report.summary());
    assert!(!report.has_errors());

    // The same with a cap of 8: pairwise, deterministic.
    let a = check_all_variants(source, &MapResolver::new(), &options, 8);
    let b = check_all_variants(source, &MapResolver::new(), &options, 8);
    assert_eq!(a.strategy, Strategy::Pairwise);
    assert_eq!(a.variants, b.variants);
    assert!(a.variants.len() < 30);
}

/// The engine's PBR shader: 54 macros, far above the cap. The deterministic covering subset finds the fog mode
/// nobody handles, the shadow cascade count used without a definition, and the blend-shape code that writes
/// `tangent` where the parameter is declared only with `RENDERER_HAS_NORMAL`.
#[test]
fn corpus_pbr_all_variants() {
    let Some(corpus) = corpus_dir("corpus_pbr_all_variants") else { return };
    let file = corpus.join("shaders/dev_2.0__PBR.gs").display().to_string();
    let includes = corpus.join("includes/dev2").display().to_string();
    let output = shaderlab(&["check", "--all-variants", &file, "-I", &includes, "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", show(&output));
    let v: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("JSON ({e}):\n{}", show(&output)));
    let summary = &v["all_variants"];
    assert_eq!(summary["strategy"], "pairwise", "{}", pretty(summary));
    assert_eq!(summary["macros"].as_array().map(Vec::len), Some(54), "{}", pretty(summary));
    assert_eq!(summary["blocks_taken"], summary["blocks_total"], "{}", pretty(summary));
    let names: Vec<&str> =
        summary["macros"].as_array().into_iter().flatten().filter_map(|m| m["name"].as_str()).collect();
    for derived in ["NEED_TANGENT", "NEED_CALCULATE_SHADOWS", "FOG_INCLUDED", "GL_ES", "FUNCTION_CLEAR_COAT_LOBE"] {
        assert!(!names.contains(&derived), "{derived} is not varied: {names:?}");
    }
    assert_eq!(
        summary["fixed"],
        json!([
            { "name": "RENDERER_BLENDSHAPE_COUNT", "value": "1" },
            { "name": "RENDERER_JOINTS_NUM", "value": "1" },
        ])
    );

    let found: Vec<(String, String, u64, String)> = v["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_owned(),
                d["file"].as_str().unwrap_or_default().to_owned(),
                d["range"]["start"]["line"].as_u64().unwrap_or(0),
                d["message"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let expected: Vec<(String, String, u64, String)> = [
        ("Fog.glsl", 23, "fogIntensity"),
        ("BlendShape.glsl", 53, "tangent"),
        ("BlendShape.glsl", 69, "tangent"),
        ("BlendShape.glsl", 70, "tangent"),
        ("BlendShape.glsl", 85, "tangent"),
        ("BlendShape.glsl", 86, "tangent"),
        ("BlendShape.glsl", 87, "tangent"),
        ("BlendShape.glsl", 88, "tangent"),
        ("Shadow.glsl", 11, "SCENE_SHADOW_CASCADED_COUNT"),
    ]
    .iter()
    .map(|(f, l, name)| {
        ("UndeclaredIdentifier".to_owned(), f.to_string(), *l, format!("'{name}' : undeclared identifier"))
    })
    .collect();
    assert_eq!(found, expected, "{}", pretty(&v));

    let needs = |line: u64| -> Value {
        let d = v["diagnostics"].as_array().into_iter().flatten().find(|d| d["range"]["start"]["line"] == line);
        d.map(|d| d["variants"]["needs"]["conditions"].clone()).unwrap_or(Value::Null)
    };
    assert_eq!(needs(23), json!(["SCENE_FOG_MODE==4"]), "the one value above the compared ones");
    assert_eq!(
        needs(11),
        json!([
            "defined(RENDERER_IS_RECEIVE_SHADOWS)",
            "!defined(SCENE_SHADOW_CASCADED_COUNT)",
            "defined(SCENE_SHADOW_TYPE)"
        ])
    );
    assert_eq!(
        needs(85),
        json!([
            "!defined(RENDERER_BLENDSHAPE_HAS_NORMAL)",
            "defined(RENDERER_BLENDSHAPE_HAS_TANGENT)",
            "!defined(RENDERER_BLENDSHAPE_USE_TEXTURE)",
            "defined(RENDERER_HAS_BLENDSHAPE)",
            "!defined(RENDERER_HAS_NORMAL)",
            "defined(RENDERER_HAS_TANGENT)",
        ])
    );
}

/// The library's occurrence description agrees with the CLI's JSON (exhaustive fixture, one diagnostic).
#[test]
fn library_occurrence_of_the_fixture() {
    let path = manifest_dir().join("tests/all_variants/three-macros.shader");
    let source = read_text(&path);
    let includes = shaderlab::fs_includes::preload(&[manifest_dir().join("tests/all_variants/includes")])
        .unwrap_or_else(|e| panic!("cannot read the fixture's includes: {e}"));
    let options = Options { file_name: path.display().to_string(), ..Options::default() };
    let report = check_all_variants(&source, &includes, &options, 1 << 12);
    assert!(report.has_errors());
    let undeclared = report
        .diagnostics
        .iter()
        .find(|d| d.diagnostic.code() == "UndeclaredIdentifier")
        .unwrap_or_else(|| panic!("no UndeclaredIdentifier:\n{}", report.summary()));
    let Occurrence::Where(literals) = report.occurrence(undeclared) else {
        panic!("a conjunction describes A && !B: {:?}", report.occurrence(undeclared));
    };
    let named: Vec<(&str, u64)> = literals.iter().map(|l| (report.axes[l.axis].name.as_str(), l.values)).collect();
    assert_eq!(named, [("A", 0b10), ("B", 0b01)]);
    let defines: Vec<Vec<String>> = undeclared.variants.iter().map(|&i| report.variant_defines(i)).collect();
    assert_eq!(defines, [vec!["A"], vec!["A", "C=1"], vec!["A", "C=2"], vec!["A", "C=3"]]);
}

/// Hundreds of macros: above `MAX_PAIRWISE_AXES` every value (not every pair) is covered; the blocks' own variants
/// are merged where they agree; neighbours still pin the one macro a diagnostic needs.
#[test]
fn many_macros_each_value() {
    let count = shaderlab::all_variants::MAX_PAIRWISE_AXES + 20;
    let mut body = String::new();
    for i in 0..count {
        let value = if i == 150 { "missingName".to_owned() } else { format!("{i}.0") };
        body.push_str(&format!("    #ifdef M_{i:03}\n      x += {value};\n    #endif\n"));
    }
    let source = format!(
        "Shader \"Many\" {{ SubShader \"S\" {{ Pass \"P\" {{\n  mat4 renderer_MVPMat;\n  void vert() {{ gl_Position = \
         renderer_MVPMat * vec4(1.0); }}\n  void frag() {{\n    float x = 0.0;\n{body}    gl_FragColor = vec4(x);\n  \
         }}\n  VertexShader = vert;\n  FragmentShader = frag;\n}} }} }}"
    );
    let options = Options { file_name: "many.shader".into(), ..Options::default() };
    let report = check_all_variants(&source, &MapResolver::new(), &options, 1 << 12);
    assert_eq!(report.axes.len(), count);
    assert_eq!(report.strategy, Strategy::EachValue);
    assert_eq!(report.blocks, Some((count, count)), "{}", report.summary());
    assert!(report.chosen < 8, "merged block variants: {}", report.summary());
    let [d] = report.diagnostics.as_slice() else {
        panic!("one diagnostic expected:\n{}", report.summary());
    };
    assert_eq!(d.diagnostic.code(), "UndeclaredIdentifier");
    let Occurrence::Needs { literals, .. } = report.occurrence(d) else {
        panic!("explained by neighbours: {:?}", report.occurrence(d));
    };
    let named: Vec<&str> = literals.iter().map(|l| report.axes[l.axis].name.as_str()).collect();
    assert_eq!(named, ["M_150"]);
    assert!(report.variants_note(d).contains("it stays exactly while M_150 is defined"), "{}", report.variants_note(d));
}
