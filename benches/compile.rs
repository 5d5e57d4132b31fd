//! Whole-compiler benchmarks (issue 7), four groups:
//!
//! - `corpus/<file>`: the whole compile (`shaderlab::compile_report`, GLSL ES 3.00, preserving mode) of every
//!   corpus shader that compiles without error. Include roots as `scripts/oracles_common.py` chooses them:
//!   `includes/dev2` for `dev_2.0__*` files, `includes/v1.5` and `includes/tests-v1.5` otherwise.
//! - `generated/{check,compile}/{small,medium,large}`: programs of the generator (`shaderlab-gen`) of about 50,
//!   200 and 1000 lines, checked (`shaderlab::analyze`) and compiled (GLSL ES 3.00).
//! - `pbr/{parse,check,compile_gles100,compile_gles300}`: `dev_2.0__PBR.gs` with all its includes.
//! - `all_variants/pbr`: `shaderlab::all_variants::check_all_variants` on `dev_2.0__PBR.gs` (what
//!   `shaderlab check --all-variants` does), few samples: one iteration takes a good fraction of a second.
//!
//! The corpus is `$SHADERLAB_CORPUS` or `<CARGO_MANIFEST_DIR>/../shared/corpus`; without it the `corpus`, `pbr`
//! and `all_variants` groups are skipped with a loud message (a benchmark is not a test) and only `generated`
//! runs. Include chunks are preloaded into memory before timing: no I/O is measured.
//!
//! Run: `cargo bench --bench compile` (a few minutes); quicker and noisier:
//! `cargo bench --bench compile -- --warm-up-time 0.2 --measurement-time 0.5`; a filter such as `pbr` or
//! `generated/check` runs a subset. Per-group settings below change only sample counts, so the command-line
//! times apply to every group.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};
use shaderlab::all_variants::{check_all_variants, DEFAULT_MAX_VARIANTS};
use shaderlab::{analyze, compile_report, MapResolver, Options, Target};
use shaderlab_gen::{program_from_seed, GeneratorConfig};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The same global allocator as the `shaderlab` command (`src/main.rs`, feature `mimalloc`), so that these
/// numbers match what the CLI (and `shaderlab bench`) measures: with the system allocator allocation is a
/// large share of compile time.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: shaderlab::alloc::MiAlloc = shaderlab::alloc::MiAlloc;

const PBR: &str = "dev_2.0__PBR.gs";

fn backend_options() -> shaderlab::backends::Options {
    shaderlab::backends::Options::default()
}

/// Preserving mode (no `-D`), diagnostics naming `name`.
fn preserving(name: &str) -> Options {
    Options { file_name: name.to_owned(), ..Options::default() }
}

fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SHADERLAB_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    if dir.join("shaders").is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "\n!!!!!!!! benches/compile.rs: CORPUS NOT FOUND at {} (set SHADERLAB_CORPUS)\n\
             !!!!!!!! SKIPPED: the corpus, pbr and all_variants groups; only `generated` runs\n",
            dir.display()
        );
        None
    }
}

/// The corpus shaders (sorted by name) and their preloaded include chunks.
struct Corpus {
    shaders: Vec<(String, String)>,
    dev2: MapResolver,
    v15: MapResolver,
}

impl Corpus {
    fn load(dir: &Path) -> Corpus {
        let dev2 = shaderlab::fs_includes::preload(&[dir.join("includes/dev2")]).expect("read includes/dev2");
        let v15 = shaderlab::fs_includes::preload(&[dir.join("includes/v1.5"), dir.join("includes/tests-v1.5")])
            .expect("read includes/v1.5 and includes/tests-v1.5");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir.join("shaders"))
            .expect("read the corpus shaders")
            .flatten()
            .map(|e| e.path())
            .collect();
        paths.retain(|p| p.is_file());
        paths.sort();
        let shaders = paths
            .into_iter()
            .filter_map(|p| {
                let name = p.file_name()?.to_str()?.to_owned();
                let text = String::from_utf8_lossy(&std::fs::read(&p).ok()?).into_owned();
                Some((name, text))
            })
            .collect();
        Corpus { shaders, dev2, v15 }
    }

    /// The include rule of `scripts/oracles_common.py` (`include_args`).
    fn includes(&self, name: &str) -> &MapResolver {
        if name.starts_with("dev_2.0__") {
            &self.dev2
        } else {
            &self.v15
        }
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.shaders.iter().find(|(n, _)| n == name).map(|(_, t)| t.as_str())
    }
}

fn bench_corpus(c: &mut Criterion, corpus: &Corpus) {
    let backend = backend_options();
    let mut group = c.benchmark_group("corpus");
    group.sample_size(20);
    let (mut benched, mut refused) = (0, Vec::new());
    for (name, text) in &corpus.shaders {
        let includes = corpus.includes(name);
        let options = preserving(name);
        if compile_report(text, includes, &options, Target::Gles300, &backend).has_errors() {
            refused.push(name.as_str());
            continue;
        }
        benched += 1;
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| compile_report(black_box(text), includes, &options, Target::Gles300, &backend))
        });
    }
    group.finish();
    eprintln!("corpus: {benched} files compiled; {} left out (compile errors): {}", refused.len(), refused.join(", "));
}

/// One generated size: a name, the line count aimed at and the configuration it is drawn from.
struct Size {
    name: &'static str,
    lines: usize,
    config: GeneratorConfig,
}

fn sizes() -> Vec<Size> {
    // ~50 lines: one pass, no helpers, few globals, structs and macros.
    let small = GeneratorConfig {
        max_expr_depth: 2,
        max_stmts_per_block: 3,
        max_block_depth: 1,
        helper_functions: 0,
        shared_helper_functions: 0,
        passes: 1,
        max_structs: 1,
        max_struct_members: 2,
        max_globals: 2,
        max_macros: 1,
        ..GeneratorConfig::small()
    };
    // ~200 lines: the small preset with four helpers per pass.
    let medium = GeneratorConfig { helper_functions: 4, ..GeneratorConfig::small() };
    // ~1000 lines: the default preset with eight helpers per pass.
    let large = GeneratorConfig { helper_functions: 8, ..GeneratorConfig::default() };
    vec![
        Size { name: "small", lines: 50, config: small },
        Size { name: "medium", lines: 200, config: medium },
        Size { name: "large", lines: 1000, config: large },
    ]
}

/// The first seed (from 0) whose program has within 10% of `size.lines` lines, else the closest of the first
/// 500 seeds: deterministic for a given generator.
fn generate(size: &Size) -> (u64, String) {
    let mut best: Option<(usize, u64, String)> = None;
    for seed in 0..500u64 {
        let source = program_from_seed(seed, &size.config).source;
        let distance = source.lines().count().abs_diff(size.lines);
        if distance * 10 <= size.lines {
            return (seed, source);
        }
        if best.as_ref().is_none_or(|(d, _, _)| distance < *d) {
            best = Some((distance, seed, source));
        }
    }
    let (_, seed, source) = best.expect("at least one seed");
    (seed, source)
}

fn bench_generated(c: &mut Criterion) {
    let backend = backend_options();
    let includes = MapResolver::new();
    let programs: Vec<(&'static str, String)> = sizes()
        .iter()
        .map(|size| {
            let (seed, source) = generate(size);
            let name = format!("gen-{}-{seed}.shader", size.name);
            let compiled = compile_report(&source, &includes, &preserving(&name), Target::Gles300, &backend);
            eprintln!(
                "generated/{}: seed {seed}, {} lines, {} bytes (aimed at ~{} lines){}",
                size.name,
                source.lines().count(),
                source.len(),
                size.lines,
                if compiled.has_errors() { "; NOTE: the compile reports errors" } else { "" }
            );
            (size.name, source)
        })
        .collect();
    let mut group = c.benchmark_group("generated");
    group.sample_size(20);
    for (size, source) in &programs {
        let options = preserving(&format!("gen-{size}.shader"));
        group.throughput(Throughput::Bytes(source.len() as u64));
        group.bench_function(BenchmarkId::new("check", size), |b| {
            b.iter(|| analyze(black_box(source), &includes, &options))
        });
        group.bench_function(BenchmarkId::new("compile", size), |b| {
            b.iter(|| compile_report(black_box(source), &includes, &options, Target::Gles300, &backend))
        });
    }
    group.finish();
}

fn bench_pbr(c: &mut Criterion, corpus: &Corpus) {
    let Some(text) = corpus.get(PBR) else {
        eprintln!("!!!!!!!! benches/compile.rs: {PBR} not in the corpus: SKIPPED the pbr and all_variants groups");
        return;
    };
    let includes = corpus.includes(PBR);
    let options = preserving(PBR);
    let backend = backend_options();
    let frontend_options = shaderlab::frontend::Options::default();

    let mut group = c.benchmark_group("pbr");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("parse", |b| {
        b.iter(|| shaderlab::frontend::parse(PBR, black_box(text), includes, &frontend_options))
    });
    group.bench_function("check", |b| b.iter(|| analyze(black_box(text), includes, &options)));
    for (id, target) in [("compile_gles100", Target::Gles100), ("compile_gles300", Target::Gles300)] {
        group.bench_function(id, |b| b.iter(|| compile_report(black_box(text), includes, &options, target, &backend)));
    }
    group.finish();

    let report = check_all_variants(text, includes, &options, DEFAULT_MAX_VARIANTS);
    eprintln!(
        "all_variants/pbr: {} macros, {} strategy, {} variants checked per iteration ({} chosen), {} diagnostics",
        report.axes.len(),
        report.strategy.name(),
        report.variants.len(),
        report.chosen,
        report.diagnostics.len()
    );
    let mut group = c.benchmark_group("all_variants");
    // Hundreds of variant checks per iteration: ten single-iteration samples.
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    group.bench_function("pbr", |b| {
        b.iter(|| check_all_variants(black_box(text), includes, &options, DEFAULT_MAX_VARIANTS))
    });
    group.finish();
}

fn bench(c: &mut Criterion) {
    let corpus = corpus_dir().map(|dir| Corpus::load(&dir));
    if let Some(corpus) = &corpus {
        bench_corpus(c, corpus);
    }
    bench_generated(c);
    if let Some(corpus) = &corpus {
        bench_pbr(c, corpus);
    }
}

criterion_group! {
    name = benches;
    // Defaults only: the command line's --warm-up-time, --measurement-time and --nresamples override them. Fewer
    // bootstrap resamples than criterion's 100000, which take seconds of analysis per benchmark on a loaded machine.
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500))
        .nresamples(10_000);
    targets = bench
}
criterion_main!(benches);
