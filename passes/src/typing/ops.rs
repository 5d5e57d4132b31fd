//! The operator table of GLSL ES 3.00 §5.9: result types of unary and binary operators, `None` when the
//! operands are not allowed (no implicit conversions in GLSL ES).

use crate::ty::Ty;
use shaderlab_ir::{BinaryOp, ScalarKind, UnaryOp};

fn is_int(k: ScalarKind) -> bool {
    matches!(k, ScalarKind::Int | ScalarKind::Uint)
}

/// `+ - * / %` and `& | ^` on scalars and vectors (component-wise, scalar broadcast), plus the matrix forms of
/// `+ - * /`.
fn arithmetic(op: BinaryOp, l: &Ty, r: &Ty) -> Option<Ty> {
    use BinaryOp::*;
    let integer_only = matches!(op, Rem | BitAnd | BitOr | BitXor);
    match (l, r) {
        (Ty::Scalar(a), Ty::Scalar(b)) if a == b && *a != ScalarKind::Bool => {
            (!integer_only || is_int(*a)).then_some(*l)
        }
        (Ty::Scalar(a), Ty::Vector(b, _)) | (Ty::Vector(b, _), Ty::Scalar(a)) if a == b && *a != ScalarKind::Bool => {
            let v = if matches!(l, Ty::Vector(..)) { l } else { r };
            (!integer_only || is_int(*a)).then_some(*v)
        }
        (Ty::Vector(a, n), Ty::Vector(b, m)) if a == b && n == m && *a != ScalarKind::Bool => {
            (!integer_only || is_int(*a)).then_some(*l)
        }
        _ if integer_only => None,
        // Matrices: float only.
        (Ty::Scalar(ScalarKind::Float), Ty::Matrix { .. }) => Some(*r),
        (Ty::Matrix { .. }, Ty::Scalar(ScalarKind::Float)) => Some(*l),
        (Ty::Matrix { columns: c1, rows: r1 }, Ty::Matrix { columns: c2, rows: r2 }) => match op {
            Mul => (c1 == r2).then_some(Ty::Matrix { columns: *c2, rows: *r1 }),
            _ => (c1 == c2 && r1 == r2).then_some(*l),
        },
        (Ty::Vector(ScalarKind::Float, n), Ty::Matrix { columns, rows }) if op == Mul => {
            (n == rows).then_some(Ty::Vector(ScalarKind::Float, *columns))
        }
        (Ty::Matrix { columns, rows }, Ty::Vector(ScalarKind::Float, n)) if op == Mul => {
            (n == columns).then_some(Ty::Vector(ScalarKind::Float, *rows))
        }
        _ => None,
    }
}

/// Result type of `l op r`.
pub fn binary(op: BinaryOp, l: &Ty, r: &Ty) -> Option<Ty> {
    use BinaryOp::*;
    match op {
        Add | Sub | Mul | Div | Rem | BitAnd | BitOr | BitXor => arithmetic(op, l, r),
        Less | Greater | LessEqual | GreaterEqual => match (l, r) {
            (Ty::Scalar(a), Ty::Scalar(b)) if a == b && *a != ScalarKind::Bool => Some(Ty::BOOL),
            _ => None,
        },
        Equal | NotEqual => (l == r && comparable(l)).then_some(Ty::BOOL),
        LogicalAnd | LogicalOr | LogicalXor => (*l == Ty::BOOL && *r == Ty::BOOL).then_some(Ty::BOOL),
        ShiftLeft | ShiftRight => match (l, r) {
            (Ty::Scalar(a), Ty::Scalar(b)) if is_int(*a) && is_int(*b) => Some(*l),
            (Ty::Vector(a, _), Ty::Scalar(b)) if is_int(*a) && is_int(*b) => Some(*l),
            (Ty::Vector(a, n), Ty::Vector(b, m)) if is_int(*a) && is_int(*b) && n == m => Some(*l),
            _ => None,
        },
    }
}

/// `==` applies to every type without samplers.
fn comparable(t: &Ty) -> bool {
    match t {
        Ty::Sampler(_) | Ty::Void => false,
        Ty::Array(a) => comparable(&a.elem()),
        _ => true,
    }
}

/// Result type of `op e`.
pub fn unary(op: UnaryOp, t: &Ty) -> Option<Ty> {
    match op {
        UnaryOp::Negate | UnaryOp::Plus => match t {
            Ty::Scalar(k) | Ty::Vector(k, _) if *k != ScalarKind::Bool => Some(*t),
            Ty::Matrix { .. } => Some(*t),
            _ => None,
        },
        UnaryOp::Not => (*t == Ty::BOOL).then_some(*t),
        UnaryOp::BitNot => match t {
            Ty::Scalar(k) | Ty::Vector(k, _) if is_int(*k) => Some(*t),
            _ => None,
        },
    }
}

/// `++`/`--` apply to numeric scalars, vectors and matrices.
pub fn inc_dec(t: &Ty) -> bool {
    matches!(t, Ty::Scalar(k) | Ty::Vector(k, _) if *k != ScalarKind::Bool) || matches!(t, Ty::Matrix { .. })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarKind::*;

    const VEC3: Ty = Ty::Vector(Float, 3);
    const MAT4: Ty = Ty::Matrix { columns: 4, rows: 4 };

    #[test]
    fn operator_table() {
        assert_eq!(binary(BinaryOp::Add, &VEC3, &VEC3), Some(VEC3));
        assert_eq!(binary(BinaryOp::Add, &VEC3, &MAT4), None);
        assert_eq!(binary(BinaryOp::Add, &Ty::INT, &Ty::FLOAT), None);
        assert_eq!(binary(BinaryOp::Mul, &Ty::Vector(Float, 4), &MAT4), Some(Ty::Vector(Float, 4)));
        let m23 = Ty::Matrix { columns: 2, rows: 3 };
        let m32 = Ty::Matrix { columns: 3, rows: 2 };
        assert_eq!(binary(BinaryOp::Mul, &m23, &m32), Some(Ty::Matrix { columns: 3, rows: 3 }));
        assert_eq!(binary(BinaryOp::Mul, &m23, &Ty::Vector(Float, 2)), Some(Ty::Vector(Float, 3)));
        assert_eq!(binary(BinaryOp::Rem, &Ty::FLOAT, &Ty::FLOAT), None);
        assert_eq!(binary(BinaryOp::ShiftLeft, &Ty::Vector(Int, 2), &Ty::UINT), Some(Ty::Vector(Int, 2)));
        assert_eq!(binary(BinaryOp::Less, &VEC3, &VEC3), None);
        assert_eq!(binary(BinaryOp::Equal, &VEC3, &VEC3), Some(Ty::BOOL));
        assert_eq!(unary(UnaryOp::Negate, &Ty::BOOL), None);
        assert_eq!(unary(UnaryOp::BitNot, &Ty::UINT), Some(Ty::UINT));
    }
}
