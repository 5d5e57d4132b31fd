#!/usr/bin/env bash
# Build a profile-guided (PGO) release binary of the `shaderlab` CLI: target/pgo/release/shaderlab.
#
#   scripts/pgo-build.sh            # instrumented build, training run, optimized build
#
# Same source, same outputs (every compile/check output is byte-identical to the plain release build's); only
# LLVM's code layout, inlining and branch decisions follow a measured profile. The training run uses only what
# is in this repository: the examples, the test fixtures (valid and invalid programs) and programs from
# `shaderlab generate` (small, medium and large, both targets, with and without macros). It does NOT train on
# ../shared/corpus, the files the side-by-side comparison measures, so the comparison stays a held-out test.
#
# Needs the `llvm-tools` rustup component of the active toolchain (installed here when missing) for
# `llvm-profdata`, whose profile format must match rustc's LLVM. Build directories: target/pgo-gen (instrumented)
# and target/pgo (optimized); the profile in target/pgo-data.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

SYSROOT="$(rustc --print sysroot)"
HOST="$(rustc -vV | sed -n 's/^host: //p')"
PROFDATA="$SYSROOT/lib/rustlib/$HOST/bin/llvm-profdata"
if [ ! -x "$PROFDATA" ]; then
  echo "pgo-build: installing the llvm-tools component (for llvm-profdata)" >&2
  rustup component add llvm-tools
fi
[ -x "$PROFDATA" ] || { echo "pgo-build: $PROFDATA not found after installing llvm-tools" >&2; exit 1; }

DATA="$ROOT/target/pgo-data"
WORK="$ROOT/target/pgo-train"
rm -rf "$DATA" "$WORK"
mkdir -p "$DATA" "$WORK"

echo "pgo-build: 1/3 instrumented build (target/pgo-gen)" >&2
RUSTFLAGS="-Cprofile-generate=$DATA -Cllvm-args=-vp-counters-per-site=4" cargo build --release --bin shaderlab --target-dir "$ROOT/target/pgo-gen" -q
GEN="$ROOT/target/pgo-gen/release/shaderlab"

echo "pgo-build: 2/3 training run" >&2
# Generated programs: small, default-sized and large (more helpers), with and without macros, ES 1.00-only.
"$GEN" generate --seed 100 --count 6 --preset small --out "$WORK/small" >/dev/null 2>&1
"$GEN" generate --seed 200 --count 4 --out "$WORK/medium" >/dev/null 2>&1
"$GEN" generate --seed 300 --count 3 --macros --out "$WORK/macros" >/dev/null 2>&1
"$GEN" generate --seed 400 --count 2 --helpers 8 --out "$WORK/large" >/dev/null 2>&1
"$GEN" generate --seed 500 --count 3 --preset es100 --out "$WORK/es100" >/dev/null 2>&1
train() { # FILE [args...]: the whole pipeline, both targets, and the check alone
  local f="$1"; shift
  "$GEN" bench "$f" "$@" --target gles300 --iterations 40 >/dev/null 2>&1 || true
  "$GEN" bench "$f" "$@" --target gles100 --iterations 20 >/dev/null 2>&1 || true
  "$GEN" check "$f" "$@" >/dev/null 2>&1 || true
}
for f in "$WORK"/*/*.shader; do train "$f"; done
for f in examples/*.shader; do train "$f" -I examples/includes; done
for f in tests/fixtures/*/*.shader; do
  train "$f" -I "$(dirname "$f")/includes"
  "$GEN" compile "$f" --target gles300 --format json >/dev/null 2>&1 || true
done
"$GEN" check --all-variants examples/lit-includes.shader -I examples/includes >/dev/null 2>&1 || true

echo "pgo-build: 3/3 optimized build (target/pgo)" >&2
"$PROFDATA" merge -o "$DATA/merged.profdata" "$DATA"/*.profraw
RUSTFLAGS="-Cprofile-use=$DATA/merged.profdata -Cllvm-args=-pgo-warn-missing-function=false" \
  cargo build --release --bin shaderlab --target-dir "$ROOT/target/pgo" -q
rm -rf "$WORK"
echo "pgo-build: done: $ROOT/target/pgo/release/shaderlab" >&2
