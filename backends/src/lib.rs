//! GLSL ES 1.00 and GLSL ES 3.00 backends: one [`ValidModule`] pass in, one vertex and one fragment source plus
//! reflection out (`spec/codegen.md`).
//!
//! The work is split in two halves so that another target (WGSL) can reuse the first one:
//! - target-independent planning: `plan` decides what each stage reaches (functions, globals, structs, macros),
//!   `interface` decides the stage interface (attributes, varyings, outputs) and whether each IO struct can be
//!   renamed away or must stay a real struct copied field-wise;
//! - a GLSL writer core (`writer`, `expr`, `stmt`, `decl`, `naming`, `reflection`, `repeats`) parameterized by a
//!   `dialect::Dialect`; the two GLSL targets (`gles100`, `gles300`) hold only what differs between them.
//!
//! Invariants: a backend never panics on a [`ValidModule`] (a broken internal invariant may, with a message);
//! output is deterministic (no hash-map iteration order reaches the text); interface names (uniforms,
//! attributes, varyings, outputs) are never renamed, a collision is a [`BackendError`].

mod decl;
mod dialect;
mod error;
mod expr;
mod gles100;
mod gles300;
mod interface;
mod naming;
mod plan;
mod reflection;
mod repeats;
mod stmt;
mod writer;

pub use error::{BackendError, BackendErrorKind, Unsupported};
pub use reflection::{ReflectedOutput, ReflectedUniform, ReflectedVariable, ReflectedVarying, Reflection};

use shaderlab_ir::{PassId, PassKind};

/// Up to this many entries of a kind in a module, a lookup by name scans a list instead of building a hash table
/// (small files are most compiles, and the table's allocation and hashing cost more than the scan): the chain
/// index's tables by name (`plan::ByName`), the reflected uniforms, attributes and varyings
/// (`reflection::Collector`).
pub(crate) const SCANNED: usize = 16;
use shaderlab_validator::ValidModule;

/// Work counting for the tests that keep lookups linear: the lookups that once scanned a list per entry count the
/// entries they look at, and a test compares the count with the input's size (a count, not a time, so it cannot
/// be flaky). Outside the crate's tests counting is nothing.
#[cfg(test)]
pub(crate) mod work {
    use std::cell::Cell;

    thread_local! {
        static STEPS: Cell<usize> = const { Cell::new(0) };
    }

    /// Count `n` steps of lookup work.
    pub(crate) fn count(n: usize) {
        STEPS.with(|s| s.set(s.get() + n));
    }

    /// The steps counted on this thread since the last call.
    pub(crate) fn take() -> usize {
        STEPS.with(|s| s.replace(0))
    }
}

#[cfg(not(test))]
pub(crate) mod work {
    /// Nothing outside the crate's tests.
    #[inline(always)]
    pub(crate) fn count(_: usize) {}
}

/// The GLSL ES version a backend writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// GLSL ES 1.00 (WebGL 1).
    Gles100,
    /// GLSL ES 3.00 (WebGL 2).
    Gles300,
}

impl Target {
    /// The name used on the command line (`gles100`, `gles300`).
    pub fn name(self) -> &'static str {
        match self {
            Target::Gles100 => "gles100",
            Target::Gles300 => "gles300",
        }
    }

    /// The language name used in messages.
    pub fn language(self) -> &'static str {
        match self {
            Target::Gles100 => "GLSL ES 1.00",
            Target::Gles300 => "GLSL ES 3.00",
        }
    }
}

/// A shader stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    Vertex,
    Fragment,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Fragment => "fragment",
        }
    }
}

/// Backend options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Prepend what the engine prepends (`#version`, extensions, default precision) so that each stage compiles
    /// standalone (`codegen.md` §9).
    pub header: bool,
}

/// The two sources of one pass and what they declare.
#[derive(Clone, Debug, PartialEq)]
pub struct StageSources {
    pub vertex: String,
    pub fragment: String,
    pub reflection: Reflection,
}

/// A code generator for one target.
pub trait Backend {
    fn target(&self) -> Target;

    /// The vertex and fragment sources of a program pass. A UsePass has no sources: it is an error to ask.
    fn emit_pass(&self, m: &ValidModule, pass: PassId, opts: &Options) -> Result<StageSources, Vec<BackendError>>;

    /// What the engine prepends to a stage (`--header`), ending with a newline.
    fn header(&self, stage: Stage) -> String;
}

/// The GLSL ES backend of a target. Backends hold no state: one per target (a static) serves every call.
pub fn backend(target: Target) -> &'static dyn Backend {
    static GLES100: GlslBackend = GlslBackend { dialect: &gles100::Gles100 };
    static GLES300: GlslBackend = GlslBackend { dialect: &gles300::Gles300 };
    match target {
        Target::Gles100 => &GLES100,
        Target::Gles300 => &GLES300,
    }
}

/// Both GLSL ES targets: the shared writer core with a dialect.
struct GlslBackend {
    dialect: &'static dyn dialect::Dialect,
}

impl Backend for GlslBackend {
    fn target(&self) -> Target {
        self.dialect.target()
    }

    fn header(&self, stage: Stage) -> String {
        self.dialect.header(stage)
    }

    fn emit_pass(&self, m: &ValidModule, pass: PassId, opts: &Options) -> Result<StageSources, Vec<BackendError>> {
        let module = m.module();
        let facts = m.facts();
        let Some(p) = module.passes.get(pass) else {
            return Err(vec![BackendError::no_program(self.target(), Default::default())]);
        };
        if !matches!(p.kind, PassKind::Program { .. }) {
            return Err(vec![BackendError::no_program(self.target(), p.span)]);
        }
        let scopes = module.pass_scopes(pass);
        let index = plan::ChainIndex::new(module, &scopes);
        let Some(program) = plan::ProgramPlan::new(module, facts, pass, scopes, &index) else {
            return Err(vec![BackendError::no_program(self.target(), p.span)]);
        };
        let mut errors = Vec::new();
        let mut reflection = reflection::Collector::new(module);
        let mut shared = writer::Shared::new(module, &program, &index);
        let mut write = |stage: Stage| {
            let written =
                writer::write_stage(module, facts, &program, stage, self.dialect, &mut reflection, &mut shared);
            written.unwrap_or_else(|mut e| {
                errors.append(&mut e);
                String::new()
            })
        };
        let (mut vertex, mut fragment) = (write(Stage::Vertex), write(Stage::Fragment));
        if !errors.is_empty() {
            errors.sort_by_key(|e| (e.span.file, e.span.start, e.span.end));
            errors.dedup();
            return Err(errors);
        }
        if opts.header {
            vertex.insert_str(0, &self.dialect.header(Stage::Vertex));
            fragment.insert_str(0, &self.dialect.header(Stage::Fragment));
        }
        Ok(StageSources { vertex, fragment, reflection: reflection.finish(module, &program) })
    }
}

#[cfg(test)]
mod tests;
