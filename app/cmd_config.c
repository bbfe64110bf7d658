/* cmd_config.c - `atomsim config`: the option table, as text or as the
 * Markdown key reference docs/config-keys.md, or an effective config as
 * INI or JSON; its printers are in config_report.c. */
#include <stdio.h>

#include "../util/out.h"
#include "args.h"
#include "commands.h"
#include "config_report.h"
#include "opts.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim config [--format text|markdown]\n"
               "       atomsim config [--config FILE] [-p k=v ...] --dump [--format text|json]\n"
               "without --dump: the option table (every key, type, default, unit, source, help, bounds);\n"
               "--format markdown writes it as the key reference, docs/config-keys.md\n");
}

enum { FORMAT_TEXT, FORMAT_JSON, FORMAT_MARKDOWN };

int cmd_config(int argc, char **argv)
{
    /* markdown is the option table's alone, so --format is this command's
     * own rather than the common one */
    static const opt_choice formats[] = {
        { "text", FORMAT_TEXT }, { "markdown", FORMAT_MARKDOWN }, { "json", FORMAT_JSON }, { NULL, 0 },
    };
    cli_args a;
    cfg_config cfg;
    char err[CFG_ERR_MAX];
    int dump = 0, format = FORMAT_TEXT, markdown, rc;
    const opt_spec specs[] = {
        OPT_FLAG("dump", &dump),
        OPT_CHOICE("format", &format, formats),
        OPT_END,
    };
    cli_args_init(&a);
    opt_cmd cmd = { .name = "config", .specs = specs, .args = &a, .common = OPT_COMMON_CONFIG | OPT_COMMON_OVERRIDES,
                    .usage = usage };
    if ((rc = opt_parse(&cmd, argc, argv)) != OPT_GO)
        return rc;
    markdown = format == FORMAT_MARKDOWN;
    if (dump && markdown) {
        cli_error("config", "--format markdown is the option table's (without --dump); --dump writes text or json");
        return 2;
    }
    if (!dump && format == FORMAT_JSON) {
        cli_error("config", "--format json is the dump's (with --dump); the option table is text or markdown");
        return 2;
    }
    if (!dump && (a.config_path || a.override_count)) {
        /* the option table reads no config: a --config it ignored (even a
         * missing one) would look like a check that passed */
        cli_error("config", "%s goes with --dump (without it, config prints the option table)",
                  a.config_path ? "--config" : "-p");
        return 2;
    }
    if (!dump) {
        if (markdown)
            cfgrep_options_markdown(stdout);
        else
            cfgrep_options_text(stdout);
        return out_stdout_failed("config");
    }
    if (cli_load_config(&a, &cfg, err)) {
        cli_error("config", "%s", err);
        return 2;
    }
    if (format == FORMAT_JSON)
        cfgrep_dump_json(stdout, &cfg);
    else
        cfgrep_dump_ini(stdout, &cfg);
    return 0;
}
