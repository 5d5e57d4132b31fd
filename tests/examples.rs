//! The repository's own example shaders (`examples/*.shader`, chunks under `examples/includes/`): they need no
//! corpus, so these tests always run.

mod common;

use common::*;
use serde_json::json;
use shaderlab::ir::{Guarded, Module};
use shaderlab::Analysis;
use std::path::PathBuf;

fn example_files() -> Vec<PathBuf> {
    list_files(&examples_dir(), |n| n.ends_with(".shader"))
}

fn include_roots() -> Vec<PathBuf> {
    vec![examples_dir().join("includes")]
}

fn example(name: &str, defines: Option<Macros>) -> Analysis {
    let path = examples_dir().join(name);
    let analysis = analyze_file(&path, &include_roots(), defines.clone())
        .unwrap_or_else(|panic| panic!("{name} [{}]: the compiler panicked: {panic}", describe_macros(&defines)));
    assert!(
        analysis.diagnostics.is_empty(),
        "{name} [{}] must be clean, got {:?}\n{}",
        describe_macros(&defines),
        codes(&analysis),
        render(&analysis)
    );
    analysis
}

/// Preserving mode plus a few variants, covering both branches of every example's conditionals.
fn modes() -> Vec<Option<Macros>> {
    vec![
        None,
        Some(platform_macros()),
        Some(macros(&[
            "GRAPHICS_API_WEBGL1",
            "MATERIAL_HAS_BASETEXTURE",
            "MATERIAL_IS_ALPHA_CUTOFF",
            "USE_SPECULAR",
            "LIGHT_COUNT=2",
            "SCENE_FOG_MODE=2",
        ])),
        Some(macros(&[
            "GRAPHICS_API_WEBGL2",
            "HAS_TEX_LOD",
            "ENGINE_IS_COLORSPACE_GAMMA",
            "USE_SPECULAR",
            "LIGHT_COUNT=1",
            "SCENE_FOG_MODE=1",
        ])),
    ]
}

#[test]
fn every_example_is_clean_in_every_mode() {
    let files = example_files();
    assert!(
        files.len() >= 4,
        "expected at least 4 example shaders in {}, found {}",
        examples_dir().display(),
        files.len()
    );
    let mut failures = Vec::new();
    let modes = modes();
    for path in &files {
        let name = file_name(path);
        for defines in &modes {
            let mode = describe_macros(defines);
            match analyze_file(path, &include_roots(), defines.clone()) {
                Err(panic) => failures.push(format!("{name} [{mode}]: the compiler panicked: {panic}")),
                Ok(a) if !a.diagnostics.is_empty() => failures.push(format!(
                    "{name} [{mode}]: expected no diagnostic, got {:?}\n{}",
                    codes(&a),
                    render(&a)
                )),
                Ok(a) if a.module.shader.is_none() || a.module.passes.is_empty() => {
                    failures.push(format!("{name} [{mode}]: no shader or no pass was read"))
                }
                Ok(_) => {}
            }
        }
        eprintln!("  {name}: checked in {} modes", modes.len());
    }
    eprintln!("examples: {} shaders x {} modes", files.len(), modes.len());
    fail_if_any("examples", &failures);
}

/// The structure of `multi-pass-outline.shader`, written by hand from the source and language.md §2: states merge
/// shader -> subshader -> pass, the innermost and latest assignment winning per property; a UsePass gets the shader
/// and subshader states; numeric keys are the engine's RenderStateElementKey values.
#[test]
fn multi_pass_example_structure() {
    let analysis = example("multi-pass-outline.shader", None);
    let actual = shaderlab::structure_json::shader_json(&analysis.module);
    // Shader level: DepthState Enabled (10), WriteEnabled (11, variable), CompareFunction LessEqual (12 = 3).
    // SubShader level, BlendState transparentBlend: Enabled (0), ColorBlendOperation Add (1 = 0),
    // SourceColorBlendFactor (3, variable), DestinationColorBlendFactor (5, variable),
    // SourceAlphaBlendFactor One (4 = 1), DestinationAlphaBlendFactor OneMinusSourceAlpha (6 = 7).
    let expected = json!({
        "name": "Examples/MultiPassOutline",
        "subShaders": [{
            "name": "Default",
            "tags": { "replacementTag": "Transparent" },
            "passes": [
                {
                    "name": "pbr/Default/ShadowCaster",
                    "isUsePass": true,
                    "tags": {},
                    "renderStates": {
                        "constantMap": { "0": true, "1": 0, "4": 1, "6": 7, "10": true, "12": 3 },
                        "variableMap": { "3": "sourceBlend", "5": "destinationBlend", "11": "depthWriteEnabled" }
                    }
                },
                {
                    "name": "Outline",
                    "isUsePass": false,
                    "tags": { "pipelineStage": "Forward" },
                    "renderStates": {
                        // Blending disabled by the pass (0), the other blend properties inherited; CullMode Front
                        // (25 = 1), DepthBias (26), SlopeScaledDepthBias (27), RenderQueueType Opaque (28 = 0).
                        "constantMap": {
                            "0": false, "1": 0, "4": 1, "6": 7, "10": true, "12": 3,
                            "25": 1, "26": 1, "27": 0.5, "28": 0
                        },
                        "variableMap": { "3": "sourceBlend", "5": "destinationBlend", "11": "depthWriteEnabled" }
                    },
                    "vertexEntry": "vert",
                    "fragmentEntry": "frag"
                },
                {
                    "name": "Main",
                    "isUsePass": false,
                    "tags": {},
                    "renderStates": {
                        // StencilState stencilWrite: Enabled (13), ReferenceValue (14), CompareFunctionFront Always
                        // (17 = 7), PassOperationFront Replace (19 = 2); BlendColor (8) with a defaulting to 1.
                        "constantMap": {
                            "0": true, "1": 0, "4": 1, "6": 7, "10": true, "12": 3,
                            "8": { "r": 1, "g": 0.5, "b": 0.25, "a": 1 },
                            "13": true, "14": 1, "17": 7, "19": 2
                        },
                        // ColorWriteMask[0] (7) and RenderQueueType (28) from render-state variables.
                        "variableMap": {
                            "3": "sourceBlend", "5": "destinationBlend", "7": "colorMask", "11": "depthWriteEnabled",
                            "28": "queueType"
                        }
                    },
                    "vertexEntry": "vert",
                    "fragmentEntry": "frag"
                }
            ]
        }]
    });
    assert!(
        actual == expected,
        "structure differs\n--- expected\n{}\n--- actual\n{}",
        pretty(&expected),
        pretty(&actual)
    );
}

fn function_params<'m>(module: &'m Module, name: &str) -> &'m [Guarded<shaderlab::ir::Param>] {
    let f = module.functions.values().find(|f| module.name(f.name) == name && f.body.is_some());
    &f.unwrap_or_else(|| panic!("function {name} not found")).params
}

fn struct_members<'m>(module: &'m Module, name: &str) -> &'m [Guarded<shaderlab::ir::StructMember>] {
    let s = module.structs.values().find(|s| module.name(s.name) == name);
    &s.unwrap_or_else(|| panic!("struct {name} not found")).members
}

/// `(plain items at top level, conditional regions, items through every branch)`.
fn shape<T>(items: &[Guarded<T>]) -> (usize, usize, usize) {
    let plain = items.iter().filter(|i| matches!(i, Guarded::Item(_))).count();
    let mut all = 0;
    Guarded::for_each_item(items, &mut |_| all += 1);
    (plain, items.len() - plain, all)
}

/// `lit-includes.shader` puts `#ifdef USE_SPECULAR` around a function parameter (in an include chunk) and a struct
/// member: preserving mode keeps them as conditional regions, variant mode keeps or drops them.
#[test]
fn conditional_parameters_and_members_follow_the_variant() {
    let name = "lit-includes.shader";
    let preserving = example(name, None);
    assert_eq!(shape(function_params(&preserving.module, "shadeLight")), (3, 1, 4), "shadeLight params, preserving");
    assert_eq!(shape(struct_members(&preserving.module, "SurfaceData")), (3, 1, 4), "SurfaceData, preserving");
    assert_eq!(shape(struct_members(&preserving.module, "Attributes")), (2, 1, 3), "Attributes, preserving");

    let without = example(name, Some(platform_macros()));
    assert_eq!(shape(function_params(&without.module, "shadeLight")), (3, 0, 3), "shadeLight params, no USE_SPECULAR");
    assert_eq!(shape(struct_members(&without.module, "SurfaceData")), (3, 0, 3), "SurfaceData, no USE_SPECULAR");

    let with = example(name, Some(macros(&["USE_SPECULAR", "MATERIAL_HAS_BASETEXTURE", "LIGHT_COUNT=2"])));
    assert_eq!(shape(function_params(&with.module, "shadeLight")), (4, 0, 4), "shadeLight params, USE_SPECULAR");
    assert_eq!(shape(struct_members(&with.module, "Attributes")), (3, 0, 3), "Attributes, MATERIAL_HAS_BASETEXTURE");

    // Both chunks were read (ExampleCommon.glsl once more through ExampleLighting.glsl, emptied by its guard), and
    // the function-like macros are known.
    let files: Vec<&str> = preserving.module.sources.files.values().map(|f| f.name.as_str()).collect();
    for chunk in ["ExampleCommon.glsl", "ExampleLighting.glsl"] {
        assert!(files.contains(&chunk), "{chunk} not among the sources {files:?}");
    }
    let saturate = preserving.module.macros.values().find(|m| preserving.module.name(m.name) == "saturate");
    let params = saturate.and_then(|m| m.params.as_ref()).map(Vec::len);
    assert_eq!(params, Some(1), "saturate(x) is a function-like macro");
}

/// A chunk the example needs is missing without `-I`: the examples really exercise includes.
#[test]
fn includes_example_needs_its_chunks() {
    let path = examples_dir().join("lit-includes.shader");
    let analysis = analyze_file(&path, &[], None).expect("no panic");
    let codes = codes(&analysis);
    assert!(codes.contains(&"IncludeNotFound"), "expected IncludeNotFound without include roots, got {codes:?}");
}

/// The MRT example's output struct keeps its `layout(location = N)` qualifiers.
#[test]
fn mrt_example_declares_locations() {
    let analysis = example("mrt-gbuffer.shader", None);
    let module = &analysis.module;
    let members = struct_members(module, "GBufferOutput");
    assert_eq!(shape(members), (3, 0, 3));
    let mut locations = Vec::new();
    Guarded::for_each_item(members, &mut |m| {
        for layout in &m.qualifiers.layout {
            locations.push((module.name(m.name).to_owned(), module.name(layout.name).to_owned(), layout.value));
        }
    });
    let expected: Vec<(String, String, Option<i64>)> = [("albedo", 0), ("normalRoughness", 1), ("positionMetal", 2)]
        .iter()
        .map(|(m, n)| ((*m).to_owned(), "location".to_owned(), Some(*n)))
        .collect();
    assert_eq!(locations, expected);
}
