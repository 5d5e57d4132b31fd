//! Print generated ShaderLab programs: `generate --seed 7`, or write many: `generate --seed 1 --count 100
//! --out DIR` (files `gen-<seed>.shader`). The same seed and preset always give the same program.
//!
//! `cargo run -p shaderlab-fuzz --bin generate -- --seed 7 --preset es100`

use clap::{Parser, ValueEnum};
use shaderlab_fuzz::{program_from_seed, GeneratorConfig};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Preset {
    Default,
    Small,
    Es100,
}

#[derive(Parser, Debug)]
struct Cli {
    /// The first seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many programs (seeds seed, seed+1, ...).
    #[arg(long, default_value_t = 1)]
    count: u64,
    #[arg(long, value_enum, default_value_t = Preset::Default)]
    preset: Preset,
    /// Passes per program.
    #[arg(long)]
    passes: Option<usize>,
    /// Write `gen-<seed>.shader` files here instead of printing.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also print the macro names each program tests (to stderr).
    #[arg(long)]
    macros: bool,
    /// Always repeat a conditional parameter's region in call arguments (see `Features::contextual_arguments`).
    #[arg(long)]
    no_contextual_arguments: bool,
}

fn main() -> std::io::Result<()> {
    let cli = Cli::parse();
    let mut config = match cli.preset {
        Preset::Default => GeneratorConfig::default(),
        Preset::Small => GeneratorConfig::small(),
        Preset::Es100 => GeneratorConfig::es100(),
    };
    if cli.no_contextual_arguments {
        config.features.contextual_arguments = false;
    }
    if let Some(p) = cli.passes {
        config.passes = p.max(1);
    }
    if let Some(dir) = &cli.out {
        std::fs::create_dir_all(dir)?;
    }
    for seed in cli.seed..cli.seed.saturating_add(cli.count) {
        let program = program_from_seed(seed, &config);
        if cli.macros {
            eprintln!("seed {seed}: macros {:?}", program.macros);
        }
        match &cli.out {
            Some(dir) => std::fs::write(dir.join(format!("gen-{seed}.shader")), &program.source)?,
            None => print!("{}", program.source),
        }
    }
    Ok(())
}
