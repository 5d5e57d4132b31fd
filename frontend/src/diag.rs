//! Collects the frontend's clues (error-as-clue) with deduplication: one place, one code, one clue.

use shaderlab_ir::hash::FastHashSet as HashSet;
use shaderlab_ir::{Clue, ClueKind, Span, StructureClue, SyntaxClue};

#[derive(Default)]
pub struct Sink {
    pub clues: Vec<Clue>,
    seen: HashSet<(Span, &'static str)>,
}

impl Sink {
    pub fn push(&mut self, clue: Clue) {
        if self.seen.insert((clue.span, clue.kind.code())) {
            self.clues.push(clue);
        }
    }

    pub fn syntax(&mut self, kind: SyntaxClue, span: Span) {
        self.push(Clue::new(ClueKind::Syntax(kind), span));
    }

    pub fn structure(&mut self, kind: StructureClue, span: Span) {
        self.push(Clue::new(ClueKind::Structure(kind), span));
    }

    pub fn error_count(&self) -> usize {
        self.clues.len()
    }
}
