//! shaderlab: a nanopass compiler for Galacean ShaderLab.
//!
//! The library API: [`analyze`] reads a source into the IR and reports every diagnostic found so far;
//! [`compile()`] goes on through the validator to a GLSL ES backend; [`structure_json`] gives the compile
//! result's structure part (names, tags, render states, entries).
//! See ARCHITECTURE.md for the crates behind it.

pub mod all_variants;
#[cfg(feature = "mimalloc")]
pub mod alloc;
pub mod bench;
pub mod compile;
pub mod facts_json;
pub mod fs_includes;
pub mod structure_json;

pub use compile::{compile, compile_report, Compiled, CompiledPass};
pub use shaderlab_backends as backends;
pub use shaderlab_backends::Target;
pub use shaderlab_frontend as frontend;
pub use shaderlab_frontend::{IncludeResolver, Limits, MapResolver};
pub use shaderlab_ir as ir;
pub use shaderlab_passes as passes;
pub use shaderlab_validator as validator;
pub use shaderlab_validator::{Diagnostic, DiagnosticType};

use shaderlab_ir::{Module, Severity};

/// Compile options shared by every entry point.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The name diagnostics show for the main file.
    pub file_name: String,
    /// `None`: preserving mode (conditionals kept). `Some`: variant mode with these `-D` macros.
    pub defines: Option<Vec<(String, String)>>,
    pub limits: Limits,
}

/// The result of reading and checking a source.
#[derive(Debug)]
pub struct Analysis {
    pub module: Module,
    /// The passes' side tables.
    pub facts: shaderlab_passes::Facts,
    /// In source order; warnings and errors.
    pub diagnostics: Vec<Diagnostic>,
}

impl Analysis {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity == Severity::Error)
    }
}

/// Read `source` into the IR: the frontend only (its problems are in `Module::clues`; no passes run).
pub fn parse(source: &str, includes: &dyn IncludeResolver, options: &Options) -> Module {
    let frontend_options =
        shaderlab_frontend::Options { defines: options.defines.as_deref(), limits: options.limits.clone() };
    let name = if options.file_name.is_empty() { "<input>" } else { options.file_name.as_str() };
    shaderlab_frontend::parse(name, source, includes, &frontend_options)
}

/// Read `source` into the IR and collect its diagnostics.
pub fn analyze(source: &str, includes: &dyn IncludeResolver, options: &Options) -> Analysis {
    let module = parse(source, includes, options);
    let facts = shaderlab_passes::run_passes(&module);
    let diagnostics = shaderlab_validator::collect(&module, Some(&facts));
    Analysis { module, facts, diagnostics }
}

/// GLSL after run-time macro expansion, with the problems found.
#[derive(Debug)]
pub struct Expanded {
    pub text: String,
    pub module: Module,
    pub diagnostics: Vec<Diagnostic>,
}

/// Expand the macros of GLSL text (the preserving compile's output) for one variant: the step the engine performs
/// at run time. Conditionals are evaluated with `macros` and the text's own `#define`s; `GL_` tests stay.
pub fn expand_macros(glsl: &str, macros: &[(String, String)]) -> Expanded {
    let e = shaderlab_frontend::expand::expand_macros("<glsl>", glsl, macros, &Limits::default());
    let diagnostics = shaderlab_validator::collect(&e.module, None);
    Expanded { text: e.text, module: e.module, diagnostics }
}

/// Parse `NAME` or `NAME=VALUE` (`-D` syntax); a bare name is defined empty, as `#define NAME`.
pub fn parse_define(text: &str) -> (String, String) {
    match text.split_once('=') {
        Some((name, value)) => (name.trim().to_owned(), value.trim().to_owned()),
        None => (text.trim().to_owned(), String::new()),
    }
}
