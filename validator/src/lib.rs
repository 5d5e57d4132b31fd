//! The diagnostic catalogue of shaderlab (`spec/diagnostics.md`): [`Diagnostic`], its typed
//! [`DiagnosticType`] (category -> rule, each variant carrying its data), messages in glslang's
//! `'token' : text` style, and rendering (human through codespan-reporting, JSON).
//!
//! This crate turns clues left by the frontend (and, as they land, the passes) into diagnostics; the
//! whole-program rules and `ValidModule` arrive with the validator issue.

pub mod catalogue;
pub mod diagnostic;
pub mod flow;
pub mod messages;
pub mod policy;
pub mod render;
pub mod valid;

pub use diagnostic::{collect, collect_taking, BackendCode, Diagnostic, DiagnosticType};
pub use policy::WarningPolicy;
pub use render::{render_human, render_json, summary};
pub use valid::{validate, validate_taking, ValidModule};
