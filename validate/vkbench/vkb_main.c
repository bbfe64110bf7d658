/* vkbench: measures the contract's atomic-contention patterns on a Vulkan
 * device and writes the dataset CSV of docs/patterns.md on stdout. The only file
 * that prints to stderr and decides the exit status: 0 when every
 * configuration ran and checked, 1 when the device or a check failed or a
 * configuration was refused, 2 for bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/clock.h"
#include "../../util/num.h"
#include "../../util/version.h"
#include "vkb_args.h"
#include "vkb_bench.h"
#include "vkb_cfg.h"
#include "vkb_common.h"
#include "vkb_csv.h"
#include "vkb_guard.h"
#include "vkb_gpu.h"
#include "vkb_hash.h"
#include "vkb_limits.h"
#include "vkb_plan.h"

#define DEFAULT_REPS 9
#define DEFAULT_WARMUP 2

/* main_opts.clock_tol before --clock-guard: auto on GPUs, off on CPUs */
#define CLOCK_UNSET (-2.0)

typedef struct main_opts {
    const char *plan, *device;
    const char *win_order; /* --win-order FILE, or NULL */
    const char *trace;     /* --trace FILE, or NULL */
    double max_ms;
    double clock_tol; /* percent, VKB_CLOCK_AUTO, VKB_CLOCK_OFF or CLOCK_UNSET */
    int list, dry_run, help, count_cas;
    int clock_evidence; /* --clock-evidence: the guard's two columns a row */
    int sel_unit; /* VKB_SEL_* */
    int tail;     /* VKB_TAIL_* */
    uint32_t spin;
    int cas_first; /* 0 atomic (the contract), 1 guess */
    int flush;     /* 0 nonzero (the contract), 1 every bin */
} main_opts;

static const vkb_flag main_flags[] = {
    {"plan", 1}, {"device", 1}, {"max-dispatch-ms", 1}, {"clock-guard", 1},
    {"select-unit", 1}, {"tail", 1}, {"spin", 1}, {"win-order", 1}, {"cas-first", 1}, {"flush", 1}, {"trace", 1}, {"list-devices", 0}, {"dry-run", 0},
    {"count-cas", 0}, {"clock-evidence", 0}, {"help", 0},
    {NULL, 0},
};

/* The probe flags' values, indexed by VKB_SEL_* and VKB_TAIL_*. */
static const char *const sel_units[] = {"thread", "warp", "workgroup",
                                        "lane0", NULL};
static const char *const tails[] = {"none", "barrier", "fence", NULL};
static const char *const cas_firsts[] = {"atomic", "guess", NULL};
static const char *const flushes[] = {"nonzero", "all", NULL};

/* The index of value in the NULL-terminated names, or -1. */
static int pick(const char *value, const char *const *names)
{
    for (int k = 0; names[k]; k++)
        if (strcmp(value, names[k]) == 0)
            return k;
    return -1;
}

static int main_flag(void *ctx, const char *name, const char *value,
                     char *err)
{
    main_opts *mo = ctx;
    if (strcmp(name, "plan") == 0) {
        mo->plan = value;
    } else if (strcmp(name, "device") == 0) {
        mo->device = value;
    } else if (strcmp(name, "max-dispatch-ms") == 0) {
        if (num_parse_double(value, &mo->max_ms) || !(mo->max_ms > 0 && mo->max_ms < 1e7))
            return vkb_errf(err, VKB_EUSAGE, "--max-dispatch-ms: '%s' is "
                            "not a number of milliseconds in (0, 1e7)",
                            value);
    } else if (strcmp(name, "clock-guard") == 0) {
        if (strcmp(value, "auto") == 0)
            mo->clock_tol = VKB_CLOCK_AUTO;
        else if (strcmp(value, "off") == 0)
            mo->clock_tol = VKB_CLOCK_OFF;
        else {
            if (num_parse_double(value, &mo->clock_tol) || !(mo->clock_tol >= 0 &&
                                          mo->clock_tol <= 10000))
                return vkb_errf(err, VKB_EUSAGE, "--clock-guard: '%s' is "
                                "not auto, off or a percentage in [0, "
                                "10000]", value);
            if (mo->clock_tol == 0) /* the old spelling of off */
                mo->clock_tol = VKB_CLOCK_OFF;
        }
    } else if (strcmp(name, "select-unit") == 0) {
        if ((mo->sel_unit = pick(value, sel_units)) < 0)
            return vkb_errf(err, VKB_EUSAGE, "--select-unit: '%s' is not "
                            "thread, warp, workgroup or lane0", value);
    } else if (strcmp(name, "tail") == 0) {
        if ((mo->tail = pick(value, tails)) < 0)
            return vkb_errf(err, VKB_EUSAGE, "--tail: '%s' is not none, "
                            "barrier or fence", value);
    } else if (strcmp(name, "spin") == 0) {
        unsigned long long v;
        if (num_parse_u64(value, &v) || v > 1000000)
            return vkb_errf(err, VKB_EUSAGE, "--spin: '%s' is not an "
                            "integer in [0, 1000000]", value);
        mo->spin = (uint32_t)v;
    } else if (strcmp(name, "cas-first") == 0) {
        if ((mo->cas_first = pick(value, cas_firsts)) < 0)
            return vkb_errf(err, VKB_EUSAGE, "--cas-first: '%s' is not "
                            "atomic or guess", value);
    } else if (strcmp(name, "flush") == 0) {
        if ((mo->flush = pick(value, flushes)) < 0)
            return vkb_errf(err, VKB_EUSAGE, "--flush: '%s' is not "
                            "nonzero or all", value);
    } else if (strcmp(name, "trace") == 0) {
        mo->trace = value;
    } else if (strcmp(name, "win-order") == 0) {
        mo->win_order = value;
    } else if (strcmp(name, "list-devices") == 0) {
        mo->list = 1;
    } else if (strcmp(name, "dry-run") == 0) {
        mo->dry_run = 1;
    } else if (strcmp(name, "count-cas") == 0) {
        mo->count_cas = 1;
    } else if (strcmp(name, "clock-evidence") == 0) {
        mo->clock_evidence = 1;
    } else {
        mo->help = 1;
    }
    return VKB_OK;
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: vkbench --plan FILE [--device N|NAME] [--reps R] "
        "[--warmup W] [--max-dispatch-ms MS]\n"
        "       vkbench --pattern NAME[,NAME...] [sweep flags] [options]\n"
        "       vkbench --list-devices\n"
        "Writes the dataset CSV (provenance, header, one row per "
        "configuration) on stdout.\n"
        "Sweep flags take comma lists (a grid); integers may be written "
        "2^E.\n");
    vkb_sweep_help(f);
    fprintf(f,
        "Options:\n"
        "  --plan FILE        one sweep per line, same flags (see "
        "validate/README.md)\n"
        "  --device N|NAME    device index or part of its name (default: "
        "first discrete GPU)\n"
        "  --max-dispatch-ms MS  skip a configuration whose first dispatch "
        "takes longer\n"
        "  --clock-guard auto|off|PCT  redo a repetition whose clock probe "
        "is slower than\n"
        "                     the reference (the median of 15 probes on the "
        "warmed GPU) by more\n"
        "                     than the tolerance: auto (default on GPUs) "
        "takes 3x the probes'\n"
        "                     spread, within 3-25%%; PCT fixes it; off "
        "(default on CPU devices)\n"
        "  --count-cas        the CAS loops (sub-word histograms, cas-append) "
        "also report\n"
        "                     their compare-and-swaps (a last CSV column, "
        "cas_attempts)\n"
        "  --clock-evidence   each row also gives the clock guard's evidence "
        "(two last columns,\n"
        "                     clock_ratio_max and clock_rewarms); the "
        "contract's datasets keep\n"
        "                     the contract's header, so it is off by default\n"
        "  --select-unit U    thread (default, the contract), warp, "
        "workgroup or lane0:\n"
        "                     what one selection draw decides (a probe; "
        "not a dataset\n"
        "                     atomsim reads)\n"
        "  --tail T           none (default), barrier (a workgroup barrier "
        "before exit)\n"
        "                     or fence (a buffer fence after a bitmask or "
        "store write): a probe\n"
        "  --spin N           bitmask's and store's silent threads run N "
        "dependent\n"
        "                     multiply-adds before exit: a probe\n"
        "  --win-order FILE   with --count-cas: write cas-append's winners "
        "in the order\n"
        "                     they won (n,wg,selectivity,slot,thread,tries; "
        "a probe)\n"
        "  --cas-first F      atomic (default, the contract) or guess: "
        "cas-append's first\n"
        "                     compare-and-swap expects 0 instead of an "
        "atomic read (a probe)\n"
        "  --flush F          nonzero (default, the contract) or all: "
        "histogram-shared's\n"
        "                     flush adds every bin to global memory, zero "
        "ones too (a probe)\n"
        "  --trace FILE       cas-append and bitmask record each winner's or "
        "sending warp's\n"
        "                     SM and start/end times to FILE (a probe; "
        "NVIDIA only)\n"
        "  --list-devices     describe the Vulkan devices and exit\n"
        "  --dry-run          print the configurations without running "
        "them\n");
}

static int build_list(const main_opts *mo, const vkb_sweep *sw,
                      vkb_cfg_list *list, char *err)
{
    int reps = sw->reps >= 0 ? sw->reps : DEFAULT_REPS;
    int warmup = sw->warmup >= 0 ? sw->warmup : DEFAULT_WARMUP;

    if (mo->plan) {
        vkb_sweep plain;
        vkb_sweep_init(&plain);
        plain.reps = sw->reps;
        plain.warmup = sw->warmup;
        if (memcmp(&plain, sw, sizeof plain) != 0)
            return vkb_errf(err, VKB_EUSAGE, "--plan takes no sweep flags "
                            "but --reps and --warmup");
        return vkb_plan_read(mo->plan, reps, warmup, list, err);
    }
    if (sw->npattern == 0)
        return vkb_errf(err, VKB_EUSAGE, "give --pattern or --plan "
                        "(see --help)");
    return vkb_sweep_expand(sw, reps, warmup, 0, list, err);
}

/* Normalizes and drops repeats, keeping the first of each configuration. */
static void dedupe(vkb_cfg_list *l, uint32_t smem_max)
{
    size_t kept = 0;
    for (size_t k = 0; k < l->len; k++) {
        vkb_cfg c = l->v[k];
        size_t j;
        vkb_cfg_normalize(&c, smem_max);
        for (j = 0; j < kept && !vkb_cfg_same(&l->v[j], &c); j++)
            ;
        if (j == kept)
            l->v[kept++] = c;
    }
    l->len = kept;
}

static const char *where(const main_opts *mo, const vkb_cfg *c, char *buf,
                         size_t len)
{
    if (mo->plan && c->line)
        snprintf(buf, len, "%s:%d: ", mo->plan, c->line);
    else
        buf[0] = '\0';
    return buf;
}

static int needs_ballot(const vkb_cfg_list *l)
{
    for (size_t k = 0; k < l->len; k++)
        if (vkb_pattern_get(l->v[k].pattern)->needs_ballot)
            return 1;
    return 0;
}

/* What the output buffers hold besides keys (vkb_pattern_out_words). */
static int out_mode(const main_opts *mo)
{
    int m = 0;
    if (mo->count_cas)
        m |= VKB_OUT_COUNTS | (mo->win_order ? VKB_OUT_READS : 0);
    return m | (mo->trace ? VKB_OUT_TRACE : 0);
}

/* The provenance lines of the probe flags that are on. */
static void print_probes(FILE *f, const main_opts *mo)
{
    if (mo->sel_unit != VKB_SEL_THREAD)
        fprintf(f, "# select_unit: %s (one selection draw decides this unit; "
                "a probe, not the contract's rule)\n", sel_units[mo->sel_unit]);
    if (mo->tail != VKB_TAIL_NONE)
        fprintf(f, "# tail: %s (before a warp exits; a probe, not the "
                "contract's kernel)\n", tails[mo->tail]);
    if (mo->trace)
        fprintf(f, "# trace: on (cas-append's winners and bitmask's sending "
                "warps also store their SM and clocks; a probe, not the "
                "contract's kernel)\n");
    if (mo->cas_first)
        fprintf(f, "# cas_first: %s (cas-append's first compare-and-swap "
                "expects 0, no atomic read; a probe, not the contract's "
                "kernel)\n", cas_firsts[mo->cas_first]);
    if (mo->flush)
        fprintf(f, "# flush: %s (histogram-shared adds every bin to global "
                "memory, zero ones too; a probe, not the contract's kernel)\n",
                flushes[mo->flush]);
    if (mo->spin)
        fprintf(f, "# spin: %u (silent threads' multiply-adds before exit; a "
                "probe, not the contract's kernel)\n", mo->spin);
}

/* Opens a side file (--win-order, --trace) and heads it with the same
 * provenance as the dataset on stdout, so it says where it came from
 * alone; NULL, having said so, when path cannot be written. */
static FILE *open_out(const char *flag, const char *path,
                      const vkb_gpu_info *in, const main_opts *mo)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "vkbench: %s: cannot write '%s'\n", flag, path);
        return NULL;
    }
    vkb_csv_provenance(f, in);
    print_probes(f, mo);
    fprintf(f, "# side_file: %s (the dataset of this run is on stdout)\n",
            flag + 2);
    return f;
}

/* Runs the admitted configurations; returns the exit status. */
static int run_all(const main_opts *mo, vkb_gpu *g, vkb_cfg_list *l)
{
    char err[VKB_ERRLEN], desc[256], loc[300];
    int status = 0;
    vkb_bench *b;

    for (size_t k = 0; k < l->len; k++)
        if (vkb_limits_admit(&g->info, &l->v[k], out_mode(mo), err)) {
            fprintf(stderr, "vkbench: %srefused: %s\n",
                    where(mo, &l->v[k], loc, sizeof loc), err);
            l->v[k].reps = 0;
            status = 1;
        }
    double tol = mo->clock_tol != CLOCK_UNSET ? mo->clock_tol
                 : strcmp(g->info.type, "cpu") == 0 ? VKB_CLOCK_OFF
                 : VKB_CLOCK_AUTO;
    if (vkb_bench_open(g, tol, &b, err)) {
        fprintf(stderr, "vkbench: %s\n", err);
        return 1;
    }
    vkb_bench_count_cas(b, mo->count_cas);
    FILE *order = NULL, *trace = NULL;
    if ((mo->win_order &&
         !(order = open_out("--win-order", mo->win_order, &g->info, mo))) ||
        (mo->trace && !(trace = open_out("--trace", mo->trace, &g->info, mo)))) {
        if (order)
            fclose(order);
        vkb_bench_close(b);
        return 1;
    }
    vkb_bench_win_order(b, order);
    vkb_bench_trace(b, trace);
    vkb_bench_cas_first(b, mo->cas_first);
    vkb_bench_flush_all(b, mo->flush);
    vkb_csv_provenance(stdout, &g->info);
    vkb_clock_stats cs;
    int guarded = vkb_bench_clock(b, &cs);
    /* the contract's dataset header (docs/patterns.md) has no clock
     * columns: they are a probe's or a truth set's, when asked for */
    int clock_cols = mo->clock_evidence;
    if (guarded) {
        printf("# clock_guard: each repetition follows a clock probe (one "
               "64-thread workgroup, %u dependent multiply-adds a thread); a "
               "probe over %.1f%% slower than the reference re-warms the GPU "
               "and redoes the repetition\n# clock_probe_us_reference: %.3f "
               "(median of %d probes on the warmed GPU)\n"
               "# clock_guard_tolerance: %.1f%% (%s; the reference probes' "
               "slow-side spread %.2f%%)\n",
               cs.probe_iters, cs.tol * 100, cs.ref_us, VKB_GUARD_PROBES,
               cs.tol * 100, !cs.automatic ? "--clock-guard" : cs.too_noisy
               ? "auto, capped: this board's probe is too noisy to tell "
                 "every dip from jitter" : "auto", cs.spread * 100);
        if (cs.too_noisy)
            fprintf(stderr, "vkbench: clock guard: the probe's spread "
                    "(%.1f%%) asks for more than a %.0f%% tolerance; dips "
                    "smaller than that pass\n", cs.spread * 100,
                    VKB_GUARD_MAX_TOL * 100);
    } else
        printf("# clock_guard: off\n");
    print_probes(stdout, mo);
    vkb_csv_header(stdout, mo->count_cas, clock_cols);
    for (size_t k = 0; k < l->len; k++) {
        const vkb_cfg *c = &l->v[k];
        vkb_result res;
        if (c->reps == 0)
            continue;
        vkb_cfg_describe(c, desc, sizeof desc);
        double t0 = clk_now();
        int rc = vkb_bench_run(b, c, mo->max_ms, &res, err);
        if (rc == VKB_OK) {
            vkb_csv_row(stdout, c, &res, 1, mo->count_cas, clock_cols);
            fprintf(stderr, "vkbench: [%zu/%zu] %s: %.3f us (%.2f s)\n",
                    k + 1, l->len, desc, res.median_us, clk_now() - t0);
        } else if (rc == VKB_ECHECK) {
            vkb_csv_row(stdout, c, &res, 0, mo->count_cas, clock_cols);
            fprintf(stderr, "vkbench: %sFAIL %s: %s\n",
                    where(mo, c, loc, sizeof loc), desc, err);
            status = 1;
        } else if (rc == VKB_ECLOCK) {
            fprintf(stderr, "vkbench: %sno row for %s: %s\n",
                    where(mo, c, loc, sizeof loc), desc, err);
            status = 1;
        } else if (rc == VKB_ESKIP) {
            fprintf(stderr, "vkbench: %sskipped %s: %s\n",
                    where(mo, c, loc, sizeof loc), desc, err);
        } else {
            fprintf(stderr, "vkbench: %s%s: %s\n",
                    where(mo, c, loc, sizeof loc), desc, err);
            status = 1;
            break;
        }
    }
    if (vkb_bench_clock(b, &cs))
        fprintf(stderr, "vkbench: clock guard: re-warmed the GPU %d times "
                "(%.1f s); reference probe %.3f us, fastest %.3f us, "
                "tolerance %.1f%%\n", cs.warms, cs.warm_s, cs.ref_us,
                cs.fastest_us, cs.tol * 100);
    vkb_bench_close(b);
    if (order && fclose(order) != 0) {
        fprintf(stderr, "vkbench: --win-order: error writing '%s'\n",
                mo->win_order);
        status = 1;
    }
    if (trace && fclose(trace) != 0) {
        fprintf(stderr, "vkbench: --trace: error writing '%s'\n", mo->trace);
        status = 1;
    }
    return status;
}

int main(int argc, char **argv)
{
    main_opts mo = {.clock_tol = CLOCK_UNSET};
    vkb_sweep sw;
    vkb_cfg_list list = {0};
    char err[VKB_ERRLEN];
    vkb_gpu *g;
    int rc;

    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        /* which build: before any Vulkan call, so it works without a GPU */
        return atom_print_version(stdout, "vkbench");
    }
    vkb_sweep_init(&sw);
    rc = vkb_args_walk(argc - 1, argv + 1, &sw, main_flags, main_flag, &mo,
                       err);
    if (rc) {
        fprintf(stderr, "vkbench: %s (see --help)\n", err);
        return 2;
    }
    if (mo.help) {
        usage(stdout);
        return 0;
    }
    if (mo.list) {
        rc = vkb_gpu_list(stdout, err);
        if (rc)
            fprintf(stderr, "vkbench: %s\n", err);
        return rc ? 1 : 0;
    }
    if (mo.win_order && !mo.count_cas) {
        fprintf(stderr, "vkbench: --win-order needs --count-cas (see "
                "--help)\n");
        return 2;
    }
    rc = build_list(&mo, &sw, &list, err);
    if (rc) {
        fprintf(stderr, "vkbench: %s\n", err);
        vkb_cfg_list_free(&list);
        return rc == VKB_EUSAGE ? 2 : 1;
    }
    for (size_t k = 0; k < list.len; k++)
        list.v[k].sel_unit = mo.sel_unit, list.v[k].tail = mo.tail,
        list.v[k].spin = mo.spin;
    if (mo.dry_run) {
        dedupe(&list, VKB_SMEM_MAX);
        vkb_csv_header(stdout, 0, 0);
        for (size_t k = 0; k < list.len; k++) {
            vkb_csv_config(stdout, &list.v[k]);
            fprintf(stdout, ",%d,,,,\n", list.v[k].reps);
        }
        fprintf(stderr, "vkbench: %zu configurations\n", list.len);
        vkb_cfg_list_free(&list);
        return 0;
    }
    rc = vkb_gpu_open(mo.device, mo.trace != NULL, &g, err);
    if (rc) {
        fprintf(stderr, "vkbench: %s\n", err);
        vkb_cfg_list_free(&list);
        return rc == VKB_EUSAGE ? 2 : 1;
    }
    if (needs_ballot(&list) &&
        (!(g->info.subgroup_ops & VK_SUBGROUP_FEATURE_BALLOT_BIT) ||
         !(g->info.subgroup_stages & VK_SHADER_STAGE_COMPUTE_BIT))) {
        fprintf(stderr, "vkbench: %s has no subgroup ballot in compute "
                "shaders, which counter-aggregated needs\n", g->info.name);
        vkb_gpu_close(g);
        vkb_cfg_list_free(&list);
        return 1;
    }
    dedupe(&list, g->info.max_smem);
    int status = run_all(&mo, g, &list);
    vkb_gpu_close(g);
    vkb_cfg_list_free(&list);
    return status;
}
