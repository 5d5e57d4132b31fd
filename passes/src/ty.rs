//! Types as the passes see them: the IR's [`TypeInner`] with structs resolved and arrays as types.

use shaderlab_ir::{SamplerType, ScalarKind, StructId, TypeInner};
use std::fmt;

/// An array length: known after constant folding, unknown otherwise (size not constant, or unsized).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrayLen {
    Known(u32),
    Unknown,
}

/// A resolved type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Void,
    Scalar(ScalarKind),
    /// Vector of 2 to 4 components.
    Vector(ScalarKind, u8),
    /// Float matrix, `columns` x `rows`, each 2 to 4.
    Matrix {
        columns: u8,
        rows: u8,
    },
    Sampler(SamplerType),
    Struct(StructId),
    Array(Box<Ty>, ArrayLen),
}

impl Ty {
    pub const FLOAT: Ty = Ty::Scalar(ScalarKind::Float);
    pub const INT: Ty = Ty::Scalar(ScalarKind::Int);
    pub const UINT: Ty = Ty::Scalar(ScalarKind::Uint);
    pub const BOOL: Ty = Ty::Scalar(ScalarKind::Bool);

    /// A vector of `size` components, or the scalar itself when `size` is 1.
    pub fn vector(kind: ScalarKind, size: u8) -> Ty {
        if size == 1 {
            Ty::Scalar(kind)
        } else {
            Ty::Vector(kind, size)
        }
    }

    /// The type of a builtin [`TypeInner`] (`None` for a user type name, which needs resolution).
    pub fn from_inner(inner: TypeInner) -> Option<Ty> {
        Some(match inner {
            TypeInner::Void => Ty::Void,
            TypeInner::Scalar(k) => Ty::Scalar(k),
            TypeInner::Vector { kind, size } => Ty::Vector(kind, size),
            TypeInner::Matrix { columns, rows } => Ty::Matrix { columns, rows },
            TypeInner::Sampler(s) => Ty::Sampler(s),
            TypeInner::User(_) => return None,
        })
    }

    /// The scalar kind of a scalar, vector or matrix.
    pub fn scalar_kind(&self) -> Option<ScalarKind> {
        match self {
            Ty::Scalar(k) | Ty::Vector(k, _) => Some(*k),
            Ty::Matrix { .. } => Some(ScalarKind::Float),
            _ => None,
        }
    }

    /// Number of scalar components of a scalar, vector or matrix.
    pub fn components(&self) -> Option<u32> {
        match self {
            Ty::Scalar(_) => Some(1),
            Ty::Vector(_, n) => Some(*n as u32),
            Ty::Matrix { columns, rows } => Some(*columns as u32 * *rows as u32),
            _ => None,
        }
    }

    pub fn is_numeric_scalar_or_vector(&self) -> bool {
        matches!(self, Ty::Scalar(k) | Ty::Vector(k, _) if *k != ScalarKind::Bool)
    }
}

/// GLSL spelling of builtin types; structs print as `struct#N` (use a module to name them).
impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Void => f.write_str("void"),
            Ty::Scalar(k) => f.write_str(TypeInner::Scalar(*k).builtin_name().unwrap_or("?")),
            Ty::Vector(k, n) => f.write_str(TypeInner::Vector { kind: *k, size: *n }.builtin_name().unwrap_or("?")),
            Ty::Matrix { columns, rows } => {
                f.write_str(TypeInner::Matrix { columns: *columns, rows: *rows }.builtin_name().unwrap_or("?"))
            }
            Ty::Sampler(s) => f.write_str(TypeInner::Sampler(*s).builtin_name().unwrap_or("?")),
            Ty::Struct(id) => write!(f, "struct#{}", cranelift_entity::EntityRef::index(*id)),
            Ty::Array(base, ArrayLen::Known(n)) => write!(f, "{base}[{n}]"),
            Ty::Array(base, ArrayLen::Unknown) => write!(f, "{base}[]"),
        }
    }
}
