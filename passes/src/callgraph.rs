//! The call graph: which user functions each function calls, per pass and entry the reachable functions in
//! callee-before-caller order (the order backends emit them in), and recursion cycles.
//!
//! Input contract: the module, its [`Resolution`] and [`Typing`]. A call whose overload typing resolved has one
//! edge; a call typing could not resolve (unknown argument types) has an edge to every user candidate the
//! resolution found, so reachability never misses a function.

use crate::clue::{PassClue, PassClueKind, PassNote};
use crate::resolve::{CallTarget, PassEntries, Resolution};
use crate::table::{filled_map, Owner};
use crate::typing::{Callee, Typing};
use cranelift_entity::{EntityRef, SecondaryMap};
use petgraph::graph::{DiGraph, NodeIndex};
use shaderlab_ir::hash::FastHashMap as HashMap;
use shaderlab_ir::{Expr, ExprId, FunctionId, Guarded, Module, Name, PassId, PassKind, Span};

/// One call site.
#[derive(Clone, Debug, PartialEq)]
pub struct CallSite {
    pub callee: FunctionId,
    pub span: Span,
}

#[derive(Debug, Default)]
pub struct CallGraph {
    /// Calls made by each function, in source order.
    pub calls: SecondaryMap<FunctionId, Vec<CallSite>>,
    /// Per pass: (vertex entry, fragment entry) definitions.
    pub entries: SecondaryMap<PassId, (Option<FunctionId>, Option<FunctionId>)>,
    /// Per pass: functions reachable from the vertex entry, callees before callers, entry last.
    pub vertex_order: SecondaryMap<PassId, Vec<FunctionId>>,
    pub fragment_order: SecondaryMap<PassId, Vec<FunctionId>>,
    pub clues: Vec<PassClue>,
}

/// The call graph, given the entries of every pass that name resolution found (which [`crate::run_passes`]
/// moves out of the resolution: nothing else reads them there, so `Facts::resolution` keeps none).
pub(crate) fn build_call_graph(m: &Module, res: &Resolution, typing: &Typing, entries: PassEntries) -> CallGraph {
    let mut out = CallGraph {
        calls: filled_map(m.functions.len()),
        entries,
        vertex_order: filled_map(m.passes.len()),
        fragment_order: filled_map(m.passes.len()),
        clues: Vec::new(),
    };
    // A call to a prototype goes to the definition with the same name and parameter types, found once per
    // prototype among the definitions of its name (indexed at the first call to a prototype): no scan of every
    // function per call, which made many calls to many prototypes quadratic.
    let mut definitions: Option<HashMap<Name, Vec<FunctionId>>> = None;
    let mut found: SecondaryMap<FunctionId, Option<FunctionId>> = SecondaryMap::new();
    let mut definition = |f: FunctionId| -> FunctionId {
        if m.functions[f].body.is_some() {
            return f;
        }
        if let Some(d) = found[f] {
            return d;
        }
        let by_name = definitions.get_or_insert_with(|| {
            let mut by_name: HashMap<Name, Vec<FunctionId>> = HashMap::default();
            for (id, d) in m.functions.iter().filter(|(_, d)| d.body.is_some()) {
                by_name.entry(d.name).or_default().push(id);
            }
            by_name
        });
        let same_name = by_name.get(&m.functions[f].name).map_or(&[][..], Vec::as_slice);
        let d = same_name.iter().copied().find(|&id| same_params(m, typing, f, id)).unwrap_or(f);
        found[f] = Some(d);
        d
    };
    for (f, func) in m.functions.iter() {
        let owner = Owner::Function(f);
        let mut sites = Vec::new();
        // Only a call that resolution found callable has user targets (typing picks its overload among them):
        // the resolution's call targets (a small entry per expression) are read in arena order instead of every
        // expression.
        let callees = typing.callees.get_arena(owner);
        debug_assert!(
            callees.values().zip(res.calls.get_arena(owner).values()).all(|(callee, target)| !matches!(
                callee,
                Callee::User(_)
            ) || matches!(
                target,
                CallTarget::Callable { .. }
            )),
            "a user callee outside a callable call would be missing from the call graph"
        );
        for (i, target) in res.calls.get_arena(owner).values().enumerate() {
            let CallTarget::Callable { user, .. } = target else { continue };
            let e = ExprId::new(i);
            let targets: &[FunctionId] = match callees.get(e) {
                Callee::User(t) => std::slice::from_ref(t),
                Callee::Builtin(_) | Callee::Struct(_) => &[],
                Callee::None => res.functions(*user),
            };
            if targets.is_empty() {
                continue;
            }
            let Expr::Call { callee_span, .. } = &func.exprs[e].kind else { continue };
            for &t in targets {
                sites.push(CallSite { callee: definition(t), span: *callee_span });
            }
        }
        out.calls[f] = sites;
    }

    let mut walk = Walk::default();
    if walk.has_cycle(&out.calls) {
        out.clues = recursion_clues(m, &out.calls);
    }

    // Per pass: entries and reachable functions, callees first.
    for (pass, p) in m.passes.iter() {
        if !matches!(p.kind, PassKind::Program { .. }) {
            continue;
        }
        let (v, fr) = out.entries[pass];
        out.vertex_order[pass] = walk.post_order(&out.calls, v);
        out.fragment_order[pass] = walk.post_order(&out.calls, fr);
    }
    out
}

/// Buffers for walks of the call graph (kept from one walk to the next).
#[derive(Default)]
struct Walk {
    /// Per function: 0 not seen yet, else a set of `ON_PATH`, `DISCOVERED`, `FINISHED`.
    state: Vec<u8>,
    /// The path of [`Walk::has_cycle`]: each function with the number of its calls followed so far.
    path: Vec<(FunctionId, usize)>,
    /// The functions [`Walk::post_order`] has still to visit or finish.
    stack: Vec<FunctionId>,
}

const ON_PATH: u8 = 1;
const DISCOVERED: u8 = 2;
const FINISHED: u8 = 4;

impl Walk {
    fn reset(&mut self, functions: usize) {
        self.state.clear();
        self.state.resize(functions, 0);
        self.path.clear();
        self.stack.clear();
    }

    /// Whether the graph of `calls` has a cycle (a function that calls itself, directly or not).
    fn has_cycle(&mut self, calls: &SecondaryMap<FunctionId, Vec<CallSite>>) -> bool {
        // Without calls, no cycle (and no walk state to set up).
        if calls.values().all(Vec::is_empty) {
            return false;
        }
        self.reset(calls.values().len());
        let Walk { state, path, .. } = self;
        for root in calls.keys() {
            if state[root.index()] != 0 {
                continue;
            }
            state[root.index()] = ON_PATH;
            path.push((root, 0));
            while let Some((f, next)) = path.last_mut() {
                let f = *f;
                match calls[f].get(*next) {
                    Some(site) => {
                        *next += 1;
                        match state.get(site.callee.index()) {
                            Some(&ON_PATH) => return true,
                            Some(0) => {
                                state[site.callee.index()] = ON_PATH;
                                path.push((site.callee, 0));
                            }
                            _ => {}
                        }
                    }
                    None => {
                        state[f.index()] = FINISHED;
                        path.pop();
                    }
                }
            }
        }
        false
    }

    /// The functions reachable from `entry`, callees before callers, `entry` last: a depth-first walk that
    /// follows each function's calls in source order.
    fn post_order(
        &mut self,
        calls: &SecondaryMap<FunctionId, Vec<CallSite>>,
        entry: Option<FunctionId>,
    ) -> Vec<FunctionId> {
        let Some(entry) = entry else { return Vec::new() };
        if calls[entry].is_empty() {
            return vec![entry];
        }
        self.reset(calls.values().len());
        let Walk { state, stack, .. } = self;
        let mut list = Vec::new();
        stack.push(entry);
        while let Some(&f) = stack.last() {
            let Some(s) = state.get_mut(f.index()) else {
                stack.pop();
                continue;
            };
            if *s & DISCOVERED == 0 {
                // First visit: its callees go on the stack, the first call on top.
                *s |= DISCOVERED;
                for site in calls[f].iter().rev() {
                    if state.get(site.callee.index()).is_some_and(|s| s & DISCOVERED == 0) {
                        stack.push(site.callee);
                    }
                }
            } else {
                stack.pop();
                if *s & FINISHED == 0 {
                    *s |= FINISHED;
                    list.push(f);
                }
            }
        }
        list
    }
}

/// A clue per recursion cycle (each strongly connected component with a cycle, once).
fn recursion_clues(m: &Module, calls: &SecondaryMap<FunctionId, Vec<CallSite>>) -> Vec<PassClue> {
    let mut out = Vec::new();
    let mut graph: DiGraph<FunctionId, Span> = DiGraph::new();
    // One node per function, added in function order: a function's node index is its own index.
    for f in m.functions.keys() {
        graph.add_node(f);
    }
    let node = |f: FunctionId| NodeIndex::new(f.index());
    for (f, sites) in calls.iter() {
        for s in sites {
            graph.add_edge(node(f), node(s.callee), s.span);
        }
    }
    for scc in petgraph::algo::tarjan_scc(&graph) {
        let cyclic = scc.len() > 1 || scc.first().is_some_and(|&n| graph.find_edge(n, n).is_some());
        if !cyclic {
            continue;
        }
        let mut members: Vec<FunctionId> = scc.iter().map(|&n| graph[n]).collect();
        members.sort_by_key(|f| (m.functions[*f].span.file, m.functions[*f].span.start));
        let first = members[0];
        // The call inside the cycle that targets its first function.
        let Some((caller, site)) =
            members.iter().find_map(|&c| calls[c].iter().find(|s| s.callee == first).map(|s| (c, s.clone())))
        else {
            continue;
        };
        let name = m.name(m.functions[first].name).to_owned();
        let cycle = members.iter().map(|f| m.name(m.functions[*f].name).to_owned()).collect();
        let mut clue = PassClue::new(PassClueKind::Recursion { function: name, cycle }, site.span);
        for &c in &members {
            for s in &calls[c] {
                if members.contains(&s.callee) && !(c == caller && s.span == site.span) {
                    clue.notes.push(PassNote {
                        span: Some(s.span),
                        message: format!(
                            "'{}' calls '{}' here",
                            m.name(m.functions[c].name),
                            m.name(m.functions[s.callee].name)
                        ),
                    });
                }
            }
        }
        out.push(clue);
    }
    out
}

fn same_params(m: &Module, typing: &Typing, a: FunctionId, b: FunctionId) -> bool {
    let params = |id: FunctionId| -> Vec<Option<crate::ty::Ty>> {
        let mut out = Vec::new();
        Guarded::for_each_item(&m.functions[id].params, &mut |p| {
            if let shaderlab_ir::ParamKind::Declared { local } = p.kind {
                out.push(typing.locals[id][local]);
            }
        });
        out
    };
    params(a) == params(b)
}
