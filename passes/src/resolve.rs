//! Name resolution: every identifier expression, called name and type name to its declarations.
//!
//! Input contract: a lowered [`Module`]. Output: [`Resolution`], with clues of category E.
//!
//! - Levels are nested scopes: a pass sees its own declarations, then its subshader's, then the shader's; a
//!   declaration of an inner level hides one of an outer level (the engine lets a pass redefine a struct of its
//!   subshader). Inside a level, GLSL is declare-before-use.
//! - Inside a function: the parameters and the body's top level are one scope; every block, `for`, `while`
//!   and `switch` opens a nested scope.
//! - Conditionals (preserving mode): a use resolves against the declarations whose variant context is
//!   compatible with its own; two declarations conflict only when their contexts are compatible. When a use has
//!   several compatible declarations (one per exclusive branch), it resolves to all of them.
//! - A name that resolves to nothing is a clue, except, in preserving mode, a name written like a macro
//!   (`RENDERER_JOINTS_NUM`: capitals, digits, `_`): the engine defines such macros at run time, so it resolves to
//!   [`Symbol::RuntimeMacro`].

use crate::builtins;
use crate::clue::{PassClue, PassClueKind, SymbolClue};
use crate::redecl::{index_from, record, ConflictIndex, KindKey};
use crate::small::{OneOrMore, SmallList};
use crate::table::{filled_map, Arena, ArenaPlace, ExprTable, Owner};
use crate::variants::{
    facts_contradict, is_transparent_include_guard, BranchContexts, CondCtx, SelfCompatible, ELSE_BRANCH,
};
use cranelift_entity::SecondaryMap;
use shaderlab_ir::hash::{FastHashMap as HashMap, FastHashSet as HashSet};
use shaderlab_ir::{
    ArrayDim, CondRegion, Expr, ExprId, FunctionId, GlobalId, GlobalItem, Guarded, LocalId, MacroId, Mode, Module,
    Name, ParamKind, ScopeId, Span, Statement, StmtKind, StructId, TypeInner, TypeSpec,
};
use std::cell::OnceCell;
use std::sync::Arc;

use std::collections::hash_map::Entry;

/// What a name in expression position stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Symbol {
    Local(LocalId),
    Global(GlobalId),
    /// A builtin variable or constant (`gl_Position`, `gl_MaxDrawBuffers`): its catalogue entry.
    Builtin(builtins::VarId),
    /// `gl_DepthRange`, the builtin of struct type (not among [`builtins::variables`]: see
    /// [`builtins::DEPTH_RANGE`]).
    DepthRange,
    /// A macro the engine defines at run time (preserving mode only); its value is unknown.
    RuntimeMacro(Name),
    /// A member of a pass's IO struct used by its bare name, as the engine allows (it declares varyings as
    /// global variables of the members' names).
    IoMember(StructId, Name),
}

/// The symbols a name resolves to: almost always one, kept inline; several (declarations in exclusive
/// conditional branches) are shared, so that the uses of one name in one context hold one list between them.
/// Reads as a slice (through `Deref`). Only locals and globals have several declarations: a shared list holds
/// nothing else (later passes rely on it, and read a shared list once, not once per use).
#[derive(Clone)]
pub struct Symbols(SymbolsRepr);

/// The tag is an explicit byte, and none or one symbol is one variant (as in [`SmallList`]: reading the slice
/// tests one tag).
#[derive(Clone)]
#[repr(u8)]
enum SymbolsRepr {
    /// No symbol (`len` 0: `item` is filler) or one.
    Inline {
        len: u8,
        item: Symbol,
    },
    Shared(Arc<[Symbol]>),
}

impl Default for Symbols {
    fn default() -> Self {
        Symbols::new()
    }
}

impl Symbols {
    /// No symbol.
    pub const fn new() -> Self {
        Symbols(SymbolsRepr::Inline { len: 0, item: Symbol::DepthRange })
    }

    /// One symbol.
    pub fn one(symbol: Symbol) -> Self {
        Symbols(SymbolsRepr::Inline { len: 1, item: symbol })
    }

    pub fn as_slice(&self) -> &[Symbol] {
        self
    }

    /// The address of a shared list (none for one symbol or none): the uses that share a list give the same
    /// address, so a later pass reads a list once, keyed by it, not once per use.
    pub fn shared_address(&self) -> Option<usize> {
        match &self.0 {
            SymbolsRepr::Shared(list) => Some(list.as_ptr() as usize),
            _ => None,
        }
    }
}

impl std::ops::Deref for Symbols {
    type Target = [Symbol];

    #[inline]
    fn deref(&self) -> &[Symbol] {
        match &self.0 {
            SymbolsRepr::Inline { len, item } => &std::slice::from_ref(item)[..usize::from(*len)],
            SymbolsRepr::Shared(list) => list,
        }
    }
}

impl FromIterator<Symbol> for Symbols {
    fn from_iter<I: IntoIterator<Item = Symbol>>(iter: I) -> Self {
        let mut iter = iter.into_iter();
        let Some(first) = iter.next() else { return Symbols::new() };
        match iter.next() {
            None => Symbols::one(first),
            Some(second) => {
                let list: Vec<Symbol> = [first, second].into_iter().chain(iter).collect();
                debug_assert!(list.iter().all(|s| matches!(s, Symbol::Local(_) | Symbol::Global(_))), "{list:?}");
                Symbols(SymbolsRepr::Shared(list.into()))
            }
        }
    }
}

impl<'a> IntoIterator for &'a Symbols {
    type Item = &'a Symbol;
    type IntoIter = std::slice::Iter<'a, Symbol>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Equal when the symbols are, however they are kept.
impl PartialEq for Symbols {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

/// Formats as the slice of symbols.
impl std::fmt::Debug for Symbols {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

/// The structs a type name resolves to: almost always one, kept inline.
pub type StructList = SmallList<StructId, 1>;

/// The resolution of an identifier expression.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Resolved {
    /// Not an identifier expression.
    #[default]
    NotAName,
    /// One declaration, or several alternatives from exclusive conditional branches.
    Symbols(Symbols),
    /// Unresolvable; the clue is reported.
    Unresolved,
}

/// The resolution of a called name.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum CallTarget {
    /// Not a call expression.
    #[default]
    NotACall,
    /// User overloads visible at the call (declared before it; read them with [`Resolution::functions`]) and
    /// the builtin function of that name, if there is one.
    Callable {
        user: ListRef<FunctionId>,
        builtin: Option<builtins::BuiltinFn>,
    },
    /// A struct constructor (the structs of that name: read them with [`Resolution::structs`]).
    Constructor(ListRef<StructId>),
    Unresolved,
}

#[derive(Debug, Default)]
pub struct Resolution {
    pub idents: ExprTable<Resolved>,
    pub calls: ExprTable<CallTarget>,
    /// Macro uses (`Expr::MacroRef`) to the definitions of that name, as ranges of `macro_defs` (plain data:
    /// read them with [`Resolution::macro_defs_of`]).
    pub macro_refs: ExprTable<ListRef<MacroId>>,
    /// The macro definitions of every name, each name's in declaration order.
    pub macro_defs: Vec<MacroId>,
    /// The user functions of every [`CallTarget::Callable`], one list after the other.
    pub call_functions: Vec<FunctionId>,
    /// The structs of every [`CallTarget::Constructor`], one list after the other.
    pub call_structs: Vec<StructId>,
    /// User type names, by the span of the type specifier, to their struct declarations.
    pub type_names: HashMap<Span, StructList>,
    /// Per program pass: its (vertex, fragment) entry definitions (what [`crate::callgraph::CallGraph::entries`]
    /// lists; [`crate::run_passes`] moves them there, leaving this empty).
    pub(crate) pass_entries: PassEntries,
    /// The variant context of each function and global.
    pub function_ctx: SecondaryMap<FunctionId, Option<CondCtx>>,
    pub global_ctx: SecondaryMap<GlobalId, Option<CondCtx>>,
    pub clues: Vec<PassClue>,
    /// The names the module defines as macros (typing asks whether a parameter's type names one).
    pub(crate) macro_names: HashSet<Name>,
}

/// Per pass: the (vertex, fragment) entry definitions.
pub(crate) type PassEntries = SecondaryMap<shaderlab_ir::PassId, (Option<FunctionId>, Option<FunctionId>)>;

/// A list kept in one of the pools of [`Resolution`]: `len` entries from `start`. Plain data, so the tables
/// holding such lists own no heap memory.
#[derive(Debug)]
pub struct ListRef<T> {
    start: u32,
    len: u32,
    of: std::marker::PhantomData<T>,
}

impl<T> ListRef<T> {
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The entries, in `pool`.
    fn of<'p>(&self, pool: &'p [T]) -> &'p [T] {
        pool.get(self.start as usize..self.start as usize + self.len as usize).unwrap_or_default()
    }

    /// The entries of `pool` from `start` on (those just added).
    fn since(pool: &[T], start: usize) -> Self {
        let len = pool.len().saturating_sub(start);
        ListRef { start: start as u32, len: len as u32, of: std::marker::PhantomData }
    }
}

impl<T> Clone for ListRef<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ListRef<T> {}

impl<T> Default for ListRef<T> {
    fn default() -> Self {
        ListRef { start: 0, len: 0, of: std::marker::PhantomData }
    }
}

impl<T> PartialEq for ListRef<T> {
    fn eq(&self, other: &Self) -> bool {
        (self.start, self.len) == (other.start, other.len)
    }
}

impl Resolution {
    /// The definitions of the macro used by `e` (none when `e` is not a macro use).
    pub fn macro_defs_of(&self, owner: Owner, e: ExprId) -> &[MacroId] {
        self.macro_refs.get(owner, e).of(&self.macro_defs)
    }

    /// The user functions of a [`CallTarget::Callable`].
    pub fn functions(&self, list: ListRef<FunctionId>) -> &[FunctionId] {
        list.of(&self.call_functions)
    }

    /// The structs of a [`CallTarget::Constructor`].
    pub fn structs(&self, list: ListRef<StructId>) -> &[StructId] {
        list.of(&self.call_structs)
    }
}

#[derive(Clone, Debug)]
enum DeclKind {
    Var(GlobalId),
    Function(FunctionId),
    Struct(StructId),
}

impl DeclKind {
    /// What this declares, as one of the `DECLARES_*` bits.
    fn declares(&self) -> u8 {
        match self {
            DeclKind::Var(_) => DECLARES_VAR,
            DeclKind::Function(_) => DECLARES_FUNCTION,
            DeclKind::Struct(_) => DECLARES_STRUCT,
        }
    }
}

/// What a declaration declares, as bits of a mask: a variable (global or local), a function, a struct type.
const DECLARES_VAR: u8 = 1;
const DECLARES_FUNCTION: u8 = 2;
const DECLARES_STRUCT: u8 = 4;

/// What a use of a name needs the name to be. Only a later declaration of such a thing makes the use one "before
/// its declaration": a function or a struct declared after `x = f;` does not make `f` a variable (glslang: an
/// undeclared identifier, whether the function comes before or after), nor does a variable make a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UseKind {
    /// A name in expression position.
    Value,
    /// A type name.
    Type,
    /// A callee: a function, or a struct's constructor.
    Call,
}

impl UseKind {
    /// The declarations (`DECLARES_*` bits) that resolve such a use.
    fn accepts(self) -> u8 {
        match self {
            UseKind::Value => DECLARES_VAR,
            UseKind::Type => DECLARES_STRUCT,
            UseKind::Call => DECLARES_FUNCTION | DECLARES_STRUCT,
        }
    }
}

#[derive(Clone, Debug)]
struct Decl {
    kind: DeclKind,
    ctx: CondCtx,
    span: Span,
}

/// `(scope index or level depth, name, use context identity, number of declarations)`.
type SharedKey = (usize, Name, usize, usize);

/// Shared symbol lists by [`SharedKey`] (see [`Resolver::shared_list`]).
type SharedLists = std::cell::RefCell<HashMap<SharedKey, Symbols>>;

/// A use reported as UndeclaredIdentifier in preserving mode while its name is declared later (see
/// [`Resolver::declared_later_use`]).
struct LateUse {
    ctx: CondCtx,
    /// What the use needs the name to be: only a declaration of that settles it.
    kind: UseKind,
    /// The function whose body has the use: a later local of that function settles it.
    body: Option<FunctionId>,
    /// The innermost level at the use: a later global of that level or a level below it settles it.
    level: ScopeId,
    /// Its clue, an index into `Resolution::clues`.
    clue: usize,
}

/// The late uses of one name whose contexts have the same macro facts: a declaration whose facts contradict
/// them settles none of them, which one comparison tells (a use stays pending only while every later
/// declaration so far is in other variants: without the groups, N such uses and M such declarations would cost
/// N x M comparisons).
struct LateUses {
    atoms: Vec<(Name, bool)>,
    uses: Vec<LateUse>,
}

struct Level {
    /// Each name's declarations (most names have one: kept inline).
    names: HashMap<Name, OneOrMore<Decl>>,
    /// Every struct of this level by name, declared before or after (struct types are visible in the whole
    /// level: the engine emits structs before the functions that use them), with its declaration's context.
    /// Built on first use.
    structs: OnceCell<HashMap<Name, Vec<(StructId, CondCtx)>>>,
    /// Members of the IO structs of the passes this level belongs to, visible as global names (the engine
    /// turns varyings into global variables of the same names): the first `(struct, member)` of each name, in
    /// pass order. Built on first use.
    io_members: OnceCell<HashMap<Name, (StructId, Name)>>,
    /// The level's scope.
    scope: ScopeId,
}

#[derive(Default)]
struct LocalScope {
    names: HashMap<Name, OneOrMore<(LocalId, CondCtx, Span)>>,
    /// For names with many declarations in this scope (at least [`crate::redecl::INDEX_FROM`]): an index for the Redefinition
    /// and shadowing checks.
    conflicts: HashMap<Name, ConflictIndex>,
    structs: HashMap<Name, StructList>,
    functions: HashMap<Name, Vec<FunctionId>>,
}

pub fn resolve(module: &Module) -> Resolution {
    resolve_recording(module).0
}

/// [`resolve`], with the context of every conditional branch it entered (for [`crate::typing`]).
pub(crate) fn resolve_recording(module: &Module) -> (Resolution, BranchContexts) {
    let idents = ExprTable::for_module(module);
    let mut pass_entries = filled_map(module.passes.len());
    let pass_io = pass_io_members(module, &mut pass_entries);
    // The tables are built in place in the resolver (every field written here: no default value moved in).
    let mut r = Resolver {
        m: module,
        out: Resolution {
            calls: ExprTable::like(&idents),
            macro_refs: ExprTable::like(&idents),
            idents,
            macro_defs: Vec::new(),
            call_functions: Vec::new(),
            call_structs: Vec::new(),
            // Room for a few uses of each struct as a type (a type name resolves only to a struct: none without).
            type_names: HashMap::with_capacity_and_hasher(module.structs.len() * 4, Default::default()),
            pass_entries,
            function_ctx: filled_map(module.functions.len()),
            global_ctx: filled_map(module.globals.len()),
            clues: Vec::new(),
            macro_names: HashSet::default(),
        },
        levels: Vec::new(),
        level_conflicts: HashMap::default(),
        shared_globals: SharedLists::default(),
        shared_locals: SharedLists::default(),
        locals: Vec::new(),
        open_scopes: 0,
        body_of: None,
        local_names: HashMap::default(),
        local_names_of: None,
        function_suggestions: HashMap::default(),
        macros_by_name: None,
        macro_names: module.macros.values().map(|d| d.name).collect(),
        struct_names: module.structs.values().map(|s| s.name).collect(),
        contexts: BranchContexts::default(),
        self_compatible: SelfCompatible::default(),
        dead_clue: None,
        preserving: module.mode == Mode::Preserving,
        declared_under_roots: None,
        declared_in_trees: HashMap::default(),
        late_uses: HashMap::default(),
        pass_io,
        incomplete: module.clues.iter().any(|c| {
            matches!(
                c.kind,
                shaderlab_ir::ClueKind::Syntax(
                    shaderlab_ir::SyntaxClue::IncludeNotFound { .. } | shaderlab_ir::SyntaxClue::UnexpectedToken { .. }
                )
            )
        }),
    };
    // Levels are processed top-down; each scope once.
    let children = Children::new(module);
    for &(_, root) in children.of(None) {
        r.scope(root, &children);
    }
    r.out.macro_names = std::mem::take(&mut r.macro_names);
    (r.out, r.contexts)
}

/// The scopes of a module by parent (the roots under `None`), each parent's in scope order.
struct Children {
    /// `(parent, scope)` sorted by parent, then scope.
    by_parent: Vec<(Option<ScopeId>, ScopeId)>,
}

impl Children {
    fn new(m: &Module) -> Self {
        let mut by_parent: Vec<(Option<ScopeId>, ScopeId)> = m.scopes.iter().map(|(id, s)| (s.parent, id)).collect();
        // Stable: each parent's children stay in scope order.
        by_parent.sort_by_key(|&(parent, _)| parent);
        Children { by_parent }
    }

    fn of(&self, parent: Option<ScopeId>) -> &[(Option<ScopeId>, ScopeId)] {
        let start = self.by_parent.partition_point(|&(p, _)| p < parent);
        let end = self.by_parent.partition_point(|&(p, _)| p <= parent);
        self.by_parent.get(start..end).unwrap_or_default()
    }
}

/// The scopes a scope sees, outermost first (shader, subshader, pass): [`Module::scope_chain`] without a heap
/// allocation for the usual depth.
fn scope_chain(m: &Module, scope: ScopeId) -> SmallList<ScopeId, 4> {
    m.scope_chain_into(scope, SmallList::default())
}

/// Every name declared (as a global, function or struct) by the items of a scope, with the root of that scope's
/// tree (the first of its [`scope_chain`]): one entry per declaration, nothing copied into the scopes above.
fn declared_under_roots(m: &Module) -> HashMap<(Name, ScopeId), u8> {
    let mut out: HashMap<(Name, ScopeId), u8> = HashMap::default();
    for (id, scope) in m.scopes.iter() {
        let root = scope_chain(m, id).first().copied().unwrap_or(id);
        Guarded::for_each_item(&scope.items, &mut |item| {
            if let Some((name, declares)) = declared_name(m, item) {
                *out.entry((name, root)).or_default() |= declares;
            }
        });
    }
    out
}

/// The name a global item declares, if any, and what it declares (a `DECLARES_*` bit).
fn declared_name(m: &Module, item: &GlobalItem) -> Option<(Name, u8)> {
    match item {
        GlobalItem::Var(g) => Some((m.globals[*g].name, DECLARES_VAR)),
        GlobalItem::Function(f) => Some((m.functions[*f].name, DECLARES_FUNCTION)),
        GlobalItem::Struct(s) => Some((m.structs[*s].name, DECLARES_STRUCT)),
        _ => None,
    }
}

/// Whether a scope of the tree under `top` (itself included) declares `name` as one of `accepts` (`DECLARES_*`
/// bits).
fn declared_in_tree(m: &Module, name: Name, top: ScopeId, accepts: u8) -> bool {
    m.scopes.iter().any(|(id, scope)| {
        let mut found = false;
        if scope_chain(m, id).contains(&top) {
            Guarded::for_each_item(&scope.items, &mut |item| {
                found |= declared_name(m, item).is_some_and(|(n, declares)| n == name && declares & accepts != 0)
            });
        }
        found
    })
}

/// The IO structs' members of one program pass, and the scopes its program includes.
struct PassIo {
    chain: SmallList<ScopeId, 4>,
    /// `(struct, member name)` in struct order (vertex return, vertex parameter, fragment parameter; a struct
    /// used twice is listed twice) and member order.
    members: Vec<(StructId, Name)>,
}

/// The entry definitions named `names` (vertex, fragment) in the program of the scopes `chain` (outermost
/// first): the last definition with a body of each name (inner levels hide outer ones).
fn entries_in(m: &Module, chain: &[ScopeId], names: [Option<Name>; 2]) -> [Option<FunctionId>; 2] {
    let mut entries: [Option<FunctionId>; 2] = [None, None];
    for s in chain {
        Guarded::for_each_item(&m.scopes[*s].items, &mut |item| {
            if let GlobalItem::Function(f) = item {
                let func = &m.functions[*f];
                for (entry, name) in entries.iter_mut().zip(names) {
                    if func.body.is_some() && name == Some(func.name) {
                        *entry = Some(*f);
                    }
                }
            }
        });
    }
    entries
}

/// Members of the IO structs (vertex entry parameter and return, fragment entry parameter) of every program
/// pass, in pass order (computed once per module; each level then takes those of the passes below it). A pass
/// without IO struct members is left out. Also the entries of every program pass (for the call graph).
fn pass_io_members(m: &Module, pass_entries: &mut PassEntries) -> Vec<PassIo> {
    let mut out = Vec::new();
    for (id, pass) in m.passes.iter() {
        let shaderlab_ir::PassKind::Program { scope: pass_scope, vertex, fragment } = &pass.kind else {
            continue;
        };
        let chain = scope_chain(m, *pass_scope);
        let names = [vertex, fragment].map(|e| e.as_ref().map(|e| e.name));
        let entries = entries_in(m, &chain, names);
        pass_entries[id] = (entries[0], entries[1]);
        // The user type names of the entries' returns and first parameters, in struct order.
        let user_type = |spec: &TypeSpec| match m.types.get(spec.base) {
            TypeInner::User(n) => Some(n),
            _ => None,
        };
        let mut wanted: SmallList<Name, 4> = SmallList::new();
        for f in entries.into_iter().flatten() {
            let func = &m.functions[f];
            wanted.extend(user_type(&func.return_type));
            if let Some(Guarded::Item(p)) = func.params.first() {
                if let ParamKind::Declared { local } = p.kind {
                    wanted.extend(user_type(&func.locals[local].ty));
                }
            }
        }
        if wanted.is_empty() {
            continue;
        }
        // The struct of each of those names: the last declaration in the pass's program.
        let mut found: SmallList<Option<StructId>, 4> = wanted.iter().map(|_| None).collect();
        for s in chain.iter() {
            Guarded::for_each_item(&m.scopes[*s].items, &mut |item| {
                if let GlobalItem::Struct(st) = item {
                    for (slot, name) in found.iter_mut().zip(wanted.iter()) {
                        if m.structs[*st].name == *name {
                            *slot = Some(*st);
                        }
                    }
                }
            });
        }
        let mut members = Vec::new();
        for s in found.iter().flatten() {
            Guarded::for_each_item(&m.structs[*s].members, &mut |mem| members.push((*s, mem.name)));
        }
        if !members.is_empty() {
            out.push(PassIo { chain, members });
        }
    }
    out
}

/// Members of the IO structs of every pass whose program includes `scope`, by name: the first `(struct,
/// member)` of each name, in pass order.
fn io_members(passes: &[PassIo], scope: ScopeId) -> HashMap<Name, (StructId, Name)> {
    let mut out: HashMap<Name, (StructId, Name)> = HashMap::default();
    for pass in passes.iter().filter(|p| p.chain.contains(&scope)) {
        for &(s, name) in &pass.members {
            out.entry(name).or_insert((s, name));
        }
    }
    out
}

/// The structs of a scope by name, in declaration order, each with the context of its declaration (a region
/// is entered only when it holds a struct).
fn level_structs(m: &Module, scope: ScopeId) -> HashMap<Name, Vec<(StructId, CondCtx)>> {
    fn holds_struct(items: &[Guarded<GlobalItem>]) -> bool {
        let mut found = false;
        Guarded::for_each_item(items, &mut |item| found |= matches!(item, GlobalItem::Struct(_)));
        found
    }
    fn walk(
        m: &Module,
        items: &[Guarded<GlobalItem>],
        ctx: &CondCtx,
        out: &mut HashMap<Name, Vec<(StructId, CondCtx)>>,
    ) {
        for item in items {
            match item {
                Guarded::Item(GlobalItem::Struct(s)) => {
                    out.entry(m.structs[*s].name).or_default().push((*s, ctx.clone()))
                }
                Guarded::Item(_) => {}
                Guarded::Cond(region) => {
                    for (i, branch) in region.branches.iter().enumerate() {
                        if holds_struct(&branch.items) {
                            walk(m, &branch.items, &ctx.enter(m, region, i as u32), out);
                        }
                    }
                    if let Some(items) = region.else_items.as_deref().filter(|items| holds_struct(items)) {
                        walk(m, items, &ctx.enter(m, region, ELSE_BRANCH), out);
                    }
                }
            }
        }
    }
    let mut structs = HashMap::default();
    walk(m, &m.scopes[scope].items, &CondCtx::default(), &mut structs);
    structs
}

fn is_macro_style(name: &str) -> bool {
    name.bytes().any(|b| b.is_ascii_uppercase())
        && name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Edit distance (ASCII, Levenshtein).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<u8> = b.bytes().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The did-you-mean candidate: edit distance at most min(3, max(1, len/3)), unique best, names of 3+ chars.
pub fn suggest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    if name.len() < 3 {
        return None;
    }
    let limit = (name.len() / 3).clamp(1, 3);
    let mut best: Option<(usize, &str)> = None;
    let mut tie = false;
    let mut seen = HashSet::default();
    for c in candidates {
        if c == name || !seen.insert(c) {
            continue;
        }
        let d = distance(name, c);
        if d > limit {
            continue;
        }
        match best {
            Some((bd, _)) if d > bd => {}
            Some((bd, _)) if d == bd => tie = true,
            _ => {
                best = Some((d, c));
                tie = false;
            }
        }
    }
    if tie {
        None
    } else {
        best.map(|(_, c)| c.to_owned())
    }
}

struct Resolver<'m> {
    m: &'m Module,
    out: Resolution,
    levels: Vec<Level>,
    /// For names with many declarations in one level (at least [`crate::redecl::INDEX_FROM`]): an index for the
    /// Redefinition and shadowing checks, by level depth (an index into `levels`) and name.
    level_conflicts: HashMap<(usize, Name), ConflictIndex>,
    /// The globals a name with several declarations in one level resolves to, by `(level depth, name, use
    /// context identity, number of declarations)`: what the uses of the name in one context share (the
    /// declarations are only added to, so their number tells whether the list is still the same).
    shared_globals: SharedLists,
    /// The same for locals, by `(open scope index, name, use context identity, number of declarations)`.
    shared_locals: SharedLists,
    /// The open local scopes (innermost last) are the first `open_scopes`; the ones after them were closed and
    /// are kept, emptied, for reuse (their maps keep their tables): a scope is opened and closed in place.
    locals: Vec<LocalScope>,
    open_scopes: usize,
    /// The function whose body is being resolved.
    body_of: Option<FunctionId>,
    /// Every local name of `body_of` with its last declaration (for UseBeforeDeclaration), when
    /// `local_names_of == body_of` (built on first use, by [`Resolver::declared_later`]).
    local_names: HashMap<Name, Span>,
    local_names_of: Option<FunctionId>,
    preserving: bool,
    /// Every declared name with the root of its scope's tree (for UseBeforeDeclaration; computed on first use,
    /// by [`Resolver::declared_below`]; what each declares, as `DECLARES_*` bits), and the answers of the exact
    /// check behind it by (name, level, declarations asked for).
    declared_under_roots: Option<HashMap<(Name, ScopeId), u8>>,
    declared_in_trees: HashMap<(Name, ScopeId, u8), bool>,
    /// Preserving mode: the uses reported as UndeclaredIdentifier while their name is declared later, by name,
    /// until a later declaration in a variant of the use turns the clue into UseBeforeDeclaration (see
    /// [`Resolver::declared_later_use`]). Empty in almost every module.
    late_uses: HashMap<Name, Vec<LateUses>>,
    /// The IO struct members of every program pass.
    pass_io: Vec<PassIo>,
    /// Where clues found in dead code go (made by the first one: most modules have none).
    dead_clue: Option<PassClue>,
    /// Memoized did-you-mean answers for undefined functions.
    function_suggestions: HashMap<(Name, usize, usize), Option<String>>,
    /// The context of every branch entered (kept alive here, which `self_compatible` relies on).
    contexts: BranchContexts,
    self_compatible: SelfCompatible,
    /// The definitions of every macro name, as ranges of `out.macro_defs` (built on the first macro use).
    macros_by_name: Option<HashMap<Name, ListRef<MacroId>>>,
    /// The name of every macro definition.
    macro_names: HashSet<Name>,
    /// The name of every struct of the module.
    struct_names: HashSet<Name>,
    /// A chunk is missing or a declaration did not parse: a name found nowhere may be declared there, so it is
    /// not reported again (one root cause, one diagnostic).
    incomplete: bool,
}

impl<'m> Resolver<'m> {
    /// The conflict index of `name`, which has `count` declarations in the level at `depth` (only names with
    /// many have one: the map is not looked at for the others).
    #[inline]
    fn conflicts_of(&self, depth: usize, name: Name, count: usize) -> Option<&ConflictIndex> {
        if count >= index_from() {
            self.level_conflicts.get(&(depth, name))
        } else {
            None
        }
    }

    fn push_scope(&mut self) {
        if self.open_scopes == self.locals.len() {
            self.locals.push(LocalScope::default());
        }
        self.open_scopes += 1;
    }

    fn pop_scope(&mut self) {
        let Some(last) = self.open_scopes.checked_sub(1) else { return };
        let shared = self.shared_locals.get_mut();
        if !shared.is_empty() {
            shared.retain(|(scope, ..), _| *scope < last);
        }
        if let Some(scope) = self.locals.get_mut(last) {
            scope.names.clear();
            if !scope.conflicts.is_empty() {
                scope.conflicts.clear();
            }
            scope.structs.clear();
            scope.functions.clear();
        }
        self.open_scopes = last;
    }

    /// The open local scopes, innermost last.
    fn scopes(&self) -> &[LocalScope] {
        self.locals.get(..self.open_scopes).unwrap_or_default()
    }

    /// The innermost open local scope.
    fn innermost(&mut self) -> Option<&mut LocalScope> {
        let last = self.open_scopes.checked_sub(1)?;
        self.locals.get_mut(last)
    }

    fn name(&self, n: Name) -> &'m str {
        self.m.names.resolve(n)
    }

    fn clue(&mut self, kind: SymbolClue, span: Span, ctx: &CondCtx) -> &mut PassClue {
        let mut clue = PassClue::new(PassClueKind::Symbol(kind), span);
        clue.conditions = ctx.description_strings();
        // Code no variant compiles is never wrong: the clue goes to a scratch slot.
        if ctx.is_dead() {
            return self.dead_clue.insert(clue);
        }
        self.out.clues.push(clue);
        let last = self.out.clues.len() - 1;
        &mut self.out.clues[last]
    }

    fn scope(&mut self, id: ScopeId, children: &Children) {
        // At most one name per declaration.
        let mut declarations = 0;
        Guarded::for_each_item(&self.m.scopes[id].items, &mut |item| {
            if matches!(item, GlobalItem::Struct(_) | GlobalItem::Var(_) | GlobalItem::Function(_)) {
                declarations += 1;
            }
        });
        let level = Level {
            names: HashMap::with_capacity_and_hasher(declarations, Default::default()),
            structs: OnceCell::new(),
            io_members: OnceCell::new(),
            scope: id,
        };
        self.levels.push(level);
        let items = &self.m.scopes[id].items;
        self.items(items, &CondCtx::default());
        for &(_, kid) in children.of(Some(id)) {
            self.scope(kid, children);
        }
        self.levels.pop();
        let depth = self.levels.len();
        if !self.level_conflicts.is_empty() {
            self.level_conflicts.retain(|(d, _), _| *d < depth);
        }
        let shared = self.shared_globals.get_mut();
        if !shared.is_empty() {
            shared.retain(|(d, ..), _| *d < depth);
        }
    }

    fn items(&mut self, items: &'m [Guarded<GlobalItem>], ctx: &CondCtx) {
        for item in items {
            match item {
                Guarded::Item(i) => self.global_item(i, ctx),
                Guarded::Cond(region) if is_transparent_include_guard(self.m, region) => {
                    for b in &region.branches {
                        self.items(&b.items, ctx);
                    }
                }
                Guarded::Cond(region) => self.region(region, ctx, &mut |r, items, ctx| r.items(items, ctx)),
            }
        }
    }

    /// Walk every branch of a region with its context.
    fn region<T>(&mut self, region: &'m CondRegion<T>, ctx: &CondCtx, walk: &mut BranchWalk<'_, 'm, Self, T>) {
        for (i, b) in region.branches.iter().enumerate() {
            let inner = ctx.enter_recording(self.m, region, i as u32, &mut self.contexts);
            walk(self, &b.items, &inner);
        }
        if let Some(items) = &region.else_items {
            let inner = ctx.enter_recording(self.m, region, ELSE_BRANCH, &mut self.contexts);
            walk(self, items, &inner);
        }
    }

    fn declare_global(&mut self, name: Name, kind: DeclKind, span: Span, ctx: &CondCtx) {
        let m = self.m;
        // Redefinition: same level, compatible variants.
        let depth = self.levels.len().wrapping_sub(1);
        let conflict = self.levels.last().and_then(|l| {
            let decls = l.names.get(&name)?;
            match self.conflicts_of(depth, name, decls.len()) {
                Some(index) => index.first_conflict(ctx, &kind_key(m, &kind)).map(|at| decls[at].clone()),
                None => {
                    // The new declaration's key only when some earlier one is in every variant of it.
                    let key = OnceCell::new();
                    decls
                        .iter()
                        .find(|d| {
                            ctx.implies(&d.ctx)
                                && !kind_key(m, &d.kind).compatible(key.get_or_init(|| kind_key(m, &kind)))
                        })
                        .cloned()
                }
            }
        });
        if let Some(first) = conflict {
            let text = self.name(name).to_owned();
            self.clue(SymbolClue::Redefinition { name: text }, span, ctx)
                .notes
                .push(crate::clue::PassNote { span: Some(first.span), message: "previous declaration is here".into() });
        }
        if !self.late_uses.is_empty() {
            self.settle_late_uses(name, kind.declares(), ctx, None);
        }
        if let Some(level) = self.levels.last_mut() {
            let decl = Decl { kind, ctx: ctx.clone(), span };
            match level.names.entry(name) {
                Entry::Occupied(mut decls) => {
                    let decls = decls.get_mut();
                    decls.push(decl);
                    record(&mut self.level_conflicts, (depth, name), decls, |d| (&d.ctx, kind_key(m, &d.kind)));
                }
                Entry::Vacant(slot) => {
                    slot.insert(OneOrMore::One(decl));
                }
            }
        }
    }

    fn global_item(&mut self, item: &'m GlobalItem, ctx: &CondCtx) {
        let m = self.m;
        match item {
            GlobalItem::Struct(id) => {
                let s = &m.structs[*id];
                Guarded::for_each_item(&s.members, &mut |member| self.type_spec(&member.ty, Owner::Global, ctx));
                self.declare_global(s.name, DeclKind::Struct(*id), s.name_span, ctx);
            }
            GlobalItem::Var(id) => {
                let g = &m.globals[*id];
                self.type_spec(&g.ty, Owner::Global, ctx);
                if let Some(init) = g.init {
                    self.expr(Owner::Global, init, ctx);
                }
                self.out.global_ctx[*id] = Some(ctx.clone());
                self.declare_global(g.name, DeclKind::Var(*id), g.name_span, ctx);
            }
            GlobalItem::Function(id) => self.function(*id, ctx),
            GlobalItem::Define(_) | GlobalItem::Undef { .. } | GlobalItem::Precision { .. } => {}
        }
    }

    fn function(&mut self, id: FunctionId, ctx: &CondCtx) {
        let m = self.m;
        let f = &m.functions[id];
        let owner = Owner::Function(id);
        self.out.function_ctx[id] = Some(ctx.clone());
        self.type_spec(&f.return_type, owner, ctx);
        // Parameter types before the function is declared; the function is visible in its own body.
        Guarded::for_each_item(&f.params, &mut |p| {
            if let ParamKind::Declared { local } = p.kind {
                self.type_spec(&f.locals[local].ty, owner, ctx);
            }
        });
        self.declare_global(f.name, DeclKind::Function(id), f.name_span, ctx);
        let Some(body) = &f.body else { return };
        self.body_of = Some(id);
        self.push_scope();
        self.params(id, &f.params, ctx);
        self.stmts(id, &body.stmts, ctx);
        self.pop_scope();
        self.body_of = None;
    }

    fn params(&mut self, f: FunctionId, params: &'m [Guarded<shaderlab_ir::Param>], ctx: &CondCtx) {
        for p in params {
            match p {
                Guarded::Item(p) => {
                    let local = match p.kind {
                        ParamKind::Declared { local } => Some(local),
                        ParamKind::Macro { declares, .. } => declares,
                    };
                    if let Some(local) = local {
                        if !self.name(self.m.functions[f].locals[local].name).is_empty() {
                            self.declare_local(f, local, ctx);
                        }
                    }
                }
                Guarded::Cond(region) => self.region(region, ctx, &mut |r, items, ctx| r.params(f, items, ctx)),
            }
        }
    }

    fn declare_local(&mut self, f: FunctionId, local: LocalId, ctx: &CondCtx) {
        let m = self.m;
        let l = &m.functions[f].locals[local];
        let name = l.name;
        let text = self.name(name);
        if let Some(scope) = self.scopes().last() {
            if let Some(first) = implied_local(scope, name, ctx) {
                self.clue(SymbolClue::Redefinition { name: text.to_owned() }, l.name_span, ctx)
                    .notes
                    .push(crate::clue::PassNote { span: Some(first), message: "previous declaration is here".into() });
            } else if l.kind == shaderlab_ir::LocalKind::Variable {
                let scopes = self.scopes();
                let outer = scopes[..scopes.len() - 1].iter().rev().find_map(|s| implied_local(s, name, ctx));
                let global = self.levels.iter().enumerate().rev().find_map(|(depth, lv)| {
                    let decls = lv.names.get(&name)?;
                    match self.conflicts_of(depth, name, decls.len()) {
                        Some(index) => index
                            .first_implied(ctx, |k| matches!(k, KindKey::PlainVar | KindKey::Uniform(_)))
                            .map(|at| decls[at].span),
                        None => decls
                            .iter()
                            .find(|d| matches!(d.kind, DeclKind::Var(_)) && ctx.implies(&d.ctx))
                            .map(|d| d.span),
                    }
                });
                // A local hides outer locals and parameters from a nested block; it hides a global anywhere.
                let outer = outer.filter(|_| self.open_scopes > 1);
                if let Some(hidden) = outer.or(global) {
                    self.clue(SymbolClue::ShadowedDeclaration { name: text.to_owned() }, l.name_span, ctx)
                        .notes
                        .push(crate::clue::PassNote { span: Some(hidden), message: "hides this declaration".into() });
                }
            }
        }
        if !self.late_uses.is_empty() {
            self.settle_late_uses(name, DECLARES_VAR, ctx, Some(f));
        }
        if let Some(scope) = self.innermost() {
            let decl = (local, ctx.clone(), l.name_span);
            match scope.names.entry(name) {
                Entry::Occupied(mut decls) => {
                    let decls = decls.get_mut();
                    decls.push(decl);
                    record(&mut scope.conflicts, name, decls, |(_, c, _)| (c, KindKey::Local));
                }
                Entry::Vacant(slot) => {
                    slot.insert(OneOrMore::One(decl));
                }
            }
        }
    }

    fn stmts(&mut self, f: FunctionId, stmts: &'m [Guarded<Statement>], ctx: &CondCtx) {
        for s in stmts {
            match s {
                Guarded::Item(s) => self.stmt(f, s, ctx),
                Guarded::Cond(region) => self.region(region, ctx, &mut |r, items, ctx| r.stmts(f, items, ctx)),
            }
        }
    }

    /// A sub-statement that opens its own scope (an `if` branch, a loop body).
    fn scoped(&mut self, f: FunctionId, s: &'m Statement, ctx: &CondCtx) {
        self.push_scope();
        match &s.kind {
            StmtKind::Block(b) => self.stmts(f, &b.stmts, ctx),
            _ => self.stmt(f, s, ctx),
        }
        self.pop_scope();
    }

    fn stmt(&mut self, f: FunctionId, s: &'m Statement, ctx: &CondCtx) {
        let m = self.m;
        let func = &m.functions[f];
        let owner = Owner::Function(f);
        match &s.kind {
            StmtKind::Empty
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Discard
            | StmtKind::Default
            | StmtKind::Precision { .. }
            | StmtKind::Define(_)
            | StmtKind::Undef(_) => {}
            StmtKind::Expr(e) | StmtKind::Case(e) => self.expr(owner, *e, ctx),
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.expr(owner, *e, ctx);
                }
            }
            StmtKind::Declare(locals) => {
                for l in *locals {
                    let local = &func.locals[l];
                    self.type_spec(&local.ty, owner, ctx);
                    if let Some(init) = local.init {
                        self.expr(owner, init, ctx);
                    }
                    self.declare_local(f, l, ctx);
                }
            }
            StmtKind::Struct { id, declares } => {
                let st = &m.structs[*id];
                Guarded::for_each_item(&st.members, &mut |member| self.type_spec(&member.ty, Owner::Global, ctx));
                if let Some(scope) = self.innermost() {
                    scope.structs.entry(st.name).or_default().push(*id);
                }
                for l in *declares {
                    self.declare_local(f, l, ctx);
                }
            }
            StmtKind::Prototype(p) => {
                let proto = &m.functions[*p];
                if let Some(scope) = self.innermost() {
                    scope.functions.entry(proto.name).or_default().push(*p);
                }
            }
            StmtKind::Block(b) => {
                self.push_scope();
                self.stmts(f, &b.stmts, ctx);
                self.pop_scope();
            }
            StmtKind::If { condition, accept, reject } => {
                self.expr(owner, *condition, ctx);
                self.scoped(f, accept, ctx);
                if let Some(r) = reject {
                    self.scoped(f, r, ctx);
                }
            }
            StmtKind::For { init, condition, update, body } => {
                self.push_scope();
                if let Some(i) = init {
                    self.stmt(f, i, ctx);
                }
                if let Some(c) = condition {
                    self.expr(owner, *c, ctx);
                }
                if let Some(u) = update {
                    self.expr(owner, *u, ctx);
                }
                self.scoped(f, body, ctx);
                self.pop_scope();
            }
            StmtKind::While { condition, body } => {
                self.expr(owner, *condition, ctx);
                self.scoped(f, body, ctx);
            }
            StmtKind::DoWhile { body, condition } => {
                self.scoped(f, body, ctx);
                self.expr(owner, *condition, ctx);
            }
            StmtKind::Switch { selector, body } => {
                self.expr(owner, *selector, ctx);
                self.push_scope();
                self.stmts(f, &body.stmts, ctx);
                self.pop_scope();
            }
        }
    }

    fn type_spec(&mut self, ty: &'m TypeSpec, owner: Owner, ctx: &CondCtx) {
        for d in &ty.dims {
            if let ArrayDim::Sized(e) = d {
                self.expr(owner, *e, ctx);
            }
        }
        let TypeInner::User(name) = self.m.types.get(ty.base) else {
            return;
        };
        // A macro-typed parameter (`TEXTURE2D_SHADOW_PARAM(x)`) carries the macro's name as its type.
        if self.macro_names.contains(&name) {
            return;
        }
        if let Some(structs) = self.lookup_struct(name, ctx) {
            self.out.type_names.insert(ty.span, structs);
            return;
        }
        let text = self.name(name).to_owned();
        if self.declared_later(name, ty.span, UseKind::Type) {
            self.declared_later_use(name, ty.span, ctx, None, UseKind::Type);
        } else if !self.incomplete {
            let candidates: Vec<&str> = self.visible_struct_names();
            let suggestion = suggest(&text, candidates.into_iter());
            self.clue(SymbolClue::UndeclaredIdentifier { name: text, suggestion }, ty.span, ctx);
        }
    }

    fn lookup_struct(&self, name: Name, ctx: &CondCtx) -> Option<StructList> {
        // Every map below is keyed by struct names: a name no struct has (a function, a builtin) is none.
        if !self.struct_names.contains(&name) {
            return None;
        }
        for scope in self.scopes().iter().rev() {
            if let Some(s) = scope.structs.get(&name) {
                return Some(s.clone());
            }
        }
        for level in self.levels.iter().rev() {
            let Some(decls) = level.names.get(&name) else {
                continue;
            };
            let found: StructList = decls
                .iter()
                .filter(|d| d.ctx.compatible_memo(ctx, &self.self_compatible))
                .filter_map(|d| match d.kind {
                    DeclKind::Struct(s) => Some(s),
                    _ => None,
                })
                .collect();
            if !found.is_empty() {
                return Some(found);
            }
        }
        let m = self.m;
        // Declared later in the level (visible before its declaration), in a variant of the use.
        self.levels.iter().rev().find_map(|l| {
            let all = l.structs.get_or_init(|| level_structs(m, l.scope)).get(&name)?;
            let found: StructList =
                all.iter().filter(|(_, c)| c.compatible_memo(ctx, &self.self_compatible)).map(|(s, _)| *s).collect();
            (!found.is_empty()).then_some(found)
        })
    }

    fn visible_struct_names(&self) -> Vec<&'m str> {
        let m = self.m;
        let mut out = Vec::new();
        for level in &self.levels {
            for (n, decls) in &level.names {
                if decls.iter().any(|d| matches!(d.kind, DeclKind::Struct(_))) {
                    out.push(m.names.resolve(*n));
                }
            }
        }
        out.sort_unstable();
        out
    }

    fn io_member(&self, name: Name) -> Option<Symbol> {
        self.levels
            .iter()
            .rev()
            .find_map(|l| l.io_members.get_or_init(|| io_members(&self.pass_io, l.scope)).get(&name).copied())
            .map(|(s, n)| Symbol::IoMember(s, n))
    }

    /// Whether `name` is declared after `use_at` as what a `kind` use needs: by a later local of the function
    /// (for a value), or in the current level or a level below it ([`Resolver::declared_below`]).
    fn declared_later(&mut self, name: Name, use_at: Span, kind: UseKind) -> bool {
        // (Locals are variables: they only make a value use one before its declaration.)
        if let Some(f) = self.body_of.filter(|_| kind == UseKind::Value) {
            if self.local_names_of != Some(f) {
                self.local_names.clear();
                // The last declaration of each name (the locals are in source order): whether one follows a use.
                for l in self.m.functions[f].locals.values() {
                    self.local_names.insert(l.name, l.name_span);
                }
                self.local_names_of = Some(f);
            }
            if self.local_names.get(&name).is_some_and(|&at| at.file == use_at.file && at.start > use_at.start) {
                return true;
            }
        }
        self.declared_below(name, kind.accepts())
    }

    /// Whether `name` is declared as one of `accepts` (`DECLARES_*` bits) in the innermost current level or in the
    /// levels below it (those combined into the same programs: not in a sibling pass). The outer levels' items
    /// were all declared before this level's.
    fn declared_below(&mut self, name: Name, accepts: u8) -> bool {
        let m = self.m;
        let declared = self.declared_under_roots.get_or_insert_with(|| declared_under_roots(m));
        // The levels are a chain from a root down (see `resolve_recording`): the root's tree holds every scope
        // that may declare it. Most names that get here (run-time macros) are declared nowhere.
        let (Some(root), Some(level)) = (self.levels.first(), self.levels.last()) else {
            return false;
        };
        if declared.get(&(name, root.scope)).is_none_or(|declares| declares & accepts == 0) {
            return false;
        }
        // Rare (an error follows either way): exactly, not in a sibling's tree.
        *self
            .declared_in_trees
            .entry((name, level.scope, accepts))
            .or_insert_with(|| declared_in_tree(m, name, level.scope, accepts))
    }

    /// Whether the program declares `name` at all: in a level of the use so far, or later in the current level or
    /// a level below it.
    #[inline(never)]
    fn declares_name(&mut self, name: Name) -> bool {
        self.levels.iter().any(|l| l.names.contains_key(&name))
            || self.declared_below(name, DECLARES_VAR | DECLARES_FUNCTION | DECLARES_STRUCT)
    }

    /// A use of `name` that no visible declaration (in its variants) has, while `name` is declared later: in
    /// variant mode UseBeforeDeclaration. In preserving mode, whether a later declaration is in a variant of the
    /// use is known only when it is declared, so the use is reported now as undeclared (see
    /// [`Resolver::undeclared_clue`]; `incompatible` is an earlier declaration in other variants), and
    /// [`Resolver::settle_late_uses`] turns that into UseBeforeDeclaration when such a declaration comes: what
    /// the variants of the use report.
    #[inline(never)]
    fn declared_later_use(&mut self, name: Name, span: Span, ctx: &CondCtx, incompatible: Option<Span>, kind: UseKind) {
        if !self.preserving {
            let text = self.name(name).to_owned();
            self.clue(SymbolClue::UseBeforeDeclaration { name: text }, span, ctx);
            return;
        }
        self.undeclared_clue(name, span, ctx, incompatible, kind == UseKind::Call);
        let Some(level) = self.levels.last().map(|l| l.scope) else {
            return;
        };
        if !ctx.is_dead() {
            let late = LateUse { ctx: ctx.clone(), kind, body: self.body_of, level, clue: self.out.clues.len() - 1 };
            let groups = self.late_uses.entry(name).or_default();
            match groups.iter_mut().find(|g| g.atoms == ctx.atoms) {
                Some(group) => group.uses.push(late),
                None => groups.push(LateUses { atoms: ctx.atoms.clone(), uses: vec![late] }),
            }
        }
    }

    /// An UndeclaredIdentifier clue (UndefinedFunction for a `call`) without suggestion, with a note on
    /// `incompatible`, a declaration in other variants.
    fn undeclared_clue(&mut self, name: Name, span: Span, ctx: &CondCtx, incompatible: Option<Span>, call: bool) {
        let text = self.name(name).to_owned();
        let kind = if call {
            SymbolClue::UndefinedFunction { name: text, suggestion: None }
        } else {
            SymbolClue::UndeclaredIdentifier { name: text, suggestion: None }
        };
        let clue = self.clue(kind, span, ctx);
        if let Some(first) = incompatible {
            clue.notes.push(crate::clue::PassNote {
                span: Some(first),
                message: "declared only in variants that exclude this use".into(),
            });
        }
    }

    /// A declaration of `name` in `ctx` (a local of `local_of`, or a global of the innermost level) declaring
    /// `declares` (`DECLARES_*` bits): the late uses it settles (uses needing what it declares, in a variant of it;
    /// a local of the same function, a global of the use's level or one below) become UseBeforeDeclaration.
    #[inline(never)]
    fn settle_late_uses(&mut self, name: Name, declares: u8, ctx: &CondCtx, local_of: Option<FunctionId>) {
        let Some(groups) = self.late_uses.get_mut(&name) else {
            return;
        };
        let (levels, memo, clues) = (&self.levels, &self.self_compatible, &mut self.out.clues);
        for group in groups.iter_mut().filter(|g| !facts_contradict(&g.atoms, &ctx.atoms)) {
            group.uses.retain(|u| {
                let reaches = match local_of {
                    Some(f) => u.body == Some(f),
                    None => levels.iter().any(|l| l.scope == u.level),
                };
                if !reaches || u.kind.accepts() & declares == 0 || !u.ctx.compatible_memo(ctx, memo) {
                    return true;
                }
                let clue = &mut clues[u.clue];
                if let PassClueKind::Symbol(
                    SymbolClue::UndeclaredIdentifier { name, .. } | SymbolClue::UndefinedFunction { name, .. },
                ) = &mut clue.kind
                {
                    let name = std::mem::take(name);
                    clue.kind = PassClueKind::Symbol(SymbolClue::UseBeforeDeclaration { name });
                    clue.notes.clear();
                }
                false
            });
        }
        groups.retain(|g| !g.uses.is_empty());
    }

    /// Visible value names for suggestions.
    fn visible_value_names(&self) -> Vec<&'m str> {
        let m = self.m;
        let mut out: Vec<&str> = Vec::new();
        for scope in self.scopes() {
            out.extend(scope.names.keys().map(|n| m.names.resolve(*n)));
        }
        for level in &self.levels {
            for (n, decls) in &level.names {
                if decls.iter().any(|d| matches!(d.kind, DeclKind::Var(_))) {
                    out.push(m.names.resolve(*n));
                }
            }
        }
        out.extend(builtins::variables().iter().map(|v| v.name));
        out.sort_unstable();
        out
    }

    fn visible_function_names(&self) -> Vec<&'m str> {
        let m = self.m;
        let mut out: Vec<&str> = Vec::new();
        for level in &self.levels {
            for (n, decls) in &level.names {
                if decls.iter().any(|d| matches!(d.kind, DeclKind::Function(_) | DeclKind::Struct(_))) {
                    out.push(m.names.resolve(*n));
                }
            }
        }
        out.extend(builtins::functions().iter().map(|f| f.name));
        out.sort_unstable();
        out
    }

    fn lookup_value(&mut self, name: Name, span: Span, ctx: &CondCtx) -> Resolved {
        let mut incompatible: Option<Span> = None;
        for (index, scope) in self.scopes().iter().enumerate().rev() {
            if let Some(decls) = scope.names.get(&name) {
                let found: Symbols = match decls.as_slice() {
                    // One declaration (the common case): no collecting.
                    [(l, c, _)] if c.compatible_memo(ctx, &self.self_compatible) => Symbols::one(Symbol::Local(*l)),
                    [_] => Symbols::new(),
                    _ => self.shared_list(&self.shared_locals, (index, name, ctx.identity(), decls.len()), || {
                        decls
                            .iter()
                            .filter(|(_, c, _)| c.compatible_memo(ctx, &self.self_compatible))
                            .map(|(l, _, _)| Symbol::Local(*l))
                            .collect()
                    }),
                };
                if !found.is_empty() {
                    return Resolved::Symbols(found);
                }
                incompatible = incompatible.or(decls.first().map(|d| d.2));
            }
        }
        for (depth, level) in self.levels.iter().enumerate().rev() {
            let Some(decls) = level.names.get(&name) else {
                continue;
            };
            let found: Symbols = match decls.as_slice() {
                // One declaration (the common case): no collecting.
                [Decl { kind: DeclKind::Var(g), ctx: c, .. }] if c.compatible_memo(ctx, &self.self_compatible) => {
                    Symbols::one(Symbol::Global(*g))
                }
                [_] => Symbols::new(),
                _ => self.shared_list(&self.shared_globals, (depth, name, ctx.identity(), decls.len()), || {
                    decls
                        .iter()
                        .filter(|d| d.ctx.compatible_memo(ctx, &self.self_compatible))
                        .filter_map(|d| match d.kind {
                            DeclKind::Var(g) => Some(Symbol::Global(g)),
                            _ => None,
                        })
                        .collect()
                }),
            };
            if !found.is_empty() {
                return Resolved::Symbols(found);
            }
            incompatible = incompatible.or(decls.first().map(|d| d.span));
        }
        self.lookup_value_elsewhere(name, span, ctx, incompatible)
    }

    /// The symbols of a name with several declarations in one scope or level, for a use in one context: the
    /// list made by `make` the first time, shared by the later uses with the same key (see
    /// [`Resolver::shared_globals`]). Out of line: most names have one declaration.
    #[inline(never)]
    fn shared_list(&self, lists: &SharedLists, key: SharedKey, make: impl FnOnce() -> Symbols) -> Symbols {
        if let Some(found) = lists.borrow().get(&key) {
            return found.clone();
        }
        let found = make();
        lists.borrow_mut().insert(key, found.clone());
        found
    }

    /// The rest of [`Resolver::lookup_value`] when no local or global of that name is visible: builtins, IO
    /// members, runtime macros, or a clue (kept out of line: the common case stays small).
    #[inline(never)]
    fn lookup_value_elsewhere(
        &mut self,
        name: Name,
        span: Span,
        ctx: &CondCtx,
        incompatible: Option<Span>,
    ) -> Resolved {
        let text = self.name(name);
        if let Some(var) = builtins::variable_id(text) {
            return Resolved::Symbols(Symbols::one(Symbol::Builtin(var)));
        }
        if text == builtins::DEPTH_RANGE {
            return Resolved::Symbols(Symbols::one(Symbol::DepthRange));
        }
        if let Some(member) = self.io_member(name) {
            return Resolved::Symbols(Symbols::one(member));
        }
        // (An earlier declaration in other variants only exists in preserving mode.)
        if self.declared_later(name, span, UseKind::Value) {
            self.declared_later_use(name, span, ctx, incompatible, UseKind::Value);
            return Resolved::Unresolved;
        }
        if incompatible.is_some() {
            self.undeclared_clue(name, span, ctx, incompatible, false);
            return Resolved::Unresolved;
        }
        // A name the program declares (as a function or a struct: not a value) is not a run-time macro.
        if self.preserving && is_macro_style(text) && !self.declares_name(name) {
            return Resolved::Symbols(Symbols::one(Symbol::RuntimeMacro(name)));
        }
        if self.incomplete {
            return Resolved::Unresolved;
        }
        let suggestion = suggest(text, self.visible_value_names().into_iter());
        self.clue(SymbolClue::UndeclaredIdentifier { name: text.to_owned(), suggestion }, span, ctx);
        Resolved::Unresolved
    }

    fn lookup_call(&mut self, name: Name, span: Span, ctx: &CondCtx) -> CallTarget {
        if let Some(structs) = self.lookup_struct(name, ctx) {
            let start = self.out.call_structs.len();
            self.out.call_structs.extend_from_slice(&structs);
            return CallTarget::Constructor(ListRef::since(&self.out.call_structs, start));
        }
        let pool = &mut self.out.call_functions;
        let start = pool.len();
        // (`Resolver::scopes`, spelled out: `pool` borrows `self.out` mutably, so `self` cannot be borrowed whole.)
        let open = self.locals.get(..self.open_scopes).unwrap_or_default();
        for scope in open.iter().rev() {
            if let Some(f) = scope.functions.get(&name) {
                pool.extend(f.iter().copied());
            }
        }
        for level in self.levels.iter().rev() {
            if let Some(decls) = level.names.get(&name) {
                pool.extend(decls.iter().filter(|d| d.ctx.compatible_memo(ctx, &self.self_compatible)).filter_map(
                    |d| match d.kind {
                        DeclKind::Function(f) => Some(f),
                        _ => None,
                    },
                ));
            }
        }
        let user = ListRef::since(pool, start);
        let text = self.name(name);
        let builtin = builtins::function(text);
        if !user.is_empty() || builtin.is_some() {
            return CallTarget::Callable { user, builtin };
        }
        self.undefined_call(name, span, ctx)
    }

    /// The rest of [`Resolver::lookup_call`] for a name no function or builtin has (out of line: rare).
    #[inline(never)]
    fn undefined_call(&mut self, name: Name, span: Span, ctx: &CondCtx) -> CallTarget {
        let text = self.name(name);
        if self.declared_later(name, span, UseKind::Call) {
            self.declared_later_use(name, span, ctx, None, UseKind::Call);
            return CallTarget::Unresolved;
        }
        if self.incomplete {
            return CallTarget::Unresolved;
        }
        // Function names only change between levels and with new declarations: memoize per (name, declarations).
        let key = (name, self.levels.len(), self.levels.iter().map(|l| l.names.len()).sum::<usize>());
        let suggestion = match self.function_suggestions.get(&key) {
            Some(s) => s.clone(),
            None => {
                let s = suggest(text, self.visible_function_names().into_iter());
                self.function_suggestions.insert(key, s.clone());
                s
            }
        };
        self.clue(SymbolClue::UndefinedFunction { name: text.to_owned(), suggestion }, span, ctx);
        CallTarget::Unresolved
    }

    /// The definitions of macro `name` (grouping every definition by name into `out.macro_defs` on the first
    /// call).
    fn macro_defs(&mut self, name: Name) -> ListRef<MacroId> {
        let by_name = match &self.macros_by_name {
            Some(map) => map,
            None => self.macros_by_name.insert(group_macros(self.m, &mut self.out.macro_defs)),
        };
        by_name.get(&name).copied().unwrap_or_default()
    }

    fn args(&mut self, tree: &Tree<'m>, args: &'m [Guarded<ExprId>], ctx: &CondCtx) {
        for a in args {
            match a {
                Guarded::Item(e) => self.expr_in(tree, *e, ctx),
                Guarded::Cond(region) => self.region(region, ctx, &mut |r, items, ctx| r.args(tree, items, ctx)),
            }
        }
    }

    fn expr(&mut self, owner: Owner, id: ExprId, ctx: &CondCtx) {
        let tree = Tree { owner, arena: owner.arena(self.m), place: self.out.idents.place(owner) };
        self.expr_in(&tree, id, ctx);
    }

    /// [`Resolver::expr`] in a tree of `tree.owner` (its arena and table place found once per tree).
    fn expr_in(&mut self, tree: &Tree<'m>, id: ExprId, ctx: &CondCtx) {
        let e = &tree.arena[id];
        match &e.kind {
            Expr::Ident(n) => {
                let r = self.lookup_value(*n, e.span, ctx);
                if let Some(slot) = self.out.idents.get_mut_in(tree.place, id) {
                    *slot = r;
                }
            }
            Expr::Call { callee, callee_span, args } => {
                let t = self.lookup_call(*callee, *callee_span, ctx);
                if let Some(slot) = self.out.calls.get_mut_in(tree.place, id) {
                    *slot = t;
                }
                self.args(tree, args, ctx);
            }
            Expr::MacroRef { name, args } => {
                let defs = self.macro_defs(*name);
                if let Some(slot) = self.out.macro_refs.get_mut_in(tree.place, id) {
                    *slot = defs;
                }
                if let Some(args) = args {
                    self.args(tree, args, ctx);
                }
            }
            Expr::Construct { ty, args } => {
                self.type_spec(ty, tree.owner, ctx);
                self.args(tree, args, ctx);
            }
            other => other.for_each_child(&mut |c| self.expr_in(tree, c, ctx)),
        }
    }
}

/// One expression tree's owner, its arena, and the arena's place in the resolution's tables (they share one
/// layout: see [`crate::table::ExprTable::place`]).
struct Tree<'m> {
    owner: Owner,
    arena: &'m Arena,
    place: ArenaPlace,
}

/// Every macro definition grouped by name into `pool` (each name's in declaration order): the range of each name.
fn group_macros(m: &Module, pool: &mut Vec<MacroId>) -> HashMap<Name, ListRef<MacroId>> {
    let mut by_name: HashMap<Name, ListRef<MacroId>> =
        HashMap::with_capacity_and_hasher(m.macros.len(), Default::default());
    for d in m.macros.values() {
        by_name.entry(d.name).or_default().len += 1;
    }
    // Consecutive ranges (in any order of the names), then filled in declaration order.
    let base = pool.len() as u32;
    let mut next = base;
    for r in by_name.values_mut() {
        r.start = next;
        next += std::mem::take(&mut r.len);
    }
    let Some(first) = m.macros.keys().next() else { return by_name };
    pool.resize(next as usize, first);
    for (i, d) in m.macros.iter() {
        if let Some(r) = by_name.get_mut(&d.name) {
            if let Some(slot) = pool.get_mut((r.start + r.len) as usize) {
                *slot = i;
            }
            r.len += 1;
        }
    }
    by_name
}

/// What the redeclaration rules ([`KindKey::compatible`]) read of a declaration.
fn kind_key(m: &Module, kind: &DeclKind) -> KindKey {
    match kind {
        DeclKind::Struct(_) => KindKey::Struct,
        DeclKind::Var(g) => {
            let g = &m.globals[*g];
            if g.is_uniform() {
                KindKey::Uniform((g.ty.base, g.ty.dims.len()))
            } else {
                KindKey::PlainVar
            }
        }
        DeclKind::Function(f) => {
            let f = &m.functions[*f];
            let mut params = Vec::new();
            Guarded::for_each_item(&f.params, &mut |p| {
                if let ParamKind::Declared { local } = p.kind {
                    params.push((f.locals[local].ty.base, f.locals[local].ty.dims.len()));
                }
            });
            KindKey::Function {
                params: params.into_boxed_slice(),
                body: f.body.is_some(),
                ret: (f.return_type.base, f.return_type.dims.len()),
            }
        }
    }
}

/// The span of the first local of `name` in `scope` that every variant of `ctx` has.
#[inline(always)]
fn implied_local(scope: &LocalScope, name: Name, ctx: &CondCtx) -> Option<Span> {
    let decls = scope.names.get(&name)?;
    let index = if decls.len() >= index_from() { scope.conflicts.get(&name) } else { None };
    match index {
        Some(index) => index.first_conflict(ctx, &KindKey::Local).map(|at| decls[at].2),
        None => decls.iter().find(|(_, c, _)| ctx.implies(c)).map(|(_, _, s)| *s),
    }
}

/// A walker over one branch of a conditional region: `(pass, branch items, branch context)`.
type BranchWalk<'w, 'm, P, T> = dyn FnMut(&mut P, &'m [Guarded<T>], &CondCtx) + 'w;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redecl::set_index_from;
    use shaderlab_frontend::{parse, MapResolver, Options};

    /// A deterministic program with many declarations of a few names under nested conditionals: globals of every
    /// kind (uniforms of two types, plain variables, structs, prototypes, definitions and overloads) and locals
    /// in nested blocks.
    fn program(seed: u64) -> String {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        const GLOBALS: [&str; 10] = [
            "uniform vec4 u;",
            "uniform float u;",
            "float u;",
            "struct u { float x; };",
            "float g(float a);",
            "float g(float a) { return a; }",
            "vec2 g(float a);",
            "float g(vec2 a) { return a.x; }",
            "float g(float a, float b) { return a + b; }",
            "uniform vec4 g;",
        ];
        const LOCALS: [&str; 3] = ["float x = 1.0;", "vec2 x = vec2(0.0);", "{ float x = 2.0; }"];
        let mut out = String::from(
            "Shader \"t\" { SubShader \"s\" { Pass \"p\" {\nVertexShader = vert; FragmentShader = frag;\n",
        );
        // Conditional regions around `items` lines made by `line`.
        let region_lines = |out: &mut String,
                            next: &mut dyn FnMut(usize) -> usize,
                            items: usize,
                            line: &dyn Fn(usize) -> &'static str| {
            let mut open = 0;
            for _ in 0..items {
                match next(6) {
                    0 if open < 3 => {
                        out.push_str(&format!("#ifdef M{}\n", next(4)));
                        open += 1;
                    }
                    1 if open < 3 => {
                        out.push_str("#if defined(A) && B > 1\n");
                        open += 1;
                    }
                    2 if open > 0 => out.push_str("#else\n"),
                    3 if open > 0 => {
                        out.push_str("#endif\n");
                        open -= 1;
                    }
                    _ => {}
                }
                out.push_str(line(next(100)));
                out.push('\n');
            }
            for _ in 0..open {
                out.push_str("#endif\n");
            }
        };
        region_lines(&mut out, &mut next, 30, &|i| GLOBALS[i % GLOBALS.len()]);
        out.push_str("void vert() {\n");
        region_lines(&mut out, &mut next, 20, &|i| LOCALS[i % LOCALS.len()]);
        out.push_str("gl_Position = vec4(0.0);\n}\nvoid frag() { gl_FragColor = vec4(1.0); }\n} } }\n");
        out
    }

    /// The codes of name resolution's clues on a pass whose fragment function's body is `body` and whose pass
    /// has `globals` after that function, in preserving mode (`defines` None) or in one variant.
    fn late_codes(
        globals_before: &str,
        body: &str,
        globals_after: &str,
        defines: Option<&[&str]>,
    ) -> Vec<&'static str> {
        let source = format!(
            "Shader \"s\" {{ SubShader \"d\" {{ Pass \"p\" {{\n{globals_before}\nvoid v() {{ gl_Position = vec4(0.0); }}\n\
             void f() {{\n{body}\ngl_FragColor = vec4(1.0);\n}}\n{globals_after}\nVertexShader = v; FragmentShader = f;\n}} }} }}"
        );
        let owned: Vec<(String, String)> =
            defines.unwrap_or_default().iter().map(|d| (d.to_string(), "1".to_string())).collect();
        let options = Options { defines: defines.map(|_| owned.as_slice()), ..Options::default() };
        let m = parse("t.shader", &source, &MapResolver::new(), &options);
        resolve(&m).clues.iter().map(|c| c.kind.code()).collect()
    }

    /// A use whose name is declared later only in other variants, or declared later in its own variants with
    /// an earlier declaration in other variants: the preserving check says what the variant with the use says
    /// (locals, struct types, calls and globals; fuzz_variants found the global case).
    #[test]
    fn late_declarations_count_only_in_variants_of_the_use() {
        // (globals before, body, globals after, defines of the use's variant, the code).
        let cases: [(&str, &str, &str, &[&str], &str); 16] = [
            // A global initialized with itself, an earlier declaration in the other branch.
            (
                "#ifdef A\nconst float x = 1.0;\n#else\nconst float x = x * 2.0;\n#endif",
                "",
                "",
                &[],
                "UseBeforeDeclaration",
            ),
            // A local initialized with itself (its scope starts after the initializer), the same.
            ("", "#ifdef A\nfloat x = 1.0;\n#else\nfloat x = x + 1.0;\n#endif", "", &[], "UndeclaredIdentifier"),
            // A local declared later only in the other branch, and in the use's own branch.
            (
                "",
                "#ifdef A\nfloat y = x;\n#endif\n#ifndef A\nfloat x = 1.0;\n#endif",
                "",
                &["A"],
                "UndeclaredIdentifier",
            ),
            ("", "#ifdef A\nfloat y = x;\nfloat x = 1.0;\n#endif", "", &["A"], "UseBeforeDeclaration"),
            // Declared before the use in the other branch and after it in the use's own (the last declaration
            // counts, not the first).
            (
                "",
                "#ifdef A\nfloat x = 1.0;\n#else\nfloat y = x;\nfloat x = 2.0;\n#endif",
                "",
                &[],
                "UseBeforeDeclaration",
            ),
            // A struct type declared later only in the other branch (a struct is visible in its whole level, before
            // its declaration too, but only in its own variants), and in the use's own.
            ("", "#ifdef A\nS s;\n#endif", "#ifndef A\nstruct S { float a; };\n#endif", &["A"], "UndeclaredIdentifier"),
            ("", "#ifdef A\nS s;\n#endif", "#ifdef A\nstruct S { float a; };\n#endif", &["A"], ""),
            // A function declared later only in the other branch, and in the use's own.
            (
                "",
                "#ifdef A\nfloat y = g();\n#endif",
                "#ifndef A\nfloat g() { return 1.0; }\n#endif",
                &["A"],
                "UndefinedFunction",
            ),
            ("", "#ifdef A\nfloat y = g();\n#endif", "float g() { return 1.0; }", &["A"], "UseBeforeDeclaration"),
            // Only a declaration of what the use needs makes it one before its declaration: a function used as a
            // value (declared before or after it; glslang: undeclared identifier), a variable used as a callee or
            // as a type, a struct used as a value.
            ("float g() { return 1.0; }", "float y = g;", "", &[], "UndeclaredIdentifier"),
            ("", "float y = g;", "float g() { return 1.0; }", &[], "UndeclaredIdentifier"),
            ("", "float y = h();", "float h = 1.0;", &[], "UndefinedFunction"),
            ("", "S s;", "float S = 1.0;", &[], "UndeclaredIdentifier"),
            ("", "float y = S;", "struct S { float a; };", &[], "UndeclaredIdentifier"),
            // A local variable declared later settles a value use, not a call.
            ("", "float y = k();\nfloat k = 1.0;", "", &[], "UndefinedFunction"),
            ("", "#ifdef A\nfloat y = k();\n#endif\nfloat k = 1.0;", "", &["A"], "UndefinedFunction"),
        ];
        for (before, body, after, defines, want) in cases {
            // An empty code: no clue.
            let want: Vec<&str> = [want].into_iter().filter(|w| !w.is_empty()).collect();
            let preserving = late_codes(before, body, after, None);
            assert_eq!(preserving, want, "preserving: {before:?} {body:?} {after:?}");
            let variant = late_codes(before, body, after, Some(defines));
            assert_eq!(variant, want, "variant: {before:?} {body:?} {after:?}");
        }
    }

    fn clues(source: &str, index_from: usize) -> Vec<String> {
        let m = parse("t.shader", source, &MapResolver::new(), &Options::default());
        set_index_from(index_from);
        let r = resolve(&m);
        set_index_from(crate::redecl::INDEX_FROM);
        r.clues.iter().map(|c| format!("{c:?}")).collect()
    }

    /// The context comparisons of name resolution on `n` repetitions of `unit` (a `{i}` in it is the repetition's
    /// number) among the globals, or among the locals of a function.
    fn comparisons(unit: &str, n: usize, local: bool) -> usize {
        let body: String = (0..n).map(|i| unit.replace("{i}", &i.to_string())).collect();
        let (globals, locals) = if local { (String::new(), body) } else { (body, String::new()) };
        let source = format!(
            "Shader \"t\" {{ SubShader \"s\" {{ Pass \"p\" {{\nVertexShader = vert; FragmentShader = frag;\n{globals}\n\
             void vert() {{\n{locals}\ngl_Position = vec4(0.0);\n}}\nvoid frag() {{ gl_FragColor = vec4(1.0); }}\n}} }} }}\n"
        );
        let m = parse("t.shader", &source, &MapResolver::new(), &Options::default());
        crate::variants::IMPLIES_CALLS.with(|c| c.set(0));
        let r = resolve(&m);
        assert!(r.clues.len() <= 2 * n, "{unit}: {} clues", r.clues.len());
        crate::variants::IMPLIES_CALLS.with(|c| c.get())
    }

    /// Many declarations of one name (each under its own condition, in both branches of their own `#ifdef`,
    /// unconditional repeats of one uniform, overloads, conditional locals) cost comparisons in proportion to
    /// their number: 4x the declarations, at most 5x the comparisons (comparing each with every earlier one
    /// was 16x).
    #[test]
    fn many_declarations_of_one_name_cost_linear_work() {
        let units = [
            ("#ifdef M{i}\nuniform vec4 u;\n#endif\n", false),
            ("#ifdef M{i}\nuniform vec4 u;\n#else\nuniform vec4 u;\n#endif\n", false),
            ("uniform vec4 u;\n", false),
            ("struct S{i} { float x; };\nfloat h(S{i} s) { return s.x; }\n", false),
            ("#ifdef M{i}\nfloat h(float a) { return a; }\n#endif\n", false),
            ("#ifdef M{i}\nfloat x = 1.0;\n#endif\n", true),
            ("#ifdef M{i}\nfloat x = 1.0;\n#else\nvec2 x = vec2(0.0);\n#endif\n", true),
        ];
        for (unit, local) in units {
            let (small, large) = (comparisons(unit, 250, local), comparisons(unit, 1000, local));
            assert!(large <= 5 * small.max(1), "{unit:?}: {small} comparisons for 250, {large} for 1,000");
        }
    }

    /// The uses of a name with many declarations under exclusive conditions share one symbol list per
    /// context (M uses of N alternatives held M x N symbols: 4,000 of each took 212 MB), for globals and locals.
    #[test]
    fn uses_of_a_name_with_many_alternatives_share_one_list() {
        let n = 300;
        let decls: String = (0..n).map(|i| format!("#ifdef M{i}\nuniform float u;\n#endif\n")).collect();
        let locals: String = (0..n).map(|i| format!("#ifdef M{i}\nfloat x = 1.0;\n#endif\n")).collect();
        let uses = "s += u; s += x;\n".repeat(n);
        let source = format!(
            "Shader \"t\" {{ SubShader \"s\" {{ Pass \"p\" {{\nVertexShader = vert; FragmentShader = frag;\n{decls}\n\
             void vert() {{\n{locals}float s = 0.0;\n{uses}gl_Position = vec4(s);\n}}\n\
             void frag() {{ gl_FragColor = vec4(1.0); }}\n}} }} }}\n"
        );
        let m = parse("t.shader", &source, &MapResolver::new(), &Options::default());
        let r = resolve(&m);
        let lists: Vec<&Symbols> = r
            .idents
            .values()
            .filter_map(|v| match v {
                Resolved::Symbols(s) if s.len() > 1 => Some(s),
                _ => None,
            })
            .collect();
        // Every use resolves to all n alternatives ...
        assert_eq!(lists.len(), 2 * n, "uses with several symbols");
        assert!(lists.iter().all(|s| s.len() == n));
        // ... held in two lists (one for u, one for x), not 2n.
        let mut addresses: Vec<usize> = lists.iter().filter_map(|s| s.shared_address()).collect();
        addresses.sort_unstable();
        addresses.dedup();
        assert_eq!(addresses.len(), 2, "distinct lists");
    }

    /// The Redefinition and shadowing checks report the same with and without their index.
    #[test]
    fn conflict_index_reports_what_comparing_every_declaration_reports() {
        let mut redefinitions = 0;
        for seed in 0..200 {
            let source = program(seed);
            let with_index = clues(&source, 2);
            assert_eq!(with_index, clues(&source, usize::MAX), "seed {seed}:\n{source}");
            redefinitions += with_index.iter().filter(|c| c.contains("Redefinition")).count();
        }
        // The programs do redefine names (the comparison is not between two empty lists).
        assert!(redefinitions > 1000, "{redefinitions} Redefinition clues");
    }
}
