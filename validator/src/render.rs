//! Rendering diagnostics: human (codespan-reporting: file:line:col, context lines, carets, notes) and JSON
//! (`{severity, code, message, file, range: {start: {line, column, offset}, end}, notes}`).

use crate::diagnostic::Diagnostic;
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, LabelStyle, Severity as CsSeverity};
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::{self, termcolor::WriteColor};
use serde_json::{json, Value};
use shaderlab_ir::{FileId, Module, Severity, SourceMap, Span};
use std::ops::Range;

struct SourceFiles<'a>(&'a SourceMap);

impl<'a> Files<'a> for SourceFiles<'a> {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.0.file(id).map(|f| f.name.as_str()).ok_or(FilesError::FileMissing)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.0.file(id).map(|f| f.text.as_str()).ok_or(FilesError::FileMissing)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, FilesError> {
        let f = self.0.file(id).ok_or(FilesError::FileMissing)?;
        Ok(f.line_col(byte_index as u32).0 as usize - 1)
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, FilesError> {
        let f = self.0.file(id).ok_or(FilesError::FileMissing)?;
        let (start, end) = f
            .line_range(line_index as u32 + 1)
            .ok_or_else(|| FilesError::LineTooLarge { given: line_index, max: f.text.lines().count() })?;
        Ok(start..(end + 1).min(f.text.len()))
    }
}

/// Clamp a span into its file's text (on char boundaries) so rendering never fails.
fn clamp(map: &SourceMap, span: Span) -> Range<usize> {
    let Some(f) = map.file(span.file) else {
        return 0..0;
    };
    let len = f.text.len();
    let mut start = (span.start as usize).min(len);
    let mut end = (span.end as usize).min(len).max(start);
    while start > 0 && !f.text.is_char_boundary(start) {
        start -= 1;
    }
    while end < len && !f.text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

/// Render diagnostics for a person. Colour only when `writer` supports it.
pub fn render_human(module: &Module, diags: &[Diagnostic], writer: &mut dyn WriteColor) -> std::io::Result<()> {
    let files = SourceFiles(&module.sources);
    let config = term::Config { before_label_lines: 2, after_label_lines: 2, ..Default::default() };
    for d in diags {
        let severity = match d.severity {
            Severity::Error => CsSeverity::Error,
            Severity::Warning => CsSeverity::Warning,
        };
        let mut labels = vec![Label::new(LabelStyle::Primary, d.span.file, clamp(&module.sources, d.span))];
        let mut notes = Vec::new();
        for n in &d.notes {
            match n.span {
                Some(s) => labels.push(
                    Label::new(LabelStyle::Secondary, s.file, clamp(&module.sources, s)).with_message(&n.message),
                ),
                None => notes.push(n.message.clone()),
            }
        }
        // Where an included chunk was included from.
        if let Some(from) = module.sources.file(d.span.file).and_then(|f| f.included_from) {
            labels.push(
                Label::new(LabelStyle::Secondary, from.file, clamp(&module.sources, from))
                    .with_message("included here"),
            );
        }
        let diagnostic = CsDiagnostic::new(severity)
            .with_message(d.message())
            .with_code(d.code())
            .with_labels(labels)
            .with_notes(notes);
        term::emit_to_write_style(writer, &config, &files, &diagnostic).map_err(std::io::Error::other)?;
    }
    Ok(())
}

fn position(map: &SourceMap, file: FileId, offset: u32) -> Value {
    let (line, column) = map.file(file).map(|f| f.line_col(offset)).unwrap_or((1, 1));
    json!({ "line": line, "column": column, "offset": offset })
}

fn range(map: &SourceMap, span: Span) -> Value {
    let r = clamp(map, span);
    json!({ "start": position(map, span.file, r.start as u32), "end": position(map, span.file, r.end as u32) })
}

fn file_name(map: &SourceMap, file: FileId) -> String {
    map.file(file).map(|f| f.name.clone()).unwrap_or_default()
}

/// One diagnostic as JSON.
pub fn diagnostic_json(module: &Module, d: &Diagnostic) -> Value {
    let map = &module.sources;
    let notes: Vec<Value> = d
        .notes
        .iter()
        .map(|n| match n.span {
            Some(s) => json!({ "message": n.message, "file": file_name(map, s.file), "range": range(map, s) }),
            None => json!({ "message": n.message }),
        })
        .collect();
    json!({
        "severity": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
        "code": d.code(),
        "message": d.message(),
        "file": file_name(map, d.span.file),
        "range": range(map, d.span),
        "notes": notes,
    })
}

/// `{"file": ..., "diagnostics": [...]}`
pub fn render_json(module: &Module, file: &str, diags: &[Diagnostic]) -> Value {
    json!({ "file": file, "diagnostics": diags.iter().map(|d| diagnostic_json(module, d)).collect::<Vec<_>>() })
}

/// `2 errors, 1 warning`
pub fn summary(diags: &[Diagnostic]) -> String {
    let errors = diags.iter().filter(|d| d.severity == Severity::Error).count();
    let warnings = diags.len() - errors;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    format!("{}, {}", plural(errors, "error"), plural(warnings, "warning"))
}
