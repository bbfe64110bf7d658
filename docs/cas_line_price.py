#!/usr/bin/env python3
"""cas_line_price.py - reads the GPU's price of a counted sub-word CAS attempt
from the probes with counted attempts (`vkbench --count-cas`), the evidence
for model.cas_line_lane_cycles (docs/findings.md 49).

For each contended 8- or 16-bit CAS histogram row it prints the kernel time
less a 4.4 us floor, in SM cycles, over the GPU's counted attempts on the
busiest slice (the lines placed by the config's slice hash, as
mdl_slice_of_line places them): rows of one line (at least 128 resident
lanes a word) by the words of that line, then rows of several lines (at
least 32 resident lanes a word) by their lines.  Its last line is the key's
initial guess: the median over the rows of one line of 16 to 32 words.
Resident lanes come from `atomsim run --engine model` (its wg_per_sm), the
clock, SM count and slice hash from `atomsim config --dump`.  With --truth
it prints instead the model's predicted / measured time on the spent truth
sets' sub-word rows (`atomsim validate --engine model --format csv`), by
the lines their bins fill: what the line price leaves.  The probes are
development data; the truth sets read by --truth are all spent.  Run from
the repository root after `make`:

    python3 docs/cas_line_price.py           # under a second
    python3 docs/cas_line_price.py --truth   # a few seconds
"""
import csv
import glob
import io
import math
import re
import sys
import statistics
import subprocess

PROBES = [  # (config, probe)
    ("configs/h100.ini", "validate/data/probes/h100-cas-counts-random.csv"),
    ("configs/h200.ini", "validate/data/probes/h200-cas-counts-random.csv"),
] + [("configs/%s.ini" % g, "validate/data/probes/%s-cas-attempts%s.csv" % (g, s))
     for g in ("h100", "h200") for s in ("", "-2", "-3", "-4")]
FLOOR_US = 4.4


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def config_keys(config):
    out = subprocess.run(["build/atomsim", "config", "--config", config, "--dump"],
                         capture_output=True, text=True, check=True).stdout
    keys, section = {}, ""
    for line in out.splitlines():
        line = line.split(";")[0].strip()
        if line.startswith("["):
            section = line.strip("[]")
        elif "=" in line:
            k, v = (x.strip() for x in line.split("=", 1))
            keys[section + "." + k] = v
    return keys


def busiest_share(keys, lines):
    """The busiest slice's share of `lines` equally loaded lines (mod hash)."""
    mask, il = int(keys["l2.hash_ignore_mask"]), int(keys["l2.interleave_lines"])
    slices = int(keys["l2.slice_count"])
    kept = [b for b in range(mask.bit_length()) if not mask >> b & 1]
    count = {}
    for line in range(lines):
        q = line // il
        packed = sum((q >> b & 1) << i for i, b in enumerate(kept)) | (q >> mask.bit_length()) << len(kept)
        count[packed % slices] = count.get(packed % slices, 0) + 1
    return max(count.values()) / lines


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
    by_words, one_line, by_lines = {}, [], {}
    for config, probe in PROBES:
        keys = config_keys(config)
        clock_mhz, sms = float(keys["gpu.sm_clock_mhz"]), int(keys["gpu.sm_count"])
        line_words = int(keys["coalesce.line_bytes"]) // 4
        for r in rows(probe):
            if r["pattern"] not in ("histogram-u8-cas", "histogram-u16-cas") or not r.get("cas_attempts"):
                continue
            per_word = 4 if r["pattern"] == "histogram-u8-cas" else 2
            words = max(1, math.ceil(int(r["bins"]) / per_word))
            lines = math.ceil(words / line_words)
            n, wg = int(r["n"]), int(r["wg"])
            resident = min(n, wg_per_sm(config, r) * sms * wg)
            cycles = (float(r["time_us_median"]) - FLOOR_US) * clock_mhz
            if lines > 1:
                if resident / words >= 32:
                    bucket = 2 if lines == 2 else 4 if lines <= 8 else 16 if lines <= 32 else 64
                    price = cycles / (float(r["cas_attempts"]) * busiest_share(keys, lines))
                    by_lines.setdefault(bucket, []).append(price)
                continue
            if resident / words < 128:
                continue
            price = cycles / float(r["cas_attempts"])
            by_words.setdefault(words, []).append(price)
            if words >= 16:
                one_line.append(price)
    print("words of the line  rows  cycles a counted attempt (median, range)")
    for w in sorted(by_words):
        v = by_words[w]
        print("%17d %5d  %.2f (%.2f-%.2f)" % (w, len(v), statistics.median(v), min(v), max(v)))
    print("lines (up to)      rows  cycles a counted attempt on the busiest slice (median, range)")
    for b in sorted(by_lines):
        v = by_lines[b]
        print("%17s %5d  %.2f (%.2f-%.2f)" % (b if b < 64 else "more", len(v), statistics.median(v), min(v), max(v)))
    print("one line of 16-32 words: %d rows, median %.2f cycles a counted attempt"
          % (len(one_line), statistics.median(one_line)))


def truth():
    by_lines = {}
    for path in sorted(glob.glob("validate/truth/routing-*-h[12]00.csv")):
        if not re.search(r"routing-[0-9]+-h[12]00\.csv$", path):
            continue
        gpu = "h100" if path.endswith("h100.csv") else "h200"
        out = subprocess.run(["build/atomsim", "validate", "--config", "configs/%s.ini" % gpu, "--data", path,
                              "--engine", "model", "--only", "histogram-u8-cas,histogram-u16-cas", "--format", "csv"],
                             capture_output=True, text=True, check=True).stdout
        for r in csv.DictReader(io.StringIO("".join(l for l in out.splitlines(True) if not l.startswith("#")))):
            if r["status"] != "ok":
                continue
            per_word = 4 if r["pattern"] == "histogram-u8-cas" else 2
            lines = math.ceil(max(1, math.ceil(int(r["bins"]) / per_word)) / 32)
            bucket = "1" if lines == 1 else "2" if lines == 2 else "3+"
            by_lines.setdefault(bucket, []).append(float(r["predicted_us"]) / float(r["measured_us"]))
    print("lines  rows  model / measured (median)  |error| (median)")
    for b in sorted(by_lines):
        v = by_lines[b]
        print("%5s %5d  %.3f  %.1f%%" % (b, len(v), statistics.median(v), 100 * statistics.median(abs(x - 1) for x in v)))


if __name__ == "__main__":
    truth() if sys.argv[1:] == ["--truth"] else main()
