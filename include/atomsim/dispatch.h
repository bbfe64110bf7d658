/* atomsim/dispatch.h - the public C API of libatomsim: load a cost table
 * that `atomsim export` wrote and ask it, per operation, whether the GPU or
 * the CPU tier should run it.
 *
 *   atomsim_table *t;
 *   char err[256];
 *   if (atomsim_table_open("tables/h100.json", &t, err, sizeof err) != ATOMSIM_OK)
 *       fprintf(stderr, "%s\n", err);
 *   atomsim_query q;
 *   atomsim_query_init(&q, "compaction");
 *   q.n = 10e6;
 *   q.selectivity = 0.25;
 *   atomsim_answer a;
 *   if (atomsim_lookup(t, &q, &a, err, sizeof err) == ATOMSIM_OK)
 *       printf("%s: %s\n", atomsim_target_name(a.decision), atomsim_reason_name(a.reason));
 *   atomsim_table_close(t);
 *
 * Link: -latomsim -lcjson -linih -lm.  Everything is prefixed atomsim_ / ATOMSIM_;
 * every call that can fail returns an ATOMSIM_* code and, where it takes
 * one, writes one line of text into the caller's buffer (NULL or length 0:
 * no text).  Answers go to out-parameters.
 *
 * Threads: a table is read-only once open.  atomsim_lookup allocates
 * nothing, takes no lock and touches no global state, so any number of
 * threads may look up in one table at once; only open and close must not
 * race with lookups in the same table.
 *
 * Lookups interpolate within the table's grid (n, workgroup size, shared
 * memory per workgroup and the pattern's own axes: log2 for counts, linear
 * for fractions and bytes), add the data movement and the host's launch
 * cost the table's policy (or the query) names, and decide by that policy's
 * rule (docs/dispatch.md).  Shared memory counts through the workgroups
 * an SM holds (occupancy), so a shape that does not fit is refused with
 * ATOMSIM_ENOFIT.  Outside the grid a lookup fails with ATOMSIM_ERANGE
 * unless the query asks to extrapolate.  When a query has several faults,
 * ATOMSIM_EINVAL comes first, then ATOMSIM_ERANGE, then ATOMSIM_ENOFIT.
 *
 * Compatibility.  This library reads cost tables of schema
 * "atomsim-cost-table" version ATOMSIM_TABLE_SCHEMA_VERSION only; a table of
 * any other version is refused with ATOMSIM_ESCHEMA and a message naming
 * both versions (export the table again with the atomsim that matches the
 * library).  ATOMSIM_VERSION_MAJOR goes up on any change that can break
 * code written against an earlier header (a function, field or constant
 * removed or renamed, a meaning changed); ATOMSIM_VERSION_MINOR goes up on
 * additions alone.  The library is static: build against the header that
 * came with it (atomsim_version_number() says which library is linked).
 * A new table schema version means a new library version; it is named in
 * ATOMSIM_TABLE_SCHEMA_VERSION.  2.0 (table schema 3) added the source 'a'
 * and widened 'x' from "model and simulator" to any mix: code that
 * switches on atomsim_answer.source should take a letter it does not know
 * for a time the model had a part in.  2.1 added the CPU tier's error band
 * (cpu_lo_us, cpu_hi_us, cpu_band_rows) from a schema-3 table's optional
 * cpu_error_bands (2.0 reads such a table and ignores them, and 2.1 reads
 * a table without them as having no CPU band), and close_call.
 *
 * The constants are macros, not enums, so that the header `atomsim export
 * --format c-header` generates can define the same ones identically and
 * both headers can be included together. */
#ifndef ATOMSIM_DISPATCH_H
#define ATOMSIM_DISPATCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ATOMSIM_VERSION_MAJOR 2
#define ATOMSIM_VERSION_MINOR 1
#define ATOMSIM_VERSION_NUMBER (ATOMSIM_VERSION_MAJOR * 1000 + ATOMSIM_VERSION_MINOR)
#define ATOMSIM_TABLE_SCHEMA_VERSION 3

/* Return codes. */
#define ATOMSIM_OK 0
#define ATOMSIM_EINVAL 1     /* a bad argument: NULL, an unknown name or code, a negative or non-finite value */
#define ATOMSIM_EOPEN 2      /* the table file cannot be opened or read, or is not a regular file */
#define ATOMSIM_ESCHEMA 3    /* not an atomsim cost table, or another schema version */
#define ATOMSIM_ETABLE 4     /* a cost table of the right version that breaks its own layout */
#define ATOMSIM_ENOMEM 5
#define ATOMSIM_ENOPATTERN 6 /* the table has no grid for the query's pattern */
#define ATOMSIM_ERANGE 7     /* outside the table's grid, and the query does not extrapolate */
#define ATOMSIM_ENOFIT 8     /* the workgroup (threads, shared memory) does not fit on one of the GPU's SMs */

/* Patterns (docs/dispatch.md; docs/patterns.md defines each exactly). */
#define ATOMSIM_PATTERN_STORE 0
#define ATOMSIM_PATTERN_COUNTER 1
#define ATOMSIM_PATTERN_COUNTER_AGGREGATED 2
#define ATOMSIM_PATTERN_COMPACTION 3
#define ATOMSIM_PATTERN_HISTOGRAM 4
#define ATOMSIM_PATTERN_HISTOGRAM_SHARED 5
#define ATOMSIM_PATTERN_HISTOGRAM_U8_CAS 6
#define ATOMSIM_PATTERN_HISTOGRAM_U16_CAS 7
#define ATOMSIM_PATTERN_CAS_APPEND 8
#define ATOMSIM_PATTERN_BITMASK 9
#define ATOMSIM_PATTERN_REDUCE 10
#define ATOMSIM_PATTERN_DISTINCT_LINES 11
#define ATOMSIM_PATTERN_COUNT 12

/* Where an operation runs. */
#define ATOMSIM_GPU 0
#define ATOMSIM_CPU 1

/* Why. */
#define ATOMSIM_REASON_GPU_FASTER 0 /* the GPU's cost (penalized, under the seed rule) is at most the CPU's */
#define ATOMSIM_REASON_CPU_FASTER 1 /* the CPU's cost is below the GPU's */
#define ATOMSIM_REASON_DENSITY 2    /* seed rule: inhibited, contention density above the threshold */
#define ATOMSIM_REASON_CAS 3        /* seed rule: inhibited, a compare-and-swap algorithm */

/* Decision rules: by predicted cost, or seed 000's density rule. */
#define ATOMSIM_RULE_TABLE (-1)     /* in a query: the table's own */
#define ATOMSIM_RULE_COST 0
#define ATOMSIM_RULE_SEED 1

/* Where the input lives; the other side pays to move it over PCIe. */
#define ATOMSIM_DATA_ON_TABLE (-1)  /* in a query: the table's own */
#define ATOMSIM_DATA_ON_GPU 0
#define ATOMSIM_DATA_ON_HOST 1
#define ATOMSIM_DATA_ON_BOTH 2

/* Where a GPU time came from. */
#define ATOMSIM_SOURCE_MODEL 'm'
#define ATOMSIM_SOURCE_SIM 's'
#define ATOMSIM_SOURCE_ANCHORED 'a' /* the model scaled by simulator / model at its simulator anchors (2.0) */
#define ATOMSIM_SOURCE_MIXED 'x'    /* the grid corners mix sources (in 1.x: model and simulator only) */

typedef struct atomsim_table atomsim_table;

/* One operation.  Values are doubles so that a query between grid points
 * (160 threads, 40 KiB) interpolates; counts must be positive. */
typedef struct atomsim_query {
    int pattern;                      /* ATOMSIM_PATTERN_* */
    double n;                         /* elements, one thread each */
    double wg;                        /* threads per workgroup */
    double smem_per_wg;               /* shared memory requested per workgroup, bytes (0: the pattern's own) */
    double selectivity;               /* fraction of elements selected, 0..1 */
    double bins;                      /* histogram bins */
    double hot;                       /* fraction of elements sent to bin 0, 0..1 */
    double addresses;                 /* distinct-lines: distinct addresses */
    int rule;                         /* ATOMSIM_RULE_*, ATOMSIM_RULE_TABLE for the table's */
    int data_on;                      /* ATOMSIM_DATA_ON_*, ATOMSIM_DATA_ON_TABLE for the table's */
    int extrapolate;                  /* 1: answer outside the grid too, and say so */
} atomsim_query;

typedef struct atomsim_answer {
    int decision;                     /* ATOMSIM_GPU or ATOMSIM_CPU, by the rule in force */
    int reason;                       /* ATOMSIM_REASON_* */
    int rule;                         /* the rule and data location that applied */
    int data_on;
    double gpu_us, cpu_us;            /* predicted, data movement and host launch included */
    /* The GPU's error band: gpu_us with its kernel part scaled by the 10th and
     * 90th percentiles of measured / answered over the measured rows of
     * this pattern and region of n (the export's --residuals; wg, shared
     * memory and the pattern's own axes do not choose the band).  About 80%
     * of measured times fall inside.  Where the table is biased the band
     * need not contain gpu_us (lo > gpu_us or hi < gpu_us); an
     * extrapolated answer keeps the band of its region of n. */
    double gpu_lo_us, gpu_hi_us;
    int band_rows;                    /* measured rows behind the band; 0: none (lo = hi = gpu_us) */
    double gpu_kernel_us;             /* the kernel alone */
    double cpu_compute_us;            /* the CPU tier's compute alone */
    int cost_decision;                /* the cost rule's verdict, whatever the rule in force */
    int seed_decision, seed_reason;   /* seed 000's verdict and why */
    double density_fraction;          /* contention density / thread capacity */
    double penalty;                   /* the seed rule's penalty, 0..1 */
    int inhibited;                    /* the seed rule's categorical inhibition */
    int source;                       /* ATOMSIM_SOURCE_* */
    int extrapolated;                 /* some value lay outside the grid */
    /* The CPU tier's error band (2.1): cpu_us with its compute part scaled
     * by the 10th and 90th percentiles of measured / answered over the
     * cpubench rows of this pattern and region of n (the export's
     * --cpu-residuals), as gpu_lo_us and gpu_hi_us are for the GPU.  The
     * rows come from many hosts of one kind, so the band holds the spread
     * between hosts as well as the tier's own error. */
    double cpu_lo_us, cpu_hi_us;
    int cpu_band_rows;                /* 0: no band (lo = hi = cpu_us), as from a table exported without it */
    /* 1 where the two p10..p90 bands overlap (2.1): the verdict is a close
     * call that a dispatcher may prefer to measure; 0 where they do not.
     * A side without a band counts as its point (band_rows or
     * cpu_band_rows 0 says so).  On held-out H200 truth sets every
     * misroute was a close call; in-sample most were (docs/dispatch.md). */
    int close_call;
} atomsim_answer;

/* What a table was made from; the strings live as long as the table. */
typedef struct atomsim_table_info {
    int schema_version;
    const char *gpu_name, *gpu_config_path, *gpu_config_hash;
    const char *cpu_name;
    int rule, data_on;                /* the table's defaults */
    double host_launch_us, pcie_bandwidth_gbps;
    double density_penalty_start, density_inhibit;
    int inhibit_cas;
} atomsim_table_info;

/* "MAJOR.MINOR" ("2.1"), and ATOMSIM_VERSION_NUMBER of the library linked. */
const char *atomsim_version(void);
int atomsim_version_number(void);

/* Loads a JSON cost table.  *out is NULL on failure. */
int atomsim_table_open(const char *path, atomsim_table **out, char *err, size_t errlen);
void atomsim_table_close(atomsim_table *t); /* NULL is fine */
int atomsim_table_get_info(const atomsim_table *t, atomsim_table_info *out);
/* The grid's first and last value on one axis ("n", "wg", "smem_per_wg",
 * "selectivity", "bins", "hot", "addresses") of a pattern: ATOMSIM_OK,
 * ATOMSIM_ENOPATTERN, or ATOMSIM_EINVAL for an axis the pattern lacks. */
int atomsim_table_axis_range(const atomsim_table *t, int pattern, const char *axis, double *lo, double *hi);

/* The contract's defaults (n 2^20, wg 256, smem 0, selectivity 1, bins 256,
 * hot 0, addresses 1), the table's rule and data location, no
 * extrapolation.  ATOMSIM_EINVAL for an unknown pattern name (q->pattern is
 * then -1, which a lookup refuses). */
int atomsim_query_init(atomsim_query *q, const char *pattern);

/* The answer for one operation: ATOMSIM_OK, or ATOMSIM_EINVAL,
 * ATOMSIM_ENOPATTERN, ATOMSIM_ERANGE or ATOMSIM_ENOFIT with *out
 * untouched.  A workgroup fits only with 1 to 2^31 - 1 threads (wg rounds
 * to an integer), under 2^31 bytes of shared memory and, for
 * histogram-shared, under 2^29 bins. */
int atomsim_lookup(const atomsim_table *t, const atomsim_query *q, atomsim_answer *out, char *err, size_t errlen);

/* Names, as the CLI and the tables spell them; "?" for an unknown code. */
const char *atomsim_pattern_name(int pattern);          /* "histogram-u8-cas" */
int atomsim_pattern_from_name(const char *name, int *pattern); /* ATOMSIM_OK or ATOMSIM_EINVAL */
const char *atomsim_target_name(int target);            /* "gpu", "cpu" */
const char *atomsim_reason_name(int reason);            /* "gpu_faster", "cpu_faster", "density", "cas" */
const char *atomsim_rule_name(int rule);                /* "cost", "seed" */
const char *atomsim_data_on_name(int data_on);          /* "gpu", "host", "both" */
const char *atomsim_strerror(int rc);

#ifdef __cplusplus
}
#endif

#endif
