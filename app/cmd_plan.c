/* cmd_plan.c - `atomsim plan --random`: a reproducible random sample of
 * configurations over every pattern, written as a vkbench plan or as the CSV
 * that `atomsim dispatch --batch` reads.  The drawing is validate/plan_draw.c's,
 * the text validate/plan_write.c's; this file reads the flags and reports. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../validate/plan_draw.h"
#include "../validate/plan_write.h"
#include "args.h"
#include "commands.h"

#define CMD "plan"

enum {
    OPT_RANDOM = 3000, OPT_SEED, OPT_ROWS, OPT_PATTERNS, OPT_FORMAT, OPT_OUTPUT, OPT_HELP,
    OPT_SEL_RANGE, OPT_HOT_RANGE, OPT_MAX_CAS, OPT_AXIS /* + PLN_AX_* */
};

static void usage(FILE *f)
{
    fprintf(f,
        "usage: atomsim plan --random --seed S --rows N [--patterns LIST] [range flags]\n"
        "                    [--format plan|csv] [--output FILE]\n"
        "draws N configurations at random and writes them as a vkbench plan or as CSV.  The same\n"
        "seed and flags give the same bytes (GSL's mt19937 seeded with S, on the same build).  Every\n"
        "row is a complete configuration: a parameter its pattern ignores gets the contract's\n"
        "default (selectivity 1, bins 256, hot 0, addresses 1).\n"
        "\n"
        "  --random              the only mode so far; required\n"
        "  --seed S              an integer in [1, 4294967295] (mt19937 keeps 32 bits and takes 0\n"
        "                        as 4357, so other seeds would repeat another's output); required\n"
        "  --rows N              configurations to write, in [1, 1000000]; required\n"
        "  --patterns LIST       comma list of pattern names, or all (default all).  Rows are dealt\n"
        "                        in rounds, every listed pattern once a round in a fresh random\n"
        "                        order, so each pattern gets N/P rows or one more\n"
        "  --format plan|csv     plan (default): two comment lines (the command, what the file is),\n"
        "                        then one vkbench line a configuration: --pattern --n --wg\n"
        "                        --selectivity --bins --hot --addresses --smem-per-wg.  csv: the\n"
        "                        header pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg\n"
        "                        and the same rows in the same order (atomsim dispatch --batch)\n"
        "  --output FILE         write to FILE instead of stdout\n"
        "\n");
    fprintf(f,
        "Ranges are LO..HI, both ends included.  Integers are decimal, 2^E or 1eE (no octal or\n"
        "hex); fractions are decimal.  A log-uniform integer is floor(e^U), U uniform on\n"
        "[ln LO, ln(HI+1)].  The domains are what both atomsim and vkbench accept.\n"
        "  --n-range LO..HI      default 2^10..2^24, domain [1, 2^28].  Each pattern's rows\n"
        "                        alternate, from a random start, between exact powers of two\n"
        "                        (log-uniform: a uniform exponent) and other integers (log-uniform,\n"
        "                        drawn again when it lands on a power of two; not rounded to a\n"
        "                        multiple of 32, so the last workgroup is usually partial).  A\n"
        "                        range that holds only one kind gives only that kind\n"
        "  --wg-range LO..HI     default 32..1024, domain [1, 1024]: multiples of 32 in range (96,\n"
        "                        192, 640 occur), log-uniform over the multiple; the range must\n"
        "                        hold one\n"
        "  --smem-range LO..HI   default 0..49152, domain [0, 2^20]: shared memory a workgroup\n"
        "                        allocates, in bytes.  30%% exactly LO (0: nothing beyond the\n"
        "                        pattern's own need), 70%% a multiple of 1024 in range, uniform\n"
        "                        (the range must hold one).  The value written is max(draw, the\n"
        "                        pattern's own need: histogram-shared 4*bins, reduce 4), which\n"
        "                        the bins limit below keeps <= HI.  The device's own limit (48 KiB\n"
        "                        under Vulkan on an H100) is vkbench's to check\n"
        "  --selectivity-range LO..HI\n"
        "                        default 0..1, multiples of 0.000001 (the contract selects on\n"
        "                        round(S*1e6)): 10%% exactly LO, 20%% exactly HI, 70%% log-uniform\n"
        "                        from max(LO, HI/1000) to HI rounded to 6 decimals.  Read by store,\n"
        "                        counter, counter-aggregated, compaction, cas-append, bitmask\n"
        "  --bins-range LO..HI   default 1..2^22, domain [1, 2^24]: histogram and\n"
        "                        histogram-shared, log-uniform.  histogram-shared's HI is lowered\n"
        "                        to the smem HI / 4, since its bins live in shared memory\n"
        "  --cas-bins-range LO..HI\n"
        "                        default 1..2^16, domain [1, 2^24]: the same for\n"
        "                        histogram-u8-cas and histogram-u16-cas\n"
        "  --max-cas-contenders N  default 131072 (2^17): a compare-and-swap row whose hottest word\n"
        "                        more threads race on (cas-append n x S, u8 n/(K/4), u16 n/(K/2)) is\n"
        "                        drawn again: past it one GPU dispatch can outlast the harness's timeout\n"
        "  --hot-range LO..HI    default 0..1, multiples of 0.001: histogram only.  60%% exactly LO,\n"
        "                        40%% uniform over the range in steps of 0.001\n"
        "  --addresses-range LO..HI\n"
        "                        default 1..2^22, domain [1, 2^22]: distinct-lines, log-uniform\n"
        "\n"
        "\n"
        "A configuration drawn before is drawn again, up to %d times, since vkbench runs a\n"
        "repeated configuration once; only ranges too narrow for N rows leave repeats (a note on\n"
        "stderr counts them).  Exit status: 0; 1 the output could not be written (a file is left\n"
        "incomplete); 2 bad usage, with one line on stderr.\n",
        PLN_MAX_REDRAWS);
}

static int parse_int_range(enum pln_axis ax, const char *arg, pln_range *r)
{
    const char *flag = pln_axis_flag(ax);
    double lo, hi;
    switch (pln_parse_int_range(ax, arg, r)) {
    case PLN_OK:
        return 0;
    case PLN_DOMAIN:
        pln_axis_domain(ax, &lo, &hi);
        cli_error(CMD, "--%s '%s' leaves the domain [%.0f, %.0f]", flag, arg, lo, hi);
        return -1;
    case PLN_ORDER:
        cli_error(CMD, "--%s '%s': LO is above HI", flag, arg);
        return -1;
    default:
        cli_error(CMD, "--%s '%s' is not LO..HI with decimal or 2^E integers", flag, arg);
        return -1;
    }
}

static int parse_fraction_range(const char *flag, const char *arg, double scale, const char *grid, pln_range *r)
{
    switch (pln_parse_fraction_range(arg, scale, r)) {
    case PLN_OK:
        return 0;
    case PLN_ORDER:
        cli_error(CMD, "--%s '%s': LO is above HI", flag, arg);
        return -1;
    default:
        cli_error(CMD, "--%s '%s' is not LO..HI with decimal fractions in [0, 1], multiples of %s", flag, arg,
                  grid);
        return -1;
    }
}

static int parse_patterns(const char *arg, pln_spec *s)
{
    char bad[1024];
    switch (pln_parse_patterns(arg, s->pats, &s->npat, bad, sizeof bad)) {
    case PLN_OK:
        return 0;
    case PLN_UNKNOWN:
        cli_error(CMD, "--patterns: unknown pattern '%s' (see atomsim --help)", bad);
        return -1;
    case PLN_TWICE:
        cli_error(CMD, "--patterns: '%s' is listed twice", bad);
        return -1;
    default:
        cli_error(CMD, "--patterns '%s' is not a comma list of pattern names", arg);
        return -1;
    }
}

int cmd_plan(int argc, char **argv)
{
    /* the fixed options, then one per integer axis, and the terminator;
     * FIXED counts the fixed array itself, so a new fixed option cannot be
     * overwritten by the axes (max-cas-contenders was, and was refused as
     * unknown) */
    static const struct option fixed[] = {
        { "random", no_argument, NULL, OPT_RANDOM },
        { "seed", required_argument, NULL, OPT_SEED },
        { "rows", required_argument, NULL, OPT_ROWS },
        { "patterns", required_argument, NULL, OPT_PATTERNS },
        { "format", required_argument, NULL, OPT_FORMAT },
        { "output", required_argument, NULL, OPT_OUTPUT },
        { "help", no_argument, NULL, OPT_HELP },
        { "selectivity-range", required_argument, NULL, OPT_SEL_RANGE },
        { "hot-range", required_argument, NULL, OPT_HOT_RANGE },
        { "max-cas-contenders", required_argument, NULL, OPT_MAX_CAS },
    };
    enum { FIXED = sizeof fixed / sizeof fixed[0] };
    struct option longopts[FIXED + PLN_AX_COUNT + 1];
    memcpy(longopts, fixed, sizeof fixed);
    int nopt = FIXED;
    for (int ax = 0; ax < PLN_AX_COUNT; ax++)
        longopts[nopt++] = (struct option){ pln_axis_flag(ax), required_argument, NULL, OPT_AXIS + ax };
    longopts[nopt] = (struct option){ 0, 0, 0, 0 };

    pln_spec spec;
    pln_spec_defaults(&spec);
    enum plw_format fmt = PLW_PLAN;
    int random_mode = 0, c;
    const char *out_path = NULL;

    /* getopt_long permutes argv; the header needs it as typed */
    char **typed = malloc(sizeof *typed * (size_t)(argc + 1));
    if (!typed) {
        cli_error(CMD, "out of memory");
        return 1;
    }
    memcpy(typed, argv, sizeof *typed * (size_t)(argc + 1));

    uint64_t max_cas_u = 0;
    int status = 2;
    char err[CFG_ERR_MAX];
    FILE *out = NULL;
    pln_drawer *d = NULL;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_HELP:
            usage(stdout);
            status = fflush(stdout) ? 1 : 0;
            goto done;
        case OPT_RANDOM:
            random_mode = 1;
            break;
        case OPT_SEED:
            if (pln_parse_int(optarg, &spec.seed) || spec.seed < 1 || spec.seed > 0xffffffffull) {
                cli_error(CMD, "--seed '%s' is not a decimal integer in [1, 4294967295]", optarg);
                goto done;
            }
            break;
        case OPT_ROWS:
            if (pln_parse_int(optarg, &spec.rows) || spec.rows < 1 || spec.rows > PLN_MAX_ROWS) {
                cli_error(CMD, "--rows '%s' is not a decimal integer in [1, %llu]", optarg, PLN_MAX_ROWS);
                goto done;
            }
            break;
        case OPT_PATTERNS:
            if (parse_patterns(optarg, &spec))
                goto done;
            break;
        case OPT_FORMAT:
            if (!strcmp(optarg, "plan") || !strcmp(optarg, "csv")) {
                fmt = optarg[0] == 'c' ? PLW_CSV : PLW_PLAN;
                break;
            }
            cli_error(CMD, "--format '%s': expected plan or csv", optarg);
            goto done;
        case OPT_OUTPUT:
            out_path = optarg;
            break;
        case OPT_SEL_RANGE:
            if (parse_fraction_range("selectivity-range", optarg, PLN_SEL_SCALE, "0.000001", &spec.sel))
                goto done;
            break;
        case OPT_MAX_CAS:
            if (pln_parse_int(optarg, &max_cas_u) || max_cas_u < 1) {
                cli_error(CMD, "--max-cas-contenders '%s' is not a positive decimal integer", optarg);
                goto done;
            }
            spec.max_cas = (double)max_cas_u;
            break;
        case OPT_HOT_RANGE:
            if (parse_fraction_range("hot-range", optarg, PLN_HOT_SCALE, "0.001", &spec.hot))
                goto done;
            break;
        default:
            if (c >= OPT_AXIS && c < OPT_AXIS + PLN_AX_COUNT) {
                if (parse_int_range(c - OPT_AXIS, optarg, &spec.ax[c - OPT_AXIS]))
                    goto done;
                break;
            }
            /* glibc leaves optopt 0 for an unknown long option and sets it
             * to the option's code when its value is missing */
            if (optopt && strchr(argv[optind - 1], '='))
                cli_error(CMD, "%s: the option takes no value", argv[optind - 1]);
            else if (optopt)
                cli_error(CMD, "%s needs a value (see atomsim plan --help)", argv[optind - 1]);
            else
                cli_error(CMD, "unknown or ambiguous option '%s' (see atomsim plan --help)", argv[optind - 1]);
            goto done;
        }
    }
    if (optind < argc) {
        cli_error(CMD, "unexpected argument '%s'", argv[optind]);
        goto done;
    }
    if (!random_mode || !spec.seed || !spec.rows) {
        cli_error(CMD, "--random, --seed and --rows are required (see atomsim plan --help)");
        goto done;
    }
    if (pln_check(&spec, err)) {
        cli_error(CMD, "%s", err);
        goto done;
    }
    if (pln_drawer_new(&spec, &d)) {
        cli_error(CMD, "out of memory");
        status = 1;
        goto done;
    }
    out = out_path ? fopen(out_path, "w") : stdout;
    if (!out) {
        cli_error(CMD, "cannot write '%s': %s", out_path, strerror(errno));
        goto done;
    }

    int bad = plw_header(out, fmt, argc, typed, spec.rows, spec.npat) < 0;
    for (uint64_t i = 0; i < spec.rows && !bad; i++) {
        pln_row w;
        pln_draw(d, &w);
        bad = plw_row(out, fmt, &w) < 0;
    }
    /* a full disk often shows only when the buffer goes out */
    bad |= fflush(out) != 0 || ferror(out);
    if (out != stdout) {
        bad |= fclose(out) != 0;
        out = NULL;
    }
    if (bad) {
        cli_error(CMD, "writing %s: %s%s", out_path ? out_path : "stdout", strerror(errno),
                  out_path ? " (the file is incomplete)" : "");
        status = 1;
        goto done;
    }
    if (pln_repeats(d))
        fprintf(stderr, "atomsim plan: note: %llu rows repeat an earlier one; the ranges hold too few configurations\n",
                (unsigned long long)pln_repeats(d));
    status = 0;
done:
    if (out && out != stdout)
        fclose(out);
    pln_drawer_free(d);
    free(typed);
    return status;
}
