//! Statements: one a line, bodies always braced, `else if` chains flat. The entry's boundary is rewritten here:
//! its IO-struct local and `return o;` disappear (rename mode) or become field-wise copies to the stage variables
//! (copy mode); a returned color becomes an assignment to the color output; a trailing `return` of `main` is
//! dropped. In targets without `switch`, a switch whose cases never fall through into a non-empty case becomes an
//! if-chain.

use crate::error::Unsupported;
use crate::interface::IoMode;
use crate::writer::Writer;
use crate::Stage;
use shaderlab_ir::{
    Block, CondRegion, Expr, ExprId, FunctionId, Guarded, LocalRange, ParamKind, Statement, StmtKind, StructId,
    StructMember,
};
use shaderlab_passes::io::FragmentOutput;
use shaderlab_passes::resolve::{Resolved, Symbol};
use shaderlab_passes::typing::Type;
use shaderlab_passes::{Owner, Ty};

/// A run of case labels and the statements after them.
struct CaseGroup<'s> {
    /// `None` is `default`.
    labels: Vec<Option<ExprId>>,
    body: Vec<&'s Statement>,
}

/// Whether a `break` in `s` leaves the enclosing switch (not one of a nested loop or switch).
fn breaks_out(s: &Statement) -> bool {
    match &s.kind {
        StmtKind::Break => true,
        StmtKind::Block(b) => {
            let mut found = false;
            Guarded::for_each_item(&b.stmts, &mut |s| found |= breaks_out(s));
            found
        }
        StmtKind::If { accept, reject, .. } => breaks_out(accept) || reject.as_ref().is_some_and(|r| breaks_out(r)),
        _ => false,
    }
}

impl<'a> Writer<'a> {
    fn owner(&self) -> Owner {
        match self.func {
            Some(f) => Owner::Function(f),
            None => Owner::Global,
        }
    }

    pub(crate) fn function_body(&mut self, f: FunctionId, body: &'a Block) {
        let is_entry = f == self.plan.entry;
        if is_entry {
            self.entry_prologue(f);
        }
        let last = match body.stmts.last() {
            Some(Guarded::Item(_)) if is_entry => Some(body.stmts.len() - 1),
            _ => None,
        };
        for (i, item) in body.stmts.iter().enumerate() {
            match item {
                Guarded::Item(s) => self.stmt(s, Some(i) == last),
                Guarded::Cond(r) => self.stmt_region(r),
            }
        }
    }

    fn stmt_region(&mut self, r: &'a CondRegion<Statement>) {
        self.region(r, &|_, _| true, &mut |w, s: &'a Statement| w.stmt(s, false));
    }

    pub(crate) fn stmts(&mut self, items: &'a [Guarded<Statement>]) {
        self.guarded(items, &|_, _| true, &mut |w, s: &'a Statement| w.stmt(s, false));
    }

    /// The statements of a body: a block's contents, or the single statement.
    fn body_of(&mut self, s: &'a Statement) {
        match &s.kind {
            StmtKind::Block(b) => self.stmts(&b.stmts),
            _ => self.stmt(s, false),
        }
    }

    /// One statement; `last_in_main`: the final top-level statement of the entry.
    pub(crate) fn stmt(&mut self, s: &'a Statement, last_in_main: bool) {
        let owner = self.owner();
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Expr(e) => {
                if self.is_object_here(owner, *e) {
                    return;
                }
                self.expr_line("", owner, *e, 17, ";");
            }
            StmtKind::Declare(locals) => self.declare_stmt(*locals),
            StmtKind::Struct { id, declares } => {
                let declares = self.declarators(*declares);
                self.struct_decl(*id, &declares);
            }
            StmtKind::Prototype(f) => {
                self.scratch_line(|w, line| {
                    w.signature_into(line, *f);
                    line.push(';');
                });
            }
            StmtKind::Precision { precision, ty } => {
                let line = self.precision_statement(*precision, *ty, s.span);
                self.line(&line);
            }
            StmtKind::Block(b) => {
                self.line("{");
                self.indent();
                self.stmts(&b.stmts);
                self.dedent();
                self.line("}");
            }
            StmtKind::If { .. } => self.if_stmt(s),
            StmtKind::For { init, condition, update, body } => {
                // Built in the writer's scratch line, every part written in place (no string per part).
                self.scratch_line(|w, head| {
                    head.push_str("for (");
                    // The init: a declaration or an expression (no semicolon of its own).
                    match init.as_deref().map(|i| &i.kind) {
                        Some(StmtKind::Declare(locals)) => w.declaration_into(head, *locals),
                        Some(StmtKind::Expr(e)) => w.expr_into(head, owner, *e, 17),
                        _ => {}
                    }
                    head.push(';');
                    if let Some(c) = condition {
                        head.push(' ');
                        w.expr_into(head, owner, *c, 17);
                    }
                    head.push(';');
                    if let Some(u) = update {
                        head.push(' ');
                        w.expr_into(head, owner, *u, 17);
                    }
                    head.push_str(") {");
                });
                self.indent();
                self.body_of(body);
                self.dedent();
                self.line("}");
            }
            StmtKind::While { condition, body } => {
                self.expr_line("while (", owner, *condition, 17, ") {");
                self.indent();
                self.body_of(body);
                self.dedent();
                self.line("}");
            }
            StmtKind::DoWhile { body, condition } => {
                if !self.d.has_do_while() {
                    self.error("do", Unsupported::Statement, s.span);
                }
                self.line("do {");
                self.indent();
                self.body_of(body);
                self.dedent();
                self.expr_line("} while (", owner, *condition, 17, ");");
            }
            StmtKind::Switch { selector, body } => {
                if self.d.has_switch() {
                    self.native_switch(*selector, body);
                } else {
                    self.lowered_switch(*selector, body, s);
                }
            }
            StmtKind::Case(e) => {
                let v = self.expr(owner, *e);
                self.line(&format!("case {v}:"));
            }
            StmtKind::Default => self.line("default:"),
            StmtKind::Break => self.line("break;"),
            StmtKind::Continue => self.line("continue;"),
            StmtKind::Discard => self.line("discard;"),
            StmtKind::Return(value) => self.return_stmt(*value, last_in_main),
            StmtKind::Define(id) => self.define(*id),
            StmtKind::Undef(name) => {
                let text = format!("#undef {}", self.m.name(*name));
                self.directive(&text);
            }
        }
    }

    fn if_stmt(&mut self, s: &'a Statement) {
        let owner = self.owner();
        let mut current = s;
        let mut first = true;
        while let StmtKind::If { condition, accept, reject } = &current.kind {
            self.expr_line(if first { "if (" } else { "} else if (" }, owner, *condition, 17, ") {");
            first = false;
            self.indent();
            self.body_of(accept);
            self.dedent();
            match reject {
                Some(r) if matches!(r.kind, StmtKind::If { .. }) => current = r,
                Some(r) => {
                    self.line("} else {");
                    self.indent();
                    self.body_of(r);
                    self.dedent();
                    break;
                }
                None => break,
            }
        }
        self.line("}");
    }

    // ----- declarations -----

    fn declare_stmt(&mut self, locals: LocalRange) {
        let Some(f) = self.func else { return };
        if let Some(l) = locals.single() {
            if self.plan.io.is_object(f, l) {
                // `V o;` renamed away; `V o = helper();` keeps the call, which now writes the stage variables.
                let init = self.m.functions.get(f).and_then(|func| func.locals.get(l)).and_then(|x| x.init);
                if let Some(init) = init {
                    self.expr_line("", Owner::Function(f), init, 17, ";");
                }
                return;
            }
        }
        self.scratch_line(|w, buf| {
            w.declaration_into(buf, locals);
            buf.push(';');
        });
    }

    /// `const T a = e, b[2]` (no semicolon), appended to `out`.
    fn declaration_into(&mut self, out: &mut String, locals: LocalRange) {
        let m = self.m;
        let Some(f) = self.func else { return };
        let Some(func) = m.functions.get(f) else { return };
        let owner = Owner::Function(f);
        let Some(first) = locals.first().and_then(|l| func.locals.get(l)) else { return };
        if first.qualifiers.invariant {
            out.push_str("invariant ");
        }
        if first.qualifiers.storage == Some(shaderlab_ir::Storage::Const) {
            out.push_str("const ");
        }
        self.spec_type_into(out, &first.ty);
        out.push(' ');
        let mut first_part = true;
        for l in locals {
            let Some(local) = func.locals.get(l) else { continue };
            if !first_part {
                out.push_str(", ");
            }
            first_part = false;
            out.push_str(self.names.local(m, f, l));
            let arrayed = !local.ty.dims.is_empty();
            if arrayed {
                let name = self.names.local(m, f, l).to_owned();
                let dims = self.spec_dims(&local.ty, owner, &name);
                out.push_str(&dims);
            }
            if let Some(init) = local.init {
                if arrayed && !self.d.has_array_features() {
                    let name = self.names.local(m, f, l).to_owned();
                    self.error(name, Unsupported::ArrayFeature, local.span);
                }
                out.push_str(" = ");
                self.expr_into(out, owner, init, 16);
            }
        }
    }

    /// The locals declared after a local struct's closing brace.
    fn declarators(&mut self, locals: LocalRange) -> String {
        let m = self.m;
        let Some(f) = self.func else { return String::new() };
        let owner = Owner::Function(f);
        let mut parts = Vec::new();
        for l in locals {
            let Some(local) = m.functions.get(f).and_then(|func| func.locals.get(l)) else { continue };
            let name = self.names.local(m, f, l).to_owned();
            let dims = self.spec_dims(&local.ty, owner, &name);
            let mut text = [&*name, &*dims].concat();
            if let Some(init) = local.init {
                let value = self.expr_max(owner, init, 16);
                text.push_str(&[" = ", &*value].concat());
            }
            parts.push(text);
        }
        parts.join(", ")
    }

    // ----- the entry's boundary -----

    /// Copy mode for the stage's input struct: `A a; a.POSITION = POSITION; ...`.
    fn entry_prologue(&mut self, f: FunctionId) {
        let m = self.m;
        let Some((s, IoMode::Copy)) = self.plan.io.input else { return };
        let Some(func) = m.functions.get(f) else { return };
        let mut param = None;
        Guarded::for_each_item(&func.params, &mut |p| {
            if let ParamKind::Declared { local } = p.kind {
                let t = self.facts.typing.locals.get(f).and_then(|t| t.get(local)).and_then(|t| t.as_ref());
                if matches!(t, Some(Ty::Struct(x)) if *x == s) && param.is_none() {
                    param = Some(local);
                }
            }
        });
        let Some(local) = param else { return };
        let name = self.names.local(m, f, local).to_owned();
        if name.is_empty() {
            return;
        }
        let Some(decl) = m.structs.get(s) else { return };
        let struct_name = self.names.global(m, decl.name).to_owned();
        self.line(&[&*struct_name, " ", &*name, ";"].concat());
        let stage = self.stage;
        let keep = move |w: &Self, mem: &StructMember| match stage {
            Stage::Vertex => w.program.interface.attribute_members.contains(&mem.name),
            Stage::Fragment => w.program.interface.varying_members.contains(&mem.name),
        };
        let line = move |w: &Self, mem: &StructMember| {
            format!("{name}.{} = {};", w.names.member(w.m, mem.name), w.m.name(mem.name))
        };
        self.member_copies(s, &keep, &line);
    }

    fn return_stmt(&mut self, value: Option<ExprId>, last_in_main: bool) {
        let Some(f) = self.func else { return };
        let owner = Owner::Function(f);
        if f == self.plan.entry {
            if let Some(e) = value {
                self.entry_return_value(e);
            }
            if !last_in_main {
                self.line("return;");
            }
            return;
        }
        let renamed_return = match self.facts.typing.returns.get(f).and_then(|t| t.as_ref()) {
            Some(Ty::Struct(s)) => self.renamed(*s),
            _ => false,
        };
        match value {
            Some(e) if renamed_return => {
                if !self.is_object_here(owner, e) {
                    self.expr_line("", owner, e, 17, ";");
                }
                self.line("return;");
            }
            Some(e) => self.expr_line("return ", owner, e, 17, ";"),
            None => self.line("return;"),
        }
    }

    /// `return e;` of the entry, without the `return`.
    fn entry_return_value(&mut self, e: ExprId) {
        let Some(f) = self.func else { return };
        let owner = Owner::Function(f);
        if let Some((s, mode)) = self.plan.io.output {
            if matches!(self.facts.typing.exprs.get(owner, e), Type::Known(Ty::Struct(x)) if *x == s) {
                match mode {
                    IoMode::Rename => {
                        if !self.is_object_here(owner, e) {
                            self.expr_line("", owner, e, 17, ";");
                        }
                    }
                    IoMode::Copy => self.copy_out(s, owner, e),
                }
                return;
            }
        }
        if self.stage == Stage::Fragment && self.program.interface.output == FragmentOutput::ReturnedColor {
            let color = self.d.color_output().name().to_owned();
            let text = self.expr_max(owner, e, 16);
            self.line(&[&*color, " = ", &*text, ";"].concat());
            return;
        }
        self.expr_line("", owner, e, 17, ";");
    }

    /// Copy mode for the stage's output struct: `uv = o.uv; ...` (through a temporary when the value is not a
    /// local).
    fn copy_out(&mut self, s: StructId, owner: Owner, e: ExprId) {
        let m = self.m;
        let Some(decl) = m.structs.get(s) else { return };
        let local =
            matches!(crate::plan::arena(m, owner).and_then(|a| a.get(e)).map(|x| &x.kind), Some(Expr::Ident(_)))
                && matches!(self.facts.resolution.idents.get(owner, e),
            Resolved::Symbols(syms) if matches!(syms.first(), Some(Symbol::Local(_))));
        let source = if local {
            self.expr(owner, e)
        } else {
            let struct_name = self.names.global(m, decl.name).to_owned();
            let base = struct_name.to_lowercase();
            let tmp = self.names.fresh(&base);
            let value = self.expr_max(owner, e, 16);
            self.line(&[&*struct_name, " ", &*tmp, " = ", &*value, ";"].concat());
            tmp
        };
        let stage = self.stage;
        let keep = move |w: &Self, mem: &StructMember| match stage {
            Stage::Vertex => w.program.interface.varying_members.contains(&mem.name),
            Stage::Fragment => true,
        };
        let line = move |w: &Self, mem: &StructMember| {
            let target = match stage {
                Stage::Vertex => w.m.name(mem.name).to_owned(),
                Stage::Fragment => w.mrt_target(mem),
            };
            format!("{target} = {source}.{};", w.names.member(w.m, mem.name))
        };
        self.member_copies(s, &keep, &line);
    }

    /// The output variable of an MRT member (errors are reported where the outputs are declared).
    fn mrt_target(&self, mem: &StructMember) -> String {
        let m = self.m;
        let name = m.name(mem.name);
        self.d
            .mrt_output(name, crate::writer::location(m, mem), true)
            .map(|b| b.name().to_owned())
            .unwrap_or_else(|_| name.to_owned())
    }

    // ----- switch -----

    fn native_switch(&mut self, selector: ExprId, body: &'a Block) {
        let owner = self.owner();
        let sel = self.expr(owner, selector);
        self.line(&["switch (", &*sel, ") {"].concat());
        self.indent();
        self.guarded(&body.stmts, &|_, _| true, &mut |w, s: &'a Statement| match s.kind {
            StmtKind::Case(_) | StmtKind::Default => w.stmt(s, false),
            _ => {
                w.indent();
                w.stmt(s, false);
                w.dedent();
            }
        });
        self.dedent();
        self.line("}");
    }

    /// A switch the target lacks and that cannot be lowered: refused, or written as it is where errors are not
    /// reported (under a conditional in preserving mode).
    fn unlowerable_switch(&mut self, selector: ExprId, body: &'a Block, s: &'a Statement) {
        self.error("switch", Unsupported::Switch, s.span);
        self.native_switch(selector, body);
    }

    /// `switch` as an if-chain: faithful when no non-empty case falls through and no `break` is nested.
    fn lowered_switch(&mut self, selector: ExprId, body: &'a Block, s: &'a Statement) {
        let owner = self.owner();
        let mut groups: Vec<CaseGroup<'a>> = Vec::new();
        for item in &body.stmts {
            let Guarded::Item(st) = item else {
                return self.unlowerable_switch(selector, body, s);
            };
            let label = match &st.kind {
                StmtKind::Case(e) => Some(Some(*e)),
                StmtKind::Default => Some(None),
                _ => None,
            };
            match label {
                Some(label) => {
                    if groups.last().is_none_or(|g| !g.body.is_empty()) {
                        groups.push(CaseGroup { labels: Vec::new(), body: Vec::new() });
                    }
                    if let Some(g) = groups.last_mut() {
                        g.labels.push(label);
                    }
                }
                // Statements before the first label never run.
                None => {
                    if let Some(g) = groups.last_mut() {
                        g.body.push(st);
                    }
                }
            }
        }
        let count = groups.len();
        for (i, g) in groups.iter_mut().enumerate() {
            let ends = g.body.last().map(|st| &st.kind);
            let terminated =
                matches!(ends, Some(StmtKind::Break | StmtKind::Return(_) | StmtKind::Discard | StmtKind::Continue));
            if !terminated && i + 1 < count && !g.body.is_empty() {
                return self.unlowerable_switch(selector, body, s);
            }
            if matches!(ends, Some(StmtKind::Break)) {
                g.body.pop();
            }
            if g.body.iter().any(|st| breaks_out(st)) {
                return self.unlowerable_switch(selector, body, s);
            }
        }
        let simple = matches!(
            crate::plan::arena(self.m, owner).and_then(|a| a.get(selector)).map(|x| &x.kind),
            Some(Expr::Ident(_) | Expr::Literal(_))
        );
        let sel = if simple {
            self.expr(owner, selector)
        } else {
            let tmp = self.names.fresh("switchValue");
            let value = self.expr_max(owner, selector, 16);
            self.line("{");
            self.indent();
            self.line(&["int ", &*tmp, " = ", &*value, ";"].concat());
            tmp
        };
        let (defaults, cases): (Vec<&CaseGroup>, Vec<&CaseGroup>) =
            groups.iter().partition(|g| g.labels.iter().any(|l| l.is_none()));
        let mut first = true;
        for g in cases {
            let mut tests = Vec::new();
            for label in g.labels.iter().flatten() {
                let v = self.expr_max(owner, *label, 7);
                tests.push([&*sel, " == ", &*v].concat());
            }
            let cond = tests.join(" || ");
            if first {
                self.line(&["if (", &*cond, ") {"].concat());
            } else {
                self.line(&["} else if (", &*cond, ") {"].concat());
            }
            first = false;
            self.indent();
            for st in &g.body {
                self.stmt(st, false);
            }
            self.dedent();
        }
        if let Some(g) = defaults.first() {
            self.line(if first { "{" } else { "} else {" });
            first = false;
            self.indent();
            for st in &g.body {
                self.stmt(st, false);
            }
            self.dedent();
        }
        if !first {
            self.line("}");
        }
        if !simple {
            self.dedent();
            self.line("}");
        }
    }
}
