/* cmd_dispatch.c - `atomsim dispatch`: GPU or CPU for one operation, or for
 * every row of a CSV of queries, from a cost table that `atomsim export`
 * wrote (model/table.c).  It reads nothing but the table: this is what a
 * runtime dispatcher does.  The queries and the batch are
 * model/dispatch_query.c's, the answers' formats app/dispatch_print.c's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/out.h"
#include "../model/dispatch_query.h"
#include "../model/table.h"
#include "args.h"
#include "commands.h"
#include "dispatch_print.h"
#include "opts.h"
#include "datadir.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim dispatch --table FILE --pattern NAME [--n N] [--wg W] [--smem-per-wg BYTES]\n"
               "                        [--selectivity S] [--bins K] [--hot F] [--addresses P]\n"
               "                        [--rule cost|seed] [--data-on gpu|host|both] [--extrapolate]\n"
               "                        [--format text|json|csv] [--repeat R]\n"
               "       atomsim dispatch --table FILE --batch QUERIES.csv [--rule ...] [--data-on ...] [--extrapolate]\n"
               "answers gpu or cpu with both sides' predicted costs, interpolating within the table's grid\n"
               "(n, workgroup size, shared memory per workgroup and the pattern's own axes), each with the\n"
               "error band the table carries (p10..p90 of measured / answered) and the assumptions behind it.\n"
               "  --rule       cost: the faster side (the table's default); seed: seed 000's density\n"
               "               penalty and inhibition.  Both verdicts are always printed.\n"
               "  --data-on    where the input lives; the other side pays to move it (default: the table's)\n"
               "  --batch F    a CSV with a header naming some of pattern,n,wg,smem_per_wg,selectivity,bins,\n"
               "               hot,addresses,rule,data_on (pattern required); writes one CSV answer a row\n"
               "  --repeat R   times R lookups and reports the time per lookup on stderr\n"
               "Outside the grid it fails (exit 2) unless --extrapolate, which marks the answer.\n");
}

int cmd_dispatch(int argc, char **argv)
{
    static const opt_choice rules[] = { { "cost", DSP_RULE_COST }, { "seed", DSP_RULE_SEED }, { NULL, 0 } };
    static const opt_choice data_on_names[] = {
        { "gpu", DSP_DATA_ON_GPU }, { "host", DSP_DATA_ON_HOST }, { "both", DSP_DATA_ON_BOTH }, { NULL, 0 },
    };
    cli_args a;
    char err[CFG_ERR_MAX];
    const char *table_path = NULL, *batch_path = NULL;
    int extrapolate = 0, rule = -1, data_on = -1, rc;
    unsigned long long repeat = 0;
    const opt_spec specs[] = {
        OPT_STRING("table", &table_path),
        OPT_FLAG("extrapolate", &extrapolate),
        OPT_UINT("repeat", &repeat, 1, INFINITY),
        OPT_STRING("batch", &batch_path),
        OPT_CHOICE("rule", &rule, rules),
        OPT_CHOICE("data-on", &data_on, data_on_names),
        OPT_END,
    };
    cli_args_init(&a);
    /* a config, an engine or a parameter the table has no axis for (--seed) */
    opt_cmd cmd = { .name = "dispatch", .specs = specs, .args = &a,
                    .common = OPT_COMMON_PATTERN | OPT_COMMON_PARAMS | OPT_COMMON_FORMAT, .usage = usage,
                    .refused = "the table is the only input (see atomsim dispatch --help)",
                    .param_ok = dq_param_has_axis };
    if ((rc = opt_parse(&cmd, argc, argv)) != OPT_GO)
        return rc;
    if (!table_path || (!a.pattern_given && !batch_path)) {
        cli_error("dispatch", "--table and --pattern (or --batch) are required (see atomsim dispatch --help)");
        return 2;
    }
    if (batch_path && (a.pattern_given || a.params_given || repeat)) {
        cli_error("dispatch", "--batch takes its queries from the file: no pattern flags or --repeat beside it");
        return 2;
    }
    tbl_table *t;
    table_path = dd_find(table_path, DD_TABLE);
    if (tbl_load(table_path, &t, err)) {
        cli_error("dispatch", "%s", err);
        return 2;
    }
    if (batch_path) {
        rc = dpr_batch(t, batch_path, rule, data_on, extrapolate);
        tbl_free(t);
        if (rc == 0 && out_stdout_failed("dispatch"))
            return 1;
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
    if (out_stdout_failed("dispatch"))
        return 1;
    return 0;
}
