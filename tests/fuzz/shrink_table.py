#!/usr/bin/env python3
"""shrink_table.py - cuts a cost table from `atomsim export` down to a seed
for the table fuzz target: each axis keeps a few of its values (the cells
and host cells taken to match), so the seed is a valid table of a few KB.

    python3 tests/fuzz/shrink_table.py IN.json OUT.json [KEEP=2] [PATTERN ...]
"""
import itertools
import json
import sys


def shrink(p, keep):
    axes = p["axes"]
    picks = []
    for a in axes:
        n = len(a["values"])
        idx = sorted(set([0, n - 1] + list(range(1, n - 1))[: max(0, keep - 2)]))[:keep] if n > 1 else [0]
        picks.append(idx)

    def subset(arrays, which):
        dims = [len(axes[i]["values"]) for i in which]
        strides = [1] * len(dims)
        for i in range(len(dims) - 2, -1, -1):
            strides[i] = strides[i + 1] * dims[i + 1]
        offs = [sum(c * s for c, s in zip(combo, strides))
                for combo in itertools.product(*[picks[i] for i in which])]
        out = {}
        for k, v in arrays.items():
            out[k] = "".join(v[o] for o in offs) if isinstance(v, str) else [v[o] for o in offs]
        return out, len(offs)

    p["cells"], p["cell_count"] = subset(p["cells"], list(range(len(axes))))
    host = [i for i, a in enumerate(axes) if not a["gpu_only"]]
    p["host_cells"], p["host_cell_count"] = subset(p["host_cells"], host)
    for a, idx in zip(axes, picks):
        a["values"] = [a["values"][i] for i in idx]


def main():
    src, dst = sys.argv[1], sys.argv[2]
    keep = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    only = set(sys.argv[4:])
    t = json.load(open(src))
    if only:
        t["patterns"] = [p for p in t["patterns"] if p["pattern"] in only]
    for p in t["patterns"]:
        shrink(p, keep)
    json.dump(t, open(dst, "w"), indent=1)


main()
