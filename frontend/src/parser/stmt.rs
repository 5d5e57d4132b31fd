//! Statements and blocks, read straight into their IR form (their locals go to the function being read).

use super::{done, push_entity, Kw, Parser, Partial, Step, ROOM};
use crate::preprocess::Directive;
use crate::token::{Punct, TokenKind};
use shaderlab_ir::{Block, ExprId, Guarded, LocalRange, Span, Statement, StmtKind};

impl<'a> Parser<'a> {
    /// `{ statements }`, at the `{`; `room` is what the statement list starts with (see [`super::Room`]).
    pub(crate) fn block(&mut self, room: usize) -> Option<Block> {
        let start = self.here();
        if !self.expect(Punct::LBrace, "'{'") {
            return None;
        }
        if self.bailing {
            self.skip_block_rest();
            return None;
        }
        // The enclosing statement counted this nesting level.
        let stmts = self.guarded_list(
            &mut Self::statement_step,
            Partial::Dropped,
            &|p: &Parser<'a>| p.is_punct(Punct::RBrace),
            room,
        );
        self.expect(Punct::RBrace, "'}'");
        Some(Block { stmts, span: start.to(self.prev_span()) })
    }

    fn skip_else_chain(&mut self) {
        while self.eat_kw(Kw::Else) {
            self.skip_statement();
        }
        self.resync();
    }

    fn skip_statement(&mut self) {
        if self.is_punct(Punct::LBrace) {
            self.pos += 1;
            self.skip_block_rest();
        } else {
            self.recover();
        }
    }

    /// Skip through the `}` matching an already consumed `{`.
    fn skip_block_rest(&mut self) {
        let mut depth = 1i32;
        while let Some(t) = self.bump() {
            if t.is_punct(Punct::LBrace) {
                depth += 1;
            } else if t.is_punct(Punct::RBrace) {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
        }
    }

    fn statement_step(&mut self, out: &mut Vec<Guarded<Statement>>) -> Step {
        let Some(t) = self.peek() else {
            return Step::End;
        };
        if t.is_punct(Punct::RBrace) {
            return Step::End;
        }
        if let Some(d) = self.directive_of(t) {
            self.pos += 1;
            let span = t.span;
            return match d {
                Directive::Define { .. } => match self.define(d) {
                    Some(def) => {
                        let id = push_entity(self.entities.macros, def);
                        done(out, Statement { kind: StmtKind::Define(id), span })
                    }
                    None => Step::Skip,
                },
                Directive::Undef { name, .. } => {
                    self.macros.remove(name);
                    done(out, Statement { kind: StmtKind::Undef(*name), span })
                }
                _ => Step::Skip,
            };
        }
        match self.statement() {
            Some(s) => done(out, s),
            None => Step::Skip,
        }
    }

    /// One statement; `None` after a reported error (the parser has recovered).
    pub(crate) fn statement(&mut self) -> Option<Statement> {
        if !self.enter() {
            // Too deep: skip this statement (a block whole), and the rest of an `if`/`else if` chain with it.
            self.skip_statement();
            while self.eat_kw(Kw::Else) {
                self.skip_statement();
            }
            self.bailing = false;
            return None;
        }
        let s = self.statement_inner();
        self.leave();
        s
    }

    fn statement_inner(&mut self) -> Option<Statement> {
        let start = self.here();
        let t = self.peek()?;
        if t.is_punct(Punct::LBrace) {
            let b = self.block(ROOM.nested)?;
            let span = b.span;
            return Some(Statement { kind: StmtKind::Block(b), span });
        }
        if t.is_punct(Punct::Semicolon) {
            self.pos += 1;
            return Some(Statement { kind: StmtKind::Empty, span: start });
        }
        if let TokenKind::Directive(_) = t.kind {
            // A conditional where a single statement is required (e.g. an `if` body without braces).
            self.expected("a statement (a conditional directive cannot stand for an unbraced body)");
            return None;
        }
        let kind = match self.peek_kw() {
            Some(Kw::If) => {
                self.pos += 1;
                // On an error the rest of the `else if` chain goes with this statement (no cascade of stray
                // `else`s).
                let Some(condition) = self.paren_condition() else {
                    self.skip_else_chain();
                    return None;
                };
                let Some(accept) = self.statement() else {
                    self.skip_else_chain();
                    return None;
                };
                let reject = if self.eat_kw(Kw::Else) {
                    match self.statement() {
                        Some(r) => Some(Box::new(r)),
                        None => {
                            self.skip_else_chain();
                            return None;
                        }
                    }
                } else {
                    None
                };
                StmtKind::If { condition, accept: Box::new(accept), reject }
            }
            Some(Kw::While) => {
                self.pos += 1;
                let condition = self.paren_condition()?;
                let body = Box::new(self.statement()?);
                StmtKind::While { condition, body }
            }
            Some(Kw::Do) => {
                self.pos += 1;
                let body = Box::new(self.statement()?);
                if !self.eat_kw(Kw::While) {
                    self.expected("'while'");
                    self.recover();
                    return None;
                }
                let condition = self.paren_condition()?;
                self.end_statement()?;
                StmtKind::DoWhile { body, condition }
            }
            Some(Kw::For) => return self.for_statement(start),
            Some(Kw::Switch) => {
                self.pos += 1;
                let selector = self.paren_condition()?;
                if !self.is_punct(Punct::LBrace) {
                    self.expected("'{'");
                    self.recover();
                    return None;
                }
                let body = self.block(ROOM.nested)?;
                StmtKind::Switch { selector, body }
            }
            Some(Kw::Case) => {
                self.pos += 1;
                let e = self.expression();
                if !self.expect(Punct::Colon, "':'") {
                    self.recover();
                    return None;
                }
                StmtKind::Case(e)
            }
            Some(Kw::Default) => {
                self.pos += 1;
                if !self.expect(Punct::Colon, "':'") {
                    self.recover();
                    return None;
                }
                StmtKind::Default
            }
            Some(Kw::Break) => {
                self.pos += 1;
                self.end_statement()?;
                StmtKind::Break
            }
            Some(Kw::Continue) => {
                self.pos += 1;
                self.end_statement()?;
                StmtKind::Continue
            }
            Some(Kw::Discard) => {
                self.pos += 1;
                self.end_statement()?;
                StmtKind::Discard
            }
            Some(Kw::Return) => {
                self.pos += 1;
                let value = if self.is_punct(Punct::Semicolon) { None } else { Some(self.expression()) };
                self.end_statement()?;
                StmtKind::Return(value)
            }
            Some(Kw::Precision) => {
                let (precision, ty, _) = self.precision_statement()?;
                StmtKind::Precision { precision, ty }
            }
            _ if self.starts_declaration() => return self.declaration_statement(start),
            _ => {
                let e = self.expression();
                self.end_statement()?;
                StmtKind::Expr(e)
            }
        };
        Some(Statement { kind, span: start.to(self.prev_span()) })
    }

    #[inline]
    fn end_statement(&mut self) -> Option<()> {
        if self.expect(Punct::Semicolon, "';'") {
            self.resync();
            Some(())
        } else {
            self.recover();
            None
        }
    }

    fn paren_condition(&mut self) -> Option<ExprId> {
        if !self.expect(Punct::LParen, "'('") {
            self.recover();
            return None;
        }
        let e = self.expression();
        if !self.expect(Punct::RParen, "')'") {
            self.recover();
            return None;
        }
        Some(e)
    }

    /// A declaration, a local struct, or a local function prototype.
    fn declaration_statement(&mut self, start: Span) -> Option<Statement> {
        let qualifiers = self.qualifiers();
        if self.peek_kw() == Some(Kw::Struct) {
            let Some(id) = self.struct_specifier() else {
                self.recover();
                return None;
            };
            let declares = match self.struct_declarators(id, start) {
                Some(_) => self.push_locals(qualifiers),
                None => LocalRange::default(),
            };
            return Some(Statement { kind: StmtKind::Struct { id, declares }, span: start.to(self.prev_span()) });
        }
        let dims_from = self.exprs().len();
        let Some(ty) = self.type_specifier() else {
            self.expected("a type");
            self.recover();
            return None;
        };
        if self.peek().is_some_and(|t| t.kind == TokenKind::Ident) && self.punct_at(1, Punct::LParen) {
            let id = self.function_rest(ty, dims_from, start)?;
            let f = &self.entities.functions[id];
            if f.body.is_some() {
                let (name, name_span) = (f.name, f.name_span);
                self.expected_at_function(name, name_span);
            }
            return Some(Statement { kind: StmtKind::Prototype(id), span: start.to(self.prev_span()) });
        }
        self.declarator_list(ty, dims_from, start)?;
        let locals = self.push_locals(qualifiers);
        self.resync();
        Some(Statement { kind: StmtKind::Declare(locals), span: start.to(self.prev_span()) })
    }

    fn expected_at_function(&mut self, name: shaderlab_ir::Name, name_span: Span) {
        // Function definitions are not allowed inside functions.
        let name = self.names.resolve(name).to_owned();
        self.sink.syntax(
            shaderlab_ir::SyntaxClue::UnexpectedToken {
                found: format!("'{name}'"),
                expected: "a statement (functions cannot be defined inside a function)".into(),
            },
            name_span,
        );
    }

    fn for_statement(&mut self, start: Span) -> Option<Statement> {
        self.pos += 1; // for
        if !self.expect(Punct::LParen, "'('") {
            self.recover();
            return None;
        }
        let init_start = self.here();
        let init = if self.eat(Punct::Semicolon) {
            None
        } else if self.starts_declaration() {
            Some(Box::new(self.declaration_statement(init_start)?))
        } else {
            let e = self.expression();
            if !self.expect(Punct::Semicolon, "';'") {
                self.recover();
                return None;
            }
            Some(Box::new(Statement { kind: StmtKind::Expr(e), span: init_start.to(self.prev_span()) }))
        };
        let condition = if self.is_punct(Punct::Semicolon) { None } else { Some(self.expression()) };
        if !self.expect(Punct::Semicolon, "';'") {
            self.recover();
            return None;
        }
        let update = if self.is_punct(Punct::RParen) { None } else { Some(self.expression()) };
        if !self.expect(Punct::RParen, "')'") {
            self.recover();
            return None;
        }
        let body = Box::new(self.statement()?);
        Some(Statement { kind: StmtKind::For { init, condition, update, body }, span: start.to(self.prev_span()) })
    }
}
