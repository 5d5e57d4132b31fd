//! Message wording, in glslang's `'token' : what is wrong` style. Codes are the contract; wording may improve.

use crate::diagnostic::DiagnosticType;
use shaderlab_ir::{Deprecated, StructureClue, SyntaxClue};
use shaderlab_passes::{SymbolClue, TypeClue};

pub fn message(kind: &DiagnosticType) -> String {
    match kind {
        DiagnosticType::Syntax(s) => syntax(s),
        DiagnosticType::Structure(s) => structure(s),
        DiagnosticType::Symbol(s) => symbol(s),
        DiagnosticType::Type(t) => types(t),
        DiagnosticType::Io(i) => io(i),
        DiagnosticType::Const(c) => constant(c),
        DiagnosticType::Backend { message, .. } => message.clone(),
        DiagnosticType::Flow(f) => flow(f),
        DiagnosticType::Recursion { function, cycle } => {
            format!("'{function}' : recursion is not allowed in GLSL ES (cycle: {})", cycle.join(" -> "))
        }
    }
}

fn did_you_mean(s: &Option<String>) -> String {
    s.as_ref().map(|s| format!("; did you mean '{s}'?")).unwrap_or_default()
}

fn symbol(s: &SymbolClue) -> String {
    match s {
        SymbolClue::UndeclaredIdentifier { name, suggestion } => {
            format!("'{name}' : undeclared identifier{}", did_you_mean(suggestion))
        }
        SymbolClue::UseBeforeDeclaration { name } => {
            format!("'{name}' : used before its declaration")
        }
        SymbolClue::Redefinition { name } => format!("'{name}' : redefinition"),
        SymbolClue::UndefinedFunction { name, suggestion } => {
            format!("'{name}' : no function with this name{}", did_you_mean(suggestion))
        }
        SymbolClue::ShadowedDeclaration { name } => {
            format!("'{name}' : declaration hides an outer declaration")
        }
    }
}

fn types(t: &TypeClue) -> String {
    match t {
        TypeClue::InvalidBinaryOperands { op, left, right } => {
            format!("'{op}' : wrong operand types: no operation '{op}' exists that takes a left-hand operand of type '{left}' and a right operand of type '{right}'")
        }
        TypeClue::InvalidUnaryOperand { op, operand } => {
            format!("'{op}' : wrong operand type: no operation '{op}' exists that takes an operand of type '{operand}'")
        }
        TypeClue::ConstructorArgCount { ty, detail } => {
            format!("'{ty}' : wrong number of constructor arguments: {detail}")
        }
        TypeClue::ConstructorArgType { ty, arg } => {
            format!("'{ty}' : cannot construct from an argument of type '{arg}'")
        }
        TypeClue::InvalidSplat { ty, arg } => {
            format!("'{ty}' : a single '{arg}' argument does not have enough components")
        }
        TypeClue::InvalidSwizzle { swizzle, ty, reason } => {
            format!("'{swizzle}' : invalid swizzle of '{ty}': {reason}")
        }
        TypeClue::UndeclaredStructMember { member, ty } => {
            format!("'{member}' : no such member in '{ty}'")
        }
        TypeClue::NonIndexableType { ty } => format!("'[' : '{ty}' cannot be indexed"),
        TypeClue::NonIntegerIndex { ty } => {
            format!("'[' : index must be int or uint, found '{ty}'")
        }
        TypeClue::InvalidConversion { ty, arg } => format!("'{ty}' : cannot convert from '{arg}'"),
        TypeClue::NotAnLValue { what } => format!("'assign' : l-value required: {what}"),
        TypeClue::NoMatchingOverload { name, args, .. } => {
            format!("'{name}' : no matching overload for argument types ({})", args.join(", "))
        }
        TypeClue::ExpectedSampler { name, found } => {
            format!("'{name}' : first argument must be a sampler of the right kind, found '{found}'")
        }
        TypeClue::ReturnTypeMismatch { expected, found } => {
            format!("'return' : function returns '{expected}', value has type '{found}'")
        }
        TypeClue::AssignTypeMismatch { target, value } => {
            format!("'=' : cannot assign a value of type '{value}' to '{target}'")
        }
        TypeClue::NonBoolCondition { found } => {
            format!("'condition' : must be a scalar bool, found '{found}'")
        }
        TypeClue::NonIntegerSwitch { found } => {
            format!("'switch' : selector must be a scalar int or uint, found '{found}'")
        }
        TypeClue::ReturnInVoidFunction => "'return' : void function cannot return a value".into(),
        TypeClue::NonConstructibleReturnType { ty } => {
            format!("'{ty}' : a function cannot return a sampler")
        }
        TypeClue::InvalidUniformType { ty } => format!("'{ty}' : invalid type for a uniform"),
    }
}

fn syntax(s: &SyntaxClue) -> String {
    match s {
        SyntaxClue::UnexpectedToken { found, expected } => {
            format!("{found} : syntax error, expected {expected}")
        }
        SyntaxClue::UnterminatedComment => "'/*' : unterminated comment".into(),
        SyntaxClue::UnterminatedString => "'\"' : unterminated string".into(),
        SyntaxClue::InvalidNumber { text, reason } => format!("'{text}' : {reason}"),
        SyntaxClue::IncludeNotFound { key } => format!("'{key}' : no include chunk with this key"),
        SyntaxClue::IncludeCycle { key, chain } => {
            let chain: Vec<&str> =
                chain.iter().map(|c| if c.is_empty() { "<main file>" } else { c.as_str() }).collect();
            format!("'{key}' : include cycle: {}", chain.join(" -> "))
        }
        SyntaxClue::DuplicateInclude { key } => {
            format!("'{key}' : chunk included twice in this pass")
        }
        SyntaxClue::UnbalancedConditional { directive, reason } => {
            format!("'{directive}' : {reason}")
        }
        SyntaxClue::InvalidDirective { name } => {
            format!("'{name}' : directive not allowed in a ShaderLab pass (the engine adds #version and extensions)")
        }
        SyntaxClue::MacroArgCount { name, expected, found } => {
            format!("'{name}' : macro takes {expected} argument(s), {found} given")
        }
        SyntaxClue::InvalidMacroCondition { text, reason } => {
            format!("'{text}' : invalid condition: {reason}")
        }
        SyntaxClue::DeprecatedSyntax(Deprecated::AnonymousBlock { state }) => {
            format!("'{state}' : deprecated v1 syntax; write '{state} = {{ ... }}'")
        }
        SyntaxClue::DeprecatedSyntax(Deprecated::UndeclaredVariable { name, ty }) => {
            format!("'{name}' : deprecated v1 syntax; write a declaration '{ty} {name};' before the use")
        }
        SyntaxClue::LimitExceeded { what, limit } => {
            format!("'{what}' : limit of {limit} exceeded")
        }
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
        StructureClue::InvalidRenderTargetIndex { property, index } => {
            format!("'{property}[{index}]' : only render target [0] exists, and only on the indexed blend properties")
        }
        StructureClue::InvalidTag { found } => {
            format!("{found} : a tag is 'key = \"value\"' with a bare-word key and a quoted value")
        }
    }
}

fn io(i: &shaderlab_passes::io::IoClue) -> String {
    use shaderlab_passes::io::IoClue::*;
    match i {
        VertexEntryReturnType { found } => {
            format!(
                "'{found}' : the vertex entry returns a varyings struct or void and takes at most an attributes struct"
            )
        }
        FragmentEntryReturnType { found } => {
            format!("'{found}' : the fragment entry returns void, vec4 or an MRT struct and takes at most the varyings struct")
        }
        InvalidVaryingStruct { member, ty } => format!("'{member}' : a stage IO member cannot have type '{ty}'"),
        NestedIOStruct { member } => format!("'{member}' : a stage IO struct cannot contain a struct"),
        StructRoleConflict { name, first, second } => format!("'{name}' : struct used as {first} and as {second}"),
        GlFragColorWithMrt { first, second } => {
            format!("'{first}' : the fragment stage writes its output through both {first} and {second}")
        }
        MissingVertexPosition { entry } => format!("'{entry}' : the vertex entry never writes gl_Position"),
        NonFlatIntegerVarying { member } => format!("'{member}' : an integer varying must be 'flat'"),
        InvalidMrtLocation { member, reason } => format!("'{member}' : invalid MRT output: {reason}"),
        VaryingNotWritten { member } => {
            format!("'{member}' : varying read by the fragment stage is never written by the vertex stage")
        }
        StageMismatch { name, stage } => format!("'{name}' : not available in the {stage} stage"),
    }
}

fn constant(c: &shaderlab_passes::consts::ConstClue) -> String {
    use shaderlab_passes::consts::ConstClue::*;
    match c {
        NonConstArraySize { reason } => format!("'[]' : array size must be a positive constant integer: {reason}"),
        NonConstInitializer { name } => format!("'{name}' : initializer must be a constant expression"),
        IndexOutOfBounds { index, len } => format!("'{index}' : index out of range (size {len})"),
        ConstDivideByZero { op } => format!("'{op}' : division by zero (the result is undefined)"),
        ShiftOutOfRange { amount } => format!("'{amount}' : shift amount out of range (undefined result)"),
        DuplicateSwitchCase { value } => format!("'case {value}' : duplicate case label"),
    }
}

fn flow(f: &crate::flow::FlowRule) -> String {
    use crate::flow::FlowRule::*;
    match f {
        MissingReturn { function, some_path: false } => format!("'{function}' : function must return a value"),
        MissingReturn { function, some_path: true } => {
            format!("'{function}' : control can reach the end of a non-void function (undefined value)")
        }
        UnreachableCode => "'statement' : unreachable code".into(),
        EmptyStatementBody { construct } => format!("'{construct}' : empty statement body (a stray ';'?)"),
        MisplacedControlFlow { keyword, reason } => format!("'{keyword}' : {reason}"),
        InvalidSwitchDefault { duplicate: true } => "'default' : more than one default label".into(),
        InvalidSwitchDefault { duplicate: false } => "'switch' : no default label".into(),
        UniformInitializer { name } => format!("'{name}' : a uniform cannot have an initializer"),
        SamplerPlacement { name } => format!("'{name}' : a sampler can only be a uniform or an 'in' parameter"),
    }
}
