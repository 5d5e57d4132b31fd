//! Unit tests of the GLSL writers: small programs through the frontend, passes and validator, checked on the
//! exact text (or the refusal) each target gives.

use crate::{backend, BackendError, Options, Reflection, Target};
use shaderlab_frontend::{parse, MapResolver};
use shaderlab_ir::PassKind;

/// A pass whose entries are `vert` and `frag`, around `body`.
fn shader(body: &str) -> String {
    format!("Shader \"t\" {{ SubShader \"s\" {{ Pass \"p\" {{\n{body}\nVertexShader = vert;\nFragmentShader = frag;\n}} }} }}")
}

struct Out {
    vertex: String,
    fragment: String,
    reflection: Reflection,
}

fn compile_with(src: &str, target: Target, defines: Option<&[&str]>) -> Result<Out, Vec<BackendError>> {
    let defines: Option<Vec<(String, String)>> =
        defines.map(|d| d.iter().map(|n| ((*n).to_owned(), String::new())).collect());
    let options = shaderlab_frontend::Options { defines: defines.as_deref(), ..Default::default() };
    let module = parse("t.shader", src, &MapResolver::new(), &options);
    let facts = shaderlab_passes::run_passes(&module);
    let valid = match shaderlab_validator::validate(&module, &facts) {
        Ok(v) => v,
        Err(d) => panic!("invalid test input: {:?}", d.iter().map(|d| d.message()).collect::<Vec<_>>()),
    };
    let pass = module
        .passes
        .iter()
        .find(|(_, p)| matches!(p.kind, PassKind::Program { .. }))
        .map(|(id, _)| id)
        .expect("a program pass");
    let s = backend(target).emit_pass(&valid, pass, &Options::default())?;
    Ok(Out { vertex: s.vertex, fragment: s.fragment, reflection: s.reflection })
}

fn compile(src: &str, target: Target) -> Out {
    match compile_with(src, target, Some(&[])) {
        Ok(o) => o,
        Err(e) => panic!("refused: {:?}", e.iter().map(|e| e.message()).collect::<Vec<_>>()),
    }
}

fn refusals(src: &str, target: Target) -> Vec<String> {
    match compile_with(src, target, Some(&[])) {
        Ok(o) => panic!("accepted:\n{}\n{}", o.vertex, o.fragment),
        Err(e) => e.iter().map(|e| format!("{} {}", e.code(), e.message())).collect(),
    }
}

const BASIC: &str = "
    mat4 renderer_MVPMat;
    sampler2D u_tex;
    struct Attributes { vec4 POSITION; vec2 TEXCOORD_0; vec3 NORMAL; };
    struct Varyings { vec2 uv; };
    Varyings vert(Attributes attr) {
        Varyings output;
        gl_Position = renderer_MVPMat * attr.POSITION;
        output.uv = attr.TEXCOORD_0;
        return output;
    }
    void frag(Varyings varying) {
        gl_FragColor = texture2D(u_tex, varying.uv);
    }";

#[test]
fn basic_pass_in_both_targets() {
    let es300 = compile(&shader(BASIC), Target::Gles300);
    assert_eq!(
        es300.vertex,
        "uniform mat4 renderer_MVPMat;\n\nin vec4 POSITION;\nin vec2 TEXCOORD_0;\n\nout vec2 uv;\n\nvoid main() {\n    \
         gl_Position = renderer_MVPMat * POSITION;\n    uv = TEXCOORD_0;\n}\n"
    );
    assert_eq!(
        es300.fragment,
        "out vec4 GS_glFragColor;\n\nuniform sampler2D u_tex;\n\nin vec2 uv;\n\nvoid main() {\n    \
         GS_glFragColor = texture(u_tex, uv);\n}\n"
    );
    let es100 = compile(&shader(BASIC), Target::Gles100);
    assert_eq!(
        es100.vertex,
        "uniform mat4 renderer_MVPMat;\n\nattribute vec4 POSITION;\nattribute vec2 TEXCOORD_0;\n\nvarying vec2 uv;\n\n\
         void main() {\n    gl_Position = renderer_MVPMat * POSITION;\n    uv = TEXCOORD_0;\n}\n"
    );
    assert_eq!(
        es100.fragment,
        "uniform sampler2D u_tex;\n\nvarying vec2 uv;\n\nvoid main() {\n    gl_FragColor = texture2D(u_tex, uv);\n}\n"
    );
    let r = &es300.reflection;
    assert_eq!(r.attributes.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["POSITION", "TEXCOORD_0"]);
    assert_eq!(r.varyings.len(), 1);
    assert_eq!(r.uniforms.len(), 1);
    assert_eq!(r.samplers.len(), 1);
    assert_eq!(r.outputs[0].name, "GS_glFragColor");
}

#[test]
fn helpers_taking_io_structs_lose_those_parameters() {
    let src = shader(
        "
        mat4 renderer_MVPMat;
        struct Attributes { vec4 POSITION; vec2 TEXCOORD_0; };
        struct Varyings { vec2 uv; vec3 n; };
        vec4 position(Attributes a);
        vec4 position(Attributes a) { return renderer_MVPMat * a.POSITION; }
        void fill(inout Varyings v, Attributes a, float k) { v.uv = a.TEXCOORD_0 * k; }
        Varyings make(Attributes a) { Varyings v; v.n = vec3(1.0); fill(v, a, 2.0); return v; }
        Varyings vert(Attributes attr) {
            Varyings o = make(attr);
            gl_Position = position(attr);
            return o;
        }
        vec3 shade(Varyings v) { return v.n * 0.5; }
        void frag(Varyings v) { gl_FragColor = vec4(shade(v), v.uv.x); }",
    );
    let out = compile(&src, Target::Gles300);
    assert!(
        out.vertex.contains("vec4 position();\n\nvec4 position() {\n    return renderer_MVPMat * POSITION;\n}"),
        "{}",
        out.vertex
    );
    assert!(out.vertex.contains("void fill(float k) {\n    uv = TEXCOORD_0 * k;\n}"), "{}", out.vertex);
    assert!(out.vertex.contains("void make() {\n    n = vec3(1.0);\n    fill(2.0);\n    return;\n}"), "{}", out.vertex);
    assert!(out.vertex.contains("void main() {\n    make();\n    gl_Position = position();\n}"), "{}", out.vertex);
    assert!(out.fragment.contains("vec3 shade() {\n    return n * 0.5;\n}"), "{}", out.fragment);
    assert!(out.fragment.contains("GS_glFragColor = vec4(shade(), uv.x);"), "{}", out.fragment);
    assert!(!out.vertex.contains("struct") && !out.fragment.contains("struct"));
}

#[test]
fn two_varyings_objects_keep_the_struct_and_copy() {
    let src = shader(
        "
        struct Attributes { vec4 POSITION; };
        struct Varyings { vec2 uv; };
        Varyings vert(Attributes attr) {
            Varyings a;
            Varyings b;
            a.uv = vec2(1.0);
            b = a;
            gl_Position = attr.POSITION;
            return b;
        }
        void frag(Varyings v) { gl_FragColor = vec4(v.uv, 0.0, 1.0); }",
    );
    let out = compile(&src, Target::Gles300);
    assert!(out.vertex.contains("struct Varyings {\n    vec2 uv;\n};"), "{}", out.vertex);
    assert!(out.vertex.contains("    b = a;\n    gl_Position = POSITION;\n    uv = b.uv;\n}"), "{}", out.vertex);
    assert!(out.fragment.contains("GS_glFragColor = vec4(uv, 0.0, 1.0);"), "{}", out.fragment);
}

#[test]
fn constructed_io_structs_are_copied_without_member_qualifiers() {
    let src = shader(
        "
        struct Attributes { vec4 POSITION; vec2 TEXCOORD_0; };
        struct Varyings { vec2 uv; flat int id; };
        struct Targets { layout(location = 0) vec4 color; layout(location = 1) vec4 extra; };
        Varyings vert(Attributes attr) {
            gl_Position = attr.POSITION;
            if (attr.POSITION.x > 1.0) { return Varyings(vec2(0.0), 1); }
            return Varyings(attr.TEXCOORD_0, 2);
        }
        Targets frag(Varyings v) {
            Targets t = Targets(vec4(v.uv, 0.0, 1.0), vec4(float(v.id)));
            return t;
        }",
    );
    let out = compile(&src, Target::Gles300);
    assert!(out.vertex.contains("out vec2 uv;\nflat out int id;\n"), "{}", out.vertex);
    assert!(out.vertex.contains("struct Varyings {\n    vec2 uv;\n    int id;\n};"), "{}", out.vertex);
    assert!(
        out.vertex.contains(
            "        Varyings varyings_1 = Varyings(vec2(0.0), 1);\n        uv = varyings_1.uv;\n        \
             id = varyings_1.id;\n        return;\n"
        ),
        "{}",
        out.vertex
    );
    assert!(out.fragment.contains("struct Targets {\n    vec4 color;\n    vec4 extra;\n};"), "{}", out.fragment);
    assert!(out.fragment.contains("    color = t.color;\n    extra = t.extra;\n}"), "{}", out.fragment);
    let errors = refusals(&src, Target::Gles100);
    assert!(errors.iter().any(|e| e.contains("'flat'")), "{errors:?}");
}

#[test]
fn a_helper_writing_its_copy_of_the_inputs_keeps_the_struct() {
    let src = shader(
        "
        struct Attributes { vec4 POSITION; };
        struct Varyings { vec2 uv; };
        Varyings vert(Attributes attr) { Varyings o; o.uv = vec2(0.5); gl_Position = attr.POSITION; return o; }
        vec2 doubled(Varyings v) { v.uv *= 2.0; return v.uv; }
        void frag(Varyings v) { gl_FragColor = vec4(doubled(v), v.uv); }",
    );
    let f = compile(&src, Target::Gles300).fragment;
    assert!(f.contains("vec2 doubled(Varyings v) {\n    v.uv *= 2.0;\n    return v.uv;\n}"), "{f}");
    assert!(f.contains("void main() {\n    Varyings v;\n    v.uv = uv;\n"), "{f}");
    let v = compile(&src, Target::Gles300).vertex;
    assert!(!v.contains("struct"), "the vertex stage still renames: {v}");
}

#[test]
fn parentheses_follow_precedence() {
    let src = shader(
        "
        struct Attributes { vec4 POSITION; };
        float f(float a, float b, float c, bool p, bool q) {
            float x = a - (b - c);
            float y = (a + b) * c;
            float z = a + b * c;
            float w = -(-a);
            float v = p ? a : q ? b : c;
            float u = (p ? a : b) + c;
            bool t = !(p && q) || p;
            return x + y + z + w + v + u + (t ? 1.0 : 0.0);
        }
        void vert(Attributes attr) { gl_Position = attr.POSITION * f(1.0, 2.0, 3.0, true, false); }
        void frag() { gl_FragColor = vec4(1.0); }",
    );
    let v = compile(&src, Target::Gles300).vertex;
    for line in [
        "float x = a - (b - c);",
        "float y = (a + b) * c;",
        "float z = a + b * c;",
        "float w = -(-a);",
        "float v = p ? a : q ? b : c;",
        "float u = (p ? a : b) + c;",
        "bool t = !(p && q) || p;",
    ] {
        assert!(v.contains(line), "missing `{line}` in\n{v}");
    }
}

const SWITCH: &str = "
    struct Attributes { vec4 POSITION; };
    float pick(int i) {
        float x = 0.0;
        switch (i) {
            case 0:
                x = 1.0;
                break;
            case 1:
            case 2:
                x = 2.0;
                break;
            default:
                x = 3.0;
        }
        return x;
    }
    void vert(Attributes attr) { gl_Position = attr.POSITION * pick(1); }
    void frag() { gl_FragColor = vec4(1.0); }";

#[test]
fn switch_becomes_an_if_chain_in_es100() {
    let es100 = compile(&shader(SWITCH), Target::Gles100).vertex;
    assert!(
        es100.contains(
            "    if (i == 0) {\n        x = 1.0;\n    } else if (i == 1 || i == 2) {\n        x = 2.0;\n    } else {\n        \
             x = 3.0;\n    }\n"
        ),
        "{es100}"
    );
    let es300 = compile(&shader(SWITCH), Target::Gles300).vertex;
    assert!(es300.contains("    switch (i) {\n        case 0:\n            x = 1.0;\n            break;\n"), "{es300}");
}

#[test]
fn switch_with_fallthrough_is_refused_in_es100() {
    let src = shader(&SWITCH.replace("x = 1.0;\n                break;", "x = 1.0;"));
    let errors = refusals(&src, Target::Gles100);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("UnsupportedInTarget 'switch' :"), "{errors:?}");
    compile(&src, Target::Gles300);
}

#[test]
fn es300_constructs_are_refused_in_es100() {
    let src = shader(
        "
        struct Attributes { vec4 POSITION; ivec2 ids; };
        struct Varyings { flat int id; };
        uint counter;
        Varyings vert(Attributes attr) {
            Varyings o;
            int k = attr.ids.x & 3;
            do { k--; } while (k > 0);
            o.id = k << 1;
            gl_Position = inverse(mat4(1.0)) * attr.POSITION + vec4(float(counter));
            return o;
        }
        void frag(Varyings v) { gl_FragColor = vec4(float(v.id)); }",
    );
    let errors = refusals(&src, Target::Gles100);
    for token in ["'ids'", "'flat'", "'uint'", "'&'", "'do'", "'<<'", "'inverse'"] {
        assert!(errors.iter().any(|e| e.contains(token)), "no refusal of {token}: {errors:#?}");
    }
    assert!(errors.iter().all(|e| e.starts_with("UnsupportedInTarget")), "{errors:#?}");
    compile(&src, Target::Gles300);
}

#[test]
fn arrays_of_arrays_are_refused_in_both_targets() {
    let src = shader(
        "
        struct Attributes { vec4 POSITION; };
        void vert(Attributes attr) { float a[2][3]; a[0][0] = 1.0; gl_Position = attr.POSITION * a[0][0]; }
        void frag() { gl_FragColor = vec4(1.0); }",
    );
    for target in [Target::Gles100, Target::Gles300] {
        let errors = refusals(&src, target);
        assert!(errors.iter().any(|e| e.starts_with("ArrayOfArrays 'a' :")), "{errors:?}");
    }
}

#[test]
fn reserved_user_names_are_renamed_and_interface_names_refused() {
    let src = shader(
        "
        struct Attributes { vec4 POSITION; };
        struct Data { float filter; };
        const float active = 2.0;
        float input(float sample) { Data d; d.filter = sample; return d.filter * active; }
        void vert(Attributes attr) { float texture = input(1.0); gl_Position = attr.POSITION * texture; }
        void frag() { gl_FragColor = vec4(1.0); }",
    );
    let v = compile(&src, Target::Gles300).vertex;
    for text in [
        "const float active_1 = 2.0;",
        "float input_1(float sample_1) {",
        "d.filter_1 = sample_1;",
        "return d.filter_1 * active_1;",
        "float texture_1 = input_1(1.0);",
    ] {
        assert!(v.contains(text), "missing `{text}` in\n{v}");
    }
    let bad = shader(
        "
        float sample;
        struct Attributes { vec4 POSITION; };
        void vert(Attributes attr) { gl_Position = attr.POSITION * sample; }
        void frag() { gl_FragColor = vec4(1.0); }",
    );
    let errors = refusals(&bad, Target::Gles300);
    assert!(errors.iter().any(|e| e.starts_with("UnsupportedInTarget 'sample' :")), "{errors:?}");
}

#[test]
fn a_local_named_like_a_varying_is_renamed() {
    let src = shader(
        "
        struct Attributes { vec4 POSITION; vec2 TEXCOORD_0; };
        struct Varyings { vec2 uv; };
        Varyings vert(Attributes a) {
            Varyings o;
            vec2 uv = a.TEXCOORD_0 * 2.0;
            o.uv = uv;
            gl_Position = a.POSITION;
            return o;
        }
        void frag(Varyings v) { gl_FragColor = vec4(v.uv, 0.0, 1.0); }",
    );
    let v = compile(&src, Target::Gles300).vertex;
    assert!(v.contains("    vec2 uv_1 = TEXCOORD_0 * 2.0;\n    uv = uv_1;\n"), "{v}");
}

#[test]
fn mrt_struct_maps_to_outputs() {
    let src = shader(
        "
        struct Attributes { vec4 POSITION; };
        struct Targets { layout(location = 0) vec4 color; layout(location = 1) vec4 normal; };
        void vert(Attributes attr) { gl_Position = attr.POSITION; }
        Targets frag() { Targets t; t.color = vec4(1.0); t.normal = vec4(0.5); return t; }",
    );
    let es300 = compile(&src, Target::Gles300).fragment;
    assert_eq!(
        es300,
        "layout(location = 0) out vec4 color;\nlayout(location = 1) out vec4 normal;\n\nvoid main() {\n    \
         color = vec4(1.0);\n    normal = vec4(0.5);\n}\n"
    );
    let es100 = compile(&src, Target::Gles100).fragment;
    assert_eq!(es100, "void main() {\n    gl_FragData[0] = vec4(1.0);\n    gl_FragData[1] = vec4(0.5);\n}\n");
}

#[test]
fn frag_data_and_returned_colors() {
    let data = shader(
        "
        struct Attributes { vec4 POSITION; };
        void vert(Attributes attr) { gl_Position = attr.POSITION; }
        void frag() { gl_FragData[0] = vec4(1.0); gl_FragData[1] = vec4(0.0); }",
    );
    let es300 = compile(&data, Target::Gles300).fragment;
    assert!(es300.starts_with(
        "layout(location = 0) out vec4 GS_glFragData_0;\nlayout(location = 1) out vec4 GS_glFragData_1;\n"
    ));
    assert!(es300.contains("    GS_glFragData_1 = vec4(0.0);\n"), "{es300}");
    let returned = shader(
        "
        struct Attributes { vec4 POSITION; };
        void vert(Attributes attr) { gl_Position = attr.POSITION; }
        vec4 frag() { if (gl_FragCoord.x > 1.0) { return vec4(0.0); } return vec4(1.0); }",
    );
    let es100 = compile(&returned, Target::Gles100).fragment;
    assert_eq!(
        es100,
        "void main() {\n    if (gl_FragCoord.x > 1.0) {\n        gl_FragColor = vec4(0.0);\n        return;\n    }\n    \
         gl_FragColor = vec4(1.0);\n}\n"
    );
}

#[test]
fn texture_functions_follow_the_target() {
    let src = shader(
        "
        sampler2D s;
        samplerCube c;
        struct Attributes { vec4 POSITION; };
        void vert(Attributes attr) { gl_Position = attr.POSITION + textureLod(s, vec2(0.5), 0.0); }
        void frag() {
            gl_FragColor = texture(s, vec2(0.5)) + textureCube(c, vec3(1.0)) + textureLod(s, vec2(0.5), 1.0);
            gl_FragDepth = 0.5;
        }",
    );
    let es100 = compile(&src, Target::Gles100);
    assert!(es100.vertex.contains("texture2DLod(s, vec2(0.5), 0.0)"), "{}", es100.vertex);
    assert!(
        es100.fragment.contains(
            "gl_FragColor = texture2D(s, vec2(0.5)) + textureCube(c, vec3(1.0)) + texture2DLodEXT(s, vec2(0.5), 1.0);"
        ),
        "{}",
        es100.fragment
    );
    assert!(es100.fragment.contains("gl_FragDepthEXT = 0.5;"), "{}", es100.fragment);
    let es300 = compile(&src, Target::Gles300);
    assert!(es300.fragment.contains("texture(s, vec2(0.5)) + texture(c, vec3(1.0)) + textureLod(s, vec2(0.5), 1.0)"));
    assert!(es300.fragment.contains("gl_FragDepth = 0.5;"));
}

#[test]
fn conditionals_and_macros_are_kept_in_preserving_mode() {
    let src = shader(
        "
        #define SCALE 2.0
        #define TWICE(x) ((x) * SCALE)
        struct Attributes { vec4 POSITION; };
        #ifdef HAS_TINT
        vec4 u_tint;
        #endif
        #ifdef UNUSED_FEATURE
        vec4 u_unused;
        #endif
        float scaled(float a
        #ifdef HAS_TINT
            , float b
        #endif
        ) {
            return TWICE(a);
        }
        void vert(Attributes attr) { gl_Position = attr.POSITION; }
        void frag() {
            vec4 color = vec4(scaled(1.0
            #ifdef HAS_TINT
                , 2.0
            #endif
            ));
            #ifdef HAS_TINT
            color *= u_tint;
            #endif
            gl_FragColor = color;
        }",
    );
    let out = match compile_with(&src, Target::Gles300, None) {
        Ok(o) => o,
        Err(e) => panic!("{:?}", e.iter().map(|e| e.message()).collect::<Vec<_>>()),
    };
    let f = &out.fragment;
    for text in [
        "#define SCALE 2.0\n#define TWICE(x) ((x) * SCALE)\n",
        "#ifdef HAS_TINT\nuniform vec4 u_tint;\n#endif\n",
        "float scaled(\n    float a\n#ifdef HAS_TINT\n    , float b\n#endif\n    ) {\n    return TWICE(a);\n}",
        "#ifdef HAS_TINT\n    color *= u_tint;\n#endif\n",
        // An argument list with a conditional element breaks the line it is written in.
        "    vec4 color = vec4(scaled(\n        1.0\n#ifdef HAS_TINT\n        , 2.0\n#endif\n        ));\n",
    ] {
        assert!(f.contains(text), "missing\n{text}\nin\n{f}");
    }
    assert!(!f.contains("UNUSED_FEATURE"), "{f}");
    assert_eq!(out.reflection.macros, ["HAS_TINT"]);
}

/// A `#define` continued over lines is written on one line without its continuations' backslashes (a backslash
/// left before a space is a stray character: expanding the output for a variant refused it), and a continuation
/// inside a word joins it (`2.` + `0` is `2.0`, as the lexer read it); a `(` after a continuation right after the
/// name still makes the macro function-like.
#[test]
fn a_continued_define_is_one_line_without_backslashes() {
    for newline in ["\n", "\r\n"] {
        let body = format!(
            "#define TWICE\\{newline}(x) ((x) * \\{newline}    2.\\{newline}0)\n\
             void vert() {{ gl_Position = vec4(0.0); }}\n\
             void frag() {{ gl_FragColor = vec4(TWICE(0.5)); }}"
        );
        let f = match compile_with(&shader(&body), Target::Gles300, None) {
            Ok(o) => o.fragment,
            Err(e) => panic!("{:?}", e.iter().map(|e| e.message()).collect::<Vec<_>>()),
        };
        let line = f.lines().find(|l| l.starts_with("#define TWICE")).unwrap_or_default();
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words, ["#define", "TWICE(x)", "((x)", "*", "2.0)"], "{newline:?}:\n{f}");
        assert!(!f.contains('\\'), "{newline:?}:\n{f}");
    }
}

/// An `#if` continued over lines is written on one line without the continuation: GLSL ES 1.00 has no line
/// continuation, and the preserving output for it used to carry the source's.
#[test]
fn a_continued_condition_is_one_line_without_backslashes() {
    let body = "void vert() { gl_Position = vec4(0.0); }\n\
                void frag() {\n\
                float y = 1.0;\n\
                #if defined(HAS_A) && \\\n    defined(HAS_B)\n\
                y = 2.0;\n\
                #endif\n\
                gl_FragColor = vec4(y); }";
    let f = match compile_with(&shader(body), Target::Gles100, None) {
        Ok(o) => o.fragment,
        Err(e) => panic!("{:?}", e.iter().map(|e| e.message()).collect::<Vec<_>>()),
    };
    let line = f.lines().find(|l| l.starts_with("#if")).unwrap_or_default();
    assert_eq!(line.split_whitespace().collect::<Vec<_>>(), ["#if", "defined(HAS_A)", "&&", "defined(HAS_B)"], "{f}");
    assert!(!f.contains('\\'), "{f}");
}

#[test]
fn structs_are_declared_before_their_first_use() {
    let src = "Shader \"t\" { SubShader \"s\" { Pass \"p\" {
        struct Attributes { vec4 POSITION; };
        Light make() { Light l; l.color = vec3(1.0); return l; }
        struct Light { vec3 color; };
        VertexShader = vert;
        FragmentShader = frag;
        void vert(Attributes attr) { gl_Position = attr.POSITION; }
        void frag() { gl_FragColor = vec4(make().color, 1.0); }
    } } }";
    let f = compile(src, Target::Gles300).fragment;
    let s = f.find("struct Light").expect("struct written");
    let m = f.find("Light make()").expect("function written");
    assert!(s < m, "{f}");
}

#[test]
fn samplers_without_default_precision_get_one_in_es300() {
    let src = shader(
        "
        sampler2DShadow u_shadow;
        struct Attributes { vec4 POSITION; };
        float lookup(sampler2DShadow s) { return texture(s, vec3(0.5)); }
        void vert(Attributes attr) { gl_Position = attr.POSITION; }
        void frag() { gl_FragColor = vec4(lookup(u_shadow)); }",
    );
    let f = compile(&src, Target::Gles300).fragment;
    assert!(f.contains("uniform highp sampler2DShadow u_shadow;"), "{f}");
    assert!(f.contains("float lookup(highp sampler2DShadow s) {"), "{f}");
}

#[test]
fn stage_variables_are_declared_before_their_first_use() {
    let src = "Shader \"t\" { SubShader \"s\" { Pass \"p\" {
        vec4 offset(Attributes a) { return a.JOINTS; }
        struct Attributes { vec4 POSITION; vec4 JOINTS; };
        VertexShader = vert;
        FragmentShader = frag;
        void vert(Attributes attr) { gl_Position = attr.POSITION + offset(attr); }
        void frag() { gl_FragColor = vec4(1.0); }
    } } }";
    let v = compile(src, Target::Gles300).vertex;
    assert!(v.starts_with("in vec4 POSITION;\nin vec4 JOINTS;\n\nvec4 offset() {"), "{v}");
}

#[test]
fn output_is_deterministic() {
    let a = compile(&shader(BASIC), Target::Gles300);
    for _ in 0..3 {
        let b = compile(&shader(BASIC), Target::Gles300);
        assert_eq!((&a.vertex, &a.fragment), (&b.vertex, &b.fragment));
    }
}

/// The lookups that skip a name declared twice (reflected attributes and varyings, uniforms written before) cost the
/// same per declaration however many there are: the work counted for a pass with `n` attributes, varyings and
/// uniforms grows linearly in `n` (a scan of everything so far per declaration, quadratic, once did about
/// `n * n / 2` steps for each kind).
#[test]
fn duplicate_lookups_stay_linear() {
    let steps = |n: usize| {
        let attributes: String = (0..n).map(|i| format!(" float a{i};")).collect();
        let varyings: String = (0..n).map(|i| format!(" float v{i};")).collect();
        let uniforms: String = (0..n).map(|i| format!("float u{i};\n")).collect();
        let writes: String = (0..n).map(|i| format!("o.v{i} = attr.a{i} * u{i};\n")).collect();
        let reads: String = (0..n).map(|i| format!("s += v.v{i};\n")).collect();
        let body = format!(
            "{uniforms}struct Attributes {{{attributes} }};\nstruct Varyings {{{varyings} }};\n\
             Varyings vert(Attributes attr) {{ Varyings o;\n{writes}gl_Position = vec4(0.0); return o; }}\n\
             void frag(Varyings v) {{ float s = 0.0;\n{reads}gl_FragColor = vec4(s); }}"
        );
        crate::work::take();
        let out = compile(&shader(&body), Target::Gles300);
        assert_eq!(
            (out.reflection.attributes.len(), out.reflection.varyings.len(), out.reflection.uniforms.len()),
            (n, n, n)
        );
        crate::work::take()
    };
    let (small, large) = (steps(100), steps(400));
    // Four lookups a declaration (varyings are asked for in both stages), up to `SCANNED` steps each while a set
    // is scanned. Four times the declarations: linear work grows about 3x (the scanned prefix is fixed), a scan of
    // everything so far 16x (over 80,000 steps for 400). Only counted work is seen: a lookup that scans without
    // `work::count` escapes this test.
    assert!(small >= 400, "the lookups are counted: {small}");
    assert!(large <= 6 * small, "linear work: {small} steps for 100 declarations of each kind, {large} for 400");
}

#[test]
fn conditional_duplicates_merge_past_the_scanned_prefix() {
    // Preserving compile: the same attribute and varying names under exclusive conditions, before and after the
    // list outgrows the scanned prefix (`SCANNED` entries), are reflected once each.
    let members = |p: &str| {
        let plain: String = (1..18).map(|i| format!(" float {p}{i};")).collect();
        format!(
            "\n#ifdef A\n float {p}0;\n#endif\n{plain}\n#ifdef B\n float {p}20;\n#endif\n float {p}21;\n\
             #ifndef B\n float {p}20;\n#endif\n#ifndef A\n float {p}0;\n#endif\n"
        )
    };
    let writes: String = (1..18).map(|i| format!("o.v{i} = a.a{i};\n")).collect();
    let body = format!(
        "struct Attributes {{{}}};\nstruct Varyings {{{}}};\n\
         Varyings vert(Attributes a) {{ Varyings o;\n{writes}o.v21 = a.a21; o.v0 = a.a0; o.v20 = a.a20; gl_Position = vec4(0.0); return o; }}\n\
         void frag(Varyings v) {{ gl_FragColor = vec4(v.v1 + v.v21 + v.v0 + v.v20); }}",
        members("a"),
        members("v")
    );
    let out = match compile_with(&shader(&body), Target::Gles300, None) {
        Ok(o) => o,
        Err(e) => panic!("refused: {:?}", e.iter().map(|e| e.message()).collect::<Vec<_>>()),
    };
    let unique = |names: Vec<&str>| {
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        (names.len(), sorted.len())
    };
    let attributes = unique(out.reflection.attributes.iter().map(|a| a.name.as_str()).collect());
    let varyings = unique(out.reflection.varyings.iter().map(|v| v.name.as_str()).collect());
    assert_eq!((attributes, varyings), ((20, 20), (20, 20)));
}

/// The declarations of the uniform `u` a preserving compile writes (GLSL ES 3.00 vertex stage, up to `main`), for
/// `decls` at the pass level.
fn uniform_lines(decls: &str) -> (String, Reflection) {
    let src = shader(&format!(
        "{decls}\nvoid vert() {{ gl_Position = vec4(u); }}\nvoid frag() {{ gl_FragColor = vec4(u); }}"
    ));
    let out = match compile_with(&src, Target::Gles300, None) {
        Ok(o) => o,
        Err(e) => panic!("refused: {:?}", e.iter().map(|e| e.message()).collect::<Vec<_>>()),
    };
    let head = out.vertex.split("void main()").next().unwrap_or_default().trim_end().to_owned();
    (head, out.reflection)
}

#[test]
fn a_uniform_declared_again_is_declared_once_per_variant() {
    // An unconditional declaration after a conditional one yields to it: the variant with `A` declared `u` twice.
    let (text, reflection) = uniform_lines("#ifdef A\nfloat u;\n#endif\nfloat u;");
    assert_eq!(text, "#ifdef A\nuniform float u;\n#endif\n\n#ifndef A\nuniform float u;\n#endif");
    assert_eq!(reflection.uniforms.len(), 1);
    assert_eq!(reflection.macros, ["A"]);
    // Under two conditions, then none: one term each.
    let (text, _) =
        uniform_lines("#ifdef A\nfloat u;\n#endif\n#ifndef B\nfloat u;\n#endif\n#if C > 1\nfloat u;\n#endif\nfloat u;");
    assert!(text.ends_with("#if !defined(A) && defined(B) && !(C > 1)\nuniform float u;\n#endif"), "{text}");
    assert!(text.contains("#ifndef B\n#ifndef A\nuniform float u;\n#endif\n#endif"), "{text}");
    // Nested conditions: the negation of both.
    let (text, _) = uniform_lines("#ifdef A\n#ifdef B\nfloat u;\n#endif\n#endif\nfloat u;");
    assert!(text.ends_with("#if !(defined(A) && defined(B))\nuniform float u;\n#endif"), "{text}");
    // The same condition twice, or a declaration in a branch the earlier one covers: skipped.
    let (text, _) =
        uniform_lines("#ifdef A\nfloat u;\n#endif\n#ifdef A\nfloat u;\n#endif\nfloat u;\n#ifdef B\nfloat u;\n#endif");
    assert_eq!(text.matches("uniform float u;").count(), 2, "{text}");
    // Exclusive branches need no guard.
    let (text, _) = uniform_lines("#ifdef A\nfloat u;\n#else\nfloat u;\n#endif");
    assert_eq!(text, "#ifdef A\nuniform float u;\n#else\nuniform float u;\n#endif");
}

#[test]
fn a_uniform_declared_again_after_an_else_or_a_redefinition_tests_a_marker() {
    // The negation of an `#else` branch would repeat the branches before it: a marker, defined in both branches.
    let (text, reflection) = uniform_lines("#ifdef A\nfloat u;\n#else\nfloat u;\n#endif\nfloat u;");
    assert_eq!(
        text,
        "#ifdef A\nuniform float u;\n#define SHADERLAB_UNIFORM_u\n#else\nuniform float u;\n\
         #define SHADERLAB_UNIFORM_u\n#endif\n\n#ifndef SHADERLAB_UNIFORM_u\nuniform float u;\n#endif"
    );
    // The marker is not a variant key.
    assert_eq!(reflection.macros, ["A"]);
    // `A` is defined between the two declarations: `#ifndef A` there would not say what it said before. The
    // marker's spelling is taken: the next free one.
    let (text, _) = uniform_lines("#define SHADERLAB_UNIFORM_u 1\n#ifdef A\nfloat u;\n#endif\n#define A\nfloat u;");
    assert!(text.contains("#ifdef A\nuniform float u;\n#define SHADERLAB_UNIFORM_u_1\n#endif"), "{text}");
    assert!(text.ends_with("#ifndef SHADERLAB_UNIFORM_u_1\nuniform float u;\n#endif"), "{text}");
}

/// One uniform declared `n` times, each under a condition of its own: planning costs a step per declaration
/// (comparing each with the earlier ones, as the writer once did, took `n * n / 2`), and the output grows
/// linearly (past [`crate::SCANNED`] declarations a marker replaces the negations, which would grow with `n`).
#[test]
fn a_uniform_declared_under_many_conditions_stays_linear() {
    let run = |n: usize| {
        let decls: String = (0..n).map(|i| format!("#ifdef A{i}\nfloat u;\n#endif\n")).collect();
        crate::work::take();
        let (text, reflection) = uniform_lines(&format!("{decls}float u;"));
        assert_eq!(reflection.uniforms.len(), 1);
        (crate::work::take(), text.len())
    };
    let ((small, small_text), (large, large_text)) = (run(100), run(400));
    assert!(large <= 5 * small, "linear work: {small} steps for 100 declarations, {large} for 400");
    assert!(
        large_text <= 5 * small_text,
        "linear output: {small_text} bytes for 100 declarations, {large_text} for 400"
    );
}

#[test]
fn for_heads_keep_every_part_in_both_targets() {
    let src = shader(
        "
    void vert() { gl_Position = vec4(0.0); }
    void frag() {
        float t = 0.0;
        int j;
        for (int i = 0, k = 2; i < 4; i++) { t += float(i + k); }
        for (j = 0; j < 2; j += 1) { t -= 1.0; }
        for (int n = 0; ; ) { if (t > 1.0) { break; } t += 0.5; }
        gl_FragColor = vec4(t);
    }",
    );
    for target in [Target::Gles300, Target::Gles100] {
        let frag = compile(&src, target).fragment;
        for head in [
            "    for (int i = 0, k = 2; i < 4; i++) {\n",
            "    for (j = 0; j < 2; j += 1) {\n",
            "    for (int n = 0;;) {\n",
        ] {
            assert!(frag.contains(head), "{target:?}: no {head:?} in\n{frag}");
        }
    }
}
