//! The builtin functions generated code calls, by signature: a curated subset of GLSL ES chapter 8 that is
//! defined in both stages and free of undefined constant-folding corners (no integer division, no shifts).
//! `fuzz/tests/generator.rs` checks every overload here against shaderlab's own builtin catalogue.

use crate::ty::{Sampler, Scalar, Ty};
use std::sync::OnceLock;

/// A type pattern of the table: `Gen` is `float` or `vecN` (the same N in one signature), `GenI` the `int`
/// counterpart, `VecN`/`BVecN` vectors of 2 to 4 components, `Mat` a square matrix.
#[derive(Clone, Copy, Debug, PartialEq)]
enum P {
    Gen,
    GenI,
    VecN,
    BVecN,
    Mat,
    Float,
    Int,
    Bool,
    Vec2,
    Vec3,
    Vec4,
    Sampler2D,
    SamplerCube,
}

/// `(name, return, parameters, GLSL ES 3.00 only)`.
const TABLE: &[(&str, P, &[P], bool)] = &[
    // Angle and trigonometry.
    ("radians", P::Gen, &[P::Gen], false),
    ("degrees", P::Gen, &[P::Gen], false),
    ("sin", P::Gen, &[P::Gen], false),
    ("cos", P::Gen, &[P::Gen], false),
    ("tan", P::Gen, &[P::Gen], false),
    ("atan", P::Gen, &[P::Gen], false),
    ("atan", P::Gen, &[P::Gen, P::Gen], false),
    // Exponential.
    ("pow", P::Gen, &[P::Gen, P::Gen], false),
    ("exp", P::Gen, &[P::Gen], false),
    ("exp2", P::Gen, &[P::Gen], false),
    ("log2", P::Gen, &[P::Gen], false),
    ("sqrt", P::Gen, &[P::Gen], false),
    ("inversesqrt", P::Gen, &[P::Gen], false),
    // Common.
    ("abs", P::Gen, &[P::Gen], false),
    ("sign", P::Gen, &[P::Gen], false),
    ("floor", P::Gen, &[P::Gen], false),
    ("ceil", P::Gen, &[P::Gen], false),
    ("fract", P::Gen, &[P::Gen], false),
    ("mod", P::Gen, &[P::Gen, P::Gen], false),
    ("mod", P::Gen, &[P::Gen, P::Float], false),
    ("min", P::Gen, &[P::Gen, P::Gen], false),
    ("min", P::Gen, &[P::Gen, P::Float], false),
    ("max", P::Gen, &[P::Gen, P::Gen], false),
    ("max", P::Gen, &[P::Gen, P::Float], false),
    ("clamp", P::Gen, &[P::Gen, P::Gen, P::Gen], false),
    ("clamp", P::Gen, &[P::Gen, P::Float, P::Float], false),
    ("mix", P::Gen, &[P::Gen, P::Gen, P::Gen], false),
    ("mix", P::Gen, &[P::Gen, P::Gen, P::Float], false),
    ("step", P::Gen, &[P::Gen, P::Gen], false),
    ("step", P::Gen, &[P::Float, P::Gen], false),
    ("smoothstep", P::Gen, &[P::Gen, P::Gen, P::Gen], false),
    ("smoothstep", P::Gen, &[P::Float, P::Float, P::Gen], false),
    ("round", P::Gen, &[P::Gen], true),
    ("trunc", P::Gen, &[P::Gen], true),
    ("abs", P::GenI, &[P::GenI], true),
    ("sign", P::GenI, &[P::GenI], true),
    ("min", P::GenI, &[P::GenI, P::GenI], true),
    ("max", P::GenI, &[P::GenI, P::GenI], true),
    ("clamp", P::GenI, &[P::GenI, P::Int, P::Int], true),
    // Geometric.
    ("length", P::Float, &[P::Gen], false),
    ("distance", P::Float, &[P::Gen, P::Gen], false),
    ("dot", P::Float, &[P::Gen, P::Gen], false),
    ("cross", P::Vec3, &[P::Vec3, P::Vec3], false),
    ("normalize", P::Gen, &[P::Gen], false),
    ("faceforward", P::Gen, &[P::Gen, P::Gen, P::Gen], false),
    ("reflect", P::Gen, &[P::Gen, P::Gen], false),
    ("refract", P::Gen, &[P::Gen, P::Gen, P::Float], false),
    // Matrix.
    ("matrixCompMult", P::Mat, &[P::Mat, P::Mat], false),
    ("transpose", P::Mat, &[P::Mat], true),
    ("determinant", P::Float, &[P::Mat], true),
    // Vector relational.
    ("lessThan", P::BVecN, &[P::VecN, P::VecN], false),
    ("lessThanEqual", P::BVecN, &[P::VecN, P::VecN], false),
    ("greaterThan", P::BVecN, &[P::VecN, P::VecN], false),
    ("greaterThanEqual", P::BVecN, &[P::VecN, P::VecN], false),
    ("equal", P::BVecN, &[P::VecN, P::VecN], false),
    ("notEqual", P::BVecN, &[P::VecN, P::VecN], false),
    ("any", P::Bool, &[P::BVecN], false),
    ("all", P::Bool, &[P::BVecN], false),
    ("not", P::BVecN, &[P::BVecN], false),
    // Texture lookup (GLSL ES 1.00 names, accepted by the engine for both targets).
    ("texture2D", P::Vec4, &[P::Sampler2D, P::Vec2], false),
    ("textureCube", P::Vec4, &[P::SamplerCube, P::Vec3], false),
];

/// One concrete overload.
#[derive(Clone, Debug, PartialEq)]
pub struct Builtin {
    pub name: &'static str,
    pub ret: Ty,
    pub params: Vec<Ty>,
    /// Only in GLSL ES 3.00.
    pub es300: bool,
    /// Uses integer types.
    pub integer: bool,
}

impl Builtin {
    /// Texture lookups are not constant expressions.
    pub fn is_texture(&self) -> bool {
        self.params.iter().any(Ty::is_sampler)
    }

    /// Usable in a constant expression: not a texture lookup, and not one of the matrix functions glslang
    /// does not fold (GLSL ES makes every other builtin call with constant arguments a constant expression;
    /// glslangValidator 12 rejects `matrixCompMult`, `transpose` and `determinant` in constant initializers).
    pub fn is_constant_foldable(&self) -> bool {
        !self.is_texture() && !matches!(self.name, "matrixCompMult" | "transpose" | "determinant")
    }
}

fn instantiate(p: P, n: u8) -> Ty {
    match p {
        P::Gen => Ty::gen(Scalar::Float, n),
        P::GenI => Ty::gen(Scalar::Int, n),
        P::VecN => Ty::Vector(Scalar::Float, n),
        P::BVecN => Ty::Vector(Scalar::Bool, n),
        P::Mat => Ty::Matrix(n),
        P::Float => Ty::FLOAT,
        P::Int => Ty::INT,
        P::Bool => Ty::BOOL,
        P::Vec2 => Ty::VEC2,
        P::Vec3 => Ty::VEC3,
        P::Vec4 => Ty::VEC4,
        P::Sampler2D => Ty::Sampler(Sampler::D2),
        P::SamplerCube => Ty::Sampler(Sampler::Cube),
    }
}

/// Every overload of the table, expanded.
pub fn all() -> &'static [Builtin] {
    static ALL: OnceLock<Vec<Builtin>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = Vec::new();
        for &(name, ret, params, es300) in TABLE {
            let mut pats = params.to_vec();
            pats.push(ret);
            let sizes: Vec<u8> = if pats.iter().any(|p| matches!(p, P::Gen | P::GenI)) {
                vec![1, 2, 3, 4]
            } else if pats.iter().any(|p| matches!(p, P::VecN | P::BVecN | P::Mat)) {
                vec![2, 3, 4]
            } else {
                vec![1]
            };
            for n in sizes {
                let params: Vec<Ty> = params.iter().map(|p| instantiate(*p, n)).collect();
                let ret = instantiate(ret, n);
                let integer = params.iter().chain(std::iter::once(&ret)).any(|t| t.scalar_kind() == Some(Scalar::Int));
                let b = Builtin { name, ret, params, es300, integer };
                // `min(float, float)` comes from both `min(genType, genType)` and `min(genType, float)`.
                if !out.iter().any(|o: &Builtin| o.name == b.name && o.params == b.params) {
                    out.push(b);
                }
            }
        }
        out
    })
}

/// The overloads returning `ty` that a program with these features may call.
pub fn returning(ty: &Ty, es300: bool, integers: bool, const_only: bool) -> Vec<&'static Builtin> {
    all()
        .iter()
        .filter(|b| {
            &b.ret == ty && (es300 || !b.es300) && (integers || !b.integer) && (!const_only || b.is_constant_foldable())
        })
        .collect()
}
