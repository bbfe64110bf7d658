/* calibrate_stages.c - the calibration stages: one mechanism each, its keys
 * and the measured rows it dominates.  Stages run in this order, so a later
 * stage sees the earlier stages' fitted values (launch costs first: every
 * other row pays them). */
#include "calibrate.h"

static int is(const pat_params *p, enum pat_id id) { return p->pattern == id; }

/* Small stores: nothing but the launch floor. */
static int rows_launch(const pat_params *p) { return is(p, PAT_STORE) && p->n <= 65536; }


/* store with every lane writing, 1,024 workgroups and more, 8 to 32 an SM:
 * the global workgroup dispatcher, its rate and how long before the launch
 * floor's end it starts (the n sweep at 256 threads gives both; smaller
 * workgroups, the rate again). */
static int rows_dispatch(const pat_params *p)
{
    return is(p, PAT_STORE) && p->selectivity == 1 && p->wg <= 256 && p->n >= (1u << 18);
}

/* A workgroup's slot turnaround (launch.wg_retire_cycles): store with no
 * lane selected at 32 KiB of shared memory, one workgroup an SM, n = 2^22
 * and 2^24, 2 to 32 warps (validate/data/probes/h100-mechanisms-4.csv).
 * Nothing but workgroup lives is left there, and the warps' own launch
 * (launch.warp_launch_cycles) is measured on the same rows' slope in warps,
 * so the intercept is the slot's.  The dataset has no store rows with
 * shared memory, so the stage fits on the probe. */
static int rows_retire(const pat_params *p)
{
    return is(p, PAT_STORE) && p->selectivity == 0 && p->smem_per_wg == 32768;
}

/* Split exits (docs/findings.md 28): bitmask at 256 threads with no shared
 * memory of its own, n = 2^24, from no lane to every lane selected, where
 * the silent warps of a workgroup with a sender leave early.  Its cost is
 * searched over 0.01 to 1 cycle a warp whatever the start, since a config
 * may start with it off (0).  The
 * calibration dataset holds such rows only among its held-out bitmask rows,
 * so the stage fits on the probe that measured the hump
 * (validate/data/probes/h100-select-unit-thread.csv). */
static int rows_split_exit(const pat_params *p) { return is(p, PAT_BITMASK) && p->wg == 256 && p->smem_per_wg == 0; }

/* How the hump grows with the share of split workgroups: bitmask at n = 2^20
 * to 2^24, 31 repetitions a row (validate/data/probes/h100-hump-n-sweep.csv). */
static int rows_split_share(const pat_params *p) { return is(p, PAT_BITMASK) && p->n >= (1u << 20); }

/* One contended address, saturated: the L2's read-modify-write rate. */
static int rows_same_address(const pat_params *p)
{
    return (is(p, PAT_COUNTER) || is(p, PAT_COUNTER_AGGREGATED) || is(p, PAT_COMPACTION)) && p->n >= (1u << 20) &&
           p->selectivity >= 0.05;
}

/* Whether a request waiting on its word blocks the requests behind it in
 * its slice (docs/findings.md 7), on the rows it was set by hand from:
 * distinct-lines at 2 addresses (two lines on one slice, every lane of a
 * request on one word) against the 2-bin histogram (the same chains on one
 * line), which costs half.  Since the word chains (l2.word_chain_cycles)
 * carry that 2x, both values give these rows the same times, so the stage
 * keeps the start.  The compare-and-swap rows lean to 0 by just over the
 * noise bound (docs/calibration.md); fitting there moves the simulator's
 * CAS cells, which a re-made table must follow. */
static int rows_hol(const pat_params *p)
{
    return (is(p, PAT_DISTINCT_LINES) && p->addresses >= 2 && p->addresses <= 4) ||
           (is(p, PAT_HISTOGRAM) && p->bins == 2 && p->hot == 0);
}

/* Few bins, all lanes on a handful of words of one line: sector passes. */
static int rows_sector_pass(const pat_params *p)
{
    return is(p, PAT_HISTOGRAM) && p->bins >= 2 && p->bins <= 32 && p->hot == 0;
}

/* Many distinct lines (two 256 KiB blocks and more, so both halves of the
 * L2 take them), no contention: the SM memory port sends one request per
 * lane.  Sub-word CAS histograms with >= 65536 bins are the same case
 * with atomics that return their old value (a read and a CAS per lane,
 * rarely retried): one port cost for both left distinct-lines 20-40% slow
 * and those CAS rows 15-22% fast, so returning requests pay their own
 * extra, fitted jointly. */
static int rows_lsu(const pat_params *p)
{
    return (is(p, PAT_DISTINCT_LINES) && p->addresses >= 4096 && p->addresses <= 131072) ||
           ((is(p, PAT_HISTOGRAM_U8_CAS) || is(p, PAT_HISTOGRAM_U16_CAS)) && p->bins >= 65536);
}

/* 256 to 2,048 lines, one block, all in one half of the L2: the SMs by the
 * other half are held to the link between the halves (the plateau; docs/findings.md, section 4). */
static int rows_link(const pat_params *p)
{
    return (is(p, PAT_DISTINCT_LINES) && p->addresses >= 256 && p->addresses <= 2048) ||
           (is(p, PAT_HISTOGRAM) && p->bins >= 8192 && p->bins <= 65536 && p->hot == 0);
}

/* The link queue's depth (docs/findings.md 4): a sender that finds it full
 * waits at its port, so too shallow a queue lets a wave's bursts hold
 * ports the GPU does not.  Bitmask at n = 2^20 to 2^24 sends such bursts
 * (the split_share probe's rows; the stage reuses rows_split_share).  Not
 * l2_link's plateau rows: their requests arrive spread out, and no depth
 * from 64 up fills the queue there.  Without --probe split_share the stage
 * is skipped and the config's value stays. */
static const int link_queue_candidates[] = { 64, 256, 1024, 4096, -1 };

/* Which senders a full slice queue holds (docs/findings.md 22): every one,
 * or only those whose reply the warp waits for.  histogram-shared's flush
 * of fire-and-forget adds on 16 to 64 lines (512 to 2,048 bins) fills the
 * slice queues, so those rows tell the two apart (the enum's two values
 * are tried).  It runs after the shared-memory stages, which fit the same
 * kernels' loop. */
static int rows_queue_hold(const pat_params *p)
{
    return is(p, PAT_HISTOGRAM_SHARED) && p->bins >= 512 && p->bins <= 2048;
}

/* Two lines to a few hundred: how lines spread over slices.  The shared
 * histogram's flush adds runs of 4 to 32 lines (128..1024 bins): the fit's
 * only 4-line run outside the held-out rows, and the one that tells "bits 0
 * and 1" (4 consecutive lines per slice) from "bits 0 and 2". */
static int rows_slice_hash(const pat_params *p)
{
    return (is(p, PAT_DISTINCT_LINES) && p->addresses >= 2 && p->addresses <= 128) ||
           (is(p, PAT_HISTOGRAM_SHARED) && p->bins >= 128 && p->bins <= 1024 && p->wg == 256) ||
           (is(p, PAT_HISTOGRAM) && p->bins >= 64 && p->bins <= 512 && p->hot == 0 && p->n == (1u << 20));
}

/* Consecutive lines a slice takes before the hash (docs/findings.md 8): 4
 * would put a 4-line run (histogram-shared's 128-bin flush) on one slice;
 * the slice hash's rows tell them apart.  Runs before slice_hash, with
 * l2.hash_ignore_mask at its starting value. */
static const int interleave_candidates[] = { 1, 2, 4, 8, -1 };

/* A warp's lanes piled on one to eight shared words whose index the
 * compiler cannot see (reduce's constant word is summed in the warp first):
 * same-word serialization. */
static int rows_smem_word(const pat_params *p) { return is(p, PAT_HISTOGRAM_SHARED) && p->bins <= 8; }

/* Lanes spread over shared bins: conflict-free passes of the shared unit. */
static int rows_smem_pass(const pat_params *p) { return is(p, PAT_HISTOGRAM_SHARED); }

/* Whether same-address CAS lanes of one instruction resolve as one L2 op
 * (coalesce.merge_cas): cas-append, every lane of a warp on one word, is
 * the pattern that tells (docs/findings.md 17).  Before the price stage
 * below, at its event budget. */
static int rows_merge_cas(const pat_params *p) { return is(p, PAT_CAS_APPEND); }

/* CAS loops: same-address CAS lanes of one instruction resolve as one
 * merged op (coalesce.merge_cas), each extra lane lengthening the chain
 * (cas-append: one word); sub-word CAS histograms on a few lines saturate
 * their slices at the CAS pass rate.  Fitted jointly, with 2e7 events a row:
 * at 2e6 only 29 of the 77 fit rows finish, the least contended, and a price
 * fitted on them ran the 1,024-bin rows at n = 2^17 and 2^20 (then held
 * out, now spent) 10% to 24% slow
 * (42 rows finish at 2e7; about 8 minutes on 2 cores). */
static int rows_cas(const pat_params *p)
{
    return is(p, PAT_HISTOGRAM_U8_CAS) || is(p, PAT_HISTOGRAM_U16_CAS) || is(p, PAT_CAS_APPEND);
}

static int rows_subword(const pat_params *p)
{
    return is(p, PAT_HISTOGRAM_U8_CAS) || is(p, PAT_HISTOGRAM_U16_CAS);
}

/* Line-index bits the slice hash ignores: none, bit 0, bits 0-1 (the
 * same as 4-line interleave), bit 2, bits 0 and 2.  A list ends at -1. */
static const int hash_mask_candidates[] = { 0, 1, 3, 4, 5, -1 };

/* Workgroups the split share averages over: from a thirty-second of a wave
 * (1,056 workgroups of 256 threads on the H100) to half of one. */
static const int split_share_candidates[] = { 32, 64, 128, 256, 512, -1 };

static const cal_stage stages[] = {
    { "launch", { "launch.kernel_overhead_cycles" }, "store, n <= 65536", rows_launch, NULL, 0, 0, { 0, 0 }, NULL },
    { "dispatch", { "launch.wg_dispatch_cycles", "launch.dispatch_lead_cycles" }, "store, S = 1, wg <= 256, n >= 2^18",
      rows_dispatch, NULL, 0, 0, { 0, 0 }, NULL },
    { "retire", { "launch.wg_retire_cycles" }, "store, S = 0, 32 KiB a workgroup (probe retire)", rows_retire, NULL, 0, 0,
      { 0, 0 }, "retire" },
    { "split_exit", { "launch.split_exit_cycles" }, "bitmask at 256 threads, no shared memory of its own (probe split_exit)",
      rows_split_exit, NULL, 0, 0, { 0.01, 1 }, "split_exit" },
    /* The split exits' window (how much earlier than its workgroup's last
     * warp a warp must leave to count as split), on the cost's rows, after
     * it: between the 22-cycle launch stagger and the 230-cycle round trip
     * (docs/findings.md 28), the two bounds the measurements set.  Those
     * rows cannot separate window and cost (docs/calibration.md). */
    { "split_window", { "launch.split_exit_window_cycles" },
      "bitmask at 256 threads, no shared memory of its own (probe split_exit)", rows_split_exit, NULL, 0, 0, { 22, 230 },
      "split_exit" },
    { "split_share", { "launch.split_exit_share_wgs" }, "bitmask, n = 2^20..2^24 (probe split_share)", rows_split_share,
      split_share_candidates, 0, 0, { 0, 0 }, "split_share" },
    { "same_address", { "l2.same_address_cycles" }, "counter/counter-aggregated/compaction, n >= 2^20, S >= 0.05",
      rows_same_address, NULL, 0, 0, { 0, 0 }, NULL },
    { "hol", { "l2.hol_blocking" }, "distinct-lines 2..4 addresses, histogram 2 bins (hot 0)", rows_hol, NULL, 0, 0,
      { 0, 0 }, NULL },
    { "sector_pass", { "l2.atomic_issue_cycles" }, "histogram, 2 <= bins <= 32, hot 0", rows_sector_pass, NULL, 0, 0, { 0, 0 }, NULL },
    { "lsu", { "coalesce.lsu_cycles_per_request", "coalesce.lsu_return_cycles_per_request" },
      "distinct-lines 4096..131072 addresses, u8/u16 CAS >= 65536 bins",
      rows_lsu, NULL, 0, 0, { 0, 0 }, NULL },
    { "l2_link", { "l2.partition_link_requests_per_cycle" },
      "distinct-lines 256..2048 addresses, histogram 8192..65536 bins (hot 0)", rows_link, NULL, 0, 0, { 0, 0 }, NULL },
    { "link_queue", { "l2.partition_link_queue_requests" }, "bitmask, n = 2^20..2^24 (probe split_share)",
      rows_split_share, link_queue_candidates, 0, 0, { 0, 0 }, "split_share" },
    { "interleave", { "l2.interleave_lines" },
      "distinct-lines 2..128 addresses, histogram 64..512 bins (n 2^20, hot 0), histogram-shared 128..1024 bins (wg 256)",
      rows_slice_hash, interleave_candidates, 0, 0, { 0, 0 }, NULL },
    { "slice_hash", { "l2.hash_ignore_mask" },
      "distinct-lines 2..128 addresses, histogram 64..512 bins (n 2^20, hot 0), histogram-shared 128..1024 bins (wg 256)",
      rows_slice_hash, hash_mask_candidates, 0, 0, { 0, 0 }, NULL },
    { "smem_word", { "smem.same_word_cycles" }, "histogram-shared, bins <= 8", rows_smem_word, NULL, 0, 0, { 0, 0 }, NULL },
    { "smem_pass", { "smem.atomic_issue_cycles" }, "histogram-shared", rows_smem_pass, NULL, 0, 0, { 0, 0 }, NULL },
    { "queue_hold", { "l2.full_queue_holds" }, "histogram-shared, 512..2048 bins", rows_queue_hold, NULL, 0, 0, { 0, 0 },
      NULL },
    { "merge_cas", { "coalesce.merge_cas" }, "cas-append", rows_merge_cas, NULL, 2e7, 0, { 0, 0 }, NULL },
    { "cas", { "l2.merged_lane_cycles", "l2.cas_issue_cycles" },
      "histogram-u8-cas, histogram-u16-cas, cas-append (rows that finish)", rows_cas, NULL, 2e7, 0, { 0, 0 }, NULL },
    /* The model's one unmeasured price of a CAS race: under the count law
     * (model.cas_saving_exponent > 0) cas-append's race is priced at
     * l2.same_address_cycles, and a sub-word request holds its slice for
     * its lanes at model.cas_line_lane_cycles each or its busiest chunk's
     * chain (model.c, pat_subword; docs/findings.md 49).  Fitted with the
     * model on the sub-word rows alone, the only ones that read it (every
     * one runs). */
    { "model_cas", { "model.cas_line_lane_cycles" }, "histogram-u8-cas, histogram-u16-cas (the model)", rows_subword,
      NULL, 0, 1, { 0, 0 }, NULL },
};

const cal_stage *cal_stages(size_t *count)
{
    *count = sizeof stages / sizeof stages[0];
    return stages;
}
