/* params.h - the patterns of the CLI contract and their run parameters.
 *
 * Shared by the simulator, the model, the harness comparison and the CLI, so
 * that all of them agree on the key hash, the selection rule and the bin of
 * every thread (docs/patterns.md). */
#ifndef ATOM_MODEL_PARAMS_H
#define ATOM_MODEL_PARAMS_H

#include <stddef.h>
#include <stdint.h>

enum pat_id {
    PAT_STORE,
    PAT_COUNTER,
    PAT_COUNTER_AGGREGATED,
    PAT_COMPACTION,
    PAT_HISTOGRAM,
    PAT_HISTOGRAM_SHARED,
    PAT_HISTOGRAM_U8_CAS,
    PAT_HISTOGRAM_U16_CAS,
    PAT_CAS_APPEND,
    PAT_BITMASK,
    PAT_REDUCE,
    PAT_DISTINCT_LINES,
    PAT_COUNT
};

/* Which flags a pattern reads (the others are accepted and ignored). */
enum pat_flag {
    PF_SELECTIVITY = 1 << 0,
    PF_BINS = 1 << 1,
    PF_HOT = 1 << 2,
    PF_ADDRESSES = 1 << 3,
    PF_WG = 1 << 4
};

typedef struct pat_params {
    enum pat_id pattern;
    uint64_t n;
    int wg;
    double selectivity;
    uint32_t bins;
    double hot;
    uint32_t addresses;
    uint32_t smem_per_wg;             /* requested; 0 = the pattern's own need */
    uint64_t seed;
} pat_params;

#define PAT_MAX_N (1ull << 30)
#define PAT_MAX_BINS (1u << 24)
#define PAT_MAX_ADDRESSES (1u << 24)

/* ---- the parameter table -------------------------------------------------
 *
 * One descriptor per field of pat_params (the pattern itself aside), in the
 * order of the CSV columns.  pat_check and pat_defaults, the CLI's flags,
 * usage and error lines, sweep axes, --vary, --points and --canonical, the
 * CSV header and rows, the text and JSON outputs, datasets, split files,
 * dispatch --batch, the cost tables' axes, plan's domains and the plan
 * parsers of vkbench and cpubench all read it.  Adding a parameter: a
 * field above, an id here, a row in params.c (docs/cli.md, "Pattern
 * parameters"). */
enum pat_param_id {
    PP_N,
    PP_WG,
    PP_SELECTIVITY,
    PP_BINS,
    PP_HOT,
    PP_ADDRESSES,
    PP_SMEM_PER_WG,
    PP_SEED,
    PP_COUNT
};

enum pat_param_type { PP_U64, PP_INT, PP_U32, PP_DOUBLE };

/* When the text outputs (run's text, a failed sweep row's name) show it:
 * always, only when non-zero (0 means unset: no default stated either),
 * or never.  A parameter of some patterns only (reads != 0) shows only
 * for them. */
enum pat_param_show { PP_SHOW_ALWAYS, PP_SHOW_IF_SET, PP_SHOW_NEVER };

typedef struct pat_param_desc {
    const char *name;                 /* "smem_per_wg": sweep and --points key, JSON key */
    const char *flag;                 /* "--smem-per-wg"; sweeps take it without "--" too */
    const char *csv;                  /* column of the CSVs (runs, datasets, plans), split
                                       * files' field, dispatch --batch's; NULL: none */
    const char *meta;                 /* usage text's placeholder: "BYTES" */
    enum pat_param_type type;
    size_t offset;                    /* of the field in pat_params */
    double min, max;                  /* inclusive bounds: flags, sweeps, pat_check */
    double hmin, hmax;                /* what the harnesses (vkbench, cpubench) and plans
                                       * take; hmax 0: not a harness flag */
    const char *def;                  /* default, as text */
    const char *unit;
    unsigned reads;                   /* the enum pat_flag bit of the patterns that read it;
                                       * 0: every pattern */
    enum pat_param_show show;
    const char *help;
} pat_param_desc;

/* The table, PP_COUNT rows in enum pat_param_id order. */
const pat_param_desc *pat_param_table(size_t *count);
const pat_param_desc *pat_param_get(enum pat_param_id id);
enum pat_param_id pat_param_id(const pat_param_desc *d);
/* By name ("smem_per_wg") or by flag without its "--" ("smem-per-wg");
 * NULL when none. */
const pat_param_desc *pat_param_find(const char *key);
/* By flag: the first len characters of text are "--smem-per-wg". */
const pat_param_desc *pat_param_find_flag(const char *text, size_t len);
/* By CSV column; NULL when none (seed has no column). */
const pat_param_desc *pat_param_find_csv(const char *column);

/* Parses text into p's field, range checked.  0, or -1 with err a line
 * naming the flag and its bounds: "--bins '0' is not an integer in [1, 16777216]". */
int pat_param_parse(const pat_param_desc *d, pat_params *p, const char *text, char *err, size_t errlen);
/* The field checked against the bounds: 0, or -1 with err set. */
int pat_param_check(const pat_param_desc *d, const pat_params *p, char *err, size_t errlen);
/* The field as the CSV writes it: integers in decimal, doubles shortest
 * round-trip (integral ones without a point, non-finite "nan"). */
void pat_param_format(const pat_param_desc *d, const pat_params *p, char *buf, size_t len);
/* The field as a double, and set from one (cast as C casts). */
double pat_param_value(const pat_param_desc *d, const pat_params *p);
void pat_param_set_value(const pat_param_desc *d, pat_params *p, double v);
/* Copies the field; 1 when it is equal in a and b. */
void pat_param_copy(const pat_param_desc *d, pat_params *to, const pat_params *from);
int pat_param_same(const pat_param_desc *d, const pat_params *a, const pat_params *b);
/* " n=1048576 wg=256 bins=64": the parameters the text outputs show
 * (see enum pat_param_show), each with a leading space. */
void pat_describe(const pat_params *p, char *buf, size_t len);

const char *pat_name(enum pat_id id);
int pat_from_name(const char *name, enum pat_id *out);
unsigned pat_flags(enum pat_id id);
/* A comma list of pattern names ("counter,histogram"), or all: every
 * pattern in id order.  The one parser of such lists (plan --patterns,
 * check --against sim --only, ...), so that they accept the same text.
 * ids (room for PAT_COUNT; may be NULL) gets the patterns in the order
 * given, count how many, mask the set as 1u << id (either may be NULL).
 * Returns PAT_LIST_OK or what is wrong, with err (may be NULL) a line
 * naming `flag` as the CLI says it: PAT_LIST_SYNTAX (empty, an empty name,
 * PAT_LIST_MAX characters or more), PAT_LIST_UNKNOWN, PAT_LIST_TWICE. */
enum pat_list_status { PAT_LIST_OK, PAT_LIST_SYNTAX, PAT_LIST_UNKNOWN, PAT_LIST_TWICE };
#define PAT_LIST_MAX 1024
int pat_parse_list(const char *list, const char *flag, enum pat_id *ids, int *count, unsigned *mask, char *err,
                   size_t errlen);
int pat_uses_cas(enum pat_id id);

/* Defaults of the contract: n 2^20, wg 256, S 1, K 256, F 0, P 1, seed 1
 * (the parameter table's). */
void pat_defaults(pat_params *p);
/* Resets the parameters p's pattern does not read (pat_flags) to their
 * defaults, so that equal runs have equal parameters. */
void pat_canonical(pat_params *p);

/* Range checks that need no config: every parameter within its table
 * bounds (n in [1, 2^30], S and F in [0, 1], K and P in [1, 2^24], ...). */
int pat_check(const pat_params *p, char *err, unsigned errlen);

/* 1 for the patterns whose global atomics return their old value to the
 * warp (the sub-word CAS histograms, cas-append, compaction). */
int pat_returns_old_value(enum pat_id id);


/* Shared memory the pattern itself allocates per workgroup, in bytes. */
uint32_t pat_own_smem_bytes(const pat_params *p);
/* What the workgroup really allocates: max(own need, --smem-per-wg). */
uint32_t pat_smem_bytes(const pat_params *p);

static inline uint32_t pat_key(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* round(F * 1e6): a thread is chosen iff key % 1000000 < threshold. */
uint32_t pat_threshold(double fraction);

static inline int pat_selected(uint32_t key, uint32_t threshold)
{
    return key % 1000000u < threshold;
}

/* Histogram bin of a key, with the hot-bin rule (hot_threshold 0: uniform). */
static inline uint32_t pat_bin(uint32_t key, uint32_t bins, uint32_t hot_threshold)
{
    if (hot_threshold && key % 1000000u < hot_threshold)
        return 0;
    return (key >> 3) % bins;
}

#endif
