//! IO role inference, per pass: which struct is the attributes struct (the vertex entry's parameter), the
//! varyings struct (the vertex entry's return, the fragment entry's parameter), the MRT struct (the fragment
//! entry's return); which members each stage reads and writes, through every function the stage reaches
//! (helpers that take or return those structs included, and members used by their bare names); and which
//! output builtins each stage writes.
//!
//! Input contract: the module, [`Resolution`], [`Typing`] and the [`CallGraph`]. Output: [`IoRoles`] with clues
//! of category G, plus NotAnLValue for writes to stage inputs.

use crate::builtins::{self, VarId};
use crate::callgraph::CallGraph;
use crate::clue::{PassClue, PassClueKind, PassNote, TypeClue};
use crate::resolve::{Resolution, Resolved, Symbol};
use crate::small::SmallList;
use crate::table::{filled_map, Owner};
use crate::ty::Ty;
use crate::typing::{type_name, Callee, Type, Typing};
use cranelift_entity::{EntityRef, SecondaryMap};
use shaderlab_ir::hash::FastHashSet as HashSet;
use shaderlab_ir::{
    Expr, ExprId, FunctionId, Guarded, Interpolation, Module, Name, ParamKind, PassId, PassKind, ScalarKind, Span,
    StructId, StructMember,
};
use std::collections::{BTreeMap, BTreeSet};

/// Category G.
#[derive(Clone, Debug, PartialEq)]
pub enum IoClue {
    VertexEntryReturnType { found: String },
    FragmentEntryReturnType { found: String },
    InvalidVaryingStruct { member: String, ty: String },
    NestedIOStruct { member: String },
    StructRoleConflict { name: String, first: String, second: String },
    GlFragColorWithMrt { first: String, second: String },
    MissingVertexPosition { entry: String },
    NonFlatIntegerVarying { member: String },
    InvalidMrtLocation { member: String, reason: String },
    VaryingNotWritten { member: String },
    StageMismatch { name: String, stage: String },
}

impl IoClue {
    pub fn code(&self) -> &'static str {
        match self {
            IoClue::VertexEntryReturnType { .. } => "VertexEntryReturnType",
            IoClue::FragmentEntryReturnType { .. } => "FragmentEntryReturnType",
            IoClue::InvalidVaryingStruct { .. } => "InvalidVaryingStruct",
            IoClue::NestedIOStruct { .. } => "NestedIOStruct",
            IoClue::StructRoleConflict { .. } => "StructRoleConflict",
            IoClue::GlFragColorWithMrt { .. } => "GlFragColorWithMrt",
            IoClue::MissingVertexPosition { .. } => "MissingVertexPosition",
            IoClue::NonFlatIntegerVarying { .. } => "NonFlatIntegerVarying",
            IoClue::InvalidMrtLocation { .. } => "InvalidMrtLocation",
            IoClue::VaryingNotWritten { .. } => "VaryingNotWritten",
            IoClue::StageMismatch { .. } => "StageMismatch",
        }
    }
}

/// How the fragment stage produces its color.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum FragmentOutput {
    /// Nothing written (or unknown).
    #[default]
    None,
    /// `gl_FragColor = ...`
    GlFragColor,
    /// `gl_FragData[i] = ...`
    GlFragData,
    /// `vec4 frag(...)`: the returned value.
    ReturnedColor,
    /// An MRT struct returned, with `(member, location)`.
    Mrt(StructId),
}

/// The IO facts of one pass.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PassIo {
    pub vertex_entry: Option<FunctionId>,
    pub fragment_entry: Option<FunctionId>,
    pub attributes: Option<StructId>,
    pub varyings: Option<StructId>,
    pub mrt: Option<StructId>,
    pub output: FragmentOutput,
    /// Attribute members the vertex stage reads.
    pub attributes_read: BTreeSet<Name>,
    /// Varying members the vertex stage writes / the fragment stage reads.
    pub varyings_written: BTreeSet<Name>,
    pub varyings_read: BTreeSet<Name>,
    /// Output builtins written per stage (`gl_Position`, `gl_FragColor`, `gl_FragData`, ...).
    pub vertex_builtins: BuiltinSet,
    pub fragment_builtins: BuiltinSet,
}

/// A set of builtin variables (the output builtins a stage writes): one bit per catalogue entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuiltinSet(u64);

impl BuiltinSet {
    pub fn insert(&mut self, var: VarId) {
        // Below 64: the catalogue has at most `builtins::MAX_VARIABLES`.
        self.0 |= 1u64 << var.index();
    }

    /// Whether the set has the variable named `name` (a handful of members at most: compared by name, which
    /// costs less than hashing `name` to find its id).
    pub fn contains(&self, name: &str) -> bool {
        let mut bits = self.0;
        while bits != 0 {
            let index = bits.trailing_zeros() as usize;
            if builtins::variables().get(index).is_some_and(|v| v.name == name) {
                return true;
            }
            bits &= bits - 1;
        }
        false
    }
}

#[derive(Debug, Default)]
pub struct IoRoles {
    pub passes: SecondaryMap<PassId, Option<PassIo>>,
    pub clues: Vec<PassClue>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Vertex,
    Fragment,
}

impl Stage {
    fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Fragment => "fragment",
        }
    }
}

pub fn infer_io_roles(m: &Module, res: &Resolution, typing: &Typing, calls: &CallGraph) -> IoRoles {
    // With syntax errors, statements may be missing: whole-stage checks (a varying never written, no
    // gl_Position) would report what the parse lost.
    let incomplete = m.clues.iter().any(|c| c.kind.severity() == shaderlab_ir::Severity::Error);
    let scans = std::iter::repeat_with(|| None).take(m.functions.len()).collect();
    // With one program pass no struct is checked twice: nothing to remember.
    let several = m.passes.values().filter(|p| matches!(p.kind, PassKind::Program { .. })).nth(1).is_some();
    let checked = several.then(SecondaryMap::new);
    // The roles and pools are built in place in the context (not moved in).
    let mut cx = IoCx {
        m,
        res,
        typing,
        out: IoRoles { passes: filled_map(m.passes.len()), clues: Vec::new() },
        reported: HashSet::default(),
        incomplete,
        scans,
        // Room for a flag per expression of every function (the most the scans can take): one allocation, and
        // the flags never move as one function after the other is scanned (speed only; growing would give the
        // same flags).
        pools: ScanPools {
            uses: Vec::new(),
            written: Vec::with_capacity(m.functions.values().map(|f| f.exprs.len()).sum()),
            builtins_written: Vec::new(),
        },
        checked,
    };
    for (pass, p) in m.passes.iter() {
        if !matches!(p.kind, PassKind::Program { .. }) {
            continue;
        }
        let (v, f) = calls.entries.get(pass).cloned().unwrap_or_default();
        let io = cx.pass(v, f, &calls.vertex_order[pass], &calls.fragment_order[pass]);
        cx.out.passes[pass] = Some(io);
    }
    cx.out
}

struct IoCx<'m> {
    m: &'m Module,
    res: &'m Resolution,
    typing: &'m Typing,
    out: IoRoles,
    /// (span, code): passes share functions, so a problem is reported once.
    reported: HashSet<(Span, &'static str)>,
    incomplete: bool,
    /// Per function (by index), what its expressions hold for IO, scanned on first use: passes and stages share
    /// functions, and each looks only at these.
    scans: Vec<Option<FunctionScan>>,
    /// The scans' lists.
    pools: ScanPools,
    /// Per struct: the checks of [`IoCx::check_io_struct`] and [`IoCx::check_mrt`] already run (`CHECKED_*`
    /// bits). Passes share IO structs, and what a check reports depends only on the struct and its role, so
    /// each runs once per module (a repeat would find only clues already reported). `None` with one program pass.
    checked: Option<SecondaryMap<StructId, u8>>,
}

const CHECKED_ATTRIBUTES: u8 = 1;
const CHECKED_VARYINGS: u8 = 2;
const CHECKED_MRT: u8 = 4;

/// The expressions the functions' scans found, one function's after the other (in scan order): each
/// [`FunctionScan`] is a range of each pool.
#[derive(Default)]
struct ScanPools {
    /// In arena order: member accesses of struct fields, identifiers resolving to IO members or builtins, struct
    /// constructors and builtin calls.
    uses: Vec<ExprId>,
    /// Per expression: whether it is written (an assignment target or on the base chain of one).
    written: Vec<bool>,
    /// Builtins written (as assignment targets), with the span of each write, in arena order.
    builtins_written: Vec<(VarId, Span)>,
}

/// The expressions of one function that IO roles look at: its ranges of the [`ScanPools`].
#[derive(Clone, Copy)]
struct FunctionScan {
    uses: (u32, u32),
    /// Where the function's expressions start in `written`.
    written: u32,
    builtins_written: (u32, u32),
}

impl ScanPools {
    fn uses(&self, scan: &FunctionScan) -> &[ExprId] {
        self.uses.get(scan.uses.0 as usize..scan.uses.1 as usize).unwrap_or_default()
    }

    fn written(&self, scan: &FunctionScan, e: ExprId) -> bool {
        self.written.get(scan.written as usize + e.index()).copied().unwrap_or(false)
    }

    fn builtins_written(&self, scan: &FunctionScan) -> &[(VarId, Span)] {
        let (start, end) = scan.builtins_written;
        self.builtins_written.get(start as usize..end as usize).unwrap_or_default()
    }
}

/// The members of an IO struct with their types (inline for the usual few).
type MemberTypes<'m> = SmallList<(&'m StructMember, Option<Ty>), 4>;

/// A struct-typed parameter or return: the struct, when the type is a struct.
fn struct_of(t: &Option<Ty>) -> Option<StructId> {
    match t {
        Some(Ty::Struct(s)) => Some(*s),
        _ => None,
    }
}

impl<'m> IoCx<'m> {
    fn push(&mut self, kind: PassClueKind, span: Span, notes: Vec<PassNote>) {
        if self.reported.insert((span, kind.code())) {
            let mut clue = PassClue::new(kind, span);
            clue.notes = notes;
            self.out.clues.push(clue);
        }
    }

    fn io(&mut self, clue: IoClue, span: Span) {
        self.push(PassClueKind::Io(clue), span, Vec::new());
    }

    fn params(&self, f: FunctionId) -> SmallList<(Option<Ty>, Span), 2> {
        let func = &self.m.functions[f];
        let mut out = SmallList::new();
        Guarded::for_each_item(&func.params, &mut |p| match p.kind {
            ParamKind::Declared { local } => out.push((self.typing.locals[f][local], p.span)),
            ParamKind::Macro { .. } => out.push((None, p.span)),
        });
        out
    }

    fn pass(
        &mut self,
        v: Option<FunctionId>,
        fr: Option<FunctionId>,
        vorder: &[FunctionId],
        forder: &[FunctionId],
    ) -> PassIo {
        let m = self.m;
        let mut io = PassIo { vertex_entry: v, fragment_entry: fr, ..PassIo::default() };
        // Roles from the entry signatures.
        let mut roles: SmallList<(StructId, &'static str, Span), 4> = SmallList::new();
        if let Some(v) = v {
            let func = &m.functions[v];
            let ret = self.typing.returns[v];
            match &ret {
                Some(Ty::Void) | Some(Ty::Struct(_)) | None => {}
                Some(other) => {
                    let found = type_name(m, other);
                    self.io(IoClue::VertexEntryReturnType { found }, func.return_type.span);
                }
            }
            io.varyings = struct_of(&ret);
            let params = self.params(v);
            if params.len() > 1 || params.first().is_some_and(|(t, _)| t.is_some() && struct_of(t).is_none()) {
                let found = params
                    .iter()
                    .map(|(t, _)| t.as_ref().map(|t| type_name(m, t)).unwrap_or("?".into()))
                    .collect::<Vec<_>>()
                    .join(", ");
                let span = params.last().map(|(_, s)| *s).unwrap_or(func.name_span);
                self.io(IoClue::VertexEntryReturnType { found: format!("parameters ({found})") }, span);
            }
            io.attributes = params.first().and_then(|(t, _)| struct_of(t));
            if let Some(a) = io.attributes {
                roles.push((a, "attributes", params[0].1));
            }
            if let Some(s) = io.varyings {
                roles.push((s, "varyings", func.return_type.span));
            }
        }
        if let Some(f) = fr {
            let func = &m.functions[f];
            let ret = self.typing.returns[f];
            match &ret {
                Some(Ty::Void) | None => {}
                Some(Ty::Vector(ScalarKind::Float, 4)) => io.output = FragmentOutput::ReturnedColor,
                Some(Ty::Struct(s)) => {
                    io.mrt = Some(*s);
                    io.output = FragmentOutput::Mrt(*s);
                    roles.push((*s, "MRT output", func.return_type.span));
                }
                Some(other) => {
                    let found = type_name(m, other);
                    self.io(IoClue::FragmentEntryReturnType { found }, func.return_type.span);
                }
            }
            let params = self.params(f);
            if params.len() > 1 || params.first().is_some_and(|(t, _)| t.is_some() && struct_of(t).is_none()) {
                let span = params.last().map(|(_, s)| *s).unwrap_or(func.name_span);
                self.io(
                    IoClue::FragmentEntryReturnType { found: "parameters other than the varyings struct".into() },
                    span,
                );
            }
            if let Some(s) = params.first().and_then(|(t, _)| struct_of(t)) {
                if io.varyings.is_none() {
                    io.varyings = Some(s);
                }
                roles.push((s, "varyings", params[0].1));
            }
        }
        // One struct, one role.
        roles.sort_by_key(|(_, _, span)| (span.file, span.start));
        // The first role of each struct (at most four roles).
        let mut seen: SmallList<(StructId, &'static str), 4> = SmallList::new();
        for (s, role, span) in roles.iter() {
            match seen.iter().find(|(t, _)| t == s).map(|(_, first)| *first) {
                Some(first) if first != *role => {
                    let name = m.name(m.structs[*s].name).to_owned();
                    self.io(IoClue::StructRoleConflict { name, first: first.into(), second: (*role).into() }, *span);
                }
                Some(_) => {}
                None => seen.push((*s, role)),
            }
        }
        if let Some(a) = io.attributes {
            self.check_io_struct(a, false);
        }
        if let Some(s) = io.varyings {
            self.check_io_struct(s, true);
        }
        if let Some(s) = io.mrt {
            self.check_mrt(s);
        }
        // Uses, per stage.
        let (attributes, varyings) = (io.attributes, io.varyings);
        let (inputs_v, inputs_f) = (attributes.as_slice(), varyings.as_slice());
        // The pass's IO structs (all `uses` reads of `io`; the closures below only add to its sets).
        let stage_io = [io.attributes, io.varyings, io.mrt];
        for &f in vorder {
            self.uses(f, Stage::Vertex, stage_io, inputs_v, v, &mut |kind, s, name, write| match kind {
                UseKind::Member if Some(s) == io.attributes && !write => {
                    io.attributes_read.insert(name);
                }
                UseKind::Member if Some(s) == io.varyings && write => {
                    io.varyings_written.insert(name);
                }
                _ => {}
            });
        }
        for &f in forder {
            self.uses(f, Stage::Fragment, stage_io, inputs_f, fr, &mut |kind, s, name, write| {
                if kind == UseKind::Member && Some(s) == io.varyings && !write {
                    io.varyings_read.insert(name);
                }
            });
        }
        for &f in vorder {
            let scan = self.scan(f);
            for &(var, _) in self.pools.builtins_written(&scan) {
                io.vertex_builtins.insert(var);
            }
        }
        // First write of each fragment output mechanism's builtin, in source order.
        const OUTPUT_BUILTINS: [&str; 2] = ["gl_FragColor", "gl_FragData"];
        let mut first_writes: [Option<Span>; 2] = [None, None];
        for &f in forder {
            let scan = self.scan(f);
            for &(var, span) in self.pools.builtins_written(&scan) {
                io.fragment_builtins.insert(var);
                let Some(i) = OUTPUT_BUILTINS.iter().position(|b| *b == var.name()) else { continue };
                let slot = first_writes[i].get_or_insert(span);
                if (span.file, span.start) < (slot.file, slot.start) {
                    *slot = span;
                }
            }
        }
        // Vertex position.
        if let Some(v) = v {
            if !io.vertex_builtins.contains("gl_Position") && !self.writes_unknown(vorder) && !self.incomplete {
                let entry = m.name(m.functions[v].name).to_owned();
                self.io(IoClue::MissingVertexPosition { entry }, m.functions[v].name_span);
            }
        }
        // One fragment output mechanism.
        if let Some(f) = fr {
            let mut mechanisms: SmallList<&'static str, 4> = SmallList::new();
            if io.fragment_builtins.contains("gl_FragColor") {
                mechanisms.push("gl_FragColor");
            }
            if io.fragment_builtins.contains("gl_FragData") {
                mechanisms.push("gl_FragData");
            }
            match io.output {
                FragmentOutput::ReturnedColor => mechanisms.push("a returned color"),
                FragmentOutput::Mrt(_) => mechanisms.push("an MRT struct"),
                _ => {
                    io.output = match mechanisms.first() {
                        Some(&"gl_FragColor") => FragmentOutput::GlFragColor,
                        Some(_) => FragmentOutput::GlFragData,
                        None => FragmentOutput::None,
                    }
                }
            }
            if mechanisms.len() > 1 {
                // The culprit: the builtin write that adds a second mechanism (the later one when both are
                // builtins; the builtin write when the entry also returns its output).
                let writes: SmallList<Span, 2> = first_writes.iter().flatten().copied().collect();
                let span = writes
                    .iter()
                    .copied()
                    .max_by_key(|s| (s.file, s.start))
                    .filter(|_| writes.len() > 1)
                    .or_else(|| writes.first().copied())
                    .unwrap_or(m.functions[f].name_span);
                self.io(IoClue::GlFragColorWithMrt { first: mechanisms[0].into(), second: mechanisms[1].into() }, span);
            }
        }
        // Varyings the fragment reads that the vertex never writes.
        if let (Some(s), Some(_), false) = (io.varyings, v, self.incomplete) {
            for member in io.varyings_read.difference(&io.varyings_written) {
                let span = self.member_span(s, *member);
                let name = m.name(*member).to_owned();
                self.io(IoClue::VaryingNotWritten { member: name }, span);
            }
        }
        io
    }

    /// Whether some reachable function writes through something unknown (a macro), which may be gl_Position.
    fn writes_unknown(&self, order: &[FunctionId]) -> bool {
        order.iter().any(|&f| self.m.functions[f].exprs.values().any(|e| matches!(e.kind, Expr::MacroRef { .. })))
    }

    fn member_span(&self, s: StructId, name: Name) -> Span {
        let mut span = self.m.structs[s].name_span;
        Guarded::for_each_item(&self.m.structs[s].members, &mut |mem| {
            if mem.name == name {
                span = mem.name_span;
            }
        });
        span
    }

    /// Whether check `bit` of struct `s` has still to run (and marks it run).
    fn first_check(&mut self, s: StructId, bit: u8) -> bool {
        let Some(checked) = &mut self.checked else { return true };
        let done = &mut checked[s];
        let first = *done & bit == 0;
        *done |= bit;
        first
    }

    fn check_io_struct(&mut self, s: StructId, varyings: bool) {
        if !self.first_check(s, if varyings { CHECKED_VARYINGS } else { CHECKED_ATTRIBUTES }) {
            return;
        }
        let m = self.m;
        let members = self.member_types(s);
        for &(mem, ty) in members.iter() {
            let Some(ty) = ty else { continue };
            let name = || m.name(mem.name).to_owned();
            let base = match &ty {
                Ty::Array(a) if varyings => a.elem(),
                other => *other,
            };
            match &base {
                Ty::Struct(_) => self.io(IoClue::NestedIOStruct { member: name() }, mem.span),
                Ty::Scalar(ScalarKind::Bool)
                | Ty::Vector(ScalarKind::Bool, _)
                | Ty::Sampler(_)
                | Ty::Array(..)
                | Ty::Void => {
                    let ty = type_name(m, &ty);
                    self.io(IoClue::InvalidVaryingStruct { member: name(), ty }, mem.span);
                }
                Ty::Scalar(ScalarKind::Int | ScalarKind::Uint) | Ty::Vector(ScalarKind::Int | ScalarKind::Uint, _)
                    if varyings && mem.qualifiers.interpolation != Some(Interpolation::Flat) =>
                {
                    self.io(IoClue::NonFlatIntegerVarying { member: name() }, mem.span);
                }
                _ => {}
            }
        }
    }

    /// The members of struct `s` in member order, each with its type as the IO checks read it: the type of the
    /// first member of that name whose type is known (a repeated name takes its first declaration's). Several
    /// members are grouped by name with a stable sort, so a struct of many members costs no scan of them per
    /// member.
    fn member_types(&self, s: StructId) -> MemberTypes<'m> {
        let mut out = MemberTypes::new();
        Guarded::for_each_item(&self.m.structs[s].members, &mut |mem| out.push((mem, None)));
        if let [(mem, ty)] = &mut out[..] {
            *ty = crate::typing::member_type(self.m, self.res, mem);
            return out;
        }
        // `(name, index)` by name; the sort is stable, so each name's members stay in member order.
        let mut order: Vec<(Name, usize)> = out.iter().enumerate().map(|(i, (mem, _))| (mem.name, i)).collect();
        order.sort_by_key(|&(name, _)| name);
        for group in order.chunk_by(|a, b| a.0 == b.0) {
            let ty = group
                .iter()
                .find_map(|&(_, i)| out.get(i).and_then(|(mem, _)| crate::typing::member_type(self.m, self.res, mem)));
            for &(_, i) in group {
                if let Some(slot) = out.get_mut(i) {
                    slot.1 = ty;
                }
            }
        }
        out
    }

    fn check_mrt(&mut self, s: StructId) {
        if !self.first_check(s, CHECKED_MRT) {
            return;
        }
        let m = self.m;
        let members = self.member_types(s);
        let mut used: BTreeMap<i64, Span> = BTreeMap::new();
        let location = m.names.lookup("location");
        for &(mem, ty) in members.iter() {
            let loc = mem.qualifiers.layout.iter().find(|l| Some(l.name) == location).and_then(|l| l.value);
            let reason = match loc {
                None => Some("missing 'layout(location = N)'".to_owned()),
                Some(n) if !(0..8).contains(&n) => Some(format!("location {n} is not in 0..7")),
                Some(n) => match used.get(&n) {
                    Some(_) => Some(format!("location {n} is used twice")),
                    None => {
                        used.insert(n, mem.span);
                        None
                    }
                },
            };
            let ty_ok = matches!(ty, Some(Ty::Scalar(k) | Ty::Vector(k, _)) if k != ScalarKind::Bool) || ty.is_none();
            let reason =
                reason.or_else(|| (!ty_ok).then(|| "an MRT member is a float, int or uint scalar or vector".into()));
            if let Some(reason) = reason {
                let name = m.name(mem.name).to_owned();
                self.io(IoClue::InvalidMrtLocation { member: name, reason }, mem.span);
            }
        }
    }

    /// The scan of a function (made on the first call).
    fn scan(&mut self, f: FunctionId) -> FunctionScan {
        if let Some(Some(scan)) = self.scans.get(f.index()) {
            return *scan;
        }
        let scan = self.scan_function(f);
        if let Some(slot) = self.scans.get_mut(f.index()) {
            *slot = Some(scan);
        }
        scan
    }

    fn scan_function(&mut self, f: FunctionId) -> FunctionScan {
        let func = &self.m.functions[f];
        let owner = Owner::Function(f);
        let typing = self.typing;
        let (access, types, callees) =
            (typing.access.get_arena(owner), typing.exprs.get_arena(owner), typing.callees.get_arena(owner));
        let idents = self.res.idents.get_arena(owner);
        let pools = &mut self.pools;
        let (uses_start, written_start, builtins_start) =
            (pools.uses.len(), pools.written.len(), pools.builtins_written.len());
        pools.written.resize(written_start + func.exprs.len(), false);
        let written = pools.written.get_mut(written_start..).unwrap_or_default();
        for (id, e) in func.exprs.iter() {
            let used = match &e.kind {
                Expr::Member { base, .. } => {
                    matches!(access[id], crate::typing::Access::Field(_))
                        && matches!(types[*base], Type::Known(Ty::Struct(_)))
                }
                // (A shared list names only globals or locals: not read per use.)
                Expr::Ident(_) => matches!(&idents[id], Resolved::Symbols(symbols)
                    if symbols.shared_address().is_none()
                        && symbols.iter().any(|s| matches!(s, Symbol::IoMember(..) | Symbol::Builtin(_)))),
                Expr::Call { .. } => matches!(callees[id], Callee::Struct(_) | Callee::Builtin(_)),
                // A write marks its target's base chain (earlier expressions: arena order is operands-first).
                Expr::Assign { target, .. } | Expr::IncDec { target, .. } => {
                    let mut t = *target;
                    loop {
                        if let Some(w) = written.get_mut(t.index()) {
                            *w = true;
                        }
                        match &func.exprs[t].kind {
                            Expr::Member { base, .. } | Expr::Index { base, .. } => t = *base,
                            _ => break,
                        }
                    }
                    // (A shared list names only globals or locals: not read per write.)
                    if let Resolved::Symbols(s) = &idents[t] {
                        if s.shared_address().is_none() {
                            for sym in s {
                                if let Symbol::Builtin(var) = sym {
                                    pools.builtins_written.push((*var, e.span));
                                }
                            }
                        }
                    }
                    false
                }
                _ => false,
            };
            if used {
                pools.uses.push(id);
            }
        }
        FunctionScan {
            uses: (uses_start as u32, pools.uses.len() as u32),
            written: written_start as u32,
            builtins_written: (builtins_start as u32, pools.builtins_written.len() as u32),
        }
    }

    /// Visit IO-struct member uses of a function; report stage mismatches and writes to stage inputs.
    /// Whether `base` (the struct part of `base.member`) is the entry's input parameter.
    fn is_stage_input(
        &self,
        f: FunctionId,
        input_param: Option<(FunctionId, shaderlab_ir::LocalId)>,
        func: &shaderlab_ir::Function,
        base: ExprId,
    ) -> bool {
        let Some((entry, param)) = input_param else { return false };
        if entry != f {
            return false;
        }
        let root = root_of(func, base);
        matches!(self.res.idents.get(Owner::Function(f), root),
            Resolved::Symbols(s) if s.as_slice() == [Symbol::Local(param)])
    }

    #[allow(clippy::too_many_arguments)]
    fn uses(
        &mut self,
        f: FunctionId,
        stage: Stage,
        stage_io: [Option<StructId>; 3],
        inputs: &[StructId],
        entry: Option<FunctionId>,
        on_use: &mut dyn FnMut(UseKind, StructId, Name, bool),
    ) {
        let m = self.m;
        let func = &m.functions[f];
        let owner = Owner::Function(f);
        let input_param = entry.and_then(|e| {
            m.functions[e].params.first().and_then(|p| match p {
                Guarded::Item(shaderlab_ir::Param { kind: ParamKind::Declared { local }, .. }) => Some((e, *local)),
                _ => None,
            })
        });
        let scan = self.scan(f);
        // The pools are only read below (and go back at the end).
        let pools = std::mem::take(&mut self.pools);
        // This function's tables, looked up once.
        let typing = self.typing;
        let (access, types, callees) =
            (typing.access.get_arena(owner), typing.exprs.get_arena(owner), typing.callees.get_arena(owner));
        let idents = self.res.idents.get_arena(owner);
        for &id in pools.uses(&scan) {
            let e = &func.exprs[id];
            let write = pools.written(&scan, id);
            match &e.kind {
                Expr::Member { base, member, .. } => {
                    let exists = matches!(access[id], crate::typing::Access::Field(_));
                    if let Type::Known(Ty::Struct(s)) = &types[*base] {
                        if stage_io.contains(&Some(*s)) && exists {
                            on_use(UseKind::Member, *s, *member, write);
                            // Only the entry's own input parameter is the stage input (locals and helper
                            // parameters of the struct type are copies).
                            if write && inputs.contains(s) && self.is_stage_input(f, input_param, func, *base) {
                                self.not_writable(*s, *member, stage, e.span);
                            }
                        }
                    }
                }
                Expr::Ident(_) => {
                    if let Resolved::Symbols(symbols) = &idents[id] {
                        for sym in symbols {
                            match sym {
                                Symbol::IoMember(s, name) => {
                                    on_use(UseKind::Member, *s, *name, write);
                                    if write && inputs.contains(s) {
                                        self.not_writable(*s, *name, stage, e.span);
                                    }
                                }
                                Symbol::Builtin(id) => {
                                    let var = id.var();
                                    let ok = match stage {
                                        Stage::Vertex => var.stages.vertex,
                                        Stage::Fragment => var.stages.fragment,
                                    };
                                    if !ok {
                                        let clue =
                                            IoClue::StageMismatch { name: var.name.into(), stage: stage.name().into() };
                                        self.io(clue, e.span);
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                }
                Expr::Call { callee_span, callee, .. } => {
                    // `Varyings(...)`: a constructed IO struct writes every member.
                    if let Callee::Struct(s) = &callees[id] {
                        if stage_io.contains(&Some(*s)) {
                            let mut names = Vec::new();
                            Guarded::for_each_item(&m.structs[*s].members, &mut |mem| names.push(mem.name));
                            for name in names {
                                on_use(UseKind::Member, *s, name, true);
                            }
                        }
                    }
                    if let Callee::Builtin(i) = &callees[id] {
                        if let Some(o) = builtins::functions().get(*i) {
                            let ok = match stage {
                                Stage::Vertex => o.stages.vertex,
                                Stage::Fragment => o.stages.fragment,
                            };
                            if !ok {
                                let name = m.name(*callee).to_owned();
                                self.io(IoClue::StageMismatch { name, stage: stage.name().into() }, *callee_span);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        self.pools = pools;
    }

    fn not_writable(&mut self, s: StructId, member: Name, stage: Stage, span: Span) {
        let m = self.m;
        let what = format!(
            "'{}' is a {} stage input (member of '{}')",
            m.name(member),
            stage.name(),
            m.name(m.structs[s].name)
        );
        self.push(PassClueKind::Type(TypeClue::NotAnLValue { what }), span, Vec::new());
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum UseKind {
    Member,
}

/// The variable at the root of an access chain (`o.uv.x` -> `o`).
fn root_of(func: &shaderlab_ir::Function, mut e: ExprId) -> ExprId {
    loop {
        match &func.exprs[e].kind {
            Expr::Member { base, .. } | Expr::Index { base, .. } => e = *base,
            _ => return e,
        }
    }
}
