//! Constructors, struct constructors and member access (struct fields and swizzles).

use super::{same_type, Access, Swizzle, Type, Typer, UnknownReason};
use crate::clue::TypeClue;
use crate::small::SmallList;
use crate::table::Owner;
use crate::ty::{ArrayLen, Ty};
use shaderlab_ir::{ExprId, Guarded, Name, Span, StructId};

fn constructible_component(t: &Ty) -> bool {
    matches!(t, Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix { .. })
}

/// Swizzle letters to component indices: one set (xyzw, rgba, stpq), 1 to 4 components, all below `size`.
pub fn parse_swizzle(text: &str, size: u8) -> Result<Swizzle, String> {
    const SETS: [&str; 3] = ["xyzw", "rgba", "stpq"];
    // The position of `c` in a set (the sets are ASCII: a byte scan finds what `str::find` would).
    fn position(set: &str, c: char) -> Option<usize> {
        set.bytes().position(|b| b as char == c)
    }
    if text.is_empty() || text.len() > 4 {
        return Err("a swizzle selects 1 to 4 components".into());
    }
    let first = text.chars().next().unwrap_or('x');
    let Some(set) = SETS.iter().find(|s| position(s, first).is_some()) else {
        return Err(format!("'{first}' is not a component name"));
    };
    let mut out = Swizzle::default();
    for c in text.chars() {
        let Some(i) = position(set, c) else {
            return if SETS.iter().any(|s| position(s, c).is_some()) {
                Err("components from different sets (xyzw, rgba, stpq)".into())
            } else {
                Err(format!("'{c}' is not a component name"))
            };
        };
        if i as u8 >= size {
            return Err(format!("component '{c}' out of range for a {size}-component vector"));
        }
        out.push(i as u8).ok_or("a swizzle selects 1 to 4 components")?;
    }
    Ok(out)
}

impl<'m> Typer<'m> {
    /// `T(args)` for a builtin type or an array type.
    pub(super) fn construct(&mut self, target: &Ty, args: &[(Type, Span)], span: Span) -> Type {
        if args.iter().any(|(t, _)| t.known().is_none()) {
            return Type::Known(*target);
        }
        // Inline for up to four arguments (a `vec4` of scalars).
        let known: SmallList<(Ty, Span), 4> = args.iter().filter_map(|(t, s)| t.known().map(|t| (*t, *s))).collect();
        // The target's name is only needed for a clue: spelled on demand.
        let m = self.m;
        let ty_name = || super::type_name(m, target);
        match target {
            Ty::Array(array) => {
                let (elem, len) = array.parts();
                for (a, s) in &known {
                    if !same_type(&elem, a) {
                        let arg = self.name_of(a);
                        self.clue(TypeClue::ConstructorArgType { ty: ty_name(), arg }, *s);
                        return Type::Unknown(UnknownReason::Error);
                    }
                }
                if let ArrayLen::Known(n) = len {
                    if n as usize != known.len() {
                        let detail = format!("{n} elements expected, {} given", known.len());
                        self.clue(TypeClue::ConstructorArgCount { ty: ty_name(), detail }, span);
                        return Type::Unknown(UnknownReason::Error);
                    }
                }
                Type::Known(Ty::array(elem, ArrayLen::Known(known.len() as u32)))
            }
            Ty::Scalar(_) => {
                match known.as_slice() {
                    [] => {
                        let detail = "one argument expected".into();
                        self.clue(TypeClue::ConstructorArgCount { ty: ty_name(), detail }, span);
                        return Type::Unknown(UnknownReason::Error);
                    }
                    [(a, s)] if !constructible_component(a) => {
                        let arg = self.name_of(a);
                        self.clue(TypeClue::InvalidConversion { ty: ty_name(), arg }, *s);
                        return Type::Unknown(UnknownReason::Error);
                    }
                    [_] => {}
                    [_, (_, s), ..] => {
                        let detail = format!("one argument expected, {} given", known.len());
                        self.clue(TypeClue::ConstructorArgCount { ty: ty_name(), detail }, *s);
                        return Type::Unknown(UnknownReason::Error);
                    }
                }
                Type::Known(*target)
            }
            Ty::Vector(_, _) | Ty::Matrix { .. } => {
                let needed = target.components().unwrap_or(0);
                let is_matrix = matches!(target, Ty::Matrix { .. });
                if let [(a, s)] = known.as_slice() {
                    if !constructible_component(a) {
                        let arg = self.name_of(a);
                        self.clue(TypeClue::ConstructorArgType { ty: ty_name(), arg }, *s);
                        return Type::Unknown(UnknownReason::Error);
                    }
                    let have = a.components().unwrap_or(0);
                    let ok = match a {
                        Ty::Scalar(_) => true,
                        Ty::Matrix { .. } => true,
                        _ => have >= needed && (!is_matrix || have == needed),
                    };
                    if !ok {
                        let arg = self.name_of(a);
                        if have < needed {
                            self.clue(TypeClue::InvalidSplat { ty: ty_name(), arg }, *s);
                        } else {
                            let detail = format!("{needed} components expected, {have} given");
                            self.clue(TypeClue::ConstructorArgCount { ty: ty_name(), detail }, span);
                        }
                        return Type::Unknown(UnknownReason::Error);
                    }
                    return Type::Known(*target);
                }
                if known.is_empty() {
                    let detail = "arguments expected".into();
                    self.clue(TypeClue::ConstructorArgCount { ty: ty_name(), detail }, span);
                    return Type::Unknown(UnknownReason::Error);
                }
                let mut total = 0u32;
                for (i, (a, s)) in known.iter().enumerate() {
                    if !constructible_component(a) || (is_matrix && matches!(a, Ty::Matrix { .. })) {
                        let arg = self.name_of(a);
                        self.clue(TypeClue::ConstructorArgType { ty: ty_name(), arg }, *s);
                        return Type::Unknown(UnknownReason::Error);
                    }
                    if total >= needed {
                        let detail = format!("argument {} is not used: {needed} components are already given", i + 1);
                        self.clue(TypeClue::ConstructorArgCount { ty: ty_name(), detail }, *s);
                        return Type::Unknown(UnknownReason::Error);
                    }
                    total += a.components().unwrap_or(0);
                }
                // The last argument may be partly used, for matrices too (GLSL ES 1.00 and 3.00 §5.4.2: only an
                // argument left entirely unused is an error, caught above), so `mat2(v3, v2)` is legal.
                if total < needed {
                    let detail = format!("{needed} components expected, {total} given");
                    self.clue(TypeClue::ConstructorArgCount { ty: ty_name(), detail }, span);
                    return Type::Unknown(UnknownReason::Error);
                }
                Type::Known(*target)
            }
            _ => {
                let arg = known.first().map(|(a, _)| self.name_of(a)).unwrap_or_default();
                self.clue(TypeClue::ConstructorArgType { ty: ty_name(), arg }, span);
                Type::Unknown(UnknownReason::Error)
            }
        }
    }

    /// The flattened members of a struct (every branch of conditional members) with their types.
    /// The flattened members of a struct, computed once per struct.
    pub(super) fn struct_members(&self, s: StructId) -> std::rc::Rc<Vec<(shaderlab_ir::Name, Option<Ty>, bool)>> {
        if let Some(cached) = self.member_cache.borrow().get(&s) {
            return cached.clone();
        }
        let members = std::rc::Rc::new(self.compute_struct_members(s));
        self.member_cache.borrow_mut().insert(s, members.clone());
        members
    }

    fn compute_struct_members(&self, s: StructId) -> Vec<(shaderlab_ir::Name, Option<Ty>, bool)> {
        let decl = &self.m.structs[s];
        let mut out = Vec::new();
        for member in &decl.members {
            match member {
                Guarded::Item(mem) => out.push((mem.name, self.spec_ty(&mem.ty, Owner::Global), false)),
                Guarded::Cond(_) => {
                    let mut inner = Vec::new();
                    Guarded::for_each_item(std::slice::from_ref(member), &mut |mem| inner.push(mem));
                    for mem in inner {
                        out.push((mem.name, self.spec_ty(&mem.ty, Owner::Global), true));
                    }
                }
            }
        }
        out
    }

    /// `S(args)`: one argument per member, each of the member's exact type.
    pub(super) fn struct_constructor(&mut self, s: StructId, args: &[(Type, Span)], span: Span) -> Type {
        let members = self.struct_members(s);
        let result = Type::Known(Ty::Struct(s));
        if members.iter().any(|(_, t, conditional)| *conditional || t.is_none()) {
            return result;
        }
        let m = self.m;
        let ty = || super::type_name(m, &Ty::Struct(s));
        if members.len() != args.len() {
            let detail = format!("{} arguments expected (one per member), {} given", members.len(), args.len());
            self.clue(TypeClue::ConstructorArgCount { ty: ty(), detail }, span);
            return Type::Unknown(UnknownReason::Error);
        }
        for ((_, member_ty, _), (arg, arg_span)) in members.iter().zip(args) {
            if let (Some(m), Type::Known(a)) = (member_ty, arg) {
                if !same_type(m, a) {
                    let arg = self.name_of(a);
                    self.clue(TypeClue::ConstructorArgType { ty: ty(), arg }, *arg_span);
                    return Type::Unknown(UnknownReason::Error);
                }
            }
        }
        result
    }

    /// `base.member`: a struct member or a swizzle (`name` is the member's text).
    pub(super) fn member(
        &mut self,
        owner: Owner,
        id: ExprId,
        base: &Ty,
        (member, name): (Name, &str),
        span: Span,
    ) -> Type {
        match base {
            Ty::Struct(s) => {
                let members = self.struct_members(*s);
                // Interned: the same text is the same name.
                match members.iter().position(|(n, _, _)| *n == member) {
                    Some(i) => {
                        self.out.access.set(owner, id, Access::Field(i));
                        members[i].1.map(Type::Known).unwrap_or(Type::Unknown(UnknownReason::Error))
                    }
                    None => {
                        let ty = self.name_of(base);
                        let m = self.m;
                        let names: Vec<&str> = members.iter().map(|(n, _, _)| m.name(*n)).collect();
                        let suggestion = crate::resolve::suggest(name, names.into_iter());
                        let clue = self.clue(TypeClue::UndeclaredStructMember { member: name.into(), ty }, span);
                        if let Some(s) = suggestion {
                            clue.notes
                                .push(crate::clue::PassNote { span: None, message: format!("did you mean '{s}'?") });
                        }
                        Type::Unknown(UnknownReason::Error)
                    }
                }
            }
            Ty::Vector(kind, size) => match parse_swizzle(name, *size) {
                Ok(components) => {
                    let n = components.len() as u8;
                    self.out.access.set(owner, id, Access::Swizzle(components));
                    Type::Known(Ty::vector(*kind, n))
                }
                Err(reason) => {
                    let ty = self.name_of(base);
                    self.clue(TypeClue::InvalidSwizzle { swizzle: name.into(), ty, reason }, span);
                    Type::Unknown(UnknownReason::Error)
                }
            },
            other => {
                let ty = self.name_of(other);
                let reason = match other {
                    Ty::Scalar(_) => "GLSL ES has no scalar swizzle".into(),
                    _ => format!("a {ty} has no members"),
                };
                self.clue(TypeClue::InvalidSwizzle { swizzle: name.into(), ty, reason }, span);
                Type::Unknown(UnknownReason::Error)
            }
        }
    }
}
