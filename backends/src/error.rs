//! What a backend refuses: target-divergent constructs (`spec/diagnostics.md`, "Backend-reported"), as typed values
//! with a span; the message is derived, in glslang's `'token' : text` style.

use crate::Target;
use shaderlab_ir::Span;

/// Why a construct cannot be written for a target.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Unsupported {
    /// A type the target lacks (`uint`, `mat2x3`, `sampler3D` in GLSL ES 1.00).
    Type,
    /// An operator the target lacks (bitwise and shift operators, `%` in GLSL ES 1.00).
    Operator,
    /// A qualifier the target lacks (`flat`, `centroid`, `layout` in GLSL ES 1.00).
    Qualifier,
    /// A statement the target lacks (`do`-`while` in GLSL ES 1.00).
    Statement,
    /// A `switch` that cannot become an if-chain (a case falls through into a non-empty case, or a `break`
    /// leaves the switch from inside a nested statement).
    Switch,
    /// A builtin function with no equivalent in the target.
    Builtin,
    /// A builtin variable with no equivalent in the target.
    BuiltinVariable,
    /// A texture lookup whose sampler the target has no function for (`textureGrad` in a GLSL ES 1.00 vertex shader).
    TextureLookup,
    /// An integer attribute (GLSL ES 1.00 attributes are float).
    IntegerAttribute,
    /// Array constructors, array assignment, `.length()`, unsized arrays or arrays as return types (GLSL ES 3.00 only).
    ArrayFeature,
    /// A `uint` literal.
    UintLiteral,
    /// `gl_FragData[i]` with an index that is not a constant (GLSL ES 3.00 declares one output per index).
    FragDataIndex,
    /// An MRT member that `gl_FragData[N]` (a `vec4`) cannot stand for.
    MrtMember,
    /// An interface name (uniform, attribute, varying, output) that is a reserved word of the target.
    ReservedInterfaceName,
    /// Two interface declarations of different kinds with one name (`first` is the other kind).
    InterfaceCollision { first: &'static str, second: &'static str },
}

/// The typed content of a backend error.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BackendErrorKind {
    /// `token` cannot be written for `target`.
    UnsupportedInTarget { token: String, reason: Unsupported, target: Target },
    /// `float a[2][3]`: GLSL ES has no arrays of arrays.
    ArrayOfArrays { name: String },
    /// The pass has no program (a UsePass) or no entries.
    NoProgram { target: Target },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BackendError {
    pub kind: BackendErrorKind,
    pub span: Span,
}

impl BackendError {
    pub(crate) fn unsupported(target: Target, token: impl Into<String>, reason: Unsupported, span: Span) -> Self {
        BackendError { kind: BackendErrorKind::UnsupportedInTarget { token: token.into(), reason, target }, span }
    }

    pub(crate) fn no_program(target: Target, span: Span) -> Self {
        BackendError { kind: BackendErrorKind::NoProgram { target }, span }
    }

    /// The stable code (`spec/diagnostics.md`).
    pub fn code(&self) -> &'static str {
        match self.kind {
            BackendErrorKind::UnsupportedInTarget { .. } | BackendErrorKind::NoProgram { .. } => "UnsupportedInTarget",
            BackendErrorKind::ArrayOfArrays { .. } => "ArrayOfArrays",
        }
    }

    pub fn message(&self) -> String {
        match &self.kind {
            BackendErrorKind::ArrayOfArrays { name } => {
                format!("'{name}' : arrays of arrays are not available in GLSL ES")
            }
            BackendErrorKind::NoProgram { target } => {
                format!("'pass' : has no program to write as {}", target.language())
            }
            BackendErrorKind::UnsupportedInTarget { token, reason, target } => {
                let lang = target.language();
                let text = match reason {
                    Unsupported::Type => format!("type not available in {lang}"),
                    Unsupported::Operator => format!("operator not available in {lang}"),
                    Unsupported::Qualifier => format!("qualifier not available in {lang}"),
                    Unsupported::Statement => format!("statement not available in {lang}"),
                    Unsupported::Switch => format!(
                        "{lang} has no switch, and this one cannot become an if-chain (a case falls through into \
                         a non-empty case, or a 'break' sits inside a nested statement)"
                    ),
                    Unsupported::Builtin => format!("builtin function not available in {lang}"),
                    Unsupported::BuiltinVariable => format!("builtin variable not available in {lang}"),
                    Unsupported::TextureLookup => {
                        format!("no {lang} texture function for this sampler and stage")
                    }
                    Unsupported::IntegerAttribute => format!("integer attributes are not available in {lang}"),
                    Unsupported::ArrayFeature => format!("array feature not available in {lang}"),
                    Unsupported::UintLiteral => format!("unsigned literals are not available in {lang}"),
                    Unsupported::FragDataIndex => {
                        format!("index must be a constant expression to map gl_FragData to {lang} outputs")
                    }
                    Unsupported::MrtMember => {
                        format!("an MRT output must be a vec4 to map to gl_FragData in {lang}")
                    }
                    Unsupported::ReservedInterfaceName => {
                        format!("reserved word in {lang}; interface names cannot be renamed")
                    }
                    Unsupported::InterfaceCollision { first, second } => {
                        format!("name of both a {first} and a {second}; interface names cannot be renamed")
                    }
                };
                format!("'{token}' : {text}")
            }
        }
    }
}
