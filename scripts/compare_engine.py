#!/usr/bin/env python3
"""Side by side: the engine's ShaderLab compiler (npm @galacean/engine-shader-lab 1.3.30, v1 syntax) against
`shaderlab bench`, whole-file compile for one target, median per file, and the ratio.

    ../shared/tools/setup-oracles.sh peer          # once (installs the npm package under ~/.cache/shaderlab-oracles)
    python3 scripts/compare_engine.py [--iterations 200] [--rounds 1] [--target gles300] [--json OUT]
    SHADERLAB_BIN=target/pgo/release/shaderlab python3 scripts/compare_engine.py ...   # the PGO build (scripts/pgo-build.sh)

The set: every v1-syntax corpus file (branches 1.3-1.5 and refactor-shaderlab-old) that both compilers compile
without error; files one of them refuses are listed with the reason and left out of the ratio. Both sides time
in-process after the same number of untimed warm-up runs (as many as timed, at most 100), includes already in
memory. Exit code 0 whatever the ratio (this is a measurement, not a test).

On a shared machine a single timing can be off by up to 2x either way. `--rounds N` times every file N times on
each side, alternating the two sides, and takes each side's median of its N medians; the geometric mean of every
round is printed too, so the spread is visible. With more than one round, a second ratio per file divides the
fastest of the engine's N medians by the fastest of ours ("fast rounds"): the shared host switches between a fast
and a slow state from one run to the next, on both sides alike (the smallest file, six back-to-back rounds of runs:
ours 9.6-9.9 or 14.3-18.1 us, the engine's 0.31-0.34 or 0.39-0.62 ms), and the fastest round of each side is
its reading in the fast state.

Mode: the engine's 1.3 compiler evaluates the macros at compile time (one variant, with its platform macros
HAS_TEX_LOD, HAS_DERIVATIVES and GRAPHICS_API_WEBGL1/2). By default shaderlab compiles the same variant (`-D` of
those macros); `--mode preserving` times shaderlab's preserving compile instead (every variant kept in the output:
more work than the engine does).
"""
import argparse
import json
import math
import statistics
import subprocess
import sys

from oracles_common import BIN, CORPUS, ORACLES, build, include_args


def v1_files():
    for path in sorted((CORPUS / "shaders").iterdir()):
        if not path.name.startswith("dev_2.0__"):
            yield path


def peer_compiles(peer, path, target):
    out = subprocess.run(["node", str(peer), str(path), target, "--json", "--quiet"], capture_output=True, text=True)
    try:
        result = json.loads(out.stdout)
    except json.JSONDecodeError:
        return False, "no JSON (the engine compiler threw)"
    if not result.get("ok"):
        errors = result.get("fileErrors", []) + [e for p in result.get("passes", []) for e in p.get("errors", [])]
        return False, "engine: " + (str(errors[0])[:60] if errors else "not ok")
    return True, ""


def warmup_runs(iterations):
    """The untimed runs before the timed ones, the same on both sides: `shaderlab bench` warms up with as many runs
    as it times, at most 100 (src/main.rs); the engine's script defaults to 5, which left its JIT colder than our
    side (after 5 warm-up runs the smallest file, `renderState`, took 0.52 ms, after 100 0.30 ms; `template` and
    `shader-lab` 5-10% more; the large files the same)."""
    return max(1, min(iterations, 100))


def peer_median_ms(peer, path, target, iterations):
    out = subprocess.run(["node", str(peer), str(path), target, "--bench", str(iterations),
                          "--warmup", str(warmup_runs(iterations)), "--json", "--quiet"],
                         capture_output=True, text=True)
    return json.loads(out.stdout)["median_ms"]


def mode_args(mode, target):
    if mode == "preserving":
        return []
    api = "GRAPHICS_API_WEBGL2" if target == "gles300" else "GRAPHICS_API_WEBGL1"
    return [arg for m in ("HAS_TEX_LOD", "HAS_DERIVATIVES", api) for arg in ("-D", m)]


def ours_compiles(path, target, mode):
    out = subprocess.run([str(BIN), "compile", str(path), "--target", target, "--format", "json"]
                         + include_args(path.name) + mode_args(mode, target), capture_output=True, text=True)
    return out.returncode == 0


def ours_timing(path, target, iterations, mode):
    out = subprocess.run([str(BIN), "bench", str(path), "--target", target, "--iterations", str(iterations),
                          "--format", "json"] + include_args(path.name) + mode_args(mode, target),
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=1,
                    help="time every file this many times on each side and take each side's median (default 1)")
    ap.add_argument("--target", choices=["gles100", "gles300"], default="gles300")
    ap.add_argument("--mode", choices=["variant", "preserving"], default="variant",
                    help="shaderlab compiles the engine's variant (default) or in preserving mode")
    ap.add_argument("--json", help="also write the table as JSON here")
    args = ap.parse_args()
    if args.rounds < 1 or args.iterations < 1:
        ap.error("--rounds and --iterations must be at least 1")
    peer = ORACLES / "peer" / "compile.mjs"
    if not peer.exists():
        sys.exit(f"the engine compiler is not installed ({peer}): run ../shared/tools/setup-oracles.sh peer")
    build()
    rows, skipped, files = [], [], []
    for path in v1_files():
        ok, why = peer_compiles(peer, path, args.target)
        if not ok:
            skipped.append((path.name, why))
            continue
        if not ours_compiles(path, args.target, args.mode):
            skipped.append((path.name, "shaderlab refuses it (see `shaderlab check`)"))
            continue
        files.append(path)
    engine = {p: [] for p in files}
    ours = {p: [] for p in files}
    for _ in range(args.rounds):
        for path in files:
            engine[path].append(peer_median_ms(peer, path, args.target, args.iterations))
            ours[path].append(ours_timing(path, args.target, args.iterations, args.mode))
    for path in files:
        engine_ms = statistics.median(engine[path])
        ours_us = statistics.median(t["median_us"] for t in ours[path])
        fast_ratio = min(engine[path]) * 1000.0 / min(t["median_us"] for t in ours[path])
        rows.append({"file": path.name, "engine_median_ms": engine_ms, "shaderlab_median_us": ours_us,
                     "shaderlab_min_us": min(t["min_us"] for t in ours[path]), "ratio": engine_ms * 1000.0 / ours_us,
                     "fast_rounds_ratio": fast_ratio})
    print(f"shaderlab binary: {BIN}")
    fast = args.rounds > 1
    print(f"{'file':<48} {'engine ms':>10} {'shaderlab us':>13} {'ratio':>8}" + (f" {'fast rounds':>12}" if fast else ""))
    for r in rows:
        print(f"{r['file']:<48} {r['engine_median_ms']:>10.3f} {r['shaderlab_median_us']:>13.1f} {r['ratio']:>7.1f}x"
              + (f" {r['fast_rounds_ratio']:>11.1f}x" if fast else ""))
    geomean = geometric_mean([r["ratio"] for r in rows])
    worst = min(rows, key=lambda r: r["ratio"]) if rows else None
    print(f"mode: {args.mode}; geometric mean ratio: {geomean:.1f}x over {len(rows)} files"
          + (f"; lowest {worst['ratio']:.1f}x ({worst['file']})" if worst else ""))
    fast_geomean = None
    if fast and rows:
        fast_geomean = geometric_mean([r["fast_rounds_ratio"] for r in rows])
        fast_worst = min(rows, key=lambda r: r["fast_rounds_ratio"])
        print(f"fast rounds (each side's fastest round): geometric mean {fast_geomean:.1f}x; lowest "
              f"{fast_worst['fast_rounds_ratio']:.1f}x ({fast_worst['file']}); "
              f"{sum(r['fast_rounds_ratio'] >= 50 for r in rows)} of {len(rows)} files at 50x or more")
        per_round = [geometric_mean([engine[p][i] * 1000.0 / ours[p][i]["median_us"] for p in files])
                     for i in range(args.rounds)]
        print("geometric mean of each round: " + ", ".join(f"{g:.1f}x" for g in per_round))
    for name, why in skipped:
        print(f"left out: {name}: {why}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"target": args.target, "mode": args.mode, "iterations": args.iterations, "rounds": args.rounds,
                       "rows": rows, "geomean": geomean,
                       "fast_rounds_geomean": fast_geomean,
                       "left_out": [{"file": n, "why": w} for n, w in skipped]}, f, indent=2)


if __name__ == "__main__":
    main()
