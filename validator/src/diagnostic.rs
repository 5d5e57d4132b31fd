//! Diagnostics: what went wrong (typed), where, how bad, and the related places.

use shaderlab_ir::{Clue, ClueKind, Module, Note, Severity, Span, StructureClue, SyntaxClue};

/// The catalogue, by category. Each rule variant carries its data; [`DiagnosticType::code`] is the stable name.
#[derive(Clone, Debug, PartialEq)]
pub enum DiagnosticType {
    /// S: syntax and preprocessing.
    Syntax(SyntaxClue),
    /// A: ShaderLab structure.
    Structure(StructureClue),
}

impl DiagnosticType {
    pub fn code(&self) -> &'static str {
        self.as_clue_kind().code()
    }

    pub fn severity(&self) -> Severity {
        self.as_clue_kind().severity()
    }

    fn as_clue_kind(&self) -> ClueKind {
        match self {
            DiagnosticType::Syntax(s) => ClueKind::Syntax(s.clone()),
            DiagnosticType::Structure(s) => ClueKind::Structure(s.clone()),
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
        let kind = match &clue.kind {
            ClueKind::Syntax(s) => DiagnosticType::Syntax(s.clone()),
            ClueKind::Structure(s) => DiagnosticType::Structure(s.clone()),
        };
        let severity = kind.severity();
        Diagnostic { kind, severity, span: clue.span, notes: clue.notes.clone() }
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

/// Every diagnostic known for a module, in source order.
pub fn collect(module: &Module) -> Vec<Diagnostic> {
    let mut diags: Vec<Diagnostic> = module.clues.iter().map(Diagnostic::from_clue).collect();
    diags.sort_by_cached_key(|d| source_order(module, d.span));
    diags
}
