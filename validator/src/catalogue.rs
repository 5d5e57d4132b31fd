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
    /// B: types and expressions.
    Types,
    /// C: constants.
    Constants,
    /// D: resources and globals.
    Resources,
    /// E: symbols and scopes.
    Symbols,
    /// F: functions and control flow.
    Functions,
    /// G: pipeline IO.
    PipelineIo,
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
    ("InvalidSwizzle", Category::Types, Severity::Error),
    ("UndeclaredStructMember", Category::Types, Severity::Error),
    ("ConstructorArgCount", Category::Types, Severity::Error),
    ("InvalidSplat", Category::Types, Severity::Error),
    ("NonIndexableType", Category::Types, Severity::Error),
    ("IndexOutOfBounds", Category::Types, Severity::Error),
    ("ConstDivideByZero", Category::Types, Severity::Warning),
    ("ShiftOutOfRange", Category::Types, Severity::Warning),
    ("InvalidBinaryOperands", Category::Types, Severity::Error),
    ("InvalidUnaryOperand", Category::Types, Severity::Error),
    ("ConstructorArgType", Category::Types, Severity::Error),
    ("NonIntegerIndex", Category::Types, Severity::Error),
    ("InvalidConversion", Category::Types, Severity::Error),
    ("NotAnLValue", Category::Types, Severity::Error),
    ("NonConstArraySize", Category::Constants, Severity::Error),
    ("NonConstInitializer", Category::Constants, Severity::Error),
    ("InvalidUniformType", Category::Resources, Severity::Error),
    ("UniformInitializer", Category::Resources, Severity::Error),
    ("ExpectedSampler", Category::Resources, Severity::Error),
    ("UndeclaredIdentifier", Category::Symbols, Severity::Error),
    ("UseBeforeDeclaration", Category::Symbols, Severity::Error),
    ("Redefinition", Category::Symbols, Severity::Error),
    ("UndefinedFunction", Category::Symbols, Severity::Error),
    ("NoMatchingOverload", Category::Symbols, Severity::Error),
    ("ShadowedDeclaration", Category::Symbols, Severity::Warning),
    ("ReturnInVoidFunction", Category::Functions, Severity::Error),
    // Error without any return, warning when only some path falls off the end.
    ("MissingReturn", Category::Functions, Severity::Error),
    ("ReturnTypeMismatch", Category::Functions, Severity::Error),
    ("AssignTypeMismatch", Category::Functions, Severity::Error),
    ("NonConstructibleReturnType", Category::Functions, Severity::Error),
    ("NonBoolCondition", Category::Functions, Severity::Error),
    ("NonIntegerSwitch", Category::Functions, Severity::Error),
    ("DuplicateSwitchCase", Category::Functions, Severity::Error),
    // Error for two defaults, warning for none.
    ("InvalidSwitchDefault", Category::Functions, Severity::Error),
    ("MisplacedControlFlow", Category::Functions, Severity::Error),
    ("RecursiveFunction", Category::Functions, Severity::Error),
    ("UnreachableCode", Category::Functions, Severity::Warning),
    ("EmptyStatementBody", Category::Functions, Severity::Warning),
    ("VertexEntryReturnType", Category::PipelineIo, Severity::Error),
    ("FragmentEntryReturnType", Category::PipelineIo, Severity::Error),
    ("InvalidVaryingStruct", Category::PipelineIo, Severity::Error),
    ("NestedIOStruct", Category::PipelineIo, Severity::Error),
    ("StructRoleConflict", Category::PipelineIo, Severity::Error),
    ("GlFragColorWithMrt", Category::PipelineIo, Severity::Error),
    ("MissingVertexPosition", Category::PipelineIo, Severity::Error),
    ("NonFlatIntegerVarying", Category::PipelineIo, Severity::Error),
    ("InvalidMrtLocation", Category::PipelineIo, Severity::Error),
    ("VaryingNotWritten", Category::PipelineIo, Severity::Warning),
    ("StageMismatch", Category::PipelineIo, Severity::Error),
];
