/* options.c - the one option table: every config key, its type, bounds,
 * default, unit, source and help.  Parsing, overrides, range checks, --help,
 * the dumps and docs/config-keys.md all walk this table, so a new mechanism
 * parameter is one line here.
 *
 * The source column says where configs/h100.ini's value of the key comes
 * from, read off the comment beside it there (and its "; Sources" header):
 * spec, microbenchmark (this project's own probes), calibrate (the keys a
 * stage of `atomsim calibrate` fits, whatever their starting value's
 * origin), hand (fitted by hand to measured rows), estimate (a guess or a
 * figure carried over, that no stage fits yet), setting (not a
 * hardware fact), or label (says what the config is, gpu.trust: enters no
 * result and no hash).  A key whose comment names both a measurement and a
 * document takes the one named first, the value's own origin. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#define OFF(field) offsetof(cfg_config, field)

static const char *const hash_names[] = { "mod", "xor", NULL };
static const char *const merge_names[] = { "none", "uniform", "per_address", NULL };
static const char *const rule_names[] = { "cost", "seed", NULL };
static const char *const data_on_names[] = { "gpu", "host", "both", NULL };
static const char *const hold_names[] = { "all", "returning", NULL };
static const char *const cas_service_names[] = { "arrival", "random", "class", NULL };

/* Defaults describe a generic Hopper-class GPU; configs/ override them. */
static const cfg_option options[] = {
    /* section  key                          type        offset                              min   max      default  unit      source  help */
    { "gpu", "name", CFG_STRING, OFF(gpu.name), 0, 0, "generic", "", CFG_SRC_MICROBENCH, NULL, "GPU name, for reports" },
    { "gpu", "trust", CFG_STRING, OFF(gpu.trust), 0, 0, "uncalibrated", "", CFG_SRC_LABEL, NULL, "how far the values are borne out: calibrated on a dataset, validated on one without a fit, or uncalibrated; shown with results" },
    { "gpu", "sm_count", CFG_INT, OFF(gpu.sm_count), 1, 1024, "132", "SMs", CFG_SRC_MICROBENCH, NULL, "streaming multiprocessors" },
    { "gpu", "sm_clock_mhz", CFG_DOUBLE, OFF(gpu.sm_clock_mhz), 1, 10000, "1755", "MHz", CFG_SRC_MICROBENCH, NULL, "SM clock while the kernel runs (cycles -> time)" },
    { "gpu", "subgroup_size", CFG_INT, OFF(gpu.subgroup_size), 1, 128, "32", "lanes", CFG_SRC_MICROBENCH, NULL, "threads per warp/subgroup" },
    { "gpu", "fp32_lanes_per_sm", CFG_INT, OFF(gpu.fp32_lanes_per_sm), 1, 1024, "128", "lanes", CFG_SRC_SPEC, NULL, "FP32 lanes per SM; seed 000's threads per cycle = sm_count x this" },
    { "gpu", "schedulers_per_sm", CFG_INT, OFF(gpu.schedulers_per_sm), 1, 16, "4", "schedulers", CFG_SRC_SPEC, NULL, "warp schedulers per SM, one instruction per cycle each" },
    { "gpu", "max_threads_per_sm", CFG_INT, OFF(gpu.max_threads_per_sm), 32, 65536, "2048", "threads", CFG_SRC_SPEC, NULL, "resident threads per SM" },
    { "gpu", "max_warps_per_sm", CFG_INT, OFF(gpu.max_warps_per_sm), 1, 2048, "64", "warps", CFG_SRC_SPEC, NULL, "resident warps per SM" },
    { "gpu", "max_wg_per_sm", CFG_INT, OFF(gpu.max_wg_per_sm), 1, 1024, "32", "workgroups", CFG_SRC_SPEC, NULL, "resident workgroups per SM" },
    { "gpu", "max_wg_size", CFG_INT, OFF(gpu.max_wg_size), 1, 65536, "1024", "threads", CFG_SRC_MICROBENCH, NULL, "largest workgroup" },
    { "gpu", "smem_per_sm_bytes", CFG_INT, OFF(gpu.smem_per_sm_bytes), 0, 1 << 24, "233472", "bytes", CFG_SRC_MICROBENCH, NULL, "shared memory per SM available to workgroups" },
    { "gpu", "max_smem_per_wg_bytes", CFG_INT, OFF(gpu.max_smem_per_wg_bytes), 0, 1 << 24, "49152", "bytes", CFG_SRC_MICROBENCH, NULL, "largest shared allocation of one workgroup (the API limit)" },
    { "gpu", "smem_reserved_per_wg_bytes", CFG_INT, OFF(gpu.smem_reserved_per_wg_bytes), 0, 1 << 20, "1024", "bytes", CFG_SRC_MICROBENCH, NULL, "shared memory the driver reserves per resident workgroup" },

    { "launch", "kernel_overhead_cycles", CFG_DOUBLE, OFF(launch.kernel_overhead_cycles), 0, 1e9, "4000", "cycles", CFG_SRC_CALIBRATE, NULL, "the launch floor: the shortest a dispatch takes between its timestamps, however little its workgroups do" },
    { "launch", "wg_dispatch_cycles", CFG_DOUBLE, OFF(launch.wg_dispatch_cycles), 0, 1e6, "1", "cycles", CFG_SRC_CALIBRATE, NULL, "global dispatcher: cycles between two workgroup launches" },
    { "launch", "dispatch_lead_cycles", CFG_DOUBLE, OFF(launch.dispatch_lead_cycles), 0, 1e9, "0", "cycles", CFG_SRC_CALIBRATE, NULL, "the dispatcher hands out workgroups, and they run, from this long before the launch floor ends, so work that fits in it is hidden by the floor (0: work starts when the floor ends)" },
    { "launch", "wg_retire_cycles", CFG_DOUBLE, OFF(launch.wg_retire_cycles), 0, 1e6, "200", "cycles", CFG_SRC_CALIBRATE, NULL, "from a workgroup's end to its slot taking a new one" },
    { "launch", "warp_launch_cycles", CFG_DOUBLE, OFF(launch.warp_launch_cycles), 0, 1e4, "0", "cycles", CFG_SRC_MICROBENCH, NULL, "an SM starts the warps of a workgroup one after another, this many cycles apart (0: all at once)" },
    { "launch", "retire_waits_for_acks", CFG_BOOL, OFF(launch.retire_waits_for_acks), 0, 1, "0", "", CFG_SRC_MICROBENCH, NULL, "a workgroup's slot frees only once the L2 has acknowledged every global store and atomic it sent, fire-and-forget ones included" },
    { "launch", "split_exit_cycles", CFG_DOUBLE, OFF(launch.split_exit_cycles), 0, 1e4, "0", "cycles", CFG_SRC_CALIBRATE, NULL, "the global dispatcher spends this long on each warp that exits more than split_exit_window_cycles before its workgroup's last warp (0: off)" },
    { "launch", "split_exit_window_cycles", CFG_DOUBLE, OFF(launch.split_exit_window_cycles), 0, 1e6, "100", "cycles", CFG_SRC_CALIBRATE, NULL, "how much earlier than its workgroup's last warp a warp must exit to cost split_exit_cycles" },
    { "launch", "split_exit_smem_max_bytes", CFG_INT, OFF(launch.split_exit_smem_max_bytes), 0, 1 << 24, "32768", "bytes", CFG_SRC_MICROBENCH, NULL, "split exits cost only while the resident workgroups of an SM declare at most this much shared memory in all (above it the driver picks a larger shared-memory carveout)" },
    { "launch", "split_exit_min_wg_per_sm", CFG_INT, OFF(launch.split_exit_min_wg_per_sm), 1, 1024, "1", "workgroups", CFG_SRC_MICROBENCH, NULL, "split exits cost only where at least this many workgroups are resident an SM" },
    { "launch", "split_exit_max_wg_per_sm", CFG_INT, OFF(launch.split_exit_max_wg_per_sm), 1, 1024, "1024", "workgroups", CFG_SRC_MICROBENCH, NULL, "split exits cost only where at most this many workgroups are resident an SM" },
    { "launch", "split_exit_share_wgs", CFG_INT, OFF(launch.split_exit_share_wgs), 0, 1 << 20, "0", "workgroups", CFG_SRC_CALIBRATE, NULL, "the split-exit cost of a warp is scaled by the share of split workgroups among about this many last retired (an exponential average; 0: not scaled)" },

    { "core", "alu_latency_cycles", CFG_DOUBLE, OFF(core.alu_latency_cycles), 1, 1000, "4", "cycles", CFG_SRC_ESTIMATE, NULL, "dependent ALU instruction latency" },
    { "core", "key_instructions", CFG_INT, OFF(core.key_instructions), 0, 10000, "12", "instructions", CFG_SRC_ESTIMATE, NULL, "global id and lowbias32" },
    { "core", "select_instructions", CFG_INT, OFF(core.select_instructions), 0, 10000, "5", "instructions", CFG_SRC_ESTIMATE, NULL, "key % 1000000 < threshold and the branch" },
    { "core", "bin_instructions", CFG_INT, OFF(core.bin_instructions), 0, 10000, "8", "instructions", CFG_SRC_ESTIMATE, NULL, "hot test and (key >> 3) % K" },
    { "core", "address_instructions", CFG_INT, OFF(core.address_instructions), 0, 10000, "3", "instructions", CFG_SRC_ESTIMATE, NULL, "address arithmetic per memory instruction" },
    { "core", "cas_loop_instructions", CFG_INT, OFF(core.cas_loop_instructions), 0, 10000, "6", "instructions", CFG_SRC_ESTIMATE, NULL, "per CAS retry: compare, rebuild the word, branch" },
    { "core", "subgroup_op_instructions", CFG_INT, OFF(core.subgroup_op_instructions), 0, 10000, "6", "instructions", CFG_SRC_ESTIMATE, NULL, "ballot, popcount and elect" },
    { "core", "barrier_cycles", CFG_DOUBLE, OFF(core.barrier_cycles), 0, 1e6, "20", "cycles", CFG_SRC_ESTIMATE, NULL, "last arrival to release of a workgroup barrier" },
    { "core", "exit_cycles", CFG_DOUBLE, OFF(core.exit_cycles), 0, 1e6, "20", "cycles", CFG_SRC_ESTIMATE, NULL, "warp teardown" },

    { "coalesce", "line_bytes", CFG_INT, OFF(coalesce.line_bytes), 32, 1024, "128", "bytes", CFG_SRC_SPEC, NULL, "one request per distinct line of a warp instruction" },
    { "coalesce", "merge_rule", CFG_ENUM, OFF(coalesce.merge_rule), 0, 2, "uniform", "", CFG_SRC_MICROBENCH, merge_names, "add/or lanes merged into one L2 op: none; uniform (only when every lane has one address); per_address" },
    { "coalesce", "compiler_aggregation", CFG_BOOL, OFF(coalesce.compiler_aggregation), 0, 1, "1", "", CFG_SRC_MICROBENCH, NULL, "an add on a compile-time uniform address is aggregated in the warp (one lane sends the sum)" },
    { "coalesce", "merge_cas", CFG_BOOL, OFF(coalesce.merge_cas), 0, 1, "0", "", CFG_SRC_CALIBRATE, NULL, "same-address CAS lanes of one instruction resolve as one L2 op" },
    { "coalesce", "lsu_cycles_per_request", CFG_DOUBLE, OFF(coalesce.lsu_cycles_per_request), 0, 1e4, "1", "cycles", CFG_SRC_CALIBRATE, NULL, "SM memory port: cycles per line request sent" },
    { "coalesce", "lsu_return_cycles_per_request", CFG_DOUBLE, OFF(coalesce.lsu_return_cycles_per_request), 0, 1e4, "0", "cycles", CFG_SRC_CALIBRATE, NULL, "SM memory port: extra cycles per line request of an atomic whose result the warp uses" },
    { "coalesce", "reply_cycles_per_request", CFG_DOUBLE, OFF(coalesce.reply_cycles_per_request), 0, 1e4, "0", "cycles", CFG_SRC_MICROBENCH, NULL, "an atomic whose old value the warp uses: its requests' replies enter the SM this far apart (0: together)" },

    { "xbar", "latency_cycles", CFG_DOUBLE, OFF(xbar.latency_cycles), 0, 1e5, "200", "cycles", CFG_SRC_ESTIMATE, NULL, "one way, SM to L2 slice" },

    { "l2", "slice_count", CFG_INT, OFF(l2.slice_count), 1, 4096, "80", "slices", CFG_SRC_ESTIMATE, NULL, "L2 slices, each with an atomic unit" },
    { "l2", "slice_hash", CFG_ENUM, OFF(l2.slice_hash), 0, 1, "xor", "", CFG_SRC_MICROBENCH, hash_names, "line to slice: mod (line % slices) or xor (folded line bits)" },
    { "l2", "atomic_issue_cycles", CFG_DOUBLE, OFF(l2.atomic_issue_cycles), 0.01, 1e4, "1", "cycles", CFG_SRC_CALIBRATE, NULL, "atomic unit: cycles per pass over one 32-byte sector of a request" },
    { "l2", "cas_issue_cycles", CFG_DOUBLE, OFF(l2.cas_issue_cycles), 0, 1e4, "0", "cycles", CFG_SRC_CALIBRATE, NULL, "atomic unit: cycles per sector pass of a compare-and-swap request (0: atomic_issue_cycles)" },
    { "l2", "same_address_cycles", CFG_DOUBLE, OFF(l2.same_address_cycles), 0, 1e5, "2", "cycles", CFG_SRC_CALIBRATE, NULL, "read-modify-write dependency between ops on one address" },
    { "l2", "merged_lane_cycles", CFG_DOUBLE, OFF(l2.merged_lane_cycles), 0, 1e4, "0", "cycles", CFG_SRC_CALIBRATE, NULL, "extra same-address dependency per additional lane of a merged CAS or per-address merge (a whole-warp uniform merge pays none)" },
    { "l2", "word_chain_cycles", CFG_DOUBLE, OFF(l2.word_chain_cycles), 0, 1e4, "0", "cycles", CFG_SRC_MICROBENCH, NULL, "read-modify-write latency of each link of a chain of one request's lanes on one word, when the slice is interleaving requests to other lines (shared by those lines; 0: chains run at the pass rate)" },
    { "l2", "interleave_lines", CFG_INT, OFF(l2.interleave_lines), 1, 1 << 16, "1", "lines", CFG_SRC_CALIBRATE, NULL, "consecutive lines that map to one slice before hashing" },
    { "l2", "hash_ignore_mask", CFG_INT, OFF(l2.hash_ignore_mask), 0, 65535, "0", "", CFG_SRC_CALIBRATE, NULL, "line-index bits the slice hash ignores (4: lines l and l^4 share a slice)" },
    { "l2", "partition_block_lines", CFG_INT, OFF(l2.partition_block_lines), 0, 1 << 24, "0", "lines", CFG_SRC_MICROBENCH, NULL, "aligned blocks of this many lines (a power of two) alternate between the two halves of the L2; even SMs sit by half 0, odd ones by half 1 (0: one L2)" },
    { "l2", "partition_link_requests_per_cycle", CFG_DOUBLE, OFF(l2.partition_link_requests_per_cycle), 0, 1e4, "0", "requests", CFG_SRC_CALIBRATE, NULL, "atomic requests a cycle that the link between the L2's halves carries each way, for SMs whose line sits in the other half; its full queue (partition_link_queue_requests) holds their ports (0: no link, one L2; stores do not cross it)" },
    { "l2", "partition_link_queue_requests", CFG_INT, OFF(l2.partition_link_queue_requests), 1, 1 << 20, "1024", "requests", CFG_SRC_CALIBRATE, NULL, "requests the queue of the link between the L2's halves holds, each way; a sender that finds it full waits at its port" },
    { "l2", "atomic_latency_cycles", CFG_DOUBLE, OFF(l2.atomic_latency_cycles), 0, 1e5, "60", "cycles", CFG_SRC_ESTIMATE, NULL, "op start to its reply leaving the slice" },
    { "l2", "store_issue_cycles", CFG_DOUBLE, OFF(l2.store_issue_cycles), 0, 1e4, "1", "cycles", CFG_SRC_ESTIMATE, NULL, "slice cycles per line store" },
    { "l2", "queue_depth_requests", CFG_INT, OFF(l2.queue_depth_requests), 1, 1 << 20, "64", "requests", CFG_SRC_ESTIMATE, NULL, "requests a slice queues before it stalls senders" },
    { "l2", "full_queue_holds", CFG_ENUM, OFF(l2.full_queue_holds), 0, 1, "all", "", CFG_SRC_CALIBRATE, hold_names, "senders a full slice queue holds in their SM's port: all, or returning (only requests whose reply the warp waits for; reductions and stores wait in buffers on the way)" },
    { "l2", "cas_service", CFG_ENUM, OFF(l2.cas_service), 0, 2, "arrival", "", CFG_SRC_SETTING, cas_service_names, "order in which a slice serves the compare-and-swap requests waiting for it: arrival (first come, resolved as issued); random (resolved when served, taking the oldest request of a random non-empty input queue, l2.cas_sources: a fresh retry from one SM can overtake stale ones from others); or class (resolved when served: each input queue has a fixed priority class at each slice, l2.cas_classes of them, and the slice takes the oldest head of the best class waiting, so SMs of a worse class join the race only when the better ones leave the slice idle)" },
    { "l2", "cas_classes", CFG_INT, OFF(l2.cas_classes), 1, 64, "2", "classes", CFG_SRC_SETTING, NULL, "with cas_service = class: priority classes of the input queues at a slice; a queue's class at each slice is a fixed hash of the two, standing in for where the SMs sit relative to the slice (vkbench --trace: SMs join a contended word in groups, in an order that holds across rows)" },
    { "l2", "cas_sources", CFG_INT, OFF(l2.cas_sources), 1, 1024, "1", "queues", CFG_SRC_SETTING, NULL, "with cas_service = random or class: the input queues through which the SMs (contiguous groups of them) feed a slice; each is first come, first served, and the slice serves any non-empty one (1: one queue, in arrival order)" },
    { "l2", "hol_blocking", CFG_BOOL, OFF(l2.hol_blocking), 0, 1, "0", "", CFG_SRC_CALIBRATE, NULL, "a request waiting on its addresses blocks the requests behind it" },
    { "l2", "size_bytes", CFG_DOUBLE, OFF(l2.size_bytes), 1024, 1e12, "52428800", "bytes", CFG_SRC_MICROBENCH, NULL, "L2 capacity" },
    { "l2", "warm_start", CFG_BOOL, OFF(l2.warm_start), 0, 1, "0", "", CFG_SRC_MICROBENCH, NULL, "the buffers start in L2 (up to its capacity), as after the clear that the harness submits just before the timed kernel; 0: every line misses on first touch" },

    { "dram", "latency_cycles", CFG_DOUBLE, OFF(dram.latency_cycles), 0, 1e6, "500", "cycles", CFG_SRC_ESTIMATE, NULL, "L2 miss to data" },
    { "dram", "bandwidth_gbps", CFG_DOUBLE, OFF(dram.bandwidth_gbps), 1, 1e6, "3350", "GB/s", CFG_SRC_SPEC, NULL, "DRAM bandwidth" },

    { "smem", "bank_count", CFG_INT, OFF(smem.bank_count), 1, 1024, "32", "banks", CFG_SRC_SPEC, NULL, "shared-memory banks, 4 bytes wide" },
    { "smem", "atomic_issue_cycles", CFG_DOUBLE, OFF(smem.atomic_issue_cycles), 0, 1e4, "2", "cycles", CFG_SRC_CALIBRATE, NULL, "per conflict-free pass of a warp's shared atomic" },
    { "smem", "same_word_cycles", CFG_DOUBLE, OFF(smem.same_word_cycles), 0, 1e4, "1", "cycles", CFG_SRC_CALIBRATE, NULL, "extra per additional lane on one word (0: merged)" },
    { "smem", "atomic_latency_cycles", CFG_DOUBLE, OFF(smem.atomic_latency_cycles), 0, 1e5, "30", "cycles", CFG_SRC_ESTIMATE, NULL, "shared atomic latency" },
    { "smem", "access_latency_cycles", CFG_DOUBLE, OFF(smem.access_latency_cycles), 0, 1e5, "25", "cycles", CFG_SRC_ESTIMATE, NULL, "plain shared load or store" },
    { "smem", "loop_branch_cycles", CFG_DOUBLE, OFF(smem.loop_branch_cycles), 0, 1e4, "0", "cycles", CFG_SRC_MICROBENCH, NULL, "a loop over shared memory: each iteration's back-edge branch holds the warp this long, beyond its dependent ALU instructions (0: free)" },

    { "sim", "max_events", CFG_DOUBLE, OFF(sim.max_events), 1, 1e15, "2e8", "events", CFG_SRC_SETTING, NULL, "event budget (about a minute on one core); a run needing more fails and names it, except a compare-and-swap pattern over several waves, which skips its last workgroups at a steady window's rate to stay within three quarters of it (docs/simulator.md, Fast-forward)" },
    { "sim", "max_memory_mb", CFG_DOUBLE, OFF(sim.max_memory_mb), 1, 1e9, "4096", "MB", CFG_SRC_SETTING, NULL, "memory budget of one simulated run, in MB of 2^20 bytes: the simulator estimates what a run will hold (an upper bound) before allocating, and a run estimated above it fails and names it; enters no config hash (it changes no result)" },

    { "model", "seed_l2_base_latency_cycles", CFG_DOUBLE, OFF(model.seed_l2_base_latency_cycles), 0, 1e6, "200", "cycles", CFG_SRC_SETTING, NULL, "seed 000: uncontended global atomic round trip" },
    { "model", "seed_dram_latency_cycles", CFG_DOUBLE, OFF(model.seed_dram_latency_cycles), 0, 1e6, "200", "cycles", CFG_SRC_SETTING, NULL, "seed 001: DRAM access latency (one RMW = 2x)" },
    { "model", "cas_merged_lane_cycles", CFG_DOUBLE, OFF(model.cas_merged_lane_cycles), 0, 1e4, "0", "cycles", CFG_SRC_SETTING, NULL, "the first-come CAS race's price per merged lane, read only where the count law is off (model.cas_saving_exponent = 0; for the sub-word histograms also model.cas_line_lane_cycles = 0): the model before docs/findings.md 48 and 49, kept for comparison; 0: use l2.merged_lane_cycles" },
    { "model", "cas_request_cycles", CFG_DOUBLE, OFF(model.cas_request_cycles), 0, 1e4, "0", "cycles", CFG_SRC_SETTING, NULL, "the first-come CAS race's price per request before its merged lanes, read only where the count law is off (as cas_merged_lane_cycles; 0: the L2 keys' chain)" },
    { "model", "cas_saving_knee_lanes", CFG_DOUBLE, OFF(model.cas_saving_knee_lanes), 1, 1e9, "300", "lanes", CFG_SRC_MICROBENCH, NULL, "cas-append on a GPU: in a race's last wave (no workgroup left to join), the racers on the word past which, spread over SMs, the GPU makes fewer attempts than first-come (docs/findings.md 48; fitted to the probes' counted attempts by docs/cas_count_law.py)" },
    { "model", "cas_saving_exponent", CFG_DOUBLE, OFF(model.cas_saving_exponent), 0, 2, "0", "", CFG_SRC_MICROBENCH, NULL, "the last wave's attempts over first-come's fall as (racers / knee)^-exponent past the knee, each lane-attempt at l2.same_address_cycles; earlier waves stay first-come; 0: first-come throughout, at the settings model.cas_request_cycles and cas_merged_lane_cycles (docs/findings.md 48)" },
    { "model", "cas_line_lane_cycles", CFG_DOUBLE, OFF(model.cas_line_lane_cycles), 0, 1e4, "0", "cycles", CFG_SRC_CALIBRATE, NULL, "the sub-word histograms under the count law: a CAS request to one line holds its slice for the larger of its lanes at this price each and its busiest 8-byte chunk's lanes at l2.same_address_cycles each (docs/findings.md 49); 0: first-come at the settings model.cas_request_cycles and cas_merged_lane_cycles" },

    { "dispatch", "density_penalty_start", CFG_DOUBLE, OFF(dispatch.density_penalty_start), 0, 1, "0.05", "fraction", CFG_SRC_SETTING, NULL, "contention density (of thread capacity) where the penalty starts" },
    { "dispatch", "density_inhibit", CFG_DOUBLE, OFF(dispatch.density_inhibit), 0, 1, "0.10", "fraction", CFG_SRC_SETTING, NULL, "density above which the GPU is inhibited (-inf)" },
    { "dispatch", "inhibit_cas", CFG_BOOL, OFF(dispatch.inhibit_cas), 0, 1, "1", "", CFG_SRC_SETTING, NULL, "inhibit CAS-based algorithms regardless of density" },
    { "dispatch", "rule", CFG_ENUM, OFF(dispatch.rule), 0, 1, "cost", "", CFG_SRC_SETTING, rule_names, "how the dispatcher decides: cost (the faster side by predicted cost, data movement included) or seed (seed 000's density penalty and categorical inhibition before cost)" },
    { "dispatch", "data_on", CFG_ENUM, OFF(dispatch.data_on), 0, 2, "gpu", "", CFG_SRC_SETTING, data_on_names, "where the input lives: gpu (the CPU tier fetches it), host (the GPU fetches it and returns its result) or both (resident on each side: no movement)" },
    { "dispatch", "host_launch_us", CFG_DOUBLE, OFF(dispatch.host_launch_us), 0, 1e6, "0", "us", CFG_SRC_SETTING, NULL, "host-side cost of submitting one GPU dispatch and waiting for it, beyond the launch between the GPU's timestamps (0: timestamps only, as the measured datasets time it)" },
    { "dispatch", "pcie_bandwidth_gbps", CFG_DOUBLE, OFF(dispatch.pcie_bandwidth_gbps), 0.001, 1e4, "25", "GB/s", CFG_SRC_ESTIMATE, NULL, "host-device transfer bandwidth" },
};

const cfg_option *cfg_options(size_t *count)
{
    *count = sizeof options / sizeof options[0];
    return options;
}

static const char *const source_names[CFG_SRC_COUNT] = {
    [CFG_SRC_UNSET] = "unset",
    [CFG_SRC_SPEC] = "spec",
    [CFG_SRC_MICROBENCH] = "microbenchmark",
    [CFG_SRC_CALIBRATE] = "calibrate",
    [CFG_SRC_HAND] = "hand",
    [CFG_SRC_ESTIMATE] = "estimate",
    [CFG_SRC_SETTING] = "setting",
    [CFG_SRC_LABEL] = "label",
};

static const char *const source_helps[CFG_SRC_COUNT] = {
    [CFG_SRC_UNSET] = "no source recorded (a bug: every key needs one)",
    [CFG_SRC_SPEC] = "a public document: NVIDIA's whitepaper or CUDA guide, a published microbenchmark",
    [CFG_SRC_MICROBENCH] = "measured by this project's own probes on the H100 (`validate/data/probes/h100-*.csv`, device queries)",
    [CFG_SRC_CALIBRATE] = "fitted by a stage of `atomsim calibrate` (`docs/calibration.md`); the value is the "
                          "overlay's (`configs/h100.calibrated.ini`)",
    [CFG_SRC_HAND] = "fitted by hand to measured rows (`docs/findings.md`)",
    [CFG_SRC_ESTIMATE] = "an estimate: a guess, or a figure carried over from another GPU or a derivation, that no "
                         "source gives and no calibration stage fits yet",
    [CFG_SRC_SETTING] = "not a hardware fact: a simulator, model or dispatch setting",
    [CFG_SRC_LABEL] = "describes the config for reports (run, sweep, dispatch, plots): enters no result and no config hash",
};

const char *cfg_source_name(enum cfg_source s)
{
    return (unsigned)s < CFG_SRC_COUNT ? source_names[s] : source_names[CFG_SRC_UNSET];
}

const char *cfg_source_help(enum cfg_source s)
{
    return (unsigned)s < CFG_SRC_COUNT ? source_helps[s] : source_helps[CFG_SRC_UNSET];
}

int cfg_is_calibratable(const cfg_option *opt)
{
    return opt->source == CFG_SRC_CALIBRATE;
}

const cfg_option *cfg_find(const char *section, const char *key)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (!strcmp(options[i].section, section) && !strcmp(options[i].key, key))
            return &options[i];
    return NULL;
}

/* FNV-1a over the table itself (not over a config's values, as cfg_hash
 * is): every row's section, key, type, bounds, default, unit, source and
 * enum names, so `atomsim --version` tells two builds that read a config
 * differently apart even when their version strings agree.  The help text
 * is left out: rewording it changes no number. */
static void fnv_text(uint64_t *h, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        *h ^= *p;
        *h *= 1099511628211ull;
    }
    *h ^= 0x1f; /* a field separator, so "ab"+"c" differs from "a"+"bc" */
    *h *= 1099511628211ull;
}

uint64_t cfg_options_hash(size_t *count)
{
    uint64_t h = 1469598103934665603ull;
    char buf[160];
    size_t n = sizeof options / sizeof options[0];
    for (size_t i = 0; i < n; i++) {
        const cfg_option *o = &options[i];
        char lo[48], hi[48];
        cfg_format_double(lo, sizeof lo, o->min);
        cfg_format_double(hi, sizeof hi, o->max);
        snprintf(buf, sizeof buf, "%d|%s|%s|%s", (int)o->type, lo, hi, cfg_source_name(o->source));
        fnv_text(&h, o->section);
        fnv_text(&h, o->key);
        fnv_text(&h, buf);
        fnv_text(&h, o->def);
        fnv_text(&h, o->unit);
        for (const char *const *e = o->enum_names; e && *e; e++)
            fnv_text(&h, *e);
        fnv_text(&h, "\n");
    }
    if (count)
        *count = n;
    return h;
}
