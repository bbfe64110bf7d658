/* cmd_check_routing.c - `atomsim check --routing`: both rules' misroutes
 * and regret on a measured routing truth set, and the table's accuracy on
 * it.  The scoring is validate/routing.c's, the printing check_report.c's;
 * this parses, loads the table and both datasets, and calls them.  Exits 1
 * when a goal given on the command line is missed. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/out.h"
#include "../validate/routing.h"
#include "args.h"
#include "check_report.h"
#include "commands.h"
#include "opts.h"
#include "datadir.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim check --routing --table FILE --gpu-data GPU.csv --cpu-data CPU.csv\n"
               "                     [--data-on gpu|host|both] [--rows-out FILE] [--format text|csv]\n"
               "                     [--max-misroute F] [--max-regret F]\n"
               "scores the cost table's two rules (cost, seed) on a truth set: the same configurations\n"
               "measured by vkbench on the GPU and by cpubench on the CPU tier of the same host, the data\n"
               "resident on each side (--data-on both, the default).  A misroute is a choice more than 10%%\n"
               "slower than the other side; regret = sum of chosen times / sum of the faster sides' - 1.\n"
               "--max-misroute and --max-regret (fractions) are the cost rule's goals: exit 1 past them.\n"
               "Beside them: the table's GPU kernel and CPU tier errors, and each side's error band coverage\n"
               "(how many measured kernel and CPU times fall inside their answer's p10..p90 band, below and\n"
               "above it), and the close calls: rows whose two bands overlap, the misroutes among them and\n"
               "the other rows' regret.  --rows-out writes every scored row with its answers, both bands,\n"
               "its close call and misroutes.\n");
}

int cmd_check_routing(int argc, char **argv)
{
    static const opt_choice data_on_names[] = {
        { "gpu", DSP_DATA_ON_GPU }, { "host", DSP_DATA_ON_HOST }, { "both", DSP_DATA_ON_BOTH }, { NULL, 0 },
    };
    static const opt_choice formats[] = { { "text", 0 }, { "csv", 1 }, { NULL, 0 } };
    const char *table = NULL, *gpu_path = NULL, *cpu_path = NULL, *rows_path = NULL;
    int on = DSP_DATA_ON_BOTH, csv = 0, routing, positional, rc;
    double max_mis = NAN, max_regret = NAN;
    const opt_spec specs[] = {
        OPT_FLAG("routing", &routing),
        OPT_STRING("table", &table),
        OPT_STRING("gpu-data", &gpu_path),
        OPT_STRING("cpu-data", &cpu_path),
        OPT_CHOICE("data-on", &on, data_on_names),
        OPT_STRING("rows-out", &rows_path),
        OPT_DOUBLE("max-misroute", &max_mis, 0, 1),
        OPT_DOUBLE("max-regret", &max_regret, 0, 1),
        OPT_CHOICE("format", &csv, formats),
        OPT_END,
    };
    opt_cmd cmd = { .name = "check", .specs = specs, .usage = usage, .see = "atomsim check --routing --help",
                    .common = OPT_COMMON_PROGRESS,
                    .max_positional = -1, .positional = &positional };
    if ((rc = opt_parse(&cmd, argc, argv)) != OPT_GO)
        return rc;
    if (positional < argc || !table || !gpu_path || !cpu_path) {
        cli_error("check", "--routing needs --table, --gpu-data and --cpu-data, and nothing else");
        return 2;
    }
    char err[CFG_ERR_MAX];
    tbl_table *t = NULL;
    val_dataset g = { 0 }, cp = { 0 };
    val_route_stats st;
    val_route_row *rows = NULL;
    rc = 2;
    table = dd_find(table, DD_TABLE);
    if (tbl_load(table, &t, err) || val_dataset_load(gpu_path, &g, err) || val_dataset_load(cpu_path, &cp, err))
        cli_error("check", "%s", err);
    else if (val_route_score(t, &g, &cp, (enum dsp_data_on)on, &st, &rows, err)) {
        cli_error("check", "%s", err);
        rc = 1;
    } else {
        rc = 0;
        if (rows_path) {
            out_file of;
            int bad = out_open(&of, rows_path, err, sizeof err);
            if (!bad) {
                crep_routing_rows(of.f, rows, st.rows);
                bad = out_commit(&of, err, sizeof err);
            }
            if (bad) {
                cli_error("check", "%s", err);
                rc = 2;
            }
        }
        crep_routing_stats(&st, csv);
        double n = st.rows ? (double)st.rows : NAN;
        if (rc == 0 && ((!isnan(max_mis) && !(st.misroutes[DSP_RULE_COST] / n <= max_mis)) ||
                        (!isnan(max_regret) && !(st.regret[DSP_RULE_COST] <= max_regret))))
            rc = 1;
    }
    free(rows);
    tbl_free(t);
    val_dataset_free(&g);
    val_dataset_free(&cp);
    if (out_stdout_failed("check"))
        return rc ? rc : 1;
    return rc;
}
