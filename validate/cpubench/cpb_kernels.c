/* cpb_kernels.c - the per-worker loops.  Keys come from the contract's
 * lowbias32 hash of the element index, exactly as the GPU kernels compute
 * them, so both tiers do the same work per element. */
#include "cpb_kernels.h"

#include <string.h>

#include "../../model/params.h"

void cpb_slice(uint64_t n, int w, int W, uint64_t *lo, uint64_t *hi)
{
    *lo = n * (uint64_t)w / (uint64_t)W;
    *hi = n * (uint64_t)(w + 1) / (uint64_t)W;
}

void cpb_task_empty(int w, int W, void *v)
{
    (void)w;
    (void)W;
    (void)v;
}

void cpb_task_count(int w, int W, void *v)
{
    cpb_job *j = v;
    uint64_t lo, hi, c = 0;
    cpb_slice(j->n, w, W, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++)
        c += pat_key((uint32_t)i) % 1000000u < j->threshold;
    j->count[w * 8] = c;
}

void cpb_task_compact(int w, int W, void *v)
{
    cpb_job *j = v;
    uint64_t lo, hi, c = 0;
    uint32_t *out = j->priv[w];
    cpb_slice(j->n, w, W, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) {
        uint32_t k = pat_key((uint32_t)i);
        if (k % 1000000u < j->threshold)
            out[c++] = k;
    }
    j->count[w * 8] = c;
}

void cpb_task_concat(int w, int W, void *v)
{
    cpb_job *j = v;
    (void)W;
    memcpy(j->out + j->offset[w], j->priv[w], j->count[w * 8] * sizeof(uint32_t));
}

void cpb_task_zero(int w, int W, void *v)
{
    cpb_job *j = v;
    (void)W;
    memset(j->priv[w], 0, (size_t)j->bins * sizeof(uint32_t));
}

void cpb_task_hist(int w, int W, void *v)
{
    cpb_job *j = v;
    uint64_t lo, hi;
    uint32_t *b = j->priv[w], k = j->bins;
    memset(b, 0, (size_t)k * sizeof(uint32_t));
    cpb_slice(j->n, w, W, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++)
        b[(pat_key((uint32_t)i) >> 3) % k]++;
    j->count[w * 8] = b[0];
}

void cpb_task_merge(int w, int W, void *v)
{
    cpb_job *j = v;
    uint64_t lo, hi;
    cpb_slice(j->bins, w, W, &lo, &hi);
    for (uint64_t b = lo; b < hi; b++) {
        uint32_t s = 0;
        for (int q = 0; q < W; q++)
            s += j->priv[q][b];
        j->out[b] = s;
    }
}
