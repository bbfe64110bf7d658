#!/usr/bin/env python3
"""cas_win_order.py - reads the order in which cas-append's threads won their
word on the GPU (vkbench --count-cas --win-order FILE) and says where the
GPU's saving over the first-come count N(N+1)/2 comes from.

Not part of the simulator: the evidence behind docs/findings.md's section on who
wins a contended word.  Each row of the wins file is one winner: its slot
(the count it stored, so its rank among winners), its thread, its
compare-and-swap count, and (newer files) what its first read saw.

A lane that won slot s after t attempts sat out s + 1 - t of the successes
before its win.  Summed over lanes that is exactly the saving over
first-come, where every waiting lane tries once per success.  The script
splits it: "at entry" is what each warp had already sat out at its first
win; if lanes sit out only before they first try, the share is 1.

usage: python3 docs/cas_win_order.py validate/data/traces/h100-cas-order-2-wins.csv.gz
       [--groups N,WG,S]   also list the workgroups that start trying
                           together in that row (within 12 successes)
The file may be gzipped (the kept ones are, NAME.csv.gz) or plain, as
vkbench writes it.  Prints one line a configuration.  Deterministic.
"""
import argparse
import collections
import csv
import gzip
import sys


def open_text(path):
    """The file as text, through gzip when it is gzipped (its magic bytes,
    not its name, decide: a renamed file still reads)."""
    with open(path, "rb") as f:
        magic = f.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt")
    return open(path)


def load(path):
    rows = collections.defaultdict(list)
    try:
        with open_text(path) as f:
            for r in csv.DictReader(l for l in f if not l.startswith("#")):
                key = (int(r["n"]), int(r["wg"]), float(r["selectivity"]))
                fr = r.get("first_read")
                rows[key].append((int(r["slot"]), int(r["thread"]),
                                  int(r["tries"]), int(fr) if fr else None))
    except (OSError, EOFError, KeyError, ValueError) as e:
        sys.exit(f"cas_win_order: {path}: not a --win-order file ({e})")
    return rows


def summary(v):
    """f, share of the saving at entry, same-warp-next, first-read median/max."""
    v = sorted(v)
    n = len(v)
    tries = sum(x[2] for x in v)
    missed = sum(s + 1 - t for s, _, t, _ in v)
    at_first = {}
    at_entry = 0
    for s, i, t, _ in v:
        at_first.setdefault(i >> 5, s + 1 - t)
        at_entry += at_first[i >> 5]
    same = sum(1 for a, b in zip(v, v[1:]) if a[1] >> 5 == b[1] >> 5)
    reads = sorted(x[3] for x in v if x[3] is not None)
    read = (reads[len(reads) // 2], reads[-1]) if reads else None
    return (tries / (n * (n + 1) / 2), at_entry / missed if missed else 1.0,
            same / max(n - 1, 1), read)


def groups(v, wg, gap=12):
    """Workgroups by the success at which their first lane started trying."""
    start = {}
    for s, i, t, _ in v:
        start[i // wg] = min(start.get(i // wg, 1 << 62), s + 1 - t)
    items = sorted((e, g) for g, e in start.items())
    out, cur = [], [items[0]]
    for e, g in items[1:]:
        if e - cur[-1][0] <= gap:
            cur.append((e, g))
        else:
            out.append(cur)
            cur = [(e, g)]
    out.append(cur)
    return [(c[0][0], sorted(g for _, g in c)) for c in out]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("wins")
    ap.add_argument("--groups", help="N,WG,S: the row whose entry groups to list")
    a = ap.parse_args()
    rows = load(a.wins)
    print(f"{'n':>8} {'wg':>5} {'S':>6} {'lanes':>6}  {'f':>5} {'at entry':>8} "
          f"{'same warp':>9}  first read (median/max)")
    for (n, wg, s), v in sorted(rows.items()):
        f, entry, same, read = summary(v)
        rd = f"{read[0]}/{read[1]}" if read else "-"
        print(f"{n:8d} {wg:5d} {s:6g} {len(v):6d}  {f:5.3f} {entry:8.2f} "
              f"{same:9.2f}  {rd}")
    if a.groups:
        try:
            n, wg, s = a.groups.split(",")
            key = (int(n), int(wg), float(s))
        except ValueError:
            sys.exit(f"cas_win_order: --groups '{a.groups}' is not N,WG,S")
        if key not in rows:
            sys.exit(f"cas_win_order: no row n={n} wg={wg} selectivity={s}")
        print(f"\nworkgroups that start trying together (n={n} wg={wg} S={s}):")
        for e, g in groups(sorted(rows[key]), key[1]):
            print(f"  after {e:6d} successes: {g}")


if __name__ == "__main__":
    main()
