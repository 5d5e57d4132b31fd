//! Warning switches: `-W no-CODE` silences a warning, `-W error=CODE` promotes it to an error, `-W error`
//! promotes every warning. Errors cannot be silenced.

use crate::catalogue::CODES;
use crate::diagnostic::Diagnostic;
use shaderlab_ir::Severity;
use std::collections::BTreeSet;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct WarningPolicy {
    silenced: BTreeSet<String>,
    promoted: BTreeSet<String>,
    all_errors: bool,
}

impl WarningPolicy {
    /// Read `-W` switch values (`no-CODE`, `error=CODE`, `error`); `Err` names the bad switch.
    pub fn parse<S: AsRef<str>>(switches: &[S]) -> Result<WarningPolicy, String> {
        let mut policy = WarningPolicy::default();
        for switch in switches {
            let switch = switch.as_ref();
            let known = |code: &str| -> Result<(Severity, String), String> {
                CODES
                    .iter()
                    .find(|(c, _, _)| *c == code)
                    .map(|(c, _, s)| (*s, c.to_string()))
                    .ok_or_else(|| format!("unknown diagnostic code '{code}' in -W {switch}"))
            };
            if switch == "error" {
                policy.all_errors = true;
            } else if let Some(code) = switch.strip_prefix("no-") {
                let (severity, code) = known(code)?;
                if severity == Severity::Error && !can_warn(&code) {
                    return Err(format!("'{code}' is an error and cannot be silenced"));
                }
                policy.silenced.insert(code);
            } else if let Some(code) = switch.strip_prefix("error=") {
                let (_, code) = known(code)?;
                policy.promoted.insert(code);
            } else {
                return Err(format!("unknown -W switch '{switch}' (use no-CODE, error=CODE or error)"));
            }
        }
        Ok(policy)
    }

    /// Drop silenced warnings and promote the chosen ones.
    pub fn apply(&self, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
        diags
            .into_iter()
            .filter(|d| !(d.severity == Severity::Warning && self.silenced.contains(d.code())))
            .map(|mut d| {
                if d.severity == Severity::Warning && (self.all_errors || self.promoted.contains(d.code())) {
                    d.severity = Severity::Error;
                }
                d
            })
            .collect()
    }
}

/// Codes whose severity depends on the case (error in one, warning in another) can be silenced as warnings.
fn can_warn(code: &str) -> bool {
    matches!(code, "MissingReturn" | "InvalidSwitchDefault")
}

#[cfg(test)]
mod tests {
    use super::WarningPolicy;

    #[test]
    fn switches_parse() {
        assert!(WarningPolicy::parse(&["no-DeprecatedSyntax", "error=DuplicateInclude", "error"]).is_ok());
        assert!(WarningPolicy::parse(&["no-UnexpectedToken"]).is_err(), "errors cannot be silenced");
        assert!(WarningPolicy::parse(&["no-NotACode"]).is_err());
        assert!(WarningPolicy::parse(&["bogus"]).is_err());
    }
}
