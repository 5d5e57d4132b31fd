//! Frontend benchmark: `shaderlab::analyze` (lex + preprocess + parse + lower, then the passes and the
//! diagnostic collection it runs) over every corpus shader, in preserving mode and in variant mode.
//!
//! Corpus: `$SHADERLAB_CORPUS` or `<CARGO_MANIFEST_DIR>/../shared/corpus` (`shaders/`; include roots
//! `includes/dev2` for `dev_2.0__*` files, `includes/v1.5` otherwise). Without it the benchmark falls back to
//! `examples/*.shader` (include root `examples/includes`) and says so loudly. Include chunks are preloaded into a
//! [`MapResolver`] (keyed as `shaderlab::fs_includes` keys them), so no I/O is measured.
//!
//! Named benchmarks: `pbr_gs_preserving` and `pbr_gs_variant` (`dev_2.0__PBR.gs` with `includes/dev2`), and
//! `pbr_gs_frontend_only_{preserving,variant}` (`shaderlab::frontend::parse` alone: no passes, no validator);
//! groups `preserving/<file>` and `variant/<file>` (`analyze`, every corpus shader). Run: `cargo bench --bench frontend -- --warm-up-time 1
//! --measurement-time 3` (append a filter such as `pbr` to run a subset).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use shaderlab::{analyze, Limits, MapResolver, Options};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const VARIANT_DEFINES: &[&str] = &["GRAPHICS_API_WEBGL2", "HAS_TEX_LOD", "HAS_DERIVATIVES"];

struct Input {
    name: String,
    text: String,
    resolver: Arc<MapResolver>,
}

fn read_shaders(dir: &Path, extensions: &[&str]) -> Vec<(String, String)> {
    let mut paths: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| extensions.iter().any(|x| e == *x)));
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let text = String::from_utf8_lossy(&std::fs::read(&p).ok()?).into_owned();
            Some((p.file_name()?.to_string_lossy().into_owned(), text))
        })
        .collect()
}

fn inputs() -> Vec<Input> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = match std::env::var_os("SHADERLAB_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => manifest.join("../shared/corpus"),
    };
    if corpus.join("shaders").is_dir() {
        let dev2 = shaderlab::fs_includes::preload(&[corpus.join("includes/dev2")]).expect("read the dev2 includes");
        let v15 = shaderlab::fs_includes::preload(&[corpus.join("includes/v1.5"), corpus.join("includes/tests-v1.5")])
            .expect("read the v1.5 includes");
        let (dev2, v15) = (Arc::new(dev2), Arc::new(v15));
        return read_shaders(&corpus.join("shaders"), &["shader", "gs"])
            .into_iter()
            .map(|(name, text)| {
                let resolver = if name.starts_with("dev_2.0__") { dev2.clone() } else { v15.clone() };
                Input { name, text, resolver }
            })
            .collect();
    }
    eprintln!(
        "\n!!! benches/frontend.rs: CORPUS NOT FOUND at {} (set SHADERLAB_CORPUS)\n\
         !!! falling back to examples/*.shader: these numbers are NOT the corpus numbers\n",
        corpus.display()
    );
    let includes =
        shaderlab::fs_includes::preload(&[manifest.join("examples/includes")]).expect("read the example includes");
    let includes = Arc::new(includes);
    read_shaders(&manifest.join("examples"), &["shader", "gs"])
        .into_iter()
        .map(|(name, text)| Input { name, text, resolver: includes.clone() })
        .collect()
}

fn options(variant: bool, name: &str) -> Options {
    Options {
        file_name: name.to_owned(),
        defines: variant.then(|| VARIANT_DEFINES.iter().map(|d| shaderlab::parse_define(d)).collect()),
        limits: Limits::default(),
    }
}

fn bench_frontend(c: &mut Criterion) {
    let inputs = inputs();
    if inputs.is_empty() {
        eprintln!("!!! benches/frontend.rs: no shaders found (no corpus, no examples): nothing to benchmark");
        return;
    }

    // The headline numbers: the engine's PBR shader with its full include tree.
    match inputs.iter().find(|i| i.name == "dev_2.0__PBR.gs") {
        Some(pbr) => {
            for (id, variant) in [("pbr_gs_preserving", false), ("pbr_gs_variant", true)] {
                let opts = options(variant, &pbr.name);
                let a = analyze(&pbr.text, pbr.resolver.as_ref(), &opts);
                eprintln!("{id}: {} source files, {} diagnostics", a.module.sources.files.len(), a.diagnostics.len());
                c.bench_function(id, |b| {
                    b.iter(|| analyze(black_box(&pbr.text), black_box(pbr.resolver.as_ref()), &opts))
                });
            }
            // The frontend alone (lex + preprocess + parse + lower), without the passes and the validator.
            for (id, variant) in [("pbr_gs_frontend_only_preserving", false), ("pbr_gs_frontend_only_variant", true)] {
                let opts = options(variant, &pbr.name);
                c.bench_function(id, |b| {
                    b.iter(|| shaderlab::parse(black_box(&pbr.text), black_box(pbr.resolver.as_ref()), &opts))
                });
            }
        }
        None => eprintln!("!!! benches/frontend.rs: dev_2.0__PBR.gs not found: pbr_gs_* skipped"),
    }

    for (group_name, variant) in [("preserving", false), ("variant", true)] {
        let mut group = c.benchmark_group(group_name);
        for input in &inputs {
            let opts = options(variant, &input.name);
            group.throughput(Throughput::Bytes(input.text.len() as u64));
            group.bench_with_input(BenchmarkId::from_parameter(&input.name), input, |b, input| {
                b.iter(|| analyze(black_box(&input.text), black_box(input.resolver.as_ref()), &opts))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_frontend);
criterion_main!(benches);
