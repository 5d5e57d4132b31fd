//! Lowering: a level's syntax tree into IR entities (declarators split into one entity each, locals numbered per
//! function). Expressions and types are already in their IR form (the parser made them), so lowering moves
//! each function's expression arena into its [`Function`] and never looks at an expression.

use crate::ast::{AstBlock, AstDefine, AstFunction, AstItem, AstLevel, AstParam, AstStmt, AstStmtKind, AstVarDecl};
use cranelift_entity::PrimaryMap;
use shaderlab_ir::{
    Block, CondBranch, CondRegion, Function, FunctionId, GlobalId, GlobalItem, GlobalVar, Guarded, Local, LocalId,
    LocalKind, MacroDef, MacroId, Module, Param, ParamKind, Qualifiers, Statement, StmtKind, StructDecl, StructId,
    StructMember, TypeSpec,
};

/// Map a guarded list; `f` pushes the lowered form of each element (zero or more items) to `out`.
fn map_guarded<T, U>(items: Vec<Guarded<T>>, f: &mut dyn FnMut(T, &mut Vec<Guarded<U>>)) -> Vec<Guarded<U>> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Guarded::Item(t) => f(t, &mut out),
            Guarded::Cond(region) => out.push(Guarded::Cond(CondRegion {
                branches: region
                    .branches
                    .into_iter()
                    .map(|b| CondBranch { condition: b.condition, items: map_guarded(b.items, f) })
                    .collect(),
                else_items: region.else_items.map(|items| map_guarded(items, f)),
                else_span: region.else_span,
                end_span: region.end_span,
            })),
        }
    }
    out
}

pub struct Lowerer<'m> {
    module: &'m mut Module,
}

impl<'m> Lowerer<'m> {
    pub fn new(module: &'m mut Module) -> Self {
        Lowerer { module }
    }

    pub fn items(&mut self, ast: AstLevel) -> Vec<Guarded<GlobalItem>> {
        map_guarded(ast.items, &mut |item, out| self.item(item, out))
    }

    fn item(&mut self, item: AstItem, out: &mut Vec<Guarded<GlobalItem>>) {
        match item {
            AstItem::Var(decl) => out.extend(self.globals(decl).into_iter().map(|g| Guarded::Item(GlobalItem::Var(g)))),
            AstItem::Struct(s, vars) => {
                let id = self.structure(s);
                out.push(Guarded::Item(GlobalItem::Struct(id)));
                if let Some(vars) = vars {
                    out.extend(self.globals(vars).into_iter().map(|g| Guarded::Item(GlobalItem::Var(g))));
                }
            }
            AstItem::Function(f) => out.push(Guarded::Item(GlobalItem::Function(self.function(f)))),
            AstItem::Define(d) => out.push(Guarded::Item(GlobalItem::Define(self.define(d)))),
            AstItem::Undef(name, span) => out.push(Guarded::Item(GlobalItem::Undef { name, span })),
            AstItem::Precision { precision, ty, span } => {
                out.push(Guarded::Item(GlobalItem::Precision { precision, ty, span }))
            }
        }
    }

    fn globals(&mut self, decl: AstVarDecl) -> Vec<GlobalId> {
        decl.declarators
            .into_iter()
            .map(|d| {
                self.module.globals.push(GlobalVar {
                    name: d.name,
                    name_span: d.name_span,
                    ty: d.ty,
                    qualifiers: decl.qualifiers.clone(),
                    init: d.init,
                    span: decl.span,
                })
            })
            .collect()
    }

    fn structure(&mut self, s: crate::ast::AstStruct) -> StructId {
        let members = map_guarded(s.members, &mut |m: AstVarDecl, out| {
            for d in m.declarators {
                out.push(Guarded::Item(StructMember {
                    name: d.name,
                    name_span: d.name_span,
                    ty: d.ty,
                    qualifiers: m.qualifiers.clone(),
                    span: m.span,
                }));
            }
        });
        self.module.structs.push(StructDecl { name: s.name, name_span: s.name_span, members, span: s.span })
    }

    fn define(&mut self, d: AstDefine) -> MacroId {
        self.module.macros.push(MacroDef {
            name: d.name,
            name_span: d.name_span,
            params: d.params,
            body: d.text,
            body_expr: d.body_expr,
            span: d.span,
        })
    }

    fn function(&mut self, f: AstFunction) -> FunctionId {
        let mut locals = PrimaryMap::new();
        let params = map_guarded(f.params, &mut |p: AstParam, out| out.push(Guarded::Item(self.param(p, &mut locals))));
        let body = f.body.map(|b| self.block(b, &mut locals));
        self.module.functions.push(Function {
            name: f.name,
            name_span: f.name_span,
            return_type: f.return_type,
            params,
            body,
            exprs: f.exprs,
            locals,
            span: f.span,
        })
    }

    fn param(&mut self, p: AstParam, locals: &mut Locals) -> Param {
        match p {
            AstParam::Declared { qualifiers, ty, name, span } => {
                let (name, name_span) = name.unwrap_or_else(|| (self.module.names.intern(""), span));
                let local = locals.push(Local {
                    name,
                    name_span,
                    ty,
                    qualifiers,
                    init: None,
                    kind: LocalKind::Parameter,
                    span,
                });
                Param { kind: ParamKind::Declared { local }, span }
            }
            AstParam::Macro { name, args, declares, span } => {
                let declares = declares.map(|d| {
                    locals.push(Local {
                        name: d.name,
                        name_span: d.span,
                        ty: TypeSpec { base: d.ty, precision: None, dims: Vec::new(), span },
                        qualifiers: Qualifiers::default(),
                        init: None,
                        kind: LocalKind::Parameter,
                        span,
                    })
                });
                Param { kind: ParamKind::Macro { name, args, declares }, span }
            }
        }
    }

    fn block(&mut self, b: AstBlock, locals: &mut Locals) -> Block {
        let stmts = map_guarded(b.stmts, &mut |s: AstStmt, out| out.push(Guarded::Item(self.stmt(s, locals))));
        Block { stmts, span: b.span }
    }

    fn locals(&mut self, decl: AstVarDecl, locals: &mut Locals) -> Vec<LocalId> {
        decl.declarators
            .into_iter()
            .map(|d| {
                locals.push(Local {
                    name: d.name,
                    name_span: d.name_span,
                    ty: d.ty,
                    qualifiers: decl.qualifiers.clone(),
                    init: d.init,
                    kind: LocalKind::Variable,
                    span: d.span,
                })
            })
            .collect()
    }

    fn boxed(&mut self, s: AstStmt, locals: &mut Locals) -> Box<Statement> {
        Box::new(self.stmt(s, locals))
    }

    fn stmt(&mut self, s: AstStmt, locals: &mut Locals) -> Statement {
        let kind = match s.kind {
            AstStmtKind::Empty => StmtKind::Empty,
            AstStmtKind::Expr(e) => StmtKind::Expr(e),
            AstStmtKind::Decl(d) => StmtKind::Declare(self.locals(d, locals)),
            AstStmtKind::Struct(decl, vars) => {
                let id = self.structure(decl);
                let declares = vars.map(|v| self.locals(v, locals)).unwrap_or_default();
                StmtKind::Struct { id, declares }
            }
            AstStmtKind::Prototype(f) => StmtKind::Prototype(self.function(f)),
            AstStmtKind::Precision { precision, ty } => StmtKind::Precision { precision, ty },
            AstStmtKind::Block(b) => StmtKind::Block(self.block(b, locals)),
            AstStmtKind::If { condition, accept, reject } => StmtKind::If {
                condition,
                accept: self.boxed(*accept, locals),
                reject: reject.map(|r| self.boxed(*r, locals)),
            },
            AstStmtKind::For { init, condition, update, body } => StmtKind::For {
                init: init.map(|i| self.boxed(*i, locals)),
                condition,
                update,
                body: self.boxed(*body, locals),
            },
            AstStmtKind::While { condition, body } => StmtKind::While { condition, body: self.boxed(*body, locals) },
            AstStmtKind::DoWhile { body, condition } => {
                StmtKind::DoWhile { body: self.boxed(*body, locals), condition }
            }
            AstStmtKind::Switch { selector, body } => StmtKind::Switch { selector, body: self.block(body, locals) },
            AstStmtKind::Case(e) => StmtKind::Case(e),
            AstStmtKind::Default => StmtKind::Default,
            AstStmtKind::Break => StmtKind::Break,
            AstStmtKind::Continue => StmtKind::Continue,
            AstStmtKind::Return(e) => StmtKind::Return(e),
            AstStmtKind::Discard => StmtKind::Discard,
            AstStmtKind::Define(d) => StmtKind::Define(self.define(d)),
            AstStmtKind::Undef(n) => StmtKind::Undef(n),
        };
        Statement { kind, span: s.span }
    }
}

/// The locals of the function being lowered.
type Locals = PrimaryMap<LocalId, Local>;
