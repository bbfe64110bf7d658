/* cpb_job.c - the CPU tier's algorithm for each pattern (cpb_job.h).
 *   store                      selected keys to out[i]
 *   counter, -aggregated       private counts, summed by the caller
 *   reduce                     private sums of key & 255, summed
 *   compaction, cas-append     private regions; barrier; each worker
 *                              copies its region to the sum of the counts
 *                              before it (a parallel concatenation)
 *   bitmask                    each worker builds whole mask words
 *   histogram(-shared), u8/u16 private bins of the pattern's width;
 *   distinct-lines             barrier; each worker merges a slice of bins
 * Slices start on 64-byte boundaries of what they write, so no two
 * workers ever write one cache line. */
#include "cpb_job.h"

#include <stdlib.h>
#include <string.h>

#include "cpb_merge.h"
#include "cpb_scan.h"

#define POISON 0xa5

/* [lo, hi) of total items for worker w, cut at multiples of g. */
static void slice(uint32_t total, int w, int workers, uint32_t g, uint32_t *lo, uint32_t *hi)
{
    *lo = (uint32_t)((uint64_t)total * (uint64_t)w / (uint64_t)workers / g * g);
    *hi = w + 1 == workers ? total : (uint32_t)((uint64_t)total * (uint64_t)(w + 1) / (uint64_t)workers / g * g);
}

static void *alloc_lines(size_t bytes)
{
    return aligned_alloc(64, (bytes + 63) / 64 * 64 + (bytes == 0) * 64);
}

static int is_compaction(enum pat_id p)
{
    return p == PAT_COMPACTION || p == PAT_CAS_APPEND;
}

static size_t priv_bytes(const cpb_job *j, int w)
{
    if (j->bin_bytes)
        return (size_t)j->copies * j->k.d * j->bin_bytes;
    if (is_compaction(j->c.pattern))
        return (size_t)j->slot[w].cnt * sizeof(uint32_t);
    return 0;
}

static void setup_task(int w, int workers, void *v)
{
    cpb_job *j = v;
    cpb_slot *s = &j->slot[w];
    size_t bytes = priv_bytes(j, w);
    (void)workers;
    if (bytes || j->bin_bytes || is_compaction(j->c.pattern)) {
        if (!(s->priv = alloc_lines(bytes))) {
            __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
            return;
        }
        memset(s->priv, 0, bytes);
        j->priv[w] = s->priv;
    }
    uint32_t fill = pat_key(CPB_FILL_INDEX), *out = j->out;
    switch (j->c.pattern) {
    case PAT_STORE:
    case PAT_COMPACTION:
    case PAT_CAS_APPEND:
        for (uint32_t i = s->lo; i < s->lo + s->cnt; i++)
            out[i] = fill;
        break;
    case PAT_BITMASK:
        memset(out + s->lo, POISON, (size_t)s->cnt * sizeof(uint32_t));
        break;
    default:
        if (j->bin_bytes)
            memset((char *)j->out + (size_t)s->blo * j->bin_bytes, POISON, (size_t)(s->bhi - s->blo) * j->bin_bytes);
    }
}

int cpb_job_open(cpb_job *j, const cpb_cfg *c, cpb_pool *pool, int workers)
{
    memset(j, 0, sizeof *j);
    j->c = *c;
    j->workers = workers;
    j->sel_thr = pat_threshold(c->selectivity);
    j->hot_thr = c->pattern == PAT_HISTOGRAM ? pat_threshold(c->hot) : 0;
    switch (c->pattern) {
    case PAT_HISTOGRAM:
    case PAT_HISTOGRAM_SHARED:
    case PAT_DISTINCT_LINES:
        j->bin_bytes = 4;
        break;
    case PAT_HISTOGRAM_U16_CAS:
        j->bin_bytes = 2;
        break;
    case PAT_HISTOGRAM_U8_CAS:
        j->bin_bytes = 1;
        break;
    default:
        break;
    }
    j->k = cpb_div_make(c->pattern == PAT_DISTINCT_LINES ? c->addresses : c->bins);
    j->copies = j->bin_bytes ? cpu_hist_copies(j->k.d, j->bin_bytes) : 1;
    j->slot = alloc_lines((size_t)workers * sizeof *j->slot);
    j->priv = calloc((size_t)workers, sizeof *j->priv);
    if (!j->slot || !j->priv)
        return -1;
    memset(j->slot, 0, (size_t)workers * sizeof *j->slot);
    uint32_t words = (uint32_t)(((uint64_t)c->n + 31) / 32);
    for (int w = 0; w < workers; w++) {
        cpb_slot *s = &j->slot[w];
        uint32_t lo, hi;
        if (c->pattern == PAT_BITMASK)
            slice(words, w, workers, 16, &lo, &hi);
        else
            slice(c->n, w, workers, 16, &lo, &hi);
        s->lo = lo;
        s->cnt = hi - lo;
        if (j->bin_bytes)
            slice(j->k.d, w, workers, 64 / j->bin_bytes, &s->blo, &s->bhi);
    }
    if (c->pattern == PAT_STORE || is_compaction(c->pattern))
        j->out_bytes = (size_t)c->n * sizeof(uint32_t);
    else if (c->pattern == PAT_BITMASK)
        j->out_bytes = (size_t)words * sizeof(uint32_t);
    else if (j->bin_bytes)
        j->out_bytes = (size_t)j->k.d * j->bin_bytes;
    if (j->out_bytes && !(j->out = alloc_lines(j->out_bytes)))
        return -1;
    cpb_barrier_init(&j->bar, workers, cpb_pool_spin_us(pool));
    cpb_pool_run(pool, setup_task, j);
    return j->failed ? -1 : 0;
}

size_t cpb_job_bytes(const cpb_cfg *c, int workers)
{
    uint64_t words = ((uint64_t)c->n + 31) / 32, bytes = 0;
    unsigned bin_bytes = 0;
    switch (c->pattern) {
    case PAT_HISTOGRAM:
    case PAT_HISTOGRAM_SHARED:
    case PAT_DISTINCT_LINES:
        bin_bytes = 4;
        break;
    case PAT_HISTOGRAM_U16_CAS:
        bin_bytes = 2;
        break;
    case PAT_HISTOGRAM_U8_CAS:
        bin_bytes = 1;
        break;
    default:
        break;
    }
    if (bin_bytes) {
        uint32_t bins = c->pattern == PAT_DISTINCT_LINES ? c->addresses : c->bins;
        bytes = (uint64_t)bins * bin_bytes * (1 + (uint64_t)workers * cpu_hist_copies(bins, bin_bytes));
    } else if (is_compaction(c->pattern)) {
        bytes = 2 * (uint64_t)c->n * sizeof(uint32_t); /* the output and the regions */
    } else if (c->pattern == PAT_STORE) {
        bytes = (uint64_t)c->n * sizeof(uint32_t);
    } else if (c->pattern == PAT_BITMASK) {
        bytes = words * sizeof(uint32_t);
    }
    return (size_t)(bytes + (uint64_t)workers * (sizeof(cpb_slot) + sizeof(void *)));
}

static void merge(cpb_job *j, const cpb_slot *s)
{
    if (j->bin_bytes == 4)
        cpb_merge32(j->out, (uint32_t *const *)j->priv, j->workers, s->blo, s->bhi);
    else if (j->bin_bytes == 2)
        cpb_merge16(j->out, (uint16_t *const *)j->priv, j->workers, s->blo, s->bhi);
    else
        cpb_merge8(j->out, (uint8_t *const *)j->priv, j->workers, s->blo, s->bhi);
}

static void run_task(int w, int workers, void *v)
{
    cpb_job *j = v;
    cpb_slot *s = &j->slot[w];
    uint64_t off = 0;
    switch (j->c.pattern) {
    case PAT_STORE:
        cpb_scan_store(s->lo, s->cnt, j->sel_thr, j->out);
        return;
    case PAT_COUNTER:
    case PAT_COUNTER_AGGREGATED:
        s->count = cpb_scan_count(s->lo, s->cnt, j->sel_thr);
        return;
    case PAT_REDUCE:
        s->count = cpb_scan_reduce(s->lo, s->cnt);
        return;
    case PAT_BITMASK:
        cpb_scan_bitmask(s->lo, s->lo + s->cnt, j->c.n, j->sel_thr, j->out);
        return;
    case PAT_COMPACTION:
    case PAT_CAS_APPEND:
        s->count = cpb_scan_compact(s->lo, s->cnt, j->sel_thr, s->priv);
        cpb_barrier_wait(&j->bar);
        for (int q = 0; q < w; q++)
            off += j->slot[q].count;
        memcpy((uint32_t *)j->out + off, s->priv, s->count * sizeof(uint32_t));
        return;
    default:
        break;
    }
    memset(s->priv, 0, priv_bytes(j, w));
    if (j->c.pattern == PAT_DISTINCT_LINES)
        cpb_scan_lines(s->lo, s->cnt, j->k.d, j->copies, s->priv);
    else if (j->bin_bytes == 4)
        cpb_scan_hist32(s->lo, s->cnt, j->k, j->hot_thr, j->copies, s->priv);
    else if (j->bin_bytes == 2)
        cpb_scan_hist16(s->lo, s->cnt, j->k, j->copies, s->priv);
    else
        cpb_scan_hist8(s->lo, s->cnt, j->k, j->copies, s->priv);
    cpb_barrier_wait(&j->bar);
    merge(j, s);
    (void)workers;
}

void cpb_job_run(cpb_job *j, cpb_pool *pool)
{
    cpb_pool_run(pool, run_task, j);
    if (j->c.pattern == PAT_COUNTER || j->c.pattern == PAT_COUNTER_AGGREGATED || j->c.pattern == PAT_REDUCE) {
        uint64_t t = 0;
        for (int w = 0; w < j->workers; w++)
            t += j->slot[w].count;
        j->total = t;
    }
}

void cpb_job_close(cpb_job *j)
{
    if (j->slot)
        for (int w = 0; w < j->workers; w++)
            free(j->slot[w].priv);
    free(j->slot);
    free(j->priv);
    free(j->out);
    memset(j, 0, sizeof *j);
}
