//! GLSL test helpers shared by the root crate's tests (`tests/common`) and the fuzz crate's tests (which include
//! this file by path): scratch folders, glslangValidator, and the interface a GLSL ES stage declares.
//!
//! Only `std` and `shaderlab` here: both test crates have them.
#![allow(dead_code)]

use shaderlab::backends::Stage;
use shaderlab::Target;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A scratch folder (under /dev/shm when it exists, else the temp dir), removed on drop.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(test: &str) -> Scratch {
        let base = if Path::new("/dev/shm").is_dir() { PathBuf::from("/dev/shm") } else { std::env::temp_dir() };
        let dir = base.join(format!("shaderlab-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        Scratch(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Write `name` (a relative path; folders are created) and return its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create scratch subfolder");
        }
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Whether glslangValidator runs. When it does not, the caller returns: the test passes with a loud banner
/// (written past the harness's output capture), except under `CI=true`, where this panics.
pub fn glslang_available(test: &str) -> bool {
    if Command::new("glslangValidator").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return true;
    }
    if std::env::var("CI").map(|v| v == "true").unwrap_or(false) {
        panic!("{test}: CI=true and glslangValidator is not installed");
    }
    let bar = "!".repeat(80);
    let _ = writeln!(std::io::stderr(), "\n{bar}\n!!! SKIPPED {test}: glslangValidator is not installed\n{bar}\n");
    false
}

/// The extension glslang infers the stage from.
pub fn stage_ext(stage: Stage) -> &'static str {
    match stage {
        Stage::Vertex => "vert",
        Stage::Fragment => "frag",
    }
}

/// Validate one stage written without the header: the target's header (what the engine prepends) is added, the
/// file written as `<tag>.vert|frag` in `dir`. `Err`: glslang's log and the text.
pub fn glslang_accepts(text: &str, target: Target, stage: Stage, dir: &Path, tag: &str) -> Result<(), String> {
    let header = shaderlab::backends::backend(target).header(stage);
    let path = dir.join(format!("{tag}.{}", stage_ext(stage)));
    std::fs::write(&path, format!("{header}{text}")).map_err(|e| e.to_string())?;
    let out = Command::new("glslangValidator").arg(&path).output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{}\n{}", String::from_utf8_lossy(&out.stdout), text))
    }
}

/// The active interface of a GLSL ES stage (3.00 or 1.00), each declaration as its tokens joined by one space
/// (`layout ( location = 0 ) out vec4 color`, `uniform vec3 lights [ 2 + 1 ]`), precision qualifiers left out.
#[derive(Debug, PartialEq, Eq)]
pub struct Interface {
    /// The attributes (vertex `in` / `attribute` globals) the code uses. Like uniforms, a preserving output
    /// declares an attribute read only in other variants' branches, where it is inactive.
    pub attributes: BTreeSet<String>,
    /// Varyings and outputs: the other `in`/`out` (3.00) and `varying` (1.00) globals, all of them (both stages
    /// of a pass must agree on them to link).
    pub io: BTreeSet<String>,
    /// The `uniform` globals the code uses. A preserving output declares a uniform whose uses are all in other
    /// variants' branches; drivers drop such inactive uniforms, and the variant compile does not emit them.
    pub uniforms: BTreeSet<String>,
}

/// Identifiers and numbers, and every other non-blank character as a token of its own.
fn tokens(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        let word = c.is_ascii_alphanumeric() || c == '_' || c == '.';
        match (word, start) {
            (true, None) => start = Some(i),
            (true, Some(_)) => {}
            (false, s) => {
                if let Some(s) = s {
                    out.push(&line[s..i]);
                }
                start = None;
                if !c.is_whitespace() {
                    out.push(&line[i..i + c.len_utf8()]);
                }
            }
        }
    }
    if let Some(s) = start {
        out.push(&line[s..]);
    }
    out
}

/// The interface of `glsl`, a `stage` (see [`Interface`]).
pub fn interface(glsl: &str, stage: Stage) -> Interface {
    const STORAGE: [&str; 5] = ["in", "out", "uniform", "attribute", "varying"];
    const INTERPOLATION: [&str; 4] = ["flat", "smooth", "centroid", "invariant"];
    const PRECISION: [&str; 3] = ["lowp", "mediump", "highp"];
    #[derive(PartialEq)]
    enum Kind {
        Attribute,
        Io,
        Uniform,
    }
    let mut declared: Vec<(Kind, String, String)> = Vec::new();
    let mut used = BTreeSet::new();
    for line in glsl.lines() {
        let toks = tokens(line);
        let layout_end = match toks.as_slice() {
            ["layout", "(", ..] => toks.iter().position(|t| *t == ")").map_or(0, |i| i + 1),
            _ => 0,
        };
        let rest = &toks[layout_end..];
        let storage = rest.iter().position(|t| STORAGE.contains(t));
        let is_decl = rest.last() == Some(&";")
            && !rest.contains(&"(")
            && storage.is_some_and(|i| rest[..i].iter().all(|t| INTERPOLATION.contains(t)));
        let name_end = rest.iter().position(|t| *t == "[" || *t == ";").unwrap_or(0);
        match (is_decl, storage) {
            (true, Some(i)) if name_end > i + 1 => {
                let kind = match (rest[i], stage) {
                    ("uniform", _) => Kind::Uniform,
                    ("attribute", _) | ("in", Stage::Vertex) => Kind::Attribute,
                    _ => Kind::Io,
                };
                let decl: Vec<&str> =
                    toks[..toks.len() - 1].iter().copied().filter(|t| !PRECISION.contains(t)).collect();
                declared.push((kind, decl.join(" "), rest[name_end - 1].to_owned()));
            }
            _ => used.extend(toks.into_iter().map(str::to_owned)),
        }
    }
    let select = |kind: Kind, active_only: bool| -> BTreeSet<String> {
        declared
            .iter()
            .filter(|(k, _, name)| *k == kind && (!active_only || used.contains(name)))
            .map(|(_, d, _)| d.clone())
            .collect()
    };
    Interface {
        attributes: select(Kind::Attribute, true),
        io: select(Kind::Io, false),
        uniforms: select(Kind::Uniform, true),
    }
}

/// What a variant compile and the preserving compile expanded for the same macros must agree on (`stage` of
/// both): the same varyings and outputs (names, types, qualifiers), and every attribute and uniform the variant
/// uses declared, with its type, after expansion (the preserving output may keep helpers, and the uniforms and
/// attributes they read, that only other variants call; and it declares what any variant reads, so in one variant
/// some declarations may be inactive). `Err`: what differs.
pub fn same_interface(expanded: &str, variant: &str, stage: Stage) -> Result<(), String> {
    let (a, b) = (interface(expanded, stage), interface(variant, stage));
    let mut problems = Vec::new();
    if a.io != b.io {
        problems.push(format!("varyings or outputs differ\n expanded: {:?}\n variant:  {:?}", a.io, b.io));
    }
    for (what, ours, theirs) in [("attributes", &a.attributes, &b.attributes), ("uniforms", &a.uniforms, &b.uniforms)] {
        let missing: Vec<_> = theirs.difference(ours).collect();
        if !missing.is_empty() {
            problems.push(format!("{what} of the variant missing after expansion: {missing:?}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}
