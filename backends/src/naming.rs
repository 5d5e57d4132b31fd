//! Keyword-safe, collision-free names for user identifiers of one stage (`codegen.md` §10).
//!
//! A user identifier is renamed when it is a keyword or reserved word of the target, starts with `gl_`, contains
//! `__`, hides a builtin function the writer introduces (`texture` in ES 3.00), or would capture a stage variable
//! the rewrite introduces (a local `uv` in a function that now reads the varying `uv`; a function or constant named
//! like an attribute). The new name is `<name>_<k>` with the smallest `k` free in the stage, chosen in sorted
//! order, so the same input always gives the same names. Interface names are never renamed.

use crate::dialect::Dialect;
use crate::plan::StagePlan;
use shaderlab_ir::hash::{FastHashMap as HashMap, FastHashSet as HashSet};
use shaderlab_ir::{FunctionId, Guarded, LocalId, Module, Name};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

pub(crate) struct Naming<'a> {
    dialect: &'a dyn Dialect,
    /// Functions, structs and non-uniform globals (one namespace).
    globals: HashMap<Name, String>,
    /// Struct members.
    members: HashMap<Name, String>,
    /// Locals by function and name (alternatives from exclusive branches share one name).
    locals: HashMap<(FunctionId, Name), String>,
    /// Every name of the stage (the module's names borrowed).
    used: HashSet<Cow<'a, str>>,
}

impl<'a> Naming<'a> {
    /// Whether a name cannot be a user identifier in the target.
    pub(crate) fn is_bad(dialect: &dyn Dialect, name: &str) -> bool {
        dialect.is_reserved(name) || name.starts_with("gl_") || name.contains("__")
    }

    /// `interface`: every interface name of the stage; `references`: per function, the interface names its
    /// rewritten code mentions.
    pub(crate) fn build(
        m: &'a Module,
        plan: &StagePlan,
        dialect: &'a dyn Dialect,
        uniforms: &BTreeSet<Name>,
        interface: &BTreeMap<String, &'static str>,
        references: &HashMap<FunctionId, BTreeSet<String>>,
    ) -> Naming<'a> {
        let mut n = Naming {
            dialect,
            globals: HashMap::default(),
            members: HashMap::default(),
            locals: HashMap::default(),
            used: HashSet::default(),
        };
        n.used.reserve(interface.len() + 1 + plan.functions.len() * 8 + plan.globals.len() + m.macros.len());
        n.used.extend(interface.keys().map(|k| Cow::Owned(k.clone())));
        n.used.insert(Cow::Borrowed("main"));
        let introduced: HashSet<&str> = dialect.introduced_builtins().iter().copied().collect();
        // Every name of the stage, so that new names are fresh.
        let mut global_names: BTreeSet<(&str, Name, bool)> = BTreeSet::new();
        let mut member_names: BTreeSet<(&str, Name)> = BTreeSet::new();
        for f in sorted(&plan.functions) {
            let Some(func) = m.functions.get(f) else { continue };
            if f != plan.entry {
                global_names.insert((m.name(func.name), func.name, false));
            }
            for (_, local) in func.locals.iter() {
                n.used.insert(Cow::Borrowed(m.name(local.name)));
            }
        }
        for g in sorted(&plan.globals) {
            let Some(global) = m.globals.get(g) else { continue };
            if global.is_uniform() {
                n.used.insert(Cow::Borrowed(m.name(global.name)));
            } else {
                global_names.insert((m.name(global.name), global.name, true));
            }
        }
        let mut struct_ids: Vec<_> = plan.structs.iter().copied().collect();
        for f in sorted(&plan.functions) {
            // Structs declared inside functions.
            if let Some(body) = m.functions.get(f).and_then(|func| func.body.as_ref()) {
                collect_local_structs(&body.stmts, &mut struct_ids);
            }
        }
        struct_ids.sort();
        struct_ids.dedup();
        for s in struct_ids {
            let Some(decl) = m.structs.get(s) else { continue };
            global_names.insert((m.name(decl.name), decl.name, false));
            Guarded::for_each_item(&decl.members, &mut |mem| {
                member_names.insert((m.name(mem.name), mem.name));
            });
        }
        for (text, _, _) in &global_names {
            n.used.insert(Cow::Borrowed(text));
        }
        for (text, _) in &member_names {
            n.used.insert(Cow::Borrowed(text));
        }
        for (_, def) in m.macros.iter() {
            n.used.insert(Cow::Borrowed(m.name(def.name)));
        }
        // Globals: keywords, and names the interface now uses.
        for (text, name, is_variable) in global_names {
            if uniforms.contains(&name) {
                continue;
            }
            let clash = interface.contains_key(text) || text == "main" || (is_variable && introduced.contains(text));
            if (clash || Self::is_bad(dialect, text)) && !n.globals.contains_key(&name) {
                let new = n.fresh(text);
                n.globals.insert(name, new);
            }
        }
        for (text, name) in member_names {
            if Self::is_bad(dialect, text) {
                let new = n.fresh(text);
                n.members.insert(name, new);
            }
        }
        for f in sorted(&plan.functions) {
            let Some(func) = m.functions.get(f) else { continue };
            let refs = references.get(&f);
            let mut names: BTreeSet<(&str, Name)> = BTreeSet::new();
            for (_, local) in func.locals.iter() {
                names.insert((m.name(local.name), local.name));
            }
            for (text, name) in names {
                if text.is_empty() {
                    continue;
                }
                let captures = refs.is_some_and(|r| r.contains(text));
                if captures || introduced.contains(text) || Self::is_bad(dialect, text) {
                    let new = n.fresh(text);
                    n.locals.insert((f, name), new);
                }
            }
        }
        n
    }

    /// A new name based on `base`, free in the stage and allowed in the target.
    pub(crate) fn fresh(&mut self, base: &str) -> String {
        let mut stem = base.replace("__", "_");
        if stem.starts_with("gl_") {
            stem.insert(0, 'x');
        }
        let stem = stem.trim_end_matches('_').to_owned();
        let stem = if stem.is_empty() { "x".to_owned() } else { stem };
        let mut k = 1u32;
        loop {
            let candidate = format!("{stem}_{k}");
            if !self.used.contains(candidate.as_str()) && !Self::is_bad(self.dialect, &candidate) {
                self.used.insert(Cow::Owned(candidate.clone()));
                return candidate;
            }
            k += 1;
        }
    }

    pub(crate) fn global<'m>(&'m self, m: &'m Module, name: Name) -> &'m str {
        self.globals.get(&name).map(String::as_str).unwrap_or_else(|| m.name(name))
    }

    pub(crate) fn member<'m>(&'m self, m: &'m Module, name: Name) -> &'m str {
        self.members.get(&name).map(String::as_str).unwrap_or_else(|| m.name(name))
    }

    pub(crate) fn local<'m>(&'m self, m: &'m Module, f: FunctionId, l: LocalId) -> &'m str {
        let name = m.functions.get(f).and_then(|func| func.locals.get(l)).map(|local| local.name);
        match name {
            Some(name) => self.locals.get(&(f, name)).map(String::as_str).unwrap_or_else(|| m.name(name)),
            None => "",
        }
    }
}

fn sorted<T: Copy + Ord>(set: &HashSet<T>) -> Vec<T> {
    let mut v: Vec<T> = set.iter().copied().collect();
    v.sort();
    v
}

fn collect_local_structs(stmts: &[Guarded<shaderlab_ir::Statement>], out: &mut Vec<shaderlab_ir::StructId>) {
    use shaderlab_ir::StmtKind;
    fn stmt(s: &shaderlab_ir::Statement, out: &mut Vec<shaderlab_ir::StructId>) {
        match &s.kind {
            StmtKind::Struct { id, .. } => out.push(*id),
            StmtKind::Block(b) => collect_local_structs(&b.stmts, out),
            StmtKind::Switch { body, .. } => collect_local_structs(&body.stmts, out),
            StmtKind::If { accept, reject, .. } => {
                stmt(accept, out);
                if let Some(r) = reject {
                    stmt(r, out);
                }
            }
            StmtKind::For { init, body, .. } => {
                if let Some(i) = init {
                    stmt(i, out);
                }
                stmt(body, out);
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => stmt(body, out),
            _ => {}
        }
    }
    Guarded::for_each_item(stmts, &mut |s| stmt(s, out));
}
