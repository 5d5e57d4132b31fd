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
    InvalidNumber(NumberError),
    UnexpectedChar(char),
    /// A placeholder for something whose error is already reported (a macro use with the wrong arity).
    Reported,
}

/// Why a numeric literal is invalid (a byte, where the message itself would make every token larger).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberError {
    HexWithoutDigits,
    ExponentWithoutDigits,
    OctalDigit,
    TooLarge,
    Suffix,
}

impl std::fmt::Display for NumberError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NumberError::HexWithoutDigits => "hexadecimal literal without digits",
            NumberError::ExponentWithoutDigits => "exponent without digits",
            NumberError::OctalDigit => "invalid digit in octal literal",
            NumberError::TooLarge => "integer literal does not fit in 32 bits",
            NumberError::Suffix => "invalid suffix on numeric literal",
        })
    }
}

/// A float literal's value, kept as two 32-bit halves so that a token is 4-byte aligned: with an `f64` inside,
/// [`Token`] would be 40 bytes instead of 32, and every stage copies every token at least once.
#[derive(Clone, Copy, Debug)]
pub struct FloatValue([u32; 2]);

impl FloatValue {
    pub fn new(value: f64) -> Self {
        let bits = value.to_bits();
        FloatValue([bits as u32, (bits >> 32) as u32])
    }

    pub fn get(self) -> f64 {
        f64::from_bits(u64::from(self.0[0]) | u64::from(self.0[1]) << 32)
    }
}

/// Compares the values (as `f64`s do), not the bits.
impl PartialEq for FloatValue {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TokenKind {
    Ident,
    /// Integer literal without suffix; the parsed value (the lexer rejects larger ones).
    Int(u32),
    /// Integer literal with `u` suffix.
    Uint(u32),
    Float(FloatValue),
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

// Every stage copies tokens (the lexer's output, the preprocessor's, each level's text): keep them small.
const _: () = assert!(std::mem::size_of::<Token>() == 32);

impl Token {
    pub fn is_punct(&self, p: Punct) -> bool {
        matches!(self.kind, TokenKind::Punct(q) if q == p)
    }
}
