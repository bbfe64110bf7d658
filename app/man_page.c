/* man_page.c - `atomsim help-man`: the manual pages in roff (man(7)
 * macros), written from the command table, each command's --help text,
 * the pattern parameter table (model/params.c) and the option table
 * (model/options.c), laid out by man_roff.c.  No flag, key, parameter or
 * command is listed here by hand (only the common flags' one-line meaning
 * and atomsim(1)'s prose and examples are this file's own), so a page
 * cannot drift from the code (tests/man_pages.sh). */
#include "man_page.h"

#include <stdlib.h>
#include <string.h>

#include "../model/config.h"
#include "../model/params.h"
#include "args.h"
#include "man_roff.h"

#define MAN_MAX_HELPS 4

/* ---- the pages ------------------------------------------------------------ */

static const char *const exit_status =
    "0: done.  1: a run failed (a simulation past its budget, an output that could not be written, a check "
    "past its goals).  2: bad usage or input, with one line on standard error: \"atomsim COMMAND: what is "
    "wrong\".";

/* Every page but self ("atomsim-run.1"). */
static void see_also(FILE *f, const man_command *cmds, size_t n, const char *self)
{
    fputs(".SH SEE ALSO\n", f);
    int first = 1;
    if (strcmp(self, "atomsim.1"))
        fputs("\\fBatomsim\\fR(1)", f), first = 0;
    for (size_t i = 0; i < n; i++) {
        char page[64];
        snprintf(page, sizeof page, "atomsim-%s.1", cmds[i].name);
        if (!strcmp(page, self))
            continue;
        page[strlen(page) - 2] = 0;
        fputs(first ? "\\fB" : ",\n\\fB", f);
        man_roff_inline(f, page);
        fputs("\\fR(1)", f);
        first = 0;
    }
    if (strcmp(self, "atomsim-config.5"))
        fputs(",\n\\fBatomsim\\-config\\fR(5)", f);
    fputs(strcmp(self, "vkbench.1") ? ",\n\\fBvkbench\\fR(1)\n" : "\n", f);
    fputs(".PP\nThe project's docs/cli.md (the CLI contract), docs/patterns.md and docs/config\\-keys.md.\n", f);
}

/* The common flags' meaning (args.h); the parameters' comes from their
 * table. */
static const struct {
    const char *name, *arg, *help;
} common_help[] = {
    { "--config", "FILE", "the GPU config, an INI file (configs/*.ini; atomsim-config(5)); without it the built-in "
                          "defaults, a generic Hopper-class GPU" },
    { "--pattern", "NAME", "the access pattern (see PATTERNS in atomsim(1))" },
    { "--engine", "sim|model", "the event-driven simulator (the default) or the analytical model" },
    { "--format", "text|csv|json", "the output format (default text; the values a command takes are in its usage)" },
    { "--help", "", "prints the command's usage (what its page is made from) and exits 0" },
    { "-p", "section.key=value", "sets one config key over the config file; repeatable, applied in order "
                                 "(the keys: atomsim-config(5), atomsim config)" },
};

static void param_bounds(const pat_param_desc *d, char *buf, size_t len)
{
    char lo[64], hi[64];
    cfg_format_exact(lo, sizeof lo, d->min);
    if (d->max >= 18446744073709551615.0) /* %.0f of 2^64 would be one past */
        snprintf(hi, sizeof hi, "18446744073709551615");
    else
        cfg_format_exact(hi, sizeof hi, d->max);
    snprintf(buf, len, "[%s, %s]", lo, hi);
}

static void item_tag(FILE *f, const char *flag, const char *arg)
{
    fputs(".TP\n\\fB", f);
    man_roff_inline(f, flag);
    fputs("\\fR", f);
    if (arg && *arg) {
        fputs(" \\fI", f);
        man_roff_inline(f, arg);
        fputs("\\fR", f);
    }
    fputc('\n', f);
}

/* A pattern parameter's item, from its row of the table, its placeholder
 * arg (a sweep takes a LIST where run takes one value). */
static void param_item(FILE *f, const pat_param_desc *d, const char *arg)
{
    char bounds[160], line[512];
    param_bounds(d, bounds, sizeof bounds);
    item_tag(f, d->flag, arg);
    snprintf(line, sizeof line, "%s%s%s%s.  Bounds %s, default %s%s.", d->help, *d->unit ? " (" : "", d->unit,
             *d->unit ? ")" : "", bounds, d->def, d->show == PP_SHOW_IF_SET ? " (the pattern's own need)" : "");
    man_roff_str(f, line);
    if (d->reads) {
        size_t used = (size_t)snprintf(line, sizeof line, "Read by");
        int k = 0;
        for (int p = 0; p < PAT_COUNT; p++)
            if (pat_flags((enum pat_id)p) & d->reads)
                used += (size_t)snprintf(line + used, sizeof line - used, "%s%s", k++ ? ", " : " ",
                                         pat_name((enum pat_id)p));
        snprintf(line + used, sizeof line - used, "; the other patterns ignore it.");
        man_roff_str(f, line);
    } else {
        man_roff_str(f, "Read by every pattern.");
    }
}

/* A common flag's item: 0 when flag is none.  m: the flag as a command's
 * usage shows it (NULL: atomsim(1)'s list), whose argument tells a
 * pattern parameter ("--seed X", "--seed LIST") or --pattern NAME from a
 * command's own flag of the same name (plan's "--seed S") or a mention in
 * passing (plan's "--pattern --n --wg"). */
static int common_item(FILE *f, const char *flag, const man_flag *m)
{
    char shown[32] = "";
    if (m) {
        size_t n = strlen(m->arg);
        while (n && strchr("]),.;", m->arg[n - 1]))
            n--;
        snprintf(shown, sizeof shown, "%.*s", (int)n, m->arg);
        if (strchr(m->values, ' ') && strlen(m->values) < sizeof shown) /* every value the usage shows */
            for (size_t k = 0; (shown[k] = m->values[k] == ' ' ? '|' : m->values[k]); k++)
                ;
    }
    for (size_t k = 0; k < sizeof common_help / sizeof common_help[0]; k++)
        if (!strcmp(common_help[k].name, flag)) {
            if (m && *common_help[k].arg && !m->takes_arg)
                return 0;
            item_tag(f, flag, m ? shown : common_help[k].arg);
            man_roff_str(f, common_help[k].help);
            return 1;
        }
    const pat_param_desc *d = pat_param_find_flag(flag, strlen(flag));
    if (!d || strcmp(d->flag, flag))
        return 0;
    if (m && strcmp(shown, d->meta) && strcmp(shown, "LIST"))
        return 0;
    param_item(f, d, m ? shown : d->meta);
    return 1;
}

/* atomsim-CMD(1): the command's --help (and its modes'), laid out, then
 * the common flags it names. */
static int page_command(FILE *f, const man_command *c, const man_command *cmds, size_t n)
{
    char *texts[MAN_MAX_HELPS];
    const char *titles[MAN_MAX_HELPS];
    int count = man_command_helps(c, texts, titles, MAN_MAX_HELPS);
    if (count < 0)
        return 1;
    char name[64];
    snprintf(name, sizeof name, "atomsim-%s", c->name);
    man_roff_head(f, name, 1, "atomsim");
    man_roff_name(f, name, c->help);
    fputs(".SH SYNOPSIS\n", f);
    const char *rest[MAN_MAX_HELPS];
    for (int k = 0; k < count; k++)
        rest[k] = man_roff_synopsis(f, texts[k], "atomsim");
    fputs(".SH DESCRIPTION\n\\fBatomsim ", f);
    man_roff_inline(f, c->name);
    fputs("\\fR: ", f);
    man_roff_inline(f, c->help);
    fputs(".\n.PP\n", f);
    man_roff_body(f, rest[0]);
    for (int k = 1; k < count; k++) {
        fputs(".SH ", f);
        man_roff_inline(f, titles[k]);
        fputc('\n', f);
        man_roff_body(f, rest[k]);
    }
    fputs(".SH COMMON OPTIONS\n"
          "Each option is given once; one shown with ... in the synopsis may be repeated.\n"
          "These mean the same in every command that takes them (\\fBatomsim\\fR(1)):\n",
          f);
    /* the common flags the usage names, in its order, each once */
    man_flag seen[128];
    int nseen = 0, help = 0;
    for (int k = 0; k < count; k++) {
        man_flag got[96];
        int m = man_help_flags(texts[k], got, 96);
        for (int i = 0; i < m; i++) {
            int dup = 0;
            for (int j = 0; j < nseen; j++)
                dup |= !strcmp(seen[j].name, got[i].name);
            if (dup || nseen == (int)(sizeof seen / sizeof seen[0]))
                continue;
            seen[nseen++] = got[i];
            help |= !strcmp(got[i].name, "--help");
            common_item(f, got[i].name, &got[i]);
        }
    }
    if (!help)
        common_item(f, "--help", NULL);
    fputs(".SH EXIT STATUS\n", f);
    man_roff_str(f, exit_status);
    strcat(name, ".1");
    see_also(f, cmds, n, name);
    for (int k = 0; k < count; k++)
        free(texts[k]);
    return 0;
}

static void page_atomsim(FILE *f, const man_command *cmds, size_t n)
{
    man_roff_head(f, "atomsim", 1, "atomsim");
    man_roff_name(f, "atomsim", "a simulator and analytical model of GPU atomic contention");
    fputs(".SH SYNOPSIS\n.nf\n\\fBatomsim\\fR \\fICOMMAND\\fR [options]\n\\fBatomsim\\fR \\fICOMMAND\\fR \\-\\-help\n"
          "\\fBatomsim\\fR \\-\\-help\n.fi\n"
          ".SH DESCRIPTION\n"
          "\\fBatomsim\\fR predicts how long a GPU kernel built on atomic operations takes: an event-driven\n"
          "simulator and an analytical model of the same machine (SMs, the crossbar, L2 slices and their\n"
          "atomic units, DRAM, shared memory), described by a config file of keys (\\fBatomsim\\-config\\fR(5)),\n"
          "run over the access patterns of the CLI contract.  The commands run single points, grids and\n"
          "studies, hold the predictions against measured datasets, fit the calibratable keys, and export the\n"
          "cost tables a dispatcher reads to choose between the GPU and the CPU.\n"
          ".SH COMMANDS\n",
          f);
    for (size_t i = 0; i < n; i++) {
        fputs(".TP\n\\fB", f);
        man_roff_inline(f, cmds[i].name);
        fputs("\\fR\n", f);
        man_roff_inline(f, cmds[i].help);
        fputs("; see \\fBatomsim\\-", f);
        man_roff_inline(f, cmds[i].name);
        fputs("\\fR(1).\n", f);
    }
    fputs(".SH COMMON OPTIONS\n"
          "The run-like commands share these; each command's page says which it takes.\n"
          "Each option is given once, except those a command's usage shows with ... (such as \\fB\\-p\\fR).\n",
          f);
    struct option lo[CLI_MAX_LONGOPTS];
    cli_longopts(lo, NULL);
    for (const struct option *o = lo; o->name; o++) {
        char flag[64];
        snprintf(flag, sizeof flag, "--%s", o->name);
        if (cli_opt_param(o->val))
            continue; /* under PATTERN PARAMETERS */
        if (!common_item(f, flag, NULL)) {
            item_tag(f, flag, o->has_arg ? "ARG" : NULL);
            man_roff_str(f, "see the page of a command that takes it");
        }
    }
    common_item(f, "-p", NULL);
    fputs(".SH PATTERN PARAMETERS\n"
          "One flag per parameter of a pattern's run; a pattern ignores the ones it does not read.\n"
          "Integers may be written 2^E or 1eE; base 10 only.\n",
          f);
    for (int i = 0; i < PP_COUNT; i++)
        param_item(f, pat_param_get(i), pat_param_get(i)->meta);
    fputs(".SH PATTERNS\n", f);
    for (int p = 0; p < PAT_COUNT; p++) {
        char line[256];
        size_t used = 0;
        line[0] = 0;
        for (int i = 0; i < PP_COUNT; i++) {
            const pat_param_desc *d = pat_param_get(i);
            if (d->reads & pat_flags((enum pat_id)p))
                used += (size_t)snprintf(line + used, sizeof line - used, "%s%s", used ? ", " : "", d->flag);
        }
        fputs(".TP\n\\fB", f);
        man_roff_inline(f, pat_name((enum pat_id)p));
        fputs("\\fR\n", f);
        char text[384];
        snprintf(text, sizeof text, "%s%s%s", used ? "reads " : "reads only the parameters every pattern reads",
                 line, pat_uses_cas((enum pat_id)p) ? "; a compare-and-swap loop" : "");
        man_roff_str(f, text);
    }
    fputs(".SH EXIT STATUS\n", f);
    man_roff_str(f, exit_status);
    fputs(".SH FILES\n"
          ".TP\nconfigs/*.ini\nGPU configs (configs/h100.ini, configs/h200.ini, ...); configs/cpu\\-*.ini describe CPU tiers.\n"
          ".TP\nconfigs/studies/*.ini\nstudy files for \\fBatomsim study\\fR.\n"
          ".TP\nvalidate/data/*.csv\nmeasured datasets for \\fBvalidate\\fR, \\fBcalibrate\\fR and \\fBcheck\\fR.\n"
          ".SH EXAMPLES\n"
          ".nf\n"
          "atomsim run \\-\\-config configs/h100.ini \\-\\-pattern histogram \\-\\-bins 64\n"
          "atomsim run \\-\\-config configs/h100.ini \\-\\-pattern counter \\-\\-engine model \\-\\-format json\n"
          "atomsim sweep \\-\\-config configs/h100.ini \\-\\-pattern counter \\-\\-n 2^16..2^24:x4\n"
          "atomsim validate \\-\\-config configs/h100.ini \\-\\-data validate/data/h100.csv \\-\\-engine model\n"
          "atomsim export \\-\\-config configs/h100.ini \\-\\-output h100.json\n"
          "atomsim dispatch \\-\\-table h100.json \\-\\-pattern histogram \\-\\-n 2^20 \\-\\-bins 256\n"
          "atomsim config \\-\\-config configs/h100.ini \\-p l2.slice_count=40 \\-\\-dump\n"
          ".fi\n",
          f);
    see_also(f, cmds, n, "atomsim.1");
}

static const char *const type_names[] = { "int", "double", "bool", "string", "enum" };

/* atomsim-config(5): every key of the option table. */
static void page_config(FILE *f, const man_command *cmds, size_t n)
{
    size_t count;
    const cfg_option *o = cfg_options(&count);
    man_roff_head(f, "atomsim-config", 5, "atomsim");
    man_roff_name(f, "atomsim-config", "the keys of an atomsim GPU config file");
    fputs(".SH SYNOPSIS\n.nf\n[\\fIsection\\fR]\n\\fIkey\\fR = \\fIvalue\\fR\n.fi\n"
          ".SH DESCRIPTION\n"
          "A GPU config (configs/*.ini but the CPU tiers, configs/cpu\\-*.ini) is an INI file that sets the\n"
          "keys below under their [section]; a key it leaves out takes its default, which describes a\n"
          "generic Hopper\\-class GPU.  \\fB\\-p\\fR \\fIsection.key=value\\fR sets one on the command\n"
          "line, after the file.  An unknown section or key, a malformed value or one out of its bounds\n"
          "(inclusive) is refused with the file, line, key and value named.  \\fBatomsim config\\fR lists\n"
          "the same table; \\fBatomsim config \\-\\-dump\\fR prints an effective config.\n"
          ".PP\nEach key's source says where the shipped H100 value (configs/h100.ini, with\n"
          "configs/h100.calibrated.ini read over it) comes from:\n",
          f);
    for (int s = CFG_SRC_UNSET + 1; s < CFG_SRC_COUNT; s++) {
        fputs(".TP\n\\fB", f);
        man_roff_inline(f, cfg_source_name(s));
        fputs("\\fR\n", f);
        man_roff_str(f, cfg_source_help(s));
    }
    fputs(".SH KEYS\n", f);
    const char *cur = "";
    for (size_t i = 0; i < count; i++) {
        char line[1024], value[512];
        if (strcmp(cur, o[i].section)) {
            cur = o[i].section;
            fputs(".SS [", f);
            man_roff_inline(f, cur);
            fputs("]\n", f);
        }
        fputs(".TP\n\\fB", f);
        man_roff_inline(f, o[i].section);
        fputc('.', f);
        man_roff_inline(f, o[i].key);
        fputs("\\fR\n", f);
        man_roff_str(f, o[i].help);
        value[0] = 0;
        if (o[i].type == CFG_INT || o[i].type == CFG_DOUBLE) {
            char lo[64], hi[64];
            cfg_format_exact(lo, sizeof lo, o[i].min);
            cfg_format_exact(hi, sizeof hi, o[i].max);
            snprintf(value, sizeof value, ", bounds [%s, %s]", lo, hi);
        } else if (o[i].type == CFG_BOOL) {
            snprintf(value, sizeof value, ", 0 or 1");
        } else if (o[i].type == CFG_ENUM) {
            size_t used = (size_t)snprintf(value, sizeof value, ", one of");
            for (int k = 0; o[i].enum_names[k]; k++)
                used += (size_t)snprintf(value + used, sizeof value - used, "%s%s", k ? ", " : " ",
                                         o[i].enum_names[k]);
        }
        snprintf(line, sizeof line, "Type %s%s%s%s, default %s, source %s.", type_names[o[i].type],
                 *o[i].unit ? ", unit " : "", o[i].unit, value, *o[i].def ? o[i].def : "(empty)",
                 cfg_source_name(o[i].source));
        fputs(".br\n", f);
        man_roff_str(f, line);
    }
    fputs(".SH FILES\n.TP\nconfigs/*.ini\nthe shipped GPU configs; configs/h100.calibrated.ini is the "
          "overlay \\fBatomsim calibrate\\fR fitted.\n",
          f);
    see_also(f, cmds, n, "atomsim-config.5");
}

/* vkbench(1): from the text of `vkbench --help`, a program of its own. */
static void page_vkbench(FILE *f, const char *help, const man_command *cmds, size_t n)
{
    man_roff_head(f, "vkbench", 1, "atomsim");
    man_roff_name(f, "vkbench", "measure the contract's atomic patterns on a GPU through Vulkan");
    fputs(".SH SYNOPSIS\n", f);
    const char *rest = man_roff_synopsis(f, help, "vkbench");
    fputs(".SH DESCRIPTION\n", f);
    man_roff_body(f, rest);
    fputs(".SH EXIT STATUS\n0: every configuration ran and checked.  1: the device or a check failed, or a\n"
          "configuration was refused.  2: bad usage.\n", f);
    see_also(f, cmds, n, "vkbench.1");
}

/* ---- the entry point ------------------------------------------------------ */

static void usage(FILE *f)
{
    fputs("usage: atomsim help-man --list | PAGE | completion | vkbench HELPFILE\n"
          "writes one manual page (roff) or the bash completion on stdout; --list names the pages\n"
          "(make man, make completion)\n",
          f);
}

int man_main(int argc, char **argv, const man_command *cmds, size_t ncmds)
{
    if (argc < 2) {
        fprintf(stderr, "atomsim help-man: which page? (see atomsim help-man --help)\n");
        return 2;
    }
    if (!strcmp(argv[1], "--help")) {
        usage(stdout);
        return 0;
    }
    const char *page = argv[1];
    if (!strcmp(page, "--list")) {
        puts("atomsim.1");
        for (size_t i = 0; i < ncmds; i++)
            printf("atomsim-%s.1\n", cmds[i].name);
        puts("atomsim-config.5");
        return 0;
    }
    if (!strcmp(page, "completion"))
        return man_completion(stdout, cmds, ncmds);
    if (!strcmp(page, "vkbench") || !strcmp(page, "vkbench.1")) {
        if (argc != 3) {
            fprintf(stderr, "atomsim help-man: vkbench needs the text of `vkbench --help` (a file or -)\n");
            return 2;
        }
        char *help = man_read_file(argv[2]);
        if (!help)
            return 2;
        page_vkbench(stdout, help, cmds, ncmds);
        free(help);
        return 0;
    }
    if (argc > 2) {
        fprintf(stderr, "atomsim help-man: unexpected argument '%s'\n", argv[2]);
        return 2;
    }
    if (!strcmp(page, "atomsim") || !strcmp(page, "atomsim.1")) {
        page_atomsim(stdout, cmds, ncmds);
        return 0;
    }
    if (!strcmp(page, "atomsim-config.5")) {
        page_config(stdout, cmds, ncmds);
        return 0;
    }
    for (size_t i = 0; i < ncmds; i++) {
        char name[64];
        snprintf(name, sizeof name, "atomsim-%s.1", cmds[i].name);
        if (!strcmp(page, name) || !strcmp(page, cmds[i].name))
            return page_command(stdout, &cmds[i], cmds, ncmds);
    }
    fprintf(stderr, "atomsim help-man: unknown page '%s' (see atomsim help-man --list)\n", page);
    return 2;
}
