//! Expressions: GLSL ES 3.00 precedence, with precedence climbing for the binary operators.

use super::{Kw, Parser, Partial};
use crate::token::{Punct, Token, TokenKind};
use shaderlab_ir::{Arg, BinaryOp, Expr, ExprId, IncDecOp, Literal, Name, Span, TypeSpec, UnaryOp};

/// Binary operators with their precedence (higher binds tighter).
fn binary_op(p: Punct) -> Option<(BinaryOp, u8)> {
    use BinaryOp::*;
    Some(match p {
        Punct::OrOr => (LogicalOr, 1),
        Punct::XorXor => (LogicalXor, 2),
        Punct::AndAnd => (LogicalAnd, 3),
        Punct::Pipe => (BitOr, 4),
        Punct::Caret => (BitXor, 5),
        Punct::Amp => (BitAnd, 6),
        Punct::Eq => (Equal, 7),
        Punct::Ne => (NotEqual, 7),
        Punct::Lt => (Less, 8),
        Punct::Gt => (Greater, 8),
        Punct::Le => (LessEqual, 8),
        Punct::Ge => (GreaterEqual, 8),
        Punct::Shl => (ShiftLeft, 9),
        Punct::Shr => (ShiftRight, 9),
        Punct::Plus => (Add, 10),
        Punct::Minus => (Sub, 10),
        Punct::Star => (Mul, 11),
        Punct::Slash => (Div, 11),
        Punct::Percent => (Rem, 11),
        _ => return None,
    })
}

/// Whether `p`, after an operand, continues the expression with a binary, conditional or assignment operator.
fn continues_expression(p: Punct) -> bool {
    binary_op(p).is_some() || p == Punct::Question || assign_op(p).is_some()
}

fn assign_op(p: Punct) -> Option<Option<BinaryOp>> {
    use BinaryOp::*;
    Some(match p {
        Punct::Assign => None,
        Punct::PlusAssign => Some(Add),
        Punct::MinusAssign => Some(Sub),
        Punct::StarAssign => Some(Mul),
        Punct::SlashAssign => Some(Div),
        Punct::PercentAssign => Some(Rem),
        Punct::ShlAssign => Some(ShiftLeft),
        Punct::ShrAssign => Some(ShiftRight),
        Punct::AmpAssign => Some(BitAnd),
        Punct::PipeAssign => Some(BitOr),
        Punct::CaretAssign => Some(BitXor),
        _ => return None,
    })
}

impl<'a> Parser<'a> {
    fn current_punct(&self) -> Option<Punct> {
        match self.peek().map(|t| &t.kind) {
            Some(TokenKind::Punct(p)) => Some(*p),
            _ => None,
        }
    }

    fn error_expr(&mut self) -> ExprId {
        let span = self.here();
        self.alloc(Expr::Error, span)
    }

    /// `expression`: assignments separated by commas. Inlined where it is called: most expressions are one
    /// assignment, and only a `,` after it takes the sequence loop.
    #[inline(always)]
    pub(crate) fn expression(&mut self) -> ExprId {
        let first = self.assignment();
        if self.is_punct(Punct::Comma) {
            self.sequence(first)
        } else {
            first
        }
    }

    /// The rest of a comma expression whose first assignment, `first`, is read.
    fn sequence(&mut self, first: ExprId) -> ExprId {
        let mut left = first;
        let mut chain = 0;
        while self.is_punct(Punct::Comma) && !self.bailing {
            // A chain builds a tree as deep as it is long: it counts as nesting.
            chain += 1;
            if !self.chain_ok(chain) {
                break;
            }
            self.pos += 1;
            let right = self.assignment();
            let span = self.span_of(left).to(self.span_of(right));
            left = self.alloc(Expr::Sequence { left, right }, span);
        }
        left
    }

    /// `assignment_expression` (right-associative).
    pub(crate) fn assignment(&mut self) -> ExprId {
        if !self.enter() {
            return self.error_expr();
        }
        // Most operands end their expression (at a `)`, `,` or `;`): one look at the token after the first operand
        // tells, and only an operator there takes the longer way through the binary, conditional and assignment
        // operators.
        let first = self.unary();
        let result =
            if self.current_punct().is_some_and(continues_expression) { self.assignment_rest(first) } else { first };
        self.leave();
        result
    }

    /// The rest of an assignment expression whose first operand, `first`, is read.
    fn assignment_rest(&mut self, first: ExprId) -> ExprId {
        let target = self.conditional(first);
        match self.current_punct().and_then(assign_op) {
            Some(op) if !self.bailing => {
                self.pos += 1;
                let value = self.assignment();
                let span = self.span_of(target).to(self.span_of(value));
                self.alloc(Expr::Assign { op, target, value }, span)
            }
            _ => target,
        }
    }

    /// A conditional expression whose first operand, `first`, is read.
    fn conditional(&mut self, first: ExprId) -> ExprId {
        let (condition, _) = self.binary_rest(first, 1, self.binary_op_here());
        if !self.is_punct(Punct::Question) || self.bailing {
            return condition;
        }
        self.pos += 1;
        let mark = self.mark();
        let accept = self.expression();
        if !self.expect(Punct::Colon, "':'") {
            self.rollback(mark);
            return condition;
        }
        let reject = self.assignment();
        let span = self.span_of(condition).to(self.span_of(reject));
        self.alloc(Expr::Select { condition, accept, reject }, span)
    }

    /// The binary operator at the current token, with its precedence.
    fn binary_op_here(&self) -> Option<(BinaryOp, u8)> {
        self.current_punct().and_then(binary_op)
    }

    /// Precedence climbing: `left`, an operand just read, and the binary operators of precedence `min_prec` or
    /// higher that follow it with their operands; `next` is the binary operator after `left`, if any. Gives back
    /// the expression and the binary operator it stopped at (so that each operator is looked up once).
    fn binary_rest(
        &mut self,
        mut left: ExprId,
        min_prec: u8,
        mut next: Option<(BinaryOp, u8)>,
    ) -> (ExprId, Option<(BinaryOp, u8)>) {
        let mut chain = 0;
        while let Some((op, prec)) = next {
            if prec < min_prec || self.bailing {
                break;
            }
            chain += 1;
            if !self.chain_ok(chain) {
                break;
            }
            self.pos += 1;
            let mut right = self.unary();
            next = self.binary_op_here();
            // Only an operator binding tighter than this one continues the right operand (the usual case is
            // none).
            if next.is_some_and(|(_, p)| p > prec) {
                (right, next) = self.binary_rest(right, prec + 1, next);
            }
            let span = self.span_of(left).to(self.span_of(right));
            left = self.alloc(Expr::Binary { op, left, right }, span);
        }
        (left, next)
    }

    /// `unary_expression`. The usual operand, a literal or a plain name that nothing after it extends, is read
    /// here, inlined where an operand is read; every other form goes to [`Parser::prefixed_or_postfix`], a large
    /// function whose register saves and restores cost more than reading such an operand.
    #[inline(always)]
    fn unary(&mut self) -> ExprId {
        match self.simple_operand() {
            Some(e) => e,
            None => self.prefixed_or_postfix(),
        }
    }

    /// A literal, or a name that is no keyword, builtin type or source macro, when the token after it does not
    /// make it part of something longer (a call, an index, a member access, `++` or `--`): the operand, read;
    /// `None` (nothing read) otherwise.
    #[inline(always)]
    fn simple_operand(&mut self) -> Option<ExprId> {
        let extended = self.peek_at(1).is_some_and(|n| {
            matches!(
                n.kind,
                TokenKind::Punct(Punct::LParen | Punct::LBracket | Punct::Dot | Punct::PlusPlus | Punct::MinusMinus)
            )
        });
        if extended {
            return None;
        }
        self.literal_or_name()
    }

    /// The literal, or the name that is no keyword, builtin type or source macro, at the current token: read
    /// (see [`Parser::simple_operand`]); `None` (nothing read) for any other token.
    #[inline(always)]
    fn literal_or_name(&mut self) -> Option<ExprId> {
        let t = self.peek()?;
        let kind = match literal(t) {
            Some(literal) => Expr::Literal(literal),
            None if self.is_plain_ident(t) && !self.macros.contains_key(&t.sym) => Expr::Ident(t.sym),
            None => return None,
        };
        self.pos += 1;
        Some(self.alloc(kind, t.span))
    }

    /// A unary expression with a prefix operator, or a postfix expression (see [`Parser::unary`]).
    #[inline(never)]
    fn prefixed_or_postfix(&mut self) -> ExprId {
        let op = match self.current_punct() {
            Some(Punct::Minus) => Some(Ok(UnaryOp::Negate)),
            Some(Punct::Plus) => Some(Ok(UnaryOp::Plus)),
            Some(Punct::Bang) => Some(Ok(UnaryOp::Not)),
            Some(Punct::Tilde) => Some(Ok(UnaryOp::BitNot)),
            Some(Punct::PlusPlus) => Some(Err(IncDecOp::PreIncrement)),
            Some(Punct::MinusMinus) => Some(Err(IncDecOp::PreDecrement)),
            _ => None,
        };
        let Some(op) = op else { return self.postfix() };
        let start = self.here();
        self.pos += 1;
        if !self.enter() {
            return self.error_expr();
        }
        let operand = self.unary();
        self.leave();
        let span = start.to(self.span_of(operand));
        match op {
            Ok(op) => self.alloc(Expr::Unary { op, operand }, span),
            Err(op) => self.alloc(Expr::IncDec { op, target: operand }, span),
        }
    }

    fn postfix(&mut self) -> ExprId {
        let mut e = self.primary();
        let mut chain = 0;
        loop {
            if self.bailing {
                return e;
            }
            let Some(p @ (Punct::LBracket | Punct::Dot | Punct::PlusPlus | Punct::MinusMinus)) = self.current_punct()
            else {
                return e;
            };
            chain += 1;
            if !self.chain_ok(chain) {
                return e;
            }
            let start = self.span_of(e);
            match p {
                Punct::LBracket => {
                    self.pos += 1;
                    let mark = self.mark();
                    let index = self.expression();
                    if !self.expect(Punct::RBracket, "']'") {
                        self.rollback(mark);
                        return e;
                    }
                    e = self.alloc(Expr::Index { base: e, index }, start.to(self.prev_span()));
                }
                Punct::Dot => {
                    self.pos += 1;
                    let Some(t) = self.peek().filter(|t| t.kind == TokenKind::Ident) else {
                        self.expected("a member name");
                        return e;
                    };
                    self.pos += 1;
                    if self.names.resolve(t.sym) == "length"
                        && self.punct_at(0, Punct::LParen)
                        && self.punct_at(1, Punct::RParen)
                    {
                        self.pos += 2;
                        e = self.alloc(Expr::ArrayLength { base: e }, start.to(self.prev_span()));
                        continue;
                    }
                    e = self.alloc(Expr::Member { base: e, member: t.sym, member_span: t.span }, start.to(t.span));
                }
                // `++` or `--`
                _ => {
                    self.pos += 1;
                    let op = if p == Punct::PlusPlus { IncDecOp::PostIncrement } else { IncDecOp::PostDecrement };
                    e = self.alloc(Expr::IncDec { op, target: e }, start.to(self.prev_span()));
                }
            }
        }
    }

    /// `( args )` at the `(`, through the `)`.
    /// Arguments, and whether they parsed without a syntax error.
    fn call_args_checked(&mut self) -> (Vec<Arg>, bool) {
        let before = self.sink.error_count();
        let args = self.call_args();
        (args, self.sink.error_count() == before)
    }

    fn call_args(&mut self) -> Vec<Arg> {
        self.pos += 1; // (
                       // `f(void)` means no arguments.
        if self.peek().is_some_and(|t| self.builtin_type(t) == Some(shaderlab_ir::TypeInner::Void))
            && self.punct_at(1, Punct::RParen)
        {
            self.pos += 1;
        }
        let args = self.guarded_list(
            &mut Self::argument,
            Partial::Never,
            &|p: &Parser<'a>| p.is_punct(Punct::RParen),
            super::ROOM.nested,
        );
        self.expect(Punct::RParen, "')'");
        args
    }

    /// One call argument (a list element of [`Partial::Never`]: nothing is read before a skip or an end, and an
    /// argument read is always kept).
    fn argument(&mut self, out: &mut Vec<Arg>) -> super::Step {
        let Some(t) = self.peek() else {
            return super::Step::End;
        };
        match t.kind {
            TokenKind::Punct(Punct::RParen) => return super::Step::End,
            TokenKind::Punct(Punct::Comma) => {
                self.separator("an argument");
                return super::Step::Skip;
            }
            TokenKind::Directive(_) => {
                self.expected("an argument");
                self.pos += 1;
                return super::Step::Skip;
            }
            TokenKind::Punct(Punct::Semicolon | Punct::RBrace) => {
                self.expected("')'");
                return super::Step::End;
            }
            _ if self.bailing => {
                self.expected("')'");
                return super::Step::End;
            }
            _ => {}
        }
        let e = match self.simple_argument() {
            Some(e) => e,
            None => self.assignment(),
        };
        self.argument_end();
        super::done(out, e)
    }

    /// A whole argument that is a literal or a plain name (see [`Parser::literal_or_name`]) right before a `,` or
    /// the `)`, read without the assignment machinery; `None` (nothing read) otherwise. It is what
    /// [`Parser::assignment`] would read there, given that its nesting level is within the limit (tested first).
    #[inline(always)]
    fn simple_argument(&mut self) -> Option<ExprId> {
        if !self.can_enter() {
            return None;
        }
        let ends = self.peek_at(1).is_some_and(|n| matches!(n.kind, TokenKind::Punct(Punct::Comma | Punct::RParen)));
        if ends {
            self.literal_or_name()
        } else {
            None
        }
    }

    fn primary(&mut self) -> ExprId {
        let Some(t) = self.peek() else {
            self.expected("an expression");
            return self.error_expr();
        };
        let span = t.span;
        if let Some(literal) = literal(t) {
            self.pos += 1;
            return self.alloc(Expr::Literal(literal), span);
        }
        match &t.kind {
            TokenKind::Error(_) => {
                // Reported by the preprocessor (an invalid number).
                self.pos += 1;
                self.alloc(Expr::Error, span)
            }
            TokenKind::Punct(Punct::LParen) => {
                self.pos += 1;
                // `expression` -> `assignment` counts this nesting level.
                let e = self.expression();
                self.expect(Punct::RParen, "')'");
                // Parentheses widen the span (useful for diagnostics on the whole group).
                let full = span.to(self.prev_span());
                self.exprs_mut()[e].span = full;
                e
            }
            TokenKind::Ident => self.primary_ident(),
            _ => {
                self.expected("an expression");
                self.error_expr()
            }
        }
    }

    fn primary_ident(&mut self) -> ExprId {
        let Some(t) = self.peek() else {
            return self.error_expr();
        };
        let span = t.span;
        // One lookup tells keywords and builtin type names (the token is an identifier).
        let word = self.kw.word(t.sym);
        match word.kw {
            Some(Kw::True) => {
                self.pos += 1;
                return self.alloc(Expr::Literal(Literal::Bool(true)), span);
            }
            Some(Kw::False) => {
                self.pos += 1;
                return self.alloc(Expr::Literal(Literal::Bool(false)), span);
            }
            Some(Kw::Highp | Kw::Mediump | Kw::Lowp) | None => {}
            Some(_) => {
                self.expected("an expression");
                return self.error_expr();
            }
        }
        // The longer forms below are functions of their own, so that this common path (a plain name) stays small.
        // Constructors of builtin types: `vec3(...)`, `float[3](...)`.
        // (A precision keyword is the only keyword left here.)
        if word.ty.is_some() || word.kw.is_some() {
            return self.type_constructor(true);
        }
        // Source macros (preserving mode).
        if let Some(info) = self.macros.get(&t.sym) {
            let expected = info.params.as_ref().map(Vec::len);
            return self.macro_use(t.sym, span, expected);
        }
        // User array constructor: `S[2](...)`.
        if self.punct_at(1, Punct::LBracket) && self.type_names.contains(t.sym) && self.array_constructor_ahead() {
            return self.type_constructor(false);
        }
        self.pos += 1;
        if self.is_punct(Punct::LParen) {
            return self.call(t.sym, span);
        }
        self.alloc(Expr::Ident(t.sym), span)
    }

    /// A constructor at its type (`builtin`: a builtin type, where a missing type is reported).
    #[inline(never)]
    fn type_constructor(&mut self, builtin: bool) -> ExprId {
        let mark = self.mark();
        // The usual constructor, a builtin type name right before its `(`, without the general type reader: the
        // type it would read there (no precision, no dimensions).
        if let Some(t) = self.peek().filter(|_| builtin && self.punct_at(1, Punct::LParen)) {
            if let Some(inner) = self.builtin_type(t) {
                let base = self.intern_builtin(t.sym, inner);
                self.pos += 1;
                return self.constructor(TypeSpec { base, precision: None, dims: Vec::new(), span: t.span }, mark);
            }
        }
        let Some(ty) = self.type_specifier() else {
            if builtin {
                self.expected("an expression");
            }
            return self.error_expr();
        };
        self.constructor(ty, mark)
    }

    /// A use of source macro `name` (spelled at `span`), which takes `expected` arguments when function-like.
    #[inline(never)]
    fn macro_use(&mut self, name: Name, span: Span, expected: Option<usize>) -> ExprId {
        self.pos += 1;
        let args = if self.is_punct(Punct::LParen) { Some(self.call_args()) } else { None };
        let use_span = span.to(self.prev_span());
        if let (Some(expected), Some(args)) = (expected, &args) {
            let found = count_args(args);
            if found.is_some_and(|found| found != expected) {
                self.sink.syntax(
                    shaderlab_ir::SyntaxClue::MacroArgCount {
                        name: self.names.resolve(name).to_owned(),
                        expected,
                        found: found.unwrap_or(0),
                    },
                    use_span,
                );
            }
        }
        self.alloc(Expr::MacroRef { name, args }, use_span)
    }

    /// A call of `callee` (spelled at `span`), at the `(`.
    #[inline(never)]
    fn call(&mut self, callee: Name, span: Span) -> ExprId {
        let mark = self.mark();
        let (args, clean) = self.call_args_checked();
        let full = span.to(self.prev_span());
        if !clean {
            self.rollback(mark);
            return self.alloc(Expr::Error, full);
        }
        self.alloc(Expr::Call { callee, callee_span: span, args }, full)
    }

    /// At `Name [`: whether `[ ... ] (` follows.
    fn array_constructor_ahead(&self) -> bool {
        let mut i = 1;
        let mut depth = 0;
        while let Some(t) = self.peek_at(i) {
            if t.is_punct(Punct::LBracket) {
                depth += 1;
            } else if t.is_punct(Punct::RBracket) {
                depth -= 1;
                if depth == 0 {
                    return self.punct_at(i + 1, Punct::LParen);
                }
            }
            i += 1;
        }
        false
    }

    /// After the type of a constructor; `mark` is from before the type: on an error, the type and its
    /// dimensions are not kept.
    fn constructor(&mut self, ty: TypeSpec, mark: super::Mark) -> ExprId {
        let start = ty.span;
        if !self.is_punct(Punct::LParen) {
            self.expected("'(' after a type name in an expression");
            self.rollback(mark);
            return self.error_expr();
        }
        let (args, clean) = self.call_args_checked();
        let full = start.to(self.prev_span());
        if !clean {
            self.rollback(mark);
            return self.alloc(Expr::Error, full);
        }
        self.alloc(Expr::Construct { ty: Box::new(ty), args }, full)
    }
}

/// The literal a number token spells.
#[inline(always)]
fn literal(t: &Token) -> Option<Literal> {
    Some(match t.kind {
        TokenKind::Int(v) => Literal::Int { value: u64::from(v), spelling: t.sym },
        TokenKind::Uint(v) => Literal::Uint { value: u64::from(v), spelling: t.sym },
        TokenKind::Float(v) => Literal::Float { value: v.get(), spelling: t.sym },
        _ => return None,
    })
}

/// The number of arguments of a use, when no conditional region makes it variant-dependent.
fn count_args(args: &[Arg]) -> Option<usize> {
    args.iter().all(|a| matches!(a, shaderlab_ir::Guarded::Item(_))).then_some(args.len())
}
