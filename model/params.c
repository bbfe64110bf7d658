/* params.c - names, flags and range checks of the contract's patterns. */
#include "params.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    unsigned flags;
    int cas;
} table[PAT_COUNT] = {
    [PAT_STORE] = { "store", PF_SELECTIVITY, 0 },
    [PAT_COUNTER] = { "counter", PF_SELECTIVITY, 0 },
    [PAT_COUNTER_AGGREGATED] = { "counter-aggregated", PF_SELECTIVITY, 0 },
    [PAT_COMPACTION] = { "compaction", PF_SELECTIVITY, 0 },
    [PAT_HISTOGRAM] = { "histogram", PF_BINS | PF_HOT, 0 },
    [PAT_HISTOGRAM_SHARED] = { "histogram-shared", PF_BINS, 0 },
    [PAT_HISTOGRAM_U8_CAS] = { "histogram-u8-cas", PF_BINS, 1 },
    [PAT_HISTOGRAM_U16_CAS] = { "histogram-u16-cas", PF_BINS, 1 },
    [PAT_CAS_APPEND] = { "cas-append", PF_SELECTIVITY, 1 },
    [PAT_BITMASK] = { "bitmask", PF_SELECTIVITY, 0 },
    [PAT_REDUCE] = { "reduce", PF_WG, 0 },
    [PAT_DISTINCT_LINES] = { "distinct-lines", PF_ADDRESSES, 0 },
};

const char *pat_name(enum pat_id id)
{
    return (unsigned)id < PAT_COUNT ? table[id].name : "?";
}

int pat_from_name(const char *name, enum pat_id *out)
{
    for (int i = 0; i < PAT_COUNT; i++)
        if (!strcmp(name, table[i].name)) {
            *out = (enum pat_id)i;
            return 0;
        }
    return -1;
}

unsigned pat_flags(enum pat_id id)
{
    return table[id].flags;
}

int pat_uses_cas(enum pat_id id)
{
    return table[id].cas;
}

void pat_defaults(pat_params *p)
{
    memset(p, 0, sizeof *p);
    p->pattern = PAT_COUNTER;
    p->n = 1u << 20;
    p->wg = 256;
    p->selectivity = 1.0;
    p->bins = 256;
    p->hot = 0.0;
    p->addresses = 1;
    p->smem_per_wg = 0;
    p->seed = 1;
}

uint32_t pat_threshold(double fraction)
{
    return (uint32_t)llround(fraction * 1000000.0);
}

int pat_check(const pat_params *p, char *err, unsigned errlen)
{
    if (p->n == 0 || p->n > PAT_MAX_N) {
        snprintf(err, errlen, "--n %llu is out of range [1, %llu]", (unsigned long long)p->n, (unsigned long long)PAT_MAX_N);
        return -1;
    }
    if (!(p->selectivity >= 0.0 && p->selectivity <= 1.0)) {
        snprintf(err, errlen, "--selectivity %g is outside [0, 1]", p->selectivity);
        return -1;
    }
    if (!(p->hot >= 0.0 && p->hot <= 1.0)) {
        snprintf(err, errlen, "--hot %g is outside [0, 1]", p->hot);
        return -1;
    }
    if (p->bins == 0 || p->bins > PAT_MAX_BINS) {
        snprintf(err, errlen, "--bins %u is out of range [1, %u]", p->bins, PAT_MAX_BINS);
        return -1;
    }
    if (p->addresses == 0 || p->addresses > PAT_MAX_ADDRESSES) {
        snprintf(err, errlen, "--addresses %u is out of range [1, %u]", p->addresses, PAT_MAX_ADDRESSES);
        return -1;
    }
    if (p->wg <= 0) {
        snprintf(err, errlen, "--wg %d must be positive", p->wg);
        return -1;
    }
    return 0;
}

int pat_returns_old_value(enum pat_id id)
{
    return id == PAT_HISTOGRAM_U8_CAS || id == PAT_HISTOGRAM_U16_CAS || id == PAT_CAS_APPEND || id == PAT_COMPACTION;
}

uint32_t pat_own_smem_bytes(const pat_params *p)
{
    switch (p->pattern) {
    case PAT_HISTOGRAM_SHARED:
        return 4u * p->bins;
    case PAT_REDUCE:
        return 4u;
    default:
        return 0;
    }
}

uint32_t pat_smem_bytes(const pat_params *p)
{
    uint32_t own = pat_own_smem_bytes(p);
    return p->smem_per_wg > own ? p->smem_per_wg : own;
}
