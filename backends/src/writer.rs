//! The GLSL writer core: one [`Writer`] per stage. This file holds the text mechanics (indentation, blank lines,
//! directives, conditional regions, comma lists whose elements sit in conditionals) and the top-level order:
//! the scope chain's items in source order, include guards flattened, structs hoisted before their first use,
//! `#define`s after the last emitted code dropped. Expressions, statements and declarations are in
//! [`crate::expr`], [`crate::stmt`] and [`crate::decl`].

use crate::dialect::{Dialect, OutputBinding};
use crate::error::{BackendError, BackendErrorKind, Unsupported};
use crate::interface::{for_each_member, members, IoMode, IoRole};
use crate::naming::Naming;
use crate::plan::{spec_structs, ChainIndex, ProgramPlan, StagePlan};
use crate::reflection::Collector;
use crate::repeats::{PlanInput, Repeat, Repeats};
use crate::Stage;
use shaderlab_ir::{
    CondBranch, CondKind, CondRegion, Expr, FunctionId, GlobalId, GlobalItem, Guarded, Module, Name, PpExpr, StructId,
    StructMember,
};
use shaderlab_passes::io::FragmentOutput;
use shaderlab_passes::resolve::{Resolved, Symbol};
use shaderlab_passes::typing::Callee;
use shaderlab_passes::variants::is_transparent_include_guard;
use shaderlab_passes::{Facts, Owner};
use std::borrow::Cow;

/// Items that may sit in conditional regions. A region of global items shaped like an include guard
/// (`#ifndef X` / `#define X` with an empty body / ... / `#endif`) is transparent unless the preprocessor kept it
/// ([`Module::kept_guards`]): its items are written without it (the inclusion already happened; the guard is true
/// in every variant, and no later guard of `X` tests the dropped `#define`).
pub(crate) trait Guardable: Sized {
    fn transparent(_m: &Module, _r: &CondRegion<Self>) -> bool {
        false
    }
}

impl Guardable for GlobalItem {
    fn transparent(m: &Module, r: &CondRegion<Self>) -> bool {
        include_guard(m, r)
    }
}
impl Guardable for shaderlab_ir::Statement {}
impl Guardable for StructMember {}
impl Guardable for shaderlab_ir::Param {}
impl Guardable for shaderlab_ir::ExprId {}

/// A transparent include guard whose `#define` has no body (a guard like `#ifndef F / #define F f / #endif` sets a
/// default and is kept).
pub(crate) fn include_guard(m: &Module, r: &CondRegion<GlobalItem>) -> bool {
    is_transparent_include_guard(m, r)
        && matches!(r.branches.first().and_then(|b| b.items.first()),
            Some(Guarded::Item(GlobalItem::Define(d))) if m.macros.get(*d).is_some_and(|d| d.body.is_empty()))
}

/// What the last written line was, for blank-line placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    Nothing,
    /// `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else`.
    Open,
    /// `#endif`.
    Close,
    /// Code, `#define`, `#undef`.
    Code,
}

pub(crate) struct Writer<'a> {
    pub m: &'a Module,
    pub facts: &'a Facts,
    pub program: &'a ProgramPlan,
    pub plan: &'a StagePlan,
    pub stage: Stage,
    pub d: &'a dyn Dialect,
    pub names: Naming<'a>,
    pub errors: Vec<BackendError>,
    /// The function being written.
    pub func: Option<FunctionId>,
    /// Whether `func` has interface objects (asked once per function: see [`Writer::is_object_here`]).
    pub(crate) func_objects: bool,
    pub reflection: &'a mut Collector,
    out: String,
    indent: usize,
    last: Last,
    pending_blank: bool,
    group: u8,
    /// The scope chain's declarations by name.
    index: &'a ChainIndex,
    /// How the declarations of uniforms declared more than once are written ([`crate::repeats`]).
    repeats: Repeats<'a>,
    /// Conditional regions (not include guards) around what is being written.
    cond_depth: usize,
    /// A line being assembled (kept to reuse its allocation).
    pub(crate) scratch: String,
    /// Whether some text made so far in this stage may hold a line break. Code text is names, literals, operators
    /// and punctuation; only a list with conditional elements ([`Writer::list`]) and the source text of an
    /// erroneous expression can break a line, and they set this. Until then [`Writer::line`] need not look for
    /// breaks in its text.
    pub(crate) may_break: bool,
    /// The structs a unit needs (kept to reuse its allocation).
    needed: Vec<StructId>,
}

/// Write one stage of a program (`shared`: what its two stages share).
pub(crate) fn write_stage(
    m: &Module,
    facts: &Facts,
    program: &ProgramPlan,
    stage: Stage,
    d: &dyn Dialect,
    reflection: &mut Collector,
    shared: &mut Shared<'_>,
) -> Result<String, Vec<BackendError>> {
    let plan = program.stage(stage);
    // The fragment outputs, asked for by the names, the references and the declarations.
    let (outputs, mrt_outputs) =
        if stage == Stage::Fragment { output_bindings(m, program, d) } else { (Vec::new(), 0) };
    let probe = Probe { m, facts, program, plan, stage, outputs: &outputs };
    let interface = probe.interface_names();
    probe.references(&interface, &mut shared.references);
    let names = Naming::build(m, plan, d, &interface, &shared.references);
    let mut w = Writer {
        m,
        facts,
        program,
        plan,
        stage,
        d,
        names,
        errors: Vec::new(),
        func: None,
        func_objects: false,
        reflection,
        // A stage's text is of the order of its sources' (comments dropped, interface added, parts of other
        // stages and passes dropped): reserving that avoids regrowing (and copying) the output while writing.
        out: String::with_capacity(m.sources.files.values().map(|f| f.text.len()).sum::<usize>() + 256),
        indent: 0,
        last: Last::Nothing,
        pending_blank: false,
        group: 0,
        index: shared.index,
        repeats: Repeats::default(),
        cond_depth: 0,
        scratch: std::mem::take(&mut shared.scratch),
        may_break: false,
        needed: std::mem::take(&mut shared.needed),
    };
    w.check_interface(&interface);
    w.output_declarations(&outputs, mrt_outputs);
    w.global_units(&shared.units, &mut shared.done, &shared.struct_units, &mut shared.hoistable);
    shared.scratch = std::mem::take(&mut w.scratch);
    shared.needed = std::mem::take(&mut w.needed);
    if w.errors.is_empty() {
        Ok(w.out)
    } else {
        Err(w.errors)
    }
}

/// Every interface name of a stage with its kind (`attribute`, `varying`, `output`), sorted by length, then
/// bytes, and looked up by binary search (a stage has few; most have none, and then nothing is allocated): most
/// comparisons are of lengths, and a name whose length no entry has is refused at once. A name given twice keeps
/// the kind given last. Member names are borrowed from the module; only output names the dialect makes are owned.
pub(crate) struct InterfaceNames<'m> {
    list: Vec<(Cow<'m, str>, &'static str)>,
    /// Bit `len % 64` is set when some name has length `len`.
    lengths: u64,
}

/// The order of [`InterfaceNames`]: by length, then by bytes.
fn by_length(a: &str, b: &str) -> std::cmp::Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

impl<'m> InterfaceNames<'m> {
    /// The names in the order given, with their kinds.
    fn new(mut list: Vec<(Cow<'m, str>, &'static str)>) -> Self {
        // Reversed, then sorted stably: the entry given last comes first among its name's, and `dedup_by` keeps it.
        list.reverse();
        list.sort_by(|a, b| by_length(&a.0, &b.0));
        list.dedup_by(|a, b| a.0 == b.0);
        let lengths = list.iter().fold(0, |bits, (k, _)| bits | 1 << (k.len() % 64));
        InterfaceNames { list, lengths }
    }

    /// The kind of an interface name.
    pub(crate) fn get(&self, name: &str) -> Option<&'static str> {
        if self.lengths & 1 << (name.len() % 64) == 0 {
            return None;
        }
        self.list.binary_search_by(|(k, _)| by_length(k, name)).ok().map(|i| self.list[i].1)
    }

    pub(crate) fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    fn names(&self) -> impl Iterator<Item = &str> {
        self.list.iter().map(|(k, _)| &**k)
    }
}

/// Per function that mentions some (in function order), the interface names its rewritten code mentions, as
/// module names, sorted: one list of names, a range of it per function (kept in [`Shared`]: the second stage
/// reuses the allocations of the first).
#[derive(Default)]
pub(crate) struct References {
    functions: Vec<(FunctionId, u32, u32)>,
    names: Vec<Name>,
}

impl References {
    /// The names function `f` mentions (`None`: none).
    pub(crate) fn get(&self, f: FunctionId) -> Option<&[Name]> {
        let i = self.functions.binary_search_by_key(&f, |&(g, _, _)| g).ok()?;
        let (_, start, end) = self.functions[i];
        self.names.get(start as usize..end as usize)
    }

    /// Close the list of function `f`, whose names were pushed from `start` on: sorted, without repeats, and
    /// dropped if empty.
    fn close(&mut self, f: FunctionId, start: usize) {
        let Some(tail) = self.names.get_mut(start..) else { return };
        tail.sort_unstable();
        // Remove repeats in place (the names before `start` belong to other functions).
        let mut kept = start;
        for i in start..self.names.len() {
            if i == start || self.names[i] != self.names[kept - 1] {
                self.names[kept] = self.names[i];
                kept += 1;
            }
        }
        self.names.truncate(kept);
        if let (Ok(s), Ok(e)) = (u32::try_from(start), u32::try_from(kept)) {
            if e > s {
                self.functions.push((f, s, e));
            }
        }
    }
}

/// Read-only questions about the stage, asked before the names are fixed.
struct Probe<'a> {
    m: &'a Module,
    facts: &'a Facts,
    program: &'a ProgramPlan,
    plan: &'a StagePlan,
    stage: Stage,
    /// The fragment outputs (none in the vertex stage).
    outputs: &'a [OutputBinding<'a>],
}

impl<'a> Probe<'a> {
    /// Every interface name of the stage with its kind.
    fn interface_names(&self) -> InterfaceNames<'a> {
        let (m, iface) = (self.m, &self.program.interface);
        let mut out = Vec::new();
        if self.stage == Stage::Vertex {
            if let Some(a) = iface.attributes {
                for_each_member(m, a, &mut |mem| {
                    if iface.attribute_members.contains(&mem.name) {
                        out.push((Cow::Borrowed(m.name(mem.name)), "attribute"));
                    }
                });
            }
        }
        if let Some(v) = iface.varyings {
            for_each_member(m, v, &mut |mem| {
                if iface.varying_members.contains(&mem.name) {
                    out.push((Cow::Borrowed(m.name(mem.name)), "varying"));
                }
            });
        }
        for binding in self.outputs {
            if let OutputBinding::Declared { name, .. } = binding {
                out.push((name.clone(), "output"));
            }
        }
        InterfaceNames::new(out)
    }

    /// Per function, the interface names its rewritten code mentions (the entry mentions all of them), as module
    /// names: a local can only capture a name that is one (names the module never spelled are left out). Functions
    /// that mention none (most) are left out.
    fn references(&self, interface: &InterfaceNames<'a>, out: &mut References) {
        let m = self.m;
        out.functions.clear();
        out.names.clear();
        let is_frag_output = |text: &str| text == "gl_FragColor" || text == "gl_FragData";
        let interface_frag_output = interface.names().any(is_frag_output);
        for f in self.plan.functions.iter() {
            let Some(func) = m.functions.get(f) else { continue };
            let owner = Owner::Function(f);
            // Names may repeat until the list is closed at the end.
            let start = out.names.len();
            let refs = &mut out.names;
            let mut frag_output = false;
            if f == self.plan.entry {
                refs.extend(interface.names().filter_map(|k| m.names.lookup(k)));
                frag_output |= interface_frag_output;
            }
            // (Whether the function has objects is asked once, not per member access.)
            let objects = self.plan.io.has_objects(f);
            let mut visit = |e: shaderlab_ir::ExprId, expr: &shaderlab_ir::Expression| {
                let name = match &expr.kind {
                    Expr::Member { base, member, .. }
                        if objects && is_object_in(m, self.facts, self.plan, f, *base) =>
                    {
                        *member
                    }
                    Expr::Ident(name) => match self.facts.resolution.idents.get(owner, e) {
                        Resolved::Symbols(s)
                            if s.iter().any(|s| {
                                matches!(s, Symbol::IoMember(..) | Symbol::Builtin(_) | Symbol::DepthRange)
                            }) =>
                        {
                            *name
                        }
                        _ => return,
                    },
                    _ => return,
                };
                refs.push(name);
                frag_output |= is_frag_output(m.name(name));
            };
            // Without interface objects, only the uses reachability listed can mention an interface name.
            for_each_listed_use(self.program, self.stage, f, func, &mut visit);
            if frag_output {
                for binding in self.outputs {
                    refs.extend(m.names.lookup(binding.name()));
                }
            }
            out.close(f, start);
        }
    }
}

impl Writer<'_> {
    /// Whether function `f` has interface objects. For the function being written this was asked once, at its
    /// start (most functions have none: no search per expression written).
    #[inline]
    pub(crate) fn has_objects(&self, f: FunctionId) -> bool {
        if self.func == Some(f) {
            self.func_objects
        } else {
            self.plan.io.has_objects(f)
        }
    }

    /// Whether `e` is an identifier standing for a renamed IO struct (an interface object). Inlined: it is asked
    /// of every argument, member access and assignment written, and most functions have no objects, which is
    /// answered without a call.
    #[inline]
    pub(crate) fn is_object_here(&self, owner: Owner, e: shaderlab_ir::ExprId) -> bool {
        match owner {
            Owner::Function(f) => self.has_objects(f) && is_object_in(self.m, self.facts, self.plan, f, e),
            Owner::Global => false,
        }
    }
}

/// [`Writer::is_object_here`] in function `f`, known to have objects.
pub(crate) fn is_object_in(
    m: &Module,
    facts: &Facts,
    plan: &StagePlan,
    f: FunctionId,
    e: shaderlab_ir::ExprId,
) -> bool {
    let owner = Owner::Function(f);
    let is_ident =
        matches!(m.functions.get(f).and_then(|func| func.exprs.get(e)).map(|x| &x.kind), Some(Expr::Ident(_)));
    is_ident
        && matches!(facts.resolution.idents.get(owner, e),
            Resolved::Symbols(s) if s.iter().any(|s| matches!(s, Symbol::Local(l) if plan.io.is_object(f, *l))))
}

/// The `layout(location = N)` of an MRT member.
pub(crate) fn location(m: &Module, mem: &StructMember) -> i64 {
    mem.qualifiers.layout.iter().find(|l| m.name(l.name) == "location").and_then(|l| l.value).unwrap_or(0)
}

/// The fragment outputs of a program, in location order, and how many of them (the first ones) stand for the
/// members of the MRT struct.
pub(crate) fn output_bindings<'m>(
    m: &'m Module,
    program: &ProgramPlan,
    d: &dyn Dialect,
) -> (Vec<OutputBinding<'m>>, usize) {
    let iface = &program.interface;
    let mut out = Vec::with_capacity(1 + iface.frag_data.len());
    match &iface.output {
        FragmentOutput::GlFragColor | FragmentOutput::ReturnedColor => out.push(d.color_output()),
        FragmentOutput::Mrt(s) => {
            for mem in members(m, *s) {
                if let Ok(b) = d.mrt_output(m.name(mem.name), location(m, mem), true) {
                    out.push(b);
                }
            }
        }
        FragmentOutput::GlFragData | FragmentOutput::None => {}
    }
    let mrt = if matches!(iface.output, FragmentOutput::Mrt(_)) { out.len() } else { 0 };
    for &i in &iface.frag_data {
        out.push(d.frag_data_output(i));
    }
    (out, mrt)
}

/// A top-level emission unit: a global item, or a conditional region of global items.
#[derive(Clone, Copy)]
enum Unit<'a> {
    Item(&'a GlobalItem),
    Region(&'a CondRegion<GlobalItem>),
}

/// What the two stages of a program share: the emission units of the scope chain (the same in both stages: made
/// once per program), and buffers whose allocations the second stage reuses.
pub(crate) struct Shared<'m> {
    units: Vec<Unit<'m>>,
    /// The first unit of each struct, sorted by struct.
    struct_units: Vec<(StructId, usize)>,
    /// The written flags of the units, in the stage being written.
    done: Vec<bool>,
    /// The units that can be hoisted in the stage being written ([`Writer::global_units`]).
    hoistable: Vec<usize>,
    /// The structs a unit needs ([`Writer::needed`]'s buffer between the stages).
    needed: Vec<StructId>,
    /// The line buffer.
    scratch: String,
    /// The interface names each function mentions ([`Probe::references`]'s buffers between the stages).
    references: References,
    /// The scope chain's declarations by name.
    index: &'m ChainIndex,
}

impl<'m> Shared<'m> {
    pub(crate) fn new(m: &'m Module, program: &ProgramPlan, index: &'m ChainIndex) -> Shared<'m> {
        // At least one unit per top-level item of the chain (include guards add their contents).
        let items: usize = program.scopes.iter().filter_map(|s| m.scopes.get(*s)).map(|s| s.items.len()).sum();
        let mut list = Vec::with_capacity(items);
        for &s in &program.scopes {
            if let Some(scope) = m.scopes.get(s) {
                push_units(m, &scope.items, &mut list);
            }
        }
        let mut struct_units: Vec<(StructId, usize)> = list
            .iter()
            .enumerate()
            .filter_map(|(i, u)| match u {
                Unit::Item(GlobalItem::Struct(s)) => Some((*s, i)),
                _ => None,
            })
            .collect();
        struct_units.sort_unstable();
        struct_units.dedup_by_key(|(s, _)| *s);
        Shared {
            units: list,
            struct_units,
            done: Vec::new(),
            hoistable: Vec::new(),
            needed: Vec::new(),
            scratch: String::with_capacity(256),
            references: References::default(),
            index,
        }
    }
}

impl<'a> Writer<'a> {
    // ----- text -----

    /// Ask for a blank line before the next code line (not right after an opening directive).
    pub(crate) fn separate(&mut self) {
        self.pending_blank = true;
    }

    /// Start a group of similar one-line declarations; a new group is separated from the previous one.
    pub(crate) fn group(&mut self, group: u8) {
        if self.group != group && self.group != 0 {
            self.separate();
        }
        self.group = group;
    }

    fn blank_if_pending(&mut self) {
        if self.pending_blank && matches!(self.last, Last::Code | Last::Close) {
            self.out.push('\n');
        }
        self.pending_blank = false;
    }

    /// A code line at the current indentation. Embedded newlines continue the line one level deeper, except
    /// directive lines (`#...`), which start at column 0.
    pub(crate) fn line(&mut self, text: &str) {
        self.blank_if_pending();
        if !(self.may_break && has_newline(text)) {
            // The common case: one line.
            if !text.starts_with('#') {
                push_indent(&mut self.out, self.indent);
            }
            self.out.push_str(text);
            self.out.push('\n');
        } else {
            for (i, part) in text.split('\n').enumerate() {
                if !part.starts_with('#') {
                    push_indent(&mut self.out, if i == 0 { self.indent } else { self.indent + 1 });
                }
                self.out.push_str(part);
                self.out.push('\n');
            }
        }
        self.last = Last::Code;
    }

    /// Run `f` with the scratch buffer, cleared: taken from the writer and given back, so assembling a line
    /// allocates nothing once the buffer has grown (a nested use meanwhile gets an empty buffer of its own).
    pub(crate) fn with_scratch<R>(&mut self, f: impl FnOnce(&mut Self, &mut String) -> R) -> R {
        let mut buf = std::mem::take(&mut self.scratch);
        buf.clear();
        let result = f(self, &mut buf);
        self.scratch = buf;
        result
    }

    /// A code line assembled by `build` in the scratch buffer ([`Writer::with_scratch`]), then written.
    pub(crate) fn scratch_line<R>(&mut self, build: impl FnOnce(&mut Self, &mut String) -> R) -> R {
        self.with_scratch(|w, line| {
            let result = build(w, line);
            w.line(line);
            result
        })
    }

    /// The code line `prefix`, expression `e` (at most precedence level `max` without parentheses), `suffix`.
    pub(crate) fn expr_line(&mut self, prefix: &str, owner: Owner, e: shaderlab_ir::ExprId, max: u8, suffix: &str) {
        self.scratch_line(|w, buf| {
            buf.push_str(prefix);
            w.expr_into(buf, owner, e, max);
            buf.push_str(suffix);
        });
    }

    /// A `#define` or `#undef` line at column 0 (placed like code).
    pub(crate) fn directive(&mut self, text: &str) {
        self.directive_parts(&[text], Last::Code, true);
    }

    /// A preprocessor line at column 0, the concatenation of `parts`, of kind `kind`. `separated`: a pending blank
    /// line goes before it (`#if`, `#ifdef`, `#ifndef`, `#define`, `#undef`); otherwise (`#elif`, `#else`,
    /// `#endif`) the pending blank line is dropped.
    fn directive_parts(&mut self, parts: &[&str], kind: Last, separated: bool) {
        if separated {
            self.blank_if_pending();
        } else {
            self.pending_blank = false;
        }
        for part in parts {
            self.out.push_str(part);
        }
        self.out.push('\n');
        self.last = kind;
    }

    /// Open a guard the writer adds (not a region of the source: the errors reported under it stay those of the
    /// code around it), closed by [`Writer::close_guard`].
    pub(crate) fn open_guard(&mut self, directive: &str) {
        self.directive_parts(&[directive], Last::Open, true);
    }

    pub(crate) fn close_guard(&mut self) {
        self.directive_parts(&["#endif"], Last::Close, false);
    }

    pub(crate) fn indent(&mut self) {
        self.indent += 1;
    }

    pub(crate) fn dedent(&mut self) {
        self.indent = self.indent.saturating_sub(1);
    }

    /// Whether target errors are reported here. In preserving mode a construct under a conditional is written as
    /// it is: the variant that has it may never be selected for this target (`#ifdef GRAPHICS_API_WEBGL2` code
    /// in an ES 1.00 compile); only unconditional code is refused.
    pub(crate) fn reports_errors(&self) -> bool {
        self.cond_depth == 0 || self.m.mode != shaderlab_ir::Mode::Preserving
    }

    pub(crate) fn error(&mut self, token: impl Into<String>, reason: Unsupported, span: shaderlab_ir::Span) {
        if !self.reports_errors() {
            return;
        }
        // One root cause, one error: a construct inside one already refused for the same reason is not reported.
        let covered = self.errors.iter().any(|e| match &e.kind {
            BackendErrorKind::UnsupportedInTarget { reason: r, .. } => {
                *r == reason && e.span.file == span.file && e.span.start <= span.start && span.end <= e.span.end
            }
            BackendErrorKind::ArrayOfArrays { .. } | BackendErrorKind::NoProgram { .. } => false,
        });
        if !covered {
            self.errors.push(BackendError::unsupported(self.d.target(), token, reason, span));
        }
    }

    // ----- conditional regions -----

    pub(crate) fn any_kept<T>(&self, items: &[Guarded<T>], keep: &dyn Fn(&Self, &T) -> bool) -> bool {
        items.iter().any(|item| match item {
            Guarded::Item(t) => keep(self, t),
            Guarded::Cond(r) => self.region_kept(r, keep),
        })
    }

    fn region_kept<T>(&self, r: &CondRegion<T>, keep: &dyn Fn(&Self, &T) -> bool) -> bool {
        r.branches.iter().any(|b| self.any_kept(&b.items, keep))
            || r.else_items.as_ref().is_some_and(|e| self.any_kept(e, keep))
    }

    /// The branches of a region worth writing: up to the last one with content (`None`: nothing to write).
    fn live_branches<T>(&self, r: &CondRegion<T>, keep: &dyn Fn(&Self, &T) -> bool) -> Option<(usize, bool)> {
        let with_else = r.else_items.as_ref().is_some_and(|e| self.any_kept(e, keep));
        if with_else {
            return Some((r.branches.len(), true));
        }
        let last = r.branches.iter().rposition(|b| self.any_kept(&b.items, keep))?;
        Some((last + 1, false))
    }

    /// The directive word and condition text of a branch (`first`: the region's first branch), its tested names
    /// recorded for the reflection.
    fn condition_parts<'b, T>(&mut self, b: &'b CondBranch<T>, first: bool) -> (&'static str, &'b str) {
        collect_condition_names(&b.condition.expr, &mut |n| self.reflection.macro_name(n));
        let text = b.condition.text.trim();
        let word = match (first, b.condition.kind) {
            (false, _) | (true, CondKind::Elif) => "#elif",
            (true, CondKind::If) => "#if",
            (true, CondKind::Ifdef) => "#ifdef",
            (true, CondKind::Ifndef) => "#ifndef",
        };
        (word, text)
    }

    fn condition_line<T>(&mut self, b: &CondBranch<T>, first: bool) -> String {
        let (word, text) = self.condition_parts(b, first);
        [word, " ", text].concat()
    }

    /// Write the kept items of a guarded list, with the conditional regions around them.
    pub(crate) fn guarded<T: Guardable>(
        &mut self,
        items: &'a [Guarded<T>],
        keep: &dyn Fn(&Self, &T) -> bool,
        print: &mut dyn FnMut(&mut Self, &'a T),
    ) {
        for item in items {
            match item {
                Guarded::Item(t) => {
                    if keep(self, t) {
                        print(self, t);
                    }
                }
                Guarded::Cond(r) => self.region(r, keep, print),
            }
        }
    }

    pub(crate) fn region<T: Guardable>(
        &mut self,
        r: &'a CondRegion<T>,
        keep: &dyn Fn(&Self, &T) -> bool,
        print: &mut dyn FnMut(&mut Self, &'a T),
    ) {
        if T::transparent(self.m, r) {
            if let Some(b) = r.branches.first() {
                self.guarded(b.items.get(1..).unwrap_or(&[]), keep, print);
            }
            return;
        }
        let Some((count, with_else)) = self.live_branches(r, keep) else { return };
        self.cond_depth += 1;
        for (i, b) in r.branches.iter().take(count).enumerate() {
            let (word, text) = self.condition_parts(b, i == 0);
            // An opening directive is separated like code; `#elif` continues the region.
            self.directive_parts(&[word, " ", text], Last::Open, word != "#elif");
            self.guarded(&b.items, keep, print);
        }
        if with_else {
            self.directive_parts(&["#else"], Last::Open, false);
            if let Some(items) = &r.else_items {
                self.guarded(items, keep, print);
            }
        }
        self.cond_depth -= 1;
        self.directive_parts(&["#endif"], Last::Close, false);
    }

    /// A comma-separated list whose elements may sit in conditional regions (arguments, parameters), appended to
    /// `out`; `element` appends one element to the buffer it is given. Without regions: `a, b`, written in place.
    /// With regions: one element a line, directives between, commas placed so that every variant reads as a list
    /// (trailing commas before the last unconditional element, leading ones after it).
    pub(crate) fn list<T: Guardable>(
        &mut self,
        out: &mut String,
        items: &'a [Guarded<T>],
        keep: &dyn Fn(&Self, &T) -> bool,
        element: &mut dyn FnMut(&mut Self, &mut String, &'a T),
    ) {
        if items.iter().all(|i| matches!(i, Guarded::Item(_))) {
            let mut first = true;
            for item in items {
                let Guarded::Item(t) = item else { continue };
                if keep(self, t) {
                    if !first {
                        out.push_str(", ");
                    }
                    first = false;
                    element(self, out, t);
                }
            }
            return;
        }
        let mut pieces: Vec<Piece> = Vec::new();
        self.list_pieces(items, keep, element, true, &mut pieces);
        if pieces.iter().all(|p| matches!(p, Piece::Element { .. })) {
            for (i, p) in pieces.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                match p {
                    Piece::Element { text, .. } | Piece::Directive(text) => out.push_str(text),
                }
            }
            return;
        }
        // One element a line: the text has line breaks from here on.
        self.may_break = true;
        let anchor = pieces.iter().rposition(|p| matches!(p, Piece::Element { top: true, .. }));
        let last_element = pieces.iter().rposition(|p| matches!(p, Piece::Element { .. }));
        let ends_with_directive = matches!(pieces.last(), Some(Piece::Directive(_)));
        for (i, p) in pieces.iter().enumerate() {
            out.push('\n');
            match p {
                Piece::Directive(d) => out.push_str(d),
                Piece::Element { text, .. } => match anchor {
                    Some(a) if i < a => {
                        out.push_str(text);
                        out.push(',');
                    }
                    Some(a) if i > a => {
                        out.push_str(", ");
                        out.push_str(text);
                    }
                    Some(_) => out.push_str(text),
                    None if Some(i) == last_element => out.push_str(text),
                    None => {
                        out.push_str(text);
                        out.push(',');
                    }
                },
            }
        }
        if ends_with_directive {
            out.push('\n');
        }
    }

    fn list_pieces<T: Guardable>(
        &mut self,
        items: &'a [Guarded<T>],
        keep: &dyn Fn(&Self, &T) -> bool,
        element: &mut dyn FnMut(&mut Self, &mut String, &'a T),
        top: bool,
        out: &mut Vec<Piece>,
    ) {
        for item in items {
            match item {
                Guarded::Item(t) => {
                    if keep(self, t) {
                        let mut text = String::new();
                        element(self, &mut text, t);
                        out.push(Piece::Element { text, top });
                    }
                }
                Guarded::Cond(r) if T::transparent(self.m, r) => {
                    if let Some(b) = r.branches.first() {
                        self.list_pieces(b.items.get(1..).unwrap_or(&[]), keep, element, top, out);
                    }
                }
                Guarded::Cond(r) => {
                    let Some((count, with_else)) = self.live_branches(r, keep) else { continue };
                    self.cond_depth += 1;
                    for (i, b) in r.branches.iter().take(count).enumerate() {
                        let line = self.condition_line(b, i == 0);
                        out.push(Piece::Directive(line));
                        self.list_pieces(&b.items, keep, element, false, out);
                    }
                    if with_else {
                        out.push(Piece::Directive("#else".into()));
                        if let Some(items) = &r.else_items {
                            self.list_pieces(items, keep, element, false, out);
                        }
                    }
                    self.cond_depth -= 1;
                    out.push(Piece::Directive("#endif".into()));
                }
            }
        }
    }

    // ----- top level -----

    /// Whether an item is written in this stage.
    pub(crate) fn keeps_item(&self, item: &GlobalItem) -> bool {
        match item {
            GlobalItem::Struct(s) => self.writes_struct(*s),
            GlobalItem::Var(g) => self.plan.globals.contains(*g),
            GlobalItem::Function(f) => self.plan.functions.contains(*f),
            GlobalItem::Define(_) | GlobalItem::Undef { .. } | GlobalItem::Precision { .. } => true,
        }
    }

    /// Whether an item is code (as opposed to a directive or a precision statement).
    fn is_code(&self, item: &GlobalItem) -> bool {
        match item {
            GlobalItem::Struct(_) | GlobalItem::Var(_) | GlobalItem::Function(_) => self.keeps_item(item),
            GlobalItem::Define(_) | GlobalItem::Undef { .. } | GlobalItem::Precision { .. } => false,
        }
    }

    fn unit_has_code(&self, unit: Unit<'a>) -> bool {
        match unit {
            Unit::Item(i) => self.is_code(i),
            Unit::Region(r) => self.region_kept(r, &|w, i| w.is_code(i)),
        }
    }

    /// Whether the stage writes struct `s`: reached, or an IO struct whose position declares stage variables.
    fn writes_struct(&self, s: StructId) -> bool {
        self.plan.structs.contains(s) || self.interface_role(s).is_some()
    }

    /// The role of an IO struct of this stage whose position declares stage variables.
    pub(crate) fn interface_role(&self, s: StructId) -> Option<IoRole> {
        let iface = &self.program.interface;
        match self.stage {
            Stage::Vertex if iface.attributes == Some(s) => Some(IoRole::Attribute),
            Stage::Fragment if iface.mrt == Some(s) => Some(IoRole::Mrt),
            _ if iface.varyings == Some(s) => Some(IoRole::Varying),
            _ => None,
        }
    }

    /// Structs a unit needs declared before it, into `out` (emptied first).
    fn needs(&self, unit: Unit<'a>, out: &mut Vec<StructId>) {
        out.clear();
        match unit {
            Unit::Item(item) => self.item_needs(item, out),
            Unit::Region(r) => {
                for b in &r.branches {
                    Guarded::for_each_item(&b.items, &mut |i| self.item_needs(i, out));
                }
                if let Some(e) = &r.else_items {
                    Guarded::for_each_item(e, &mut |i| self.item_needs(i, out));
                }
            }
        }
        out.retain(|s| self.writes_struct(*s));
    }

    fn item_needs(&self, item: &GlobalItem, out: &mut Vec<StructId>) {
        let (m, facts) = (self.m, self.facts);
        if !self.keeps_item(item) {
            return;
        }
        match item {
            GlobalItem::Struct(s) => {
                for mem in members(m, *s) {
                    out.extend(spec_structs(m, facts, None, &mem.ty).iter().copied());
                }
            }
            GlobalItem::Var(g) => {
                if let Some(global) = m.globals.get(*g) {
                    out.extend(spec_structs(m, facts, None, &global.ty).iter().copied());
                }
            }
            GlobalItem::Function(f) => {
                let Some(func) = m.functions.get(*f) else { return };
                out.extend(spec_structs(m, facts, None, &func.return_type).iter().copied());
                for (_, local) in func.locals.iter() {
                    out.extend(spec_structs(m, facts, None, &local.ty).iter().copied());
                }
                let owner = Owner::Function(*f);
                let iface = &self.program.interface;
                // (Whether the function has objects is asked once, not per member access.)
                let objects = self.plan.io.has_objects(*f);
                let mut visit = |e: shaderlab_ir::ExprId, expr: &shaderlab_ir::Expression| {
                    match &expr.kind {
                        // Stage variables are declared at their IO struct's position: it must come first.
                        Expr::Member { base, .. } if objects && is_object_in(m, facts, self.plan, *f, *base) => {
                            if let shaderlab_passes::typing::Type::Known(shaderlab_passes::Ty::Struct(s)) =
                                facts.typing.exprs.get(owner, *base)
                            {
                                out.push(*s);
                            }
                        }
                        Expr::Ident(_) => {
                            if let Resolved::Symbols(symbols) = facts.resolution.idents.get(owner, e) {
                                for sym in symbols {
                                    let Symbol::IoMember(s, n) = sym else { continue };
                                    match iface.member_kind(m, self.stage, *s, *n) {
                                        Some(IoRole::Attribute) => out.extend(iface.attributes),
                                        Some(IoRole::Varying) => out.extend(iface.varyings),
                                        Some(IoRole::Mrt) => out.extend(iface.mrt),
                                        None => {}
                                    }
                                }
                            }
                        }
                        Expr::Construct { ty, .. } => out.extend(spec_structs(m, facts, None, ty).iter().copied()),
                        Expr::Call { .. } => {
                            if let Callee::Struct(s) = facts.typing.callees.get(owner, e) {
                                out.push(*s);
                            }
                        }
                        _ => {}
                    }
                };
                // Without interface objects, only the struct uses reachability listed can add a need.
                for_each_listed_use(self.program, self.stage, *f, func, &mut visit);
            }
            GlobalItem::Define(_) | GlobalItem::Undef { .. } | GlobalItem::Precision { .. } => {}
        }
    }

    /// Write the units of the scope chain.
    /// (`done` and `hoistable` are buffers kept for the next stage.)
    fn global_units(
        &mut self,
        units: &[Unit<'a>],
        done: &mut Vec<bool>,
        struct_units: &[(StructId, usize)],
        hoistable: &mut Vec<usize>,
    ) {
        done.clear();
        done.resize(units.len(), false);
        let last_code = units.iter().rposition(|u| self.unit_has_code(*u));
        // The units that can be hoisted: those of structs the stage writes, in order.
        hoistable.clear();
        hoistable.extend(struct_units.iter().filter(|(s, _)| self.writes_struct(*s)).map(|&(_, i)| i));
        hoistable.sort_unstable();
        for i in 0..units.len() {
            if last_code.is_some_and(|l| i > l) {
                break;
            }
            self.emit_unit(i, units, done, struct_units, hoistable);
        }
    }

    /// Write unit `i` (once; `done` holds the written flags), after the later struct units it needs.
    fn emit_unit(
        &mut self,
        i: usize,
        units: &[Unit<'a>],
        done: &mut [bool],
        struct_units: &[(StructId, usize)],
        hoistable: &[usize],
    ) {
        let (Some(&unit), Some(written)) = (units.get(i), done.get_mut(i)) else { return };
        if *written {
            return;
        }
        *written = true;
        // Only a written struct unit after this one, not written yet, can be hoisted before it (the needs are
        // pure questions and keep only written structs: skipping them when no such unit follows changes nothing).
        let later = &hoistable[hoistable.partition_point(|&j| j <= i)..];
        if later.iter().any(|&j| done.get(j).is_some_and(|written| !written)) {
            // The list is kept for the next unit (a unit hoisted from here makes its own).
            let mut needs = std::mem::take(&mut self.needed);
            self.needs(unit, &mut needs);
            for &s in &needs {
                if let Ok(k) = struct_units.binary_search_by_key(&s, |&(t, _)| t) {
                    let j = struct_units[k].1;
                    if j > i {
                        self.emit_unit(j, units, done, struct_units, hoistable);
                    }
                }
            }
            self.needed = needs;
        }
        match unit {
            Unit::Item(item) => {
                if self.keeps_item(item) {
                    self.global_item(item);
                }
            }
            Unit::Region(r) => {
                let keep = |w: &Self, i: &GlobalItem| w.keeps_item(i);
                let mut print = |w: &mut Self, i: &'a GlobalItem| w.global_item(i);
                self.separate();
                self.region(r, &keep, &mut print);
                self.separate();
            }
        }
    }

    /// How uniform `g` is written: as it is (`None`, most uniforms: the only declaration of their name), or, for a
    /// name declared again (at another level, twice, under other conditions), skipped or guarded so that each
    /// variant declares it once ([`crate::repeats`]).
    pub(crate) fn uniform_repeat(&mut self, g: GlobalId) -> Option<Repeat> {
        let global = self.m.globals.get(g)?;
        // Only a declaration of the same name can be the same uniform: the chain's declarations of the name are
        // looked at (most names have one), not every uniform written so far.
        let same = self.index.globals.get(&global.name).unwrap_or_default();
        crate::work::count(1);
        if same.len() < 2 {
            return None;
        }
        let input = PlanInput { m: self.m, facts: self.facts, kept: &self.plan.globals, scopes: &self.program.scopes };
        Some(self.repeats.get(&input, g, same))
    }

    /// Whether the IO struct `s` of this stage is renamed away.
    pub(crate) fn renamed(&self, s: StructId) -> bool {
        self.plan.io.mode(s) == Some(IoMode::Rename)
    }
}

/// One line of a list with conditional elements.
enum Piece {
    Directive(String),
    /// `top`: not inside any region.
    Element {
        text: String,
        top: bool,
    },
}

/// Visit the expressions of `func` that can mention an interface name or need a struct: when the function has no
/// interface objects, the uses reachability listed for it in `stage` ([`crate::plan::StructUses`]); otherwise its
/// whole arena. Both in arena order.
fn for_each_listed_use(
    program: &ProgramPlan,
    stage: Stage,
    f: shaderlab_ir::FunctionId,
    func: &shaderlab_ir::Function,
    visit: &mut dyn FnMut(shaderlab_ir::ExprId, &shaderlab_ir::Expression),
) {
    match program.struct_uses.get(stage, f) {
        Some(uses) if !program.stage(stage).io.has_objects(f) => {
            for &e in uses {
                if let Some(expr) = func.exprs.get(e) {
                    visit(e, expr);
                }
            }
        }
        _ => {
            for (e, expr) in func.exprs.iter() {
                visit(e, expr);
            }
        }
    }
}

/// Whether a text has a newline. Lines are short: a branch-free pass over every byte (which the compiler turns
/// into vector compares) is cheaper than a search that stops at the first hit.
fn has_newline(text: &str) -> bool {
    text.as_bytes().iter().fold(0u8, |found, &b| found | u8::from(b == b'\n')) != 0
}

/// Append `depth` levels of indentation (four spaces each).
fn push_indent(out: &mut String, depth: usize) {
    const SPACES: &str = "                                ";
    let mut n = depth * 4;
    while n > 0 {
        let k = n.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        n -= k;
    }
}

/// Units of a scope's items; include guards are flattened (their `#define` dropped: the splice already happened).
fn push_units<'a>(m: &Module, items: &'a [Guarded<GlobalItem>], out: &mut Vec<Unit<'a>>) {
    for item in items {
        match item {
            Guarded::Item(i) => out.push(Unit::Item(i)),
            Guarded::Cond(r) if include_guard(m, r) => {
                if let Some(b) = r.branches.first() {
                    push_units(m, b.items.get(1..).unwrap_or(&[]), out);
                }
            }
            Guarded::Cond(r) => out.push(Unit::Region(r)),
        }
    }
}

/// Macro names a condition tests.
pub(crate) fn collect_condition_names(e: &PpExpr, f: &mut dyn FnMut(Name)) {
    match e {
        PpExpr::Defined(n) | PpExpr::Ident(n) => f(*n),
        PpExpr::Unary(_, a) => collect_condition_names(a, f),
        PpExpr::Binary(_, a, b) => {
            collect_condition_names(a, f);
            collect_condition_names(b, f);
        }
        PpExpr::Select(a, b, c) => {
            collect_condition_names(a, f);
            collect_condition_names(b, f);
            collect_condition_names(c, f);
        }
        PpExpr::Int(_) | PpExpr::Invalid => {}
    }
}
