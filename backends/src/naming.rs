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

pub(crate) struct Naming<'a> {
    dialect: &'a dyn Dialect,
    /// Functions, structs and non-uniform globals (one namespace).
    globals: HashMap<Name, String>,
    /// Struct members.
    members: HashMap<Name, String>,
    /// Locals by function and name (alternatives from exclusive branches share one name).
    locals: HashMap<(FunctionId, Name), String>,
    /// The functions with a renamed local, sorted (few): most local names are looked up without hashing.
    renamed_in: Vec<FunctionId>,
    m: &'a Module,
    /// The module's names the stage uses (functions, locals, globals, structs, members); macro names count too
    /// but are looked up only when a new name is made. Few stages make new names: the names are listed while
    /// building; `is_used` scans the list for its first few lookups (`scans`), then hashes it into `used_set`.
    used_names: Vec<Name>,
    used_set: Option<HashSet<Name>>,
    /// How many candidate names were looked for in `used_names` by a scan; after a few the list is hashed.
    scans: usize,
    /// Every interface name of the stage (never renamed, so taken).
    interface: &'a crate::writer::InterfaceNames<'a>,
    /// The new names made so far (with the interface names and `main`, the names that are not module names).
    used_text: HashSet<String>,
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
        interface: &'a crate::writer::InterfaceNames<'a>,
        references: &crate::writer::References,
    ) -> Naming<'a> {
        let mut n = Naming {
            dialect,
            globals: HashMap::default(),
            members: HashMap::default(),
            locals: HashMap::default(),
            renamed_in: Vec::new(),
            m,
            used_names: Vec::new(),
            used_set: None,
            scans: 0,
            interface,
            used_text: HashSet::default(),
        };
        // A handful of words: a scan is cheaper than hashing each name.
        let introduced: &[&str] = dialect.introduced_builtins();
        // Every name of the stage, so that new names are fresh. New names are made in sorted order (of the
        // names that need one), so that the same input always gives the same names.
        let mut global_names: Vec<(&str, Name, bool)> = Vec::new();
        let mut member_names: Vec<(&str, Name)> = Vec::new();
        for f in plan.functions.iter() {
            let Some(func) = m.functions.get(f) else { continue };
            if f != plan.entry {
                global_names.push((m.name(func.name), func.name, false));
            }
            for (_, local) in func.locals.iter() {
                n.used_names.push(local.name);
            }
        }
        // The uniforms' names, sorted: a function or struct named like one keeps its name.
        let mut uniforms: Vec<Name> = Vec::new();
        for g in plan.globals.iter() {
            let Some(global) = m.globals.get(g) else { continue };
            if global.is_uniform() {
                n.used_names.push(global.name);
                uniforms.push(global.name);
            } else {
                global_names.push((m.name(global.name), global.name, true));
            }
        }
        // Structs declared globally and inside functions.
        let mut struct_ids: Vec<_> = plan.structs.iter().chain(plan.local_structs.iter().copied()).collect();
        struct_ids.sort();
        struct_ids.dedup();
        for s in struct_ids {
            let Some(decl) = m.structs.get(s) else { continue };
            global_names.push((m.name(decl.name), decl.name, false));
            Guarded::for_each_item(&decl.members, &mut |mem| {
                member_names.push((m.name(mem.name), mem.name));
            });
        }
        for (_, name, _) in &global_names {
            n.used_names.push(*name);
        }
        for (_, name) in &member_names {
            n.used_names.push(*name);
        }
        uniforms.sort_unstable();
        // Globals: keywords, and names the interface now uses.
        let mut renamed: Vec<(&str, Name, bool)> = global_names
            .into_iter()
            .filter(|&(text, name, is_variable)| {
                let clash =
                    interface.contains_key(text) || text == "main" || (is_variable && introduced.contains(&text));
                uniforms.binary_search(&name).is_err() && (clash || Self::is_bad(dialect, text))
            })
            .collect();
        renamed.sort_unstable();
        renamed.dedup();
        for (text, name, _) in renamed {
            if !n.globals.contains_key(&name) {
                let new = n.fresh(text);
                n.globals.insert(name, new);
            }
        }
        let mut renamed: Vec<(&str, Name)> =
            member_names.into_iter().filter(|&(text, _)| Self::is_bad(dialect, text)).collect();
        renamed.sort_unstable();
        renamed.dedup();
        for (text, name) in renamed {
            let new = n.fresh(text);
            n.members.insert(name, new);
        }
        let mut renamed: Vec<(&str, Name)> = Vec::new();
        for f in plan.functions.iter() {
            let Some(func) = m.functions.get(f) else { continue };
            let refs = references.binary_search_by_key(&f, |(g, _)| *g).ok().map(|i| &references[i].1);
            renamed.clear();
            for (_, local) in func.locals.iter() {
                let text = m.name(local.name);
                if text.is_empty() {
                    continue;
                }
                let captures = refs.is_some_and(|r| r.binary_search(&local.name).is_ok());
                if captures || introduced.contains(&text) || Self::is_bad(dialect, text) {
                    renamed.push((text, local.name));
                }
            }
            renamed.sort_unstable();
            renamed.dedup();
            for &(text, name) in &renamed {
                let new = n.fresh(text);
                n.locals.insert((f, name), new);
            }
            if !renamed.is_empty() {
                // The set iterates in id order: this list is sorted.
                n.renamed_in.push(f);
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
            if !self.is_used(&candidate) && !Self::is_bad(self.dialect, &candidate) {
                self.used_text.insert(candidate.clone());
                return candidate;
            }
            k += 1;
        }
    }

    /// Whether a name is taken in the stage: a name of its code, an interface name, a macro, a new name.
    fn is_used(&mut self, text: &str) -> bool {
        if self.interface.contains_key(text) || text == "main" || self.used_text.contains(text) {
            return true;
        }
        let Some(name) = self.m.names.lookup(text) else { return false };
        // Most candidates are not module names at all; the few that are, are looked for by a scan until hashing
        // the list pays.
        const SCANS: usize = 16;
        let used = match &self.used_set {
            Some(set) => set.contains(&name),
            None if self.scans < SCANS => {
                self.scans += 1;
                self.used_names.contains(&name)
            }
            None => {
                let set: HashSet<Name> = self.used_names.iter().copied().collect();
                let used = set.contains(&name);
                self.used_set = Some(set);
                used
            }
        };
        used || self.m.macros.values().any(|d| d.name == name)
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
            Some(name) if self.renamed_in.binary_search(&f).is_ok() => {
                self.locals.get(&(f, name)).map(String::as_str).unwrap_or_else(|| m.name(name))
            }
            Some(name) => m.name(name),
            None => "",
        }
    }
}
