//! Macro expansion of GLSL text: the step the engine performs at run time per variant on the preserving
//! compile's output. Conditionals are evaluated with the given macros and the text's own `#define`s, macro uses
//! are expanded, and blocks testing `GL_` names are kept for the driver. The result is plain GLSL, one source line
//! per input line (tokens separated by single spaces).

use crate::diag::Sink;
use crate::lexer::lex_telling_continuations;
use crate::preprocess::{Directive, PpState, Preprocessor};
use crate::token::{Token, TokenKind};
use crate::{Limits, MapResolver};
use shaderlab_ir::{Clue, CondKind, Interner, Mode, Module};

/// The expanded text and the problems found (InvalidMacroCondition, MacroArgCount, UnbalancedConditional, ...).
pub struct Expansion {
    pub text: String,
    pub module: Module,
    pub clues: Vec<Clue>,
}

/// Expand `text` with `defines` (`(name, value)`; an empty value defines the name without a value).
pub fn expand_macros(name: &str, text: &str, defines: &[(String, String)], limits: &Limits) -> Expansion {
    let mut module = Module::new(Mode::Variant { defines: defines.to_vec() });
    let file = module.sources.add(name, text, None);
    let (tokens, continued) = lex_telling_continuations(text, file, &mut module.names);
    let mut state = PpState::default();
    let cmd = module.sources.add("<command line>", String::new(), None);
    state.define_command_line(defines, cmd, &mut module.names);
    let mut sink = Sink::default();
    let resolver = MapResolver::new();
    let mut pp = Preprocessor::new(&mut module, &mut sink, &resolver, limits, true);
    pp.continued = continued;
    let out = pp.level(&tokens, &mut state);
    let directives = std::mem::take(&mut pp.directives);
    drop(pp);
    let text = print(&out, &directives, &module.names);
    // Both token vectors came from the thread's pool (the lexer's and the level's output), and the directives
    // vector: give them back.
    crate::pool::give(tokens);
    crate::pool::give(out);
    crate::pool::give_directives(directives);
    module.clues = sink.clues.clone();
    Expansion { text, module, clues: sink.clues }
}

fn print(tokens: &[Token], directives: &[Directive], names: &Interner) -> String {
    let mut s = String::with_capacity(tokens.len() * 4);
    let mut first = true;
    for t in tokens {
        let directive = matches!(t.kind, TokenKind::Directive(_));
        if !first {
            s.push(if t.line_start || directive { '\n' } else { ' ' });
        }
        first = false;
        match &t.kind {
            TokenKind::Directive(i) => match directives.get(*i as usize) {
                Some(Directive::If(c) | Directive::Elif(c)) => {
                    let keyword = match c.kind {
                        CondKind::If => "#if",
                        CondKind::Ifdef => "#ifdef",
                        CondKind::Ifndef => "#ifndef",
                        CondKind::Elif => "#elif",
                    };
                    s.push_str(keyword);
                    s.push(' ');
                    s.push_str(c.text.trim());
                }
                Some(Directive::Else(_)) => s.push_str("#else"),
                Some(Directive::Endif { .. }) => s.push_str("#endif"),
                // Variant mode consumes definitions; nothing else reaches here.
                Some(Directive::Define { .. } | Directive::Undef { .. }) | None => {}
            },
            TokenKind::Punct(p) => s.push_str(p.text()),
            TokenKind::Str => {
                s.push('"');
                s.push_str(names.resolve(t.sym));
                s.push('"');
            }
            _ => s.push_str(names.resolve(t.sym)),
        }
        if directive {
            s.push('\n');
            first = true;
        }
    }
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, defines: &[(&str, &str)]) -> String {
        let defines: Vec<(String, String)> = defines.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let e = expand_macros("t.glsl", text, &defines, &Limits::default());
        assert!(e.clues.is_empty(), "{:?}", e.clues);
        e.text
    }

    #[test]
    fn evaluates_and_expands() {
        let src =
            "#define SAT(a) clamp(a, 0.0, 1.0)\n#if LEVEL * 2 + 1 == 7\nfloat x = SAT(y);\n#else\nfloat z;\n#endif\n";
        assert_eq!(run(src, &[("LEVEL", "3")]), "float x = clamp ( y , 0.0 , 1.0 ) ;\n");
        assert_eq!(run(src, &[]), "float z ;\n");
    }

    #[test]
    fn gl_conditions_stay_for_the_driver() {
        let src =
            "#ifdef GL_FRAGMENT_PRECISION_HIGH\nprecision highp float;\n#else\nprecision mediump float;\n#endif\n";
        let out = run(src, &[]);
        assert!(out.contains("#ifdef GL_FRAGMENT_PRECISION_HIGH\nprecision highp float ;\n#else\n"), "{out}");
    }
}
