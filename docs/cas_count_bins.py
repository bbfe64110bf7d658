#!/usr/bin/env python3
"""cas_count_bins.py - an engine's compare-and-swap count and time against the
GPU's, binned by how many lanes race for a word.

Not part of the simulator: the evidence behind docs/findings.md section 41's
bullet on the model.  Reads a probe measured with `vkbench --count-cas`
(a cas_attempts column) and the engine's predictions for the same rows:

    grep -v '^#' validate/data/probes/h100-cas-counts-random.csv | cut -d, -f1-8 >/tmp/pts.csv
    build/atomsim sweep --config configs/h100.ini --points /tmp/pts.csv --engine model \
        --format csv --no-progress >/tmp/model.csv
    python3 docs/cas_count_bins.py validate/data/probes/h100-cas-counts-random.csv /tmp/model.csv 132

The last argument is the GPU's SM count.  Lanes racing for a word: for
cas-append, the selected lanes that are resident at once (min(n, resident
threads) x S); for the sub-word histograms, the resident threads over the
words their bins fill (4 bins a word at 8 bits, 2 at 16).  A row counts
only where both sides counted attempts.
"""
import csv
import math
import statistics
import sys

BINS = [(0, 10), (10, 100), (100, 1000), (1000, 5000), (5000, 20000), (20000, math.inf)]


def racing_lanes(gpu_row, model_row, sms):
    n, s, wg = float(gpu_row["n"]), float(gpu_row["selectivity"]), float(gpu_row["wg"])
    resident = float(model_row["wg_per_sm"]) * sms * wg
    if gpu_row["pattern"] == "cas-append":
        return min(n, resident) * s
    per_word = 4 if "u8" in gpu_row["pattern"] else 2
    return min(n, resident) / math.ceil(float(gpu_row["bins"]) / per_word)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: cas_count_bins.py PROBE.csv ENGINE.csv SM_COUNT")
    with open(sys.argv[1]) as f:
        gpu = list(csv.DictReader(line for line in f if not line.startswith("#")))
    with open(sys.argv[2]) as f:
        eng = list(csv.DictReader(f))
    sms = float(sys.argv[3])
    if len(gpu) != len(eng):
        sys.exit("the two files have %d and %d rows" % (len(gpu), len(eng)))
    per_bin = {b: [] for b in BINS}
    for g, m in zip(gpu, eng):
        if g["n"] != m["n"] or g["pattern"] != m["pattern"]:
            sys.exit("rows differ: %s %s against %s %s" % (g["pattern"], g["n"], m["pattern"], m["n"]))
        if not g.get("cas_attempts") or float(m["cas_attempts"]) <= 0:
            continue
        lanes = racing_lanes(g, m, sms)
        count = float(g["cas_attempts"]) / float(m["cas_attempts"])
        time = float(m["time_us"]) / float(g["time_us_median"])
        for b in BINS:
            if b[0] <= lanes < b[1]:
                per_bin[b].append((count, time))
    print("racing lanes a word   rows   GPU/engine count (median, range)   engine/GPU time (median)")
    for (lo, hi), rows in per_bin.items():
        if rows:
            counts = [r[0] for r in rows]
            print("%8g - %-8g   %4d   %.2f (%.2f-%.2f)                      %.2f" % (
                lo, hi, len(rows), statistics.median(counts), min(counts), max(counts),
                statistics.median(r[1] for r in rows)))


if __name__ == "__main__":
    main()
