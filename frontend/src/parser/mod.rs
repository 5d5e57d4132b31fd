//! The GLSL parser: one level's preprocessed tokens straight into IR entities (the level's global items).
//!
//! There is no syntax tree. The parser writes everything it reads in its IR form into the arena that owns it:
//! expressions, operands first, into the expression arena of the function being read (or the module's
//! `global_exprs` for global initializers, array sizes outside functions, struct member array sizes and macro
//! bodies); types into the module's type table; structs, global variables, functions and macro definitions into
//! the module's arenas when they are complete; locals into the function being read, in declaration order.
//! Statements and blocks are IR values built bottom-up. Whatever is read but then dropped (a construct with a
//! syntax error, a macro body that is not an expression) is taken back out of those arenas
//! ([`Parser::rollback`]), so they hold exactly the entities the kept items refer to, numbered in source order:
//! the order a walk over the kept items would give (a function gets its id after the prototypes and structs in
//! its body; a declaration's locals, globals or struct members are made once its `;` is read).
//!
//! Recursive descent with precedence climbing for binary operators. Every syntax error is reported
//! (UnexpectedToken naming what was expected), then the parser recovers at the next `;` or `}` and goes on;
//! errors met while recovering are not reported again. A nesting limit on expressions and statements turns
//! pathological input into one LimitExceeded diagnostic instead of a stack overflow.
//!
//! Directive markers from the preprocessor become conditional regions in five list contexts: global items,
//! struct members, statements, parameters and call arguments (see [`Parser::guarded_list`]).

mod expr;
mod items;
mod stmt;

use crate::diag::Sink;
use crate::preprocess::Directive;
use crate::token::{LexError, Punct, Token, TokenKind};
use cranelift_entity::{EntityRef, PrimaryMap};
use shaderlab_ir::{
    ArrayDim, CondBranch, CondRegion, Expr, ExprId, Expression, Function, FunctionId, GlobalId, GlobalItem, GlobalVar,
    Guarded, Interner, InternerSeed, Local, LocalId, MacroDef, MacroId, Name, Precision, Span, StructDecl, StructId,
    SyntaxClue, TypeArena, TypeId, TypeInner, TypeSpec,
};

/// An expression arena of the IR.
pub(crate) type ExprArena = PrimaryMap<ExprId, Expression>;
/// The locals of a function.
pub(crate) type Locals = PrimaryMap<LocalId, Local>;

/// The module's entity arenas the parser adds to (besides types and `global_exprs`).
pub struct Entities<'a> {
    pub structs: &'a mut PrimaryMap<StructId, StructDecl>,
    pub globals: &'a mut PrimaryMap<GlobalId, GlobalVar>,
    pub functions: &'a mut PrimaryMap<FunctionId, Function>,
    pub macros: &'a mut PrimaryMap<MacroId, MacroDef>,
}

/// The sizes of the arenas the parser adds to, at some point: [`Parser::rollback`] drops what came after.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    function_exprs: usize,
    locals: usize,
    global_exprs: usize,
    types: usize,
    structs: usize,
    globals: usize,
    functions: usize,
    macros: usize,
}

/// One declarator of a declaration being read (`name[dims] = init`), before it becomes a global, a struct member
/// or a local (see [`Parser::declarator_list`]).
pub(crate) struct Declarator {
    pub name: Name,
    pub name_span: Span,
    /// The declaration's type with this declarator's dimensions appended. The dimensions written on the type
    /// are the declarator's own copies: each declarator after the first has its own expressions for them.
    pub ty: TypeSpec,
    pub init: Option<ExprId>,
    pub span: Span,
}

/// The type id each builtin type name was last interned as in a module, by name index (like
/// `Keywords::words`): a cache in front of the type table's hash lookup, kept for the whole module (every
/// level's parser uses it). A rollback that drops types forgets the ids it dropped ([`BuiltinTypeIds::forget_from`]),
/// so every id in the cache is in the table.
pub struct BuiltinTypeIds(Vec<Option<TypeId>>);

impl BuiltinTypeIds {
    pub fn new(kw: &Keywords) -> Self {
        BuiltinTypeIds(vec![None; kw.words.len()])
    }

    /// Forget the ids from `len` on (the type table is cut back to `len` types).
    fn forget_from(&mut self, len: usize) {
        for slot in &mut self.0 {
            if slot.is_some_and(|id| id.index() >= len) {
                *slot = None;
            }
        }
    }
}

/// The room the first level's parser gives the module's type table: enough for a small file (about 10 types), so
/// that its table is allocated once instead of growing from empty through three rehashes (the largest corpus
/// shaders use 28 types and grow once; room for 32 measured worse than 16 on three of four small files: a larger first
/// allocation).
const TYPES_START: usize = 16;

/// The room a list starts with once it has an element (see [`Parser::guarded_list`]), by context: enough for the
/// usual small file's list without a regrowth (each a reallocation and a copy), little enough to stay in small
/// allocations.
pub(crate) struct Room {
    /// A level's global items (a small pass has a few globals, structs and functions).
    pub level: usize,
    /// A function body's statements.
    pub body: usize,
    /// Every other list (parameters, struct members, statements of a nested block, call arguments, the branches of
    /// a conditional region): most have one to four elements.
    pub nested: usize,
}

pub(crate) const ROOM: Room = Room { level: 8, body: 8, nested: 4 };

/// How far [`Parser::function_extent`] looks ahead.
const FUNCTION_SCAN_LIMIT: usize = 4096;

/// What [`Parser::function_extent`] counts.
struct FunctionExtent {
    tokens: usize,
    /// The `,` and `;`.
    separators: usize,
}

/// GLSL keywords the parser dispatches on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kw {
    Struct,
    If,
    Else,
    For,
    While,
    Do,
    Switch,
    Case,
    Default,
    Break,
    Continue,
    Return,
    Discard,
    True,
    False,
    Precision,
    Highp,
    Mediump,
    Lowp,
    Const,
    Uniform,
    In,
    Out,
    Inout,
    Flat,
    Smooth,
    Centroid,
    Invariant,
    Precise,
    Layout,
}

/// What a name is to the parser: a keyword, a builtin type name, or (both `None`) neither.
#[derive(Clone, Copy, Debug, Default)]
struct Word {
    kw: Option<Kw>,
    ty: Option<TypeInner>,
}

/// Keyword and builtin-type lookup tables for one module's interner.
pub struct Keywords {
    /// Indexed by name: the keywords and builtin type names are interned first (see [`seed`]), so they have the
    /// lowest indices and a lookup is one bounds check and a load. Names past the end are neither.
    words: Vec<Word>,
    /// `attribute` and `varying`: ES 1.00 storage qualifiers, but plain names in ShaderLab code
    /// (`void frag(Varyings varying)`); they qualify only when a type follows.
    pub(crate) attribute: Name,
    pub(crate) varying: Name,
}

impl Keywords {
    pub fn new(names: &mut Interner) -> Self {
        use Kw::*;
        let list = [
            ("struct", Struct),
            ("if", If),
            ("else", Else),
            ("for", For),
            ("while", While),
            ("do", Do),
            ("switch", Switch),
            ("case", Case),
            ("default", Default),
            ("break", Break),
            ("continue", Continue),
            ("return", Return),
            ("discard", Discard),
            ("true", True),
            ("false", False),
            ("precision", Precision),
            ("highp", Highp),
            ("mediump", Mediump),
            ("lowp", Lowp),
            ("const", Const),
            ("uniform", Uniform),
            ("in", In),
            ("out", Out),
            ("inout", Inout),
            ("flat", Flat),
            ("smooth", Smooth),
            ("centroid", Centroid),
            ("invariant", Invariant),
            ("precise", Precise),
            ("layout", Layout),
        ];
        fn entry(words: &mut Vec<Word>, name: Name) -> &mut Word {
            if words.len() <= name.index() {
                words.resize(name.index() + 1, Word::default());
            }
            &mut words[name.index()]
        }
        let mut words: Vec<Word> = Vec::new();
        for &(w, k) in &list {
            entry(&mut words, names.intern(w)).kw = Some(k);
        }
        for name in [
            "void", "bool", "int", "uint", "float", "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4", "uvec2",
            "uvec3", "uvec4", "bvec2", "bvec3", "bvec4", "mat2", "mat3", "mat4", "mat2x2", "mat2x3", "mat2x4",
            "mat3x2", "mat3x3", "mat3x4", "mat4x2", "mat4x3", "mat4x4",
        ]
        .into_iter()
        .chain(shaderlab_ir::types::SAMPLERS.iter().map(|(n, _)| *n))
        {
            if let Some(t) = TypeInner::from_builtin_name(name) {
                entry(&mut words, names.intern(name)).ty = Some(t);
            }
        }
        let attribute = names.intern("attribute");
        let varying = names.intern("varying");
        Keywords { words, attribute, varying }
    }

    fn word(&self, name: Name) -> Word {
        self.words.get(name.index()).copied().unwrap_or_default()
    }
}

/// The keywords and builtin type names every module's interner starts with, and the keyword tables over them.
pub struct Seed {
    /// The names, with slot tables prebuilt for every room up to [`crate::INCLUDE_ROOM`] more names.
    pub names: InternerSeed,
    pub keywords: Keywords,
}

/// The process-wide [`Seed`], built on first use. A module whose interner starts as
/// `seed().names.copy_with_room(..)` can use `seed().keywords`: the names are the same.
pub fn seed() -> &'static Seed {
    static SEED: std::sync::OnceLock<Seed> = std::sync::OnceLock::new();
    SEED.get_or_init(|| {
        let mut interner = Interner::new();
        let keywords = Keywords::new(&mut interner);
        Seed { names: InternerSeed::new(&interner, crate::INCLUDE_ROOM), keywords }
    })
}

/// What the parser knows about a macro (preserving mode).
#[derive(Clone, Debug)]
pub struct MacroInfo {
    pub params: Option<Vec<Name>>,
    pub body: Vec<Token>,
}

/// The source macros visible at a point of the text (preserving mode), by name.
pub type SourceMacros = crate::macros::MacroMap<MacroInfo>;

pub struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    pub(crate) directives: &'a [Directive],
    pub(crate) names: &'a Interner,
    kw: &'a Keywords,
    sink: &'a mut Sink,
    /// The module's types: the parser interns every type it keeps, in reading order.
    pub(crate) types: &'a mut TypeArena,
    /// The module's expressions outside functions (global initializers and array sizes, struct member array
    /// sizes, macro bodies).
    global_exprs: &'a mut ExprArena,
    /// The arena of the function whose parameters or body are being read; `None` outside functions. New
    /// expressions go here when it is set, to `global_exprs` otherwise.
    function_exprs: Option<ExprArena>,
    /// The locals of the function whose parameters or body are being read (empty outside functions).
    pub(crate) locals: Locals,
    /// The module's structs, globals, functions and macro definitions.
    pub(crate) entities: Entities<'a>,
    /// The declarators of the declaration being read (reused from one declaration to the next).
    pub(crate) declarators: Vec<Declarator>,
    /// The module's cache in front of its type table for builtin types (see [`BuiltinTypeIds`]).
    builtin_type_ids: &'a mut BuiltinTypeIds,
    /// Source macros visible here (preserving mode): uses become `MacroRef`s.
    pub(crate) macros: &'a mut SourceMacros,
    /// Struct names declared so far (to tell declarations from expressions).
    pub(crate) type_names: &'a mut crate::macros::NameSet,
    depth: usize,
    max_depth: usize,
    /// Set when the depth limit was hit: unwind to the next statement boundary without more errors.
    bailing: bool,
    /// Set after an error until the parser has resynchronized.
    recovering: bool,
    /// Synthetic `#endif` markers still ahead whose regions were closed early.
    pending_synthetic: usize,
    end_span: Span,
}

/// What a list element parser saw.
pub(crate) enum Step {
    /// The element's items (zero or more: a declaration can make several) are pushed to the list.
    Done,
    /// Nothing produced (an error already reported, or a separator), keep going. What an element parser that can
    /// give up after reading part of a construct made is dropped (see [`Partial`]).
    Skip,
    /// The list ends here (the closing token is not consumed).
    End,
}

/// Whether a list's element parser can give up after reading part of a construct (see [`Parser::guarded_list`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Partial {
    /// It can: when an element ends in [`Step::Skip`] or [`Step::End`], the expressions, types and entities made
    /// since it started are dropped (a mark is taken before each element).
    Dropped,
    /// It cannot (call arguments): nothing is read before a skip or an end, and an element read is always kept. No
    /// mark is taken.
    Never,
}

/// Push one unguarded item to a list: the usual [`Step::Done`] of an element parser.
#[inline]
pub(crate) fn done<T>(out: &mut Vec<Guarded<T>>, item: T) -> Step {
    out.push(Guarded::Item(item));
    Step::Done
}

/// An element parser of [`Parser::guarded_list`]: reads one element at the current token and pushes its items.
pub(crate) type Element<'e, 'a, T> = dyn FnMut(&mut Parser<'a>, &mut Vec<Guarded<T>>) -> Step + 'e;

impl<'a> Parser<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        toks: &'a [Token],
        directives: &'a [Directive],
        names: &'a Interner,
        kw: &'a Keywords,
        sink: &'a mut Sink,
        types: &'a mut TypeArena,
        global_exprs: &'a mut ExprArena,
        builtin_type_ids: &'a mut BuiltinTypeIds,
        entities: Entities<'a>,
        macros: &'a mut SourceMacros,
        type_names: &'a mut crate::macros::NameSet,
        max_depth: usize,
    ) -> Self {
        let end_span = toks.last().map(|t| t.span.end_point()).unwrap_or_default();
        if types.is_empty() {
            types.reserve(TYPES_START);
        }
        Parser {
            toks,
            pos: 0,
            directives,
            names,
            kw,
            sink,
            types,
            global_exprs,
            function_exprs: None,
            locals: Locals::new(),
            entities,
            declarators: Vec::new(),
            builtin_type_ids,
            macros,
            type_names,
            depth: 0,
            max_depth,
            bailing: false,
            recovering: false,
            pending_synthetic: 0,
            end_span,
        }
    }

    /// Parse the whole level: its global items, in order (the entities they name are in the module).
    pub fn parse_level(mut self) -> Vec<Guarded<GlobalItem>> {
        let mut items = Vec::new();
        loop {
            let list = self.guarded_list(&mut Self::external_item, Partial::Dropped, &|_| false, ROOM.level);
            // The first list is the level's items (no copy into an empty vector).
            if items.is_empty() {
                items = list;
            } else {
                items.extend(list);
            }
            // A marker no region claims (a synthetic `#endif`): skip it.
            if self.bump().is_none() {
                break;
            }
        }
        items
    }

    // ----- token access -----

    pub(crate) fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.pos)
    }

    pub(crate) fn peek_at(&self, n: usize) -> Option<&'a Token> {
        self.toks.get(self.pos + n)
    }

    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    pub(crate) fn bump(&mut self) -> Option<&'a Token> {
        let t = self.toks.get(self.pos);
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    pub(crate) fn here(&self) -> Span {
        self.peek().map(|t| t.span).unwrap_or(self.end_span)
    }

    pub(crate) fn prev_span(&self) -> Span {
        // At the first token, `pos - 1` wraps to an index past the end: one bounds test covers both cases.
        match self.toks.get(self.pos.wrapping_sub(1)) {
            Some(t) => t.span,
            None => self.end_span,
        }
    }

    pub(crate) fn is_punct(&self, p: Punct) -> bool {
        self.peek().is_some_and(|t| t.is_punct(p))
    }

    pub(crate) fn punct_at(&self, n: usize, p: Punct) -> bool {
        self.peek_at(n).is_some_and(|t| t.is_punct(p))
    }

    pub(crate) fn eat(&mut self, p: Punct) -> bool {
        if self.is_punct(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn kw_of(&self, t: &Token) -> Option<Kw> {
        if t.kind == TokenKind::Ident {
            self.kw.word(t.sym).kw
        } else {
            None
        }
    }

    pub(crate) fn peek_kw(&self) -> Option<Kw> {
        self.peek().and_then(|t| self.kw_of(t))
    }

    pub(crate) fn eat_kw(&mut self, k: Kw) -> bool {
        if self.peek_kw() == Some(k) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn builtin_type(&self, t: &Token) -> Option<TypeInner> {
        if t.kind == TokenKind::Ident {
            self.kw.word(t.sym).ty
        } else {
            None
        }
    }

    /// An identifier that is not a keyword or builtin type name.
    pub(crate) fn is_plain_ident(&self, t: &Token) -> bool {
        t.kind == TokenKind::Ident && matches!(self.kw.word(t.sym), Word { kw: None, ty: None })
    }

    /// `attribute`/`varying` used as a storage qualifier (a type follows).
    pub(crate) fn legacy_storage(&self) -> Option<shaderlab_ir::Storage> {
        let t = self.peek()?;
        let storage = if t.sym == self.kw.attribute {
            shaderlab_ir::Storage::Attribute
        } else if t.sym == self.kw.varying {
            shaderlab_ir::Storage::Varying
        } else {
            return None;
        };
        let next = self.peek_at(1)?;
        let typed = self.builtin_type(next).is_some()
            || self.kw_of(next).is_some()
            || (self.is_plain_ident(next) && self.peek_at(2).is_some_and(|n| self.is_plain_ident(n)));
        typed.then_some(storage)
    }

    pub(crate) fn precision_of(&self, k: Kw) -> Option<Precision> {
        match k {
            Kw::Highp => Some(Precision::High),
            Kw::Mediump => Some(Precision::Medium),
            Kw::Lowp => Some(Precision::Low),
            _ => None,
        }
    }

    pub(crate) fn directive_of(&self, t: &Token) -> Option<&'a Directive> {
        match t.kind {
            TokenKind::Directive(i) => self.directives.get(i as usize),
            _ => None,
        }
    }

    // ----- expressions and types -----

    /// The arena new expressions go to.
    pub(crate) fn exprs(&self) -> &ExprArena {
        self.function_exprs.as_ref().unwrap_or(self.global_exprs)
    }

    pub(crate) fn exprs_mut(&mut self) -> &mut ExprArena {
        match &mut self.function_exprs {
            Some(arena) => arena,
            None => self.global_exprs,
        }
    }

    /// Push an expression whose operands are already pushed.
    #[inline]
    pub(crate) fn alloc(&mut self, kind: Expr, span: Span) -> ExprId {
        self.exprs_mut().push(Expression { kind, span })
    }

    /// The type id of builtin type `inner`, spelled `name`.
    pub(crate) fn intern_builtin(&mut self, name: Name, inner: TypeInner) -> TypeId {
        if let Some(&Some(id)) = self.builtin_type_ids.0.get(name.index()) {
            // Holds because a rollback that drops types forgets their cached ids (`forget_from`), and rollback is
            // the only place the type table shrinks.
            debug_assert!(self.types.get(id) == inner, "a cached builtin type id outlived its type");
            return id;
        }
        let id = self.types.intern(inner);
        if let Some(slot) = self.builtin_type_ids.0.get_mut(name.index()) {
            *slot = Some(id);
        }
        id
    }

    #[inline]
    pub(crate) fn span_of(&self, e: ExprId) -> Span {
        self.exprs()[e].span
    }

    /// Read with `function_exprs` set to `arena` (`None`: outside functions, into `global_exprs`); gives the
    /// arena back with the result.
    pub(crate) fn in_arena<R>(
        &mut self,
        arena: Option<ExprArena>,
        f: impl FnOnce(&mut Self) -> R,
    ) -> (R, Option<ExprArena>) {
        let outer = std::mem::replace(&mut self.function_exprs, arena);
        let r = f(self);
        (r, std::mem::replace(&mut self.function_exprs, outer))
    }

    /// Read a function's parameters and body with its own arena, which starts with `exprs` (its return type's
    /// dimensions), and its own locals; gives both back with the result. The arena is reserved at the number of
    /// tokens the function spans, a bound on its expressions (every expression node consumes a token of its
    /// own), so it neither regrows nor gets copied into an exact-size one; the locals at one more than the `,`
    /// and `;` it spans, usually a bound on them too (a parameter is followed by a `,` or the `)`, a declarator by
    /// a `,` or a `;`; parameters split by `#if`/`#else` are not, and then the list grows).
    pub(crate) fn in_function_arena<R>(
        &mut self,
        exprs: ExprArena,
        f: impl FnOnce(&mut Self) -> R,
    ) -> (R, ExprArena, Locals) {
        let extent = self.function_extent();
        let mut arena: Vec<Expression> = Vec::with_capacity(exprs.len() + extent.tokens);
        arena.append(&mut exprs.into());
        let outer_locals = std::mem::replace(&mut self.locals, Locals::with_capacity(extent.separators + 1));
        let (r, arena) = self.in_arena(Some(arena.into()), f);
        let locals = std::mem::replace(&mut self.locals, outer_locals);
        (r, arena.unwrap_or_default(), locals)
    }

    /// The tokens from here to the `}` that closes the function body (the first `{` opens it), or to the `;`
    /// that ends a prototype, and the `,` and `;` among them; at most [`FUNCTION_SCAN_LIMIT`] tokens (a longer
    /// function's arenas grow past that), so that broken input with many unclosed function bodies costs a
    /// bounded scan per function, not one to the end of the text each.
    fn function_extent(&self) -> FunctionExtent {
        let rest = self.toks.get(self.pos..).unwrap_or_default();
        let rest = &rest[..rest.len().min(FUNCTION_SCAN_LIMIT)];
        let mut depth = 0usize;
        let mut separators = 0;
        for (n, t) in rest.iter().enumerate() {
            match t.kind {
                TokenKind::Punct(Punct::LBrace) => depth += 1,
                TokenKind::Punct(Punct::RBrace) if depth <= 1 => return FunctionExtent { tokens: n + 1, separators },
                TokenKind::Punct(Punct::RBrace) => depth -= 1,
                TokenKind::Punct(Punct::Semicolon) if depth == 0 => {
                    return FunctionExtent { tokens: n + 1, separators: separators + 1 };
                }
                TokenKind::Punct(Punct::Semicolon | Punct::Comma) => separators += 1,
                _ => {}
            }
        }
        FunctionExtent { tokens: rest.len(), separators }
    }

    pub(crate) fn mark(&self) -> Mark {
        Mark {
            function_exprs: self.function_exprs.as_ref().map_or(0, PrimaryMap::len),
            locals: self.locals.len(),
            global_exprs: self.global_exprs.len(),
            types: self.types.len(),
            structs: self.entities.structs.len(),
            globals: self.entities.globals.len(),
            functions: self.entities.functions.len(),
            macros: self.entities.macros.len(),
        }
    }

    /// Drop the expressions, types and entities made since `mark` (taken in the same function context): what
    /// was read since is not kept.
    pub(crate) fn rollback(&mut self, mark: Mark) {
        if let Some(arena) = &mut self.function_exprs {
            truncate(arena, mark.function_exprs);
        }
        truncate(&mut self.locals, mark.locals);
        truncate(self.global_exprs, mark.global_exprs);
        if self.types.len() > mark.types {
            self.types.truncate(mark.types);
            self.builtin_type_ids.forget_from(mark.types);
        }
        truncate(self.entities.structs, mark.structs);
        truncate(self.entities.globals, mark.globals);
        truncate(self.entities.functions, mark.functions);
        truncate(self.entities.macros, mark.macros);
    }

    /// Push copies of the expressions `from..to` of the current arena (the dimensions of a declaration's type,
    /// whole trees) and renumber `dims`, which refers to them, to the copies.
    pub(crate) fn copy_dims(&mut self, from: usize, to: usize, dims: &mut [ArrayDim]) {
        let arena = self.exprs_mut();
        let base = arena.len();
        for i in from..to {
            let copy = renumbered(&arena[ExprId::new(i)], from, base);
            arena.push(copy);
        }
        renumber_dims(dims, from, base);
    }

    /// Move the expressions `from..` of the current arena (a return type's dimensions, whole trees, read before
    /// the type was known to be a function's) to the end of `arena`, renumbering `dims` which refers to them.
    pub(crate) fn move_dims(&mut self, from: usize, arena: &mut ExprArena, dims: &mut [ArrayDim]) {
        let outer = self.exprs_mut();
        let base = arena.len();
        for i in from..outer.len() {
            arena.push(renumbered(&outer[ExprId::new(i)], from, base));
        }
        truncate(outer, from);
        renumber_dims(dims, from, base);
    }

    // ----- errors and recovery -----

    pub(crate) fn describe(&self, t: Option<&Token>) -> String {
        match t {
            None => "end of text".into(),
            Some(t) => match &t.kind {
                TokenKind::Directive(_) => match self.directive_of(t) {
                    Some(Directive::If(c)) => format!("'#{}'", cond_keyword(c.kind)),
                    Some(Directive::Elif(_)) => "'#elif'".into(),
                    Some(Directive::Else(_)) => "'#else'".into(),
                    Some(Directive::Endif { .. }) => "'#endif'".into(),
                    Some(Directive::Define { .. }) => "'#define'".into(),
                    Some(Directive::Undef { .. }) => "'#undef'".into(),
                    None => "'#'".into(),
                },
                TokenKind::Error(LexError::UnexpectedChar(c)) => format!("'{c}'"),
                _ => crate::structure::describe(t, self.names),
            },
        }
    }

    /// Report that something else was expected here (once per error burst).
    pub(crate) fn expected(&mut self, what: &str) {
        if self.recovering || self.bailing {
            return;
        }
        self.recovering = true;
        // Text the lexer could not read is already reported.
        if self.peek().is_some_and(|t| matches!(t.kind, TokenKind::Error(_))) {
            return;
        }
        let found = self.describe(self.peek());
        let span = self.here();
        self.sink.syntax(SyntaxClue::UnexpectedToken { found, expected: what.into() }, span);
    }

    pub(crate) fn expect(&mut self, p: Punct, what: &str) -> bool {
        if self.eat(p) {
            true
        } else {
            self.expected(what);
            false
        }
    }

    /// At a `,` of an argument or parameter list: consume it; a comma right after `(` or right before `)` is an
    /// error (a missing element).
    pub(crate) fn separator(&mut self, element: &str) {
        let after_open =
            self.pos.checked_sub(1).and_then(|i| self.toks.get(i)).is_some_and(|t| t.is_punct(Punct::LParen));
        if after_open {
            self.expected(element);
            self.resync();
        }
        self.pos += 1;
        if self.is_punct(Punct::RParen) {
            self.expected(element);
            self.resync();
        }
    }

    /// After a call argument: the `,` that follows goes with it (a missing argument after it is reported); a `)`
    /// or a directive ends it as well. Anything else is reported and skipped, to a `,` (consumed as well) or to
    /// where the list or the statement ends.
    pub(crate) fn argument_end(&mut self) {
        match self.peek().map(|t| t.kind) {
            Some(TokenKind::Punct(Punct::Comma)) => self.separator("an argument"),
            None | Some(TokenKind::Punct(Punct::RParen) | TokenKind::Directive(_)) => {}
            Some(_) => {
                self.skip_after_argument();
                if self.is_punct(Punct::Comma) {
                    self.separator("an argument");
                }
            }
        }
    }

    /// Report what follows an argument where a `,` or `)` should (unless bailing out), and skip it.
    fn skip_after_argument(&mut self) {
        if self.bailing {
            return;
        }
        self.expected("',' or ')'");
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            match &t.kind {
                TokenKind::Punct(Punct::LParen) => depth += 1,
                TokenKind::Punct(Punct::RParen) if depth == 0 => break,
                TokenKind::Punct(Punct::RParen) => depth -= 1,
                TokenKind::Punct(Punct::Comma) if depth == 0 => break,
                TokenKind::Punct(Punct::Semicolon | Punct::LBrace | Punct::RBrace) | TokenKind::Directive(_) => break,
                _ => {}
            }
            self.pos += 1;
        }
        self.resync();
    }

    /// Whether [`Parser::enter`] would enter one more nesting level (for fast paths that read a level's element
    /// without entering it).
    pub(crate) fn can_enter(&self) -> bool {
        !self.bailing && self.depth < self.max_depth
    }

    /// Enter one nesting level; false (after one LimitExceeded) when the limit is reached.
    pub(crate) fn enter(&mut self) -> bool {
        if self.bailing {
            return false;
        }
        if !self.can_enter() {
            self.bailing = true;
            let span = self.here();
            self.sink.syntax(SyntaxClue::LimitExceeded { what: "nesting depth".into(), limit: self.max_depth }, span);
            return false;
        }
        self.depth += 1;
        true
    }

    /// A left-nested chain (`a + b + c ...`, `v.x.y ...`, `a, b, c ...`) makes a tree as deep as the chain is
    /// long; with the current nesting it must stay within the limit. False (after one LimitExceeded) otherwise.
    pub(crate) fn chain_ok(&mut self, chain: usize) -> bool {
        if self.depth + chain <= self.max_depth {
            return true;
        }
        if !self.bailing {
            self.bailing = true;
            let span = self.here();
            self.sink.syntax(SyntaxClue::LimitExceeded { what: "nesting depth".into(), limit: self.max_depth }, span);
        }
        false
    }

    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skip to after the next `;` or before the next `}` of this nesting level, skipping nested groups.
    pub(crate) fn recover(&mut self) {
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            match &t.kind {
                TokenKind::Punct(Punct::LBrace | Punct::LParen | Punct::LBracket) => depth += 1,
                TokenKind::Punct(Punct::RParen | Punct::RBracket) => depth = (depth - 1).max(0),
                TokenKind::Punct(Punct::RBrace) => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        break;
                    }
                }
                TokenKind::Punct(Punct::Semicolon) if depth == 0 => {
                    self.pos += 1;
                    break;
                }
                // A directive marker at this level belongs to the list parser: stop before it.
                TokenKind::Directive(_) if depth == 0 => break,
                _ => {}
            }
            self.pos += 1;
        }
        // Back at a statement boundary: the too-deep construct is behind us.
        self.bailing = false;
        self.resync();
    }

    /// The parser is back on track: report errors again.
    pub(crate) fn resync(&mut self) {
        self.recovering = false;
        if self.depth == 0 {
            self.bailing = false;
        }
    }

    // ----- guarded lists -----

    /// Parse a list whose elements may be wrapped in conditional regions. `element` parses one element at the
    /// current token and pushes what it makes; `partial` says whether what it made is dropped when it keeps
    /// nothing; `is_end` tells whether the current token closes the list (it is not consumed). A list that is not
    /// empty starts with room for `room` elements (see [`ROOM`]); an empty one (`f()`, `{ }`) allocates nothing.
    pub(crate) fn guarded_list<T>(
        &mut self,
        element: &mut Element<'_, 'a, T>,
        partial: Partial,
        is_end: &dyn Fn(&Parser<'a>) -> bool,
        room: usize,
    ) -> Vec<Guarded<T>> {
        let mut items = if self.peek().is_some() && !is_end(self) { Vec::with_capacity(room) } else { Vec::new() };
        while let Some(t) = self.peek() {
            if is_end(self) {
                break;
            }
            if let TokenKind::Directive(_) = t.kind {
                match self.directive_of(t) {
                    Some(Directive::If(_)) => {
                        if !self.enter() {
                            // Too deeply nested: skip the whole region.
                            self.pos += 1;
                            self.skip_to_region_end();
                            continue;
                        }
                        let region = self.cond_region(element, partial, is_end);
                        self.leave();
                        if let Some(region) = region {
                            items.push(Guarded::Cond(Box::new(region)));
                        }
                        continue;
                    }
                    // An `#endif` the preprocessor added for an unclosed `#if` whose region already ended.
                    Some(Directive::Endif { synthetic: true, .. }) if self.pending_synthetic > 0 => {
                        self.pending_synthetic -= 1;
                        self.pos += 1;
                        continue;
                    }
                    Some(Directive::Elif(_) | Directive::Else(_) | Directive::Endif { .. }) => break,
                    Some(Directive::Define { .. } | Directive::Undef { .. }) | None => {
                        // Handled by the element parser where the context allows it.
                    }
                }
            }
            let before = self.pos;
            let mark = (partial == Partial::Dropped).then(|| self.mark());
            let step = element(self, &mut items);
            if let (Some(mark), Step::Skip | Step::End) = (mark, &step) {
                self.rollback(mark);
            }
            if let Step::End = step {
                break;
            }
            if self.pos == before {
                // No progress: drop the token so that the loop ends.
                self.expected_or_skip();
            }
        }
        items
    }

    fn expected_or_skip(&mut self) {
        self.expected("a declaration or statement");
        self.pos += 1;
    }

    fn cond_region<T>(
        &mut self,
        element: &mut Element<'_, 'a, T>,
        partial: Partial,
        is_end: &dyn Fn(&Parser<'a>) -> bool,
    ) -> Option<CondRegion<T>> {
        let first = self.bump()?;
        let Some(Directive::If(condition)) = self.directive_of(first) else {
            return None;
        };
        let mut branches = vec![CondBranch { condition: condition.clone(), items: Vec::new() }];
        let mut else_items: Option<Vec<Guarded<T>>> = None;
        let mut else_span = None;
        loop {
            let items = self.guarded_list(element, partial, is_end, ROOM.nested);
            match &else_items {
                Some(_) => else_items = Some(items),
                None => {
                    if let Some(b) = branches.last_mut() {
                        b.items = items;
                    }
                }
            }
            let Some(t) = self.peek() else {
                // The preprocessor closes every region; reaching the end means the list ended inside it.
                self.unbalanced_region(first.span);
                return Some(CondRegion { branches, else_items, else_span, end_span: self.end_span });
            };
            match self.directive_of(t) {
                Some(Directive::Elif(c)) if else_items.is_none() => {
                    self.pos += 1;
                    branches.push(CondBranch { condition: c.clone(), items: Vec::new() });
                }
                Some(Directive::Else(span)) if else_items.is_none() => {
                    self.pos += 1;
                    else_span = Some(*span);
                    else_items = Some(Vec::new());
                }
                Some(Directive::Endif { span, .. }) => {
                    self.pos += 1;
                    return Some(CondRegion { branches, else_items, else_span, end_span: *span });
                }
                _ if self.closes_synthetically() => {
                    // The `#if` has no `#endif` (already reported): the region ends with the construct.
                    self.pending_synthetic += 1;
                    let end_span = self.here();
                    return Some(CondRegion { branches, else_items, else_span, end_span });
                }
                _ => {
                    // The list closed (e.g. `}`) while the region is open: the directive splits a construct.
                    self.unbalanced_region(first.span);
                    let end_span = self.here();
                    self.skip_to_region_end();
                    return Some(CondRegion { branches, else_items, else_span, end_span });
                }
            }
        }
    }

    /// Whether the region open here is closed by a synthetic `#endif` (its `#if` had none).
    fn closes_synthetically(&self) -> bool {
        let mut depth = 0i32;
        for t in &self.toks[self.pos..] {
            match self.directive_of(t) {
                Some(Directive::If(_)) => depth += 1,
                Some(Directive::Endif { synthetic, .. }) => {
                    if depth == 0 {
                        return *synthetic;
                    }
                    depth -= 1;
                }
                _ => {}
            }
        }
        false
    }

    fn unbalanced_region(&mut self, span: Span) {
        self.sink.syntax(
            SyntaxClue::UnbalancedConditional {
                directive: "#if".into(),
                reason: "the conditional block is not closed inside the construct it starts in".into(),
            },
            span,
        );
    }

    /// After a region that did not close where it should: consume tokens through its `#endif`.
    fn skip_to_region_end(&mut self) {
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            match self.directive_of(t) {
                Some(Directive::If(_)) => depth += 1,
                Some(Directive::Endif { .. }) => {
                    if depth == 0 {
                        self.pos += 1;
                        return;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            self.pos += 1;
        }
    }
}

/// Push `value` to an entity arena of the module (structs, globals, functions, macros); an empty one first gets
/// room for [`crate::FIRST_ROOM`] (as [`crate::push_with_room`] does for a `Vec`).
#[inline]
pub(crate) fn push_entity<K: EntityRef, V>(arena: &mut PrimaryMap<K, V>, value: V) -> K {
    if arena.is_empty() {
        *arena = PrimaryMap::with_capacity(crate::FIRST_ROOM);
    }
    arena.push(value)
}

/// Drop the entries after the first `len` (inlined: there are usually none).
#[inline]
fn truncate<K: EntityRef, V>(arena: &mut PrimaryMap<K, V>, len: usize) {
    if arena.len() > len {
        truncate_entries(arena, len);
    }
}

fn truncate_entries<K: EntityRef, V>(arena: &mut PrimaryMap<K, V>, len: usize) {
    let mut entries: Vec<V> = std::mem::take(arena).into();
    entries.truncate(len);
    *arena = entries.into();
}

/// The id that expression `id`, of a run of whole trees starting at `from`, gets when the run starts at `base`.
fn renumber(id: ExprId, from: usize, base: usize) -> ExprId {
    debug_assert!(id.index() >= from, "an operand outside the trees being moved");
    ExprId::new(id.index() - from + base)
}

/// A copy of `e`, of a run of whole trees starting at `from`, for that run starting at `base`.
fn renumbered(e: &Expression, from: usize, base: usize) -> Expression {
    let mut copy = e.clone();
    copy.kind.for_each_child_mut(&mut |c| *c = renumber(*c, from, base));
    copy
}

fn renumber_dims(dims: &mut [ArrayDim], from: usize, base: usize) {
    for d in dims {
        if let ArrayDim::Sized(e) = d {
            *e = renumber(*e, from, base);
        }
    }
}

pub(crate) fn cond_keyword(kind: shaderlab_ir::CondKind) -> &'static str {
    match kind {
        shaderlab_ir::CondKind::If => "if",
        shaderlab_ir::CondKind::Ifdef => "ifdef",
        shaderlab_ir::CondKind::Ifndef => "ifndef",
        shaderlab_ir::CondKind::Elif => "elif",
    }
}
