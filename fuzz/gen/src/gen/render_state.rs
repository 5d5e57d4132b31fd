//! v2 render states: render-state variable declarations (`BlendFactor f;`), inline states
//! (`BlendState = { ... }`), named states (`DepthState d { ... }` then `DepthState = d;`) and
//! `RenderQueueType`. Properties and enum members come from the language's table; a variable is used only as
//! the value of a property of its kind and only at or below the level that declares it.

use super::{chance, just, one_of, pick, then, Gen};
use crate::scope::Scope;
use proptest::prelude::*;

/// The kind of a property value (and of a render-state variable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    Bool,
    Number,
    Color,
    BlendFactor,
    BlendOperation,
    CompareFunction,
    StencilOperation,
    CullMode,
}

impl ValueKind {
    /// The type keyword of a render-state variable of this kind.
    pub fn keyword(self) -> &'static str {
        match self {
            ValueKind::Bool => "Bool",
            ValueKind::Number => "Number",
            ValueKind::Color => "Color",
            ValueKind::BlendFactor => "BlendFactor",
            ValueKind::BlendOperation => "BlendOperation",
            ValueKind::CompareFunction => "CompareFunction",
            ValueKind::StencilOperation => "StencilOperation",
            ValueKind::CullMode => "CullMode",
        }
    }

    /// The enum members of this kind (the frontend's table); empty for non-enum kinds.
    fn members(self) -> &'static [&'static str] {
        shaderlab_frontend::render_state::enum_members(self.keyword()).unwrap_or(&[])
    }

    const ALL: [ValueKind; 8] = [
        ValueKind::Bool,
        ValueKind::Number,
        ValueKind::Color,
        ValueKind::BlendFactor,
        ValueKind::BlendOperation,
        ValueKind::CompareFunction,
        ValueKind::StencilOperation,
        ValueKind::CullMode,
    ];
}

/// `(property, kind, takes the [0] index)`.
type Property = (&'static str, ValueKind, bool);

/// Each state kind with its properties.
const STATES: &[(&str, &[Property])] = &[
    (
        "BlendState",
        &[
            ("Enabled", ValueKind::Bool, true),
            ("ColorBlendOperation", ValueKind::BlendOperation, true),
            ("AlphaBlendOperation", ValueKind::BlendOperation, true),
            ("SourceColorBlendFactor", ValueKind::BlendFactor, true),
            ("SourceAlphaBlendFactor", ValueKind::BlendFactor, true),
            ("DestinationColorBlendFactor", ValueKind::BlendFactor, true),
            ("DestinationAlphaBlendFactor", ValueKind::BlendFactor, true),
            ("ColorWriteMask", ValueKind::Number, true),
            ("BlendColor", ValueKind::Color, false),
            ("AlphaToCoverage", ValueKind::Bool, false),
        ],
    ),
    (
        "DepthState",
        &[
            ("Enabled", ValueKind::Bool, false),
            ("WriteEnabled", ValueKind::Bool, false),
            ("CompareFunction", ValueKind::CompareFunction, false),
        ],
    ),
    (
        "StencilState",
        &[
            ("Enabled", ValueKind::Bool, false),
            ("ReferenceValue", ValueKind::Number, false),
            ("Mask", ValueKind::Number, false),
            ("WriteMask", ValueKind::Number, false),
            ("CompareFunctionFront", ValueKind::CompareFunction, false),
            ("CompareFunctionBack", ValueKind::CompareFunction, false),
            ("PassOperationFront", ValueKind::StencilOperation, false),
            ("PassOperationBack", ValueKind::StencilOperation, false),
            ("FailOperationFront", ValueKind::StencilOperation, false),
            ("FailOperationBack", ValueKind::StencilOperation, false),
            ("ZFailOperationFront", ValueKind::StencilOperation, false),
            ("ZFailOperationBack", ValueKind::StencilOperation, false),
        ],
    ),
    (
        "RasterState",
        &[
            ("CullMode", ValueKind::CullMode, false),
            ("DepthBias", ValueKind::Number, false),
            ("SlopeScaledDepthBias", ValueKind::Number, false),
        ],
    ),
];

/// The render-state variables visible at a level: `(kind, name)`.
pub type RenderVars = Vec<(ValueKind, String)>;

/// A number as render states write it: `digits[.digits]`.
fn number() -> Gen<String> {
    pick(vec![
        (3, (0u32..=15).prop_map(|n| n.to_string()).boxed()),
        (1, (0u32..=9, 0u32..=99).prop_map(|(a, b)| format!("{a}.{b}")).boxed()),
    ])
}

fn constant(kind: ValueKind) -> Gen<String> {
    match kind {
        ValueKind::Bool => one_of(vec!["true".to_owned(), "false".to_owned()]),
        ValueKind::Number => number(),
        ValueKind::Color => {
            prop::collection::vec(number(), 1..=4).prop_map(|parts| format!("Color({})", parts.join(", "))).boxed()
        }
        _ => one_of(kind.members().to_vec()).prop_map(move |m| format!("{}.{m}", kind.keyword())).boxed(),
    }
}

/// A value for a property of `kind`: a constant, or a variable of that kind.
fn value(kind: ValueKind, vars: &RenderVars) -> Gen<String> {
    let names: Vec<String> = vars.iter().filter(|(k, _)| *k == kind).map(|(_, n)| n.clone()).collect();
    if names.is_empty() {
        return constant(kind);
    }
    pick(vec![(2, constant(kind)), (1, one_of(names))])
}

/// The `{ ... }` body of a state: distinct properties with values.
fn properties(state: usize, vars: &RenderVars) -> Gen<Vec<String>> {
    let props = STATES[state].1;
    let vars = vars.clone();
    then(
        prop::sample::subsequence((0..props.len()).collect::<Vec<_>>(), 1..=props.len().min(4)).boxed(),
        move |picked| {
            let lines: Vec<Gen<String>> = picked
                .iter()
                .map(|&i| {
                    let (name, kind, indexed) = props[i];
                    let index = if indexed { chance(30) } else { just(false) };
                    (value(kind, &vars), index)
                        .prop_map(move |(v, index)| format!("{name}{} = {v};", if index { "[0]" } else { "" }))
                        .boxed()
                })
                .collect();
            lines.boxed()
        },
    )
}

/// Render-state statements of one level, the variables visible below it, and the scope with its name counter
/// advanced.
pub fn level(scope: &Scope, inherited: &RenderVars) -> Gen<(Vec<String>, RenderVars, Scope)> {
    if !scope.config.features.render_states {
        return just((Vec::new(), inherited.clone(), scope.clone()));
    }
    let (s, inherited) = (scope.clone(), inherited.clone());
    let kinds = prop::collection::vec(one_of(ValueKind::ALL.to_vec()), 0..=2).boxed();
    then(kinds, move |kinds: Vec<ValueKind>| {
        let mut s = s.clone();
        let mut lines = Vec::new();
        let mut vars = inherited.clone();
        for kind in kinds {
            let name = s.fresh("rs").to_string();
            lines.push(format!("{} {name};", kind.keyword()));
            vars.push((kind, name));
        }
        let states = prop::collection::vec((any::<bool>(), properties_any(&vars)), 0..=2);
        (states, queue(), Just((lines, vars, s)))
            .prop_map(|(states, queue, (mut lines, vars, mut s))| {
                for (named, (state, props)) in states {
                    let kind = STATES[state].0;
                    if named {
                        let name = s.fresh("state");
                        lines.push(format!("{kind} {name} {{"));
                        lines.extend(props.iter().map(|p| format!("  {p}")));
                        lines.push("}".to_owned());
                        lines.push(format!("{kind} = {name};"));
                    } else {
                        lines.push(format!("{kind} = {{"));
                        lines.extend(props.iter().map(|p| format!("  {p}")));
                        lines.push("}".to_owned());
                    }
                }
                match queue {
                    Queue::None => {}
                    Queue::Constant(q) => lines.push(format!("RenderQueueType = {q};")),
                    Queue::Variable => {
                        let name = s.fresh("queue");
                        lines.push(format!("RenderQueueType {name};"));
                        lines.push(format!("RenderQueueType = {name};"));
                    }
                }
                (lines, vars, s)
            })
            .boxed()
    })
}

/// A state kind and its properties.
fn properties_any(vars: &RenderVars) -> Gen<(usize, Vec<String>)> {
    let vars = vars.clone();
    then((0..STATES.len()).boxed(), move |state| properties(state, &vars).prop_map(move |p| (state, p)).boxed())
}

#[derive(Clone, Debug)]
enum Queue {
    None,
    Constant(&'static str),
    Variable,
}

/// `RenderQueueType = Transparent;`, or a variable of type `RenderQueueType` assigned to it.
fn queue() -> Gen<Queue> {
    let constant = one_of(vec!["Opaque", "AlphaTest", "Transparent"]).prop_map(Queue::Constant).boxed();
    pick(vec![(4, just(Queue::None)), (2, constant), (1, just(Queue::Variable))])
}
