/* Printers for the dataset CSV (see vkb_csv.h). */
#include "vkb_csv.h"

#include <time.h>

#include "../../model/params_csv.h"

#ifndef VKB_COMMIT
#define VKB_COMMIT "unknown"
#endif

void vkb_csv_provenance(FILE *f, const vkb_gpu_info *in)
{
    char date[64], ops[256];
    time_t now = time(NULL);
    struct tm tm;

    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fprintf(f, "# gpu: %s\n", in->name);
    fprintf(f, "# driver: %s\n", in->driver);
    fprintf(f, "# vulkan_api: %s\n", in->api);
    fprintf(f, "# subgroup_size: %u\n", in->subgroup_size);
    fprintf(f, "# subgroup_operations: %s\n",
            vkb_gpu_subgroup_ops(in->subgroup_ops, ops, sizeof ops));
    fprintf(f, "# device_type: %s\n", in->type);
    fprintf(f, "# vendor_id: 0x%04x\n", in->vendor_id);
    fprintf(f, "# device_id: 0x%04x\n", in->device_id);
    fprintf(f, "# max_compute_shared_memory_bytes: %u\n", in->max_smem);
    fprintf(f, "# max_compute_workgroup_invocations: %u\n",
            in->max_invocations);
    fprintf(f, "# max_compute_workgroup_count_x: %u\n", in->max_wg_count_x);
    fprintf(f, "# max_storage_buffer_range_bytes: %u\n",
            in->max_storage_range);
    fprintf(f, "# device_local_heap_bytes: %llu\n",
            (unsigned long long)in->device_local_bytes);
    fprintf(f, "# timestamp_period_ns: %g\n", in->ts_period_ns);
    fprintf(f, "# timestamp_valid_bits: %u\n", in->ts_valid_bits);
    fprintf(f, "# queue_family: %u\n", in->queue_family);
    fprintf(f, "# timing: timestamps TOP_OF_PIPE..BOTTOM_OF_PIPE around one "
               "dispatch; buffers cleared in a separate submission; every "
               "repetition checked against a host reference\n");
    fprintf(f, "# date: %s\n", date);
    fprintf(f, "# harness: vkbench\n");
    fprintf(f, "# harness_commit: %s\n", VKB_COMMIT);
    fflush(f);
}

/* The parameters' columns are the contract's table's (model/params_csv.h),
 * as cpubench's and atomsim's. */
void vkb_csv_header(FILE *f, int cas, int clock)
{
    char params[256];
    pat_csv_header(PAT_CSV_TABLE, params, sizeof params);
    fprintf(f, "pattern,%s,reps,time_us_median,time_us_min,time_us_max,check%s%s\n",
            params, cas ? ",cas_attempts" : "",
            clock ? ",clock_ratio_max,clock_rewarms" : "");
    fflush(f);
}

void vkb_csv_config(FILE *f, const vkb_cfg *c)
{
    const pat_param_desc *col[PP_COUNT];
    size_t n = pat_csv_columns(PAT_CSV_TABLE, col);
    pat_params p;
    vkb_cfg_params(c, &p);
    fputs(vkb_pattern_get(c->pattern)->name, f);
    for (size_t i = 0; i < n; i++) {
        char v[48] = "max"; /* shared memory unresolved, in --dry-run only */
        if (pat_param_id(col[i]) != PP_SMEM_PER_WG ||
            c->smem_per_wg != VKB_SMEM_MAX)
            pat_csv_format(col[i], &p, 6, v, sizeof v); /* doubles as %g */
        fprintf(f, ",%s", v);
    }
}

void vkb_csv_row(FILE *f, const vkb_cfg *c, const vkb_result *r, int ok,
                 int cas, int clock)
{
    vkb_csv_config(f, c);
    if (ok)
        fprintf(f, ",%d,%.3f,%.3f,%.3f,ok", r->reps, r->median_us,
                r->min_us, r->max_us);
    else
        fprintf(f, ",%d,,,,FAIL", r->reps);
    if (cas && ok && r->cas_attempts >= 0)
        fprintf(f, ",%.0f", r->cas_attempts);
    else if (cas)
        fprintf(f, ",");
    if (clock && r->clock_ratio_max >= 0)
        fprintf(f, ",%.4f,%d", r->clock_ratio_max, r->clock_rewarms);
    else if (clock)
        fprintf(f, ",,%d", r->clock_rewarms);
    fprintf(f, "\n");
    fflush(f);
}
