/* route.c - a runtime dispatcher's first ten minutes with libatomsim: open
 * a cost table, ask where four operations should run, and say why.
 *
 *   make examples && build/examples/route [TABLE.json]
 *
 * The table is argv[1], else tables/h100.json (`atomsim export --config
 * configs/h100.ini --output tables/h100.json` writes one). */
#include <atomsim/dispatch.h>

#include <stdio.h>

typedef struct operation {
    const char *what;
    atomsim_query q;
} operation;

/* Microseconds for a reader: 235 us, 6.06 ms, 1.2 s. */
static const char *duration(double us, char *buf, size_t len)
{
    if (us < 1e3)
        snprintf(buf, len, "%.3g us", us);
    else if (us < 1e6)
        snprintf(buf, len, "%.3g ms", us / 1e3);
    else
        snprintf(buf, len, "%.3g s", us / 1e6);
    return buf;
}

static void explain(const operation *op, const atomsim_answer *a)
{
    char g[32], c[32], lo[32], hi[32];
    const char *side = a->decision == ATOMSIM_GPU ? "GPU" : "CPU";
    printf("%s: run on the %s\n", op->what, side);
    if (a->reason == ATOMSIM_REASON_GPU_FASTER || a->reason == ATOMSIM_REASON_CPU_FASTER)
        printf("  why: the %s is faster: %s on the GPU against %s on the CPU (data on %s, %s rule)\n", side,
               duration(a->gpu_us, g, sizeof g), duration(a->cpu_us, c, sizeof c), atomsim_data_on_name(a->data_on),
               atomsim_rule_name(a->rule));
    else
        printf("  why: the seed rule inhibits the GPU (%s), whatever the costs: %s GPU, %s CPU\n",
               a->reason == ATOMSIM_REASON_CAS ? "a compare-and-swap algorithm" : "contention density too high",
               duration(a->gpu_us, g, sizeof g), duration(a->cpu_us, c, sizeof c));
    if (a->band_rows)
        printf("  GPU time, validation p10..p90: %s to %s (%d measured rows)\n", duration(a->gpu_lo_us, lo, sizeof lo),
               duration(a->gpu_hi_us, hi, sizeof hi), a->band_rows);
    if (a->cpu_band_rows)
        printf("  CPU time, validation p10..p90: %s to %s (%d measured rows)\n", duration(a->cpu_lo_us, lo, sizeof lo),
               duration(a->cpu_hi_us, hi, sizeof hi), a->cpu_band_rows);
    /* where the p10..p90 bands overlap the verdict may go either way on a
     * host: a dispatcher may prefer to measure there */
    if (a->close_call)
        printf("  note: the two bands overlap, a close call\n");
    if (a->seed_decision != a->decision)
        printf("  note: seed 000's rule would say %s (%s)\n", atomsim_target_name(a->seed_decision),
               atomsim_reason_name(a->seed_reason));
    if (a->extrapolated)
        printf("  note: outside the table's grid, extrapolated\n");
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "tables/h100.json";
    atomsim_table *t;
    char err[256];
    int rc = atomsim_table_open(path, &t, err, sizeof err);
    if (rc != ATOMSIM_OK) {
        fprintf(stderr, "route: %s\n", err);
        return 1;
    }
    atomsim_table_info info;
    atomsim_table_get_info(t, &info);
    printf("table: %s (GPU %s, CPU tier %s)\n", path, info.gpu_name, info.cpu_name);

    operation ops[] = {
        { "compaction of 10M elements keeping 25%", { 0 } },
        { "histogram of 2^24 elements into 256 bins, 96-thread workgroups with 40 KiB shared memory", { 0 } },
        { "cas-append of 1M elements keeping 10%", { 0 } },
        { "small histogram of 16,384 elements into 256 bins", { 0 } },
    };
    const int n_ops = (int)(sizeof ops / sizeof ops[0]);
    atomsim_query_init(&ops[0].q, "compaction");
    ops[0].q.n = 10e6;
    ops[0].q.selectivity = 0.25;
    atomsim_query_init(&ops[1].q, "histogram");
    ops[1].q.n = 1 << 24;
    ops[1].q.bins = 256;
    ops[1].q.wg = 96;
    ops[1].q.smem_per_wg = 40 * 1024;
    atomsim_query_init(&ops[2].q, "cas-append");
    ops[2].q.n = 1 << 20;
    ops[2].q.selectivity = 0.1;
    /* near the crossover: the two sides are within each other's bands */
    atomsim_query_init(&ops[3].q, "histogram");
    ops[3].q.n = 16384;
    ops[3].q.bins = 256;

    int failed = 0;
    for (int i = 0; i < n_ops; i++) {
        atomsim_answer a;
        rc = atomsim_lookup(t, &ops[i].q, &a, err, sizeof err);
        if (rc != ATOMSIM_OK) {
            fprintf(stderr, "route: %s: %s (%s)\n", ops[i].what, err, atomsim_strerror(rc));
            failed = 1;
            continue;
        }
        explain(&ops[i], &a);
    }
    atomsim_table_close(t);
    return failed;
}
