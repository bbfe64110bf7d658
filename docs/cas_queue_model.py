#!/usr/bin/env python3
"""cas_queue_model.py - a closed-loop queue model of one 32-bit word under a
compare-and-swap race, to test service orders against the GPU's own counts
(validate/data/probes/h100-cas-attempts-3.csv, vkbench --count-cas).

Not part of the simulator: an exploration aid for the retry finding in
docs/findings.md.  S SMs hold W warps each; every warp's 32 lanes loop on the word.  A
warp sends one request carrying its active lanes and their (shared) expected
value; the slice serves one request at a time for a + b * lanes cycles; the
first lane of a request whose value is current succeeds, the rest fail and
carry the new value back; the warp is back after its SM's round trip, and its next
request leaves through the SM's port, which also takes a + b * lanes cycles
a request (a 32-lane compare-and-swap holds it about 17 cycles: the GPU's
one-SM rows cost 470 cycles a success plus 17 a warp).  The order in which
the slice takes waiting requests is the question:

  fifo       first come, first served (what the simulator does)
  random     any waiting request, uniformly (arbitration with no memory)
  sm-rr      one first-come queue per SM, the SMs' heads taken in turn
  sm-random  one first-come queue per SM, a uniformly random SM's head
  sm-newest  one first-come queue per SM, the head that arrived last
             (favours the SM whose warp just had its reply)
  sm-sticky  one first-come queue per SM; the slice stays on the SM it
             served last while that SM has a request waiting, else takes
             the oldest head (vkbench --win-order shows one SM winning
             the word for all its lanes while others wait to enter)
  gpc-sticky the same with one queue per cluster of SMs (--gpcs of them,
             --gpc-map rr: SM s in cluster s mod gpcs; block: contiguous)
  gpc-newest one queue per cluster; the cluster that sent last goes first
  class      strict priority: each SM has a fixed class (--classes of
             them, drawn once from the seed); the oldest request of the
             best class waiting goes first (the engine's
             l2.cas_service = class)

--spread gives each SM a round trip of rtt * (1 + spread * (u - 0.5)),
u uniform, fixed per SM (L2 hit latency differs by SM on NVIDIA parts).
--slice-lane-cycles sets the slice's b apart from the port's: the GPU
spends 1.45 to 1.55 cycles a lane attempt on one saturated word
(h100-cas-attempts-3.csv), so 1.45 puts the slice as busy as the GPU's.

usage: python3 docs/cas_queue_model.py [--order ORDER] [--spread F]
       [--slice-lane-cycles B] [--seed N]
       [--data validate/data/probes/h100-cas-attempts-3.csv]
Prints, per measured row, the GPU's count and the model's, both over the
first-come count n(n+1)/2.  Deterministic for a given seed.
"""
import argparse
import csv
import heapq
import random
import sys


def race(sms, warps, order, rtt, spread, seed, a=1.0, b=0.5, lanes=32, bs=None,
         gpcs=8, gpc_map="rr", classes=3):
    """Total lane attempts for sms * warps * lanes lanes on one word."""
    bs = b if bs is None else bs
    rng = random.Random(seed)
    trip = [rtt * (1 + spread * (rng.random() - 0.5)) for _ in range(sms)]
    nw = sms * warps
    active = [lanes] * nw
    expect = [None] * nw          # None: the first read is still to come
    port_free = [0.0] * sms
    value = 0
    attempts = 0
    waiting = []                  # (arrival at the slice, warp)
    busy = False
    turn = 0                      # sm-rr: the SM whose head goes next
    last_sm = [None]              # sm-sticky: the SM (GPC) served last
    crng = random.Random(seed * 7919 + 1)
    sm_class = [crng.randrange(classes) for _ in range(sms)]

    def gpc_of(sm):
        return sm % gpcs if gpc_map == "rr" else sm * gpcs // max(sms, 1)
    events = []                   # (time at the slice, warp)

    def send(t, w):
        s = w // warps
        n = active[w] if expect[w] is not None else 1
        leave = max(t, port_free[s])
        port_free[s] = leave + a + b * n
        heapq.heappush(events, (leave, w))

    for w in range(nw):
        send(0.0, w)
    served = []                   # (time, warp) of the request in service

    def pick():
        """Index in `waiting` of the request the slice takes next."""
        nonlocal turn
        if order == "fifo":
            return 0
        if order == "random":
            return rng.randrange(len(waiting))
        heads = {}                # SM -> index of its oldest waiting request
        for i, (_, w) in enumerate(waiting):
            heads.setdefault(w // warps, i)
        if order == "class":        # strict priority by the SM's class
            best = min(range(len(waiting)),
                       key=lambda i: (sm_class[waiting[i][1] // warps], i))
            return best
        if order == "gpc-newest":   # the GPC that sent most recently
            heads, newest = {}, {}
            for i, (t, w) in enumerate(waiting):
                g = gpc_of(w // warps)
                heads.setdefault(g, i)
                newest[g] = max(newest.get(g, -1.0), t)
            return heads[max(heads, key=lambda g: newest[g])]
        if order in ("sm-sticky", "gpc-sticky"):
            if order == "gpc-sticky":   # the GPC's port, FIFO inside it
                heads = {}
                for i, (_, w) in enumerate(waiting):
                    heads.setdefault(gpc_of(w // warps), i)
            s = last_sm[0] if last_sm[0] in heads else min(
                heads, key=lambda s: waiting[heads[s]][0])
            last_sm[0] = s
            return heads[s]
        if order == "sm-random":
            return heads[rng.choice(sorted(heads))]
        if order == "sm-newest":
            return max(heads.values(), key=lambda i: waiting[i][0])
        s = min(heads, key=lambda s: (s - turn) % sms)   # sm-rr
        turn = (s + 1) % sms
        return heads[s]

    def serve(t):
        nonlocal busy
        if not waiting:
            busy = False
            return
        _, w = waiting.pop(pick())
        busy = True
        n = active[w] if expect[w] is not None else 1
        served.append((t + a + bs * n, w))

    while events or served:
        if served and (not events or served[0][0] <= events[0][0]):
            t, w = served.pop(0)
            if expect[w] is not None:
                attempts += active[w]
                if expect[w] == value:
                    value += 1
                    active[w] -= 1
            expect[w] = value
            if active[w]:
                send(t + trip[w // warps], w)
            serve(t)
        else:
            t, w = heapq.heappop(events)
            waiting.append((t, w))
            if not busy:
                serve(t)
    return attempts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--order", default="random",
                    choices=["fifo", "random", "sm-rr", "sm-random", "sm-newest",
                             "sm-sticky", "gpc-sticky", "gpc-newest", "class"])
    ap.add_argument("--classes", type=int, default=3)
    ap.add_argument("--gpcs", type=int, default=8)
    ap.add_argument("--gpc-map", default="rr", choices=["rr", "block"])
    ap.add_argument("--spread", type=float, default=1.0)
    ap.add_argument("--rtt", type=float, default=470.0,
                    help="round trip in cycles (one SM's rows: ~470)")
    ap.add_argument("--slice-lane-cycles", type=float, default=None,
                    help="the slice's cycles per lane (default: the port's, 0.5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", default="validate/data/probes/h100-cas-attempts-3.csv")
    ap.add_argument("--max-lanes", type=int, default=4096,
                    help="skip rows with more lanes (pure Python is slow)")
    args = ap.parse_args()
    try:
        with open(args.data) as f:
            rows = [r for r in csv.DictReader(l for l in f if not l.startswith("#"))]
    except OSError as e:
        sys.exit(f"cas_queue_model: {args.data}: {e.strerror}")
    print(f"order={args.order} spread={args.spread} rtt={args.rtt} "
          f"slice_lane_cycles={args.slice_lane_cycles} seed={args.seed}")
    print(f"{'lanes':>6} {'wg':>5} {'SMs':>4}  {'GPU':>5} {'model':>5}   (count / n(n+1)/2)")
    for r in rows:
        n, wg = int(r["n"]), int(r["wg"])
        if n > args.max_lanes or not r.get("cas_attempts"):
            continue
        sms, warps = n // wg, wg // 32          # one workgroup per SM here
        first_come = n * (n + 1) / 2
        model = race(sms, warps, args.order, args.rtt, args.spread, args.seed,
                     bs=args.slice_lane_cycles, gpcs=args.gpcs,
                     gpc_map=args.gpc_map, classes=args.classes)
        print(f"{n:6d} {wg:5d} {sms:4d}  {float(r['cas_attempts']) / first_come:5.2f} "
              f"{model / first_come:5.2f}")


if __name__ == "__main__":
    main()
