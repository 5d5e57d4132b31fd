//! Expressions, with the fewest parentheses GLSL's precedence allows (the IR tree is kept exactly: `a - (b - c)`
//! keeps its parentheses, `(a * b) + c` loses them), builtin renames of the target, and the interface rewrite
//! (`o.uv` -> `uv`, IO-struct arguments dropped, bare member names to their stage variables).
//!
//! Precedence levels (GLSL ES 3.00 §5.1), smaller binds tighter: 1 primary, 2 postfix, 3 prefix unary,
//! 4 multiplicative, 5 additive, 6 shift, 7 relational, 8 equality, 9 `&`, 10 `^`, 11 `|`, 12 `&&`, 13 `^^`,
//! 14 `||`, 15 `?:`, 16 assignment, 17 `,`.

use crate::dialect::OutputBinding;
use crate::error::Unsupported;
use crate::interface::{is_builtin, IoRole};
use crate::writer::{is_object_in, location, Writer};
use shaderlab_ir::{Arg, BinaryOp, Expr, ExprId, IncDecOp, Literal, ScalarKind, StructId, TypeInner, UnaryOp};
use shaderlab_passes::builtins::{self, BuiltinVar};
use shaderlab_passes::resolve::{CallTarget, Resolved, Symbol};
use shaderlab_passes::table::Arena as Exprs;
use shaderlab_passes::typing::{Access, Callee, Type};
use shaderlab_passes::{Owner, Ty};

fn binary_precedence(op: BinaryOp) -> u8 {
    use BinaryOp::*;
    match op {
        Mul | Div | Rem => 4,
        Add | Sub => 5,
        ShiftLeft | ShiftRight => 6,
        Less | Greater | LessEqual | GreaterEqual => 7,
        Equal | NotEqual => 8,
        BitAnd => 9,
        BitXor => 10,
        BitOr => 11,
        LogicalAnd => 12,
        LogicalXor => 13,
        LogicalOr => 14,
    }
}

impl<'a> Writer<'a> {
    /// An expression in any position (sequences included).
    pub(crate) fn expr(&mut self, owner: Owner, e: ExprId) -> String {
        self.expr_max(owner, e, 17)
    }

    /// An expression where at most precedence level `max` may appear without parentheses.
    pub(crate) fn expr_max(&mut self, owner: Owner, e: ExprId, max: u8) -> String {
        let mut out = String::with_capacity(32);
        self.expr_into(&mut out, owner, e, max);
        out
    }

    /// [`Self::expr_max`] appended to `out` (the whole expression tree is written into one buffer).
    pub(crate) fn expr_into(&mut self, out: &mut String, owner: Owner, e: ExprId, max: u8) {
        if let Some(exprs) = crate::plan::arena(self.m, owner) {
            self.expr_in(out, owner, exprs, e, max);
        }
    }

    /// [`Self::expr_into`] with the arena of `owner` (looked up once per tree, not once per node).
    fn expr_in(&mut self, out: &mut String, owner: Owner, exprs: &'a Exprs, e: ExprId, max: u8) {
        let start = out.len();
        let level = self.expr_level(out, owner, exprs, e);
        if level > max {
            out.insert(start, '(');
            out.push(')');
        }
    }

    /// Append the expression to `out` and return its precedence level. Inlined into [`Self::expr_in`]: one call
    /// a node instead of two.
    #[inline(always)]
    fn expr_level(&mut self, out: &mut String, owner: Owner, exprs: &'a Exprs, e: ExprId) -> u8 {
        let m = self.m;
        let Some(expr) = exprs.get(e) else {
            return 1;
        };
        match &expr.kind {
            Expr::Literal(lit) => {
                self.literal(out, lit, expr.span);
                1
            }
            Expr::Ident(name) => self.ident(out, owner, e, *name, expr.span),
            Expr::MacroRef { name, args } => {
                self.reflection.macro_use(*name);
                out.push_str(m.name(*name));
                match args {
                    None => 1,
                    Some(args) => {
                        out.push('(');
                        self.args(out, owner, exprs, args);
                        out.push(')');
                        2
                    }
                }
            }
            Expr::Unary { op, operand } => {
                if let Err(reason) = self.d.check_unary(*op) {
                    self.error(op.symbol(), reason, expr.span);
                }
                let symbol = op.symbol();
                out.push_str(symbol);
                let inner = out.len();
                self.expr_in(out, owner, exprs, *operand, 3);
                // `- -x` must not become `--x`.
                if matches!(op, UnaryOp::Negate | UnaryOp::Plus) && out[inner..].starts_with(symbol) {
                    out.insert(inner, '(');
                    out.push(')');
                }
                3
            }
            Expr::Binary { op, left, right } => {
                if let Err(reason) = self.d.check_binary(*op) {
                    self.error(op.symbol(), reason, expr.span);
                }
                let p = binary_precedence(*op);
                self.expr_in(out, owner, exprs, *left, p);
                out.push(' ');
                out.push_str(op.symbol());
                out.push(' ');
                self.expr_in(out, owner, exprs, *right, p - 1);
                p
            }
            Expr::Assign { op, target, value } => {
                if self.is_object_here(owner, *target) {
                    // `o = helper();` with `o` renamed away: the call writes the stage variables.
                    return self.expr_level(out, owner, exprs, *value);
                }
                if let Some(op) = op {
                    if let Err(reason) = self.d.check_binary(*op) {
                        self.error(format!("{}=", op.symbol()), reason, expr.span);
                    }
                }
                if op.is_none() && !self.d.has_array_features() {
                    if let Type::Known(Ty::Array(..)) = self.facts.typing.exprs.get(owner, *target) {
                        self.error("=", Unsupported::ArrayFeature, expr.span);
                    }
                }
                self.expr_in(out, owner, exprs, *target, 3);
                out.push(' ');
                if let Some(op) = op {
                    out.push_str(op.symbol());
                }
                out.push_str("= ");
                self.expr_in(out, owner, exprs, *value, 16);
                16
            }
            Expr::IncDec { op, target } => match op {
                IncDecOp::PreIncrement => {
                    out.push_str("++");
                    self.expr_in(out, owner, exprs, *target, 3);
                    3
                }
                IncDecOp::PreDecrement => {
                    out.push_str("--");
                    self.expr_in(out, owner, exprs, *target, 3);
                    3
                }
                IncDecOp::PostIncrement => {
                    self.expr_in(out, owner, exprs, *target, 2);
                    out.push_str("++");
                    2
                }
                IncDecOp::PostDecrement => {
                    self.expr_in(out, owner, exprs, *target, 2);
                    out.push_str("--");
                    2
                }
            },
            Expr::Select { condition, accept, reject } => {
                self.expr_in(out, owner, exprs, *condition, 14);
                out.push_str(" ? ");
                self.expr_in(out, owner, exprs, *accept, 16);
                out.push_str(" : ");
                self.expr_in(out, owner, exprs, *reject, 15);
                15
            }
            Expr::Sequence { left, right } => {
                self.expr_in(out, owner, exprs, *left, 17);
                out.push_str(", ");
                self.expr_in(out, owner, exprs, *right, 16);
                17
            }
            Expr::Call { callee, callee_span, args } => {
                self.callee_name(out, owner, e, *callee, args, *callee_span);
                out.push('(');
                self.args(out, owner, exprs, args);
                out.push(')');
                2
            }
            Expr::Construct { ty, args } if ty.dims.is_empty() => {
                self.spec_base_into(out, ty);
                out.push('(');
                self.args(out, owner, exprs, args);
                out.push(')');
                2
            }
            Expr::Construct { ty, args } => {
                let mut name = self.spec_type_no_precision(ty);
                if !ty.dims.is_empty() {
                    if !self.d.has_array_features() {
                        self.error(&name, Unsupported::ArrayFeature, expr.span);
                    }
                    let dims = self.spec_dims(ty, owner, &name.clone());
                    name.push_str(&dims);
                }
                out.push_str(&name);
                out.push('(');
                self.args(out, owner, exprs, args);
                out.push(')');
                2
            }
            Expr::Member { base, member, .. } => {
                if self.is_object_here(owner, *base) {
                    if let Type::Known(Ty::Struct(s)) = self.facts.typing.exprs.get(owner, *base) {
                        return self.stage_variable(out, *s, *member, expr.span);
                    }
                }
                self.expr_in(out, owner, exprs, *base, 2);
                out.push('.');
                match self.facts.typing.access.get(owner, e) {
                    Access::Field(_) => out.push_str(self.names.member(m, *member)),
                    Access::Swizzle(_) | Access::None => out.push_str(m.name(*member)),
                }
                2
            }
            Expr::Index { base, index } => {
                if is_builtin(self.facts, owner, *base, "gl_FragData") {
                    if let Some(i) = self.facts.consts.values.get(owner, *index).as_ref().and_then(|v| v.as_int()) {
                        return match self.d.frag_data_output(i) {
                            OutputBinding::Declared { name, .. } => {
                                out.push_str(&name);
                                1
                            }
                            OutputBinding::Builtin(name) => {
                                out.push_str(&name);
                                2
                            }
                        };
                    }
                    if let OutputBinding::Declared { .. } = self.d.frag_data_output(0) {
                        self.error("gl_FragData", Unsupported::FragDataIndex, expr.span);
                    }
                }
                self.expr_in(out, owner, exprs, *base, 2);
                out.push('[');
                self.expr_in(out, owner, exprs, *index, 17);
                out.push(']');
                2
            }
            Expr::ArrayLength { base } => {
                if !self.d.has_array_features() {
                    self.error("length", Unsupported::ArrayFeature, expr.span);
                }
                self.expr_in(out, owner, exprs, *base, 2);
                out.push_str(".length()");
                2
            }
            Expr::Error => {
                // Source text: it may span lines.
                self.may_break = true;
                out.push_str(m.sources.snippet(expr.span));
                1
            }
        }
    }

    fn literal(&mut self, out: &mut String, lit: &Literal, span: shaderlab_ir::Span) {
        let m = self.m;
        match lit {
            Literal::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Literal::Int { spelling, .. } => out.push_str(m.name(*spelling)),
            Literal::Uint { spelling, .. } => {
                if !self.d.has_uint_literals() {
                    self.error(m.name(*spelling), Unsupported::UintLiteral, span);
                }
                out.push_str(m.name(*spelling));
            }
            Literal::Float { spelling, .. } => out.push_str(&self.d.float_literal(m.name(*spelling))),
        }
    }

    /// A type written as a constructor name (no precision).
    fn spec_type_no_precision(&mut self, ty: &shaderlab_ir::TypeSpec) -> String {
        self.spec_base(ty)
    }

    /// Identifier `e` (spelled `name`, at `span`).
    fn ident(
        &mut self,
        out: &mut String,
        owner: Owner,
        e: ExprId,
        name: shaderlab_ir::Name,
        span: shaderlab_ir::Span,
    ) -> u8 {
        let m = self.m;
        let Resolved::Symbols(symbols) = self.facts.resolution.idents.get(owner, e) else {
            out.push_str(m.name(name));
            return 1;
        };
        let Some(symbol) = symbols.first() else {
            out.push_str(m.name(name));
            return 1;
        };
        match symbol {
            Symbol::Local(l) => match owner {
                Owner::Function(f) => out.push_str(self.names.local(m, f, *l)),
                Owner::Global => out.push_str(m.name(name)),
            },
            Symbol::Global(g) => match m.globals.get(*g) {
                Some(global) if !global.is_uniform() => out.push_str(self.names.global(m, name)),
                _ => out.push_str(m.name(name)),
            },
            Symbol::Builtin(b) => return self.builtin_variable(out, b.var(), span),
            // The same name in both targets.
            Symbol::DepthRange => out.push_str(builtins::DEPTH_RANGE),
            Symbol::RuntimeMacro(n) => {
                self.reflection.macro_use(*n);
                out.push_str(m.name(*n));
            }
            Symbol::IoMember(s, n) => return self.stage_variable(out, *s, *n, span),
        }
        1
    }

    fn builtin_variable(&mut self, out: &mut String, var: &'static BuiltinVar, span: shaderlab_ir::Span) -> u8 {
        match var.name {
            "gl_FragColor" => match self.d.color_output() {
                OutputBinding::Builtin(n) | OutputBinding::Declared { name: n, .. } => out.push_str(&n),
            },
            // Indexed: see `Expr::Index`. A bare use (passed whole) keeps the builtin.
            "gl_FragData" => out.push_str("gl_FragData"),
            _ => match self.d.builtin_variable(var, self.stage) {
                Ok(n) => out.push_str(n),
                Err(reason) => {
                    self.error(var.name, reason, span);
                    out.push_str(var.name);
                }
            },
        }
        1
    }

    /// The stage variable standing for member `name` of IO struct `s`, appended to `out`; its precedence level.
    pub(crate) fn stage_variable(
        &mut self,
        out: &mut String,
        s: StructId,
        name: shaderlab_ir::Name,
        span: shaderlab_ir::Span,
    ) -> u8 {
        let m = self.m;
        let text = m.name(name);
        match self.program.interface.member_kind(m, self.stage, s, name) {
            Some(IoRole::Attribute) | Some(IoRole::Varying) | None => {}
            Some(IoRole::Mrt) => {
                let Some(mrt) = self.program.interface.mrt else {
                    out.push_str(text);
                    return 1;
                };
                let Some(mem) = crate::interface::members(m, mrt).into_iter().find(|x| x.name == name) else {
                    out.push_str(text);
                    return 1;
                };
                let vec4 = matches!(m.types.get(mem.ty.base), TypeInner::Vector { size: 4, kind: ScalarKind::Float });
                match self.d.mrt_output(text, location(m, mem), vec4) {
                    Ok(OutputBinding::Declared { name, .. }) => {
                        out.push_str(&name);
                        return 1;
                    }
                    Ok(OutputBinding::Builtin(name)) => {
                        out.push_str(&name);
                        return 2;
                    }
                    Err(reason) => self.error(text, reason, span),
                }
            }
        }
        out.push_str(text);
        1
    }

    /// Arguments, without those standing for a renamed IO struct, appended to `out`.
    fn args(&mut self, out: &mut String, owner: Owner, exprs: &'a Exprs, args: &'a [Arg]) {
        if args.iter().all(|a| matches!(a, shaderlab_ir::Guarded::Item(_))) {
            // No conditional elements: `a, b` written in place. (Whether the function has objects is asked once.)
            let with_objects = match owner {
                Owner::Function(f) if self.has_objects(f) => Some(f),
                _ => None,
            };
            let mut first = true;
            for a in args {
                let shaderlab_ir::Guarded::Item(a) = a else { continue };
                if with_objects.is_some_and(|f| is_object_in(self.m, self.facts, self.plan, f, *a)) {
                    continue;
                }
                if !first {
                    out.push_str(", ");
                }
                first = false;
                self.expr_in(out, owner, exprs, *a, 16);
            }
            return;
        }
        let keep = move |w: &Self, a: &ExprId| !w.is_object_here(owner, *a);
        self.list(out, args, &keep, &mut |w, out, a: &'a ExprId| w.expr_in(out, owner, exprs, *a, 16));
    }

    fn callee_name(
        &mut self,
        out: &mut String,
        owner: Owner,
        e: ExprId,
        callee: shaderlab_ir::Name,
        args: &[Arg],
        span: shaderlab_ir::Span,
    ) {
        let m = self.m;
        let text = m.name(callee);
        match self.facts.typing.callees.get(owner, e) {
            Callee::User(_) | Callee::Struct(_) => out.push_str(self.names.global(m, callee)),
            Callee::Builtin(i) => {
                let overload = builtins::functions().get(*i);
                self.builtin_call(out, text, overload, owner, args, span)
            }
            Callee::None => match self.facts.resolution.calls.get(owner, e) {
                CallTarget::Callable { user, .. } if !user.is_empty() => out.push_str(self.names.global(m, callee)),
                CallTarget::Callable { builtin: Some(_), .. } => self.builtin_call(out, text, None, owner, args, span),
                CallTarget::Constructor(_) => out.push_str(self.names.global(m, callee)),
                CallTarget::Callable { .. } | CallTarget::NotACall | CallTarget::Unresolved => out.push_str(text),
            },
        }
    }

    fn builtin_call(
        &mut self,
        out: &mut String,
        name: &str,
        overload: Option<&builtins::Overload>,
        owner: Owner,
        args: &[Arg],
        span: shaderlab_ir::Span,
    ) {
        let sampler = args.first().and_then(|a| match a {
            shaderlab_ir::Guarded::Item(a) => match self.facts.typing.exprs.get(owner, *a) {
                Type::Known(Ty::Sampler(s)) => Some(*s),
                _ => None,
            },
            shaderlab_ir::Guarded::Cond(_) => None,
        });
        match self.d.builtin_function(name, overload, sampler, self.stage) {
            Ok(n) => out.push_str(&n),
            Err(reason) => {
                self.error(name, reason, span);
                out.push_str(name);
            }
        }
    }
}
