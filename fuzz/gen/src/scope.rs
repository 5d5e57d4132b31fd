//! What generated code at one point may use: the declarations in scope with their types and access, the
//! structs, the helper functions declared so far, and the macro conditions the point sits under.
//!
//! A [`Scope`] is a value: generating a statement takes one and gives back the scope after it (with the names
//! it declared). Names come from one counter threaded through the whole program, so no name is ever declared
//! twice (no shadowing, no redefinition) and no name is a keyword or a builtin.

use crate::ast::Name;
use crate::config::GeneratorConfig;
use crate::ty::Ty;
use std::sync::Arc;

/// One macro test: `NAME` is defined (`defined == true`) or not.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MacroLit {
    pub name: Name,
    pub defined: bool,
}

/// A conjunction of macro tests: the variants a declaration exists in, or the variants a point of the code is
/// compiled in. Empty: every variant.
pub type Guard = Vec<MacroLit>;

/// How code may use a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Readable, not writable: uniforms, stage inputs, loop indices, globals that are constants in some variants.
    Read,
    /// Readable and writable: locals, parameters, private globals, stage outputs.
    Write,
    /// A constant: readable, and usable in constant expressions.
    Const,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Var {
    pub name: Name,
    pub ty: Ty,
    pub access: Access,
    /// The variants the declaration exists in.
    pub guard: Guard,
    /// For a loop index `for (int i = 0; i < bound; ...)`: the bound (an index into arrays of at least that
    /// length).
    pub loop_bound: Option<u32>,
    /// For an integer constant with a literal initializer: its value (an array size or a constant index).
    pub int_value: Option<i64>,
    /// Macros whose regions hold its declarations (declared in both branches of `#ifdef M ... #else`).
    pub declared_under: Vec<Name>,
}

/// What a struct is used for; IO structs never appear in generated expressions as whole values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StructRole {
    User,
    Attributes,
    Varyings,
    Mrt,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MemberInfo {
    pub name: Name,
    pub ty: Ty,
    /// A member declared inside `#ifdef`/`#ifndef`.
    pub guard: Option<MacroLit>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StructInfo {
    pub name: Name,
    pub members: Vec<MemberInfo>,
    pub role: StructRole,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ParamInfo {
    pub ty: Ty,
    /// `out`/`inout` parameters take an l-value of exactly their type.
    pub by_reference: bool,
    pub guard: Option<MacroLit>,
}

/// A helper function that generated code may call.
#[derive(Clone, Debug, PartialEq)]
pub struct HelperSig {
    pub name: Name,
    /// `None`: void.
    pub ret: Option<Ty>,
    pub params: Vec<ParamInfo>,
    /// The variants the function exists in.
    pub guard: Guard,
    /// Macros whose regions hold its definitions (defined in both branches of `#ifdef M ... #else`).
    pub declared_under: Vec<Name>,
}

/// The stage code is generated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Global initializers and helper functions (reachable from both stages).
    Shared,
    Vertex,
    Fragment,
}

/// The function a statement is generated in.
#[derive(Clone, Debug, PartialEq)]
pub enum FunctionKind {
    /// A helper returning this type (`None`: void). Its body may end blocks with `return`.
    Helper(Option<Ty>),
    /// An entry: no `return` inside its statements.
    Entry,
}

/// The generation context at one point of the program.
#[derive(Clone, Debug)]
pub struct Scope {
    pub config: Arc<GeneratorConfig>,
    /// The macro names this program's conditionals test.
    pub macros: Arc<Vec<Name>>,
    pub structs: Vec<StructInfo>,
    pub vars: Vec<Var>,
    /// Shared between the scopes of one level (a scope is cloned into every strategy built in it): adding a
    /// helper copies the list once, cloning a scope does not.
    pub helpers: Arc<Vec<HelperSig>>,
    /// The macro conditions of the current point.
    pub guard: Guard,
    pub stage: Stage,
    /// In a constant expression (global and `const` initializers).
    pub const_only: bool,
    /// Enclosing loops (for `break`/`continue`).
    pub loops: u32,
    /// Enclosing blocks below the function body.
    pub block_depth: u32,
    pub function: Option<FunctionKind>,
    /// The next fresh name number.
    pub next_id: u32,
}

/// A way to reach a value from a variable: members and array elements.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    pub root: Name,
    pub steps: Vec<Step>,
    pub ty: Ty,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Member(Name),
    /// An element of an array of this length (the index is chosen when the path is used).
    Index(u32),
}

impl Scope {
    pub fn new(config: Arc<GeneratorConfig>, macros: Arc<Vec<Name>>) -> Scope {
        Scope {
            config,
            macros,
            structs: Vec::new(),
            vars: Vec::new(),
            helpers: Arc::new(Vec::new()),
            guard: Vec::new(),
            stage: Stage::Shared,
            const_only: false,
            loops: 0,
            block_depth: 0,
            function: None,
            next_id: 0,
        }
    }

    /// A name never used before in this program: `prefix` followed by a number.
    pub fn fresh(&mut self, prefix: &str) -> Name {
        let n = self.next_id;
        self.next_id += 1;
        Arc::from(format!("{prefix}{n}"))
    }

    /// Whether something declared under `guard` exists at this point in every variant.
    pub fn sees(&self, guard: &[MacroLit]) -> bool {
        guard.iter().all(|l| self.guard.contains(l))
    }

    fn sees_member(&self, guard: &Option<MacroLit>) -> bool {
        guard.as_ref().is_none_or(|l| self.guard.contains(l))
    }

    /// Macros the current point does not test yet (a nested region on one of them would be dead or redundant).
    pub fn free_macros(&self) -> Vec<Name> {
        self.macros.iter().filter(|m| !self.guard.iter().any(|l| &l.name == *m)).cloned().collect()
    }

    /// The scope inside `#ifdef name` (`defined`) or `#ifndef name` / `#else`.
    pub fn under(&self, name: &Name, defined: bool) -> Scope {
        let mut s = self.clone();
        s.guard.push(MacroLit { name: name.clone(), defined });
        s
    }

    /// This scope without the variables and helpers whose existence depends on macro `name`.
    pub fn independent_of(&self, name: &Name) -> Scope {
        let mut s = self.clone();
        s.vars.retain(|v| !v.guard.iter().any(|l| &l.name == name) && !v.declared_under.contains(name));
        Arc::make_mut(&mut s.helpers)
            .retain(|h| !h.guard.iter().any(|l| &l.name == name) && !h.declared_under.contains(name));
        s
    }

    /// Continue after a nested scope: keep this scope's declarations, take the name counter from `inner`.
    pub fn after(&self, inner: &Scope) -> Scope {
        let mut s = self.clone();
        s.next_id = inner.next_id;
        s
    }

    pub fn struct_name(&self, i: usize) -> String {
        self.structs.get(i).map_or_else(|| format!("S_missing{i}"), |s| s.name.to_string())
    }

    /// The GLSL spelling of `ty`.
    pub fn glsl(&self, ty: &Ty) -> String {
        ty.glsl(&|i| self.struct_name(i))
    }

    /// A variable declared here is visible under the current guard.
    pub fn declare(&mut self, name: Name, ty: Ty, access: Access) -> &mut Var {
        let guard = self.guard.clone();
        self.vars.push(Var { name, ty, access, guard, loop_bound: None, int_value: None, declared_under: Vec::new() });
        let last = self.vars.len() - 1;
        &mut self.vars[last]
    }

    /// Every way to reach a value of type `want` from the visible variables (through members and array
    /// elements), only writable ones when `writable`. In a constant expression only constants count.
    pub fn paths(&self, want: &Ty, writable: bool) -> Vec<Path> {
        let mut out = Vec::new();
        for v in &self.vars {
            if !self.sees(&v.guard) {
                continue;
            }
            if self.const_only && v.access != Access::Const {
                continue;
            }
            if writable && v.access != Access::Write {
                continue;
            }
            let path = Path { root: v.name.clone(), steps: Vec::new(), ty: v.ty.clone() };
            self.walk(path, want, &mut out, 0);
        }
        out
    }

    fn walk(&self, path: Path, want: &Ty, out: &mut Vec<Path>, depth: u32) {
        if &path.ty == want {
            out.push(path.clone());
        }
        if depth >= 3 {
            return;
        }
        match &path.ty {
            Ty::Struct(i) => {
                let Some(s) = self.structs.get(*i) else { return };
                for m in &s.members {
                    if !self.sees_member(&m.guard) {
                        continue;
                    }
                    let mut next = path.clone();
                    next.steps.push(Step::Member(m.name.clone()));
                    next.ty = m.ty.clone();
                    self.walk(next, want, out, depth + 1);
                }
            }
            Ty::Array(base, n) => {
                let mut next = path.clone();
                next.steps.push(Step::Index(*n));
                next.ty = (**base).clone();
                self.walk(next, want, out, depth + 1);
            }
            Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix(_) | Ty::Sampler(_) => {}
        }
    }

    /// Every path to a scalar, vector or matrix value (writable ones only when `writable`).
    pub fn basic_paths(&self, writable: bool) -> Vec<Path> {
        let mut out = Vec::new();
        for v in &self.vars {
            if !self.sees(&v.guard) || (writable && v.access != Access::Write) {
                continue;
            }
            if self.const_only && v.access != Access::Const {
                continue;
            }
            let path = Path { root: v.name.clone(), steps: Vec::new(), ty: v.ty.clone() };
            self.walk_basic(path, &mut out, 0);
        }
        out
    }

    fn walk_basic(&self, path: Path, out: &mut Vec<Path>, depth: u32) {
        match &path.ty {
            Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix(_) => out.push(path),
            Ty::Struct(i) if depth < 3 => {
                let Some(s) = self.structs.get(*i) else { return };
                for m in &s.members {
                    if !self.sees_member(&m.guard) {
                        continue;
                    }
                    let mut next = path.clone();
                    next.steps.push(Step::Member(m.name.clone()));
                    next.ty = m.ty.clone();
                    self.walk_basic(next, out, depth + 1);
                }
            }
            Ty::Array(base, n) if depth < 3 => {
                let mut next = path.clone();
                next.steps.push(Step::Index(*n));
                next.ty = (**base).clone();
                self.walk_basic(next, out, depth + 1);
            }
            Ty::Struct(_) | Ty::Array(..) | Ty::Sampler(_) => {}
        }
    }

    /// Whether some value of type `ty` can be generated here (samplers only through variables, arrays through
    /// variables or, in GLSL ES 3.00, array constructors).
    pub fn can_make(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix(_) => true,
            Ty::Struct(i) => self.structs.get(*i).is_some_and(|s| {
                s.role == StructRole::User
                    && s.members.iter().all(|m| !self.sees_member(&m.guard) || self.can_make(&m.ty))
            }),
            Ty::Array(..) if self.config.features.es300 => true,
            Ty::Sampler(_) | Ty::Array(..) => !self.paths(ty, false).is_empty(),
        }
    }

    /// Loop indices usable as an index into an array of `len` elements.
    pub fn loop_indices(&self, len: u32) -> Vec<Name> {
        self.vars
            .iter()
            .filter(|v| self.sees(&v.guard) && v.loop_bound.is_some_and(|b| b <= len))
            .map(|v| v.name.clone())
            .collect()
    }

    /// Integer constants with a known value below `len` (constant indices).
    pub fn const_indices(&self, len: u32) -> Vec<Name> {
        self.vars
            .iter()
            .filter(|v| {
                self.sees(&v.guard)
                    && v.access == Access::Const
                    && v.ty == Ty::INT
                    && v.int_value.is_some_and(|x| (0..len as i64).contains(&x))
            })
            .map(|v| v.name.clone())
            .collect()
    }

    /// Integer constants with a known positive value (array sizes).
    pub fn size_constants(&self) -> Vec<(Name, i64)> {
        self.vars
            .iter()
            .filter(|v| self.sees(&v.guard) && v.access == Access::Const && v.ty == Ty::INT)
            .filter_map(|v| v.int_value.filter(|x| (1..=8).contains(x)).map(|x| (v.name.clone(), x)))
            .collect()
    }

    /// The user structs usable as value types here.
    pub fn user_structs(&self) -> Vec<usize> {
        self.structs.iter().enumerate().filter(|(_, s)| s.role == StructRole::User).map(|(i, _)| i).collect()
    }
}
