//! Reflection of a pass (`codegen.md`, "The compile result"): what the emitted stages declare, by name, as the
//! engine binds it. Collected while writing, so it describes exactly the emitted text.

use crate::plan::{IdSet, ProgramPlan};
use crate::Stage;
use shaderlab_ir::hash::{FastHashMap, FastHashSet};
use shaderlab_ir::{GlobalItem, Guarded, Interner, Module, Name};
use std::collections::BTreeSet;

/// An attribute: name and GLSL type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReflectedVariable {
    pub name: String,
    pub ty: String,
}

/// A varying with its interpolation (`smooth`, `flat`, `centroid`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReflectedVarying {
    pub name: String,
    pub ty: String,
    pub interpolation: String,
}

/// A uniform (or sampler) and the stages that declare it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReflectedUniform {
    pub name: String,
    pub ty: String,
    pub stages: Vec<Stage>,
}

/// A fragment output and its location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReflectedOutput {
    pub name: String,
    pub ty: String,
    pub location: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reflection {
    pub attributes: Vec<ReflectedVariable>,
    pub varyings: Vec<ReflectedVarying>,
    pub uniforms: Vec<ReflectedUniform>,
    pub samplers: Vec<ReflectedUniform>,
    pub outputs: Vec<ReflectedOutput>,
    /// Every macro name a conditional or a run-time macro use of the emitted stages depends on, sorted: the
    /// variant keys of the pass (macros the source defines unconditionally and `GL_` names are not keys).
    pub macros: Vec<String>,
}

/// The reflected lists found by name through [`Collector::index`] when they are long.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Listed {
    Uniforms,
    Samplers,
    Attributes,
    Varyings,
}

#[derive(Default)]
pub(crate) struct Collector {
    reflection: Reflection,
    /// Names tested by emitted conditions (a bit per interned name: they are asked for at every condition; the
    /// text and its order come at [`Collector::finish`]).
    macros: IdSet<Name>,
    /// Macro names used in emitted code.
    uses: IdSet<Name>,
    /// Where each uniform and sampler is in its reflection list (not used when `scan`), and each attribute and
    /// varying once its list is longer than [`crate::SCANNED`] (a shorter one is scanned: a pass has few, and then
    /// no table is made; a scan per declaration was quadratic in the size of the struct).
    index: FastHashMap<(Listed, Name), usize>,
    /// Whether uniforms are found by a scan of their list instead: a module with few globals has few uniforms,
    /// and then no hash table is made.
    scan: bool,
}

impl Collector {
    pub(crate) fn new(m: &Module) -> Collector {
        Collector { scan: m.globals.len() <= crate::SCANNED, ..Collector::default() }
    }

    /// Whether attribute `name` (the module's spelling of `key`) is reflected already.
    pub(crate) fn has_attribute(&self, key: Name, name: &str) -> bool {
        let spellings = self.reflection.attributes.iter().map(|a| a.name.as_str());
        self.listed(Listed::Attributes, spellings, key, name)
    }

    /// Whether varying `name` (the module's spelling of `key`) is reflected already.
    pub(crate) fn has_varying(&self, key: Name, name: &str) -> bool {
        let spellings = self.reflection.varyings.iter().map(|v| v.name.as_str());
        self.listed(Listed::Varyings, spellings, key, name)
    }

    /// Reflect attribute `name` (`m`'s spelling of `key`); the caller asked [`Collector::has_attribute`] first
    /// (and made no type text for one reflected already).
    pub(crate) fn attribute(&mut self, m: &Module, key: Name, name: &str, ty: String) {
        let list = &mut self.reflection.attributes;
        list.push(ReflectedVariable { name: name.into(), ty });
        index_long(&mut self.index, &m.names, Listed::Attributes, list.iter().map(|a| a.name.as_str()), key);
    }

    /// Reflect varying `name` (`m`'s spelling of `key`); the caller asked [`Collector::has_varying`] first.
    pub(crate) fn varying(&mut self, m: &Module, key: Name, name: &str, ty: String, interpolation: &str) {
        let list = &mut self.reflection.varyings;
        list.push(ReflectedVarying { name: name.into(), ty, interpolation: interpolation.into() });
        index_long(&mut self.index, &m.names, Listed::Varyings, list.iter().map(|v| v.name.as_str()), key);
    }

    /// Whether `key`, spelled `name`, is in list `kind`, whose names are `spellings`: scanned when the list is
    /// short, else looked up in the index.
    fn listed<'r>(
        &self,
        kind: Listed,
        spellings: impl ExactSizeIterator<Item = &'r str>,
        key: Name,
        name: &str,
    ) -> bool {
        let mut spellings = spellings;
        if spellings.len() <= crate::SCANNED {
            crate::work::count(spellings.len());
            spellings.any(|n| n == name)
        } else {
            crate::work::count(1);
            self.index.contains_key(&(kind, key))
        }
    }

    /// A uniform `name` (the module's spelling of `key`) of type `ty`, declared in `stage`.
    pub(crate) fn uniform(&mut self, key: Name, name: &str, ty: String, sampler: bool, stage: Stage) {
        let (list, kind) = if sampler {
            (&mut self.reflection.samplers, Listed::Samplers)
        } else {
            (&mut self.reflection.uniforms, Listed::Uniforms)
        };
        // Uniforms may be many: then they are found by name through an index instead of a scan of the list (which
        // compares spellings: `name` is the module's spelling of `key`, so equal names are equal keys).
        let found =
            if self.scan { list.iter().position(|u| u.name == name) } else { self.index.get(&(kind, key)).copied() };
        match found {
            Some(i) => {
                let u = &mut list[i];
                if !u.stages.contains(&stage) {
                    u.stages.push(stage);
                    u.stages.sort();
                }
            }
            None => {
                if !self.scan {
                    self.index.insert((kind, key), list.len());
                }
                list.push(ReflectedUniform { name: name.into(), ty, stages: vec![stage] });
            }
        }
    }

    pub(crate) fn output(&mut self, name: &str, ty: &str, location: i64) {
        if !self.reflection.outputs.iter().any(|o| o.name == name) {
            self.reflection.outputs.push(ReflectedOutput { name: name.into(), ty: ty.into(), location });
        }
    }

    /// A macro name tested by an emitted condition.
    pub(crate) fn macro_name(&mut self, name: Name) {
        self.macros.insert(name);
    }

    /// A macro used in emitted code: run-time macros are keys; macros of the source are keyed by the
    /// conditions around their definitions, which are emitted.
    pub(crate) fn macro_use(&mut self, name: Name) {
        self.uses.insert(name);
    }

    pub(crate) fn finish(mut self, m: &Module, program: &ProgramPlan) -> Reflection {
        // By interned name: the scope chain may define thousands of macros.
        let mut fixed: FastHashSet<Name> = FastHashSet::default();
        let mut defined: FastHashSet<Name> = FastHashSet::default();
        if !self.macros.is_empty() || !self.uses.is_empty() {
            for &s in &program.scopes {
                if let Some(scope) = m.scopes.get(s) {
                    unconditional_defines(m, &scope.items, &mut fixed);
                    if !self.uses.is_empty() {
                        Guarded::for_each_item(&scope.items, &mut |item| {
                            if let GlobalItem::Define(id) = item {
                                if let Some(def) = m.macros.get(*id) {
                                    defined.insert(def.name);
                                }
                            }
                        });
                    }
                }
            }
        }
        let uses = self.uses.iter().filter(|n| !defined.contains(n));
        self.reflection.macros = self
            .macros
            .iter()
            .chain(uses)
            // A kept include guard's macro is tested by an emitted `#ifndef`, but the source defines it.
            .filter(|n| !fixed.contains(n) && !m.guard_is_kept(*n))
            .map(|n| m.name(n))
            .filter(|n| !n.starts_with("GL_"))
            .collect::<BTreeSet<&str>>()
            .into_iter()
            .map(str::to_owned)
            .collect();
        self.reflection.outputs.sort_by_key(|o| o.location);
        self.reflection
    }
}

/// List `kind` got `key` as its last entry, and its names are now `spellings`: once it is longer than
/// [`crate::SCANNED`], every name of it is in `index` (the scanned ones are found by their spelling, once, when the
/// list outgrows the scan).
fn index_long<'r>(
    index: &mut FastHashMap<(Listed, Name), usize>,
    names: &Interner,
    kind: Listed,
    spellings: impl ExactSizeIterator<Item = &'r str>,
    key: Name,
) {
    let len = spellings.len();
    if len == crate::SCANNED + 1 {
        for (i, n) in spellings.enumerate() {
            if let Some(n) = names.lookup(n) {
                index.insert((kind, n), i);
            }
        }
    } else if len > crate::SCANNED {
        index.insert((kind, key), len - 1);
    }
}

/// Macros defined outside any conditional (include guards are transparent).
fn unconditional_defines(m: &Module, items: &[Guarded<GlobalItem>], out: &mut FastHashSet<Name>) {
    for item in items {
        match item {
            Guarded::Item(GlobalItem::Define(id)) => {
                if let Some(def) = m.macros.get(*id) {
                    out.insert(def.name);
                }
            }
            Guarded::Item(_) => {}
            Guarded::Cond(r) if crate::writer::include_guard(m, r) => {
                if let Some(b) = r.branches.first() {
                    unconditional_defines(m, &b.items, out);
                }
            }
            Guarded::Cond(_) => {}
        }
    }
}
