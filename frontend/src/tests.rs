//! Unit tests of the whole frontend on small inputs: the GLSL dialect, conditional regions in the five
//! contexts, macros in both modes, and error recovery.

use crate::{parse, MapResolver, Options};
use shaderlab_ir::{Expr, GlobalItem, Guarded, Module, ParamKind, PassKind, StmtKind};

fn wrap(glsl: &str) -> String {
    format!(
        "Shader \"t\" {{ SubShader \"s\" {{ Pass \"p\" {{\n{glsl}\nVertexShader = vert; FragmentShader = frag; }} }} }}"
    )
}

fn module(glsl: &str) -> Module {
    parse("t.shader", &wrap(glsl), &MapResolver::new(), &Options::default())
}

fn variant(glsl: &str, defines: &[(&str, &str)]) -> Module {
    let defines: Vec<(String, String)> = defines.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
    let options = Options { defines: Some(&defines), ..Options::default() };
    parse("t.shader", &wrap(glsl), &MapResolver::new(), &options)
}

fn codes(m: &Module) -> Vec<&'static str> {
    m.clues.iter().map(|c| c.kind.code()).collect()
}

const ENTRIES: &str = "void vert() { gl_Position = vec4(0.0); }\nvoid frag() { gl_FragColor = vec4(1.0); }";

fn pass_items(m: &Module) -> &[Guarded<GlobalItem>] {
    let pass = m.passes.values().next().expect("one pass");
    let PassKind::Program { scope, .. } = pass.kind else { panic!("program pass") };
    &m.scopes[scope].items
}

#[test]
fn dialect_parses_without_errors() {
    let m = module(&format!(
        "{ENTRIES}
        precision highp float;
        const int N = 0x1F;
        uniform sampler2D u_tex;
        struct S {{ float a; vec2 b[2]; }} s1, s2;
        struct MRT {{ layout(location = 0) vec4 c0; layout(location = 1) vec4 c1; }};
        flat int ids[N];
        float g(float x);
        float g(float x) {{
            float a = 1.0, b[3];
            float[2] c = float[2](1.0, 2.0);
            int i = 0;
            do {{ i++; }} while (i < 3);
            switch (i) {{ case 0: a += 1.0; break; case 1: {{ a -= 1.0; }} default: a *= 2.0; }}
            for (int k = 0; k < 4; ++k) {{ if (k == 2) continue; a = a > 1.0 ? a : -a; }}
            a = (a, b[1]);
            i <<= 2u > 1u ? 1 : 0;
            vec3 v = vec3(1.0).xyz;
            S s = S(1.0, vec2[2](vec2(0.0), vec2(1.0)));
            return a + s.b.length() + float(i) + texture2D(u_tex, v.xy).x;
        }}"
    ));
    assert_eq!(codes(&m), Vec::<&str>::new());
    let functions: Vec<_> = m.functions.values().map(|f| m.name(f.name).to_owned()).collect();
    assert_eq!(functions, ["vert", "frag", "g", "g"]);
    assert!(m.functions.values().nth(2).is_some_and(|f| f.body.is_none()), "prototype has no body");
}

#[test]
fn every_syntax_error_is_reported_and_parsing_recovers() {
    let m = module(&format!("{ENTRIES}\nvoid f() {{ float x = ; float y = 1.0 +; x = 2.0; }}\nfloat ok = 1.0;"));
    assert_eq!(codes(&m), ["UnexpectedToken", "UnexpectedToken"]);
    // The global after the broken function still exists.
    assert!(m.globals.values().any(|g| m.name(g.name) == "ok"));
}

#[test]
fn conditionals_in_all_five_contexts() {
    let m = module(&format!(
        "{ENTRIES}
        #ifdef A
        float ga;
        #endif
        struct S {{
            float a;
        #if B == 2
            float b;
        #endif
        }};
        float f(float x
        #ifdef C
            , float y
        #endif
        ) {{
        #ifndef D
            x += 1.0;
        #else
            x -= 1.0;
        #endif
            return max(x,
        #ifdef E
            2.0
        #else
            3.0
        #endif
            );
        }}"
    ));
    assert_eq!(codes(&m), Vec::<&str>::new());
    let items = pass_items(&m);
    assert!(items.iter().any(|i| matches!(i, Guarded::Cond(_))), "global region");
    let s = m.structs.values().next().expect("struct");
    assert!(matches!(s.members.last(), Some(Guarded::Cond(_))), "member region");
    let f = m.functions.values().find(|f| m.name(f.name) == "f").expect("f");
    assert!(matches!(f.params.last(), Some(Guarded::Cond(_))), "parameter region");
    let body = f.body.as_ref().expect("body");
    assert!(matches!(body.stmts.first(), Some(Guarded::Cond(r)) if r.else_items.is_some()), "statement region");
    let call_has_region = f.exprs.values().any(|e| match &e.kind {
        Expr::Call { args, .. } => args.iter().any(|a| matches!(a, Guarded::Cond(_))),
        _ => false,
    });
    assert!(call_has_region, "argument region");
}

#[test]
fn variant_mode_evaluates_and_expands() {
    let glsl = format!(
        "{ENTRIES}
        #define SAT(a) clamp(a, 0.0, 1.0)
        #if LEVEL * 2 + 1 == 7
        float three;
        #else
        float other;
        #endif
        float f(float x) {{ return SAT(x); }}"
    );
    let m = variant(&glsl, &[("LEVEL", "3")]);
    assert_eq!(codes(&m), Vec::<&str>::new());
    let names: Vec<_> = m.globals.values().map(|g| m.name(g.name).to_owned()).collect();
    assert_eq!(names, ["three"]);
    let f = m.functions.values().find(|f| m.name(f.name) == "f").expect("f");
    assert!(f.exprs.values().any(|e| matches!(&e.kind, Expr::Call { callee, .. } if m.name(*callee) == "clamp")));
    assert!(!f.exprs.values().any(|e| matches!(e.kind, Expr::MacroRef { .. })));

    let m = module(&glsl);
    let f = m.functions.values().find(|f| m.name(f.name) == "f").expect("f");
    assert!(f.exprs.values().any(|e| matches!(&e.kind, Expr::MacroRef { args: Some(a), .. } if a.len() == 1)));
    assert!(m.macros.values().any(|d| m.name(d.name) == "SAT" && d.body_expr.is_some()));
}

#[test]
fn macro_parameter_declares_its_name() {
    let m = module(&format!(
        "{ENTRIES}
        #define TEX_PARAM(t) mediump sampler2D t
        float f(TEX_PARAM(shadowMap), vec2 uv) {{ return texture2D(shadowMap, uv).r; }}"
    ));
    assert_eq!(codes(&m), Vec::<&str>::new());
    let f = m.functions.values().find(|f| m.name(f.name) == "f").expect("f");
    let Some(Guarded::Item(p)) = f.params.first() else { panic!("param") };
    let ParamKind::Macro { declares: Some(local), .. } = p.kind else { panic!("macro param") };
    assert_eq!(m.name(f.locals[local].name), "shadowMap");
}

#[test]
fn macro_self_reference_terminates() {
    let m = variant(&format!("{ENTRIES}\n#define A A\n#define B C\n#define C B\nfloat f() {{ return A + B; }}"), &[]);
    let f = m.functions.values().find(|f| m.name(f.name) == "f").expect("f");
    assert!(f.exprs.values().any(|e| matches!(e.kind, Expr::Ident(n) if m.name(n) == "A")));
}

#[test]
fn include_guards_splice_once() {
    let mut chunks = MapResolver::new();
    chunks.insert("g.glsl", "#ifndef G_INCLUDED\n#define G_INCLUDED\nfloat fromG;\n#endif\n");
    chunks.insert("plain.glsl", "float fromPlain;\n");
    let src = wrap(&format!(
        "{ENTRIES}\n#include \"g.glsl\"\n#include \"g.glsl\"\n#include \"plain.glsl\"\n#include \"./plain.glsl\""
    ));
    let m = parse("t.shader", &src, &chunks, &Options::default());
    assert_eq!(codes(&m), ["DuplicateInclude"]);
    let count = |n: &str| m.globals.values().filter(|g| m.name(g.name) == n).count();
    assert_eq!((count("fromG"), count("fromPlain")), (1, 2));
    // The second inclusion of the guarded chunk is skipped before it is loaded: the source map holds the main file,
    // `g.glsl` once and `plain.glsl` twice (its second inclusion is spliced and reported).
    let names: Vec<&str> = m.sources.files.values().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["t.shader", "g.glsl", "plain.glsl", "plain.glsl"]);
}

/// A guarded chunk is skipped once every variant has read it: after an inclusion outside any conditional of the
/// whole include chain (not only of the including file), or after it was spliced again outside any. A chunk
/// spliced again keeps its guards (`Module::kept_guards`).
#[test]
fn guarded_chunks_are_skipped_once_every_variant_read_them() {
    let mut chunks = MapResolver::new();
    chunks.insert("g.glsl", "#ifndef G_INCLUDED\n#define G_INCLUDED\nfloat fromG;\n#endif\n");
    chunks.insert("w.glsl", "#include \"g.glsl\"\n");
    let cases: &[(&str, &[&str], &[&str])] = &[
        // Included unconditionally first: the re-inclusion is skipped, the guard flattened.
        ("#include \"g.glsl\"\n#include \"w.glsl\"", &["g.glsl", "w.glsl"], &[]),
        // `w.glsl` includes `g.glsl` outside a conditional of its own, but under `#ifdef A`: spliced again.
        (
            "#ifdef A\n#include \"w.glsl\"\n#endif\n#include \"g.glsl\"",
            &["w.glsl", "g.glsl", "g.glsl"],
            &["G_INCLUDED"],
        ),
        // Spliced again outside any conditional: every variant has read it, the third inclusion is skipped.
        (
            "#ifdef A\n#include \"g.glsl\"\n#endif\n#include \"g.glsl\"\n#include \"w.glsl\"",
            &["g.glsl", "g.glsl", "w.glsl"],
            &["G_INCLUDED"],
        ),
        // Its guard macro defined before: the guard is kept.
        ("#ifdef A\n#define G_INCLUDED\n#endif\n#include \"g.glsl\"", &["g.glsl"], &["G_INCLUDED"]),
    ];
    for (directives, read, kept) in cases {
        let src = wrap(&format!("{ENTRIES}\n{directives}"));
        let m = parse("t.shader", &src, &chunks, &Options::default());
        assert_eq!(codes(&m), Vec::<&str>::new(), "{directives}");
        let names: Vec<&str> = m.sources.files.values().skip(1).map(|f| f.name.as_str()).collect();
        assert_eq!(&names, read, "{directives}");
        let kept_guards: Vec<&str> = m.kept_guards.iter().map(|&n| m.name(n)).collect();
        assert_eq!(&kept_guards, kept, "{directives}");
    }
}

/// Preserving mode reports an invalid `#if` when it is invalid in every variant that reaches it: evaluated with
/// the definitions those variants share (outside any conditional, in a region still open, in a chunk's include
/// guard at its first inclusion), never through a short-circuit or an `#elif` that some variants skip.
#[test]
fn preserving_mode_reports_conditions_invalid_in_every_variant() {
    let mut chunks = MapResolver::new();
    chunks.insert("g.glsl", "#ifndef G_INCLUDED\n#define G_INCLUDED\n#define X ;3\n#endif\n");
    let cases: &[(&str, usize)] = &[
        ("#define X ;3\n#if X == 2\n#endif", 1),
        ("#define X ;3\n#if X == 2\n#elif X == 3\n#endif", 2),
        ("#define X ;3\n#if 0\n#elif X == 2\n#endif", 1),
        ("#define X ;3\n#ifdef A\n#elif X == 2\n#endif", 0),
        ("#define X ;3\n#if defined(A) && X == 2\n#endif", 0),
        ("#define X ;3\n#if defined(A) || X == 2\n#endif", 0),
        ("#define X ;3\n#if A + X == 2\n#endif", 1),
        ("#define X Y\n#define Y ;3\n#if X == 2\n#endif", 1),
        ("#define X Y\n#ifdef A\n#define Y ;3\n#endif\n#if X == 2\n#endif", 0),
        ("#define F(a) a\n#if F == 2\n#endif", 1),
        ("#define Z 0\n#if 1 / Z\n#endif", 1),
        ("#ifdef A\n#define X ;3\n#endif\n#if X == 2\n#endif", 0),
        ("#ifdef A\n#define X ;3\n#if X == 2\n#endif\n#endif", 1),
        ("#ifdef A\n#define X ;3\n#else\n#if X == 2\n#endif\n#endif", 0),
        ("#ifdef A\n#define X ;3\n#elif X == 2\n#endif", 0),
        ("#if 0\n#define X ;3\n#elif X == 2\n#endif", 0),
        ("#define X ;3\n#ifdef A\n#undef X\n#endif\n#if X == 2\n#endif", 0),
        ("#define X ;3\n#ifdef A\n#define X 1\n#endif\n#if X == 2\n#endif", 0),
        ("#define X ;3\n#ifdef A\n#define X 1\n#else\n#if X == 2\n#endif\n#endif", 0),
        ("#define X ;3\n#if GL_ES && X == 2\n#endif", 0),
        ("#include \"g.glsl\"\n#if X == 2\n#endif", 1),
        ("#ifdef A\n#include \"g.glsl\"\n#endif\n#include \"g.glsl\"\n#if X == 2\n#endif", 0),
        ("#ifdef A\n#define G_INCLUDED\n#endif\n#include \"g.glsl\"\n#if X == 2\n#endif", 0),
    ];
    for (glsl, reported) in cases {
        let m = parse("t.shader", &wrap(&format!("{ENTRIES}\n{glsl}")), &chunks, &Options::default());
        assert_eq!(codes(&m), vec!["InvalidMacroCondition"; *reported], "{glsl}");
    }
    // A variant leaves a condition testing a `GL_` name to the driver, also when what a short-circuit may skip is
    // invalid.
    let m = variant(&format!("{ENTRIES}\n#define X ;3\n#if GL_ES && X == 2\n#endif"), &[]);
    assert_eq!(codes(&m), Vec::<&str>::new());
    // A definition of the Shader level is in effect in every pass.
    let src = "Shader \"t\" {\n#define X ;3\nSubShader \"s\" { Pass \"p\" {\n#if X == 2\n#endif\n\
               {ENTRIES} VertexShader = vert; FragmentShader = frag; } } }"
        .replace("{ENTRIES}", ENTRIES);
    let m = parse("t.shader", &src, &MapResolver::new(), &Options::default());
    assert_eq!(codes(&m), ["InvalidMacroCondition"]);
}

#[test]
fn struct_names_make_declarations() {
    let m = module(&format!("{ENTRIES}\nstruct L {{ vec3 d; }};\nvoid f() {{ L l; L ls[2]; l.d = vec3(0.0); }}"));
    assert_eq!(codes(&m), Vec::<&str>::new());
    let f = m.functions.values().find(|f| m.name(f.name) == "f").expect("f");
    let body = f.body.as_ref().expect("body");
    let decls =
        body.stmts.iter().filter(|s| matches!(s, Guarded::Item(st) if matches!(st.kind, StmtKind::Declare(_)))).count();
    assert_eq!(decls, 2);
}

#[test]
fn render_states_merge_innermost_latest() {
    let src = "Shader \"t\" {
        Bool dw;
        DepthState = { WriteEnabled = dw; Enabled = true; }
        SubShader \"s\" {
            BlendState = { Enabled = true; SourceColorBlendFactor = BlendFactor.SourceAlpha; }
            Pass \"p\" {
                DepthState = { WriteEnabled = false; }
                BlendState b2 { Enabled[0] = false; BlendColor = Color(1.0, 0.5); }
                BlendState = b2;
                RenderQueueType = Transparent;
                void vert() { gl_Position = vec4(0.0); } void frag() { gl_FragColor = vec4(1.0); }
                VertexShader = vert; FragmentShader = frag;
            }
        }
    }";
    let m = parse("t.shader", src, &MapResolver::new(), &Options::default());
    assert_eq!(codes(&m), Vec::<&str>::new());
    let pass = m.passes.values().next().expect("pass");
    let keys: Vec<u8> = pass.render_state.entries.keys().copied().collect();
    assert_eq!(keys, [0, 3, 8, 10, 11, 28]);
    use shaderlab_ir::RenderStateValue as V;
    assert_eq!(pass.render_state.entries[&0].value, V::Bool(false));
    assert_eq!(pass.render_state.entries[&8].value, V::Color { r: 1.0, g: 0.5, b: 0.0, a: 1.0 });
    assert_eq!(pass.render_state.entries[&11].value, V::Bool(false));
    assert_eq!(pass.render_state.entries[&28].value, V::Enum(2));
}

/// Render-state variables and named states are names as the lexer reads them: one spelled with a line
/// continuation inside is the same name as the joined spelling (as any GLSL name is).
#[test]
fn render_state_names_are_read_as_the_lexer_joins_them() {
    let src = format!(
        "Shader \"t\" {{ SubShader \"s\" {{ Pass \"p\" {{
            Bool depth\\\nWrite;
            DepthState st\\\nate {{ WriteEnabled = depthWrite; }}
            DepthState = state;
            {ENTRIES}
            VertexShader = vert; FragmentShader = frag;
        }} }} }}"
    );
    let m = parse("t.shader", &src, &MapResolver::new(), &Options::default());
    assert_eq!(codes(&m), Vec::<&str>::new());
    let pass = m.passes.values().next().expect("pass");
    use shaderlab_ir::RenderStateValue as V;
    let value = &pass.render_state.entries[&11].value;
    assert!(matches!(value, V::Variable(name) if m.name(*name) == "depthWrite"), "{value:?}");
}

/// A named state is checked where it is declared; applying it again gives what checking it again would, also
/// when a variable it names is declared (or declared as another kind) between the declaration and the use.
#[test]
fn a_named_state_applies_as_checked_again_where_used() {
    let src = format!(
        "Shader \"t\" {{
        BlendState = {{ Enabled = true; }}
        BlendState fixed {{ SourceColorBlendFactor = BlendFactor.One; Enabled = maybe; }}
        DepthState later {{ WriteEnabled = dw; }}
        SubShader \"s\" {{ Bool maybe; Number dw; Pass \"p\" {{
            BlendState = fixed; DepthState = later;
            {ENTRIES}
            VertexShader = vert; FragmentShader = frag;
        }} }}
    }}"
    );
    let m = parse("t.shader", &src, &MapResolver::new(), &Options::default());
    // v2 rules (an inline application): `maybe` and `dw` are undeclared where the states are declared, and `dw`
    // is a Number where `later` is applied.
    let clues: Vec<(&str, u32)> = m.clues.iter().map(|c| (c.kind.code(), c.span.start)).collect();
    let at = |word: &str| src.find(word).expect("in the text") as u32;
    assert_eq!(
        clues,
        [
            ("UndeclaredRenderStateVariable", at("maybe;")),
            ("UndeclaredRenderStateVariable", at("dw;")),
            ("RenderStateTypeMismatch", at("dw;")),
        ]
    );
    let pass = m.passes.values().next().expect("pass");
    use shaderlab_ir::RenderStateValue as V;
    let entries = &pass.render_state.entries;
    assert_eq!(entries.keys().copied().collect::<Vec<u8>>(), [0, 3]);
    // `maybe` is a Bool where `fixed` is applied: checked again there, it sets the variable.
    assert!(matches!(entries[&0].value, V::Variable(name) if m.name(name) == "maybe"), "{:?}", entries[&0].value);
    assert_eq!(entries[&3].value, V::Enum(1));
}

/// The structure parser compares a statement's first word with the structure keywords only when it starts with an
/// ASCII capital (`StructParser::level_body`): every structure word must, or it would be read as GLSL.
#[test]
fn every_structure_word_starts_with_a_capital() {
    use crate::structure::{StateKind, RS_VAR_TYPES};
    let states = [StateKind::Blend, StateKind::Depth, StateKind::Stencil, StateKind::Raster].map(StateKind::keyword);
    // The words `StructParser::structural` dispatches on.
    let levels = [
        "Editor",
        "EditorProperties",
        "EditorMacros",
        "SubShader",
        "Pass",
        "UsePass",
        "Tags",
        "VertexShader",
        "FragmentShader",
        "RenderQueueType",
    ];
    for word in states.iter().chain(RS_VAR_TYPES).chain(levels.iter()) {
        assert!(word.as_bytes()[0].is_ascii_uppercase(), "structure word {word:?} does not start with a capital");
    }
}
