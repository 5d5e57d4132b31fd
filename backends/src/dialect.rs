//! What the GLSL writer core asks of a target: spelling and availability. Everything target-specific sits behind
//! this trait, implemented by [`crate::gles100`] and [`crate::gles300`].

use crate::error::Unsupported;
use crate::{Stage, Target};
use shaderlab_ir::{BinaryOp, Interpolation, Precision, Qualifiers, SamplerType, Storage, TypeInner, UnaryOp};
use shaderlab_passes::builtins::{self, Availability, BuiltinVar, Overload};
use std::borrow::Cow;

/// Where a fragment output goes. Names are borrowed where they can be (fixed names, MRT member names); only
/// names with an index in them are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OutputBinding<'n> {
    /// A builtin the target already has (`gl_FragColor`, `gl_FragData[1]`): nothing to declare.
    Builtin(Cow<'n, str>),
    /// A variable the stage declares: `layout(location = N) out T name;` (location `None`: no layout).
    Declared { name: Cow<'n, str>, location: Option<i64> },
}

impl OutputBinding<'_> {
    pub(crate) fn name(&self) -> &str {
        match self {
            OutputBinding::Builtin(n) => n,
            OutputBinding::Declared { name, .. } => name,
        }
    }
}

pub(crate) trait Dialect: Sync {
    fn target(&self) -> Target;

    /// `--header`: the lines the engine prepends to a stage, each ending with a newline.
    fn header(&self, stage: Stage) -> String;

    /// Keywords and reserved words a user identifier must not use (`gl_` prefixes and `__` are checked apart).
    fn is_reserved(&self, name: &str) -> bool;

    /// Builtin function names the writer may introduce by renaming; a user variable must not hide them.
    fn introduced_builtins(&self) -> &'static [&'static str];

    /// The storage qualifier of an attribute, and of a varying in `stage`.
    fn attribute_qualifier(&self) -> &'static str;
    fn varying_qualifier(&self, stage: Stage) -> &'static str;

    /// The spelling of a storage qualifier written on a global (`attribute`/`varying`/`in`/`out`).
    fn global_storage(&self, storage: Storage, stage: Stage) -> Result<&'static str, Unsupported>;

    /// Interpolation and auxiliary qualifiers of a varying, in declaration order (`flat`, `centroid`).
    /// Qualifiers with no effect in the target may be dropped (`smooth` is ES 1.00's only interpolation).
    fn interpolation(&self, q: &Qualifiers) -> Result<Vec<&'static str>, (&'static str, Unsupported)>;

    /// Whether `layout(...)` qualifiers exist.
    fn has_layout(&self) -> bool;

    /// The precision to write on a declaration of a type that has no default precision in the target and none in
    /// the source (`sampler2DShadow` in GLSL ES 3.00): without one the declaration does not compile.
    fn required_precision(&self, inner: &TypeInner) -> Option<Precision>;

    /// Whether a type exists in the target.
    fn check_type(&self, inner: &TypeInner) -> Result<(), Unsupported>;

    /// Whether an attribute can have this type (GLSL ES 1.00: float types only).
    fn check_attribute_type(&self, inner: &TypeInner) -> Result<(), Unsupported>;

    fn check_binary(&self, op: BinaryOp) -> Result<(), Unsupported>;
    fn check_unary(&self, op: UnaryOp) -> Result<(), Unsupported>;

    /// Whether `1u` literals exist.
    fn has_uint_literals(&self) -> bool;

    /// A float literal as the target spells it (`2.0f` has no suffix in ES 1.00).
    fn float_literal<'a>(&self, spelling: &'a str) -> Cow<'a, str>;

    /// Array constructors, `.length()`, unsized arrays, arrays as return types and array initializers.
    fn has_array_features(&self) -> bool;

    /// `switch` as a statement (otherwise the writer lowers it to an if-chain).
    fn has_switch(&self) -> bool;

    fn has_do_while(&self) -> bool;

    /// The fragment color output: `gl_FragColor` in ES 1.00, a declared `GS_glFragColor` in ES 3.00.
    fn color_output(&self) -> OutputBinding<'static>;

    /// `gl_FragData[index]` with a constant index.
    fn frag_data_output(&self, index: i64) -> OutputBinding<'static>;

    /// The output of an MRT member at `location`; `vec4` tells whether the member is a `vec4`.
    fn mrt_output<'n>(&self, member: &'n str, location: i64, vec4: bool) -> Result<OutputBinding<'n>, Unsupported>;

    /// The name of a builtin function call in the target. `overload` is the resolved overload when typing knew it,
    /// `sampler` the type of the first argument when it is a sampler.
    fn builtin_function<'n>(
        &self,
        name: &'n str,
        overload: Option<&Overload>,
        sampler: Option<SamplerType>,
        stage: Stage,
    ) -> Result<Cow<'n, str>, Unsupported>;

    /// The name of a builtin variable in the target (`gl_FragDepthEXT` <-> `gl_FragDepth`). `gl_FragColor` and
    /// `gl_FragData` go through [`Dialect::color_output`] and [`Dialect::frag_data_output`].
    fn builtin_variable(&self, var: &'static BuiltinVar, stage: Stage) -> Result<&'static str, Unsupported>;
}

/// Interpolation words of GLSL ES 3.00, shared by dialects that have them.
pub(crate) fn interpolation_words(q: &Qualifiers) -> Vec<&'static str> {
    let mut out = Vec::new();
    match q.interpolation {
        Some(Interpolation::Flat) => out.push("flat"),
        Some(Interpolation::Smooth) => out.push("smooth"),
        None => {}
    }
    if q.centroid {
        out.push("centroid");
    }
    out
}

/// A fixed set of words (a reserved-word list is consulted for every name written) as an open-addressing hash
/// table built at compile time: nothing is built at run time, so the first compile of a process pays no set-up.
/// `static RESERVED_SET: WordSet = WordSet::new(RESERVED);` (`new` refuses, at compile time, more than
/// [`WORD_SLOTS`] / 2 words, an empty word or a repeated one).
pub(crate) struct WordSet {
    /// The words at their hashed positions (linear probing); `""` is a free slot.
    slots: [&'static str; WORD_SLOTS],
    sketches: Sketches,
}

/// Slots of a [`WordSet`] (a power of two, at least twice the longest list's length).
const WORD_SLOTS: usize = 512;

/// One bit per [`sketch`] value: set when some word of the set has that sketch. A word whose sketch bit is clear
/// is not in the set (most names asked about), without hashing it.
type Sketches = [u64; 64];

/// A cheap summary of a word (first byte, last byte, length) in `0..4096`.
const fn sketch(word: &str) -> usize {
    let b = word.as_bytes();
    let (first, last) = match b {
        [] => (0, 0),
        [first, .., last] => (*first as usize, *last as usize),
        [only] => (*only as usize, *only as usize),
    };
    (first.wrapping_mul(31) ^ last.wrapping_mul(7) ^ b.len().wrapping_mul(131)) & 4095
}

/// The home slot of a word in a [`WordSet`] (FNV-1a).
const fn slot_of(word: &str) -> usize {
    let b = word.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < b.len() {
        h = (h ^ b[i] as u64).wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    (h ^ (h >> 32)) as usize & (WORD_SLOTS - 1)
}

/// Byte equality usable at compile time.
const fn same_word(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl WordSet {
    pub(crate) const fn new(words: &'static [&'static str]) -> WordSet {
        assert!(words.len() * 2 <= WORD_SLOTS, "too many words for a WordSet");
        let mut slots = [""; WORD_SLOTS];
        let mut sketches = [0u64; 64];
        let mut i = 0;
        while i < words.len() {
            let word = words[i];
            assert!(!word.is_empty(), "a WordSet word is empty");
            let s = sketch(word);
            sketches[s / 64] |= 1 << (s % 64);
            let mut at = slot_of(word);
            while !slots[at].is_empty() {
                assert!(!same_word(slots[at], word), "a WordSet word is repeated");
                at = (at + 1) & (WORD_SLOTS - 1);
            }
            slots[at] = word;
            i += 1;
        }
        WordSet { slots, sketches }
    }

    pub(crate) fn contains(&self, word: &str) -> bool {
        let s = sketch(word);
        if self.sketches[s / 64] & (1 << (s % 64)) == 0 {
            return false;
        }
        // At most half the slots are taken: a free slot ends every probe.
        let mut at = slot_of(word);
        loop {
            match self.slots[at] {
                "" => return false,
                w if w == word => return true,
                _ => at = (at + 1) & (WORD_SLOTS - 1),
            }
        }
    }
}

/// Whether a call of builtin function `name` exists only in the language version `only`, so a target of the other
/// version lacks it: the resolved overload when typing knew it, else every overload of the name.
pub(crate) fn function_only_in(name: &str, overload: Option<&Overload>, only: Availability) -> bool {
    match overload {
        Some(o) => o.availability == only,
        None => {
            let all = builtins::overloads(name);
            !all.is_empty() && all.iter().all(|o| o.availability == only)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::WordSet;

    #[test]
    fn word_set_finds_exactly_its_words() {
        const WORDS: &[&str] = &["in", "int", "vec4", "sampler2DShadow", "a", "_"];
        static SET: WordSet = WordSet::new(WORDS);
        for w in WORDS {
            assert!(SET.contains(w), "{w}");
        }
        for w in ["", "i", "inn", "vec3", "sampler2D", "b", "__", "int "] {
            assert!(!SET.contains(w), "{w}");
        }
    }
}
