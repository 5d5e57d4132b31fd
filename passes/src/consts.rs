//! Constant folding: the value of every constant expression, with GLSL's rules (32-bit integers wrapping,
//! 32-bit floats), used for array sizes, constant indices, switch labels, shifts and divisions.
//!
//! Input contract: the module, [`Resolution`] and [`Typing`]. Expressions are folded arena by arena in arena
//! order, which is operands-first, so one linear walk suffices; a constant variable's value is its
//! initializer's, folded earlier in the same walk (declare-before-use).
//!
//! Output: [`Consts`] with clues of category C (NonConstArraySize, NonConstInitializer) and the constant-value
//! checks of B and F (IndexOutOfBounds, ConstDivideByZero, ShiftOutOfRange, DuplicateSwitchCase). An
//! expression whose constness depends on a macro is [`Constness::Unknown`] and is never reported.

use crate::clue::{PassClue, PassClueKind, PassNote};
use crate::resolve::{Resolution, Resolved, Symbol};
use crate::small::SmallList;
use crate::table::{ArenaEntries, ExprTable, Owner};
use crate::ty::{ArrayLen, Ty};
use crate::typing::{Access, Callee, Type, Typing};
use shaderlab_ir::hash::FastHashMap as HashMap;
use shaderlab_ir::{
    ArrayDim, BinaryOp, Expr, ExprId, Expression, Guarded, Literal, Module, PrimaryMap, Span, Statement, StmtKind,
    Storage, TypeSpec, UnaryOp,
};

/// Category C and the constant-value rules.
#[derive(Clone, Debug, PartialEq)]
pub enum ConstClue {
    NonConstArraySize { reason: String },
    NonConstInitializer { name: String },
    IndexOutOfBounds { index: i64, len: u32 },
    ConstDivideByZero { op: &'static str },
    ShiftOutOfRange { amount: i64 },
    DuplicateSwitchCase { value: i64 },
}

impl ConstClue {
    pub fn code(&self) -> &'static str {
        match self {
            ConstClue::NonConstArraySize { .. } => "NonConstArraySize",
            ConstClue::NonConstInitializer { .. } => "NonConstInitializer",
            ConstClue::IndexOutOfBounds { .. } => "IndexOutOfBounds",
            ConstClue::ConstDivideByZero { .. } => "ConstDivideByZero",
            ConstClue::ShiftOutOfRange { .. } => "ShiftOutOfRange",
            ConstClue::DuplicateSwitchCase { .. } => "DuplicateSwitchCase",
        }
    }
}

/// One scalar component.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i32),
    Uint(u32),
    Float(f32),
}

impl Scalar {
    fn as_f32(self) -> f32 {
        match self {
            Scalar::Bool(b) => b as u32 as f32,
            Scalar::Int(i) => i as f32,
            Scalar::Uint(u) => u as f32,
            Scalar::Float(f) => f,
        }
    }

    pub(crate) fn as_i64(self) -> i64 {
        match self {
            Scalar::Bool(b) => b as i64,
            Scalar::Int(i) => i as i64,
            Scalar::Uint(u) => u as i64,
            Scalar::Float(f) => f as i64,
        }
    }

    /// Convert to the kind of `like` (constructor conversions).
    fn convert(self, like: Scalar) -> Scalar {
        match like {
            Scalar::Bool(_) => Scalar::Bool(match self {
                Scalar::Float(f) => f != 0.0,
                other => other.as_i64() != 0,
            }),
            Scalar::Int(_) => Scalar::Int(match self {
                Scalar::Float(f) => f as i32,
                Scalar::Uint(u) => u as i32,
                other => other.as_i64() as i32,
            }),
            Scalar::Uint(_) => Scalar::Uint(match self {
                Scalar::Float(f) => f as u32,
                Scalar::Int(i) => i as u32,
                other => other.as_i64() as u32,
            }),
            Scalar::Float(_) => Scalar::Float(self.as_f32()),
        }
    }
}

/// The most components a value has (a `mat4`'s).
const MAX_COMPONENTS: usize = 16;

/// The components of a scalar, vector or matrix constant being computed, column-major; up to a vector's 4 kept
/// inline ([`Consts`] keeps the results in a pool).
pub type Components = SmallList<Scalar, 4>;

/// A constant value, as plain data: a scalar inline, a vector's or matrix's components (column-major) and an
/// array's elements as ranges of the pools of [`Consts`] (see [`Consts::components_of`] and
/// [`Consts::elements_of`]). The value table thus owns no heap memory. Equality compares the handles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConstValue {
    /// One component (a scalar).
    Scalar(Scalar),
    /// Other than one component: `len` of them from `start` in [`Consts::components`].
    Components { start: u32, len: u32 },
    /// `len` elements from `start` in [`Consts::elements`].
    Array { start: u32, len: u32 },
}

impl ConstValue {
    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            ConstValue::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    /// The value as an integer, when it is one int or uint.
    pub fn as_int(&self) -> Option<i64> {
        match self.scalar()? {
            Scalar::Int(i) => Some(i as i64),
            Scalar::Uint(u) => Some(u as i64),
            _ => None,
        }
    }
}

/// Whether an expression is a constant expression.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Constness {
    /// Not yet folded or not an expression of interest.
    #[default]
    Unknown,
    Const,
    NotConst,
}

#[derive(Debug, Default)]
pub struct Consts {
    pub values: ExprTable<Option<ConstValue>>,
    pub constness: ExprTable<Constness>,
    /// The components of every [`ConstValue::Components`], one after the other.
    pub components: Vec<Scalar>,
    /// The elements of every [`ConstValue::Array`], one after the other.
    pub elements: Vec<ConstValue>,
    pub clues: Vec<PassClue>,
}

impl Consts {
    /// The components of a scalar, vector or matrix value (`None` for an array).
    pub fn components_of<'a>(&'a self, v: &'a ConstValue) -> Option<&'a [Scalar]> {
        match v {
            ConstValue::Scalar(s) => Some(std::slice::from_ref(s)),
            ConstValue::Components { start, len } => {
                self.components.get(*start as usize..*start as usize + *len as usize)
            }
            ConstValue::Array { .. } => None,
        }
    }

    /// The elements of an array value (`None` for a scalar, vector or matrix).
    pub fn elements_of(&self, v: &ConstValue) -> Option<&[ConstValue]> {
        match v {
            ConstValue::Array { start, len } => self.elements.get(*start as usize..*start as usize + *len as usize),
            _ => None,
        }
    }

    /// The value of these components (a scalar inline, others added to the pool).
    fn add_components(&mut self, comps: &[Scalar]) -> ConstValue {
        match comps {
            [s] => ConstValue::Scalar(*s),
            _ => {
                let start = self.components.len() as u32;
                self.components.extend_from_slice(comps);
                ConstValue::Components { start, len: comps.len() as u32 }
            }
        }
    }
}

pub fn fold_constants(m: &Module, res: &Resolution, typing: &Typing) -> Consts {
    let mut cx = Folder {
        m,
        res,
        typing,
        // Filled arena by arena in table order (global, then each function), as `arena` folds them; built in
        // place in the folder (not moved in).
        out: Consts {
            values: ExprTable::building_like(&res.idents),
            constness: ExprTable::building_like(&res.idents),
            components: Vec::new(),
            elements: Vec::new(),
            clues: Vec::new(),
        },
        cur_idents: res.idents.get_arena(Owner::Global),
        cur_types: typing.exprs.get_arena(Owner::Global),
        cur_callees: typing.callees.get_arena(Owner::Global),
        cur_access: typing.access.get_arena(Owner::Global),
        scratch_ids: Vec::new(),
        sized_constructs: Vec::new(),
    };
    cx.arena(Owner::Global, &m.global_exprs);
    for (f, func) in m.functions.iter() {
        cx.arena(Owner::Function(f), &func.exprs);
    }
    cx.declarations();
    cx.out
}

struct Folder<'m> {
    m: &'m Module,
    res: &'m Resolution,
    typing: &'m Typing,
    /// The tables, filled in arena order: an expression not folded yet (of the arena being folded or of a later
    /// one) reads as unknown.
    out: Consts,
    /// The earlier passes' tables of the arena being folded (looked up once per arena, not per expression).
    cur_idents: ArenaEntries<'m, Resolved>,
    cur_types: ArenaEntries<'m, Type>,
    cur_callees: ArenaEntries<'m, Callee>,
    cur_access: ArenaEntries<'m, Access>,
    /// A buffer for argument lists (see [`Folder::arg_ids`]).
    scratch_ids: Vec<ExprId>,
    /// The constructors of an array type with a written size (`float[2](a, b)`: rare) in global initializers and
    /// in functions, in arena order (the global arena first), as folding meets them: [`Folder::declarations`]
    /// checks their sizes without walking every expression again.
    sized_constructs: Vec<(Owner, ExprId)>,
}

fn wrap_int(op: BinaryOp, a: i32, b: i32) -> Option<Scalar> {
    use BinaryOp::*;
    Some(match op {
        Add => Scalar::Int(a.wrapping_add(b)),
        Sub => Scalar::Int(a.wrapping_sub(b)),
        Mul => Scalar::Int(a.wrapping_mul(b)),
        Div => Scalar::Int(a.checked_div(b).unwrap_or(0)),
        Rem => Scalar::Int(a.checked_rem(b).unwrap_or(0)),
        BitAnd => Scalar::Int(a & b),
        BitOr => Scalar::Int(a | b),
        BitXor => Scalar::Int(a ^ b),
        ShiftLeft => Scalar::Int(a.wrapping_shl(b as u32)),
        ShiftRight => Scalar::Int(a.wrapping_shr(b as u32)),
        Less => Scalar::Bool(a < b),
        Greater => Scalar::Bool(a > b),
        LessEqual => Scalar::Bool(a <= b),
        GreaterEqual => Scalar::Bool(a >= b),
        Equal => Scalar::Bool(a == b),
        NotEqual => Scalar::Bool(a != b),
        LogicalAnd | LogicalOr | LogicalXor => return None,
    })
}

pub(crate) fn scalar_op(op: BinaryOp, a: Scalar, b: Scalar) -> Option<Scalar> {
    use BinaryOp::*;
    match (a, b) {
        (Scalar::Int(x), Scalar::Int(y)) => wrap_int(op, x, y),
        (Scalar::Int(x), Scalar::Uint(y)) if matches!(op, ShiftLeft | ShiftRight) => wrap_int(op, x, y as i32),
        (Scalar::Uint(x), Scalar::Uint(_) | Scalar::Int(_)) => {
            let y = y_u32(b);
            Some(match op {
                Add => Scalar::Uint(x.wrapping_add(y)),
                Sub => Scalar::Uint(x.wrapping_sub(y)),
                Mul => Scalar::Uint(x.wrapping_mul(y)),
                Div => Scalar::Uint(x.checked_div(y).unwrap_or(0)),
                Rem => Scalar::Uint(x.checked_rem(y).unwrap_or(0)),
                BitAnd => Scalar::Uint(x & y),
                BitOr => Scalar::Uint(x | y),
                BitXor => Scalar::Uint(x ^ y),
                ShiftLeft => Scalar::Uint(x.wrapping_shl(y)),
                ShiftRight => Scalar::Uint(x.wrapping_shr(y)),
                Less => Scalar::Bool(x < y),
                Greater => Scalar::Bool(x > y),
                LessEqual => Scalar::Bool(x <= y),
                GreaterEqual => Scalar::Bool(x >= y),
                Equal => Scalar::Bool(x == y),
                NotEqual => Scalar::Bool(x != y),
                LogicalAnd | LogicalOr | LogicalXor => return None,
            })
        }
        (Scalar::Float(x), Scalar::Float(y)) => Some(match op {
            Add => Scalar::Float(x + y),
            Sub => Scalar::Float(x - y),
            Mul => Scalar::Float(x * y),
            Div => Scalar::Float(x / y),
            Less => Scalar::Bool(x < y),
            Greater => Scalar::Bool(x > y),
            LessEqual => Scalar::Bool(x <= y),
            GreaterEqual => Scalar::Bool(x >= y),
            Equal => Scalar::Bool(x == y),
            NotEqual => Scalar::Bool(x != y),
            _ => return None,
        }),
        (Scalar::Bool(x), Scalar::Bool(y)) => Some(Scalar::Bool(match op {
            LogicalAnd => x && y,
            LogicalOr => x || y,
            LogicalXor => x != y,
            Equal => x == y,
            NotEqual => x != y,
            _ => return None,
        })),
        _ => None,
    }
}

/// The components `items` yields, or `None` when one is `None`.
fn exact(items: impl Iterator<Item = Option<Scalar>>) -> Option<Components> {
    items.collect()
}

fn y_u32(s: Scalar) -> u32 {
    match s {
        Scalar::Uint(u) => u,
        other => other.as_i64() as u32,
    }
}

/// A pure builtin applied to constant components.
fn builtin(name: &str, args: &[&[Scalar]]) -> Option<Components> {
    let unary = |f: fn(f32) -> f32| -> Option<Components> {
        let [a] = args else { return None };
        a.iter()
            .map(|s| match s {
                Scalar::Float(x) => Some(Scalar::Float(f(*x))),
                _ => None,
            })
            .collect()
    };
    let pairwise = |f: fn(f32, f32) -> f32| -> Option<Components> {
        let [a, b] = args else { return None };
        let n = a.len().max(b.len());
        (0..n)
            .map(|i| {
                let x = a.get(i).or(a.first())?.as_f32();
                let y = b.get(i).or(b.first())?.as_f32();
                Some(Scalar::Float(f(x, y)))
            })
            .collect()
    };
    match name {
        "abs" => unary(f32::abs),
        "floor" => unary(f32::floor),
        "ceil" => unary(f32::ceil),
        "fract" => unary(|x| x - x.floor()),
        "sqrt" => unary(f32::sqrt),
        "inversesqrt" => unary(|x| 1.0 / x.sqrt()),
        "exp" => unary(f32::exp),
        "exp2" => unary(f32::exp2),
        "log" => unary(f32::ln),
        "log2" => unary(f32::log2),
        "sin" => unary(f32::sin),
        "cos" => unary(f32::cos),
        "tan" => unary(f32::tan),
        "radians" => unary(f32::to_radians),
        "degrees" => unary(f32::to_degrees),
        "sign" => unary(|x| {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }
        }),
        "min" => pairwise(f32::min),
        "max" => pairwise(f32::max),
        "pow" => pairwise(f32::powf),
        "step" => pairwise(|edge, x| if x < edge { 0.0 } else { 1.0 }),
        _ => None,
    }
}

impl<'m> Folder<'m> {
    fn clue(&mut self, kind: ConstClue, span: Span) -> &mut PassClue {
        self.out.clues.push(PassClue::new(PassClueKind::Const(kind), span));
        let last = self.out.clues.len() - 1;
        &mut self.out.clues[last]
    }

    /// The constness of `e` (of an earlier expression, or of an expression of a finished arena).
    /// An expression not folded yet (never an operand: arena order is operands-first) is `Unknown`.
    #[inline]
    fn constness(&self, owner: Owner, e: ExprId) -> Constness {
        *self.out.constness.get(owner, e)
    }

    /// The value of `e`, like [`Folder::constness`].
    #[inline]
    fn value(&self, owner: Owner, e: ExprId) -> Option<&ConstValue> {
        self.out.values.get(owner, e).as_ref()
    }

    fn get(&self, owner: Owner, e: ExprId) -> (Constness, Option<ConstValue>) {
        (self.constness(owner, e), self.value(owner, e).copied())
    }

    /// The value of newly computed components.
    fn store(&mut self, comps: Option<Components>) -> Option<ConstValue> {
        comps.map(|c| self.out.add_components(&c))
    }

    /// Fold every expression of one arena, in arena order, adding its constness and value to the tables.
    fn arena(&mut self, owner: Owner, arena: &'m PrimaryMap<ExprId, Expression>) {
        self.cur_idents = self.res.idents.get_arena(owner);
        self.cur_types = self.typing.exprs.get_arena(owner);
        self.cur_callees = self.typing.callees.get_arena(owner);
        self.cur_access = self.typing.access.get_arena(owner);
        for (id, e) in arena.iter() {
            let (constness, value) = self.fold(owner, arena, id, e);
            self.out.constness.push(constness);
            self.out.values.push(value);
        }
    }

    /// The components of `e`'s value, when it is a scalar, vector or matrix constant.
    fn components(&self, owner: Owner, e: ExprId) -> Option<&[Scalar]> {
        self.value(owner, e).and_then(|v| self.out.components_of(v))
    }

    /// The arguments of a call or constructor (those in conditional regions too), in a reused buffer: give it
    /// back through `scratch_ids` when done.
    fn arg_ids(&mut self, args: &[Guarded<ExprId>]) -> Vec<ExprId> {
        let mut ids = std::mem::take(&mut self.scratch_ids);
        ids.clear();
        Guarded::for_each_item(args, &mut |a| ids.push(*a));
        ids
    }

    /// Constness of several operands together.
    fn all(&self, owner: Owner, ids: &[ExprId]) -> Constness {
        let mut result = Constness::Const;
        for id in ids {
            match self.constness(owner, *id) {
                Constness::NotConst => return Constness::NotConst,
                Constness::Unknown => result = Constness::Unknown,
                Constness::Const => {}
            }
        }
        result
    }

    fn fold(
        &mut self,
        owner: Owner,
        arena: &PrimaryMap<ExprId, Expression>,
        id: ExprId,
        e: &Expression,
    ) -> (Constness, Option<ConstValue>) {
        let m = self.m;
        let one = |s: Scalar| Some(ConstValue::Scalar(s));
        match &e.kind {
            Expr::Literal(l) => (
                Constness::Const,
                match l {
                    Literal::Bool(b) => one(Scalar::Bool(*b)),
                    Literal::Int { value, .. } => one(Scalar::Int(*value as u32 as i32)),
                    Literal::Uint { value, .. } => one(Scalar::Uint(*value as u32)),
                    Literal::Float { value, .. } => one(Scalar::Float(*value as f32)),
                },
            ),
            Expr::Error | Expr::MacroRef { .. } => (Constness::Unknown, None),
            Expr::Ident(_) => match &self.cur_idents[id] {
                Resolved::Symbols(symbols) => match symbols.as_slice() {
                    [Symbol::Global(g)] => {
                        let global = &m.globals[*g];
                        if global.qualifiers.storage == Some(Storage::Const) {
                            match global.init {
                                Some(init) => self.get(Owner::Global, init),
                                None => (Constness::Unknown, None),
                            }
                        } else {
                            (Constness::NotConst, None)
                        }
                    }
                    [Symbol::Local(l)] => {
                        let Owner::Function(f) = owner else { return (Constness::Unknown, None) };
                        let local = &m.functions[f].locals[*l];
                        if local.qualifiers.storage == Some(Storage::Const) {
                            match local.init {
                                Some(init) => self.get(owner, init),
                                None => (Constness::Unknown, None),
                            }
                        } else {
                            (Constness::NotConst, None)
                        }
                    }
                    [Symbol::Builtin(v)] if v.var().constant => (Constness::Const, None),
                    [Symbol::Builtin(_) | Symbol::DepthRange | Symbol::IoMember(..)] => (Constness::NotConst, None),
                    _ => (Constness::Unknown, None),
                },
                _ => (Constness::Unknown, None),
            },
            Expr::Unary { op, operand } => {
                let c = self.constness(owner, *operand);
                let value = self.components(owner, *operand).and_then(|v| {
                    exact(v.iter().map(|s| match (op, s) {
                        (UnaryOp::Plus, s) => Some(*s),
                        (UnaryOp::Negate, Scalar::Int(i)) => Some(Scalar::Int(i.wrapping_neg())),
                        (UnaryOp::Negate, Scalar::Uint(u)) => Some(Scalar::Uint(u.wrapping_neg())),
                        (UnaryOp::Negate, Scalar::Float(f)) => Some(Scalar::Float(-f)),
                        (UnaryOp::Not, Scalar::Bool(b)) => Some(Scalar::Bool(!b)),
                        (UnaryOp::BitNot, Scalar::Int(i)) => Some(Scalar::Int(!i)),
                        (UnaryOp::BitNot, Scalar::Uint(u)) => Some(Scalar::Uint(!u)),
                        _ => None,
                    }))
                });
                (c, self.store(value))
            }
            Expr::Binary { op, left, right } => {
                let c = self.all(owner, &[*left, *right]);
                let (l, r) = (self.components(owner, *left), self.components(owner, *right));
                // Checks on a constant right operand, even when the left one is not constant (reported below,
                // once the operands are no longer borrowed).
                let mut divide_by_zero = false;
                let mut bad_shift = None;
                if let Some(r) = r {
                    let integer = r.iter().all(|s| matches!(s, Scalar::Int(_) | Scalar::Uint(_)));
                    let zero = r.iter().any(|s| s.as_f32() == 0.0);
                    divide_by_zero = matches!(op, BinaryOp::Div | BinaryOp::Rem)
                        && zero
                        && (integer || r.iter().all(|s| matches!(s, Scalar::Float(_))));
                    if matches!(op, BinaryOp::ShiftLeft | BinaryOp::ShiftRight) {
                        bad_shift = r.iter().map(|s| s.as_i64()).find(|a| !(0..32).contains(a));
                    }
                }
                let matrix = matches!(&self.cur_types[*left], Type::Known(Ty::Matrix { .. }))
                    || matches!(&self.cur_types[*right], Type::Known(Ty::Matrix { .. }));
                let value = match (l, r) {
                    (Some(l), Some(r)) if !matrix || !matches!(op, BinaryOp::Mul) => {
                        let n = l.len().max(r.len());
                        let compare = matches!(op, BinaryOp::Equal | BinaryOp::NotEqual);
                        if compare {
                            let eq = l == r;
                            Some(Components::one(Scalar::Bool(if *op == BinaryOp::Equal { eq } else { !eq })))
                        } else {
                            exact((0..n).map(|i| {
                                let a = *l.get(i).or(l.first().filter(|_| l.len() == 1))?;
                                let b = *r.get(i).or(r.first().filter(|_| r.len() == 1))?;
                                scalar_op(*op, a, b)
                            }))
                        }
                    }
                    _ => None,
                };
                if divide_by_zero {
                    self.clue(ConstClue::ConstDivideByZero { op: op.symbol() }, e.span);
                }
                if let Some(bad) = bad_shift {
                    self.clue(ConstClue::ShiftOutOfRange { amount: bad }, arena[*right].span);
                }
                (c, self.store(value))
            }
            Expr::Select { condition, accept, reject } => {
                let c = self.all(owner, &[*condition, *accept, *reject]);
                let value = match self.value(owner, *condition).and_then(|v| v.scalar()) {
                    Some(Scalar::Bool(true)) => self.value(owner, *accept).copied(),
                    Some(Scalar::Bool(false)) => self.value(owner, *reject).copied(),
                    _ => None,
                };
                (c, value)
            }
            Expr::Sequence { .. } | Expr::Assign { .. } | Expr::IncDec { .. } => (Constness::NotConst, None),
            Expr::Construct { ty, args } => {
                // A global one only when typed: the global arena also holds macro bodies, which are never typed
                // and stand for code only where they are expanded.
                if !ty.dims.is_empty() && (owner != Owner::Global || self.cur_types[id] != Type::Untyped) {
                    self.sized_constructs.push((owner, id));
                }
                let ids = self.arg_ids(args);
                let c = self.all(owner, &ids);
                let value = self.construct(owner, id, &ids);
                self.scratch_ids = ids;
                (c, value)
            }
            Expr::Call { args, callee, .. } => match self.cur_callees[id] {
                Callee::Builtin(_) => {
                    let name = m.name(*callee);
                    let texture = name.starts_with("texture")
                        || name.starts_with("texel")
                        || name.starts_with("dF")
                        || name == "fwidth";
                    if texture {
                        return (Constness::NotConst, None);
                    }
                    let ids = self.arg_ids(args);
                    let c = self.all(owner, &ids);
                    let comps: Option<Vec<&[Scalar]>> = ids.iter().map(|a| self.components(owner, *a)).collect();
                    let value = comps.and_then(|c| builtin(name, &c));
                    self.scratch_ids = ids;
                    (c, self.store(value))
                }
                Callee::Struct(_) => {
                    let ids = self.arg_ids(args);
                    let c = self.all(owner, &ids);
                    self.scratch_ids = ids;
                    (c, None)
                }
                Callee::User(_) => (Constness::NotConst, None),
                Callee::None => (Constness::Unknown, None),
            },
            Expr::Member { base, .. } => {
                let c = self.constness(owner, *base);
                let value = match (&self.cur_access[id], self.components(owner, *base)) {
                    (Access::Swizzle(sw), Some(comps)) => {
                        sw.iter().map(|&i| comps.get(i as usize).copied()).collect::<Option<Components>>()
                    }
                    _ => None,
                };
                (c, self.store(value))
            }
            Expr::Index { base, index } => {
                let c = self.all(owner, &[*base, *index]);
                let index_value = self.value(owner, *index).and_then(|v| v.as_int());
                let len = match &self.cur_types[*base] {
                    Type::Known(Ty::Vector(_, n)) => Some(*n as u32),
                    Type::Known(Ty::Matrix { columns, .. }) => Some(*columns as u32),
                    Type::Known(Ty::Array(a)) => match a.len() {
                        ArrayLen::Known(n) => Some(n),
                        ArrayLen::Unknown => None,
                    },
                    _ => None,
                };
                if let Some(i) = index_value {
                    let out_of_range = i < 0 || len.is_some_and(|n| i >= n as i64);
                    if out_of_range {
                        self.clue(ConstClue::IndexOutOfBounds { index: i, len: len.unwrap_or(0) }, arena[*index].span);
                    }
                }
                // A negative index has no value (it is reported above).
                let index_value = index_value.filter(|i| *i >= 0);
                let Some((base_value, i)) = self.value(owner, *base).zip(index_value) else { return (c, None) };
                let i = i as usize;
                if let Some(items) = self.out.elements_of(base_value) {
                    return (c, items.get(i).copied());
                }
                let Some(comps) = self.out.components_of(base_value) else { return (c, None) };
                let value = match &self.cur_types[*base] {
                    Type::Known(Ty::Vector(..)) => comps.get(i).map(|s| Components::one(*s)),
                    Type::Known(Ty::Matrix { rows, .. }) => {
                        let r = *rows as usize;
                        comps.get(i * r..(i + 1) * r).map(Components::from_slice)
                    }
                    _ => None,
                };
                (c, self.store(value))
            }
            Expr::ArrayLength { base } => match &self.cur_types[*base] {
                Type::Known(Ty::Array(a)) => match a.len() {
                    ArrayLen::Known(n) => (Constness::Const, one(Scalar::Int(n as i32))),
                    ArrayLen::Unknown => (Constness::Unknown, None),
                },
                _ => (Constness::Unknown, None),
            },
        }
    }

    fn construct(&mut self, owner: Owner, id: ExprId, args: &[ExprId]) -> Option<ConstValue> {
        let Type::Known(target) = &self.cur_types[id] else { return None };
        match target {
            Ty::Array(..) => {
                // The elements go to the pool, when every one is constant.
                let start = self.out.elements.len();
                for a in args {
                    let Some(v) = self.value(owner, *a).copied() else {
                        self.out.elements.truncate(start);
                        return None;
                    };
                    self.out.elements.push(v);
                }
                Some(ConstValue::Array { start: start as u32, len: args.len() as u32 })
            }
            Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix { .. } => {
                let like = match target.scalar_kind()? {
                    shaderlab_ir::ScalarKind::Bool => Scalar::Bool(false),
                    shaderlab_ir::ScalarKind::Int => Scalar::Int(0),
                    shaderlab_ir::ScalarKind::Uint => Scalar::Uint(0),
                    shaderlab_ir::ScalarKind::Float => Scalar::Float(0.0),
                };
                let n = target.components()? as usize;
                // The arguments' components, converted: the first 16 (a mat4's, the most a value has) kept in a
                // plain array, all of them counted.
                let mut flat = [like; MAX_COMPONENTS];
                let mut count = 0;
                for a in args {
                    for s in self.components(owner, *a)? {
                        if let Some(slot) = flat.get_mut(count) {
                            *slot = s.convert(like);
                        }
                        count += 1;
                    }
                }
                let single_scalar = args.len() == 1 && count == 1;
                if single_scalar && n > 1 {
                    // `like` is the kind's zero.
                    let mut spread = [like; MAX_COMPONENTS];
                    let len = match target {
                        Ty::Matrix { columns, rows } => {
                            let (c, r) = (*columns as usize, *rows as usize);
                            for (i, slot) in spread.iter_mut().enumerate().take(c * r) {
                                if i / r == i % r {
                                    *slot = flat[0];
                                }
                            }
                            c * r
                        }
                        _ => {
                            spread = [flat[0]; MAX_COMPONENTS];
                            n
                        }
                    };
                    return Some(self.out.add_components(spread.get(..len)?));
                }
                // The first `n` components, for matrices too: typing lets the last argument be partly used.
                (count >= n).then(|| flat.get(..n)).flatten().map(|comps| self.out.add_components(comps))
            }
            _ => None,
        }
    }

    /// Declaration rules: array sizes, constant initializers, switch labels.
    fn declarations(&mut self) {
        let m = self.m;
        for (g, global) in m.globals.iter() {
            self.spec(&global.ty, Owner::Global);
            if let Some(init) = global.init {
                if *self.out.constness.get(Owner::Global, init) == Constness::NotConst {
                    let name = m.name(global.name).to_owned();
                    self.clue(ConstClue::NonConstInitializer { name }, m.global_exprs[init].span);
                }
            }
            let _ = g;
        }
        for (_, s) in m.structs.iter() {
            Guarded::for_each_item(&s.members, &mut |mem| self.spec(&mem.ty, Owner::Global));
        }
        let sized_constructs = std::mem::take(&mut self.sized_constructs);
        let mut sized_constructs = sized_constructs.iter().peekable();
        while let Some(&(_, id)) = sized_constructs.next_if(|(of, _)| *of == Owner::Global) {
            if let Expr::Construct { ty, .. } = &m.global_exprs[id].kind {
                self.spec(ty, Owner::Global);
            }
        }
        for (f, func) in m.functions.iter() {
            let owner = Owner::Function(f);
            self.spec(&func.return_type, owner);
            for (_, local) in func.locals.iter() {
                self.spec(&local.ty, owner);
                if let Some(init) = local.init {
                    if local.qualifiers.storage == Some(Storage::Const)
                        && *self.out.constness.get(owner, init) == Constness::NotConst
                    {
                        let name = m.name(local.name).to_owned();
                        self.clue(ConstClue::NonConstInitializer { name }, func.exprs[init].span);
                    }
                }
            }
            while let Some(&(_, id)) = sized_constructs.next_if(|(of, _)| *of == owner) {
                if let Expr::Construct { ty, .. } = &func.exprs[id].kind {
                    self.spec(ty, owner);
                }
            }
            // Typing saw every statement of a typed body: a body without a switch has no labels to check.
            if let Some(body) = func.body.as_ref().filter(|_| self.typing.has_switch[f] != Some(false)) {
                self.switches(owner, &body.stmts);
            }
        }
    }

    fn spec(&mut self, spec: &TypeSpec, owner: Owner) {
        for d in &spec.dims {
            let ArrayDim::Sized(e) = d else { continue };
            let expr = &owner.arena(self.m)[*e];
            let span = expr.span;
            match (*self.out.constness.get(owner, *e), self.out.values.get(owner, *e).as_ref().and_then(|v| v.as_int()))
            {
                (Constness::NotConst, _) => {
                    self.clue(ConstClue::NonConstArraySize { reason: "not a constant expression".into() }, span);
                }
                (Constness::Const, Some(n)) if n <= 0 => {
                    // `2147483648` is an int whose bit pattern is -2147483648: say so, the text shows no sign.
                    let reason = match expr.kind {
                        Expr::Literal(Literal::Int { value, .. }) if value as i64 != n => {
                            format!("the int literal {value} is {n} (its 32-bit pattern), not positive")
                        }
                        _ => format!("size {n} is not positive"),
                    };
                    self.clue(ConstClue::NonConstArraySize { reason }, span);
                }
                (Constness::Const, None)
                    if !matches!(
                        self.typing.exprs.get(owner, *e),
                        Type::Known(Ty::Scalar(shaderlab_ir::ScalarKind::Int | shaderlab_ir::ScalarKind::Uint))
                            | Type::Unknown(_)
                            | Type::Untyped
                    ) =>
                {
                    self.clue(ConstClue::NonConstArraySize { reason: "not an integer".into() }, span);
                }
                _ => {}
            }
        }
    }

    /// Case labels of each switch are distinct constants.
    fn switches(&mut self, owner: Owner, stmts: &[Guarded<Statement>]) {
        for s in stmts {
            match s {
                Guarded::Item(s) => self.switch_stmt(owner, s),
                // Statements in conditional regions: their switches are checked, labels across branches are not.
                Guarded::Cond(region) => {
                    for branch in &region.branches {
                        self.switches(owner, &branch.items);
                    }
                    if let Some(items) = &region.else_items {
                        self.switches(owner, items);
                    }
                }
            }
        }
    }

    fn switch_stmt(&mut self, owner: Owner, s: &Statement) {
        match &s.kind {
            StmtKind::Switch { body, .. } => {
                let mut seen: HashMap<i64, Span> = HashMap::default();
                for item in &body.stmts {
                    let Guarded::Item(st) = item else { continue };
                    let StmtKind::Case(e) = st.kind else { continue };
                    let Some(v) = self.out.values.get(owner, e).as_ref().and_then(|v| v.as_int()) else { continue };
                    if let Some(first) = seen.get(&v).copied() {
                        self.clue(ConstClue::DuplicateSwitchCase { value: v }, st.span)
                            .notes
                            .push(PassNote { span: Some(first), message: "the same label is here".into() });
                    } else {
                        seen.insert(v, st.span);
                    }
                }
                self.switches(owner, &body.stmts);
            }
            StmtKind::Block(b) => self.switches(owner, &b.stmts),
            StmtKind::If { accept, reject, .. } => {
                self.switch_stmt(owner, accept);
                if let Some(r) = reject {
                    self.switch_stmt(owner, r);
                }
            }
            StmtKind::For { body, .. } | StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                self.switch_stmt(owner, body)
            }
            _ => {}
        }
    }
}
