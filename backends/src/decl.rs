//! Declarations: types, structs, globals (uniforms, constants), functions and parameters, `#define`s, and the
//! stage interface written at the position of its IO struct (attributes, varyings, MRT outputs) or at the top
//! (the fragment color and `gl_FragData` outputs).

use crate::dialect::OutputBinding;
use crate::error::{BackendError, BackendErrorKind, Unsupported};
use crate::interface::{for_each_member, has_member, IoRole};
use crate::naming::Naming;
use crate::writer::{location, Writer};
use crate::Stage;
use shaderlab_ir::{
    ArrayDim, FunctionId, GlobalId, GlobalItem, Interpolation, MacroId, Param, ParamKind, Precision, Qualifiers,
    Storage, StructId, StructMember, TypeInner, TypeSpec,
};
use shaderlab_passes::{Owner, Ty};

/// Groups of one-line declarations (a change of group gets a blank line).
pub(crate) const GROUP_DEFINE: u8 = 1;
const GROUP_UNIFORM: u8 = 2;
const GROUP_GLOBAL: u8 = 3;
const GROUP_ATTRIBUTE: u8 = 4;
const GROUP_VARYING: u8 = 5;
const GROUP_OUTPUT: u8 = 6;
const GROUP_PRECISION: u8 = 7;

pub(crate) fn precision_word(p: Precision) -> &'static str {
    match p {
        Precision::Low => "lowp",
        Precision::Medium => "mediump",
        Precision::High => "highp",
    }
}

impl<'a> Writer<'a> {
    pub(crate) fn global_item(&mut self, item: &'a GlobalItem) {
        match item {
            GlobalItem::Struct(s) => match self.interface_role(*s) {
                Some(role) => self.interface_block(*s, role),
                None => self.struct_decl(*s, ""),
            },
            GlobalItem::Var(g) => self.global_var(*g),
            GlobalItem::Function(f) => self.function(*f),
            GlobalItem::Define(id) => self.define(*id),
            GlobalItem::Undef { name, .. } => {
                self.group(GROUP_DEFINE);
                let text = format!("#undef {}", self.m.name(*name));
                self.directive(&text);
            }
            GlobalItem::Precision { precision, ty, span } => {
                self.group(GROUP_PRECISION);
                let line = self.precision_statement(*precision, *ty, *span);
                self.line(&line);
            }
        }
    }

    pub(crate) fn precision_statement(
        &mut self,
        precision: Precision,
        ty: shaderlab_ir::TypeId,
        span: shaderlab_ir::Span,
    ) -> String {
        let inner = self.m.types.get(ty);
        if let Err(reason) = self.d.check_type(&inner) {
            self.error(inner.builtin_name().unwrap_or("type"), reason, span);
        }
        format!("precision {} {};", precision_word(precision), inner.builtin_name().unwrap_or("float"))
    }

    pub(crate) fn define(&mut self, id: MacroId) {
        let m = self.m;
        let Some(def) = m.macros.get(id) else { return };
        let name = m.name(def.name);
        // Assembled in the scratch line (no allocation per `#define`).
        self.with_scratch(|w, text| {
            text.push_str("#define ");
            text.push_str(name);
            if let Some(params) = &def.params {
                text.push('(');
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        text.push_str(", ");
                    }
                    text.push_str(m.name(*p));
                }
                text.push(')');
            }
            if !def.body.is_empty() {
                text.push(' ');
                // One line: the frontend took a body continued over lines out of the source with its line
                // continuations removed, as the lexer joined them.
                text.push_str(&def.body);
            }
            w.group(GROUP_DEFINE);
            w.directive(text);
        });
    }

    // ----- types -----

    /// The base type of a specifier, without precision and dimensions, checked against the target.
    pub(crate) fn spec_base(&mut self, spec: &TypeSpec) -> String {
        let mut out = String::new();
        self.spec_base_into(&mut out, spec);
        out
    }

    /// [`Self::spec_base`] appended to `out`.
    pub(crate) fn spec_base_into(&mut self, out: &mut String, spec: &TypeSpec) {
        let inner = self.m.types.get(spec.base);
        self.base_into(out, spec, inner);
    }

    /// [`Self::spec_base_into`] of a specifier whose base type is `inner` (looked up by the caller). Inlined into
    /// its two callers: one lookup and one call a specifier.
    #[inline(always)]
    fn base_into(&mut self, out: &mut String, spec: &TypeSpec, inner: TypeInner) {
        match inner {
            TypeInner::User(name) => out.push_str(self.names.global(self.m, name)),
            inner => {
                let text = inner.builtin_name().unwrap_or("float");
                if let Err(reason) = self.d.check_type(&inner) {
                    self.error(text, reason, spec.span);
                }
                out.push_str(text);
            }
        }
    }

    /// `[precision ]base`.
    pub(crate) fn spec_type(&mut self, spec: &TypeSpec) -> String {
        let mut out = String::with_capacity(24);
        self.spec_type_into(&mut out, spec);
        out
    }

    /// [`Self::spec_type`] appended to `out`.
    pub(crate) fn spec_type_into(&mut self, out: &mut String, spec: &TypeSpec) {
        // The precision is a property of the type alone (no report): it can be asked before the base is written.
        let inner = self.m.types.get(spec.base);
        if let Some(p) = spec.precision.or_else(|| self.d.required_precision(&inner)) {
            out.push_str(precision_word(p));
            out.push(' ');
        }
        self.base_into(out, spec, inner);
    }

    /// `[N]` after a declared name (`owner`: the arena of the size expressions). More than one dimension is an
    /// array of arrays.
    pub(crate) fn spec_dims(&mut self, spec: &TypeSpec, owner: Owner, name: &str) -> String {
        if spec.dims.len() > 1 && self.reports_errors() {
            let e = BackendError { kind: BackendErrorKind::ArrayOfArrays { name: name.to_owned() }, span: spec.span };
            if !self.errors.contains(&e) {
                self.errors.push(e);
            }
        }
        let mut out = String::new();
        for d in &spec.dims {
            match d {
                ArrayDim::Sized(e) => {
                    let size = self.expr(owner, *e);
                    out.push_str(&["[", &*size, "]"].concat());
                }
                ArrayDim::Unsized => {
                    if !self.d.has_array_features() {
                        self.error("[]", Unsupported::ArrayFeature, spec.span);
                    }
                    out.push_str("[]");
                }
            }
        }
        out
    }

    /// Qualifiers written before the type of a global or varying: `invariant`, `layout(...)`, interpolation.
    fn leading_qualifiers(&mut self, q: &Qualifiers, span: shaderlab_ir::Span) -> Vec<String> {
        let mut out = Vec::new();
        if q.invariant {
            out.push("invariant".to_owned());
        }
        if !q.layout.is_empty() {
            if self.d.has_layout() {
                let entries: Vec<String> = q
                    .layout
                    .iter()
                    .map(|l| match l.value {
                        Some(v) => format!("{} = {v}", self.m.name(l.name)),
                        None => self.m.name(l.name).to_owned(),
                    })
                    .collect();
                out.push(format!("layout({})", entries.join(", ")));
            } else {
                self.error("layout", Unsupported::Qualifier, q.span.unwrap_or(span));
            }
        }
        match self.d.interpolation(q) {
            Ok(words) => out.extend(words.into_iter().map(str::to_owned)),
            Err((token, reason)) => self.error(token, reason, q.span.unwrap_or(span)),
        }
        out
    }

    // ----- structs -----

    /// `struct S { ... }` followed by `declares` (locals declared after the brace) and `;`.
    pub(crate) fn struct_decl(&mut self, s: StructId, declares: &str) {
        let m = self.m;
        let Some(decl) = m.structs.get(s) else { return };
        let top_level = self.func.is_none();
        if top_level {
            self.separate();
            self.group(0);
        }
        let name = self.names.global(m, decl.name).to_owned();
        self.line(&["struct ", &*name, " {"].concat());
        self.indent();
        // Members take no qualifiers in GLSL: the interpolation and layout of IO struct members go to the stage
        // variables.
        self.guarded(&decl.members, &|_, _| true, &mut |w, mem: &'a StructMember| {
            w.scratch_line(|w, line| {
                w.spec_type_into(line, &mem.ty);
                let member = w.names.member(w.m, mem.name);
                line.push(' ');
                line.push_str(member);
                if !mem.ty.dims.is_empty() {
                    let member = member.to_owned();
                    let dims = w.spec_dims(&mem.ty, Owner::Global, &member);
                    line.push_str(&dims);
                }
                line.push(';');
            });
        });
        self.dedent();
        if declares.is_empty() {
            self.line("};");
        } else {
            self.line(&["} ", declares, ";"].concat());
        }
        if top_level {
            self.separate();
            self.group(0);
        }
    }

    // ----- globals -----

    fn global_var(&mut self, g: GlobalId) {
        let m = self.m;
        let Some(global) = m.globals.get(g) else { return };
        if global.is_uniform() {
            let repeat = self.uniform_repeat(g).unwrap_or_default();
            if repeat.skip {
                return;
            }
            self.group(GROUP_UNIFORM);
            if let Some(guard) = &repeat.guard {
                self.open_guard(guard);
            }
            let name = m.name(global.name);
            if Naming::is_bad(self.d, name) {
                self.error(name, Unsupported::ReservedInterfaceName, global.name_span);
            }
            // `[qualifiers ]uniform T name[N];`, assembled in the scratch line (the checks run in the order of
            // the parts: type, dimensions, qualifiers).
            let mut ty = String::with_capacity(24);
            self.spec_type_into(&mut ty, &global.ty);
            let dims = self.spec_dims(&global.ty, Owner::Global, name);
            self.scratch_line(|w, line| {
                for q in w.leading_qualifiers(&global.qualifiers, global.span) {
                    line.push_str(&q);
                    line.push(' ');
                }
                for part in ["uniform ", &*ty, " ", name, &*dims, ";"] {
                    line.push_str(part);
                }
            });
            let mut reflected = String::with_capacity(ty.len() + dims.len());
            self.spec_base_into(&mut reflected, &global.ty);
            reflected.push_str(&dims);
            let sampler = matches!(m.types.get(global.ty.base), TypeInner::Sampler(_));
            self.reflection.uniform(global.name, name, reflected, sampler, self.stage);
            if let Some(define) = &repeat.define {
                self.directive(define);
            }
            if repeat.guard.is_some() {
                self.close_guard();
            }
            return;
        }
        self.group(GROUP_GLOBAL);
        let name = self.names.global(m, global.name).to_owned();
        let ty = self.spec_type(&global.ty);
        let dims = self.spec_dims(&global.ty, Owner::Global, &name);
        let mut parts = self.leading_qualifiers(&global.qualifiers, global.span);
        match global.qualifiers.storage {
            Some(Storage::Const) => parts.push("const".to_owned()),
            Some(storage @ (Storage::In | Storage::Out | Storage::Attribute | Storage::Varying)) => {
                match self.d.global_storage(storage, self.stage) {
                    Ok(word) => parts.push(word.to_owned()),
                    Err(reason) => self.error(storage_word(storage), reason, global.span),
                }
            }
            Some(Storage::InOut | Storage::Uniform) | None => {}
        }
        let mut text = [&*ty, " ", &*name, &*dims].concat();
        if let Some(init) = global.init {
            if !global.ty.dims.is_empty() && !self.d.has_array_features() {
                self.error(&name, Unsupported::ArrayFeature, global.span);
            }
            let value = self.expr_max(Owner::Global, init, 16);
            text.push_str(&[" = ", &*value].concat());
        }
        parts.push([&*text, ";"].concat());
        self.line(&parts.join(" "));
    }

    // ----- functions -----

    pub(crate) fn function(&mut self, f: FunctionId) {
        let m = self.m;
        let Some(func) = m.functions.get(f) else { return };
        let previous = self.func.replace(f);
        let previous_objects = std::mem::replace(&mut self.func_objects, self.plan.io.has_objects(f));
        // The signature line is assembled in the scratch line.
        self.scratch_line(|w, signature| {
            w.signature_into(signature, f);
            if func.body.is_none() {
                w.group(0);
                signature.push(';');
            } else {
                w.separate();
                w.group(0);
                signature.push_str(" {");
            }
        });
        if let Some(body) = &func.body {
            self.indent();
            self.function_body(f, body);
            self.dedent();
            self.line("}");
            self.separate();
        }
        self.func = previous;
        self.func_objects = previous_objects;
    }

    /// The signature of function `f` (without ` {` or `;`), appended to `out`.
    pub(crate) fn signature_into(&mut self, out: &mut String, f: FunctionId) {
        let m = self.m;
        let Some(func) = m.functions.get(f) else { return };
        if f == self.plan.entry {
            out.push_str("void main()");
            return;
        }
        let owner = Owner::Function(f);
        let renamed_return = match self.facts.typing.returns.get(f).and_then(|t| t.as_ref()) {
            Some(Ty::Struct(s)) => self.renamed(*s),
            _ => false,
        };
        if renamed_return {
            out.push_str("void");
        } else {
            let start = out.len();
            self.spec_type_into(out, &func.return_type);
            if !func.return_type.dims.is_empty() && !self.d.has_array_features() {
                let ty = out.get(start..).unwrap_or_default().to_owned();
                self.error(ty, Unsupported::ArrayFeature, func.return_type.span);
            }
            let dims = self.spec_dims(&func.return_type, owner, m.name(func.name));
            out.push_str(&dims);
        }
        out.push(' ');
        out.push_str(self.names.global(m, func.name));
        out.push('(');
        let keep = move |w: &Self, p: &Param| !w.is_object_param(f, p);
        self.list(out, &func.params, &keep, &mut |w, out, p: &'a Param| w.param(out, f, p));
        out.push(')');
    }

    fn is_object_param(&self, f: FunctionId, p: &Param) -> bool {
        matches!(p.kind, ParamKind::Declared { local } if self.plan.io.is_object(f, local))
    }

    /// A parameter declaration, appended to `out`.
    fn param(&mut self, out: &mut String, f: FunctionId, p: &'a Param) {
        let m = self.m;
        let owner = Owner::Function(f);
        match &p.kind {
            ParamKind::Declared { local } => {
                let Some(l) = m.functions.get(f).and_then(|func| func.locals.get(*local)) else { return };
                match l.qualifiers.storage {
                    Some(Storage::Const) => out.push_str("const "),
                    Some(Storage::In) => out.push_str("in "),
                    Some(Storage::Out) => out.push_str("out "),
                    Some(Storage::InOut) => out.push_str("inout "),
                    Some(Storage::Uniform | Storage::Attribute | Storage::Varying) | None => {}
                }
                self.spec_type_into(out, &l.ty);
                let name = self.names.local(m, f, *local);
                if !name.is_empty() {
                    out.push(' ');
                    out.push_str(name);
                }
                if !l.ty.dims.is_empty() {
                    let name = name.to_owned();
                    let dims = self.spec_dims(&l.ty, owner, &name);
                    out.push_str(&dims);
                }
            }
            ParamKind::Macro { name, args, .. } => {
                self.reflection.macro_use(*name);
                out.push_str(m.name(*name));
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.expr_into(out, owner, *a, 16);
                }
                out.push(')');
            }
        }
    }

    // ----- the stage interface -----

    /// The stage variables an IO struct stands for, at the struct's position; a struct the stage keeps (copy
    /// mode) is declared after them.
    fn interface_block(&mut self, s: StructId, role: IoRole) {
        let m = self.m;
        let Some(decl) = m.structs.get(s) else { return };
        match role {
            IoRole::Attribute => {
                let keep = |w: &Self, mem: &StructMember| w.program.interface.attribute_members.contains(&mem.name);
                if self.any_kept(&decl.members, &keep) {
                    self.group(GROUP_ATTRIBUTE);
                }
                self.guarded(&decl.members, &keep, &mut |w, mem: &'a StructMember| w.attribute(mem));
            }
            IoRole::Varying => {
                let keep = |w: &Self, mem: &StructMember| w.program.interface.varying_members.contains(&mem.name);
                if self.any_kept(&decl.members, &keep) {
                    self.group(GROUP_VARYING);
                }
                self.guarded(&decl.members, &keep, &mut |w, mem: &'a StructMember| w.varying(mem));
            }
            IoRole::Mrt => {
                self.group(GROUP_OUTPUT);
                self.guarded(&decl.members, &|_, _| true, &mut |w, mem: &'a StructMember| w.mrt_output(mem));
            }
        }
        if self.plan.structs.contains(s) {
            self.struct_decl(s, "");
        }
    }

    fn check_interface_name(&mut self, name: &str, span: shaderlab_ir::Span) {
        if Naming::is_bad(self.d, name) {
            self.error(name, Unsupported::ReservedInterfaceName, span);
        }
    }

    fn attribute(&mut self, mem: &StructMember) {
        let name = self.m.name(mem.name);
        self.check_interface_name(name, mem.name_span);
        if let Err(reason) = self.d.check_attribute_type(&self.m.types.get(mem.ty.base)) {
            self.error(name, reason, mem.span);
        }
        let dims = self.scratch_line(|w, line| {
            line.push_str(w.d.attribute_qualifier());
            line.push(' ');
            w.spec_type_into(line, &mem.ty);
            let dims = w.spec_dims(&mem.ty, Owner::Global, name);
            for part in [" ", name, &*dims, ";"] {
                line.push_str(part);
            }
            dims
        });
        // (An attribute reflected already, declared twice, needs no type text.)
        if !self.reflection.has_attribute(mem.name, name) {
            let mut reflected = String::with_capacity(16);
            self.spec_base_into(&mut reflected, &mem.ty);
            reflected.push_str(&dims);
            self.reflection.attribute(self.m, mem.name, name, reflected);
        }
    }

    fn varying(&mut self, mem: &StructMember) {
        let name = self.m.name(mem.name);
        self.check_interface_name(name, mem.name_span);
        // `[qualifiers ]varying T name[N];` (the checks run in the order: type, dimensions, qualifiers).
        let mut ty = String::with_capacity(24);
        self.spec_type_into(&mut ty, &mem.ty);
        let dims = self.spec_dims(&mem.ty, Owner::Global, name);
        self.scratch_line(|w, line| {
            for q in w.leading_qualifiers(&mem.qualifiers, mem.span) {
                line.push_str(&q);
                line.push(' ');
            }
            for part in [w.d.varying_qualifier(w.stage), " ", &*ty, " ", name, &*dims, ";"] {
                line.push_str(part);
            }
        });
        // The fragment stage declares the varyings the vertex stage reflected already: no type text is made again
        // (its type errors, if any, were reported by `spec_type_into` above).
        if self.reflection.has_varying(mem.name, name) {
            return;
        }
        let interpolation = match (mem.qualifiers.interpolation, mem.qualifiers.centroid) {
            (Some(Interpolation::Flat), _) => "flat",
            (_, true) => "centroid",
            _ => "smooth",
        };
        let mut reflected = String::with_capacity(ty.len() + dims.len());
        self.spec_base_into(&mut reflected, &mem.ty);
        reflected.push_str(&dims);
        self.reflection.varying(self.m, mem.name, name, reflected, interpolation);
    }

    fn mrt_output(&mut self, mem: &StructMember) {
        let m = self.m;
        let name = m.name(mem.name);
        let loc = location(m, mem);
        let vec4 =
            matches!(m.types.get(mem.ty.base), TypeInner::Vector { size: 4, kind: shaderlab_ir::ScalarKind::Float })
                && mem.ty.dims.is_empty();
        let ty = self.spec_type(&mem.ty);
        let base = self.spec_base(&mem.ty);
        match self.d.mrt_output(name, loc, vec4) {
            Ok(OutputBinding::Declared { name: out, location }) => {
                self.check_interface_name(&out, mem.name_span);
                self.output_line(&ty, &out, location);
                self.reflection.output(&out, &base, loc);
            }
            Ok(OutputBinding::Builtin(out)) => self.reflection.output(&out, &base, loc),
            Err(reason) => self.error(name, reason, mem.span),
        }
    }

    /// `[layout(location = N) ]out T name;`, assembled in the scratch line.
    fn output_line(&mut self, ty: &str, name: &str, location: Option<i64>) {
        self.scratch_line(|_, line| {
            if let Some(n) = location {
                use std::fmt::Write;
                // Writing to a String cannot fail.
                let _ = write!(line, "layout(location = {n}) ");
            }
            for part in ["out ", ty, " ", name, ";"] {
                line.push_str(part);
            }
        });
    }

    /// Fragment outputs that are not an MRT struct: the color output and `gl_FragData` indices.
    /// `outputs`: the stage's fragment outputs (none in the vertex stage), of which the first `mrt` stand for the
    /// MRT struct's members: those are declared at the struct's position, and so is a `gl_FragData` index
    /// naming one of them.
    pub(crate) fn output_declarations(&mut self, outputs: &[OutputBinding], mrt: usize) {
        let (mrt, others) = outputs.split_at(mrt.min(outputs.len()));
        for binding in others {
            let (name, location) = match binding {
                OutputBinding::Declared { name, location } => (name.clone(), *location),
                OutputBinding::Builtin(name) => (name.clone(), None),
            };
            if mrt.iter().any(|b| b.name() == name) {
                continue;
            }
            let loc = location.or_else(|| frag_data_index(&name)).unwrap_or(0);
            if let OutputBinding::Declared { .. } = binding {
                self.group(GROUP_OUTPUT);
                self.output_line("vec4", &name, location);
            }
            self.reflection.output(&name, "vec4", loc);
        }
    }

    /// Interface names shared by two kinds of declarations (a uniform and a varying named alike).
    pub(crate) fn check_interface(&mut self, interface: &crate::writer::InterfaceNames) {
        let m = self.m;
        for g in self.plan.globals.iter() {
            let Some(global) = m.globals.get(g) else { continue };
            if !global.is_uniform() {
                continue;
            }
            if let Some(kind) = interface.get(m.name(global.name)) {
                let reason = Unsupported::InterfaceCollision { first: "uniform", second: kind };
                self.error(m.name(global.name), reason, global.name_span);
            }
        }
        if self.stage == Stage::Vertex {
            let iface = &self.program.interface;
            if let (Some(a), Some(v)) = (iface.attributes, iface.varyings) {
                for_each_member(m, a, &mut |mem| {
                    if iface.attribute_members.contains(&mem.name)
                        && iface.varying_members.contains(&mem.name)
                        && has_member(m, Some(v), mem.name)
                    {
                        let reason = Unsupported::InterfaceCollision { first: "attribute", second: "varying" };
                        self.error(m.name(mem.name), reason, mem.name_span);
                    }
                });
            }
        }
    }

    /// Walk the members of an IO struct that a stage declares, with their conditionals, for copies.
    pub(crate) fn member_copies(
        &mut self,
        s: StructId,
        keep: &dyn Fn(&Self, &StructMember) -> bool,
        line: &dyn Fn(&Self, &StructMember) -> String,
    ) {
        let m = self.m;
        let Some(decl) = m.structs.get(s) else { return };
        self.guarded(&decl.members, keep, &mut |w, mem: &'a StructMember| {
            let text = line(w, mem);
            w.line(&text);
        });
    }
}

fn storage_word(s: Storage) -> &'static str {
    match s {
        Storage::Const => "const",
        Storage::Uniform => "uniform",
        Storage::In => "in",
        Storage::Out => "out",
        Storage::InOut => "inout",
        Storage::Attribute => "attribute",
        Storage::Varying => "varying",
    }
}

/// `gl_FragData[3]` -> 3.
fn frag_data_index(name: &str) -> Option<i64> {
    name.strip_prefix("gl_FragData[")?.strip_suffix(']')?.parse().ok()
}
