//! Printing a generated [`Program`] as ShaderLab text, recording where catalogue mistakes can be inserted
//! ([`Site`]) and which macros the conditionals test.
//!
//! Layout: one statement or declaration a line, two-space indentation, every binary, unary and `?:`
//! expression in parentheses (so the printed precedence is the tree's). Conditional regions inside a list
//! (parameters, arguments, struct members) put their directives on lines of their own, with a leading `,` on
//! each conditional element; the first element of such a list is never conditional.

use crate::ast::{Cond, Expr, Function, Guarded, Item, Member, Param, PassDecl, Program, Stmt, StructDecl, Tail};
use std::ops::Range;

/// A place in the printed source where one catalogue mistake can be inserted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SiteKind {
    /// A read of the variable `name` at the site's offset: misspelling it gives UndeclaredIdentifier there.
    VariableRead { name: String },
    /// `vecN(a, b, ...)` with N scalar arguments (N >= 3) at the site's offset: deleting `drop` (the last
    /// argument and the comma before it) gives ConstructorArgCount there.
    ConstructorArgs { drop: Range<usize> },
    /// The final `return e;` of a non-void function, at `range`. Deleting it gives MissingReturn: an error at
    /// the function name (the site's offset) when the body has no other `return` (or `discard`, which ends a
    /// path too), otherwise a warning at the body's closing brace (`close_brace`).
    FinalReturn { range: Range<usize>, function: String, other_returns: bool, close_brace: usize },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub kind: SiteKind,
    /// Byte offset in the source of the token the diagnostic points at.
    pub offset: usize,
    /// Inside a conditional region (a preserving check then adds a note naming the condition).
    pub in_conditional: bool,
}

/// The printed program.
#[derive(Clone, Debug, Default)]
pub struct Rendered {
    pub source: String,
    pub sites: Vec<Site>,
    /// The macro names the conditionals test, in order of first appearance.
    pub macros: Vec<String>,
}

/// Print `program`.
pub fn render(program: &Program) -> Rendered {
    let mut p = Printer::default();
    p.program(program);
    Rendered { source: p.out, sites: p.sites, macros: p.macros }
}

#[derive(Default)]
struct Printer {
    out: String,
    indent: usize,
    sites: Vec<Site>,
    macros: Vec<String>,
    conditional: u32,
}

impl Printer {
    fn start(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    fn line(&mut self, text: &str) {
        self.start();
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// A directive on a line of its own (directives must start a line).
    fn directive(&mut self, text: &str) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn open_region<T>(&mut self, c: &Cond<T>) {
        if !self.macros.iter().any(|m| **m == *c.macro_name) {
            self.macros.push(c.macro_name.to_string());
        }
        let keyword = if c.defined { "#ifdef" } else { "#ifndef" };
        self.directive(&format!("{keyword} {}", c.macro_name));
        self.conditional += 1;
    }

    /// A region around whole lines (items, statements, members).
    fn region<T>(&mut self, c: &Cond<T>, each: &mut dyn FnMut(&mut Self, &T)) {
        self.open_region(c);
        for x in &c.then {
            each(self, x);
        }
        if let Some(otherwise) = &c.otherwise {
            self.directive("#else");
            for x in otherwise {
                each(self, x);
            }
        }
        self.directive("#endif");
        self.conditional -= 1;
    }

    /// A comma-separated list whose conditional elements carry a leading comma.
    fn list<T>(&mut self, items: &[Guarded<T>], each: &mut dyn FnMut(&mut Self, &T)) {
        let mut first = true;
        for item in items {
            match item {
                Guarded::Plain(x) => {
                    if !first {
                        self.out.push_str(", ");
                    }
                    each(self, x);
                    first = false;
                }
                Guarded::Cond(c) => {
                    let lead = !first;
                    self.open_region(c);
                    let mut branch = |p: &mut Self, xs: &[T]| {
                        for (i, x) in xs.iter().enumerate() {
                            if lead || i > 0 {
                                p.out.push_str(", ");
                            }
                            each(p, x);
                        }
                    };
                    branch(self, &c.then);
                    if let Some(otherwise) = &c.otherwise {
                        self.directive("#else");
                        branch(self, otherwise);
                    }
                    self.directive("#endif");
                    self.conditional -= 1;
                }
            }
        }
    }

    fn site(&mut self, kind: SiteKind, offset: usize) {
        self.sites.push(Site { kind, offset, in_conditional: self.conditional > 0 });
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Literal(text) => self.out.push_str(text),
            Expr::Var { name, read } => {
                if *read {
                    self.site(SiteKind::VariableRead { name: name.to_string() }, self.out.len());
                }
                self.out.push_str(name);
            }
            Expr::Member(base, name) => {
                self.expr(base);
                self.out.push('.');
                self.out.push_str(name);
            }
            Expr::Swizzle(base, text) => {
                self.expr(base);
                self.out.push('.');
                self.out.push_str(text);
            }
            Expr::Index(base, index) => {
                self.expr(base);
                self.out.push('[');
                self.expr(index);
                self.out.push(']');
            }
            Expr::Construct { ty, args, scalar_args } => {
                let start = self.out.len();
                self.out.push_str(ty);
                self.out.push('(');
                let width = ty
                    .strip_prefix(['b', 'i', 'u'])
                    .unwrap_or(ty)
                    .strip_prefix("vec")
                    .and_then(|n| n.parse::<usize>().ok());
                let plain = args.iter().all(|a| matches!(a, Guarded::Plain(_)));
                let mut last_start = None;
                if plain {
                    for (i, a) in args.iter().enumerate() {
                        if let Guarded::Plain(x) = a {
                            if i > 0 {
                                last_start = Some(self.out.len());
                                self.out.push_str(", ");
                            }
                            self.expr(x);
                        }
                    }
                } else {
                    self.list(args, &mut |p, x| p.expr(x));
                }
                if let (true, true, Some(n), Some(from)) = (*scalar_args, plain, width, last_start) {
                    if n >= 3 && args.len() == n {
                        self.site(SiteKind::ConstructorArgs { drop: from..self.out.len() }, start);
                    }
                }
                self.out.push(')');
            }
            Expr::Call { name, args } => {
                self.out.push_str(name);
                self.out.push('(');
                self.list(args, &mut |p, x| p.expr(x));
                self.out.push(')');
            }
            Expr::Unary(op, x) => {
                self.out.push('(');
                self.out.push_str(op);
                self.expr(x);
                self.out.push(')');
            }
            Expr::Binary(op, l, r) => {
                self.out.push('(');
                self.expr(l);
                self.out.push(' ');
                self.out.push_str(op);
                self.out.push(' ');
                self.expr(r);
                self.out.push(')');
            }
            Expr::Select(c, a, b) => {
                self.out.push('(');
                self.expr(c);
                self.out.push_str(" ? ");
                self.expr(a);
                self.out.push_str(" : ");
                self.expr(b);
                self.out.push(')');
            }
        }
    }

    fn block(&mut self, stmts: &[Stmt]) {
        self.indent += 1;
        for s in stmts {
            self.stmt(s);
        }
        self.indent -= 1;
    }

    /// The end of a variable declaration, after its name: `[n]`, ` = init`, `;` and the line break.
    fn declaration_tail(&mut self, array: Option<&str>, init: Option<&Expr>) {
        if let Some(n) = array {
            self.out.push_str(&format!("[{n}]"));
        }
        if let Some(init) = init {
            self.out.push_str(" = ");
            self.expr(init);
        }
        self.out.push_str(";\n");
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Decl { constant, ty, name, array, init } => {
                self.start();
                if *constant {
                    self.out.push_str("const ");
                }
                self.out.push_str(ty);
                self.out.push(' ');
                self.out.push_str(name);
                self.declaration_tail(array.as_deref(), init.as_ref());
            }
            Stmt::Assign { target, op, value } => {
                self.start();
                self.expr(target);
                self.out.push_str(&format!(" {op} "));
                self.expr(value);
                self.out.push_str(";\n");
            }
            Stmt::IncDec { target, op, prefix } => {
                self.start();
                if *prefix {
                    self.out.push_str(op);
                }
                self.expr(target);
                if !*prefix {
                    self.out.push_str(op);
                }
                self.out.push_str(";\n");
            }
            Stmt::Call(e) => {
                self.start();
                self.expr(e);
                self.out.push_str(";\n");
            }
            Stmt::If { cond, then, otherwise } => {
                self.start();
                self.out.push_str("if (");
                self.expr(cond);
                self.out.push_str(") {\n");
                self.block(then);
                match otherwise {
                    None => self.line("}"),
                    Some(o) => {
                        self.line("} else {");
                        self.block(o);
                        self.line("}");
                    }
                }
            }
            Stmt::For { var, bound, body } => {
                self.line(&format!("for (int {var} = 0; {var} < {bound}; {var}++) {{"));
                self.block(body);
                self.line("}");
            }
            Stmt::Switch { selector, cases, default } => {
                self.start();
                self.out.push_str("switch (");
                self.expr(selector);
                self.out.push_str(") {\n");
                self.indent += 1;
                for (label, body) in cases {
                    self.line(&format!("case {label}: {{"));
                    self.block(body);
                    self.line("}");
                    self.line("break;");
                }
                self.line("default: {");
                self.block(default);
                self.line("}");
                self.line("break;");
                self.indent -= 1;
                self.line("}");
            }
            Stmt::Block(body) => {
                self.line("{");
                self.block(body);
                self.line("}");
            }
            Stmt::Cond(c) => self.region(c, &mut |p, s| p.stmt(s)),
            Stmt::Return(None) => self.line("return;"),
            Stmt::Return(Some(e)) => {
                self.start();
                self.out.push_str("return ");
                self.expr(e);
                self.out.push_str(";\n");
            }
            Stmt::Break => self.line("break;"),
            Stmt::Continue => self.line("continue;"),
            Stmt::Discard => self.line("discard;"),
        }
    }

    fn member(&mut self, m: &Member) {
        self.start();
        if let Some(loc) = m.location {
            self.out.push_str(&format!("layout(location = {loc}) "));
        }
        self.out.push_str(&format!("{} {}", m.ty, m.name));
        if let Some(n) = m.array {
            self.out.push_str(&format!("[{n}]"));
        }
        self.out.push_str(";\n");
    }

    fn struct_decl(&mut self, s: &StructDecl) {
        self.line(&format!("struct {} {{", s.name));
        self.indent += 1;
        for m in &s.members {
            match m {
                Guarded::Plain(m) => self.member(m),
                Guarded::Cond(c) => self.region(c, &mut |p, m| p.member(m)),
            }
        }
        self.indent -= 1;
        self.line("};");
    }

    fn param(&mut self, p: &Param) {
        if let Some(q) = p.qualifier {
            self.out.push_str(q);
            self.out.push(' ');
        }
        self.out.push_str(&format!("{} {}", p.ty, p.name));
    }

    /// `ret name(params)`; returns the offset of the name.
    fn signature(&mut self, f: &Function) -> usize {
        self.start();
        self.out.push_str(&f.ret);
        self.out.push(' ');
        let name_at = self.out.len();
        self.out.push_str(&f.name);
        self.out.push('(');
        self.list(&f.params, &mut |p, x| p.param(x));
        self.out.push(')');
        name_at
    }

    fn function(&mut self, f: &Function) {
        let name_at = self.signature(f);
        self.out.push_str(" {\n");
        self.block(&f.body);
        self.indent += 1;
        let mut final_return = None;
        match &f.tail {
            Tail::None => {}
            Tail::ReturnVoid => self.line("return;"),
            Tail::Return(e) => {
                self.start();
                let from = self.out.len();
                self.out.push_str("return ");
                self.expr(e);
                self.out.push(';');
                final_return = Some((from, self.out.len(), self.conditional > 0));
                self.out.push('\n');
            }
            Tail::CondReturn(c) => self.region(c, &mut |p, s| p.stmt(s)),
        }
        self.indent -= 1;
        self.start();
        let close_brace = self.out.len();
        self.out.push_str("}\n");
        if let Some((from, to, in_conditional)) = final_return {
            let other_returns = f.body.iter().any(Stmt::contains_return);
            let kind =
                SiteKind::FinalReturn { range: from..to, function: f.name.to_string(), other_returns, close_brace };
            self.sites.push(Site { kind, offset: name_at, in_conditional });
        }
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Struct(s) => self.struct_decl(s),
            Item::Global { qualifier, ty, name, array, init } => {
                self.start();
                if let Some(q) = qualifier {
                    self.out.push_str(q);
                    self.out.push(' ');
                }
                self.out.push_str(&format!("{ty} {name}"));
                self.declaration_tail(array.as_deref(), init.as_ref());
            }
            Item::Function(f) => self.function(f),
            Item::Prototype(f) => {
                // Reads in a prototype do not exist; sites are only recorded by `function`.
                self.signature(f);
                self.out.push_str(";\n");
            }
            Item::Precision(text) => self.line(text),
            Item::Cond(c) => self.region(c, &mut |p, i| p.item(i)),
        }
    }

    fn tags(&mut self, tags: &[(String, String)]) {
        let body: Vec<String> = tags.iter().map(|(k, v)| format!("{k} = \"{v}\"")).collect();
        self.line(&format!("Tags {{ {} }}", body.join(", ")));
    }

    fn lines(&mut self, lines: &[String]) {
        for l in lines {
            self.line(l);
        }
    }

    fn pass(&mut self, pass: &PassDecl) {
        self.line(&format!("Pass \"{}\" {{", pass.name));
        self.indent += 1;
        self.tags(&pass.tags);
        self.lines(&pass.render);
        for i in &pass.items {
            self.item(i);
        }
        self.line(&format!("VertexShader = {};", pass.vertex));
        self.line(&format!("FragmentShader = {};", pass.fragment));
        self.indent -= 1;
        self.line("}");
    }

    fn program(&mut self, p: &Program) {
        self.line(&format!("Shader \"{}\" {{", p.name));
        self.indent += 1;
        if let Some(editor) = &p.editor {
            self.line("Editor {");
            self.indent += 1;
            self.lines(editor);
            self.indent -= 1;
            self.line("}");
        }
        self.lines(&p.render);
        for i in &p.items {
            self.item(i);
        }
        self.line(&format!("SubShader \"{}\" {{", p.subshader_name));
        self.indent += 1;
        self.tags(&p.subshader_tags);
        self.lines(&p.subshader_render);
        for i in &p.subshader_items {
            self.item(i);
        }
        for pass in &p.passes {
            self.pass(pass);
        }
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
    }
}
