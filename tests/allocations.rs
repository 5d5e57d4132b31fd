//! Allocation counts of a compile: what "no per-token allocation" and "arena reuse" (docs/performance.md) mean,
//! held by numbers that do not depend on the machine's speed.
//!
//! This test binary's global allocator counts the blocks each thread asks for (`alloc`, `alloc_zeroed`,
//! `realloc`), so a test reads exactly its own compile's count while the harness runs others beside it. The counts
//! are deterministic: the same source, options and thread history give the same count on every machine and
//! allocator (the compiler's allocation pattern is its own; only the block sizes are the allocator's business).
//!
//! What is held:
//! - the cost of more code: a function body twice as long costs a few blocks per added statement (the IR's own
//!   vectors and boxes) and none per token (tokens, expressions and locals go into arenas and pooled buffers,
//!   emitted code into one scratch line);
//! - the fixed cost: a five-line shader compiles within a budget of blocks once the thread's pools are warm.
//!
//! Both bounds have room over today's counts (printed with `--nocapture`); a change that needs more raises them on
//! purpose, with the reason.

mod common;

use shaderlab::ir::{FileId, Interner};
use shaderlab::{compile, MapResolver, Options, Target};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static BLOCKS: Cell<u64> = const { Cell::new(0) };
}

fn count_one() {
    // `try_with`: a thread being torn down has no counter left; its allocations are not counted.
    let _ = BLOCKS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: every function forwards to the system allocator with the same arguments; counting touches only a
// const-initialized thread-local `Cell`, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Blocks the current thread allocates while `work` runs (its result dropped inside, so a compile's whole life is
/// counted).
fn blocks(work: impl FnOnce()) -> u64 {
    let before = BLOCKS.with(Cell::get);
    work();
    BLOCKS.with(Cell::get) - before
}

/// Compile `source` for GLSL ES 3.00 (the one-variant compile of the engine's platform macros, as
/// `shaderlab bench` times it) and return its block count; the compile must succeed.
fn compile_blocks(source: &str) -> u64 {
    let options = Options { defines: Some(common::platform_macros()), ..Options::default() };
    let includes = MapResolver::default();
    blocks(|| {
        let compiled = compile(source, &includes, &options, Target::Gles300);
        assert!(compiled.is_ok(), "{source}\n{:?}", compiled.err());
    })
}

/// The count of a compile once the thread's pools are warm (a first compile on the thread fills them).
fn warm_compile_blocks(source: &str) -> u64 {
    compile_blocks(source);
    compile_blocks(source)
}

/// A pass whose fragment entry runs `statements` statements of the usual kinds (arithmetic on locals, swizzles,
/// builtin calls, a constructor, a loop and a branch every fourth).
fn pass_with_statements(statements: usize) -> String {
    let mut body = String::new();
    for i in 0..statements {
        body.push_str(&match i % 4 {
            0 => format!("    c.rgb = mix(c.rgb, vec3({i}.0, 0.5, 0.25), 0.5) * u_scale;\n"),
            1 => format!("    t = max(t, dot(c.xy, v.v_uv) + float({i}));\n"),
            2 => format!("    if (t > {i}.0) {{ c.a = clamp(c.a - 0.1, 0.0, 1.0); }}\n"),
            _ => "    for (int k = 0; k < 2; k++) { t += c.r * 0.5; }\n".to_string(),
        });
    }
    format!(
        "Shader \"s\" {{ SubShader \"b\" {{ Pass \"p\" {{
  mat4 renderer_MVPMat;
  float u_scale;
  struct a2v {{ vec4 POSITION; vec2 TEXCOORD_0; }};
  struct v2f {{ vec2 v_uv; }};
  VertexShader = vert; FragmentShader = frag;
  v2f vert(a2v a) {{ v2f o; o.v_uv = a.TEXCOORD_0; gl_Position = renderer_MVPMat * a.POSITION; return o; }}
  void frag(v2f v) {{
    vec4 c = vec4(v.v_uv, 0.0, 1.0);
    float t = 0.0;
{body}    gl_FragColor = c * t;
  }}
}} }} }}
"
    )
}

#[test]
fn more_statements_cost_no_block_per_token() {
    let (short, long) = (pass_with_statements(200), pass_with_statements(400));
    let (a, b) = (warm_compile_blocks(&short), warm_compile_blocks(&long));
    // Tokens the 200 added statements hold.
    let added_tokens = tokens(&long) - tokens(&short);
    let per_statement = (b as f64 - a as f64) / 200.0;
    let per_token = (b as f64 - a as f64) / added_tokens as f64;
    eprintln!(
        "allocations: 200 statements {a} blocks, 400 statements {b}: {per_statement:.2} per added statement, \
         {per_token:.3} per added token ({added_tokens} tokens)"
    );
    assert!(b >= a, "a longer function cannot need fewer blocks: {a} -> {b}");
    assert!(per_token < BLOCKS_PER_TOKEN, "{per_token:.3} blocks per added token (bound {BLOCKS_PER_TOKEN})");
}

#[test]
fn a_five_line_shader_compiles_within_its_block_budget() {
    let source = "Shader \"a\" { SubShader \"b\" { Pass \"c\" {
VertexShader = v; FragmentShader = f;
void v() { gl_Position = vec4(0.0); }
void f() { gl_FragColor = vec4(1.0); }
} } }
";
    let first = compile_blocks(source);
    let warm = compile_blocks(source);
    eprintln!(
        "allocations: five-line shader {first} blocks on a fresh thread, {warm} warm (budget {FIVE_LINE_BUDGET})"
    );
    assert!(warm <= first, "a warm compile cannot need more blocks than the first: {first} -> {warm}");
    assert!(warm <= FIVE_LINE_BUDGET, "{warm} blocks, budget {FIVE_LINE_BUDGET}");
}

/// The tokens of `text`, as the compiler's lexer reads them.
fn tokens(text: &str) -> usize {
    shaderlab::frontend::lexer::lex(text, FileId::from_u32(0), &mut Interner::new()).len()
}

/// Blocks per token a longer function may add. Today 0.136 (3.3 per statement of 24 tokens: the argument list of
/// a call, the boxed type of a constructor, the statement list of a block and the boxed parts of an `if` or `for`
/// are the IR's own vectors and boxes). One block more per identifier (about 8 per statement here) would add
/// about 0.32.
const BLOCKS_PER_TOKEN: f64 = 0.25;

/// Blocks a warm compile of the five-line shader may take. Today 90 (the module's arenas and side tables, the
/// passes' tables, both stages' text and reflection, the diagnostics list).
const FIVE_LINE_BUDGET: u64 = 120;
