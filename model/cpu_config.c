/* cpu_config.c - the CPU tier's option table and its INI reader (inih),
 * with the same strictness as model/config.c: unknown keys and
 * out-of-range values are errors, never ignored. */
#include "cpu_config.h"

#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/lines_ini.h"

#define OFF(f) offsetof(cpu_config, f)

/* Defaults: the GPU host's 16-core CPU tier (configs/cpu-gpuhost-16core.ini,
 * measured by build/cpubench), so that an export without --cpu weighs the
 * GPU against the CPU beside it. */
static const cpu_option options[] = {
    { "source", "name", CPU_T_STRING, OFF(name), 0, 0, "cpu-gpuhost-16core", "", "what the numbers describe" },
    { "source", "cpu_model", CPU_T_STRING, OFF(cpu_model), 0, 0, "Intel(R) Xeon(R) Processor", "", "/proc/cpuinfo model name" },
    { "source", "date", CPU_T_STRING, OFF(date), 0, 0, "2026-11-25T12:24:59Z", "", "when cpubench measured it" },
    { "source", "tool", CPU_T_STRING, OFF(tool), 0, 0, "cpubench", "", "cpubench, or estimate" },
    { "cpu", "workers", CPU_T_INT, OFF(workers), 1, 4096, "16", "workers", "worker threads of the CPU tier" },
    { "cost", "pool_dispatch_us", CPU_T_DOUBLE, OFF(pool_dispatch_us), 0, 1e6, "2.019", "us", "wake every worker and wait for all" },
    { "cost", "key_ns", CPU_T_DOUBLE, OFF(key_ns), 0, 1e6, "0.6559", "ns", "per element per worker: lowbias32, select, count" },
    { "cost", "reduce_ns", CPU_T_DOUBLE, OFF(reduce_ns), 0, 1e6, "0.3270", "ns", "per element per worker: hash, sum of key & 255, no selection (0: key_ns)" },
    { "cost", "bitmask_ns", CPU_T_DOUBLE, OFF(bitmask_ns), 0, 1e6, "0.8104", "ns", "per element per worker: hash, select, the bit folded into a word built whole (0: key_ns)" },
    { "cost", "lines_ns", CPU_T_DOUBLE, OFF(lines_ns), 0, 1e6, "0", "ns", "per element per worker: distinct-lines' increment of the next counter in one private copy, no key (P = 4,096; docs/findings.md 51); 0: not measured, key_ns + update_l1_ns as a hashed update" },
    { "cost", "store_ns", CPU_T_DOUBLE, OFF(store_ns), 0, 1e6, "0.7673", "ns", "per element beyond key_ns: compaction's branch-free write of every key" },
    { "cost", "store_skip_ns", CPU_T_DOUBLE, OFF(store_skip_ns), 0, 1e6, "27.762", "ns", "store: a mispredicted skip of its masked write, per worker (0: no such branch)" },
    { "cost", "store_skip_lanes", CPU_T_INT, OFF(store_skip_lanes), 1, 64, "16", "keys", "store: keys one skip branch covers (16 AVX-512, 8 AVX2, 1 scalar)" },
    { "cost", "copy_gbps", CPU_T_DOUBLE, OFF(copy_gbps), 0.001, 1e6, "91.426", "GB/s", "concatenating compaction regions" },
    { "cost", "zero_ns_per_bin", CPU_T_DOUBLE, OFF(zero_ns_per_bin), 0, 1e6, "0.5456", "ns", "zeroing private bins, per bin" },
    { "cost", "merge_ns_per_bin", CPU_T_DOUBLE, OFF(merge_ns_per_bin), 0, 1e6, "0.4591", "ns", "summing one bin over every worker's copy" },
    { "cache", "l1_bytes", CPU_T_DOUBLE, OFF(l1_bytes), 1, 1e12, "49152", "bytes", "L1 data cache per core" },
    { "cache", "l2_bytes", CPU_T_DOUBLE, OFF(l2_bytes), 1, 1e12, "2097152", "bytes", "L2 cache per core" },
    { "cache", "llc_bytes", CPU_T_DOUBLE, OFF(llc_bytes), 1, 1e12, "314572800", "bytes", "last-level cache, shared" },
    { "cache", "update_l1_ns", CPU_T_DOUBLE, OFF(update_l1_ns), 0, 1e6, "1.0429", "ns", "histogram update beyond key_ns, bins in L1" },
    { "cache", "update_l2_ns", CPU_T_DOUBLE, OFF(update_l2_ns), 0, 1e6, "2.2006", "ns", "histogram update, bins in L2" },
    { "cache", "update_llc_ns", CPU_T_DOUBLE, OFF(update_llc_ns), 0, 1e6, "3.8317", "ns", "histogram update, bins in the LLC" },
    { "cache", "update_dram_ns", CPU_T_DOUBLE, OFF(update_dram_ns), 0, 1e6, "11.1928", "ns", "histogram update, bins in DRAM" },
    { "cache", "update_same_bin_ns", CPU_T_DOUBLE, OFF(update_same_bin_ns), 0, 1e6, "0.0075", "ns", "consecutive updates of one bin, times 1/K" },
    { "fixed", "scan_fixed_us", CPU_T_DOUBLE, OFF(scan_fixed_us), 0, 1e6, "2.062", "us", "a whole one-phase task whose per-worker result the caller sums (counters, reduce) at n = 64 x workers, median: the pool's hand-over, its barrier and the sum (0: pool_dispatch_us)" },
    { "fixed", "write_fixed_us", CPU_T_DOUBLE, OFF(write_fixed_us), 0, 1e6, "1.745", "us", "the same for a one-phase task whose workers write their output in place, with nothing for the caller to sum (store, bitmask; 0: scan_fixed_us)" },
    { "fixed", "compact_fixed_us", CPU_T_DOUBLE, OFF(compact_fixed_us), 0, 1e6, "5.082", "us", "the same for compaction and cas-append: scan, offsets, concatenation (0: pool_dispatch_us)" },
    { "fixed", "bins_cached_ns_per_bin", CPU_T_DOUBLE, OFF(bins_cached_ns_per_bin), 0, 1e6, "1.7340", "ns", "zeroing one bin and merging it from every worker's copy while all the copies fit in the LLC: (histogram at 16,384 bins - at 1 bin) / 16,383, n = 64 x workers (0: zero_ns_per_bin + merge_ns_per_bin)" },
    { "fixed", "bins_fixed_us", CPU_T_DOUBLE, OFF(bins_fixed_us), 0, 1e6, "4.960", "us", "the same for the histograms and distinct-lines at one bin: zero, scan, merge (0: pool_dispatch_us)" },
};

const cpu_option *cpu_options(size_t *count)
{
    *count = sizeof options / sizeof options[0];
    return options;
}

static int set(cpu_config *c, const cpu_option *o, const char *value, char err[CFG_ERR_MAX])
{
    void *f = (char *)c + o->offset;
    while (*value == ' ' || *value == '\t')
        value++;
    if (o->type == CPU_T_STRING) {
        if (strlen(value) >= CPU_TEXT_MAX) {
            snprintf(err, CFG_ERR_MAX, "%s.%s: value longer than %d characters", o->section, o->key, CPU_TEXT_MAX - 1);
            return -1;
        }
        strcpy(f, value);
        return 0;
    }
    double v;
    if (cfg_parse_number(o->section, o->key, o->unit, value, o->type == CPU_T_INT, o->min, o->max, &v, err))
        return -1;
    if (o->type == CPU_T_INT)
        *(int *)f = (int)v;
    else
        *(double *)f = v;
    return 0;
}

void cpu_defaults(cpu_config *c)
{
    char err[CFG_ERR_MAX];
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (set(c, &options[i], options[i].def, err))
            abort(); /* a bad default is a programming error the unit tests catch */
}

struct load_ctx {
    cpu_config *c;
    char *err;
};

static int on_entry(void *user, const char *section, const char *key, const char *value)
{
    struct load_ctx *x = user;
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (!strcmp(options[i].section, section) && !strcmp(options[i].key, key))
            return set(x->c, &options[i], value, x->err) ? 0 : 1;
    snprintf(x->err, CFG_ERR_MAX, "unknown key '%s' in section [%s]", key, section);
    return 0;
}

int cpu_load(cpu_config *c, const char *path, char err[CFG_ERR_MAX])
{
    char msg[CFG_ERR_MAX] = "";
    /* bounded (lines_ini.h): /dev/zero or a directory is refused rather
     * than read forever or as an empty config of defaults */
    lin_ini in;
    if (lin_ini_open(&in, path, "CPU config", err, CFG_ERR_MAX))
        return -1;
    struct load_ctx x = { c, msg };
    int line = ini_parse_stream(lin_ini_read, &in, on_entry, &x);
    lin_ini_close(&in);
    if (in.failed) {
        snprintf(err, CFG_ERR_MAX, "%s", in.err);
        return -1;
    }
    if (line != 0) {
        snprintf(err, CFG_ERR_MAX, "%s:%d: %s", path, line, msg[0] ? msg : "malformed line (expected [section] or key = value)");
        return -1;
    }
    snprintf(c->path, sizeof c->path, "%s", path);
    return 0;
}

void cpu_format(const cpu_config *c, const cpu_option *o, char *buf, size_t len)
{
    const void *f = (const char *)c + o->offset;
    if (o->type == CPU_T_STRING)
        snprintf(buf, len, "%s", (const char *)f);
    else if (o->type == CPU_T_INT)
        snprintf(buf, len, "%d", *(const int *)f);
    else
        cfg_format_double(buf, len, *(const double *)f);
}

uint64_t cpu_hash(const cpu_config *c)
{
    uint64_t h = 1469598103934665603ull;
    char buf[160];
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        int len = snprintf(buf, sizeof buf, "%s.%s=", options[i].section, options[i].key);
        cpu_format(c, &options[i], buf + len, sizeof buf - (size_t)len);
        for (const char *p = buf; *p; p++) {
            h ^= (unsigned char)*p;
            h *= 1099511628211ull;
        }
    }
    return h;
}
