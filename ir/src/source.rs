//! The files that took part in a compile, so that every span can be shown to a person.

use crate::span::{FileId, Span};
use cranelift_entity::PrimaryMap;
use serde::{Deserialize, Serialize};

/// One source text: the main ShaderLab file or an included chunk (one entry per inclusion site).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SourceFile {
    /// The path or include key the text was read under.
    pub name: String,
    pub text: String,
    /// The `#include` directive that brought this chunk in; `None` for the main file.
    pub included_from: Option<Span>,
    /// Byte offsets where lines start, computed on first use (only diagnostics need it).
    #[serde(skip)]
    line_starts: std::sync::OnceLock<Vec<u32>>,
}

/// Equality of what a file is (its line table is a cache, absent after deserialization).
impl PartialEq for SourceFile {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.text == other.text && self.included_from == other.included_from
    }
}

impl SourceFile {
    pub fn new(name: String, text: String, included_from: Option<Span>) -> Self {
        SourceFile { name, text, included_from, line_starts: std::sync::OnceLock::new() }
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0u32];
            starts.extend(self.text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i as u32 + 1));
            starts
        })
    }

    /// 1-based line and column (in characters) of a byte offset; offsets past the end clamp to the end.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let offset = offset.min(self.text.len() as u32);
        let starts = self.line_starts();
        let line = match starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = starts[line] as usize;
        let mut end = offset as usize;
        while end > start && !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let column = self.text.get(start..end).map(|s| s.chars().count()).unwrap_or(0);
        (line as u32 + 1, column as u32 + 1)
    }

    /// Byte range of a 1-based line, without its line break.
    pub fn line_range(&self, line: u32) -> Option<(usize, usize)> {
        let starts = self.line_starts();
        let i = (line as usize).checked_sub(1)?;
        let start = *starts.get(i)? as usize;
        let end = starts.get(i + 1).map(|&e| e as usize - 1).unwrap_or(self.text.len());
        Some((start, end))
    }
}

/// Every file of a compile, keyed by [`FileId`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SourceMap {
    pub files: PrimaryMap<FileId, SourceFile>,
}

impl SourceMap {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>, included_from: Option<Span>) -> FileId {
        self.files.push(SourceFile::new(name.into(), text.into(), included_from))
    }

    pub fn file(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id)
    }

    /// The text a span covers ("" when the span is not valid for its file).
    pub fn snippet(&self, span: Span) -> &str {
        self.files.get(span.file).and_then(|f| f.text.get(span.start as usize..span.end as usize)).unwrap_or("")
    }
}
