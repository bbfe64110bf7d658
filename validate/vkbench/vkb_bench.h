/* Measures one configuration: clear the buffers in a submission of their
 * own, time the one dispatch with a pair of timestamps, copy the result
 * back and check it, warm-ups first, then the timed repetitions. */
#ifndef VKB_BENCH_H
#define VKB_BENCH_H

#include <stdio.h>

#include "vkb_cfg.h"
#include "vkb_clock.h"
#include "vkb_gpu.h"

typedef struct vkb_result {
    int reps;            /* timed repetitions completed */
    double median_us, min_us, max_us;
    double first_us;     /* the first dispatch, warm-up or not */
    double cas_attempts; /* median over the timed dispatches of the CAS
                            count summed over threads; -1: not counted */
    double clock_ratio_max; /* the slowest accepted clock probe of the timed
                               repetitions over the guard's reference; -1:
                               no guard */
    int clock_rewarms;   /* times the guard re-warmed the GPU in this row */
} vkb_result;

typedef struct vkb_bench vkb_bench;

/* The clock guard (vkb_clock.h): clock_tol_pct > 0 with that tolerance,
 * VKB_CLOCK_AUTO with the tolerance from the probe's spread on this board,
 * VKB_CLOCK_OFF none (whatever the clock is gets measured). */
#define VKB_CLOCK_AUTO 0.0
#define VKB_CLOCK_OFF (-1.0)
int vkb_bench_open(vkb_gpu *g, double clock_tol_pct, vkb_bench **out,
                   char *err);

/* c must be normalized and admitted (vkb_limits_admit). Returns VKB_OK;
 * VKB_ECHECK when a result was wrong; VKB_ESKIP when the first dispatch
 * took longer than max_ms (0: no bound); VKB_ECLOCK when the clock guard
 * could not get the SM clock back to its top; VKB_EFAIL when the device failed
 * or a dispatch did not finish in time, after which the bench is unusable.
 * err says why in each case. */
int vkb_bench_run(vkb_bench *b, const vkb_cfg *c, double max_ms,
                  vkb_result *res, char *err);

/* on = 1: the sub-word CAS histograms store each thread's compare-and-swap
 * count and vkb_result.cas_attempts reports the sum (other patterns run as
 * before). */
void vkb_bench_count_cas(vkb_bench *b, int on);

/* With counting on, writes a CSV header to f and then, for each cas-append
 * configuration, the last repetition's winners in the order they won the
 * word: n,wg,selectivity,slot,thread,tries,first_read, the last being the
 * count its first read saw (vkbench --win-order, a probe of the retry
 * dynamics). NULL turns it off. */
void vkb_bench_win_order(vkb_bench *b, FILE *f);

/* Runs cas-append and bitmask with their --trace modules and writes a CSV
 * header to f and then, for each such configuration, the last repetition's
 * records: pattern,n,wg,selectivity,unit,workgroup,sm,warp_slot,start_ns,
 * end_ns,start_clk,end_clk,slot. A unit is a cas-append thread (end: when
 * it won slot) or a bitmask warp that sent (end: after its atomic was
 * issued). The device must have been opened with trace on. NULL: off. */
void vkb_bench_trace(vkb_bench *b, FILE *f);

/* guess = 1: cas-append's threads skip the contract's atomic first read and
 * send their first compare-and-swap expecting 0 (vkbench --cas-first guess,
 * a probe). */
void vkb_bench_cas_first(vkb_bench *b, int guess);

/* --flush all: histogram-shared's flush adds every bin to global memory,
 * zero ones included (the result is unchanged), so each chunk of the loop
 * costs an atomic: a probe of what the flush's atomics hold a warp for. */
void vkb_bench_flush_all(vkb_bench *b, int all);

/* 1 and the guard's figures when the clock guard is on, else 0. */
int vkb_bench_clock(const vkb_bench *b, vkb_clock_stats *s);

void vkb_bench_close(vkb_bench *b);

#endif
