//! shaderlab-fuzz: the mutation-fuzzing harness behind the `fuzz_*` binaries, and the property tests of the
//! compiler (`fuzz/tests/`).
//!
//! The program generator lives in the `shaderlab-gen` crate (`fuzz/gen/`, which the `shaderlab generate`
//! subcommand uses too) and is re-exported here whole, so `shaderlab_fuzz::program_from_seed`,
//! `shaderlab_fuzz::gen::expr_of` or `shaderlab_fuzz::mistakes::insert` are the generator's items.
//!
//! ```
//! use shaderlab_fuzz::{program_from_seed, GeneratorConfig};
//! let program = program_from_seed(7, &GeneratorConfig::default());
//! assert!(program.source.starts_with("Shader "));
//! ```

pub mod harness;
pub mod mutator;

pub use shaderlab_gen::*;
pub use shaderlab_gen::{ast, config, gen, mistakes, render, scope, ty};
