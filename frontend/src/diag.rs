//! Collects the frontend's clues (error-as-clue) with deduplication: one place, one code, one clue.

use shaderlab_ir::hash::FastHashSet as HashSet;
use shaderlab_ir::{Clue, ClueKind, Span, StructureClue, SyntaxClue};

#[derive(Default)]
pub struct Sink {
    pub clues: Vec<Clue>,
    /// The place and code of every clue, built once there are [`SCAN_LIMIT`] clues; fewer are compared one by
    /// one (most compiles report a handful, and the set would cost more to build than the scans).
    seen: HashSet<(Span, &'static str)>,
}

/// Up to this many clues, a new one is checked against each; past it, against the `seen` set.
const SCAN_LIMIT: usize = 16;

impl Sink {
    pub fn push(&mut self, clue: Clue) {
        let code = clue.kind.code();
        if self.clues.len() < SCAN_LIMIT {
            // Room for the scanned clues at the first one: a file with a handful of problems (deprecated render
            // states report one per property) does not regrow the list of large clues two or three times.
            if self.clues.capacity() == 0 {
                self.clues.reserve_exact(SCAN_LIMIT);
            }
            if self.clues.iter().any(|c| c.span == clue.span && c.kind.code() == code) {
                return;
            }
        } else {
            if self.seen.is_empty() {
                self.seen.extend(self.clues.iter().map(|c| (c.span, c.kind.code())));
            }
            if !self.seen.insert((clue.span, code)) {
                return;
            }
        }
        self.clues.push(clue);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clue_is_kept_once_per_place_and_code_below_and_past_the_scan_limit() {
        let mut sink = Sink::default();
        let span = |i: u32| Span { start: i, end: i + 1, ..Span::default() };
        for round in 0..3 {
            for i in 0..(SCAN_LIMIT as u32 * 3) {
                sink.syntax(SyntaxClue::UnterminatedComment, span(i));
                sink.structure(StructureClue::MissingEntry { pass: "p".into(), stage: "s".into() }, span(i));
            }
            assert_eq!(sink.clues.len(), SCAN_LIMIT * 6, "round {round}");
        }
    }
}
