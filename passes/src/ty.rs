//! Types as the passes see them: the IR's [`TypeInner`] with structs resolved and arrays as types.

use shaderlab_ir::hash::FastHashMap;
use shaderlab_ir::{SamplerType, ScalarKind, StructId, TypeInner};
use std::fmt;
use std::sync::{LazyLock, Mutex, MutexGuard, PoisonError};

/// An array length: known after constant folding, unknown otherwise (size not constant, or unsized).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrayLen {
    Known(u32),
    Unknown,
}

/// A resolved type. Small and `Copy`: an array type is an interned [`ArrayTy`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    /// An array; [`ArrayTy::elem`] and [`ArrayTy::len`] read its element type (itself possibly an array) and length.
    Array(ArrayTy),
}

/// An array type: an element type and a length, interned process-wide so that it is a copyable id.
///
/// Structurally equal array types get the same id, so `==` on [`Ty`] stays structural. Ids are only compared
/// and looked up, never printed or ordered, so the order in which threads intern them does not show in any output.
/// The table keeps every array type ever made (an entry per distinct element type and length: a few per shader).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ArrayTy(u32);

/// The interned array types: entry `i` is array type `i`, and `ids` finds an entry.
#[derive(Default)]
struct ArrayTable {
    entries: Vec<(Ty, ArrayLen)>,
    ids: FastHashMap<(Ty, ArrayLen), ArrayTy>,
}

static ARRAYS: LazyLock<Mutex<ArrayTable>> = LazyLock::new(Default::default);

/// The table, locked (no code panics while holding it, but a poisoned lock would still hold a valid table).
fn arrays() -> MutexGuard<'static, ArrayTable> {
    ARRAYS.lock().unwrap_or_else(PoisonError::into_inner)
}

impl ArrayTy {
    /// The array of `len` elements of type `elem`.
    pub fn new(elem: Ty, len: ArrayLen) -> ArrayTy {
        let mut table = arrays();
        if let Some(id) = table.ids.get(&(elem, len)) {
            return *id;
        }
        // Each array type comes from a declaration or an expression, so a single shader cannot make 2^32 of them.
        let id = ArrayTy(u32::try_from(table.entries.len()).expect("fewer than 2^32 array types"));
        table.entries.push((elem, len));
        table.ids.insert((elem, len), id);
        id
    }

    /// The element type and the length.
    pub fn parts(self) -> (Ty, ArrayLen) {
        // Ids are only made by `new`, after their entry: the index is in range.
        arrays().entries[self.0 as usize]
    }

    /// The element type.
    pub fn elem(self) -> Ty {
        self.parts().0
    }

    /// The length.
    pub fn len(self) -> ArrayLen {
        self.parts().1
    }
}

/// Formats as the element type and the length, as the fields of [`Ty::Array`] would.
impl fmt::Debug for ArrayTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (elem, len) = self.parts();
        write!(f, "{elem:?}, {len:?}")
    }
}

impl Ty {
    pub const FLOAT: Ty = Ty::Scalar(ScalarKind::Float);
    pub const INT: Ty = Ty::Scalar(ScalarKind::Int);
    pub const UINT: Ty = Ty::Scalar(ScalarKind::Uint);
    pub const BOOL: Ty = Ty::Scalar(ScalarKind::Bool);

    /// The array of `len` elements of type `elem`.
    pub fn array(elem: Ty, len: ArrayLen) -> Ty {
        Ty::Array(ArrayTy::new(elem, len))
    }

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
            Ty::Array(a) => match a.parts() {
                (base, ArrayLen::Known(n)) => write!(f, "{base}[{n}]"),
                (base, ArrayLen::Unknown) => write!(f, "{base}[]"),
            },
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_types_compare_structurally_at_any_depth() {
        let nested = |outer| Ty::array(Ty::array(Ty::FLOAT, ArrayLen::Known(3)), outer);
        assert_eq!(nested(ArrayLen::Known(2)), nested(ArrayLen::Known(2)));
        assert_ne!(nested(ArrayLen::Known(2)), nested(ArrayLen::Unknown));
        let Ty::Array(a) = nested(ArrayLen::Unknown) else { unreachable!() };
        assert_eq!(a.parts(), (Ty::array(Ty::FLOAT, ArrayLen::Known(3)), ArrayLen::Unknown));
        assert_eq!(Ty::array(nested(ArrayLen::Known(2)), ArrayLen::Known(4)).to_string(), "float[3][2][4]");
    }
}
