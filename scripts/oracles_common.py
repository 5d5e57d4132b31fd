"""Shared helpers of the browser oracle scripts: locating the corpus, the oracles and the compiler."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("SHADERLAB_CORPUS", ROOT.parent / "shared" / "corpus"))
ORACLES = Path(os.environ.get("ORACLES_HOME", Path.home() / ".cache" / "shaderlab-oracles"))
# SHADERLAB_BIN: measure another build of the CLI (e.g. the PGO build of scripts/pgo-build.sh) instead of
# target/release/shaderlab; it is then used as it is, not rebuilt.
BIN = Path(os.environ.get("SHADERLAB_BIN", ROOT / "target" / "release" / "shaderlab"))

# Inputs that are not valid ShaderLab as stored (tests/corpus.rs).
INVALID = ("1.4__shader-lab-multi-pass__1.shader", "builtin-function", "unlit", "compilation-error",
           "1.5__mrt-error1.shader", "dev_2.0__render-state.shader")


def build():
    if "SHADERLAB_BIN" in os.environ:
        return
    subprocess.run(["cargo", "build", "--release", "-q", "--manifest-path", str(ROOT / "Cargo.toml")], check=True)


def valid_shaders():
    for path in sorted((CORPUS / "shaders").iterdir()):
        if any(bad in path.name for bad in INVALID):
            continue
        yield path


def include_args(name):
    if name.startswith("dev_2.0__"):
        return ["-I", str(CORPUS / "includes" / "dev2")]
    return ["-I", str(CORPUS / "includes" / "v1.5"), "-I", str(CORPUS / "includes" / "tests-v1.5")]


def compile_json(path, target, defines, header):
    """The compile result of codegen.md, or None when the compiler refuses the variant (diagnostics printed)."""
    args = [str(BIN), "compile", str(path), "--target", target, "--format", "json"] + include_args(path.name)
    for name, value in defines:
        args += ["-D", f"{name}={value}" if value else name]
    if header:
        args.append("--header")
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(f"refused: {path.name} {target} {defines}\n{out.stdout[-2000:]}\n")
        return None
    return json.loads(out.stdout)


def program_passes(result):
    """(subshader index, pass index, pass) of every pass with sources."""
    for s, sub in enumerate(result.get("subShaders", [])):
        for p, pass_ in enumerate(sub.get("passes", [])):
            if pass_.get("vertex") is not None and pass_.get("fragment") is not None:
                yield s, p, pass_


def macro_list(path):
    pairs = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if line:
            name, _, value = line.partition(" ")
            pairs.append((name, value.strip()))
    return pairs
