//! Render-state merging: the engine's rules, with a diagnostic for every property, value or name it would
//! silently drop.
//!
//! Each level (Shader, SubShader, Pass) applies its assignments in source order; a pass's effective state is
//! shader, then subshader, then pass, the latest assignment winning per property. Named states and render-state
//! variables declared at a level are visible in the levels below it.

use crate::diag::Sink;
use crate::structure::{Generation, LevelSyntax, RsItem, RsProp, RsValueSyntax, StateKind};
use shaderlab_ir::hash::FastHashMap as HashMap;
use shaderlab_ir::{
    Deprecated, Interner, Name, RenderStateEntry, RenderStateMap, RenderStateValue, Span, StructureClue, SyntaxClue,
};
use std::rc::Rc;

/// The kind of value a property takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ValueKind {
    Bool,
    Number,
    Color,
    Enum(&'static str),
}

impl ValueKind {
    fn describe(self) -> &'static str {
        match self {
            ValueKind::Bool => "Bool",
            ValueKind::Number => "Number",
            ValueKind::Color => "Color",
            ValueKind::Enum(e) => e,
        }
    }
}

/// (state, property, engine key, value kind, accepts the `[0]` render-target index)
const PROPERTIES: &[(StateKind, &str, u8, ValueKind, bool)] = &[
    (StateKind::Blend, "Enabled", 0, ValueKind::Bool, true),
    (StateKind::Blend, "ColorBlendOperation", 1, ValueKind::Enum("BlendOperation"), true),
    (StateKind::Blend, "AlphaBlendOperation", 2, ValueKind::Enum("BlendOperation"), true),
    (StateKind::Blend, "SourceColorBlendFactor", 3, ValueKind::Enum("BlendFactor"), true),
    (StateKind::Blend, "SourceAlphaBlendFactor", 4, ValueKind::Enum("BlendFactor"), true),
    (StateKind::Blend, "DestinationColorBlendFactor", 5, ValueKind::Enum("BlendFactor"), true),
    (StateKind::Blend, "DestinationAlphaBlendFactor", 6, ValueKind::Enum("BlendFactor"), true),
    (StateKind::Blend, "ColorWriteMask", 7, ValueKind::Number, true),
    (StateKind::Blend, "BlendColor", 8, ValueKind::Color, false),
    (StateKind::Blend, "AlphaToCoverage", 9, ValueKind::Bool, false),
    (StateKind::Depth, "Enabled", 10, ValueKind::Bool, false),
    (StateKind::Depth, "WriteEnabled", 11, ValueKind::Bool, false),
    (StateKind::Depth, "CompareFunction", 12, ValueKind::Enum("CompareFunction"), false),
    (StateKind::Stencil, "Enabled", 13, ValueKind::Bool, false),
    (StateKind::Stencil, "ReferenceValue", 14, ValueKind::Number, false),
    (StateKind::Stencil, "Mask", 15, ValueKind::Number, false),
    (StateKind::Stencil, "WriteMask", 16, ValueKind::Number, false),
    (StateKind::Stencil, "CompareFunctionFront", 17, ValueKind::Enum("CompareFunction"), false),
    (StateKind::Stencil, "CompareFunctionBack", 18, ValueKind::Enum("CompareFunction"), false),
    (StateKind::Stencil, "PassOperationFront", 19, ValueKind::Enum("StencilOperation"), false),
    (StateKind::Stencil, "PassOperationBack", 20, ValueKind::Enum("StencilOperation"), false),
    (StateKind::Stencil, "FailOperationFront", 21, ValueKind::Enum("StencilOperation"), false),
    (StateKind::Stencil, "FailOperationBack", 22, ValueKind::Enum("StencilOperation"), false),
    (StateKind::Stencil, "ZFailOperationFront", 23, ValueKind::Enum("StencilOperation"), false),
    (StateKind::Stencil, "ZFailOperationBack", 24, ValueKind::Enum("StencilOperation"), false),
    (StateKind::Raster, "CullMode", 25, ValueKind::Enum("CullMode"), false),
    (StateKind::Raster, "DepthBias", 26, ValueKind::Number, false),
    (StateKind::Raster, "SlopeScaledDepthBias", 27, ValueKind::Number, false),
];

const RENDER_QUEUE_KEY: u8 = 28;

/// The entries of [`PROPERTIES`] of one state (the table lists each state's properties together, in
/// [`StateKind`] order; a test checks the ranges).
fn properties_of(state: StateKind) -> &'static [(StateKind, &'static str, u8, ValueKind, bool)] {
    let range = match state {
        StateKind::Blend => 0..10,
        StateKind::Depth => 10..13,
        StateKind::Stencil => 13..25,
        StateKind::Raster => 25..28,
    };
    PROPERTIES.get(range).unwrap_or_default()
}

/// Enum members in engine order (the member's number is its index).
const ENUMS: &[(&str, &[&str])] = &[
    (
        "BlendFactor",
        &[
            "Zero",
            "One",
            "SourceColor",
            "OneMinusSourceColor",
            "DestinationColor",
            "OneMinusDestinationColor",
            "SourceAlpha",
            "OneMinusSourceAlpha",
            "DestinationAlpha",
            "OneMinusDestinationAlpha",
            "SourceAlphaSaturate",
            "BlendColor",
            "OneMinusBlendColor",
        ],
    ),
    ("BlendOperation", &["Add", "Subtract", "ReverseSubtract", "Min", "Max"]),
    ("CompareFunction", &["Never", "Less", "Equal", "LessEqual", "Greater", "NotEqual", "GreaterEqual", "Always"]),
    (
        "StencilOperation",
        &[
            "Keep",
            "Zero",
            "Replace",
            "IncrementSaturate",
            "DecrementSaturate",
            "Invert",
            "IncrementWrap",
            "DecrementWrap",
        ],
    ),
    ("CullMode", &["Off", "Front", "Back"]),
    ("RenderQueueType", &["Opaque", "AlphaTest", "Transparent"]),
];

/// The members of a render-state enum (`BlendFactor`, `CullMode`, ...) in engine order, or `None` for an unknown
/// enum name.
pub fn enum_members(enum_name: &str) -> Option<&'static [&'static str]> {
    ENUMS.iter().find(|(e, _)| *e == enum_name).map(|(_, members)| *members)
}

fn enum_member(enum_name: &str, member: &str) -> Option<i64> {
    member_value(enum_members(enum_name)?, member)
}

/// The value of `member` in an enum's member list: its position.
fn member_value(members: &[&str], member: &str) -> Option<i64> {
    members.iter().position(|m| *m == member).map(|i| i as i64)
}

fn var_kind(ty: &str) -> ValueKind {
    match ty {
        "Bool" => ValueKind::Bool,
        "Number" => ValueKind::Number,
        "Color" => ValueKind::Color,
        "BlendFactor" => ValueKind::Enum("BlendFactor"),
        "BlendOperation" => ValueKind::Enum("BlendOperation"),
        "CompareFunction" => ValueKind::Enum("CompareFunction"),
        "StencilOperation" => ValueKind::Enum("StencilOperation"),
        "CullMode" => ValueKind::Enum("CullMode"),
        _ => ValueKind::Enum("RenderQueueType"),
    }
}

#[derive(Default, Clone)]
struct Env<'a> {
    vars: HashMap<Name, ValueKind>,
    /// Counts the variable declarations merged so far: what a check that reads `vars` saw is still what it would
    /// see while this is unchanged.
    vars_version: u64,
    named: HashMap<(u8, Name), Named<'a>>,
    /// v1 rules: an undeclared identifier value is a variable of the property's kind.
    implicit_variables: bool,
}

/// A named state (`BlendState name { ... }`) as declared.
#[derive(Clone)]
struct Named<'a> {
    props: &'a [RsProp],
    /// What checking the properties at the declaration set (each property's last value). Applying the state
    /// sets the same while the check would see the same variables; it would report nothing new either (the
    /// sink keeps one clue per place and code, and the declaration's check reported each), so it is not checked
    /// again.
    checked: Rc<RenderStateMap>,
    /// `Env::vars_version` at the declaration when a value names a variable (the only values whose check reads
    /// the variables); `None` when none does.
    vars_seen: Option<u64>,
}

fn state_tag(kind: StateKind) -> u8 {
    kind as u8
}

/// The render state of a chain of levels merged so far (outermost first): the properties set and the variables and
/// named states the levels below can use. A level's result is the start of each of its children's, so every
/// level is merged (and checked) once, not once per pass below it.
#[derive(Clone)]
pub struct Merged<'a> {
    env: Env<'a>,
    map: RenderStateMap,
}

impl<'a> Merged<'a> {
    /// Nothing merged yet, under the rules of `generation`.
    pub fn new(generation: Generation) -> Self {
        Merged {
            env: Env { implicit_variables: !generation.requires_declarations(), ..Env::default() },
            map: RenderStateMap::default(),
        }
    }

    /// Merge one more level (below those merged so far). `names` spells the syntax's names.
    pub fn level(&mut self, level: &'a LevelSyntax, names: &Interner, sink: &mut Sink) {
        let Merged { env, map } = self;
        for item in &level.render {
            match item {
                RsItem::VarDecl { ty, name, .. } => {
                    env.vars.insert(*name, var_kind(ty));
                    env.vars_version += 1;
                }
                RsItem::NamedState { kind, name, props, .. } => {
                    // Check the declaration even when it is never applied.
                    let mut checked = RenderStateMap::default();
                    apply(env, names, *kind, props, &mut checked, sink);
                    let reads_vars = props.iter().any(|p| matches!(p.value, RsValueSyntax::Ident(_)));
                    let vars_seen = reads_vars.then_some(env.vars_version);
                    env.named.insert((state_tag(*kind), *name), Named { props, checked: Rc::new(checked), vars_seen });
                }
                RsItem::ApplyInline { kind, props, .. } => apply(env, names, *kind, props, map, sink),
                RsItem::ApplyNamed { kind, name, name_span, .. } => match env.named.get(&(state_tag(*kind), *name)) {
                    Some(named) if named.vars_seen.is_none_or(|seen| seen == env.vars_version) => {
                        for (key, entry) in &named.checked.entries {
                            map.entries.insert(*key, entry.clone());
                        }
                    }
                    Some(named) => apply(env, names, *kind, named.props, map, sink),
                    None => sink.structure(
                        StructureClue::UndeclaredRenderStateVariable { name: names.resolve(*name).into() },
                        *name_span,
                    ),
                },
                RsItem::RenderQueue { value, value_span, .. } => {
                    let kind = ValueKind::Enum("RenderQueueType");
                    let member = match value {
                        RsValueSyntax::Ident(word) => enum_member("RenderQueueType", names.resolve(*word)),
                        _ => None,
                    };
                    let value = match member {
                        Some(member) => Some(RenderStateValue::Enum(member)),
                        None => check_value(env, names, "RenderQueueType", kind, value, *value_span, sink),
                    };
                    if let Some(value) = value {
                        map.entries.insert(RENDER_QUEUE_KEY, RenderStateEntry { value, span: *value_span });
                    }
                }
            }
        }
    }

    /// The merged properties.
    pub fn map(&self) -> &RenderStateMap {
        &self.map
    }

    /// The merged properties, taken (for the last level of a chain).
    pub fn take_map(&mut self) -> RenderStateMap {
        std::mem::take(&mut self.map)
    }
}

fn apply(env: &Env, names: &Interner, state: StateKind, props: &[RsProp], map: &mut RenderStateMap, sink: &mut Sink) {
    for prop in props {
        let name = names.resolve(prop.name);
        let Some(&(_, _, key, kind, indexable)) = properties_of(state).iter().find(|(_, p, ..)| *p == name) else {
            sink.structure(
                StructureClue::InvalidRenderStateProperty { state: state.keyword().into(), property: name.into() },
                prop.name_span,
            );
            continue;
        };
        if let Some((index, span)) = &prop.index {
            if !indexable || index.trim() != "0" {
                sink.structure(
                    StructureClue::InvalidRenderTargetIndex { property: name.into(), index: index.clone() },
                    *span,
                );
                continue;
            }
        }
        if let Some(value) = check_value(env, names, name, kind, &prop.value, prop.value_span, sink) {
            map.entries.insert(key, RenderStateEntry { value, span: prop.value_span });
        }
    }
}

fn found_kind(value: &RsValueSyntax, names: &Interner) -> String {
    match value {
        RsValueSyntax::Bool(_) => "Bool".into(),
        RsValueSyntax::Number(_) => "Number".into(),
        RsValueSyntax::Color(_) => "Color".into(),
        RsValueSyntax::EnumMember { enum_name, .. } => names.resolve(*enum_name).into(),
        RsValueSyntax::Ident(name) => ["variable '", names.resolve(*name), "'"].concat(),
    }
}

fn check_value(
    env: &Env,
    names: &Interner,
    property: &str,
    kind: ValueKind,
    value: &RsValueSyntax,
    span: Span,
    sink: &mut Sink,
) -> Option<RenderStateValue> {
    let mismatch = |sink: &mut Sink, found: String| {
        sink.structure(
            StructureClue::RenderStateTypeMismatch {
                property: property.into(),
                expected: kind.describe().into(),
                found,
            },
            span,
        );
        None
    };
    match (value, kind) {
        (RsValueSyntax::Bool(b), ValueKind::Bool) => Some(RenderStateValue::Bool(*b)),
        (RsValueSyntax::Number(n), ValueKind::Number) => Some(RenderStateValue::Number(*n)),
        (RsValueSyntax::Color(c), ValueKind::Color) if (1..=4).contains(&c.len()) => Some(RenderStateValue::Color {
            r: c[0],
            g: c.get(1).copied().unwrap_or(0.0),
            b: c.get(2).copied().unwrap_or(0.0),
            a: c.get(3).copied().unwrap_or(1.0),
        }),
        (RsValueSyntax::Color(c), ValueKind::Color) => mismatch(sink, format!("Color with {} components", c.len())),
        (RsValueSyntax::EnumMember { enum_name, member }, _) => {
            let (enum_name, member) = (names.resolve(*enum_name), names.resolve(*member));
            // The enum is looked up once: its table entry gives both the kind to compare and the members.
            let Some(&(known, members)) = ENUMS.iter().find(|(e, _)| *e == enum_name) else {
                sink.structure(StructureClue::InvalidRenderStateValue { value: format!("{enum_name}.{member}") }, span);
                return None;
            };
            if kind != ValueKind::Enum(known) {
                return mismatch(sink, enum_name.into());
            }
            match member_value(members, member) {
                Some(v) => Some(RenderStateValue::Enum(v)),
                None => {
                    sink.structure(
                        StructureClue::InvalidRenderStateValue { value: format!("{enum_name}.{member}") },
                        span,
                    );
                    None
                }
            }
        }
        (RsValueSyntax::Ident(symbol), _) => {
            let name = names.resolve(*symbol);
            match env.vars.get(symbol) {
                Some(&declared) if declared == kind => Some(RenderStateValue::Variable(*symbol)),
                Some(&declared) => mismatch(sink, [declared.describe(), " variable '", name, "'"].concat()),
                None if env.implicit_variables => {
                    sink.syntax(
                        SyntaxClue::DeprecatedSyntax(Deprecated::UndeclaredVariable {
                            name: name.into(),
                            ty: kind.describe().into(),
                        }),
                        span,
                    );
                    Some(RenderStateValue::Variable(*symbol))
                }
                None => {
                    sink.structure(StructureClue::UndeclaredRenderStateVariable { name: name.into() }, span);
                    None
                }
            }
        }
        (other, _) => mismatch(sink, found_kind(other, names)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_state_s_range_holds_exactly_its_properties() {
        let states = [StateKind::Blend, StateKind::Depth, StateKind::Stencil, StateKind::Raster];
        let mut seen = 0;
        for state in states {
            let own = properties_of(state);
            assert!(own.iter().all(|(s, ..)| *s == state), "{state:?}");
            assert_eq!(own.len(), PROPERTIES.iter().filter(|(s, ..)| *s == state).count(), "{state:?}");
            seen += own.len();
        }
        assert_eq!(seen, PROPERTIES.len());
    }
}
