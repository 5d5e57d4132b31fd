//! Message wording, in glslang's `'token' : what is wrong` style. Codes are the contract; wording may improve.

use crate::diagnostic::DiagnosticType;
use shaderlab_ir::{StructureClue, SyntaxClue};

pub fn message(kind: &DiagnosticType) -> String {
    match kind {
        DiagnosticType::Syntax(s) => syntax(s),
        DiagnosticType::Structure(s) => structure(s),
    }
}

fn syntax(s: &SyntaxClue) -> String {
    match s {
        SyntaxClue::UnexpectedToken { found, expected } => format!("{found} : syntax error, expected {expected}"),
        SyntaxClue::UnterminatedComment => "'/*' : unterminated comment".into(),
        SyntaxClue::UnterminatedString => "'\"' : unterminated string".into(),
        SyntaxClue::InvalidNumber { text, reason } => format!("'{text}' : {reason}"),
        SyntaxClue::IncludeNotFound { key } => format!("'{key}' : no include chunk with this key"),
        SyntaxClue::IncludeCycle { key, chain } => {
            let chain: Vec<&str> = chain.iter().map(|c| if c.is_empty() { "<main file>" } else { c.as_str() }).collect();
            format!("'{key}' : include cycle: {}", chain.join(" -> "))
        }
        SyntaxClue::DuplicateInclude { key } => format!("'{key}' : chunk included twice in this pass"),
        SyntaxClue::UnbalancedConditional { directive, reason } => format!("'{directive}' : {reason}"),
        SyntaxClue::InvalidDirective { name } => {
            format!("'{name}' : directive not allowed in a ShaderLab pass (the engine adds #version and extensions)")
        }
        SyntaxClue::MacroArgCount { name, expected, found } => {
            format!("'{name}' : macro takes {expected} argument(s), {found} given")
        }
        SyntaxClue::InvalidMacroCondition { text, reason } => format!("'{text}' : invalid condition: {reason}"),
        SyntaxClue::DeprecatedSyntax { construct, replacement } => {
            format!("'{construct}' : deprecated v1 syntax; write {replacement}")
        }
        SyntaxClue::LimitExceeded { what, limit } => format!("'{what}' : limit of {limit} exceeded"),
    }
}

fn structure(s: &StructureClue) -> String {
    match s {
        StructureClue::MissingEntry { pass, stage } => {
            format!("'{pass}' : pass has no {stage} entry (expected '{stage} = <function>;')")
        }
        StructureClue::DuplicateEntryAssignment { stage } => format!("'{stage}' : entry assigned more than once"),
        StructureClue::EntryNotFound { name } => format!("'{name}' : entry function is not defined in this pass"),
        StructureClue::InvalidRenderStateProperty { state, property } => {
            format!("'{property}' : not a property of {state}")
        }
        StructureClue::InvalidRenderStateValue { value } => format!("'{value}' : unknown render-state value"),
        StructureClue::RenderStateTypeMismatch { property, expected, found } => {
            format!("'{property}' : expects a {expected} value, found {found}")
        }
        StructureClue::UndeclaredRenderStateVariable { name } => {
            format!("'{name}' : undeclared render-state variable or state name")
        }
        StructureClue::InvalidRenderTargetIndex { property, index } => format!(
            "'{property}[{index}]' : only render target [0] exists, and only on the indexed blend properties"
        ),
        StructureClue::InvalidTag { found } => {
            format!("{found} : a tag is 'key = \"value\"' with a bare-word key and a quoted value")
        }
    }
}
