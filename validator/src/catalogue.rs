//! The list of diagnostic codes this compiler reports, with their category and default severity: the single
//! source the fixture test checks against (every code needs `tests/fixtures/<Code>/`).

use shaderlab_ir::Severity;

/// Categories of `spec/diagnostics.md` (plus the backend-reported codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// S: syntax and preprocessing.
    Syntax,
    /// A: ShaderLab structure.
    Structure,
}

/// `(code, category, severity)` of every implemented rule. `LimitExceeded` is ours (resource limits).
pub const CODES: &[(&str, Category, Severity)] = &[
    ("UnexpectedToken", Category::Syntax, Severity::Error),
    ("UnterminatedComment", Category::Syntax, Severity::Error),
    ("UnterminatedString", Category::Syntax, Severity::Error),
    ("InvalidNumber", Category::Syntax, Severity::Error),
    ("IncludeNotFound", Category::Syntax, Severity::Error),
    ("IncludeCycle", Category::Syntax, Severity::Error),
    ("DuplicateInclude", Category::Syntax, Severity::Warning),
    ("UnbalancedConditional", Category::Syntax, Severity::Error),
    ("InvalidDirective", Category::Syntax, Severity::Error),
    ("MacroArgCount", Category::Syntax, Severity::Error),
    ("InvalidMacroCondition", Category::Syntax, Severity::Error),
    ("DeprecatedSyntax", Category::Syntax, Severity::Warning),
    ("LimitExceeded", Category::Syntax, Severity::Error),
    ("MissingEntry", Category::Structure, Severity::Error),
    ("DuplicateEntryAssignment", Category::Structure, Severity::Error),
    ("EntryNotFound", Category::Structure, Severity::Error),
    ("InvalidRenderStateProperty", Category::Structure, Severity::Error),
    ("InvalidRenderStateValue", Category::Structure, Severity::Error),
    ("RenderStateTypeMismatch", Category::Structure, Severity::Error),
    ("UndeclaredRenderStateVariable", Category::Structure, Severity::Error),
    ("InvalidRenderTargetIndex", Category::Structure, Severity::Error),
    ("InvalidTag", Category::Structure, Severity::Error),
];
