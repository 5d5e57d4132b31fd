//! The ShaderLab structure: shader, subshaders, passes, tags and merged render states.

use crate::module::ScopeId;
use crate::names::Name;
use crate::span::Span;
use cranelift_entity::entity_impl;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SubShaderId(u32);
entity_impl!(SubShaderId, "subshader");

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PassId(u32);
entity_impl!(PassId, "pass");

/// `key = "value"` in a `Tags { }` block.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tag {
    pub key: String,
    pub value: String,
    pub span: Span,
}

/// `VertexShader = name;` / `FragmentShader = name;`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntryRef {
    pub name: Name,
    pub span: Span,
}

/// A render-state value after merging.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RenderStateValue {
    Bool(bool),
    Number(f64),
    /// An enum member, by its engine number.
    Enum(i64),
    Color {
        r: f64,
        g: f64,
        b: f64,
        a: f64,
    },
    /// A render-state variable: the material property read at run time (its name, spelled by the module's
    /// interner).
    Variable(Name),
}

/// One merged property with the span of the assignment that won.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RenderStateEntry {
    pub value: RenderStateValue,
    pub span: Span,
}

/// A pass's effective render state, keyed by the engine's `RenderStateElementKey` numbers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RenderStateMap {
    pub entries: BTreeMap<u8, RenderStateEntry>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PassKind {
    /// `UsePass "shader/subshader/pass"`.
    UsePass { path: String },
    /// A pass with its own program. Its GLSL is the chain of scopes ending at `scope`.
    Program { scope: ScopeId, vertex: Option<EntryRef>, fragment: Option<EntryRef> },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pass {
    pub name: String,
    pub name_span: Span,
    pub subshader: SubShaderId,
    pub tags: Vec<Tag>,
    pub render_state: RenderStateMap,
    pub kind: PassKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubShader {
    pub name: String,
    pub name_span: Span,
    pub tags: Vec<Tag>,
    pub scope: ScopeId,
    pub passes: Vec<PassId>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shader {
    pub name: String,
    pub name_span: Span,
    pub scope: ScopeId,
    pub span: Span,
}
