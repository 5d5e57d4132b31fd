//! A seeded byte-level mutator for ShaderLab inputs: bit and byte flips, slice deletion, duplication and
//! splicing (from another corpus input), and insertion of tokens from a dictionary of ShaderLab and GLSL
//! tokens. Deterministic: the same seed and inputs give the same mutants.

/// A small, fast, seedable generator (SplitMix64). Not for cryptography.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`0` when `n == 0`).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// Tokens worth inserting: structure keywords, render-state words, preprocessor directives, GLSL keywords,
/// types, builtins, punctuation that opens or closes nesting, and a few pathological snippets.
pub const DICTIONARY: &[&str] = &[
    "Shader \"S\" {",
    "SubShader \"Default\" {",
    "Pass \"P\" {",
    "UsePass \"pbr/Default/Forward\"",
    "Tags {",
    "pipelineStage = \"Forward\"",
    "VertexShader = vert;",
    "FragmentShader = frag;",
    "Editor {",
    "BlendState",
    "DepthState",
    "StencilState",
    "RasterState",
    "BlendState = {",
    "Enabled = true;",
    "Enabled[0] = true;",
    "SourceColorBlendFactor = BlendFactor.SourceAlpha;",
    "RenderQueueType = Transparent;",
    "BlendFactor f;",
    "Color(1, 0, 0, 1)",
    "CompareFunction.Less",
    "\n#define X 1\n",
    "\n#define F(a, b) ((a) + (b))\n",
    "\n#ifdef X\n",
    "\n#ifndef X\n",
    "\n#if defined(X) && X > 1\n",
    "\n#elif 1\n",
    "\n#else\n",
    "\n#endif\n",
    "\n#undef X\n",
    "\n#include \"Common.glsl\"\n",
    "\n#version 300 es\n",
    "\n#pragma once\n",
    "\n#",
    "defined",
    "struct",
    "uniform",
    "const",
    "in",
    "out",
    "inout",
    "flat",
    "highp",
    "mediump",
    "precision highp float;",
    "layout(location = 0)",
    "void",
    "bool",
    "int",
    "uint",
    "float",
    "vec2",
    "vec3",
    "vec4",
    "ivec3",
    "uvec2",
    "bvec4",
    "mat2",
    "mat3",
    "mat4",
    "mat2x3",
    "sampler2D",
    "samplerCube",
    "sampler2DShadow",
    "if (",
    "else",
    "for (int i = 0; i < 4; i++)",
    "while (true)",
    "do {",
    "} while (false);",
    "switch (",
    "case 1:",
    "default:",
    "break;",
    "continue;",
    "return",
    "return;",
    "discard;",
    "gl_Position",
    "gl_FragColor",
    "gl_FragData[0]",
    "gl_FragCoord",
    "texture2D(",
    "texture(",
    "mix(",
    "clamp(",
    "dot(",
    "normalize(",
    "dFdx(",
    "vec4(1.0)",
    "float[3](1.0, 2.0, 3.0)",
    ".xyzw",
    ".rgb",
    ".x",
    "[0]",
    "[-1]",
    "[999999999]",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    ".",
    "?",
    ":",
    "=",
    "+=",
    "<<=",
    "++",
    "--",
    "&&",
    "||",
    "^^",
    "!",
    "~",
    "0x",
    "0xFFFFFFFF",
    "4294967296",
    "1e",
    "1e999",
    "09",
    ".5",
    "3.",
    "1u",
    "\"",
    "/*",
    "*/",
    "//",
    "\\\n",
    "\0",
    "\u{FEFF}",
    "\u{1F600}",
    "\r\n",
    "((((((((((((((((",
    "))))))))))))))))",
    "{{{{{{{{{{{{{{{{",
    "}}}}}}}}}}}}}}}}",
];

/// What one mutation did (for logs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    FlipBit,
    SetByte,
    Delete,
    Duplicate,
    Splice,
    InsertToken,
    ReplaceWithToken,
    Truncate,
}

/// Mutate `input` in place with 1 to 4 random operations; `other` is a second input to splice from.
pub fn mutate(rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) -> Vec<Operation> {
    let count = 1 + rng.below(4);
    (0..count).map(|_| mutate_once(rng, input, other)).collect()
}

/// A slice of at most `max` bytes inside `len`.
fn slice(rng: &mut Rng, len: usize, max: usize) -> (usize, usize) {
    let start = rng.below(len + 1);
    let n = rng.below(max.min(len - start) + 1);
    (start, start + n)
}

fn mutate_once(rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) -> Operation {
    let len = input.len();
    match rng.below(10) {
        0 if len > 0 => {
            let i = rng.below(len);
            input[i] ^= 1 << rng.below(8);
            Operation::FlipBit
        }
        1 if len > 0 => {
            let i = rng.below(len);
            // Bytes that matter to a lexer.
            const INTERESTING: &[u8] = b"{}()[];,.#\"/\\*\n\r\t 0123456789eExXuU_=+-<>!&|^~?:\xff\x80\x00";
            input[i] = INTERESTING[rng.below(INTERESTING.len())];
            Operation::SetByte
        }
        2 if len > 0 => {
            let (a, b) = slice(rng, len, 64);
            input.drain(a..b);
            Operation::Delete
        }
        3 if len > 0 => {
            let (a, b) = slice(rng, len, 256);
            let copy = input[a..b].to_vec();
            let at = rng.below(input.len() + 1);
            let times = if rng.chance(10) { 1 + rng.below(64) } else { 1 };
            for _ in 0..times {
                input.splice(at..at, copy.iter().copied());
            }
            Operation::Duplicate
        }
        4 if !other.is_empty() => {
            let (a, b) = slice(rng, other.len(), 512);
            let at = rng.below(len + 1);
            let end = (at + rng.below(64)).min(len);
            input.splice(at..end, other[a..b].iter().copied());
            Operation::Splice
        }
        5 | 6 => {
            let token = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
            let at = rng.below(len + 1);
            input.splice(at..at, token.iter().copied());
            Operation::InsertToken
        }
        7 if len > 0 => {
            let token = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
            let (a, b) = slice(rng, len, 16);
            input.splice(a..b, token.iter().copied());
            Operation::ReplaceWithToken
        }
        8 if len > 0 => {
            input.truncate(rng.below(len));
            Operation::Truncate
        }
        _ => {
            let token = DICTIONARY[rng.below(DICTIONARY.len())].as_bytes();
            let at = rng.below(len + 1);
            input.splice(at..at, token.iter().copied());
            Operation::InsertToken
        }
    }
}
