/* cpb_kernels.c - the cost mode's tasks over cpb_scan.c and cpb_merge.c. */
#include "cpb_kernels.h"

#include <string.h>

#include "cpb_merge.h"
#include "cpb_scan.h"

void cpb_slice(uint64_t n, int w, int W, uint64_t *lo, uint64_t *hi)
{
    *lo = n * (uint64_t)w / (uint64_t)W / 16 * 16;
    *hi = w + 1 == W ? n : n * (uint64_t)(w + 1) / (uint64_t)W / 16 * 16;
}

uint64_t cpb_kjob_bins_words(uint32_t bins)
{
    return (uint64_t)cpu_hist_copies(bins, 4) * bins;
}

void cpb_task_empty(int w, int W, void *v)
{
    (void)w;
    (void)W;
    (void)v;
}

void cpb_task_count(int w, int W, void *v)
{
    cpb_kjob *j = v;
    uint64_t lo, hi;
    cpb_slice(j->n, w, W, &lo, &hi);
    j->count[w * 8] = cpb_scan_count((uint32_t)lo, (uint32_t)(hi - lo), j->threshold);
}

/* Whole words, as the plan's bitmask runs them (cpb_job.c): each worker
 * owns a run of words, so no word has two writers. */
void cpb_task_bitmask(int w, int W, void *v)
{
    cpb_kjob *j = v;
    uint64_t lo, hi;
    cpb_slice((j->n + 31) / 32, w, W, &lo, &hi);
    cpb_scan_bitmask((uint32_t)lo, (uint32_t)hi, (uint32_t)j->n, j->threshold, j->out);
}

void cpb_task_reduce(int w, int W, void *v)
{
    cpb_kjob *j = v;
    uint64_t lo, hi;
    cpb_slice(j->n, w, W, &lo, &hi);
    j->count[w * 8] = cpb_scan_reduce((uint32_t)lo, (uint32_t)(hi - lo));
}

void cpb_task_store(int w, int W, void *v)
{
    cpb_kjob *j = v;
    uint64_t lo, hi;
    cpb_slice(j->n, w, W, &lo, &hi);
    cpb_scan_store((uint32_t)lo, (uint32_t)(hi - lo), j->threshold, j->out);
}

void cpb_task_compact(int w, int W, void *v)
{
    cpb_kjob *j = v;
    uint64_t lo, hi;
    cpb_slice(j->n, w, W, &lo, &hi);
    j->count[w * 8] = cpb_scan_compact((uint32_t)lo, (uint32_t)(hi - lo), j->threshold, j->priv[w]);
}

void cpb_task_concat(int w, int W, void *v)
{
    cpb_kjob *j = v;
    (void)W;
    memcpy(j->out + j->offset[w], j->priv[w], j->count[w * 8] * sizeof(uint32_t));
}

void cpb_task_zero(int w, int W, void *v)
{
    cpb_kjob *j = v;
    (void)W;
    memset(j->priv[w], 0, cpb_kjob_bins_words(j->bins) * sizeof(uint32_t));
}

void cpb_task_hist(int w, int W, void *v)
{
    cpb_kjob *j = v;
    uint64_t lo, hi;
    cpb_task_zero(w, W, v);
    cpb_slice(j->n, w, W, &lo, &hi);
    cpb_scan_hist32((uint32_t)lo, (uint32_t)(hi - lo), cpb_div_make(j->bins), 0, cpu_hist_copies(j->bins, 4),
                    j->priv[w]);
    j->count[w * 8] = j->priv[w][0];
}

void cpb_task_merge(int w, int W, void *v)
{
    cpb_kjob *j = v;
    uint64_t lo, hi;
    cpb_slice(j->bins, w, W, &lo, &hi);
    cpb_merge32(j->out, j->priv, W, (uint32_t)lo, (uint32_t)hi);
}

/* distinct-lines as the plan runs it (cpb_job.c): element i adds one to
 * counter i mod P, the counters stepped, not hashed */
void cpb_task_lines(int w, int W, void *v)
{
    cpb_kjob *j = v;
    uint64_t lo, hi;
    cpb_task_zero(w, W, v);
    cpb_slice(j->n, w, W, &lo, &hi);
    cpb_scan_lines((uint32_t)lo, (uint32_t)(hi - lo), j->bins, cpu_hist_copies(j->bins, 4), j->priv[w]);
    j->count[w * 8] = j->priv[w][0];
}
