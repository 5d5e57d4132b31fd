#!/usr/bin/env python3
"""Same meaning as the engine: for every dev/2.0 corpus pass with an engine variant (reference/dev2/<file>/
S-P.es300.{vert,frag}.expanded.glsl and S-P.es300.expanded.macros.txt), compile ours for GLSL ES 3.00 with the
same macros and draw both programs with shared/tools/render-diff.mjs (identical inputs chosen by name, headless
WebGL 2, pixels compared).

Setup (once, as root): ../shared/tools/setup-oracles.sh webgl
Run: python3 scripts/render_diff.py [--png-dir DIR]      Exit 0 when every comparable pass matches.
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from oracles_common import CORPUS, ROOT, build, compile_json, macro_list, program_passes

HEADER = "#version 300 es\n"
# Variants the compiler refuses with a diagnostic, as it should: the source calls getSkinMatrix(), which Skin.glsl
# defines only under RENDERER_HAS_SKIN (the engine's own program calls an undefined function here).
EXPECTED_REFUSALS = {"dev_2.0__shaderlab-05-advance__1.0-0"}


def main():
    differ = ROOT.parent / "shared" / "tools" / "render-diff.mjs"
    build()
    passes = []
    for reference in sorted((CORPUS / "reference" / "dev2").iterdir()):
        if not reference.name.startswith("dev_2.0__"):
            continue
        shader = next((p for p in (CORPUS / "shaders").iterdir() if p.stem == reference.name), None)
        if shader is None:
            continue
        for macros_file in sorted(reference.glob("*.es300.expanded.macros.txt")):
            index = macros_file.name.split(".")[0]  # "S-P"
            ref_vert = reference / f"{index}.es300.vert.expanded.glsl"
            ref_frag = reference / f"{index}.es300.frag.expanded.glsl"
            if not (ref_vert.exists() and ref_frag.exists()):
                continue
            result = compile_json(shader, "gles300", macro_list(macros_file), header=True)
            ours = None
            if result is not None:
                for s, p, pass_ in program_passes(result):
                    if f"{s}-{p}" == index:
                        ours = {"vert": pass_["vertex"], "frag": pass_["fragment"]}
            ref = {"vert": ref_vert.read_text(), "frag": ref_frag.read_text()}
            for stage in ("vert", "frag"):
                if not ref[stage].lstrip().startswith("#version"):
                    ref[stage] = HEADER + (
                        "precision highp float;\nprecision highp int;\n" if stage == "frag" else "") + ref[stage]
            passes.append({"name": f"{reference.name}.{index}", "ref": ref, "ours": ours})
    job = Path(tempfile.mkdtemp(prefix="shaderlab-render-")) / "job.json"
    job.write_text(json.dumps({"passes": passes}))
    print(f"{len(passes)} passes in {job}")
    run = subprocess.run(["node", str(differ), str(job)] + sys.argv[1:], capture_output=True, text=True)
    sys.stderr.write(run.stderr[-5000:])
    try:
        results = json.loads(run.stdout)["results"]
    except (ValueError, KeyError):
        print(run.stdout[-5000:])
        sys.exit(2)
    counts = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
        if r["status"] != "match":
            print(f"{r['status']}: {r['name']}")
    print("summary:", counts)
    bad = sum(1 for r in results if r["status"] in ("differs", "ours-link-failed", "ours-missing", "error")
              and r["name"] not in EXPECTED_REFUSALS)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
