/* cmd_run.c - `atomsim run` (one run, simulated or modelled) and
 * `atomsim config` (the option table, as text or as the Markdown key
 * reference docs/config-keys.md, or an effective config). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../sim/print.h"
#include "args.h"
#include "commands.h"

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

int cmd_run(int argc, char **argv)
{
    struct option longopts[CLI_MAX_LONGOPTS];
    cli_args a;
    cfg_config cfg;
    atom_stats st;
    char err[CFG_ERR_MAX];
    int c;

    cli_args_init(&a);
    cli_longopts(longopts, NULL);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "p:", longopts, NULL)) != -1) {
        if (c == CLI_OPT_HELP) {
            run_usage(stdout);
            return 0;
        }
        if (c == '?' || c == ':') {
            cli_error("run", "bad option '%s' (see atomsim run --help)", argv[optind - 1]);
            return 2;
        }
        int rc = cli_common_opt(&a, c, optarg, err);
        if (rc) {
            cli_error("run", "%s", rc < 0 ? err : "unexpected option");
            return 2;
        }
    }
    if (optind < argc) {
        cli_error("run", "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (!a.pattern_given) {
        cli_error("run", "--pattern is required (see atomsim --help for the list)");
        return 2;
    }
    if (cli_load_config(&a, &cfg, err)) {
        cli_error("run", "%s", err);
        return 2;
    }
    int rc = cli_run_engine(&cfg, &a.params, a.engine, &st, err);
    if (rc) {
        cli_error("run", "%s", err);
        return rc;
    }
    const char *engine = a.engine == CLI_ENGINE_SIM ? "sim" : "model";
    switch (a.format) {
    case CLI_FORMAT_CSV:
        prn_csv_header(stdout);
        prn_csv_row(stdout, &a.params, engine, &st);
        break;
    case CLI_FORMAT_JSON: {
        prn_json *j = prn_json_begin(&cfg);
        if (!j)
            return 1;
        prn_json_add(j, &a.params, engine, &st);
        if (prn_json_end(j, stdout))
            return 1;
        break;
    }
    case CLI_FORMAT_TEXT:
        prn_text(stdout, &cfg, &a.params, engine, &st);
        break;
    }
    return fflush(stdout) ? 1 : 0;
}

static const char *const type_names[] = { "int", "double", "bool", "string", "enum" };

static void list_options(FILE *f)
{
    size_t n;
    const cfg_option *o = cfg_options(&n);
    /* 14: the longest source name, "microbenchmark" */
    fprintf(f, "%-40s %-8s %-14s %-10s %-14s %s\n", "key", "type", "default", "unit", "source", "help");
    for (size_t i = 0; i < n; i++) {
        char key[128];
        snprintf(key, sizeof key, "%s.%s", o[i].section, o[i].key);
        fprintf(f, "%-40s %-8s %-14s %-10s %-14s %s", key, type_names[o[i].type], o[i].def, o[i].unit,
                cfg_source_name(o[i].source), o[i].help);
        if (o[i].type == CFG_INT || o[i].type == CFG_DOUBLE)
            fprintf(f, " [%g, %g]", o[i].min, o[i].max);
        fputc('\n', f);
    }
}

/* One Markdown table cell: a '|' would end the cell early. */
static void md_cell(FILE *f, const char *text)
{
    fputs("| ", f);
    for (const char *c = text; *c; c++) {
        if (*c == '|')
            fputc('\\', f);
        fputc(*c, f);
    }
    fputc(' ', f);
}

/* What values a key takes, as the reference states them: numbers written
 * out in full (1 << 24 reads better as 16777216 than as %g's 1.67772e+07),
 * an enum's names, a bool's 0 and 1. */
static void md_bounds(const cfg_option *o, char *buf, size_t len)
{
    char lo[64], hi[64];
    size_t used = 0;
    buf[0] = 0;
    switch (o->type) {
    case CFG_INT:
    case CFG_DOUBLE:
        cfg_format_exact(lo, sizeof lo, o->min);
        cfg_format_exact(hi, sizeof hi, o->max);
        snprintf(buf, len, "[%s, %s]", lo, hi);
        break;
    case CFG_BOOL:
        snprintf(buf, len, "0 or 1");
        break;
    case CFG_ENUM:
        for (int k = 0; o->enum_names[k] && used < len; k++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? ", " : "", o->enum_names[k]);
        break;
    case CFG_STRING:
        break;
    }
}

/* The key reference, docs/config-keys.md: the whole page, so that the
 * committed file is exactly this output (tests/config_keys_fresh.sh). */
static void list_options_markdown(FILE *f)
{
    size_t n;
    const cfg_option *o = cfg_options(&n);
    fputs("# Config keys\n"
          "\n"
          "Generated by `build/atomsim config --format markdown` (`make docs-keys`)\n"
          "from the option table in `model/options.c`; edit the table, not this page\n"
          "(`tests/config_keys_fresh.sh` fails when the two differ). A GPU config\n"
          "(`configs/*.ini` but the CPU tiers, `cpu-*.ini`) sets these keys under\n"
          "`[section]`; a key it leaves out takes the default below, which\n"
          "describes a generic Hopper-class GPU. Bounds are inclusive. The source\n"
          "says where the shipped H100 value (`configs/h100.ini`, with\n"
          "`configs/h100.calibrated.ini` read over it) comes from; the comment\n"
          "beside the value there gives the detail:\n"
          "\n",
          f);
    for (int s = CFG_SRC_UNSET + 1; s < CFG_SRC_COUNT; s++)
        fprintf(f, "- `%s`: %s\n", cfg_source_name(s), cfg_source_help(s));
    fputs("\n| section | key | type | default | unit | bounds | source | help |\n"
          "| --- | --- | --- | --- | --- | --- | --- | --- |\n",
          f);
    for (size_t i = 0; i < n; i++) {
        char bounds[256];
        md_bounds(&o[i], bounds, sizeof bounds);
        md_cell(f, o[i].section);
        md_cell(f, o[i].key);
        md_cell(f, type_names[o[i].type]);
        md_cell(f, o[i].def);
        md_cell(f, o[i].unit);
        md_cell(f, bounds);
        md_cell(f, cfg_source_name(o[i].source));
        md_cell(f, o[i].help);
        fputs("|\n", f);
    }
}

/* INI text that cfg_load reads back to the same struct. */
static void dump_ini(FILE *f, const cfg_config *cfg)
{
    size_t n;
    const cfg_option *o = cfg_options(&n);
    const char *cur = "";
    char buf[128];
    fprintf(f, "; effective config%s%s, hash %016llx\n", cfg->path[0] ? " from " : "", cfg->path,
            (unsigned long long)cfg_hash(cfg));
    for (size_t i = 0; i < n; i++) {
        if (strcmp(cur, o[i].section)) {
            cur = o[i].section;
            fprintf(f, "\n[%s]\n", cur);
        }
        cfg_format(cfg, &o[i], buf, sizeof buf);
        fprintf(f, "%s = %s\n", o[i].key, buf);
    }
}

int cmd_config(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "config", required_argument, NULL, CLI_OPT_CONFIG },
        { "format", required_argument, NULL, CLI_OPT_FORMAT },
        { "dump", no_argument, NULL, 'd' },
        { "help", no_argument, NULL, CLI_OPT_HELP },
        { 0, 0, 0, 0 },
    };
    cli_args a;
    cfg_config cfg;
    char err[CFG_ERR_MAX];
    int c, dump = 0, markdown = 0;
    cli_args_init(&a);
    a.format = CLI_FORMAT_TEXT;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "p:", longopts, NULL)) != -1) {
        if (c == CLI_OPT_HELP) {
            fprintf(stdout,
                    "usage: atomsim config [--format text|markdown]\n"
                    "       atomsim config [--config FILE] [-p k=v ...] --dump [--format text|json]\n"
                    "without --dump: the option table (every key, type, default, unit, source, help, bounds);\n"
                    "--format markdown writes it as the key reference, docs/config-keys.md\n");
            return 0;
        }
        if (c == 'd') {
            dump = 1;
            continue;
        }
        /* markdown is the option table's alone, so it is not a common format */
        if (c == CLI_OPT_FORMAT && !strcmp(optarg, "markdown")) {
            markdown = 1;
            continue;
        }
        if (c == CLI_OPT_FORMAT)
            markdown = 0; /* the last --format wins, as with the common ones */
        if (c == '?' || c == ':') {
            cli_error("config", "bad option '%s'", argv[optind - 1]);
            return 2;
        }
        int rc = cli_common_opt(&a, c, optarg, err);
        if (rc < 0 && c == CLI_OPT_FORMAT) {
            cli_error("config", "--format '%s': expected text, markdown, or json with --dump", optarg);
            return 2;
        }
        if (rc) {
            cli_error("config", "%s", rc < 0 ? err : "unexpected option");
            return 2;
        }
    }
    if (optind < argc) {
        cli_error("config", "unexpected argument '%s'", argv[optind]);
        return 2;
    }
    if (dump && markdown) {
        cli_error("config", "--format markdown is the option table's (without --dump); --dump writes text or json");
        return 2;
    }
    if (!dump) {
        if (markdown)
            list_options_markdown(stdout);
        else
            list_options(stdout);
        return fflush(stdout) ? 1 : 0;
    }
    if (cli_load_config(&a, &cfg, err)) {
        cli_error("config", "%s", err);
        return 2;
    }
    if (a.format == CLI_FORMAT_JSON) {
        cJSON *j = prn_config_json(&cfg);
        char *t = cJSON_Print(j);
        puts(t);
        free(t);
        cJSON_Delete(j);
    } else
        dump_ini(stdout, &cfg);
    return 0;
}
