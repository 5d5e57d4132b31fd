//! The shaderlab frontend: ShaderLab source text to an IR [`Module`].
//!
//! Pipeline: [`lexer`] -> [`structure`] (Shader / SubShader / Pass, render states, entries; everything else is
//! a level's GLSL text) -> per level [`preprocess`] -> [`parser`] (straight into IR entities, no syntax tree).
//! Levels are processed once each, top-down: the shader level's text is parsed once and shared by every pass,
//! and the preprocessor and parser state (macros, struct names, included chunks) flows from a level to the
//! levels below it.
//!
//! The frontend never fails and never panics on any input: every problem is a clue in `Module::clues`.
//! It does no I/O: included chunks come through an [`IncludeResolver`].

pub mod diag;
pub mod expand;
pub mod lexer;
mod macros;
pub mod parser;
mod pool;
pub mod pp_expr;
pub mod preprocess;
pub mod render_state;
pub mod structure;
pub mod token;

#[cfg(test)]
mod tests;

use diag::Sink;
use parser::{BuiltinTypeIds, Entities, Keywords, Parser, SourceMacros};
use preprocess::{PpState, Preprocessor};
use shaderlab_ir::hash::FastHashMap as HashMap;
use shaderlab_ir::PrimaryMap;
use shaderlab_ir::{
    Clue, ClueKind, EntryRef, Guarded, Mode, Module, Name, Pass, PassKind, Scope, ScopeId, Shader, StructureClue,
    SubShader,
};
use structure::{EntryAssigns, LevelSyntax, PassSyntax};

pub use preprocess::normalize_key;

/// Source of `#include` chunks. Keys arrive normalized (see [`normalize_key`]): relative to an include root,
/// `/`-separated, without `.` or `..` segments. Return `None` for an unknown key.
pub trait IncludeResolver {
    fn load(&self, key: &str) -> Option<String>;
}

/// An include map: key -> chunk text.
#[derive(Clone, Debug, Default)]
pub struct MapResolver {
    pub chunks: HashMap<String, String>,
}

impl MapResolver {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn insert(&mut self, key: impl Into<String>, text: impl Into<String>) {
        self.chunks.insert(key.into(), text.into());
    }
}

impl IncludeResolver for MapResolver {
    fn load(&self, key: &str) -> Option<String> {
        self.chunks.get(key).cloned()
    }
}

/// Resource limits; reaching one is a LimitExceeded diagnostic, never a crash or a hang.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Nesting of expressions and statements.
    pub max_nesting: usize,
    pub max_include_depth: usize,
    /// Nested macro expansions (a macro whose expansion uses a macro ...).
    pub max_macro_depth: usize,
    /// Tokens produced by macro expansion in one compile.
    pub max_macro_expansion_tokens: usize,
    /// `#include`s spliced in one pass.
    pub max_inclusions: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_nesting: 128,
            max_include_depth: 32,
            max_macro_depth: 256,
            max_macro_expansion_tokens: 1 << 20,
            max_inclusions: 1024,
        }
    }
}

/// Frontend options. The defines are borrowed so a caller that keeps its own list does not copy it per parse.
#[derive(Clone, Debug, Default)]
pub struct Options<'a> {
    /// `None`: preserving mode. `Some(defines)`: variant mode with these `(name, value)` macros.
    pub defines: Option<&'a [(String, String)]>,
    pub limits: Limits,
}

/// Parser state that flows from a level to the levels below it.
#[derive(Clone, Default)]
struct LevelState {
    pp: PpState,
    macros: SourceMacros,
    type_names: macros::NameSet,
}

/// Read a ShaderLab source into a module. `name` is the file name shown in diagnostics.
pub fn parse(name: &str, text: &str, resolver: &dyn IncludeResolver, options: &Options<'_>) -> Module {
    let mode = match &options.defines {
        Some(d) => Mode::Variant { defines: d.to_vec() },
        None => Mode::Preserving,
    };
    // Every module's interner starts with the keywords and builtin type names, in one fixed order, so the
    // keyword tables (built once per process) hold for every module. Its room for new names is sized from the
    // text (names are far longer than eight bytes with what separates them, so no file without includes
    // should outgrow it); a file with includes gets more at its first include (see `INCLUDE_ROOM`).
    let seed = parser::seed();
    let mut module = Module::with_names(mode, seed.names.copy_with_room((text.len() / 8).min(INCLUDE_ROOM)));
    let keywords = &seed.keywords;
    // Room for the main file, the command line and two chunks: what the first file's push would allocate, without
    // the regrowth path.
    module.sources.files = PrimaryMap::with_capacity(4);
    let file = module.sources.add(name, text, None);
    let (tokens, file_continued) = lexer::lex_telling_continuations(text, file, &mut module.names);
    let mut sink = Sink::default();
    let Some(mut shader) = structure::parse_structure(&tokens, &module.names, &mut sink) else {
        pool::give(tokens);
        module.clues = sink.clues;
        return module;
    };
    // The module's structure tables, sized from the structure: a scope per level.
    let pass_count = shader.subshaders.iter().map(|s| s.passes.len()).sum::<usize>();
    module.subshaders = PrimaryMap::with_capacity(shader.subshaders.len());
    module.passes = PrimaryMap::with_capacity(pass_count);
    module.scopes = PrimaryMap::with_capacity(1 + shader.subshaders.len() + pass_count);

    let mut root = LevelState::default();
    if let Some(defines) = options.defines {
        let cmd = module.sources.add("<command line>", String::new(), None);
        root.pp.define_command_line(defines, cmd, &mut module.names);
    }
    let builtin_type_ids = BuiltinTypeIds::new(keywords);
    let mut driver = Driver {
        module: &mut module,
        sink: &mut sink,
        resolver,
        options,
        keywords,
        builtin_type_ids,
        file_tokens: &tokens,
        file_continued,
    };

    // The syntax's names and tags move into the module (the syntax is not used after its level is read).
    let shader_scope = driver.level(&shader.level, None, &mut root);
    driver.module.shader = Some(Shader {
        name: std::mem::take(&mut shader.name),
        name_span: shader.name_span,
        scope: shader_scope,
        span: shader.span,
    });
    let mut shader_render = render_state::Merged::new(shader.generation);
    shader_render.level(&shader.level, &driver.module.names, driver.sink);

    // A level's state (preprocessor and parser state, render state) starts as a copy of its parent's; the last
    // child takes the parent's own (nothing reads it after), so a shader with one subshader of one pass copies no
    // tables.
    let sub_count = shader.subshaders.len();
    for (sub_index, sub) in shader.subshaders.iter_mut().enumerate() {
        let last_sub = sub_index + 1 == sub_count;
        let (mut sub_state_copy, mut sub_render_copy) = (None, None);
        let sub_state = inherit(&mut root, last_sub, &mut sub_state_copy);
        let sub_scope = driver.level(&sub.level, Some(shader_scope), sub_state);
        let tags = std::mem::take(&mut sub.level.tags);
        let sub_render = inherit(&mut shader_render, last_sub, &mut sub_render_copy);
        sub_render.level(&sub.level, &driver.module.names, driver.sink);
        let sub_id = driver.module.subshaders.push(SubShader {
            name: std::mem::take(&mut sub.name),
            name_span: sub.name_span,
            tags,
            scope: sub_scope,
            passes: Vec::with_capacity(sub.passes.len()),
            span: sub.span,
        });
        let last_program = sub.passes.iter().rposition(|p| matches!(p, PassSyntax::Pass { .. }));
        let pass_count = sub.passes.len();
        for (pass_index, pass) in sub.passes.iter_mut().enumerate() {
            let id = match pass {
                PassSyntax::UsePass { path, span } => {
                    let render_state = sub_render.map().clone();
                    driver.module.passes.push(Pass {
                        name: path.clone(),
                        name_span: *span,
                        subshader: sub_id,
                        tags: Vec::new(),
                        render_state,
                        kind: PassKind::UsePass { path: std::mem::take(path) },
                        span: *span,
                    })
                }
                PassSyntax::Pass { name, name_span, span, level, vertex, fragment } => {
                    let (mut pass_state_copy, mut render_copy) = (None, None);
                    let pass_state = inherit(sub_state, Some(pass_index) == last_program, &mut pass_state_copy);
                    let scope = driver.level(level, Some(sub_scope), pass_state);
                    // The tags move out first: the merged state keeps borrowing the level.
                    let tags = std::mem::take(&mut level.tags);
                    let render = inherit(sub_render, pass_index + 1 == pass_count, &mut render_copy);
                    render.level(level, &driver.module.names, driver.sink);
                    let render_state = render.take_map();
                    // A missing entry is not reported when an unterminated comment or string swallowed the pass's
                    // text (that is the error); the pass's tokens are looked through only when an entry is missing.
                    let swallowed = || {
                        level.glsl.iter().flat_map(|run| tokens.get(run.clone()).unwrap_or_default()).any(|t| {
                            matches!(
                                t.kind,
                                token::TokenKind::Error(
                                    token::LexError::UnterminatedComment | token::LexError::UnterminatedString
                                )
                            )
                        })
                    };
                    if (vertex.is_empty() || fragment.is_empty()) && !swallowed() {
                        let stage = match (vertex.is_empty(), fragment.is_empty()) {
                            (true, true) => "VertexShader and FragmentShader",
                            (true, false) => "VertexShader",
                            _ => "FragmentShader",
                        };
                        driver.sink.structure(
                            StructureClue::MissingEntry { pass: name.clone(), stage: stage.into() },
                            *name_span,
                        );
                    }
                    let entry_name = |assigns: &EntryAssigns| assigns.first.as_ref().map(|e| e.name);
                    let [vertex_defined, fragment_defined] =
                        driver.defines_functions(scope, [entry_name(vertex), entry_name(fragment)]);
                    let vertex = driver.entry("VertexShader", vertex, vertex_defined);
                    let fragment = driver.entry("FragmentShader", fragment, fragment_defined);
                    driver.module.passes.push(Pass {
                        name: std::mem::take(name),
                        name_span: *name_span,
                        subshader: sub_id,
                        tags,
                        render_state,
                        kind: PassKind::Program { scope, vertex, fragment },
                        span: *span,
                    })
                }
            };
            if let Some(s) = driver.module.subshaders.get_mut(sub_id) {
                s.passes.push(id);
            }
        }
    }
    pool::give(tokens);
    module.clues = sink.clues;
    module
}

/// Room for new names that a module's interner gets (without rehashing) once its text includes a chunk: a small
/// file's names fit in a small table, a file with includes (which tend to bring hundreds of names) gets the room
/// every module used to start with.
pub(crate) const INCLUDE_ROOM: usize = 512;

/// The room a list gets at its first push (a level's children, text runs and render-state items, the module's
/// entity arenas, the declarator list): what the regrowth path would allocate, without its overhead (~45
/// instructions per list).
pub(crate) const FIRST_ROOM: usize = 4;

/// Push `item` to `list`; a list without room first gets room for [`FIRST_ROOM`].
#[inline]
pub(crate) fn push_with_room<T>(list: &mut Vec<T>, item: T) {
    if list.capacity() == 0 {
        *list = Vec::with_capacity(FIRST_ROOM);
    }
    list.push(item);
}

/// The names a module's interner holds without rehashing once its text includes a chunk: the seed's and
/// [`INCLUDE_ROOM`] more.
pub(crate) fn include_room_total() -> usize {
    parser::seed().names.len() + INCLUDE_ROOM
}

/// A child level's state: its parent's own for the last child (nothing reads it after), else a copy of it kept in
/// `copy`. Borrowed, not moved: a level's state is large, and moving it in and out costs more than the copy.
#[inline(always)]
fn inherit<'p, T: Clone>(parent: &'p mut T, last_child: bool, copy: &'p mut Option<T>) -> &'p mut T {
    if last_child {
        parent
    } else {
        copy.insert(parent.clone())
    }
}

struct Driver<'a> {
    module: &'a mut Module,
    sink: &'a mut Sink,
    resolver: &'a dyn IncludeResolver,
    options: &'a Options<'a>,
    keywords: &'a Keywords,
    builtin_type_ids: BuiltinTypeIds,
    /// The main file's tokens, which levels' texts are runs of.
    file_tokens: &'a [token::Token],
    /// The main file has a line continuation (see [`Preprocessor::continued`]).
    file_continued: bool,
}

impl Driver<'_> {
    /// Preprocess and parse one level's GLSL text into a new scope.
    fn level(&mut self, level: &LevelSyntax, parent: Option<ScopeId>, state: &mut LevelState) -> ScopeId {
        // A level without GLSL text (a shader or subshader holding only its children) has no items and changes no
        // state: no preprocessor, parser or buffers for it.
        if level.glsl.is_empty() {
            return self.module.scopes.push(Scope { parent, items: Vec::new() });
        }
        let variant = self.options.defines.is_some();
        let mut pp = Preprocessor::new(self.module, self.sink, self.resolver, &self.options.limits, variant);
        pp.continued = self.file_continued;
        let mut joined = Vec::new();
        let tokens = pp.level(level.text(self.file_tokens, &mut joined), &mut state.pp);
        let directives = std::mem::take(&mut pp.directives);
        drop(pp);
        // The parser interns types and pushes expressions and entities into their arenas in the module as it
        // reads them.
        let module = &mut *self.module;
        let entities = Entities {
            structs: &mut module.structs,
            globals: &mut module.globals,
            functions: &mut module.functions,
            macros: &mut module.macros,
        };
        let parser = Parser::new(
            &tokens,
            &directives,
            &module.names,
            self.keywords,
            self.sink,
            &mut module.types,
            &mut module.global_exprs,
            &mut self.builtin_type_ids,
            entities,
            &mut state.macros,
            &mut state.type_names,
            self.options.limits.max_nesting,
        );
        let items = parser.parse_level();
        pool::give(tokens);
        pool::give_directives(directives);
        self.module.scopes.push(Scope { parent, items })
    }

    /// Check a pass's entry assignments: at most one each, naming a function defined in the pass's text
    /// (`defined`: whether the first one's does, see [`Driver::defines_functions`]).
    fn entry(&mut self, stage: &str, assigns: &EntryAssigns, defined: bool) -> Option<EntryRef> {
        let first = assigns.first.as_ref()?;
        for dup in &assigns.repeats {
            self.sink.push(
                Clue::new(
                    ClueKind::Structure(StructureClue::DuplicateEntryAssignment { stage: stage.into() }),
                    dup.span,
                )
                .with_note(Some(first.span), "first assigned here"),
            );
        }
        let name = first.name;
        if !defined {
            let name = self.module.names.resolve(name).to_owned();
            self.sink.structure(StructureClue::EntryNotFound { name }, first.name_span);
        }
        Some(EntryRef { name, span: first.name_span })
    }

    /// For each of `names` (a pass's two entries, `None` where one is not assigned), whether `scope` or a scope above
    /// it defines (with a body) a function of that name: one walk for both. The driver makes the parent links, so
    /// the chain ends within as many steps as there are scopes.
    fn defines_functions(&self, scope: ScopeId, names: [Option<Name>; 2]) -> [bool; 2] {
        let module = &*self.module;
        // A name not asked about counts as found, so that the walk stops once the others are.
        let mut found = names.map(|name| name.is_none());
        let chain = std::iter::successors(module.scopes.get(scope), |s| s.parent.and_then(|p| module.scopes.get(p)));
        for scope in chain.take(module.scopes.len()) {
            if found.iter().all(|&f| f) {
                break;
            }
            Guarded::for_each_item(&scope.items, &mut |item| {
                if let shaderlab_ir::GlobalItem::Function(f) = item {
                    if let Some(f) = module.functions.get(*f).filter(|f| f.body.is_some()) {
                        for (hit, name) in found.iter_mut().zip(names) {
                            *hit |= name == Some(f.name);
                        }
                    }
                }
            });
        }
        found
    }
}
