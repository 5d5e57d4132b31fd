//! Unit tests of each pass on small inputs: the facts they produce (not only their clues, which the ABTest
//! fixtures of tests/fixtures cover code by code).

use shaderlab_frontend::{parse, MapResolver, Options};
use shaderlab_ir::{Expr, Module, ScalarKind};
use shaderlab_passes::consts::{ConstValue, Scalar};
use shaderlab_passes::io::FragmentOutput;
use shaderlab_passes::resolve::{Resolved, Symbol};
use shaderlab_passes::{run_passes, Facts, Owner, Ty, Type, UnknownReason};

fn wrap(glsl: &str) -> String {
    format!("Shader \"t\" {{ SubShader \"s\" {{ Pass \"p\" {{\n{glsl}\nVertexShader = vert; FragmentShader = frag; }} }} }}")
}

fn analyze(glsl: &str) -> (Module, Facts) {
    let m = parse("t.shader", &wrap(glsl), &MapResolver::new(), &Options::default());
    assert!(m.clues.is_empty(), "frontend clues: {:?}", m.clues);
    let facts = run_passes(&m);
    (m, facts)
}

/// The type of the first expression of function `f` whose source text is `text`.
fn type_of(m: &Module, facts: &Facts, f: &str, text: &str) -> Type {
    let (id, func) = m.functions.iter().find(|(_, x)| m.name(x.name) == f && x.body.is_some()).expect("function");
    let (e, _) =
        func.exprs.iter().find(|(_, e)| m.sources.snippet(e.span) == text).unwrap_or_else(|| panic!("no `{text}`"));
    *facts.typing.exprs.get(Owner::Function(id), e)
}

const ENTRIES: &str = "
struct A { vec4 POSITION; vec2 TEXCOORD_0; };
struct V { vec2 uv; vec3 n; };
V vert(A a) { V o; o.uv = a.TEXCOORD_0; gl_Position = a.POSITION; return o; }
void frag(V v) { gl_FragColor = vec4(v.uv, 0.0, 1.0); }";

fn no_errors(facts: &Facts) {
    let clues: Vec<_> = facts.clues().map(|c| c.kind.code()).collect();
    // Warnings some tests provoke on purpose (a local hiding a global, a varying never written).
    assert!(
        clues.iter().all(|c| matches!(*c, "VaryingNotWritten" | "ShadowedDeclaration")),
        "unexpected clues {clues:?}"
    );
}

#[test]
fn typing_covers_operators_swizzles_constructors_and_builtins() {
    let (m, facts) = analyze(&format!(
        "{ENTRIES}
        mat4 u_m; sampler2D u_tex; vec3 u_v;
        float h(float x) {{ return x; }}
        int h(int x) {{ return x; }}
        void f() {{
            vec4 p = u_m * vec4(u_v, 1.0);
            vec2 s = p.zx;
            float t = texture2D(u_tex, s).r;
            int i = h(3);
            float k = h(2.0);
            mat3 r = mat3(u_m);
            bvec3 c = lessThan(u_v, vec3(t));
            uint w = 3u << 2;
        }}"
    ));
    no_errors(&facts);
    let vec = |n| Type::Known(Ty::Vector(ScalarKind::Float, n));
    assert_eq!(type_of(&m, &facts, "f", "u_m * vec4(u_v, 1.0)"), vec(4));
    assert_eq!(type_of(&m, &facts, "f", "p.zx"), vec(2));
    assert_eq!(type_of(&m, &facts, "f", "texture2D(u_tex, s)"), vec(4));
    assert_eq!(type_of(&m, &facts, "f", "h(3)"), Type::Known(Ty::INT));
    assert_eq!(type_of(&m, &facts, "f", "h(2.0)"), Type::Known(Ty::FLOAT));
    assert_eq!(type_of(&m, &facts, "f", "mat3(u_m)"), Type::Known(Ty::Matrix { columns: 3, rows: 3 }));
    assert_eq!(type_of(&m, &facts, "f", "lessThan(u_v, vec3(t))"), Type::Known(Ty::Vector(ScalarKind::Bool, 3)));
    assert_eq!(type_of(&m, &facts, "f", "3u << 2"), Type::Known(Ty::UINT));
}

#[test]
fn macros_type_only_when_certain() {
    let (m, facts) = analyze(&format!(
        "{ENTRIES}
        #define SCALE 2.5
        #define TWICE(x) ((x) * 2.0)
        void f() {{ float a = SCALE; float b = TWICE(a); float c = float(RENDERER_COUNT); }}"
    ));
    no_errors(&facts);
    assert_eq!(type_of(&m, &facts, "f", "SCALE"), Type::Known(Ty::FLOAT));
    assert_eq!(type_of(&m, &facts, "f", "TWICE(a)"), Type::Unknown(UnknownReason::Macro));
    assert_eq!(type_of(&m, &facts, "f", "RENDERER_COUNT"), Type::Unknown(UnknownReason::RuntimeMacro));
    // A conversion of an unknown is still of a known type.
    assert_eq!(type_of(&m, &facts, "f", "float(RENDERER_COUNT)"), Type::Known(Ty::FLOAT));
}

#[test]
fn resolution_follows_scopes_and_variants() {
    let (m, facts) = analyze(&format!(
        "{ENTRIES}
        #ifdef HIGH
        vec3 u_q;
        #else
        vec2 u_q;
        #endif
        float g = 1.0;
        void f() {{
            float g = 2.0;
            for (int i = 0; i < 2; i++) {{ g += float(i); }}
            vec2 a = u_q.xy;
            vec2 b = uv;
        }}"
    ));
    no_errors(&facts);
    let (fid, func) = m.functions.iter().find(|(_, x)| m.name(x.name) == "f").expect("f");
    let resolved = |text: &str| {
        let (e, _) = func
            .exprs
            .iter()
            .find(|(_, e)| m.sources.snippet(e.span) == text && matches!(e.kind, Expr::Ident(_)))
            .expect(text);
        facts.resolution.idents.get(Owner::Function(fid), e).clone()
    };
    // `g` inside f is the local, not the global.
    assert!(matches!(resolved("g"), Resolved::Symbols(s) if matches!(s.as_slice(), [Symbol::Local(_)])));
    // `u_q` has one declaration per exclusive branch: both are candidates, its type depends on the variant.
    assert!(matches!(resolved("u_q"), Resolved::Symbols(s) if s.len() == 2));
    assert_eq!(type_of(&m, &facts, "f", "u_q"), Type::Unknown(UnknownReason::Variant));
    // A varying member used by its bare name (the engine's globals).
    assert!(matches!(resolved("uv"), Resolved::Symbols(s) if matches!(s.as_slice(), [Symbol::IoMember(..)])));
}

#[test]
fn io_roles_and_call_order() {
    let (m, facts) = analyze(
        "struct A { vec4 POSITION; vec3 NORMAL; };
        struct V { vec3 n; vec2 unused; };
        struct MRT { layout(location = 0) vec4 c0; layout(location = 1) vec4 c1; };
        vec3 shade(vec3 n) { return normalize(n); }
        vec3 helper(A a) { return shade(a.NORMAL); }
        V vert(A a) { V o; o.n = helper(a); gl_Position = a.POSITION; return o; }
        MRT frag(V v) { MRT o; o.c0 = vec4(v.n, 1.0); o.c1 = vec4(1.0); return o; }",
    );
    no_errors(&facts);
    let pass = m.passes.keys().next().expect("pass");
    let io = facts.io.passes[pass].as_ref().expect("io");
    let struct_name = |s: Option<shaderlab_ir::StructId>| s.map(|s| m.name(m.structs[s].name).to_owned());
    assert_eq!(struct_name(io.attributes).as_deref(), Some("A"));
    assert_eq!(struct_name(io.varyings).as_deref(), Some("V"));
    assert_eq!(struct_name(io.mrt).as_deref(), Some("MRT"));
    assert!(matches!(io.output, FragmentOutput::Mrt(_)));
    let names = |set: &std::collections::BTreeSet<shaderlab_ir::Name>| -> Vec<String> {
        let mut v: Vec<String> = set.iter().map(|n| m.name(*n).to_owned()).collect();
        v.sort();
        v
    };
    // NORMAL is read through the helper that takes the attributes struct.
    assert_eq!(names(&io.attributes_read), ["NORMAL", "POSITION"]);
    assert_eq!(names(&io.varyings_written), ["n"]);
    assert_eq!(names(&io.varyings_read), ["n"]);
    assert!(io.vertex_builtins.contains("gl_Position"));
    // Callees before callers, the entry last.
    let order: Vec<&str> = facts.calls.vertex_order[pass].iter().map(|f| m.name(m.functions[*f].name)).collect();
    assert_eq!(order, ["shade", "helper", "vert"]);
}

#[test]
fn constants_fold_with_glsl_rules() {
    let (m, facts) = analyze(&format!(
        "{ENTRIES}
        const int N = 2 * 3 + 1;
        const int BIG = 2147483647 + 1;
        const vec3 V3 = vec3(1.0, 2.0, 3.0);
        const float Y = V3.y * 2.0;
        const uint U = 7u / 2u;
        float arr[N];"
    ));
    no_errors(&facts);
    let value = |name: &str| {
        let g = m.globals.values().find(|g| m.name(g.name) == name).expect(name);
        *facts.consts.values.get(Owner::Global, g.init.expect("init"))
    };
    assert_eq!(value("N"), Some(ConstValue::Scalar(Scalar::Int(7))));
    assert_eq!(value("BIG"), Some(ConstValue::Scalar(Scalar::Int(i32::MIN))), "32-bit wrap-around");
    assert_eq!(value("Y"), Some(ConstValue::Scalar(Scalar::Float(4.0))));
    assert_eq!(value("U"), Some(ConstValue::Scalar(Scalar::Uint(3))));
    let v3 = value("V3").expect("V3 is constant");
    let floats = [1.0, 2.0, 3.0].map(Scalar::Float);
    assert_eq!(facts.consts.components_of(&v3), Some(&floats[..]), "vector components in the pool");
    let arr = m.globals.iter().find(|(_, g)| m.name(g.name) == "arr").map(|(id, _)| id).expect("arr");
    assert_eq!(facts.typing.globals[arr], Some(Ty::array(Ty::FLOAT, shaderlab_passes::ArrayLen::Known(7))));
}

#[test]
fn constructors_fold_to_their_glsl_components() {
    let (m, facts) = analyze(&format!(
        "{ENTRIES}
        const vec3 SPLAT = vec3(2);
        const mat2x3 DIAGONAL = mat2x3(7.0);
        const ivec4 TRUNCATED = ivec4(vec4(-1.5, 2.7, -0.2, 9.9));
        const vec2 FROM_MATRIX = vec2(mat2(1.0, 2.0, 3.0, 4.0));
        const mat2 MIXED = mat2(vec3(6.0), 1.0);
        const uvec3 FROM_BOOL = uvec3(true);
        const mat4 IDENTITY_3 = mat4(3.0);
        const vec4 PAST_SIXTEEN = vec4(vec3(1.0), mat4(2.0));
        const mat2 PARTLY_USED = mat2(vec3(1.0, 2.0, 3.0), vec2(4.0, 5.0));
        const mat3 LAST_PARTLY_USED = mat3(vec4(1.0, 2.0, 3.0, 4.0), vec4(5.0, 6.0, 7.0, 8.0), vec2(9.0, 10.0));"
    ));
    no_errors(&facts);
    let components = |name: &str| -> Vec<Scalar> {
        let g = m.globals.values().find(|g| m.name(g.name) == name).expect(name);
        let v = facts.consts.values.get(Owner::Global, g.init.expect("init")).unwrap_or_else(|| panic!("{name}"));
        facts.consts.components_of(&v).unwrap_or_else(|| panic!("{name} has components")).to_vec()
    };
    let floats = |xs: &[f32]| xs.iter().map(|&x| Scalar::Float(x)).collect::<Vec<_>>();
    assert_eq!(components("SPLAT"), floats(&[2.0, 2.0, 2.0]), "an int splat converted to float");
    // Column-major: two columns of three rows, 7 on the diagonal.
    assert_eq!(components("DIAGONAL"), floats(&[7.0, 0.0, 0.0, 0.0, 7.0, 0.0]));
    assert_eq!(components("TRUNCATED"), [-1, 2, 0, 9].map(Scalar::Int), "float to int truncates toward zero");
    assert_eq!(components("FROM_MATRIX"), floats(&[1.0, 2.0]), "a matrix's first components, column-major");
    assert_eq!(components("MIXED"), floats(&[6.0, 6.0, 6.0, 1.0]));
    assert_eq!(components("FROM_BOOL"), [1, 1, 1].map(Scalar::Uint));
    let diagonal: Vec<f32> = (0..16).map(|i| if i % 5 == 0 { 3.0 } else { 0.0 }).collect();
    assert_eq!(components("IDENTITY_3"), floats(&diagonal));
    // 19 argument components (legal: the mat4 is partly used), more than the 16 a value can have.
    assert_eq!(components("PAST_SIXTEEN"), floats(&[1.0, 1.0, 1.0, 2.0]));
    // A matrix's last argument may be partly used too: columns (1, 2) and (3, 4), the 5 dropped.
    assert_eq!(components("PARTLY_USED"), floats(&[1.0, 2.0, 3.0, 4.0]));
    let nine: Vec<f32> = (1..=9).map(|i| i as f32).collect();
    assert_eq!(components("LAST_PARTLY_USED"), floats(&nine));
}

#[test]
fn an_int_size_of_2_pow_31_is_negative_for_typing_and_folding_alike() {
    let (m, facts) = analyze(&format!(
        "{ENTRIES}
        float a[2147483648];
        float b[2147483647 + 1];
        float c[2147483648u];
        void f() {{ float x = float[2147483648](1.0)[0]; }}"
    ));
    // The int literal's bit pattern is -2147483648 (and 2147483647 + 1 wraps to it): not a size, so typing leaves
    // the lengths unknown (no constructor count check against 2147483648 elements) and folding reports each size
    // once. The uint is a positive size for both.
    let clues: Vec<_> = facts.clues().map(|c| c.kind.code()).collect();
    assert_eq!(clues, ["NonConstArraySize"; 3]);
    let global = |name: &str| {
        let g = m.globals.iter().find(|(_, g)| m.name(g.name) == name).map(|(id, _)| id).expect(name);
        facts.typing.globals[g]
    };
    use shaderlab_passes::ArrayLen;
    assert_eq!(global("a"), Some(Ty::array(Ty::FLOAT, ArrayLen::Unknown)));
    assert_eq!(global("b"), Some(Ty::array(Ty::FLOAT, ArrayLen::Unknown)));
    assert_eq!(global("c"), Some(Ty::array(Ty::FLOAT, ArrayLen::Known(1 << 31))));
}

#[test]
fn constructor_with_too_many_components_folds_to_no_value() {
    let (m, facts) = analyze(&format!(
        "{ENTRIES}
        const mat4 TOO_MANY = mat4(vec4(1.0), vec4(1.0), vec4(1.0), vec4(1.0), vec4(1.0));"
    ));
    // 20 components for 16: the fifth argument is unused, a GLSL error, reported once; the value is not folded
    // (the components gathered for a mat4 hold 16 at most).
    let clues: Vec<_> = facts.clues().map(|c| c.kind.code()).collect();
    assert_eq!(clues, ["ConstructorArgCount"]);
    let g = m.globals.values().find(|g| m.name(g.name) == "TOO_MANY").expect("TOO_MANY");
    assert_eq!(*facts.consts.values.get(Owner::Global, g.init.expect("init")), None);
}

/// A context reads the conditions of at most 32 failed branches before its own: an `#elif` chain of N branches
/// does not cost N^2 facts and description text (8,000 branches took ~1 GB to check). A short chain's context
/// keeps every fact.
#[test]
fn a_long_elif_chain_reads_the_branches_right_before_each() {
    let n = 200;
    let mut glsl = String::from(ENTRIES);
    for i in 0..n {
        glsl.push_str(&if i == 0 { "\n#ifdef A0\n".to_string() } else { format!("\n#elif defined(A{i})\n") });
        glsl.push_str(&format!("float u{i};"));
    }
    glsl.push_str("\n#endif\n");
    let (m, facts) = analyze(&glsl);
    let ctx_of = |name: &str| {
        let (g, _) = m.globals.iter().find(|(_, x)| m.name(x.name) == name).expect("global");
        facts.resolution.global_ctx[g].clone().expect("a conditional context")
    };
    // Branch 5: the four before it failed, its own condition holds.
    let early = ctx_of("u5");
    assert_eq!(early.atoms.len(), 6);
    assert!(early.descriptions[0].starts_with("A0 is not defined and "), "{}", early.descriptions[0]);
    // The last branch: the 32 before it, not all 199.
    let last = ctx_of(&format!("u{}", n - 1));
    assert_eq!(last.atoms.len(), 33, "{:?}", last.atoms);
    let text = &last.descriptions[0];
    assert!(text.starts_with("the first 167 conditions of the chain are false and A167 is not defined"), "{text}");
    assert!(text.ends_with("A199 is defined"), "{text}");
    // Still exclusive with every other branch of the chain (they share the region).
    assert!(!last.compatible(&ctx_of("u0")) && !last.compatible(&early));
}
