//! Problems found by the frontend, kept as data (error-as-clue): category S (syntax and preprocessing) and
//! category A (ShaderLab structure) of the diagnostic catalogue. The validator turns them into diagnostics;
//! message wording and rendering are not the IR's business.

use crate::span::Span;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Severity {
    Error,
    Warning,
}

/// A secondary place involved in a problem, or a plain remark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Note {
    pub span: Option<Span>,
    pub message: String,
}

/// Category S: syntax and preprocessing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SyntaxClue {
    /// The parser expected something else (`expected` lists what).
    UnexpectedToken { found: String, expected: String },
    /// `/*` without `*/`.
    UnterminatedComment,
    /// `"` without closing quote on its line.
    UnterminatedString,
    /// A malformed numeric literal.
    InvalidNumber { text: String, reason: String },
    /// `#include` key without chunk (or escaping the include roots).
    IncludeNotFound { key: String },
    /// A chunk including itself, directly or not (`chain` is the include path).
    IncludeCycle { key: String, chain: Vec<String> },
    /// The same chunk included twice in one pass.
    DuplicateInclude { key: String },
    /// `#else`/`#elif`/`#endif` without `#if`, or `#if` without `#endif`, or a directive splitting a construct.
    UnbalancedConditional { directive: String, reason: String },
    /// A directive not allowed in a pass, or unknown.
    InvalidDirective { name: String },
    /// A function-like macro called with the wrong number of arguments.
    MacroArgCount { name: String, expected: usize, found: usize },
    /// An `#if` expression that does not evaluate.
    InvalidMacroCondition { text: String, reason: String },
    /// v1 syntax the engine still accepts, with what to write instead.
    DeprecatedSyntax(Deprecated),
    /// A resource limit (nesting depth, macro expansion, include depth) was reached.
    LimitExceeded { what: String, limit: usize },
}

/// A v1 construct, as the words the validator's message is made of. The fixed words (a state keyword, a value
/// type) are the frontend's static strings, so the clue costs no allocation for them, and copying it costs none
/// either; they are owned only in a clue read back from JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Deprecated {
    /// An anonymous render-state block `BlendState { ... }` (`state` is its keyword): write `BlendState = { ... }`.
    AnonymousBlock { state: Cow<'static, str> },
    /// A render-state variable used without a declaration: write `ty name;` before the use.
    UndeclaredVariable { name: String, ty: Cow<'static, str> },
}

/// Category A: ShaderLab structure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum StructureClue {
    /// A pass (not UsePass) lacks a vertex or fragment entry; `stage` is `VertexShader` or `FragmentShader`.
    MissingEntry { pass: String, stage: String },
    /// An entry assigned twice in one pass.
    DuplicateEntryAssignment { stage: String },
    /// An entry naming no function of the pass's text.
    EntryNotFound { name: String },
    /// A property that does not exist for the state kind.
    InvalidRenderStateProperty { state: String, property: String },
    /// `Enum.Member` that does not exist.
    InvalidRenderStateValue { value: String },
    /// A value of the wrong kind for the property.
    RenderStateTypeMismatch { property: String, expected: String, found: String },
    /// An identifier value that is neither a declared render-state variable nor a named state.
    UndeclaredRenderStateVariable { name: String },
    /// `[n]` where no index (or only `[0]`) is allowed.
    InvalidRenderTargetIndex { property: String, index: String },
    /// A malformed tag (key not a bare word, value not a string).
    InvalidTag { found: String },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ClueKind {
    Syntax(SyntaxClue),
    Structure(StructureClue),
}

impl SyntaxClue {
    /// The stable code of the catalogue.
    pub fn code(&self) -> &'static str {
        match self {
            SyntaxClue::UnexpectedToken { .. } => "UnexpectedToken",
            SyntaxClue::UnterminatedComment => "UnterminatedComment",
            SyntaxClue::UnterminatedString => "UnterminatedString",
            SyntaxClue::InvalidNumber { .. } => "InvalidNumber",
            SyntaxClue::IncludeNotFound { .. } => "IncludeNotFound",
            SyntaxClue::IncludeCycle { .. } => "IncludeCycle",
            SyntaxClue::DuplicateInclude { .. } => "DuplicateInclude",
            SyntaxClue::UnbalancedConditional { .. } => "UnbalancedConditional",
            SyntaxClue::InvalidDirective { .. } => "InvalidDirective",
            SyntaxClue::MacroArgCount { .. } => "MacroArgCount",
            SyntaxClue::InvalidMacroCondition { .. } => "InvalidMacroCondition",
            SyntaxClue::DeprecatedSyntax(_) => "DeprecatedSyntax",
            SyntaxClue::LimitExceeded { .. } => "LimitExceeded",
        }
    }

    pub fn severity(&self) -> Severity {
        match self {
            SyntaxClue::DuplicateInclude { .. } | SyntaxClue::DeprecatedSyntax(_) => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

impl StructureClue {
    /// The stable code of the catalogue.
    pub fn code(&self) -> &'static str {
        match self {
            StructureClue::MissingEntry { .. } => "MissingEntry",
            StructureClue::DuplicateEntryAssignment { .. } => "DuplicateEntryAssignment",
            StructureClue::EntryNotFound { .. } => "EntryNotFound",
            StructureClue::InvalidRenderStateProperty { .. } => "InvalidRenderStateProperty",
            StructureClue::InvalidRenderStateValue { .. } => "InvalidRenderStateValue",
            StructureClue::RenderStateTypeMismatch { .. } => "RenderStateTypeMismatch",
            StructureClue::UndeclaredRenderStateVariable { .. } => "UndeclaredRenderStateVariable",
            StructureClue::InvalidRenderTargetIndex { .. } => "InvalidRenderTargetIndex",
            StructureClue::InvalidTag { .. } => "InvalidTag",
        }
    }

    /// Every structure problem is an error.
    pub fn severity(&self) -> Severity {
        Severity::Error
    }
}

impl ClueKind {
    /// The stable code of the catalogue.
    pub fn code(&self) -> &'static str {
        match self {
            ClueKind::Syntax(s) => s.code(),
            ClueKind::Structure(s) => s.code(),
        }
    }

    pub fn severity(&self) -> Severity {
        match self {
            ClueKind::Syntax(s) => s.severity(),
            ClueKind::Structure(s) => s.severity(),
        }
    }
}

/// One problem: what, where, and the related places.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Clue {
    pub kind: ClueKind,
    pub span: Span,
    pub notes: Vec<Note>,
}

impl Clue {
    pub fn new(kind: ClueKind, span: Span) -> Self {
        Clue { kind, span, notes: Vec::new() }
    }

    pub fn with_note(mut self, span: Option<Span>, message: impl Into<String>) -> Self {
        self.notes.push(Note { span, message: message.into() });
        self
    }
}
