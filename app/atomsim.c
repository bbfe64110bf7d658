/* atomsim.c - the front end: picks the subcommand.  This file and the
 * command files beside it are the only code that reaches into every folder
 * (sim, model, validate); below them the engines stay independent. */
#include <stdio.h>
#include <string.h>

#include "../model/params.h"
#include "../util/intr.h"
#include "../util/out.h"
#include "commands.h"
#include "man_page.h"

/* man_command: the manual pages and the completion read this table too. */
static const man_command commands[] = {
    { "run", cmd_run, "simulate or model one run of a pattern" },
    { "config", cmd_config, "list every config key, or dump an effective config" },
    { "sweep", cmd_sweep, "a grid over pattern parameters and config keys" },
    { "study", cmd_study, "run a study file (configs/studies/*.ini)" },
    { "validate", cmd_validate, "compare predictions with a measured dataset" },
    { "calibrate", cmd_calibrate, "fit calibratable config keys to a measured dataset" },
    { "export", cmd_export, "write the dispatcher's cost tables" },
    { "dispatch", cmd_dispatch, "answer GPU or CPU from a cost table" },
    { "check", cmd_check, "regression check of the cost formulas" },
    { "plan", cmd_plan, "draw random configurations: a vkbench plan or CSV" },
    { "version", cmd_version, "the version, compiler, flags and option-table hash (also --version)" },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: atomsim COMMAND [options]   (atomsim COMMAND --help for its options)\n"
               "each option is given once; one shown with ... in a command's --help (-p, sweep's --config\n"
               "and --vary, export's --residuals, --cpu-residuals and --reuse) may be repeated\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(f, "\npatterns:");
    for (int i = 0; i < PAT_COUNT; i++)
        fprintf(f, " %s", pat_name((enum pat_id)i));
    fprintf(f, "\n");
}

/* Every command's output is checked here, once, not by each printer: a
 * command that returns 0 with stdout on a full disk or closed exits 1
 * with one line saying so. */
int main(int argc, char **argv)
{
    out_std_guard();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return out_stdout_close(NULL, 0);
    }
    /* hidden: `make man` and `make completion` (man_page.c) */
    if (!strcmp(argv[1], "help-man"))
        return out_stdout_close("help-man", man_main(argc - 1, argv + 1, commands, sizeof commands / sizeof commands[0]));
    const char *name = strcmp(argv[1], "--version") ? argv[1] : "version";
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(name, commands[i].name)) {
            intr_install(commands[i].name);
            return out_stdout_close(commands[i].name, commands[i].fn(argc - 1, argv + 1));
        }
    fprintf(stderr, "atomsim: unknown command '%s' (see atomsim --help)\n", argv[1]);
    return 2;
}
