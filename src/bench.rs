//! `shaderlab bench`: time a prefix of the pipeline on one file, in-process, after a warm-up.
//!
//! Includes are read from disk once, before timing (an embedding editor or build keeps its chunks in
//! memory); what is timed is exactly what a library user pays per call.

use crate::{analyze, compile_report, IncludeResolver, Options, Target};
use serde::Serialize;
use std::time::Instant;

/// How much of the pipeline one iteration runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchStage {
    /// The frontend: preprocessing, structure and GLSL parsing straight into the IR.
    Parse,
    /// `analyze`: the frontend, the passes and the diagnostics (what `shaderlab check` does).
    Check,
    /// `compile_report`: the whole compile, every pass, both stages, one target.
    Compile,
}

/// Microseconds per iteration over the timed iterations.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Timing {
    pub median_us: f64,
    pub min_us: f64,
    pub max_us: f64,
    pub iterations: usize,
}

impl Timing {
    /// Median, min and max of `samples` (microseconds); `None` when there are none.
    pub fn from_samples(mut samples: Vec<f64>) -> Option<Timing> {
        if samples.is_empty() {
            return None;
        }
        samples.sort_by(f64::total_cmp);
        let n = samples.len();
        let median = if n % 2 == 1 { samples[n / 2] } else { (samples[n / 2 - 1] + samples[n / 2]) / 2.0 };
        Some(Timing { median_us: median, min_us: samples[0], max_us: samples[n - 1], iterations: n })
    }
}

/// Run `stage` on `source` `warmup` times untimed, then `iterations` times timed. The result of every
/// iteration is dropped inside the timed region (freeing is part of the cost). Returns `None` when
/// `iterations` is 0.
pub fn bench(
    source: &str,
    includes: &dyn IncludeResolver,
    options: &Options,
    target: Target,
    stage: BenchStage,
    warmup: usize,
    iterations: usize,
) -> Option<Timing> {
    let backend_options = crate::backends::Options::default();
    let once = || match stage {
        BenchStage::Parse => drop(std::hint::black_box(crate::parse(source, includes, options))),
        BenchStage::Check => drop(std::hint::black_box(analyze(source, includes, options))),
        BenchStage::Compile => {
            drop(std::hint::black_box(compile_report(source, includes, options, target, &backend_options)))
        }
    };
    for _ in 0..warmup {
        once();
    }
    let samples = (0..iterations)
        .map(|_| {
            let start = Instant::now();
            once();
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    Timing::from_samples(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        let t = Timing::from_samples(vec![5.0, 1.0, 3.0]).unwrap();
        assert_eq!((t.median_us, t.min_us, t.max_us, t.iterations), (3.0, 1.0, 5.0, 3));
        let t = Timing::from_samples(vec![4.0, 1.0, 2.0, 8.0]).unwrap();
        assert_eq!((t.median_us, t.min_us, t.max_us), (3.0, 1.0, 8.0));
        assert!(Timing::from_samples(Vec::new()).is_none());
    }
}
