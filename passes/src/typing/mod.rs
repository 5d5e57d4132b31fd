//! Type inference: a type for every expression.
//!
//! Input contract: the module and its [`Resolution`]. Output: [`Typing`], with clues of categories B, D and F
//! that need types. An expression whose type cannot be known (an operand already wrong, a macro use whose type
//! depends on the variant, a run-time macro) is typed [`Type::Unknown`] with the reason, and every check that
//! would need it stays silent (continue-with-unknown), so one root cause gives one clue.
//!
//! Calls are resolved by exact overload match (GLSL ES has no implicit conversions): user overloads first,
//! then the builtin catalogue ([`crate::builtins`]).

mod construct;
pub mod ops;

use crate::builtins;
use crate::clue::{PassClue, PassClueKind, PassNote, TypeClue};
use crate::consts::Scalar;
use crate::resolve::{CallTarget, Resolution, Resolved, Symbol};
use crate::small::SmallList;
use crate::table::{filled_map, Arena, ArenaEntries, ArenaPlace, ExprTable, Owner};
use crate::ty::{ArrayLen, Ty};
use crate::variants::{BranchContexts, CondCtx, ELSE_BRANCH};
use cranelift_entity::SecondaryMap;
use shaderlab_ir::{
    ArrayDim, CondRegion, Expr, ExprId, FunctionId, GlobalId, GlobalItem, Guarded, Literal, LocalId, Module, ParamKind,
    Span, Statement, StmtKind, Storage, StructId, TypeInner, TypeSpec,
};

/// The parameter types of a user function (`None` for a macro-typed parameter), inline for the usual few.
type ParamTypes = SmallList<Option<Ty>, 6>;

/// A struct's members flattened across conditional regions: (name, type, inside a conditional).
type MemberList = Vec<(shaderlab_ir::Name, Option<Ty>, bool)>;

/// Why a type is not known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnknownReason {
    /// An operand or declaration is already wrong (its clue is reported).
    Error,
    /// A macro use whose type depends on the macro's definition in the variant.
    Macro,
    /// A macro the engine defines at run time.
    RuntimeMacro,
    /// Alternatives from exclusive conditional branches have different types, or arguments are conditional.
    Variant,
}

/// The type of an expression.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Type {
    /// Not visited (dead code of no function, or not an expression of interest).
    #[default]
    Untyped,
    Known(Ty),
    Unknown(UnknownReason),
}

impl Type {
    pub fn known(&self) -> Option<&Ty> {
        match self {
            Type::Known(t) => Some(t),
            _ => None,
        }
    }

    fn reason(&self) -> UnknownReason {
        match self {
            Type::Unknown(r) => *r,
            _ => UnknownReason::Error,
        }
    }
}

/// What a call or constructor resolved to.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Callee {
    #[default]
    None,
    User(FunctionId),
    /// Index into [`builtins::functions`].
    Builtin(usize),
    Struct(StructId),
}

/// The component indices (each 0..4) of a swizzle, 1 to 4 of them; reads as a slice.
///
/// Kept inline (no allocation), so the access table owns no heap memory.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Swizzle {
    len: u8,
    components: [u8; 4],
}

impl Swizzle {
    /// Append a component; `None` when there are already 4.
    fn push(&mut self, component: u8) -> Option<()> {
        *self.components.get_mut(self.len as usize)? = component;
        self.len += 1;
        Some(())
    }
}

impl std::ops::Deref for Swizzle {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.components[..self.len as usize]
    }
}

/// Formats as the slice of components.
impl std::fmt::Debug for Swizzle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

/// What `base.name` is.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Access {
    #[default]
    None,
    /// The member at this index of the struct's flattened member list.
    Field(usize),
    /// Component indices (0..4).
    Swizzle(Swizzle),
}

#[derive(Debug, Default)]
pub struct Typing {
    pub exprs: ExprTable<Type>,
    pub callees: ExprTable<Callee>,
    pub access: ExprTable<Access>,
    pub locals: SecondaryMap<FunctionId, SecondaryMap<LocalId, Option<Ty>>>,
    pub globals: SecondaryMap<GlobalId, Option<Ty>>,
    pub returns: SecondaryMap<FunctionId, Option<Ty>>,
    pub clues: Vec<PassClue>,
    /// Per function: `None` when its body was not typed, else whether the body has a `switch` (constant folding
    /// looks for case labels only where there is one).
    pub(crate) has_switch: SecondaryMap<FunctionId, Option<bool>>,
}

pub fn infer_types(module: &Module, res: &Resolution) -> Typing {
    infer_types_reusing(module, res, &BranchContexts::default())
}

/// [`infer_types`], taking the contexts of conditional branches from `contexts` (recorded by name resolution
/// over the same module) instead of entering the regions again.
pub(crate) fn infer_types_reusing(module: &Module, res: &Resolution, contexts: &BranchContexts) -> Typing {
    let mut t = Typer {
        // Room for every struct's members.
        member_cache: std::cell::RefCell::new(shaderlab_ir::hash::FastHashMap::with_capacity_and_hasher(
            module.structs.len(),
            Default::default(),
        )),
        m: module,
        res,
        contexts,
        arg_stack: Vec::new(),
        out: Typing::default(),
        ctx: CondCtx::default(),
        dead_clue: None,
        shared_types: Default::default(),
    };
    t.run();
    t.out
}

/// The user functions of a call in the order matching tries them: definitions before prototypes (they differ
/// only when a prototype is wrong, which resolution reports as a Redefinition), each in `user` order.
fn by_preference<'a>(m: &'a Module, user: &'a [FunctionId]) -> impl Iterator<Item = FunctionId> + 'a {
    let defined = |f: &&FunctionId| m.functions[**f].body.is_some();
    user.iter().filter(defined).chain(user.iter().filter(move |f| !defined(f))).copied()
}

struct Typer<'m> {
    /// Flattened struct members, computed on first use.
    member_cache: std::cell::RefCell<shaderlab_ir::hash::FastHashMap<StructId, std::rc::Rc<MemberList>>>,
    m: &'m Module,
    res: &'m Resolution,
    /// Contexts of conditional branches already entered (by name resolution).
    contexts: &'m BranchContexts,
    /// The types and spans of the arguments being typed, the innermost call's last (see [`Typer::args`]): one
    /// buffer for every argument list.
    arg_stack: Vec<(Type, Span)>,
    out: Typing,
    ctx: CondCtx,
    /// Where clues found in dead code go (`#ifdef M` inside `#ifndef M`: no variant compiles it); made by the
    /// first one (most modules have none).
    dead_clue: Option<PassClue>,
    /// The type of each shared symbol list already typed (by [`crate::resolve::Symbols::shared_address`]): the
    /// uses of one name in one context share a list of its declarations, typed once.
    shared_types: shaderlab_ir::hash::FastHashMap<usize, Type>,
}

/// One owner's expression arena and its entries in the resolution's tables, looked up once per function (or
/// per global declaration) and handed down the walk of its expressions.
struct Cursor<'m> {
    owner: Owner,
    exprs: &'m Arena,
    idents: ArenaEntries<'m, Resolved>,
    /// The arena's place in the typing tables (made like the resolution's: the same layout).
    place: ArenaPlace,
}

impl<'m> Cursor<'m> {
    fn of(m: &'m Module, res: &'m Resolution, owner: Owner) -> Self {
        Cursor { owner, exprs: owner.arena(m), idents: res.idents.get_arena(owner), place: res.idents.place(owner) }
    }
}

/// The GLSL name of a type, with struct names.
pub fn type_name(m: &Module, t: &Ty) -> String {
    match t {
        Ty::Struct(s) => m.structs.get(*s).map(|s| m.name(s.name).to_owned()).unwrap_or_else(|| "struct".into()),
        Ty::Array(a) => match a.parts() {
            (base, ArrayLen::Known(n)) => format!("{}[{n}]", type_name(m, &base)),
            (base, ArrayLen::Unknown) => format!("{}[]", type_name(m, &base)),
        },
        other => other.to_string(),
    }
}

impl<'m> Typer<'m> {
    /// The cursor of the global expressions (array sizes and initializers of globals, struct member sizes).
    fn global_cursor(&self) -> Cursor<'m> {
        Cursor::of(self.m, self.res, Owner::Global)
    }

    fn clue(&mut self, kind: TypeClue, span: Span) -> &mut PassClue {
        let mut clue = PassClue::new(PassClueKind::Type(kind), span);
        clue.conditions = self.ctx.description_strings();
        if self.ctx.is_dead() {
            return self.dead_clue.insert(clue);
        }
        self.out.clues.push(clue);
        let last = self.out.clues.len() - 1;
        &mut self.out.clues[last]
    }

    /// Make `ctx` the context of what is typed next (the context is shared: most statements keep it).
    #[inline]
    fn set_ctx(&mut self, ctx: &CondCtx) {
        if !self.ctx.is_same(ctx) {
            self.ctx = ctx.clone();
        }
    }

    fn name_of(&self, t: &Ty) -> String {
        type_name(self.m, t)
    }

    fn run(&mut self) {
        let m = self.m;
        // The same layout as name resolution's tables.
        self.out.exprs = ExprTable::like(&self.res.idents);
        self.out.callees = ExprTable::like(&self.res.idents);
        self.out.access = ExprTable::like(&self.res.idents);
        let mut locals = Vec::with_capacity(m.functions.len());
        let mut returns = Vec::with_capacity(m.functions.len());
        for (f, func) in m.functions.iter() {
            let types: Vec<Option<Ty>> =
                func.locals.values().map(|local| self.spec_ty(&local.ty, Owner::Function(f))).collect();
            locals.push(SecondaryMap::from(types));
            returns.push(self.spec_ty(&func.return_type, Owner::Function(f)));
        }
        // One entry per function and per local, in arena order (what indexing each in turn would build).
        self.out.locals = SecondaryMap::from(locals);
        self.out.returns = SecondaryMap::from(returns);
        self.out.has_switch = filled_map(m.functions.len());
        let globals: Vec<Option<Ty>> = m.globals.values().map(|g| self.spec_ty(&g.ty, Owner::Global)).collect();
        self.out.globals = SecondaryMap::from(globals);
        // Walk every scope's items in order, with their variant contexts.
        for (_, scope) in m.scopes.iter() {
            self.items(&scope.items, &CondCtx::default());
        }
    }

    fn items(&mut self, items: &'m [Guarded<GlobalItem>], ctx: &CondCtx) {
        for item in items {
            match item {
                Guarded::Item(i) => {
                    self.set_ctx(ctx);
                    self.global_item(i);
                }
                Guarded::Cond(region) => {
                    let guard = crate::variants::is_transparent_include_guard(self.m, region);
                    self.region(region, ctx, guard, &mut |t, items, ctx| t.items(items, ctx));
                }
            }
        }
    }

    fn region<T>(
        &mut self,
        region: &'m CondRegion<T>,
        ctx: &CondCtx,
        transparent: bool,
        walk: &mut BranchWalk<'_, 'm, Self, T>,
    ) {
        for (i, b) in region.branches.iter().enumerate() {
            let inner =
                if transparent { ctx.clone() } else { ctx.enter_recorded(self.m, region, i as u32, self.contexts) };
            walk(self, &b.items, &inner);
        }
        if let Some(items) = &region.else_items {
            let inner = ctx.enter_recorded(self.m, region, ELSE_BRANCH, self.contexts);
            walk(self, items, &inner);
        }
    }

    fn global_item(&mut self, item: &'m GlobalItem) {
        let m = self.m;
        match item {
            GlobalItem::Var(g) => {
                let global = &m.globals[*g];
                let cur = self.global_cursor();
                self.spec_dims(&global.ty, &cur);
                let declared = self.out.globals[*g];
                if global.is_uniform() && declared == Some(Ty::Void) {
                    let ty = "void".to_owned();
                    self.clue(TypeClue::InvalidUniformType { ty }, global.ty.span);
                }
                if let Some(init) = global.init {
                    let t = self.expr(&cur, init);
                    if let Some(declared) = declared {
                        let span = cur.exprs[init].span;
                        self.check_assign(&declared, &t, span);
                    }
                }
            }
            GlobalItem::Function(f) => self.function(*f),
            GlobalItem::Struct(s) => {
                let cur = self.global_cursor();
                Guarded::for_each_item(&m.structs[*s].members, &mut |mem| self.spec_dims(&mem.ty, &cur));
            }
            GlobalItem::Define(d) => {
                if let Some(body) = m.macros[*d].body_expr {
                    // Macro bodies are typed only when they are self-contained (see `macro_type`).
                    let _ = body;
                }
            }
            GlobalItem::Undef { .. } | GlobalItem::Precision { .. } => {}
        }
    }

    fn function(&mut self, f: FunctionId) {
        let m = self.m;
        let func = &m.functions[f];
        let cur = Cursor::of(m, self.res, Owner::Function(f));
        self.spec_dims(&func.return_type, &cur);
        if let Some(Ty::Sampler(_)) = self.out.returns[f] {
            let ty = self.name_of(&Ty::Sampler(match self.out.returns[f] {
                Some(Ty::Sampler(s)) => s,
                _ => unreachable!("checked above"),
            }));
            self.clue(TypeClue::NonConstructibleReturnType { ty }, func.return_type.span);
        }
        let ctx = self.ctx.clone();
        if let Some(body) = &func.body {
            self.out.has_switch[f].get_or_insert(false);
            self.stmts(f, &cur, &body.stmts, &ctx);
        }
    }

    fn stmts(&mut self, f: FunctionId, cur: &Cursor<'m>, stmts: &'m [Guarded<Statement>], ctx: &CondCtx) {
        for s in stmts {
            match s {
                Guarded::Item(s) => {
                    self.set_ctx(ctx);
                    self.stmt(f, cur, s, ctx);
                }
                Guarded::Cond(region) => {
                    self.region(region, ctx, false, &mut |t, items, ctx| t.stmts(f, cur, items, ctx))
                }
            }
        }
    }

    fn condition(&mut self, cur: &Cursor<'m>, e: ExprId) {
        let t = self.expr(cur, e);
        if let Type::Known(ty) = t {
            if ty != Ty::BOOL {
                let span = cur.exprs[e].span;
                let found = self.name_of(&ty);
                self.clue(TypeClue::NonBoolCondition { found }, span);
            }
        }
    }

    fn stmt(&mut self, f: FunctionId, cur: &Cursor<'m>, s: &'m Statement, ctx: &CondCtx) {
        let m = self.m;
        match &s.kind {
            StmtKind::Empty
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Discard
            | StmtKind::Default
            | StmtKind::Precision { .. }
            | StmtKind::Define(_)
            | StmtKind::Undef(_)
            | StmtKind::Prototype(_) => {}
            StmtKind::Expr(e) => {
                self.expr(cur, *e);
            }
            StmtKind::Case(e) => {
                self.expr(cur, *e);
            }
            StmtKind::Declare(locals) => {
                for l in *locals {
                    let local = &m.functions[f].locals[l];
                    self.spec_dims(&local.ty, cur);
                    let Some(init) = local.init else { continue };
                    let t = self.expr(cur, init);
                    let declared = self.out.locals[f][l];
                    match (declared, &t) {
                        // `float a[] = float[](...)`: the size comes from the initializer.
                        (Some(Ty::Array(d)), Type::Known(Ty::Array(i)))
                            if d.len() == ArrayLen::Unknown && d.elem() == i.elem() =>
                        {
                            self.out.locals[f][l] = Some(Ty::Array(*i));
                        }
                        (Some(declared), _) => {
                            let span = m.functions[f].exprs[init].span;
                            self.check_assign(&declared, &t, span);
                        }
                        (None, _) => {}
                    }
                }
            }
            StmtKind::Struct { id, .. } => {
                let global = self.global_cursor();
                Guarded::for_each_item(&m.structs[*id].members, &mut |mem| self.spec_dims(&mem.ty, &global));
            }
            StmtKind::Block(b) => self.stmts(f, cur, &b.stmts, ctx),
            StmtKind::If { condition, accept, reject } => {
                self.condition(cur, *condition);
                self.stmt(f, cur, accept, ctx);
                if let Some(r) = reject {
                    self.stmt(f, cur, r, ctx);
                }
            }
            StmtKind::For { init, condition, update, body } => {
                if let Some(i) = init {
                    self.stmt(f, cur, i, ctx);
                }
                if let Some(c) = condition {
                    self.condition(cur, *c);
                }
                if let Some(u) = update {
                    self.expr(cur, *u);
                }
                self.stmt(f, cur, body, ctx);
            }
            StmtKind::While { condition, body } => {
                self.condition(cur, *condition);
                self.stmt(f, cur, body, ctx);
            }
            StmtKind::DoWhile { body, condition } => {
                self.stmt(f, cur, body, ctx);
                self.condition(cur, *condition);
            }
            StmtKind::Switch { selector, body } => {
                self.out.has_switch[f] = Some(true);
                let t = self.expr(cur, *selector);
                if let Type::Known(ty) = t {
                    if !matches!(ty, Ty::Scalar(shaderlab_ir::ScalarKind::Int | shaderlab_ir::ScalarKind::Uint)) {
                        let span = m.functions[f].exprs[*selector].span;
                        let found = self.name_of(&ty);
                        self.clue(TypeClue::NonIntegerSwitch { found }, span);
                    }
                }
                self.stmts(f, cur, &body.stmts, ctx);
            }
            StmtKind::Return(value) => {
                let expected = self.out.returns[f];
                if let Some(e) = value {
                    let t = self.expr(cur, *e);
                    let span = m.functions[f].exprs[*e].span;
                    match expected {
                        Some(Ty::Void) => {
                            self.clue(TypeClue::ReturnInVoidFunction, span);
                        }
                        Some(expected) => {
                            if let Type::Known(found) = t {
                                if !same_type(&expected, &found) {
                                    let (expected, found) = (self.name_of(&expected), self.name_of(&found));
                                    self.clue(TypeClue::ReturnTypeMismatch { expected, found }, span);
                                }
                            }
                        }
                        None => {}
                    }
                }
            }
        }
    }

    /// `declared = value` (initializer or assignment).
    fn check_assign(&mut self, declared: &Ty, value: &Type, span: Span) {
        if let Type::Known(v) = value {
            if !same_type(declared, v) {
                let (target, value) = (self.name_of(declared), self.name_of(v));
                self.clue(TypeClue::AssignTypeMismatch { target, value }, span);
            }
        }
    }

    /// Type array-size expressions of a declaration.
    fn spec_dims(&mut self, spec: &'m TypeSpec, cur: &Cursor<'m>) {
        for d in &spec.dims {
            if let ArrayDim::Sized(e) = d {
                self.expr(cur, *e);
            }
        }
    }

    /// The resolved type of a declaration's type specifier.
    fn spec_ty(&self, spec: &TypeSpec, owner: Owner) -> Option<Ty> {
        Specs { m: self.m, res: self.res }.spec_ty(spec, owner)
    }

    /// Type an expression tree (post-order) and record every node.
    ///
    /// The usual leaves (a literal, a name of one local, global or builtin) are typed here; every other
    /// expression goes to the large [`Typer::expr_inner`], whose entry and exit (many registers saved and
    /// restored) cost more than typing such a leaf.
    #[inline]
    fn expr(&mut self, cur: &Cursor<'m>, id: ExprId) -> Type {
        let leaf = match &cur.exprs[id].kind {
            Expr::Literal(l) => Some(Type::Known(literal_type(l))),
            Expr::Ident(_) => match cur.idents.get(id) {
                Resolved::Symbols(symbols) => match symbols.as_slice() {
                    [s] => self.known_symbol_type(cur, s).map(Type::Known),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        // Anything else (and the rare leaves: an untyped local, a macro-typed parameter) the long way.
        let t = match leaf {
            Some(t) => t,
            None => self.expr_inner(cur, id),
        };
        if let Some(slot) = self.out.exprs.get_mut_in(cur.place, id) {
            *slot = t;
        }
        t
    }

    /// Type a call's or constructor's arguments, pushing the type and span of each on `arg_stack` (where the
    /// caller reads them from the length it had before, and truncates it back when done); `false`, with nothing
    /// pushed, when some are conditional.
    fn args(&mut self, cur: &Cursor<'m>, args: &'m [Guarded<ExprId>]) -> bool {
        let start = self.arg_stack.len();
        let mut conditional = false;
        for a in args {
            match a {
                Guarded::Item(e) => {
                    let t = self.expr(cur, *e);
                    self.arg_stack.push((t, cur.exprs[*e].span));
                }
                Guarded::Cond(region) => {
                    conditional = true;
                    let ctx = self.ctx.clone();
                    self.region(region, &ctx, false, &mut |t, items, ctx| {
                        let saved = std::mem::replace(&mut t.ctx, ctx.clone());
                        let inner = t.arg_stack.len();
                        t.args(cur, items);
                        t.arg_stack.truncate(inner);
                        t.ctx = saved;
                    });
                }
            }
        }
        if conditional {
            self.arg_stack.truncate(start);
        }
        !conditional
    }

    /// Type a call's or constructor's arguments and hand `then` their types and spans (`None` when some are
    /// conditional); the argument stack is as it was afterwards. The list is read while `self` is borrowed
    /// mutably, so the stack is lent out meanwhile: `then` must type no expression.
    fn with_args<R>(
        &mut self,
        cur: &Cursor<'m>,
        args: &'m [Guarded<ExprId>],
        then: impl FnOnce(&mut Self, Option<&[(Type, Span)]>) -> R,
    ) -> R {
        let start = self.arg_stack.len();
        let typed = self.args(cur, args);
        let stack = std::mem::take(&mut self.arg_stack);
        let r = then(self, stack.get(start..).filter(|_| typed));
        self.arg_stack = stack;
        self.arg_stack.truncate(start);
        r
    }

    #[inline(never)]
    fn expr_inner(&mut self, cur: &Cursor<'m>, id: ExprId) -> Type {
        let m = self.m;
        let e = &cur.exprs[id];
        let span = e.span;
        match &e.kind {
            Expr::Error => Type::Unknown(UnknownReason::Error),
            Expr::Literal(l) => Type::Known(literal_type(l)),
            Expr::Ident(_) => self.ident(cur, id),
            Expr::MacroRef { args, .. } => {
                if let Some(args) = args {
                    self.with_args(cur, args, |_, _| ());
                }
                self.macro_type(cur, id, args.is_some())
            }
            Expr::Unary { op, operand } => {
                let t = self.expr(cur, *operand);
                let Type::Known(ty) = t else {
                    return Type::Unknown(t.reason());
                };
                match ops::unary(*op, &ty) {
                    Some(r) => Type::Known(r),
                    None => {
                        let operand = self.name_of(&ty);
                        self.clue(TypeClue::InvalidUnaryOperand { op: op.symbol().into(), operand }, span);
                        Type::Unknown(UnknownReason::Error)
                    }
                }
            }
            Expr::Binary { op, left, right } => {
                let l = self.expr(cur, *left);
                let r = self.expr(cur, *right);
                let (Type::Known(lt), Type::Known(rt)) = (&l, &r) else {
                    return Type::Unknown(if l.known().is_none() { l.reason() } else { r.reason() });
                };
                match ops::binary(*op, lt, rt) {
                    Some(t) => Type::Known(t),
                    None => {
                        let (left, right) = (self.name_of(lt), self.name_of(rt));
                        self.clue(TypeClue::InvalidBinaryOperands { op: op.symbol().into(), left, right }, span);
                        Type::Unknown(UnknownReason::Error)
                    }
                }
            }
            Expr::Assign { op, target, value } => {
                let t = self.expr(cur, *target);
                let v = self.expr(cur, *value);
                self.lvalue(cur, *target);
                let (Type::Known(tt), Type::Known(vt)) = (&t, &v) else {
                    return t;
                };
                let result = match op {
                    None => Some(*vt),
                    Some(op) => match ops::binary(*op, tt, vt) {
                        Some(r) => Some(r),
                        None => {
                            let (left, right) = (self.name_of(tt), self.name_of(vt));
                            let op = format!("{}=", op.symbol());
                            self.clue(TypeClue::InvalidBinaryOperands { op, left, right }, span);
                            return Type::Unknown(UnknownReason::Error);
                        }
                    },
                };
                if let Some(r) = result {
                    let value_span = cur.exprs[*value].span;
                    self.check_assign(tt, &Type::Known(r), if op.is_some() { span } else { value_span });
                }
                t
            }
            Expr::IncDec { op, target } => {
                let t = self.expr(cur, *target);
                self.lvalue(cur, *target);
                if let Type::Known(ty) = &t {
                    if !ops::inc_dec(ty) {
                        let sym = match op {
                            shaderlab_ir::IncDecOp::PreIncrement | shaderlab_ir::IncDecOp::PostIncrement => "++",
                            _ => "--",
                        };
                        let operand = self.name_of(ty);
                        self.clue(TypeClue::InvalidUnaryOperand { op: sym.into(), operand }, span);
                        return Type::Unknown(UnknownReason::Error);
                    }
                }
                t
            }
            Expr::Select { condition, accept, reject } => {
                self.condition(cur, *condition);
                let a = self.expr(cur, *accept);
                let r = self.expr(cur, *reject);
                let (Type::Known(at), Type::Known(rt)) = (&a, &r) else {
                    return Type::Unknown(if a.known().is_none() { a.reason() } else { r.reason() });
                };
                if same_type(at, rt) {
                    a
                } else {
                    let (left, right) = (self.name_of(at), self.name_of(rt));
                    self.clue(TypeClue::InvalidBinaryOperands { op: "?:".into(), left, right }, span);
                    Type::Unknown(UnknownReason::Error)
                }
            }
            Expr::Sequence { left, right } => {
                self.expr(cur, *left);
                self.expr(cur, *right)
            }
            Expr::Call { callee, args, .. } => {
                let target = self.res.calls.get(cur.owner, id);
                let name = m.name(*callee);
                // (Matching the call types no expression.)
                self.with_args(cur, args, |t, list| t.call(cur, id, name, target, list, span))
            }
            Expr::Construct { ty, args } => {
                self.spec_dims(ty, cur);
                self.with_args(cur, args, |t, list| match (t.spec_ty(ty, cur.owner), list) {
                    (None, _) => Type::Unknown(UnknownReason::Error),
                    (Some(_), None) => Type::Unknown(UnknownReason::Variant),
                    (Some(target), Some(list)) => t.construct(&target, list, span),
                })
            }
            Expr::Member { base, member, member_span } => {
                let b = self.expr(cur, *base);
                if let Resolved::Symbols(s) = cur.idents.get(*base) {
                    if s.as_slice() == [Symbol::DepthRange] {
                        return match builtins::depth_range_field(m.name(*member)) {
                            Some(t) => Type::Known(t),
                            None => {
                                let ty = "gl_DepthRangeParameters".to_owned();
                                let member = m.name(*member).to_owned();
                                self.clue(TypeClue::UndeclaredStructMember { member, ty }, *member_span);
                                Type::Unknown(UnknownReason::Error)
                            }
                        };
                    }
                }
                let Type::Known(bt) = b else {
                    return Type::Unknown(b.reason());
                };
                let name = m.name(*member);
                self.member(cur.owner, id, &bt, (*member, name), *member_span)
            }
            Expr::Index { base, index } => {
                let b = self.expr(cur, *base);
                let i = self.expr(cur, *index);
                if let Type::Known(it) = &i {
                    if !matches!(it, Ty::Scalar(shaderlab_ir::ScalarKind::Int | shaderlab_ir::ScalarKind::Uint)) {
                        let ty = self.name_of(it);
                        let ispan = cur.exprs[*index].span;
                        self.clue(TypeClue::NonIntegerIndex { ty }, ispan);
                    }
                }
                let Type::Known(bt) = b else {
                    return Type::Unknown(b.reason());
                };
                match bt {
                    Ty::Array(a) => Type::Known(a.elem()),
                    Ty::Vector(k, _) => Type::Known(Ty::Scalar(k)),
                    Ty::Matrix { rows, .. } => Type::Known(Ty::Vector(shaderlab_ir::ScalarKind::Float, rows)),
                    other => {
                        let ty = self.name_of(&other);
                        let bspan = cur.exprs[*base].span;
                        self.clue(TypeClue::NonIndexableType { ty }, bspan);
                        Type::Unknown(UnknownReason::Error)
                    }
                }
            }
            Expr::ArrayLength { base } => {
                let b = self.expr(cur, *base);
                match b {
                    Type::Known(Ty::Array(..)) => Type::Known(Ty::INT),
                    Type::Known(other) => {
                        let ty = self.name_of(&other);
                        self.clue(TypeClue::NonIndexableType { ty }, span);
                        Type::Unknown(UnknownReason::Error)
                    }
                    other => Type::Unknown(other.reason()),
                }
            }
        }
    }

    fn symbol_type(&self, cur: &Cursor<'m>, s: &Symbol) -> Type {
        if let Some(t) = self.known_symbol_type(cur, s) {
            return Type::Known(t);
        }
        match s {
            // A parameter declared by a macro (`TEXTURE2D_SHADOW_PARAM(x)`) has the macro's type.
            Symbol::Local(l) => match cur.owner {
                Owner::Function(f) if self.is_macro_typed(&self.m.functions[f].locals[*l].ty) => {
                    Type::Unknown(UnknownReason::Macro)
                }
                _ => Type::Unknown(UnknownReason::Error),
            },
            Symbol::Global(_) => Type::Unknown(UnknownReason::Error),
            Symbol::Builtin(v) => Type::Known(v.var().ty),
            // `gl_DepthRange` is a builtin struct `Ty` cannot name; its fields are typed in `Expr::Member`.
            Symbol::DepthRange => Type::Unknown(UnknownReason::Variant),
            Symbol::RuntimeMacro(_) => Type::Unknown(UnknownReason::RuntimeMacro),
            Symbol::IoMember(s, name) => self
                .struct_members(*s)
                .iter()
                .find(|(n, _, _)| n == name)
                .and_then(|(_, t, _)| *t)
                .map(Type::Known)
                .unwrap_or(Type::Unknown(UnknownReason::Error)),
        }
    }

    /// The type of a local, global or builtin variable when it is known; `None` for every other symbol and for a
    /// local or global without a type. The one place these three are typed: [`Typer::expr`] types a leaf naming
    /// one of them with it, and [`Typer::symbol_type`] starts with it.
    #[inline]
    fn known_symbol_type(&self, cur: &Cursor<'m>, s: &Symbol) -> Option<Ty> {
        match s {
            Symbol::Local(l) => match cur.owner {
                Owner::Function(f) => self.out.locals[f][*l],
                Owner::Global => None,
            },
            Symbol::Global(g) => self.out.globals[*g],
            Symbol::Builtin(v) => Some(v.var().ty),
            _ => None,
        }
    }

    /// Whether a local's type names a macro (the names resolution collected: no scan of the macros per use).
    fn is_macro_typed(&self, spec: &TypeSpec) -> bool {
        matches!(self.m.types.get(spec.base), TypeInner::User(n) if self.res.macro_names.contains(&n))
    }

    fn ident(&mut self, cur: &Cursor<'m>, id: ExprId) -> Type {
        match cur.idents.get(id) {
            Resolved::Symbols(symbols) if symbols.len() == 1 => self.symbol_type(cur, &symbols[0]),
            Resolved::Symbols(symbols) => {
                let shared = symbols.shared_address();
                if let Some(ty) = shared.and_then(|a| self.shared_types.get(&a)) {
                    return *ty;
                }
                let types: Vec<Type> = symbols.iter().map(|s| self.symbol_type(cur, s)).collect();
                let ty = match types.first() {
                    Some(first) if types.iter().all(|t| t == first) => *first,
                    // Alternatives that differ only in array length: an array of unknown length.
                    Some(Type::Known(Ty::Array(first)))
                        if types.iter().all(|t| matches!(t, Type::Known(Ty::Array(a)) if a.elem() == first.elem())) =>
                    {
                        Type::Known(Ty::array(first.elem(), ArrayLen::Unknown))
                    }
                    Some(_) => Type::Unknown(UnknownReason::Variant),
                    None => Type::Unknown(UnknownReason::Error),
                };
                if let Some(address) = shared {
                    self.shared_types.insert(address, ty);
                }
                ty
            }
            _ => Type::Unknown(UnknownReason::Error),
        }
    }

    /// A macro use is typed when every definition's body is a self-contained expression of one known type.
    fn macro_type(&mut self, cur: &Cursor<'m>, id: ExprId, called: bool) -> Type {
        let m = self.m;
        let defs = self.res.macro_defs_of(cur.owner, id);
        let mut result: Option<Ty> = None;
        for d in defs {
            let def = &m.macros[*d];
            if called != def.params.is_some() {
                return Type::Unknown(UnknownReason::Macro);
            }
            let Some(body) = def.body_expr else {
                return Type::Unknown(UnknownReason::Macro);
            };
            let Some(t) = self_contained_type(m, body) else {
                return Type::Unknown(UnknownReason::Macro);
            };
            match &result {
                Some(r) if *r != t => return Type::Unknown(UnknownReason::Macro),
                _ => result = Some(t),
            }
        }
        result.map(Type::Known).unwrap_or(Type::Unknown(UnknownReason::Macro))
    }

    /// Arguments passed to `out`/`inout` parameters must be writable.
    /// `writes` says, parameter by parameter, whether it is `out` or `inout`.
    fn out_arguments(&mut self, cur: &Cursor<'m>, call: ExprId, writes: impl Iterator<Item = bool>) {
        let Expr::Call { args, .. } = &cur.exprs[call].kind else { return };
        let args = args.iter().filter_map(|a| match a {
            Guarded::Item(e) => Some(*e),
            Guarded::Cond(_) => None,
        });
        for (arg, write) in args.zip(writes) {
            if write {
                self.lvalue(cur, arg);
            }
        }
    }

    /// Report a write to something that is not writable.
    fn lvalue(&mut self, cur: &Cursor<'m>, target: ExprId) {
        if let Some(what) = self.not_lvalue(cur, target) {
            let span = cur.exprs[target].span;
            self.clue(TypeClue::NotAnLValue { what }, span);
        }
    }

    fn not_lvalue(&self, cur: &Cursor<'m>, e: ExprId) -> Option<String> {
        let m = self.m;
        let expr = &cur.exprs[e];
        match &expr.kind {
            Expr::Ident(n) => {
                let Resolved::Symbols(symbols) = cur.idents.get(e) else {
                    return None;
                };
                let name = m.name(*n);
                symbols.iter().find_map(|s| match s {
                    Symbol::Local(l) => {
                        let Owner::Function(f) = cur.owner else {
                            return None;
                        };
                        let local = &m.functions[f].locals[*l];
                        (local.qualifiers.storage == Some(Storage::Const)).then(|| format!("'{name}' is a constant"))
                    }
                    Symbol::Global(g) => {
                        let global = &m.globals[*g];
                        if global.qualifiers.storage == Some(Storage::Const) {
                            Some(format!("'{name}' is a constant"))
                        } else if global.is_uniform() {
                            Some(format!("'{name}' is a uniform"))
                        } else {
                            None
                        }
                    }
                    Symbol::Builtin(v) => {
                        (!v.var().writable).then(|| format!("'{name}' is a read-only builtin variable"))
                    }
                    Symbol::DepthRange | Symbol::RuntimeMacro(_) | Symbol::IoMember(..) => None,
                })
            }
            Expr::Member { base, .. } => {
                if let Access::Swizzle(components) = self.out.access.get(cur.owner, e) {
                    let mut seen = [false; 4];
                    for &c in components.iter() {
                        if std::mem::replace(&mut seen[(c & 3) as usize], true) {
                            return Some("a swizzle with repeated components".into());
                        }
                    }
                }
                self.not_lvalue(cur, *base)
            }
            Expr::Index { base, .. } => self.not_lvalue(cur, *base),
            Expr::MacroRef { .. } | Expr::Error => None,
            _ => Some("an expression that is not a variable".into()),
        }
    }

    fn call(
        &mut self,
        cur: &Cursor<'m>,
        id: ExprId,
        name: &str,
        target: &'m CallTarget,
        args: Option<&[(Type, Span)]>,
        span: Span,
    ) -> Type {
        let m = self.m;
        match target {
            CallTarget::Constructor(structs) => {
                let [s] = self.res.structs(*structs) else {
                    return Type::Unknown(UnknownReason::Variant);
                };
                self.out.callees.set(cur.owner, id, Callee::Struct(*s));
                let Some(args) = args else {
                    return Type::Unknown(UnknownReason::Variant);
                };
                self.struct_constructor(*s, args, span)
            }
            CallTarget::Callable { user, builtin } => {
                let overloads = builtin.map_or(&[][..], builtins::BuiltinFn::overloads);
                // The catalogue index of `overloads[0]` (unused when there are none).
                let first = builtin.map_or(0, builtins::BuiltinFn::first_index);
                let user = self.res.functions(*user);
                let Some(args) = args else {
                    // Conditional arguments: known when every candidate returns the same type.
                    let mut rets: Vec<Option<Ty>> = user.iter().map(|f| self.out.returns[*f]).collect();
                    rets.extend(overloads.iter().map(|o| Some(o.ret)));
                    return match rets.first() {
                        Some(Some(r)) if rets.iter().all(|x| x.as_ref() == Some(r)) => Type::Known(*r),
                        _ => Type::Unknown(UnknownReason::Variant),
                    };
                };
                let all_known = args.iter().all(|(t, _)| t.known().is_some());
                if !all_known {
                    // Some argument is unknown: settle for a return type all same-arity candidates share.
                    let mut rets: Vec<Option<Ty>> = self
                        .user_candidates(user)
                        .iter()
                        .filter(|(_, p)| p.len() == args.len())
                        .map(|(f, _)| self.out.returns[*f])
                        .collect();
                    rets.extend(overloads.iter().filter(|o| o.params.len() == args.len()).map(|o| Some(o.ret)));
                    let reason = args.iter().find_map(|(t, _)| t.known().is_none().then(|| t.reason()));
                    return match rets.first() {
                        Some(Some(r)) if rets.iter().all(|x| x.as_ref() == Some(r)) => Type::Known(*r),
                        _ => Type::Unknown(reason.unwrap_or(UnknownReason::Error)),
                    };
                }
                // Every argument type is known: their list (inline: no allocation on the matching path).
                let known: SmallList<Ty, 8> = args.iter().filter_map(|(t, _)| t.known().copied()).collect();
                // Parameter types are read candidate by candidate (no list: the matching path allocates nothing).
                for f in by_preference(m, user) {
                    let Some(params) = self.param_types(f) else { continue };
                    if params.len() == args.len()
                        && params.iter().zip(known.iter()).all(|(p, a)| p.as_ref().is_none_or(|p| same_type(p, a)))
                    {
                        // The only place a call gets a user callee, for a call resolution found callable: the
                        // call graph reads user callees of such calls only (`callgraph::build_call_graph`).
                        self.out.callees.set(cur.owner, id, Callee::User(f));
                        // Which parameters write their argument (`out`, `inout`); a candidate's parameters are
                        // all unconditional (`param_types`).
                        let func = &m.functions[f];
                        let writes = func.params.iter().map(|p| match p {
                            Guarded::Item(shaderlab_ir::Param { kind: ParamKind::Declared { local }, .. }) => {
                                matches!(func.locals[*local].qualifiers.storage, Some(Storage::Out | Storage::InOut))
                            }
                            _ => false,
                        });
                        if writes.clone().any(|w| w) {
                            self.out_arguments(cur, id, writes);
                        }
                        return self.out.returns[f].map(Type::Known).unwrap_or(Type::Unknown(UnknownReason::Error));
                    }
                }
                for (i, o) in overloads.iter().enumerate() {
                    if o.params.as_slice() == known.as_slice() {
                        self.out.callees.set(cur.owner, id, Callee::Builtin(first + i));
                        if o.modes.contains(&builtins::ParamMode::Out) {
                            self.out_arguments(cur, id, o.modes.iter().map(|m| *m == builtins::ParamMode::Out));
                        }
                        return Type::Known(o.ret);
                    }
                }
                // No overload matches. A same-named function with conditional parameters may match in some
                // variant: the call's type depends on the variant.
                let candidates = self.user_candidates(user);
                if candidates.len() < user.len() {
                    return Type::Unknown(UnknownReason::Variant);
                }
                if !overloads.is_empty()
                    && candidates.is_empty()
                    && overloads.iter().all(|o| matches!(o.params.first(), Some(Ty::Sampler(_))))
                {
                    let first_ok = known.first().is_some_and(|a| overloads.iter().any(|o| o.params.first() == Some(a)));
                    if !first_ok {
                        let (found, at) = match (known.first(), args.first()) {
                            (Some(t), Some((_, s))) => (self.name_of(t), *s),
                            _ => ("no argument".into(), span),
                        };
                        self.clue(TypeClue::ExpectedSampler { name: name.into(), found }, at);
                        return Type::Unknown(UnknownReason::Error);
                    }
                }
                let mut listed: Vec<String> = candidates
                    .iter()
                    .map(|(f, params)| {
                        let ps: Vec<String> =
                            params.iter().map(|p| p.as_ref().map(|t| self.name_of(t)).unwrap_or("?".into())).collect();
                        let ret = self.out.returns[*f].as_ref().map(|t| self.name_of(t)).unwrap_or("?".into());
                        format!("{ret} {}({})", m.name(m.functions[*f].name), ps.join(", "))
                    })
                    .collect();
                listed.extend(overloads.iter().map(|o| {
                    let ps: Vec<String> = o.params.iter().map(|p| self.name_of(p)).collect();
                    format!("{} {}({})", self.name_of(&o.ret), o.name, ps.join(", "))
                }));
                listed.dedup();
                let arg_names = known.iter().map(|t| self.name_of(t)).collect();
                let clue = self.clue(
                    TypeClue::NoMatchingOverload { name: name.into(), args: arg_names, candidates: listed.clone() },
                    span,
                );
                let shown = listed.len().min(10);
                for c in &listed[..shown] {
                    clue.notes.push(PassNote { span: None, message: format!("candidate: {c}") });
                }
                if listed.len() > shown {
                    clue.notes.push(PassNote { span: None, message: format!("{} more", listed.len() - shown) });
                }
                Type::Unknown(UnknownReason::Error)
            }
            CallTarget::Unresolved | CallTarget::NotACall => Type::Unknown(UnknownReason::Error),
        }
    }

    /// The user functions of `user` whose parameters are unconditional, with their parameter types (`None` for a
    /// macro-typed parameter, which matches anything): definitions before prototypes, each in `user` order.
    fn user_candidates(&self, user: &[FunctionId]) -> Vec<(FunctionId, ParamTypes)> {
        by_preference(self.m, user).filter_map(|f| self.param_types(f).map(|p| (f, p))).collect()
    }

    /// Parameter types of a user function (`None` entries for macro parameters); `None` when parameters are
    /// conditional.
    fn param_types(&self, f: FunctionId) -> Option<ParamTypes> {
        let func = &self.m.functions[f];
        let mut out = ParamTypes::new();
        for p in &func.params {
            let Guarded::Item(p) = p else { return None };
            match p.kind {
                ParamKind::Declared { local } => out.push(Some(self.out.locals[f][local]?)),
                ParamKind::Macro { .. } => out.push(None),
            }
        }
        Some(out)
    }
}

/// Declared types: what a type specifier denotes, with the array lengths known before constant folding. Needs
/// only the module and its resolution (no typing state), so that a struct member's type costs no [`Typer`].
struct Specs<'m> {
    m: &'m Module,
    res: &'m Resolution,
}

impl Specs<'_> {
    /// The resolved type of a declaration's type specifier.
    fn spec_ty(&self, spec: &TypeSpec, owner: Owner) -> Option<Ty> {
        let base = match self.m.types.get(spec.base) {
            TypeInner::User(_) => {
                let structs = self.res.type_names.get(&spec.span)?;
                match structs.as_slice() {
                    [s] => Ty::Struct(*s),
                    _ => return None,
                }
            }
            inner => Ty::from_inner(inner)?,
        };
        let mut t = base;
        for d in spec.dims.iter().rev() {
            let len = match d {
                ArrayDim::Unsized => ArrayLen::Unknown,
                ArrayDim::Sized(e) => self.const_len(owner, *e),
            };
            t = Ty::array(t, len);
        }
        Some(t)
    }

    /// An array length known before constant folding runs: integer arithmetic over literals, constants and
    /// macros with literal bodies. (Constant folding needs types, and array types need their lengths; this small
    /// evaluator breaks the cycle for the sizes people write. Anything else stays unknown, which every type
    /// comparison accepts, and constant folding checks the size itself.)
    fn const_len(&self, owner: Owner, e: ExprId) -> ArrayLen {
        match self.int_value(owner, e, 0) {
            Some(Scalar::Int(n)) if n > 0 => ArrayLen::Known(n as u32),
            Some(Scalar::Uint(n)) if n > 0 => ArrayLen::Known(n),
            _ => ArrayLen::Unknown,
        }
    }

    /// The value of an int or uint expression with constant folding's 32-bit rules (a literal's bit pattern,
    /// wrapping arithmetic), so that both passes read a size the same way: `2147483648` is -2147483648 (GLSL ES
    /// 3.00 §4.1.3), not a length. A division by zero or an out-of-range shift has no value here.
    fn int_value(&self, owner: Owner, e: ExprId, depth: u32) -> Option<Scalar> {
        if depth > 32 {
            return None;
        }
        let m = self.m;
        let arena = owner.arena(m);
        match &arena[e].kind {
            Expr::Literal(Literal::Int { value, .. }) => Some(Scalar::Int(*value as u32 as i32)),
            Expr::Literal(Literal::Uint { value, .. }) => Some(Scalar::Uint(*value as u32)),
            Expr::Unary { op: shaderlab_ir::UnaryOp::Negate, operand } => {
                match self.int_value(owner, *operand, depth + 1)? {
                    Scalar::Int(i) => Some(Scalar::Int(i.wrapping_neg())),
                    Scalar::Uint(u) => Some(Scalar::Uint(u.wrapping_neg())),
                    _ => None,
                }
            }
            Expr::Binary { op, left, right } => {
                let (l, r) = (self.int_value(owner, *left, depth + 1)?, self.int_value(owner, *right, depth + 1)?);
                use shaderlab_ir::BinaryOp::*;
                let defined = match op {
                    Add | Sub | Mul => true,
                    Div | Rem => r.as_i64() != 0,
                    ShiftLeft | ShiftRight => (0..32).contains(&r.as_i64()),
                    _ => false,
                };
                defined.then(|| crate::consts::scalar_op(*op, l, r)).flatten()
            }
            Expr::Ident(_) => match self.res.idents.get(owner, e) {
                Resolved::Symbols(s) => match s.as_slice() {
                    [Symbol::Global(g)] if m.globals[*g].qualifiers.storage == Some(Storage::Const) => {
                        self.int_value(Owner::Global, m.globals[*g].init?, depth + 1)
                    }
                    [Symbol::Local(l)] => {
                        let Owner::Function(f) = owner else { return None };
                        let local = &m.functions[f].locals[*l];
                        if local.qualifiers.storage != Some(Storage::Const) {
                            return None;
                        }
                        self.int_value(owner, local.init?, depth + 1)
                    }
                    _ => None,
                },
                _ => None,
            },
            Expr::MacroRef { args: None, .. } => {
                let defs = self.res.macro_defs_of(owner, e);
                let values: Vec<Option<Scalar>> = defs
                    .iter()
                    .map(|d| m.macros[*d].body_expr.and_then(|b| self.int_value(Owner::Global, b, depth + 1)))
                    .collect();
                match values.first() {
                    Some(Some(v)) if values.iter().all(|x| *x == Some(*v)) => Some(*v),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// The type of a literal.
fn literal_type(l: &Literal) -> Ty {
    match l {
        Literal::Bool(_) => Ty::BOOL,
        Literal::Int { .. } => Ty::INT,
        Literal::Uint { .. } => Ty::UINT,
        Literal::Float { .. } => Ty::FLOAT,
    }
}

/// Type equality with unknown array lengths matching any length.
pub fn same_type(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        (Ty::Array(x), Ty::Array(y)) => {
            let ((x, lx), (y, ly)) = (x.parts(), y.parts());
            same_type(&x, &y) && (lx == ly || lx == ArrayLen::Unknown || ly == ArrayLen::Unknown)
        }
        _ => a == b,
    }
}

/// The type of an expression made only of literals, operators and builtin-type constructors (a macro body).
fn self_contained_type(m: &Module, e: ExprId) -> Option<Ty> {
    let expr = &m.global_exprs[e];
    match &expr.kind {
        Expr::Literal(Literal::Bool(_)) => Some(Ty::BOOL),
        Expr::Literal(Literal::Int { .. }) => Some(Ty::INT),
        Expr::Literal(Literal::Uint { .. }) => Some(Ty::UINT),
        Expr::Literal(Literal::Float { .. }) => Some(Ty::FLOAT),
        Expr::Unary { op, operand } => ops::unary(*op, &self_contained_type(m, *operand)?),
        Expr::Binary { op, left, right } => {
            ops::binary(*op, &self_contained_type(m, *left)?, &self_contained_type(m, *right)?)
        }
        Expr::Construct { ty, args } if ty.dims.is_empty() => {
            let t = Ty::from_inner(m.types.get(ty.base))?;
            let mut ok = true;
            Guarded::for_each_item(args, &mut |a| ok &= self_contained_type(m, *a).is_some());
            ok.then_some(t)
        }
        _ => None,
    }
}

/// The resolved type of a struct member (array sizes counted only when literal or simple constants).
pub fn member_type(m: &Module, res: &Resolution, member: &shaderlab_ir::StructMember) -> Option<Ty> {
    Specs { m, res }.spec_ty(&member.ty, Owner::Global)
}

/// A walker over one branch of a conditional region: `(pass, branch items, branch context)`.
type BranchWalk<'w, 'm, P, T> = dyn FnMut(&mut P, &'m [Guarded<T>], &CondCtx) + 'w;
