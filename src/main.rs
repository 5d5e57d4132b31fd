//! The `shaderlab` command.

use clap::{Parser, Subcommand, ValueEnum};
use shaderlab::all_variants::DEFAULT_MAX_VARIANTS;
use shaderlab::fs_includes::FsIncludes;
use shaderlab::ir::Module;
use shaderlab::validator::{render_human, render_json, summary, WarningPolicy};
use shaderlab::{analyze, parse_define, Analysis, Diagnostic, Options, Target};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[cfg(feature = "generate")]
mod generate_cmd;

/// The command's allocator: the compiler allocates many small, short-lived objects, which mimalloc serves
/// markedly faster than the system allocator (see docs/performance.md). Library users choose their own.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: shaderlab::alloc::MiAlloc = shaderlab::alloc::MiAlloc;

#[derive(Parser)]
#[command(name = "shaderlab", version, about = "A compiler for Galacean ShaderLab")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Human,
    Json,
}

#[derive(clap::Args)]
struct Input {
    /// The ShaderLab source.
    file: PathBuf,
    /// Register every file below DIR as an include chunk (by relative path, and by bare name when unique).
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Print the ShaderLab structure: subshaders, passes, tags, merged render states, entries.
    Parse {
        #[command(flatten)]
        input: Input,
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
    },
    /// Report every diagnostic.
    Check {
        #[command(flatten)]
        input: Input,
        /// Variant mode: define NAME (as VALUE) and evaluate conditionals.
        #[arg(short = 'D', value_name = "NAME[=VALUE]")]
        define: Vec<String>,
        /// Warnings: `no-CODE` silences one, `error=CODE` makes it an error, `error` makes every warning an error.
        #[arg(short = 'W', value_name = "no-CODE|error=CODE|error")]
        warnings: Vec<String>,
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        /// Check every variant of the macros the conditionals test (a pairwise covering subset above the cap).
        #[arg(long, conflicts_with = "define")]
        all_variants: bool,
        /// With --all-variants: the most combinations checked exhaustively.
        #[arg(long, value_name = "N", requires = "all_variants", default_value_t = DEFAULT_MAX_VARIANTS)]
        max_variants: u64,
    },
    /// Compile every pass to GLSL ES (vertex and fragment sources, reflection).
    Compile {
        #[command(flatten)]
        input: Input,
        /// The GLSL ES version to write.
        #[arg(long, value_enum)]
        target: TargetArg,
        /// Variant mode: define NAME (as VALUE) and evaluate conditionals (without -D, conditionals are kept).
        #[arg(short = 'D', value_name = "NAME[=VALUE]")]
        define: Vec<String>,
        /// Prepend what the engine prepends (#version, extensions, default precision).
        #[arg(long)]
        header: bool,
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        /// Write <pass>.vert and <pass>.frag into DIR instead of printing the sources.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
    },
    /// Expand the macros of a GLSL file for one variant (the engine's run-time step).
    Expand {
        /// The GLSL source (for example a preserving compile's output).
        file: PathBuf,
        #[arg(short = 'D', value_name = "NAME[=VALUE]")]
        define: Vec<String>,
    },
    /// Time the pipeline on one file, in-process: median, min and max microseconds per whole-file run.
    Bench {
        #[command(flatten)]
        input: Input,
        #[arg(short = 'D', value_name = "NAME[=VALUE]")]
        define: Vec<String>,
        /// The target of `--stage compile`.
        #[arg(long, value_enum, default_value = "gles300")]
        target: TargetArg,
        /// Timed iterations (after as many untimed warm-up runs, at most 100).
        #[arg(long, default_value_t = 200)]
        iterations: usize,
        /// How much of the pipeline to time.
        #[arg(long, value_enum, default_value = "compile")]
        stage: StageArg,
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
    },
    /// Print the IR as JSON.
    DumpIr {
        #[command(flatten)]
        input: Input,
        #[arg(short = 'D', value_name = "NAME[=VALUE]")]
        define: Vec<String>,
        /// Add the passes' side tables (types, resolutions, unknown-type summary).
        #[arg(long)]
        facts: bool,
    },
    /// Generate valid ShaderLab programs (and, with --target, their GLSL) from seeds.
    #[cfg(feature = "generate")]
    Generate(generate_cmd::GenerateArgs),
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum TargetArg {
    Gles100,
    Gles300,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum StageArg {
    Parse,
    Check,
    Compile,
}

impl TargetArg {
    fn target(self) -> Target {
        match self {
            TargetArg::Gles100 => Target::Gles100,
            TargetArg::Gles300 => Target::Gles300,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Deeply nested input is bounded by the parser's nesting limit; a large stack keeps that limit generous.
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(move || run(cli));
    // The release build aborts on a panic (docs/decisions.md); 101 is what a build with unwinding reports for one,
    // and what a failed spawn reports.
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        _ => ExitCode::from(101),
    }
}

/// The source, its include resolver and the options of a command.
struct Loaded {
    source: String,
    includes: FsIncludes,
    options: Options,
    file: String,
}

fn read_input(input: &Input, defines: &[String]) -> Result<Loaded, u8> {
    let bytes = match std::fs::read(&input.file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", input.file.display());
            return Err(2);
        }
    };
    let source = String::from_utf8_lossy(&bytes).into_owned();
    let includes = match FsIncludes::new(&input.include, Some(&input.file)) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: cannot read include folder: {e}");
            return Err(2);
        }
    };
    let file = input.file.display().to_string();
    let options = Options {
        file_name: file.clone(),
        defines: if defines.is_empty() { None } else { Some(defines.iter().map(|d| parse_define(d)).collect()) },
        ..Options::default()
    };
    Ok(Loaded { source, includes, options, file })
}

fn load(input: &Input, defines: &[String]) -> Result<(Analysis, String), u8> {
    let loaded = read_input(input, defines)?;
    Ok((analyze(&loaded.source, &loaded.includes, &loaded.options), loaded.file))
}

fn print_diagnostics(analysis: &Analysis, format: Format, file: &str, to_stderr: bool) -> std::io::Result<()> {
    print_module_diagnostics(&analysis.module, &analysis.diagnostics, format, file, to_stderr)
}

fn print_module_diagnostics(
    module: &Module,
    diagnostics: &[Diagnostic],
    format: Format,
    file: &str,
    to_stderr: bool,
) -> std::io::Result<()> {
    match format {
        Format::Json => {
            let v = render_json(module, file, diagnostics);
            emit(&serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Human => {
            use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
            let terminal = if to_stderr { std::io::stderr().is_terminal() } else { std::io::stdout().is_terminal() };
            let choice = if terminal { ColorChoice::Auto } else { ColorChoice::Never };
            let mut out = if to_stderr { StandardStream::stderr(choice) } else { StandardStream::stdout(choice) };
            render_human(module, diagnostics, &mut out)?;
            writeln!(out, "{}", summary(diagnostics))?;
        }
    }
    Ok(())
}

fn run(cli: Cli) -> u8 {
    let result = match &cli.command {
        Command::Compile { input, target, define, header, format, out_dir } => {
            return compile(input, target.target(), define, *header, *format, out_dir.as_deref());
        }
        Command::Bench { input, define, target, iterations, stage, format } => {
            return bench(input, define, target.target(), *iterations, *stage, *format);
        }
        Command::Parse { input, format } => load(input, &[]).map(|(analysis, file)| {
            match format {
                Format::Json => {
                    let v = shaderlab::structure_json::shader_json(&analysis.module);
                    emit(&serde_json::to_string_pretty(&v).unwrap_or_default());
                }
                Format::Human => {
                    print_structure(&analysis);
                }
            }
            if !analysis.diagnostics.is_empty() {
                let _ = print_diagnostics(&analysis, Format::Human, &file, true);
            }
            analysis
        }),
        Command::Check { input, define, warnings, format, all_variants, max_variants } => {
            match shaderlab::validator::WarningPolicy::parse(warnings) {
                Err(why) => {
                    eprintln!("error: {why}");
                    Err(2)
                }
                Ok(policy) if *all_variants => return check_all_variants(input, &policy, *format, *max_variants),
                Ok(policy) => load(input, define).map(|(mut analysis, file)| {
                    analysis.diagnostics = policy.apply(std::mem::take(&mut analysis.diagnostics));
                    let _ = print_diagnostics(&analysis, *format, &file, false);
                    analysis
                }),
            }
        }
        Command::Expand { file, define } => {
            let text = match std::fs::read(file) {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(e) => {
                    eprintln!("error: cannot read {}: {e}", file.display());
                    return 2;
                }
            };
            let macros: Vec<(String, String)> = define.iter().map(|d| parse_define(d)).collect();
            let mut expanded = shaderlab::expand_macros(&text, &macros);
            if let Some(f) = expanded.module.sources.files.values_mut().next() {
                f.name = file.display().to_string();
            }
            if !expanded.diagnostics.is_empty() {
                let name = file.display().to_string();
                let _ = print_module_diagnostics(&expanded.module, &expanded.diagnostics, Format::Human, &name, true);
            }
            use std::io::Write as _;
            let _ = std::io::stdout().lock().write_all(expanded.text.as_bytes());
            let errors = expanded.diagnostics.iter().any(|d| d.severity == shaderlab::ir::Severity::Error);
            return if errors { 1 } else { 0 };
        }
        Command::DumpIr { input, define, facts } => load(input, define).map(|(analysis, _)| {
            if *facts {
                let v = serde_json::json!({
                    "module": &analysis.module,
                    "facts": shaderlab::facts_json::facts_json(&analysis.module, &analysis.facts),
                });
                emit(&serde_json::to_string(&v).unwrap_or_default());
            } else {
                emit(&serde_json::to_string(&analysis.module).unwrap_or_default());
            }
            analysis
        }),
        #[cfg(feature = "generate")]
        Command::Generate(args) => return generate_cmd::run(args),
    };
    match result {
        Ok(analysis) if analysis.has_errors() => 1,
        Ok(_) => 0,
        Err(code) => code,
    }
}

fn compile(
    input: &Input,
    target: Target,
    defines: &[String],
    header: bool,
    format: Format,
    out_dir: Option<&std::path::Path>,
) -> u8 {
    let loaded = match read_input(input, defines) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let backend_options = shaderlab::backends::Options { header };
    let compiled =
        shaderlab::compile_report(&loaded.source, &loaded.includes, &loaded.options, target, &backend_options);
    if compiled.has_errors() {
        let _ = print_module_diagnostics(&compiled.module, &compiled.diagnostics, format, &loaded.file, false);
        return 1;
    }
    if !compiled.diagnostics.is_empty() && format == Format::Human {
        let _ = print_module_diagnostics(&compiled.module, &compiled.diagnostics, format, &loaded.file, true);
    }
    if let Some(dir) = out_dir {
        if let Err(e) = write_sources(&compiled, dir) {
            eprintln!("error: cannot write to {}: {e}", dir.display());
            return 2;
        }
    }
    match format {
        Format::Json => {
            let mut v = compiled.to_json();
            if let Some(obj) = v.as_object_mut() {
                let diags = render_json(&compiled.module, &loaded.file, &compiled.diagnostics);
                obj.insert("diagnostics".into(), diags["diagnostics"].clone());
            }
            emit(&serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Human if out_dir.is_none() => emit(&human_sources(&compiled)),
        Format::Human => {}
    }
    0
}

fn bench(input: &Input, defines: &[String], target: Target, iterations: usize, stage: StageArg, format: Format) -> u8 {
    use shaderlab::bench::BenchStage;
    let loaded = match read_input(input, defines) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let includes = loaded.includes.preload();
    // A file that does not compile is timed all the same (diagnostics are part of the work), but say so.
    let errors = shaderlab::compile_report(
        &loaded.source,
        &includes,
        &loaded.options,
        target,
        &shaderlab::backends::Options::default(),
    )
    .has_errors();
    if errors {
        eprintln!("note: {} has errors; timing the run that reports them", loaded.file);
    }
    let stage = match stage {
        StageArg::Parse => BenchStage::Parse,
        StageArg::Check => BenchStage::Check,
        StageArg::Compile => BenchStage::Compile,
    };
    let warmup = iterations.clamp(1, 100);
    let Some(t) =
        shaderlab::bench::bench(&loaded.source, &includes, &loaded.options, target, stage, warmup, iterations)
    else {
        eprintln!("error: --iterations must be at least 1");
        return 2;
    };
    match format {
        Format::Json => emit(&serde_json::to_string(&t).unwrap_or_default()),
        Format::Human => emit(&format!(
            "{}: median {:.1} us, min {:.1} us, max {:.1} us over {} iterations",
            loaded.file, t.median_us, t.min_us, t.max_us, t.iterations
        )),
    }
    0
}

fn check_all_variants(input: &Input, policy: &WarningPolicy, format: Format, max_variants: u64) -> u8 {
    let loaded = match read_input(input, &[]) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let mut report =
        shaderlab::all_variants::check_all_variants(&loaded.source, &loaded.includes, &loaded.options, max_variants);
    report.apply_warning_policy(policy);
    match format {
        Format::Json => emit(&serde_json::to_string_pretty(&report.to_json(&loaded.file)).unwrap_or_default()),
        Format::Human => {
            use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
            let choice = if std::io::stdout().is_terminal() { ColorChoice::Auto } else { ColorChoice::Never };
            let _ = report.render_human(&mut StandardStream::stdout(choice));
        }
    }
    u8::from(report.has_errors())
}

/// Every pass's sources, each under a comment line naming pass and stage.
fn human_sources(compiled: &shaderlab::Compiled) -> String {
    let mut text = String::new();
    for pass in &compiled.passes {
        match &pass.sources {
            None => text.push_str(&format!("// UsePass \"{}\": compiled with the pass it refers to\n\n", pass.name)),
            Some(s) => {
                text.push_str(&format!("// Pass \"{}\": vertex shader\n{}\n", pass.name, s.vertex));
                text.push_str(&format!("// Pass \"{}\": fragment shader\n{}\n", pass.name, s.fragment));
            }
        }
    }
    text.trim_end().to_owned()
}

/// `<pass>.vert` and `<pass>.frag` per program pass (names made file-safe, repeated names numbered).
fn write_sources(compiled: &shaderlab::Compiled, dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut used: Vec<String> = Vec::new();
    for pass in &compiled.passes {
        let Some(sources) = &pass.sources else { continue };
        let base: String = pass
            .name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
            .collect();
        let base = if base.is_empty() { "pass".to_owned() } else { base };
        let mut name = base.clone();
        let mut k = 2;
        while used.contains(&name) {
            name = format!("{base}-{k}");
            k += 1;
        }
        used.push(name.clone());
        std::fs::write(dir.join(format!("{name}.vert")), &sources.vertex)?;
        std::fs::write(dir.join(format!("{name}.frag")), &sources.fragment)?;
    }
    Ok(())
}

/// Print to stdout; a closed pipe (`| head`) is not an error.
fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.write_all(b"\n"));
}

fn print_structure(analysis: &Analysis) {
    use std::fmt::Write as _;
    let v = shaderlab::structure_json::shader_json(&analysis.module);
    let Some(shader) = v.as_object() else {
        emit("(no shader)");
        return;
    };
    let mut text = String::new();
    let _ = writeln!(text, "Shader {}", shader.get("name").cloned().unwrap_or_default());
    for sub in shader.get("subShaders").and_then(|s| s.as_array()).into_iter().flatten() {
        let _ = writeln!(text, "  SubShader {} tags {}", sub["name"], sub["tags"]);
        for pass in sub["passes"].as_array().into_iter().flatten() {
            if pass["isUsePass"] == true {
                let _ = writeln!(text, "    UsePass {}", pass["name"]);
                continue;
            }
            let _ = writeln!(
                text,
                "    Pass {} tags {} vertex {} fragment {}",
                pass["name"], pass["tags"], pass["vertexEntry"], pass["fragmentEntry"]
            );
            let _ = writeln!(text, "      renderStates {}", pass["renderStates"]);
        }
    }
    emit(text.trim_end());
}
