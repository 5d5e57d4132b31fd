//! The lexer: ShaderLab text to tokens (the full GLSL ES 3.00 token set plus strings).
//!
//! It never fails: unreadable text becomes a [`TokenKind::Error`] token that the consumer reports, so text the
//! compiler skips (an `Editor { }` block) produces no diagnostic. Comments and whitespace are dropped;
//! a backslash before a line break joins the lines.

use crate::token::{LexError, Punct, Token, TokenKind};
use shaderlab_ir::{FileId, Interner, Span};

pub fn lex(text: &str, file: FileId, names: &mut Interner) -> Vec<Token> {
    // Reserving up front avoids regrowing (and copying) the vector. Large texts (whole files) take a buffer from
    // the thread's pool, sized for dense code (a token per three bytes: generated or minified shaders come close);
    // small ones (macro values) get their own, at the one-token-per-five-bytes of typical hand-written shaders.
    let out = if text.len() > 4096 {
        crate::pool::take(text.len() / 3 + 16)
    } else {
        Vec::with_capacity(text.len() / 5 + 16)
    };
    let mut lexer = Lexer { bytes: text.as_bytes(), text, pos: 0, file, line_start: true, out };
    lexer.run(names);
    lexer.out
}

struct Lexer<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
    file: FileId,
    line_start: bool,
    out: Vec<Token>,
}

/// Byte classes, looked up once per byte on the lexer's hottest loops (identifiers and blanks) instead of a chain
/// of range tests.
const IDENT_START: u8 = 1;
const IDENT_CONTINUE: u8 = 2;
const BLANK: u8 = 4;

static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphabetic() || c == b'_' {
            table[b] = IDENT_START | IDENT_CONTINUE;
        } else if c.is_ascii_digit() {
            table[b] = IDENT_CONTINUE;
        } else if matches!(c, b' ' | b'\t' | b'\r' | 0x0b | 0x0c) {
            table[b] = BLANK;
        }
        b += 1;
    }
    table
};

/// Position of the first `\n` in `bytes`, eight bytes at a time (line comments are the longest runs the lexer
/// skips).
fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])) ^ (ONES * u64::from(b'\n'));
        // A zero byte in `word` is a newline in the chunk.
        if word.wrapping_sub(ONES) & !word & HIGHS != 0 {
            break;
        }
        offset += 8;
    }
    bytes[offset..].iter().position(|&c| c == b'\n').map(|i| offset + i)
}

#[inline]
fn is_ident_start(b: u8) -> bool {
    CLASS[b as usize] & IDENT_START != 0
}

#[inline]
fn is_ident_continue(b: u8) -> bool {
    CLASS[b as usize] & IDENT_CONTINUE != 0
}

impl<'a> Lexer<'a> {
    fn peek(&self, offset: usize) -> u8 {
        self.bytes.get(self.pos + offset).copied().unwrap_or(0)
    }

    fn push(&mut self, kind: TokenKind, start: usize, names: &mut Interner, sym_text: Option<&str>) {
        let sym = match sym_text {
            Some(text) => names.intern(text),
            None => Interner::EMPTY,
        };
        self.out.push(Token {
            kind,
            sym,
            span: Span::new(self.file, start as u32, self.pos as u32),
            line_start: self.line_start,
        });
        self.line_start = false;
    }

    fn run(&mut self, names: &mut Interner) {
        let empty = Interner::EMPTY;
        while self.pos < self.bytes.len() {
            let b = self.bytes[self.pos];
            let start = self.pos;
            match b {
                b'\n' => {
                    self.pos += 1;
                    self.line_start = true;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    // Runs of blanks (indentation) in one tight loop.
                    self.pos += 1;
                    self.pos += self.bytes[self.pos..]
                        .iter()
                        .position(|&c| CLASS[c as usize] & BLANK == 0)
                        .unwrap_or(self.bytes.len() - self.pos);
                }
                b'\\' if matches!(self.peek(1), b'\n') => self.pos += 2,
                b'\\' if self.peek(1) == b'\r' && self.peek(2) == b'\n' => self.pos += 3,
                b'/' if self.peek(1) == b'/' => {
                    let rest = &self.bytes[self.pos..];
                    self.pos += memchr_newline(rest).unwrap_or(rest.len());
                }
                b'/' if self.peek(1) == b'*' => {
                    self.pos += 2;
                    let mut closed = false;
                    while self.pos < self.bytes.len() {
                        if self.bytes[self.pos] == b'*' && self.peek(1) == b'/' {
                            self.pos += 2;
                            closed = true;
                            break;
                        }
                        if self.bytes[self.pos] == b'\n' {
                            // A multi-line comment still separates lines for directives.
                            self.line_start = true;
                        }
                        self.pos += 1;
                    }
                    if !closed {
                        let line_start = self.line_start;
                        self.out.push(Token {
                            kind: TokenKind::Error(LexError::UnterminatedComment),
                            sym: empty,
                            span: Span::new(self.file, start as u32, (start + 2) as u32),
                            line_start,
                        });
                    }
                }
                b'"' => {
                    self.pos += 1;
                    while self.pos < self.bytes.len() && !matches!(self.bytes[self.pos], b'"' | b'\n') {
                        self.pos += 1;
                    }
                    if self.peek(0) == b'"' {
                        let src: &'a str = self.text;
                        let content = &src[start + 1..self.pos];
                        self.pos += 1;
                        self.push(TokenKind::Str, start, names, Some(content));
                    } else {
                        self.push(TokenKind::Error(LexError::UnterminatedString), start, names, None);
                    }
                }
                b'0'..=b'9' => self.number(start, names),
                b'.' if self.peek(1).is_ascii_digit() => self.number(start, names),
                _ if is_ident_start(b) => {
                    self.pos += 1;
                    self.pos += self.bytes[self.pos..]
                        .iter()
                        .position(|&c| !is_ident_continue(c))
                        .unwrap_or(self.bytes.len() - self.pos);
                    let text = &self.text[start..self.pos];
                    self.push(TokenKind::Ident, start, names, Some(text));
                }
                _ => {
                    if let Some((p, len)) = punct(&self.bytes[self.pos..]) {
                        self.pos += len;
                        self.push(TokenKind::Punct(p), start, names, None);
                    } else {
                        // A run of characters that start no token is one error.
                        let ch = self.text[self.pos..].chars().next().unwrap_or('\u{fffd}');
                        self.pos += ch.len_utf8().max(1);
                        while let Some(next) = self.text[self.pos..].chars().next() {
                            let b = next as u32;
                            let starts_token = b < 128
                                && (is_ident_continue(b as u8)
                                    || punct(&self.bytes[self.pos..]).is_some()
                                    || matches!(b as u8, b' ' | b'\t' | b'\r' | b'\n' | b'"' | b'\\'));
                            if starts_token {
                                break;
                            }
                            self.pos += next.len_utf8();
                        }
                        self.push(TokenKind::Error(LexError::UnexpectedChar(ch)), start, names, None);
                    }
                }
            }
        }
    }

    fn eat_digits(&mut self, radix: u32) -> usize {
        let start = self.pos;
        while self.pos < self.bytes.len() && (self.bytes[self.pos] as char).is_digit(radix) {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self, start: usize, names: &mut Interner) {
        let mut error: Option<&'static str> = None;
        let kind;
        if self.peek(0) == b'0' && matches!(self.peek(1), b'x' | b'X') {
            self.pos += 2;
            let digits_start = self.pos;
            if self.eat_digits(16) == 0 {
                error = Some("hexadecimal literal without digits");
            }
            let digits = &self.text[digits_start..self.pos];
            let value = u64::from_str_radix(digits, 16).ok();
            kind = self.int_suffix(value, &mut error);
        } else {
            self.eat_digits(10);
            let mut is_float = false;
            if self.peek(0) == b'.' {
                is_float = true;
                self.pos += 1;
                self.eat_digits(10);
            }
            if matches!(self.peek(0), b'e' | b'E') {
                is_float = true;
                self.pos += 1;
                if matches!(self.peek(0), b'+' | b'-') {
                    self.pos += 1;
                }
                if self.eat_digits(10) == 0 {
                    error = Some("exponent without digits");
                }
            }
            if is_float {
                let body = &self.text[start..self.pos];
                let value = body.parse::<f64>().unwrap_or(0.0);
                if matches!(self.peek(0), b'f' | b'F') {
                    self.pos += 1;
                }
                kind = TokenKind::Float(value);
            } else {
                let digits = &self.text[start..self.pos];
                let value = if digits.len() > 1 && digits.starts_with('0') {
                    if digits.bytes().any(|d| d > b'7') {
                        error = Some("invalid digit in octal literal");
                        None
                    } else {
                        u64::from_str_radix(&digits[1..], 8).ok()
                    }
                } else {
                    digits.parse::<u64>().ok()
                };
                kind = self.int_suffix(value, &mut error);
            }
        }
        // Letters glued to a number (`1.0ff`, `12abc`) make the whole run invalid.
        if self.pos < self.bytes.len() && is_ident_continue(self.bytes[self.pos]) {
            while self.pos < self.bytes.len() && is_ident_continue(self.bytes[self.pos]) {
                self.pos += 1;
            }
            error.get_or_insert("invalid suffix on numeric literal");
        }
        let src: &'a str = self.text;
        let text = &src[start..self.pos];
        match error {
            Some(reason) => self.push(TokenKind::Error(LexError::InvalidNumber(reason)), start, names, Some(text)),
            None => self.push(kind, start, names, Some(text)),
        }
    }

    fn int_suffix(&mut self, value: Option<u64>, error: &mut Option<&'static str>) -> TokenKind {
        let unsigned = matches!(self.peek(0), b'u' | b'U');
        if unsigned {
            self.pos += 1;
        }
        let value = match value {
            Some(v) if v <= u32::MAX as u64 => v,
            _ => {
                error.get_or_insert("integer literal does not fit in 32 bits");
                0
            }
        };
        if unsigned {
            TokenKind::Uint(value)
        } else {
            TokenKind::Int(value)
        }
    }
}

fn punct(rest: &[u8]) -> Option<(Punct, usize)> {
    use Punct::*;
    let b0 = *rest.first()?;
    let b1 = rest.get(1).copied().unwrap_or(0);
    let b2 = rest.get(2).copied().unwrap_or(0);
    let three = match (b0, b1, b2) {
        (b'<', b'<', b'=') => Some(ShlAssign),
        (b'>', b'>', b'=') => Some(ShrAssign),
        _ => None,
    };
    if let Some(p) = three {
        return Some((p, 3));
    }
    let two = match (b0, b1) {
        (b'=', b'=') => Some(Eq),
        (b'!', b'=') => Some(Ne),
        (b'<', b'=') => Some(Le),
        (b'>', b'=') => Some(Ge),
        (b'<', b'<') => Some(Shl),
        (b'>', b'>') => Some(Shr),
        (b'&', b'&') => Some(AndAnd),
        (b'|', b'|') => Some(OrOr),
        (b'^', b'^') => Some(XorXor),
        (b'+', b'=') => Some(PlusAssign),
        (b'-', b'=') => Some(MinusAssign),
        (b'*', b'=') => Some(StarAssign),
        (b'/', b'=') => Some(SlashAssign),
        (b'%', b'=') => Some(PercentAssign),
        (b'&', b'=') => Some(AmpAssign),
        (b'|', b'=') => Some(PipeAssign),
        (b'^', b'=') => Some(CaretAssign),
        (b'+', b'+') => Some(PlusPlus),
        (b'-', b'-') => Some(MinusMinus),
        _ => None,
    };
    if let Some(p) = two {
        return Some((p, 2));
    }
    let one = match b0 {
        b'(' => LParen,
        b')' => RParen,
        b'[' => LBracket,
        b']' => RBracket,
        b'{' => LBrace,
        b'}' => RBrace,
        b',' => Comma,
        b';' => Semicolon,
        b'.' => Dot,
        b'?' => Question,
        b':' => Colon,
        b'#' => Hash,
        b'+' => Plus,
        b'-' => Minus,
        b'*' => Star,
        b'/' => Slash,
        b'%' => Percent,
        b'=' => Assign,
        b'<' => Lt,
        b'>' => Gt,
        b'!' => Bang,
        b'~' => Tilde,
        b'&' => Amp,
        b'|' => Pipe,
        b'^' => Caret,
        _ => return None,
    };
    Some((one, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        let mut names = Interner::new();
        lex(text, FileId::from_u32(0), &mut names).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn numbers() {
        assert_eq!(kinds("0x1F"), vec![TokenKind::Int(31)]);
        assert_eq!(kinds("017"), vec![TokenKind::Int(15)]);
        assert_eq!(kinds("3u"), vec![TokenKind::Uint(3)]);
        assert_eq!(kinds("1e3"), vec![TokenKind::Float(1000.0)]);
        assert_eq!(kinds(".5f"), vec![TokenKind::Float(0.5)]);
        assert_eq!(kinds("2."), vec![TokenKind::Float(2.0)]);
        assert!(matches!(kinds("1e")[0], TokenKind::Error(LexError::InvalidNumber(_))));
        assert!(matches!(kinds("09")[0], TokenKind::Error(LexError::InvalidNumber(_))));
        assert!(matches!(kinds("1.0ff")[0], TokenKind::Error(LexError::InvalidNumber(_))));
        assert!(matches!(kinds("4294967296")[0], TokenKind::Error(LexError::InvalidNumber(_))));
        assert_eq!(kinds("09.5"), vec![TokenKind::Float(9.5)]);
    }

    #[test]
    fn comments_and_strings() {
        assert_eq!(kinds("a // b\n/* c */ d").len(), 2);
        assert!(matches!(kinds("/* open")[0], TokenKind::Error(LexError::UnterminatedComment)));
        assert!(matches!(kinds("\"open\nx")[0], TokenKind::Error(LexError::UnterminatedString)));
        assert_eq!(
            kinds("<<= >>= ^^ ++"),
            vec![
                TokenKind::Punct(Punct::ShlAssign),
                TokenKind::Punct(Punct::ShrAssign),
                TokenKind::Punct(Punct::XorXor),
                TokenKind::Punct(Punct::PlusPlus)
            ]
        );
    }

    #[test]
    fn line_starts_and_continuations() {
        let mut names = Interner::new();
        let toks = lex("#define A \\\n 1\nB", FileId::from_u32(0), &mut names);
        let starts: Vec<bool> = toks.iter().map(|t| t.line_start).collect();
        assert_eq!(starts, vec![true, false, false, false, true]);
    }

    #[test]
    fn identifier_cache_gives_the_interner_s_names() {
        // Large enough for the cache; spellings that share their first eight bytes and length, short ones, and
        // many distinct names (slot collisions).
        let mut text = String::new();
        for i in 0..3000 {
            text.push_str(&format!("position_{} position_{} vec4 v{} a b_{} ", i % 7, (i + 3) % 7, i % 500, i));
        }
        assert!(text.len() > 4096);
        let mut names = Interner::new();
        let toks = lex(&text, FileId::from_u32(0), &mut names);
        let spellings: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(toks.len(), spellings.len());
        for (t, s) in toks.iter().zip(&spellings) {
            assert_eq!(names.resolve(t.sym), *s);
        }
    }
}
