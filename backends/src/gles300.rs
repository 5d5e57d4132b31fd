//! GLSL ES 3.00 (WebGL 2): what differs from the shared writer. ES 1.00 texture names map to the ES 3.00
//! overloaded ones, `gl_FragColor` becomes the engine's `out vec4 GS_glFragColor`, `gl_FragData[N]` one
//! `layout(location = N) out vec4 GS_glFragData_N` per index, MRT members `layout(location = N) out` variables.

use crate::dialect::{function_only_in, interpolation_words, Dialect, OutputBinding, WordSet};
use crate::error::Unsupported;
use crate::{Stage, Target};
use shaderlab_ir::{BinaryOp, Precision, Qualifiers, SamplerDim, SamplerType, ScalarKind, Storage, TypeInner, UnaryOp};
use shaderlab_passes::builtins::{Availability, BuiltinVar, Overload};
use std::borrow::Cow;

pub(crate) struct Gles300;

/// Keywords and reserved words of GLSL ES 3.00 (§3.7, §3.8) that glslang 12 refuses as identifiers, checked
/// against it.
#[rustfmt::skip]
const RESERVED: &[&str] = &[
    "active", "asm", "atomic_uint", "attribute", "bool", "break", "bvec2", "bvec3", "bvec4", "case", "cast",
    "centroid", "class", "coherent", "common", "const", "continue", "default", "discard", "do", "double",
    "dvec2", "dvec3", "dvec4", "else", "enum", "extern", "external", "false", "filter", "fixed", "flat",
    "float", "for", "fvec2", "fvec3", "fvec4", "goto", "half", "highp", "hvec2", "hvec3", "hvec4", "if",
    "iimage1D", "iimage1DArray", "iimage2D", "iimage2DArray", "iimage3D", "iimageBuffer", "iimageCube",
    "image1D", "image1DArray", "image2D", "image2DArray", "image3D", "imageBuffer", "imageCube", "in", "inline",
    "inout", "input", "int", "interface", "invariant", "isampler1D", "isampler1DArray", "isampler2D",
    "isampler2DArray", "isampler2DMS", "isampler2DMSArray", "isampler2DRect", "isampler3D", "isamplerBuffer",
    "isamplerCube", "ivec2", "ivec3", "ivec4", "layout", "long", "lowp", "mat2", "mat2x2", "mat2x3", "mat2x4",
    "mat3", "mat3x2", "mat3x3", "mat3x4", "mat4", "mat4x2", "mat4x3", "mat4x4", "mediump", "namespace",
    "noinline", "noperspective", "out", "output", "partition", "patch", "precision", "public", "readonly",
    "resource", "restrict", "return", "sample", "sampler1D", "sampler1DArray", "sampler1DArrayShadow",
    "sampler1DShadow", "sampler2D", "sampler2DArray", "sampler2DArrayShadow", "sampler2DMS", "sampler2DMSArray",
    "sampler2DRect", "sampler2DRectShadow", "sampler2DShadow", "sampler3D", "sampler3DRect", "samplerBuffer",
    "samplerCube", "samplerCubeShadow", "shared", "short", "sizeof", "smooth", "static", "struct", "subroutine",
    "superp", "switch", "template", "this", "true", "typedef", "uimage1D", "uimage1DArray", "uimage2D",
    "uimage2DArray", "uimage3D", "uimageBuffer", "uimageCube", "uint", "uniform", "union", "unsigned",
    "usampler1D", "usampler1DArray", "usampler2D", "usampler2DArray", "usampler2DMS", "usampler2DMSArray",
    "usampler2DRect", "usampler3D", "usamplerBuffer", "usamplerCube", "using", "uvec2", "uvec3", "uvec4",
    "varying", "vec2", "vec3", "vec4", "void", "volatile", "while", "writeonly",
];

/// ES 1.00 (and extension) texture functions and their ES 3.00 names.
const TEXTURE_RENAMES: &[(&str, &str)] = &[
    ("texture2D", "texture"),
    ("textureCube", "texture"),
    ("texture2DProj", "textureProj"),
    ("texture2DLod", "textureLod"),
    ("textureCubeLod", "textureLod"),
    ("texture2DLodEXT", "textureLod"),
    ("textureCubeLodEXT", "textureLod"),
    ("texture2DProjLod", "textureProjLod"),
    ("texture2DProjLodEXT", "textureProjLod"),
    ("texture2DGradEXT", "textureGrad"),
    ("textureCubeGradEXT", "textureGrad"),
    ("texture2DProjGradEXT", "textureProjGrad"),
];

const INTRODUCED: &[&str] =
    &["texture", "textureProj", "textureLod", "textureProjLod", "textureGrad", "textureProjGrad"];

impl Dialect for Gles300 {
    fn target(&self) -> Target {
        Target::Gles300
    }

    fn header(&self, stage: Stage) -> String {
        match stage {
            Stage::Vertex => "#version 300 es\n".to_owned(),
            Stage::Fragment => format!("#version 300 es\n{}", crate::gles100::PRECISION_BLOCK),
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
        "in"
    }

    fn varying_qualifier(&self, stage: Stage) -> &'static str {
        match stage {
            Stage::Vertex => "out",
            Stage::Fragment => "in",
        }
    }

    fn global_storage(&self, storage: Storage, stage: Stage) -> Result<&'static str, Unsupported> {
        Ok(match (storage, stage) {
            (Storage::Attribute | Storage::In, _) => "in",
            (Storage::Varying, Stage::Vertex) | (Storage::Out, _) => "out",
            (Storage::Varying, Stage::Fragment) => "in",
            (Storage::Const, _) => "const",
            (Storage::Uniform, _) => "uniform",
            (Storage::InOut, _) => return Err(Unsupported::Qualifier),
        })
    }

    fn interpolation(&self, q: &Qualifiers) -> Result<Vec<&'static str>, (&'static str, Unsupported)> {
        Ok(interpolation_words(q))
    }

    fn has_layout(&self) -> bool {
        true
    }

    fn required_precision(&self, inner: &TypeInner) -> Option<Precision> {
        match inner {
            TypeInner::Sampler(SamplerType {
                dim: SamplerDim::D2 | SamplerDim::Cube,
                sampled: ScalarKind::Float,
                shadow: false,
            }) => None,
            TypeInner::Sampler(_) => Some(Precision::High),
            _ => None,
        }
    }

    fn check_type(&self, _inner: &TypeInner) -> Result<(), Unsupported> {
        Ok(())
    }

    fn check_attribute_type(&self, _inner: &TypeInner) -> Result<(), Unsupported> {
        Ok(())
    }

    fn check_binary(&self, _op: BinaryOp) -> Result<(), Unsupported> {
        Ok(())
    }

    fn check_unary(&self, _op: UnaryOp) -> Result<(), Unsupported> {
        Ok(())
    }

    fn has_uint_literals(&self) -> bool {
        true
    }

    fn float_literal<'a>(&self, spelling: &'a str) -> Cow<'a, str> {
        Cow::Borrowed(spelling)
    }

    fn has_array_features(&self) -> bool {
        true
    }

    fn has_switch(&self) -> bool {
        true
    }

    fn has_do_while(&self) -> bool {
        true
    }

    fn color_output(&self) -> OutputBinding<'static> {
        OutputBinding::Declared { name: Cow::Borrowed("GS_glFragColor"), location: None }
    }

    fn frag_data_output(&self, index: i64) -> OutputBinding<'static> {
        OutputBinding::Declared { name: Cow::Owned(format!("GS_glFragData_{index}")), location: Some(index) }
    }

    fn mrt_output<'n>(&self, member: &'n str, location: i64, _vec4: bool) -> Result<OutputBinding<'n>, Unsupported> {
        Ok(OutputBinding::Declared { name: Cow::Borrowed(member), location: Some(location) })
    }

    fn builtin_function<'n>(
        &self,
        name: &'n str,
        overload: Option<&Overload>,
        _sampler: Option<SamplerType>,
        _stage: Stage,
    ) -> Result<Cow<'n, str>, Unsupported> {
        if let Some((_, to)) = TEXTURE_RENAMES.iter().find(|(from, _)| *from == name) {
            return Ok(Cow::Borrowed(to));
        }
        if function_only_in(name, overload, Availability::Es100Only) {
            return Err(Unsupported::Builtin);
        }
        Ok(Cow::Borrowed(name))
    }

    fn builtin_variable(&self, var: &'static BuiltinVar, _stage: Stage) -> Result<&'static str, Unsupported> {
        match var.name {
            "gl_FragDepthEXT" => Ok("gl_FragDepth"),
            _ if var.availability == Availability::Es100Only => Err(Unsupported::BuiltinVariable),
            name => Ok(name),
        }
    }
}
