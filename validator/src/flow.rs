//! Control-flow and declaration rules that need a whole-function or whole-program view: MissingReturn,
//! UnreachableCode, EmptyStatementBody, MisplacedControlFlow, InvalidSwitchDefault, UniformInitializer and the
//! sampler placement part of InvalidUniformType.
//!
//! Conditional regions (preserving mode) are walked branch by branch with their variant context, so a
//! diagnostic found inside one carries a note naming its condition. A region "always returns" only when every
//! branch, `#else` included, does.
//!
//! A `discard` in a function the vertex stage runs is reported when its context is compatible with the context
//! of some chain of calls from a vertex entry to the function (the entry's own context, then each call's; see
//! [`vertex_reach`]): some variant runs the `discard` in the vertex stage.

use crate::diagnostic::{Diagnostic, DiagnosticType};
use shaderlab_ir::{
    Block, CondRegion, FunctionId, Guarded, LocalKind, Module, Note, PassKind, SecondaryMap, Severity, Span, Statement,
    StmtKind, Storage,
};
use shaderlab_passes::variants::{CondCtx, ELSE_BRANCH};
use shaderlab_passes::{Facts, Ty};
use std::collections::BTreeMap;

/// Category F (flow) and D (declaration placement) rules found here.
#[derive(Clone, Debug, PartialEq)]
pub enum FlowRule {
    /// A non-void function without any `return` (error), or one that can fall off its end (warning).
    MissingReturn {
        function: String,
        some_path: bool,
    },
    UnreachableCode,
    EmptyStatementBody {
        construct: String,
    },
    /// `break`/`continue`/`case`/`default` outside their construct, `discard` in vertex code.
    MisplacedControlFlow {
        keyword: String,
        reason: String,
    },
    /// Two `default:` labels (error) or none (warning).
    InvalidSwitchDefault {
        duplicate: bool,
    },
    UniformInitializer {
        name: String,
    },
    /// A sampler that is not a uniform or an `in` parameter.
    SamplerPlacement {
        name: String,
    },
}

impl FlowRule {
    pub fn code(&self) -> &'static str {
        match self {
            FlowRule::MissingReturn { .. } => "MissingReturn",
            FlowRule::UnreachableCode => "UnreachableCode",
            FlowRule::EmptyStatementBody { .. } => "EmptyStatementBody",
            FlowRule::MisplacedControlFlow { .. } => "MisplacedControlFlow",
            FlowRule::InvalidSwitchDefault { .. } => "InvalidSwitchDefault",
            FlowRule::UniformInitializer { .. } => "UniformInitializer",
            FlowRule::SamplerPlacement { .. } => "InvalidUniformType",
        }
    }

    pub fn severity(&self) -> Severity {
        match self {
            FlowRule::MissingReturn { some_path: true, .. }
            | FlowRule::UnreachableCode
            | FlowRule::EmptyStatementBody { .. }
            | FlowRule::InvalidSwitchDefault { duplicate: false } => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

/// Run the flow and placement rules. `incomplete`: the frontend reported an error, so a `return` may have been
/// lost to recovery (the whole-function rules then stay silent). It is passed in rather than read from
/// `m.clues`, because a compile moves the clues out of the module before validating.
pub fn check(m: &Module, facts: &Facts, incomplete: bool) -> Vec<Diagnostic> {
    let mut cx = Flow::new(m);
    // Per function: whether some pass's vertex stage runs it.
    let mut vertex_functions: SecondaryMap<FunctionId, bool> = shaderlab_passes::table::filled_map(m.functions.len());
    for (pass, p) in m.passes.iter() {
        if matches!(p.kind, PassKind::Program { .. }) {
            for &f in facts.calls.vertex_order.get(pass).into_iter().flatten() {
                vertex_functions[f] = true;
            }
        }
    }
    for (g, global) in m.globals.iter() {
        if global.qualifiers.storage == Some(Storage::Uniform) {
            if let Some(init) = global.init {
                let name = m.name(global.name).to_owned();
                cx.push(FlowRule::UniformInitializer { name }, m.global_exprs[init].span);
            }
        }
        let sampler = matches!(facts.typing.globals[g], Some(Ty::Sampler(_)));
        if sampler && !global.is_uniform() {
            let name = m.name(global.name).to_owned();
            cx.push(FlowRule::SamplerPlacement { name }, global.ty.span);
        }
    }
    for (f, func) in m.functions.iter() {
        cx.base = facts.resolution.function_ctx[f].clone().unwrap_or_default();
        for (l, local) in func.locals.iter() {
            let sampler = matches!(facts.typing.locals[f][l], Some(Ty::Sampler(_)));
            let misplaced = match local.kind {
                LocalKind::Variable => true,
                LocalKind::Parameter => matches!(local.qualifiers.storage, Some(Storage::Out | Storage::InOut)),
            };
            if sampler && misplaced {
                let name = m.name(local.name).to_owned();
                cx.push(FlowRule::SamplerPlacement { name }, local.ty.span);
            }
        }
        let Some(body) = &func.body else { continue };
        let vertex = vertex_functions[f];
        cx.function = Some(f);
        let mut walk = Walk { loops: 0, switches: 0, vertex };
        cx.block_stmts(&body.stmts, &mut walk);
        let non_void = !matches!(facts.typing.returns[f], Some(Ty::Void) | None);
        // With syntax errors a `return` may have been lost to recovery: not a second diagnostic.
        if non_void && !incomplete {
            let name = || m.name(func.name).to_owned();
            if !has_return(&body.stmts) {
                cx.push(FlowRule::MissingReturn { function: name(), some_path: false }, func.name_span);
            } else if !list_returns(&body.stmts) {
                let end = Span::new(body.span.file, body.span.end.saturating_sub(1), body.span.end);
                cx.push(FlowRule::MissingReturn { function: name(), some_path: true }, end);
            }
        }
        let _: FunctionId = f;
    }
    let discards = std::mem::take(&mut cx.discards);
    if discards.is_empty() {
        return cx.out;
    }
    // A `discard` in a function the vertex stage runs (rare): the contexts of the calls to each function from the
    // functions the vertex stage runs, found by walking those again.
    let mut calls = Flow::new(m);
    // The calls each function the vertex stage runs makes: (callee, context of the call).
    let mut sites_of: SecondaryMap<FunctionId, Vec<(FunctionId, CondCtx)>> = SecondaryMap::new();
    for (f, func) in m.functions.iter() {
        let Some(body) = func.body.as_ref().filter(|_| vertex_functions[f]) else { continue };
        calls.base = facts.resolution.function_ctx[f].clone().unwrap_or_default();
        // The calls this function makes, by position, each with its context once a statement holding it is
        // walked (the innermost one last).
        let sites = facts.calls.calls.get(f).map_or(&[][..], |c| c.as_slice());
        calls.sites = sites.iter().map(|c| (c.span, c.callee, None)).collect();
        calls.sites.sort_by_key(|&(span, ..)| (span.file, span.start));
        calls.block_stmts(&body.stmts, &mut Walk { loops: 0, switches: 0, vertex: false });
        let made = std::mem::take(&mut calls.sites)
            .into_iter()
            .map(|(_, callee, ctx)| (callee, ctx.unwrap_or_else(|| calls.base.clone())))
            .collect();
        sites_of[f] = made;
    }
    let reach = vertex_reach(m, facts, &sites_of);
    for (f, span, ctx) in discards {
        let reached = match reach.get(&f) {
            Some(Reach::Contexts(list)) => list.iter().any(|c| c.compatible(&ctx)),
            // Too many ways in: some call from a function the vertex stage runs, in a variant of the `discard`.
            Some(Reach::Many) => m.functions.keys().any(|g| {
                sites_of.get(g).is_some_and(|s| s.iter().any(|(callee, c)| *callee == f && c.compatible(&ctx)))
            }),
            // No chain of calls from a vertex entry in a variant of its own.
            None => false,
        };
        if reached {
            let rule = FlowRule::MisplacedControlFlow {
                keyword: "discard".into(),
                reason: "only in fragment code (this function runs in the vertex stage)".into(),
            };
            cx.push_in(rule, span, &ctx);
        }
    }
    cx.out
}

/// The variants in which the vertex stage runs a function: the contexts of the call chains from a vertex entry
/// to it (each chain's calls' contexts together), or, past [`MAX_REACH`] of them, too many to follow.
enum Reach {
    Many,
    Contexts(Vec<CondCtx>),
}

/// Chain contexts kept per function before [`Reach::Many`].
const MAX_REACH: usize = 64;

/// [`Reach`] of every function the vertex stage runs, from the program passes' vertex entries (each in its own
/// context) along the calls `sites_of`: a call in a context no variant shares with the chain so far is not
/// followed.
fn vertex_reach(
    m: &Module,
    facts: &Facts,
    sites_of: &SecondaryMap<FunctionId, Vec<(FunctionId, CondCtx)>>,
) -> BTreeMap<FunctionId, Reach> {
    let mut reach: BTreeMap<FunctionId, Reach> = BTreeMap::new();
    let mut work: Vec<(FunctionId, CondCtx)> = Vec::new();
    for (pass, p) in m.passes.iter() {
        let Some((Some(f), _)) = facts.calls.entries.get(pass).filter(|_| matches!(p.kind, PassKind::Program { .. }))
        else {
            continue;
        };
        // An entry of several passes is one start.
        if !reach.contains_key(f) {
            let ctx = facts.resolution.function_ctx[*f].clone().unwrap_or_default();
            reach.insert(*f, Reach::Contexts(vec![ctx.clone()]));
            work.push((*f, ctx));
        }
    }
    while let Some((caller, chain)) = work.pop() {
        for (callee, site) in sites_of.get(caller).map_or(&[][..], |s| s.as_slice()) {
            let Some(inner) = chain.conjoin(site) else { continue };
            let Reach::Contexts(list) = reach.entry(*callee).or_insert_with(|| Reach::Contexts(Vec::new())) else {
                continue;
            };
            if list.iter().any(|c| inner.implies(c)) {
                continue;
            }
            if list.len() == MAX_REACH {
                reach.insert(*callee, Reach::Many);
                // Its callees may be reached in ways no longer tracked: follow with the function's own context.
                let own = facts.resolution.function_ctx[*callee].clone().unwrap_or_default();
                work.push((*callee, own));
                continue;
            }
            list.push(inner.clone());
            work.push((*callee, inner));
        }
    }
    reach
}

struct Flow<'m> {
    m: &'m Module,
    out: Vec<Diagnostic>,
    /// The conditions of the function being walked, and the conditional branches entered inside it, innermost
    /// last. A diagnostic's context (for its "in variants where" note) is built from them only when one is
    /// reported: entering a region must not cost a context per branch for the clean code that is the rule.
    base: CondCtx,
    path: Vec<(&'m CondRegion<Statement>, u32)>,
    /// The function being walked.
    function: Option<FunctionId>,
    /// When a walk looks for the contexts of calls (after a `discard` in a function the vertex stage runs): the
    /// walked function's calls, sorted by position, as `(callee's name span, callee, context of the innermost
    /// statement walked so far that holds the call)`.
    sites: Vec<(Span, FunctionId, Option<CondCtx>)>,
    /// `discard`s in functions the vertex stage runs, with their contexts: reported after every call is known.
    discards: Vec<(FunctionId, Span, CondCtx)>,
}

#[derive(Clone, Copy)]
struct Walk {
    loops: u32,
    switches: u32,
    vertex: bool,
}

/// Whether a statement always ends its path (return or discard on every path through it). `jumps` names the
/// statement kinds this looks into: a kind added here must be added there too.
fn returns(s: &Statement) -> bool {
    match &s.kind {
        StmtKind::Return(_) | StmtKind::Discard => true,
        StmtKind::Block(b) => list_returns(&b.stmts),
        StmtKind::If { accept, reject: Some(reject), .. } => returns(accept) && returns(reject),
        // `do { return; } while (c);` runs its body once.
        StmtKind::DoWhile { body, .. } => returns(body),
        _ => false,
    }
}

fn list_returns(stmts: &[Guarded<Statement>]) -> bool {
    stmts.iter().any(|s| match s {
        Guarded::Item(s) => returns(s),
        Guarded::Cond(region) => region_returns(region),
    })
}

fn region_returns(region: &CondRegion<Statement>) -> bool {
    region.else_items.as_ref().is_some_and(|e| list_returns(e))
        && region.branches.iter().all(|b| list_returns(&b.items))
}

/// Whether any `return` (or `discard`) appears anywhere.
fn has_return(stmts: &[Guarded<Statement>]) -> bool {
    let mut found = false;
    Guarded::for_each_item(stmts, &mut |s| found |= stmt_has_return(s));
    found
}

fn stmt_has_return(s: &Statement) -> bool {
    match &s.kind {
        StmtKind::Return(_) | StmtKind::Discard => true,
        StmtKind::Block(b) | StmtKind::Switch { body: b, .. } => has_return(&b.stmts),
        StmtKind::If { accept, reject, .. } => {
            stmt_has_return(accept) || reject.as_deref().is_some_and(stmt_has_return)
        }
        StmtKind::For { body, .. } | StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
            stmt_has_return(body)
        }
        _ => false,
    }
}

/// Statements that end the flow of their block (the usual statement, an expression or a declaration, is
/// answered without a call).
fn jumps(s: &Statement) -> bool {
    match &s.kind {
        StmtKind::Break | StmtKind::Continue | StmtKind::Return(_) | StmtKind::Discard => true,
        // The statements `returns` looks into.
        StmtKind::Block(_) | StmtKind::If { .. } | StmtKind::DoWhile { .. } => returns(s),
        _ => false,
    }
}

/// Statements that do not count as unreachable code.
fn inert(s: &Statement) -> bool {
    matches!(s.kind, StmtKind::Empty | StmtKind::Define(_) | StmtKind::Undef(_) | StmtKind::Case(_) | StmtKind::Default)
}

fn first_statement(items: &[Guarded<Statement>]) -> Option<Span> {
    let mut first = None;
    Guarded::for_each_item(items, &mut |s| {
        if first.is_none() && !inert(s) {
            first = Some(s.span);
        }
    });
    first
}

impl<'m> Flow<'m> {
    fn new(m: &'m Module) -> Self {
        Flow {
            m,
            out: Vec::new(),
            base: CondCtx::default(),
            path: Vec::new(),
            sites: Vec::new(),
            discards: Vec::new(),
            function: None,
        }
    }

    /// Report `rule` at `span` in the current conditional context.
    fn push(&mut self, rule: FlowRule, span: Span) {
        let ctx = self.context();
        self.push_in(rule, span, &ctx);
    }

    /// The context of the code being walked.
    fn context(&self) -> CondCtx {
        let mut ctx = self.base.clone();
        for &(region, branch) in &self.path {
            ctx = ctx.enter(self.m, region, branch);
        }
        ctx
    }

    /// Report `rule` at `span` in context `ctx`.
    fn push_in(&mut self, rule: FlowRule, span: Span, ctx: &CondCtx) {
        let severity = rule.severity();
        let mut notes = Vec::new();
        if !ctx.descriptions.is_empty() {
            notes.push(Note { span: None, message: format!("in variants where {}", ctx.descriptions.join(" and ")) });
        }
        self.out.push(Diagnostic { kind: DiagnosticType::Flow(rule), severity, span, notes });
    }

    /// Give the calls inside statement span `span` the current context (an inner statement walked later gives
    /// its own).
    fn calls_in(&mut self, span: Span) {
        let first = self.sites.partition_point(|&(s, ..)| (s.file, s.start) < (span.file, span.start));
        let count = self.sites[first..].iter().take_while(|(s, ..)| s.file == span.file && s.end <= span.end).count();
        if count == 0 {
            return;
        }
        let ctx = self.context();
        for site in &mut self.sites[first..first + count] {
            site.2 = Some(ctx.clone());
        }
    }

    fn region_each(&mut self, region: &'m CondRegion<Statement>, walk: &mut Walk) {
        for (i, b) in region.branches.iter().enumerate() {
            self.path.push((region, i as u32));
            self.block_stmts(&b.items, walk);
            self.path.pop();
        }
        if let Some(items) = &region.else_items {
            self.path.push((region, ELSE_BRANCH));
            self.block_stmts(items, walk);
            self.path.pop();
        }
    }

    /// One statement list (a block): unreachable code after a jump, then each statement.
    fn block_stmts(&mut self, stmts: &'m [Guarded<Statement>], walk: &mut Walk) {
        let mut ended = false;
        let mut reported = false;
        for item in stmts {
            match item {
                Guarded::Item(s) => {
                    if ended && !reported && !inert(s) {
                        self.push(FlowRule::UnreachableCode, s.span);
                        reported = true;
                    }
                    // A label starts a new reachable path in a switch.
                    if matches!(s.kind, StmtKind::Case(_) | StmtKind::Default) {
                        ended = false;
                        reported = false;
                    }
                    self.stmt(s, walk);
                    if jumps(s) {
                        ended = true;
                    }
                }
                Guarded::Cond(region) => {
                    if ended && !reported {
                        let first = region.branches.iter().find_map(|b| first_statement(&b.items));
                        if let Some(span) = first {
                            self.push(FlowRule::UnreachableCode, span);
                            reported = true;
                        }
                    }
                    self.region_each(region, walk);
                    if region_returns(region) {
                        ended = true;
                    }
                }
            }
        }
    }

    fn body(&mut self, construct: &str, body: &'m Statement, walk: &mut Walk) {
        if matches!(body.kind, StmtKind::Empty) {
            self.push(FlowRule::EmptyStatementBody { construct: construct.into() }, body.span);
        }
        self.stmt(body, walk);
    }

    fn stmt(&mut self, s: &'m Statement, walk: &mut Walk) {
        let misplaced = |keyword: &str, reason: &str| FlowRule::MisplacedControlFlow {
            keyword: keyword.into(),
            reason: reason.into(),
        };
        if !self.sites.is_empty() {
            self.calls_in(s.span);
        }
        match &s.kind {
            StmtKind::Break if walk.loops == 0 && walk.switches == 0 => {
                self.push(misplaced("break", "only inside a loop or a switch"), s.span)
            }
            StmtKind::Continue if walk.loops == 0 => self.push(misplaced("continue", "only inside a loop"), s.span),
            StmtKind::Case(_) if walk.switches == 0 => self.push(misplaced("case", "only inside a switch"), s.span),
            StmtKind::Default if walk.switches == 0 => self.push(misplaced("default", "only inside a switch"), s.span),
            StmtKind::Discard if walk.vertex => {
                if let Some(f) = self.function {
                    let ctx = self.context();
                    self.discards.push((f, s.span, ctx));
                }
            }
            StmtKind::Block(b) => self.block_stmts(&b.stmts, walk),
            StmtKind::If { accept, reject, .. } => {
                self.body("if", accept, walk);
                if let Some(r) = reject {
                    self.body("else", r, walk);
                }
            }
            StmtKind::For { body, .. } => {
                let mut inner = Walk { loops: walk.loops + 1, ..*walk };
                self.body("for", body, &mut inner);
            }
            StmtKind::While { body, .. } => {
                let mut inner = Walk { loops: walk.loops + 1, ..*walk };
                self.body("while", body, &mut inner);
            }
            StmtKind::DoWhile { body, .. } => {
                let mut inner = Walk { loops: walk.loops + 1, ..*walk };
                self.stmt(body, &mut inner);
            }
            StmtKind::Switch { body, .. } => {
                self.switch(s, body);
                let mut inner = Walk { switches: walk.switches + 1, ..*walk };
                self.block_stmts(&body.stmts, &mut inner);
            }
            _ => {}
        }
    }

    fn switch(&mut self, s: &Statement, body: &Block) {
        let defaults: Vec<Span> = body
            .stmts
            .iter()
            .filter_map(|i| match i {
                Guarded::Item(st) if matches!(st.kind, StmtKind::Default) => Some(st.span),
                _ => None,
            })
            .collect();
        let conditional_default = body.stmts.iter().any(|i| match i {
            Guarded::Cond(_) => {
                let mut any = false;
                Guarded::for_each_item(std::slice::from_ref(i), &mut |st| any |= matches!(st.kind, StmtKind::Default));
                any
            }
            _ => false,
        });
        if defaults.len() > 1 {
            self.push(FlowRule::InvalidSwitchDefault { duplicate: true }, defaults[1]);
            if let Some(d) = self.out.last_mut() {
                d.notes.insert(0, Note { span: Some(defaults[0]), message: "the first 'default' is here".into() });
            }
        } else if defaults.is_empty() && !conditional_default {
            let keyword = Span::new(s.span.file, s.span.start, s.span.start + 6);
            self.push(FlowRule::InvalidSwitchDefault { duplicate: false }, keyword);
        }
    }
}
