/* cpb_scan.h - one worker's pass over its slice [lo, lo + cnt) of the
 * element indices, for each of the contract's patterns: private state
 * only, no atomics.  Keys are the contract's pat_key(i), the selection
 * key % 1000000 < threshold and the bin (key >> 3) % K (hot fraction to
 * bin 0), exactly as the GPU kernels compute them. */
#ifndef CPB_SCAN_H
#define CPB_SCAN_H

#include <stdint.h>

#include "../../model/cpu_copies.h"
#include "cpb_div.h"

/* Selected elements (counter, counter-aggregated). */
uint64_t cpb_scan_count(uint32_t lo, uint32_t cnt, uint32_t thr);
/* Sum of key & 255 over the slice (reduce; the GPU's total is this mod 2^32). */
uint64_t cpb_scan_reduce(uint32_t lo, uint32_t cnt);
/* out[i] = key(i) for every selected i; the others are left as they are. */
void cpb_scan_store(uint32_t lo, uint32_t cnt, uint32_t thr, uint32_t *out);
/* The selected keys, in index order, into region; returns how many. */
uint32_t cpb_scan_compact(uint32_t lo, uint32_t cnt, uint32_t thr, uint32_t *region);
/* Whole mask words [wlo, whi): bit b of word w is element 32w + b selected
 * (and below n).  The worker writes each word once, so the mask needs no
 * zeroing and no two workers touch one word. */
void cpb_scan_bitmask(uint32_t wlo, uint32_t whi, uint32_t n, uint32_t thr, uint32_t *mask);
/* How many copies of a worker's private bins the scans below keep: with
 * few bins, consecutive elements often hit one bin, and each increment
 * then waits for the one before it through memory; copies used in turn
 * let that many chains run at once.  8 while they fit in 16 KiB (half an
 * L1), else 4, else 1.  One thread, K = 1: 0.57 -> 0.37 (4) -> 0.34 (8) ns
 * an element here (AMD), 3.60 -> 1.28 -> 0.97 on the GPU host's Xeon;
 * from K = 16 on the copies neither help nor hurt much.  The rule is
 * cpu_hist_copies (model/cpu_copies.h), which the CPU tier prices too. */

/* Adds the slice to private bins of 32, 16 or 8 bits (the narrow ones wrap
 * as the GPU's sub-word fields do).  bins holds copies * K zeroed bins;
 * on return the first K hold the slice's counts.  hot_thr 0: no hot bin. */
void cpb_scan_hist32(uint32_t lo, uint32_t cnt, cpb_div k, uint32_t hot_thr, unsigned copies, uint32_t *bins);
void cpb_scan_hist16(uint32_t lo, uint32_t cnt, cpb_div k, unsigned copies, uint16_t *bins);
void cpb_scan_hist8(uint32_t lo, uint32_t cnt, cpb_div k, unsigned copies, uint8_t *bins);
/* distinct-lines: element i adds 1 to counter i % p; ctr as bins above. */
void cpb_scan_lines(uint32_t lo, uint32_t cnt, uint32_t p, unsigned copies, uint32_t *ctr);

#endif
