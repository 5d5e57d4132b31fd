//! Diagnostics: what went wrong (typed), where, how bad, and the related places.

use shaderlab_ir::{Clue, ClueKind, Module, Note, Severity, Span, StructureClue, SyntaxClue};
use shaderlab_passes::{Facts, PassClue, PassClueKind, SymbolClue, TypeClue};

/// The catalogue, by category. Each rule variant carries its data; [`DiagnosticType::code`] is the stable name.
#[derive(Clone, Debug, PartialEq)]
pub enum DiagnosticType {
    /// S: syntax and preprocessing.
    Syntax(SyntaxClue),
    /// A: ShaderLab structure.
    Structure(StructureClue),
    /// E: symbols and scopes.
    Symbol(SymbolClue),
    /// B, D and F rules decided by typing.
    Type(TypeClue),
    /// F: RecursiveFunction (`cycle` in source order).
    Recursion { function: String, cycle: Vec<String> },
    /// G: pipeline IO.
    Io(shaderlab_passes::io::IoClue),
    /// C: constants (and the constant-value checks of B and F).
    Const(shaderlab_passes::consts::ConstClue),
    /// F and D rules of the validator's own flow and placement checks.
    Flow(crate::flow::FlowRule),
    /// Backend-reported: a construct the chosen target cannot express. The backend owns the typed data and
    /// words the message (`'token' : text`); the validator only carries it.
    Backend { code: BackendCode, message: String },
}

/// Codes of target-divergent constructs (`spec/diagnostics.md`, "Backend-reported").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendCode {
    /// Legal ShaderLab the target cannot express (`switch` with fallthrough, `uint`, bitwise operators, `flat`,
    /// ES 3.00-only builtins in GLSL ES 1.00; reserved interface names).
    UnsupportedInTarget,
    /// `float a[2][3]`: no GLSL ES version has arrays of arrays.
    ArrayOfArrays,
}

impl BackendCode {
    pub fn name(self) -> &'static str {
        match self {
            BackendCode::UnsupportedInTarget => "UnsupportedInTarget",
            BackendCode::ArrayOfArrays => "ArrayOfArrays",
        }
    }
}

impl DiagnosticType {
    pub fn code(&self) -> &'static str {
        match self {
            DiagnosticType::Syntax(s) => s.code(),
            DiagnosticType::Structure(s) => s.code(),
            DiagnosticType::Symbol(s) => s.code(),
            DiagnosticType::Type(t) => t.code(),
            DiagnosticType::Recursion { .. } => "RecursiveFunction",
            DiagnosticType::Io(i) => i.code(),
            DiagnosticType::Const(c) => c.code(),
            DiagnosticType::Flow(f) => f.code(),
            DiagnosticType::Backend { code, .. } => code.name(),
        }
    }

    pub fn severity(&self) -> Severity {
        match self {
            DiagnosticType::Syntax(s) => s.severity(),
            DiagnosticType::Structure(s) => s.severity(),
            DiagnosticType::Symbol(SymbolClue::ShadowedDeclaration { .. }) => Severity::Warning,
            DiagnosticType::Io(shaderlab_passes::io::IoClue::VaryingNotWritten { .. }) => Severity::Warning,
            DiagnosticType::Io(_) => Severity::Error,
            DiagnosticType::Const(
                shaderlab_passes::consts::ConstClue::ConstDivideByZero { .. }
                | shaderlab_passes::consts::ConstClue::ShiftOutOfRange { .. },
            ) => Severity::Warning,
            DiagnosticType::Const(_) => Severity::Error,
            DiagnosticType::Flow(f) => f.severity(),
            DiagnosticType::Symbol(_)
            | DiagnosticType::Type(_)
            | DiagnosticType::Recursion { .. }
            | DiagnosticType::Backend { .. } => Severity::Error,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub kind: DiagnosticType,
    pub severity: Severity,
    pub span: Span,
    pub notes: Vec<Note>,
}

impl Diagnostic {
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    pub fn message(&self) -> String {
        crate::messages::message(&self.kind)
    }

    pub fn from_clue(clue: &Clue) -> Diagnostic {
        Diagnostic::from(clue.clone())
    }
}

/// A frontend clue's diagnostic, taking its data (no copy).
impl From<Clue> for Diagnostic {
    fn from(clue: Clue) -> Diagnostic {
        let kind = match clue.kind {
            ClueKind::Syntax(s) => DiagnosticType::Syntax(s),
            ClueKind::Structure(s) => DiagnosticType::Structure(s),
        };
        let severity = kind.severity();
        Diagnostic { kind, severity, span: clue.span, notes: clue.notes }
    }
}

impl Diagnostic {
    /// A construct a backend refused, at `span`.
    pub fn backend(code: BackendCode, message: String, span: Span, notes: Vec<Note>) -> Diagnostic {
        let kind = DiagnosticType::Backend { code, message };
        let severity = kind.severity();
        Diagnostic { kind, severity, span, notes }
    }

    pub fn from_pass_clue(clue: &PassClue) -> Diagnostic {
        let kind = match &clue.kind {
            PassClueKind::Symbol(s) => DiagnosticType::Symbol(s.clone()),
            PassClueKind::Type(t) => DiagnosticType::Type(t.clone()),
            PassClueKind::Recursion { function, cycle } => {
                DiagnosticType::Recursion { function: function.clone(), cycle: cycle.clone() }
            }
            PassClueKind::Io(i) => DiagnosticType::Io(i.clone()),
            PassClueKind::Const(c) => DiagnosticType::Const(c.clone()),
        };
        let severity = kind.severity();
        let mut notes: Vec<Note> =
            clue.notes.iter().map(|n| Note { span: n.span, message: n.message.clone() }).collect();
        if !clue.conditions.is_empty() {
            notes.push(Note { span: None, message: format!("in variants where {}", clue.conditions.join(" and ")) });
        }
        Diagnostic { kind, severity, span: clue.span, notes }
    }
}

/// Position of a span as seen from the main file: the offsets of each enclosing `#include` directive, outermost
/// first, then the span's own offset. Sorting by it puts diagnostics in source order across included chunks.
fn source_order(module: &Module, span: Span) -> Vec<u32> {
    let mut key = vec![span.start];
    let mut file = span.file;
    let mut guard = 0;
    while let Some(from) = module.sources.file(file).and_then(|f| f.included_from) {
        key.push(from.start);
        file = from.file;
        guard += 1;
        if guard > 64 {
            break;
        }
    }
    key.reverse();
    key
}

/// Every diagnostic known for a module, in source order: the frontend's clues, then (when given) the passes'.
pub fn collect(module: &Module, facts: Option<&Facts>) -> Vec<Diagnostic> {
    collect_taking(module, module.clues.clone(), facts)
}

/// [`collect`] for a module whose frontend clues were moved out of it (`clues`, as they were in
/// [`Module::clues`]): each clue's data moves into its diagnostic instead of being copied.
pub fn collect_taking(module: &Module, clues: Vec<Clue>, facts: Option<&Facts>) -> Vec<Diagnostic> {
    // Whether the frontend lost part of the source to an error (whole-function flow rules then stay silent).
    let incomplete = clues.iter().any(|c| c.kind.severity() == Severity::Error);
    let mut diags: Vec<Diagnostic> = clues.into_iter().map(Diagnostic::from).collect();
    if let Some(facts) = facts {
        diags.extend(facts.clues().map(Diagnostic::from_pass_clue));
        diags.extend(crate::flow::check(module, facts, incomplete));
    }
    // Spans in files that were not included (the main file) order by their offset alone: a plain stable sort, with no
    // key vector per diagnostic. Both sorts are stable, so equal keys keep their collection order either way.
    let included = |d: &Diagnostic| module.sources.file(d.span.file).is_some_and(|f| f.included_from.is_some());
    if diags.iter().any(included) {
        diags.sort_by_cached_key(|d| source_order(module, d.span));
    } else {
        diags.sort_by_key(|d| d.span.start);
    }
    diags
}
