//! The preprocessor: `#include` splicing, `#define`/`#undef`, and conditionals.
//!
//! Two modes share this code:
//! - *preserving*: conditionals, `#define` and `#undef` stay in the token stream as [`TokenKind::Directive`]
//!   markers (see [`Directive`]) that the GLSL parser turns into conditional regions and macro items; macro uses
//!   are not expanded.
//! - *variant*: conditionals are evaluated with the `-D` macros and the source's own `#define`s, and macro uses
//!   are expanded. A condition that tests a `GL_` name is left for the driver and kept as markers.
//!
//! Includes are spliced in both modes; each inclusion gets its own file id, so spans point into the chunk.

use crate::diag::Sink;
use crate::lexer::lex_noting_directives;
use crate::macros::MacroMap;
use crate::pp_expr::{self, MacroValue};
use crate::token::{LexError, Punct, Token, TokenKind};
use crate::{IncludeResolver, Limits};
use shaderlab_ir::hash::FastHashMap as HashMap;
use shaderlab_ir::{Clue, ClueKind, CondKind, Condition, FileId, Interner, Module, Name, PpExpr, Span, SyntaxClue};
use std::rc::Rc;

/// A directive kept in the token stream.
#[derive(Clone, Debug)]
pub enum Directive {
    If(Condition),
    Elif(Condition),
    Else(Span),
    /// `synthetic`: added by the preprocessor at the end of a text whose `#if` has no `#endif` (already reported).
    Endif {
        span: Span,
        synthetic: bool,
    },
    /// `#define`: the name, its parameters, body tokens and text.
    Define {
        name: Name,
        name_span: Span,
        params: Option<Vec<Name>>,
        body: Vec<Token>,
        text: String,
        span: Span,
    },
    Undef {
        name: Name,
        span: Span,
    },
}

/// A macro definition as the preprocessor knows it.
#[derive(Clone, Debug)]
pub struct MacroBody {
    pub params: Option<Vec<Name>>,
    pub body: Vec<Token>,
    /// Preserving mode: the conditional region (see [`Preprocessor::regions`]) the `#define` stands in, 0 outside
    /// any. While that region is open, every variant that reaches a directive has this definition.
    pub region: u32,
}

/// Where a chunk was first included in the current pass chain.
#[derive(Clone, Debug)]
struct IncludeRecord {
    span: Span,
    /// Included outside any conditional (other than transparent include guards), in its own file and in every file
    /// of the include chain above it: in every variant that reaches the level.
    unconditional: bool,
    guarded: bool,
}

/// The preprocessor state that flows from a level to the levels below it (Shader -> SubShader -> Pass).
#[derive(Clone, Debug, Default)]
pub struct PpState {
    /// The macros defined now.
    macros: MacroMap<Rc<MacroBody>>,
    included: HashMap<String, IncludeRecord>,
    /// Inclusions so far in this pass chain (bounded: chunks including chunks twice fan out exponentially).
    inclusions: usize,
    /// The last conditional region id given out in this pass chain: a level's regions get ids above those of the
    /// levels it inherits definitions from, so a definition made in a region of the Shader level is never taken
    /// for one made in an open region of a pass.
    last_region: u32,
}

impl PpState {
    /// Define (or redefine) a macro.
    pub fn define(&mut self, name: Name, body: Rc<MacroBody>) {
        self.macros.insert(name, body);
    }

    /// Define the command line's `-D` macros (`(name, value)`), their values lexed as text of `file`.
    pub fn define_command_line(&mut self, defines: &[(String, String)], file: FileId, names: &mut Interner) {
        self.macros.reserve(defines.len());
        thread_local! {
            /// The body of `-D NAME` (the usual form: empty, nothing to lex), shared by every such macro of every
            /// compile on this thread instead of one allocation each.
            static EMPTY: Rc<MacroBody> = Rc::new(MacroBody { params: None, body: Vec::new(), region: 0 });
        }
        for (name, value) in defines {
            let body = if value.is_empty() {
                EMPTY.with(Rc::clone)
            } else {
                Rc::new(MacroBody { params: None, body: crate::lexer::lex_kept(value, file, names), region: 0 })
            };
            let name = names.intern(name);
            self.define(name, body);
        }
    }

    /// Whether `name` is a macro now.
    #[inline]
    fn is_macro(&self, name: Name) -> bool {
        self.macros.contains_key(&name)
    }

    fn new_region(&mut self) -> u32 {
        self.last_region += 1;
        self.last_region
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Branch {
    /// Evaluated: this branch is taken.
    Taking,
    /// Evaluated: not taken (yet, for `#if`/`#elif` chains: `done` says whether an earlier branch was).
    Skipping,
    /// Kept as markers: every branch is processed.
    Kept,
}

/// What a directive's name (the word after `#`) names, read without copying the word.
#[derive(Clone, Copy)]
pub(crate) enum DirectiveName {
    /// `#if`, `#ifdef` or `#ifndef`.
    Cond(CondKind),
    Elif,
    Else,
    Endif,
    Define,
    Undef,
    Include,
    /// Not a directive this preprocessor knows.
    Other,
}

impl DirectiveName {
    /// By the word's length first, then its bytes: one jump and at most three short comparisons, where a match on
    /// the nine words compared them one by one (~60 instructions a directive; a chunk's include guard check reads
    /// every directive's name once more).
    pub(crate) fn of(word: &str) -> Self {
        match word.as_bytes() {
            [_, _] if word == "if" => Self::Cond(CondKind::If),
            [_, _, _, _] => match word {
                "elif" => Self::Elif,
                "else" => Self::Else,
                _ => Self::Other,
            },
            [_, _, _, _, _] => match word {
                "ifdef" => Self::Cond(CondKind::Ifdef),
                "endif" => Self::Endif,
                "undef" => Self::Undef,
                _ => Self::Other,
            },
            [_, _, _, _, _, _] => match word {
                "ifndef" => Self::Cond(CondKind::Ifndef),
                "define" => Self::Define,
                _ => Self::Other,
            },
            [_, _, _, _, _, _, _] if word == "include" => Self::Include,
            _ => Self::Other,
        }
    }
}

#[derive(Clone, Debug)]
struct Frame {
    branch: Branch,
    done: bool,
    /// The enclosing frame was active.
    parent_active: bool,
    open_span: Span,
    seen_else: bool,
    /// The frame opened a region on [`Preprocessor::regions`]: its branches are kept as conditionals (a
    /// transparent include guard, see [`Guard::First`], opens none: it holds in every variant reaching it).
    region: bool,
    /// Preserving mode: every branch so far is untaken in every variant that reaches the `#if` (its conditions
    /// evaluate to 0 with the definitions all those variants share), so the next `#elif` is evaluated in all of
    /// them.
    none_taken: bool,
}

/// Whether a file's first directive is its include guard's `#ifndef`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Guard {
    No,
    /// The chunk's first inclusion in the pass chain, its guard macro not defined before: the guarded text is in
    /// effect in every variant that reaches the `#include` (as the include bookkeeping assumes, a guard macro
    /// defined on the command line is not considered).
    First,
    /// Included again, or its guard macro was defined before: the guarded text is conditional.
    Again,
}

pub struct Preprocessor<'m> {
    pub module: &'m mut Module,
    pub sink: &'m mut Sink,
    pub resolver: &'m dyn IncludeResolver,
    pub limits: &'m Limits,
    /// `None`: preserving mode.
    pub variant: bool,
    pub directives: Vec<Directive>,
    expansion_budget: usize,
    /// Nesting of macro arguments being expanded.
    arg_depth: usize,
    /// The directive lines (indices of their `#` tokens) of the chunk being included, noted by the lexer for
    /// [`guard_name`]; reused from chunk to chunk.
    chunk_directives: Vec<u32>,
    /// The normalized keys of the chunks being included, outermost first (the main file, whose key is "", is not
    /// in it): pushed and popped around each chunk, not copied per chunk.
    chain: Vec<String>,
    /// The open conditional regions, outermost first, across the files being included. A region is one branch of
    /// a kept conditional (an include guard that holds in every variant opening none); `#elif` and `#else` replace
    /// the top by a new region. A `#define` made in a region that is still open is in effect in every variant that
    /// reaches the current directive, so a condition can be evaluated with it in preserving mode (see
    /// [`Self::evaluate`]); and an `#include` is unconditional exactly when none is open, in its own file or in one
    /// further up the include chain (`#ifdef A` / `#include "b.glsl"` / `#endif`, where `b.glsl` includes `c.glsl`
    /// outside any conditional of its own).
    regions: Vec<u32>,
    /// Some text read here (the main file, set by the caller, or a chunk) has a line continuation: text taken from
    /// the source by a span must have them taken out. Texts without one (nearly all) skip looking for them.
    pub continued: bool,
}

impl<'m> Preprocessor<'m> {
    pub fn new(
        module: &'m mut Module,
        sink: &'m mut Sink,
        resolver: &'m dyn IncludeResolver,
        limits: &'m Limits,
        variant: bool,
    ) -> Self {
        Preprocessor {
            module,
            sink,
            resolver,
            limits,
            variant,
            directives: crate::pool::take_directives(),
            expansion_budget: limits.max_macro_expansion_tokens,
            arg_depth: 0,
            chunk_directives: Vec::new(),
            chain: Vec::new(),
            regions: Vec::new(),
            continued: false,
        }
    }

    /// Preprocess one level's tokens (from the main file) with the state inherited from the levels above.
    pub fn level(&mut self, tokens: &[Token], state: &mut PpState) -> Vec<Token> {
        let mut out = crate::pool::take_largest(tokens.len());
        self.directives.reserve(tokens.len() / 16);
        self.file(tokens, state, Guard::No, &mut out);
        out
    }

    fn marker(&mut self, directive: Directive, span: Span, out: &mut Vec<Token>) {
        let index = self.directives.len() as u32;
        self.directives.push(directive);
        out.push(Token { kind: TokenKind::Directive(index), sym: Interner::EMPTY, span, line_start: true });
    }

    fn active(frames: &[Frame]) -> bool {
        frames.last().is_none_or(|f| f.parent_active && f.branch != Branch::Skipping)
    }

    /// Preprocess one file's tokens into `out`. `guard`: whether its first directive is an include guard's
    /// `#ifndef`, and of which kind.
    fn file(&mut self, toks: &[Token], state: &mut PpState, guard: Guard, out: &mut Vec<Token>) {
        let mut frames: Vec<Frame> = Vec::new();
        let mut i = 0;
        let mut directive_index = 0usize;
        // One lexical error per line: the rest of a garbled line is noise.
        let mut line_has_error = false;
        // Whether the text here is kept (no enclosing branch is skipped): it only changes at a directive.
        let mut active = true;
        let variant = self.variant;
        while let Some(t) = toks.get(i) {
            if t.line_start {
                line_has_error = false;
                if t.is_punct(Punct::Hash) {
                    let mut end = i + 1;
                    while end < toks.len() && !toks[end].line_start {
                        end += 1;
                    }
                    let guard = if directive_index == 0 { guard } else { Guard::No };
                    self.directive(&toks[i..end], state, &mut frames, out, guard);
                    active = Self::active(&frames);
                    directive_index += 1;
                    i = end;
                    continue;
                }
            }
            if !active {
                i += 1;
                continue;
            }
            match &t.kind {
                TokenKind::Error(e) => {
                    if !std::mem::replace(&mut line_has_error, true) {
                        self.report_lex_error(t, e);
                    }
                    // Kept for the parser, which treats it as already reported.
                    if matches!(e, LexError::InvalidNumber(_) | LexError::UnexpectedChar(_)) {
                        out.push(*t);
                    }
                    i += 1;
                }
                TokenKind::Ident if variant && state.is_macro(t.sym) => {
                    i = self.expand_at(toks, i, state, out);
                }
                _ => {
                    // This token and the ordinary ones after it (up to the next directive, lexical error or macro
                    // use, which the cases above handle) are found in this tighter loop, which walks the slice
                    // itself (no index to bound-check per token), and then copied as one run.
                    let run = toks.get(i..).unwrap_or_default();
                    let mut len = 1;
                    for next in run.get(1..).unwrap_or_default() {
                        if next.line_start {
                            if next.is_punct(Punct::Hash) {
                                break;
                            }
                            line_has_error = false;
                        }
                        match next.kind {
                            TokenKind::Error(_) => break,
                            TokenKind::Ident if variant && state.is_macro(next.sym) => break,
                            _ => len += 1,
                        }
                    }
                    copy_run(out, run.get(..len).unwrap_or_default());
                    i += len;
                }
            }
        }
        for frame in frames.iter().rev() {
            self.sink.syntax(
                SyntaxClue::UnbalancedConditional { directive: "#if".into(), reason: "missing '#endif'".into() },
                frame.open_span,
            );
            if frame.branch == Branch::Kept {
                let span = toks.last().map(|t| t.span.end_point()).unwrap_or(frame.open_span);
                self.marker(Directive::Endif { span, synthetic: true }, span, out);
            }
            if frame.region {
                self.regions.pop();
            }
        }
    }

    fn report_lex_error(&mut self, t: &Token, e: &LexError) {
        let clue = match e {
            LexError::Reported => return,
            LexError::UnterminatedComment => SyntaxClue::UnterminatedComment,
            LexError::UnterminatedString => SyntaxClue::UnterminatedString,
            LexError::InvalidNumber(reason) => SyntaxClue::InvalidNumber {
                text: self.module.names.resolve(t.sym).to_owned(),
                reason: reason.to_string(),
            },
            LexError::UnexpectedChar(c) => {
                let text = self.module.sources.snippet(t.span);
                let shown = if text.is_empty() { c.to_string() } else { text.to_owned() };
                SyntaxClue::UnexpectedToken {
                    found: format!("'{shown}'"),
                    expected: "a token (unexpected character)".into(),
                }
            }
        };
        self.sink.syntax(clue, t.span);
    }

    /// Whether nothing but line continuations stands between `a` and `b`, which follows it in the same file.
    #[cold]
    fn only_continuations(&self, a: Span, b: Span) -> bool {
        let gap = Span { file: a.file, start: a.end, end: b.start };
        a.file == b.file
            && a.end < b.start
            && crate::lexer::without_continuations(self.module.sources.snippet(gap)).is_empty()
    }

    fn text_of(&self, toks: &[Token]) -> String {
        let (Some(first), Some(last)) = (toks.first(), toks.last()) else {
            return String::new();
        };
        if first.span.file == last.span.file {
            let span = first.span.to(last.span);
            let text = self.module.sources.snippet(span);
            // Without its continuations: the text is written into the output on one line, and a continuation is
            // an error in GLSL ES 1.00.
            return if self.continued {
                crate::lexer::without_continuations(text).into_owned()
            } else {
                text.to_owned()
            };
        }
        toks.iter().map(|t| self.module.names.resolve(t.sym)).collect::<Vec<_>>().join(" ")
    }

    fn directive(
        &mut self,
        line: &[Token],
        state: &mut PpState,
        frames: &mut Vec<Frame>,
        out: &mut Vec<Token>,
        guard: Guard,
    ) {
        let span = line[0].span.to(line[line.len() - 1].span);
        let Some(name_tok) = line.get(1) else {
            return; // the null directive `#`
        };
        let name = DirectiveName::of(self.module.names.resolve(name_tok.sym));
        let rest = &line[2..];
        let active = Self::active(frames);
        match name {
            DirectiveName::Cond(kind) => {
                // Inside a skipped branch the condition is neither evaluated nor reported nor kept: not read.
                let parent_active = active;
                let mut none_taken = false;
                let branch = if parent_active {
                    let expr = self.condition_expr(kind, rest, span);
                    // Preserving mode reads only `#if`: `#ifdef` and `#ifndef` are never invalid, and what they
                    // would tell (an `#ifndef` of a macro every variant defines is false) is too rare to pay for at
                    // every include guard.
                    let value = if self.variant || kind == CondKind::If {
                        self.evaluate(&expr, span, state, rest)
                    } else {
                        None
                    };
                    match value {
                        Some(true) if self.variant => Branch::Taking,
                        Some(false) if self.variant => Branch::Skipping,
                        // Preserving mode keeps every conditional: the value only served to report an invalid
                        // condition and to know whether the `#elif`s are evaluated in every variant.
                        value => {
                            none_taken = value == Some(false);
                            let condition = Condition { kind, text: self.text_of(rest), expr, span };
                            self.marker(Directive::If(condition), span, out);
                            Branch::Kept
                        }
                    }
                } else {
                    Branch::Skipping
                };
                let transparent_guard = guard == Guard::First
                    && kind == CondKind::Ifndef
                    && rest.first().is_some_and(|name| !state.is_macro(name.sym));
                let region = branch == Branch::Kept && !transparent_guard;
                if region {
                    let id = state.new_region();
                    self.regions.push(id);
                }
                frames.push(Frame {
                    branch,
                    done: branch == Branch::Taking,
                    parent_active,
                    open_span: span,
                    seen_else: false,
                    region,
                    none_taken,
                });
            }
            DirectiveName::Elif => {
                let Some(frame) = frames.last().cloned() else {
                    self.unbalanced("#elif", "'#elif' without '#if'", span);
                    return;
                };
                if frame.seen_else {
                    self.unbalanced("#elif", "'#elif' after '#else'", span);
                    return;
                }
                let top = frames.len() - 1;
                // Inside a skipped branch the condition is not read; after a taken branch it is only checked.
                if !frame.parent_active {
                    frames[top].branch = Branch::Skipping;
                    return;
                }
                let expr = self.condition_expr(CondKind::Elif, rest, span);
                match frame.branch {
                    Branch::Kept => {
                        // The new branch's region first: the condition is read where the previous branch's
                        // definitions are not in effect.
                        self.next_region(frame.region, state);
                        if frame.none_taken {
                            let value = self.evaluate(&expr, span, state, rest);
                            frames[top].none_taken = value == Some(false);
                        }
                        let condition = Condition { kind: CondKind::Elif, text: self.text_of(rest), expr, span };
                        self.marker(Directive::Elif(condition), span, out);
                    }
                    _ if frame.done => frames[top].branch = Branch::Skipping,
                    _ => {
                        let value = self.evaluate(&expr, span, state, rest).unwrap_or(false);
                        frames[top].branch = if value { Branch::Taking } else { Branch::Skipping };
                        frames[top].done = value;
                    }
                }
            }
            DirectiveName::Else => {
                let Some(frame) = frames.last().cloned() else {
                    self.unbalanced("#else", "'#else' without '#if'", span);
                    return;
                };
                if frame.seen_else {
                    self.unbalanced("#else", "second '#else' for one '#if'", span);
                    return;
                }
                let top = frames.len() - 1;
                frames[top].seen_else = true;
                match frame.branch {
                    Branch::Kept => {
                        self.next_region(frame.region, state);
                        self.marker(Directive::Else(span), span, out);
                    }
                    _ => {
                        let take = !frame.done && frame.parent_active;
                        frames[top].branch = if take { Branch::Taking } else { Branch::Skipping };
                        frames[top].done = true;
                    }
                }
            }
            DirectiveName::Endif => {
                let Some(frame) = frames.pop() else {
                    self.unbalanced("#endif", "'#endif' without '#if'", span);
                    return;
                };
                if frame.branch == Branch::Kept {
                    self.marker(Directive::Endif { span, synthetic: false }, span, out);
                }
                if frame.region {
                    self.regions.pop();
                }
            }
            _ if !active => {}
            DirectiveName::Define => self.define(line, rest, span, state, out),
            DirectiveName::Undef => match rest.first() {
                Some(t) if t.kind == TokenKind::Ident => {
                    state.macros.remove(&t.sym);
                    if !self.variant {
                        self.marker(Directive::Undef { name: t.sym, span }, span, out);
                    }
                }
                _ => self.unexpected(rest.first(), "a macro name", span),
            },
            DirectiveName::Include => {
                let unconditional = self.regions.is_empty();
                self.include(rest, span, state, out, unconditional);
            }
            DirectiveName::Other => {
                let name = format!("#{}", self.module.names.resolve(name_tok.sym));
                self.sink.syntax(SyntaxClue::InvalidDirective { name }, span);
            }
        }
    }

    /// At a kept conditional's `#elif` or `#else`: the branch that ends closes its region (if the frame has one)
    /// and the new branch opens another.
    fn next_region(&mut self, frame_region: bool, state: &mut PpState) {
        if frame_region {
            let id = state.new_region();
            if let Some(top) = self.regions.last_mut() {
                *top = id;
            }
        }
    }

    fn unbalanced(&mut self, directive: &str, reason: &str, span: Span) {
        self.sink
            .syntax(SyntaxClue::UnbalancedConditional { directive: directive.into(), reason: reason.into() }, span);
    }

    fn unexpected(&mut self, found: Option<&Token>, expected: &str, fallback: Span) {
        if let Some(t @ Token { kind: TokenKind::Error(e), .. }) = found {
            let e = *e;
            self.report_lex_error(t, &e);
            return;
        }
        let (found, span) = match found {
            Some(t) => (crate::structure::describe(t, &self.module.names), t.span),
            None => ("end of line".to_owned(), fallback.end_point()),
        };
        self.sink.syntax(SyntaxClue::UnexpectedToken { found, expected: expected.into() }, span);
    }

    /// The condition of a directive whose words after the name are `rest` (its problems reported, `Invalid`
    /// then). Its text is spelled only where it is needed: in a kept marker, or in a reported problem.
    fn condition_expr(&mut self, kind: CondKind, rest: &[Token], span: Span) -> PpExpr {
        match kind {
            CondKind::Ifdef | CondKind::Ifndef => match rest {
                [t] if t.kind == TokenKind::Ident => {
                    let defined = PpExpr::Defined(t.sym);
                    if kind == CondKind::Ifdef {
                        defined
                    } else {
                        PpExpr::Unary(shaderlab_ir::PpUnaryOp::Not, Box::new(defined))
                    }
                }
                _ => {
                    self.sink.syntax(
                        SyntaxClue::InvalidMacroCondition {
                            text: self.text_of(rest),
                            reason: "expected one macro name".into(),
                        },
                        Self::condition_span(rest, span),
                    );
                    PpExpr::Invalid
                }
            },
            CondKind::If | CondKind::Elif => match pp_expr::parse(rest, &self.module.names) {
                Ok(e) => e,
                Err(reason) => {
                    let text = self.text_of(rest);
                    self.sink
                        .syntax(SyntaxClue::InvalidMacroCondition { text, reason }, Self::condition_span(rest, span));
                    PpExpr::Invalid
                }
            },
        }
    }

    /// Where a condition's problems point: its words `rest` (the whole directive, `span`, when there are none).
    fn condition_span(rest: &[Token], span: Span) -> Span {
        match (rest.first(), rest.last()) {
            (Some(a), Some(b)) if a.span.file == b.span.file => a.span.to(b.span),
            _ => span,
        }
    }

    /// Evaluate a condition, reporting it when it is invalid (it then counts as false, as in the engine's
    /// evaluator). `None`: its value is unknown here, because it tests a `GL_` name (left for the driver) or, in
    /// preserving mode, a macro whose definition is not the same in every variant that reaches the directive.
    /// Preserving mode evaluates with the definitions all those variants share (made outside any conditional, or
    /// in a region still open: see [`Self::regions`]), so what it reports is invalid in each of them; the caller
    /// keeps the conditional whatever the value. `span` is the directive's.
    fn evaluate(&mut self, expr: &PpExpr, span: Span, state: &PpState, rest: &[Token]) -> Option<bool> {
        if *expr == PpExpr::Invalid {
            return Some(false);
        }
        let variant = self.variant;
        let regions = &self.regions;
        let names = &self.module.names;
        let lookup = |name: Name| -> MacroValue<'_> {
            if names.resolve(name).starts_with("GL_") {
                return MacroValue::Unknown;
            }
            match state.macros.get(&name) {
                Some(m) if variant || m.region == 0 || regions.contains(&m.region) => {
                    MacroValue::Defined { body: &m.body, function_like: m.params.is_some() }
                }
                None if variant => MacroValue::Undefined,
                // Preserving mode: defined in some variants only, or (no definition here) perhaps on the command
                // line.
                _ => MacroValue::Unknown,
            }
        };
        match pp_expr::eval(expr, names, &lookup, 0) {
            Ok(Some(v)) => Some(v != 0),
            Ok(None) => None,
            Err(pp_expr::EvalError::Invalid(reason)) => {
                let span = Self::condition_span(rest, span);
                let text = self.text_of(rest);
                self.sink.syntax(SyntaxClue::InvalidMacroCondition { text, reason }, span);
                Some(false)
            }
            // The macro's unreadable body was reported at its `#define`: not a second problem.
            Err(pp_expr::EvalError::Reported) => Some(false),
        }
    }

    fn define(&mut self, line: &[Token], rest: &[Token], span: Span, state: &mut PpState, out: &mut Vec<Token>) {
        let Some(name_tok) = rest.first().filter(|t| t.kind == TokenKind::Ident) else {
            self.unexpected(rest.first(), "a macro name", span);
            return;
        };
        let mut body_start = 1;
        let mut params = None;
        if let Some(paren) = rest.get(1) {
            // Function-like only when `(` touches the name (line continuations between them aside: they join).
            if paren.is_punct(Punct::LParen)
                && (paren.span.start == name_tok.span.end
                    || (self.continued && self.only_continuations(name_tok.span, paren.span)))
            {
                let mut list = Vec::new();
                let mut j = 2;
                let mut ok = false;
                while let Some(t) = rest.get(j) {
                    match &t.kind {
                        TokenKind::Punct(Punct::RParen) => {
                            ok = true;
                            j += 1;
                            break;
                        }
                        TokenKind::Punct(Punct::Comma) => j += 1,
                        TokenKind::Ident => {
                            list.push(t.sym);
                            j += 1;
                        }
                        _ => break,
                    }
                }
                if !ok {
                    self.unexpected(rest.get(j), "a macro parameter list", span);
                    return;
                }
                params = Some(list);
                body_start = j;
            }
        }
        let _ = line;
        // A character outside GLSL's character set is an error wherever it stands outside a comment, also in a
        // macro body that is never expanded (the preserving output would carry it to the driver).
        if let Some(t) =
            rest[body_start..].iter().find(|t| matches!(t.kind, TokenKind::Error(LexError::UnexpectedChar(_))))
        {
            if let TokenKind::Error(e) = t.kind {
                self.report_lex_error(t, &e);
            }
        }
        let body: Vec<Token> = rest[body_start..].to_vec();
        let region = self.regions.last().copied().unwrap_or(0);
        state.define(name_tok.sym, Rc::new(MacroBody { params: params.clone(), body: body.clone(), region }));
        if !self.variant {
            let text = self.text_of(&body);
            self.marker(
                Directive::Define { name: name_tok.sym, name_span: name_tok.span, params, body, text, span },
                span,
                out,
            );
        }
    }

    fn include(&mut self, rest: &[Token], span: Span, state: &mut PpState, out: &mut Vec<Token>, unconditional: bool) {
        let Some(key_tok) = rest.first().filter(|t| t.kind == TokenKind::Str) else {
            self.unexpected(rest.first(), "a quoted include key", span);
            return;
        };
        // The key as written, for the clues.
        let raw = |pp: &Self| pp.module.names.resolve(key_tok.sym).to_owned();
        let including = self.chain.last().map_or("", String::as_str);
        let Some(key) = normalize_key(self.module.names.resolve(key_tok.sym), including) else {
            self.sink.syntax(SyntaxClue::IncludeNotFound { key: raw(self) }, span);
            return;
        };
        if self.chain.contains(&key) {
            // The path from the main file ("") through the chunks being included to the chunk included again.
            let chain = std::iter::once(String::new()).chain(self.chain.iter().cloned()).chain([key]).collect();
            self.sink.syntax(SyntaxClue::IncludeCycle { key: raw(self), chain }, span);
            return;
        }
        // The include depth of the file being read: the chunks in the chain (the main file is depth 0).
        if self.chain.len() >= self.limits.max_include_depth {
            self.sink.syntax(
                SyntaxClue::LimitExceeded { what: "include depth".into(), limit: self.limits.max_include_depth },
                span,
            );
            return;
        }
        state.inclusions += 1;
        if state.inclusions > self.limits.max_inclusions {
            if state.inclusions == self.limits.max_inclusions + 1 {
                self.sink.syntax(
                    SyntaxClue::LimitExceeded {
                        what: "number of inclusions".into(),
                        limit: self.limits.max_inclusions,
                    },
                    span,
                );
            }
            return;
        }
        // A chunk already included unconditionally behind its include guard adds nothing here, in any variant:
        // it is neither loaded, stored nor lexed again.
        if state.included.get(&key).is_some_and(|first| first.guarded && first.unconditional) {
            return;
        }
        let Some(text) = self.resolver.load(&key) else {
            self.sink.syntax(SyntaxClue::IncludeNotFound { key: raw(self) }, span);
            return;
        };
        let file = self.module.sources.add(key.clone(), text, Some(span));
        // Lex the stored text in place (disjoint borrows of the source map and the interner). A file with includes
        // gets the interner room that a small file's module does not start with (a no-op once it has it).
        let module = &mut *self.module;
        module.names.reserve_total(crate::include_room_total());
        let tokens = match module.sources.files.get(file) {
            Some(f) => {
                let (tokens, continued) =
                    lex_noting_directives(&f.text, file, &mut module.names, &mut self.chunk_directives);
                self.continued |= continued;
                tokens
            }
            None => {
                self.chunk_directives.clear();
                Vec::new()
            }
        };
        let guard = guard_name(&tokens, &self.chunk_directives, &self.module.names);
        let again = if let Some(first) = state.included.get_mut(&key) {
            if !first.guarded {
                let first_span = first.span;
                self.sink.push(
                    Clue::new(ClueKind::Syntax(SyntaxClue::DuplicateInclude { key: raw(self) }), span)
                        .with_note(Some(first_span), "first included here"),
                );
            } else if unconditional {
                // Every variant has now read the guarded text (here, if not before): later inclusions are skipped.
                first.unconditional = true;
            }
            true
        } else {
            state.included.insert(key.clone(), IncludeRecord { span, unconditional, guarded: guard.is_some() });
            false
        };
        let guard = match guard {
            None => Guard::No,
            Some(name) => {
                // Spliced again, or its macro defined before: this guard holds in some variants only. It and every
                // other guard of the macro (the first inclusion's, whose `#define` it tests) are written as
                // conditionals.
                if !self.variant && (again || state.is_macro(name)) {
                    self.module.keep_guard(name);
                }
                if again {
                    Guard::Again
                } else {
                    Guard::First
                }
            }
        };
        // Room for the chunk's tokens and (at most about one per sixteen tokens) its directives, reserved once
        // instead of regrown while it is copied in.
        out.reserve(tokens.len());
        self.directives.reserve(tokens.len() / 16);
        self.chain.push(key);
        self.file(&tokens, state, guard, out);
        self.chain.pop();
        crate::pool::give(tokens);
    }

    /// Expand the macro use at `toks[i]` into `out`; returns the index after the use.
    fn expand_at(&mut self, toks: &[Token], i: usize, state: &PpState, out: &mut Vec<Token>) -> usize {
        let mut active = Vec::new();
        self.expand_one(toks, i, state, out, &mut active)
    }

    fn expand_one(
        &mut self,
        toks: &[Token],
        i: usize,
        state: &PpState,
        out: &mut Vec<Token>,
        active: &mut Vec<Name>,
    ) -> usize {
        let t = &toks[i];
        let Some(def) = state.macros.get(&t.sym).cloned() else {
            out.push(*t);
            return i + 1;
        };
        if active.contains(&t.sym) {
            out.push(*t);
            return i + 1;
        }
        if active.len() >= self.limits.max_macro_depth {
            self.sink.syntax(
                SyntaxClue::LimitExceeded { what: "macro expansion depth".into(), limit: self.limits.max_macro_depth },
                t.span,
            );
            out.push(*t);
            return i + 1;
        }
        let (mut replacement, next, use_span) = match &def.params {
            None => (def.body.clone(), i + 1, t.span),
            Some(params) => {
                if !toks.get(i + 1).is_some_and(|p| p.is_punct(Punct::LParen)) {
                    out.push(*t);
                    return i + 1;
                }
                let Some((args, close)) = split_args(toks, i + 2) else {
                    self.sink.syntax(
                        SyntaxClue::UnexpectedToken {
                            found: "end of text".into(),
                            expected: "')' closing the macro arguments".into(),
                        },
                        t.span,
                    );
                    return toks.len();
                };
                let use_span = t.span.to(toks[close].span);
                let count = if args.len() == 1 && args[0].is_empty() { 0 } else { args.len() };
                if count != params.len() {
                    self.sink.syntax(
                        SyntaxClue::MacroArgCount {
                            name: self.module.names.resolve(t.sym).to_owned(),
                            expected: params.len(),
                            found: count,
                        },
                        use_span,
                    );
                    // An already-reported placeholder stands for the use, so the parser adds nothing.
                    out.push(Token {
                        kind: TokenKind::Error(LexError::Reported),
                        sym: Interner::EMPTY,
                        span: use_span,
                        line_start: false,
                    });
                    return close + 1;
                }
                // Arguments are fully expanded before substitution.
                let mut expanded_args = Vec::with_capacity(args.len());
                for arg in &args {
                    let mut buf = Vec::new();
                    let mut j = 0;
                    while j < arg.len() {
                        if arg[j].kind == TokenKind::Ident {
                            // Arguments nest (`F(F(F(x)))`) without marking anything active: bound them.
                            self.arg_depth += 1;
                            if self.arg_depth > self.limits.max_macro_depth {
                                self.arg_depth -= 1;
                                self.sink.syntax(
                                    SyntaxClue::LimitExceeded {
                                        what: "macro expansion depth".into(),
                                        limit: self.limits.max_macro_depth,
                                    },
                                    arg[j].span,
                                );
                                return toks.len();
                            }
                            j = self.expand_one(arg, j, state, &mut buf, active);
                            self.arg_depth -= 1;
                        } else {
                            buf.push(arg[j]);
                            j += 1;
                        }
                    }
                    expanded_args.push(buf);
                }
                let mut replacement = Vec::new();
                for b in &def.body {
                    if b.kind == TokenKind::Ident {
                        if let Some(p) = params.iter().position(|p| *p == b.sym) {
                            replacement.extend(expanded_args.get(p).cloned().unwrap_or_default());
                            continue;
                        }
                    }
                    replacement.push(*b);
                }
                (replacement, close + 1, use_span)
            }
        };
        if replacement.len() > self.expansion_budget {
            self.expansion_budget = 0;
            self.sink.syntax(
                SyntaxClue::LimitExceeded {
                    what: "macro expansion size (tokens)".into(),
                    limit: self.limits.max_macro_expansion_tokens,
                },
                use_span,
            );
            return next;
        }
        self.expansion_budget -= replacement.len();
        for r in replacement.iter_mut() {
            r.span = use_span;
            r.line_start = false;
        }
        active.push(t.sym);
        let mut j = 0;
        while j < replacement.len() {
            if replacement[j].kind == TokenKind::Ident && state.is_macro(replacement[j].sym) {
                j = self.expand_one(&replacement, j, state, out, active);
            } else {
                out.push(replacement[j]);
                j += 1;
            }
        }
        active.pop();
        next
    }
}

/// Tokens copied by one `memcpy` at most. A longer copy takes glibc's `rep movsb` path, which callgrind counts
/// per byte; pieces of this size stay on its vector loop (a few instructions per token, against about a dozen for
/// a push per token). Checked by wall clock too, not only by callgrind: one `extend_from_slice` per run measured
/// no faster (PBR.gs parse, `bench --iterations 3000`, eight alternations: minimum 1-2% slower, medians equal or
/// slower), so the pieces stay.
const COPY_PIECE: usize = 64;

/// Append a run of tokens to `out`, in pieces of [`COPY_PIECE`].
fn copy_run(out: &mut Vec<Token>, run: &[Token]) {
    out.reserve(run.len());
    for piece in run.chunks(COPY_PIECE) {
        out.extend_from_slice(piece);
    }
}

/// Split macro arguments starting after `(`; returns the arguments and the index of the closing `)`.
fn split_args(toks: &[Token], start: usize) -> Option<(Vec<Vec<Token>>, usize)> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    let mut j = start;
    while let Some(t) = toks.get(j) {
        match &t.kind {
            TokenKind::Punct(Punct::LParen) => depth += 1,
            TokenKind::Punct(Punct::RParen) if depth == 0 => return Some((args, j)),
            TokenKind::Punct(Punct::RParen) => depth -= 1,
            TokenKind::Punct(Punct::Comma) if depth == 0 => {
                args.push(Vec::new());
                j += 1;
                continue;
            }
            _ => {}
        }
        if let Some(last) = args.last_mut() {
            last.push(*t);
        }
        j += 1;
    }
    None
}

/// The guard macro of a chunk shaped `#ifndef X` / `#define X` / ... / `#endif` with nothing after.
/// `directives`: the indices of the chunk's line-starting `#` tokens, in order (see [`lex_noting_directives`]).
fn guard_name(toks: &[Token], directives: &[u32], names: &shaderlab_ir::Interner) -> Option<Name> {
    let directive = |i: usize| toks.get(i).map(|t| DirectiveName::of(names.resolve(t.sym)));
    if !(toks.first()?.is_punct(Punct::Hash) && matches!(directive(1)?, DirectiveName::Cond(CondKind::Ifndef))) {
        return None;
    }
    let guard = toks.get(2).filter(|t| t.kind == TokenKind::Ident)?.sym;
    if !(toks.get(3)?.is_punct(Punct::Hash)
        && toks[3].line_start
        && matches!(directive(4)?, DirectiveName::Define)
        && toks.get(5)?.sym == guard)
    {
        return None;
    }
    // The matching #endif must be the last directive, with nothing after it.
    let mut depth = 0i32;
    for &i in directives {
        let i = i as usize;
        match directive(i + 1) {
            Some(DirectiveName::Cond(_)) => depth += 1,
            Some(DirectiveName::Endif) => {
                depth -= 1;
                if depth == 0 {
                    let mut end = i + 1;
                    while end < toks.len() && !toks[end].line_start {
                        end += 1;
                    }
                    return (end == toks.len()).then_some(guard);
                }
            }
            _ => {}
        }
    }
    None
}

/// Normalize an include key: `/` separators, no `.`/`..` segments. Keys starting with `.` are relative to the
/// including file's folder. `None` when the key is absolute, empty, or climbs above the include root.
pub fn normalize_key(key: &str, including: &str) -> Option<String> {
    if key.is_empty() || key.contains('\0') || key.starts_with('/') || key.starts_with('\\') {
        return None;
    }
    if key.len() >= 2 && key.as_bytes()[1] == b':' {
        return None; // a drive letter
    }
    let mut parts: Vec<&str> = Vec::new();
    if key.starts_with('.') {
        parts.extend(including.split('/').filter(|s| !s.is_empty()));
        parts.pop(); // the including file's own name
    }
    for seg in key.split(['/', '\\']) {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::normalize_key;

    #[test]
    fn keys_stay_inside_the_root() {
        assert_eq!(normalize_key("Common.glsl", ""), Some("Common.glsl".into()));
        assert_eq!(normalize_key("./test_common", ""), Some("test_common".into()));
        assert_eq!(normalize_key("./BSDF.glsl", "shadingPBR/X.glsl"), Some("shadingPBR/BSDF.glsl".into()));
        assert_eq!(normalize_key("../Common.glsl", "shadingPBR/X.glsl"), Some("Common.glsl".into()));
        assert_eq!(normalize_key("../../etc/passwd", ""), None);
        assert_eq!(normalize_key("../../etc/passwd", "a/b.glsl"), None);
        assert_eq!(normalize_key("/etc/passwd", ""), None);
        assert_eq!(normalize_key("C:/x", ""), None);
        assert_eq!(normalize_key("a/../../b", ""), None);
    }
}
