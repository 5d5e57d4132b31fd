//! Declarations: global items, type specifiers, qualifiers, structs, functions and parameters, read straight into
//! IR entities.

use super::{done, push_entity, Declarator, ExprArena, Kw, MacroInfo, Parser, Partial, Step, ROOM};
use crate::preprocess::Directive;
use crate::token::{Punct, TokenKind};
use shaderlab_ir::{
    ArrayDim, Block, Expr, ExprId, Function, FunctionId, GlobalItem, GlobalVar, Guarded, Interner, Interpolation,
    LayoutQualifier, Local, LocalKind, LocalRange, MacroDef, Name, Param, ParamKind, Precision, Qualifiers, Span,
    Storage, StructDecl, StructId, StructMember, TypeId, TypeInner, TypeSpec,
};

impl<'a> Parser<'a> {
    /// One global item (a declaration pushes one item per variable it declares).
    pub(crate) fn external_item(&mut self, out: &mut Vec<Guarded<GlobalItem>>) -> Step {
        let Some(t) = self.peek() else {
            return Step::End;
        };
        if let Some(d) = self.directive_of(t) {
            self.pos += 1;
            return match d {
                Directive::Define { .. } => match self.define(d) {
                    Some(def) => done(out, GlobalItem::Define(push_entity(self.entities.macros, def))),
                    None => Step::Skip,
                },
                Directive::Undef { name, span } => {
                    self.macros.remove(name);
                    done(out, GlobalItem::Undef { name: *name, span: *span })
                }
                _ => Step::Skip,
            };
        }
        if self.eat(Punct::Semicolon) {
            return Step::Skip;
        }
        if t.is_punct(Punct::RBrace) {
            self.expected("a declaration");
            self.pos += 1;
            self.resync();
            return Step::Skip;
        }
        if self.peek_kw() == Some(Kw::Precision) {
            return match self.precision_statement() {
                Some((precision, ty, span)) => done(out, GlobalItem::Precision { precision, ty, span }),
                None => Step::Skip,
            };
        }
        let start = self.here();
        let qualifiers = self.qualifiers();
        if self.peek_kw() == Some(Kw::Struct) {
            let Some(id) = self.struct_specifier() else {
                self.recover();
                return Step::Skip;
            };
            out.push(Guarded::Item(GlobalItem::Struct(id)));
            if let Some(span) = self.struct_declarators(id, start) {
                self.push_globals(qualifiers, span, out);
            }
            return Step::Done;
        }
        let dims_from = self.exprs().len();
        let Some(ty) = self.type_specifier() else {
            self.expected("a type");
            self.recover();
            return Step::Skip;
        };
        // A function: `T name (`
        if self.peek().is_some_and(|t| t.kind == TokenKind::Ident) && self.punct_at(1, Punct::LParen) {
            return match self.function_rest(ty, dims_from, start) {
                Some(f) => done(out, GlobalItem::Function(f)),
                None => Step::Skip,
            };
        }
        match self.declarator_list(ty, dims_from, start) {
            Some(span) => {
                self.push_globals(qualifiers, span, out);
                Step::Done
            }
            None => Step::Skip,
        }
    }

    /// A `#define` marker: registers the macro and parses its body as an expression when it is one. The
    /// definition is the caller's to keep.
    pub(crate) fn define(&mut self, d: &'a Directive) -> Option<MacroDef> {
        let Directive::Define { name, name_span, params, body, text, span } = d else {
            return None;
        };
        self.macros.insert(*name, MacroInfo { params: params.clone(), body: body.clone() });
        // Macro bodies belong to the module, wherever the `#define` is.
        let (body_expr, _) = self.in_arena(None, |p| p.body_expression(body));
        Some(MacroDef {
            name: *name,
            name_span: *name_span,
            params: params.clone(),
            body: text.clone(),
            body_expr,
            span: *span,
        })
    }

    /// Parse macro body tokens as one expression, silently; `None` (and nothing kept) when they are not one.
    fn body_expression(&mut self, body: &'a [crate::token::Token]) -> Option<ExprId> {
        if body.is_empty() {
            return None;
        }
        let mark = self.mark();
        let saved = (self.toks, self.pos, self.recovering, self.bailing, self.end_span);
        self.toks = body;
        self.pos = 0;
        self.recovering = true; // silence: a body that is not an expression is fine
        let errors_before = self.sink.error_count();
        let e = self.expression();
        let complete = self.at_end() && self.sink.error_count() == errors_before;
        let is_error = matches!(self.exprs()[e].kind, Expr::Error);
        (self.toks, self.pos, self.recovering, self.bailing, self.end_span) = saved;
        if complete && !is_error {
            Some(e)
        } else {
            self.rollback(mark);
            None
        }
    }

    pub(crate) fn precision_statement(&mut self) -> Option<(Precision, TypeId, Span)> {
        let start = self.here();
        self.pos += 1; // precision
        let precision = self.peek_kw().and_then(|k| self.precision_of(k));
        let Some(precision) = precision else {
            self.expected("'highp', 'mediump' or 'lowp'");
            self.recover();
            return None;
        };
        self.pos += 1;
        let ty = self.peek().and_then(|t| self.builtin_type(t));
        let Some(ty) = ty else {
            self.expected("a type");
            self.recover();
            return None;
        };
        self.pos += 1;
        if !self.expect(Punct::Semicolon, "';'") {
            self.recover();
            return None;
        }
        Some((precision, self.types.intern(ty), start.to(self.prev_span())))
    }

    /// Storage, interpolation, invariance and layout qualifiers (precision is part of the type). Inlined where it
    /// is called, so that the usual declaration without qualifiers costs a test and no call.
    #[inline(always)]
    pub(crate) fn qualifiers(&mut self) -> Qualifiers {
        // Most declarations start with a builtin type: nothing to read (the loop below would stop at once).
        match self.peek() {
            Some(t) if self.builtin_type(t).is_some() => Qualifiers::default(),
            _ => self.qualifier_list(),
        }
    }

    fn qualifier_list(&mut self) -> Qualifiers {
        let mut q = Qualifiers::default();
        let start = self.here();
        let mut any = false;
        loop {
            if let Some(storage) = self.legacy_storage() {
                q.storage = Some(storage);
                any = true;
                self.pos += 1;
                continue;
            }
            let Some(k) = self.peek_kw() else { break };
            match k {
                Kw::Const => q.storage = Some(Storage::Const),
                Kw::Uniform => q.storage = Some(Storage::Uniform),
                Kw::In => q.storage = Some(Storage::In),
                Kw::Out => q.storage = Some(Storage::Out),
                Kw::Inout => q.storage = Some(Storage::InOut),
                Kw::Flat => q.interpolation = Some(Interpolation::Flat),
                Kw::Smooth => q.interpolation = Some(Interpolation::Smooth),
                Kw::Centroid => q.centroid = true,
                Kw::Invariant => q.invariant = true,
                Kw::Precise => q.precise = true,
                Kw::Layout => {
                    self.pos += 1;
                    self.layout(&mut q);
                    any = true;
                    continue;
                }
                _ => break,
            }
            any = true;
            self.pos += 1;
        }
        if any {
            q.span = Some(start.to(self.prev_span()));
        }
        q
    }

    fn layout(&mut self, q: &mut Qualifiers) {
        if !self.expect(Punct::LParen, "'('") {
            return;
        }
        while let Some(t) = self.peek() {
            if t.kind != TokenKind::Ident {
                self.expected("a layout qualifier name");
                break;
            }
            let name = t.sym;
            let span = t.span;
            self.pos += 1;
            let mut value = None;
            if self.eat(Punct::Assign) {
                match self.peek().map(|t| &t.kind) {
                    Some(TokenKind::Int(v) | TokenKind::Uint(v)) => {
                        value = Some(*v as i64);
                        self.pos += 1;
                    }
                    _ => {
                        self.expected("an integer");
                        break;
                    }
                }
            }
            q.layout.push(LayoutQualifier { name, value, span: span.to(self.prev_span()) });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen, "')'");
    }

    /// `[precision] type [dims]`; `None` (nothing consumed) when the current token is not a type.
    pub(crate) fn type_specifier(&mut self) -> Option<TypeSpec> {
        let start = self.here();
        let mut precision = None;
        if let Some(p) = self.peek_kw().and_then(|k| self.precision_of(k)) {
            precision = Some(p);
            self.pos += 1;
        }
        let t = self.peek()?;
        // Interned before the dimensions are read: the IR numbers types in first-use order.
        let base = if let Some(b) = self.builtin_type(t) {
            self.intern_builtin(t.sym, b)
        } else if self.is_plain_ident(t) && !self.macros.contains_key(&t.sym) {
            self.types.intern(TypeInner::User(t.sym))
        } else {
            if precision.is_some() {
                self.pos -= 1;
            }
            return None;
        };
        self.pos += 1;
        let dims = self.array_dims();
        Some(TypeSpec { base, precision, dims, span: start.to(self.prev_span()) })
    }

    /// `[e]` or `[]`, repeated.
    #[inline]
    pub(crate) fn array_dims(&mut self) -> Vec<ArrayDim> {
        // Most types and declarators have none.
        if self.is_punct(Punct::LBracket) {
            self.array_dim_list()
        } else {
            Vec::new()
        }
    }

    fn array_dim_list(&mut self) -> Vec<ArrayDim> {
        let mut dims = Vec::new();
        while self.is_punct(Punct::LBracket) {
            self.pos += 1;
            if self.eat(Punct::RBracket) {
                dims.push(ArrayDim::Unsized);
                continue;
            }
            let e = self.assignment();
            dims.push(ArrayDim::Sized(e));
            if !self.expect(Punct::RBracket, "']'") {
                break;
            }
        }
        dims
    }

    /// Declarators after a type, through the closing `;`, into [`Parser::declarators`]; gives back the
    /// declaration's span, for the caller to make the declarators into entities with its qualifiers
    /// ([`Parser::push_globals`], [`Parser::push_members`], [`Parser::push_locals`]). The type's dimension
    /// expressions are the last ones read, from `dims_from` on: the first declarator takes the type itself, and
    /// each one after it gets copies of them, made where it starts (which is where a walk of the declarators, one
    /// entity each, meets them).
    pub(crate) fn declarator_list(&mut self, ty: TypeSpec, dims_from: usize, start: Span) -> Option<Span> {
        let dims_to = self.exprs().len();
        let type_dims = ty.dims.len();
        self.declarators.clear();
        self.declarator(ty)?;
        while self.eat(Punct::Comma) {
            // The declaration's type as the first declarator took it (its own dimensions come after the type's).
            let Some(first) = self.declarators.first().map(|d| &d.ty) else { break };
            let dims = first.dims.get(..type_dims).unwrap_or_default().to_vec();
            let mut ty = TypeSpec { base: first.base, precision: first.precision, dims, span: first.span };
            self.copy_dims(dims_from, dims_to, &mut ty.dims);
            self.declarator(ty)?;
        }
        if !self.expect(Punct::Semicolon, "';'") {
            self.recover();
        }
        Some(start.to(self.prev_span()))
    }

    /// One declarator (`name[dims] = init`) of type `ty`, pushed to [`Parser::declarators`]; `None` (after the
    /// error is reported and the parser has recovered) when no name is here.
    fn declarator(&mut self, mut ty: TypeSpec) -> Option<()> {
        let Some(t) = self.peek().filter(|t| self.is_plain_ident(t)) else {
            self.expected("a variable name");
            self.recover();
            return None;
        };
        let (name, name_span) = (t.sym, t.span);
        self.pos += 1;
        ty.dims.extend(self.array_dims());
        let init = if self.eat(Punct::Assign) { Some(self.assignment()) } else { None };
        let span = name_span.to(self.prev_span());
        crate::push_with_room(&mut self.declarators, Declarator { name, name_span, ty, init, span });
        Some(())
    }

    /// The declarators just read as global variables, one item each; `span` is the declaration's.
    pub(crate) fn push_globals(&mut self, qualifiers: Qualifiers, span: Span, out: &mut Vec<Guarded<GlobalItem>>) {
        for d in self.declarators.drain(..) {
            let id = push_entity(
                self.entities.globals,
                GlobalVar {
                    name: d.name,
                    name_span: d.name_span,
                    ty: d.ty,
                    qualifiers: qualifiers.clone(),
                    init: d.init,
                    span,
                },
            );
            out.push(Guarded::Item(GlobalItem::Var(id)));
        }
    }

    /// The declarators just read as struct members; `span` is the declaration's.
    fn push_members(&mut self, qualifiers: Qualifiers, span: Span, out: &mut Vec<Guarded<StructMember>>) {
        for d in self.declarators.drain(..) {
            out.push(Guarded::Item(StructMember {
                name: d.name,
                name_span: d.name_span,
                ty: d.ty,
                qualifiers: qualifiers.clone(),
                span,
            }));
        }
    }

    /// The declarators just read as locals of the function being read (each with its own span).
    pub(crate) fn push_locals(&mut self, qualifiers: Qualifiers) -> LocalRange {
        let first = self.locals.next_key();
        let len = self.declarators.len();
        for d in self.declarators.drain(..) {
            self.locals.push(Local {
                name: d.name,
                name_span: d.name_span,
                ty: d.ty,
                qualifiers: qualifiers.clone(),
                init: d.init,
                kind: LocalKind::Variable,
                span: d.span,
            });
        }
        LocalRange::new(first, len)
    }

    /// `struct [Name] { members }`, made into a struct of the module (the declarators are parsed by the caller).
    pub(crate) fn struct_specifier(&mut self) -> Option<StructId> {
        let start = self.here();
        self.pos += 1; // struct
        let (name, name_span) = match self.peek() {
            Some(t) if self.is_plain_ident(t) => {
                self.pos += 1;
                (t.sym, t.span)
            }
            _ => {
                self.expected("a struct name");
                return None;
            }
        };
        if !self.expect(Punct::LBrace, "'{'") {
            return None;
        }
        self.type_names.insert(name);
        // Member array sizes belong to the module, also for a struct declared in a function.
        let (members, _) = self.in_arena(None, |p| {
            p.guarded_list(
                &mut Self::struct_member,
                Partial::Dropped,
                &|p: &Parser<'a>| p.is_punct(Punct::RBrace),
                ROOM.nested,
            )
        });
        if !self.expect(Punct::RBrace, "'}'") {
            return None;
        }
        let span = start.to(self.prev_span());
        Some(push_entity(self.entities.structs, StructDecl { name, name_span, members, span }))
    }

    /// One member declaration (a member per declarator).
    fn struct_member(&mut self, out: &mut Vec<Guarded<StructMember>>) -> Step {
        let Some(t) = self.peek() else {
            return Step::End;
        };
        if t.is_punct(Punct::RBrace) {
            return Step::End;
        }
        if let Some(d) = self.directive_of(t) {
            // `#define` inside a struct: keep the macro known, nothing to keep in the struct.
            self.pos += 1;
            if let Directive::Define { .. } = d {
                self.define(d);
            }
            return Step::Skip;
        }
        if self.eat(Punct::Semicolon) {
            return Step::Skip;
        }
        let start = self.here();
        let qualifiers = self.qualifiers();
        let dims_from = self.exprs().len();
        let Some(ty) = self.type_specifier() else {
            self.expected("a member type");
            self.recover();
            return Step::Skip;
        };
        match self.declarator_list(ty, dims_from, start) {
            Some(span) => {
                self.push_members(qualifiers, span, out);
                Step::Done
            }
            None => Step::Skip,
        }
    }

    /// After struct `id`'s specifier: `;`, or declarators (left in [`Parser::declarators`], see
    /// [`Parser::declarator_list`]) and `;`.
    pub(crate) fn struct_declarators(&mut self, id: StructId, start: Span) -> Option<Span> {
        if self.eat(Punct::Semicolon) {
            return None;
        }
        // The struct is kept even when its declarators are not.
        let mark = self.mark();
        let (name, name_span) = (self.entities.structs[id].name, self.entities.structs[id].name_span);
        let base = self.types.intern(TypeInner::User(name));
        let ty = TypeSpec { base, precision: None, dims: Vec::new(), span: name_span };
        let vars = self.declarator_list(ty, self.exprs().len(), start);
        if vars.is_none() {
            self.rollback(mark);
        }
        vars
    }

    /// After the return type, at the function name; the function goes to the module once read (after the
    /// prototypes and structs of its body). The return type's dimension expressions are the last ones read, from
    /// `dims_from` on: they move to the function's own arena, which its parameters and body then fill.
    pub(crate) fn function_rest(
        &mut self,
        mut return_type: TypeSpec,
        dims_from: usize,
        start: Span,
    ) -> Option<FunctionId> {
        let name_tok = self.bump()?;
        let (name, name_span) = (name_tok.sym, name_tok.span);
        let mut exprs = ExprArena::new();
        self.move_dims(dims_from, &mut exprs, &mut return_type.dims);
        let (rest, exprs, locals) = self.in_function_arena(exprs, |p| p.function_params_body());
        let (params, body) = rest?;
        let span = start.to(self.prev_span());
        Some(push_entity(
            self.entities.functions,
            Function { name, name_span, return_type, params, body, exprs, locals, span },
        ))
    }

    /// `( parameters )` and `;` or a body.
    fn function_params_body(&mut self) -> Option<(Vec<Guarded<Param>>, Option<Block>)> {
        self.pos += 1; // (
        let params = self.guarded_list(
            &mut Self::parameter,
            Partial::Dropped,
            &|p: &Parser<'a>| p.is_punct(Punct::RParen),
            ROOM.nested,
        );
        if !self.expect(Punct::RParen, "')'") {
            self.recover();
            return None;
        }
        if self.eat(Punct::Semicolon) {
            return Some((params, None));
        }
        if !self.is_punct(Punct::LBrace) {
            self.expected("'{' or ';'");
            self.recover();
            return None;
        }
        let body = self.block(ROOM.body)?;
        Some((params, Some(body)))
    }

    /// One parameter; a declared one (named or not) and the name a parameter macro declares are locals of the
    /// function.
    fn parameter(&mut self, out: &mut Vec<Guarded<Param>>) -> Step {
        let Some(t) = self.peek() else {
            return Step::End;
        };
        if t.is_punct(Punct::RParen) {
            return Step::End;
        }
        if t.is_punct(Punct::Comma) {
            self.separator("a parameter");
            return Step::Skip;
        }
        if let TokenKind::Directive(_) = t.kind {
            self.expected("a parameter");
            self.pos += 1;
            self.resync();
            return Step::Skip;
        }
        let start = self.here();
        // A macro standing for a parameter: `TEXTURE2D_SHADOW_PARAM(shadowMap)`.
        if t.kind == TokenKind::Ident && self.macros.contains_key(&t.sym) {
            return self.macro_parameter(out);
        }
        // `f(void)`
        if self.builtin_type(t) == Some(TypeInner::Void) && self.punct_at(1, Punct::RParen) {
            self.pos += 1;
            return Step::Skip;
        }
        let qualifiers = self.qualifiers();
        let Some(mut ty) = self.type_specifier() else {
            self.expected("a parameter type");
            self.skip_parameter();
            return Step::Skip;
        };
        let mut name = None;
        if let Some(n) = self.peek().filter(|n| self.is_plain_ident(n)) {
            name = Some((n.sym, n.span));
            self.pos += 1;
            ty.dims.extend(self.array_dims());
        }
        if !(self.is_punct(Punct::Comma) || self.is_punct(Punct::RParen) || self.at_directive()) {
            self.expected("',' or ')'");
            self.skip_parameter();
        }
        let span = start.to(self.prev_span());
        // An unnamed parameter (a prototype's) has a local without uses.
        let (name, name_span) = name.unwrap_or((Interner::EMPTY, span));
        let local =
            self.locals.push(Local { name, name_span, ty, qualifiers, init: None, kind: LocalKind::Parameter, span });
        done(out, Param { kind: ParamKind::Declared { local }, span })
    }

    fn at_directive(&self) -> bool {
        self.peek().is_some_and(|t| matches!(t.kind, TokenKind::Directive(_)))
    }

    fn macro_parameter(&mut self, out: &mut Vec<Guarded<Param>>) -> Step {
        let Some(t) = self.bump() else {
            return Step::End;
        };
        let (name, start) = (t.sym, t.span);
        let mut args = Vec::new();
        if self.eat(Punct::LParen) {
            while !self.is_punct(Punct::RParen) && !self.at_end() {
                args.push(self.assignment());
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            if !self.expect(Punct::RParen, "')'") {
                self.skip_parameter();
            }
        }
        let span = start.to(self.prev_span());
        let declares = self.macro_declared_name(name, &args).map(|(declared, declared_span)| {
            // The declared parameter's type depends on the variant: an unresolved user type named after the macro
            // marks it as macro-typed.
            let base = self.types.intern(TypeInner::User(name));
            self.locals.push(Local {
                name: declared,
                name_span: declared_span,
                ty: TypeSpec { base, precision: None, dims: Vec::new(), span },
                qualifiers: Qualifiers::default(),
                init: None,
                kind: LocalKind::Parameter,
                span,
            })
        });
        done(out, Param { kind: ParamKind::Macro { name, args, declares }, span })
    }

    /// The parameter name a parameter macro declares: its body ends with one of its parameters, and the matching
    /// argument is a plain name.
    fn macro_declared_name(&self, name: Name, args: &[ExprId]) -> Option<(Name, Span)> {
        let info = self.macros.get(&name)?;
        let last = info.body.last()?;
        let index = info.params.as_ref()?.iter().position(|p| *p == last.sym)?;
        let arg = &self.exprs()[*args.get(index)?];
        match arg.kind {
            Expr::Ident(n) => Some((n, arg.span)),
            _ => None,
        }
    }

    fn skip_parameter(&mut self) {
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            match &t.kind {
                TokenKind::Punct(Punct::LParen) => depth += 1,
                TokenKind::Punct(Punct::RParen) if depth == 0 => break,
                TokenKind::Punct(Punct::RParen) => depth -= 1,
                TokenKind::Punct(Punct::Comma) if depth == 0 => break,
                TokenKind::Punct(Punct::LBrace | Punct::Semicolon) => break,
                _ => {}
            }
            self.pos += 1;
        }
        self.resync();
    }

    /// Whether a declaration starts here (statement context).
    pub(crate) fn starts_declaration(&self) -> bool {
        let Some(t) = self.peek() else { return false };
        if self.legacy_storage().is_some() {
            return true;
        }
        if let Some(k) = self.kw_of(t) {
            return matches!(
                k,
                Kw::Const
                    | Kw::Uniform
                    | Kw::In
                    | Kw::Out
                    | Kw::Inout
                    | Kw::Flat
                    | Kw::Smooth
                    | Kw::Centroid
                    | Kw::Invariant
                    | Kw::Precise
                    | Kw::Layout
                    | Kw::Highp
                    | Kw::Mediump
                    | Kw::Lowp
                    | Kw::Struct
            );
        }
        let is_type = self.builtin_type(t).is_some() || (self.is_plain_ident(t) && !self.macros.contains_key(&t.sym));
        if !is_type {
            return false;
        }
        // `T name`, or `T[...] name`
        let mut i = 1;
        if self.punct_at(1, Punct::LBracket) {
            let mut depth = 0;
            loop {
                let Some(t) = self.peek_at(i) else {
                    return false;
                };
                if t.is_punct(Punct::LBracket) {
                    depth += 1;
                } else if t.is_punct(Punct::RBracket) {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        if !self.punct_at(i, Punct::LBracket) {
                            break;
                        }
                    }
                }
                i += 1;
            }
        }
        self.peek_at(i).is_some_and(|n| self.is_plain_ident(n))
    }
}
