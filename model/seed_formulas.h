/* seed_formulas.h - the three seed documents' formulas exactly as they
 * state them (docs/seeds/), so that `atomsim check` can hold each one
 * against the simulator and the measured datasets.  They are hypotheses:
 * nothing in the model or the dispatcher depends on them being right.
 *
 *   seed 000 (WebGPU atomic contention): a contended atomic takes base + N
 *     cycles for N queued threads; N CAS contenders make N(N+1)/2 attempts;
 *     contention density = selectivity x threads per cycle / bins, threads
 *     per cycle = SM count x FP32 lanes per SM; inhibit above 10% of the
 *     thread capacity, penalize from 5%, inhibit CAS always.
 *   seed 001 (DRAM atomics): one atomic per 2 x DRAM latency on one
 *     location; a uniform histogram of K bins runs K times that.
 *   seed 002 (sub-word CAS histograms): emulating 8/16-bit bins with 32-bit
 *     CAS is slower than native 32-bit atomics (its A100 table: 1.25x at
 *     best between the CAS and spinlock fallbacks). */
#ifndef ATOM_MODEL_SEED_FORMULAS_H
#define ATOM_MODEL_SEED_FORMULAS_H

#include "config.h"

/* seed 000: "For a contested atomic with N threads queued: approximately
 * N * 1 cycle at the controller, plus the 200-cycle round-trip." */
double seed_contended_latency_cycles(double base_cycles, double queued);

/* seed 000: shared memory, "256 serialized operations at 1 per cycle:
 * 256 + 20 = 276 cycles" (20 to 50 cycles uncontended). */
double seed_shared_contended_cycles(double base_cycles, double queued);

/* seed 000: "64 + 63 + ... + 1 = 64 * 65 / 2" CAS operations for N
 * contenders, and the amplification (attempts per success) (N + 1) / 2. */
double seed_cas_attempts(double contenders);
double seed_cas_amplification(double contenders);

/* seed 000: at one CAS attempt per cycle, the cycles a batch of N
 * contenders takes ("131,328 cycles ... over 65 microseconds at 2 GHz"). */
double seed_cas_batch_cycles(double contenders);

/* seed 001: "1 atomic operation every 400 cycles (200 cycles for the read
 * and 200 cycles for the write)": atomics per cycle on one DRAM location. */
double seed_dram_atomics_per_cycle(double dram_latency_cycles);

/* seed 001: "2.5M * 256 = 640M atomic operations/sec" for a uniform
 * histogram of `bins` bins: the one-location rate times the bins. */
double seed_histogram_atomics_per_cycle(double dram_latency_cycles, double bins);

/* seed 000: threads per cycle = SM count x FP32 lanes per SM. */
double seed_threads_per_cycle(const cfg_config *c);

/* seed 000: contentionDensity = selectivity x threadsPerCycle / bins
 * (bins = 1 for a single counter). */
double seed_contention_density(double selectivity, double threads_per_cycle, double bins);

/* seed 000's thresholds are fractions of the thread capacity.  Dividing its
 * density by the capacity leaves selectivity / bins: the rule never depends
 * on the GPU at all.  This is that reduced form. */
double seed_density_fraction(double selectivity, double bins);

/* seed 000: "At 1,024 contending threads (33% of the pipeline stalled),
 * throughput drops to 40% to 50% of peak. At 2,048 threads (67% stalled),
 * throughput drops to 10% to 20%": the midpoints as a stated curve,
 * throughput fraction for N contending threads on a 3,072-core GPU
 * (1 below 512, linear in between). */
double seed_throughput_fraction(double contending_threads);

/* seed 000: "A dashboard that runs a 2% selectivity filter at 2 ms on the
 * GPU will run a 25% selectivity filter on the same dataset at 45 ms":
 * the stated slowdown from 2% to 25% selectivity of a counting filter. */
#define SEED_COUNTER_SLOWDOWN_2_TO_25 22.5

#endif
