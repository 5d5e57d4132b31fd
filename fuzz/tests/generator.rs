//! The generator's own promises: determinism, feature switches, the builtin table, mistake insertion.

use shaderlab::ir::{SamplerDim, SamplerType, ScalarKind};
use shaderlab::passes::builtins;
use shaderlab::passes::Ty as CompilerTy;
use shaderlab_fuzz::gen::builtins as table;
use shaderlab_fuzz::mistakes::{self, line_column, Mistake};
use shaderlab_fuzz::ty::{Sampler, Scalar, Ty};
use shaderlab_fuzz::{program_from_seed, Features, GeneratorConfig};

#[test]
fn the_same_seed_and_config_give_the_same_program() {
    for config in [GeneratorConfig::default(), GeneratorConfig::small(), GeneratorConfig::es100()] {
        for seed in [0, 1, 42, u64::MAX] {
            let a = program_from_seed(seed, &config);
            let b = program_from_seed(seed, &config);
            assert_eq!(a.source, b.source, "seed {seed}");
            assert_eq!(a.macros, b.macros);
            assert_eq!(a.sites, b.sites);
        }
    }
    // On another thread too (no thread-local or address-dependent state).
    let here = program_from_seed(7, &GeneratorConfig::default()).source;
    let there = std::thread::spawn(|| program_from_seed(7, &GeneratorConfig::default()).source).join().unwrap();
    assert_eq!(here, there);
}

#[test]
fn different_seeds_give_different_programs() {
    let config = GeneratorConfig::small();
    let programs: std::collections::HashSet<String> = (0..20).map(|s| program_from_seed(s, &config).source).collect();
    assert!(programs.len() >= 18, "only {} distinct programs from 20 seeds", programs.len());
}

#[test]
fn passes_and_helpers_are_exact_counts() {
    let mut config = GeneratorConfig::small();
    config.passes = 3;
    config.helper_functions = 2;
    config.features.macro_conditionals = false;
    let p = program_from_seed(3, &config);
    assert_eq!(p.source.matches("\n    Pass \"").count(), 3, "{}", p.source);
    assert_eq!(p.source.matches("VertexShader = ").count(), 3);
}

fn sources(config: &GeneratorConfig, n: u64) -> String {
    (0..n).map(|s| program_from_seed(s, config).source).collect::<Vec<_>>().join("\n")
}

#[test]
fn switched_off_features_do_not_appear() {
    let config = GeneratorConfig {
        features: Features {
            loops: false,
            switch: false,
            macro_conditionals: false,
            mrt: false,
            ..Features::default()
        },
        ..GeneratorConfig::default()
    };
    let text = sources(&config, 15);
    for absent in ["for (", "switch (", "#ifdef", "#ifndef", "layout(location"] {
        assert!(!text.contains(absent), "'{absent}' generated although switched off");
    }
    let text = sources(&GeneratorConfig::es100(), 15);
    for absent in ["uint", "uvec", "switch (", " % ", " << ", " >> ", "layout(location", "transpose", "round("] {
        assert!(!text.contains(absent), "'{absent}' generated for GLSL ES 1.00");
    }
    let mut none = GeneratorConfig::small();
    none.features = Features::none();
    let text = sources(&none, 10);
    for absent in ["if (", "for (", "#if", "struct S", "BlendState", "?", "["] {
        assert!(!text.contains(absent), "'{absent}' generated with every feature off:\n{text}");
    }
}

#[test]
fn switched_on_features_appear() {
    let text = sources(&GeneratorConfig::default(), 30);
    for present in [
        "for (",
        "switch (",
        "if (",
        "#ifdef",
        "#else",
        "struct S",
        "BlendState",
        "texture",
        "layout(location",
        "gl_FragColor",
        "gl_Position",
        "const ",
        "uniform ",
        "inout ",
        "[",
        "?",
        "discard;",
        "return ",
    ] {
        assert!(text.contains(present), "'{present}' never generated in 30 programs");
    }
}

fn compiler_ty(t: &Ty) -> CompilerTy {
    let kind = |k: Scalar| match k {
        Scalar::Bool => ScalarKind::Bool,
        Scalar::Int => ScalarKind::Int,
        Scalar::Uint => ScalarKind::Uint,
        Scalar::Float => ScalarKind::Float,
    };
    match t {
        Ty::Scalar(k) => CompilerTy::Scalar(kind(*k)),
        Ty::Vector(k, n) => CompilerTy::Vector(kind(*k), *n),
        Ty::Matrix(n) => CompilerTy::Matrix { columns: *n, rows: *n },
        Ty::Sampler(s) => CompilerTy::Sampler(SamplerType {
            dim: match s {
                Sampler::D2 => SamplerDim::D2,
                Sampler::Cube => SamplerDim::Cube,
            },
            sampled: ScalarKind::Float,
            shadow: false,
        }),
        Ty::Struct(_) | Ty::Array(..) => panic!("no builtin takes {t}"),
    }
}

/// Every overload the generator calls exists in shaderlab's catalogue with the same return type, in both
/// stages, and in GLSL ES 1.00 unless the table says GLSL ES 3.00.
#[test]
fn the_builtin_table_agrees_with_the_compiler() {
    for b in table::all() {
        let params: Vec<CompilerTy> = b.params.iter().map(compiler_ty).collect();
        let found = builtins::resolve(b.name, &params)
            .unwrap_or_else(|| panic!("{}({:?}) is not a builtin overload", b.name, b.params));
        assert_eq!(found.ret, compiler_ty(&b.ret), "{} returns another type", b.name);
        assert!(found.stages.vertex && found.stages.fragment, "{} is not available in both stages", b.name);
        if !b.es300 {
            assert!(found.availability.in_es100(), "{}({:?}) is not GLSL ES 1.00", b.name, b.params);
        }
    }
}

#[test]
fn mistakes_edit_what_they_say() {
    let p = program_from_seed(5, &GeneratorConfig::small());
    let mut kinds = std::collections::HashSet::new();
    for (i, site) in p.sites.iter().enumerate() {
        let m = mistakes::insert(&p, i);
        kinds.insert(m.mistake);
        assert_ne!(m.source, p.source);
        let (line, column) = line_column(&m.source, m.expected.offset);
        assert_eq!((line, column), (m.expected.line, m.expected.column));
        match Mistake::of(site) {
            Mistake::MisspelledName => assert!(m.source.len() == p.source.len() + 1),
            Mistake::ConstructorArity | Mistake::RemovedReturn => assert!(m.source.len() < p.source.len()),
        }
    }
    assert!(kinds.contains(&Mistake::MisspelledName));
}

#[test]
fn line_column_is_one_based() {
    assert_eq!(line_column("ab\ncd", 0), (1, 1));
    assert_eq!(line_column("ab\ncd", 3), (2, 1));
    assert_eq!(line_column("ab\ncd", 4), (2, 2));
}

#[test]
fn tested_macros_reads_directives_only() {
    let text = "// #ifdef NOT_A_DIRECTIVE\n#ifdef A\n  #ifndef B\n#if defined(C) && !defined D\n#elif X > 1\n#endif\nfloat defined;";
    assert_eq!(shaderlab_fuzz::harness::tested_macros(text), ["A", "B", "C", "D"]);
}
