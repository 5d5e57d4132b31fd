//! Data-driven ABTests: one folder per diagnostic code of `shaderlab_validator::catalogue::CODES`.
//!
//! `tests/fixtures/<Code>/`:
//! - `ok.shader`: a valid shader that must produce no diagnostic of `<Code>` (and no diagnostic at all, unless an
//!   `"ok.shader"` entry in `expected.json` lists the ones it tolerates);
//! - `err-<case>.shader`: one wrong example each;
//! - `expected.json`: `{"err-<case>.shader": [{"code", "severity", "line", "column", "file"?}, ...], ...}`, every
//!   diagnostic of the file in order (line/column 1-based, column in characters, of the diagnostic's start; `file` is
//!   the include key when the diagnostic is inside an included chunk). Optional top-level
//!   `"options": {"<file>": {"defines": ["NAME=1", "FOO"]}}` checks that file in variant mode (`-D`). An entry may be
//!   `{"known_bug": "what is wrong", "diagnostics": [...]}`: the list is the correct behaviour, the comparison is
//!   skipped with a loud warning (and fails once the compiler gets it right, so the marker gets removed);
//! - `includes/` (optional): registered as an include root; the fixture's own folder answers `./x` keys.
//!
//! `UPDATE_EXPECT=1 cargo test --test fixtures` rewrites every `expected.json` from the actual output (keeping
//! `options` and `known_bug` entries as they are). Review every regenerated expectation by hand.

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

/// One diagnostic as the fixtures describe it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Expect {
    code: String,
    severity: String,
    line: u64,
    column: u64,
    /// `None` for the main file, else the include key.
    file: Option<String>,
}

impl Expect {
    fn from_json(v: &Value) -> Result<Expect, String> {
        let obj = v.as_object().ok_or_else(|| format!("diagnostic entry is not an object: {v}"))?;
        let string = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_owned);
        let number = |k: &str| obj.get(k).and_then(Value::as_u64);
        for key in obj.keys() {
            if !["code", "severity", "line", "column", "file"].contains(&key.as_str()) {
                return Err(format!("unknown field '{key}' in {v}"));
            }
        }
        Ok(Expect {
            code: string("code").ok_or_else(|| format!("missing 'code' in {v}"))?,
            severity: string("severity").ok_or_else(|| format!("missing 'severity' in {v}"))?,
            line: number("line").ok_or_else(|| format!("missing 'line' in {v}"))?,
            column: number("column").ok_or_else(|| format!("missing 'column' in {v}"))?,
            file: string("file"),
        })
    }

    fn to_json(&self) -> Value {
        let mut obj = Map::new();
        obj.insert("code".into(), json!(self.code));
        obj.insert("severity".into(), json!(self.severity));
        obj.insert("line".into(), json!(self.line));
        obj.insert("column".into(), json!(self.column));
        if let Some(file) = &self.file {
            obj.insert("file".into(), json!(file));
        }
        Value::Object(obj)
    }

    fn show(&self) -> String {
        let file = self.file.as_deref().map(|f| format!(" in {f}")).unwrap_or_default();
        format!("{} {} {}:{}{}", self.severity, self.code, self.line, self.column, file)
    }
}

/// A produced diagnostic: its fixture form and its message.
struct Actual {
    expect: Expect,
    message: String,
}

/// One entry of `expected.json`.
struct Entry {
    diagnostics: Vec<Expect>,
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
    let diagnostics = list.iter().map(Expect::from_json).collect::<Result<Vec<_>, _>>()?;
    Ok(Entry { diagnostics, known_bug, raw: v.clone() })
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

/// Check one code's folder; problems go to `failures`, loud notes to `warnings`.
fn check_code(
    root: &Path,
    code: &str,
    severity: Severity,
    update: bool,
    failures: &mut Vec<String>,
    warnings: &mut Vec<String>,
) {
    let dir = root.join(code);
    if !dir.is_dir() {
        failures.push(format!("{code}: no fixture folder {}", dir.display()));
        return;
    }
    let mut err_files = BTreeSet::new();
    let mut has_ok = false;
    if let Ok(entries) = fs::read_dir(&dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == "ok.shader" {
                has_ok = true;
            } else if name.starts_with("err-") && name.ends_with(".shader") {
                err_files.insert(name);
            } else if name.ends_with(".shader") {
                failures.push(format!("{code}: {name}: fixture files are ok.shader or err-<case>.shader"));
            }
        }
    }
    if !has_ok {
        failures.push(format!("{code}: no ok.shader"));
    }
    if err_files.is_empty() {
        failures.push(format!("{code}: no err-*.shader"));
    }

    let expected_path = dir.join("expected.json");
    let doc: Map<String, Value> = match fs::read_to_string(&expected_path) {
        Ok(text) => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(obj)) => obj,
            Ok(_) => {
                failures.push(format!("{code}: expected.json is not an object"));
                return;
            }
            Err(e) => {
                failures.push(format!("{code}: expected.json: {e}"));
                return;
            }
        },
        Err(_) if update => Map::new(),
        Err(e) => {
            failures.push(format!("{code}: cannot read expected.json: {e}"));
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
        if !(err_files.contains(key) || (key == "ok.shader" && has_ok)) {
            failures.push(format!("{code}: expected.json has an entry for '{key}', which is no fixture file here"));
            continue;
        }
        match parse_entry(value) {
            Ok(entry) => {
                if key == "ok.shader" && entry.known_bug.is_some() {
                    failures.push(format!("{code}: known_bug is for err files, not ok.shader"));
                }
                let wrong = entry.diagnostics.iter().find(|d| d.code == code && d.severity != severity_name(severity));
                if let Some(d) = wrong {
                    failures.push(format!(
                        "{code}: expected.json '{key}': {} is a{} {} in the catalogue",
                        d.show(),
                        if severity == Severity::Error { "n" } else { "" },
                        severity_name(severity)
                    ));
                }
                entries.insert(key.clone(), entry);
            }
            Err(e) => failures.push(format!("{code}: expected.json '{key}': {e}")),
        }
    }

    // ok.shader: nothing of this code; nothing at all unless listed.
    if has_ok {
        match run(&dir, "ok.shader", defines_of("ok.shader")) {
            Ok(actual) => {
                let tolerated = entries.get("ok.shader").map(|e| e.diagnostics.clone()).unwrap_or_default();
                let got: Vec<Expect> = actual.iter().map(|a| a.expect.clone()).collect();
                if actual.iter().any(|a| a.expect.code == code) {
                    failures.push(format!("{code}/ok.shader: reports {code}\n{}", describe(&tolerated, &actual)));
                } else if got != tolerated {
                    failures.push(format!(
                        "{code}/ok.shader: must be clean (or list what it tolerates)\n{}",
                        describe(&tolerated, &actual)
                    ));
                }
            }
            Err(e) => failures.push(format!("{code}: {e}")),
        }
    }

    let mut updated = Map::new();
    if !options.is_empty() {
        updated.insert("options".into(), Value::Object(options.clone()));
    }
    if let Some(ok) = entries.get("ok.shader") {
        updated.insert("ok.shader".into(), ok.raw.clone());
    }
    for file in &err_files {
        let actual = match run(&dir, file, defines_of(file)) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("{code}: {e}"));
                continue;
            }
        };
        let got: Vec<Expect> = actual.iter().map(|a| a.expect.clone()).collect();
        match entries.get(file) {
            Some(entry) if entry.known_bug.is_some() => {
                let bug = entry.known_bug.as_deref().unwrap_or_default();
                updated.insert(file.clone(), entry.raw.clone());
                if got == entry.diagnostics {
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
                if update {
                    updated.insert(file.clone(), Value::Array(got.iter().map(Expect::to_json).collect()));
                } else {
                    updated.insert(file.clone(), entry.raw.clone());
                    if got != entry.diagnostics {
                        failures.push(format!("{code}/{file}:\n{}", describe(&entry.diagnostics, &actual)));
                    }
                }
                if !got.iter().any(|g| g.code == code) {
                    failures.push(format!("{code}/{file}: does not report {code} at all"));
                }
            }
            None => {
                if update {
                    updated.insert(file.clone(), Value::Array(got.iter().map(Expect::to_json).collect()));
                    if !got.iter().any(|g| g.code == code) {
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

fn check_all() -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("fixtures");
    let update = std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    let mut warnings = Vec::new();
    let codes: BTreeSet<&str> = CODES.iter().map(|(code, _, _)| *code).collect();
    for (code, _, severity) in CODES {
        check_code(&root, code, *severity, update, &mut failures, &mut warnings);
    }
    if let Ok(entries) = fs::read_dir(&root) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !codes.contains(name.as_str()) {
                failures.push(format!("fixture folder '{name}' is not a code of the catalogue"));
            }
        }
    }
    // Straight to stderr, past the test harness's capture: known bugs must stay visible on passing runs.
    let mut err = std::io::stderr().lock();
    for w in &warnings {
        let _ = writeln!(err, "!!!!!!!! fixtures: {w}");
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
