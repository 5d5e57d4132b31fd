//! Data-driven ABTests: one folder per diagnostic code of `shaderlab_validator::catalogue::CODES`, plus pending
//! folders for the codes of `spec/diagnostics.md` (categories B-G, [`SPEC_CODES`]) the catalogue does not list yet.
//!
//! `tests/fixtures/<Code>/`:
//! - `ok.shader`: a valid shader that must produce no diagnostic of `<Code>` (and no diagnostic at all, unless an
//!   `"ok.shader"` entry in `expected.json` lists the ones it tolerates); more right examples may follow as
//!   `ok-<case>.shader`, with the same rule;
//! - `err-<case>.shader`: one wrong example each;
//! - `expected.json`: `{"err-<case>.shader": [{"code", "severity", "line", "column", "file"?, "message"?,
//!   "notes"?}, ...], ...}`, every diagnostic of the file in order (line/column 1-based, column in characters, of
//!   the diagnostic's start; `file` is the include key when the diagnostic is inside an included chunk; `message`
//!   is a text the message must contain; `notes` lists texts that the diagnostic's notes must contain, one note
//!   each, in order). Optional top-level `"options": {"<file>": {"defines": ["NAME=1", "FOO"]}}` checks that file
//!   in variant mode (`-D`). An entry may be `{"known_bug": "what is wrong", "diagnostics": [...]}`: the list is
//!   the correct behaviour, the comparison is skipped with a loud warning (and fails once the compiler gets it
//!   right, so the marker gets removed);
//! - `includes/` (optional): registered as an include root; the fixture's own folder answers `./x` keys;
//! - glslang twins (see below): `ok.glsl`, `ok-<case>.glsl`, `err-<case>.glsl`.
//!
//! A folder whose code is in [`SPEC_CODES`] but not yet in `CODES` is *pending*: it is checked with the same rules,
//! but its problems are printed in a loud PENDING summary instead of failing the test.
//!
//! `UPDATE_EXPECT=1 cargo test --test fixtures` rewrites every `expected.json` from the actual output (keeping
//! `options`, `known_bug` entries, and the `message`/`notes` of diagnostics that stay the same; never replacing an
//! entry by output that lacks the folder's code). Review every regenerated expectation by hand.
//!
//! **glslang twins** (test `glslang_twins`): "our errors are real errors". A twin is a minimal plain GLSL ES 3.00
//! shader expressing the same mistake as the fixture of the same name: first line `#version 300 es`, second line
//! `// stage: vert` or `// stage: frag`, then optional marker lines `// glslang: accepts` (legal GLSL that we warn
//! about: glslang must accept it) and `// glslang: link` (the mistake is found at link time: the file is validated
//! alone with `-l`). glslangValidator must reject every `err-*.glsl` (unless marked `accepts`) and accept every
//! `ok*.glsl`. For the GLSL-level codes of [`SPEC_CODES`] (`Twins::Required`), every err fixture whose expected
//! diagnostics include an error of the folder's code has an unmarked twin, the folder has an `ok.glsl`, and the
//! twin of a warning-only fixture, if any, is marked `accepts`. ShaderLab-only codes (`Twins::None`) have none. The
//! run uses glslang's default limits except `MaxDrawBuffers 8` (MRT locations 0..7, as the catalogue says). Without
//! glslangValidator the test prints SKIPPED (and fails under `CI=true`).

use serde_json::{json, Map, Value};
use shaderlab::fs_includes::FsIncludes;
use shaderlab::ir::Severity;
use shaderlab::validator::catalogue::CODES;
use shaderlab::{analyze, parse_define, Analysis, Options};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The severity a code has in `spec/diagnostics.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sev {
    Error,
    Warning,
    /// "error / warning": both occur (MissingReturn, InvalidSwitchDefault).
    Both,
}

/// Whether a code's error cases carry plain GLSL twins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Twins {
    /// A GLSL-level rule: every error case has a twin glslang rejects.
    Required,
    /// A ShaderLab-only rule (entries, IO roles): no plain GLSL form.
    None,
}

/// Categories B-G of `spec/diagnostics.md`: the codes a pending fixture folder may be named after.
const SPEC_CODES: &[(&str, Sev, Twins)] = &[
    // B · Types and expressions
    ("InvalidSwizzle", Sev::Error, Twins::Required),
    ("UndeclaredStructMember", Sev::Error, Twins::Required),
    ("ConstructorArgCount", Sev::Error, Twins::Required),
    ("InvalidSplat", Sev::Error, Twins::Required),
    ("NonIndexableType", Sev::Error, Twins::Required),
    ("IndexOutOfBounds", Sev::Error, Twins::Required),
    ("ConstDivideByZero", Sev::Warning, Twins::Required),
    ("ShiftOutOfRange", Sev::Warning, Twins::Required),
    ("InvalidBinaryOperands", Sev::Error, Twins::Required),
    ("InvalidUnaryOperand", Sev::Error, Twins::Required),
    ("ConstructorArgType", Sev::Error, Twins::Required),
    ("NonIntegerIndex", Sev::Error, Twins::Required),
    ("InvalidConversion", Sev::Error, Twins::Required),
    ("NotAnLValue", Sev::Error, Twins::Required),
    // C · Constants
    ("NonConstArraySize", Sev::Error, Twins::Required),
    ("NonConstInitializer", Sev::Error, Twins::Required),
    // D · Resources and globals
    ("InvalidUniformType", Sev::Error, Twins::Required),
    ("UniformInitializer", Sev::Error, Twins::Required),
    ("ExpectedSampler", Sev::Error, Twins::Required),
    // E · Symbols and scopes
    ("UndeclaredIdentifier", Sev::Error, Twins::Required),
    ("UseBeforeDeclaration", Sev::Error, Twins::Required),
    ("Redefinition", Sev::Error, Twins::Required),
    ("UndefinedFunction", Sev::Error, Twins::Required),
    ("NoMatchingOverload", Sev::Error, Twins::Required),
    ("ShadowedDeclaration", Sev::Warning, Twins::Required),
    // F · Functions and control flow
    ("ReturnInVoidFunction", Sev::Error, Twins::Required),
    ("MissingReturn", Sev::Both, Twins::Required),
    ("ReturnTypeMismatch", Sev::Error, Twins::Required),
    ("AssignTypeMismatch", Sev::Error, Twins::Required),
    ("NonConstructibleReturnType", Sev::Error, Twins::Required),
    ("NonBoolCondition", Sev::Error, Twins::Required),
    ("NonIntegerSwitch", Sev::Error, Twins::Required),
    ("DuplicateSwitchCase", Sev::Error, Twins::Required),
    ("InvalidSwitchDefault", Sev::Both, Twins::Required),
    ("MisplacedControlFlow", Sev::Error, Twins::Required),
    ("RecursiveFunction", Sev::Error, Twins::Required),
    ("UnreachableCode", Sev::Warning, Twins::Required),
    ("EmptyStatementBody", Sev::Warning, Twins::Required),
    // G · Pipeline IO
    ("VertexEntryReturnType", Sev::Error, Twins::None),
    ("FragmentEntryReturnType", Sev::Error, Twins::None),
    ("InvalidVaryingStruct", Sev::Error, Twins::Required),
    ("NestedIOStruct", Sev::Error, Twins::Required),
    ("StructRoleConflict", Sev::Error, Twins::None),
    // In ES 3.00 gl_FragColor does not exist; mixing it with gl_FragData is an ES 1.00 error.
    ("GlFragColorWithMrt", Sev::Error, Twins::None),
    // Legal GLSL (the position is undefined), an error of ours: no twin to reject it.
    ("MissingVertexPosition", Sev::Error, Twins::None),
    ("NonFlatIntegerVarying", Sev::Error, Twins::Required),
    ("InvalidMrtLocation", Sev::Error, Twins::Required),
    ("VaryingNotWritten", Sev::Warning, Twins::Required),
    ("StageMismatch", Sev::Error, Twins::Required),
];

fn spec_code(code: &str) -> Option<(Sev, Twins)> {
    SPEC_CODES.iter().find(|(c, _, _)| *c == code).map(|(_, s, t)| (*s, *t))
}

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("fixtures")
}

/// Straight to stderr, past the test harness's capture: known bugs and pending codes must stay visible.
fn loud(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// One diagnostic as the fixtures describe it (the part compared for equality).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Expect {
    code: String,
    severity: String,
    line: u64,
    column: u64,
    /// `None` for the main file, else the include key.
    file: Option<String>,
}

/// Optional checks of one expected diagnostic: texts its message and its notes contain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Extra {
    message: Option<String>,
    notes: Vec<String>,
}

impl Extra {
    /// Why `actual` does not satisfy these checks, if it does not.
    fn mismatch(&self, actual: &Actual) -> Option<String> {
        if let Some(m) = &self.message {
            if !actual.message.contains(m.as_str()) {
                return Some(format!("message does not contain {m:?}"));
            }
        }
        let mut notes = actual.notes.iter();
        for want in &self.notes {
            if !notes.any(|n| n.contains(want.as_str())) {
                return Some(format!("no note containing {want:?} (in order)"));
            }
        }
        None
    }
}

impl Expect {
    fn from_json(v: &Value) -> Result<(Expect, Extra), String> {
        let obj = v.as_object().ok_or_else(|| format!("diagnostic entry is not an object: {v}"))?;
        let string = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_owned);
        let number = |k: &str| obj.get(k).and_then(Value::as_u64);
        for key in obj.keys() {
            if !["code", "severity", "line", "column", "file", "message", "notes"].contains(&key.as_str()) {
                return Err(format!("unknown field '{key}' in {v}"));
            }
        }
        let notes = match obj.get("notes") {
            None => Vec::new(),
            Some(Value::Array(list)) => list
                .iter()
                .map(|n| n.as_str().map(str::to_owned).ok_or_else(|| format!("'notes' holds texts, in {v}")))
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(format!("'notes' is a list of texts, in {v}")),
        };
        let expect = Expect {
            code: string("code").ok_or_else(|| format!("missing 'code' in {v}"))?,
            severity: string("severity").ok_or_else(|| format!("missing 'severity' in {v}"))?,
            line: number("line").ok_or_else(|| format!("missing 'line' in {v}"))?,
            column: number("column").ok_or_else(|| format!("missing 'column' in {v}"))?,
            file: string("file"),
        };
        Ok((expect, Extra { message: string("message"), notes }))
    }

    fn to_json(&self, extra: &Extra) -> Value {
        let mut obj = Map::new();
        obj.insert("code".into(), json!(self.code));
        obj.insert("severity".into(), json!(self.severity));
        obj.insert("line".into(), json!(self.line));
        obj.insert("column".into(), json!(self.column));
        if let Some(file) = &self.file {
            obj.insert("file".into(), json!(file));
        }
        if let Some(message) = &extra.message {
            obj.insert("message".into(), json!(message));
        }
        if !extra.notes.is_empty() {
            obj.insert("notes".into(), json!(extra.notes));
        }
        Value::Object(obj)
    }

    fn show(&self) -> String {
        let file = self.file.as_deref().map(|f| format!(" in {f}")).unwrap_or_default();
        format!("{} {} {}:{}{}", self.severity, self.code, self.line, self.column, file)
    }
}

/// A produced diagnostic: its fixture form, its message and its notes.
struct Actual {
    expect: Expect,
    message: String,
    notes: Vec<String>,
}

/// One entry of `expected.json`.
struct Entry {
    diagnostics: Vec<Expect>,
    /// Parallel to `diagnostics`.
    extras: Vec<Extra>,
    known_bug: Option<String>,
    /// The raw JSON, kept as is by `UPDATE_EXPECT` for known-bug entries.
    raw: Value,
}

fn parse_entry(v: &Value) -> Result<Entry, String> {
    let (list, known_bug) = match v {
        Value::Array(list) => (list, None),
        Value::Object(obj) => {
            for key in obj.keys() {
                if key != "known_bug" && key != "diagnostics" {
                    return Err(format!("unknown field '{key}' in an entry"));
                }
            }
            let bug = obj.get("known_bug").and_then(Value::as_str).ok_or("an object entry needs 'known_bug'")?;
            let list = obj.get("diagnostics").and_then(Value::as_array).ok_or("an object entry needs 'diagnostics'")?;
            (list, Some(bug.to_owned()))
        }
        _ => return Err("an entry is a list of diagnostics or {known_bug, diagnostics}".into()),
    };
    let (diagnostics, extras) = list.iter().map(Expect::from_json).collect::<Result<Vec<_>, _>>()?.into_iter().unzip();
    Ok(Entry { diagnostics, extras, known_bug, raw: v.clone() })
}

/// The entries of one folder's `expected.json` (without `options`), or why it cannot be read.
fn read_expected(dir: &Path) -> Result<Map<String, Value>, String> {
    let text = fs::read_to_string(dir.join("expected.json")).map_err(|e| format!("cannot read expected.json: {e}"))?;
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(obj)) => Ok(obj),
        Ok(_) => Err("expected.json is not an object".into()),
        Err(e) => Err(format!("expected.json: {e}")),
    }
}

fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn run(dir: &Path, file: &str, defines: Option<Vec<(String, String)>>) -> Result<Vec<Actual>, String> {
    let path = dir.join(file);
    let source = fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let include_dir = dir.join("includes");
    let roots: Vec<PathBuf> = if include_dir.is_dir() { vec![include_dir] } else { Vec::new() };
    let includes =
        FsIncludes::new(&roots, Some(&path)).map_err(|e| format!("include roots of {}: {e}", dir.display()))?;
    let options = Options { file_name: path.display().to_string(), defines, ..Options::default() };
    let analysis: Analysis = analyze(&source, &includes, &options);
    let mut out = Vec::new();
    for d in &analysis.diagnostics {
        let src =
            analysis.module.sources.file(d.span.file).ok_or_else(|| format!("{file}: span in an unknown file"))?;
        let (line, column) = src.line_col(d.span.start);
        let in_chunk = src.included_from.is_some();
        out.push(Actual {
            expect: Expect {
                code: d.code().to_owned(),
                severity: severity_name(d.severity).to_owned(),
                line: line.into(),
                column: column.into(),
                file: in_chunk.then(|| src.name.clone()),
            },
            message: d.message(),
            notes: d.notes.iter().map(|n| n.message.clone()).collect(),
        });
    }
    Ok(out)
}

fn describe(expected: &[Expect], actual: &[Actual]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "    expected:");
    if expected.is_empty() {
        let _ = writeln!(s, "      (nothing)");
    }
    for e in expected {
        let _ = writeln!(s, "      {}", e.show());
    }
    let _ = writeln!(s, "    actual:");
    if actual.is_empty() {
        let _ = writeln!(s, "      (nothing)");
    }
    for a in actual {
        let mark = if expected.contains(&a.expect) { " " } else { "+" };
        let _ = writeln!(s, "     {mark}{}  {}", a.expect.show(), a.message);
        for n in &a.notes {
            let _ = writeln!(s, "          note: {n}");
        }
    }
    let mut all_present = true;
    for e in expected {
        if !actual.iter().any(|a| &a.expect == e) {
            all_present = false;
            let _ = writeln!(s, "     -{}  (missing)", e.show());
        }
    }
    let got: Vec<&Expect> = actual.iter().map(|a| &a.expect).collect();
    let want: Vec<&Expect> = expected.iter().collect();
    if all_present && actual.iter().all(|a| expected.contains(&a.expect)) && got != want {
        let _ = writeln!(s, "    (the same diagnostics, in another order or number)");
    }
    s
}

/// Whether `actual` matches the entry: the same diagnostics, in order, satisfying the message and note checks.
fn matches(entry_diags: &[Expect], extras: &[Extra], actual: &[Actual]) -> Result<(), String> {
    let got: Vec<&Expect> = actual.iter().map(|a| &a.expect).collect();
    let want: Vec<&Expect> = entry_diags.iter().collect();
    if got != want {
        return Err(describe(entry_diags, actual));
    }
    for ((e, extra), a) in entry_diags.iter().zip(extras).zip(actual) {
        if let Some(why) = extra.mismatch(a) {
            return Err(format!("    {}: {why}\n{}", e.show(), describe(entry_diags, actual)));
        }
    }
    Ok(())
}

/// The fixture files of a folder.
struct Files {
    /// `ok.shader` first, then `ok-<case>.shader`.
    ok: Vec<String>,
    err: BTreeSet<String>,
}

fn list_files(dir: &Path, code: &str, failures: &mut Vec<String>) -> Files {
    let mut ok = BTreeSet::new();
    let mut err = BTreeSet::new();
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == "ok.shader" || (name.starts_with("ok-") && name.ends_with(".shader")) {
                ok.insert(name);
            } else if name.starts_with("err-") && name.ends_with(".shader") {
                err.insert(name);
            } else if name.ends_with(".shader") {
                failures.push(format!("{code}: {name}: fixture files are ok[-<case>].shader or err-<case>.shader"));
            }
        }
    }
    let mut ok: Vec<String> = ok.into_iter().collect();
    ok.sort_by_key(|n| (n != "ok.shader", n.clone()));
    Files { ok, err }
}

/// Check one code's folder; problems go to `failures`, loud notes to `warnings`. `severities`: what the catalogue
/// allows for this code.
fn check_code(
    root: &Path,
    code: &str,
    severities: &[&str],
    update: bool,
    failures: &mut Vec<String>,
    warnings: &mut Vec<String>,
) {
    let dir = root.join(code);
    if !dir.is_dir() {
        failures.push(format!("{code}: no fixture folder {}", dir.display()));
        return;
    }
    let files = list_files(&dir, code, failures);
    if !files.ok.iter().any(|n| n == "ok.shader") {
        failures.push(format!("{code}: no ok.shader"));
    }
    if files.err.is_empty() {
        failures.push(format!("{code}: no err-*.shader"));
    }

    let expected_path = dir.join("expected.json");
    let doc: Map<String, Value> = match read_expected(&dir) {
        Ok(doc) => doc,
        Err(_) if update && !expected_path.exists() => Map::new(),
        Err(e) => {
            failures.push(format!("{code}: {e}"));
            return;
        }
    };

    // Options: per file `defines`.
    let options = doc.get("options").and_then(Value::as_object).cloned().unwrap_or_default();
    let defines_of = |file: &str| -> Option<Vec<(String, String)>> {
        let list = options.get(file)?.get("defines")?.as_array()?;
        Some(list.iter().filter_map(Value::as_str).map(parse_define).collect())
    };
    for key in options.keys() {
        if !dir.join(key).is_file() {
            failures.push(format!("{code}: options for '{key}', which does not exist"));
        }
    }

    let mut entries = BTreeMap::new();
    for (key, value) in &doc {
        if key == "options" {
            continue;
        }
        if !(files.err.contains(key) || files.ok.contains(key)) {
            failures.push(format!("{code}: expected.json has an entry for '{key}', which is no fixture file here"));
            continue;
        }
        match parse_entry(value) {
            Ok(entry) => {
                let wrong = entry.diagnostics.iter().find(|d| d.code == code && !severities.contains(&&*d.severity));
                if let Some(d) = wrong {
                    failures.push(format!(
                        "{code}: expected.json '{key}': {} is not a {} in the catalogue",
                        d.show(),
                        d.severity
                    ));
                }
                if files.ok.contains(key) && entry.diagnostics.iter().any(|d| d.code == code) {
                    failures.push(format!("{code}: expected.json '{key}': an ok file cannot expect {code}"));
                }
                entries.insert(key.clone(), entry);
            }
            Err(e) => failures.push(format!("{code}: expected.json '{key}': {e}")),
        }
    }

    let mut updated = Map::new();
    if !options.is_empty() {
        updated.insert("options".into(), Value::Object(options.clone()));
    }

    // ok files: nothing of this code; nothing at all unless listed.
    for file in &files.ok {
        let actual = match run(&dir, file, defines_of(file)) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("{code}: {e}"));
                continue;
            }
        };
        let entry = entries.get(file);
        if let Some(entry) = entry {
            updated.insert(file.clone(), entry.raw.clone());
        }
        let (tolerated, extras) = entry.map(|e| (e.diagnostics.clone(), e.extras.clone())).unwrap_or_default();
        let verdict = matches(&tolerated, &extras, &actual);
        match entry.and_then(|e| e.known_bug.as_deref()) {
            Some(bug) => {
                if verdict.is_ok() {
                    failures
                        .push(format!("{code}/{file}: marked known_bug ({bug}) but is now clean: remove the marker"));
                } else {
                    warnings.push(format!(
                        "{code}/{file}: KNOWN BUG, comparison skipped: {bug}\n{}",
                        describe(&tolerated, &actual)
                    ));
                }
            }
            None => {
                if actual.iter().any(|a| a.expect.code == code) {
                    failures.push(format!("{code}/{file}: reports {code}\n{}", describe(&tolerated, &actual)));
                } else if let Err(report) = verdict {
                    failures.push(format!("{code}/{file}: must be clean (or list what it tolerates)\n{report}"));
                }
            }
        }
    }

    for file in &files.err {
        let actual = match run(&dir, file, defines_of(file)) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("{code}: {e}"));
                continue;
            }
        };
        let got: Vec<Expect> = actual.iter().map(|a| a.expect.clone()).collect();
        let reports_code = got.iter().any(|g| g.code == code);
        match entries.get(file) {
            Some(entry) if entry.known_bug.is_some() => {
                let bug = entry.known_bug.as_deref().unwrap_or_default();
                updated.insert(file.clone(), entry.raw.clone());
                if matches(&entry.diagnostics, &entry.extras, &actual).is_ok() {
                    failures.push(format!(
                        "{code}/{file}: marked known_bug ({bug}) but now produces the expected diagnostics: \
                         remove the marker"
                    ));
                } else {
                    warnings.push(format!(
                        "{code}/{file}: KNOWN BUG, comparison skipped: {bug}\n{}",
                        describe(&entry.diagnostics, &actual)
                    ));
                }
            }
            Some(entry) => {
                if update && reports_code {
                    // Keep the message/notes checks of the diagnostics that stay the same.
                    let list = got
                        .iter()
                        .enumerate()
                        .map(|(i, g)| {
                            let same = entry.diagnostics.get(i) == Some(g);
                            let extra = if same { entry.extras[i].clone() } else { Extra::default() };
                            g.to_json(&extra)
                        })
                        .collect();
                    updated.insert(file.clone(), Value::Array(list));
                } else {
                    updated.insert(file.clone(), entry.raw.clone());
                    if let Err(report) = matches(&entry.diagnostics, &entry.extras, &actual) {
                        failures.push(format!("{code}/{file}:\n{report}"));
                    }
                }
                if !reports_code {
                    failures.push(format!("{code}/{file}: does not report {code} at all"));
                }
            }
            None => {
                if update {
                    let list = got.iter().map(|g| g.to_json(&Extra::default())).collect();
                    updated.insert(file.clone(), Value::Array(list));
                    if !reports_code {
                        failures.push(format!("{code}/{file}: does not report {code} at all"));
                    }
                } else {
                    failures.push(format!("{code}/{file}: no entry in expected.json\n{}", describe(&[], &actual)));
                }
            }
        }
    }

    if update {
        let text = serde_json::to_string_pretty(&Value::Object(updated)).unwrap_or_default() + "\n";
        let old = fs::read_to_string(&expected_path).unwrap_or_default();
        if text != old {
            if let Err(e) = fs::write(&expected_path, text) {
                failures.push(format!("{code}: cannot write expected.json: {e}"));
            } else {
                warnings.push(format!("{code}: expected.json rewritten, review it"));
            }
        }
    }
}

fn sev_names(sev: Sev) -> &'static [&'static str] {
    match sev {
        Sev::Error => &["error"],
        Sev::Warning => &["warning"],
        Sev::Both => &["error", "warning"],
    }
}

fn check_all() -> Result<(), String> {
    let root = fixtures_root();
    let update = std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    let mut warnings = Vec::new();
    let codes: BTreeSet<&str> = CODES.iter().map(|(code, _, _)| *code).collect();
    for (code, _, severity) in CODES {
        // A code the spec gives two severities keeps both, whatever default the catalogue names.
        let severities = match spec_code(code) {
            Some((Sev::Both, _)) => sev_names(Sev::Both),
            _ => sev_names(if *severity == Severity::Error { Sev::Error } else { Sev::Warning }),
        };
        check_code(&root, code, severities, update, &mut failures, &mut warnings);
    }
    let mut folders: Vec<String> = fs::read_dir(&root)
        .map(|entries| entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    folders.sort();
    // Pending codes: (code, problems, known bugs).
    let mut pending: Vec<(String, Vec<String>, usize)> = Vec::new();
    for name in folders {
        if codes.contains(name.as_str()) {
            continue;
        }
        match spec_code(&name) {
            Some((sev, _)) => {
                let mut problems = Vec::new();
                let before = warnings.len();
                check_code(&root, &name, sev_names(sev), update, &mut problems, &mut warnings);
                let known_bugs = warnings[before..].iter().filter(|w| w.contains("KNOWN BUG")).count();
                pending.push((name, problems, known_bugs));
            }
            None => failures.push(format!(
                "fixture folder '{name}' is neither a code of the catalogue nor a code of diagnostics.md (SPEC_CODES)"
            )),
        }
    }
    for w in &warnings {
        loud(&format!("!!!!!!!! fixtures: {w}"));
    }
    if !pending.is_empty() {
        let passing = pending.iter().filter(|(_, p, _)| p.is_empty()).count();
        let bar = "P".repeat(100);
        let mut text = format!(
            "\n{bar}\nPENDING (not in the catalogue yet): {} code(s) have fixtures but are not in CODES; \
             {passing} already pass, {} do not (not a failure until the code joins CODES)\n",
            pending.len(),
            pending.len() - passing
        );
        for (code, problems, known_bugs) in &pending {
            let verdict = if problems.is_empty() { "passes".to_owned() } else { format!("FAILS ({})", problems.len()) };
            let bugs = match known_bugs {
                0 => String::new(),
                1 => " (1 known bug, above)".to_owned(),
                n => format!(" ({n} known bugs, above)"),
            };
            let _ = writeln!(text, "PENDING {code}: {verdict}{bugs}");
            for p in problems {
                let _ = writeln!(text, "    - {}", p.replace('\n', "\n      "));
            }
        }
        let _ = write!(text, "{bar}");
        loud(&text);
    }
    if failures.is_empty() {
        Ok(())
    } else {
        let mut report = format!("{} fixture failure(s):\n", failures.len());
        for f in &failures {
            let _ = writeln!(report, "- {f}");
        }
        Err(report)
    }
}

#[test]
fn fixtures() {
    // The parser's nesting limit is generous; LimitExceeded fixtures need the stack the CLI also gives.
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(check_all).expect("spawn the fixture thread");
    match worker.join() {
        Ok(Ok(())) => {}
        Ok(Err(report)) => panic!("{report}"),
        Err(_) => panic!("the fixture thread panicked"),
    }
}

// ---- glslang twins ----

const VALIDATOR: &str = "glslangValidator";

/// One twin to validate.
struct Twin {
    /// `<Code>/<file>`, for reports.
    name: String,
    path: PathBuf,
    stage: &'static str,
    link: bool,
    must_accept: bool,
}

/// Parses a twin's header: `(stage, accepts, link)`.
fn twin_header(text: &str) -> Result<(&'static str, bool, bool), String> {
    let mut lines = text.lines();
    if lines.next().map(str::trim_end) != Some("#version 300 es") {
        return Err("first line must be '#version 300 es'".into());
    }
    let stage = match lines.next().map(str::trim_end) {
        Some("// stage: vert") => "vert",
        Some("// stage: frag") => "frag",
        _ => return Err("second line must be '// stage: vert' or '// stage: frag'".into()),
    };
    let (mut accepts, mut link) = (false, false);
    for line in text.lines().map(str::trim) {
        if let Some(mark) = line.strip_prefix("// glslang:") {
            match mark.trim() {
                "accepts" => accepts = true,
                "link" => link = true,
                other => return Err(format!("unknown marker '// glslang: {other}'")),
            }
        }
    }
    Ok((stage, accepts, link))
}

/// Collects the twins of every folder and checks which must exist.
fn collect_twins(root: &Path, failures: &mut Vec<String>) -> Vec<Twin> {
    let mut twins = Vec::new();
    let mut folders: Vec<PathBuf> = fs::read_dir(root)
        .map(|entries| entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    folders.sort();
    for dir in folders {
        let code = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let policy = spec_code(&code).map(|(_, t)| t);
        let mut problems = Vec::new();
        let files = list_files(&dir, &code, &mut problems);
        let mut glsl: BTreeSet<String> = fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(".glsl"))
                    .collect()
            })
            .unwrap_or_default();
        if policy == Some(Twins::None) {
            for g in &glsl {
                failures.push(format!("{code}/{g}: {code} is a ShaderLab-only rule: no glslang twin"));
            }
            continue;
        }
        let expected = read_expected(&dir);
        // Whether the err file's expected diagnostics include an error of the folder's code (`None`: no entry, or
        // no diagnostic of the code: the fixture test reports that).
        let is_error_case = |file: &str| -> Option<bool> {
            let doc = expected.as_ref().ok()?;
            let entry = parse_entry(doc.get(file)?).ok()?;
            let of_code: Vec<&Expect> = entry.diagnostics.iter().filter(|d| d.code == code).collect();
            (!of_code.is_empty()).then(|| of_code.iter().any(|d| d.severity == "error"))
        };
        if policy == Some(Twins::Required) && !glsl.contains("ok.glsl") {
            failures.push(format!("{code}: no ok.glsl (a GLSL-level rule has glslang twins)"));
        }
        for file in &files.err {
            let twin = file.replace(".shader", ".glsl");
            let error_case = is_error_case(file);
            if policy == Some(Twins::Required) && error_case == Some(true) && !glsl.contains(&twin) {
                failures.push(format!("{code}/{file}: no twin {twin} (a GLSL-level error has a glslang twin)"));
            }
            if error_case.is_none() && glsl.contains(&twin) {
                failures.push(format!(
                    "{code}/{file}: expected.json does not expect {code} here: cannot tell what its twin must be"
                ));
            }
        }
        for name in std::mem::take(&mut glsl) {
            let shader = name.replace(".glsl", ".shader");
            let is_ok = name == "ok.glsl" || name.starts_with("ok-");
            if !(files.ok.contains(&shader) || files.err.contains(&shader)) {
                failures.push(format!("{code}/{name}: a twin needs the fixture {shader}"));
                continue;
            }
            let path = dir.join(&name);
            let text = match fs::read_to_string(&path) {
                Ok(t) => t,
                Err(e) => {
                    failures.push(format!("{code}/{name}: {e}"));
                    continue;
                }
            };
            let (stage, accepts, link) = match twin_header(&text) {
                Ok(h) => h,
                Err(e) => {
                    failures.push(format!("{code}/{name}: {e}"));
                    continue;
                }
            };
            if is_ok && accepts {
                failures.push(format!("{code}/{name}: an ok twin is accepted anyway: no '// glslang: accepts'"));
            }
            if !is_ok {
                match is_error_case(&shader) {
                    Some(true) if accepts => failures.push(format!(
                        "{code}/{name}: the fixture expects an error of {code}: its twin must be rejected, \
                         not marked '// glslang: accepts'"
                    )),
                    Some(false) if !accepts => failures.push(format!(
                        "{code}/{name}: the fixture expects only warnings of {code}: its twin (legal GLSL) must be \
                         marked '// glslang: accepts'"
                    )),
                    _ => {}
                }
            }
            twins.push(Twin { name: format!("{code}/{name}"), path, stage, link, must_accept: is_ok || accepts });
        }
    }
    twins
}

/// Whether glslangValidator can run; prints SKIPPED (or panics under CI=true) when it cannot.
fn validator_available() -> bool {
    let ok = Command::new(VALIDATOR).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status();
    if ok.is_ok_and(|s| s.success()) {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{VALIDATOR} is not installed, and CI=true: the glslang twin check cannot be skipped");
    }
    let bar = "!".repeat(100);
    loud(&format!("\n{bar}\n!!! SKIPPED glslang_twins: {VALIDATOR} is not installed\n{bar}\n"));
    false
}

/// glslang's default limits with `MaxDrawBuffers 8`, written to a `.conf` file (glslang reads limits from an
/// argument with that extension).
fn write_limits(dir: &Path) -> PathBuf {
    let out = Command::new(VALIDATOR).arg("-c").output().expect("run glslangValidator -c");
    let text = String::from_utf8_lossy(&out.stdout);
    let limits: String = text
        .lines()
        .map(|l| if l.starts_with("MaxDrawBuffers ") { "MaxDrawBuffers 8".to_owned() } else { l.to_owned() })
        .map(|l| l + "\n")
        .collect();
    assert!(limits.contains("MaxDrawBuffers 8"), "glslangValidator -c printed no MaxDrawBuffers limit");
    let path = dir.join(format!("shaderlab-fixture-twins-{}.conf", std::process::id()));
    fs::write(&path, limits).expect("write the glslang limits file");
    path
}

/// Validates every twin (one glslang process per stage for the batch, one per `link` twin, all at once) and
/// returns each twin's glslang errors (empty when accepted).
fn validate(twins: &[Twin], limits: &Path) -> Vec<String> {
    // (child, the twins it validates).
    let mut runs: Vec<(Child, Vec<usize>)> = Vec::new();
    for stage in ["vert", "frag"] {
        let batch: Vec<usize> = (0..twins.len()).filter(|&i| !twins[i].link && twins[i].stage == stage).collect();
        if batch.is_empty() {
            continue;
        }
        let mut cmd = Command::new(VALIDATOR);
        cmd.arg(limits).args(["-S", stage]).args(batch.iter().map(|&i| &twins[i].path));
        runs.push((cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("run glslangValidator"), batch));
    }
    for (i, t) in twins.iter().enumerate().filter(|(_, t)| t.link) {
        let mut cmd = Command::new(VALIDATOR);
        cmd.arg("-l").arg(limits).args(["-S", t.stage]).arg(&t.path);
        runs.push((cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("run glslangValidator"), vec![i]));
    }
    let mut errors = vec![String::new(); twins.len()];
    for (child, batch) in runs {
        let out = child.wait_with_output().expect("wait for glslangValidator");
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        let mut current = if batch.len() == 1 { Some(batch[0]) } else { None };
        let mut seen = BTreeSet::new();
        for line in text.lines() {
            let trimmed = line.trim();
            if let Some(&i) = batch.iter().find(|&&i| Path::new(trimmed) == twins[i].path) {
                current = Some(i);
                seen.insert(i);
                continue;
            }
            if let Some(i) = current {
                if trimmed.starts_with("ERROR:") && !trimmed.contains("compilation errors.") {
                    errors[i].push_str(trimmed);
                    errors[i].push('\n');
                }
            }
        }
        // A file glslang never named (it crashed first) has not been validated: that is no acceptance.
        for &i in &batch {
            if batch.len() > 1 && !seen.contains(&i) {
                errors[i].push_str(&format!("(no glslang output for this file; exit status {})\n", out.status));
            }
        }
    }
    errors
}

fn check_twins() -> Result<(), String> {
    let root = fixtures_root();
    let mut failures = Vec::new();
    let twins = collect_twins(&root, &mut failures);
    if !validator_available() {
        return if failures.is_empty() {
            Ok(())
        } else {
            Err(format!("twin failure(s):\n- {}", failures.join("\n- ")))
        };
    }
    let limits = write_limits(&std::env::temp_dir());
    let errors = validate(&twins, &limits);
    let _ = fs::remove_file(&limits);
    for (twin, err) in twins.iter().zip(&errors) {
        let accepted = err.is_empty();
        if accepted != twin.must_accept {
            let verdict = if accepted { "glslang ACCEPTS" } else { "glslang REJECTS" };
            let want = if twin.must_accept { "it must accept it" } else { "it must reject it" };
            let detail = if err.is_empty() { String::new() } else { format!("\n    {}", err.trim_end()) };
            failures.push(format!("{}: {verdict} it, {want}{}", twin.name, detail.replace('\n', "\n    ")));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("{} glslang twin failure(s):\n- {}", failures.len(), failures.join("\n- ")))
    }
}

#[test]
fn glslang_twins() {
    if let Err(report) = check_twins() {
        panic!("{report}");
    }
}
