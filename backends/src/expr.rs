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
use crate::writer::{is_object, location, Writer};
use shaderlab_ir::{Arg, BinaryOp, Expr, ExprId, IncDecOp, Literal, ScalarKind, StructId, TypeInner, UnaryOp};
use shaderlab_passes::builtins;
use shaderlab_passes::resolve::{CallTarget, Resolved, Symbol};
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
        let (text, level) = self.expr_level(owner, e);
        if level > max {
            ["(", text.as_str(), ")"].concat()
        } else {
            text
        }
    }

    fn expr_level(&mut self, owner: Owner, e: ExprId) -> (String, u8) {
        let m = self.m;
        let Some(expr) = crate::plan::arena(m, owner).and_then(|a| a.get(e)) else {
            return (String::new(), 1);
        };
        let span = expr.span;
        match &expr.kind {
            Expr::Literal(lit) => (self.literal(lit, span), 1),
            Expr::Ident(name) => self.ident(owner, e, *name),
            Expr::MacroRef { name, args } => {
                self.reflection.macro_use(m.name(*name));
                match args {
                    None => (m.name(*name).to_owned(), 1),
                    Some(args) => {
                        let args = self.args(owner, args);
                        ([m.name(*name), "(", args.as_str(), ")"].concat(), 2)
                    }
                }
            }
            Expr::Unary { op, operand } => {
                if let Err(reason) = self.d.check_unary(*op) {
                    self.error(op.symbol(), reason, span);
                }
                let inner = self.expr_max(owner, *operand, 3);
                let symbol = op.symbol();
                // `- -x` must not become `--x`.
                let inner = if matches!(op, UnaryOp::Negate | UnaryOp::Plus) && inner.starts_with(symbol) {
                    ["(", inner.as_str(), ")"].concat()
                } else {
                    inner
                };
                ([symbol, inner.as_str()].concat(), 3)
            }
            Expr::Binary { op, left, right } => {
                if let Err(reason) = self.d.check_binary(*op) {
                    self.error(op.symbol(), reason, span);
                }
                let p = binary_precedence(*op);
                let l = self.expr_max(owner, *left, p);
                let r = self.expr_max(owner, *right, p - 1);
                ([l.as_str(), " ", op.symbol(), " ", r.as_str()].concat(), p)
            }
            Expr::Assign { op, target, value } => {
                if is_object(m, self.facts, self.plan, owner, *target) {
                    // `o = helper();` with `o` renamed away: the call writes the stage variables.
                    return self.expr_level(owner, *value);
                }
                let symbol = match op {
                    Some(op) => {
                        if let Err(reason) = self.d.check_binary(*op) {
                            self.error(format!("{}=", op.symbol()), reason, span);
                        }
                        format!("{}=", op.symbol())
                    }
                    None => "=".to_owned(),
                };
                if op.is_none() && !self.d.has_array_features() {
                    if let Type::Known(Ty::Array(..)) = self.facts.typing.exprs.get(owner, *target) {
                        self.error("=", Unsupported::ArrayFeature, span);
                    }
                }
                let t = self.expr_max(owner, *target, 3);
                let v = self.expr_max(owner, *value, 16);
                ([t.as_str(), " ", symbol.as_str(), " ", v.as_str()].concat(), 16)
            }
            Expr::IncDec { op, target } => match op {
                IncDecOp::PreIncrement => (["++", self.expr_max(owner, *target, 3).as_str()].concat(), 3),
                IncDecOp::PreDecrement => (["--", self.expr_max(owner, *target, 3).as_str()].concat(), 3),
                IncDecOp::PostIncrement => ([self.expr_max(owner, *target, 2).as_str(), "++"].concat(), 2),
                IncDecOp::PostDecrement => ([self.expr_max(owner, *target, 2).as_str(), "--"].concat(), 2),
            },
            Expr::Select { condition, accept, reject } => {
                let c = self.expr_max(owner, *condition, 14);
                let a = self.expr_max(owner, *accept, 16);
                let r = self.expr_max(owner, *reject, 15);
                ([c.as_str(), " ? ", a.as_str(), " : ", r.as_str()].concat(), 15)
            }
            Expr::Sequence { left, right } => {
                let l = self.expr_max(owner, *left, 17);
                let r = self.expr_max(owner, *right, 16);
                ([l.as_str(), ", ", r.as_str()].concat(), 17)
            }
            Expr::Call { callee, callee_span, args } => {
                let name = self.callee_name(owner, e, *callee, args, *callee_span);
                let args = self.args(owner, args);
                ([name.as_str(), "(", args.as_str(), ")"].concat(), 2)
            }
            Expr::Construct { ty, args } => {
                let mut name = self.spec_type_no_precision(ty);
                if !ty.dims.is_empty() {
                    if !self.d.has_array_features() {
                        self.error(&name, Unsupported::ArrayFeature, span);
                    }
                    let dims = self.spec_dims(ty, owner, &name.clone());
                    name.push_str(&dims);
                }
                let args = self.args(owner, args);
                ([name.as_str(), "(", args.as_str(), ")"].concat(), 2)
            }
            Expr::Member { base, member, .. } => {
                if is_object(m, self.facts, self.plan, owner, *base) {
                    if let Type::Known(Ty::Struct(s)) = self.facts.typing.exprs.get(owner, *base) {
                        return self.stage_variable(*s, *member, span);
                    }
                }
                let b = self.expr_max(owner, *base, 2);
                let member = match self.facts.typing.access.get(owner, e) {
                    Access::Field(_) => self.names.member(m, *member).to_owned(),
                    Access::Swizzle(_) | Access::None => m.name(*member).to_owned(),
                };
                ([b.as_str(), ".", member.as_str()].concat(), 2)
            }
            Expr::Index { base, index } => {
                if is_builtin(self.facts, owner, *base, "gl_FragData") {
                    if let Some(i) = self.facts.consts.values.get(owner, *index).as_ref().and_then(|v| v.as_int()) {
                        return match self.d.frag_data_output(i) {
                            OutputBinding::Declared { name, .. } => (name, 1),
                            OutputBinding::Builtin(name) => (name, 2),
                        };
                    }
                    if let OutputBinding::Declared { .. } = self.d.frag_data_output(0) {
                        self.error("gl_FragData", Unsupported::FragDataIndex, span);
                    }
                }
                let b = self.expr_max(owner, *base, 2);
                let i = self.expr(owner, *index);
                ([b.as_str(), "[", i.as_str(), "]"].concat(), 2)
            }
            Expr::ArrayLength { base } => {
                if !self.d.has_array_features() {
                    self.error("length", Unsupported::ArrayFeature, span);
                }
                ([self.expr_max(owner, *base, 2).as_str(), ".length()"].concat(), 2)
            }
            Expr::Error => (m.sources.snippet(span).to_owned(), 1),
        }
    }

    fn literal(&mut self, lit: &Literal, span: shaderlab_ir::Span) -> String {
        let m = self.m;
        match lit {
            Literal::Bool(b) => b.to_string(),
            Literal::Int { spelling, .. } => m.name(*spelling).to_owned(),
            Literal::Uint { spelling, .. } => {
                if !self.d.has_uint_literals() {
                    self.error(m.name(*spelling), Unsupported::UintLiteral, span);
                }
                m.name(*spelling).to_owned()
            }
            Literal::Float { spelling, .. } => self.d.float_literal(m.name(*spelling)).into_owned(),
        }
    }

    /// A type written as a constructor name (no precision).
    fn spec_type_no_precision(&mut self, ty: &shaderlab_ir::TypeSpec) -> String {
        self.spec_base(ty)
    }

    fn ident(&mut self, owner: Owner, e: ExprId, name: shaderlab_ir::Name) -> (String, u8) {
        let m = self.m;
        let span = crate::plan::arena(m, owner).and_then(|a| a.get(e)).map(|x| x.span).unwrap_or_default();
        let Resolved::Symbols(symbols) = self.facts.resolution.idents.get(owner, e) else {
            return (m.name(name).to_owned(), 1);
        };
        let Some(symbol) = symbols.first() else { return (m.name(name).to_owned(), 1) };
        match symbol {
            Symbol::Local(l) => match owner {
                Owner::Function(f) => (self.names.local(m, f, *l).to_owned(), 1),
                Owner::Global => (m.name(name).to_owned(), 1),
            },
            Symbol::Global(g) => match m.globals.get(*g) {
                Some(global) if !global.is_uniform() => (self.names.global(m, name).to_owned(), 1),
                _ => (m.name(name).to_owned(), 1),
            },
            Symbol::Builtin(b) => self.builtin_variable(b, span),
            Symbol::RuntimeMacro(n) => {
                self.reflection.macro_use(m.name(*n));
                (m.name(*n).to_owned(), 1)
            }
            Symbol::IoMember(s, n) => self.stage_variable(*s, *n, span),
        }
    }

    fn builtin_variable(&mut self, b: &'static str, span: shaderlab_ir::Span) -> (String, u8) {
        match b {
            "gl_FragColor" => match self.d.color_output() {
                OutputBinding::Builtin(n) | OutputBinding::Declared { name: n, .. } => (n, 1),
            },
            // Indexed: see `Expr::Index`. A bare use (passed whole) keeps the builtin.
            "gl_FragData" => ("gl_FragData".to_owned(), 1),
            _ => match self.d.builtin_variable(b, self.stage) {
                Ok(n) => (n.to_owned(), 1),
                Err(reason) => {
                    self.error(b, reason, span);
                    (b.to_owned(), 1)
                }
            },
        }
    }

    /// The stage variable standing for member `name` of IO struct `s`.
    pub(crate) fn stage_variable(
        &mut self,
        s: StructId,
        name: shaderlab_ir::Name,
        span: shaderlab_ir::Span,
    ) -> (String, u8) {
        let m = self.m;
        let text = m.name(name).to_owned();
        match self.program.interface.member_kind(m, self.stage, s, name) {
            Some(IoRole::Attribute) | Some(IoRole::Varying) | None => (text, 1),
            Some(IoRole::Mrt) => {
                let Some(mrt) = self.program.interface.mrt else { return (text, 1) };
                let Some(mem) = crate::interface::members(m, mrt).into_iter().find(|x| x.name == name) else {
                    return (text, 1);
                };
                let vec4 = matches!(m.types.get(mem.ty.base), TypeInner::Vector { size: 4, kind: ScalarKind::Float });
                match self.d.mrt_output(&text, location(m, mem), vec4) {
                    Ok(OutputBinding::Declared { name, .. }) => (name, 1),
                    Ok(OutputBinding::Builtin(name)) => (name, 2),
                    Err(reason) => {
                        self.error(&text, reason, span);
                        (text, 1)
                    }
                }
            }
        }
    }

    /// Arguments, without those standing for a renamed IO struct.
    fn args(&mut self, owner: Owner, args: &'a [Arg]) -> String {
        let keep = move |w: &Self, a: &ExprId| !is_object(w.m, w.facts, w.plan, owner, *a);
        self.list(args, &keep, &mut |w, a: &'a ExprId| w.expr_max(owner, *a, 16))
    }

    fn callee_name(
        &mut self,
        owner: Owner,
        e: ExprId,
        callee: shaderlab_ir::Name,
        args: &[Arg],
        span: shaderlab_ir::Span,
    ) -> String {
        let m = self.m;
        let text = m.name(callee);
        match self.facts.typing.callees.get(owner, e) {
            Callee::User(_) | Callee::Struct(_) => self.names.global(m, callee).to_owned(),
            Callee::Builtin(i) => {
                let overload = builtins::functions().get(*i);
                self.builtin_call(text, overload, owner, args, span)
            }
            Callee::None => match self.facts.resolution.calls.get(owner, e) {
                CallTarget::Callable { user, .. } if !user.is_empty() => self.names.global(m, callee).to_owned(),
                CallTarget::Callable { builtin: true, .. } => self.builtin_call(text, None, owner, args, span),
                CallTarget::Constructor(_) => self.names.global(m, callee).to_owned(),
                CallTarget::Callable { .. } | CallTarget::NotACall | CallTarget::Unresolved => text.to_owned(),
            },
        }
    }

    fn builtin_call(
        &mut self,
        name: &str,
        overload: Option<&builtins::Overload>,
        owner: Owner,
        args: &[Arg],
        span: shaderlab_ir::Span,
    ) -> String {
        let sampler = args.first().and_then(|a| match a {
            shaderlab_ir::Guarded::Item(a) => match self.facts.typing.exprs.get(owner, *a) {
                Type::Known(Ty::Sampler(s)) => Some(*s),
                _ => None,
            },
            shaderlab_ir::Guarded::Cond(_) => None,
        });
        match self.d.builtin_function(name, overload, sampler, self.stage) {
            Ok(n) => n.into_owned(),
            Err(reason) => {
                self.error(name, reason, span);
                name.to_owned()
            }
        }
    }
}
