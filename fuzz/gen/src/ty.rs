//! The types the generator reasons about: a small model of GLSL ES types, enough to generate expressions by
//! type. Structs are named by their index in the generator's struct table ([`crate::scope::Scope::structs`]).

use std::fmt;

/// Scalar component kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    Bool,
    Int,
    Uint,
    Float,
}

impl Scalar {
    pub fn keyword(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::Int => "int",
            Scalar::Uint => "uint",
            Scalar::Float => "float",
        }
    }

    fn vector_prefix(self) -> &'static str {
        match self {
            Scalar::Bool => "b",
            Scalar::Int => "i",
            Scalar::Uint => "u",
            Scalar::Float => "",
        }
    }

    /// Numeric (arithmetic applies).
    pub fn is_numeric(self) -> bool {
        self != Scalar::Bool
    }

    pub fn is_integer(self) -> bool {
        matches!(self, Scalar::Int | Scalar::Uint)
    }
}

/// Sampler kinds the generator declares (the two GLSL ES 1.00 has).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sampler {
    D2,
    Cube,
}

/// A GLSL ES type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Scalar(Scalar),
    /// `vecN`, `ivecN`, `uvecN`, `bvecN` with N in 2..=4.
    Vector(Scalar, u8),
    /// Square float matrix `matN`, N in 2..=4.
    Matrix(u8),
    Sampler(Sampler),
    /// A user struct: index into the struct table.
    Struct(usize),
    /// A one-dimensional array of a non-array type.
    Array(Box<Ty>, u32),
}

impl Ty {
    pub const FLOAT: Ty = Ty::Scalar(Scalar::Float);
    pub const INT: Ty = Ty::Scalar(Scalar::Int);
    pub const UINT: Ty = Ty::Scalar(Scalar::Uint);
    pub const BOOL: Ty = Ty::Scalar(Scalar::Bool);
    pub const VEC2: Ty = Ty::Vector(Scalar::Float, 2);
    pub const VEC3: Ty = Ty::Vector(Scalar::Float, 3);
    pub const VEC4: Ty = Ty::Vector(Scalar::Float, 4);

    /// Scalar or vector of `kind` with `n` components (1 = scalar).
    pub fn gen(kind: Scalar, n: u8) -> Ty {
        if n == 1 {
            Ty::Scalar(kind)
        } else {
            Ty::Vector(kind, n)
        }
    }

    /// The component kind of a scalar or vector.
    pub fn scalar_kind(&self) -> Option<Scalar> {
        match self {
            Ty::Scalar(k) | Ty::Vector(k, _) => Some(*k),
            Ty::Matrix(_) => Some(Scalar::Float),
            _ => None,
        }
    }

    /// Components of a scalar (1) or vector (N).
    pub fn width(&self) -> Option<u8> {
        match self {
            Ty::Scalar(_) => Some(1),
            Ty::Vector(_, n) => Some(*n),
            _ => None,
        }
    }

    /// Scalars, vectors and matrices: what constructors and arithmetic work on.
    pub fn is_basic(&self) -> bool {
        matches!(self, Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix(_))
    }

    pub fn is_sampler(&self) -> bool {
        matches!(self, Ty::Sampler(_))
    }

    /// The GLSL spelling, with struct names looked up in `structs`.
    pub fn glsl(&self, struct_name: &dyn Fn(usize) -> String) -> String {
        match self {
            Ty::Scalar(k) => k.keyword().to_owned(),
            Ty::Vector(k, n) => format!("{}vec{n}", k.vector_prefix()),
            Ty::Matrix(n) => format!("mat{n}"),
            Ty::Sampler(Sampler::D2) => "sampler2D".to_owned(),
            Ty::Sampler(Sampler::Cube) => "samplerCube".to_owned(),
            Ty::Struct(i) => struct_name(*i),
            Ty::Array(base, n) => format!("{}[{n}]", base.glsl(struct_name)),
        }
    }
}

impl fmt::Display for Ty {
    /// GLSL spelling, structs as `S#index` (for messages).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.glsl(&|i| format!("S#{i}")))
    }
}
