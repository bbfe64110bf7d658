/* cmd_config.c - `atomsim config`: the option table, as text or as the
 * Markdown key reference docs/config-keys.md, or an effective config as
 * INI or JSON; its printers are in config_report.c. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "config_report.h"

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
            cfgrep_options_markdown(stdout);
        else
            cfgrep_options_text(stdout);
        return fflush(stdout) ? 1 : 0;
    }
    if (cli_load_config(&a, &cfg, err)) {
        cli_error("config", "%s", err);
        return 2;
    }
    if (a.format == CLI_FORMAT_JSON)
        cfgrep_dump_json(stdout, &cfg);
    else
        cfgrep_dump_ini(stdout, &cfg);
    return 0;
}
