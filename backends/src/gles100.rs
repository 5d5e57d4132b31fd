//! GLSL ES 1.00 (WebGL 1): what differs from the shared writer. ES 3.00 texture functions map to the ES 1.00
//! and `EXT_shader_texture_lod` names by sampler and stage, `gl_FragColor`/`gl_FragData` stay builtins, MRT
//! members become `gl_FragData[N]`, `switch` is lowered by the writer; `uint`, bitwise operators, `flat`,
//! `do`-`while`, ES 3.00-only builtins and array features are refused.

use crate::dialect::{function_only_in, Dialect, OutputBinding, WordSet};
use crate::error::Unsupported;
use crate::{Stage, Target};
use shaderlab_ir::{
    BinaryOp, Interpolation, Precision, Qualifiers, SamplerDim, SamplerType, ScalarKind, Storage, TypeInner, UnaryOp,
};
use shaderlab_passes::builtins::{Availability, BuiltinVar, Overload};
use std::borrow::Cow;

pub(crate) struct Gles100;

/// The default-precision block the engine prepends to fragment shaders (both versions).
pub(crate) const PRECISION_BLOCK: &str = "#ifdef GL_FRAGMENT_PRECISION_HIGH\n  precision highp float;\n  precision highp int;\n#else\n  precision mediump float;\n  precision mediump int;\n#endif\n";

/// The extensions the engine enables in ES 1.00 fragment shaders.
const EXTENSIONS: &str = "#extension GL_EXT_shader_texture_lod : enable\n#extension GL_OES_standard_derivatives : enable\n#extension GL_EXT_draw_buffers : enable\n#extension GL_EXT_frag_depth : enable\n";

/// Keywords and reserved words of GLSL ES 1.00 (§3.6), and the words glslang 12 also reserves in ES 1.00
/// shaders (`active`, `case`, `common`, `filter`, `partition`), checked against it.
#[rustfmt::skip]
const RESERVED: &[&str] = &[
    "active", "asm", "attribute", "bool", "break", "bvec2", "bvec3", "bvec4", "case", "cast", "class", "common",
    "const", "continue", "default", "discard", "do", "double", "dvec2", "dvec3", "dvec4", "else", "enum",
    "extern", "external", "false", "filter", "fixed", "flat", "float", "for", "fvec2", "fvec3", "fvec4", "goto",
    "half", "highp", "hvec2", "hvec3", "hvec4", "if", "in", "inline", "inout", "input", "int", "interface",
    "invariant", "ivec2", "ivec3", "ivec4", "long", "lowp", "mat2", "mat3", "mat4", "mediump", "namespace",
    "noinline", "out", "output", "packed", "partition", "precision", "public", "return", "sampler1D",
    "sampler1DShadow", "sampler2D", "sampler2DRect", "sampler2DRectShadow", "sampler2DShadow", "sampler3D",
    "sampler3DRect", "samplerCube", "short", "sizeof", "static", "struct", "superp", "switch", "template",
    "this", "true", "typedef", "uniform", "union", "unsigned", "using", "varying", "vec2", "vec3", "vec4",
    "void", "volatile", "while",
];

const INTRODUCED: &[&str] = &[
    "texture2D",
    "textureCube",
    "texture2DProj",
    "texture2DLod",
    "texture2DProjLod",
    "textureCubeLod",
    "texture2DLodEXT",
    "texture2DProjLodEXT",
    "textureCubeLodEXT",
    "texture2DGradEXT",
    "texture2DProjGradEXT",
    "textureCubeGradEXT",
];

fn es100_sampler(s: SamplerType) -> Option<SamplerDim> {
    match s {
        SamplerType { dim: d @ (SamplerDim::D2 | SamplerDim::Cube), sampled: ScalarKind::Float, shadow: false } => {
            Some(d)
        }
        _ => None,
    }
}

/// The ES 1.00 name of an ES 3.00 texture function, by sampler and stage.
fn texture_name(name: &str, dim: SamplerDim, stage: Stage) -> Option<&'static str> {
    use SamplerDim::{Cube, D2};
    use Stage::{Fragment, Vertex};
    Some(match (name, dim, stage) {
        ("texture", D2, _) => "texture2D",
        ("texture", Cube, _) => "textureCube",
        ("textureProj", D2, _) => "texture2DProj",
        ("textureLod", D2, Vertex) => "texture2DLod",
        ("textureLod", D2, Fragment) => "texture2DLodEXT",
        ("textureLod", Cube, Vertex) => "textureCubeLod",
        ("textureLod", Cube, Fragment) => "textureCubeLodEXT",
        ("textureProjLod", D2, Vertex) => "texture2DProjLod",
        ("textureProjLod", D2, Fragment) => "texture2DProjLodEXT",
        ("textureGrad", D2, Fragment) => "texture2DGradEXT",
        ("textureGrad", Cube, Fragment) => "textureCubeGradEXT",
        ("textureProjGrad", D2, Fragment) => "texture2DProjGradEXT",
        _ => return None,
    })
}

const ES300_TEXTURE: &[&str] =
    &["texture", "textureProj", "textureLod", "textureProjLod", "textureGrad", "textureProjGrad"];

impl Dialect for Gles100 {
    fn target(&self) -> Target {
        Target::Gles100
    }

    fn header(&self, stage: Stage) -> String {
        match stage {
            Stage::Vertex => "#version 100\n".to_owned(),
            Stage::Fragment => format!("#version 100\n{EXTENSIONS}{PRECISION_BLOCK}"),
        }
    }

    fn is_reserved(&self, name: &str) -> bool {
        static RESERVED_SET: WordSet = WordSet::new(RESERVED);
        RESERVED_SET.contains(name)
    }

    fn introduced_builtins(&self) -> &'static [&'static str] {
        INTRODUCED
    }

    fn attribute_qualifier(&self) -> &'static str {
        "attribute"
    }

    fn varying_qualifier(&self, _stage: Stage) -> &'static str {
        "varying"
    }

    fn global_storage(&self, storage: Storage, stage: Stage) -> Result<&'static str, Unsupported> {
        Ok(match (storage, stage) {
            (Storage::Attribute, _) | (Storage::In, Stage::Vertex) => "attribute",
            (Storage::Varying, _) | (Storage::In, Stage::Fragment) | (Storage::Out, Stage::Vertex) => "varying",
            (Storage::Const, _) => "const",
            (Storage::Uniform, _) => "uniform",
            (Storage::Out, Stage::Fragment) | (Storage::InOut, _) => return Err(Unsupported::Qualifier),
        })
    }

    fn interpolation(&self, q: &Qualifiers) -> Result<Vec<&'static str>, (&'static str, Unsupported)> {
        if q.interpolation == Some(Interpolation::Flat) {
            return Err(("flat", Unsupported::Qualifier));
        }
        if q.centroid {
            return Err(("centroid", Unsupported::Qualifier));
        }
        // `smooth` is the only interpolation of ES 1.00: dropped.
        Ok(Vec::new())
    }

    fn has_layout(&self) -> bool {
        false
    }

    fn required_precision(&self, _inner: &TypeInner) -> Option<Precision> {
        // The samplers without a default precision are refused in ES 1.00.
        None
    }

    fn check_type(&self, inner: &TypeInner) -> Result<(), Unsupported> {
        match inner {
            TypeInner::Scalar(ScalarKind::Uint) | TypeInner::Vector { kind: ScalarKind::Uint, .. } => {
                Err(Unsupported::Type)
            }
            TypeInner::Matrix { columns, rows } if columns != rows => Err(Unsupported::Type),
            TypeInner::Sampler(s) if es100_sampler(*s).is_none() => Err(Unsupported::Type),
            _ => Ok(()),
        }
    }

    fn check_attribute_type(&self, inner: &TypeInner) -> Result<(), Unsupported> {
        match inner {
            TypeInner::Scalar(ScalarKind::Float) | TypeInner::Vector { kind: ScalarKind::Float, .. } => Ok(()),
            TypeInner::Matrix { .. } => Ok(()),
            _ => Err(Unsupported::IntegerAttribute),
        }
    }

    fn check_binary(&self, op: BinaryOp) -> Result<(), Unsupported> {
        use BinaryOp::*;
        match op {
            Rem | BitAnd | BitOr | BitXor | ShiftLeft | ShiftRight => Err(Unsupported::Operator),
            _ => Ok(()),
        }
    }

    fn check_unary(&self, op: UnaryOp) -> Result<(), Unsupported> {
        match op {
            UnaryOp::BitNot => Err(Unsupported::Operator),
            _ => Ok(()),
        }
    }

    fn has_uint_literals(&self) -> bool {
        false
    }

    fn float_literal<'a>(&self, spelling: &'a str) -> Cow<'a, str> {
        match spelling.strip_suffix(['f', 'F']) {
            Some(rest) => Cow::Borrowed(rest),
            None => Cow::Borrowed(spelling),
        }
    }

    fn has_array_features(&self) -> bool {
        false
    }

    fn has_switch(&self) -> bool {
        false
    }

    fn has_do_while(&self) -> bool {
        false
    }

    fn color_output(&self) -> OutputBinding<'static> {
        OutputBinding::Builtin(Cow::Borrowed("gl_FragColor"))
    }

    fn frag_data_output(&self, index: i64) -> OutputBinding<'static> {
        OutputBinding::Builtin(Cow::Owned(format!("gl_FragData[{index}]")))
    }

    fn mrt_output<'n>(&self, _member: &'n str, location: i64, vec4: bool) -> Result<OutputBinding<'n>, Unsupported> {
        if vec4 {
            Ok(OutputBinding::Builtin(Cow::Owned(format!("gl_FragData[{location}]"))))
        } else {
            Err(Unsupported::MrtMember)
        }
    }

    fn builtin_function<'n>(
        &self,
        name: &'n str,
        overload: Option<&Overload>,
        sampler: Option<SamplerType>,
        stage: Stage,
    ) -> Result<Cow<'n, str>, Unsupported> {
        if ES300_TEXTURE.contains(&name) {
            let dim = sampler.and_then(es100_sampler).ok_or(Unsupported::TextureLookup)?;
            return texture_name(name, dim, stage).map(Cow::Borrowed).ok_or(Unsupported::TextureLookup);
        }
        if function_only_in(name, overload, Availability::Es300Only) {
            return Err(Unsupported::Builtin);
        }
        Ok(Cow::Borrowed(name))
    }

    fn builtin_variable(&self, var: &'static BuiltinVar, _stage: Stage) -> Result<&'static str, Unsupported> {
        match var.name {
            "gl_FragDepth" => Ok("gl_FragDepthEXT"),
            _ if var.availability == Availability::Es300Only => Err(Unsupported::BuiltinVariable),
            name => Ok(name),
        }
    }
}
