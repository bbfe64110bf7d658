/* fuzz_table.c - a cost table as `dispatch --table FILE` reads it
 * (model/table.c: tbl_load), then lookups for every pattern it holds: at
 * the default query, at its grid's low and high corners and between them,
 * and outside the grid with extrapolation. */
#include "../../model/export.h"
#include "../../model/table.h"
#include "fz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_quiet();
    return 0;
}

/* The query's field for one axis of the table. */
static double *fz_axis_field(tbl_query *q, enum exp_axis_kind k)
{
    switch (k) {
    case EXP_AXIS_N: return &q->n;
    case EXP_AXIS_WG: return &q->wg;
    case EXP_AXIS_SMEM: return &q->smem_per_wg;
    case EXP_AXIS_SELECTIVITY: return &q->selectivity;
    case EXP_AXIS_BINS: return &q->bins;
    case EXP_AXIS_HOT: return &q->hot;
    case EXP_AXIS_ADDRESSES: return &q->addresses;
    default: return NULL;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[CFG_ERR_MAX];
    tbl_table *t;
    const char *path = fz_file(data, size, ".json");
    if (tbl_load(path, &t, err))
        return 0;
    (void)tbl_gpu_name(t), (void)tbl_gpu_config_path(t), (void)tbl_gpu_trust(t);
    (void)tbl_config_hash(t), (void)tbl_cpu_name(t), (void)tbl_policy(t);
    for (int id = 0; id < PAT_COUNT; id++) {
        tbl_query q[5];
        tbl_answer a;
        for (int i = 0; i < 5; i++)
            tbl_query_init(&q[i], (enum pat_id)id);
        for (int k = 0; k < EXP_AXIS_KIND_COUNT; k++) {
            double lo, hi;
            if (tbl_axis_range(t, (enum pat_id)id, exp_axis_name((enum exp_axis_kind)k), &lo, &hi))
                continue;
            *fz_axis_field(&q[1], (enum exp_axis_kind)k) = lo;
            *fz_axis_field(&q[2], (enum exp_axis_kind)k) = hi;
            *fz_axis_field(&q[3], (enum exp_axis_kind)k) = lo + (hi - lo) / 3;
            *fz_axis_field(&q[4], (enum exp_axis_kind)k) = hi * 2 + 1;
        }
        q[4].extrapolate = 1;
        for (int i = 0; i < 5; i++)
            (void)tbl_lookup(t, &q[i], &a, err);
    }
    tbl_free(t);
    return 0;
}
