/* cmd_dispatch.c - `atomsim dispatch`: GPU or CPU for one operation, from a
 * cost table that `atomsim export` wrote (model/table.c).  It reads nothing
 * but the table: this is what a runtime dispatcher would do. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../model/table.h"
#include "args.h"
#include "commands.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim dispatch --table FILE --pattern NAME [--n N] [--selectivity S] [--bins K]\n"
               "                        [--hot F] [--addresses P] [--wg W] [--extrapolate]\n"
               "                        [--format text|json] [--repeat R]\n"
               "answers gpu or cpu with the predicted costs, interpolating within the table's grid.\n"
               "Outside the grid it fails (exit 2) unless --extrapolate, which marks the answer.\n"
               "--repeat R times R lookups and reports the time per lookup on stderr.\n");
}

enum { OPT_TABLE = 2000, OPT_EXTRAPOLATE, OPT_REPEAT };

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void print_number(const char *key, double v, int json, int last)
{
    if (json)
        printf("  \"%s\": %.6g%s\n", key, v, last ? "" : ",");
    else
        printf("%s: %.6g\n", key, v);
}

int cmd_dispatch(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_COMMON_LONGOPTS,
        { "table", required_argument, NULL, OPT_TABLE },
        { "extrapolate", no_argument, NULL, OPT_EXTRAPOLATE },
        { "repeat", required_argument, NULL, OPT_REPEAT },
        { 0, 0, 0, 0 },
    };
    cli_args a;
    char err[CFG_ERR_MAX];
    const char *table_path = NULL;
    int c, extrapolate = 0, wg_given = 0;
    unsigned long long repeat = 0;
    cli_args_init(&a);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case CLI_OPT_HELP:
            usage(stdout);
            return 0;
        case OPT_TABLE:
            table_path = optarg;
            continue;
        case OPT_EXTRAPOLATE:
            extrapolate = 1;
            continue;
        case OPT_REPEAT:
            if (cli_parse_u64(optarg, &repeat) || repeat == 0) {
                cli_error("dispatch", "--repeat '%s' is not a positive integer", optarg);
                return 2;
            }
            continue;
        case CLI_OPT_CONFIG:
        case CLI_OPT_ENGINE:
        case CLI_OPT_SEED:
        case CLI_OPT_SMEM:
            cli_error("dispatch", "%s: the table is the only input (see atomsim dispatch --help)", argv[optind - 1]);
            return 2;
        case CLI_OPT_WG:
            wg_given = 1;
            break;
        case '?':
        case ':':
            cli_error("dispatch", "bad option '%s' (see atomsim dispatch --help)", argv[optind - 1]);
            return 2;
        }
        int rc = cli_common_opt(&a, c, optarg, err);
        if (rc) {
            cli_error("dispatch", "%s", rc < 0 ? err : "unexpected option");
            return 2;
        }
    }
    if (optind < argc) {
        cli_error("dispatch", "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!table_path || !a.pattern_given) {
        cli_error("dispatch", "--table and --pattern are required (see atomsim dispatch --help)");
        return 2;
    }
    if (a.format == CLI_FORMAT_CSV) {
        cli_error("dispatch", "--format: expected text or json");
        return 2;
    }
    tbl_table *t;
    if (tbl_load(table_path, &t, err)) {
        cli_error("dispatch", "%s", err);
        return 2;
    }
    tbl_query q = { a.params.pattern, (double)a.params.n, a.params.selectivity, a.params.bins, a.params.hot,
                    a.params.addresses, wg_given ? a.params.wg : 0 };
    tbl_answer ans;
    if (tbl_lookup(t, &q, extrapolate, &ans, err)) {
        cli_error("dispatch", "%s", err);
        tbl_free(t);
        return 2;
    }
    if (repeat) {
        /* vary n a little so the compiler cannot hoist the lookup */
        double t0 = now_ns(), sink = 0;
        for (unsigned long long i = 0; i < repeat; i++) {
            tbl_query r = q;
            r.n = q.n * (1 + (double)(i & 7) * 1e-9);
            tbl_answer x;
            if (tbl_lookup(t, &r, 1, &x, err) == 0)
                sink += x.gpu_us;
        }
        double per = (now_ns() - t0) / (double)repeat;
        fprintf(stderr, "atomsim dispatch: %llu lookups, %.1f ns per lookup (checksum %.3g)\n", repeat, per, sink);
    }
    int json = a.format == CLI_FORMAT_JSON;
    if (json)
        printf("{\n  \"decision\": \"%s\",\n  \"reason\": \"%s\",\n", dsp_target_name(ans.decision), dsp_reason_name(ans.reason));
    else
        printf("decision: %s\nreason: %s\n", dsp_target_name(ans.decision), dsp_reason_name(ans.reason));
    print_number("gpu_us", ans.gpu_us, json, 0);
    print_number("cpu_us", ans.cpu_us, json, 0);
    print_number("density_fraction", ans.density_fraction, json, 0);
    print_number("penalty", ans.penalty, json, 0);
    if (json)
        printf("  \"inhibited\": %s,\n  \"extrapolated\": %s,\n  \"gpu\": \"%s\",\n  \"config_hash\": \"%s\"\n}\n",
               ans.inhibited ? "true" : "false", ans.extrapolated ? "true" : "false", tbl_gpu_name(t), tbl_config_hash(t));
    else
        printf("inhibited: %s\nextrapolated: %s\ngpu: %s\n", ans.inhibited ? "true" : "false",
               ans.extrapolated ? "true" : "false", tbl_gpu_name(t));
    tbl_free(t);
    return fflush(stdout) ? 1 : 0;
}
