#!/usr/bin/env python3
"""cas_line_price.py - reads the GPU's price of a counted sub-word CAS attempt
from the probes with counted attempts (`vkbench --count-cas`), the evidence
for model.cas_line_lane_cycles (docs/findings.md 49).

For each contended 8- or 16-bit CAS histogram row (at least 128 resident
lanes a word) it prints the kernel time less a 4.4 us floor, in SM cycles,
over the GPU's counted attempts, by the words of the one line the row's bins
fill.  Its last line is the key's initial guess: the median over the rows of
one line of 16 to 32 words.  Resident lanes come from `atomsim run --engine
model` (its wg_per_sm).  The rows are development probes, none of them a
frozen truth set.  Run from the repository root after `make`:

    python3 docs/cas_line_price.py       # about 2 s
"""
import csv
import math
import statistics
import subprocess

PROBES = [  # (config, probe)
    ("configs/h100.ini", "validate/data/probes/h100-cas-counts-random.csv"),
    ("configs/h200.ini", "validate/data/probes/h200-cas-counts-random.csv"),
] + [("configs/%s.ini" % g, "validate/data/probes/%s-cas-attempts%s.csv" % (g, s))
     for g in ("h100", "h200") for s in ("", "-2", "-3", "-4")]
FLOOR_US = 4.4
CLOCK_MHZ = 1980
SMS = 132


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def wg_per_sm(config, r):
    out = subprocess.run(["build/atomsim", "run", "--config", config, "--engine", "model", "--pattern",
                          r["pattern"], "--n", r["n"], "--wg", r["wg"], "--bins", r["bins"],
                          "--smem-per-wg", r["smem_per_wg"] or "0"],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0] == "wg_per_sm":
            return float(parts[1])
    raise SystemExit("no wg_per_sm for %s" % r)


def main():
    by_words, one_line = {}, []
    for config, probe in PROBES:
        for r in rows(probe):
            if r["pattern"] not in ("histogram-u8-cas", "histogram-u16-cas") or not r.get("cas_attempts"):
                continue
            per_word = 4 if r["pattern"] == "histogram-u8-cas" else 2
            words = max(1, math.ceil(int(r["bins"]) / per_word))
            if words > 32:
                continue  # one line only: past it the slice hash spreads the words
            n, wg = int(r["n"]), int(r["wg"])
            resident = min(n, wg_per_sm(config, r) * SMS * wg)
            if resident / words < 128:
                continue
            price = (float(r["time_us_median"]) - FLOOR_US) * CLOCK_MHZ / float(r["cas_attempts"])
            by_words.setdefault(words, []).append(price)
            if words >= 16:
                one_line.append(price)
    print("words of the line  rows  cycles a counted attempt (median, range)")
    for w in sorted(by_words):
        v = by_words[w]
        print("%17d %5d  %.2f (%.2f-%.2f)" % (w, len(v), statistics.median(v), min(v), max(v)))
    print("one line of 16-32 words: %d rows, median %.2f cycles a counted attempt"
          % (len(one_line), statistics.median(one_line)))


if __name__ == "__main__":
    main()
