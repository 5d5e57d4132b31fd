//! The stage interface of a pass (`codegen.md` §3-6), target-independent.
//!
//! [`PassInterface`]: which structs are the attributes, varyings and MRT structs, which of their members become
//! stage variables (attributes the vertex stage reads; varyings either stage uses, the same set in both stages),
//! and the constant `gl_FragData` indices the fragment stage writes.
//!
//! [`StageIo`]: per stage, whether each IO struct can be *renamed away* (`o.uv` -> `uv`, the varyings local and
//! `return o;` disappear, IO-struct parameters and arguments are dropped) or must stay a real struct that the
//! entry copies field-wise from/to the stage variables. Renaming is faithful when every value of the struct type
//! in the stage is one object flowing through locals, parameters and returns; [`rename_check`] checks that.

use crate::plan::subtree;
use crate::Stage;
use shaderlab_ir::{
    Expr, ExprId, FunctionId, Guarded, LocalId, LocalKind, Module, Name, ParamKind, SecondaryMap, Statement, StmtKind,
    Storage, StructId, StructMember,
};
use shaderlab_passes::io::{FragmentOutput, PassIo};
use shaderlab_passes::resolve::{CallTarget, Resolved, Symbol};
use shaderlab_passes::typing::{Callee, Type};
use shaderlab_passes::{Facts, Owner, Ty};
use std::collections::BTreeSet;

/// The interface of one pass.
pub(crate) struct PassInterface {
    pub attributes: Option<StructId>,
    pub varyings: Option<StructId>,
    pub mrt: Option<StructId>,
    pub output: FragmentOutput,
    /// Attribute members the vertex stage reads.
    pub attribute_members: BTreeSet<Name>,
    /// Varying members either stage uses.
    pub varying_members: BTreeSet<Name>,
    /// Constant indices of `gl_FragData[i]` in the fragment stage.
    pub frag_data: BTreeSet<i64>,
}

/// The members of a struct in declaration order, through every conditional branch.
pub(crate) fn members(m: &Module, s: StructId) -> Vec<&StructMember> {
    let mut out = Vec::new();
    if let Some(decl) = m.structs.get(s) {
        Guarded::for_each_item(&decl.members, &mut |mem| out.push(mem));
    }
    out
}

/// Visit the members of a struct in declaration order, through every conditional branch (without collecting them).
pub(crate) fn for_each_member<'m>(m: &'m Module, s: StructId, f: &mut impl FnMut(&'m StructMember)) {
    if let Some(decl) = m.structs.get(s) {
        Guarded::for_each_item(&decl.members, f);
    }
}

/// Whether struct `s` has a member `name`.
pub(crate) fn has_member(m: &Module, s: Option<StructId>, name: Name) -> bool {
    let mut found = false;
    if let Some(s) = s {
        for_each_member(m, s, &mut |mem| found |= mem.name == name);
    }
    found
}

/// The struct type of an expression, when typing knows it.
fn struct_type(facts: &Facts, owner: Owner, e: ExprId) -> Option<StructId> {
    match facts.typing.exprs.get(owner, e) {
        Type::Known(Ty::Struct(s)) => Some(*s),
        _ => None,
    }
}

impl PassInterface {
    /// The interface as the pass facts give it. Reachability completes it: it scans each expression of every
    /// function it walks as it goes (`scan_expr`, `scan_io_member`), and calls [`PassInterface::scan`] only for the
    /// prototypes it adds at the end (the result is the same sets whatever the order of the scans).
    pub(crate) fn from_facts(io: &PassIo) -> PassInterface {
        PassInterface {
            attributes: io.attributes,
            varyings: io.varyings,
            mrt: io.mrt,
            output: io.output.clone(),
            attribute_members: io.attributes_read.clone(),
            varying_members: io.varyings_written.union(&io.varyings_read).copied().collect(),
            frag_data: BTreeSet::new(),
        }
    }

    /// Member uses the pass facts may not list (reads of varyings in the vertex stage, bare names) in function `f`
    /// of `stage`.
    pub(crate) fn scan(&mut self, m: &Module, facts: &Facts, stage: Stage, f: FunctionId) {
        let Some(func) = m.functions.get(f) else { return };
        let owner = Owner::Function(f);
        for (e, expr) in func.exprs.iter() {
            self.scan_expr(m, facts, stage, owner, e, &expr.kind);
        }
    }

    /// [`PassInterface::scan`] of one expression. Only member accesses, identifiers, calls and indexing can
    /// mention the interface, and calls and indexing only in one stage each: the other expressions (most are
    /// operators and literals) are passed over without a call. A member access (the most frequent of the four)
    /// is answered here; the others go to a function of their own once the stage and the interface say they can
    /// matter.
    #[inline(always)]
    pub(crate) fn scan_expr(&mut self, m: &Module, facts: &Facts, stage: Stage, owner: Owner, e: ExprId, kind: &Expr) {
        match kind {
            Expr::Member { base, member, .. } => {
                if self.varyings.is_none() && (stage == Stage::Fragment || self.attributes.is_none()) {
                    return;
                }
                let s = struct_type(facts, owner, *base);
                if s.is_some() && s == self.varyings {
                    self.varying_members.insert(*member);
                } else if s.is_some() && s == self.attributes && stage == Stage::Vertex {
                    self.attribute_members.insert(*member);
                }
            }
            Expr::Ident(_) => self.scan_ident(m, facts, stage, owner, e),
            Expr::Call { .. } if stage == Stage::Vertex => {
                if let Some(v) = self.varyings {
                    self.scan_vertex_call(m, facts, owner, e, v);
                }
            }
            Expr::Index { base, index } if stage == Stage::Fragment => {
                self.scan_fragment_index(facts, owner, *base, *index)
            }
            _ => {}
        }
    }

    /// A bare name resolving to member `name` of an IO struct, in `stage`.
    pub(crate) fn scan_io_member(&mut self, m: &Module, stage: Stage, name: Name) {
        if has_member(m, self.varyings, name) {
            self.varying_members.insert(name);
        } else if stage == Stage::Vertex && has_member(m, self.attributes, name) {
            self.attribute_members.insert(name);
        }
    }

    /// [`PassInterface::scan_expr`] of identifier `e`.
    fn scan_ident(&mut self, m: &Module, facts: &Facts, stage: Stage, owner: Owner, e: ExprId) {
        let Resolved::Symbols(symbols) = facts.resolution.idents.get(owner, e) else { return };
        for sym in symbols {
            if let Symbol::IoMember(_, name) = sym {
                self.scan_io_member(m, stage, *name);
            }
        }
    }

    /// [`PassInterface::scan_expr`] of call `e` in the vertex stage, whose varyings struct is `v`: a constructed
    /// varyings struct writes every member.
    fn scan_vertex_call(&mut self, m: &Module, facts: &Facts, owner: Owner, e: ExprId, v: StructId) {
        if matches!(facts.typing.callees.get(owner, e), Callee::Struct(s) if *s == v) {
            for_each_member(m, v, &mut |mem| {
                self.varying_members.insert(mem.name);
            });
        }
    }

    /// [`PassInterface::scan_expr`] of indexing `base[index]` in the fragment stage: a constant index of
    /// `gl_FragData`.
    fn scan_fragment_index(&mut self, facts: &Facts, owner: Owner, base: ExprId, index: ExprId) {
        if is_builtin(facts, owner, base, "gl_FragData") {
            if let Some(i) = facts.consts.values.get(owner, index).as_ref().and_then(|v| v.as_int()) {
                self.frag_data.insert(i);
            }
        }
    }

    /// The role of a member of an IO struct in `stage`: by its struct, or, for a bare name that resolved to the
    /// IO struct of another pass sharing the code, by its name.
    pub(crate) fn member_kind(&self, m: &Module, stage: Stage, s: StructId, name: Name) -> Option<IoRole> {
        if Some(s) == self.varyings {
            return Some(IoRole::Varying);
        }
        if Some(s) == self.attributes && stage == Stage::Vertex {
            return Some(IoRole::Attribute);
        }
        if Some(s) == self.mrt && stage == Stage::Fragment {
            return Some(IoRole::Mrt);
        }
        // A bare name may resolve to the IO struct of another pass sharing the code: go by name.
        if has_member(m, self.varyings, name) {
            Some(IoRole::Varying)
        } else if stage == Stage::Vertex && has_member(m, self.attributes, name) {
            Some(IoRole::Attribute)
        } else if stage == Stage::Fragment && has_member(m, self.mrt, name) {
            Some(IoRole::Mrt)
        } else {
            None
        }
    }
}

/// Which IO struct a member belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IoRole {
    Attribute,
    Varying,
    Mrt,
}

/// Whether an expression is an identifier resolving to builtin `name`.
pub(crate) fn is_builtin(facts: &Facts, owner: Owner, e: ExprId, name: &str) -> bool {
    matches!(facts.resolution.idents.get(owner, e),
        Resolved::Symbols(s) if s.iter().any(|s| matches!(s, Symbol::Builtin(v) if v.name() == name)))
}

/// How a stage treats an IO struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IoMode {
    /// Values of the struct are the stage variables: `o.uv` is `uv`, the struct is not declared.
    Rename,
    /// The struct stays; the entry copies the stage variables into it (inputs) or out of it (outputs).
    Copy,
}

/// The IO structs of one stage and how they are written.
pub(crate) struct StageIo {
    /// Attributes (vertex) or varyings (fragment).
    pub input: Option<(StructId, IoMode)>,
    /// Varyings (vertex) or the MRT struct (fragment).
    pub output: Option<(StructId, IoMode)>,
    /// Locals and parameters that stand for a renamed struct, sorted (few: the entry's and those of helpers
    /// taking the struct; most functions have none).
    objects: Vec<(FunctionId, LocalId)>,
}

impl StageIo {
    pub(crate) fn new(
        m: &Module,
        facts: &Facts,
        iface: &PassInterface,
        stage: Stage,
        functions: &crate::plan::IdSet<FunctionId>,
    ) -> StageIo {
        let (input, output) = match stage {
            Stage::Vertex => (iface.attributes, iface.varyings),
            Stage::Fragment => (iface.varyings, iface.mrt),
        };
        let mut io = StageIo { input: None, output: None, objects: Vec::new() };
        // (The loop below would do nothing either; returning first measured 244 instructions a compile fewer on a
        // shader without IO structs.)
        if input.is_none() && output.is_none() {
            return io;
        }
        for (s, is_output) in [(input, false), (output, true)] {
            let Some(s) = s else { continue };
            let before = io.objects.len();
            let mode = if rename_check(m, facts, s, is_output, functions, &mut io.objects).is_some() {
                IoMode::Rename
            } else {
                io.objects.truncate(before);
                IoMode::Copy
            };
            if is_output {
                io.output = Some((s, mode));
            } else {
                io.input = Some((s, mode));
            }
        }
        io.objects.sort_unstable();
        io.objects.dedup();
        io
    }

    /// Whether function `f` has an object (a local or parameter standing for a renamed struct).
    #[inline]
    pub(crate) fn has_objects(&self, f: FunctionId) -> bool {
        let i = self.objects.partition_point(|&(g, _)| g < f);
        self.objects.get(i).is_some_and(|&(g, _)| g == f)
    }

    /// Structs renamed away in this stage (not declared).
    pub(crate) fn renamed_structs(&self) -> impl Iterator<Item = StructId> {
        [self.input, self.output].into_iter().flatten().filter(|(_, m)| *m == IoMode::Rename).map(|(s, _)| s)
    }

    pub(crate) fn mode(&self, s: StructId) -> Option<IoMode> {
        [self.input, self.output].into_iter().flatten().find(|(t, _)| *t == s).map(|(_, m)| m)
    }

    pub(crate) fn is_object(&self, f: FunctionId, l: LocalId) -> bool {
        self.objects.binary_search(&(f, l)).is_ok()
    }
}

/// Where an expression sits when it is not an operand of another expression.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Root {
    ExprStmt,
    Return,
    #[default]
    Other,
}

/// Per expression of a function: its parent (the last one found) and where it sits as a root.
type Up = (Option<ExprId>, Root);

/// The roots of statement `s` and the statements nested in it into `out`; the count of the locals declared with
/// `object` by the last statement declaring it into `decl_size`.
fn roots_of_stmt(
    s: &Statement,
    out: &mut SecondaryMap<ExprId, Up>,
    object: Option<LocalId>,
    decl_size: &mut Option<usize>,
) {
    let mut walk = |s: &Statement| roots_of_stmt(s, out, object, decl_size);
    match &s.kind {
        StmtKind::Expr(e) => out[*e].1 = Root::ExprStmt,
        StmtKind::Return(Some(e)) => out[*e].1 = Root::Return,
        StmtKind::Declare(locals) => {
            if object.is_some_and(|o| locals.contains(o)) {
                *decl_size = Some(locals.len());
            }
        }
        StmtKind::Block(b) | StmtKind::Switch { body: b, .. } => Guarded::for_each_item(&b.stmts, &mut walk),
        StmtKind::If { .. } | StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. } => {
            s.kind.for_each_nested(&mut walk)
        }
        StmtKind::Struct { declares, .. } => {
            if object.is_some_and(|o| declares.contains(o)) {
                *decl_size = Some(declares.len());
            }
        }
        StmtKind::Empty
        | StmtKind::Return(None)
        | StmtKind::Prototype(_)
        | StmtKind::Precision { .. }
        | StmtKind::Case(_)
        | StmtKind::Default
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Discard
        | StmtKind::Define(_)
        | StmtKind::Undef(_) => {}
    }
}

fn local_struct(facts: &Facts, f: FunctionId, l: LocalId) -> Option<&Ty> {
    facts.typing.locals.get(f).and_then(|t| t.get(l)).and_then(|t| t.as_ref())
}

/// Whether renaming struct `s` away is faithful in the stage of `functions` (`Some`) or not (`None`, which `?`
/// gives at the first reason); its objects are appended to `objects` (partly, when it is not: the caller drops
/// them).
fn rename_check(
    m: &Module,
    facts: &Facts,
    s: StructId,
    is_output: bool,
    functions: &crate::plan::IdSet<FunctionId>,
    objects: &mut Vec<(FunctionId, LocalId)>,
) -> Option<()> {
    let is_s = |t: Option<&Ty>| matches!(t, Some(Ty::Struct(x)) if *x == s);
    let contains_s = |t: Option<&Ty>| match t {
        Some(Ty::Array(a)) => matches!(a.elem(), Ty::Struct(x) if x == s),
        _ => false,
    };
    // A global or another struct holding the struct: it is data, not the interface.
    for (g, _) in m.globals.iter() {
        let t = facts.typing.globals.get(g).and_then(|t| t.as_ref());
        if (is_s(t) || contains_s(t)) && functions.iter().any(|f| uses_global(m, facts, f, g)) {
            return None;
        }
    }
    // In id order (the set iterates so).
    for f in functions.iter() {
        let func = m.functions.get(f)?;
        let owner = Owner::Function(f);
        let returns = facts.typing.returns.get(f).and_then(|t| t.as_ref());
        if contains_s(returns) || (is_s(returns) && !is_output) {
            return None;
        }
        // Objects: parameters and locals of the struct type (more than one refuses the rename).
        let mut object: Option<LocalId> = None;
        let mut several = false;
        let mut add = |l: LocalId| match object {
            None => object = Some(l),
            Some(o) => several |= o != l,
        };
        let mut guarded_param = false;
        for p in &func.params {
            match p {
                Guarded::Item(p) => {
                    if let ParamKind::Declared { local } = p.kind {
                        if is_s(local_struct(facts, f, local)) {
                            add(local);
                        }
                    }
                }
                Guarded::Cond(region) => {
                    let mut check = |p: &shaderlab_ir::Param| {
                        if let ParamKind::Declared { local } = p.kind {
                            guarded_param |= is_s(local_struct(facts, f, local));
                        }
                    };
                    for branch in &region.branches {
                        Guarded::for_each_item(&branch.items, &mut check);
                    }
                    if let Some(items) = &region.else_items {
                        Guarded::for_each_item(items, &mut check);
                    }
                }
            }
        }
        if guarded_param {
            return None;
        }
        for (l, local) in func.locals.iter() {
            let t = local_struct(facts, f, l);
            if contains_s(t) {
                return None;
            }
            if local.kind == LocalKind::Variable && is_s(t) {
                add(l);
            }
        }
        if several {
            return None;
        }
        if func.body.is_none() {
            // A prototype loses the same parameters as its definition.
            objects.extend(object.map(|l| (f, l)));
            continue;
        }
        // Without objects, only expressions of the struct's type can refuse the rename; a function with neither
        // has nothing to check.
        // (The types of the function's expressions, read as one slice: the table has an entry for each.)
        let of_s = |t: &Type| matches!(t, Type::Known(Ty::Struct(x)) if *x == s);
        if object.is_none() && !facts.typing.exprs.get_arena(owner).values().any(of_s) {
            continue;
        }
        if macro_mentions(m, facts, owner, func, object) {
            return None;
        }
        // Parents and roots of every expression, by index.
        let mut up: SecondaryMap<ExprId, Up> = SecondaryMap::with_capacity(func.exprs.len());
        up.resize(func.exprs.len());
        let mut decl_size = None;
        if let Some(body) = &func.body {
            Guarded::for_each_item(&body.stmts, &mut |st| roots_of_stmt(st, &mut up, object, &mut decl_size));
        }
        if let Some(l) = object {
            let local = func.locals.get(l)?;
            if local.kind == LocalKind::Variable && decl_size.unwrap_or(1) != 1 {
                return None;
            }
        }
        // (A later parent replaces an earlier one.)
        for (e, expr) in func.exprs.iter() {
            expr.kind.for_each_child(&mut |c| {
                up[c].0 = Some(e);
            });
        }
        let is_object = |e: ExprId| -> bool {
            matches!(func.exprs.get(e).map(|x| &x.kind), Some(Expr::Ident(_)))
                && matches!(facts.resolution.idents.get(owner, e),
                    Resolved::Symbols(syms) if syms.len() == 1 && matches!(syms[0], Symbol::Local(l) if object == Some(l)))
        };
        let is_producer = |e: ExprId| -> bool {
            matches!(func.exprs.get(e).map(|x| &x.kind), Some(Expr::Call { .. }))
                && is_output
                && match facts.typing.callees.get(owner, e) {
                    Callee::User(g) => is_s(facts.typing.returns.get(*g).and_then(|t| t.as_ref())),
                    _ => false,
                }
        };
        // A written copy cannot be a stage variable: an `in` parameter of an output struct (the write would leak to
        // the caller), and any object of an input struct (stage inputs are read-only; helpers' copies are not).
        let written_copy = object.is_some_and(|l| {
            let Some(local) = func.locals.get(l) else { return false };
            let by_value = local.kind == LocalKind::Parameter
                && !matches!(local.qualifiers.storage, Some(Storage::Out | Storage::InOut));
            (by_value || !is_output) && writes_local(m, facts, f, l)
        });
        if written_copy {
            return None;
        }
        for (e, _) in func.exprs.iter() {
            if struct_type(facts, owner, e) != Some(s) {
                continue;
            }
            if !is_object(e) && !is_producer(e) {
                return None;
            }
            let ok = match up[e].0.and_then(|p| func.exprs.get(p).map(|x| (p, &x.kind))) {
                Some((_, Expr::Member { base, .. })) => *base == e && is_object(e),
                Some((p, Expr::Call { args, .. })) => {
                    is_object(e)
                        && args.iter().any(|a| matches!(a, Guarded::Item(x) if *x == e))
                        && match facts.typing.callees.get(owner, p) {
                            Callee::User(_) => true,
                            Callee::None => {
                                matches!(facts.resolution.calls.get(owner, p), CallTarget::Callable { user, .. } if !user.is_empty())
                            }
                            Callee::Builtin(_) | Callee::Struct(_) => false,
                        }
                }
                Some((p, Expr::Assign { op: None, target, value })) => {
                    up[p].1 == Root::ExprStmt
                        && ((*target == e && is_object(e) && is_producer(*value))
                            || (*value == e && is_producer(e) && is_object(*target)))
                }
                Some(_) => false,
                None => match up[e].1 {
                    Root::ExprStmt => true,
                    Root::Return => is_s(returns),
                    Root::Other => false,
                },
            };
            if !ok {
                // Initializers are found through the locals: `V o = helper();`.
                let init_of_object = object.is_some_and(|l| {
                    func.locals.get(l).and_then(|x| x.init) == Some(e) && is_producer(e) && up[e].0.is_none()
                });
                if !init_of_object {
                    return None;
                }
            }
        }
        // The object local may only be initialized by a producer call.
        if let Some(init) = object.and_then(|l| func.locals.get(l)).and_then(|x| x.init) {
            if !is_producer(init) {
                return None;
            }
        }
        objects.extend(object.map(|l| (f, l)));
    }
    Some(())
}

/// Whether a macro used in `func` names `local` in its body (`#define UV varyings.uv`): the object must stay a
/// real variable for the expansion to work.
/// The definitions are the ones resolution found for each use (every definition of the name), not a search of
/// all macros per use.
fn macro_mentions(
    m: &Module,
    facts: &Facts,
    owner: Owner,
    func: &shaderlab_ir::Function,
    local: Option<LocalId>,
) -> bool {
    let Some(local) = local.and_then(|l| func.locals.get(l)) else { return false };
    let local = m.name(local.name);
    func.exprs.iter().any(|(e, x)| {
        matches!(x.kind, Expr::MacroRef { .. })
            && facts
                .resolution
                .macro_defs_of(owner, e)
                .iter()
                .any(|&d| m.macros.get(d).is_some_and(|d| crate::plan::identifiers(&d.body).any(|w| w == local)))
    })
}

/// Whether a function reads global `g`.
fn uses_global(m: &Module, facts: &Facts, f: FunctionId, g: shaderlab_ir::GlobalId) -> bool {
    let Some(func) = m.functions.get(f) else { return false };
    let owner = Owner::Function(f);
    func.exprs.iter().any(|(e, x)| {
        matches!(x.kind, Expr::Ident(_))
            && matches!(facts.resolution.idents.get(owner, e), Resolved::Symbols(s) if s.contains(&Symbol::Global(g)))
    })
}

/// Whether some assignment in `f` writes through local `l` (`l.x = ...`, `l = ...`, `l.x++`).
fn writes_local(m: &Module, facts: &Facts, f: FunctionId, l: LocalId) -> bool {
    let Some(func) = m.functions.get(f) else { return false };
    let owner = Owner::Function(f);
    func.exprs.iter().any(|(_, x)| {
        let target = match &x.kind {
            Expr::Assign { target, .. } | Expr::IncDec { target, .. } => *target,
            _ => return false,
        };
        let mut t = target;
        while let Some(Expr::Member { base, .. } | Expr::Index { base, .. }) = func.exprs.get(t).map(|x| &x.kind) {
            t = *base;
        }
        matches!(facts.resolution.idents.get(owner, t), Resolved::Symbols(s) if s.contains(&Symbol::Local(l)))
    }) || subtree_mentions_out_args(m, facts, f, l)
}

/// Whether `l` is passed to an `out`/`inout` parameter of a user function.
fn subtree_mentions_out_args(m: &Module, facts: &Facts, f: FunctionId, l: LocalId) -> bool {
    let Some(func) = m.functions.get(f) else { return false };
    let owner = Owner::Function(f);
    for (e, x) in func.exprs.iter() {
        let Expr::Call { args, .. } = &x.kind else { continue };
        let Callee::User(g) = facts.typing.callees.get(owner, e) else { continue };
        let Some(callee) = m.functions.get(*g) else { continue };
        // Most callees have no `out` or `inout` parameter: their arguments need not be listed.
        let is_out = |p: &shaderlab_ir::Param| {
            matches!(p.kind, ParamKind::Declared { local } if callee.locals.get(local)
                .is_some_and(|x| matches!(x.qualifiers.storage, Some(Storage::Out | Storage::InOut))))
        };
        let mut any_out = false;
        Guarded::for_each_item(&callee.params, &mut |p| any_out |= is_out(p));
        if !any_out {
            continue;
        }
        let mut outs = Vec::new();
        Guarded::for_each_item(&callee.params, &mut |p| outs.push(is_out(p)));
        let mut flat = Vec::new();
        Guarded::for_each_item(args, &mut |a| flat.push(*a));
        for (arg, _) in flat.iter().zip(outs.iter()).filter(|(_, out)| **out) {
            if subtree(m, owner, *arg).iter().any(|a| {
                matches!(facts.resolution.idents.get(owner, *a), Resolved::Symbols(s) if s.contains(&Symbol::Local(l)))
            }) {
                return true;
            }
        }
    }
    false
}
