/* cpu_config.h - the CPU tier's description (configs/cpu-*.ini): worker
 * count and the costs build/cpubench measured.  Its own small option table
 * (cpu_config.c) drives INI parsing, range checks, the dump every export
 * embeds and the hash that identifies it, like model/options.c does for
 * GPUs.  Units in every key name. */
#ifndef ATOM_MODEL_CPU_CONFIG_H
#define ATOM_MODEL_CPU_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

#define CPU_TEXT_MAX 64

typedef struct cpu_config {
    char name[CPU_TEXT_MAX];          /* [source]: where the numbers come from */
    char cpu_model[CPU_TEXT_MAX];
    char date[CPU_TEXT_MAX];
    char tool[CPU_TEXT_MAX];
    int workers;                      /* [cpu] */
    double pool_dispatch_us;          /* [cost] wake every worker, wait for all */
    double key_ns;                    /* per element per worker: hash, select, count */
    double reduce_ns;                 /* per element per worker: hash, sum of key & 255 (0: key_ns) */
    double bitmask_ns;                /* per element per worker: hash, select, fold into a word (0: key_ns) */
    double lines_ns;                  /* per element per worker: distinct-lines' stepped increment, one copy (0: key_ns + update_l1_ns) */
    double store_ns;                  /* per element beyond key_ns: compaction's write of every key */
    double store_skip_ns;             /* store: a mispredicted skip of its masked write, per worker */
    int store_skip_lanes;             /* keys one skip branch covers */
    double copy_gbps;                 /* concatenating compaction regions */
    double zero_ns_per_bin;           /* zeroing private bins, per bin */
    double merge_ns_per_bin;          /* summing one bin over every worker's copy */
    double l1_bytes, l2_bytes, llc_bytes; /* [cache] */
    double update_l1_ns, update_l2_ns, update_llc_ns, update_dram_ns;
    double update_same_bin_ns;        /* consecutive updates of one bin (scaled by 1/K) */
    double scan_fixed_us;             /* [fixed] a whole one-phase task at n = workers whose result the caller sums (0: pool_dispatch_us) */
    double write_fixed_us;            /* the same for a task that writes its output in place (0: scan_fixed_us; a config without the key takes the built-in typical host's, as every key does) */
    double compact_fixed_us;          /* the same for scan + concatenation */
    double bins_fixed_us;             /* the same for private bins: zero, scan, merge */
    double bins_cached_ns_per_bin;    /* zeroing and merging one bin while every copy stays in cache (0: the [cost] rates) */
    char path[512];
} cpu_config;

enum cpu_type { CPU_T_INT, CPU_T_DOUBLE, CPU_T_STRING };

typedef struct cpu_option {
    const char *section, *key;
    enum cpu_type type;
    size_t offset;
    double min, max;
    const char *def, *unit, *help;
} cpu_option;

const cpu_option *cpu_options(size_t *count);

/* Defaults: the GPU host's 16-worker CPU tier as cpubench measured it
 * (configs/cpu-gpuhost-16core.ini), used when no --cpu config is named. */
void cpu_defaults(cpu_config *c);

/* Reads an INI file over the defaults; unknown keys, malformed or
 * out-of-range values fail with err naming file, line and key. */
int cpu_load(cpu_config *c, const char *path, char err[CFG_ERR_MAX]);

/* Shortest text that reads back to the same value. */
void cpu_format(const cpu_config *c, const cpu_option *o, char *buf, size_t len);

/* FNV-1a over every option's formatted value. */
uint64_t cpu_hash(const cpu_config *c);

#endif
