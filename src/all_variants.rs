//! `check --all-variants`: check every run-time variant of a source, or a covering subset of them.
//!
//! - **Axes.** Read from the preserving-mode module: every name a conditional region tests (`#ifdef`, `#ifndef`,
//!   `defined(...)`, names in `#if`/`#elif` expressions), in every level and pass of the file (the union: a variant
//!   compiles the whole file), minus the names the source `#define`s itself (include guards, derived flags such as
//!   `NEED_TANGENT`), `GL_` names (the driver's) and `__` names (predefined). A name tested only for definition
//!   takes two values: undefined, and defined (empty, or `1` when the code also uses it as a value). A name
//!   compared in `#if` takes undefined, each constant it is compared with (and both neighbours of a constant it is
//!   ordered against with `<`, `>`, `<=`, `>=`), and one value above all of those.
//! - **Run-time values.** A run-time macro the code uses (`RENDERER_JOINTS_NUM` as an array size) but no condition
//!   tests is defined as `1` in every variant: the engine always supplies it, and in variant mode an undefined one
//!   would be an undeclared identifier.
//! - **Variants.** Every combination when there are at most `max_variants`. Above that, a covering subset,
//!   deterministic: the variant where nothing is defined; for every conditional block, unless a chosen variant
//!   already takes it, the simplest variant that does (only the macros its conditions depend on set; `Model`
//!   evaluates conditions without preprocessing); then greedily, variants until every pair of values of any two
//!   macros occurs in one (pairwise covering). Then, to explain what they found, each variant in which a diagnostic
//!   first occurs is changed one macro at a time (at most [`MAX_NEIGHBOURS`] more variants; a change that takes the
//!   same blocks and touches no value the code uses compiles the same program and is not run).
//! - **Checking.** Each variant is one variant-mode [`analyze`]; the variants run on up to [`MAX_THREADS`] threads
//!   and the report does not depend on how many. A diagnostic is identified by (code, file name, range, message)
//!   and lists the variants it occurs in; it is rendered with the sources of the first variant that has it.
//! - **Descriptions.** In every variant; else, exhaustively, the shortest conjunction found that selects exactly its
//!   variants; else, in a covering subset, the macros whose single changes remove it; else the variants, listed.

use crate::{analyze, Analysis, IncludeResolver, Options};
use codespan_reporting::term::termcolor::WriteColor;
use serde_json::{json, Value};
use shaderlab_ir::{
    Block, CondRegion, Expr, FileId, Guarded, Module, Note, PpBinaryOp, PpExpr, PpUnaryOp, Severity, Span, Statement,
};
use shaderlab_passes::resolve::{Resolved, Symbol};
use shaderlab_passes::variants::is_include_guard;
use shaderlab_passes::Facts;
use shaderlab_validator::{render_human, Diagnostic, WarningPolicy};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Mutex;

/// Above this many combinations, a covering subset is checked instead of all of them.
pub const DEFAULT_MAX_VARIANTS: u64 = 1 << 12;

/// Worker threads at most (fewer when the machine has fewer cores).
pub const MAX_THREADS: usize = 8;

/// Neighbouring variants checked at most, in a pairwise check, to explain the diagnostics it found.
pub const MAX_NEIGHBOURS: usize = 512;

/// How many variants a diagnostic's note lists before "and N more".
const LISTED_SETS: usize = 3;

/// An exhaustive check describes a diagnostic's variants by conditions when at most this many suffice.
const MAX_CONDITIONS: usize = 6;

/// Above this many macros, pairwise covering (quadratic in the macros) gives way to [`Strategy::EachValue`].
pub const MAX_PAIRWISE_AXES: usize = 256;

/// Values of one axis at most (undefined included): they are bits of a `u64` in a [`Literal`].
const MAX_VALUES: usize = 64;

/// One macro the variants vary: its values, `values[0]` being `None` (undefined).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    pub name: String,
    pub values: Vec<Option<String>>,
    /// Whether the code uses its value (not only conditions).
    pub in_code: bool,
}

impl Axis {
    fn full_mask(&self) -> u64 {
        if self.values.len() >= 64 {
            u64::MAX
        } else {
            (1u64 << self.values.len()) - 1
        }
    }
}

/// How the checked variants were chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Every combination of every axis's values.
    Exhaustive,
    /// Every conditional block is taken and every pair of values of any two axes occurs in some checked variant;
    /// then, for the diagnostics found, the variants that differ from one where it occurs in one macro.
    Pairwise,
    /// As `Pairwise`, with every single value instead of every pair (above [`MAX_PAIRWISE_AXES`] macros).
    EachValue,
}

impl Strategy {
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Exhaustive => "exhaustive",
            Strategy::Pairwise => "pairwise",
            Strategy::EachValue => "each-value",
        }
    }
}

/// A condition on one axis: its value is one of a set (bit `i` stands for [`Axis::values`]`[i]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Literal {
    pub axis: usize,
    pub values: u64,
}

/// Where a diagnostic occurs, compactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Occurrence {
    /// In every checked variant.
    Every,
    /// (Exhaustive check) in exactly the variants satisfying every literal.
    Where(Vec<Literal>),
    /// (Pairwise check) in variant `example`; of the variants differing from it in one macro, exactly those
    /// satisfying every literal have it.
    Needs { example: usize, literals: Vec<Literal> },
    /// In the listed variants (no short description).
    Sets,
}

/// A diagnostic found in some variants.
#[derive(Clone, Debug)]
pub struct VariantDiagnostic {
    pub diagnostic: Diagnostic,
    /// Indices into [`AllVariantsReport::variants`], ascending.
    pub variants: Vec<usize>,
    /// Index into the report's kept sources.
    sources: usize,
}

/// The result of [`check_all_variants`].
#[derive(Debug)]
pub struct AllVariantsReport {
    pub axes: Vec<Axis>,
    /// Defined with the same value in every variant (run-time values, and the caller's own `defines`).
    pub fixed: Vec<(String, String)>,
    pub strategy: Strategy,
    /// The number of combinations; `None` when it exceeds `u64::MAX`.
    pub total: Option<u64>,
    /// The checked variants, a value index per axis: first those the strategy chose, then the neighbours.
    pub variants: Vec<Vec<u8>>,
    /// How many of `variants` the strategy chose (the rest are neighbours of a pairwise check).
    pub chosen: usize,
    /// (Pairwise check) conditional blocks taken by some chosen variant, and all blocks (as `Model` sees them).
    pub blocks: Option<(usize, usize)>,
    /// Per explained variant: its neighbours as (axis, value, variant index).
    neighbours: HashMap<usize, Vec<(usize, u8, usize)>>,
    /// In source order.
    pub diagnostics: Vec<VariantDiagnostic>,
    /// The sources (only) of the variants diagnostics are rendered with.
    sources: Vec<Module>,
}

/// Check every variant of `source` (or a covering subset when there are more than `max_variants`).
///
/// `options.defines`, when given, are defined in every variant and their names are not varied.
pub fn check_all_variants(
    source: &str,
    includes: &(dyn IncludeResolver + Sync),
    options: &Options,
    max_variants: u64,
) -> AllVariantsReport {
    let includes = CachedIncludes { inner: includes, cache: Mutex::new(HashMap::new()) };
    let mut fixed = options.defines.clone().unwrap_or_default();
    let Analysis { module: preserving, facts, .. } =
        analyze(source, &includes, &Options { defines: None, ..options.clone() });
    let walk = Walk::new(&preserving);
    let (axes, runtime) = find_axes(&preserving, &facts, &walk.tested, &fixed);
    // Only the module is needed from here on (the model reads its regions): free the side tables before the
    // variants run, to keep peak memory down.
    drop(facts);
    fixed.extend(runtime.into_iter().map(|name| (name, "1".to_owned())));

    let sizes: Vec<usize> = axes.iter().map(|a| a.values.len()).collect();
    let total = sizes.iter().try_fold(1u64, |acc, &s| acc.checked_mul(s as u64));
    let exhaustive_check = total.is_some_and(|n| n <= max_variants.max(1));
    let model = (!exhaustive_check).then(|| Model::new(&preserving, &walk.branches, &axes, &fixed));
    let mut blocks = None;
    let (strategy, mut variants) = match &model {
        None => (Strategy::Exhaustive, exhaustive(&sizes)),
        Some(model) => {
            let (strategy, rows) = if sizes.len() <= MAX_PAIRWISE_AXES {
                (Strategy::Pairwise, pairwise(&sizes, &model.seeds()))
            } else {
                (Strategy::EachValue, each_value(&sizes, &model.seeds()))
            };
            blocks = Some(model.coverage(&rows));
            (strategy, rows)
        }
    };
    let runner = Runner { source, includes: &includes, options, axes: &axes, fixed: &fixed };
    let mut collector = Collector::default();
    collector.absorb(runner.run(&variants, 0));
    let chosen = variants.len();

    // Explain what a sample found: each variant a diagnostic first occurs in, changed one macro at a time. A change
    // that takes the same blocks and touches no macro the code uses compiles the same program: not run again.
    let mut neighbours = HashMap::new();
    if let Some(model) = &model {
        let mut index: HashMap<Vec<u8>, usize> = variants.iter().cloned().enumerate().map(|(i, r)| (r, i)).collect();
        let mut added: Vec<Vec<u8>> = Vec::new();
        for base in collector.bases(chosen) {
            let row = variants[base].clone();
            let signature = model.signature(&row);
            let mut list = Vec::new();
            let mut new_rows = Vec::new();
            for (axis, &size) in sizes.iter().enumerate() {
                for value in (0..size as u8).filter(|&v| v != row[axis]) {
                    let mut next = row.clone();
                    next[axis] = value;
                    let at = if let Some(&at) = index.get(&next) {
                        at
                    } else if !axes[axis].in_code && model.signature(&next) == signature {
                        base
                    } else {
                        new_rows.push(next.clone());
                        let at = chosen + added.len() + new_rows.len() - 1;
                        index.insert(next, at);
                        at
                    };
                    list.push((axis, value, at));
                }
            }
            if added.len() + new_rows.len() > MAX_NEIGHBOURS {
                for r in &new_rows {
                    index.remove(r);
                }
                break;
            }
            added.extend(new_rows);
            neighbours.insert(base, list);
        }
        collector.absorb(runner.run(&added, chosen));
        variants.extend(added);
    }
    drop(model);
    drop(walk);
    drop(preserving);

    let (diagnostics, sources) = collector.finish();
    AllVariantsReport { axes, fixed, strategy, total, variants, chosen, blocks, neighbours, diagnostics, sources }
}

/// What every variant shares: the source, the includes, the options, the axes and the fixed macros.
struct Runner<'a> {
    source: &'a str,
    includes: &'a CachedIncludes<'a>,
    options: &'a Options,
    axes: &'a [Axis],
    fixed: &'a [(String, String)],
}

impl Runner<'_> {
    /// Analyze `rows` (variant indices from `first`), on up to [`MAX_THREADS`] threads.
    fn run(&self, rows: &[Vec<u8>], first: usize) -> Vec<Found> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, MAX_THREADS);
        let threads = threads.min(rows.len()).max(1);
        let work = |worker: usize| -> Found {
            let mut found = Found::default();
            for (i, row) in rows.iter().enumerate().skip(worker).step_by(threads) {
                let mut defines = self.fixed.to_vec();
                for (axis, &value) in self.axes.iter().zip(row) {
                    if let Some(v) = &axis.values[value as usize] {
                        defines.push((axis.name.clone(), v.clone()));
                    }
                }
                let options = Options { defines: Some(defines), ..self.options.clone() };
                let analysis = analyze(self.source, self.includes, &options);
                found.add(first + i, analysis.module, analysis.diagnostics);
            }
            found
        };
        if threads == 1 {
            return vec![work(0)];
        }
        std::thread::scope(|scope| {
            let work = &work;
            let handles: Vec<_> = (0..threads)
                .map(|w| {
                    // Like the CLI's own thread: the parser's nesting limit needs room in debug builds.
                    std::thread::Builder::new().stack_size(64 << 20).spawn_scoped(scope, move || work(w))
                })
                .collect();
            handles
                .into_iter()
                .enumerate()
                .map(|(w, h)| match h {
                    Ok(h) => h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                    // No thread to spare: do that share here.
                    Err(_) => work(w),
                })
                .collect()
        })
    }
}

impl AllVariantsReport {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.diagnostic.severity == Severity::Error)
    }

    /// Apply `-W` switches to every diagnostic (silenced warnings disappear).
    pub fn apply_warning_policy(&mut self, policy: &WarningPolicy) {
        let diagnostics = std::mem::take(&mut self.diagnostics);
        for mut d in diagnostics {
            if let Some(kept) = policy.apply(vec![d.diagnostic]).pop() {
                d.diagnostic = kept;
                self.diagnostics.push(d);
            }
        }
    }

    /// The `-D` form of a checked variant: `A`, `C=2` for the axes it defines.
    pub fn variant_defines(&self, variant: usize) -> Vec<String> {
        let row = &self.variants[variant];
        self.axes
            .iter()
            .zip(row)
            .filter_map(|(axis, &v)| axis.values[v as usize].as_ref().map(|value| define_text(&axis.name, value)))
            .collect()
    }

    /// Where a diagnostic occurs, as compactly as the checked variants allow.
    pub fn occurrence(&self, d: &VariantDiagnostic) -> Occurrence {
        if d.variants.len() == self.variants.len() {
            return Occurrence::Every;
        }
        match self.strategy {
            Strategy::Exhaustive => self.cube(d).map_or(Occurrence::Sets, Occurrence::Where),
            Strategy::Pairwise | Strategy::EachValue => self.needs(d),
        }
    }

    /// The shortest conjunction (found greedily) that selects exactly the diagnostic's variants, if short.
    fn cube(&self, d: &VariantDiagnostic) -> Option<Vec<Literal>> {
        let mut literals: Vec<Literal> = Vec::new();
        for (axis, a) in self.axes.iter().enumerate() {
            let values = d.variants.iter().fold(0u64, |m, &v| m | 1 << self.variants[v][axis]);
            if values != a.full_mask() {
                literals.push(Literal { axis, values });
            }
        }
        let selects = |literals: &[Literal]| {
            self.variants.iter().filter(|row| literals.iter().all(|l| l.values & (1 << row[l.axis]) != 0)).count()
        };
        if selects(&literals) != d.variants.len() {
            return None;
        }
        let mut i = 0;
        while i < literals.len() {
            let mut without = literals.clone();
            without.remove(i);
            if selects(&without) == d.variants.len() {
                literals = without;
            } else {
                i += 1;
            }
        }
        (literals.len() <= MAX_CONDITIONS).then_some(literals)
    }

    /// What the neighbours of the first variant with the diagnostic say about it.
    fn needs(&self, d: &VariantDiagnostic) -> Occurrence {
        let example = d.variants[0];
        let Some(list) = self.neighbours.get(&example) else {
            return Occurrence::Sets;
        };
        let row = &self.variants[example];
        let mut literals = Vec::new();
        for (axis, a) in self.axes.iter().enumerate() {
            let mut values = 1u64 << row[axis];
            for &(_, value, at) in list.iter().filter(|(x, _, _)| *x == axis) {
                if d.variants.binary_search(&at).is_ok() {
                    values |= 1 << value;
                }
            }
            if values != a.full_mask() {
                literals.push(Literal { axis, values });
            }
        }
        if literals.is_empty() {
            Occurrence::Sets
        } else {
            Occurrence::Needs { example, literals }
        }
    }

    fn literal_text(&self, l: Literal) -> String {
        let a = &self.axes[l.axis];
        let defined = a.full_mask() & !1;
        if l.values == 1 {
            format!("{} is not defined", a.name)
        } else if l.values == defined {
            format!("{} is defined", a.name)
        } else if l.values.count_ones() == 1 {
            format!("{} = {}", a.name, a.values[l.values.trailing_zeros() as usize].as_deref().unwrap_or_default())
        } else {
            format!("{} is one of {}", a.name, self.value_list(l).join(", "))
        }
    }

    fn literal_json(&self, l: Literal) -> String {
        let a = &self.axes[l.axis];
        let defined = a.full_mask() & !1;
        if l.values == 1 {
            format!("!defined({})", a.name)
        } else if l.values == defined {
            format!("defined({})", a.name)
        } else if l.values.count_ones() == 1 {
            format!("{}=={}", a.name, a.values[l.values.trailing_zeros() as usize].as_deref().unwrap_or_default())
        } else {
            format!("{} in [{}]", a.name, self.value_list(l).join(", "))
        }
    }

    fn value_list(&self, l: Literal) -> Vec<String> {
        let a = &self.axes[l.axis];
        (0..a.values.len())
            .filter(|i| l.values & (1 << i) != 0)
            .map(|i| a.values[i].clone().unwrap_or_else(|| "undefined".to_owned()))
            .collect()
    }

    fn set_text(&self, variant: usize) -> String {
        format!("{{{}}}", self.variant_defines(variant).join(", "))
    }

    /// The note a diagnostic gets: in which variants it occurs.
    pub fn variants_note(&self, d: &VariantDiagnostic) -> String {
        let checked = self.variants.len();
        let of = match self.strategy {
            Strategy::Exhaustive => format!("{} of {checked} variants", d.variants.len()),
            Strategy::Pairwise | Strategy::EachValue => format!("{} of {checked} checked variants", d.variants.len()),
        };
        let and =
            |literals: &[Literal]| literals.iter().map(|l| self.literal_text(*l)).collect::<Vec<_>>().join(" and ");
        match self.occurrence(d) {
            Occurrence::Every if self.strategy == Strategy::Exhaustive => format!("in every variant (all {checked})"),
            Occurrence::Every => format!("in every checked variant ({checked})"),
            Occurrence::Where(literals) => format!("in {of}: those where {}", and(&literals)),
            Occurrence::Needs { example, literals } => format!(
                "in {of}; starting from {} and changing one macro at a time, it stays exactly while {}",
                self.set_text(example),
                and(&literals)
            ),
            Occurrence::Sets => {
                let sets: Vec<String> = d.variants.iter().take(LISTED_SETS).map(|&v| self.set_text(v)).collect();
                let more = d.variants.len().saturating_sub(LISTED_SETS);
                let more = if more > 0 { format!(" and {more} more") } else { String::new() };
                format!("in {of}: {}{more}", sets.join(", "))
            }
        }
    }

    /// What was checked, a few lines: counts and strategy, the axes, the macros defined in every variant.
    pub fn summary(&self) -> String {
        let total = self.total.map_or_else(|| "more than 2^64".to_owned(), |t| t.to_string());
        let mut text = format!("variants: checked {} of {total}", self.variants.len());
        match self.strategy {
            Strategy::Exhaustive => text.push_str(" (every combination)"),
            Strategy::Pairwise | Strategy::EachValue => {
                let covered = if self.strategy == Strategy::Pairwise {
                    "every pair of values of two macros occurs in one"
                } else {
                    "every value of every macro occurs in one"
                };
                text.push_str(&format!(" ({})\n  {} chosen: {covered}", self.strategy.name(), self.chosen));
                if let Some((taken, blocks)) = self.blocks {
                    text.push_str(&format!(", and {taken} of {blocks} conditional blocks are taken"));
                }
                let neighbours = self.variants.len() - self.chosen;
                if neighbours > 0 {
                    text.push_str(&format!(
                        "\n  {neighbours} more one macro away from variants with a diagnostic, to explain it"
                    ));
                }
            }
        }
        let axes: Vec<String> = self
            .axes
            .iter()
            .map(|a| {
                if a.values.len() == 2 {
                    a.name.clone()
                } else {
                    let values: Vec<&str> = a.values.iter().map(|v| v.as_deref().unwrap_or("undefined")).collect();
                    format!("{} ({})", a.name, values.join("|"))
                }
            })
            .collect();
        text.push_str(&format!(
            "\nmacros ({}): {}",
            axes.len(),
            if axes.is_empty() { "none".to_owned() } else { axes.join(", ") }
        ));
        if !self.fixed.is_empty() {
            let fixed: Vec<String> = self.fixed.iter().map(|(n, v)| define_text(n, v)).collect();
            text.push_str(&format!("\ndefined in every variant: {}", fixed.join(", ")));
        }
        text
    }

    /// Each diagnostic once (with a note naming its variants), then the summary line and the counts.
    pub fn render_human(&self, writer: &mut dyn WriteColor) -> std::io::Result<()> {
        for d in &self.diagnostics {
            let mut diagnostic = d.diagnostic.clone();
            diagnostic.notes.push(Note { span: None, message: self.variants_note(d) });
            render_human(&self.sources[d.sources], std::slice::from_ref(&diagnostic), writer)?;
        }
        writeln!(writer, "{}", self.summary())?;
        let plain: Vec<Diagnostic> = self.diagnostics.iter().map(|d| d.diagnostic.clone()).collect();
        writeln!(writer, "{}", shaderlab_validator::summary(&plain))
    }

    /// `check --format json`'s shape, each diagnostic with a `variants` field, plus an `all_variants` summary.
    pub fn to_json(&self, file: &str) -> Value {
        let literals = |literals: &[Literal]| literals.iter().map(|l| self.literal_json(*l)).collect::<Vec<_>>();
        let diagnostics: Vec<Value> = self
            .diagnostics
            .iter()
            .map(|d| {
                let mut v = shaderlab_validator::render::diagnostic_json(&self.sources[d.sources], &d.diagnostic);
                let occurrence = self.occurrence(d);
                let every = occurrence == Occurrence::Every;
                let (condition, needs) = match &occurrence {
                    Occurrence::Where(l) => (json!(literals(l)), Value::Null),
                    Occurrence::Needs { example, literals: l } => {
                        (Value::Null, json!({ "from": self.variant_defines(*example), "conditions": literals(l) }))
                    }
                    _ => (Value::Null, Value::Null),
                };
                let sets: Vec<Vec<String>> =
                    if every { Vec::new() } else { d.variants.iter().map(|&i| self.variant_defines(i)).collect() };
                if let Some(obj) = v.as_object_mut() {
                    obj.insert(
                        "variants".into(),
                        json!({
                            "count": d.variants.len(),
                            "every": every,
                            "where": condition,
                            "needs": needs,
                            "sets": sets,
                            "note": self.variants_note(d),
                        }),
                    );
                }
                v
            })
            .collect();
        let macros: Vec<Value> = self.axes.iter().map(|a| json!({ "name": a.name, "values": a.values })).collect();
        let fixed: Vec<Value> = self.fixed.iter().map(|(n, v)| json!({ "name": n, "value": v })).collect();
        json!({
            "file": file,
            "diagnostics": diagnostics,
            "all_variants": {
                "macros": macros,
                "fixed": fixed,
                "strategy": self.strategy.name(),
                "variants_total": self.total,
                "variants_checked": self.variants.len(),
                "variants_chosen": self.chosen,
                "variants_neighbours": self.variants.len() - self.chosen,
                "blocks_taken": self.blocks.map(|b| b.0),
                "blocks_total": self.blocks.map(|b| b.1),
            },
        })
    }
}

fn define_text(name: &str, value: &str) -> String {
    if value.is_empty() {
        name.to_owned()
    } else {
        format!("{name}={value}")
    }
}

/// An include resolver that loads each key once for all variants.
struct CachedIncludes<'a> {
    inner: &'a (dyn IncludeResolver + Sync),
    cache: Mutex<HashMap<String, Option<String>>>,
}

impl IncludeResolver for CachedIncludes<'_> {
    fn load(&self, key: &str) -> Option<String> {
        if let Some(hit) = self.cache.lock().ok().and_then(|c| c.get(key).cloned()) {
            return hit;
        }
        let loaded = self.inner.load(key);
        if let Ok(mut cache) = self.cache.lock() {
            cache.insert(key.to_owned(), loaded.clone());
        }
        loaded
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Axes: the names conditions test, read from the preserving-mode module.

/// How conditions use a name.
#[derive(Default)]
struct Tested {
    /// Names tested with `defined`.
    defined: BTreeSet<String>,
    /// Names read as values, with the constants worth trying.
    valued: BTreeMap<String, BTreeSet<i64>>,
}

/// The axes, and the run-time macros the code uses that no condition tests.
fn find_axes(module: &Module, facts: &Facts, tested: &Tested, fixed: &[(String, String)]) -> (Vec<Axis>, Vec<String>) {
    let source_defined: BTreeSet<&str> = module.macros.values().map(|m| module.name(m.name)).collect();
    let free = |name: &str| {
        !source_defined.contains(name)
            && !name.starts_with("GL_")
            && !name.starts_with("__")
            && !fixed.iter().any(|(n, _)| n == name)
    };
    let mut used_in_code = runtime_macros(module, facts);
    // A name in a macro body reaches the code through that macro.
    for m in module.macros.values() {
        for word in m.body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if let Some(name) = tested.defined.get(word).or_else(|| tested.valued.get_key_value(word).map(|(k, _)| k)) {
                used_in_code.insert(name.as_str());
            }
        }
    }
    let mut axes = Vec::new();
    let names: BTreeSet<&String> = tested.defined.iter().chain(tested.valued.keys()).collect();
    for name in names {
        if !free(name) {
            continue;
        }
        let mut values = vec![None];
        match tested.valued.get(name.as_str()) {
            Some(constants) => {
                let mut constants = constants.clone();
                if constants.is_empty() {
                    constants.insert(1);
                } else if let Some(&max) = constants.last() {
                    constants.insert(max.saturating_add(1));
                }
                values.extend(constants.iter().take(MAX_VALUES - 1).map(|c| Some(c.to_string())));
            }
            None if used_in_code.contains(name.as_str()) => values.push(Some("1".to_owned())),
            None => values.push(Some(String::new())),
        }
        axes.push(Axis { name: name.clone(), values, in_code: used_in_code.contains(name.as_str()) });
    }
    let runtime = used_in_code
        .into_iter()
        .filter(|n| free(n) && !tested.defined.contains(*n) && !tested.valued.contains_key(*n))
        .map(str::to_owned)
        .collect();
    (axes, runtime)
}

/// Names the preserving resolution took for run-time macros, sorted.
fn runtime_macros<'m>(module: &'m Module, facts: &Facts) -> BTreeSet<&'m str> {
    let mut names = BTreeSet::new();
    for resolved in facts.resolution.idents.values() {
        if let Resolved::Symbols(symbols) = resolved {
            for s in symbols {
                if let Symbol::RuntimeMacro(n) = s {
                    names.insert(module.name(*n));
                }
            }
        }
    }
    names
}

/// Every condition of every conditional region: global items, struct members, parameters, statements, arguments.
struct Walk<'m> {
    module: &'m Module,
    tested: Tested,
    /// Every branch of every region, in walk order.
    branches: Vec<BranchInfo<'m>>,
    regions: usize,
}

/// One branch of a conditional region: where it is, and what entering it requires.
struct BranchInfo<'m> {
    region: usize,
    file: FileId,
    /// From its directive to the next directive of its region.
    start: u32,
    end: u32,
    /// The conditions of the region's earlier branches (false) and its own (true).
    entry: Vec<(&'m PpExpr, bool)>,
    /// Include guards hold in every variant that includes the chunk: they are no block of their own.
    guard: bool,
}

impl<'m> Walk<'m> {
    fn new(module: &'m Module) -> Self {
        let mut walk = Walk { module, tested: Tested::default(), branches: Vec::new(), regions: 0 };
        walk.module();
        walk
    }

    fn module(&mut self) {
        let m = self.module;
        for scope in m.scopes.values() {
            self.guarded_with(&scope.items, |_, _| {}, is_include_guard);
        }
        for s in m.structs.values() {
            self.guarded(&s.members, |_, _| {});
        }
        for e in m.global_exprs.values() {
            self.args(&e.kind);
        }
        for f in m.functions.values() {
            self.guarded(&f.params, |_, _| {});
            if let Some(body) = &f.body {
                self.block(body);
            }
            for e in f.exprs.values() {
                self.args(&e.kind);
            }
        }
    }

    fn guarded<T>(&mut self, items: &'m [Guarded<T>], each: fn(&mut Self, &'m T)) {
        self.guarded_with(items, each, |_, _| false);
    }

    fn guarded_with<T>(
        &mut self,
        items: &'m [Guarded<T>],
        each: fn(&mut Self, &'m T),
        guard: fn(&Module, &CondRegion<T>) -> bool,
    ) {
        for item in items {
            match item {
                Guarded::Item(t) => each(self, t),
                Guarded::Cond(region) => {
                    self.region(region, guard(self.module, region));
                    for branch in &region.branches {
                        self.condition(&branch.condition.expr);
                        self.guarded_with(&branch.items, each, guard);
                    }
                    if let Some(items) = &region.else_items {
                        self.guarded_with(items, each, guard);
                    }
                }
            }
        }
    }

    fn region<T>(&mut self, region: &'m CondRegion<T>, guard: bool) {
        let id = self.regions;
        self.regions += 1;
        let file = region.end_span.file;
        let mut starts: Vec<Span> = region.branches.iter().map(|b| b.condition.span).collect();
        starts.extend(region.else_span);
        starts.push(region.end_span);
        let mut entry: Vec<(&'m PpExpr, bool)> = Vec::new();
        for (i, at) in starts.iter().take(starts.len() - 1).enumerate() {
            let mut own = entry.clone();
            if let Some(b) = region.branches.get(i) {
                own.push((&b.condition.expr, true));
                entry.push((&b.condition.expr, false));
            }
            let next = starts[i + 1];
            let (start, end) =
                if at.file == file && next.file == file { (at.start, next.start) } else { (at.start, at.start) };
            self.branches.push(BranchInfo { region: id, file: at.file, start, end, entry: own, guard });
        }
    }

    fn block(&mut self, block: &'m Block) {
        self.guarded(&block.stmts, Walk::statement);
    }

    fn statement(&mut self, s: &'m Statement) {
        if let Some(b) = s.kind.nested_block() {
            self.block(b);
        }
        s.kind.for_each_nested(&mut |n| self.statement(n));
    }

    /// Regions among call and constructor arguments (the arguments themselves are visited through the arenas).
    fn args(&mut self, e: &'m Expr) {
        let args = match e {
            Expr::Call { args, .. } | Expr::Construct { args, .. } => args,
            Expr::MacroRef { args: Some(args), .. } => args,
            _ => return,
        };
        if args.iter().any(|a| matches!(a, Guarded::Cond(_))) {
            self.guarded(args, |_, _| {});
        }
    }

    fn condition(&mut self, e: &PpExpr) {
        match e {
            PpExpr::Int(_) | PpExpr::Invalid => {}
            PpExpr::Defined(n) => {
                self.tested.defined.insert(self.module.name(*n).to_owned());
            }
            PpExpr::Ident(n) => {
                self.tested.valued.entry(self.module.name(*n).to_owned()).or_default();
            }
            PpExpr::Unary(_, a) => self.condition(a),
            PpExpr::Binary(op, a, b) => {
                let ordered = matches!(op, PpBinaryOp::Lt | PpBinaryOp::Gt | PpBinaryOp::Le | PpBinaryOp::Ge);
                let compared = ordered || matches!(op, PpBinaryOp::Eq | PpBinaryOp::Ne);
                let pair = match (&**a, &**b, constant(a), constant(b)) {
                    (PpExpr::Ident(n), _, _, Some(c)) | (_, PpExpr::Ident(n), Some(c), _) => Some((*n, c)),
                    _ => None,
                };
                match pair {
                    Some((n, c)) if compared => {
                        let values = self.tested.valued.entry(self.module.name(n).to_owned()).or_default();
                        values.insert(c);
                        if ordered {
                            values.insert(c.saturating_sub(1));
                            values.insert(c.saturating_add(1));
                        }
                    }
                    _ => {
                        self.condition(a);
                        self.condition(b);
                    }
                }
            }
            PpExpr::Select(c, a, b) => {
                self.condition(c);
                self.condition(a);
                self.condition(b);
            }
        }
    }
}

/// An integer literal, possibly signed.
fn constant(e: &PpExpr) -> Option<i64> {
    match e {
        PpExpr::Int(v) => Some(*v),
        PpExpr::Unary(PpUnaryOp::Neg, inner) => constant(inner).map(i64::wrapping_neg),
        PpExpr::Unary(PpUnaryOp::Plus, inner) => constant(inner),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Blocks: which variants take which conditional block, as far as conditions can be evaluated without preprocessing.

/// Above this many variants of one block each, the blocks' variants are merged where they agree.
const MAX_SEED_VARIANTS: usize = 128;

/// Combinations of the axes a block's conditions depend on tried at most, to find a variant that takes it.
const BLOCK_SEARCH: u64 = 1 << 10;

/// A three-valued model of the conditions (`None`: unknown). A macro the source defines is defined in a variant
/// when one of its `#define`s sits in blocks the variant takes (order and `#undef` are ignored; a macro whose
/// definition depends on itself, like `#ifndef F / #define F default`, is unknown); `GL_` names are unknown.
/// Unknown counts as taken.
struct Model<'a> {
    axes: &'a [Axis],
    axis_of: HashMap<&'a str, usize>,
    fixed: HashMap<&'a str, &'a str>,
    module: &'a Module,
    /// Per macro the source defines: each `#define`'s enclosing conditions, and its value when an integer.
    sites: HashMap<&'a str, Vec<(Path<'a>, Option<i64>)>>,
    /// Per block (a branch that is no include guard): the conditions of every enclosing branch and its own.
    paths: Vec<Path<'a>>,
}

/// Conditions that must all evaluate as given.
type Path<'a> = Vec<(&'a PpExpr, bool)>;

impl<'a> Model<'a> {
    fn new(module: &'a Module, branches: &[BranchInfo<'a>], axes: &'a [Axis], fixed: &'a [(String, String)]) -> Self {
        let blocks: Vec<&BranchInfo<'a>> = branches.iter().filter(|b| !b.guard).collect();
        let index = BlockIndex::new(&blocks);
        let mut found = Vec::new();
        let mut enclosing = |file: FileId, offset: u32, region: Option<usize>| -> Path<'a> {
            index.containing(module, file, offset, &mut found);
            let mut path = Vec::new();
            for &i in &found {
                let b = blocks[i];
                if Some(b.region) != region {
                    path.extend(b.entry.iter().copied());
                }
            }
            path
        };
        let paths = blocks
            .iter()
            .map(|b| {
                let mut path = enclosing(b.file, b.start, Some(b.region));
                path.extend(b.entry.iter().copied());
                path
            })
            .collect();
        let mut sites: HashMap<&'a str, Vec<(Path<'a>, Option<i64>)>> = HashMap::new();
        for m in module.macros.values() {
            let site = (enclosing(m.span.file, m.span.start, None), parse_int(&m.body));
            sites.entry(module.name(m.name)).or_default().push(site);
        }
        Model {
            axes,
            axis_of: axes.iter().enumerate().map(|(i, a)| (a.name.as_str(), i)).collect(),
            fixed: fixed.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect(),
            module,
            sites,
            paths,
        }
    }

    /// Variants (beyond the one where nothing is defined) that together take every block the model can take: for
    /// each block, most specific first, unless a variant already takes it, the first combination of the axes its
    /// conditions depend on that takes it, every other axis undefined.
    fn seeds(&self) -> Vec<Vec<u8>> {
        let n = self.axes.len();
        // One dense row for every question below: only the axes a question sets are written, and reset after.
        let mut scratch = vec![0u8; n];
        let mut wanted: Vec<(usize, Vec<(usize, u8)>)> = Vec::new();
        for (i, path) in self.paths.iter().enumerate() {
            let mut relevant = BTreeSet::new();
            let mut seen = BTreeSet::new();
            self.path_axes(path, &mut relevant, &mut seen);
            let relevant: Vec<usize> = relevant.into_iter().collect();
            let count = relevant.iter().try_fold(1u64, |acc, &a| acc.checked_mul(self.axes[a].values.len() as u64));
            let Some(count) = count.filter(|&c| c <= BLOCK_SEARCH) else {
                continue;
            };
            for mut k in 0..count {
                for &a in relevant.iter().rev() {
                    let size = self.axes[a].values.len() as u64;
                    scratch[a] = (k % size) as u8;
                    k /= size;
                }
                if self.holds(path, &scratch, &mut Vec::new()) != Some(false) {
                    wanted.push((i, relevant.iter().map(|&a| (a, scratch[a])).collect()));
                    break;
                }
            }
            relevant.iter().for_each(|&a| scratch[a] = 0);
        }
        wanted.sort_by_key(|(i, c)| (std::cmp::Reverse(c.iter().filter(|(_, v)| *v != 0).count()), *i));
        // Whether a block is taken depends only on its relevant axes (`path_axes`), so a chosen row that sets
        // none of them answers as the row with nothing set: only that row and the rows setting one of the
        // block's axes are asked (rows are kept sparse, as their constraints; one dense scratch row is filled
        // per question). Asking every row was quadratic: 8,000 blocks of one macro each, 64 MB of rows.
        let mut rows: Vec<&[(usize, u8)]> = Vec::new();
        let mut rows_setting: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut candidates: Vec<u32> = Vec::new();
        for (i, constraint) in &wanted {
            let path = &self.paths[*i];
            if self.holds(path, &scratch, &mut Vec::new()) != Some(false) {
                continue;
            }
            candidates.clear();
            for &(a, _) in constraint {
                candidates.extend_from_slice(&rows_setting[a]);
            }
            candidates.sort_unstable();
            candidates.dedup();
            let taken = candidates.iter().any(|&r| {
                let row = rows[r as usize];
                row.iter().for_each(|&(a, v)| scratch[a] = v);
                let taken = self.holds(path, &scratch, &mut Vec::new()) != Some(false);
                row.iter().for_each(|&(a, _)| scratch[a] = 0);
                taken
            });
            if taken {
                continue;
            }
            for &(a, _) in constraint.iter().filter(|(_, v)| *v != 0) {
                rows_setting[a].push(rows.len() as u32);
            }
            rows.push(constraint);
        }
        if rows.len() <= MAX_SEED_VARIANTS {
            return rows
                .iter()
                .map(|constraint| {
                    let mut row = vec![0u8; n];
                    for &(a, v) in constraint.iter() {
                        row[a] = v;
                    }
                    row
                })
                .collect();
        }
        // Too many: merge the constraints that agree, first fit. A block's conditions depend only on its own axes,
        // so what another block adds elsewhere does not change whether it is taken.
        let mut merged: Vec<Vec<Option<u8>>> = Vec::new();
        for (_, constraint) in wanted {
            let fits = |row: &Vec<Option<u8>>| constraint.iter().all(|&(a, v)| row[a].is_none_or(|w| w == v));
            let index = match merged.iter().position(fits) {
                Some(index) => index,
                None => {
                    merged.push(vec![None; n]);
                    merged.len() - 1
                }
            };
            for &(a, v) in &constraint {
                merged[index][a] = Some(v);
            }
        }
        merged.into_iter().map(|row| row.into_iter().map(|v| v.unwrap_or(0)).collect()).collect()
    }

    /// Which blocks a variant takes (`None`: unknown).
    fn signature(&self, row: &[u8]) -> Vec<Option<bool>> {
        self.paths.iter().map(|p| self.holds(p, row, &mut Vec::new())).collect()
    }

    /// (blocks some row takes, all blocks)
    fn coverage(&self, rows: &[Vec<u8>]) -> (usize, usize) {
        let taken =
            self.paths.iter().filter(|p| rows.iter().any(|r| self.holds(p, r, &mut Vec::new()) != Some(false))).count();
        (taken, self.paths.len())
    }

    fn path_axes(&self, path: &[(&'a PpExpr, bool)], out: &mut BTreeSet<usize>, seen: &mut BTreeSet<&'a str>) {
        for (e, _) in path {
            self.expr_axes(e, out, seen);
        }
    }

    fn expr_axes(&self, e: &'a PpExpr, out: &mut BTreeSet<usize>, seen: &mut BTreeSet<&'a str>) {
        match e {
            PpExpr::Defined(n) | PpExpr::Ident(n) => {
                let name = self.module.name(*n);
                if let Some(&a) = self.axis_of.get(name) {
                    out.insert(a);
                } else if let Some(sites) = self.sites.get(name) {
                    if seen.insert(name) {
                        for (path, _) in sites {
                            self.path_axes(path, out, seen);
                        }
                    }
                }
            }
            PpExpr::Unary(_, a) => self.expr_axes(a, out, seen),
            PpExpr::Binary(_, a, b) => {
                self.expr_axes(a, out, seen);
                self.expr_axes(b, out, seen);
            }
            PpExpr::Select(c, a, b) => {
                self.expr_axes(c, out, seen);
                self.expr_axes(a, out, seen);
                self.expr_axes(b, out, seen);
            }
            PpExpr::Int(_) | PpExpr::Invalid => {}
        }
    }

    fn holds(&self, path: &[(&'a PpExpr, bool)], row: &[u8], stack: &mut Vec<&'a str>) -> Option<bool> {
        let mut unknown = false;
        for (e, want) in path {
            match self.eval(e, row, stack) {
                Some(v) if (v != 0) != *want => return Some(false),
                Some(_) => {}
                None => unknown = true,
            }
        }
        if unknown {
            None
        } else {
            Some(true)
        }
    }

    fn defined(&self, name: &'a str, row: &[u8], stack: &mut Vec<&'a str>) -> Option<bool> {
        if let Some(&a) = self.axis_of.get(name) {
            return Some(row[a] != 0);
        }
        if self.fixed.contains_key(name) {
            return Some(true);
        }
        if name.starts_with("GL_") || stack.contains(&name) {
            return None;
        }
        let Some(sites) = self.sites.get(name) else {
            return Some(false);
        };
        stack.push(name);
        let mut result = Some(false);
        for (path, _) in sites {
            match self.holds(path, row, stack) {
                Some(true) => {
                    result = Some(true);
                    break;
                }
                None => result = None,
                Some(false) => {}
            }
        }
        stack.pop();
        result
    }

    fn value(&self, name: &'a str, row: &[u8], stack: &mut Vec<&'a str>) -> Option<i64> {
        if let Some(&a) = self.axis_of.get(name) {
            return Some(self.axes[a].values[row[a] as usize].as_deref().and_then(parse_int).unwrap_or(0));
        }
        if let Some(v) = self.fixed.get(name) {
            return Some(parse_int(v).unwrap_or(0));
        }
        match self.defined(name, row, stack)? {
            false => Some(0),
            // Which definition holds is not tracked: a value only when every definition agrees.
            true => {
                let sites = self.sites.get(name)?;
                let first = sites.first()?.1;
                sites.iter().all(|(_, v)| *v == first).then_some(first).flatten()
            }
        }
    }

    fn eval(&self, e: &'a PpExpr, row: &[u8], stack: &mut Vec<&'a str>) -> Option<i64> {
        match e {
            PpExpr::Int(v) => Some(*v),
            PpExpr::Defined(n) => self.defined(self.module.name(*n), row, stack).map(i64::from),
            PpExpr::Ident(n) => self.value(self.module.name(*n), row, stack),
            PpExpr::Invalid => None,
            PpExpr::Unary(op, a) => {
                let v = self.eval(a, row, stack)?;
                Some(match op {
                    PpUnaryOp::Neg => v.wrapping_neg(),
                    PpUnaryOp::Plus => v,
                    PpUnaryOp::Not => i64::from(v == 0),
                    PpUnaryOp::BitNot => !v,
                })
            }
            PpExpr::Binary(op @ (PpBinaryOp::And | PpBinaryOp::Or), a, b) => {
                // Kleene logic: a known deciding operand decides.
                let decisive = i64::from(*op == PpBinaryOp::Or);
                let x = self.eval(a, row, stack).map(|v| i64::from(v != 0));
                if x == Some(decisive) {
                    return x;
                }
                let y = self.eval(b, row, stack).map(|v| i64::from(v != 0));
                if y == Some(decisive) {
                    return y;
                }
                x.and(y).map(|_| 1 - decisive)
            }
            PpExpr::Binary(op, a, b) => {
                let (x, y) = (self.eval(a, row, stack)?, self.eval(b, row, stack)?);
                Some(match op {
                    PpBinaryOp::Mul => x.wrapping_mul(y),
                    PpBinaryOp::Div => x.checked_div(y)?,
                    PpBinaryOp::Rem => x.checked_rem(y)?,
                    PpBinaryOp::Add => x.wrapping_add(y),
                    PpBinaryOp::Sub => x.wrapping_sub(y),
                    PpBinaryOp::Shl => x.wrapping_shl(y as u32),
                    PpBinaryOp::Shr => x.wrapping_shr(y as u32),
                    PpBinaryOp::Lt => i64::from(x < y),
                    PpBinaryOp::Gt => i64::from(x > y),
                    PpBinaryOp::Le => i64::from(x <= y),
                    PpBinaryOp::Ge => i64::from(x >= y),
                    PpBinaryOp::Eq => i64::from(x == y),
                    PpBinaryOp::Ne => i64::from(x != y),
                    PpBinaryOp::BitAnd => x & y,
                    PpBinaryOp::BitXor => x ^ y,
                    PpBinaryOp::BitOr => x | y,
                    PpBinaryOp::And | PpBinaryOp::Or => unreachable!("handled above"),
                })
            }
            PpExpr::Select(c, a, b) => match self.eval(c, row, stack) {
                Some(0) => self.eval(b, row, stack),
                Some(_) => self.eval(a, row, stack),
                None => {
                    let (x, y) = (self.eval(a, row, stack), self.eval(b, row, stack));
                    (x == y).then_some(x).flatten()
                }
            },
        }
    }
}

/// The blocks of a model by file, each file's in start order with its nearest enclosing block: the blocks that
/// hold a position are found from the last one starting before it, and its enclosing ones (a file's branches nest),
/// instead of by asking every block (quadratic in the blocks: 8,000 blocks took a second).
struct BlockIndex {
    by_file: HashMap<FileId, Vec<BlockEntry>>,
}

/// `(start, end, block index, position of the nearest enclosing entry)` of a block, in its file's list.
type BlockEntry = (u32, u32, usize, Option<usize>);

impl BlockIndex {
    fn new(blocks: &[&BranchInfo]) -> Self {
        let mut by_file: HashMap<FileId, Vec<BlockEntry>> = HashMap::new();
        for (i, b) in blocks.iter().enumerate() {
            by_file.entry(b.file).or_default().push((b.start, b.end, i, None));
        }
        for entries in by_file.values_mut() {
            // Outer before inner at equal starts.
            entries.sort_by_key(|&(start, end, i, _)| (start, std::cmp::Reverse(end), i));
            let mut open: Vec<usize> = Vec::new();
            for k in 0..entries.len() {
                let start = entries[k].0;
                while open.last().is_some_and(|&o| entries[o].1 <= start) {
                    open.pop();
                }
                entries[k].3 = open.last().copied();
                open.push(k);
            }
        }
        BlockIndex { by_file }
    }

    /// The blocks (indices, ascending) holding a position, or the position a chunk holding it was included
    /// from, and so on up the inclusions ([`contains`] for every block, answered at once).
    fn containing(&self, module: &Module, file: FileId, offset: u32, out: &mut Vec<usize>) {
        out.clear();
        let (mut file, mut offset) = (file, offset);
        for _ in 0..64 {
            if let Some(entries) = self.by_file.get(&file) {
                let mut at = entries.partition_point(|e| e.0 <= offset).checked_sub(1);
                while let Some(k) = at {
                    let (start, end, i, parent) = entries[k];
                    if start <= offset && offset < end {
                        out.push(i);
                    }
                    at = parent;
                }
            }
            let Some(from) = module.sources.file(file).and_then(|f| f.included_from) else {
                break;
            };
            (file, offset) = (from.file, from.start);
        }
        out.sort_unstable();
        out.dedup();
    }
}

/// Whether a position (in a chunk included, perhaps, from inside the branch) lies in a branch.
#[cfg(test)]
fn contains(module: &Module, b: &BranchInfo, file: FileId, offset: u32) -> bool {
    let (mut file, mut offset) = (file, offset);
    for _ in 0..64 {
        if file == b.file && b.start <= offset && offset < b.end {
            return true;
        }
        let Some(from) = module.sources.file(file).and_then(|f| f.included_from) else {
            return false;
        };
        (file, offset) = (from.file, from.start);
    }
    false
}

/// A decimal, hex (`0x`) or octal (leading `0`) integer, with an optional `u`/`l` suffix.
fn parse_int(text: &str) -> Option<i64> {
    let t = text.trim().trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return i64::from_str_radix(hex, 16).ok();
    }
    if t.len() > 1 && t.starts_with('0') {
        return i64::from_str_radix(&t[1..], 8).ok();
    }
    t.parse().ok()
}

// ---------------------------------------------------------------------------------------------------------------
// Variants.

/// Every combination, the last axis varying fastest; the first is the one where nothing is defined.
fn exhaustive(sizes: &[usize]) -> Vec<Vec<u8>> {
    let mut rows = Vec::new();
    let mut row = vec![0u8; sizes.len()];
    loop {
        rows.push(row.clone());
        let mut axis = sizes.len();
        loop {
            if axis == 0 {
                return rows;
            }
            axis -= 1;
            if (row[axis] as usize) + 1 < sizes[axis] {
                row[axis] += 1;
                break;
            }
            row[axis] = 0;
        }
    }
}

/// Candidate variants built per chosen one (AETG-style); the first fills axes in order, the others in orders
/// shuffled from a fixed seed.
const PAIRWISE_CANDIDATES: usize = 8;

/// A pairwise covering set: the variant where nothing is defined, then greedily, until every pair of values of
/// any two axes is covered, the best of [`PAIRWISE_CANDIDATES`] candidates. A candidate starts from the axis value
/// in the most uncovered pairs; every other axis, in the candidate's order, takes the value covering most
/// uncovered pairs with the axes already set (ties: the lower value). Deterministic.
fn pairwise(sizes: &[usize], seeds: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let n = sizes.len();
    let mut rows = vec![vec![0u8; n]];
    rows.extend(seeds.iter().cloned());
    if n < 2 {
        // No pairs: every value of the one axis.
        rows.extend(exhaustive(sizes).into_iter().filter(|r| !seeds.contains(r) && r.iter().any(|&v| v != 0)));
        return rows;
    }
    let mut pairs = Pairs::new(sizes);
    for row in &rows {
        pairs.cover(row);
    }
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    while pairs.remaining > 0 {
        let Some((axis, value)) = pairs.richest() else {
            break;
        };
        let mut best: Option<(usize, Vec<u8>)> = None;
        for candidate in 0..PAIRWISE_CANDIDATES {
            let mut order: Vec<usize> = (0..n).filter(|&k| k != axis).collect();
            if candidate > 0 {
                for i in (1..order.len()).rev() {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    order.swap(i, (seed % (i as u64 + 1)) as usize);
                }
            }
            let mut row: Vec<Option<u8>> = vec![None; n];
            row[axis] = Some(value);
            for &k in &order {
                let mut chosen = (0usize, 0u8);
                for v in 0..sizes[k] as u8 {
                    let gain = (0..n).filter(|&l| row[l].is_some_and(|w| pairs.is_uncovered(k, v, l, w))).count();
                    if gain > chosen.0 {
                        chosen = (gain, v);
                    }
                }
                row[k] = Some(chosen.1);
            }
            let row: Vec<u8> = row.into_iter().map(|v| v.unwrap_or(0)).collect();
            let gain = pairs.gain(&row);
            if best.as_ref().is_none_or(|(g, _)| gain > *g) {
                best = Some((gain, row));
            }
        }
        let Some((_, row)) = best else {
            break;
        };
        pairs.cover(&row);
        rows.push(row);
    }
    rows
}

/// The variant where nothing is defined, the seeds, then variants until every value of every axis occurs in one
/// (variant `k` gives each axis its value `k`, or its last).
fn each_value(sizes: &[usize], seeds: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut rows = vec![vec![0u8; sizes.len()]];
    rows.extend(seeds.iter().cloned());
    let widest = sizes.iter().copied().max().unwrap_or(1);
    for k in 1..widest {
        rows.push(sizes.iter().map(|&s| k.min(s - 1) as u8).collect());
    }
    rows
}

/// Which value pairs of two axes no chosen variant has yet.
struct Pairs<'a> {
    sizes: &'a [usize],
    /// `flags[i][j]` (i < j): value pair (a, b) at `a * sizes[j] + b`.
    flags: Vec<Vec<Vec<bool>>>,
    remaining: usize,
}

impl<'a> Pairs<'a> {
    fn new(sizes: &'a [usize]) -> Self {
        let n = sizes.len();
        let flags: Vec<Vec<Vec<bool>>> = (0..n)
            .map(|i| (0..n).map(|j| if i < j { vec![true; sizes[i] * sizes[j]] } else { Vec::new() }).collect())
            .collect();
        let remaining = flags.iter().flatten().map(Vec::len).sum();
        Pairs { sizes, flags, remaining }
    }

    fn slot(&self, i: usize, a: u8, j: usize, b: u8) -> (usize, usize, usize) {
        if i < j {
            (i, j, a as usize * self.sizes[j] + b as usize)
        } else {
            (j, i, b as usize * self.sizes[i] + a as usize)
        }
    }

    fn is_uncovered(&self, i: usize, a: u8, j: usize, b: u8) -> bool {
        let (p, q, x) = self.slot(i, a, j, b);
        self.flags[p][q][x]
    }

    fn gain(&self, row: &[u8]) -> usize {
        let n = row.len();
        (0..n).map(|i| (i + 1..n).filter(|&j| self.is_uncovered(i, row[i], j, row[j])).count()).sum()
    }

    fn cover(&mut self, row: &[u8]) {
        for i in 0..row.len() {
            for j in i + 1..row.len() {
                let (p, q, x) = self.slot(i, row[i], j, row[j]);
                if self.flags[p][q][x] {
                    self.flags[p][q][x] = false;
                    self.remaining -= 1;
                }
            }
        }
    }

    /// The axis value in the most uncovered pairs (ties: the first).
    fn richest(&self) -> Option<(usize, u8)> {
        let n = self.sizes.len();
        let mut best: Option<(usize, usize, u8)> = None;
        for i in 0..n {
            for a in 0..self.sizes[i] as u8 {
                let count: usize = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| (0..self.sizes[j] as u8).filter(|&b| self.is_uncovered(i, a, j, b)).count())
                    .sum();
                if count > 0 && best.is_none_or(|(c, _, _)| count > c) {
                    best = Some((count, i, a));
                }
            }
        }
        best.map(|(_, i, a)| (i, a))
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Collecting diagnostics across variants.

/// (code, file name, start, end, message)
type Key = (&'static str, String, u32, u32, String);

struct Entry {
    diagnostic: Diagnostic,
    variants: Vec<usize>,
    /// Index into the worker's kept sources.
    sources: usize,
}

/// What one worker found, its variants in ascending order.
#[derive(Default)]
struct Found {
    entries: HashMap<Key, Entry>,
    sources: Vec<Module>,
}

impl Found {
    fn add(&mut self, variant: usize, mut module: Module, diagnostics: Vec<Diagnostic>) {
        let mut keep = false;
        for d in diagnostics {
            let file = module.sources.file(d.span.file).map(|f| f.name.clone()).unwrap_or_default();
            let key = (d.code(), file, d.span.start, d.span.end, d.message());
            match self.entries.get_mut(&key) {
                Some(e) => {
                    if e.variants.last() != Some(&variant) {
                        e.variants.push(variant);
                    }
                }
                None => {
                    keep = true;
                    let sources = self.sources.len();
                    self.entries.insert(key, Entry { diagnostic: d, variants: vec![variant], sources });
                }
            }
        }
        if keep {
            // Only the sources are needed to render; drop the rest of the module.
            let mut kept = Module::new(module.mode.clone());
            kept.sources = std::mem::take(&mut module.sources);
            self.sources.push(kept);
        }
    }
}

/// Every worker's findings, merged: each diagnostic keeps the sources of the first variant that has it.
#[derive(Default)]
struct Collector {
    entries: HashMap<Key, Entry>,
    sources: Vec<Module>,
}

impl Collector {
    fn absorb(&mut self, parts: Vec<Found>) {
        for part in parts {
            let offset = self.sources.len();
            self.sources.extend(part.sources);
            for (key, mut entry) in part.entries {
                entry.sources += offset;
                match self.entries.get_mut(&key) {
                    None => {
                        self.entries.insert(key, entry);
                    }
                    Some(existing) => {
                        if entry.variants[0] < existing.variants[0] {
                            std::mem::swap(existing, &mut entry);
                        }
                        existing.variants.extend(entry.variants);
                        existing.variants.sort_unstable();
                        existing.variants.dedup();
                    }
                }
            }
        }
    }

    /// The first variant of each diagnostic missing from some of the first `checked` variants, by position.
    fn bases(&self, checked: usize) -> Vec<usize> {
        let mut partial: Vec<(&Key, &Entry)> =
            self.entries.iter().filter(|(_, e)| e.variants.len() < checked).collect();
        partial.sort_by(|(a, _), (b, _)| (&a.1, a.2, a.3, a.0, &a.4).cmp(&(&b.1, b.2, b.3, b.0, &b.4)));
        let mut bases: Vec<usize> = Vec::new();
        for (_, e) in partial {
            if !bases.contains(&e.variants[0]) {
                bases.push(e.variants[0]);
            }
        }
        bases
    }

    /// The diagnostics in source order, with only the sources they need.
    fn finish(self) -> (Vec<VariantDiagnostic>, Vec<Module>) {
        let sources = self.sources;
        let mut list: Vec<(Vec<u32>, Key, Entry)> = self
            .entries
            .into_iter()
            .map(|(key, entry)| (source_order(&sources[entry.sources], &entry.diagnostic), key, entry))
            .collect();
        list.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        let mut slots: Vec<Option<Module>> = sources.into_iter().map(Some).collect();
        let mut renumbered: Vec<Option<usize>> = vec![None; slots.len()];
        let mut kept = Vec::new();
        let diagnostics = list
            .into_iter()
            .map(|(_, _, e)| {
                let index = *renumbered[e.sources].get_or_insert_with(|| {
                    kept.push(slots[e.sources].take().unwrap_or_else(|| Module::new(shaderlab_ir::Mode::Preserving)));
                    kept.len() - 1
                });
                VariantDiagnostic { diagnostic: e.diagnostic, variants: e.variants, sources: index }
            })
            .collect();
        (diagnostics, kept)
    }
}

/// A diagnostic's position seen from the main file: the offsets of the enclosing `#include` directives, outermost
/// first, then its own (as the validator orders one variant's diagnostics).
fn source_order(module: &Module, d: &Diagnostic) -> Vec<u32> {
    let mut key = vec![d.span.start];
    let mut file = d.span.file;
    for _ in 0..64 {
        let Some(from) = module.sources.file(file).and_then(|f| f.included_from) else {
            break;
        };
        key.push(from.start);
        file = from.file;
    }
    key.reverse();
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block index finds, for every block start and every `#define`, the blocks that the one-by-one
    /// containment test finds: nested regions, `#elif`/`#else` branches, and regions inside an included chunk
    /// that is itself included from inside a branch.
    #[test]
    fn block_index_agrees_with_asking_every_block() {
        let mut includes = shaderlab_frontend::MapResolver::new();
        includes.insert(
            "inner.glsl",
            "#ifdef IN_A\n#define FROM_INNER\nfloat ia;\n#ifndef IN_B\nfloat ib;\n#endif\n#else\nfloat ic;\n#endif\n",
        );
        let source = "Shader \"s\" { SubShader \"d\" { Pass \"p\" {\n\
            #ifdef A\n#define DA\nfloat a;\n#if defined(B) && C > 2\nfloat b;\n#ifdef D\n#include \"inner.glsl\"\n\
            #endif\n#elif E\nfloat e;\n#else\n#define DE\n#endif\n#endif\n\
            #ifndef F\nfloat f;\n#include \"inner.glsl\"\n#endif\n\
            void v() { gl_Position = vec4(0.0);\n#ifdef G\ngl_Position.x = 1.0;\n#endif\n}\n\
            void f() { gl_FragColor = vec4(1.0); }\nVertexShader = v; FragmentShader = f;\n} } }";
        let m = shaderlab_frontend::parse("t.shader", source, &includes, &shaderlab_frontend::Options::default());
        let walk = Walk::new(&m);
        let blocks: Vec<&BranchInfo> = walk.branches.iter().filter(|b| !b.guard).collect();
        assert!(blocks.len() >= 10, "{} blocks", blocks.len());
        let index = BlockIndex::new(&blocks);
        let mut positions: Vec<(FileId, u32)> = blocks.iter().map(|b| (b.file, b.start)).collect();
        positions.extend(m.macros.values().map(|d| (d.span.file, d.span.start)));
        positions.extend(blocks.iter().map(|b| (b.file, b.end.saturating_sub(1))));
        let mut found = Vec::new();
        let mut nested = 0;
        for (file, offset) in positions {
            index.containing(&m, file, offset, &mut found);
            let want: Vec<usize> = (0..blocks.len()).filter(|&i| contains(&m, blocks[i], file, offset)).collect();
            assert_eq!(found, want, "at {file:?}:{offset}");
            nested += usize::from(want.len() >= 3);
        }
        assert!(nested > 0, "no position three blocks deep: the test lost its nesting");
    }

    /// Every value pair of every two axes appears in some row.
    fn covers_pairs(sizes: &[usize], rows: &[Vec<u8>]) -> bool {
        for i in 0..sizes.len() {
            for j in i + 1..sizes.len() {
                for a in 0..sizes[i] {
                    for b in 0..sizes[j] {
                        if !rows.iter().any(|r| r[i] as usize == a && r[j] as usize == b) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    #[test]
    fn each_value_gives_every_value_of_every_axis() {
        let sizes = [2, 5, 3, 2];
        let rows = each_value(&sizes, &[vec![1, 1, 1, 1]]);
        assert_eq!(rows[0], vec![0; 4]);
        assert_eq!(rows[1], vec![1; 4], "the seeds follow the first variant");
        for (axis, &size) in sizes.iter().enumerate() {
            for value in 0..size as u8 {
                assert!(rows.iter().any(|r| r[axis] == value), "axis {axis} never {value}: {rows:?}");
            }
        }
    }

    #[test]
    fn exhaustive_enumerates_every_combination_once() {
        let rows = exhaustive(&[2, 3, 2]);
        assert_eq!(rows.len(), 12);
        assert_eq!(rows[0], vec![0, 0, 0]);
        let distinct: BTreeSet<&Vec<u8>> = rows.iter().collect();
        assert_eq!(distinct.len(), 12);
        assert_eq!(exhaustive(&[]), vec![Vec::<u8>::new()]);
    }

    #[test]
    fn pairwise_covers_every_pair_and_is_small() {
        for sizes in [vec![2; 3], vec![2; 12], vec![2; 50], vec![6, 5, 4, 3, 2, 2, 2, 2, 2, 2], vec![3]] {
            let rows = pairwise(&sizes, &[]);
            assert!(covers_pairs(&sizes, &rows), "{sizes:?}");
            assert_eq!(rows[0], vec![0; sizes.len()]);
            assert_eq!(rows, pairwise(&sizes, &[]), "deterministic");
            let max = sizes.iter().max().copied().unwrap_or(1);
            assert!(rows.len() <= max * max * 2 + 8, "{sizes:?}: {} rows", rows.len());
            for axis in 0..sizes.len() {
                for value in 0..sizes[axis] as u8 {
                    assert!(rows.iter().any(|r| r[axis] == value), "{sizes:?}: axis {axis} never {value}");
                }
            }
        }
    }
}
