/* config.h - the GPU description shared by the simulator and the model.
 *
 * A config is a plain struct, filled from one option table (options.c) that
 * drives INI parsing, `-p section.key=value` overrides, range checks, the
 * `config --dump` listing and the effective config in JSON output.  The
 * engine reads fields directly: no string lookup ever happens in a hot loop.
 * Every field name carries its unit. */
#ifndef ATOM_MODEL_CONFIG_H
#define ATOM_MODEL_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#define CFG_NAME_MAX 64
#define CFG_ERR_MAX 256

enum cfg_slice_hash { CFG_HASH_MOD = 0, CFG_HASH_XOR = 1 };
/* Which lanes of one atomic instruction leave the SM as one L2 op. */
enum cfg_merge_rule { CFG_MERGE_NONE = 0, CFG_MERGE_UNIFORM = 1, CFG_MERGE_PER_ADDRESS = 2 };
/* Which requests a full slice queue holds in their SM's memory port. */
enum cfg_queue_hold { CFG_HOLD_ALL = 0, CFG_HOLD_RETURNING = 1 };
/* Which waiting compare-and-swap request a slice serves next. */
enum cfg_cas_service { CFG_CAS_ARRIVAL = 0, CFG_CAS_RANDOM = 1, CFG_CAS_CLASS = 2 };

typedef struct cfg_gpu {
    char name[CFG_NAME_MAX];
    char trust[CFG_NAME_MAX];          /* how far its values are borne out, for reports (no hash) */
    int sm_count;
    double sm_clock_mhz;
    int subgroup_size;
    int fp32_lanes_per_sm;          /* threads per cycle = sm_count * this (seed 000) */
    int schedulers_per_sm;
    int max_threads_per_sm;
    int max_warps_per_sm;
    int max_wg_per_sm;
    int max_wg_size;
    int smem_per_sm_bytes;
    int max_smem_per_wg_bytes;
    int smem_reserved_per_wg_bytes; /* driver-reserved shared memory per resident workgroup */
} cfg_gpu;

typedef struct cfg_launch {
    double kernel_overhead_cycles;    /* the launch floor: the shortest kernel, timestamp to timestamp */
    double wg_dispatch_cycles;        /* global workgroup dispatcher: one workgroup per this many cycles */
    double dispatch_lead_cycles;      /* workgroups start this long before the floor ends */
    double wg_retire_cycles;          /* an SM's slot freed after its workgroup ends */
    double warp_launch_cycles;        /* an SM starts a workgroup's warps one by one, this far apart */
    int retire_waits_for_acks;        /* 1: ...and after the L2 acknowledged its global stores and atomics */
    double split_exit_cycles;         /* dispatcher time per warp that left well before its workgroup's last */
    double split_exit_window_cycles;  /* "well before": more than this many cycles */
    int split_exit_smem_max_bytes;    /* ...only while an SM's workgroups declare at most this much shared memory */
    int split_exit_min_wg_per_sm;     /* ...and between these many workgroups are resident an SM */
    int split_exit_max_wg_per_sm;
    int split_exit_share_wgs;         /* ...scaled by the share of split workgroups among about this many last */
} cfg_launch;

typedef struct cfg_core {
    double alu_latency_cycles;        /* dependent-issue latency of one ALU instruction */
    int key_instructions;             /* lowbias32 and the global id */
    int select_instructions;          /* key % 1000000 < threshold */
    int bin_instructions;             /* (key >> 3) % K, hot test */
    int address_instructions;         /* address arithmetic per memory instruction */
    int cas_loop_instructions;        /* per CAS retry: compare, rebuild, branch */
    int subgroup_op_instructions;     /* ballot, popcount, elect */
    double barrier_cycles;            /* from the last warp's arrival to release */
    double exit_cycles;               /* a warp's teardown */
} cfg_core;

typedef struct cfg_coalesce {
    int line_bytes;
    int merge_rule;                   /* enum cfg_merge_rule, hardware merging of add/or lanes */
    int compiler_aggregation;         /* 1: atomics on a compile-time uniform address become one lane */
    int merge_cas;                    /* 1: same-address CAS lanes of one instruction resolve as one op */
    double lsu_cycles_per_request;    /* SM memory port: cycles to send one line request */
    double lsu_return_cycles_per_request; /* extra, when the atomic returns its old value */
    double reply_cycles_per_request;  /* a returning atomic's replies enter the SM this far apart */
} cfg_coalesce;

typedef struct cfg_xbar {
    double latency_cycles;            /* one way, SM to L2 slice */
} cfg_xbar;

typedef struct cfg_l2 {
    int slice_count;
    int slice_hash;                   /* enum cfg_slice_hash */
    double atomic_issue_cycles;       /* atomic unit: cycles per op it starts */
    double cas_issue_cycles;          /* the same for compare-and-swap (0: atomic_issue_cycles) */
    double same_address_cycles;       /* RMW dependency: next op on one address waits this long */
    double merged_lane_cycles;        /* extra dependency per additional lane merged into one op */
    double word_chain_cycles;         /* RMW latency per chained lane when the slice interleaves lines (0: off) */
    int interleave_lines;             /* consecutive lines that map to one slice */
    int hash_ignore_mask;             /* line-index bits the slice hash ignores */
    int partition_block_lines;        /* aligned blocks of lines that alternate between two L2 halves */
    double partition_link_requests_per_cycle; /* the link between the halves, each way (0: one L2) */
    int partition_link_queue_requests;  /* its queue; a full one holds the sender's port */
    double atomic_latency_cycles;     /* op start to its result leaving the slice */
    double store_issue_cycles;        /* cycles per line store */
    int queue_depth_requests;         /* per slice; full queues stall the SM that feeds them */
    int full_queue_holds;             /* enum cfg_queue_hold */
    int cas_service;                  /* enum cfg_cas_service */
    int cas_sources;                  /* input queues per slice for deferred CAS (groups of SMs) */
    int cas_classes;                  /* cas_service = class: priority classes of the queues */
    int hol_blocking;                 /* 1: an op waiting on its address blocks the slice behind it */
    double size_bytes;
    int warm_start;                   /* 1: buffers start resident, as cleared just before the kernel */
} cfg_l2;

typedef struct cfg_dram {
    double latency_cycles;
    double bandwidth_gbps;
} cfg_dram;

typedef struct cfg_smem {
    int bank_count;
    double atomic_issue_cycles;       /* per conflict-free pass of a warp's shared atomic */
    double same_word_cycles;          /* extra per additional lane on one word (0 = merged) */
    double atomic_latency_cycles;
    double access_latency_cycles;     /* plain shared load/store */
    double loop_branch_cycles;        /* a shared-memory loop's back-edge branch, per iteration */
} cfg_smem;

typedef struct cfg_sim {
    double max_events;                /* budget: a run that needs more fails and names it (CAS patterns skip steady workgroups first: sim/fastfwd.c) */
    double max_memory_mb;             /* budget: a run estimated above it fails before allocating */
} cfg_sim;

typedef struct cfg_model {
    double seed_l2_base_latency_cycles;  /* seed 000: uncontended global atomic round trip */
    double seed_dram_latency_cycles;     /* seed 001: one RMW = 2 x this on one DRAM location */
    double cas_merged_lane_cycles;       /* the race's merged-lane cost; 0: l2.merged_lane_cycles */
    double cas_request_cycles;           /* the race's per-request cost; 0: the L2 chain */
    double cas_saving_knee_lanes;        /* cas-append's last wave: racers past which the GPU's count falls below first-come */
    double cas_saving_exponent;          /* ... as (racers / knee)^-exponent; 0: first-come at the law-off settings */
    double cas_line_lane_cycles;         /* sub-word races under the law: a request's lane price on its slice; 0: off */
} cfg_model;

typedef struct cfg_dispatch {
    double density_penalty_start;     /* seed 000: continuous penalty from this fraction ... */
    double density_inhibit;           /* ... and negative infinity above this one */
    int inhibit_cas;                  /* CAS-based algorithms inhibited regardless of density */
    int rule;                         /* enum dsp_rule: cost or seed */
    int data_on;                      /* enum dsp_data_on: where the input lives */
    double host_launch_us;            /* submit + wait on the host, beyond the GPU's own launch */
    double pcie_bandwidth_gbps;
} cfg_dispatch;

typedef struct cfg_config {
    cfg_gpu gpu;
    cfg_launch launch;
    cfg_core core;
    cfg_coalesce coalesce;
    cfg_xbar xbar;
    cfg_l2 l2;
    cfg_dram dram;
    cfg_smem smem;
    cfg_sim sim;
    cfg_model model;
    cfg_dispatch dispatch;
    char path[512];                   /* the file it was read from, "" for defaults */
} cfg_config;

enum cfg_type { CFG_INT, CFG_DOUBLE, CFG_BOOL, CFG_STRING, CFG_ENUM };

/* Where the shipped H100 value of a key comes from (configs/h100.ini's
 * comment beside it), so a reader of `atomsim config` or
 * docs/config-keys.md knows how far to trust it.  Zero is no source: a key
 * added without one fails tests/unit/test_config.c. */
enum cfg_source {
    CFG_SRC_UNSET = 0,
    CFG_SRC_SPEC,       /* a public document: whitepaper, datasheet, CUDA guide, a published microbenchmark */
    CFG_SRC_MICROBENCH, /* measured by this project's own probes (validate/data/probes/h100-*.csv, device queries) */
    CFG_SRC_CALIBRATE,  /* fitted by `atomsim calibrate`: the only keys it may change */
    CFG_SRC_HAND,       /* fitted by hand to measured rows */
    CFG_SRC_ESTIMATE,   /* an estimate no source gives */
    CFG_SRC_SETTING,    /* not a hardware fact: a simulator, model or dispatch setting */
    CFG_SRC_LABEL,      /* describes the config for reports; enters no result and no cfg_hash */
    CFG_SRC_COUNT
};

typedef struct cfg_option {
    const char *section;
    const char *key;
    enum cfg_type type;
    size_t offset;
    double min, max;                  /* inclusive bounds for numbers */
    const char *def;                  /* default as text, parsed like a config value */
    const char *unit;
    enum cfg_source source;           /* where the H100's value comes from */
    const char *const *enum_names;    /* NULL-terminated, for CFG_ENUM */
    const char *help;
} cfg_option;

/* The one option table.  cfg_options() returns it and its length. */
const cfg_option *cfg_options(size_t *count);
const cfg_option *cfg_find(const char *section, const char *key);
/* A source as text ("spec", "microbenchmark", "calibrate", "hand",
 * "estimate", "setting"; "unset" for zero or anything out of range), and a
 * one-line gloss of it for the key reference. */
const char *cfg_source_name(enum cfg_source s);
const char *cfg_source_help(enum cfg_source s);
/* `atomsim calibrate` fits exactly the keys whose source is calibrate. */
int cfg_is_calibratable(const cfg_option *opt);

/* Every field set to its default. */
void cfg_defaults(cfg_config *cfg);

/* Read an INI file over the defaults.  Unknown sections or keys, malformed
 * or out-of-range values fail with `err` naming file, line, key and value.
 * Returns 0 on success. */
/* The shortest %g text that reads back to the same double (config
 * values, the config hash). */
void cfg_format_double(char *buf, size_t len, double v);
/* The same, but integers below 1e15 written out in full (tables, CSV). */
void cfg_format_exact(char *buf, size_t len, double v);
/* A number for section.key: finite, an integer when asked, within
 * [min, max]; the messages every config reader gives.  Returns 0 or -1. */
int cfg_parse_number(const char *section, const char *key, const char *unit, const char *value, int integer, double min,
                     double max, double *out, char err[CFG_ERR_MAX]);
int cfg_load(cfg_config *cfg, const char *path, char err[CFG_ERR_MAX]);
/* The same, leaving out any `include` of the file `skip` (a calibration
 * starts from the hand-written values, not from the overlay it rewrites). */
int cfg_load_except(cfg_config *cfg, const char *path, const char *skip, char err[CFG_ERR_MAX]);

/* Apply one `section.key=value` override; same checks as the file. */
int cfg_override(cfg_config *cfg, const char *assignment, char err[CFG_ERR_MAX]);

/* Set one option from text; used by load, override and the sweep tool. */
int cfg_set(cfg_config *cfg, const cfg_option *opt, const char *value, char err[CFG_ERR_MAX]);

/* Format one option's current value (shortest text that reads back exactly). */
void cfg_format(const cfg_config *cfg, const cfg_option *opt, char *buf, size_t len);

/* Cross-field checks (e.g. max_wg_size a multiple of subgroup_size). */
int cfg_validate(const cfg_config *cfg, char err[CFG_ERR_MAX]);

/* FNV-1a over every option's formatted value: identifies an effective config. */
uint64_t cfg_hash(const cfg_config *cfg);
/* The same over the keys the simulator reads: every section but [model],
 * the analytical model's own.  A table's simulator-made parts carry it, so
 * that a change to the model alone keeps them (app/export_part.c). */
uint64_t cfg_sim_hash(const cfg_config *cfg);
/* FNV-1a over the option table's rows themselves (section, key, type,
 * bounds, default, unit, source, enum names; not the help): identifies the
 * table a build reads configs with, for --version.  `count` gets the number
 * of rows when not NULL. */
uint64_t cfg_options_hash(size_t *count);

/* Derived quantities used by both engines. */
double cfg_threads_per_cycle(const cfg_config *cfg);

/* Resident workgroups per SM of wg threads declaring smem_bytes of shared
 * memory, and which resource caps it (one rule for the simulator, the model
 * and the tables; the exported C header writes the same arithmetic out).
 * wg >= 1: callers check it first (a multiple of the subgroup size).
 * 0: the workgroup does not fit. */
enum cfg_occ_limit { CFG_OCC_WG_SLOTS, CFG_OCC_THREADS, CFG_OCC_WARPS, CFG_OCC_SMEM };
int cfg_wg_per_sm(const cfg_config *cfg, int wg, uint32_t smem_bytes, enum cfg_occ_limit *limit);
double cfg_dram_bytes_per_cycle(const cfg_config *cfg);

#endif
