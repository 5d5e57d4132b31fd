//! Criterion benchmarks of the semantic passes and of the whole `check` pipeline, per corpus shader
//! (includes preloaded in memory: no I/O is measured). `PBR.gs` with its includes is the headline number.
//!
//! Run: `cargo bench --bench passes` (the corpus is found at `$SHADERLAB_CORPUS` or `../shared/corpus`).

use criterion::{criterion_group, criterion_main, Criterion};
use shaderlab::{analyze, Options};
use std::hint::black_box;
use std::path::{Path, PathBuf};

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("SHADERLAB_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    dir.is_dir().then_some(dir)
}

fn bench(c: &mut Criterion) {
    let Some(corpus) = corpus() else {
        eprintln!("!!!!!!!! SKIPPED: corpus not found (set SHADERLAB_CORPUS)");
        return;
    };
    let dev2 = shaderlab::fs_includes::preload(&[corpus.join("includes/dev2")]).expect("read the dev2 includes");
    let pbr = std::fs::read_to_string(corpus.join("shaders/dev_2.0__PBR.gs")).unwrap_or_default();
    let options = Options { file_name: "PBR.gs".into(), ..Options::default() };
    let module = shaderlab_frontend::parse("PBR.gs", &pbr, &dev2, &shaderlab_frontend::Options::default());
    c.bench_function("pbr_gs_passes_only", |b| b.iter(|| black_box(shaderlab_passes::run_passes(black_box(&module)))));
    let facts = shaderlab_passes::run_passes(&module);
    c.bench_function("pbr_gs_validator_only", |b| {
        b.iter(|| black_box(shaderlab_validator::collect(black_box(&module), Some(&facts))))
    });
    c.bench_function("pbr_gs_check_preserving", |b| b.iter(|| black_box(analyze(black_box(&pbr), &dev2, &options))));
    let variant = Options {
        defines: Some(
            ["GRAPHICS_API_WEBGL2", "HAS_TEX_LOD", "HAS_DERIVATIVES"]
                .iter()
                .map(|n| (n.to_string(), String::new()))
                .collect(),
        ),
        ..options.clone()
    };
    c.bench_function("pbr_gs_check_variant", |b| b.iter(|| black_box(analyze(black_box(&pbr), &dev2, &variant))));
    // The whole pipeline, every pass, both stages.
    for target in [shaderlab::Target::Gles300, shaderlab::Target::Gles100] {
        let name = format!("pbr_gs_compile_{target:?}_preserving").to_lowercase();
        c.bench_function(&name, |b| b.iter(|| black_box(shaderlab::compile(black_box(&pbr), &dev2, &options, target))));
    }
    let mut group = c.benchmark_group("check_corpus");
    let v1 = shaderlab::fs_includes::preload(&[corpus.join("includes/v1.5")]).expect("read the v1.5 includes");
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(corpus.join("shaders")).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    files.sort();
    for path in files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let includes = if name.starts_with("dev_2.0__") { &dev2 } else { &v1 };
        let opts = Options { file_name: name.clone(), ..Options::default() };
        group.bench_function(&name, |b| b.iter(|| black_box(analyze(black_box(&text), includes, &opts))));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
