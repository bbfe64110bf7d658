/* cpb_main.c - `cpubench`: the CPU tier's pthreads benchmark.  Two modes:
 * with --plan it times the CPU tier on a vkbench plan's configurations and
 * writes a dataset CSV (cpb_run.c); without, it measures the cost
 * constants of a CPU-tier config (cpb_costs.c). */
#include <stdio.h>
#include <string.h>

#include "../../util/version.h"
#include "cpb_costs.h"
#include "cpb_run.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cpubench --plan FILE [--workers W] [--reps R] [--warmup W2] [--smem-max B] [--batch-mib M]\n"
            "                [--dry-run]\n"
            "       cpubench [--workers W] [--n N] [--reps R] [--csv FILE] [--ini FILE] [--name NAME] [--quick]\n"
            "       cpubench --from-csv FILE --ini FILE [--name NAME] [--cpu-model TEXT] [--l1 B --l2 B --llc B]\n"
            "--plan: times the CPU tier (private state per worker, parallel merge) on every configuration of a\n"
            "  vkbench plan (validate/README.md, \"Plan format\"; - reads stdin) and writes the dataset CSV:\n"
            "  provenance, header, one row per distinct configuration, each checked against a serial\n"
            "  reference. W workers (default: every online CPU), R timed repetitions (default 9, or the\n"
            "  line's --reps) after W2 warm-ups (default 2, or the line's --warmup); --smem-per-wg max\n"
            "  stands for B (default 49152, the H100's and H200's); --dry-run lists the configurations.\n"
            "  Repetitions are interleaved across a batch of up to 64 consecutive configurations whose\n"
            "  buffers fit M MiB together (default 1024; 0: one at a time, back to back), each timed run\n"
            "  right after an untimed one of its own, so a spell of host noise hits one repetition of\n"
            "  many rows rather than every repetition of one.\n"
            "  Exit status 0, 1 when a check failed or memory ran out, 2 for bad usage or a bad plan.\n"
            "otherwise: measures the CPU tier's cost constants (worker pool, private counts, compaction,\n"
            "  histograms, merge) and writes the raw timings as CSV (stdout by default) and a\n"
            "  configs/cpu-*.ini with --ini; --from-csv derives the config again from a CSV it wrote\n"
            "  (cache sizes of that machine). --n at most 2^31.\n");
}

int main(int argc, char **argv)
{
    int plan = 0;
    if (argc == 2 && !strcmp(argv[1], "--version")) /* which build, for a dataset's provenance */
        return atom_print_version(stdout, "cpubench");
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--plan") || !strncmp(argv[i], "--plan=", 7))
            plan = 1;
    }
    return plan ? cpb_run_main(argc, argv) : cpb_costs_main(argc, argv);
}
