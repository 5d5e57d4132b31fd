//! The ShaderLab structure parser: finds `Shader`, `SubShader`, `Pass`, `UsePass`, `Tags`, render-state
//! declarations and entry assignments in the main file's tokens, and hands every other token of each level to
//! the GLSL side as that level's text.
//!
//! Structure keywords are recognised only as whole words at the structural level: outside GLSL braces and
//! parentheses, at the start of a GLSL statement. Directive lines are passed through whole.

use crate::diag::Sink;
use crate::preprocess::DirectiveName;
use crate::token::{LexError, Punct, Token, TokenKind};
use shaderlab_ir::{Deprecated, Interner, Name, Span, StructureClue, SyntaxClue, Tag};
use std::ops::Range;

/// A render-state kind (`BlendState`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateKind {
    Blend,
    Depth,
    Stencil,
    Raster,
}

impl StateKind {
    pub fn from_keyword(text: &str) -> Option<StateKind> {
        Some(match text {
            "BlendState" => StateKind::Blend,
            "DepthState" => StateKind::Depth,
            "StencilState" => StateKind::Stencil,
            "RasterState" => StateKind::Raster,
            _ => return None,
        })
    }

    pub fn keyword(self) -> &'static str {
        match self {
            StateKind::Blend => "BlendState",
            StateKind::Depth => "DepthState",
            StateKind::Stencil => "StencilState",
            StateKind::Raster => "RasterState",
        }
    }
}

/// A value written on the right of a render-state property.
#[derive(Clone, Debug, PartialEq)]
pub enum RsValueSyntax {
    Bool(bool),
    Number(f64),
    /// `Enum.Member` (names are the tokens' interned spellings, as below: no string per property)
    EnumMember {
        enum_name: Name,
        member: Name,
    },
    /// `Color(r, g, b, a)` with 1 to 4 components.
    Color(Vec<f64>),
    /// A bare identifier: a render-state variable (or a bare `RenderQueueType` member).
    Ident(Name),
}

/// `Name[index] = value;`
#[derive(Clone, Debug, PartialEq)]
pub struct RsProp {
    pub name: Name,
    pub name_span: Span,
    pub index: Option<(String, Span)>,
    pub value: RsValueSyntax,
    pub value_span: Span,
}

/// One render-state statement of a level, in source order.
#[derive(Clone, Debug, PartialEq)]
pub enum RsItem {
    /// `BlendFactor name;` and the like.
    VarDecl { ty: &'static str, name: Name, span: Span },
    /// `BlendState name { ... }`
    NamedState { kind: StateKind, name: Name, props: Vec<RsProp>, span: Span },
    /// `BlendState = { ... }` or (v1) `BlendState { ... }`.
    ApplyInline { kind: StateKind, props: Vec<RsProp>, span: Span },
    /// `BlendState = name;`
    ApplyNamed { kind: StateKind, name: Name, name_span: Span, span: Span },
    /// `RenderQueueType = value;`
    RenderQueue { value: RsValueSyntax, value_span: Span, span: Span },
}

/// The room a render-state block's property list starts with: a blend or stencil block often sets more than four
/// properties, and a regrowth (a reallocation and a copy) costs ~250 instructions.
const PROPS_ROOM: usize = 8;

/// What a level (Shader, SubShader, Pass) contains besides its children.
#[derive(Clone, Debug, Default)]
pub struct LevelSyntax {
    /// The level's GLSL text: runs of the main file's tokens (index ranges, in order, not adjacent). A level's text
    /// is mostly one run (structure tends to sit before or after it), which the preprocessor then reads in place.
    pub glsl: Vec<Range<usize>>,
    pub render: Vec<RsItem>,
    pub tags: Vec<Tag>,
}

impl LevelSyntax {
    /// Add the file's tokens `start..end` to the level's text.
    fn keep(&mut self, start: usize, end: usize) {
        match self.glsl.last_mut() {
            Some(last) if last.end == start => last.end = end,
            _ if start < end => crate::push_with_room(&mut self.glsl, start..end),
            _ => {}
        }
    }

    /// Add a render-state item (the first one allocates room for [`crate::FIRST_ROOM`]).
    fn push_render(&mut self, item: RsItem) {
        crate::push_with_room(&mut self.render, item);
    }

    /// The level's text, given the main file's tokens: a slice of them when the text is one run, else the runs
    /// joined in `joined`.
    pub fn text<'t>(&self, file: &'t [Token], joined: &'t mut Vec<Token>) -> &'t [Token] {
        match self.glsl.as_slice() {
            [one] => file.get(one.clone()).unwrap_or_default(),
            runs => {
                joined.reserve(runs.iter().map(|r| r.len()).sum());
                for r in runs {
                    joined.extend_from_slice(file.get(r.clone()).unwrap_or_default());
                }
                joined
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct EntryAssign {
    /// The entry function's name (the token's interned spelling).
    pub name: Name,
    pub span: Span,
    pub name_span: Span,
}

/// A pass's assignments of one stage's entry: the first and the repeats (each an error). The first is kept inline:
/// a pass has one of each, and needs no vector for them.
#[derive(Clone, Debug, Default)]
pub struct EntryAssigns {
    pub first: Option<EntryAssign>,
    pub repeats: Vec<EntryAssign>,
}

impl EntryAssigns {
    fn push(&mut self, entry: EntryAssign) {
        if self.first.is_none() {
            self.first = Some(entry);
        } else {
            self.repeats.push(entry);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.first.is_none()
    }
}

#[derive(Clone, Debug)]
pub enum PassSyntax {
    UsePass { path: String, span: Span },
    Pass { name: String, name_span: Span, span: Span, level: LevelSyntax, vertex: EntryAssigns, fragment: EntryAssigns },
}

#[derive(Clone, Debug)]
pub struct SubShaderSyntax {
    pub name: String,
    pub name_span: Span,
    pub span: Span,
    pub level: LevelSyntax,
    pub passes: Vec<PassSyntax>,
}

/// Which render-state syntax generation a file uses.
#[derive(Clone, Copy, Debug, Default)]
pub struct Generation {
    /// v1 anonymous blocks `BlendState { ... }`.
    pub anonymous_blocks: bool,
    /// v2 inline applications `BlendState = { ... }`.
    pub inline_states: bool,
}

impl Generation {
    /// v2 rules (render-state variables must be declared) apply to a file that uses the v2-only inline form and
    /// no v1 anonymous block. Otherwise an undeclared identifier value is an implicit variable, as in engine 1.x.
    pub fn requires_declarations(self) -> bool {
        self.inline_states && !self.anonymous_blocks
    }
}

#[derive(Clone, Debug)]
pub struct ShaderSyntax {
    pub generation: Generation,
    pub name: String,
    pub name_span: Span,
    pub span: Span,
    pub level: LevelSyntax,
    pub subshaders: Vec<SubShaderSyntax>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum LevelKind {
    Shader,
    SubShader,
    Pass,
}

/// Render-state variable types.
pub const RS_VAR_TYPES: &[&str] = &[
    "BlendFactor",
    "BlendOperation",
    "Bool",
    "Number",
    "Color",
    "CompareFunction",
    "StencilOperation",
    "CullMode",
    "RenderQueueType",
];

pub fn parse_structure(tokens: &[Token], names: &Interner, sink: &mut Sink) -> Option<ShaderSyntax> {
    let mut p = StructParser { toks: tokens, pos: 0, names, sink, generation: Generation::default() };
    p.shader()
}

struct StructParser<'a, 's> {
    toks: &'a [Token],
    pos: usize,
    names: &'a Interner,
    sink: &'s mut Sink,
    generation: Generation,
}

enum Child {
    SubShader(SubShaderSyntax),
    Pass(PassSyntax),
}

impl<'a, 's> StructParser<'a, 's> {
    fn tok(&self, offset: usize) -> Option<&'a Token> {
        self.toks.get(self.pos + offset)
    }

    fn text(&self, t: &Token) -> &'a str {
        self.names.resolve(t.sym)
    }

    fn is_ident(&self, offset: usize, word: &str) -> bool {
        self.tok(offset).is_some_and(|t| t.kind == TokenKind::Ident && self.text(t) == word)
    }

    fn is_punct(&self, offset: usize, p: Punct) -> bool {
        self.tok(offset).is_some_and(|t| t.is_punct(p))
    }

    fn end_span(&self) -> Span {
        self.toks.last().map(|t| t.span.end_point()).unwrap_or_default()
    }

    fn here(&self) -> Span {
        self.tok(0).map(|t| t.span).unwrap_or_else(|| self.end_span())
    }

    fn unexpected(&mut self, expected: &str) {
        let span = self.here();
        match self.tok(0).map(|t| &t.kind) {
            // Text the lexer could not read: its own diagnostic, not a syntax error.
            Some(TokenKind::Error(e)) => {
                let text = self.tok(0).map(|t| self.text(t).to_owned()).unwrap_or_default();
                let clue = match e {
                    LexError::UnterminatedComment => SyntaxClue::UnterminatedComment,
                    LexError::UnterminatedString => SyntaxClue::UnterminatedString,
                    LexError::InvalidNumber(reason) => SyntaxClue::InvalidNumber { text, reason: reason.to_string() },
                    LexError::UnexpectedChar(c) => SyntaxClue::UnexpectedToken {
                        found: format!("'{c}'"),
                        expected: "a token (unexpected character)".into(),
                    },
                    LexError::Reported => return,
                };
                self.sink.syntax(clue, span);
            }
            // At the end of a file whose text ended in an unterminated comment or string, that is the only error.
            None if self.toks.iter().any(|t| {
                matches!(t.kind, TokenKind::Error(LexError::UnterminatedComment | LexError::UnterminatedString))
            }) => {}
            _ => {
                let found = self.tok(0).map(|t| describe(t, self.names)).unwrap_or_else(|| "end of file".into());
                self.sink.syntax(SyntaxClue::UnexpectedToken { found, expected: expected.into() }, span);
            }
        }
    }

    fn shader(&mut self) -> Option<ShaderSyntax> {
        self.report_lex_errors_before_shader();
        if !self.is_ident(0, "Shader") {
            self.unexpected("'Shader'");
            return None;
        }
        let start = self.here();
        self.pos += 1;
        let (name, name_span) = self.string_name("a quoted shader name")?;
        if !self.is_punct(0, Punct::LBrace) {
            self.unexpected("'{'");
            return None;
        }
        self.pos += 1;
        let mut subshaders = Vec::with_capacity(crate::FIRST_ROOM);
        let level = self.level_body(LevelKind::Shader, &mut |child| {
            if let Child::SubShader(s) = child {
                subshaders.push(s)
            }
        });
        let span = start.to(self.prev_span());
        // Anything after the shader's closing brace.
        if self.tok(0).is_some() {
            self.unexpected("end of file");
        }
        Some(ShaderSyntax { generation: self.generation, name, name_span, span, level: level.0, subshaders })
    }

    fn report_lex_errors_before_shader(&mut self) {
        // Lex errors are reported where tokens are consumed; nothing precedes `Shader` in a valid file.
    }

    fn prev_span(&self) -> Span {
        if self.pos == 0 {
            return self.here();
        }
        self.toks.get(self.pos - 1).map(|t| t.span).unwrap_or_else(|| self.end_span())
    }

    fn string_name(&mut self, expected: &str) -> Option<(String, Span)> {
        match self.tok(0) {
            Some(t) if t.kind == TokenKind::Str => {
                self.pos += 1;
                Some((self.text(t).to_owned(), t.span))
            }
            // `Pass "name {`: the string ran to the end of the line; report it, use the text as the name.
            Some(t) if t.kind == TokenKind::Error(LexError::UnterminatedString) => {
                self.unexpected(expected);
                self.pos += 1;
                let raw = self.text(t).trim_start_matches('"').trim().to_owned();
                Some((raw, t.span))
            }
            _ => {
                self.unexpected(expected);
                None
            }
        }
    }

    /// Parse a level's body after its `{` up to and including its `}`. Returns the level and entry assignments.
    fn level_body(
        &mut self,
        kind: LevelKind,
        on_child: &mut dyn FnMut(Child),
    ) -> (LevelSyntax, EntryAssigns, EntryAssigns) {
        let mut level = LevelSyntax::default();
        let mut vertex = EntryAssigns::default();
        let mut fragment = EntryAssigns::default();
        // GLSL nesting inside this level: braces decide where the level ends; parentheses and brackets only
        // whether a structure keyword can start here (a `;` or `}` resets them, so an unclosed `(` in broken
        // GLSL cannot swallow the rest of the level).
        let mut glsl_depth: i32 = 0;
        let mut paren_depth: i32 = 0;
        let mut statement_start = true;
        // Open `#if` directives in this level's text, and structure found inside one.
        let mut open_conditionals: Vec<Span> = Vec::new();
        let mut inside_conditional: Vec<(Span, String)> = Vec::new();
        loop {
            let Some(t) = self.tok(0) else {
                self.unexpected("'}'");
                break;
            };
            // Directive lines pass through whole.
            if t.is_punct(Punct::Hash) && t.line_start {
                let line_end = self.line_end(self.pos);
                let directive = self.tok(1).filter(|d| !d.line_start).map(|d| self.text(d)).unwrap_or("");
                match DirectiveName::of(directive) {
                    DirectiveName::Cond(_) => open_conditionals.push(t.span),
                    DirectiveName::Endif => {
                        open_conditionals.pop();
                    }
                    _ => {}
                }
                level.keep(self.pos, line_end);
                self.pos = line_end;
                statement_start = true;
                continue;
            }
            if glsl_depth == 0 && t.is_punct(Punct::RBrace) {
                self.pos += 1;
                break;
            }
            // Inside GLSL braces (function bodies, struct members) only braces and directives matter here: the run
            // up to the brace that closes them (or to the next directive line) is kept as one block.
            if glsl_depth > 0 {
                glsl_depth = self.skip_nested(glsl_depth, &mut level);
                // Back at the level's own nesting, after a `}` (or at a directive line, which starts a statement
                // too): parentheses do not carry over braces.
                statement_start = true;
                paren_depth = 0;
                continue;
            }
            // A structure keyword counts at the start of a GLSL statement, or at the start of a line (so that a
            // broken GLSL line does not swallow the `VertexShader = ...;` after it). Every structure word starts
            // with a capital letter, and most GLSL statements do not (`void`, `uniform`, `vec4`): those skip the
            // keyword comparisons.
            if (statement_start || t.line_start) && t.kind == TokenKind::Ident {
                paren_depth = 0;
                let word = self.text(t);
                if word.as_bytes().first().is_some_and(u8::is_ascii_uppercase) {
                    let before = self.pos;
                    let handled = self.structural(kind, word, &mut level, &mut vertex, &mut fragment, on_child);
                    if handled {
                        if !open_conditionals.is_empty() {
                            inside_conditional.push((self.toks[before].span, word.to_owned()));
                        }
                        statement_start = true;
                        continue;
                    }
                }
            }
            // A GLSL token of this level, outside braces (a `}` here closed the level above; a `{` opens a run
            // that `skip_nested` takes next).
            match &t.kind {
                TokenKind::Punct(Punct::LBrace) => glsl_depth += 1,
                TokenKind::Punct(Punct::LParen | Punct::LBracket) => paren_depth += 1,
                TokenKind::Punct(Punct::RParen | Punct::RBracket) => paren_depth = (paren_depth - 1).max(0),
                TokenKind::Punct(Punct::Semicolon) => paren_depth = 0,
                _ => {}
            }
            statement_start = paren_depth == 0 && t.is_punct(Punct::Semicolon);
            level.keep(self.pos, self.pos + 1);
            self.pos += 1;
        }
        // Structure inside a conditional is an error, unless the conditional never closes (that is the cause).
        if open_conditionals.is_empty() {
            for (span, word) in inside_conditional {
                self.sink.syntax(
                    SyntaxClue::UnbalancedConditional {
                        directive: word,
                        reason: "ShaderLab structure cannot sit inside a conditional directive".into(),
                    },
                    span,
                );
            }
        }
        (level, vertex, fragment)
    }

    /// Keep the GLSL tokens inside `depth` open braces in `level`'s text, up to and including the `}` that closes
    /// them all, or up to a directive line (left for the caller) or the end of the file. Returns the braces still
    /// open.
    fn skip_nested(&mut self, mut depth: i32, level: &mut LevelSyntax) -> i32 {
        let start = self.pos;
        let mut end = start;
        while let Some(u) = self.toks.get(end) {
            if let TokenKind::Punct(p) = u.kind {
                match p {
                    Punct::LBrace => depth += 1,
                    Punct::RBrace => {
                        depth -= 1;
                        if depth == 0 {
                            end += 1;
                            break;
                        }
                    }
                    Punct::Hash if u.line_start => break,
                    _ => {}
                }
            }
            end += 1;
        }
        level.keep(start, end);
        self.pos = end;
        depth
    }

    fn line_end(&self, from: usize) -> usize {
        let mut i = from + 1;
        while i < self.toks.len() && !self.toks[i].line_start {
            i += 1;
        }
        i
    }

    /// Try a structural construct at the current token; returns false when the word starts GLSL.
    fn structural(
        &mut self,
        kind: LevelKind,
        word: &str,
        level: &mut LevelSyntax,
        vertex: &mut EntryAssigns,
        fragment: &mut EntryAssigns,
        on_child: &mut dyn FnMut(Child),
    ) -> bool {
        match word {
            "Editor" | "EditorProperties" | "EditorMacros" if self.is_punct(1, Punct::LBrace) => {
                self.pos += 1;
                self.skip_balanced();
                true
            }
            "SubShader" if kind == LevelKind::Shader && self.tok(1).is_some_and(is_name_token) => {
                if let Some(s) = self.subshader() {
                    on_child(Child::SubShader(s));
                }
                true
            }
            "Pass" if kind == LevelKind::SubShader && self.tok(1).is_some_and(is_name_token) => {
                if let Some(p) = self.pass() {
                    on_child(Child::Pass(p));
                }
                true
            }
            "UsePass" if kind == LevelKind::SubShader && self.tok(1).is_some_and(is_name_token) => {
                let start = self.here();
                self.pos += 1;
                if let Some((path, span)) = self.string_name("a quoted pass path") {
                    on_child(Child::Pass(PassSyntax::UsePass { path, span: start.to(span) }));
                }
                true
            }
            "Tags" if self.is_punct(1, Punct::LBrace) => {
                self.pos += 2;
                self.tags(&mut level.tags);
                true
            }
            "VertexShader" | "FragmentShader" if self.is_punct(1, Punct::Assign) => {
                let start = self.here();
                self.pos += 2;
                let Some(t) = self.tok(0).filter(|t| t.kind == TokenKind::Ident) else {
                    self.unexpected("an entry function name");
                    self.recover_statement();
                    return true;
                };
                let name = t.sym;
                let name_span = t.span;
                self.pos += 1;
                self.expect_semicolon();
                let entry = EntryAssign { name, span: start.to(self.prev_span()), name_span };
                if kind != LevelKind::Pass {
                    self.sink.syntax(
                        SyntaxClue::UnexpectedToken {
                            found: format!("'{word}'"),
                            expected: "an entry assignment only inside a Pass".into(),
                        },
                        start,
                    );
                } else if word == "VertexShader" {
                    vertex.push(entry);
                } else {
                    fragment.push(entry);
                }
                true
            }
            _ => {
                if let Some(state) = StateKind::from_keyword(word) {
                    return self.render_state(state, level);
                }
                if word == "RenderQueueType" && self.is_punct(1, Punct::Assign) {
                    let start = self.here();
                    self.pos += 2;
                    let value_start = self.here();
                    if let Some(value) = self.rs_value() {
                        let value_span = value_start.to(self.prev_span());
                        self.expect_semicolon();
                        level.push_render(RsItem::RenderQueue { value, value_span, span: start.to(self.prev_span()) });
                    } else {
                        self.recover_statement();
                    }
                    return true;
                }
                if let Some(&ty) = RS_VAR_TYPES.iter().find(|&&ty| ty == word) {
                    if let (Some(name), true) =
                        (self.tok(1).filter(|t| t.kind == TokenKind::Ident), self.is_punct(2, Punct::Semicolon))
                    {
                        let (start, name) = (self.here(), name.sym);
                        self.pos += 3;
                        level.push_render(RsItem::VarDecl { ty, name, span: start.to(self.prev_span()) });
                        return true;
                    }
                }
                false
            }
        }
    }

    fn subshader(&mut self) -> Option<SubShaderSyntax> {
        let start = self.here();
        self.pos += 1;
        let (name, name_span) = self.string_name("a quoted subshader name")?;
        if !self.is_punct(0, Punct::LBrace) {
            self.unexpected("'{'");
            return None;
        }
        self.pos += 1;
        let mut passes = Vec::with_capacity(crate::FIRST_ROOM);
        let (level, _, _) = self.level_body(LevelKind::SubShader, &mut |child| {
            if let Child::Pass(p) = child {
                passes.push(p)
            }
        });
        Some(SubShaderSyntax { name, name_span, span: start.to(self.prev_span()), level, passes })
    }

    fn pass(&mut self) -> Option<PassSyntax> {
        let start = self.here();
        self.pos += 1;
        let (name, name_span) = self.string_name("a quoted pass name")?;
        if !self.is_punct(0, Punct::LBrace) {
            self.unexpected("'{'");
            return None;
        }
        self.pos += 1;
        let (level, vertex, fragment) = self.level_body(LevelKind::Pass, &mut |_| {});
        Some(PassSyntax::Pass { name, name_span, span: start.to(self.prev_span()), level, vertex, fragment })
    }

    fn skip_balanced(&mut self) {
        // At `{`.
        let mut depth = 0i32;
        while let Some(t) = self.tok(0) {
            self.pos += 1;
            if t.is_punct(Punct::LBrace) {
                depth += 1;
            } else if t.is_punct(Punct::RBrace) {
                depth -= 1;
                if depth == 0 {
                    return;
                }
            }
        }
        self.unexpected("'}'");
    }

    fn expect_semicolon(&mut self) {
        if self.is_punct(0, Punct::Semicolon) {
            self.pos += 1;
        } else {
            self.unexpected("';'");
        }
    }

    /// Skip to after the next `;` (or before a `}`) at this nesting level.
    fn recover_statement(&mut self) {
        while let Some(t) = self.tok(0) {
            if t.is_punct(Punct::Semicolon) {
                self.pos += 1;
                return;
            }
            if t.is_punct(Punct::RBrace) {
                return;
            }
            self.pos += 1;
        }
    }

    fn tags(&mut self, out: &mut Vec<Tag>) {
        // After `Tags {`.
        loop {
            let Some(t) = self.tok(0) else {
                self.unexpected("'}'");
                return;
            };
            if t.is_punct(Punct::RBrace) {
                self.pos += 1;
                return;
            }
            if t.is_punct(Punct::Comma) || t.is_punct(Punct::Semicolon) {
                self.pos += 1;
                continue;
            }
            let key_tok = *t;
            let key_ok = key_tok.kind == TokenKind::Ident;
            if !self.is_punct(1, Punct::Assign) {
                self.unexpected("a tag 'key = \"value\"'");
                self.skip_tag();
                continue;
            }
            let value_tok = self.tok(2).cloned();
            let value_missing =
                value_tok.as_ref().is_none_or(|v| v.is_punct(Punct::RBrace) || v.is_punct(Punct::Comma));
            self.pos += if value_missing { 2 } else { 3 };
            let value_ok = value_tok.as_ref().is_some_and(|v| v.kind == TokenKind::Str);
            if !key_ok {
                let found = describe(&key_tok, self.names);
                self.sink.structure(StructureClue::InvalidTag { found }, key_tok.span);
                continue;
            }
            if let Some(v) = value_tok.as_ref().filter(|v| matches!(v.kind, TokenKind::Error(_))) {
                // An unterminated string or bad number: the lexer's diagnostic.
                let saved = self.pos;
                self.pos -= 1;
                self.unexpected("a quoted tag value");
                self.pos = saved;
                let _ = v;
                continue;
            }
            let Some(value_tok) = value_tok.filter(|_| value_ok) else {
                let (span, found) = if value_missing {
                    (self.here(), "a missing value".to_owned())
                } else {
                    (self.prev_span(), self.toks.get(self.pos - 1).map(|t| describe(t, self.names)).unwrap_or_default())
                };
                self.sink.structure(StructureClue::InvalidTag { found }, span);
                continue;
            };
            out.push(Tag {
                key: self.text(&key_tok).to_owned(),
                value: self.text(&value_tok).to_owned(),
                span: key_tok.span.to(value_tok.span),
            });
        }
    }

    fn skip_tag(&mut self) {
        while let Some(t) = self.tok(0) {
            if t.is_punct(Punct::Comma) || t.is_punct(Punct::RBrace) {
                return;
            }
            self.pos += 1;
        }
    }

    fn render_state(&mut self, state: StateKind, level: &mut LevelSyntax) -> bool {
        let start = self.here();
        if self.is_punct(1, Punct::Assign) {
            if self.is_punct(2, Punct::LBrace) {
                self.pos += 3;
                let props = self.rs_props();
                if self.is_punct(0, Punct::Semicolon) {
                    self.pos += 1;
                }
                level.push_render(RsItem::ApplyInline { kind: state, props, span: start.to(self.prev_span()) });
                self.generation.inline_states = true;
                return true;
            }
            if let Some(t) = self.tok(2).filter(|t| t.kind == TokenKind::Ident) {
                let (name, name_span) = (t.sym, t.span);
                self.pos += 3;
                self.expect_semicolon();
                level.push_render(RsItem::ApplyNamed {
                    kind: state,
                    name,
                    name_span,
                    span: start.to(self.prev_span()),
                });
                return true;
            }
            self.pos += 2;
            self.unexpected("'{' or the name of a render state");
            self.recover_statement();
            return true;
        }
        if let (Some(name), true) =
            (self.tok(1).filter(|t| t.kind == TokenKind::Ident).map(|t| t.sym), self.is_punct(2, Punct::LBrace))
        {
            self.pos += 3;
            let props = self.rs_props();
            level.push_render(RsItem::NamedState { kind: state, name, props, span: start.to(self.prev_span()) });
            return true;
        }
        if self.is_punct(1, Punct::LBrace) {
            let brace = self.tok(1).map(|t| t.span).unwrap_or(start);
            self.pos += 2;
            self.sink.syntax(
                SyntaxClue::DeprecatedSyntax(Deprecated::AnonymousBlock { state: state.keyword().into() }),
                start.to(brace),
            );
            self.generation.anonymous_blocks = true;
            let props = self.rs_props();
            level.push_render(RsItem::ApplyInline { kind: state, props, span: start.to(self.prev_span()) });
            return true;
        }
        false
    }

    /// Properties up to and including the closing `}`.
    fn rs_props(&mut self) -> Vec<RsProp> {
        let mut props = Vec::with_capacity(PROPS_ROOM);
        loop {
            let Some(t) = self.tok(0) else {
                self.unexpected("'}'");
                return props;
            };
            if t.is_punct(Punct::RBrace) {
                self.pos += 1;
                return props;
            }
            if t.is_punct(Punct::Semicolon) {
                self.pos += 1;
                continue;
            }
            if t.kind != TokenKind::Ident {
                self.unexpected("a render-state property");
                self.recover_statement();
                continue;
            }
            let name = t.sym;
            let name_span = t.span;
            self.pos += 1;
            let mut index = None;
            if self.is_punct(0, Punct::LBracket) {
                let open = self.here();
                self.pos += 1;
                let mut text = String::new();
                while let Some(t) = self.tok(0) {
                    if t.is_punct(Punct::RBracket) || t.is_punct(Punct::Semicolon) || t.is_punct(Punct::RBrace) {
                        break;
                    }
                    text.push_str(&describe_raw(t, self.names));
                    self.pos += 1;
                }
                if self.is_punct(0, Punct::RBracket) {
                    self.pos += 1;
                } else {
                    self.unexpected("']'");
                }
                index = Some((text, open.to(self.prev_span())));
            }
            if !self.is_punct(0, Punct::Assign) {
                self.unexpected("'='");
                self.recover_statement();
                continue;
            }
            self.pos += 1;
            let value_start = self.here();
            let Some(value) = self.rs_value() else {
                self.recover_statement();
                continue;
            };
            let value_span = value_start.to(self.prev_span());
            self.expect_semicolon();
            props.push(RsProp { name, name_span, index, value, value_span });
        }
    }

    fn number(&mut self) -> Option<f64> {
        let negative = self.is_punct(0, Punct::Minus);
        if negative {
            self.pos += 1;
        }
        let value = match self.tok(0).map(|t| &t.kind) {
            Some(TokenKind::Int(v)) | Some(TokenKind::Uint(v)) => f64::from(*v),
            Some(TokenKind::Float(v)) => v.get(),
            _ => {
                self.unexpected("a number");
                return None;
            }
        };
        self.pos += 1;
        Some(if negative { -value } else { value })
    }

    fn rs_value(&mut self) -> Option<RsValueSyntax> {
        let Some(t) = self.tok(0) else {
            self.unexpected("a value");
            return None;
        };
        match &t.kind {
            TokenKind::Int(_) | TokenKind::Uint(_) | TokenKind::Float(_) | TokenKind::Punct(Punct::Minus) => {
                self.number().map(RsValueSyntax::Number)
            }
            TokenKind::Error(LexError::InvalidNumber(reason)) => {
                let text = self.text(t).to_owned();
                self.sink.syntax(SyntaxClue::InvalidNumber { text, reason: reason.to_string() }, t.span);
                None
            }
            TokenKind::Ident => {
                let word = self.text(t);
                self.pos += 1;
                match word {
                    "true" => return Some(RsValueSyntax::Bool(true)),
                    "false" => return Some(RsValueSyntax::Bool(false)),
                    _ => {}
                }
                if word == "Color" && self.is_punct(0, Punct::LParen) {
                    self.pos += 1;
                    let mut components = Vec::new();
                    loop {
                        components.push(self.number()?);
                        if self.is_punct(0, Punct::Comma) {
                            self.pos += 1;
                            continue;
                        }
                        if self.is_punct(0, Punct::RParen) {
                            self.pos += 1;
                            break;
                        }
                        self.unexpected("',' or ')'");
                        return None;
                    }
                    return Some(RsValueSyntax::Color(components));
                }
                if self.is_punct(0, Punct::Dot) {
                    self.pos += 1;
                    let Some(m) = self.tok(0).filter(|m| m.kind == TokenKind::Ident) else {
                        self.unexpected("an enum member name");
                        return None;
                    };
                    self.pos += 1;
                    return Some(RsValueSyntax::EnumMember { enum_name: t.sym, member: m.sym });
                }
                Some(RsValueSyntax::Ident(t.sym))
            }
            _ => {
                self.unexpected("a render-state value");
                None
            }
        }
    }
}

/// A quoted name, or one whose closing quote is missing (reported where it is read).
fn is_name_token(t: &Token) -> bool {
    matches!(t.kind, TokenKind::Str | TokenKind::Error(LexError::UnterminatedString))
}

/// How a token is named in messages: `'text'`.
pub fn describe(t: &Token, names: &Interner) -> String {
    match &t.kind {
        TokenKind::Str => format!("'\"{}\"'", names.resolve(t.sym)),
        _ => format!("'{}'", describe_raw(t, names)),
    }
}

fn describe_raw(t: &Token, names: &Interner) -> String {
    match &t.kind {
        TokenKind::Punct(p) => p.text().to_owned(),
        TokenKind::Error(LexError::UnexpectedChar(c)) => c.to_string(),
        TokenKind::Directive(_) => "#".to_owned(),
        _ => names.resolve(t.sym).to_owned(),
    }
}
