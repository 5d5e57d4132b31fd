//! Preprocessor condition expressions: parsing into [`PpExpr`] and evaluation with C's integer rules
//! (64-bit, wrapping; division by zero is an error). A name starting with `GL_` belongs to the GLSL compiler:
//! a condition testing one evaluates to unknown, so its block is left for the driver.

use crate::token::{Punct, Token, TokenKind};
use shaderlab_ir::{Interner, Name, PpBinaryOp, PpExpr, PpUnaryOp};

/// Parse a condition; `Err` carries the reason.
pub fn parse(tokens: &[Token], names: &Interner) -> Result<PpExpr, String> {
    if tokens.is_empty() {
        return Err("missing condition".into());
    }
    let mut p = CondParser { toks: tokens, pos: 0, names, depth: 0 };
    let e = p.ternary()?;
    if let Some(t) = p.toks.get(p.pos) {
        return Err(format!("unexpected '{}'", token_text(t, names)));
    }
    Ok(e)
}

fn token_text(t: &Token, names: &Interner) -> String {
    match &t.kind {
        TokenKind::Punct(p) => p.text().to_owned(),
        _ => names.resolve(t.sym).to_owned(),
    }
}

struct CondParser<'a> {
    toks: &'a [Token],
    pos: usize,
    names: &'a Interner,
    depth: usize,
}

/// The level (0 for `||` up to 9 for `*`) and operator of a binary operator token.
fn binary_op(p: Punct) -> Option<(usize, PpBinaryOp)> {
    Some(match p {
        Punct::OrOr => (0, PpBinaryOp::Or),
        Punct::AndAnd => (1, PpBinaryOp::And),
        Punct::Pipe => (2, PpBinaryOp::BitOr),
        Punct::Caret => (3, PpBinaryOp::BitXor),
        Punct::Amp => (4, PpBinaryOp::BitAnd),
        Punct::Eq => (5, PpBinaryOp::Eq),
        Punct::Ne => (5, PpBinaryOp::Ne),
        Punct::Lt => (6, PpBinaryOp::Lt),
        Punct::Gt => (6, PpBinaryOp::Gt),
        Punct::Le => (6, PpBinaryOp::Le),
        Punct::Ge => (6, PpBinaryOp::Ge),
        Punct::Shl => (7, PpBinaryOp::Shl),
        Punct::Shr => (7, PpBinaryOp::Shr),
        Punct::Plus => (8, PpBinaryOp::Add),
        Punct::Minus => (8, PpBinaryOp::Sub),
        Punct::Star => (9, PpBinaryOp::Mul),
        Punct::Slash => (9, PpBinaryOp::Div),
        Punct::Percent => (9, PpBinaryOp::Rem),
        _ => return None,
    })
}

impl<'a> CondParser<'a> {
    fn punct(&self) -> Option<Punct> {
        match self.toks.get(self.pos).map(|t| &t.kind) {
            Some(TokenKind::Punct(p)) => Some(*p),
            _ => None,
        }
    }

    fn ternary(&mut self) -> Result<PpExpr, String> {
        self.depth += 1;
        if self.depth > 128 {
            return Err("condition nested too deeply".into());
        }
        let c = self.binary(0)?;
        let result = if self.punct() == Some(Punct::Question) {
            self.pos += 1;
            let a = self.ternary()?;
            if self.punct() != Some(Punct::Colon) {
                return Err("expected ':'".into());
            }
            self.pos += 1;
            let b = self.ternary()?;
            PpExpr::Select(Box::new(c), Box::new(a), Box::new(b))
        } else {
            c
        };
        self.depth -= 1;
        Ok(result)
    }

    /// Operators of level `min` and tighter, left-associative (precedence climbing: one call per operand, not one
    /// per level). The tree is the one a descent through the ten levels builds.
    fn binary(&mut self, min: usize) -> Result<PpExpr, String> {
        let mut left = self.unary()?;
        // A chain of one level's operators nests as deep as it is long: the level of the current chain and its
        // length. The operators this loop sees never get tighter (the call for the right operand takes the
        // tighter ones), so a new level starts a new chain and a level left behind never comes back.
        let (mut chain_level, mut chain) = (usize::MAX, 0usize);
        while let Some((level, op)) = self.punct().and_then(binary_op) {
            if level < min {
                break;
            }
            if level == chain_level {
                chain += 1;
            } else {
                (chain_level, chain) = (level, 1);
            }
            if self.depth + chain > 128 {
                return Err("condition nested too deeply".into());
            }
            self.pos += 1;
            let right = self.binary(level + 1)?;
            left = PpExpr::Binary(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<PpExpr, String> {
        let op = match self.punct() {
            Some(Punct::Minus) => Some(PpUnaryOp::Neg),
            Some(Punct::Plus) => Some(PpUnaryOp::Plus),
            Some(Punct::Bang) => Some(PpUnaryOp::Not),
            Some(Punct::Tilde) => Some(PpUnaryOp::BitNot),
            _ => None,
        };
        if let Some(op) = op {
            self.pos += 1;
            self.depth += 1;
            if self.depth > 128 {
                return Err("condition nested too deeply".into());
            }
            let e = self.unary()?;
            self.depth -= 1;
            return Ok(PpExpr::Unary(op, Box::new(e)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<PpExpr, String> {
        let Some(t) = self.toks.get(self.pos) else {
            return Err("condition ends early".into());
        };
        self.pos += 1;
        match &t.kind {
            TokenKind::Int(v) | TokenKind::Uint(v) => Ok(PpExpr::Int(i64::from(*v))),
            TokenKind::Punct(Punct::LParen) => {
                let e = self.ternary()?;
                if self.punct() != Some(Punct::RParen) {
                    return Err("expected ')'".into());
                }
                self.pos += 1;
                Ok(e)
            }
            TokenKind::Ident if self.names.resolve(t.sym) == "defined" => {
                let paren = self.punct() == Some(Punct::LParen);
                if paren {
                    self.pos += 1;
                }
                let name = match self.toks.get(self.pos) {
                    Some(n) if n.kind == TokenKind::Ident => n.sym,
                    _ => return Err("expected a macro name after 'defined'".into()),
                };
                self.pos += 1;
                if paren {
                    if self.punct() != Some(Punct::RParen) {
                        return Err("expected ')'".into());
                    }
                    self.pos += 1;
                }
                Ok(PpExpr::Defined(name))
            }
            TokenKind::Ident => Ok(PpExpr::Ident(t.sym)),
            TokenKind::Float(_) => Err(format!("'{}' is not an integer", self.names.resolve(t.sym))),
            _ => Err(format!("unexpected '{}'", token_text(t, self.names))),
        }
    }
}

/// What a name means to the evaluator.
pub enum MacroValue<'a> {
    Undefined,
    /// Defined with these replacement tokens (empty for `#define X`); `function_like` macros have no value.
    Defined {
        body: &'a [Token],
        function_like: bool,
    },
    /// Cannot be known at compile time (a `GL_` name, or in preserving mode a name whose definition differs
    /// between the variants that reach the condition).
    Unknown,
}

/// Tri-state result: `Ok(Some(v))` known value, `Ok(None)` unknown, `Err` invalid.
pub type Eval = Result<Option<i64>, EvalError>;

/// Why a condition has no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// The condition is invalid, for this reason (to report).
    Invalid(String),
    /// It expands a macro whose body holds text the lexer could not read, already reported at its `#define`.
    Reported,
}

impl From<String> for EvalError {
    fn from(reason: String) -> Self {
        EvalError::Invalid(reason)
    }
}

impl From<&str> for EvalError {
    fn from(reason: &str) -> Self {
        EvalError::Invalid(reason.to_owned())
    }
}

pub fn eval<'a>(e: &PpExpr, names: &Interner, lookup: &dyn Fn(Name) -> MacroValue<'a>, depth: usize) -> Eval {
    if depth > 64 {
        return Err("macro values nest too deeply".into());
    }
    let recurse = |e: &PpExpr| eval(e, names, lookup, depth + 1);
    Ok(match e {
        PpExpr::Int(v) => Some(*v),
        PpExpr::Invalid => return Err("invalid condition".into()),
        PpExpr::Defined(name) => match lookup(*name) {
            MacroValue::Undefined => Some(0),
            MacroValue::Defined { .. } => Some(1),
            MacroValue::Unknown => None,
        },
        PpExpr::Ident(name) => match lookup(*name) {
            MacroValue::Undefined => Some(0),
            MacroValue::Unknown => None,
            MacroValue::Defined { function_like: true, .. } => {
                return Err(format!("function-like macro '{}' used without arguments", names.resolve(*name)).into())
            }
            MacroValue::Defined { body, .. } => {
                if body.iter().any(|t| matches!(t.kind, TokenKind::Error(_))) {
                    return Err(EvalError::Reported);
                }
                if body.is_empty() {
                    // The engine's evaluator reads a macro defined without a value as 0.
                    return Ok(Some(0));
                }
                let inner = parse(body, names)
                    .map_err(|r| format!("value of '{}' is not an integer expression: {r}", names.resolve(*name)))?;
                return eval(&inner, names, lookup, depth + 1);
            }
        },
        PpExpr::Unary(op, a) => {
            let Some(a) = recurse(a)? else {
                return Ok(None);
            };
            Some(match op {
                PpUnaryOp::Neg => a.wrapping_neg(),
                PpUnaryOp::Plus => a,
                PpUnaryOp::Not => (a == 0) as i64,
                PpUnaryOp::BitNot => !a,
            })
        }
        PpExpr::Select(c, a, b) => match recurse(c)? {
            Some(0) => recurse(b)?,
            Some(_) => recurse(a)?,
            None => None,
        },
        PpExpr::Binary(op, a, b) => {
            let left = recurse(a)?;
            // Short-circuit: a known left side may decide without the right one.
            match (op, left) {
                (PpBinaryOp::And, Some(0)) => return Ok(Some(0)),
                (PpBinaryOp::Or, Some(l)) if l != 0 => return Ok(Some(1)),
                _ => {}
            }
            let right = match recurse(b) {
                // The left side unknown, a short-circuit skips the right one in some variants: an invalid right
                // side is not invalid everywhere, so the whole is unknown (kept for the variant or the driver).
                Err(_) if left.is_none() && matches!(op, PpBinaryOp::And | PpBinaryOp::Or) => return Ok(None),
                right => right?,
            };
            match (op, left, right) {
                (PpBinaryOp::And, None, Some(0)) => return Ok(Some(0)),
                (PpBinaryOp::Or, None, Some(r)) if r != 0 => return Ok(Some(1)),
                _ => {}
            }
            let (Some(l), Some(r)) = (left, right) else {
                return Ok(None);
            };
            Some(match op {
                PpBinaryOp::Mul => l.wrapping_mul(r),
                PpBinaryOp::Div | PpBinaryOp::Rem if r == 0 => return Err("division by zero".into()),
                PpBinaryOp::Div => l.wrapping_div(r),
                PpBinaryOp::Rem => l.wrapping_rem(r),
                PpBinaryOp::Add => l.wrapping_add(r),
                PpBinaryOp::Sub => l.wrapping_sub(r),
                PpBinaryOp::Shl => l.wrapping_shl((r & 63) as u32),
                PpBinaryOp::Shr => l.wrapping_shr((r & 63) as u32),
                PpBinaryOp::Lt => (l < r) as i64,
                PpBinaryOp::Gt => (l > r) as i64,
                PpBinaryOp::Le => (l <= r) as i64,
                PpBinaryOp::Ge => (l >= r) as i64,
                PpBinaryOp::Eq => (l == r) as i64,
                PpBinaryOp::Ne => (l != r) as i64,
                PpBinaryOp::BitAnd => l & r,
                PpBinaryOp::BitXor => l ^ r,
                PpBinaryOp::BitOr => l | r,
                PpBinaryOp::And => (l != 0 && r != 0) as i64,
                PpBinaryOp::Or => (l != 0 || r != 0) as i64,
            })
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use shaderlab_ir::FileId;

    fn value(text: &str) -> Eval {
        let mut names = Interner::new();
        let toks = lex(text, FileId::from_u32(0), &mut names);
        let e = parse(&toks, &names)?;
        eval(&e, &names, &|_| MacroValue::Undefined, 0)
    }

    #[test]
    fn arithmetic_is_correct() {
        assert_eq!(value("1 + 2 * 3"), Ok(Some(7)));
        assert_eq!(value("(1 + 2) * 3"), Ok(Some(9)));
        assert_eq!(value("10 / 3 % 2"), Ok(Some(1)));
        assert_eq!(value("7 - 2 - 1"), Ok(Some(4)));
        assert_eq!(value("1 << 4 >> 2"), Ok(Some(4)));
        assert_eq!(value("!defined(X) && 2 > 1"), Ok(Some(1)));
        assert_eq!(value("UNDEFINED == 0"), Ok(Some(1)));
        assert_eq!(value("1 ? 2 : 3"), Ok(Some(2)));
        assert!(value("1 / 0").is_err());
        assert!(value("FOO +").is_err());
        assert!(value("1.5").is_err());
    }

    #[test]
    fn operators_group_by_level_and_to_the_left() {
        let mut names = Interner::new();
        let toks = lex("a * b + c - d * e || f && g == h", FileId::from_u32(0), &mut names);
        let e = parse(&toks, &names).expect("parses");
        let n = |s: &str| Box::new(PpExpr::Ident(names.lookup(s).expect("interned")));
        let bin = |op, a, b| Box::new(PpExpr::Binary(op, a, b));
        let sum = bin(
            PpBinaryOp::Sub,
            bin(PpBinaryOp::Add, bin(PpBinaryOp::Mul, n("a"), n("b")), n("c")),
            bin(PpBinaryOp::Mul, n("d"), n("e")),
        );
        let and = bin(PpBinaryOp::And, n("f"), bin(PpBinaryOp::Eq, n("g"), n("h")));
        assert_eq!(e, PpExpr::Binary(PpBinaryOp::Or, sum, and));
    }

    #[test]
    fn long_chains_are_bounded() {
        let chain = vec!["1"; 200].join(" + ");
        assert_eq!(value(&chain), Err(EvalError::Invalid("condition nested too deeply".into())));
        // Each level's chain counts on its own: 100 sums of 100 products nest 100 deep.
        let mut names = Interner::new();
        let mixed = vec![vec!["1"; 100].join(" * "); 100].join(" + ");
        assert!(parse(&lex(&mixed, FileId::from_u32(0), &mut names), &names).is_ok());
    }
}
