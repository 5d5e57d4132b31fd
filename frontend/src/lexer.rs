//! The lexer: ShaderLab text to tokens (the full GLSL ES 3.00 token set plus strings).
//!
//! It never fails: unreadable text becomes a [`TokenKind::Error`] token that the consumer reports, so text the
//! compiler skips (an `Editor { }` block) produces no diagnostic. Comments and whitespace are dropped.
//!
//! A backslash right before a line break (a line continuation, GLSL ES 3.00 §3.2) is taken out with the line break
//! before anything else is read, so `tex\` + line break + `ture` is the one identifier `texture` and a `#define`
//! continued over lines is one directive line; only a `//` comment ends at its line's end whatever its last
//! character (`docs/decisions.md`, "Line continuations"). A text without one is read as it is; the first
//! continuation met sends the whole text to [`lex_continued`], which reads a copy with the continuations taken out
//! and maps every span back onto the text, so a token that spans a continuation spans both its lines there.
//!
//! One table lookup on a token's first byte ([`START`]) picks what to scan; identifiers and the blanks after a line
//! break are scanned sixteen bytes per step ([`skip_by_sixteen`]: SSE2 class masks on x86-64), other blank runs
//! byte by byte over a byte-class table ([`CLASS`]), and a punctuator is read from the table when it can only be
//! one byte long, or from one match on the next byte when it may be longer.

use crate::token::{FloatValue, LexError, NumberError, Punct, Token, TokenKind};
use shaderlab_ir::{FileId, Interner, Name, Span};
use std::borrow::Cow;

/// The tokens of `text`. A text over [`TINY_TEXT`] bytes gets its vector from the thread's pool: give it back
/// with `pool::give` when done (tokens kept longer, such as a macro body, come from [`lex_kept`]).
pub fn lex(text: &str, file: FileId, names: &mut Interner) -> Vec<Token> {
    lex_text(text, file, names, None).0
}

/// [`lex`], also telling whether the text has a line continuation (outside a `//` comment): text taken from it by
/// a span (a directive's condition, a macro body) then needs its continuations taken out
/// ([`without_continuations`]).
pub fn lex_telling_continuations(text: &str, file: FileId, names: &mut Interner) -> (Vec<Token>, bool) {
    lex_text(text, file, names, None)
}

/// [`lex`] into a vector of the text's own (not from the pool): for tokens kept to the end of the compile, such
/// as the body of a `-D` macro, which would otherwise keep a pooled buffer from ever going back.
pub fn lex_kept(text: &str, file: FileId, names: &mut Interner) -> Vec<Token> {
    let (mut out, _) = lex_into(own_buffer(text.len()), text, file, names, None);
    out.shrink_to_fit();
    out
}

/// A new token vector for `len` bytes of text: room for as many tokens as bytes when that is small (no token
/// count exceeds it; an empty text allocates nothing), else for dense code.
fn own_buffer(len: usize) -> Vec<Token> {
    Vec::with_capacity(if len <= TINY_TEXT { len } else { len / 3 + 16 })
}

/// [`lex_telling_continuations`], also noting in `directives` (cleared first) the index of every `#` token that
/// starts its line, in order: the preprocessor's directive lines, found while lexing instead of by a second scan
/// of the tokens.
pub fn lex_noting_directives(
    text: &str,
    file: FileId,
    names: &mut Interner,
    directives: &mut Vec<u32>,
) -> (Vec<Token>, bool) {
    directives.clear();
    lex_text(text, file, names, Some(directives))
}

fn lex_text(text: &str, file: FileId, names: &mut Interner, directives: Option<&mut Vec<u32>>) -> (Vec<Token>, bool) {
    // Reserving up front avoids regrowing (and copying) the vector. A text takes a buffer from the thread's pool
    // (the frontend gives the file's and every chunk's tokens back when it is done with them, so a compile
    // allocates none after the first), sized for dense code (a token per three bytes: generated or minified
    // shaders come close); tiny ones get their own (see `own_buffer`), cheaper than a trip to the pool.
    let out = if text.len() <= TINY_TEXT { own_buffer(text.len()) } else { crate::pool::take(text.len() / 3 + 16) };
    lex_into(out, text, file, names, directives)
}

/// Lex `text` into `out` (empty, with room reserved); also whether the text has a line continuation.
fn lex_into(
    out: Vec<Token>,
    text: &str,
    file: FileId,
    names: &mut Interner,
    directives: Option<&mut Vec<u32>>,
) -> (Vec<Token>, bool) {
    let first_new_name = names.len();
    let mut lexer =
        Lexer { bytes: text.as_bytes(), text, file, line_start: true, out, directives, joins: &[], continued: false };
    lexer.run::<false>(names);
    if lexer.continued {
        return (lex_continued(lexer, first_new_name, names), true);
    }
    (lexer.out, false)
}

/// Where a line continuation was taken out of a text: the offset in the joined copy where it stood, and how many
/// bytes all continuations up to this one took out.
#[derive(Clone, Copy)]
struct Join {
    at: u32,
    removed: u32,
}

/// The rest of [`lex_into`] for a text with a line continuation, which `first` (the lexer of the text as it is)
/// met: everything it produced is dropped, the names it interned too (the first half of a joined word must not
/// stay an interned name), and the text is read again with its continuations taken out. Spans come back onto
/// the text: a token starts after any continuation right before it and ends before any right after it, and one
/// spanning a continuation spans it.
#[cold]
#[inline(never)]
fn lex_continued(first: Lexer<'_, '_>, first_new_name: usize, names: &mut Interner) -> Vec<Token> {
    let Lexer { text, file, mut out, mut directives, .. } = first;
    out.clear();
    if let Some(d) = directives.as_deref_mut() {
        d.clear();
    }
    names.truncate(first_new_name);
    let (joined, joins) = join_lines(text);
    let mut lexer = Lexer {
        bytes: joined.as_bytes(),
        text: &joined,
        file,
        line_start: true,
        out,
        directives,
        joins: &joins,
        continued: false,
    };
    lexer.run::<true>(names);
    let mut out = lexer.out;
    // Spans are in order, so one pass moves a cursor for the starts and one for the ends.
    let removed_before = |cursor: &mut usize, offset: u32, at_or_before: bool| -> u32 {
        while let Some(j) = joins.get(*cursor) {
            if j.at < offset || (at_or_before && j.at == offset) {
                *cursor += 1;
            } else {
                break;
            }
        }
        cursor.checked_sub(1).map_or(0, |i| joins[i].removed)
    };
    let (mut starts, mut ends) = (0, 0);
    for t in &mut out {
        t.span.start += removed_before(&mut starts, t.span.start, true);
        // (No token is empty, but an empty one at a continuation would otherwise end before it starts.)
        t.span.end = (t.span.end + removed_before(&mut ends, t.span.end, false)).max(t.span.start);
    }
    out
}

/// `text` with every line continuation (a backslash right before `\n` or `\r\n`) taken out, read from left to
/// right once (a backslash that a continuation leaves before a line break does not continue it), and where each
/// was (see [`Join`]).
fn join_lines(text: &str) -> (String, Vec<Join>) {
    let bytes = text.as_bytes();
    let mut joined = String::with_capacity(text.len());
    let mut joins = Vec::new();
    let (mut copied, mut removed) = (0, 0);
    let mut pos = 0;
    while let Some(found) = bytes[pos..].iter().position(|&b| b == b'\\') {
        let at = pos + found;
        pos = at + 1;
        let len = match continuation_len(bytes, at) {
            0 => continue,
            len => len,
        };
        // `at` and `at + len` hold ASCII bytes, so both are character boundaries.
        joined.push_str(&text[copied..at]);
        removed += len;
        joins.push(Join { at: joined.len() as u32, removed: removed as u32 });
        copied = at + len;
        pos = copied;
    }
    joined.push_str(&text[copied..]);
    (joined, joins)
}

/// `text` without its line continuations, as the lexer reads it (see [`join_lines`]); borrowed when it has none.
/// For text taken from the source by a span, such as a directive's condition or a macro body.
pub(crate) fn without_continuations(text: &str) -> Cow<'_, str> {
    if text.contains('\\') {
        Cow::Owned(join_lines(text).0)
    } else {
        Cow::Borrowed(text)
    }
}

/// The length of the line continuation at `pos` in `bytes` (2, 3 for `\r\n`), 0 when there is none.
#[inline]
fn continuation_len(bytes: &[u8], pos: usize) -> usize {
    match (bytes.get(pos), bytes.get(pos + 1), bytes.get(pos + 2)) {
        (Some(b'\\'), Some(b'\n'), _) => 2,
        (Some(b'\\'), Some(b'\r'), Some(b'\n')) => 3,
        _ => 0,
    }
}

/// Whether the line break at `pos` ends a line continuation.
#[inline]
fn ends_continuation(bytes: &[u8], pos: usize) -> bool {
    let before = |n: usize| pos.checked_sub(n).and_then(|i| bytes.get(i)).copied();
    before(1) == Some(b'\\') || (before(1) == Some(b'\r') && before(2) == Some(b'\\'))
}

/// Texts up to this many bytes get a token vector of their length (see [`lex`]).
const TINY_TEXT: usize = 32;

struct Lexer<'a, 'd> {
    bytes: &'a [u8],
    text: &'a str,
    file: FileId,
    /// The next token is the first of its line.
    line_start: bool,
    out: Vec<Token>,
    /// Where to note the indices of line-starting `#` tokens (see [`lex_noting_directives`]).
    directives: Option<&'d mut Vec<u32>>,
    /// Empty for a text read as it is; for one whose continuations were taken out ([`lex_continued`]), where they
    /// were.
    joins: &'a [Join],
    /// Reading the text as it is met a line continuation: the text is read again, joined.
    continued: bool,
}

/// Byte classes, looked up once per byte on the lexer's hottest loops (identifiers and blanks) instead of a chain
/// of range tests.
const IDENT_START: u8 = 1;
const IDENT_CONTINUE: u8 = 2;
const BLANK: u8 = 4;

const fn class_of(c: u8) -> u8 {
    if c.is_ascii_alphabetic() || c == b'_' {
        IDENT_START | IDENT_CONTINUE
    } else if c.is_ascii_digit() {
        IDENT_CONTINUE
    } else if matches!(c, b' ' | b'\t' | b'\r' | 0x0b | 0x0c) {
        BLANK
    } else {
        0
    }
}

static CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = class_of(b as u8);
        b += 1;
    }
    table
};

/// What a token (or skipped text) starting with a given byte is: the lexer's dispatch.
#[derive(Clone, Copy)]
enum Start {
    /// No token starts here: an error run (also NUL and every non-ASCII byte).
    Other,
    Blank,
    Newline,
    Ident,
    Digit,
    /// `.`: a number when a digit follows, else a punctuator.
    Dot,
    /// `/`: a comment or a punctuator.
    Slash,
    Quote,
    /// `\`: a line continuation when a line break follows, else an error run.
    Backslash,
    /// `#`: a punctuator, and a directive line's start when it is the first token of its line.
    Hash,
    /// A punctuator that never starts a longer one (`(`, `;`, ...).
    Single(Punct),
    /// `,`: a [`Start::Single`] that is almost always followed by a space (see [`Lexer::after_space`]).
    Comma,
    /// A punctuator that may start a longer one (`+` of `+=` and `++`, ...).
    Operator(Punct),
}

static START: [Start; 256] = {
    let mut table = [Start::Other; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = match c {
            b'\n' => Start::Newline,
            b'.' => Start::Dot,
            b'/' => Start::Slash,
            b'"' => Start::Quote,
            b'\\' => Start::Backslash,
            b'#' => Start::Hash,
            b',' => Start::Comma,
            _ if class_of(c) & BLANK != 0 => Start::Blank,
            _ if class_of(c) & IDENT_START != 0 => Start::Ident,
            _ if c.is_ascii_digit() => Start::Digit,
            _ => match one_byte_punct(c) {
                Some(p) if matches!(c, b'=' | b'!' | b'<' | b'>' | b'&' | b'|' | b'^' | b'+' | b'-' | b'*' | b'%') => {
                    Start::Operator(p)
                }
                Some(p) => Start::Single(p),
                None => Start::Other,
            },
        };
        b += 1;
    }
    table
};

/// The punctuator spelled by the single byte `c`. Every longer punctuator starts with one of these.
const fn one_byte_punct(c: u8) -> Option<Punct> {
    use Punct::*;
    Some(match c {
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
    })
}

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

/// The value of a decimal written with `fraction_digits` digits after its dot and `mantissa` as all its digits read
/// as one integer, when there are at most 15 digits (`mantissa` below 10^15). Such a value is an integer below 2^53
/// divided by a power of ten up to 10^15, both exact in an `f64`, so the one correctly rounded division gives
/// exactly what `str::parse` gives. `None` past 15 fraction digits.
fn decimal_value(mantissa: u64, fraction_digits: usize) -> Option<f64> {
    const POW10: [f64; 16] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
    Some(mantissa as f64 / POW10.get(fraction_digits)?)
}

#[inline]
fn is_ident_continue(b: u8) -> bool {
    CLASS[b as usize] & IDENT_CONTINUE != 0
}

/// The end of the run of bytes of class `class` starting at `pos`.
/// (A search over the rest of the slice: the loop steps a pointer, with no bound check per byte.)
#[inline(always)]
fn skip_class(bytes: &[u8], pos: usize, class: u8) -> usize {
    let rest = bytes.get(pos..).unwrap_or_default();
    pos + rest.iter().position(|&c| CLASS[c as usize] & class == 0).unwrap_or(rest.len())
}

use simd::{blank_bits, ident_bits};

/// The class masks of sixteen bytes, with SSE2 (every x86-64 processor has it): a few compares of all sixteen bytes
/// at once and one mask move, where the table loop tests byte by byte. `ident_bits` sets bit `i` when byte `i`
/// continues an identifier (`[A-Za-z0-9_]`), `blank_bits` when it is a blank (space, tab, vertical tab, form feed,
/// carriage return): what [`CLASS`] says of each byte. SSE2 compares signed bytes only, so a byte is tested for a
/// range of `n` values from `first` (`n` below 128) as `byte - first + 128`, which is below `-128 + n` as a signed
/// byte exactly when the byte is in the range.
#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_sub_epi8,
    };

    #[inline(always)]
    pub(super) fn ident_bits(chunk: &[u8; 16]) -> u32 {
        // SAFETY: SSE2 is part of the x86-64 baseline, so these instructions exist on every processor this code is
        // built for; the one memory access is an unaligned load of `chunk`'s sixteen readable bytes.
        unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            let letter = _mm_cmplt_epi8(
                _mm_sub_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8((b'a' ^ 0x80) as i8)),
                _mm_set1_epi8(i8::MIN + 26),
            );
            let digit =
                _mm_cmplt_epi8(_mm_sub_epi8(v, _mm_set1_epi8((b'0' ^ 0x80) as i8)), _mm_set1_epi8(i8::MIN + 10));
            let underscore = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'_' as i8));
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, digit), underscore)) as u32
        }
    }

    #[inline(always)]
    pub(super) fn blank_bits(chunk: &[u8; 16]) -> u32 {
        // SAFETY: as in `ident_bits`.
        unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            // Tab, line feed, vertical tab, form feed and carriage return; the line feed is not a blank.
            let control =
                _mm_cmplt_epi8(_mm_sub_epi8(v, _mm_set1_epi8((0x09u8 ^ 0x80) as i8)), _mm_set1_epi8(i8::MIN + 5));
            let newline = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n' as i8));
            let space = _mm_cmpeq_epi8(v, _mm_set1_epi8(b' ' as i8));
            (_mm_movemask_epi8(_mm_or_si128(space, control)) & !_mm_movemask_epi8(newline)) as u32
        }
    }
}

/// The same masks byte by byte, from [`CLASS`], on other targets.
#[cfg(not(target_arch = "x86_64"))]
mod simd {
    pub(super) fn ident_bits(chunk: &[u8; 16]) -> u32 {
        super::class_bits(chunk, super::IDENT_CONTINUE)
    }

    pub(super) fn blank_bits(chunk: &[u8; 16]) -> u32 {
        super::class_bits(chunk, super::BLANK)
    }
}

/// Bit `i` set when byte `i` of `chunk` is of class `class`, byte by byte from [`CLASS`]: the masks of targets
/// without SSE2, and what the tests hold the SSE2 masks to.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn class_bits(chunk: &[u8; 16], class: u8) -> u32 {
    chunk.iter().enumerate().fold(0, |bits, (i, &c)| bits | u32::from(CLASS[c as usize] & class != 0) << i)
}

/// The end of the run of bytes that `bits` marks, from `pos`, sixteen bytes per step (an identifier or an
/// indentation is usually one step). The last few bytes of the text are read as a chunk padded with zero bytes,
/// which neither mask marks.
#[inline(always)]
fn skip_by_sixteen(bytes: &[u8], pos: usize, bits: fn(&[u8; 16]) -> u32) -> usize {
    let mut at = pos;
    while let Some(chunk) = bytes.get(at..).and_then(|rest| rest.first_chunk::<16>()) {
        let stop = !bits(chunk) & 0xffff;
        if stop != 0 {
            return at + stop.trailing_zeros() as usize;
        }
        at += 16;
    }
    let rest = bytes.get(at..).unwrap_or_default();
    let mut padded = [0u8; 16];
    padded[..rest.len()].copy_from_slice(rest);
    at + (!bits(&padded) & 0xffff).trailing_zeros() as usize
}

/// The end of the run of digits of `radix` (10 or 16) starting at `pos`.
fn skip_digits(bytes: &[u8], mut pos: usize, radix: u32) -> usize {
    while pos < bytes.len() && (bytes[pos] as char).is_digit(radix) {
        pos += 1;
    }
    pos
}

impl<'a> Lexer<'a, '_> {
    /// The byte at `pos`, 0 past the end.
    #[inline(always)]
    fn at(&self, pos: usize) -> u8 {
        self.bytes.get(pos).copied().unwrap_or(0)
    }

    /// `pos`, or the position after it when a space is there: called after the tokens that are usually followed
    /// by one (an identifier 40% of the time, a comma or an operator 90% and more in shader code), it costs a
    /// few instructions and saves the blank run's dispatch (about five times as many) when the space is there.
    /// A blank has no meaning of its own, so skipping one here or in the main loop gives the same tokens.
    #[inline(always)]
    fn after_space(&self, pos: usize) -> usize {
        pos + usize::from(self.at(pos) == b' ')
    }

    /// The punctuator at `pos`, whose first byte `b0` is the operator `single` on its own, and its length. Only
    /// `=` or the same byte again can extend an operator, so the usual case (a blank or an operand next) costs two
    /// compares of the next byte, and the third byte is read only after `<<` and `>>`.
    #[inline(always)]
    fn operator(&self, single: Punct, b0: u8, pos: usize) -> (Punct, usize) {
        use Punct::*;
        let b1 = self.at(pos + 1);
        let two = if b1 == b'=' {
            match b0 {
                b'=' => Eq,
                b'!' => Ne,
                b'<' => Le,
                b'>' => Ge,
                b'+' => PlusAssign,
                b'-' => MinusAssign,
                b'*' => StarAssign,
                b'%' => PercentAssign,
                b'&' => AmpAssign,
                b'|' => PipeAssign,
                b'^' => CaretAssign,
                _ => return (single, 1),
            }
        } else if b1 == b0 {
            match b0 {
                b'<' if self.at(pos + 2) == b'=' => return (ShlAssign, 3),
                b'>' if self.at(pos + 2) == b'=' => return (ShrAssign, 3),
                b'<' => Shl,
                b'>' => Shr,
                b'&' => AndAnd,
                b'|' => OrOr,
                b'^' => XorXor,
                b'+' => PlusPlus,
                b'-' => MinusMinus,
                _ => return (single, 1),
            }
        } else {
            return (single, 1);
        };
        (two, 2)
    }

    #[inline(always)]
    fn push(&mut self, kind: TokenKind, sym: Name, start: usize, end: usize) {
        self.out.push(Token {
            kind,
            sym,
            span: Span { file: self.file, start: start as u32, end: end as u32 },
            line_start: self.line_start,
        });
        self.line_start = false;
    }

    /// Reads the text into `out`. `JOINED`: the text is a copy with its continuations taken out ([`Lexer::joins`]);
    /// otherwise the first continuation met stops the reading ([`Lexer::continued`]). A parameter, not a test of
    /// `joins`, so that the reading of a text as it is (every compile's) has no test of its own for them.
    fn run<const JOINED: bool>(&mut self, names: &mut Interner) {
        let bytes = self.bytes;
        let text: &'a str = self.text;
        let empty = Interner::EMPTY;
        let mut pos = 0;
        while let Some(&b) = bytes.get(pos) {
            let start = pos;
            match START[b as usize] {
                Start::Ident => {
                    pos = skip_by_sixteen(bytes, pos + 1, ident_bits);
                    let sym = names.intern_range(text, start, pos);
                    self.push(TokenKind::Ident, sym, start, pos);
                    // Half of all identifiers in shader code are followed right away by a one-byte punctuator
                    // (`f(`, `x)`, `y;`, `a[`): it is pushed here, without another trip through the dispatch.
                    match START[usize::from(self.at(pos))] {
                        Start::Single(p) => {
                            self.push(TokenKind::Punct(p), empty, pos, pos + 1);
                            pos += 1;
                        }
                        _ => pos = self.after_space(pos),
                    }
                }
                Start::Blank => pos = skip_class(bytes, pos + 1, BLANK),
                Start::Newline => {
                    // The next line's indentation is skipped here, without another dispatch.
                    pos = skip_by_sixteen(bytes, pos + 1, blank_bits);
                    self.line_start = true;
                }
                Start::Hash => {
                    if self.line_start {
                        if let Some(directives) = self.directives.as_deref_mut() {
                            directives.push(self.out.len() as u32);
                        }
                    }
                    pos += 1;
                    self.push(TokenKind::Punct(Punct::Hash), empty, start, pos);
                }
                Start::Single(p) => {
                    pos += 1;
                    self.push(TokenKind::Punct(p), empty, start, pos);
                }
                Start::Comma => {
                    pos += 1;
                    self.push(TokenKind::Punct(Punct::Comma), empty, start, pos);
                    pos = self.after_space(pos);
                }
                Start::Operator(p) => {
                    let (p, len) = self.operator(p, b, pos);
                    pos += len;
                    self.push(TokenKind::Punct(p), empty, start, pos);
                    pos = self.after_space(pos);
                }
                Start::Digit => pos = self.number(start, names),
                Start::Dot if self.at(pos + 1).is_ascii_digit() => pos = self.number(start, names),
                Start::Dot => {
                    pos += 1;
                    self.push(TokenKind::Punct(Punct::Dot), empty, start, pos);
                }
                Start::Slash => match self.at(pos + 1) {
                    b'/' => {
                        pos += memchr_newline(&bytes[pos..]).unwrap_or(bytes.len() - pos);
                        if JOINED {
                            pos = self.line_comment_end(start, pos);
                        }
                    }
                    b'*' => pos = self.block_comment::<JOINED>(start),
                    b'=' => {
                        pos += 2;
                        self.push(TokenKind::Punct(Punct::SlashAssign), empty, start, pos);
                    }
                    _ => {
                        pos += 1;
                        self.push(TokenKind::Punct(Punct::Slash), empty, start, pos);
                    }
                },
                Start::Quote => {
                    pos += 1;
                    while pos < bytes.len() && !matches!(bytes[pos], b'"' | b'\n') {
                        pos += 1;
                    }
                    if self.at(pos) == b'"' {
                        let sym = names.intern_range(text, start + 1, pos);
                        pos += 1;
                        self.push(TokenKind::Str, sym, start, pos);
                    } else if !JOINED && self.at(pos) == b'\n' && ends_continuation(bytes, pos) {
                        // The string goes on past a continuation: read the text again, joined.
                        self.continued = true;
                        return;
                    } else {
                        self.push(TokenKind::Error(LexError::UnterminatedString), empty, start, pos);
                    }
                }
                // A continuation in a joined text is a stray backslash before a line break that a continuation
                // left (`\\` + line break + line break): an error like any other backslash.
                Start::Backslash if !JOINED && continuation_len(bytes, pos) != 0 => {
                    self.continued = true;
                    return;
                }
                Start::Backslash | Start::Other => pos = self.error_run(start),
            }
        }
    }

    /// Skips the `/* ... */` comment at `start`; returns the position after it.
    fn block_comment<const JOINED: bool>(&mut self, start: usize) -> usize {
        let bytes = self.bytes;
        let mut pos = start + 2;
        while pos < bytes.len() {
            if bytes[pos] == b'*' && self.at(pos + 1) == b'/' {
                return pos + 2;
            }
            if bytes[pos] == b'\n' {
                if !JOINED && ends_continuation(bytes, pos) {
                    // A continuation does not separate lines, and may split the closing `*/`: read the text
                    // again, joined.
                    self.continued = true;
                    return bytes.len();
                }
                // A multi-line comment still separates lines for directives.
                self.line_start = true;
            }
            pos += 1;
        }
        // Unterminated: an error token for the opening `/*` (which does not start a line of its own).
        let line_start = self.line_start;
        self.push(TokenKind::Error(LexError::UnterminatedComment), Interner::EMPTY, start, start + 2);
        self.line_start = line_start;
        pos
    }

    /// In a joined text, the end of the `//` comment at `start` that the next line break would end at `end`: a
    /// line comment ends at its line's end even when a backslash is its last character (see the module's
    /// documentation), so it ends at the first continuation taken out after its `//` if that comes first, and the
    /// next token starts a line.
    #[cold]
    fn line_comment_end(&mut self, start: usize, end: usize) -> usize {
        // The comment's text starts after `//` (the `//` itself may be split by a continuation).
        let body = start as u32 + 2;
        let next = self.joins.partition_point(|j| j.at < body);
        match self.joins.get(next) {
            Some(j) if (j.at as usize) < end => {
                self.line_start = true;
                j.at as usize
            }
            _ => end,
        }
    }

    /// A run of characters that start no token, from `start`, as one error token; returns its end.
    #[cold]
    fn error_run(&mut self, start: usize) -> usize {
        let text = self.text;
        let ch = text[start..].chars().next().unwrap_or('\u{fffd}');
        let mut pos = start + ch.len_utf8().max(1);
        while let Some(next) = text[pos..].chars().next() {
            let b = next as u32;
            let starts_token = b < 128
                && (is_ident_continue(b as u8)
                    || one_byte_punct(b as u8).is_some()
                    || matches!(b as u8, b' ' | b'\t' | b'\r' | b'\n' | b'"' | b'\\'));
            if starts_token {
                break;
            }
            pos += next.len_utf8();
        }
        self.push(TokenKind::Error(LexError::UnexpectedChar(ch)), Interner::EMPTY, start, pos);
        pos
    }

    /// Reads the number at `start` (a digit, or `.` and a digit) and pushes its token; returns its end.
    fn number(&mut self, start: usize, names: &mut Interner) -> usize {
        match self.plain_decimal(start, names) {
            Some(end) => end,
            None => self.number_general(start, names),
        }
    }

    /// The usual number, read in one scan of its bytes: decimal digits, or digits, a dot and digits, at most
    /// fifteen digits in all, no exponent, no hex or octal prefix, an integer below 2^32, nothing glued after it
    /// but a float's `f` or an integer's `u`. Pushes its token (the token [`Lexer::number_general`] pushes, a
    /// test checks it) and returns its end; `None` (nothing pushed) for every other spelling. The general reader
    /// scans the digits, slices the text and parses the slice again: the 25 numbers of `1.5__template` cost ~220
    /// instructions each that way, ~155 this way (interning the spelling and pushing the token included).
    #[inline(always)]
    fn plain_decimal(&mut self, start: usize, names: &mut Interner) -> Option<usize> {
        let bytes = self.bytes;
        // Digits from `pos` on, accumulated into `value` (at most 15 of them count: below 10^15, no overflow).
        let digits = |mut pos: usize, value: &mut u64| {
            while let Some(digit) = bytes.get(pos).map(|b| b.wrapping_sub(b'0')).filter(|d| *d <= 9) {
                *value = value.wrapping_mul(10).wrapping_add(u64::from(digit));
                pos += 1;
            }
            pos
        };
        let mut value = 0u64;
        let mut pos = digits(start, &mut value);
        let whole_digits = pos - start;
        let fraction_digits = if self.at(pos) == b'.' {
            let fraction_start = pos + 1;
            pos = digits(fraction_start, &mut value);
            Some(pos - fraction_start)
        } else {
            None
        };
        if whole_digits + fraction_digits.unwrap_or(0) > 15 || matches!(self.at(pos), b'e' | b'E' | b'x' | b'X') {
            return None;
        }
        let kind = match fraction_digits {
            Some(fraction_digits) => {
                let value = decimal_value(value, fraction_digits)?;
                pos += usize::from(matches!(self.at(pos), b'f' | b'F'));
                TokenKind::Float(FloatValue::new(value))
            }
            // A leading zero makes an octal literal (the general reader's).
            None if whole_digits > 1 && bytes[start] == b'0' => return None,
            None => {
                let value = u32::try_from(value).ok()?;
                if matches!(self.at(pos), b'u' | b'U') {
                    pos += 1;
                    TokenKind::Uint(value)
                } else {
                    TokenKind::Int(value)
                }
            }
        };
        if is_ident_continue(self.at(pos)) {
            return None;
        }
        let sym = names.intern_range(self.text, start, pos);
        self.push(kind, sym, start, pos);
        Some(pos)
    }

    /// [`Lexer::number`] of any spelling (hex, octal, exponents, long or invalid numbers).
    #[inline(never)]
    fn number_general(&mut self, start: usize, names: &mut Interner) -> usize {
        let bytes = self.bytes;
        let text: &'a str = self.text;
        let mut error: Option<NumberError> = None;
        let mut pos;
        let kind;
        if self.at(start) == b'0' && matches!(self.at(start + 1), b'x' | b'X') {
            let digits_start = start + 2;
            pos = skip_digits(bytes, digits_start, 16);
            if pos == digits_start {
                error = Some(NumberError::HexWithoutDigits);
            }
            let value = u64::from_str_radix(&text[digits_start..pos], 16).ok();
            (kind, pos) = self.int_suffix(value, pos, &mut error);
        } else {
            pos = skip_digits(bytes, start, 10);
            let mut is_float = false;
            if self.at(pos) == b'.' {
                is_float = true;
                pos = skip_digits(bytes, pos + 1, 10);
            }
            if matches!(self.at(pos), b'e' | b'E') {
                is_float = true;
                pos += 1;
                if matches!(self.at(pos), b'+' | b'-') {
                    pos += 1;
                }
                let digits_start = pos;
                pos = skip_digits(bytes, pos, 10);
                if pos == digits_start {
                    error = Some(NumberError::ExponentWithoutDigits);
                }
            }
            if is_float {
                let spelled = &text[start..pos];
                // A float of at most 15 digits without exponent is `plain_decimal`'s, or an invalid number here.
                let value = spelled.parse::<f64>().unwrap_or(0.0);
                if matches!(self.at(pos), b'f' | b'F') {
                    pos += 1;
                }
                kind = TokenKind::Float(FloatValue::new(value));
            } else {
                let digits = &text[start..pos];
                let value = if digits.len() > 1 && digits.starts_with('0') {
                    if digits.bytes().any(|d| d > b'7') {
                        error = Some(NumberError::OctalDigit);
                        None
                    } else {
                        u64::from_str_radix(&digits[1..], 8).ok()
                    }
                } else {
                    digits.parse::<u64>().ok()
                };
                (kind, pos) = self.int_suffix(value, pos, &mut error);
            }
        }
        // Letters glued to a number (`1.0ff`, `12abc`) make the whole run invalid.
        if pos < bytes.len() && is_ident_continue(bytes[pos]) {
            pos = skip_class(bytes, pos, IDENT_CONTINUE);
            error.get_or_insert(NumberError::Suffix);
        }
        let sym = names.intern_range(text, start, pos);
        let kind = match error {
            Some(reason) => TokenKind::Error(LexError::InvalidNumber(reason)),
            None => kind,
        };
        self.push(kind, sym, start, pos);
        pos
    }

    /// The integer token of `value` with its optional `u` suffix at `pos`, and the position after it.
    fn int_suffix(&self, value: Option<u64>, pos: usize, error: &mut Option<NumberError>) -> (TokenKind, usize) {
        let unsigned = matches!(self.at(pos), b'u' | b'U');
        let value = match value.map(u32::try_from) {
            Some(Ok(v)) => v,
            _ => {
                error.get_or_insert(NumberError::TooLarge);
                0
            }
        };
        if unsigned {
            (TokenKind::Uint(value), pos + 1)
        } else {
            (TokenKind::Int(value), pos)
        }
    }
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
        assert_eq!(kinds("1e3"), vec![TokenKind::Float(FloatValue::new(1000.0))]);
        assert_eq!(kinds(".5f"), vec![TokenKind::Float(FloatValue::new(0.5))]);
        assert_eq!(kinds("2."), vec![TokenKind::Float(FloatValue::new(2.0))]);
        assert!(matches!(kinds("1e")[0], TokenKind::Error(LexError::InvalidNumber(_))));
        assert!(matches!(kinds("09")[0], TokenKind::Error(LexError::InvalidNumber(_))));
        assert!(matches!(kinds("1.0ff")[0], TokenKind::Error(LexError::InvalidNumber(_))));
        assert!(matches!(kinds("4294967296")[0], TokenKind::Error(LexError::InvalidNumber(_))));
        assert_eq!(kinds("09.5"), vec![TokenKind::Float(FloatValue::new(9.5))]);
    }

    /// The sixteen-byte masks against the byte-class table: every byte value at every position of a chunk, among
    /// bytes of each kind (identifier, blank, line feed, punctuator, non-ASCII), and the scans they drive against
    /// the byte-by-byte scan on runs that end at every offset, in chunks and in the text's last few bytes.
    #[test]
    fn sixteen_byte_masks_and_scans_agree_with_the_class_table() {
        for filler in [b'a', b' ', b'\n', b'+', 0xc3] {
            for b in 0..=255u8 {
                for i in 0..16 {
                    let mut chunk = [filler; 16];
                    chunk[i] = b;
                    assert_eq!(ident_bits(&chunk), class_bits(&chunk, IDENT_CONTINUE), "{chunk:?}");
                    assert_eq!(blank_bits(&chunk), class_bits(&chunk, BLANK), "{chunk:?}");
                }
            }
        }
        for (run_byte, stop_byte, class, bits) in [
            (b'x', b'(', IDENT_CONTINUE, ident_bits as fn(&[u8; 16]) -> u32),
            (b'\t', b'\n', BLANK, blank_bits as fn(&[u8; 16]) -> u32),
        ] {
            for len in 0..40 {
                for tail in 0..20 {
                    let mut text = vec![run_byte; len];
                    text.extend(std::iter::repeat_n(stop_byte, tail));
                    for pos in 0..=len.min(3) {
                        assert_eq!(skip_by_sixteen(&text, pos, bits), skip_class(&text, pos, class));
                    }
                }
            }
        }
    }

    /// The next state of a xorshift64 sequence: the number tests' pseudo-random spellings.
    fn xorshift(mut x: u64) -> u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }

    /// The value of a float spelled `digits.digits` (no exponent) with at most 15 digits through [`decimal_value`],
    /// or `None` for any other spelling.
    fn short_decimal(spelled: &str) -> Option<f64> {
        let bytes = spelled.as_bytes();
        if bytes.len() > 16 {
            return None;
        }
        let mut mantissa: u64 = 0;
        let mut fraction_digits = None;
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'0'..=b'9' => mantissa = mantissa * 10 + u64::from(b - b'0'),
                b'.' if fraction_digits.is_none() => fraction_digits = Some(bytes.len() - i - 1),
                _ => return None,
            }
        }
        // Sixteen bytes with the dot are at most fifteen digits: below 10^15 < 2^53.
        decimal_value(mantissa, fraction_digits?)
    }

    #[test]
    fn short_decimals_read_as_the_general_parser_reads_them() {
        let mut spellings: Vec<String> = [
            "0.0",
            "1.0",
            "0.5",
            ".5",
            "2.",
            "0.1",
            "0.2",
            "0.3",
            "3.14159",
            "2.2",
            "1.055",
            "0.04045",
            "12.92",
            "0.0031308",
            "999999999999999.",
            ".000000000000001",
            "123456789.012345",
            "0.30000000000000004",
            "1234567890123456.",
            "00.10",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every 15-digit-or-shorter decimal of a pseudo-random sample, the dot at every place.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            x = xorshift(x);
            let digits = (x % 999_999_999_999_999).to_string();
            let dot = (x >> 40) as usize % (digits.len() + 1);
            spellings.push(format!("{}.{}", &digits[..dot], &digits[dot..]));
        }
        for s in &spellings {
            let general = s.parse::<f64>().expect("a float");
            match short_decimal(s) {
                Some(v) => assert_eq!(v.to_bits(), general.to_bits(), "{s}"),
                None => assert!(s.len() > 16, "{s} should take the short path"),
            }
        }
        assert_eq!(short_decimal("1e3"), None);
        assert_eq!(short_decimal("1"), None);
        assert_eq!(short_decimal("1..2"), None);
    }

    /// The number at the start of `text` as `read` reads it: its end (`None` when it refused the spelling), and
    /// each token pushed (its kind as debug text: a float's bits, not its value) with its spelling.
    fn read_number(
        text: &str,
        read: fn(&mut Lexer<'_, '_>, &mut Interner) -> Option<usize>,
    ) -> (Option<usize>, Vec<(String, Span, String)>) {
        let mut names = Interner::new();
        let mut lexer = Lexer {
            bytes: text.as_bytes(),
            text,
            file: FileId::from_u32(0),
            line_start: true,
            out: Vec::new(),
            directives: None,
            joins: &[],
            continued: false,
        };
        let end = read(&mut lexer, &mut names);
        let tokens =
            lexer.out.iter().map(|t| (format!("{:?}", t.kind), t.span, names.resolve(t.sym).to_owned())).collect();
        (end, tokens)
    }

    #[test]
    fn plain_decimals_read_as_the_general_reader_reads_them() {
        let heads = [
            "0",
            "00",
            "7",
            "09",
            "0x1",
            "12",
            "4294967295",
            "4294967296",
            "123456789012345",
            "1234567890123456",
            ".5",
            ".",
            "1.",
            "00.1",
            "3.25",
            "999999999999999.",
            ".000000000000001",
            "0.0000000000000001",
        ];
        let tails = [
            "", " ", ";", "f", "F", "u", "U", "ff", "fu", "uu", "e", "e5", "E-2", "x", "X1", "a", "_", "9", ".", ".5",
            ")", "f;",
        ];
        let mut spellings: Vec<String> = heads
            .iter()
            .flat_map(|h| tails.iter().map(move |t| format!("{h}{t}")))
            .filter(|s| s.as_bytes()[0] != b'.' || s.as_bytes().get(1).is_some_and(u8::is_ascii_digit))
            .collect();
        // Pseudo-random digit runs of every length up to 20, with and without a dot, and a suffix.
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..3000 {
            x = xorshift(x);
            let len = 1 + (x % 20) as usize;
            let digits: String = (0..len).map(|i| char::from(b'0' + ((x >> (i * 3)) % 10) as u8)).collect();
            let dot = (x >> 50) as usize % (len + 2);
            let spelled = if dot <= len { format!("{}.{}", &digits[..dot], &digits[dot..]) } else { digits };
            let tail = tails[(x >> 30) as usize % tails.len()];
            if spelled.as_bytes()[0] == b'.' && !spelled.as_bytes().get(1).is_some_and(u8::is_ascii_digit) {
                continue;
            }
            spellings.push(format!("{spelled}{tail}"));
        }
        let mut plain = 0;
        for s in &spellings {
            let general = read_number(s, |lexer, names| Some(lexer.number_general(0, names)));
            assert_eq!(read_number(s, |lexer, names| Some(lexer.number(0, names))), general, "{s}");
            let fast = read_number(s, |lexer, names| lexer.plain_decimal(0, names));
            if fast.0.is_some() {
                assert_eq!(fast, general, "{s}");
                plain += 1;
            } else {
                assert!(fast.1.is_empty(), "{s}: refused, but pushed a token");
            }
        }
        // Most of them take the fast path: the comparison covers what it reads, not only its refusals.
        assert!(plain > spellings.len() / 3, "{plain} of {}", spellings.len());
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
    fn every_punctuator_reads_as_itself() {
        use Punct::*;
        // Every string of one to three punctuator characters (comments aside): a string that reads as a single
        // punctuator must be that punctuator's own spelling, and every punctuator must turn up (46 is the number of
        // `Punct` variants).
        let alphabet = "()[]{},;.?:#+-*/%=!~<>&|^";
        let mut candidates: Vec<String> = alphabet.chars().map(String::from).collect();
        for len in 2..=3 {
            let shorter: Vec<String> = candidates.iter().filter(|c| c.len() == len - 1).cloned().collect();
            for c in shorter {
                candidates.extend(alphabet.chars().map(|ch| format!("{c}{ch}")));
            }
        }
        let mut all: Vec<Punct> = Vec::new();
        for text in candidates.iter().filter(|t| !t.contains("//") && !t.contains("/*")) {
            if let [TokenKind::Punct(p)] = kinds(text)[..] {
                assert_eq!(p.text(), text, "{text} read as one punctuator");
                all.push(p);
            }
        }
        assert_eq!(all.len(), 46, "{all:?}");
        for p in all {
            assert_eq!(kinds(p.text()), vec![TokenKind::Punct(p)], "{}", p.text());
            // Followed by an operand, a blank, or itself (`!!` and `**` are two tokens, `<<` one).
            assert_eq!(kinds(&format!("{}a", p.text()))[0], TokenKind::Punct(p), "{}a", p.text());
            assert_eq!(kinds(&format!("{} ", p.text())), vec![TokenKind::Punct(p)], "{} ", p.text());
        }
        let p = |p| TokenKind::Punct(p);
        assert_eq!(kinds("!!"), vec![p(Bang), p(Bang)]);
        assert_eq!(kinds("**="), vec![p(Star), p(StarAssign)]);
        assert_eq!(kinds("<<<"), vec![p(Shl), p(Lt)]);
        assert_eq!(kinds("===="), vec![p(Eq), p(Eq)]);
        assert_eq!(kinds("a=-b"), vec![TokenKind::Ident, p(Assign), p(Minus), TokenKind::Ident]);
        assert_eq!(kinds("<"), vec![p(Lt)]);
        assert_eq!(kinds("<<"), vec![p(Shl)]);
    }

    #[test]
    fn a_punctuator_right_after_an_identifier_reads_as_after_a_blank() {
        // The identifier arm pushes a following one-byte punctuator itself: the same tokens, spans and line starts
        // as with a blank between them, for every pair of bytes that can follow an identifier (the second byte
        // decides whether the first starts a longer punctuator: `+=`, `<<`, `//`), at the end of the text too, and
        // before a character outside ASCII. (A backslash and a line break are a continuation, which joins the
        // identifier to what follows: `continuations_join_tokens`.)
        let shape = |text: &str| -> Vec<(TokenKind, String, bool)> {
            let mut names = Interner::new();
            lex(text, FileId::from_u32(0), &mut names)
                .iter()
                .map(|t| (t.kind, text[t.span.start as usize..t.span.end as usize].to_string(), t.line_start))
                .collect()
        };
        let same = |glued: String, spaced: String| assert_eq!(shape(&glued), shape(&spaced), "{glued:?}");
        for c in (1u8..128).map(char::from).filter(|c| !(c.is_ascii_alphanumeric() || *c == '_')) {
            same(format!("x{c}"), format!("x {c}"));
            same(format!("x{c}\u{e9}("), format!("x {c}\u{e9}("));
            for d in (1u8..128).map(char::from).filter(|&d| !(c == '\\' && d == '\n')) {
                same(format!("x{c}{d}y\nz{c}{d}"), format!("x {c}{d}y\nz {c}{d}"));
            }
        }
        same("x\u{e9}(".into(), "x \u{e9}(".into());
    }

    #[test]
    fn line_starts_and_continuations() {
        let mut names = Interner::new();
        let toks = lex("#define A \\\n 1\nB", FileId::from_u32(0), &mut names);
        let starts: Vec<bool> = toks.iter().map(|t| t.line_start).collect();
        assert_eq!(starts, vec![true, false, false, false, true]);
    }

    /// Each token of `text`: its kind, its interned spelling (empty for punctuators), the source text its span
    /// covers, and whether it starts a line.
    fn read(text: &str) -> Vec<(TokenKind, String, String, bool)> {
        let mut names = Interner::new();
        lex(text, FileId::from_u32(0), &mut names)
            .iter()
            .map(|t| {
                let covered = text[t.span.start as usize..t.span.end as usize].to_string();
                (t.kind, names.resolve(t.sym).to_string(), covered, t.line_start)
            })
            .collect()
    }

    #[test]
    fn continuations_join_tokens() {
        use Punct::*;
        let ident = |s: &str, covered: &str, start| (TokenKind::Ident, s.to_string(), covered.to_string(), start);
        let punct = |p, covered: &str| (TokenKind::Punct(p), String::new(), covered.to_string(), false);
        // An identifier, its span over both lines (LF and CRLF), and the tokens around it untouched.
        assert_eq!(
            read("float tex\\\ntureName = 1.0;")[..3],
            [ident("float", "float", true), ident("textureName", "tex\\\ntureName", false), punct(Assign, "=")]
        );
        assert_eq!(read("tex\\\r\ntureName"), [ident("textureName", "tex\\\r\ntureName", true)]);
        // Numbers, spelled joined.
        let float = |v: f64| TokenKind::Float(FloatValue::new(v));
        assert_eq!(read("1.\\\n5")[0].0, float(1.5));
        assert_eq!(read("1.\\\n5")[0].1, "1.5");
        assert_eq!(read("0x1\\\nF")[0].0, TokenKind::Int(31));
        assert_eq!(read("2e\\\n3")[0].0, float(2000.0));
        assert_eq!(read("\\\n.5")[0].0, float(0.5));
        // Operators of two and three bytes, across one continuation or two.
        assert_eq!(read("a +\\\n= b")[1], punct(PlusAssign, "+\\\n="));
        assert_eq!(read("a <\\\n<\\\r\n= b")[1], punct(ShlAssign, "<\\\n<\\\r\n="));
        assert_eq!(read("a &\\\n& b")[1], punct(AndAnd, "&\\\n&"));
        // A comment's `//` or `/*` split by a continuation still opens it; a `*/` split by one closes it.
        assert_eq!(read("a /\\\n/ b\nc"), [ident("a", "a", true), ident("c", "c", true)]);
        assert_eq!(read("a /\\\n* b */ c"), [ident("a", "a", true), ident("c", "c", false)]);
        assert_eq!(read("a /* b *\\\n/ c"), [ident("a", "a", true), ident("c", "c", false)]);
        // A continuation inside a block comment does not separate lines.
        assert_eq!(read("a /* \\\n */ b"), [ident("a", "a", true), ident("b", "b", false)]);
        // A string (ShaderLab names) is joined too.
        assert_eq!(read("\"ab\\\ncd\"")[0].1, "abcd");
        // (A string cut short by the end of the text right after a backslash is merely unterminated.)
        let mut names = Interner::new();
        let (toks, continued) = lex_telling_continuations("\"ab\\", FileId::from_u32(0), &mut names);
        assert!(!continued);
        assert!(matches!(toks[0].kind, TokenKind::Error(LexError::UnterminatedString)));
        // A token starts after a continuation right before it and ends before one right after it.
        assert_eq!(read("a \\\nb"), [ident("a", "a", true), ident("b", "b", false)]);
        assert_eq!(read("a\\\n b"), [ident("a", "a", true), ident("b", "b", false)]);
        let spans: Vec<(u32, u32)> = {
            let mut names = Interner::new();
            lex("a\\\n b \\\nc", FileId::from_u32(0), &mut names).iter().map(|t| (t.span.start, t.span.end)).collect()
        };
        assert_eq!(spans, [(0, 1), (4, 5), (8, 9)]);
        // A backslash that a continuation leaves before a line break is a stray character, not a continuation.
        let stray = read("\\\\\n\nx");
        assert!(matches!(stray[0].0, TokenKind::Error(LexError::UnexpectedChar('\\'))), "{stray:?}");
        assert_eq!(stray[0].2, "\\");
        assert_eq!(stray[1], ident("x", "x", true));
    }

    #[test]
    fn a_line_comment_ends_at_its_line_end_after_a_backslash() {
        // Also when the text has a continuation elsewhere and is read joined.
        for text in ["a // c \\\nb", "a // c \\\r\nb", "x\\\ny // c \\\nb", "a //\\\nb", "x\\\ny //\\\nb"] {
            let toks = read(text);
            assert_eq!(toks.last().map(|t| (t.1.as_str(), t.3)), Some(("b", true)), "{text:?}: {toks:?}");
            assert_eq!(toks.len(), 2, "{text:?}: {toks:?}");
        }
        assert_eq!(read("x\\\ny // c \\\nb")[0].1, "xy");
        // A `#define` line ends there too.
        let toks = read("#define A 1 // c \\\n#define B 2\\\n3");
        let starts: Vec<bool> = toks.iter().map(|t| t.3).collect();
        assert_eq!(starts, [true, false, false, false, true, false, false, false]);
        assert_eq!(toks[7].1, "23");
    }

    #[test]
    fn a_text_read_again_joined_keeps_no_trace_of_the_first_reading() {
        // The names the first reading interned up to the continuation (`tex`) are gone, and the directive lines
        // are noted once.
        let mut names = Interner::new();
        let before = names.len();
        let mut directives = Vec::new();
        let (toks, continued) =
            lex_noting_directives("#a\nq tex\\\nture\n#b", FileId::from_u32(0), &mut names, &mut directives);
        assert!(continued);
        assert_eq!(directives, [0, 4]);
        assert_eq!(toks.len(), 6);
        assert_eq!(names.lookup("tex"), None);
        assert!(names.lookup("texture").is_some());
        let spelled: Vec<&str> = names.iter().skip(before).collect();
        assert_eq!(spelled, ["a", "q", "texture", "b"]);
    }

    #[test]
    fn a_text_with_continuations_reads_as_its_joined_copy() {
        // Pseudo-random texts of pieces that continuations may split: read as they are, they give the tokens of
        // the copy with the continuations taken out (no `/` among the pieces: a `//` comment is the one place
        // where the two differ), and each token's span covers, continuations aside, what the copy's token spells.
        // With `/` too, every span stays inside the text, on character boundaries, in order, and is not empty.
        let pieces = [
            "a", "b1", "_x", "1", "0x", "F", ".", "5", "e", "u", "+", "=", "<", ">", "&", "|", "-", " ", "\n", "\t",
            "\"", "#", "(", ")", ";", "\u{e9}", "@", "\\", "\r", "\\\n", "\\\n", "\\\r\n", "\\\n\\\n", "*",
        ];
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for round in 0..3000 {
            let with_slash = round % 3 == 0;
            let mut text = String::new();
            for _ in 0..1 + next(24) {
                text.push_str(if with_slash && next(6) == 0 { "/" } else { pieces[next(pieces.len())] });
            }
            let mut names = Interner::new();
            let toks = lex(&text, FileId::from_u32(0), &mut names);
            let mut last_end = 0;
            for t in &toks {
                let (start, end) = (t.span.start as usize, t.span.end as usize);
                assert!(last_end <= start && start < end && end <= text.len(), "{text:?}: {toks:?}");
                assert!(text.is_char_boundary(start) && text.is_char_boundary(end), "{text:?}: {toks:?}");
                last_end = end;
            }
            let (joined, _) = join_lines(&text);
            // (A backslash that a continuation leaves before a line break is a stray one: read as it is, the copy
            // would take it for a continuation.)
            if with_slash || !join_lines(&joined).1.is_empty() {
                continue;
            }
            let mut joined_names = Interner::new();
            let expected = lex(&joined, FileId::from_u32(0), &mut joined_names);
            assert_eq!(toks.len(), expected.len(), "{text:?}: {toks:?}");
            for (t, e) in toks.iter().zip(&expected) {
                assert_eq!((t.kind, t.line_start), (e.kind, e.line_start), "{text:?}");
                assert_eq!(names.resolve(t.sym), joined_names.resolve(e.sym), "{text:?}");
                let covered = without_continuations(&text[t.span.start as usize..t.span.end as usize]).into_owned();
                assert_eq!(covered, joined[e.span.start as usize..e.span.end as usize], "{text:?}");
            }
        }
    }

    #[test]
    fn runs_end_where_they_end_at_every_length() {
        // Identifiers and indentation of every length around the four-byte steps, inside the text and at its end.
        for len in 1..=11 {
            let word: String = "abcdefghijk"[..len].to_string();
            for text in [
                word.clone(),
                format!("{word};"),
                format!("x\n{}y", " ".repeat(len)),
                format!("x\n{}", " ".repeat(len)),
            ] {
                let mut names = Interner::new();
                let toks = lex(&text, FileId::from_u32(0), &mut names);
                let spelled: Vec<&str> =
                    toks.iter().map(|t| &text[t.span.start as usize..t.span.end as usize]).collect();
                let expected: Vec<&str> =
                    text.split(|c: char| c.is_whitespace() || c == ';').filter(|s| !s.is_empty()).collect();
                assert_eq!(spelled.iter().filter(|s| **s != ";").copied().collect::<Vec<_>>(), expected, "{text:?}");
                for t in &toks {
                    if t.kind == TokenKind::Ident {
                        assert_eq!(names.resolve(t.sym), &text[t.span.start as usize..t.span.end as usize]);
                    }
                }
            }
        }
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
