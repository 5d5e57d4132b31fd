//! What the program generator may produce: sizes and feature switches.

/// Sizes and feature switches of the program generator.
///
/// Counts are exact where they name a structure (`passes`, `helper_functions`) and upper bounds where they
/// bound a random size (`max_*`). The generator never leaves the language the compiler accepts without a
/// diagnostic, whatever the switches: turning a feature off only removes constructs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratorConfig {
    /// Deepest expression tree below a statement (0: only literals, variables and splat constructors).
    pub max_expr_depth: u32,
    /// Most statements in one block (before its final `return`/`break`).
    pub max_stmts_per_block: usize,
    /// Deepest nesting of blocks (`if`, `for`, `switch`, `{ }`) inside a function body.
    pub max_block_depth: u32,
    /// Helper functions defined in each pass (callable from both entries, each returning on every path).
    pub helper_functions: usize,
    /// Helper functions defined once at the Shader level and shared by every pass.
    pub shared_helper_functions: usize,
    /// Passes in the one SubShader (at least 1).
    pub passes: usize,
    /// Most user structs declared per level (Shader and each Pass); the IO structs come on top.
    pub max_structs: usize,
    /// Most members of a user struct.
    pub max_struct_members: usize,
    /// Most global declarations (uniforms, constants, private globals, samplers) per level.
    pub max_globals: usize,
    /// Most macro names the conditionals test (taken from an engine-like pool, at most 8).
    pub max_macros: usize,
    pub features: Features,
}

/// Constructs the generator may use. Everything is on by default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// `for` loops with constant bounds (and `break`/`continue` inside them).
    pub loops: bool,
    /// `if`/`else`, `?:` and, in fragment code, `discard`.
    pub branches: bool,
    /// `switch` with distinct `case` labels and a `default` (GLSL ES 3.00 only).
    pub switch: bool,
    /// Swizzles (`v.zyx`, `c.rg`) as values and as assignment targets.
    pub swizzles: bool,
    /// Constructors beyond the splat `vec3(x)` (which stays available as the fallback that makes any vector):
    /// partitions `vec4(v2, x, y)`, truncations, conversions `float(i)`, matrices, struct constructors.
    pub constructors: bool,
    /// Calls of builtin functions (`mix`, `clamp`, `dot`, `normalize`, `texture2D` on a declared sampler, ...).
    pub builtin_calls: bool,
    /// User structs (locals, uniforms, members, constructors, member access).
    pub structs: bool,
    /// One-dimensional arrays (uniform, local and member arrays indexed by constants and loop indices).
    pub arrays: bool,
    /// v2 render states: inline and named states, render-state variables, `RenderQueueType`.
    pub render_states: bool,
    /// `#ifdef`/`#ifndef`/`#else` around declarations, struct members, statements, parameters and arguments,
    /// valid in every variant.
    pub macro_conditionals: bool,
    /// Where the code's own conditions decide whether a conditional parameter or struct member exists, calls
    /// and constructors pass its argument plainly (inside `#ifdef M`) or leave it out (inside `#ifndef M`).
    /// Off: the argument always repeats the parameter's own region (`f(a\n#ifdef M\n, b\n#endif\n)`), which
    /// is then redundant or dead. (The shaderlab compiler of this workspace still wrongly rejects the contextual
    /// form in a preserving check: `fuzz/regressions/conditional-parameter-calls.shader`.)
    pub contextual_arguments: bool,
    /// Fragment entries returning an MRT struct with `layout(location = N)` members (GLSL ES 3.00 only).
    pub mrt: bool,
    /// `int`/`ivec` values and integer arithmetic; with `es300` also `uint`, `%`, shifts and bitwise operators.
    pub integer_ops: bool,
    /// Constructs GLSL ES 1.00 lacks: `switch`, MRT, `uint`, `%`, shifts, bitwise operators, array
    /// constructors, integer and matrix builtins of ES 3.00. Off: every program also compiles for GLSL ES 1.00.
    pub es300: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            loops: true,
            branches: true,
            switch: true,
            swizzles: true,
            constructors: true,
            builtin_calls: true,
            structs: true,
            arrays: true,
            render_states: true,
            macro_conditionals: true,
            contextual_arguments: true,
            mrt: true,
            integer_ops: true,
            es300: true,
        }
    }
}

impl Features {
    /// Every feature off: straight-line code over floats and float vectors.
    pub fn none() -> Self {
        Features {
            loops: false,
            branches: false,
            switch: false,
            swizzles: false,
            constructors: false,
            builtin_calls: false,
            structs: false,
            arrays: false,
            render_states: false,
            macro_conditionals: false,
            contextual_arguments: false,
            mrt: false,
            integer_ops: false,
            es300: false,
        }
    }

    pub(crate) fn switch_allowed(&self) -> bool {
        self.switch && self.es300 && self.integer_ops
    }

    pub(crate) fn mrt_allowed(&self) -> bool {
        self.mrt && self.es300
    }
}

impl Default for GeneratorConfig {
    fn default() -> Self {
        GeneratorConfig {
            max_expr_depth: 3,
            max_stmts_per_block: 5,
            max_block_depth: 2,
            helper_functions: 2,
            shared_helper_functions: 1,
            passes: 1,
            max_structs: 2,
            max_struct_members: 4,
            max_globals: 5,
            max_macros: 3,
            features: Features::default(),
        }
    }
}

impl GeneratorConfig {
    /// Programs that also compile for GLSL ES 1.00 (WebGL 1): the default without the ES 3.00-only features.
    pub fn es100() -> Self {
        let mut config = GeneratorConfig::default();
        config.features.es300 = false;
        config
    }

    /// Small programs: shallow expressions, short blocks, one helper. Good for quick property tests.
    pub fn small() -> Self {
        GeneratorConfig {
            max_expr_depth: 2,
            max_stmts_per_block: 3,
            max_block_depth: 1,
            helper_functions: 1,
            shared_helper_functions: 1,
            passes: 1,
            max_structs: 1,
            max_struct_members: 3,
            max_globals: 3,
            max_macros: 2,
            features: Features::default(),
        }
    }
}
