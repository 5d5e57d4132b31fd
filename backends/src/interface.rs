//! The stage interface of a pass (`codegen.md` §3-6), target-independent.
//!
//! [`PassInterface`]: which structs are the attributes, varyings and MRT structs, which of their members become
//! stage variables (attributes the vertex stage reads; varyings either stage uses, the same set in both stages),
//! and the constant `gl_FragData` indices the fragment stage writes.
//!
//! [`StageIo`]: per stage, whether each IO struct can be *renamed away* (`o.uv` -> `uv`, the varyings local and
//! `return o;` disappear, IO-struct parameters and arguments are dropped) or must stay a real struct that the
//! entry copies field-wise from/to the stage variables. Renaming is faithful when every value of the struct type
//! in the stage is one object flowing through locals, parameters and returns; [`rename_checks`] checks that.

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
        scratch: &mut IoScratch,
    ) -> StageIo {
        let (input, output) = match stage {
            Stage::Vertex => (iface.attributes, iface.varyings),
            Stage::Fragment => (iface.varyings, iface.mrt),
        };
        let mut io = StageIo { input: None, output: None, objects: Vec::new() };
        // (The checks below would do nothing either; returning first measured 244 instructions a compile fewer on
        // a shader without IO structs.)
        if input.is_none() && output.is_none() {
            return io;
        }
        let mut checks = [input.map(|s| Check::new(s, false)), output.map(|s| Check::new(s, true))];
        rename_checks(m, facts, functions, &mut checks, &mut io.objects, scratch);
        let [input, output] = checks.map(|c| c.map(|c| (c.s, if c.ok { IoMode::Rename } else { IoMode::Copy })));
        (io.input, io.output) = (input, output);
        // A refused struct's objects (those of the functions checked before the refusal) are dropped: each object
        // is a local of its struct's type, and a renamed struct's list is complete.
        if checks.iter().flatten().any(|c| !c.ok) {
            let renamed =
                |t: Option<&Ty>| checks.iter().flatten().any(|c| c.ok && matches!(t, Some(Ty::Struct(s)) if *s == c.s));
            io.objects.retain(|&(f, l)| renamed(local_struct(facts, f, l)));
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

/// The parents map of the IO rename checks, kept for the next function and the next stage (one allocation a
/// program).
#[derive(Default)]
pub(crate) struct IoScratch(SecondaryMap<ExprId, Up>);

/// One IO struct of a stage being checked ([`rename_checks`]).
#[derive(Clone, Copy)]
struct Check {
    s: StructId,
    /// The varyings of the vertex stage or the MRT struct (written by the stage), not its input.
    is_output: bool,
    /// No reason to refuse the rename found yet.
    ok: bool,
}

impl Check {
    fn new(s: StructId, is_output: bool) -> Check {
        Check { s, is_output, ok: true }
    }

    fn is_s(&self, t: Option<&Ty>) -> bool {
        matches!(t, Some(Ty::Struct(x)) if *x == self.s)
    }

    fn contains_s(&self, t: Option<&Ty>) -> bool {
        matches!(t, Some(Ty::Array(a)) if matches!(a.elem(), Ty::Struct(x) if x == self.s))
    }
}

/// What one walk of a function's statements and expressions finds for the objects of the structs checked in it
/// (up to two: the stage's input and output struct), by index of the check.
struct Shape<'s> {
    /// Parents and roots of every expression, by index (the map is kept for the next function).
    up: &'s mut SecondaryMap<ExprId, Up>,
    /// The count of the locals declared with each object by the last statement declaring it.
    decl_size: [Option<usize>; 2],
    /// Whether a macro used in the function names the object in its body (`#define UV varyings.uv`): the object
    /// must stay a real variable for the expansion to work.
    in_macro: [bool; 2],
    /// Whether the function writes through the object (`l.x = ...`, `l = ...`, `l.x++`, or an `out`/`inout`
    /// argument mentioning it); tracked only where a write matters ([`writes_matter`]), else false.
    written: [bool; 2],
}

/// The roots of statement `s` and the statements nested in it into `up`; the count of the locals declared with
/// each of `objects` by the last statement declaring it into `decl_size`.
fn roots_of_stmt(
    s: &Statement,
    up: &mut SecondaryMap<ExprId, Up>,
    objects: [Option<LocalId>; 2],
    decl_size: &mut [Option<usize>; 2],
) {
    let mut walk = |s: &Statement| roots_of_stmt(s, up, objects, decl_size);
    let declares = match &s.kind {
        StmtKind::Expr(e) => {
            up[*e].1 = Root::ExprStmt;
            return;
        }
        StmtKind::Return(Some(e)) => {
            up[*e].1 = Root::Return;
            return;
        }
        StmtKind::Declare(locals) | StmtKind::Struct { declares: locals, .. } => *locals,
        StmtKind::Block(b) | StmtKind::Switch { body: b, .. } => {
            Guarded::for_each_item(&b.stmts, &mut walk);
            return;
        }
        StmtKind::If { .. } | StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. } => {
            s.kind.for_each_nested(&mut walk);
            return;
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
        | StmtKind::Undef(_) => return,
    };
    for (object, size) in objects.iter().zip(decl_size.iter_mut()) {
        if object.is_some_and(|o| declares.contains(o)) {
            *size = Some(declares.len());
        }
    }
}

fn local_struct(facts: &Facts, f: FunctionId, l: LocalId) -> Option<&Ty> {
    facts.typing.locals.get(f).and_then(|t| t.get(l)).and_then(|t| t.as_ref())
}

/// Whether renaming each checked struct away is faithful in the stage of `functions`: a check's `ok` is cleared at
/// the first reason to refuse. The objects of the structs are appended to `objects` (partly for a refused struct:
/// the caller drops those). Renaming is faithful when every value of the struct type in the stage is one object
/// flowing through locals, parameters and returns. The functions are the outer loop: one walk of a function
/// answers the questions about the objects of both structs.
fn rename_checks(
    m: &Module,
    facts: &Facts,
    functions: &crate::plan::IdSet<FunctionId>,
    checks: &mut [Option<Check>; 2],
    objects: &mut Vec<(FunctionId, LocalId)>,
    scratch: &mut IoScratch,
) {
    // A global or another struct holding the struct: it is data, not the interface.
    for c in checks.iter_mut().flatten() {
        for (g, _) in m.globals.iter() {
            let t = facts.typing.globals.get(g).and_then(|t| t.as_ref());
            if (c.is_s(t) || c.contains_s(t)) && functions.iter().any(|f| uses_global(m, facts, f, g)) {
                c.ok = false;
                break;
            }
        }
    }
    let mut shape = Shape { up: &mut scratch.0, decl_size: [None; 2], in_macro: [false; 2], written: [false; 2] };
    // In id order (the set iterates so).
    for f in functions.iter() {
        if !checks.iter().flatten().any(|c| c.ok) {
            return;
        }
        let Some(func) = m.functions.get(f) else {
            checks.iter_mut().flatten().for_each(|c| c.ok = false);
            return;
        };
        // Per check, the object of the function when its expressions must be checked.
        let mut walked: [Option<Option<LocalId>>; 2] = [None; 2];
        // The structs of the checks whose function has no object (their expressions' types are scanned below).
        let mut without_object: [Option<StructId>; 2] = [None; 2];
        // Whether a write through each object matters ([`Shape::written`]).
        let mut track = [false; 2];
        for (k, c) in checks.iter_mut().enumerate() {
            let Some(c) = c.as_mut().filter(|c| c.ok) else { continue };
            match function_object(facts, f, func, c) {
                Err(()) => c.ok = false,
                // A prototype loses the same parameters as its definition.
                Ok(object) if func.body.is_none() => objects.extend(object.map(|l| (f, l))),
                Ok(Some(object)) => {
                    walked[k] = Some(Some(object));
                    track[k] = func.locals.get(object).is_some_and(|local| writes_matter(local, c.is_output));
                }
                Ok(None) => without_object[k] = Some(c.s),
            }
        }
        // Without objects, only expressions of the struct's type can refuse the rename; a function with neither
        // has nothing to check. One scan of the types of the function's expressions (read as one slice: the table
        // has an entry for each) answers for both structs.
        if without_object.iter().any(Option::is_some) {
            let mut found = [false; 2];
            for t in facts.typing.exprs.get_arena(Owner::Function(f)).values() {
                if let Type::Known(Ty::Struct(x)) = t {
                    for (k, s) in without_object.iter().enumerate() {
                        found[k] |= *s == Some(*x);
                    }
                    if found.iter().zip(&without_object).all(|(found, s)| *found || s.is_none()) {
                        break;
                    }
                }
            }
            for (walk, found) in walked.iter_mut().zip(found) {
                if found {
                    *walk = Some(None);
                }
            }
        }
        if walked.iter().all(Option::is_none) {
            continue;
        }
        shape.walk(m, facts, f, func, walked.map(Option::flatten), track);
        for (c, walk) in checks.iter_mut().zip(walked.iter().enumerate()) {
            let (Some(c), (k, Some(object))) = (c.as_mut(), walk) else { continue };
            if check_exprs(facts, f, func, c, *object, &shape, k).is_some() {
                objects.extend(object.map(|l| (f, l)));
            } else {
                c.ok = false;
            }
        }
    }
}

/// The object of `c`'s struct in function `f` (a parameter or local of the struct type; `None` if it has none),
/// or `Err` if the function refuses the rename by its signature or locals (the struct returned where it may
/// not be, held in an array, in a parameter under a conditional, or several objects).
fn function_object(
    facts: &Facts,
    f: FunctionId,
    func: &shaderlab_ir::Function,
    c: &Check,
) -> Result<Option<LocalId>, ()> {
    let returns = facts.typing.returns.get(f).and_then(|t| t.as_ref());
    if c.contains_s(returns) || (c.is_s(returns) && !c.is_output) {
        return Err(());
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
                    if c.is_s(local_struct(facts, f, local)) {
                        add(local);
                    }
                }
            }
            Guarded::Cond(region) => {
                let mut check = |p: &shaderlab_ir::Param| {
                    if let ParamKind::Declared { local } = p.kind {
                        guarded_param |= c.is_s(local_struct(facts, f, local));
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
        return Err(());
    }
    for (l, local) in func.locals.iter() {
        let t = local_struct(facts, f, l);
        if c.contains_s(t) {
            return Err(());
        }
        if local.kind == LocalKind::Variable && c.is_s(t) {
            add(l);
        }
    }
    if several {
        return Err(());
    }
    Ok(object)
}

impl Shape<'_> {
    /// Walk function `f` once for the objects of the checks (by index; `None`: no object, or no check). Writes
    /// are tracked only for the objects `track` marks (those whose writes matter: [`writes_matter`]).
    fn walk(
        &mut self,
        m: &Module,
        facts: &Facts,
        f: FunctionId,
        func: &shaderlab_ir::Function,
        objects: [Option<LocalId>; 2],
        track: [bool; 2],
    ) {
        let owner = Owner::Function(f);
        self.up.clear();
        self.up.resize(func.exprs.len());
        self.decl_size = [None; 2];
        self.in_macro = [false; 2];
        self.written = [false; 2];
        if let Some(body) = &func.body {
            let (up, decl_size) = (&mut *self.up, &mut self.decl_size);
            Guarded::for_each_item(&body.stmts, &mut |st| roots_of_stmt(st, up, objects, decl_size));
        }
        let names = objects.map(|o| o.and_then(|l| func.locals.get(l)).map(|l| m.name(l.name)));
        let mentions = |e: ExprId, k: usize| {
            let Some(l) = objects[k].filter(|_| track[k]) else { return false };
            matches!(facts.resolution.idents.get(owner, e), Resolved::Symbols(s) if s.iter().any(|s| matches!(s, Symbol::Local(x) if *x == l)))
        };
        let tracking = track.iter().any(|t| *t);
        for (e, expr) in func.exprs.iter() {
            // (A later parent replaces an earlier one.)
            expr.kind.for_each_child(&mut |c| {
                self.up[c].0 = Some(e);
            });
            match &expr.kind {
                Expr::MacroRef { .. } => {
                    for (k, name) in names.iter().enumerate() {
                        let Some(name) = name else { continue };
                        self.in_macro[k] |= facts.resolution.macro_defs_of(owner, e).iter().any(|&d| {
                            m.macros.get(d).is_some_and(|d| crate::plan::identifiers(&d.body).any(|w| w == *name))
                        });
                    }
                }
                Expr::Assign { target, .. } | Expr::IncDec { target, .. } if tracking => {
                    let mut t = *target;
                    while let Some(Expr::Member { base, .. } | Expr::Index { base, .. }) =
                        func.exprs.get(t).map(|x| &x.kind)
                    {
                        t = *base;
                    }
                    for (k, written) in self.written.iter_mut().enumerate() {
                        *written |= mentions(t, k);
                    }
                }
                Expr::Call { args, .. } if tracking => {
                    out_args(m, facts, owner, e, args, &mut |a| {
                        for (k, written) in self.written.iter_mut().enumerate() {
                            *written |= mentions(a, k);
                        }
                    });
                }
                _ => {}
            }
        }
    }
}

/// Visit every expression of the arguments of call `e` given to an `out`/`inout` parameter of a user function.
fn out_args(
    m: &Module,
    facts: &Facts,
    owner: Owner,
    e: ExprId,
    args: &[Guarded<ExprId>],
    visit: &mut dyn FnMut(ExprId),
) {
    let Callee::User(g) = facts.typing.callees.get(owner, e) else { return };
    let Some(callee) = m.functions.get(*g) else { return };
    // Most callees have no `out` or `inout` parameter: their arguments need not be listed.
    let is_out = |p: &shaderlab_ir::Param| {
        matches!(p.kind, ParamKind::Declared { local } if callee.locals.get(local)
            .is_some_and(|x| matches!(x.qualifiers.storage, Some(Storage::Out | Storage::InOut))))
    };
    let mut any_out = false;
    Guarded::for_each_item(&callee.params, &mut |p| any_out |= is_out(p));
    if !any_out {
        return;
    }
    let mut outs = Vec::new();
    Guarded::for_each_item(&callee.params, &mut |p| outs.push(is_out(p)));
    let mut flat = Vec::new();
    Guarded::for_each_item(args, &mut |a| flat.push(*a));
    for (arg, _) in flat.iter().zip(outs.iter()).filter(|(_, out)| **out) {
        for a in subtree(m, owner, *arg) {
            visit(a);
        }
    }
}

/// The checks of check `c` (index `k` in `shape`) in function `f`, whose object is `object`: every expression of
/// the struct's type is the object or a producer call, used only where renaming keeps its meaning. `None` at
/// the first reason to refuse.
fn check_exprs(
    facts: &Facts,
    f: FunctionId,
    func: &shaderlab_ir::Function,
    c: &Check,
    object: Option<LocalId>,
    shape: &Shape,
    k: usize,
) -> Option<()> {
    let (owner, s, is_output) = (Owner::Function(f), c.s, c.is_output);
    let up = &*shape.up;
    if shape.in_macro[k] {
        return None;
    }
    if let Some(l) = object {
        let local = func.locals.get(l)?;
        if local.kind == LocalKind::Variable && shape.decl_size[k].unwrap_or(1) != 1 {
            return None;
        }
    }
    let returns = facts.typing.returns.get(f).and_then(|t| t.as_ref());
    let is_object = |e: ExprId| -> bool {
        matches!(func.exprs.get(e).map(|x| &x.kind), Some(Expr::Ident(_)))
            && matches!(facts.resolution.idents.get(owner, e),
                Resolved::Symbols(syms) if syms.len() == 1 && matches!(syms[0], Symbol::Local(l) if object == Some(l)))
    };
    let is_producer = |e: ExprId| -> bool {
        matches!(func.exprs.get(e).map(|x| &x.kind), Some(Expr::Call { .. }))
            && is_output
            && match facts.typing.callees.get(owner, e) {
                Callee::User(g) => c.is_s(facts.typing.returns.get(*g).and_then(|t| t.as_ref())),
                _ => false,
            }
    };
    // A written copy cannot be a stage variable: [`Shape::walk`] tracked writes only through objects whose writes
    // matter ([`writes_matter`]), so a write it saw refuses the rename.
    if object.is_some() && shape.written[k] {
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
                Root::Return => c.is_s(returns),
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
    Some(())
}

/// Whether a write through object `local` of a struct (an output struct when `is_output`) refuses the rename: a
/// written copy cannot be a stage variable. That is an `in` parameter of an output struct (the write would leak to
/// the caller), and any object of an input struct (stage inputs are read-only; helpers' copies are not).
fn writes_matter(local: &shaderlab_ir::Local, is_output: bool) -> bool {
    let by_value =
        local.kind == LocalKind::Parameter && !matches!(local.qualifiers.storage, Some(Storage::Out | Storage::InOut));
    by_value || !is_output
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
