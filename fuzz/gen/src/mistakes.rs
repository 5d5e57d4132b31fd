//! Catalogue mistakes: one known error inserted into a generated (diagnostic-free) program at a recorded
//! [`Site`], with the one diagnostic a compiler must then report — its code, severity and position.
//!
//! | mistake | edit | expected |
//! |---|---|---|
//! | [`Mistake::MisspelledName`] | a variable read `name` becomes `namex` | UndeclaredIdentifier at the name |
//! | [`Mistake::ConstructorArity`] | `vec3(a, b, c)` becomes `vec3(a, b)` | ConstructorArgCount at `vec3` |
//! | [`Mistake::RemovedReturn`] | the final `return e;` of a function is deleted | MissingReturn: an error at the function name, or a warning at its closing brace when another `return` remains |

use crate::render::{Site, SiteKind};
use crate::GeneratedProgram;

/// The kinds of mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mistake {
    MisspelledName,
    ConstructorArity,
    RemovedReturn,
}

impl Mistake {
    pub fn of(site: &Site) -> Mistake {
        match site.kind {
            SiteKind::VariableRead { .. } => Mistake::MisspelledName,
            SiteKind::ConstructorArgs { .. } => Mistake::ConstructorArity,
            SiteKind::FinalReturn { .. } => Mistake::RemovedReturn,
        }
    }
}

/// The diagnostic a mistake must produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    pub code: &'static str,
    /// `"error"` or `"warning"`.
    pub severity: &'static str,
    /// Byte offset in the mutated source.
    pub offset: usize,
    /// 1-based.
    pub line: u32,
    /// 1-based, in bytes (generated sources are ASCII).
    pub column: u32,
    /// Inside a conditional region: a preserving check adds a note naming the condition.
    pub in_conditional: bool,
}

/// A program with one mistake inserted.
#[derive(Clone, Debug)]
pub struct Mutated {
    pub source: String,
    pub mistake: Mistake,
    /// What was changed, for messages.
    pub description: String,
    pub expected: Expected,
}

/// 1-based line and column of a byte offset.
pub fn line_column(source: &str, offset: usize) -> (u32, u32) {
    let before = &source.as_bytes()[..offset.min(source.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    (line, (offset.min(source.len()) - line_start) as u32 + 1)
}

fn expected(source: &str, code: &'static str, severity: &'static str, offset: usize, in_conditional: bool) -> Expected {
    let (line, column) = line_column(source, offset);
    Expected { code, severity, offset, line, column, in_conditional }
}

/// Insert the mistake of `program.sites[site]`.
///
/// # Panics
/// When `site` is out of range.
pub fn insert(program: &GeneratedProgram, site: usize) -> Mutated {
    let s = &program.sites[site];
    let src = &program.source;
    let mistake = Mistake::of(s);
    match &s.kind {
        SiteKind::VariableRead { name } => {
            let end = s.offset + name.len();
            let source = format!("{}{name}x{}", &src[..s.offset], &src[end..]);
            let expected = expected(&source, "UndeclaredIdentifier", "error", s.offset, s.in_conditional);
            Mutated { source, mistake, description: format!("'{name}' misspelled '{name}x'"), expected }
        }
        SiteKind::ConstructorArgs { drop } => {
            let source = format!("{}{}", &src[..drop.start], &src[drop.end..]);
            let expected = expected(&source, "ConstructorArgCount", "error", s.offset, s.in_conditional);
            let call_end = src[drop.end..].find(')').map_or(drop.end, |i| drop.end + i + 1);
            let description = format!("'{}' lost its last argument", &src[s.offset..call_end]);
            Mutated { source, mistake, description, expected }
        }
        SiteKind::FinalReturn { range, function, other_returns, close_brace } => {
            let source = format!("{}{}", &src[..range.start], &src[range.end..]);
            let (severity, offset) =
                if *other_returns { ("warning", close_brace - range.len()) } else { ("error", s.offset) };
            let expected = expected(&source, "MissingReturn", severity, offset, s.in_conditional);
            let description = format!("the final '{}' of '{function}' removed", &src[range.clone()]);
            Mutated { source, mistake, description, expected }
        }
    }
}
