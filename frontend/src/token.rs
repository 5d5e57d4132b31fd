//! Tokens shared by the lexer, the preprocessor, the structure parser and the GLSL parser.

use shaderlab_ir::{Name, Span};

/// Punctuators of ShaderLab and GLSL ES 3.00.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Semicolon,
    Dot,
    Question,
    Colon,
    Hash,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Assign,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    Shl,
    Shr,
    AndAnd,
    OrOr,
    XorXor,
    Bang,
    Tilde,
    Amp,
    Pipe,
    Caret,
    PlusAssign,
    MinusAssign,
    StarAssign,
    SlashAssign,
    PercentAssign,
    ShlAssign,
    ShrAssign,
    AmpAssign,
    PipeAssign,
    CaretAssign,
    PlusPlus,
    MinusMinus,
}

impl Punct {
    pub fn text(self) -> &'static str {
        use Punct::*;
        match self {
            LParen => "(",
            RParen => ")",
            LBracket => "[",
            RBracket => "]",
            LBrace => "{",
            RBrace => "}",
            Comma => ",",
            Semicolon => ";",
            Dot => ".",
            Question => "?",
            Colon => ":",
            Hash => "#",
            Plus => "+",
            Minus => "-",
            Star => "*",
            Slash => "/",
            Percent => "%",
            Assign => "=",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Shl => "<<",
            Shr => ">>",
            AndAnd => "&&",
            OrOr => "||",
            XorXor => "^^",
            Bang => "!",
            Tilde => "~",
            Amp => "&",
            Pipe => "|",
            Caret => "^",
            PlusAssign => "+=",
            MinusAssign => "-=",
            StarAssign => "*=",
            SlashAssign => "/=",
            PercentAssign => "%=",
            ShlAssign => "<<=",
            ShrAssign => ">>=",
            AmpAssign => "&=",
            PipeAssign => "|=",
            CaretAssign => "^=",
            PlusPlus => "++",
            MinusMinus => "--",
        }
    }
}

/// Why a piece of text is not a token.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LexError {
    UnterminatedComment,
    UnterminatedString,
    InvalidNumber(&'static str),
    UnexpectedChar(char),
    /// A placeholder for something whose error is already reported (a macro use with the wrong arity).
    Reported,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TokenKind {
    Ident,
    /// Integer literal without suffix; `value` is the parsed value (at most u32::MAX).
    Int(u64),
    /// Integer literal with `u` suffix.
    Uint(u64),
    Float(f64),
    /// `"text"`: `sym` holds the text without quotes.
    Str,
    Punct(Punct),
    /// Text the lexer could not read; reported by whoever consumes it.
    Error(LexError),
    /// A preprocessor directive kept in the token stream (preserving mode), index into the directive table.
    Directive(u32),
}

/// One token. `sym` is the interned spelling (identifiers, literals, strings; for punctuators, unused).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub sym: Name,
    pub span: Span,
    /// First token of its line (directives start with such a `#`).
    pub line_start: bool,
}

impl Token {
    pub fn is_punct(&self, p: Punct) -> bool {
        matches!(self.kind, TokenKind::Punct(q) if q == p)
    }
}
