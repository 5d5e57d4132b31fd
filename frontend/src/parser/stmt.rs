//! Statements and blocks.

use super::{Kw, Parser, Step};
use crate::ast::{AstBlock, AstStmt, AstStmtKind};
use crate::preprocess::Directive;
use crate::token::{Punct, TokenKind};

impl<'a> Parser<'a> {
    /// `{ statements }`, at the `{`.
    pub(crate) fn block(&mut self) -> Option<AstBlock> {
        let start = self.here();
        if !self.expect(Punct::LBrace, "'{'") {
            return None;
        }
        if self.bailing {
            self.skip_block_rest();
            return None;
        }
        // The enclosing statement counted this nesting level.
        let stmts = self.guarded_list(&mut |p| p.statement_step(), &|p: &Parser<'a>| p.is_punct(Punct::RBrace));
        if !self.expect(Punct::RBrace, "'}'") {
            return Some(AstBlock { stmts, span: start.to(self.prev_span()) });
        }
        Some(AstBlock { stmts, span: start.to(self.prev_span()) })
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

    fn statement_step(&mut self) -> Step<AstStmt> {
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
                    Some(def) => Step::Item(AstStmt { kind: AstStmtKind::Define(def), span }),
                    None => Step::Skip,
                },
                Directive::Undef { name, .. } => {
                    self.macros.remove(name);
                    Step::Item(AstStmt { kind: AstStmtKind::Undef(*name), span })
                }
                _ => Step::Skip,
            };
        }
        match self.statement() {
            Some(s) => Step::Item(s),
            None => Step::Skip,
        }
    }

    /// One statement; `None` after a reported error (the parser has recovered).
    pub(crate) fn statement(&mut self) -> Option<AstStmt> {
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

    fn statement_inner(&mut self) -> Option<AstStmt> {
        let start = self.here();
        let t = self.peek()?;
        if t.is_punct(Punct::LBrace) {
            let b = self.block()?;
            let span = b.span;
            return Some(AstStmt { kind: AstStmtKind::Block(b), span });
        }
        if t.is_punct(Punct::Semicolon) {
            self.pos += 1;
            return Some(AstStmt { kind: AstStmtKind::Empty, span: start });
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
                AstStmtKind::If { condition, accept: Box::new(accept), reject }
            }
            Some(Kw::While) => {
                self.pos += 1;
                let condition = self.paren_condition()?;
                let body = Box::new(self.statement()?);
                AstStmtKind::While { condition, body }
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
                AstStmtKind::DoWhile { body, condition }
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
                let body = self.block()?;
                AstStmtKind::Switch { selector, body }
            }
            Some(Kw::Case) => {
                self.pos += 1;
                let e = self.expression();
                if !self.expect(Punct::Colon, "':'") {
                    self.recover();
                    return None;
                }
                AstStmtKind::Case(e)
            }
            Some(Kw::Default) => {
                self.pos += 1;
                if !self.expect(Punct::Colon, "':'") {
                    self.recover();
                    return None;
                }
                AstStmtKind::Default
            }
            Some(Kw::Break) => {
                self.pos += 1;
                self.end_statement()?;
                AstStmtKind::Break
            }
            Some(Kw::Continue) => {
                self.pos += 1;
                self.end_statement()?;
                AstStmtKind::Continue
            }
            Some(Kw::Discard) => {
                self.pos += 1;
                self.end_statement()?;
                AstStmtKind::Discard
            }
            Some(Kw::Return) => {
                self.pos += 1;
                let value = if self.is_punct(Punct::Semicolon) { None } else { Some(self.expression()) };
                self.end_statement()?;
                AstStmtKind::Return(value)
            }
            Some(Kw::Precision) => {
                let (precision, ty, _) = self.precision_statement()?;
                AstStmtKind::Precision { precision, ty }
            }
            _ if self.starts_declaration() => return self.declaration_statement(start),
            _ => {
                let e = self.expression();
                self.end_statement()?;
                AstStmtKind::Expr(e)
            }
        };
        Some(AstStmt { kind, span: start.to(self.prev_span()) })
    }

    fn end_statement(&mut self) -> Option<()> {
        if self.expect(Punct::Semicolon, "';'") {
            self.resync();
            Some(())
        } else {
            self.recover();
            None
        }
    }

    fn paren_condition(&mut self) -> Option<shaderlab_ir::ExprId> {
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
    fn declaration_statement(&mut self, start: shaderlab_ir::Span) -> Option<AstStmt> {
        let qualifiers = self.qualifiers();
        if self.peek_kw() == Some(Kw::Struct) {
            let Some(decl) = self.struct_specifier() else {
                self.recover();
                return None;
            };
            let vars = self.struct_declarators(&decl, qualifiers, start);
            return Some(AstStmt { kind: AstStmtKind::Struct(decl, vars), span: start.to(self.prev_span()) });
        }
        let dims_from = self.exprs().len();
        let Some(ty) = self.type_specifier() else {
            self.expected("a type");
            self.recover();
            return None;
        };
        if self.peek().is_some_and(|t| t.kind == TokenKind::Ident) && self.punct_at(1, Punct::LParen) {
            let f = self.function_rest(ty, dims_from, start)?;
            if f.body.is_some() {
                self.expected_at_function(&f);
            }
            return Some(AstStmt { kind: AstStmtKind::Prototype(f), span: start.to(self.prev_span()) });
        }
        let decl = self.declarator_list(qualifiers, ty, dims_from, start)?;
        self.resync();
        Some(AstStmt { kind: AstStmtKind::Decl(decl), span: start.to(self.prev_span()) })
    }

    fn expected_at_function(&mut self, f: &crate::ast::AstFunction) {
        // Function definitions are not allowed inside functions.
        let name = self.names.resolve(f.name).to_owned();
        self.sink.syntax(
            shaderlab_ir::SyntaxClue::UnexpectedToken {
                found: format!("'{name}'"),
                expected: "a statement (functions cannot be defined inside a function)".into(),
            },
            f.name_span,
        );
    }

    fn for_statement(&mut self, start: shaderlab_ir::Span) -> Option<AstStmt> {
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
            Some(Box::new(AstStmt { kind: AstStmtKind::Expr(e), span: init_start.to(self.prev_span()) }))
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
        Some(AstStmt { kind: AstStmtKind::For { init, condition, update, body }, span: start.to(self.prev_span()) })
    }
}
