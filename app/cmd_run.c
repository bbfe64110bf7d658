/* cmd_run.c - `atomsim run`: one run, simulated or modelled, printed as
 * text, CSV or JSON. */
#include <stdio.h>
#include <string.h>

#include "../util/out.h"
#include "print.h"
#include "args.h"
#include "commands.h"
#include "opts.h"

static void run_usage(FILE *f)
{
    static const char lead[] = "usage: atomsim run --config FILE --pattern NAME";
    int col = (int)strlen(lead);
    fputs(lead, f);
    cli_usage_params(f, &col, 19, NULL);
    fprintf(f, "\n%19s[--engine sim|model] [-p section.key=value ...] [--format text|csv|json]\ndefaults:", "");
    for (int i = 0; i < PP_COUNT; i++) {
        const pat_param_desc *d = pat_param_get(i);
        if (d->show != PP_SHOW_IF_SET) /* 0 means unset: no default to state */
            fprintf(f, " %s %s", d->flag, d->def);
    }
    fputc('\n', f);
}

/* The config's name as sweep's config column gives it: the file's stem
 * ("h100"), or "default" without one. */
static const char *config_name(const char *path, char *buf, size_t len)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    int n = dot && dot != b ? (int)(dot - b) : (int)strlen(b);
    snprintf(buf, len, "%.*s", n, b);
    return *buf ? buf : "default";
}

int cmd_run(int argc, char **argv)
{
    static const opt_spec specs[] = { OPT_END };
    cli_args a;
    cfg_config cfg;
    atom_stats st;
    char err[CFG_ERR_MAX], name[CFG_NAME_MAX];
    int rc;

    cli_args_init(&a);
    opt_cmd cmd = { .name = "run", .specs = specs, .args = &a, .common = OPT_COMMON_ALL, .usage = run_usage };
    if ((rc = opt_parse(&cmd, argc, argv)) != OPT_GO)
        return rc;
    if (!a.pattern_given) {
        cli_error("run", "--pattern is required (see atomsim --help for the list)");
        return 2;
    }
    if (cli_load_config(&a, &cfg, err)) {
        cli_error("run", "%s", err);
        return 2;
    }
    rc = cli_run_engine(&cfg, &a.params, a.engine, &st, err);
    if (rc) {
        cli_error("run", "%s", err);
        return rc;
    }
    if (st.fast_forward_share > 0)
        fprintf(stderr,
                "atomsim run: note: %.1f%% of this run's compare-and-swaps were in workgroups skipped at a steady window's "
                "rate to stay within sim.max_events (docs/simulator.md, \"Fast-forward\")\n",
                100 * st.fast_forward_share);
    const char *engine = a.engine == CLI_ENGINE_SIM ? "sim" : "model";
    switch (a.format) {
    case CLI_FORMAT_CSV:
        prn_csv_header(stdout);
        prn_csv_row(stdout, &a.params, engine, &st);
        break;
    case CLI_FORMAT_JSON: {
        prn_json *j = prn_json_begin();
        if (!j)
            return 1;
        prn_json_add(j, prn_json_config(j, &cfg, config_name(cfg.path, name, sizeof name), NULL), &a.params, engine, &st);
        if (prn_json_end(j, stdout))
            return 1;
        break;
    }
    case CLI_FORMAT_TEXT:
        prn_text(stdout, &cfg, &a.params, engine, &st);
        break;
    }
    return out_stdout_failed("run");
}
