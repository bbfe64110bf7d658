#!/usr/bin/env python3
"""cas_count_law.py - fits the model's count law for cas-append's race
(model.cas_saving_knee_lanes, model.cas_saving_exponent; docs/findings.md 48)
to the attempts the GPU counted (`vkbench --count-cas`) in the probes below.

For each grid point it asks `atomsim validate --engine model` for every
contended row (the GPU counted more than 1.5 attempts a success) and scores
the mean |log(model attempts / GPU attempts)|; it prints the best ten and
first-come's score.  The rows are development probes, none of them a frozen
truth set.  Run from the repository root after `make`:

    python3 docs/cas_count_law.py        # about 2 s
"""
import csv
import io
import math
import statistics
import subprocess

ROWS = [  # (config, probe): every cas-append row the GPU counted
    ("configs/h100.ini", "validate/data/probes/h100-cas-append-count.csv"),
    ("configs/h100.ini", "validate/data/probes/h100-cas-counts-random.csv"),
    ("configs/h200.ini", "validate/data/probes/h200-cas-counts-random.csv"),
    ("configs/h100.ini", "validate/data/probes/h100-cas-round.csv"),
]
KNEES = [200, 250, 300, 350, 400, 500, 600]
EXPONENTS = [0.20, 0.22, 0.24, 0.26, 0.28, 0.30, 0.32, 0.34]


def log_ratios(knee, exponent):
    out = []
    for config, probe in ROWS:
        run = subprocess.run(["build/atomsim", "validate", "--config", config, "--data", probe, "--engine", "model",
                              "--only", "cas-append", "--format", "csv", "--no-progress",
                              "-p", "model.cas_saving_knee_lanes=%g" % knee,
                              "-p", "model.cas_saving_exponent=%g" % exponent],
                             capture_output=True, text=True, check=True)
        for r in csv.DictReader(io.StringIO(run.stdout)):
            gpu, model = r["measured_cas_attempts"], r["predicted_cas_attempts"]
            if not gpu or float(gpu) <= 0 or float(model) <= 0:
                continue
            successes = float(r["n"]) * float(r["selectivity"])
            if float(gpu) > 1.5 * successes:  # a race, not a lone lane's one attempt
                out.append(math.log(float(model) / float(gpu)))
    return out


def score(knee, exponent):
    logs = log_ratios(knee, exponent)
    return statistics.mean(abs(x) for x in logs), statistics.median(logs), len(logs)


def main():
    results = sorted((score(k, e), k, e) for k in KNEES for e in EXPONENTS)
    print("mean |log(model / GPU attempts)|, median log, rows: knee, exponent")
    for (mean, median, rows), k, e in results[:10]:
        print("  %.4f  %+.3f  %d: knee %g, exponent %g" % (mean, median, rows, k, e))
    mean, median, rows = score(300, 0)
    print("first-come (exponent 0): %.4f  %+.3f  %d" % (mean, median, rows))


if __name__ == "__main__":
    main()
