//! `ValidModule`: a module the validator has checked. Only [`validate`] makes one, so a backend that takes
//! `&ValidModule` never sees an unchecked module and never needs to re-check.

use crate::diagnostic::{collect, collect_taking, Diagnostic};
use shaderlab_ir::{Clue, Module, Severity};
use shaderlab_passes::Facts;

/// A module with no error diagnostic, and its facts.
#[derive(Debug)]
pub struct ValidModule<'a> {
    module: &'a Module,
    facts: &'a Facts,
    warnings: Vec<Diagnostic>,
}

impl<'a> ValidModule<'a> {
    pub fn module(&self) -> &'a Module {
        self.module
    }

    pub fn facts(&self) -> &'a Facts {
        self.facts
    }

    /// The warnings, moved out (the end of a compile).
    pub fn into_warnings(self) -> Vec<Diagnostic> {
        self.warnings
    }
}

/// Every diagnostic of the module: `Ok` when none is an error (warnings travel in both arms).
pub fn validate<'a>(module: &'a Module, facts: &'a Facts) -> Result<ValidModule<'a>, Vec<Diagnostic>> {
    judge(module, facts, collect(module, Some(facts)))
}

/// [`validate`] for a module whose frontend clues were moved out of it (`clues`, as they were in
/// [`Module::clues`]): they become diagnostics without a copy.
pub fn validate_taking<'a>(
    module: &'a Module,
    facts: &'a Facts,
    clues: Vec<Clue>,
) -> Result<ValidModule<'a>, Vec<Diagnostic>> {
    judge(module, facts, collect_taking(module, clues, Some(facts)))
}

fn judge<'a>(
    module: &'a Module,
    facts: &'a Facts,
    diagnostics: Vec<Diagnostic>,
) -> Result<ValidModule<'a>, Vec<Diagnostic>> {
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        Err(diagnostics)
    } else {
        Ok(ValidModule { module, facts, warnings: diagnostics })
    }
}
