//! Clues left by the passes (error-as-clue): what is impossible, where, and the related places. The validator
//! turns each into a diagnostic; passes never print.

use shaderlab_ir::Span;

/// Category E: symbols and scopes.
#[derive(Clone, Debug, PartialEq)]
pub enum SymbolClue {
    /// A name that resolves to no declaration in scope; `suggestion` is the did-you-mean candidate.
    UndeclaredIdentifier { name: String, suggestion: Option<String> },
    /// A name used above its declaration (or a function called before its definition without a prototype).
    UseBeforeDeclaration { name: String },
    /// Two declarations of one name in one scope.
    Redefinition { name: String },
    /// A call to a name that is no function, builtin or struct.
    UndefinedFunction { name: String, suggestion: Option<String> },
    /// A local hiding a parameter, an outer local or a global (warning).
    ShadowedDeclaration { name: String },
}

impl SymbolClue {
    pub fn code(&self) -> &'static str {
        match self {
            SymbolClue::UndeclaredIdentifier { .. } => "UndeclaredIdentifier",
            SymbolClue::UseBeforeDeclaration { .. } => "UseBeforeDeclaration",
            SymbolClue::Redefinition { .. } => "Redefinition",
            SymbolClue::UndefinedFunction { .. } => "UndefinedFunction",
            SymbolClue::ShadowedDeclaration { .. } => "ShadowedDeclaration",
        }
    }
}

/// Categories B (types and expressions), D (resources) and F (functions), as far as typing decides them.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeClue {
    InvalidBinaryOperands {
        op: String,
        left: String,
        right: String,
    },
    InvalidUnaryOperand {
        op: String,
        operand: String,
    },
    /// Too few or too many components or arguments for a constructor.
    ConstructorArgCount {
        ty: String,
        detail: String,
    },
    ConstructorArgType {
        ty: String,
        arg: String,
    },
    /// A single-argument vector/matrix constructor from something smaller than the result.
    InvalidSplat {
        ty: String,
        arg: String,
    },
    InvalidSwizzle {
        swizzle: String,
        ty: String,
        reason: String,
    },
    UndeclaredStructMember {
        member: String,
        ty: String,
    },
    NonIndexableType {
        ty: String,
    },
    NonIntegerIndex {
        ty: String,
    },
    /// A scalar constructor from a non-convertible value.
    InvalidConversion {
        ty: String,
        arg: String,
    },
    NotAnLValue {
        what: String,
    },
    NoMatchingOverload {
        name: String,
        args: Vec<String>,
        candidates: Vec<String>,
    },
    ExpectedSampler {
        name: String,
        found: String,
    },
    ReturnTypeMismatch {
        expected: String,
        found: String,
    },
    AssignTypeMismatch {
        target: String,
        value: String,
    },
    NonBoolCondition {
        found: String,
    },
    NonIntegerSwitch {
        found: String,
    },
    ReturnInVoidFunction,
    NonConstructibleReturnType {
        ty: String,
    },
    InvalidUniformType {
        ty: String,
    },
}

impl TypeClue {
    pub fn code(&self) -> &'static str {
        match self {
            TypeClue::InvalidBinaryOperands { .. } => "InvalidBinaryOperands",
            TypeClue::InvalidUnaryOperand { .. } => "InvalidUnaryOperand",
            TypeClue::ConstructorArgCount { .. } => "ConstructorArgCount",
            TypeClue::ConstructorArgType { .. } => "ConstructorArgType",
            TypeClue::InvalidSplat { .. } => "InvalidSplat",
            TypeClue::InvalidSwizzle { .. } => "InvalidSwizzle",
            TypeClue::UndeclaredStructMember { .. } => "UndeclaredStructMember",
            TypeClue::NonIndexableType { .. } => "NonIndexableType",
            TypeClue::NonIntegerIndex { .. } => "NonIntegerIndex",
            TypeClue::InvalidConversion { .. } => "InvalidConversion",
            TypeClue::NotAnLValue { .. } => "NotAnLValue",
            TypeClue::NoMatchingOverload { .. } => "NoMatchingOverload",
            TypeClue::ExpectedSampler { .. } => "ExpectedSampler",
            TypeClue::ReturnTypeMismatch { .. } => "ReturnTypeMismatch",
            TypeClue::AssignTypeMismatch { .. } => "AssignTypeMismatch",
            TypeClue::NonBoolCondition { .. } => "NonBoolCondition",
            TypeClue::NonIntegerSwitch { .. } => "NonIntegerSwitch",
            TypeClue::ReturnInVoidFunction => "ReturnInVoidFunction",
            TypeClue::NonConstructibleReturnType { .. } => "NonConstructibleReturnType",
            TypeClue::InvalidUniformType { .. } => "InvalidUniformType",
        }
    }
}

/// A clue of any pass.
#[derive(Clone, Debug, PartialEq)]
pub enum PassClueKind {
    Symbol(SymbolClue),
    Type(TypeClue),
    /// RecursiveFunction: a call cycle (`cycle` lists its functions in source order).
    Recursion {
        function: String,
        cycle: Vec<String>,
    },
    /// G: pipeline IO.
    Io(crate::io::IoClue),
    /// C and the constant-value rules.
    Const(crate::consts::ConstClue),
}

impl PassClueKind {
    pub fn code(&self) -> &'static str {
        match self {
            PassClueKind::Symbol(s) => s.code(),
            PassClueKind::Type(t) => t.code(),
            PassClueKind::Recursion { .. } => "RecursiveFunction",
            PassClueKind::Io(i) => i.code(),
            PassClueKind::Const(c) => c.code(),
        }
    }
}

/// A secondary place.
#[derive(Clone, Debug, PartialEq)]
pub struct PassNote {
    pub span: Option<Span>,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PassClue {
    pub kind: PassClueKind,
    pub span: Span,
    pub notes: Vec<PassNote>,
    /// The preprocessor conditions the problem sits under, described (`MATERIAL_HAS_BASETEXTURE is defined`).
    pub conditions: Vec<String>,
}

impl PassClue {
    pub fn new(kind: PassClueKind, span: Span) -> Self {
        PassClue { kind, span, notes: Vec::new(), conditions: Vec::new() }
    }

    pub fn note(mut self, span: Option<Span>, message: impl Into<String>) -> Self {
        self.notes.push(PassNote { span, message: message.into() });
        self
    }
}
