#!/usr/bin/env python3
"""Does `shaderlab check` take time and memory linear in the input size? (issue 6)

Builds ShaderLab inputs of about 0.375, 0.75, 1.5 and 3 MB, each one pass made of many generated helper functions
(`shaderlab generate --helpers N`: valid programs, so `check` reports nothing), then runs
`shaderlab check FILE` on each under `/usr/bin/time -v` and prints size, wall time, CPU time (user + system, from
the kernel's accounting of the finished child), maximum resident set size, and per-MB ratios. Linear growth shows as flat per-MB columns; the last line compares the
largest input's per-MB figures with the smallest's (1.00 = exactly linear). The RSS/MB column subtracts the RSS of
`check` on a one-helper program (the binary's fixed cost).

Setup: `cargo build --release` (the script uses target/release/shaderlab, or --binary), and GNU time
(`apt-get install time`). Python 3 standard library only.

Run: python3 scripts/scaling.py [--sizes 0.375,0.75,1.5,3] [--runs 5] [--seed 1] [--keep DIR]

Generating the 3 MB input takes about 15 s and 4.5 GB of memory (the generator keeps proptest's value tree, about
1.5 kB per output byte); `check` itself needs far less. Wall times are the median of --runs runs; on a busy machine
they are noisy, the CPU times less so.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MB = 1024 * 1024


def generate(binary, seed, helpers, path):
    """Write the program with `helpers` helper functions in its one pass; its size in bytes."""
    with open(path, "wb") as out:
        subprocess.run([str(binary), "generate", "--seed", str(seed), "--helpers", str(helpers)], stdout=out,
                       check=True)
    return path.stat().st_size


def measure(binary, path):
    """(wall seconds, cpu seconds, max RSS in kB) of one `check` run, which must be clean."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-v", str(binary), "check", str(path)], capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU time from the kernel's accounting of waited-for children (microseconds; /usr/bin/time rounds to 10 ms).
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0 or not done.stdout.strip().startswith("0 errors"):
        sys.exit(f"check {path} did not pass (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")

    def field(name):
        m = re.search(rf"^\s*{re.escape(name)}: (.+)$", done.stderr, re.M)
        if not m:
            sys.exit(f"no '{name}' in /usr/bin/time output:\n{done.stderr}")
        return m.group(1)

    return wall, cpu, int(field("Maximum resident set size (kbytes)"))


def median_run(binary, path, runs):
    samples = [measure(binary, path) for _ in range(runs)]
    return tuple(statistics.median(s[i] for s in samples) for i in range(3))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", type=Path, default=ROOT / "target" / "release" / "shaderlab")
    parser.add_argument("--sizes", default="0.375,0.75,1.5,3", help="target sizes in MB, comma-separated")
    parser.add_argument("--runs", type=int, default=5, help="check runs per input (median)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="write the inputs here and keep them")
    args = parser.parse_args()
    if not args.binary.exists():
        sys.exit(f"no {args.binary}: run `cargo build --release` first (or pass --binary)")
    if not Path("/usr/bin/time").exists():
        sys.exit("no /usr/bin/time: install GNU time (apt-get install time)")
    sizes = [float(s) for s in args.sizes.split(",")]
    folder = args.keep or Path(tempfile.mkdtemp(prefix="shaderlab-scaling-"))
    folder.mkdir(parents=True, exist_ok=True)

    # Bytes per helper from a small program, then one correction per size (the generator is deterministic, so the
    # same seed and sizes give the same inputs every time).
    probe = folder / "probe.shader"
    per_helper = generate(args.binary, args.seed, 100, probe) / 100
    baseline = folder / "baseline.shader"
    generate(args.binary, args.seed, 1, baseline)
    _, _, base_rss = median_run(args.binary, baseline, args.runs)
    print(f"binary {args.binary}, seed {args.seed}, {args.runs} runs per input, {os.cpu_count()} CPUs; "
          f"baseline RSS (one helper) {base_rss / 1024:.1f} MB")
    header = (f"{'size MB':>8} {'helpers':>8} {'lines':>8} {'wall s':>8} {'cpu s':>8} {'RSS MB':>8} "
              f"{'wall s/MB':>10} {'cpu s/MB':>9} {'RSS MB/MB':>10}")
    print(header)
    print("-" * len(header))
    rows = []
    for target in sizes:
        helpers = max(1, round(target * MB / per_helper))
        path = folder / f"helpers-{target}MB.shader"
        size = generate(args.binary, args.seed, helpers, path)
        if abs(size - target * MB) > 0.03 * target * MB:
            helpers = max(1, round(helpers * target * MB / size))
            size = generate(args.binary, args.seed, helpers, path)
        lines = path.read_bytes().count(b"\n")
        wall, cpu, rss = median_run(args.binary, path, args.runs)
        mb = size / MB
        growth = (rss - base_rss) / 1024 / mb
        rows.append((mb, wall / mb, cpu / mb, growth))
        print(f"{mb:8.3f} {helpers:8d} {lines:8d} {wall:8.3f} {cpu:8.3f} {rss / 1024:8.1f} "
              f"{wall / mb:10.3f} {cpu / mb:9.3f} {growth:10.1f}")
    if len(rows) > 1:
        first, last = rows[0], rows[-1]
        print(f"largest / smallest per-MB: wall {last[1] / first[1]:.2f}, cpu {last[2] / first[2]:.2f}, "
              f"RSS {last[3] / first[3]:.2f} (input {last[0] / first[0]:.1f}x larger)")
    if args.keep is None:
        for f in folder.iterdir():
            f.unlink()
        folder.rmdir()
    else:
        print(f"inputs kept in {folder}")


if __name__ == "__main__":
    main()
