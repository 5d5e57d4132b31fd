//! The `shaderlab` command.

use clap::{Parser, Subcommand, ValueEnum};
use shaderlab::fs_includes::FsIncludes;
use shaderlab::validator::{render_human, render_json, summary};
use shaderlab::{analyze, parse_define, Analysis, Options};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Deeply nested input is bounded by the parser's nesting limit; a large stack keeps that limit generous.
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(move || run(cli));
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        _ => ExitCode::from(101),
    }
}

fn load(input: &Input, defines: &[String]) -> Result<(Analysis, String), u8> {
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
    let name = input.file.display().to_string();
    let options = Options {
        file_name: name.clone(),
        defines: if defines.is_empty() { None } else { Some(defines.iter().map(|d| parse_define(d)).collect()) },
        ..Options::default()
    };
    Ok((analyze(&source, &includes, &options), name))
}

fn print_diagnostics(analysis: &Analysis, format: Format, file: &str, to_stderr: bool) -> std::io::Result<()> {
    match format {
        Format::Json => {
            let v = render_json(&analysis.module, file, &analysis.diagnostics);
            emit(&serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Human => {
            use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
            let terminal = if to_stderr { std::io::stderr().is_terminal() } else { std::io::stdout().is_terminal() };
            let choice = if terminal { ColorChoice::Auto } else { ColorChoice::Never };
            let mut out = if to_stderr { StandardStream::stderr(choice) } else { StandardStream::stdout(choice) };
            render_human(&analysis.module, &analysis.diagnostics, &mut out)?;
            writeln!(out, "{}", summary(&analysis.diagnostics))?;
        }
    }
    Ok(())
}

fn run(cli: Cli) -> u8 {
    let result = match &cli.command {
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
        Command::Check { input, define, format } => load(input, define).map(|(analysis, file)| {
            let _ = print_diagnostics(&analysis, *format, &file, false);
            analysis
        }),
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
    };
    match result {
        Ok(analysis) if analysis.has_errors() => 1,
        Ok(_) => 0,
        Err(code) => code,
    }
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
