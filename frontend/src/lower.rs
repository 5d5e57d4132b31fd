//! Lowering: a level's syntax tree into IR entities (types interned, expressions moved into their owner's arena
//! operands-first, declarators split into one entity each, locals numbered per function).

use crate::ast::{
    AstBlock, AstDefine, AstExprKind, AstFunction, AstItem, AstLevel, AstMember, AstParam, AstStmt, AstStmtKind,
    AstType, AstVarDecl, ExprIdx,
};
use cranelift_entity::PrimaryMap;
use shaderlab_ir::{
    ArrayDim, Block, CondBranch, CondRegion, Expr, ExprId, Expression, Function, FunctionId, GlobalItem, GlobalVar,
    Guarded, Local, LocalId, LocalKind, MacroDef, MacroId, Module, Param, ParamKind, Qualifiers, Statement, StmtKind,
    StructDecl, StructId, StructMember, TypeInner, TypeSpec,
};

type Arena = PrimaryMap<ExprId, Expression>;

/// Map a guarded list; `f` pushes the lowered form of each element (zero or more items) to `out`.
fn map_guarded<T, U>(items: &[Guarded<T>], f: &mut dyn FnMut(&T, &mut Vec<Guarded<U>>)) -> Vec<Guarded<U>> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Guarded::Item(t) => f(t, &mut out),
            Guarded::Cond(region) => out.push(Guarded::Cond(CondRegion {
                branches: region
                    .branches
                    .iter()
                    .map(|b| CondBranch { condition: b.condition.clone(), items: map_guarded(&b.items, f) })
                    .collect(),
                else_items: region.else_items.as_ref().map(|items| map_guarded(items, f)),
                else_span: region.else_span,
                end_span: region.end_span,
            })),
        }
    }
    out
}

pub struct Lowerer<'m> {
    module: &'m mut Module,
    ast: &'m AstLevel,
}

impl<'m> Lowerer<'m> {
    pub fn new(module: &'m mut Module, ast: &'m AstLevel) -> Self {
        Lowerer { module, ast }
    }

    pub fn items(&mut self) -> Vec<Guarded<GlobalItem>> {
        let ast = self.ast;
        map_guarded(&ast.items, &mut |item, out| out.extend(self.item(item).into_iter().map(Guarded::Item)))
    }

    fn item(&mut self, item: &AstItem) -> Vec<GlobalItem> {
        match item {
            AstItem::Var(decl) => self.globals(decl).into_iter().map(GlobalItem::Var).collect(),
            AstItem::Struct(s, vars) => {
                let id = self.structure(s);
                let mut out = vec![GlobalItem::Struct(id)];
                if let Some(vars) = vars {
                    out.extend(self.globals(vars).into_iter().map(GlobalItem::Var));
                }
                out
            }
            AstItem::Function(f) => vec![GlobalItem::Function(self.function(f))],
            AstItem::Define(d) => vec![GlobalItem::Define(self.define(d))],
            AstItem::Undef(name, span) => vec![GlobalItem::Undef { name: *name, span: *span }],
            AstItem::Precision { precision, ty, span } => {
                let ty = self.module.types.intern(*ty);
                vec![GlobalItem::Precision { precision: *precision, ty, span: *span }]
            }
        }
    }

    fn with_global_arena<R>(&mut self, f: impl FnOnce(&mut Self, &mut Arena) -> R) -> R {
        let mut arena = std::mem::take(&mut self.module.global_exprs);
        let r = f(self, &mut arena);
        self.module.global_exprs = arena;
        r
    }

    fn globals(&mut self, decl: &AstVarDecl) -> Vec<shaderlab_ir::GlobalId> {
        self.with_global_arena(|this, arena| {
            decl.declarators
                .iter()
                .map(|d| {
                    let ty = this.type_spec(&decl.ty, &d.dims, arena);
                    let init = d.init.map(|e| this.expr(e, arena));
                    this.module.globals.push(GlobalVar {
                        name: d.name,
                        name_span: d.name_span,
                        ty,
                        qualifiers: decl.qualifiers.clone(),
                        init,
                        span: decl.span,
                    })
                })
                .collect()
        })
    }

    fn structure(&mut self, s: &crate::ast::AstStruct) -> StructId {
        let members = self.with_global_arena(|this, arena| {
            map_guarded(&s.members, &mut |m: &AstMember, out| {
                for d in &m.declarators {
                    out.push(Guarded::Item(StructMember {
                        name: d.name,
                        name_span: d.name_span,
                        ty: this.type_spec(&m.ty, &d.dims, arena),
                        qualifiers: m.qualifiers.clone(),
                        span: m.span,
                    }));
                }
            })
        });
        self.module.structs.push(StructDecl { name: s.name, name_span: s.name_span, members, span: s.span })
    }

    fn define(&mut self, d: &AstDefine) -> MacroId {
        let body_expr = d.body_expr.map(|e| self.with_global_arena(|this, arena| this.expr(e, arena)));
        self.module.macros.push(MacroDef {
            name: d.name,
            name_span: d.name_span,
            params: d.params.clone(),
            body: d.text.clone(),
            body_expr,
            span: d.span,
        })
    }

    fn type_spec(&mut self, ty: &AstType, extra_dims: &[Option<ExprIdx>], arena: &mut Arena) -> TypeSpec {
        let base = self.module.types.intern(ty.inner);
        let dims = ty
            .dims
            .iter()
            .chain(extra_dims)
            .map(|d| match d {
                Some(e) => ArrayDim::Sized(self.expr(*e, arena)),
                None => ArrayDim::Unsized,
            })
            .collect();
        TypeSpec { base, precision: ty.precision, dims, span: ty.span }
    }

    fn function(&mut self, f: &AstFunction) -> FunctionId {
        let mut fx = FunctionCx { arena: Arena::with_capacity(f.expr_count + 4), locals: PrimaryMap::new() };
        let return_type = self.type_spec(&f.return_type, &[], &mut fx.arena);
        let params = map_guarded(&f.params, &mut |p: &AstParam, out| out.push(Guarded::Item(self.param(p, &mut fx))));
        let body = f.body.as_ref().map(|b| self.block(b, &mut fx));
        self.module.functions.push(Function {
            name: f.name,
            name_span: f.name_span,
            return_type,
            params,
            body,
            exprs: fx.arena,
            locals: fx.locals,
            span: f.span,
        })
    }

    fn param(&mut self, p: &AstParam, fx: &mut FunctionCx) -> Param {
        match p {
            AstParam::Declared { qualifiers, ty, name, span } => {
                let spec = self.type_spec(ty, &[], &mut fx.arena);
                let (name, name_span) = name.unwrap_or_else(|| (self.module.names.intern(""), *span));
                let local = fx.locals.push(Local {
                    name,
                    name_span,
                    ty: spec,
                    qualifiers: qualifiers.clone(),
                    init: None,
                    kind: LocalKind::Parameter,
                    span: *span,
                });
                Param { kind: ParamKind::Declared { local }, span: *span }
            }
            AstParam::Macro { name, args, declares, span } => {
                let args = args.iter().map(|a| self.expr(*a, &mut fx.arena)).collect();
                let declares = declares.map(|(n, s)| {
                    // The declared parameter's type depends on the variant: an unresolved user type named after
                    // the macro marks it as macro-typed.
                    let base = self.module.types.intern(TypeInner::User(*name));
                    fx.locals.push(Local {
                        name: n,
                        name_span: s,
                        ty: TypeSpec { base, precision: None, dims: Vec::new(), span: *span },
                        qualifiers: Qualifiers::default(),
                        init: None,
                        kind: LocalKind::Parameter,
                        span: *span,
                    })
                });
                Param { kind: ParamKind::Macro { name: *name, args, declares }, span: *span }
            }
        }
    }

    fn block(&mut self, b: &AstBlock, fx: &mut FunctionCx) -> Block {
        let stmts = map_guarded(&b.stmts, &mut |s: &AstStmt, out| out.push(Guarded::Item(self.stmt(s, fx))));
        Block { stmts, span: b.span }
    }

    fn locals(&mut self, decl: &AstVarDecl, fx: &mut FunctionCx) -> Vec<LocalId> {
        decl.declarators
            .iter()
            .map(|d| {
                let ty = self.type_spec(&decl.ty, &d.dims, &mut fx.arena);
                let init = d.init.map(|e| self.expr(e, &mut fx.arena));
                fx.locals.push(Local {
                    name: d.name,
                    name_span: d.name_span,
                    ty,
                    qualifiers: decl.qualifiers.clone(),
                    init,
                    kind: LocalKind::Variable,
                    span: d.span,
                })
            })
            .collect()
    }

    fn boxed(&mut self, s: &AstStmt, fx: &mut FunctionCx) -> Box<Statement> {
        Box::new(self.stmt(s, fx))
    }

    fn stmt(&mut self, s: &AstStmt, fx: &mut FunctionCx) -> Statement {
        let kind = match &s.kind {
            AstStmtKind::Empty => StmtKind::Empty,
            AstStmtKind::Expr(e) => StmtKind::Expr(self.expr(*e, &mut fx.arena)),
            AstStmtKind::Decl(d) => StmtKind::Declare(self.locals(d, fx)),
            AstStmtKind::Struct(decl, vars) => {
                let id = self.structure(decl);
                let declares = vars.as_ref().map(|v| self.locals(v, fx)).unwrap_or_default();
                StmtKind::Struct { id, declares }
            }
            AstStmtKind::Prototype(f) => StmtKind::Prototype(self.function(f)),
            AstStmtKind::Precision { precision, ty } => {
                StmtKind::Precision { precision: *precision, ty: self.module.types.intern(*ty) }
            }
            AstStmtKind::Block(b) => StmtKind::Block(self.block(b, fx)),
            AstStmtKind::If { condition, accept, reject } => StmtKind::If {
                condition: self.expr(*condition, &mut fx.arena),
                accept: self.boxed(accept, fx),
                reject: reject.as_ref().map(|r| self.boxed(r, fx)),
            },
            AstStmtKind::For { init, condition, update, body } => StmtKind::For {
                init: init.as_ref().map(|i| self.boxed(i, fx)),
                condition: condition.map(|c| self.expr(c, &mut fx.arena)),
                update: update.map(|u| self.expr(u, &mut fx.arena)),
                body: self.boxed(body, fx),
            },
            AstStmtKind::While { condition, body } => {
                StmtKind::While { condition: self.expr(*condition, &mut fx.arena), body: self.boxed(body, fx) }
            }
            AstStmtKind::DoWhile { body, condition } => {
                let body = self.boxed(body, fx);
                StmtKind::DoWhile { body, condition: self.expr(*condition, &mut fx.arena) }
            }
            AstStmtKind::Switch { selector, body } => {
                StmtKind::Switch { selector: self.expr(*selector, &mut fx.arena), body: self.block(body, fx) }
            }
            AstStmtKind::Case(e) => StmtKind::Case(self.expr(*e, &mut fx.arena)),
            AstStmtKind::Default => StmtKind::Default,
            AstStmtKind::Break => StmtKind::Break,
            AstStmtKind::Continue => StmtKind::Continue,
            AstStmtKind::Return(e) => StmtKind::Return(e.map(|e| self.expr(e, &mut fx.arena))),
            AstStmtKind::Discard => StmtKind::Discard,
            AstStmtKind::Define(d) => StmtKind::Define(self.define(d)),
            AstStmtKind::Undef(n) => StmtKind::Undef(*n),
        };
        Statement { kind, span: s.span }
    }

    fn args(&mut self, args: &[Guarded<ExprIdx>], arena: &mut Arena) -> Vec<Guarded<ExprId>> {
        map_guarded(args, &mut |a: &ExprIdx, out| out.push(Guarded::Item(self.expr(*a, arena))))
    }

    /// Lower an expression tree, operands first.
    fn expr(&mut self, idx: ExprIdx, arena: &mut Arena) -> ExprId {
        let e = &self.ast.exprs[idx];
        let span = e.span;
        let kind = match &e.kind {
            AstExprKind::Literal(l) => Expr::Literal(*l),
            AstExprKind::Ident(n) => Expr::Ident(*n),
            AstExprKind::MacroRef { name, args } => {
                Expr::MacroRef { name: *name, args: args.as_ref().map(|a| self.args(a, arena)) }
            }
            AstExprKind::Unary { op, operand } => Expr::Unary { op: *op, operand: self.expr(*operand, arena) },
            AstExprKind::Binary { op, left, right } => {
                let left = self.expr(*left, arena);
                Expr::Binary { op: *op, left, right: self.expr(*right, arena) }
            }
            AstExprKind::Assign { op, target, value } => {
                let target = self.expr(*target, arena);
                Expr::Assign { op: *op, target, value: self.expr(*value, arena) }
            }
            AstExprKind::IncDec { op, target } => Expr::IncDec { op: *op, target: self.expr(*target, arena) },
            AstExprKind::Select { condition, accept, reject } => {
                let condition = self.expr(*condition, arena);
                let accept = self.expr(*accept, arena);
                Expr::Select { condition, accept, reject: self.expr(*reject, arena) }
            }
            AstExprKind::Sequence { left, right } => {
                let left = self.expr(*left, arena);
                Expr::Sequence { left, right: self.expr(*right, arena) }
            }
            AstExprKind::Call { callee, callee_span, args } => {
                Expr::Call { callee: *callee, callee_span: *callee_span, args: self.args(args, arena) }
            }
            AstExprKind::Construct { ty, args } => {
                let ty = self.type_spec(ty, &[], arena);
                Expr::Construct { ty, args: self.args(args, arena) }
            }
            AstExprKind::Member { base, member, member_span } => {
                Expr::Member { base: self.expr(*base, arena), member: *member, member_span: *member_span }
            }
            AstExprKind::Index { base, index } => {
                let base = self.expr(*base, arena);
                Expr::Index { base, index: self.expr(*index, arena) }
            }
            AstExprKind::Length { base } => Expr::ArrayLength { base: self.expr(*base, arena) },
            AstExprKind::Error => Expr::Error,
        };
        arena.push(Expression { kind, span })
    }
}

struct FunctionCx {
    arena: Arena,
    locals: PrimaryMap<LocalId, Local>,
}
