//! Source locations: a file id and a byte range inside that file's text.

use cranelift_entity::entity_impl;
use serde::{Deserialize, Serialize};

/// A file that took part in a compile: the main source or one included chunk (see [`crate::SourceMap`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
pub struct FileId(u32);
entity_impl!(FileId, "file");

/// A byte range `start..end` in one file. Spans of synthesized tokens (macro expansions) point at the use site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: u32, end: u32) -> Self {
        Span { file, start, end: end.max(start) }
    }

    /// The smallest span covering both, when they are in the same file; `self` otherwise.
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span { file: self.file, start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    pub fn len(&self) -> u32 {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }

    /// An empty span at the end of this one.
    pub fn end_point(self) -> Span {
        Span { file: self.file, start: self.end, end: self.end }
    }
}
