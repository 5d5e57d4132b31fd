//! The mutation-fuzzing loop behind the `fuzz_*` binaries: plain programs that run on stable Rust (no
//! libFuzzer, no sanitizers), driven by the seeded [`crate::mutator`].
//!
//! Each execution mutates an input of the corpus (files from the corpus directories plus generated
//! programs), runs the target on a worker thread with the stack a library user gets by default (2 MiB), and
//! waits at most `--timeout-ms` for it. A panic, a hang, a violated invariant (the target returns `Err`) or a
//! crash of the process is a finding: the input is saved under `--out` as `<kind>-<hash>.shader`. Before each
//! execution the input is also written to `<out>/current-input.shader`, so that an abort the process cannot
//! catch (a stack overflow) leaves its reproducer behind.
//!
//! Mutants whose diagnostic signature (the set of codes a target reports) is new join the in-memory corpus:
//! a cheap stand-in for coverage feedback.

use crate::mutator::{self, Rng};
use crate::{program_from_seed, GeneratorConfig};
use clap::Parser;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, OnceLock};
use std::time::{Duration, Instant};

/// The stack a library user's thread gets by default.
pub const DEFAULT_STACK: usize = 2 * 1024 * 1024;

/// Most inputs the in-memory corpus holds (seed inputs included).
const MAX_CORPUS: usize = 4096;

/// Command-line options shared by every fuzz target.
#[derive(Parser, Debug, Clone)]
pub struct Args {
    /// Stop after this many seconds (default: 60 when --iterations is not given).
    #[arg(long)]
    pub seconds: Option<u64>,
    /// Stop after this many executions.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Seed of the mutator and of the generated seed programs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Corpus directories (searched recursively). Default: ../shared/corpus/shaders, examples/ and
    /// fuzz/corpus/ when they exist.
    #[arg(long)]
    pub corpus: Vec<PathBuf>,
    /// Where findings go (default: `fuzz/artifacts/<target>`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Include chunks for `#include "Key"` (every file below, keyed by file name). Default:
    /// ../shared/corpus/includes/dev2 when it exists.
    #[arg(long)]
    pub includes: Vec<PathBuf>,
    /// Generated programs added to the corpus.
    #[arg(long, default_value_t = 64)]
    pub generated: u64,
    /// Time budget of one execution; longer is a hang.
    #[arg(long, default_value_t = 5000)]
    pub timeout_ms: u64,
    /// Largest mutant, in bytes (larger ones are cut).
    #[arg(long, default_value_t = 64 * 1024)]
    pub max_len: usize,
    /// Stop at the first finding.
    #[arg(long)]
    pub stop_on_finding: bool,
}

/// What a target reports for one input: the diagnostic codes it saw (for the novelty signal), or a violated
/// invariant.
pub type Outcome = Result<Vec<&'static str>, String>;

/// A fuzz target: a name and a function from bytes to an outcome. It must not hold state across calls.
pub type Target = fn(&[u8]) -> Outcome;

/// The workspace root (this crate's parent directory).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// Files below `dir`, recursively, in name order.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            out.extend(files_below(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// Include chunks below `roots`, keyed as `shaderlab::fs_includes` keys them (relative path, unique bare name);
/// a missing root gives no chunks.
pub fn load_includes(roots: &[PathBuf]) -> shaderlab::MapResolver {
    shaderlab::fs_includes::preload(roots).unwrap_or_default()
}

/// The default include roots: the engine's dev2 chunks and the examples' chunks, when present.
pub fn default_include_roots() -> Vec<PathBuf> {
    let root = workspace_root();
    [root.join("../shared/corpus/includes/dev2"), root.join("examples/includes")]
        .into_iter()
        .filter(|p| p.is_dir())
        .collect()
}

/// A hash of an input's bytes (finding names, choices drawn from an input).
pub fn hash_of(data: &[u8]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    data.hash(&mut h);
    h.finish()
}

/// Outcome of one execution under the watchdog.
enum Run {
    Done(Outcome),
    Panicked(String),
    Hung,
}

/// A worker thread that runs the target on inputs it receives; replaced when it hangs.
struct Worker {
    jobs: mpsc::Sender<Vec<u8>>,
    results: mpsc::Receiver<Result<Outcome, String>>,
}

impl Worker {
    fn spawn(target: Target) -> Worker {
        let (job_tx, job_rx) = mpsc::channel::<Vec<u8>>();
        let (res_tx, res_rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("fuzz worker".into())
            .stack_size(DEFAULT_STACK)
            .spawn(move || {
                for input in job_rx {
                    let result = panic::catch_unwind(AssertUnwindSafe(|| target(&input)));
                    let sent = match result {
                        Ok(outcome) => res_tx.send(Ok(outcome)),
                        Err(payload) => res_tx.send(Err(panic_message(payload.as_ref()))),
                    };
                    if sent.is_err() {
                        break;
                    }
                }
            })
            .expect("spawn the fuzz worker thread");
        Worker { jobs: job_tx, results: res_rx }
    }

    fn run(&self, input: Vec<u8>, timeout: Duration) -> Run {
        if self.jobs.send(input).is_err() {
            return Run::Panicked("the worker thread is gone".into());
        }
        match self.results.recv_timeout(timeout) {
            Ok(Ok(outcome)) => Run::Done(outcome),
            Ok(Err(msg)) => Run::Panicked(msg),
            Err(mpsc::RecvTimeoutError::Timeout) => Run::Hung,
            Err(mpsc::RecvTimeoutError::Disconnected) => Run::Panicked("the worker thread died".into()),
        }
    }
}

/// Totals of a fuzzing run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub executions: u64,
    pub panics: u64,
    pub hangs: u64,
    pub violations: u64,
    pub corpus: usize,
    pub elapsed: Duration,
    /// Paths of the saved findings.
    pub findings: Vec<PathBuf>,
}

/// The seed inputs: corpus files and generated programs.
pub fn seed_corpus(args: &Args) -> Vec<Vec<u8>> {
    let root = workspace_root();
    let dirs: Vec<PathBuf> = if args.corpus.is_empty() {
        [root.join("../shared/corpus/shaders"), root.join("examples"), root.join("fuzz/corpus")]
            .into_iter()
            .filter(|p| p.is_dir())
            .collect()
    } else {
        args.corpus.clone()
    };
    let mut corpus: Vec<Vec<u8>> = dirs
        .iter()
        .flat_map(|d| files_below(d))
        .filter_map(|f| std::fs::read(f).ok())
        .filter(|b| b.len() <= args.max_len)
        .collect();
    // The seeds stay clear of the construct of a known compiler bug (`contextual_arguments`, see
    // fuzz/regressions/conditional-parameter-calls.shader), so that findings are new ones.
    let mut configs = [GeneratorConfig::small(), GeneratorConfig::default(), GeneratorConfig::es100()];
    for c in &mut configs {
        c.features.contextual_arguments = false;
    }
    for i in 0..args.generated {
        let config = &configs[(i % configs.len() as u64) as usize];
        corpus.push(program_from_seed(args.seed.wrapping_mul(1_000_003).wrapping_add(i), config).source.into_bytes());
    }
    if corpus.is_empty() {
        corpus.push(b"Shader \"Empty\" { SubShader \"Default\" { Pass \"P\" { } } }".to_vec());
    }
    corpus
}

/// Save a finding; returns its path.
fn save(out: &Path, kind: &str, input: &[u8], note: &str) -> PathBuf {
    let _ = std::fs::create_dir_all(out);
    let path = out.join(format!("{kind}-{:016x}.shader", hash_of(input)));
    let _ = std::fs::write(&path, input);
    let _ = std::fs::write(path.with_extension("txt"), note);
    path
}

/// The message of a caught panic (its `String` or `&str` payload).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "<non-string panic payload>".into())
}

/// The include chunks a fuzz binary's targets resolve `#include` with (set by [`main`]; empty before).
static INCLUDES: OnceLock<shaderlab::MapResolver> = OnceLock::new();

/// The include chunks loaded by [`main`] (empty when a target runs outside it).
pub fn includes() -> &'static shaderlab::MapResolver {
    INCLUDES.get_or_init(shaderlab::MapResolver::new)
}

/// The whole `main` of a fuzz binary: parse [`Args`], load the include roots (`-I`, or the default ones), run
/// `target` and exit 1 when something was found.
pub fn main(name: &str, target: Target) -> ! {
    if cfg!(panic = "abort") {
        // The loop catches panics as findings; built without unwinding, the first one would end the run unreported.
        eprintln!("{name}: built with panic = \"abort\" (the release profile): build with `--profile fuzz`");
        std::process::exit(2);
    }
    let args = Args::parse();
    let roots = if args.includes.is_empty() { default_include_roots() } else { args.includes.clone() };
    let _ = INCLUDES.set(load_includes(&roots));
    let stats = run(name, target, &args);
    std::process::exit(if stats.findings.is_empty() { 0 } else { 1 });
}

/// Run `target` under the loop described in the module documentation.
pub fn run(name: &str, target: Target, args: &Args) -> Stats {
    let out = args.out.clone().unwrap_or_else(|| workspace_root().join("fuzz/artifacts").join(name));
    let _ = std::fs::create_dir_all(&out);
    let current = out.join("current-input.shader");
    let budget = args.seconds.map(Duration::from_secs).or(if args.iterations.is_some() {
        None
    } else {
        Some(Duration::from_secs(60))
    });
    let timeout = Duration::from_millis(args.timeout_ms);
    let mut corpus = seed_corpus(args);
    let seeds = corpus.len();
    eprintln!(
        "{name}: seed {} | {} corpus inputs | budget {} | out {}",
        args.seed,
        corpus.len(),
        match (budget, args.iterations) {
            (Some(b), Some(i)) => format!("{}s or {i} executions", b.as_secs()),
            (Some(b), None) => format!("{}s", b.as_secs()),
            (None, Some(i)) => format!("{i} executions"),
            (None, None) => "unbounded".into(),
        },
        out.display()
    );
    // Panics are findings, reported by the loop: keep the default hook from printing each one.
    let previous = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng::new(args.seed);
    let mut worker = Worker::spawn(target);
    let mut seen: HashSet<Vec<&'static str>> = HashSet::new();
    let mut stats = Stats::default();
    let start = Instant::now();
    let mut last_report = Instant::now();
    let mut execs_at_report = 0u64;
    loop {
        if budget.is_some_and(|b| start.elapsed() >= b) || args.iterations.is_some_and(|n| stats.executions >= n) {
            break;
        }
        let base = corpus[rng.below(corpus.len())].clone();
        let other = corpus[rng.below(corpus.len())].clone();
        let mut input = base;
        // Every 16th execution runs a corpus input unchanged.
        if stats.executions % 16 != 0 {
            mutator::mutate(&mut rng, &mut input, &other);
        }
        input.truncate(args.max_len);
        let _ = std::fs::write(&current, &input);
        let result = worker.run(input.clone(), timeout);
        stats.executions += 1;
        match result {
            Run::Done(Ok(codes)) => {
                if seen.insert(codes) {
                    if corpus.len() < MAX_CORPUS {
                        corpus.push(input);
                    } else if corpus.len() > seeds {
                        // Full: replace a grown entry, never a seed input.
                        let i = seeds + rng.below(corpus.len() - seeds);
                        corpus[i] = input;
                    }
                }
            }
            Run::Done(Err(violation)) => {
                stats.violations += 1;
                let p = save(&out, "violation", &input, &violation);
                eprintln!("{name}: INVARIANT VIOLATED: {violation}\n  saved {}", p.display());
                stats.findings.push(p);
            }
            Run::Panicked(msg) => {
                stats.panics += 1;
                let p = save(&out, "panic", &input, &msg);
                eprintln!("{name}: PANIC: {msg}\n  saved {}", p.display());
                stats.findings.push(p);
            }
            Run::Hung => {
                stats.hangs += 1;
                let p = save(&out, "hang", &input, &format!("no result within {timeout:?}"));
                eprintln!("{name}: HANG (> {timeout:?})\n  saved {}", p.display());
                stats.findings.push(p);
                // The stuck worker keeps its thread; later inputs go to a fresh one.
                worker = Worker::spawn(target);
                if stats.hangs >= 5 {
                    eprintln!("{name}: 5 hangs, stopping (each leaves a busy thread behind)");
                    break;
                }
            }
        }
        if args.stop_on_finding && !stats.findings.is_empty() {
            break;
        }
        if last_report.elapsed() >= Duration::from_secs(10) {
            let rate = (stats.executions - execs_at_report) as f64 / last_report.elapsed().as_secs_f64();
            eprintln!(
                "{name}: {:>6.0}s | {} execs | {rate:.0} exec/s | corpus {} | panics {} hangs {} violations {}",
                start.elapsed().as_secs_f64(),
                stats.executions,
                corpus.len(),
                stats.panics,
                stats.hangs,
                stats.violations
            );
            last_report = Instant::now();
            execs_at_report = stats.executions;
        }
    }
    panic::set_hook(previous);
    let _ = std::fs::remove_file(&current);
    stats.elapsed = start.elapsed();
    stats.corpus = corpus.len();
    let rate = stats.executions as f64 / stats.elapsed.as_secs_f64().max(1e-9);
    println!(
        "{name}: done: {} executions in {:.1}s ({rate:.0} exec/s), corpus {}, panics {}, hangs {}, violations {}",
        stats.executions,
        stats.elapsed.as_secs_f64(),
        stats.corpus,
        stats.panics,
        stats.hangs,
        stats.violations
    );
    for f in &stats.findings {
        println!("  finding: {}", f.display());
    }
    stats
}

/// Every diagnostic span (primary and notes) lies inside its file, on character boundaries.
pub fn spans_in_bounds(module: &shaderlab::ir::Module, diagnostics: &[shaderlab::Diagnostic]) -> Result<(), String> {
    let check = |span: shaderlab::ir::Span, code: &str| -> Result<(), String> {
        let file = module
            .sources
            .file(span.file)
            .ok_or_else(|| format!("{code}: span {span:?} names a file that is not in the source map"))?;
        let len = file.text.len() as u32;
        if span.start > span.end || span.end > len {
            return Err(format!("{code}: span {}..{} outside '{}' (length {len})", span.start, span.end, file.name));
        }
        if !file.text.is_char_boundary(span.start as usize) || !file.text.is_char_boundary(span.end as usize) {
            return Err(format!("{code}: span {}..{} splits a character of '{}'", span.start, span.end, file.name));
        }
        Ok(())
    };
    for d in diagnostics {
        check(d.span, d.code())?;
        for n in &d.notes {
            if let Some(s) = n.span {
                check(s, d.code())?;
            }
        }
    }
    Ok(())
}

/// Macro names an input's directives test (`#ifdef X`, `#ifndef X`, `defined(X)` / `defined X` in `#if` and
/// `#elif`), at most 8, for variant compiles.
pub fn tested_macros(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim_start).filter(|l| l.starts_with('#')) {
        let mut words = line[1..].split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty());
        let names: Vec<&str> = match words.next() {
            Some("ifdef" | "ifndef") => words.next().into_iter().collect(),
            Some("if" | "elif") => {
                let rest: Vec<&str> = words.collect();
                rest.windows(2).filter(|w| w[0] == "defined").map(|w| w[1]).collect()
            }
            _ => Vec::new(),
        };
        for name in names {
            if !out.iter().any(|o| o == name) && out.len() < 8 {
                out.push(name.to_owned());
            }
        }
    }
    out
}
