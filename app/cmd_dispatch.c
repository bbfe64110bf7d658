/* cmd_dispatch.c - `atomsim dispatch`: GPU or CPU for one operation, or for
 * every row of a CSV of queries, from a cost table that `atomsim export`
 * wrote (model/table.c).  It reads nothing but the table: this is what a
 * runtime dispatcher does.  The queries and the batch are
 * model/dispatch_query.c's, the answers' formats app/dispatch_print.c's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/dispatch_query.h"
#include "../model/table.h"
#include "args.h"
#include "commands.h"
#include "dispatch_print.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim dispatch --table FILE --pattern NAME [--n N] [--wg W] [--smem-per-wg BYTES]\n"
               "                        [--selectivity S] [--bins K] [--hot F] [--addresses P]\n"
               "                        [--rule cost|seed] [--data-on gpu|host|both] [--extrapolate]\n"
               "                        [--format text|json|csv] [--repeat R]\n"
               "       atomsim dispatch --table FILE --batch QUERIES.csv [--rule ...] [--data-on ...] [--extrapolate]\n"
               "answers gpu or cpu with both sides' predicted costs, interpolating within the table's grid\n"
               "(n, workgroup size, shared memory per workgroup and the pattern's own axes).\n"
               "  --rule       cost: the faster side (the table's default); seed: seed 000's density\n"
               "               penalty and inhibition.  Both verdicts are always printed.\n"
               "  --data-on    where the input lives; the other side pays to move it (default: the table's)\n"
               "  --batch F    a CSV with a header naming some of pattern,n,wg,smem_per_wg,selectivity,bins,\n"
               "               hot,addresses,rule,data_on (pattern required); writes one CSV answer a row\n"
               "  --repeat R   times R lookups and reports the time per lookup on stderr\n"
               "Outside the grid it fails (exit 2) unless --extrapolate, which marks the answer.\n");
}

enum { OPT_TABLE = 2000, OPT_EXTRAPOLATE, OPT_REPEAT, OPT_BATCH, OPT_RULE, OPT_DATA_ON };

/* Every row is answered before anything is written: a bad row names its
 * line and leaves no half-written answer behind. */
static int run_batch(const tbl_table *t, const char *path, int rule, int data_on, int extrapolate)
{
    dq_batch b;
    dq_error e;
    size_t bad;
    char err[CFG_ERR_MAX];
    if (dq_batch_read(path, rule, data_on, extrapolate, &b, &e)) {
        if (e.nomem)
            cli_error("dispatch", "out of memory at %s:%d", path, e.line);
        else if (e.line)
            cli_error("dispatch", "%s:%d: %s", path, e.line, e.msg);
        else
            cli_error("dispatch", "%s: %s", path, e.msg);
        return 2;
    }
    tbl_answer *ans = malloc((b.count ? b.count : 1) * sizeof *ans);
    if (!ans) {
        cli_error("dispatch", "out of memory for %zu answers", b.count);
        dq_batch_free(&b);
        return 1;
    }
    int rc = 0;
    if (dq_batch_answer(t, &b, ans, &bad, err)) {
        cli_error("dispatch", "%s:%d: %s", path, b.rows[bad].line, err);
        rc = 2;
    } else {
        dpr_csv_header(stdout);
        for (size_t i = 0; i < b.count; i++)
            dpr_csv_row(stdout, &b.rows[i].q, &ans[i]);
    }
    dq_batch_free(&b);
    free(ans);
    return rc;
}

int cmd_dispatch(int argc, char **argv)
{
    static const struct option extra[] = {
        { "table", required_argument, NULL, OPT_TABLE },
        { "extrapolate", no_argument, NULL, OPT_EXTRAPOLATE },
        { "repeat", required_argument, NULL, OPT_REPEAT },
        { "batch", required_argument, NULL, OPT_BATCH },
        { "rule", required_argument, NULL, OPT_RULE },
        { "data-on", required_argument, NULL, OPT_DATA_ON },
        { 0, 0, 0, 0 },
    };
    struct option longopts[CLI_MAX_LONGOPTS];
    cli_args a;
    char err[CFG_ERR_MAX];
    const char *table_path = NULL, *batch_path = NULL;
    int c, extrapolate = 0, rule = -1, data_on = -1, shape_given = 0;
    unsigned long long repeat = 0;
    cli_args_init(&a);
    cli_longopts(longopts, extra);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        /* a config, an engine or a parameter the table has no axis for (--seed) */
        const pat_param_desc *pd = cli_opt_param(c);
        if (c == CLI_OPT_CONFIG || c == CLI_OPT_ENGINE || (pd && !dq_param_has_axis(pd))) {
            cli_error("dispatch", "%s: the table is the only input (see atomsim dispatch --help)", argv[optind - 1]);
            return 2;
        }
        switch (c) {
        case CLI_OPT_HELP:
            usage(stdout);
            return fflush(stdout) ? 1 : 0;
        case OPT_TABLE:
            table_path = optarg;
            continue;
        case OPT_BATCH:
            batch_path = optarg;
            continue;
        case OPT_EXTRAPOLATE:
            extrapolate = 1;
            continue;
        case OPT_RULE: {
            enum dsp_rule r;
            if (dsp_rule_from_name(optarg, &r)) {
                cli_error("dispatch", "--rule '%s': expected cost or seed", optarg);
                return 2;
            }
            rule = (int)r;
            continue;
        }
        case OPT_DATA_ON: {
            enum dsp_data_on d;
            if (dsp_data_on_from_name(optarg, &d)) {
                cli_error("dispatch", "--data-on '%s': expected gpu, host or both", optarg);
                return 2;
            }
            data_on = (int)d;
            continue;
        }
        case OPT_REPEAT:
            if (cli_parse_u64(optarg, &repeat) || repeat == 0) {
                cli_error("dispatch", "--repeat '%s' is not a positive integer", optarg);
                return 2;
            }
            continue;
        case '?':
        case ':':
            cli_error("dispatch", "bad option '%s' (see atomsim dispatch --help)", argv[optind - 1]);
            return 2;
        case CLI_OPT_FORMAT:
            break;
        default:
            shape_given = 1;
            break;
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
    if (!table_path || (!a.pattern_given && !batch_path)) {
        cli_error("dispatch", "--table and --pattern (or --batch) are required (see atomsim dispatch --help)");
        return 2;
    }
    if (batch_path && (shape_given || repeat)) {
        cli_error("dispatch", "--batch takes its queries from the file: no pattern flags or --repeat beside it");
        return 2;
    }
    tbl_table *t;
    if (tbl_load(table_path, &t, err)) {
        cli_error("dispatch", "%s", err);
        return 2;
    }
    if (batch_path) {
        int rc = run_batch(t, batch_path, rule, data_on, extrapolate);
        tbl_free(t);
        if (rc == 0 && (fflush(stdout) || ferror(stdout))) {
            cli_error("dispatch", "cannot write the answers: %s", strerror(errno));
            return 1;
        }
        return rc;
    }
    tbl_query q;
    dq_query(&a.params, rule, data_on, extrapolate, &q);
    tbl_answer ans;
    if (tbl_lookup(t, &q, &ans, err)) {
        cli_error("dispatch", "%s", err);
        tbl_free(t);
        return 2;
    }
    if (repeat) {
        double sink, per = dq_time_lookups(t, &q, repeat, &sink);
        fprintf(stderr, "atomsim dispatch: %llu lookups, %.1f ns per lookup (checksum %.3g)\n", repeat, per, sink);
    }
    if (a.format == CLI_FORMAT_JSON)
        dpr_json(stdout, t, &ans);
    else if (a.format == CLI_FORMAT_CSV) {
        dpr_csv_header(stdout);
        dpr_csv_row(stdout, &q, &ans);
    } else
        dpr_text(stdout, t, &ans);
    tbl_free(t);
    if (fflush(stdout) || ferror(stdout)) {
        cli_error("dispatch", "cannot write the answer: %s", strerror(errno));
        return 1;
    }
    return 0;
}
