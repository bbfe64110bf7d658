/* formulas.h - the analytical model's closed-form cost formulas, one named
 * function per mechanism, each a function of the config and of a pattern's
 * parameters only.  model.c composes them per pattern; `atomsim check`
 * holds each one against the simulator and the measured datasets.
 *
 * Units: cycles are SM cycles at gpu.sm_clock_mhz; counts are expectations
 * over the contract's key hash (lowbias32 is treated as uniform random, which
 * is what it is designed to look like).  Every formula is pure: no state, no
 * allocation, no I/O, so one full export evaluates millions of them. */
#ifndef ATOM_MODEL_FORMULAS_H
#define ATOM_MODEL_FORMULAS_H

#include <stdint.h>

#include "config.h"
#include "params.h"

/* ---- launch, occupancy, issue (formulas_core.c) ------------------------- */

/* Fixed cost of one dispatch between its timestamps. */
double mdl_launch_cycles(const cfg_config *c);

/* Resident workgroups per SM (cfg_wg_per_sm) and the waves of a launch. */
typedef struct mdl_occupancy {
    int wg_per_sm;                    /* 0: the workgroup does not fit */
    enum cfg_occ_limit limit;
    double resident_wgs;              /* sm_count x wg_per_sm */
    double waves;                     /* workgroups / resident_wgs */
} mdl_occupancy;
int mdl_occupancy_of(const cfg_config *c, int wg, uint32_t smem_bytes, double workgroups, mdl_occupancy *out);

/* The global workgroup dispatcher: one workgroup per wg_dispatch_cycles. */
double mdl_dispatch_cycles(const cfg_config *c, double workgroups);
/* A kernel of work_cycles past its first workgroup's start: the launch
 * floor, or the work from dispatch_lead_cycles before the floor ends,
 * whichever ends later. */
double mdl_kernel_cycles(const cfg_config *c, double work_cycles);

/* Scheduler-bound issue time: warp instructions spread over every SM's
 * schedulers, one instruction per scheduler per cycle. */
double mdl_issue_cycles(const cfg_config *c, double warp_instructions);

/* Occupancy-bound time: every workgroup slot runs its share of workgroups
 * one after another, each for its lifetime plus the slot's retire time. */
double mdl_slot_cycles(const cfg_config *c, const mdl_occupancy *o, double wg_lifetime_cycles);

/* A workgroup's life, start to slot free (before wg_retire_cycles), for
 * warps whose path to one sending instruction takes path_cycles, the send
 * being `requests` requests of port_cycles each, issued with probability
 * p_send, and acknowledged ack_cycles after its issue. */
double mdl_wg_life_cycles(const cfg_config *c, double warps, double path_cycles, double requests, double port_cycles,
                          double p_send, double ack_cycles);

/* A global store's issue to its acknowledgement back at the SM. */
double mdl_store_ack_cycles(const cfg_config *c);

/* A dependent chain of n ALU instructions. */
double mdl_alu_chain_cycles(const cfg_config *c, double instructions);

/* ---- latencies (formulas_core.c) ---------------------------------------- */

/* Uncontended global atomic, issue to reply: memory port, crossbar both
 * ways and the slice's atomic latency. */
double mdl_global_atomic_latency_cycles(const cfg_config *c);
/* The replies of a returning atomic's `requests` requests enter the SM
 * coalesce.reply_cycles_per_request apart: what the last one adds to the
 * first's round trip (the simulator's mem_atomic). */
double mdl_reply_spread_cycles(const cfg_config *c, double requests);
/* The last warp's wait at the port for its workgroup's returning read and
 * CAS: warps, one warp's port time an instruction, one warp's round trip
 * from its read to its CAS. */
double mdl_port_shift_cycles(const cfg_config *c, double warps, double warp_port_cycles, double round_trip_cycles);

/* ---- address streams of one warp instruction (formulas_mem.c) ----------- */

/* Expected distinct values among `draws` uniform draws from `k`. */
double mdl_distinct(double k, double draws);

/* How the lanes of one warp's atomic instruction reach the L2, in
 * expectation, following the simulator's atomic unit (sim/memsys.c):
 *
 *  - lanes merge into one op per word by the config's rule: always for a
 *    compiler-aggregated add on a uniform address (one lane, the sum), for a
 *    whole-warp uniform instruction under merge_rule=uniform, per address
 *    under per_address, CAS lanes under merge_cas;
 *  - one request per distinct line; the slice's atomic unit works a request
 *    sector (32 bytes) by sector, one pass updating each distinct word of the
 *    sector once, so a request costs, summed over its sectors, the lanes on
 *    the sector's most-hit word (one pass per sector when merged), times
 *    l2.atomic_issue_cycles;
 *  - a request may start on a word only same_address_cycles after the last
 *    pass of the previous request on it, plus merged_lane_cycles per extra
 *    lane merged into its op, except when the merged lanes are a sum (the
 *    compiler's aggregation, or a whole warp on one address under the
 *    uniform rule; the simulator charges the latter, see docs/model.md).
 *
 * The counts are per issuing warp; `hot` is the kernel's most-hit word
 * (bin 0 under a hot fraction) and the line holding it. */
typedef struct mdl_warp_op {
    double p_issue;                   /* probability the warp issues it at all */
    double lanes;                     /* active lanes, given it issues */
    double addresses;                 /* distinct addresses, given it issues */
    double requests;                  /* distinct lines */
    double ops;                       /* L2 operations after merging */
    double passes;                    /* atomic-unit passes over all its requests */
    double hot_requests;              /* requests that include the hot word (0..1) */
    double hot_request_passes;        /* passes of such a request */
    double hot_merged_lanes;          /* extra lanes merged into its op on the hot word */
    double hot_pass_share;            /* fraction of all passes on the hot line */
    double words, lines;              /* footprint of the whole kernel */
    int cyclic;                       /* the targets are swept in order (LRU thrashes) */
    int merged_sum;                   /* merged lanes cost nothing extra: a compiler-aggregated
                                       * sum, or a whole warp on one address, which the memory
                                       * system adds as one sum (H100: histogram with one bin
                                       * times like the compiler-aggregated counter, while
                                       * merged CAS lanes cost ~0.3 cycles each) */
} mdl_warp_op;

/* How same-address lanes of one instruction combine. */
enum mdl_merge { MDL_MERGE_NONE, MDL_MERGE_IF_UNIFORM, MDL_MERGE_PER_ADDRESS, MDL_MERGE_SUM };
enum mdl_merge mdl_merge_mode(const cfg_config *c, int uniform_address, int is_cas);

/* Expected ops of one instruction: `lanes` lanes on `addresses` addresses,
 * all of them on one address with probability p_uniform. */
double mdl_ops_of(enum mdl_merge m, double lanes, double addresses, double p_uniform);

/* Expected passes of one request: `lanes` lanes on one line, `hot` of them
 * on its first word and the rest spread uniformly over `words` consecutive
 * words from the first; `merged`: each word is one op. */
double mdl_request_passes(const cfg_config *c, double lanes, double hot, double words, int merged);

/* Warp aggregation: S-selected lanes adding to one address.  With compiler
 * aggregation or the uniform merge rule one op per issuing warp carries
 * them; otherwise every selected lane is its own op. */
void mdl_warp_aggregation(const cfg_config *c, double selectivity, int uniform_address, mdl_warp_op *w);

/* Every lane of the warp adds to one of `bins` consecutive words (uniform),
 * a fraction `hot` of the lanes to bin 0 instead.  is_cas: the instruction
 * is a CAS (merge_cas decides merging). */
void mdl_warp_histogram(const cfg_config *c, double bins, double hot, int is_cas, mdl_warp_op *w);

/* Lanes spread over `addresses` words, one per line, lane l on (i % P). */
void mdl_warp_distinct_lines(const cfg_config *c, double addresses, mdl_warp_op *w);

/* Bitmask: 32 consecutive threads share one word, so a warp is one word. */
void mdl_warp_bitmask(const cfg_config *c, double n, double selectivity, mdl_warp_op *w);

/* Same-address chain on the hot word: `requests` requests of `passes`
 * passes each, with `merged_lanes` extra merged lanes per request. */
double mdl_same_address_chain_cycles(const cfg_config *c, double requests, double passes, double merged_lanes);
/* The same with lane_cycles per extra merged lane in place of the config's. */
double mdl_chain_cycles_at(const cfg_config *c, double requests, double passes, double merged_lanes, double lane_cycles);

/* ---- throughput bounds (formulas_mem.c) --------------------------------- */

/* Expected maximum of `balls` thrown uniformly into `bins` (Poisson
 * approximation, Gaussian tail for large means). */
double mdl_max_load(double balls, double bins);

/* The simulator's slice hash for l2.slice_hash = mod (sim/memsys_int.h slice_of), set up
 * once per buffer: the line index with the ignored low bits squeezed out,
 * modulo the slice count, from a 1 MiB-aligned buffer whose first line has
 * its low bits clear.  ok is 0 for the xor hash, which no closed form
 * follows, and for slice counts past MDL_MAX_SLICES. */
#define MDL_MAX_COUNTED_LINES 4096    /* lines worth counting exactly */
#define MDL_MAX_SLICES 4096           /* l2.slice_count's upper bound (options.c) */
typedef struct mdl_slice_hash {
    int ok, low_bits, nkept, kept[32];
    long interleave, slices;
} mdl_slice_hash;
void mdl_slice_hash_init(const cfg_config *c, mdl_slice_hash *h);
long mdl_slice_of_line(const mdl_slice_hash *h, long line);

/* Lines that the busiest slice holds when `lines` consecutive lines are
 * spread by the slice hash, in chunks of l2.interleave_lines: consecutive
 * chunks land on distinct slices. */
double mdl_busiest_slice_lines(const cfg_config *c, double lines);
/* Lines of a run of consecutive lines that share one slice. */
double mdl_slice_chunk_lines(const cfg_config *c, double lines);

/* The share of requests spread evenly over `lines` consecutive lines from
 * a block boundary that the busier half of the L2 takes (blocks of
 * l2.partition_block_lines alternate between the halves; 0 when the
 * config has no link between them). */
double mdl_partition_share(const cfg_config *c, double lines);

/* All SM ports when `share` of `requests` go to the busier half of the L2
 * (port_cycles each at an SM's port): the SMs by the other half send them
 * over the link between the halves (partition_link_requests_per_cycle each
 * way) and are held to its rate; 0 when the config has no link. */
double mdl_partition_cycles(const cfg_config *c, double requests, double share, double port_cycles);

/* SM memory ports: `requests` line requests, lsu_cycles_per_request each,
 * spread over every SM. */
double mdl_lsu_cycles(const cfg_config *c, double requests);

/* DRAM: `bytes` at the config's bandwidth. */
double mdl_dram_cycles(const cfg_config *c, double bytes);

/* L2 line stores: `stores` line requests over every slice. */
double mdl_l2_store_cycles(const cfg_config *c, double stores);

/* Bytes DRAM moves for `lines` distinct lines of atomic targets: the first
 * touch while they fit the L2; beyond it, a line fill and a dirty sector's
 * write-back per missing op (every op when `cyclic` sweeps them in order). */
double mdl_atomic_dram_bytes(const cfg_config *c, double lines, double ops, int cyclic);

/* ---- compare-and-swap (formulas_cas.c) ---------------------------------- */

/* The atomic unit's cycles per sector pass of a compare-and-swap request
 * (l2.cas_issue_cycles; atomic_issue_cycles when 0), as the simulator
 * charges them. */
double mdl_cas_issue_cycles(const cfg_config *c);

/* CAS retry amplification for N contenders on one word of which at most
 * `cap` are in their loop at once: attempts = sum over the successes of the
 * contenders still active, N(N+1)/2 when every contender is active (seed
 * 000's figure) and cap (N - cap) + cap (cap + 1) / 2 otherwise. */
double mdl_cas_attempts(double contenders, double cap);
/* The same when only `active` of the cap's contenders are in their loops
 * once the race is under way (mdl_cas_active_share). */
double mdl_cas_attempts_at(double contenders, double cap, double active);

/* Share of a workgroup slot's time that its `slot_contenders` contenders
 * spend in their loops: the slot frees only when its last one wins, so the
 * slots of a wave refill together and each wave's race drains to its end;
 * k contenders at uniform places in it keep (k + 1) / (2k) of the slot's
 * share of the cap busy (1 for one contender, 1/2 for many). */
double mdl_cas_active_share(double slot_contenders);

/* Time of one word's CAS race: every success waits for the slower of the
 * loop's round trip and the queue of attempts ahead of it, summed in closed
 * form over the successes.  `lanes_per_warp` is the mean number of
 * contending lanes a warp brings (merge_cas folds them into one op), and
 * `lane_cycles` what each active lane adds to the queue (its request's
 * chain on the word, mdl_same_address_chain_cycles, divided by its lanes). */
typedef struct mdl_cas_race {
    double attempts;                  /* lane-level CAS operations */
    double ops;                       /* L2 operations after merge_cas */
    double cycles;                    /* from the first attempt to the last success */
    double rtt_cycles;                /* one iteration of the loop, uncontended */
} mdl_cas_race;
void mdl_cas_race_of(const cfg_config *c, double contenders, double cap, double lanes_per_warp, double lane_cycles,
                     double slot_contenders, double saving, mdl_cas_race *r);
/* mdl_cas_race_of with a round trip of the caller's: one loop iteration
 * of a warp whose retry waits on several requests' replies. */
void mdl_cas_race_rtt(const cfg_config *c, double contenders, double cap, double lanes_per_warp, double lane_cycles,
                      double slot_contenders, double saving, double rtt_cycles, mdl_cas_race *r);
/* The GPU's count law (model.cas_saving_*, docs/findings.md 48): whether
 * it is on, and the share of a word's first-come attempts the GPU makes
 * with `racers` lanes in the race, from `workgroups` workgroups (one an SM
 * while there are SMs: one workgroup is one SM, first-come).
 * `saving` in mdl_cas_race_of scales the attempts of the race's last wave
 * (its cap racers draining once no more join) and the queue each of its
 * successes waits behind; never fewer attempts than contenders. */
int mdl_cas_law(const cfg_config *c);
double mdl_cas_saving(const cfg_config *c, double racers, double workgroups);

/* The contenders a lane meets in its word's race when fewer lanes are
 * resident than the word has (cap < per_word): itself and each of the
 * word's other per_word - 1 lanes resident with probability cap /
 * per_word, 1 + Binomial(per_word - 1, cap / per_word), Poisson(cap) for
 * many lanes and exactly per_word once all are resident.  A race's cost
 * grows faster than linearly in its contenders (no retry below two), so the
 * model averages it over this count (docs/findings.md 42).  `share` is how
 * much of the average to take: 1 below MDL_CAS_SPREAD_FULL_CAP, fading
 * linearly to 0 at MDL_CAS_SPREAD_NONE_CAP, where the spread is narrow
 * against the mean and the export cannot afford its terms; terms 0 (share
 * 0): no spread, take the race at cap. */
#define MDL_CAS_SPREAD_TERMS 96
#define MDL_CAS_SPREAD_FULL_CAP 16.0
#define MDL_CAS_SPREAD_NONE_CAP 32.0
typedef struct mdl_cas_spread {
    int terms;
    double share;
    double k[MDL_CAS_SPREAD_TERMS], w[MDL_CAS_SPREAD_TERMS]; /* contenders, weights summing to 1 */
} mdl_cas_spread;
void mdl_cas_spread_of(double per_word, double cap, mdl_cas_spread *s);

/* Sub-word CAS emulation: `bins` bins of `bits` bits packed 32/bits to a
 * word; n threads race per word.  Returns words and contenders per word,
 * and how the words lie: full lines, then a last line of last_words words,
 * placed on the slices by the config's hash (its busiest slice's full
 * lines, and the full lines that share a slice with the last line). */
typedef struct mdl_subword {
    double words, lines, per_word, bins_per_word;
    double full_lines, last_words;
    double busiest_full, partial_slice_full;
} mdl_subword;
void mdl_subword_of(const cfg_config *c, double n, double bins, int bits, mdl_subword *s);

/* One warp CAS instruction of `a` active lanes on uniform words of the
 * sub-word buffer: its line requests, atomic-unit passes (all slices, and
 * the busiest slice's) and distinct words, in expectation.  A short last
 * line draws fewer lanes and has fewer sectors to pass over. */
typedef struct mdl_subword_instr_t {
    double requests, passes, busiest_passes, words_hit;
} mdl_subword_instr_t;
void mdl_subword_instr(const cfg_config *c, const mdl_subword *s, double a, mdl_subword_instr_t *o);

/* ---- shared memory and privatization (formulas_smem.c) ------------------ */

/* Shared-memory atomic unit time of one warp instruction whose lanes spread
 * over `words` distinct words (bank conflicts and same-word lanes). */
double mdl_smem_warp_cycles(const cfg_config *c, double lanes, double words);

/* Privatized histogram of one workgroup: zero K words, barrier, wg shared
 * atomics, barrier, flush of the non-zero bins.  Returns the workgroup's
 * lifetime in cycles (without global-atomic queueing) and, in *flush_ops,
 * how many global atomics its flush sends. */
double mdl_privatized_histogram_cycles(const cfg_config *c, int wg, double bins, double *flush_ops);
/* A workgroup's flush on the busiest slice: the atomic-unit passes of its
 * line requests (one pass per sector with a non-zero bin, each bin
 * non-zero with probability p_nonzero), lines placed by the slice hash. */
double mdl_flush_busiest_passes(const cfg_config *c, double bins, double p_nonzero);

/* Cycles one privatized-histogram workgroup keeps its SM's shared-memory
 * unit busy (zeroing stores, the atomics, the flush loads). */
double mdl_privatized_smem_busy_cycles(const cfg_config *c, int wg, double bins);

/* Per-workgroup flush (reduce): wg shared atomics on one word, barrier, one
 * global atomic.  Returns the workgroup's lifetime in cycles. */
double mdl_workgroup_flush_cycles(const cfg_config *c, int wg);

/* Non-zero bins of a workgroup's private histogram. */
double mdl_nonzero_bins(double bins, double threads);

/* ---- the composed prediction (model.c) ---------------------------------- */

/* Every bound the composition considered, for explanations and `check`. */
enum mdl_term {
    MDL_T_LAUNCH, MDL_T_DISPATCH, MDL_T_ISSUE, MDL_T_SLOTS, MDL_T_LSU, MDL_T_SLICE, MDL_T_HALF, MDL_T_ADDRESS,
    MDL_T_DRAM, MDL_T_SMEM, MDL_T_CAS, MDL_T_TAIL, MDL_T_COUNT
};
typedef struct mdl_terms {
    double cycles[MDL_T_COUNT];
    enum mdl_term bound;              /* the largest overlapped term */
} mdl_terms;
const char *mdl_term_name(enum mdl_term t);

struct atom_stats;
/* mdl_predict (model.h) plus the terms behind it. */
int mdl_predict_terms(const cfg_config *cfg, const pat_params *p, struct atom_stats *st, mdl_terms *terms,
                      char err[CFG_ERR_MAX]);

#endif
