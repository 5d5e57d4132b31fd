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
use shaderlab_ir::{FunctionId, Guarded, LocalId, Module, Name, StructId};

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
    plan: &'a StagePlan,
    /// The module's names the stage uses, made when a new name first needs them (see [`UsedNames`]).
    used: UsedNames,
    /// Every interface name of the stage (never renamed, so taken).
    interface: &'a crate::writer::InterfaceNames<'a>,
    /// The new names made so far (with the interface names and `main`, the names that are not module names).
    used_text: HashSet<String>,
}

/// The module's names a stage uses (functions, locals, globals, structs, members; macro names count too but are
/// looked up apart). Only a new name needs them, and few stages make one: the list is made at the first lookup
/// ([`stage_names`]), scanned for the first few lookups, then hashed.
enum UsedNames {
    /// Not made yet.
    Unmade,
    /// The list, and how many lookups scanned it so far.
    Listed(Vec<Name>, usize),
    Hashed(HashSet<Name>),
}

/// Visit the structs a stage declares: globally and inside functions (a struct may come twice).
fn for_each_struct(plan: &StagePlan, f: &mut impl FnMut(StructId)) {
    for s in plan.structs.iter() {
        f(s);
    }
    for &s in &plan.local_structs {
        f(s);
    }
}

/// The module's names a stage uses: its functions' names and locals, its globals, its structs and their members
/// (a name may come more than once).
fn stage_names(m: &Module, plan: &StagePlan) -> Vec<Name> {
    let mut out = Vec::new();
    for f in plan.functions.iter() {
        let Some(func) = m.functions.get(f) else { continue };
        if f != plan.entry {
            out.push(func.name);
        }
        out.extend(func.locals.values().map(|local| local.name));
    }
    out.extend(plan.globals.iter().filter_map(|g| m.globals.get(g)).map(|g| g.name));
    for_each_struct(plan, &mut |s| {
        let Some(decl) = m.structs.get(s) else { return };
        out.push(decl.name);
        Guarded::for_each_item(&decl.members, &mut |mem| out.push(mem.name));
    });
    out
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
        plan: &'a StagePlan,
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
            plan,
            used: UsedNames::Unmade,
            interface,
            used_text: HashSet::default(),
        };
        // A handful of words: a scan is cheaper than hashing each name.
        let introduced: &[&str] = dialect.introduced_builtins();
        // The uniforms' names, sorted: a function or struct named like one keeps its name. Only a name that
        // would be renamed asks (few do): the list is made then.
        let mut uniforms: Option<Vec<Name>> = None;
        let uniform_names = || {
            let mut list: Vec<Name> = plan
                .globals
                .iter()
                .filter_map(|g| m.globals.get(g))
                .filter(|g| g.is_uniform())
                .map(|g| g.name)
                .collect();
            list.sort_unstable();
            list
        };
        // Globals (functions, non-uniform globals, structs) that need a new name: keywords, and names the
        // interface now uses. New names are made in sorted order (of the names that need one), so that the same
        // input always gives the same names.
        let mut renamed: Vec<(&str, Name, bool)> = Vec::new();
        let mut global = |name: Name, is_variable: bool| {
            let text = m.name(name);
            let clash = interface.contains_key(text) || text == "main" || (is_variable && introduced.contains(&text));
            if (clash || Self::is_bad(dialect, text))
                && uniforms.get_or_insert_with(uniform_names).binary_search(&name).is_err()
            {
                renamed.push((text, name, is_variable));
            }
        };
        for f in plan.functions.iter() {
            if f != plan.entry {
                if let Some(func) = m.functions.get(f) {
                    global(func.name, false);
                }
            }
        }
        for g in plan.globals.iter() {
            if let Some(var) = m.globals.get(g).filter(|g| !g.is_uniform()) {
                global(var.name, true);
            }
        }
        // Struct members that need a new name: keywords.
        let mut renamed_members: Vec<(&str, Name)> = Vec::new();
        for_each_struct(plan, &mut |s| {
            let Some(decl) = m.structs.get(s) else { return };
            global(decl.name, false);
            Guarded::for_each_item(&decl.members, &mut |mem| {
                let text = m.name(mem.name);
                if Self::is_bad(dialect, text) {
                    renamed_members.push((text, mem.name));
                }
            });
        });
        renamed.sort_unstable();
        renamed.dedup();
        for (text, name, _) in renamed {
            if !n.globals.contains_key(&name) {
                let new = n.fresh(text);
                n.globals.insert(name, new);
            }
        }
        renamed_members.sort_unstable();
        renamed_members.dedup();
        for (text, name) in renamed_members {
            let new = n.fresh(text);
            n.members.insert(name, new);
        }
        let mut renamed: Vec<(&str, Name)> = Vec::new();
        for f in plan.functions.iter() {
            let Some(func) = m.functions.get(f) else { continue };
            let refs = references.get(f);
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
        let used = match &mut self.used {
            UsedNames::Unmade => {
                let list = stage_names(self.m, self.plan);
                let used = list.contains(&name);
                self.used = UsedNames::Listed(list, 1);
                used
            }
            UsedNames::Listed(list, scans) if *scans < SCANS => {
                *scans += 1;
                list.contains(&name)
            }
            UsedNames::Listed(list, _) => {
                let set: HashSet<Name> = list.iter().copied().collect();
                let used = set.contains(&name);
                self.used = UsedNames::Hashed(set);
                used
            }
            UsedNames::Hashed(set) => set.contains(&name),
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
