/* cmd_plan.c - `atomsim plan --random`: random configurations as a vkbench plan or
 * CSV.  The values' checks and the drawing are validate/plan_draw.c's, the writing
 * validate/plan_write.c's, the help long_help.c's; this reads flags and says errors. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../validate/plan_draw.h"
#include "../validate/plan_write.h"
#include "args.h"
#include "commands.h"
#include "long_help.h"

#define CMD "plan"

enum {
    OPT_RANDOM = 3000, OPT_SEED, OPT_ROWS, OPT_PATTERNS, OPT_FORMAT, OPT_OUTPUT, OPT_HELP,
    OPT_SEL_RANGE, OPT_HOT_RANGE, OPT_MAX_CAS, OPT_AXIS /* + PLN_AX_* */
};

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
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_HELP:
            help_plan(stdout);
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
            if (pat_parse_list(optarg, "--patterns", spec.pats, &spec.npat, NULL, err, sizeof err))
                goto bad;
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
            if (pln_parse_fraction_range("selectivity-range", optarg, PLN_SEL_SCALE, &spec.sel, err))
                goto bad;
            break;
        case OPT_MAX_CAS:
            if (pln_parse_int(optarg, &max_cas_u) || max_cas_u < 1) {
                cli_error(CMD, "--max-cas-contenders '%s' is not a positive decimal integer", optarg);
                goto done;
            }
            spec.max_cas = (double)max_cas_u;
            break;
        case OPT_HOT_RANGE:
            if (pln_parse_fraction_range("hot-range", optarg, PLN_HOT_SCALE, &spec.hot, err))
                goto bad;
            break;
        default:
            if (c >= OPT_AXIS && c < OPT_AXIS + PLN_AX_COUNT) {
                if (pln_parse_int_range(c - OPT_AXIS, optarg, &spec.ax[c - OPT_AXIS], err))
                    goto bad;
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
    status = plw_write(&spec, fmt, out_path, argc, typed, err);
bad:
    if (*err) /* what went wrong, or plw_write's note on repeated rows */
        cli_error(CMD, "%s", err);
done:
    free(typed);
    return status;
}
