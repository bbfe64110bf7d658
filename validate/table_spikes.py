#!/usr/bin/env python3
"""table_spikes.py - counts the spikes of cost tables along each grid axis:
interior cells of the compare-and-swap patterns whose GPU time is more than
20% above both neighbours on that axis, or more than 20% below both
(docs/dispatch.md, section 6: how the anchor's shared memory was chosen).

usage: python3 validate/table_spikes.py TABLE.json ...
"""
import itertools
import json
import sys

PATTERNS = ("histogram-u8-cas", "histogram-u16-cas", "cas-append")


def spikes(p, axis):
    shape = [len(a["values"]) for a in p["axes"]]
    strides = [1] * len(shape)
    for k in range(len(shape) - 2, -1, -1):
        strides[k] = strides[k + 1] * shape[k + 1]
    g, s, count = p["cells"]["gpu_us"], strides[axis], 0
    for idx in itertools.product(*[range(n) for n in shape]):
        if 0 < idx[axis] < shape[axis] - 1:
            i = sum(a * b for a, b in zip(idx, strides))
            v, lo, hi = g[i], g[i - s], g[i + s]
            count += (v > 1.2 * lo and v > 1.2 * hi) or (v < lo / 1.2 and v < hi / 1.2)
    return count


for path in sys.argv[1:]:
    table = json.load(open(path))
    for p in table["patterns"]:
        if p["pattern"] in PATTERNS:
            names = [a["name"] for a in p["axes"]]
            counts = ", ".join(f"{names[k]} {spikes(p, k)}" for k in (2, 1, 0))
            print(f"{path} {p['pattern']}: {counts}")
