//! Interned types and the type specifiers written in declarations.
//!
//! [`TypeInner`] is the shape of a non-array type; arrays are not types here but dimensions of a
//! [`TypeSpec`], because their sizes are expressions that only constant folding can evaluate.

use crate::expr::ExprId;
use crate::hash::FastBuildHasher;
use crate::names::Name;
use crate::span::Span;
use cranelift_entity::entity_impl;
use indexmap::IndexSet;
use serde::{Deserialize, Serialize};

/// An interned [`TypeInner`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TypeId(u32);
entity_impl!(TypeId, "type");

/// Scalar component kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ScalarKind {
    Bool,
    Int,
    Uint,
    Float,
}

/// Sampler dimensionality.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SamplerDim {
    D2,
    D3,
    Cube,
    D2Array,
}

/// An opaque sampler type: `sampler2D`, `isamplerCube`, `sampler2DArrayShadow`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SamplerType {
    pub dim: SamplerDim,
    /// The kind of the sampled value: `Float` for `sampler*`, `Int` for `isampler*`, `Uint` for `usampler*`.
    pub sampled: ScalarKind,
    pub shadow: bool,
}

/// Precision qualifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Precision {
    Low,
    Medium,
    High,
}

/// The shape of a (non-array) type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum TypeInner {
    /// `void`: only as a function return type.
    Void,
    /// `bool`, `int`, `uint`, `float`.
    Scalar(ScalarKind),
    /// `vecN`, `ivecN`, `uvecN`, `bvecN` with N in 2..=4.
    Vector {
        kind: ScalarKind,
        size: u8,
    },
    /// `matCxR` (float only), `columns` and `rows` in 2..=4.
    Matrix {
        columns: u8,
        rows: u8,
    },
    Sampler(SamplerType),
    /// A user type name (a struct), resolved by the name-resolution pass.
    User(Name),
}

impl TypeInner {
    /// The GLSL spelling of a builtin type (`None` for user types).
    pub fn builtin_name(&self) -> Option<&'static str> {
        use ScalarKind::*;
        Some(match *self {
            TypeInner::Void => "void",
            TypeInner::Scalar(Bool) => "bool",
            TypeInner::Scalar(Int) => "int",
            TypeInner::Scalar(Uint) => "uint",
            TypeInner::Scalar(Float) => "float",
            TypeInner::Vector { kind, size } => {
                const NAMES: [[&str; 3]; 4] = [
                    ["bvec2", "bvec3", "bvec4"],
                    ["ivec2", "ivec3", "ivec4"],
                    ["uvec2", "uvec3", "uvec4"],
                    ["vec2", "vec3", "vec4"],
                ];
                let row = match kind {
                    Bool => 0,
                    Int => 1,
                    Uint => 2,
                    Float => 3,
                };
                NAMES[row][(size.clamp(2, 4) - 2) as usize]
            }
            TypeInner::Matrix { columns, rows } => match (columns, rows) {
                (2, 2) => "mat2",
                (3, 3) => "mat3",
                (4, 4) => "mat4",
                (2, 3) => "mat2x3",
                (2, 4) => "mat2x4",
                (3, 2) => "mat3x2",
                (3, 4) => "mat3x4",
                (4, 2) => "mat4x2",
                _ => "mat4x3",
            },
            TypeInner::Sampler(s) => sampler_name(s),
            TypeInner::User(_) => return None,
        })
    }

    /// Parse a builtin type keyword.
    pub fn from_builtin_name(name: &str) -> Option<TypeInner> {
        use ScalarKind::*;
        let vector = |kind, size| Some(TypeInner::Vector { kind, size });
        let matrix = |columns, rows| Some(TypeInner::Matrix { columns, rows });
        match name {
            "void" => Some(TypeInner::Void),
            "bool" => Some(TypeInner::Scalar(Bool)),
            "int" => Some(TypeInner::Scalar(Int)),
            "uint" => Some(TypeInner::Scalar(Uint)),
            "float" => Some(TypeInner::Scalar(Float)),
            "vec2" => vector(Float, 2),
            "vec3" => vector(Float, 3),
            "vec4" => vector(Float, 4),
            "ivec2" => vector(Int, 2),
            "ivec3" => vector(Int, 3),
            "ivec4" => vector(Int, 4),
            "uvec2" => vector(Uint, 2),
            "uvec3" => vector(Uint, 3),
            "uvec4" => vector(Uint, 4),
            "bvec2" => vector(Bool, 2),
            "bvec3" => vector(Bool, 3),
            "bvec4" => vector(Bool, 4),
            "mat2" | "mat2x2" => matrix(2, 2),
            "mat3" | "mat3x3" => matrix(3, 3),
            "mat4" | "mat4x4" => matrix(4, 4),
            "mat2x3" => matrix(2, 3),
            "mat2x4" => matrix(2, 4),
            "mat3x2" => matrix(3, 2),
            "mat3x4" => matrix(3, 4),
            "mat4x2" => matrix(4, 2),
            "mat4x3" => matrix(4, 3),
            _ => SAMPLERS.iter().find(|(n, _)| *n == name).map(|&(_, s)| TypeInner::Sampler(s)),
        }
    }
}

const fn sampler(dim: SamplerDim, sampled: ScalarKind, shadow: bool) -> SamplerType {
    SamplerType { dim, sampled, shadow }
}

/// Every sampler type of GLSL ES 3.00 with its spelling.
pub const SAMPLERS: &[(&str, SamplerType)] = &[
    ("sampler2D", sampler(SamplerDim::D2, ScalarKind::Float, false)),
    ("sampler3D", sampler(SamplerDim::D3, ScalarKind::Float, false)),
    ("samplerCube", sampler(SamplerDim::Cube, ScalarKind::Float, false)),
    ("sampler2DArray", sampler(SamplerDim::D2Array, ScalarKind::Float, false)),
    ("sampler2DShadow", sampler(SamplerDim::D2, ScalarKind::Float, true)),
    ("samplerCubeShadow", sampler(SamplerDim::Cube, ScalarKind::Float, true)),
    ("sampler2DArrayShadow", sampler(SamplerDim::D2Array, ScalarKind::Float, true)),
    ("isampler2D", sampler(SamplerDim::D2, ScalarKind::Int, false)),
    ("isampler3D", sampler(SamplerDim::D3, ScalarKind::Int, false)),
    ("isamplerCube", sampler(SamplerDim::Cube, ScalarKind::Int, false)),
    ("isampler2DArray", sampler(SamplerDim::D2Array, ScalarKind::Int, false)),
    ("usampler2D", sampler(SamplerDim::D2, ScalarKind::Uint, false)),
    ("usampler3D", sampler(SamplerDim::D3, ScalarKind::Uint, false)),
    ("usamplerCube", sampler(SamplerDim::Cube, ScalarKind::Uint, false)),
    ("usampler2DArray", sampler(SamplerDim::D2Array, ScalarKind::Uint, false)),
];

fn sampler_name(s: SamplerType) -> &'static str {
    SAMPLERS.iter().find(|(_, t)| *t == s).map(|(n, _)| *n).unwrap_or("sampler2D")
}

/// One array dimension of a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ArrayDim {
    /// `[e]`: the size expression, in the arena of the declaration's owner.
    Sized(ExprId),
    /// `[]`: size taken from the initializer.
    Unsized,
}

/// A type as written in a declaration: base type, precision and array dimensions (outermost first).
/// More than one dimension is an array of arrays, which the GLSL ES backends refuse.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TypeSpec {
    pub base: TypeId,
    pub precision: Option<Precision>,
    pub dims: Vec<ArrayDim>,
    pub span: Span,
}

/// The module's type table: each distinct [`TypeInner`] once.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TypeArena {
    types: IndexSet<TypeInner, FastBuildHasher>,
}

impl TypeArena {
    pub fn new() -> Self {
        Self::default()
    }

    /// Room for `additional` more types without regrowing the table.
    pub fn reserve(&mut self, additional: usize) {
        self.types.reserve(additional);
    }

    pub fn intern(&mut self, inner: TypeInner) -> TypeId {
        let (index, _) = self.types.insert_full(inner);
        TypeId(index as u32)
    }

    /// Forget the types interned after the first `len` (a parser dropping a construct it read speculatively or
    /// could not finish, so that only types of kept constructs are numbered, in first-use order).
    pub fn truncate(&mut self, len: usize) {
        self.types.truncate(len);
    }

    pub fn lookup(&self, inner: &TypeInner) -> Option<TypeId> {
        self.types.get_index_of(inner).map(|i| TypeId(i as u32))
    }

    pub fn get(&self, id: TypeId) -> TypeInner {
        // A TypeId only comes from this arena.
        *self.types.get_index(id.0 as usize).expect("invariant: TypeId belongs to this module's TypeArena")
    }

    pub fn iter(&self) -> impl Iterator<Item = (TypeId, &TypeInner)> {
        self.types.iter().enumerate().map(|(i, t)| (TypeId(i as u32), t))
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }
}
