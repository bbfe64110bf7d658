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

#include "../validate/routing.h"
#include "args.h"
#include "check_report.h"
#include "commands.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim check --routing --table FILE --gpu-data GPU.csv --cpu-data CPU.csv\n"
               "                     [--data-on gpu|host|both] [--rows-out FILE] [--format text|csv]\n"
               "                     [--max-misroute F] [--max-regret F]\n"
               "scores the cost table's two rules (cost, seed) on a truth set: the same configurations\n"
               "measured by vkbench on the GPU and by cpubench on the CPU tier of the same host, the data\n"
               "resident on each side (--data-on both, the default).  A misroute is a choice more than 10%%\n"
               "slower than the other side; regret = sum of chosen times / sum of the faster sides' - 1.\n"
               "--max-misroute and --max-regret (fractions) are the cost rule's goals: exit 1 past them.\n");
}

enum { OPT_ROUTING = 2000, OPT_TABLE, OPT_GPU, OPT_CPU, OPT_DATA_ON, OPT_ROWS, OPT_MAX_MIS, OPT_MAX_REGRET };

int cmd_check_routing(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "routing", no_argument, NULL, OPT_ROUTING },       { "table", required_argument, NULL, OPT_TABLE },
        { "gpu-data", required_argument, NULL, OPT_GPU },    { "cpu-data", required_argument, NULL, OPT_CPU },
        { "data-on", required_argument, NULL, OPT_DATA_ON }, { "rows-out", required_argument, NULL, OPT_ROWS },
        { "max-misroute", required_argument, NULL, OPT_MAX_MIS },
        { "max-regret", required_argument, NULL, OPT_MAX_REGRET },
        { "format", required_argument, NULL, CLI_OPT_FORMAT }, { "help", no_argument, NULL, CLI_OPT_HELP },
        { 0, 0, 0, 0 },
    };
    const char *table = NULL, *gpu_path = NULL, *cpu_path = NULL, *rows_path = NULL;
    enum dsp_data_on on = DSP_DATA_ON_BOTH;
    double max_mis = NAN, max_regret = NAN;
    int csv = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_ROUTING: break;
        case OPT_TABLE: table = optarg; break;
        case OPT_GPU: gpu_path = optarg; break;
        case OPT_CPU: cpu_path = optarg; break;
        case OPT_ROWS: rows_path = optarg; break;
        case OPT_DATA_ON:
            if (dsp_data_on_from_name(optarg, &on)) {
                cli_error("check", "--data-on '%s': expected gpu, host or both", optarg);
                return 2;
            }
            break;
        case OPT_MAX_MIS:
        case OPT_MAX_REGRET: {
            double v;
            if (cli_parse_double(optarg, &v) || !(v >= 0 && v <= 1)) {
                cli_error("check", "%s '%s': expected a fraction in [0, 1]", argv[optind - 1], optarg);
                return 2;
            }
            *(c == OPT_MAX_MIS ? &max_mis : &max_regret) = v;
            break;
        }
        case CLI_OPT_FORMAT:
            if (strcmp(optarg, "text") && strcmp(optarg, "csv")) {
                cli_error("check", "--format '%s': expected text or csv", optarg);
                return 2;
            }
            csv = !strcmp(optarg, "csv");
            break;
        case CLI_OPT_HELP:
            usage(stdout);
            return fflush(stdout) ? 1 : 0;
        default:
            cli_error("check", "bad option '%s' with --routing (see atomsim check --routing --help)", argv[optind - 1]);
            return 2;
        }
    }
    if (optind < argc || !table || !gpu_path || !cpu_path) {
        cli_error("check", "--routing needs --table, --gpu-data and --cpu-data, and nothing else");
        return 2;
    }
    char err[CFG_ERR_MAX];
    tbl_table *t = NULL;
    val_dataset g = { 0 }, cp = { 0 };
    val_route_stats st;
    val_route_row *rows = NULL;
    int rc = 2;
    if (tbl_load(table, &t, err) || val_dataset_load(gpu_path, &g, err) || val_dataset_load(cpu_path, &cp, err))
        cli_error("check", "%s", err);
    else if (val_route_score(t, &g, &cp, on, &st, &rows, err)) {
        cli_error("check", "%s", err);
        rc = 1;
    } else {
        rc = 0;
        if (rows_path) {
            FILE *f = fopen(rows_path, "w");
            if (f)
                crep_routing_rows(f, rows, st.rows);
            if (!f || fclose(f)) {
                cli_error("check", "cannot write %s: %s", rows_path, strerror(errno));
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
    if (fflush(stdout) || ferror(stdout)) {
        cli_error("check", "cannot write the report: %s", strerror(errno));
        return rc ? rc : 1;
    }
    return rc;
}
