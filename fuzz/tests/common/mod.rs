//! Shared by the property and regression tests: analysis helpers and the watchdog; `glsl` (scratch folders,
//! glslangValidator, stage interfaces) is the root crate's `tests/common/glsl.rs`.

#![allow(dead_code)]

#[path = "../../../tests/common/glsl.rs"]
pub mod glsl;

use shaderlab::{analyze, Analysis, MapResolver, Options};
use std::sync::mpsc;
use std::time::Duration;

/// The stack a library user's thread gets by default.
pub const DEFAULT_STACK: usize = 2 * 1024 * 1024;

pub fn preserving() -> Options {
    Options { file_name: "generated.shader".into(), ..Options::default() }
}

pub fn variant(defined: &[String]) -> Options {
    let defines = defined.iter().map(|m| (m.clone(), String::new())).collect();
    Options { file_name: "generated.shader".into(), defines: Some(defines), ..Options::default() }
}

pub fn run(source: &str, options: &Options) -> Analysis {
    analyze(source, &MapResolver::new(), options)
}

/// `code line:column message` of each diagnostic, for assertions and failure messages.
pub fn describe(a: &Analysis) -> Vec<String> {
    a.diagnostics
        .iter()
        .map(|d| {
            let (line, column) = a.module.sources.file(d.span.file).map_or((0, 0), |f| f.line_col(d.span.start));
            let notes: Vec<String> = d.notes.iter().map(|n| n.message.clone()).collect();
            format!("{} {}:{} {} {:?} {notes:?}", d.code(), line, column, d.message(), d.severity)
        })
        .collect()
}

/// The source with line numbers, for failure messages.
pub fn numbered(source: &str) -> String {
    source.lines().enumerate().map(|(i, l)| format!("{:4} | {l}\n", i + 1)).collect()
}

/// Run `work` on a fresh thread with the default stack; `Err` when it panics or takes longer than `timeout`.
pub fn watchdog<T: Send + 'static>(timeout: Duration, work: impl FnOnce() -> T + Send + 'static) -> Result<T, String> {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::Builder::new()
        .stack_size(DEFAULT_STACK)
        .spawn(move || {
            let _ = tx.send(work());
        })
        .map_err(|e| format!("spawn: {e}"))?;
    match rx.recv_timeout(timeout) {
        Ok(v) => {
            let _ = handle.join();
            Ok(v)
        }
        Err(mpsc::RecvTimeoutError::Timeout) => Err(format!("HANG: no result within {timeout:?}")),
        Err(mpsc::RecvTimeoutError::Disconnected) => match handle.join() {
            Err(payload) => Err(format!("PANIC: {}", shaderlab_fuzz::harness::panic_message(payload.as_ref()))),
            Ok(()) => Err("the worker ended without a result".into()),
        },
    }
}
