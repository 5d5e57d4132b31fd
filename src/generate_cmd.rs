//! `shaderlab generate`: valid ShaderLab programs from the generator of `shaderlab-gen` (feature `generate`).
//!
//! `shaderlab generate --seed 7` prints one program; `--count K --out DIR` writes `gen-<seed>.shader` for the
//! seeds `seed .. seed+K`, and with `--target` also compiles each one (preserving mode, the engine's header
//! prepended so that every file compiles standalone) into `gen-<seed>/<pass>.vert` and `<pass>.frag`, named as
//! `compile --out-dir` names them. The same seed and options always give the same bytes.

use crate::{print_module_diagnostics, write_sources, Format, TargetArg};
use clap::ValueEnum;
use shaderlab::{compile_report, MapResolver, Options, Target};
use shaderlab_gen::{program_from_seed, GeneratorConfig};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Preset {
    /// Every feature, GLSL ES 3.00 constructs included.
    Default,
    /// Shallow expressions, short blocks, one helper per pass.
    Small,
    /// No construct GLSL ES 1.00 lacks (the default with `--target gles100`).
    Es100,
}

#[derive(clap::Args)]
pub struct GenerateArgs {
    /// The first seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many programs (seeds SEED, SEED+1, ...).
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// Sizes and features [default: default, or es100 with --target gles100].
    #[arg(long, value_enum)]
    preset: Option<Preset>,
    /// Passes per program.
    #[arg(long)]
    passes: Option<usize>,
    /// Helper functions per pass (the program grows linearly with it).
    #[arg(long, value_name = "N")]
    helpers: Option<usize>,
    /// Write `gen-<seed>.shader` files into DIR instead of printing.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Also compile each program (preserving mode, with the header) into `DIR/gen-<seed>/<pass>.vert|frag`.
    #[arg(long, value_enum, requires = "out")]
    target: Option<TargetArg>,
    /// Also print the macro names each program tests (to stderr).
    #[arg(long)]
    macros: bool,
    /// Always repeat a conditional parameter's region in call arguments (the generator's
    /// `Features::contextual_arguments` off).
    #[arg(long)]
    no_contextual_arguments: bool,
}

impl GenerateArgs {
    fn config(&self) -> GeneratorConfig {
        let preset = self.preset.unwrap_or(match self.target {
            Some(TargetArg::Gles100) => Preset::Es100,
            _ => Preset::Default,
        });
        let mut config = match preset {
            Preset::Default => GeneratorConfig::default(),
            Preset::Small => GeneratorConfig::small(),
            Preset::Es100 => GeneratorConfig::es100(),
        };
        if self.no_contextual_arguments {
            config.features.contextual_arguments = false;
        }
        if let Some(p) = self.passes {
            config.passes = p.max(1);
        }
        if let Some(h) = self.helpers {
            config.helper_functions = h;
        }
        config
    }
}

/// Exit code: 0, 1 when a program does not compile for `--target`, 2 when a file cannot be written.
pub fn run(args: &GenerateArgs) -> u8 {
    let config = args.config();
    if let Some(dir) = &args.out {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("error: cannot create {}: {e}", dir.display());
            return 2;
        }
    }
    let mut code = 0;
    for seed in args.seed..args.seed.saturating_add(args.count) {
        let program = program_from_seed(seed, &config);
        if args.macros {
            eprintln!("seed {seed}: macros {:?}", program.macros);
        }
        let Some(dir) = &args.out else {
            let _ = std::io::stdout().lock().write_all(program.source.as_bytes());
            continue;
        };
        let path = dir.join(format!("gen-{seed}.shader"));
        if let Err(e) = std::fs::write(&path, &program.source) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return 2;
        }
        if let Some(target) = args.target {
            code = code.max(compile_to(&program.source, &path, target.target(), &dir.join(format!("gen-{seed}"))));
        }
    }
    code
}

/// Compile one written program into `dir`; its diagnostics go to stderr when it is refused.
fn compile_to(source: &str, path: &Path, target: Target, dir: &Path) -> u8 {
    let file = path.display().to_string();
    let options = Options { file_name: file.clone(), ..Options::default() };
    let backend = shaderlab::backends::Options { header: true };
    let compiled = compile_report(source, &MapResolver::new(), &options, target, &backend);
    if compiled.has_errors() {
        eprintln!("error: {file} does not compile for {}", target.name());
        let _ = print_module_diagnostics(&compiled.module, &compiled.diagnostics, Format::Human, &file, true);
        return 1;
    }
    if let Err(e) = write_sources(&compiled, dir) {
        eprintln!("error: cannot write to {}: {e}", dir.display());
        return 2;
    }
    0
}
