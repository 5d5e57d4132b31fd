//! Reachability, per pass and stage (`codegen.md` §1): the functions an entry reaches (the call graph's order, plus
//! functions named by the macros it uses), and the globals, structs and macros those functions need, closed over
//! initializers, array sizes and struct members. Target-independent.
//!
//! Macro bodies are text: a used macro reaches every function, global, struct and macro of the pass whose name
//! appears as an identifier in its body (in preserving mode `INVERSE_MAT(m)` must keep `inverseMat`).

use crate::interface::{IoScratch, PassInterface, StageIo};
use crate::Stage;
use shaderlab_ir::hash::{FastHashMap as HashMap, FastHashSet as HashSet};
use shaderlab_ir::{
    ArrayDim, Block, EntityRef, Expr, ExprId, Expression, FunctionId, GlobalId, GlobalItem, Guarded, MacroId, Module,
    Name, ParamKind, PassId, PrimaryMap, ScopeId, SecondaryMap, Statement, StmtKind, StructId, TypeInner, TypeSpec,
};
use shaderlab_passes::resolve::{CallTarget, Resolved, Symbol, Symbols};
use shaderlab_passes::typing::Callee;
use shaderlab_passes::{Facts, Owner};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::marker::PhantomData;

/// A set of entity ids, one bit per id: the reached functions, globals and structs of a stage (made once per stage
/// with room for every id of the module), the macro names of the reflection (made empty, grown as names come).
/// The first 64 ids are kept in the set itself: a small module's sets allocate nothing. A test or an insertion is
/// a few instructions, with no call (cranelift's `EntitySet`, used before, goes through an out-of-line capacity
/// check on every insertion: ~1% of a small file's compile).
pub(crate) struct IdSet<K> {
    /// Ids 0 to 63.
    first: u64,
    /// Ids from 64 on, 64 a word.
    rest: Vec<u64>,
    _ids: PhantomData<K>,
}

impl<K> Default for IdSet<K> {
    /// Empty, with no room past the first 64 ids (nothing allocated until a larger id comes).
    fn default() -> Self {
        IdSet { first: 0, rest: Vec::new(), _ids: PhantomData }
    }
}

impl<K: EntityRef> IdSet<K> {
    /// Room for the ids below `n` (more are taken too: the set grows).
    pub(crate) fn with_capacity(n: usize) -> Self {
        IdSet { first: 0, rest: vec![0; n.saturating_sub(64).div_ceil(64)], _ids: PhantomData }
    }

    #[inline]
    pub(crate) fn contains(&self, k: K) -> bool {
        let i = k.index();
        if i < 64 {
            return self.first >> i & 1 != 0;
        }
        self.rest.get(i / 64 - 1).is_some_and(|w| w >> (i % 64) & 1 != 0)
    }

    /// Add `k`; whether it was not in the set.
    #[inline]
    pub(crate) fn insert(&mut self, k: K) -> bool {
        let i = k.index();
        let bit = 1u64 << (i % 64);
        let word = if i < 64 {
            &mut self.first
        } else {
            let at = i / 64 - 1;
            if at >= self.rest.len() {
                self.rest.resize(at + 1, 0);
            }
            // Always there after the resize; `get_mut` keeps the path free of an index panic.
            let Some(word) = self.rest.get_mut(at) else { return false };
            word
        };
        let new = *word & bit == 0;
        *word |= bit;
        new
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.first == 0 && self.rest.iter().all(|&w| w == 0)
    }

    pub(crate) fn remove(&mut self, k: K) {
        let i = k.index();
        let bit = !(1u64 << (i % 64));
        if i < 64 {
            self.first &= bit;
        } else if let Some(word) = self.rest.get_mut(i / 64 - 1) {
            *word &= bit;
        }
    }

    /// The ids in the set, in increasing order.
    pub(crate) fn iter(&self) -> IdSetIter<'_, K> {
        IdSetIter { words: self.rest.iter(), base: 0, next_base: 64, bits: self.first, _ids: PhantomData }
    }
}

/// [`IdSet::iter`].
pub(crate) struct IdSetIter<'s, K> {
    words: std::slice::Iter<'s, u64>,
    /// The first id of the word in `bits`, and of the next word.
    base: usize,
    next_base: usize,
    /// The bits of the current word not visited yet.
    bits: u64,
    _ids: PhantomData<K>,
}

impl<K: EntityRef> Iterator for IdSetIter<'_, K> {
    type Item = K;

    #[inline]
    fn next(&mut self) -> Option<K> {
        while self.bits == 0 {
            self.bits = *self.words.next()?;
            self.base = self.next_base;
            self.next_base += 64;
        }
        let bit = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(K::new(self.base + bit))
    }
}

/// What one stage of a pass emits.
pub(crate) struct StagePlan {
    pub entry: FunctionId,
    /// Reached function definitions and the prototypes of their names.
    pub functions: IdSet<FunctionId>,
    pub globals: IdSet<GlobalId>,
    /// Structs used as types (IO structs renamed away are not among them).
    pub structs: IdSet<StructId>,
    /// Structs declared inside the reached function bodies (written in place), in the order found.
    pub local_structs: Vec<StructId>,
    pub io: StageIo,
}

/// Per stage and function whose body reachability walked, in arena order, the expressions the writer's questions
/// about a function look for (apart from uses of interface objects, which only functions with objects have):
/// identifiers resolving to an IO struct member or a builtin variable, constructors, struct constructor calls.
/// They are few; a function's whole arena need not be walked again. Each function's are a range of `uses` (one
/// list and one map for both stages of the program: no allocation per function or stage).
pub(crate) struct StructUses {
    /// Per function, its range of `uses` in the vertex and in the fragment stage.
    ranges: SecondaryMap<FunctionId, [Option<(u32, u32)>; 2]>,
    uses: Vec<ExprId>,
}

impl StructUses {
    /// The index of `stage` in a function's ranges.
    fn slot(stage: Stage) -> usize {
        match stage {
            Stage::Vertex => 0,
            Stage::Fragment => 1,
        }
    }

    /// The struct uses of function `f` in `stage`; `None` for a function reachability did not walk there.
    pub(crate) fn get(&self, stage: Stage, f: FunctionId) -> Option<&[ExprId]> {
        let (start, end) = self.ranges.get(f)?[Self::slot(stage)]?;
        self.uses.get(start as usize..end as usize)
    }
}

/// A pass with a program: its scopes, interface and two stages.
pub(crate) struct ProgramPlan {
    /// Outermost first (shader, subshader, pass).
    pub scopes: Vec<ScopeId>,
    pub interface: PassInterface,
    /// The struct uses of both stages.
    pub struct_uses: StructUses,
    pub vertex: StagePlan,
    pub fragment: StagePlan,
}

impl ProgramPlan {
    /// The plan of `pass`, whose scope chain is `scopes` (outermost first), indexed by `index` (the writer uses
    /// the index too).
    pub(crate) fn new(
        m: &Module,
        facts: &Facts,
        pass: PassId,
        scopes: Vec<ScopeId>,
        index: &ChainIndex,
    ) -> Option<ProgramPlan> {
        let (vertex_entry, fragment_entry) = facts.calls.entries.get(pass).copied().unwrap_or_default();
        let (vertex_entry, fragment_entry) = (vertex_entry?, fragment_entry?);
        // The pass facts are read in place (not cloned).
        let no_io;
        let pass_io = match facts.io.passes.get(pass).and_then(Option::as_ref) {
            Some(io) => io,
            None => {
                no_io = shaderlab_passes::io::PassIo::default();
                &no_io
            }
        };
        let vertex_order = facts.calls.vertex_order.get(pass).map_or(&[][..], Vec::as_slice);
        let fragment_order = facts.calls.fragment_order.get(pass).map_or(&[][..], Vec::as_slice);
        // Reachability also completes the interface (it walks every expression of the stage's functions).
        let mut interface = PassInterface::from_facts(pass_io);
        let mut struct_uses =
            StructUses { ranges: shaderlab_passes::table::filled_map(m.functions.len()), uses: Vec::new() };
        let vertex_reach =
            Reach::run(m, facts, index, vertex_entry, vertex_order, (&mut interface, Stage::Vertex, &mut struct_uses));
        let fragment_reach = Reach::run(
            m,
            facts,
            index,
            fragment_entry,
            fragment_order,
            (&mut interface, Stage::Fragment, &mut struct_uses),
        );
        let mut scratch = IoScratch::default();
        let mut stage = |stage: Stage, entry: FunctionId, reach: Reach| {
            let io = StageIo::new(m, facts, &interface, stage, &reach.functions, &mut scratch);
            let mut structs = reach.structs;
            for s in io.renamed_structs() {
                structs.remove(s);
            }
            StagePlan {
                entry,
                functions: reach.functions,
                globals: reach.globals,
                structs,
                local_structs: reach.local_structs,
                io,
            }
        };
        let vertex = stage(Stage::Vertex, vertex_entry, vertex_reach);
        let fragment = stage(Stage::Fragment, fragment_entry, fragment_reach);
        Some(ProgramPlan { scopes, interface, struct_uses, vertex, fragment })
    }

    pub(crate) fn stage(&self, stage: Stage) -> &StagePlan {
        match stage {
            Stage::Vertex => &self.vertex,
            Stage::Fragment => &self.fragment,
        }
    }
}

/// Declarations of a pass's scope chain by name (every branch of every conditional).
pub(crate) struct ChainIndex {
    pub functions: ByName<FunctionId>,
    pub globals: ByName<GlobalId>,
    pub structs: ByName<StructId>,
    pub macros: ByName<MacroId>,
}

/// Declarations of one kind by name. Most names are declared once: the first declaration is kept in the table
/// itself and only a name declared again (in another branch of a conditional) gets a list. A module with few
/// declarations of the kind has a list scanned by name instead of a hash table (cheaper to make and to ask).
pub(crate) struct ByName<K>(Table<K>);

enum Table<K> {
    Scanned(Vec<(Name, Ids<K>)>),
    Hashed(HashMap<Name, Ids<K>>),
}

enum Ids<K> {
    One(K),
    Many(Vec<K>),
}

impl<K: Copy> Ids<K> {
    fn push(&mut self, id: K) {
        match self {
            Ids::One(first) => *self = Ids::Many(vec![*first, id]),
            Ids::Many(list) => list.push(id),
        }
    }

    fn as_slice(&self) -> &[K] {
        match self {
            Ids::One(id) => std::slice::from_ref(id),
            Ids::Many(list) => list.as_slice(),
        }
    }
}

impl<K: Copy> ByName<K> {
    /// Room for `n` names (the module's count of the kind: the chain declares at most that many).
    fn with_capacity(n: usize) -> Self {
        ByName(if n <= crate::SCANNED {
            Table::Scanned(Vec::with_capacity(n))
        } else {
            Table::Hashed(HashMap::with_capacity_and_hasher(n, Default::default()))
        })
    }

    fn push(&mut self, name: Name, id: K) {
        match &mut self.0 {
            Table::Scanned(list) => match list.iter_mut().find(|(n, _)| *n == name) {
                Some((_, ids)) => ids.push(id),
                None => list.push((name, Ids::One(id))),
            },
            Table::Hashed(map) => match map.entry(name) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(Ids::One(id));
                }
                std::collections::hash_map::Entry::Occupied(mut slot) => slot.get_mut().push(id),
            },
        }
    }

    /// The declarations of `name`, in chain order.
    pub(crate) fn get(&self, name: &Name) -> Option<&[K]> {
        match &self.0 {
            Table::Scanned(list) => list.iter().find(|(n, _)| n == name).map(|(_, ids)| ids.as_slice()),
            Table::Hashed(map) => map.get(name).map(Ids::as_slice),
        }
    }

    pub(crate) fn contains_key(&self, name: &Name) -> bool {
        self.get(name).is_some()
    }
}

impl ChainIndex {
    pub(crate) fn new(m: &Module, scopes: &[ScopeId]) -> ChainIndex {
        let mut index = ChainIndex {
            functions: ByName::with_capacity(m.functions.len()),
            globals: ByName::with_capacity(m.globals.len()),
            structs: ByName::with_capacity(m.structs.len()),
            macros: ByName::with_capacity(m.macros.len()),
        };
        for &s in scopes {
            let Some(scope) = m.scopes.get(s) else { continue };
            Guarded::for_each_item(&scope.items, &mut |item| match item {
                GlobalItem::Function(f) => {
                    if let Some(func) = m.functions.get(*f) {
                        index.functions.push(func.name, *f);
                    }
                }
                GlobalItem::Var(g) => {
                    if let Some(global) = m.globals.get(*g) {
                        index.globals.push(global.name, *g);
                    }
                }
                GlobalItem::Struct(id) => {
                    if let Some(decl) = m.structs.get(*id) {
                        index.structs.push(decl.name, *id);
                    }
                }
                GlobalItem::Define(id) => {
                    if let Some(def) = m.macros.get(*id) {
                        index.macros.push(def.name, *id);
                    }
                }
                GlobalItem::Undef { .. } | GlobalItem::Precision { .. } => {}
            });
        }
        index
    }
}

/// The identifiers of a text (macro bodies), in order (found as they are asked for: nothing is collected).
pub(crate) fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let c = bytes[i];
            if c.is_ascii_alphabetic() || c == b'_' {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                // ASCII bytes on both sides: char boundaries.
                return text.get(start..i);
            } else if c.is_ascii_digit() || c == b'.' {
                // A number, with its suffix and exponent (`1e3`, `2.0f`): not an identifier.
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'_') {
                    i += 1;
                }
            } else {
                i += 1;
            }
        }
        None
    })
}

/// The structs a type specifier names (several in preserving mode, one per exclusive declaration). Inlined: most
/// specifiers name a builtin type and are answered without a call.
#[inline]
pub(crate) fn spec_structs<'f>(
    m: &Module,
    facts: &'f Facts,
    index: Option<&'f ChainIndex>,
    spec: &TypeSpec,
) -> Cow<'f, [StructId]> {
    match m.types.get(spec.base) {
        TypeInner::User(name) => user_structs(m, facts, index, spec, name),
        _ => Cow::Borrowed(&[]),
    }
}

/// [`spec_structs`] of a specifier naming user type `name`.
fn user_structs<'f>(
    m: &Module,
    facts: &'f Facts,
    index: Option<&'f ChainIndex>,
    spec: &TypeSpec,
    name: Name,
) -> Cow<'f, [StructId]> {
    if let Some(found) = facts.resolution.type_names.get(&spec.span) {
        if !found.is_empty() {
            return Cow::Borrowed(found);
        }
    }
    match index.and_then(|i| i.structs.get(&name)) {
        Some(list) => Cow::Borrowed(list),
        None => Cow::Owned(m.structs.iter().filter(|(_, s)| s.name == name).map(|(id, _)| id).collect()),
    }
}

/// The arena of an owner.
pub(crate) fn arena(m: &Module, owner: Owner) -> Option<&PrimaryMap<ExprId, Expression>> {
    match owner {
        Owner::Global => Some(&m.global_exprs),
        Owner::Function(f) => m.functions.get(f).map(|func| &func.exprs),
    }
}

/// Every expression below `root` (itself included), in arena `owner`, depth first. The parser makes trees: a walk
/// meets each node once and needs no set of the nodes seen. (A node shared by two parents would be listed twice,
/// which changes nothing for the callers: they ask what the nodes reach or mention. Should a walk meet more nodes
/// than the arena holds, a cycle, it is done again with a set of the nodes seen, so that it ends.)
pub(crate) fn subtree(m: &Module, owner: Owner, root: ExprId) -> Vec<ExprId> {
    let Some(arena) = arena(m, owner) else { return Vec::new() };
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        let Some(expr) = arena.get(e) else { continue };
        out.push(e);
        if out.len() > arena.len() {
            return subtree_with_set(arena, root);
        }
        expr.kind.for_each_child(&mut |c| stack.push(c));
    }
    out
}

/// [`subtree`] of an arena that is not a forest: each node listed once.
fn subtree_with_set(arena: &PrimaryMap<ExprId, Expression>, root: ExprId) -> Vec<ExprId> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    let mut seen = HashSet::default();
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        let Some(expr) = arena.get(e) else { continue };
        out.push(e);
        expr.kind.for_each_child(&mut |c| stack.push(c));
    }
    out
}

/// How many parameters a function declares (across its conditional parameter regions).
fn param_count(func: &shaderlab_ir::Function) -> usize {
    let mut n = 0;
    Guarded::for_each_item(&func.params, &mut |_| n += 1);
    n
}

pub(crate) struct Reach<'a> {
    m: &'a Module,
    facts: &'a Facts,
    index: &'a ChainIndex,
    pub functions: IdSet<FunctionId>,
    pub globals: IdSet<GlobalId>,
    pub structs: IdSet<StructId>,
    /// Structs declared in the bodies of the reached functions.
    pub local_structs: Vec<StructId>,
    function_work: Vec<FunctionId>,
    macro_names: BTreeSet<Name>,
    macro_names_done: HashSet<Name>,
    /// Shared symbol lists already reached (by `Symbols::shared_address`: the uses of one name in one context
    /// share a list of its declarations).
    shared_reached: HashSet<usize>,
}

impl<'a> Reach<'a> {
    /// What `entry` reaches. Every reached function is also scanned by `iface` for `stage`, and its struct uses
    /// listed in `uses`.
    fn run(
        m: &'a Module,
        facts: &'a Facts,
        index: &'a ChainIndex,
        entry: FunctionId,
        order: &[FunctionId],
        (iface, stage, uses): (&mut PassInterface, Stage, &mut StructUses),
    ) -> Self {
        let mut r = Reach {
            m,
            facts,
            index,
            functions: IdSet::with_capacity(m.functions.len()),
            globals: IdSet::with_capacity(m.globals.len()),
            structs: IdSet::with_capacity(m.structs.len()),
            local_structs: Vec::new(),
            // The call order, the entry, and room for the functions found on the way (no regrowing at once).
            function_work: Vec::with_capacity(order.len() + 16),
            macro_names: BTreeSet::new(),
            macro_names_done: HashSet::default(),
            shared_reached: HashSet::default(),
        };
        r.function_work.extend_from_slice(order);
        r.function_work.push(entry);
        loop {
            if let Some(f) = r.function_work.pop() {
                r.function(f, iface, stage, uses);
            } else if let Some(name) = r.macro_names.pop_first() {
                r.macro_name(name);
            } else {
                break;
            }
        }
        // Prototypes of reached functions keep their place (a definition may follow its use). A name reached
        // twice is looked up twice (cheaper than a set of the names: the second finds its prototypes already in).
        // (The emptied work list holds them.)
        let mut reached = std::mem::take(&mut r.function_work);
        reached.clear();
        reached.extend(r.functions.iter());
        for name in reached.iter().filter_map(|f| m.functions.get(*f)).map(|f| f.name) {
            for &f in index.functions.get(&name).into_iter().flatten() {
                if m.functions.get(f).is_some_and(|func| func.body.is_none()) && r.functions.insert(f) {
                    iface.scan(m, facts, stage, f);
                }
            }
        }
        r
    }

    fn function(&mut self, f: FunctionId, iface: &mut PassInterface, stage: Stage, uses: &mut StructUses) {
        if !self.functions.insert(f) {
            return;
        }
        let (m, facts) = (self.m, self.facts);
        let Some(func) = m.functions.get(f) else { return };
        // A call resolves to one definition, but the same function may be defined again in another branch of a
        // conditional region (`#ifdef A f() {..} #else f() {..} #endif`): every same-arity definition of the name
        // is kept, so each variant of the stage finds its own.
        let arity = param_count(func);
        for &g in self.index.functions.get(&func.name).into_iter().flatten() {
            if g != f && m.functions.get(g).is_some_and(|other| other.body.is_some() && param_count(other) == arity) {
                self.function_work.push(g);
            }
        }
        for site in facts.calls.calls.get(f).into_iter().flatten() {
            self.function_work.push(site.callee);
        }
        let owner = Owner::Function(f);
        self.spec(&func.return_type, owner);
        for (_, local) in func.locals.iter() {
            self.spec(&local.ty, owner);
        }
        Guarded::for_each_item(&func.params, &mut |p| {
            if let ParamKind::Macro { name, .. } = p.kind {
                self.macro_names.insert(name);
            }
        });
        // (Nothing below walks another function: the uses found here are one range.)
        let start = uses.uses.len();
        // One dispatch on the kind of each expression for both walks: what it reaches (only identifiers, calls,
        // constructors and macro uses reach anything; most expressions are operators and literals) and which
        // interface member it mentions (member accesses, identifiers, calls, indexing).
        for (e, expr) in func.exprs.iter() {
            let struct_use = match &expr.kind {
                // One look at the name's symbols for both questions.
                Expr::Ident(_) => self.ident(owner, e, Some((&mut *iface, stage))),
                Expr::Member { .. } | Expr::Index { .. } => {
                    iface.scan_expr(m, facts, stage, owner, e, &expr.kind);
                    false
                }
                Expr::Call { .. } => {
                    iface.scan_expr(m, facts, stage, owner, e, &expr.kind);
                    self.expr_kind(owner, e, &expr.kind)
                }
                Expr::Construct { .. } | Expr::MacroRef { .. } => self.expr_kind(owner, e, &expr.kind),
                _ => false,
            };
            if struct_use {
                uses.uses.push(e);
            }
        }
        let range = (u32::try_from(start), u32::try_from(uses.uses.len()));
        if let (Ok(start), Ok(end)) = range {
            uses.ranges[f][StructUses::slot(stage)] = Some((start, end));
        }
        if let Some(body) = &func.body {
            self.block(body);
        }
    }

    fn block(&mut self, block: &Block) {
        Guarded::for_each_item(&block.stmts, &mut |s| self.stmt(s));
    }

    fn stmt(&mut self, s: &Statement) {
        match &s.kind {
            StmtKind::Struct { id, .. } => {
                self.local_structs.push(*id);
                self.local_struct(*id)
            }
            StmtKind::Block(b) | StmtKind::Switch { body: b, .. } => self.block(b),
            StmtKind::If { .. } | StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. } => {
                s.kind.for_each_nested(&mut |n| self.stmt(n))
            }
            StmtKind::Prototype(f) => self.function_work.push(*f),
            StmtKind::Empty
            | StmtKind::Expr(_)
            | StmtKind::Declare(_)
            | StmtKind::Precision { .. }
            | StmtKind::Case(_)
            | StmtKind::Default
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return(_)
            | StmtKind::Discard
            | StmtKind::Define(_)
            | StmtKind::Undef(_) => {}
        }
    }

    /// A struct declared inside a function: printed in place, but its member types are needed.
    fn local_struct(&mut self, id: StructId) {
        let m = self.m;
        let Some(decl) = m.structs.get(id) else { return };
        Guarded::for_each_item(&decl.members, &mut |mem| self.spec(&mem.ty, Owner::Global));
    }

    /// Reach what a type specifier names. Inlined: most specifiers (every local's) are a builtin type without
    /// dimensions and reach nothing.
    #[inline]
    fn spec(&mut self, spec: &'a TypeSpec, owner: Owner) {
        let user = match self.m.types.get(spec.base) {
            TypeInner::User(name) => Some(name),
            _ => None,
        };
        if user.is_none() && spec.dims.is_empty() {
            return;
        }
        self.spec_parts(spec, user, owner);
    }

    /// [`Reach::spec`] of a specifier that may reach something (`user`: the user type it names).
    fn spec_parts(&mut self, spec: &'a TypeSpec, user: Option<Name>, owner: Owner) {
        if let Some(name) = user {
            for &s in user_structs(self.m, self.facts, Some(self.index), spec, name).iter() {
                self.add_struct(s);
            }
        }
        for d in &spec.dims {
            if let ArrayDim::Sized(e) = d {
                self.tree(owner, *e);
            }
        }
    }

    fn tree(&mut self, owner: Owner, root: ExprId) {
        for e in subtree(self.m, owner, root) {
            self.expr(owner, e);
        }
    }

    fn expr(&mut self, owner: Owner, e: ExprId) {
        let Some(expr) = arena(self.m, owner).and_then(|a| a.get(e)) else { return };
        self.expr_kind(owner, e, &expr.kind);
    }

    /// Reach what expression `e` names. Returns whether it is a struct use (see [`StructUses`]).
    fn expr_kind(&mut self, owner: Owner, e: ExprId, kind: &'a Expr) -> bool {
        let facts = self.facts;
        let mut struct_use = false;
        match kind {
            Expr::Ident(_) => struct_use = self.ident(owner, e, None),
            Expr::Call { .. } => {
                match facts.typing.callees.get(owner, e) {
                    Callee::Struct(s) => {
                        struct_use = true;
                        self.add_struct(*s)
                    }
                    Callee::User(f) => self.function_work.push(*f),
                    Callee::Builtin(_) | Callee::None => {}
                }
                match facts.resolution.calls.get(owner, e) {
                    CallTarget::Constructor(list) => {
                        for &s in facts.resolution.structs(*list) {
                            self.add_struct(s);
                        }
                    }
                    CallTarget::Callable { user, .. } if matches!(facts.typing.callees.get(owner, e), Callee::None) => {
                        self.function_work.extend(facts.resolution.functions(*user).iter().copied());
                    }
                    CallTarget::Callable { .. } | CallTarget::NotACall | CallTarget::Unresolved => {}
                }
            }
            Expr::Construct { ty, .. } => {
                struct_use = true;
                self.spec(ty, owner)
            }
            Expr::MacroRef { name, .. } => {
                self.macro_names.insert(*name);
            }
            Expr::Literal(_)
            | Expr::Unary { .. }
            | Expr::Binary { .. }
            | Expr::Assign { .. }
            | Expr::IncDec { .. }
            | Expr::Select { .. }
            | Expr::Sequence { .. }
            | Expr::Member { .. }
            | Expr::Index { .. }
            | Expr::ArrayLength { .. }
            | Expr::Error => {}
        }
        struct_use
    }

    /// Reach what identifier `e` names; with `iface`, also scan it for the interface (as
    /// [`PassInterface::scan_expr`] does). Returns whether it is a struct use.
    #[inline]
    fn ident(&mut self, owner: Owner, e: ExprId, mut iface: Option<(&mut PassInterface, Stage)>) -> bool {
        let Resolved::Symbols(symbols) = self.facts.resolution.idents.get(owner, e) else { return false };
        if let Some(address) = symbols.shared_address() {
            return self.shared_ident(address, symbols);
        }
        let mut struct_use = false;
        for sym in symbols {
            match sym {
                Symbol::Global(g) => self.add_global(*g),
                Symbol::RuntimeMacro(n) => {
                    self.macro_names.insert(*n);
                }
                Symbol::IoMember(_, name) => {
                    struct_use = true;
                    if let Some((iface, stage)) = &mut iface {
                        iface.scan_io_member(self.m, *stage, *name);
                    }
                }
                Symbol::Builtin(_) | Symbol::DepthRange => struct_use = true,
                Symbol::Local(_) => {}
            }
        }
        struct_use
    }

    /// [`Reach::ident`] for a shared symbol list (the uses of one name in one context share a list of its
    /// declarations, which are globals or locals): reached once, then nothing new. Out of line: rare.
    #[inline(never)]
    fn shared_ident(&mut self, address: usize, symbols: &Symbols) -> bool {
        if self.shared_reached.insert(address) {
            for sym in symbols {
                if let Symbol::Global(g) = sym {
                    self.add_global(*g);
                }
            }
        }
        false
    }

    /// Reach global `g`. Inlined: most uses of a global find it reached already.
    #[inline]
    fn add_global(&mut self, g: GlobalId) {
        if self.globals.insert(g) {
            self.new_global(g);
        }
    }

    /// What a global reached for the first time needs: its type and initializer.
    fn new_global(&mut self, g: GlobalId) {
        let m = self.m;
        let Some(global) = m.globals.get(g) else { return };
        self.spec(&global.ty, Owner::Global);
        if let Some(init) = global.init {
            self.tree(Owner::Global, init);
        }
    }

    /// Reach struct `s`. Inlined: most uses of a struct find it reached already.
    #[inline]
    fn add_struct(&mut self, s: StructId) {
        if self.structs.insert(s) {
            self.new_struct(s);
        }
    }

    /// What a struct reached for the first time needs: its members' types.
    fn new_struct(&mut self, s: StructId) {
        let m = self.m;
        let Some(decl) = m.structs.get(s) else { return };
        Guarded::for_each_item(&decl.members, &mut |mem| self.spec(&mem.ty, Owner::Global));
    }

    fn macro_name(&mut self, name: Name) {
        if !self.macro_names_done.insert(name) {
            return;
        }
        let (m, index) = (self.m, self.index);
        for &id in index.macros.get(&name).into_iter().flatten() {
            let Some(def) = m.macros.get(id) else { continue };
            let params: HashSet<&str> = def.params.iter().flatten().map(|p| m.name(*p)).collect();
            for word in identifiers(&def.body) {
                if params.contains(word) {
                    continue;
                }
                let Some(n) = m.names.lookup(word) else { continue };
                for &f in index.functions.get(&n).into_iter().flatten() {
                    self.function_work.push(f);
                }
                for &g in index.globals.get(&n).into_iter().flatten() {
                    self.add_global(g);
                }
                for &s in index.structs.get(&n).into_iter().flatten() {
                    self.add_struct(s);
                }
                if index.macros.contains_key(&n) {
                    self.macro_names.insert(n);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::IdSet;
    use shaderlab_ir::FunctionId;

    #[test]
    fn id_set_inserts_tests_removes_and_lists_in_order() {
        let f = FunctionId::from_u32;
        let mut set: IdSet<FunctionId> = IdSet::with_capacity(10);
        assert!(set.is_empty());
        // Word edges and an id past the room it was made with (the set grows).
        for id in [200, 0, 63, 64, 127, 128] {
            assert!(set.insert(f(id)), "{id} is new");
        }
        assert!(!set.insert(f(64)), "64 is already in");
        assert!(set.contains(f(200)) && set.contains(f(0)) && !set.contains(f(1)) && !set.contains(f(5000)));
        set.remove(f(63));
        set.remove(f(9999));
        assert!(!set.contains(f(63)));
        let listed: Vec<u32> = set.iter().map(|k| k.as_u32()).collect();
        assert_eq!(listed, vec![0, 64, 127, 128, 200]);
        for id in [0, 64, 127, 128, 200] {
            set.remove(f(id));
        }
        assert!(set.is_empty() && set.iter().next().is_none());
    }
}
