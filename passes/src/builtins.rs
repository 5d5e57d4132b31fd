//! The builtin catalogue: every builtin function overload and builtin variable of GLSL ES 3.00 and the
//! GLSL ES 1.00 names the engine accepts, as data.
//!
//! The catalogue is the table `builtins.txt` (its header documents the notation), parsed once on first use into
//! concrete overloads. Invariants:
//! - every overload is concrete: no family words survive parsing, and each (name, parameter types) pair is unique;
//! - the overloads of one name are contiguous and keep table order ([`overloads`] is a slice of [`functions`]);
//! - an overload using a type GLSL ES 1.00 lacks is [`Availability::Es300Only`];
//! - GLSL ES has no implicit conversions, so a call matches an overload only when every argument type is equal
//!   to the parameter type ([`resolve`]).
//!
//! [`Availability`] says which GLSL ES version declares a name; mapping names between versions (`texture2D` ->
//! `texture`) is the backends' business. `gl_DepthRange`, of struct type, is apart: [`DEPTH_RANGE`].
//!
//! A malformed table line is a bug in our data and panics with the line number; the shipped table is parsed by a
//! unit test, and `tests/builtins_glslang.rs` checks every overload and variable against glslangValidator.

use crate::ty::{ArrayLen, Ty};
use shaderlab_ir::hash::{FastHashMap as HashMap, FastHashSet as HashSet};
use shaderlab_ir::{SamplerDim, SamplerType, ScalarKind};
use std::ops::Range;
use std::sync::OnceLock;

const TABLE: &str = include_str!("builtins.txt");

/// The shader stages a builtin exists in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stages {
    pub vertex: bool,
    pub fragment: bool,
}

impl Stages {
    pub const BOTH: Stages = Stages { vertex: true, fragment: true };
    pub const VERTEX: Stages = Stages { vertex: true, fragment: false };
    pub const FRAGMENT: Stages = Stages { vertex: false, fragment: true };
}

/// The GLSL ES versions that declare a builtin (under its own name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Availability {
    /// GLSL ES 1.00 and 3.00.
    Both,
    /// Only GLSL ES 1.00 or one of its extensions (`texture2D`, `gl_FragColor`); ES 3.00 uses another name.
    Es100Only,
    /// New in GLSL ES 3.00, or using a type GLSL ES 1.00 lacks.
    Es300Only,
}

impl Availability {
    pub fn in_es100(self) -> bool {
        matches!(self, Availability::Both | Availability::Es100Only)
    }

    pub fn in_es300(self) -> bool {
        matches!(self, Availability::Both | Availability::Es300Only)
    }
}

/// How a builtin function takes one argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamMode {
    /// An ordinary input.
    In,
    /// An `out` parameter: the argument must be an l-value of exactly the parameter type (`modf`).
    Out,
    /// An input that must be a constant expression (texel offsets).
    Const,
}

/// One concrete overload of a builtin function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overload {
    pub name: &'static str,
    pub ret: Ty,
    pub params: Vec<Ty>,
    /// One per parameter.
    pub modes: Vec<ParamMode>,
    pub stages: Stages,
    pub availability: Availability,
    /// The extension a GLSL ES 1.00 shader must enable to use this overload.
    pub es100_extension: Option<&'static str>,
    /// The table line the overload was expanded from: overloads of one family share it.
    pub family_line: u32,
}

/// A builtin variable or constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltinVar {
    pub name: &'static str,
    /// `gl_FragData` is an array of [`ArrayLen::Unknown`] length (`gl_MaxDrawBuffers`, implementation-defined).
    pub ty: Ty,
    pub stages: Stages,
    /// An output the shader may assign.
    pub writable: bool,
    /// A compile-time constant (`gl_Max*`), usable in constant expressions; its value is implementation-defined.
    pub constant: bool,
    pub availability: Availability,
    /// The extension a GLSL ES 1.00 shader must enable to use this variable.
    pub es100_extension: Option<&'static str>,
}

/// `gl_DepthRange`, the one builtin of struct type (`gl_DepthRangeParameters`), in both stages and versions.
/// [`Ty`] names structs by module, so it is not among [`variables`]; its fields are [`depth_range_field`].
pub const DEPTH_RANGE: &str = "gl_DepthRange";

/// The type of a field of `gl_DepthRange` (`near`, `far`, `diff`: all `highp float`).
pub fn depth_range_field(field: &str) -> Option<Ty> {
    matches!(field, "near" | "far" | "diff").then_some(Ty::FLOAT)
}

/// Every builtin function overload, in table order (the overloads of one name contiguous).
pub fn functions() -> &'static [Overload] {
    &catalogue().functions
}

/// All overloads of `name` in table order; empty when `name` is not a builtin function.
pub fn overloads(name: &str) -> &'static [Overload] {
    function(name).map_or(&[], BuiltinFn::overloads)
}

/// The builtin function named `name` (by its text: name resolution's lookup; typing holds a [`BuiltinFn`]).
pub fn function(name: &str) -> Option<BuiltinFn> {
    catalogue().by_name.get(name).copied()
}

/// A builtin function name: the range of its overloads in [`functions`]. Only the catalogue makes one (name
/// resolution keeps it in `CallTarget::Callable`), so it always names overloads: typing reads them without
/// looking the name up again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinFn {
    start: u16,
    end: u16,
}

impl BuiltinFn {
    /// The overloads, in table order.
    #[inline]
    pub fn overloads(self) -> &'static [Overload] {
        &functions()[self.first_index()..usize::from(self.end)]
    }

    /// The index in [`functions`] of the first overload (the others follow).
    #[inline]
    pub fn first_index(self) -> usize {
        usize::from(self.start)
    }
}

/// The overload of `name` whose parameter types are exactly `args` (GLSL ES has no implicit conversions).
/// Stage and version are not considered: check [`Overload::stages`] and [`Overload::availability`].
pub fn resolve(name: &str, args: &[Ty]) -> Option<&'static Overload> {
    overloads(name).iter().find(|o| o.params == args)
}

/// Every builtin variable and constant, in table order.
pub fn variables() -> &'static [BuiltinVar] {
    &catalogue().variables
}

/// The builtin variable named `name` (by its text: name resolution's lookup; later stages hold a [`VarId`]).
pub fn variable(name: &str) -> Option<&'static BuiltinVar> {
    variable_id(name).map(VarId::var)
}

/// The id of the builtin variable named `name`.
pub fn variable_id(name: &str) -> Option<VarId> {
    catalogue().variables_by_name.get(name).copied()
}

/// A builtin variable or constant: its index in [`variables`]. Only the catalogue makes one (name resolution
/// keeps it in `Symbol::Builtin`), so it always names an entry: later stages read the entry with [`VarId::var`]
/// instead of looking the name up again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VarId(u8);

impl VarId {
    /// The catalogue's entry.
    #[inline]
    pub fn var(self) -> &'static BuiltinVar {
        &catalogue().variables[self.index()]
    }

    #[inline]
    pub fn name(self) -> &'static str {
        self.var().name
    }

    /// The index in [`variables`] (below [`MAX_VARIABLES`]).
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// At most this many builtin variables (a [`VarId`] is a byte; `io::BuiltinSet` is a 64-bit set of them).
pub const MAX_VARIABLES: usize = 64;

struct Catalogue {
    functions: Vec<Overload>,
    by_name: HashMap<&'static str, BuiltinFn>,
    variables: Vec<BuiltinVar>,
    /// The id of each variable by name (names are unique).
    variables_by_name: HashMap<&'static str, VarId>,
}

fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| parse_table(TABLE))
}

// ---- Parsing the table ----

/// A type word of the table before expansion.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TypeWord {
    Concrete(TyShape),
    /// `genType`, `genIType`, `genUType`, `genBType`: scalar or vector, 1 to 4 components.
    Gen(ScalarKind),
    /// `vec`, `ivec`, `uvec`, `bvec`: vector, 2 to 4 components.
    Vector(ScalarKind),
    /// `mat`: any matrix shape.
    Mat,
    /// `gvec4`: `vec4`, `ivec4` or `uvec4`.
    GVec4,
    /// `gsampler*`: the float, int or uint sampler of a dimension.
    GSampler(SamplerDim),
}

/// A concrete non-array type (`Ty` is not `Copy`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum TyShape {
    Scalar(ScalarKind),
    Vector(ScalarKind, u8),
    Matrix(u8, u8),
    Sampler(SamplerType),
}

impl TyShape {
    fn ty(self) -> Ty {
        match self {
            TyShape::Scalar(k) => Ty::Scalar(k),
            TyShape::Vector(k, n) => Ty::Vector(k, n),
            TyShape::Matrix(columns, rows) => Ty::Matrix { columns, rows },
            TyShape::Sampler(s) => Ty::Sampler(s),
        }
    }
}

const MATRIX_SHAPES: [(u8, u8); 9] = [(2, 2), (3, 3), (4, 4), (2, 3), (2, 4), (3, 2), (3, 4), (4, 2), (4, 3)];
const SAMPLED_KINDS: [ScalarKind; 3] = [ScalarKind::Float, ScalarKind::Int, ScalarKind::Uint];

fn concrete_shape(word: &str) -> Option<TyShape> {
    use shaderlab_ir::TypeInner;
    match TypeInner::from_builtin_name(word)? {
        TypeInner::Scalar(k) => Some(TyShape::Scalar(k)),
        TypeInner::Vector { kind, size } => Some(TyShape::Vector(kind, size)),
        TypeInner::Matrix { columns, rows } => Some(TyShape::Matrix(columns, rows)),
        TypeInner::Sampler(s) => Some(TyShape::Sampler(s)),
        TypeInner::Void | TypeInner::User(_) => None,
    }
}

fn type_word(word: &str, line: u32) -> TypeWord {
    use ScalarKind::*;
    match word {
        "genType" => TypeWord::Gen(Float),
        "genIType" => TypeWord::Gen(Int),
        "genUType" => TypeWord::Gen(Uint),
        "genBType" => TypeWord::Gen(Bool),
        "vec" => TypeWord::Vector(Float),
        "ivec" => TypeWord::Vector(Int),
        "uvec" => TypeWord::Vector(Uint),
        "bvec" => TypeWord::Vector(Bool),
        "mat" => TypeWord::Mat,
        "gvec4" => TypeWord::GVec4,
        "gsampler2D" => TypeWord::GSampler(SamplerDim::D2),
        "gsampler3D" => TypeWord::GSampler(SamplerDim::D3),
        "gsamplerCube" => TypeWord::GSampler(SamplerDim::Cube),
        "gsampler2DArray" => TypeWord::GSampler(SamplerDim::D2Array),
        _ => match concrete_shape(word) {
            Some(shape) => TypeWord::Concrete(shape),
            None => table_error(line, &format!("unknown type `{word}`")),
        },
    }
}

/// One point of a line's expansion: the sampled kind, component count and matrix shape.
#[derive(Clone, Copy)]
struct Instance {
    kind: ScalarKind,
    size: u8,
    mat: (u8, u8),
}

fn instantiate(word: TypeWord, at: Instance) -> Ty {
    match word {
        TypeWord::Concrete(shape) => shape.ty(),
        TypeWord::Gen(k) | TypeWord::Vector(k) => Ty::vector(k, at.size),
        TypeWord::Mat => Ty::Matrix { columns: at.mat.0, rows: at.mat.1 },
        TypeWord::GVec4 => Ty::Vector(at.kind, 4),
        TypeWord::GSampler(dim) => Ty::Sampler(SamplerType { dim, sampled: at.kind, shadow: false }),
    }
}

/// Every instance a line's type words call for (one when the line has no family word).
fn instances(words: &[TypeWord], line: u32) -> Vec<Instance> {
    let has = |f: fn(&TypeWord) -> bool| words.iter().any(f);
    let gen = has(|w| matches!(w, TypeWord::Gen(_)));
    let vector = has(|w| matches!(w, TypeWord::Vector(_)));
    if gen && vector {
        table_error(line, "a line mixes a gen* family word with a vec* family word");
    }
    let sizes: Vec<u8> = if gen {
        vec![1, 2, 3, 4]
    } else if vector {
        vec![2, 3, 4]
    } else {
        vec![4]
    };
    let kinds: &[ScalarKind] = if has(|w| matches!(w, TypeWord::GVec4 | TypeWord::GSampler(_))) {
        &SAMPLED_KINDS
    } else {
        &SAMPLED_KINDS[..1]
    };
    let mats: &[(u8, u8)] = if has(|w| matches!(w, TypeWord::Mat)) { &MATRIX_SHAPES } else { &MATRIX_SHAPES[..1] };
    let mut out = Vec::new();
    for &kind in kinds {
        for &size in &sizes {
            for &mat in mats {
                out.push(Instance { kind, size, mat });
            }
        }
    }
    out
}

/// Whether GLSL ES 1.00 has the type (without extensions).
fn in_es100(ty: &Ty) -> bool {
    match ty {
        Ty::Void => true,
        Ty::Scalar(k) | Ty::Vector(k, _) => *k != ScalarKind::Uint,
        Ty::Matrix { columns, rows } => columns == rows,
        Ty::Sampler(s) => {
            s.sampled == ScalarKind::Float && !s.shadow && matches!(s.dim, SamplerDim::D2 | SamplerDim::Cube)
        }
        Ty::Array(a) => in_es100(&a.elem()),
        Ty::Struct(_) => true,
    }
}

/// The tags of a line.
struct Tags {
    stages: Stages,
    availability: Availability,
    extension: Option<&'static str>,
}

fn parse_tags(text: &'static str, line: u32) -> Tags {
    let mut tags = Tags { stages: Stages::BOTH, availability: Availability::Both, extension: None };
    let mut rest = text.trim();
    while !rest.is_empty() {
        let Some(group) = rest.strip_prefix('[') else {
            table_error(line, &format!("expected `[tag]`, found `{rest}`"))
        };
        let Some(end) = group.find(']') else { table_error(line, "unclosed `[`") };
        for word in group[..end].split_whitespace() {
            match word {
                "vert" => tags.stages = Stages::VERTEX,
                "frag" => tags.stages = Stages::FRAGMENT,
                "es100" => tags.availability = Availability::Es100Only,
                "es300" => tags.availability = Availability::Es300Only,
                _ => match word.strip_prefix("ext=") {
                    Some(name) if !name.is_empty() => tags.extension = Some(name),
                    _ => table_error(line, &format!("unknown tag `{word}`")),
                },
            }
        }
        rest = group[end + 1..].trim_start();
    }
    if tags.extension.is_some() && tags.availability == Availability::Es300Only {
        table_error(line, "an ES 3.00-only builtin has no ES 1.00 extension");
    }
    tags
}

/// The availability of one overload or variable: its tags, narrowed to ES 3.00 when it uses a type ES 1.00 lacks.
fn availability<'t>(tags: &Tags, mut types: impl Iterator<Item = &'t Ty>, line: u32) -> Availability {
    if types.all(in_es100) {
        return tags.availability;
    }
    match tags.availability {
        Availability::Both | Availability::Es300Only => Availability::Es300Only,
        Availability::Es100Only => table_error(line, "an `es100` builtin uses a type GLSL ES 1.00 lacks"),
    }
}

fn parse_table(table: &'static str) -> Catalogue {
    #[derive(PartialEq)]
    enum Section {
        None,
        Functions,
        Variables,
    }
    let mut section = Section::None;
    let mut functions: Vec<Overload> = Vec::new();
    let mut by_name: HashMap<&'static str, Range<usize>> = HashMap::default();
    let mut variables: Vec<BuiltinVar> = Vec::new();
    let mut variable_names = HashSet::default();
    for (index, raw) in table.lines().enumerate() {
        let line = index as u32 + 1;
        let text = raw.split('#').next().unwrap_or("").trim();
        match text {
            "" => continue,
            "@functions" => section = Section::Functions,
            "@variables" => section = Section::Variables,
            _ => match section {
                Section::None => table_error(line, "a line before `@functions` or `@variables`"),
                Section::Functions => {
                    let start = functions.len();
                    let name = parse_function_line(text, line, &mut functions);
                    let previous_is_same = functions[..start].last().is_some_and(|o| o.name == name);
                    match by_name.get_mut(name) {
                        Some(range) if previous_is_same => range.end = functions.len(),
                        Some(_) => table_error(line, &format!("`{name}` continues after other names")),
                        None => {
                            by_name.insert(name, start..functions.len());
                        }
                    }
                }
                Section::Variables => {
                    let var = parse_variable_line(text, line);
                    if !variable_names.insert(var.name) {
                        table_error(line, &format!("variable `{}` declared twice", var.name));
                    }
                    variables.push(var);
                }
            },
        }
    }
    if variables.len() > MAX_VARIABLES {
        table_error(0, &format!("more than {MAX_VARIABLES} variables"));
    }
    if functions.len() > usize::from(u16::MAX) {
        table_error(0, "more than 65535 function overloads");
    }
    let by_name = by_name
        .into_iter()
        .map(|(name, range)| (name, BuiltinFn { start: range.start as u16, end: range.end as u16 }))
        .collect();
    let variables_by_name = variables.iter().enumerate().map(|(i, v)| (v.name, VarId(i as u8))).collect();
    Catalogue { functions, by_name, variables, variables_by_name }
}

/// Parses one function line, appends its overloads, and returns the function name.
fn parse_function_line(text: &'static str, line: u32, functions: &mut Vec<Overload>) -> &'static str {
    let (Some(open), Some(close)) = (text.find('('), text.rfind(')')) else {
        table_error(line, "expected `<ret> <name>(<params>) [tags]`")
    };
    if close < open {
        table_error(line, "`)` before `(`");
    }
    let head: Vec<&'static str> = text[..open].split_whitespace().collect();
    let [ret_word, name] = head[..] else { table_error(line, "expected `<ret> <name>` before `(`") };
    let params_text = text[open + 1..close].trim();
    let mut modes = Vec::new();
    let mut param_words = Vec::new();
    if !params_text.is_empty() {
        for param in params_text.split(',') {
            let words: Vec<&str> = param.split_whitespace().collect();
            let (mode, word) = match words[..] {
                [word] => (ParamMode::In, word),
                ["out", word] => (ParamMode::Out, word),
                ["const", word] => (ParamMode::Const, word),
                _ => table_error(line, &format!("bad parameter `{}`", param.trim())),
            };
            modes.push(mode);
            param_words.push(type_word(word, line));
        }
    }
    let ret_word = type_word_or_void(ret_word, line);
    let tags = parse_tags(&text[close + 1..], line);
    let mut words = param_words.clone();
    words.extend(ret_word);
    let new_from = functions.len();
    for at in instances(&words, line) {
        let params: Vec<Ty> = param_words.iter().map(|&w| instantiate(w, at)).collect();
        let ret = ret_word.map_or(Ty::Void, |w| instantiate(w, at));
        let availability = availability(&tags, params.iter().chain([&ret]), line);
        let earlier = functions.iter().rev().take_while(|o| o.name == name).find(|o| o.params == params);
        if let Some(earlier) = earlier {
            // An expansion that repeats an earlier overload (min(genType, float) at float) adds nothing; a
            // different result or stage for the same parameters is a contradiction.
            if (&earlier.ret, earlier.stages, earlier.availability, earlier.es100_extension)
                != (&ret, tags.stages, availability, tags.extension)
            {
                table_error(line, &format!("`{name}` repeats earlier parameters with another result or tags"));
            }
            continue;
        }
        functions.push(Overload {
            name,
            ret,
            params,
            modes: modes.clone(),
            stages: tags.stages,
            availability,
            es100_extension: tags.extension,
            family_line: line,
        });
    }
    if functions.len() == new_from {
        table_error(line, "the line adds no overload");
    }
    name
}

fn type_word_or_void(word: &str, line: u32) -> Option<TypeWord> {
    (word != "void").then(|| type_word(word, line))
}

fn parse_variable_line(text: &'static str, line: u32) -> BuiltinVar {
    // Tags start at the first `[` after a space (a type `T[]` has its brackets attached).
    let (decl, tags_text) = text.split_at(text.find(" [").unwrap_or(text.len()));
    let words: Vec<&'static str> = decl.split_whitespace().collect();
    let [access, type_text, name] = words[..] else { table_error(line, "expected `<access> <type> <name> [tags]`") };
    let (base, array) = match type_text.strip_suffix("[]") {
        Some(base) => (base, true),
        None => (type_text, false),
    };
    let Some(shape) = concrete_shape(base) else { table_error(line, &format!("unknown type `{base}`")) };
    let ty = if array { Ty::array(shape.ty(), ArrayLen::Unknown) } else { shape.ty() };
    let (writable, constant) = match access {
        "in" => (false, false),
        "out" => (true, false),
        "const" => (false, true),
        _ => table_error(line, &format!("unknown access `{access}`")),
    };
    if !name.starts_with("gl_") {
        table_error(line, &format!("builtin variable `{name}` does not start with `gl_`"));
    }
    let tags = parse_tags(tags_text, line);
    let availability = availability(&tags, [&ty].into_iter(), line);
    BuiltinVar { name, ty, stages: tags.stages, writable, constant, availability, es100_extension: tags.extension }
}

fn table_error(line: u32, message: &str) -> ! {
    panic!("invariant: builtins.txt line {line} is well-formed: {message}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarKind::{Bool, Float, Int, Uint};

    fn sampler(dim: SamplerDim, sampled: ScalarKind, shadow: bool) -> Ty {
        Ty::Sampler(SamplerType { dim, sampled, shadow })
    }

    fn mat(columns: u8, rows: u8) -> Ty {
        Ty::Matrix { columns, rows }
    }

    fn find(name: &str, params: &[Ty]) -> &'static Overload {
        resolve(name, params).unwrap_or_else(|| panic!("no overload {name}{params:?}"))
    }

    #[test]
    fn the_shipped_table_parses_into_the_expected_counts() {
        assert_eq!(functions().len(), 631);
        assert_eq!(variables().len(), 23);
        let counts = [
            ("atan", 8),
            ("abs", 8),
            ("mod", 7),
            ("min", 21),
            ("clamp", 21),
            ("mix", 11),
            ("step", 7),
            ("matrixCompMult", 9),
            ("outerProduct", 9),
            ("transpose", 9),
            ("lessThan", 9),
            ("equal", 12),
            ("textureSize", 15),
            ("texture", 29),
            ("textureProj", 20),
            ("textureLod", 13),
            ("textureOffset", 20),
            ("texelFetch", 9),
            ("textureGrad", 15),
            ("textureGradOffset", 11),
            ("texture2DProj", 4),
            ("dFdx", 4),
        ];
        for (name, count) in counts {
            assert_eq!(overloads(name).len(), count, "{name}");
        }
        let mut seen = HashSet::default();
        for o in functions() {
            assert!(seen.insert((o.name, o.params.clone())), "duplicate overload {} {:?}", o.name, o.params);
            assert_eq!(o.modes.len(), o.params.len());
            assert!(overloads(o.name).iter().any(|x| std::ptr::eq(x, o)));
            assert!(function(o.name).is_some());
            let f = function(o.name).expect("by name");
            assert!(std::ptr::eq(&functions()[f.first_index()], &f.overloads()[0]));
        }
        assert!(function("texture3D").is_none() && overloads("main").is_empty());
    }

    #[test]
    fn common_functions_cover_every_family() {
        let clamp = find("clamp", &[Ty::Vector(Float, 3), Ty::FLOAT, Ty::FLOAT]);
        assert_eq!((&clamp.ret, clamp.availability), (&Ty::Vector(Float, 3), Availability::Both));
        let clamp = find("clamp", &[Ty::Vector(Int, 2), Ty::Vector(Int, 2), Ty::Vector(Int, 2)]);
        assert_eq!((&clamp.ret, clamp.availability), (&Ty::Vector(Int, 2), Availability::Es300Only));
        assert_eq!(find("clamp", &[Ty::UINT, Ty::UINT, Ty::UINT]).ret, Ty::UINT);
        assert!(resolve("clamp", &[Ty::Vector(Float, 3), Ty::INT, Ty::INT]).is_none());
        assert_eq!(
            find("mix", &[Ty::Vector(Float, 2), Ty::Vector(Float, 2), Ty::Vector(Bool, 2)]).ret,
            Ty::Vector(Float, 2)
        );
        assert!(resolve("mix", &[Ty::Vector(Float, 3), Ty::Vector(Float, 3), Ty::Vector(Bool, 2)]).is_none());
        assert_eq!(find("isnan", &[Ty::Vector(Float, 4)]).ret, Ty::Vector(Bool, 4));
        assert_eq!(find("floatBitsToUint", &[Ty::FLOAT]).ret, Ty::UINT);
        assert_eq!(find("dot", &[Ty::Vector(Float, 3), Ty::Vector(Float, 3)]).ret, Ty::FLOAT);
        assert!(resolve("dot", &[Ty::Vector(Float, 2), Ty::Vector(Float, 3)]).is_none());
        assert_eq!(find("modf", &[Ty::FLOAT, Ty::FLOAT]).modes, [ParamMode::In, ParamMode::Out]);
        assert_eq!(find("packHalf2x16", &[Ty::Vector(Float, 2)]).ret, Ty::UINT);
        assert_eq!(find("any", &[Ty::Vector(Bool, 3)]).ret, Ty::BOOL);
        assert_eq!(find("lessThan", &[Ty::Vector(Int, 4), Ty::Vector(Int, 4)]).availability, Availability::Both);
        assert_eq!(find("lessThan", &[Ty::Vector(Uint, 4), Ty::Vector(Uint, 4)]).availability, Availability::Es300Only);
    }

    #[test]
    fn matrix_functions_have_the_right_shapes() {
        assert_eq!(find("outerProduct", &[Ty::Vector(Float, 3), Ty::Vector(Float, 2)]).ret, mat(2, 3));
        assert_eq!(find("outerProduct", &[Ty::Vector(Float, 2), Ty::Vector(Float, 4)]).ret, mat(4, 2));
        assert_eq!(find("transpose", &[mat(2, 3)]).ret, mat(3, 2));
        assert_eq!(find("transpose", &[mat(4, 3)]).ret, mat(3, 4));
        assert_eq!(find("determinant", &[mat(3, 3)]).ret, Ty::FLOAT);
        assert!(resolve("determinant", &[mat(2, 3)]).is_none() && resolve("inverse", &[mat(3, 4)]).is_none());
        let inverse = find("inverse", &[mat(4, 4)]);
        assert_eq!((&inverse.ret, inverse.availability), (&mat(4, 4), Availability::Es300Only));
        assert_eq!(find("matrixCompMult", &[mat(2, 2), mat(2, 2)]).availability, Availability::Both);
        assert_eq!(find("matrixCompMult", &[mat(2, 3), mat(2, 3)]).availability, Availability::Es300Only);
    }

    #[test]
    fn texture_functions_cover_every_sampler() {
        let i2da = sampler(SamplerDim::D2Array, Int, false);
        assert_eq!(find("texture", &[i2da, Ty::Vector(Float, 3)]).ret, Ty::Vector(Int, 4));
        let shadow = find("texture", &[sampler(SamplerDim::Cube, Float, true), Ty::Vector(Float, 4), Ty::FLOAT]);
        assert_eq!((&shadow.ret, shadow.stages), (&Ty::FLOAT, Stages::FRAGMENT));
        let us3 = || sampler(SamplerDim::D3, Uint, false);
        assert_eq!(find("texelFetch", &[us3(), Ty::Vector(Int, 3), Ty::INT]).ret, Ty::Vector(Uint, 4));
        assert_eq!(find("textureSize", &[us3(), Ty::INT]).ret, Ty::Vector(Int, 3));
        let s2d = || sampler(SamplerDim::D2, Float, false);
        let offset = find("textureOffset", &[s2d(), Ty::Vector(Float, 2), Ty::Vector(Int, 2)]);
        assert_eq!(offset.modes, [ParamMode::In, ParamMode::In, ParamMode::Const]);
        let cube = find("textureCube", &[sampler(SamplerDim::Cube, Float, false), Ty::Vector(Float, 3)]);
        assert_eq!(
            (&cube.ret, cube.availability, cube.stages),
            (&Ty::Vector(Float, 4), Availability::Es100Only, Stages::BOTH)
        );
        let texture2d = find("texture2D", &[s2d(), Ty::Vector(Float, 2)]);
        assert_eq!(texture2d.availability, Availability::Es100Only);
        assert_eq!(find("texture2D", &[s2d(), Ty::Vector(Float, 2), Ty::FLOAT]).stages, Stages::FRAGMENT);
        assert_eq!(find("texture2DLod", &[s2d(), Ty::Vector(Float, 2), Ty::FLOAT]).stages, Stages::VERTEX);
        let lod_ext = find("texture2DLodEXT", &[s2d(), Ty::Vector(Float, 2), Ty::FLOAT]);
        assert_eq!(lod_ext.es100_extension, Some("GL_EXT_shader_texture_lod"));
        assert_eq!(find("texture", &[s2d(), Ty::Vector(Float, 2)]).availability, Availability::Es300Only);
        assert!(
            resolve("textureLod", &[sampler(SamplerDim::Cube, Float, true), Ty::Vector(Float, 4), Ty::FLOAT]).is_none()
        );
    }

    #[test]
    fn derivatives_are_fragment_only() {
        for name in ["dFdx", "dFdy", "fwidth"] {
            for o in overloads(name) {
                assert_eq!(o.stages, Stages::FRAGMENT);
                assert_eq!(o.availability, Availability::Both);
                assert_eq!(o.es100_extension, Some("GL_OES_standard_derivatives"));
            }
        }
    }

    #[test]
    fn variables_have_their_stage_access_and_version() {
        let position = variable("gl_Position").expect("gl_Position");
        assert_eq!((&position.ty, position.stages, position.writable), (&Ty::Vector(Float, 4), Stages::VERTEX, true));
        let vertex_id = variable("gl_VertexID").expect("gl_VertexID");
        assert_eq!((vertex_id.writable, vertex_id.availability), (false, Availability::Es300Only));
        let data = variable("gl_FragData").expect("gl_FragData");
        assert_eq!(data.ty, Ty::array(Ty::Vector(Float, 4), ArrayLen::Unknown));
        assert_eq!((data.availability, data.stages), (Availability::Es100Only, Stages::FRAGMENT));
        let depth = variable("gl_FragDepthEXT").expect("gl_FragDepthEXT");
        assert_eq!(depth.es100_extension, Some("GL_EXT_frag_depth"));
        let draw_buffers = variable("gl_MaxDrawBuffers").expect("gl_MaxDrawBuffers");
        assert!(draw_buffers.constant && !draw_buffers.writable && draw_buffers.stages == Stages::BOTH);
        assert_eq!(variable("gl_MaxVaryingVectors").map(|v| v.availability), Some(Availability::Es100Only));
        assert!(variable("gl_FragColor").is_some_and(|v| v.writable && v.availability == Availability::Es100Only));
        assert!(variable("gl_Foo").is_none() && variable(DEPTH_RANGE).is_none());
        assert_eq!(depth_range_field("diff"), Some(Ty::FLOAT));
    }

    #[test]
    fn a_variable_id_names_its_entry() {
        for (i, v) in variables().iter().enumerate() {
            let id = variable_id(v.name).expect("by name");
            assert_eq!((id.index(), id.name()), (i, v.name));
            assert!(std::ptr::eq(id.var(), v));
        }
        assert!(variable_id("gl_NotAVariable").is_none() && variable_id(DEPTH_RANGE).is_none());
    }

    #[test]
    #[should_panic(expected = "builtins.txt line 3")]
    fn a_malformed_line_names_its_line() {
        parse_table("@functions\ngenType sin(genType)\ngenType cos(genTipe)\n");
    }

    #[test]
    #[should_panic(expected = "builtins.txt line 4")]
    fn a_name_split_across_the_table_names_its_line() {
        parse_table("@functions\nfloat a(float)\nfloat b(float)\nfloat a(vec2)\n");
    }
}
