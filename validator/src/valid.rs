//! `ValidModule`: a module the validator has checked. Only [`validate`] makes one, so a backend that takes
//! `&ValidModule` never sees an unchecked module and never needs to re-check.

use crate::diagnostic::{collect, Diagnostic};
use shaderlab_ir::{Module, Severity};
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
    let diagnostics = collect(module, Some(facts));
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        Err(diagnostics)
    } else {
        Ok(ValidModule { module, facts, warnings: diagnostics })
    }
}
