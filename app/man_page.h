/* man_page.h - the manual pages and the bash completion, generated from
 * the code's own tables (the command table, the option table of
 * model/options.c, the pattern parameter table of model/params.c) and each
 * command's --help text, so that neither can drift from the code
 * (tests/man_pages.sh).  Reached through the hidden `atomsim help-man`. */
#ifndef ATOM_APP_MAN_PAGE_H
#define ATOM_APP_MAN_PAGE_H

#include <stddef.h>
#include <stdio.h>

/* One row of atomsim's command table (atomsim.c). */
typedef struct man_command {
    const char *name;
    int (*fn)(int, char **);
    const char *help;                 /* the one-line summary of atomsim --help */
} man_command;

/* `atomsim help-man --list | PAGE | completion | vkbench HELPFILE`: the
 * page names, one page's roff on stdout, the completion script, or
 * vkbench(1) from the text of `vkbench --help`.  Returns the exit status. */
int man_main(int argc, char **argv, const man_command *cmds, size_t ncmds);

/* ---- shared by the page and completion writers (man_help.c) ---------- */

/* The text `atomsim CMD ARGS... --help` prints (argv[0] the command's
 * name), captured in-process; NULL when it could not be (message on
 * stderr).  The caller frees it. */
char *man_capture_help(const man_command *c, int argc, char **argv);
/* The --help texts of a command's page: its own, then (check) those of its
 * modes.  Returns how many went into texts (at most max); *titles gets a
 * section title for each mode's text (NULL for the first). */
int man_command_helps(const man_command *c, char **texts, const char **titles, int max);

/* A flag a --help text names: "--format", its values when it shows them as
 * a|b|c, and whether it takes an argument. */
typedef struct man_flag {
    char name[48];
    char values[160];                 /* "text csv json"; "" when none shown */
    char arg[32];                     /* the first argument shown: "FILE", "text|csv|json]" */
    int takes_arg;
} man_flag;
/* The flags of a --help text, each once, in order of first mention;
 * returns how many (at most max). */
int man_help_flags(const char *text, man_flag *flags, int max);
/* The flags `atomsim CMD` (and its modes) really take, from the option
 * parser (opts.h's opt_help_hook), with a choice's values; returns how
 * many (at most max), or -1. */
int man_command_flags(const man_command *c, man_flag *flags, int max);
/* Reads a whole file ("-": stdin) into a string; NULL on error (message on
 * stderr).  The caller frees it. */
char *man_read_file(const char *path);

/* The bash completion script (man_completion.c). */
int man_completion(FILE *f, const man_command *cmds, size_t ncmds);

#endif
