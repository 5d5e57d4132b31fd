//! Helpers shared by the integration tests (`corpus`, `examples`, `cli`, ...); `glsl.rs` is shared with the fuzz
//! crate's tests too.
//!
//! Each test binary uses a different subset, hence the `dead_code` allowance.
#![allow(dead_code)]

pub mod glsl;

#[allow(unused_imports)]
pub use glsl::*;

use codespan_reporting::term::termcolor::NoColor;
use shaderlab::fs_includes::FsIncludes;
use shaderlab::ir::Severity;
use shaderlab::validator::render_human;
use shaderlab::{analyze, Analysis, Options};
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// A `-D` macro set: `(NAME, VALUE)`, the value empty for a bare `#define NAME`.
pub type Macros = Vec<(String, String)>;

/// The run-time platform macros the engine defines on WebGL 2.
pub const PLATFORM_MACROS: [&str; 3] = ["GRAPHICS_API_WEBGL2", "HAS_TEX_LOD", "HAS_DERIVATIVES"];

pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The repository's own example shaders.
pub fn examples_dir() -> PathBuf {
    manifest_dir().join("examples")
}

/// The corpus of engine shaders: `$SHADERLAB_CORPUS`, else `<manifest>/../shared/corpus`.
///
/// When it is absent the caller should return early: the test passes with a loud banner, except under `CI=true`,
/// where an absent corpus is a failure.
pub fn corpus_dir(test: &str) -> Option<PathBuf> {
    let (dir, from_env) = match std::env::var_os("SHADERLAB_CORPUS") {
        Some(d) if !d.is_empty() => (PathBuf::from(d), true),
        _ => (manifest_dir().join("..").join("shared").join("corpus"), false),
    };
    if dir.join("shaders").is_dir() {
        return Some(dir);
    }
    let why = if from_env { "SHADERLAB_CORPUS points to" } else { "SHADERLAB_CORPUS is unset and there is no" };
    let message = format!("{why} a corpus at {} (no shaders/ folder)", dir.display());
    if std::env::var("CI").map(|v| v == "true").unwrap_or(false) {
        panic!("{test}: CI=true and the corpus is missing: {message}");
    }
    // Straight to stderr, past the test harness's output capture: a skipped corpus must be seen.
    let bar = "!".repeat(100);
    let banner = format!(
        "\n{bar}\n!!! SKIPPED {test}: {message}\n!!! Set SHADERLAB_CORPUS=/path/to/corpus to run the corpus tests \
         (they are mandatory under CI=true).\n{bar}\n"
    );
    uncaptured(&banner);
    None
}

/// Write a line straight to stderr, past the test harness's output capture (`eprintln!` is captured).
pub fn uncaptured(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// Macro set from names (`NAME` or `NAME=VALUE`).
pub fn macros(names: &[&str]) -> Macros {
    names.iter().map(|n| shaderlab::parse_define(n)).collect()
}

pub fn platform_macros() -> Macros {
    macros(&PLATFORM_MACROS)
}

/// A reference macro list: one macro a line, `NAME` or `NAME VALUE`.
pub fn parse_macro_list(text: &str) -> Macros {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| match l.split_once(char::is_whitespace) {
            Some((name, value)) => (name.to_owned(), value.trim().to_owned()),
            None => (l.to_owned(), String::new()),
        })
        .collect()
}

pub fn describe_macros(defines: &Option<Macros>) -> String {
    match defines {
        None => "preserving".to_owned(),
        Some(list) => {
            let names: Vec<String> =
                list.iter().map(|(n, v)| if v.is_empty() { n.clone() } else { format!("{n}={v}") }).collect();
            format!("variant -D {}", names.join(" -D "))
        }
    }
}

pub fn read_text(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Analyze a file with include `roots`; `Err` carries the panic message when the compiler panicked.
pub fn analyze_file(path: &Path, roots: &[PathBuf], defines: Option<Macros>) -> Result<Analysis, String> {
    let text = read_text(path);
    let includes = FsIncludes::new(roots, Some(path))
        .unwrap_or_else(|e| panic!("cannot read include roots {roots:?} for {}: {e}", path.display()));
    let options = Options { file_name: path.display().to_string(), defines, ..Options::default() };
    catch_unwind(AssertUnwindSafe(|| analyze(&text, &includes, &options))).map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "<non-string panic payload>".to_owned())
    })
}

pub fn codes(analysis: &Analysis) -> Vec<&'static str> {
    analysis.diagnostics.iter().map(|d| d.code()).collect()
}

pub fn error_count(analysis: &Analysis) -> usize {
    analysis.diagnostics.iter().filter(|d| d.severity == Severity::Error).count()
}

/// The diagnostics as the CLI shows them (no colour), for failure messages.
pub fn render(analysis: &Analysis) -> String {
    let mut out = NoColor::new(Vec::new());
    if let Err(e) = render_human(&analysis.module, &analysis.diagnostics, &mut out) {
        return format!("<cannot render diagnostics: {e}>; codes {:?}", codes(analysis));
    }
    String::from_utf8_lossy(&out.into_inner()).into_owned()
}

/// Files directly in `dir` (sorted by name), keeping those `keep` accepts.
pub fn list_files(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_name().and_then(|n| n.to_str()).is_some_and(&keep))
        .collect();
    files.sort();
    files
}

pub fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Pretty JSON for failure messages.
pub fn pretty(v: &serde_json::Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

/// Panic with every collected failure, one block each.
pub fn fail_if_any(test: &str, failures: &[String]) {
    if !failures.is_empty() {
        panic!("{test}: {} failure(s):\n\n{}", failures.len(), failures.join("\n\n"));
    }
}

/// Run the `shaderlab` binary with `args`.
pub fn shaderlab(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_shaderlab")).args(args).output().expect("run the shaderlab binary")
}

/// A binary run's status, stdout and stderr, for assertion messages.
pub fn show(output: &std::process::Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The path of an example shader, as a CLI argument.
pub fn example_arg(name: &str) -> String {
    examples_dir().join(name).display().to_string()
}
