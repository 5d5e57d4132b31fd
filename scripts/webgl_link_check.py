#!/usr/bin/env python3
"""Link check in a real browser: every pass of every valid corpus shader, compiled for GLSL ES 1.00 (WebGL 1) and
3.00 (WebGL 2) in variant mode with the engine's platform macros, must compile and link in headless Chromium
(ANGLE), through shared/tools/webgl/webgl-check.mjs.

Setup (once, as root): ../shared/tools/setup-oracles.sh webgl
Run: python3 scripts/webgl_link_check.py        Exit 0 when every pair links, 1 otherwise.
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from oracles_common import ORACLES, build, compile_json, program_passes, valid_shaders

PLATFORM = {"gles100": [("GRAPHICS_API_WEBGL1", ""), ("HAS_TEX_LOD", ""), ("HAS_DERIVATIVES", "")],
            "gles300": [("GRAPHICS_API_WEBGL2", ""), ("HAS_TEX_LOD", ""), ("HAS_DERIVATIVES", "")]}
API = {"gles100": "webgl1", "gles300": "webgl2"}


def main():
    checker = ORACLES / "webgl" / "webgl-check.mjs"
    if not checker.exists():
        sys.exit(f"missing {checker}: run ../shared/tools/setup-oracles.sh webgl")
    build()
    out = Path(tempfile.mkdtemp(prefix="shaderlab-webgl-"))
    pairs = []
    for shader in valid_shaders():
        for target in ("gles100", "gles300"):
            result = compile_json(shader, target, PLATFORM[target], header=False)
            if result is None:
                continue
            for s, p, pass_ in program_passes(result):
                name = f"{shader.stem}.{s}-{p}.{target}"
                vert, frag = out / f"{name}.vert", out / f"{name}.frag"
                vert.write_text(pass_["vertex"])
                frag.write_text(pass_["fragment"])
                pairs.append({"vert": str(vert), "frag": str(frag), "api": API[target], "name": name})
    listing = out / "pairs.json"
    listing.write_text(json.dumps(pairs, indent=1))
    print(f"{len(pairs)} program pairs in {out}")
    run = subprocess.run(["node", str(checker), "--pairs", str(listing)], capture_output=True, text=True)
    print(run.stdout[-20000:])
    sys.stderr.write(run.stderr[-5000:])
    ok = run.stdout.count("\nOK ") + run.stdout.startswith("OK ")
    print(f"linked: {ok} of {len(pairs)}")
    sys.exit(run.returncode)


if __name__ == "__main__":
    main()
