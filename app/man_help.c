/* man_help.c - what the manual pages and the completion read from the
 * commands themselves: each command's --help text, captured by running the
 * command in-process (so the page shows exactly what --help prints), the
 * flags that text names, and the flags the option parser really takes
 * (opts.h's help hook: a help text also names other commands' flags in
 * passing, which the completion must not offer). */
#include "man_page.h"
#include "opts.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether the space-separated list holds word. */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p++)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
            return 1;
    return 0;
}

/* The whole of f from its start. */
static char *slurp(FILE *f)
{
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    for (size_t got; (got = fread(buf + len, 1, cap - len - 1, f)) > 0;) {
        len += got;
        if (cap - len < 2) {
            char *more = realloc(buf, cap *= 2);
            if (!more) {
                free(buf);
                return NULL;
            }
            buf = more;
        }
    }
    if (ferror(f)) {
        free(buf);
        return NULL;
    }
    buf[len] = 0;
    return buf;
}

char *man_read_file(const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        fprintf(stderr, "atomsim help-man: %s: cannot open\n", path);
        return NULL;
    }
    char *text = slurp(f);
    if (f != stdin)
        fclose(f);
    if (!text)
        fprintf(stderr, "atomsim help-man: %s: cannot read\n", path);
    return text;
}

/* The command prints its usage on stdout: descriptor 1 goes to a temporary
 * file for the call, so the usage functions stay as they are. */
char *man_capture_help(const man_command *c, int argc, char **argv)
{
    FILE *tmp = tmpfile();
    int saved = -1, rc = -1;
    char *text = NULL;
    fflush(stdout);
    if (tmp && (saved = dup(1)) >= 0 && dup2(fileno(tmp), 1) >= 0) {
        rc = c->fn(argc, argv);
        fflush(stdout);
        dup2(saved, 1);
    }
    if (saved >= 0)
        close(saved);
    if (rc == 0 && tmp) {
        rewind(tmp);
        text = slurp(tmp);
    }
    if (tmp)
        fclose(tmp);
    if (!text)
        fprintf(stderr, "atomsim help-man: cannot capture `atomsim %s --help` (exit %d)\n", c->name, rc);
    return text;
}

/* check's modes have their own flags and their own --help */
static const struct {
    const char *cmd, *title;
    int argc;
    const char *argv[4];
} modes[] = {
    { "check", "ROUTING MODE", 3, { "check", "--routing", "--help" } },
    { "check", "AGAINST THE SIMULATOR", 4, { "check", "--against", "sim", "--help" } },
};

/* The argv of the k-th --help of command c (0: its own): 0 when none. */
static int help_argv(const man_command *c, int k, char *argv[5])
{
    memset(argv, 0, 5 * sizeof *argv);
    if (k == 0) {
        argv[0] = (char *)c->name;
        argv[1] = "--help";
        return 2;
    }
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
        if (!strcmp(modes[m].cmd, c->name) && --k == 0) {
            for (int i = 0; i < modes[m].argc; i++)
                argv[i] = (char *)modes[m].argv[i];
            return modes[m].argc;
        }
    return 0;
}

static const char *help_title(const man_command *c, int k)
{
    for (size_t m = 0; k && m < sizeof modes / sizeof modes[0]; m++)
        if (!strcmp(modes[m].cmd, c->name) && --k == 0)
            return modes[m].title;
    return NULL;
}

int man_command_helps(const man_command *c, char **texts, const char **titles, int max)
{
    char *argv[5];
    int n = 0, argc;
    while (n < max && (argc = help_argv(c, n, argv)) > 0) {
        if (!(texts[n] = man_capture_help(c, argc, argv))) {
            while (n--)
                free(texts[n]);
            return -1;
        }
        titles[n] = help_title(c, n);
        n++;
    }
    return n;
}

/* ---- the flags the parser takes ------------------------------------------ */

static struct {
    man_flag *flags;
    int count, max;
} collect;

static man_flag *collect_add(const char *name, int takes_arg)
{
    for (int i = 0; i < collect.count; i++)
        if (!strcmp(collect.flags[i].name, name))
            return &collect.flags[i];
    if (collect.count == collect.max)
        return NULL;
    man_flag *m = &collect.flags[collect.count++];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    m->takes_arg = takes_arg;
    return m;
}

static void collect_hook(const opt_cmd *c, const struct option *taken, const char *shorts)
{
    char name[64];
    for (const struct option *o = taken; o->name; o++) {
        snprintf(name, sizeof name, "--%s", o->name);
        collect_add(name, o->has_arg == required_argument);
    }
    for (const char *s = shorts; *s; s++) {
        if (*s == ':')
            continue;
        snprintf(name, sizeof name, "-%c", *s);
        collect_add(name, s[1] == ':');
    }
    /* a choice's names, from its spec */
    for (const opt_spec *s = c->specs; s->name; s++) {
        if (s->kind != OPT_K_CHOICE)
            continue;
        snprintf(name, sizeof name, "--%s", s->name);
        man_flag *m = collect_add(name, 1);
        for (const opt_choice *ch = s->choices; m && ch->name; ch++) {
            size_t used = strlen(m->values);
            if (used + strlen(ch->name) + 2 < sizeof m->values && !has_word(m->values, ch->name))
                snprintf(m->values + used, sizeof m->values - used, "%s%s", used ? " " : "", ch->name);
        }
    }
}

int man_command_flags(const man_command *c, man_flag *flags, int max)
{
    char *argv[5];
    int argc;
    collect.flags = flags;
    collect.count = 0;
    collect.max = max;
    opt_help_hook = collect_hook;
    for (int k = 0; (argc = help_argv(c, k, argv)) > 0; k++) {
        if (c->fn(argc, argv)) {
            opt_help_hook = NULL;
            fprintf(stderr, "atomsim help-man: cannot read the flags of `atomsim %s`\n", c->name);
            return -1;
        }
    }
    opt_help_hook = NULL;
    return collect.count;
}

/* ---- the flags a --help text names --------------------------------------- */

static int flag_char(int ch)
{
    return islower(ch) || isdigit(ch) || ch == '-';
}

/* "--format" or "-j" at the start of tok: its length, 0 when none. */
static size_t flag_len(const char *tok)
{
    if (tok[0] != '-')
        return 0;
    if (tok[1] == '-' && islower((unsigned char)tok[2])) {
        size_t n = 2;
        while (flag_char((unsigned char)tok[n]))
            n++;
        while (tok[n - 1] == '-') /* "--x-" is no flag's end */
            n--;
        return n;
    }
    if (isalpha((unsigned char)tok[1]) && !isalnum((unsigned char)tok[2]) && tok[2] != '-')
        return 2;
    return 0;
}

/* Whether the word after a flag is its argument: a placeholder (FILE,
 * N, K/N), a choice (text|csv) or an assignment (section.key=value). */
static int is_argument(const char *w, size_t len)
{
    if (!len || w[0] == '[' || w[0] == '-')
        return 0;
    if (isupper((unsigned char)w[0]))
        return 1;
    for (size_t k = 0; k < len; k++)
        if (w[k] == '|' || w[k] == '=' || w[k] == ',')
            return 1;
    return 0;
}

/* Adds the lower-case names of "text|csv|json]" to values, each once. */
static void add_values(char *values, size_t cap, const char *w, size_t len)
{
    if (!memchr(w, '|', len))
        return;
    for (size_t at = 0; at < len;) {
        size_t e = at;
        while (e < len && w[e] != '|')
            e++;
        size_t n = e - at;
        while (n && !flag_char((unsigned char)w[at + n - 1])) /* "json]" */
            n--;
        int word = n > 0;
        for (size_t k = 0; k < n; k++)
            word &= flag_char((unsigned char)w[at + k]);
        if (word) {
            char v[64];
            snprintf(v, sizeof v, "%.*s", (int)n, w + at);
            size_t used = strlen(values);
            if (!has_word(values, v) && used + n + 2 < cap)
                snprintf(values + used, cap - used, "%s%s", used ? " " : "", v);
        }
        at = e + 1;
    }
}

int man_help_flags(const char *text, man_flag *flags, int max)
{
    int count = 0;
    const char *p = text;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        const char *tok = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        while (tok < p && strchr("[(`'\"", *tok))
            tok++;
        size_t n = tok < p ? flag_len(tok) : 0;
        if (!n || n >= sizeof flags->name)
            continue;
        int at = 0;
        while (at < count && (strncmp(flags[at].name, tok, n) || flags[at].name[n]))
            at++;
        if (at == count) {
            if (count == max)
                continue;
            memset(&flags[count], 0, sizeof flags[count]);
            memcpy(flags[count].name, tok, n);
            count++;
        }
        if (tok + n != p) /* "--count]": nothing follows it */
            continue;
        const char *w = p;
        while (*w == ' ')
            w++;
        size_t wl = 0;
        while (w[wl] && !isspace((unsigned char)w[wl]))
            wl++;
        if (is_argument(w, wl)) {
            if (!flags[at].takes_arg)
                snprintf(flags[at].arg, sizeof flags[at].arg, "%.*s", (int)wl, w);
            flags[at].takes_arg = 1;
            add_values(flags[at].values, sizeof flags[at].values, w, wl);
        }
    }
    return count;
}
