//! Hostile input: the compiler must never panic, overflow its stack or hang; pathological input becomes a
//! diagnostic.
//!
//! Every case runs on its own thread with a 2 MiB stack (what `std::thread::spawn` and the test harness give a
//! library user by default) under a watchdog: a case that does not finish within its time budget fails the test
//! instead of hanging the suite. A stack overflow aborts the whole test binary (it cannot be caught), so cases
//! known to overflow or hang are `#[ignore]`d with the bug described; run them with `cargo test --test hostile --
//! --ignored`.
//!
//! Corpus: `$SHADERLAB_CORPUS` or `<CARGO_MANIFEST_DIR>/../shared/corpus` (`shaders/`, `includes/dev2`,
//! `includes/v1.5`). Without it the corpus tests fall back to `examples/*.shader`, then to a built-in shader, and
//! say so loudly; with `CI=true` a missing corpus is a failure.

use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use shaderlab::fs_includes::FsIncludes;
use shaderlab::{analyze, compile, expand_macros, Analysis, IncludeResolver, Limits, MapResolver, Options, Target};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, OnceLock};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------------------------------

/// The stack a library user's thread gets by default (`std::thread::spawn`, the test harness).
const DEFAULT_STACK: usize = 2 * 1024 * 1024;

/// Generous: a debug build on a loaded 2-core CI machine (100k diagnostics take seconds there); a hang takes
/// forever, not a minute.
const WATCHDOG: Duration = Duration::from_secs(60);

/// Run `work` on a fresh thread with the default 2 MiB stack; fail if it panics or does not finish in `timeout`.
fn watchdog<T: Send + 'static>(what: &str, timeout: Duration, work: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::Builder::new()
        .name(format!("hostile: {what}"))
        .stack_size(DEFAULT_STACK)
        .spawn(move || {
            let _ = tx.send(work());
        })
        .expect("spawn a worker thread");
    match rx.recv_timeout(timeout) {
        Ok(value) => {
            let _ = handle.join();
            value
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            // The worker keeps running detached; the process ends with the test binary.
            panic!("HANG: '{what}' did not finish within {timeout:?}");
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => match handle.join() {
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "<non-string panic payload>".into());
                panic!("PANIC in '{what}': {msg}");
            }
            Ok(()) => panic!("'{what}': worker ended without a result"),
        },
    }
}

fn options(defines: Option<Vec<(String, String)>>) -> Options {
    Options { file_name: "hostile.shader".into(), defines, limits: Limits::default() }
}

fn preserving() -> Options {
    options(None)
}

fn variant(defines: &[&str]) -> Options {
    options(Some(defines.iter().map(|d| shaderlab::parse_define(d)).collect()))
}

/// A compact, comparable view of one diagnostic (for determinism checks and failure messages).
type DiagKey = (String, u32, u32, u32, String);

fn diag_keys(a: &Analysis) -> Vec<DiagKey> {
    a.diagnostics
        .iter()
        .map(|d| (d.code().to_owned(), d.span.file.as_u32(), d.span.start, d.span.end, d.message()))
        .collect()
}

/// Every span of every diagnostic (primary and notes) lies inside its file's text, on char boundaries. Returns a
/// description of the first violation.
fn span_violations(a: &Analysis) -> Option<String> {
    let sources = &a.module.sources;
    let check = |span: shaderlab::ir::Span, code: &str, role: &str| -> Option<String> {
        let Some(file) = sources.file(span.file) else {
            return Some(format!("{code}: {role} span {span:?} names a file that is not in the source map"));
        };
        let len = file.text.len() as u32;
        if span.start > span.end || span.end > len {
            return Some(format!(
                "{code}: {role} span {}..{} lies outside '{}' (length {len})",
                span.start, span.end, file.name
            ));
        }
        if !file.text.is_char_boundary(span.start as usize) || !file.text.is_char_boundary(span.end as usize) {
            return Some(format!(
                "{code}: {role} span {}..{} splits a UTF-8 character of '{}'",
                span.start, span.end, file.name
            ));
        }
        None
    };
    for d in &a.diagnostics {
        if let Some(v) = check(d.span, d.code(), "primary") {
            return Some(v);
        }
        for n in &d.notes {
            if let Some(s) = n.span {
                if let Some(v) = check(s, d.code(), "note") {
                    return Some(v);
                }
            }
        }
    }
    None
}

/// Rendering (what `shaderlab check` prints, human and `--json`) must not panic either.
fn render_all(a: &Analysis, human_limit: usize) {
    // The first ones are enough (a flood of 100k diagnostics takes seconds to render in a debug build).
    let some = &a.diagnostics[..a.diagnostics.len().min(1000)];
    let _ = shaderlab::validator::render_json(&a.module, "hostile.shader", some);
    let _ = shaderlab::validator::summary(&a.diagnostics);
    // Human rendering costs O(file size) per diagnostic (see `render_human_flood`): only for inputs of normal size.
    if a.module.sources.files.values().all(|f| f.text.len() < 64 * 1024) {
        let few = &a.diagnostics[..a.diagnostics.len().min(human_limit)];
        let mut out = codespan_reporting::term::termcolor::NoColor::new(Vec::new());
        shaderlab::validator::render_human(&a.module, few, &mut out).expect("render_human");
    }
}

fn render_human(a: &Analysis) -> String {
    use codespan_reporting::term::termcolor::NoColor;
    let mut out = NoColor::new(Vec::new());
    shaderlab::validator::render_human(&a.module, &a.diagnostics, &mut out).expect("render_human");
    String::from_utf8_lossy(&out.into_inner()).into_owned()
}

fn assert_spans_ok(a: &Analysis, ctx: &str) {
    if let Some(v) = span_violations(a) {
        panic!("{ctx}: {v}");
    }
}

/// What a hostile case reports back from its worker thread.
#[derive(Debug)]
struct Outcome {
    codes: Vec<String>,
    has_errors: bool,
    /// First span violation, if any.
    violation: Option<String>,
}

impl Outcome {
    fn count(&self, code: &str) -> usize {
        self.codes.iter().filter(|c| *c == code).count()
    }

    fn assert_has(&self, code: &str, ctx: &str) {
        assert!(self.count(code) > 0, "{ctx}: expected a {code} diagnostic, got {:?}", summarize(&self.codes));
    }

    fn assert_spans(&self, ctx: &str) {
        if let Some(v) = &self.violation {
            panic!("{ctx}: {v}");
        }
    }
}

fn summarize(codes: &[String]) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for c in codes {
        match out.iter_mut().find(|(k, _)| k == c) {
            Some((_, n)) => *n += 1,
            None => out.push((c.clone(), 1)),
        }
    }
    out
}

/// Analyze `source` (with `resolver`) on a 2 MiB thread under the watchdog; render the diagnostics too.
fn run_case(what: &str, source: String, resolver: MapResolver, opts: Options) -> Outcome {
    let name = what.to_owned();
    watchdog(what, WATCHDOG, move || {
        let what = name;
        let start = Instant::now();
        let a = analyze(&source, &resolver, &opts);
        let elapsed = start.elapsed();
        let violation = span_violations(&a);
        if violation.is_none() {
            render_all(&a, 100);
        }
        if std::env::var_os("HOSTILE_VERBOSE").is_some() {
            eprintln!("{what}: {elapsed:?}, {} diagnostics", a.diagnostics.len());
        }
        Outcome {
            codes: a.diagnostics.iter().map(|d| d.code().to_owned()).collect(),
            has_errors: a.has_errors(),
            violation,
        }
    })
}

fn run(what: &str, source: String, opts: Options) -> Outcome {
    run_case(what, source, MapResolver::new(), opts)
}

const MINIMAL: &str = r#"Shader "t" { SubShader "s" { Pass "p" { void vert() { gl_Position = vec4(0.0); } void frag() { gl_FragColor = vec4(1.0); } VertexShader = vert; FragmentShader = frag; } } }"#;

/// A valid shader whose pass has `globals` at the pass level and `body` inside `vert`.
fn shader_with(globals: &str, body: &str) -> String {
    format!(
        "Shader \"t\" {{ SubShader \"s\" {{ Pass \"p\" {{\n{globals}\nvoid vert() {{\n{body}\ngl_Position = vec4(0.0); }}\n\
         void frag() {{ gl_FragColor = vec4(1.0); }}\nVertexShader = vert; FragmentShader = frag; }} }} }}\n"
    )
}

const DEEP: usize = 100_000;

// ---------------------------------------------------------------------------------------------------------------
// Sanity: the harness itself
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn minimal_shader_is_clean() {
    let o = run("minimal", MINIMAL.into(), preserving());
    o.assert_spans("minimal");
    assert!(!o.has_errors, "the minimal shader must compile without errors: {:?}", o.codes);
    let o = run("minimal variant", MINIMAL.into(), variant(&[]));
    assert!(!o.has_errors, "the minimal shader must compile without errors in variant mode: {:?}", o.codes);
}

#[test]
fn watchdog_reports_a_hang() {
    let r = std::panic::catch_unwind(|| {
        watchdog("sleeper", Duration::from_millis(50), || std::thread::sleep(Duration::from_secs(2)))
    });
    assert!(r.is_err(), "the watchdog must fail a case that does not finish");
}

// ---------------------------------------------------------------------------------------------------------------
// Deep nesting (2 MiB stack)
// ---------------------------------------------------------------------------------------------------------------

fn assert_limited(what: &str, o: &Outcome) {
    o.assert_spans(what);
    assert!(o.has_errors, "{what}: expected an error, got none");
    assert!(
        o.count("LimitExceeded") > 0 || o.count("UnexpectedToken") > 0,
        "{what}: expected LimitExceeded (or a syntax error), got {:?}",
        summarize(&o.codes)
    );
}

#[test]
fn deep_parentheses() {
    let body = format!("float x = {}1.0{};", "(".repeat(DEEP), ")".repeat(DEEP));
    let o = run("100k parentheses", shader_with("", &body), preserving());
    assert_limited("100k parentheses", &o);
    o.assert_has("LimitExceeded", "100k parentheses");
}

#[test]
fn deep_braces() {
    let body = format!("{}{}", "{".repeat(DEEP), "}".repeat(DEEP));
    let o = run("100k braces", shader_with("", &body), preserving());
    assert_limited("100k braces", &o);
    o.assert_has("LimitExceeded", "100k braces");
}

#[test]
fn deep_unary_minus() {
    let body = format!("float x = {}1.0;", "- ".repeat(DEEP));
    let o = run("100k unary minus", shader_with("", &body), preserving());
    assert_limited("100k unary minus", &o);
    o.assert_has("LimitExceeded", "100k unary minus");
}

#[test]
fn deep_unary_not_and_complement() {
    let body = format!("bool x = {}true; int y = {}1;", "!".repeat(DEEP), "~".repeat(DEEP));
    let o = run("100k ! and ~", shader_with("", &body), preserving());
    assert_limited("100k ! and ~", &o);
    o.assert_has("LimitExceeded", "100k ! and ~");
}

#[test]
fn deep_index_chain() {
    let body = format!("float x = {}0{};", "a[".repeat(DEEP), "]".repeat(DEEP));
    let o = run("100k a[a[...]]", shader_with("float a[2];", &body), preserving());
    assert_limited("100k a[a[...]]", &o);
    o.assert_has("LimitExceeded", "100k a[a[...]]");
}

#[test]
fn deep_call_arguments() {
    let body = format!("float x = {}0.0{};", "f(".repeat(DEEP), ")".repeat(DEEP));
    let o = run("100k f(f(...))", shader_with("float f(float v) { return v; }", &body), preserving());
    assert_limited("100k f(f(...))", &o);
    o.assert_has("LimitExceeded", "100k f(f(...))");
}

#[test]
fn deep_constructor_arguments() {
    let body = format!("float x = {}0.0{};", "float(".repeat(DEEP), ")".repeat(DEEP));
    let o = run("100k float(float(...))", shader_with("", &body), preserving());
    assert_limited("100k float(float(...))", &o);
}

#[test]
fn deep_assignment_and_ternary_chains() {
    let assign = format!("x{};", " = x".repeat(DEEP));
    let o = run("100k a = a = ...", shader_with("float x;", &assign), preserving());
    assert_limited("100k a = a = ...", &o);
    let ternary = format!("float y = {}1.0{};", "b ? ".repeat(DEEP), " : 0.0".repeat(DEEP));
    let o = run("100k b ? b ? ...", shader_with("bool b;", &ternary), preserving());
    assert_limited("100k b ? b ? ...", &o);
    let ternary = format!("float y = {}1.0;", "b ? 0.0 : ".repeat(DEEP));
    let o = run("100k b ? x : b ? x : ...", shader_with("bool b;", &ternary), preserving());
    assert_limited("100k b ? x : b ? x : ...", &o);
}

#[test]
fn deep_statement_nesting() {
    let ifs = format!("{}x = 1.0;", "if (b) ".repeat(DEEP));
    let o = run("100k if (b) if (b) ...", shader_with("bool b; float x;", &ifs), preserving());
    assert_limited("100k if (b) if (b) ...", &o);
    let elses = format!("if (b) x = 1.0;{}", " else if (b) x = 1.0;".repeat(DEEP));
    let o = run("100k else if", shader_with("bool b; float x;", &elses), preserving());
    assert_limited("100k else if", &o);
    let loops = format!("{}x = 1.0;", "while (b) for (;;) do ".repeat(DEEP / 3));
    let o = run("deep loops", shader_with("bool b; float x;", &loops), preserving());
    assert_limited("deep loops", &o);
}

/// Long flat chains: the parser builds them with loops, but the tree is as deep as the chain for every later walk
/// (typing, drop), so chains count as nesting. (Regression tests: 1,000-term chains used to overflow.)
#[test]
fn long_binary_chain() {
    for n in [1_000, 2_000, DEEP] {
        let body = format!("float y = 1.0{};", " + 1.0".repeat(n));
        let what = format!("{n} terms 1.0 + 1.0 + ...");
        let o = run(&what, shader_with("", &body), preserving());
        o.assert_spans(&what);
        if n == DEEP {
            o.assert_has("LimitExceeded", &what);
        }
    }
    // Every binary operator level, and a chain built from a macro in variant mode.
    for op in ["*", "-", "/", "%", "<<", "<", "==", "&", "^", "|", "&&", "^^", "||"] {
        let body = format!("int y = 1{};", format!(" {op} 1").repeat(DEEP));
        let o = run(&format!("100k '{op}'"), shader_with("", &body), preserving());
        assert_limited(&format!("100k '{op}'"), &o);
    }
}

#[test]
fn long_postfix_chain() {
    let body = format!("vec4 v; float y = v{};", ".x".repeat(DEEP));
    let o = run("100k v.x.x...", shader_with("", &body), preserving());
    assert_limited("100k v.x.x...", &o);
    let body = format!("float a[2]; float y = a{};", "[0]".repeat(DEEP));
    let o = run("100k a[0][0]...", shader_with("", &body), preserving());
    assert_limited("100k a[0][0]...", &o);
    let body = format!("int i; i{};", "++".repeat(DEEP));
    let o = run("100k i++++...", shader_with("", &body), preserving());
    assert_limited("100k i++++...", &o);
}

#[test]
fn long_comma_sequence() {
    let body = format!("float x; x{};", ", x".repeat(DEEP));
    let o = run("100k x, x, ...", shader_with("", &body), preserving());
    assert_limited("100k x, x, ...", &o);
    o.assert_has("LimitExceeded", "100k x, x, ...");
    // Operator soup (1 MB) ends up as a long Sequence chain too.
    let o = run("1 MB of operators", shader_with("", &"+-*/%<<>>=!&|^~?:.,".repeat(1 << 16)), preserving());
    assert_limited("1 MB of operators", &o);
}

#[test]
fn deep_conditionals_preserving() {
    let source = shader_with(&format!("{}float g;\n{}", "#if 1\n".repeat(DEEP), "#endif\n".repeat(DEEP)), "");
    let o = run("100k nested #if 1 (preserving)", source, preserving());
    assert_limited("100k nested #if 1 (preserving)", &o);
    o.assert_has("LimitExceeded", "100k nested #if 1 (preserving)");
    // Variant mode keeps `GL_` conditions as regions: the same nesting reaches the parser.
    let source = shader_with(&format!("{}float g;\n{}", "#ifdef GL_ES\n".repeat(DEEP), "#endif\n".repeat(DEEP)), "");
    let o = run("100k nested #ifdef GL_ES (variant)", source, variant(&[]));
    assert_limited("100k nested #ifdef GL_ES (variant)", &o);
}

#[test]
fn deep_conditionals_variant() {
    // Evaluated away in variant mode: valid code, no region left for the parser.
    let source = shader_with(&format!("{}float g;\n{}", "#if 1\n".repeat(DEEP), "#endif\n".repeat(DEEP)), "");
    let o = run("100k nested #if 1 (variant)", source, variant(&[]));
    o.assert_spans("100k nested #if 1 (variant)");
    assert!(
        o.codes.iter().all(|c| c == "LimitExceeded"),
        "balanced '#if 1' nesting is valid in variant mode; only a limit may be reported: {:?}",
        summarize(&o.codes)
    );
    // Nested inside a function body, taken and not taken.
    let body = format!("float x;\n{}x = 1.0;\n{}", "#if 0\n#else\n".repeat(DEEP), "#endif\n".repeat(DEEP));
    let o = run("100k nested #if 0/#else in a body (variant)", shader_with("", &body), variant(&[]));
    o.assert_spans("100k nested #if 0/#else (variant)");
    assert!(o.codes.iter().all(|c| c == "LimitExceeded"), "{:?}", summarize(&o.codes));
}

#[test]
fn unterminated_conditionals() {
    let source = shader_with(&"#ifdef X\n".repeat(DEEP), "");
    let o = run("100k unterminated #ifdef (variant)", source, variant(&[]));
    o.assert_spans("100k unterminated #ifdef (variant)");
    o.assert_has("UnbalancedConditional", "100k unterminated #ifdef (variant)");
    let source = shader_with(&"#endif\n".repeat(DEEP), "");
    let o = run("100k stray #endif", source, preserving());
    o.assert_spans("100k stray #endif");
    o.assert_has("UnbalancedConditional", "100k stray #endif");
}

#[test]
fn deep_condition_expressions() {
    // Nesting inside one `#if` condition is limited by the condition parser.
    let cond = format!("#if {}1{}\nfloat g;\n#endif\n", "(".repeat(DEEP), ")".repeat(DEEP));
    for (mode, opts) in [("preserving", preserving()), ("variant", variant(&[]))] {
        let o = run(&format!("#if ((((...)))) {mode}"), shader_with(&cond, ""), opts);
        o.assert_spans(mode);
        o.assert_has("InvalidMacroCondition", mode);
    }
    let cond = format!("#if {}1\nfloat g;\n#endif\n", "!".repeat(DEEP));
    let o = run("#if !!!!...1", shader_with(&cond, ""), variant(&[]));
    o.assert_has("InvalidMacroCondition", "#if !!!!...1");
}

#[test]
fn long_condition_chain() {
    let cond = format!("#if 1{}\nfloat g;\n#endif\n", " + 1".repeat(DEEP));
    for (mode, opts) in [("preserving", preserving()), ("variant", variant(&[]))] {
        let o = run(&format!("#if 1 + 1 + ... {mode}"), shader_with(&cond, ""), opts);
        o.assert_spans(mode);
        // Preserving mode keeps the condition unevaluated; variant mode must reject the chain.
        if mode == "variant" {
            o.assert_has("InvalidMacroCondition", "#if 1 + 1 + ... variant");
        }
    }
}

fn limit_sizes() -> [usize; 6] {
    let max = Limits::default().max_nesting;
    [max / 2 - 1, max / 2, max / 2 + 1, max - 1, max, max + 1]
}

#[test]
fn braces_at_the_limit() {
    for n in limit_sizes() {
        let body = format!("{}{}", "{".repeat(n), "}".repeat(n));
        for (mode, opts) in [("preserving", preserving()), ("variant", variant(&[]))] {
            let o = run(&format!("braces x{n} {mode}"), shader_with("", &body), opts);
            o.assert_spans(&format!("braces x{n}"));
        }
    }
}

/// Nesting right at the limit is accepted by the parser, so every later walk (the passes, the backends) must handle
/// it on a 2 MiB stack too.
#[test]
fn nesting_at_the_limit() {
    for n in limit_sizes() {
        let cases = [
            ("parentheses", format!("float x = {}1.0{};", "(".repeat(n), ")".repeat(n))),
            ("unary minus", format!("float x = {}1.0;", "- ".repeat(n))),
            ("if", format!("float x; {}x = 1.0;", "if (x > 0.0) ".repeat(n))),
            ("index", format!("float a[2]; float x = {}0{};", "a[".repeat(n), "]".repeat(n))),
            ("calls", format!("float x = {}1.0{};", "abs(".repeat(n), ")".repeat(n))),
            ("ternary", format!("bool b; float x = {}1.0{};", "b ? ".repeat(n), " : 0.0".repeat(n))),
            ("constructors", format!("vec4 v = {}1.0{};", "vec4(".repeat(n), ")".repeat(n))),
        ];
        for (what, body) in cases {
            let what = format!("{what} x{n}");
            for (mode, opts) in [("preserving", preserving()), ("variant", variant(&[]))] {
                let o = run(&format!("{what} {mode}"), shader_with("", &body), opts);
                o.assert_spans(&what);
            }
        }
    }
}

#[test]
fn huge_flat_lists() {
    let args = vec!["1.0"; DEEP].join(", ");
    let body = format!("vec4 v = vec4({args});\nmat4 m = mat4({args});");
    let o = run("vec4 and mat4 with 100k arguments", shader_with("", &body), preserving());
    o.assert_spans("vec4 and mat4 with 100k arguments");
    assert!(o.has_errors, "too many constructor arguments is an error");
    assert_eq!(o.count("ConstructorArgCount"), 2, "one per constructor: {:?}", summarize(&o.codes));
    let o = run("call with 100k arguments", shader_with("", &format!("float v = abs({args});")), preserving());
    o.assert_spans("call with 100k arguments");
    assert!(o.has_errors, "abs takes one argument");
    let params: Vec<String> = (0..DEEP / 10).map(|i| format!("float p{i}")).collect();
    let source = shader_with(&format!("float f({}) {{ return p0; }}", params.join(", ")), "");
    let o = run("function with 10k parameters", source, preserving());
    o.assert_spans("function with 10k parameters");
    let swizzle = "x".repeat(DEEP);
    let o = run("100k-letter swizzle", shader_with("", &format!("vec4 v; float f = v.{swizzle};")), preserving());
    o.assert_spans("100k-letter swizzle");
    assert!(o.has_errors, "a swizzle longer than 4 is an error");
    let decls: String = (0..DEEP / 10).map(|i| format!("float g{i};\n")).collect();
    let o = run("10k globals", shader_with(&decls, ""), preserving());
    o.assert_spans("10k globals");
    let locals: String = (0..DEEP / 10).map(|i| format!("float l{i} = {i}.0;\n")).collect();
    let o = run("10k locals", shader_with("", &locals), variant(&[]));
    o.assert_spans("10k locals");
    let functions: String = (0..DEEP / 10).map(|i| format!("float f{i}() {{ return {i}.0; }}\n")).collect();
    let o = run("10k functions", shader_with(&functions, ""), preserving());
    o.assert_spans("10k functions");
    let structs: String = (0..DEEP / 10).map(|i| format!("struct S{i} {{ float m; }};\n")).collect();
    let o = run("10k structs", shader_with(&structs, ""), preserving());
    o.assert_spans("10k structs");
}

/// Cycles the semantic passes could chase forever: recursive types, constants and calls.
#[test]
fn semantic_cycles_terminate() {
    let cases = [
        ("self-containing struct", "struct S { S s; };", "S v;"),
        ("mutually containing structs", "struct A { B b; }; struct B { A a; };", "A v;"),
        ("struct of own array", "struct S { S s[2]; };", ""),
        ("self-referencing constant", "const int N = N;", "float a[N];"),
        ("mutual constants", "const int A = B; const int B = A;", "float a[A];"),
        ("constant from its own array", "const int N = int(float[N](1.0).length());", ""),
        ("array size from itself", "float a[a.length()];", ""),
        ("recursive function", "float f(float x) { return f(x); }", "float y = f(1.0);"),
        (
            "mutually recursive functions",
            "float g(float x); float f(float x) { return g(x); } float g(float x) { return f(x); }",
            "float y = f(1.0);",
        ),
        (
            "recursion through the entry",
            "void helper(); void frag2() { helper(); } void helper() { frag2(); }",
            "helper();",
        ),
        ("variable of own type name", "struct T { float m; }; T T;", "T.m = 1.0;"),
        ("function named like a type", "float vec4(float x) { return x; }", "float y = vec4(1.0);"),
        ("parameter shadowing its type", "struct P { float m; }; float f(P P) { return P.m; }", ""),
    ];
    for (what, globals, body) in cases {
        for (mode, opts) in [("preserving", preserving()), ("variant", variant(&[]))] {
            let o = run(&format!("{what} {mode}"), shader_with(globals, body), opts);
            o.assert_spans(what);
        }
    }
}

/// Constant folding must not overflow (a debug build panics on integer overflow).
#[test]
fn constant_folding_edge_cases() {
    let exprs = [
        "2147483647 + 1",
        "-2147483647 - 2",
        "2147483647 * 2147483647",
        "(-2147483647 - 1) / -1",
        "(-2147483647 - 1) % -1",
        "-(-2147483647 - 1)",
        "1 / 0",
        "1 % 0",
        "1 << 40",
        "1 << -1",
        "-1 >> 40",
        "4294967295u + 1u",
        "0u - 1u",
        "int(1e30)",
        "int(-1e30)",
        "uint(-1.0)",
        "int(0.0 / 0.0)",
        "0xffffffff",
        "0x1ffffffff",
        "99999999999999999999",
        "~0 * ~0",
        "ivec2(2147483647) + ivec2(1)",
        "ivec2(-2147483647 - 1) / ivec2(-1)",
    ];
    for e in exprs {
        let globals = format!("const int C = int({e}); float a[C > 0 && C < 8 ? C : 1];");
        let body = format!("int v = int({e}); const int k = int({e}); float b[k > 0 && k < 8 ? k : 1];");
        for (mode, opts) in [("preserving", preserving()), ("variant", variant(&[]))] {
            let o = run(&format!("{e} {mode}"), shader_with(&globals, &body), opts);
            o.assert_spans(e);
        }
        // The preprocessor's own integer arithmetic.
        let pp = format!("#if {e}\nfloat g;\n#endif\n");
        let o = run(&format!("#if {e}"), shader_with(&pp, ""), variant(&[]));
        o.assert_spans(e);
    }
    let sizes = ["0", "-1", "2147483647", "4294967295u", "1.5", "true"];
    for size in sizes {
        let o = run(
            &format!("array size {size}"),
            shader_with(&format!("float a[{size}];"), &format!("float b[{size}];")),
            preserving(),
        );
        o.assert_spans(size);
    }
}

/// (Regression test: a negative constant index into a constant matrix used to overflow in the constant folder.)
#[test]
fn constant_matrix_negative_index() {
    for e in ["mat4(0.0)[-1]", "mat2(1.0)[-1][0]", "mat3(1.0)[-2147483647 - 1]", "mat2x3(1.0)[-2]"] {
        let o = run(e, shader_with("", &format!("vec4 y = vec4({e}[0]);")), preserving());
        o.assert_spans(e);
        o.assert_has("IndexOutOfBounds", e);
    }
}

/// One diagnostic per statement, 20k times: the error paths must stay cheap (linear).
#[test]
fn diagnostic_floods_are_fast() {
    let n = DEEP / 5;
    let o = run("20k undeclared identifiers", shader_with("", &"float q = nope;\n".repeat(n)), preserving());
    o.assert_spans("20k undeclared identifiers");
    o.assert_has("UndeclaredIdentifier", "20k undeclared identifiers");
    let o = run("100k syntax errors", shader_with("", &"float = ;\n".repeat(DEEP)), preserving());
    o.assert_spans("100k syntax errors");
    o.assert_has("UnexpectedToken", "100k syntax errors");
}

/// 20k prototypes, each called once before its definition: the call graph finds each prototype's definition once,
/// among the definitions of its name (it used to scan every function per call: 20k x 40k steps; a few seconds in a
/// debug build, so only a hang fails here, through the watchdog).
#[test]
fn prototype_flood() {
    let n = DEEP / 5;
    let prototypes: String = (0..n).map(|i| format!("float p{i}(float x);\n")).collect();
    let calls: String = (0..n).map(|i| format!("s = p{i}(s);\n")).collect();
    let definitions: String = (0..n).map(|i| format!("float p{i}(float x) {{ return x; }}\n")).collect();
    let globals = format!("{prototypes}float callAll(float s) {{\n{calls}return s;\n}}\n{definitions}");
    let o = run("20k prototypes called before their definitions", shader_with(&globals, ""), preserving());
    o.assert_spans("20k prototypes");
    assert!(!o.has_errors, "20k prototypes: {:?}", summarize(&o.codes));
}

/// One uniform declared under 1,000 and 4,000 conditions of its own, then unconditionally: each variant declares
/// it once (a guard per declaration), and the output grows linearly (a guard made of the negations of the earlier
/// conditions would grow with their number: past a few declarations it tests a marker macro instead). The writer
/// no longer compares each declaration with the earlier ones (`backends` counts that work), nor does name
/// resolution since session 11 (`passes` counts its context comparisons).
#[test]
fn uniform_declared_under_many_conditions() {
    let output = |n: usize| {
        let decls: String = (0..n).map(|i| format!("#ifdef A{i}\nfloat u;\n#endif\n")).collect();
        let source = shader_with(&format!("{decls}float u;\nfloat w() {{ return u; }}\n"), "float x = w();");
        watchdog(&format!("uniform under {n} conditions"), WATCHDOG, move || {
            let compiled = compile(&source, &MapResolver::new(), &preserving(), Target::Gles300)
                .unwrap_or_else(|e| panic!("refused: {:?}", e.iter().map(|d| d.message()).collect::<Vec<_>>()));
            let vertex = compiled.passes.first().and_then(|p| p.sources.as_ref()).map(|s| s.vertex.clone());
            vertex.expect("a program pass")
        })
    };
    let (small, large) = (output(1000), output(4000));
    for macros in [&[][..], &["A0"], &["A1", "A3999"], &["A7", "A8", "A9"]] {
        let set: Vec<(String, String)> = macros.iter().map(|m| (m.to_string(), String::new())).collect();
        let declared = expand_macros(&large, &set).text.matches("uniform float u").count();
        assert_eq!(declared, 1, "variant {macros:?} declares u {declared} times");
    }
    assert!(large.len() <= 5 * small.len(), "{} bytes for 1,000 declarations, {} for 4,000", small.len(), large.len());
}

/// (Regression test: each UndefinedFunction used to cost ~0.7 ms in debug builds for its spelling suggestions.)
#[test]
fn undefined_function_flood() {
    let o = run("100k undefined function calls", shader_with("", &"nope(1.0);\n".repeat(DEEP)), preserving());
    o.assert_spans("100k undefined function calls");
    o.assert_has("UndefinedFunction", "100k undefined function calls");
}

// ---------------------------------------------------------------------------------------------------------------
// Macros
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn macro_self_reference_terminates() {
    let source = shader_with("#define A A\n", "float y = A;");
    let o = run("#define A A", source, variant(&[]));
    o.assert_spans("#define A A");
    assert_eq!(o.count("LimitExceeded"), 0, "self-reference stops by the no-re-expansion rule, not by a limit");
    let source = shader_with("#define A B\n#define B A\n", "float y = A + B;");
    let o = run("#define A B / B A", source, variant(&[]));
    o.assert_spans("#define A B / B A");
    assert_eq!(o.count("LimitExceeded"), 0);
    let source = shader_with("#define F(x) F(x) + G(x)\n#define G(x) F(x)\n", "float y = F(1.0);");
    let o = run("recursive function-like macros", source, variant(&[]));
    o.assert_spans("recursive function-like macros");
    // The same sources in preserving mode (macro uses are kept, not expanded).
    let source = shader_with("#define A B\n#define B A\n", "float y = A + B;");
    let o = run("#define A B / B A preserving", source, preserving());
    o.assert_spans("#define A B / B A preserving");
}

#[test]
fn macro_cycle_in_condition_terminates() {
    let source = shader_with("#define A B\n#define B A\n#if A\nfloat g;\n#endif\n", "");
    let o = run("#if A with A <-> B", source, variant(&[]));
    o.assert_spans("#if A with A <-> B");
    o.assert_has("InvalidMacroCondition", "#if A with A <-> B");
}

#[test]
fn exponential_macro_growth_is_limited() {
    let mut defs = String::from("#define A0 x x\n");
    for i in 1..=40 {
        defs.push_str(&format!("#define A{i} A{p} A{p}\n", p = i - 1));
    }
    let source = shader_with(&format!("float x;\n{defs}"), "float y = A40;");
    let o = run("A40 = 2^41 tokens", source, variant(&[]));
    o.assert_spans("A40");
    o.assert_has("LimitExceeded", "A40");
    assert!(o.codes.len() < 1000, "one limit should not become a flood of {} diagnostics", o.codes.len());

    // Function-like: each level doubles its argument.
    let mut defs = String::from("#define F0(v) v v\n");
    for i in 1..=40 {
        defs.push_str(&format!("#define F{i}(v) F{p}(F{p}(v))\n", p = i - 1));
    }
    let source = shader_with(&format!("float x;\n{defs}"), "float y = F40(x);");
    let o = run("F40(x)", source, variant(&[]));
    o.assert_spans("F40");
    o.assert_has("LimitExceeded", "F40");

    // Growth through the command line (`-D`).
    let defines: Vec<String> =
        std::iter::once("B0=x x".to_owned()).chain((1..=40).map(|i| format!("B{i}=B{p} B{p}", p = i - 1))).collect();
    let defines: Vec<&str> = defines.iter().map(String::as_str).collect();
    let o = run("-D B40", shader_with("float x;", "float y = B40;"), variant(&defines));
    o.assert_spans("-D B40");
    o.assert_has("LimitExceeded", "-D B40");
}

#[test]
fn deep_macro_chain_is_limited() {
    // A1 -> A2 -> ... -> A100000: nested expansion depth.
    let mut defs = String::new();
    for i in 0..DEEP {
        defs.push_str(&format!("#define M{i} M{}\n", i + 1));
    }
    let source = shader_with(&format!("float M{DEEP};\n{defs}"), "float y = M0;");
    let o = run("100k-deep macro chain", source, variant(&[]));
    o.assert_spans("100k-deep macro chain");
    o.assert_has("LimitExceeded", "100k-deep macro chain");
}

#[test]
fn deep_nested_macro_arguments() {
    // (Regression test: argument expansion used to recurse without a bound.) 25k levels: each level the limit
    // lets through copies the rest of the arguments, which is slow in debug builds.
    let n = DEEP / 4;
    let source = shader_with("#define F(v) v\nfloat x;\n", &format!("float y = {}x{};", "F(".repeat(n), ")".repeat(n)));
    let o = run("F(F(F(...))) variant", source, variant(&[]));
    o.assert_spans("F(F(F(...))) variant");
    o.assert_has("LimitExceeded", "F(F(F(...))) variant");
}

#[test]
fn deep_nested_macro_arguments_preserving() {
    let source =
        shader_with("#define F(v) v\nfloat x;\n", &format!("float y = {}x{};", "F(".repeat(DEEP), ")".repeat(DEEP)));
    let o = run("F(F(F(...))) preserving", source, preserving());
    assert_limited("F(F(F(...))) preserving", &o);
}

#[test]
fn huge_macro_argument_counts() {
    let args = vec!["x"; DEEP].join(", ");
    let source = shader_with("#define F(v) v\nfloat x;\n", &format!("float y = F({args});"));
    for (mode, opts) in [("preserving", preserving()), ("variant", variant(&[]))] {
        let o = run(&format!("F with 100k arguments {mode}"), source.clone(), opts);
        o.assert_spans(mode);
        o.assert_has("MacroArgCount", mode);
    }
    let source = shader_with("#define F(v) v\n", "float y = F(1.0");
    let o = run("unclosed macro call", source, variant(&[]));
    o.assert_spans("unclosed macro call");
    assert!(o.has_errors);
}

// ---------------------------------------------------------------------------------------------------------------
// Includes
// ---------------------------------------------------------------------------------------------------------------

fn map(entries: &[(&str, &str)]) -> MapResolver {
    let mut m = MapResolver::new();
    for (k, v) in entries {
        m.insert(*k, *v);
    }
    m
}

#[test]
fn include_cycle() {
    let resolver =
        map(&[("a.glsl", "#include \"b.glsl\"\nfloat fa;\n"), ("b.glsl", "#include \"a.glsl\"\nfloat fb;\n")]);
    for (mode, opts) in [("preserving", preserving()), ("variant", variant(&[]))] {
        let o = run_case(mode, shader_with("#include \"a.glsl\"", ""), resolver.clone(), opts);
        o.assert_spans(mode);
        o.assert_has("IncludeCycle", mode);
    }
}

#[test]
fn include_self() {
    let resolver =
        map(&[("self.glsl", "#include \"self.glsl\"\nfloat f;\n"), ("dir/x.glsl", "#include \"./x.glsl\"\n")]);
    let o = run_case("self include", shader_with("#include \"self.glsl\"", ""), resolver.clone(), preserving());
    o.assert_spans("self include");
    o.assert_has("IncludeCycle", "self include");
    let o = run_case("self include via ./", shader_with("#include \"dir/x.glsl\"", ""), resolver, preserving());
    o.assert_has("IncludeCycle", "self include via ./");
}

#[test]
fn include_depth_is_limited() {
    // c0 -> c1 -> ... -> c999: a chain, no cycle.
    let mut resolver = MapResolver::new();
    for i in 0..1000 {
        resolver.insert(format!("c{i}.glsl"), format!("#include \"c{}.glsl\"\n", i + 1));
    }
    let o = run_case("1000-deep include chain", shader_with("#include \"c0.glsl\"", ""), resolver, preserving());
    o.assert_spans("include chain");
    o.assert_has("LimitExceeded", "include chain");
}

#[test]
fn include_fan_out_terminates() {
    // Each chunk includes the next one twice: 2^30 inclusions unless the total is bounded.
    // (Regression test: this used to run forever.)
    let mut resolver = MapResolver::new();
    for i in 0..30 {
        resolver.insert(format!("f{i}.glsl"), format!("#include \"f{n}.glsl\"\n#include \"f{n}.glsl\"\n", n = i + 1));
    }
    resolver.insert("f30.glsl", "float leaf;\n");
    for (mode, opts) in [("preserving", preserving()), ("variant", variant(&[]))] {
        let o = run_case(
            &format!("include fan-out {mode}"),
            shader_with("#include \"f0.glsl\"", ""),
            resolver.clone(),
            opts,
        );
        o.assert_spans("include fan-out");
        o.assert_has("LimitExceeded", "include fan-out");
    }
    // Include guards make the repetition free: no error, and no limit reached.
    let mut resolver = MapResolver::new();
    for i in 0..30 {
        resolver.insert(
            format!("g{i}.glsl"),
            format!("#ifndef G{i}\n#define G{i}\n#include \"g{n}.glsl\"\n#include \"g{n}.glsl\"\n#endif\n", n = i + 1),
        );
    }
    resolver.insert("g30.glsl", "#ifndef G30\n#define G30\nfloat leaf;\n#endif\n");
    let o = run_case("guarded fan-out", shader_with("#include \"g0.glsl\"", ""), resolver, preserving());
    o.assert_spans("guarded fan-out");
    assert!(!o.has_errors, "guarded includes are fine: {:?}", summarize(&o.codes));
}

/// A resolver that answers every key with secret content and records what it was asked.
struct Spy {
    asked: RefCell<Vec<String>>,
}

impl IncludeResolver for Spy {
    fn load(&self, key: &str) -> Option<String> {
        self.asked.borrow_mut().push(key.to_owned());
        Some("float SECRET_CONTENT;\n".into())
    }
}

#[test]
fn include_keys_cannot_escape() {
    let keys = [
        "../../etc/passwd",
        "/etc/passwd",
        "..",
        "../x.glsl",
        "./../x.glsl",
        "a/../../x.glsl",
        "\\\\server\\share\\x.glsl",
        "C:/Windows/win.ini",
        "C:\\Windows\\win.ini",
        "",
    ];
    for key in keys {
        let source = shader_with(&format!("#include \"{}\"", key.replace('\\', "\\\\")), "");
        let (codes, asked, leaked, violation) = watchdog(key, WATCHDOG, move || {
            let spy = Spy { asked: RefCell::new(Vec::new()) };
            let a = analyze(&source, &spy, &preserving());
            let leaked = a.module.sources.files.values().any(|f| f.text.contains("SECRET_CONTENT"));
            let codes: Vec<String> = a.diagnostics.iter().map(|d| d.code().to_owned()).collect();
            (codes, spy.asked.into_inner(), leaked, span_violations(&a))
        });
        assert!(violation.is_none(), "{key}: {violation:?}");
        assert!(asked.is_empty(), "include key {key:?} reached the resolver as {asked:?}");
        assert!(!leaked, "include key {key:?} brought content in");
        assert!(codes.iter().any(|c| c == "IncludeNotFound"), "{key:?}: expected IncludeNotFound, got {codes:?}");
    }
    // The lexer may or may not unescape: `"\x2e\x2e/x"` must not escape either way.
    let o = run_case("escaped dots", shader_with("#include \"\\x2e\\x2e/x\"", ""), MapResolver::new(), preserving());
    o.assert_spans("escaped dots");
    // Positive control: the same resolver is asked for a plain key.
    let (asked, leaked) = watchdog("plain key", WATCHDOG, || {
        let spy = Spy { asked: RefCell::new(Vec::new()) };
        let a = analyze(&shader_with("#include \"dir/./ok.glsl\"", ""), &spy, &preserving());
        let leaked = a.module.sources.files.values().any(|f| f.text.contains("SECRET_CONTENT"));
        (spy.asked.into_inner(), leaked)
    });
    assert_eq!(asked, vec!["dir/ok.glsl".to_owned()]);
    assert!(leaked);
}

#[test]
fn include_passwd_is_not_found_with_a_real_folder() {
    let o = run_case(
        "passwd",
        shader_with("#include \"../../etc/passwd\"\n#include \"/etc/passwd\"", ""),
        MapResolver::new(),
        preserving(),
    );
    assert_eq!(o.count("IncludeNotFound"), 2, "{:?}", o.codes);
}

/// A unique temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let path = std::env::temp_dir().join(format!("shaderlab-hostile-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(unix)]
#[test]
fn fs_includes_stay_inside_their_roots() {
    use std::fs;
    use std::os::unix::fs::symlink;
    let tmp = TempDir::new("fs");
    let base = tmp.0.clone();
    let root = base.join("root");
    let inc = root.join("inc");
    let main_dir = root.join("main");
    let outside = base.join("outside");
    for d in [&inc.join("sub"), &main_dir.join("sub"), &outside] {
        fs::create_dir_all(d).unwrap();
    }
    const SECRET: &str = "float OUTSIDE_SECRET;\n";
    fs::write(outside.join("secret.glsl"), SECRET).unwrap();
    fs::write(base.join("secret.glsl"), SECRET).unwrap();
    fs::write(root.join("secret.glsl"), SECRET).unwrap(); // inside `root`, but outside the include root `inc`
    fs::write(inc.join("ok.glsl"), "float inside_ok;\n").unwrap();
    fs::write(inc.join("sub/deep.glsl"), "float inside_deep;\n").unwrap();
    fs::write(main_dir.join("local.glsl"), "float main_local;\n").unwrap();
    // Links inside the roots that point out of them (absolute and relative targets, a file and a folder).
    symlink(outside.join("secret.glsl"), inc.join("abs_link.glsl")).unwrap();
    symlink("../../outside/secret.glsl", inc.join("rel_link.glsl")).unwrap();
    symlink(&outside, inc.join("dir_link")).unwrap();
    symlink(&outside, inc.join("sub/up_link")).unwrap();
    symlink(outside.join("secret.glsl"), main_dir.join("main_link.glsl")).unwrap();
    symlink(&outside, main_dir.join("main_dir_link")).unwrap();
    // A link that stays inside is fine.
    symlink(inc.join("ok.glsl"), inc.join("inner_link.glsl")).unwrap();
    let main_file = main_dir.join("main.shader");
    fs::write(&main_file, MINIMAL).unwrap();

    let resolver = FsIncludes::new(std::slice::from_ref(&inc), Some(&main_file)).expect("FsIncludes::new");
    for key in resolver.keys() {
        assert!(!key.contains("link") || key == "inner_link.glsl", "a link leaving its root is registered: {key}");
    }
    // Direct calls (a library user may call the resolver with any key, normalized or not).
    let abs_secret = outside.join("secret.glsl").to_string_lossy().into_owned();
    let hostile = [
        "abs_link.glsl",
        "rel_link.glsl",
        "dir_link/secret.glsl",
        "sub/up_link/secret.glsl",
        "secret.glsl",
        "../secret.glsl",
        "../../secret.glsl",
        "../../outside/secret.glsl",
        "../inc/../../outside/secret.glsl",
        "./../../outside/secret.glsl",
        "sub/../../../outside/secret.glsl",
        "main_link.glsl",
        "main_dir_link/secret.glsl",
        "./main_dir_link/secret.glsl",
        abs_secret.as_str(),
        "/etc/passwd",
        "../../../../../../../../etc/passwd",
    ];
    for key in hostile {
        if let Some(text) = resolver.load(key) {
            panic!("FsIncludes::load({key:?}) returned content from outside its roots: {text:?}");
        }
    }
    assert_eq!(resolver.load("ok.glsl").as_deref(), Some("float inside_ok;\n"));
    assert_eq!(resolver.load("sub/deep.glsl").as_deref(), Some("float inside_deep;\n"));
    assert_eq!(resolver.load("deep.glsl").as_deref(), Some("float inside_deep;\n"), "bare file name key");
    assert_eq!(resolver.load("inner_link.glsl").as_deref(), Some("float inside_ok;\n"));
    assert_eq!(resolver.load("local.glsl").as_deref(), Some("float main_local;\n"), "main file folder");

    // Through the compiler: `./` keys from the main file climbing with `..`.
    let includes = [
        "./../../outside/secret.glsl",
        "./sub/../../../outside/secret.glsl",
        "./../secret.glsl",
        "./main_link.glsl",
        "./main_dir_link/secret.glsl",
        "../root/secret.glsl",
        "abs_link.glsl",
        "dir_link/secret.glsl",
    ];
    let directives: String = includes.iter().map(|k| format!("#include \"{k}\"\n")).collect();
    let source = shader_with(&format!("{directives}#include \"ok.glsl\"\n#include \"./local.glsl\"\n"), "");
    let a = analyze(&source, &resolver, &preserving());
    assert_spans_ok(&a, "fs includes");
    for f in a.module.sources.files.values() {
        assert!(!f.text.contains("OUTSIDE_SECRET"), "'{}' brought in content from outside the roots", f.name);
    }
    let not_found = a.diagnostics.iter().filter(|d| d.code() == "IncludeNotFound").count();
    assert_eq!(not_found, includes.len(), "{:?}", a.diagnostics.iter().map(|d| d.message()).collect::<Vec<_>>());
    let texts: Vec<&str> = a.module.sources.files.values().map(|f| f.text.as_str()).collect();
    assert!(texts.contains(&"float inside_ok;\n"), "positive control: ok.glsl is included");
    assert!(texts.contains(&"float main_local;\n"), "positive control: ./local.glsl is included");
}

// ---------------------------------------------------------------------------------------------------------------
// Odd bytes and sizes
// ---------------------------------------------------------------------------------------------------------------

fn both_modes(what: &str, source: &str) -> [Outcome; 2] {
    let p = run(&format!("{what} (preserving)"), source.to_owned(), preserving());
    p.assert_spans(what);
    let v = run(&format!("{what} (variant)"), source.to_owned(), variant(&["GRAPHICS_API_WEBGL2"]));
    v.assert_spans(what);
    [p, v]
}

#[test]
fn empty_and_blank_files() {
    for (what, src) in [
        ("empty file", String::new()),
        ("whitespace", " \t\r\n\n   \r\n\t".repeat(1000)),
        ("comments", "// line\n/* block */ /* multi\nline */\n".repeat(1000)),
        ("BOM only", "\u{feff}".into()),
    ] {
        for o in both_modes(what, &src) {
            assert!(o.has_errors, "{what}: a file without a Shader must be an error");
        }
    }
}

#[test]
fn nul_bytes() {
    let mut with_nul = MINIMAL.to_owned();
    with_nul.insert_str(MINIMAL.find("void vert").unwrap(), "\0\0\0");
    for o in both_modes("NUL in code", &with_nul) {
        assert!(o.has_errors, "a NUL byte in GLSL code is an error");
    }
    both_modes("NUL in a name", &MINIMAL.replace("\"t\"", "\"t\0x\""));
    both_modes("NUL in a key", &shader_with("#include \"a\0b\"", ""));
    both_modes("only NULs", &"\0".repeat(10_000));
    both_modes("NUL everywhere", &MINIMAL.chars().flat_map(|c| [c, '\0']).collect::<String>());
}

#[test]
fn invalid_utf8() {
    let mut bytes = MINIMAL.as_bytes().to_vec();
    let at = MINIMAL.find("gl_Position").unwrap();
    bytes.splice(at..at, [0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0xf0, 0x90, 0x80]);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    for o in both_modes("invalid UTF-8 (lossy)", &text) {
        assert!(o.has_errors, "U+FFFD in GLSL code is an error");
    }
    let garbage: Vec<u8> = (0..100_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    both_modes("random bytes", &String::from_utf8_lossy(&garbage));
    // Multi-byte characters everywhere a span can start or end.
    both_modes("non-ASCII", &MINIMAL.replace("vec4(0.0)", "vec4(ü0.0€)𝄞").replace("\"t\"", "\"名前\""));
}

#[test]
fn unterminated_constructs() {
    for (what, src) in [
        ("unterminated comment at EOF", format!("{MINIMAL}\n/* never closed")),
        ("unterminated comment in a pass", MINIMAL.replace("void frag", "/* void frag")),
        ("unterminated string", "Shader \"never closed { SubShader".into()),
        ("lone Shader", "Shader".into()),
        ("Shader name only", "Shader \"x\"".into()),
        ("Shader with no end", "Shader \"x\" {".into()),
        ("SubShader with no end", "Shader \"x\" { SubShader \"s\" {".into()),
        ("Pass with no end", "Shader \"x\" { SubShader \"s\" { Pass \"p\" { void vert() {".into()),
        ("closing braces only", "}".repeat(DEEP)),
        ("nested Shader", "Shader \"x\" { ".repeat(10_000)),
        ("nested SubShader", format!("Shader \"x\" {{ {}", "SubShader \"s\" { ".repeat(10_000))),
        ("nested Pass", format!("Shader \"x\" {{ SubShader \"s\" {{ {}", "Pass \"p\" { ".repeat(10_000))),
        ("render state braces", format!("Shader \"x\" {{ SubShader \"s\" {{ BlendState {} }} }}", "{ ".repeat(DEEP))),
        ("open braces", format!("Shader \"x\" {{ {}", "{".repeat(DEEP))),
        ("directive at EOF", format!("{MINIMAL}\n#")),
        ("define at EOF", format!("{MINIMAL}\n#define")),
        ("backslash at EOF", format!("{MINIMAL}\\")),
    ] {
        for o in both_modes(what, &src) {
            assert!(o.has_errors, "{what}: expected an error, got {:?}", o.codes);
        }
    }
}

#[test]
fn megabyte_identifier() {
    let name = format!("a{}", "b".repeat(1 << 20));
    let source = shader_with("", &format!("float {name} = 1.0; float y = {name};"));
    for o in both_modes("1 MB identifier", &source) {
        assert!(!o.has_errors, "a long identifier is valid: {:?}", o.codes);
    }
    let source = format!("Shader \"t\" {{ SubShader \"s\" {{ {name} }} }}");
    both_modes("1 MB identifier in structure", &source);
    let source = shader_with(&format!("#define {name} 1.0\n#if defined({name})\nfloat g;\n#endif\n"), "");
    both_modes("1 MB macro name", &source);
}

#[test]
fn megabyte_string_literal() {
    let s = "s".repeat(1 << 20);
    let source = format!(
        "Shader \"{s}\" {{ SubShader \"{s}\" {{ Pass \"{s}\" {{ Tags {{ a = \"{s}\" }} void vert() {{ gl_Position = vec4(0.0); }} \
         void frag() {{ gl_FragColor = vec4(1.0); }} VertexShader = vert; FragmentShader = frag; }} }} }}"
    );
    both_modes("1 MB string literals in structure", &source);
    both_modes("1 MB string in GLSL", &shader_with("", &format!("float y = \"{s}\";")));
    both_modes("1 MB include key", &shader_with(&format!("#include \"{s}\""), ""));
    both_modes("1 MB unterminated string", &shader_with("", &format!("float y = \"{s}")));
}

#[test]
fn megabyte_numbers_and_punctuation() {
    let digits = "9".repeat(1 << 20);
    for o in both_modes("1 MB integer", &shader_with("", &format!("int y = {digits};"))) {
        assert!(o.has_errors, "an out-of-range integer is an error");
    }
    both_modes("1 MB float", &shader_with("", &format!("float y = {digits}.{digits}e{digits};")));
    both_modes("1 MB hex", &shader_with("", &format!("int y = 0x{};", "f".repeat(1 << 20))));
    both_modes("256 KB of semicolons", &shader_with(&";".repeat(1 << 18), &";".repeat(1 << 18)));
    both_modes("many directives", &shader_with(&"#\n#pragma x\n#line 1\n#undef\n".repeat(DEEP / 4), ""));
}

// ---------------------------------------------------------------------------------------------------------------
// Corpus: truncations and byte mutations
// ---------------------------------------------------------------------------------------------------------------

struct CorpusFile {
    name: String,
    text: String,
    resolver: Arc<MapResolver>,
}

fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("SHADERLAB_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    dir.join("shaders").is_dir().then_some(dir)
}

fn corpus() -> &'static [CorpusFile] {
    static CORPUS: OnceLock<Vec<CorpusFile>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        let Some(dir) = corpus_dir() else {
            let msg = "\n\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\
                       !!! hostile.rs: SHADERLAB CORPUS NOT FOUND (set SHADERLAB_CORPUS or provide ../shared/corpus)\n\
                       !!! falling back to examples/*.shader or a built-in shader: corpus coverage is MISSING\n\
                       !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n";
            assert!(!ci, "{msg}(CI=true: a missing corpus is a failure)");
            loud(msg);
            return fallback_corpus();
        };
        let dev2 = shaderlab::fs_includes::preload(&[dir.join("includes/dev2")]).expect("read the dev2 includes");
        let v15 = shaderlab::fs_includes::preload(&[dir.join("includes/v1.5"), dir.join("includes/tests-v1.5")])
            .expect("read the v1.5 includes");
        let (dev2, v15) = (Arc::new(dev2), Arc::new(v15));
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir.join("shaders"))
            .expect("read corpus shaders")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "shader" || e == "gs"))
            .collect();
        paths.sort();
        let files: Vec<CorpusFile> = paths
            .into_iter()
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                let text = String::from_utf8_lossy(&std::fs::read(&p).expect("read corpus file")).into_owned();
                let resolver = if name.starts_with("dev_2.0__") { dev2.clone() } else { v15.clone() };
                CorpusFile { name, text, resolver }
            })
            .collect();
        assert!(!files.is_empty(), "the corpus at {} has no shaders", dir.display());
        files
    })
}

/// Print past the test harness's output capture (a missing corpus must be visible even when the tests pass).
fn loud(msg: &str) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(msg.as_bytes());
}

fn fallback_corpus() -> Vec<CorpusFile> {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&examples)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "shader")).collect())
        .unwrap_or_default();
    paths.sort();
    let includes = shaderlab::fs_includes::preload(&[examples.join("includes")]).expect("read the example includes");
    let resolver = Arc::new(includes);
    let mut files: Vec<CorpusFile> = paths
        .into_iter()
        .filter_map(|p| {
            let text = String::from_utf8_lossy(&std::fs::read(&p).ok()?).into_owned();
            Some(CorpusFile { name: p.file_name()?.to_string_lossy().into_owned(), text, resolver: resolver.clone() })
        })
        .collect();
    if files.is_empty() {
        loud("!!! hostile.rs: no examples/*.shader either: using the built-in shader only\n");
        let text = format!(
            "Shader \"builtin\" {{ SubShader \"s\" {{ Tags {{ ReplacementTag = \"Opaque\" }}\n\
             Pass \"p\" {{ BlendState = {{ Enabled = true; }}\n#define SCALE 2.0\n#if defined(FOO)\nuniform float u;\n#else\n\
             const float u = 1.0;\n#endif\nstruct V {{ vec4 p; }};\nV vert() {{ V v; v.p = vec4(u * SCALE); \
             gl_Position = v.p; return v; }}\nvoid frag(V v) {{ for (int i = 0; i < 2; i++) {{ if (v.p.x > 0.0) discard; }} \
             gl_FragColor = v.p; }}\nVertexShader = vert; FragmentShader = frag; }} }} }}\n{MINIMAL}"
        );
        files.push(CorpusFile { name: "builtin.shader".into(), text, resolver });
    }
    files
}

/// Analyze a mutated corpus input in a mode; returns a failure description.
fn check_input(file: &CorpusFile, text: &str, opts: &Options, ctx: &str) -> Result<Vec<DiagKey>, String> {
    let a = analyze(text, file.resolver.as_ref(), opts);
    if let Some(v) = span_violations(&a) {
        return Err(format!("{ctx}: {v}"));
    }
    render_all(&a, 10);
    Ok(diag_keys(&a))
}

/// Cut `text` at a byte offset rounded down to a char boundary.
fn truncate_at(text: &str, at: usize) -> &str {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    &text[..at]
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// 64 deterministic single-byte mutations of `text`: flips, deletions, duplications at spread-out offsets.
fn byte_mutations(text: &str, seed: u64) -> Vec<(String, String)> {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return Vec::new();
    }
    let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        // splitmix64
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let interesting = b"{}()[];#\"/*\\\n\0\xff";
    (0..64)
        .map(|i| {
            let pos = (next() % bytes.len() as u64) as usize;
            let mut b = bytes.to_vec();
            let what = match i % 4 {
                0 => {
                    let mask = 1u8 << (next() % 8);
                    b[pos] ^= mask;
                    format!("flip bit {mask:#04x} at {pos}")
                }
                1 => {
                    b.remove(pos);
                    format!("delete byte at {pos}")
                }
                2 => {
                    b.insert(pos, b[pos]);
                    format!("duplicate byte at {pos}")
                }
                _ => {
                    let c = interesting[(next() % interesting.len() as u64) as usize];
                    b[pos] = c;
                    format!("set byte at {pos} to {c:#04x}")
                }
            };
            (what, lossy(&b))
        })
        .collect()
}

/// Run `per_file` for every corpus file on worker threads (2 MiB stacks, watchdog per file); collect failures.
fn for_each_corpus_file(what: &'static str, per_file: fn(&CorpusFile) -> Vec<String>) {
    let files = corpus();
    let started = Instant::now();
    let workers = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2).clamp(1, 8);
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<(usize, Vec<String>)>();
    for _ in 0..workers {
        let (tx, next) = (tx.clone(), next.clone());
        std::thread::Builder::new()
            .stack_size(DEFAULT_STACK)
            .spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(file) = corpus().get(i) else { break };
                let t = Instant::now();
                let result = std::panic::catch_unwind(|| per_file(file))
                    .unwrap_or_else(|_| vec![format!("{}: PANIC (see the message above)", file.name)]);
                if std::env::var_os("HOSTILE_VERBOSE").is_some() {
                    eprintln!("{what}: {} in {:?}", file.name, t.elapsed());
                }
                if tx.send((i, result)).is_err() {
                    break;
                }
            })
            .expect("spawn a corpus worker");
    }
    drop(tx);
    let mut failures = Vec::new();
    let mut done = vec![false; files.len()];
    // Budget: generous per file in debug builds; a hang on one file fails the whole test.
    let deadline = Duration::from_secs(60 + 2 * files.len() as u64);
    while done.iter().any(|d| !d) {
        let remaining = deadline.saturating_sub(started.elapsed());
        match rx.recv_timeout(remaining.max(Duration::from_millis(1))) {
            Ok((i, f)) => {
                done[i] = true;
                failures.extend(f);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let pending: Vec<&str> =
                    files.iter().zip(&done).filter(|(_, d)| !**d).map(|(f, _)| f.name.as_str()).collect();
                panic!("HANG: {what} did not finish within {deadline:?}; unfinished: {pending:?}");
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    eprintln!("{what}: {} files in {:?}", files.len(), started.elapsed());
    assert!(failures.is_empty(), "{what}: {} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn corpus_files_analyze_cleanly_enough() {
    for_each_corpus_file("corpus as is", |file| {
        let mut failures = Vec::new();
        for (mode, opts) in
            [("preserving", preserving()), ("variant", variant(&["GRAPHICS_API_WEBGL2", "HAS_TEX_LOD"]))]
        {
            let ctx = format!("{} ({mode})", file.name);
            match check_input(file, &file.text, &opts, &ctx) {
                Ok(first) => match check_input(file, &file.text, &opts, &ctx) {
                    Ok(second) if second == first => {}
                    Ok(_) => failures.push(format!("{ctx}: two runs gave different diagnostics")),
                    Err(e) => failures.push(e),
                },
                Err(e) => failures.push(e),
            }
        }
        failures
    });
}

#[test]
fn corpus_truncations() {
    for_each_corpus_file("corpus truncations", |file| {
        let mut failures = Vec::new();
        let len = file.text.len();
        for k in 0..64 {
            let at = len * k / 64;
            let text = truncate_at(&file.text, at);
            // Alternate the modes so both see every region of every file.
            let opts = if k % 2 == 0 { preserving() } else { variant(&["GRAPHICS_API_WEBGL2"]) };
            if let Err(e) = check_input(file, text, &opts, &format!("{} truncated at {at}/{len}", file.name)) {
                failures.push(e);
            }
        }
        failures
    });
}

#[test]
fn corpus_byte_mutations() {
    for_each_corpus_file("corpus byte mutations", |file| {
        let mut failures = Vec::new();
        let seed = file.name.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
        for (i, (what, text)) in byte_mutations(&file.text, seed).into_iter().enumerate() {
            let opts = if i % 2 == 0 { preserving() } else { variant(&["GRAPHICS_API_WEBGL2"]) };
            if let Err(e) = check_input(file, &text, &opts, &format!("{}: {what}", file.name)) {
                failures.push(e);
            }
        }
        failures
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Property test: mutated corpus inputs
// ---------------------------------------------------------------------------------------------------------------

const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    "\n#if 1\n",
    "\n#if FOO\n",
    "\n#ifdef GL_ES\n",
    "\n#else\n",
    "\n#endif\n",
    "\n#define A A\n",
    "\n#define F(x) F(x) x\n",
    "\n#undef A\n",
    "\n#include \"x\"\n",
    "\n#include \"Common.glsl\"\n",
    "Pass",
    "SubShader",
    "Shader",
    "UsePass",
    "\"x\"",
    "=",
    "BlendState",
    "Tags",
    "VertexShader = vert;",
    "void",
    "float",
    "struct",
    "if",
    "else",
    "for",
    "return",
    "/*",
    "*/",
    "//",
    "\\",
    "\0",
    "\u{fffd}",
    "9999999999999999999",
    "1e999",
    ".",
    "?",
    ":",
    "#",
];

#[derive(Clone, Debug)]
enum Mutation {
    /// Keep this fraction (per mille) of the text.
    Truncate(u16),
    /// XOR the byte at a position (per mille of the length) with a mask.
    Flip(u16, u8),
    /// Delete `len` bytes at a position.
    Delete(u16, u16),
    /// Duplicate `len` bytes at a position.
    Duplicate(u16, u16),
    /// Insert a token from [`TOKENS`].
    Insert(u16, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => (0u16..=1000).prop_map(Mutation::Truncate),
        3 => (0u16..1000, 1u8..=255).prop_map(|(p, m)| Mutation::Flip(p, m)),
        2 => (0u16..1000, 1u16..200).prop_map(|(p, n)| Mutation::Delete(p, n)),
        2 => (0u16..1000, 1u16..400).prop_map(|(p, n)| Mutation::Duplicate(p, n)),
        4 => (0u16..1000, 0..TOKENS.len()).prop_map(|(p, t)| Mutation::Insert(p, t)),
    ]
}

fn apply(text: &str, mutations: &[Mutation]) -> String {
    let mut b = text.as_bytes().to_vec();
    let at = |len: usize, per_mille: u16| len * per_mille as usize / 1000;
    for m in mutations {
        let len = b.len();
        match *m {
            Mutation::Truncate(p) => b.truncate(at(len, p)),
            Mutation::Flip(p, mask) if len > 0 => {
                let i = at(len, p).min(len - 1);
                b[i] ^= mask;
            }
            Mutation::Delete(p, n) => {
                let i = at(len, p);
                let end = (i + n as usize).min(len);
                b.drain(i..end);
            }
            Mutation::Duplicate(p, n) => {
                let i = at(len, p);
                let end = (i + n as usize).min(len);
                let slice = b[i..end].to_vec();
                b.splice(end..end, slice);
            }
            Mutation::Insert(p, t) => {
                let i = at(len, p);
                b.splice(i..i, TOKENS[t].bytes());
            }
            Mutation::Flip(..) => {}
        }
    }
    lossy(&b)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        rng_seed: RngSeed::Fixed(0x5ade_41ab),
        failure_persistence: None,
        max_shrink_iters: 256,
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_corpus_inputs(file in 0usize..1024, mutations in proptest::collection::vec(mutation(), 1..8), variant_mode in any::<bool>()) {
        let files = corpus();
        let index = file % files.len();
        let text = apply(&files[index].text, &mutations);
        let ctx = format!("{} with {mutations:?}", files[index].name);
        let opts = if variant_mode { variant(&["GRAPHICS_API_WEBGL2", "HAS_TEX_LOD", "HAS_DERIVATIVES"]) } else { preserving() };
        let result = watchdog(&ctx.clone(), WATCHDOG, move || {
            let file = &corpus()[index];
            let first = check_input(file, &text, &opts, &ctx)?;
            let second = check_input(file, &text, &opts, &ctx)?;
            if first != second {
                return Err(format!("{ctx}: nondeterministic diagnostics:\n{first:?}\nvs\n{second:?}"));
            }
            Ok(())
        });
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Human rendering (what `shaderlab check` prints)
// ---------------------------------------------------------------------------------------------------------------

/// Inputs whose diagnostics point at the very end of a file.
fn end_of_file_inputs() -> Vec<(&'static str, String)> {
    vec![
        ("empty file", String::new()),
        ("open shader, no newline", "Shader \"x\" {".into()),
        ("open shader, newline", "Shader \"x\" {\n".into()),
        ("unterminated comment", format!("{MINIMAL}\n/* never closed")),
        ("include chunk ending in an error", shader_with("#include \"a.glsl\"", "")),
    ]
}

/// (A regression test: `render_human` used to panic here, one past the end of the last line.)
#[test]
fn render_human_never_panics() {
    for (what, source) in end_of_file_inputs() {
        let text = watchdog(what, WATCHDOG, move || {
            let resolver = map(&[("a.glsl", "float f = ;")]);
            let a = analyze(&source, &resolver, &preserving());
            assert!(!a.diagnostics.is_empty(), "expected diagnostics");
            render_human(&a)
        });
        assert!(text.contains("error"), "{what}: rendered text has no error: {text}");
    }
}

#[test]
fn render_human_flood() {
    let source = shader_with(&"#ifdef X\n".repeat(20_000), "");
    let rendered = watchdog("render 20k diagnostics", WATCHDOG, move || {
        let a = analyze(&source, &MapResolver::new(), &preserving());
        assert!(a.diagnostics.len() >= 20_000);
        let mut out = codespan_reporting::term::termcolor::NoColor::new(Vec::new());
        shaderlab::validator::render_human(&a.module, &a.diagnostics, &mut out).expect("render_human");
        out.into_inner()
    });
    assert!(rendered.len() > 20_000 * 40, "every diagnostic is rendered: {} bytes", rendered.len());
}

#[test]
fn render_human_mid_file() {
    // Diagnostics away from the end of the file render (a control for the test above).
    let text = watchdog("render mid-file", WATCHDOG, || {
        let a = analyze(&shader_with("", "float y = ;"), &MapResolver::new(), &preserving());
        render_human(&a)
    });
    assert!(text.contains("UnexpectedToken"), "{text}");
}

/// A `discard` at the bottom of a chain of 40 functions, each calling the next under `#ifdef Ai` and under its
/// `#else` (2^40 chains of calls, each with its own context): the chain contexts kept per function stop at a cap
/// and the rule falls back to the direct calls, so the check stays fast, and the `discard` is still reported
/// (the variant with no macro defined runs it in the vertex stage).
#[test]
fn discard_under_exponentially_many_call_chains() {
    let mut globals = String::from("float f0(float w) { if (w < 0.0) { discard; } return w; }\n");
    for i in 1..40 {
        globals.push_str(&format!(
            "float f{i}(float w) {{\n#ifdef A{i}\nw = f{p}(w);\n#else\nw = f{p}(w * 2.0);\n#endif\nreturn w; }}\n",
            p = i - 1
        ));
    }
    let o = run("discard under 2^40 call chains", shader_with(&globals, "float x = f39(1.0);"), preserving());
    assert!(o.violation.is_none(), "{:?}", o.violation);
    assert_eq!(summarize(&o.codes), [("MisplacedControlFlow".to_owned(), 1)], "{:?}", o.codes);
}
