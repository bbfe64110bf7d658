/* plan_write.c - the text of a random harness plan, and the whole plan
 * drawn and written where `atomsim plan` says (see plan_write.h). */
#include "plan_write.h"

#include <errno.h>
#include <string.h>

#include "../model/params_csv.h"

/* A shell word that runs back to s: bare when only safe characters, in
 * single quotes otherwise, and in bash's $'...' when s holds a control
 * character, so that a newline cannot end the comment line. */
static void print_quoted(FILE *f, const char *s)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_^-";
    int control = 0;
    for (const char *p = s; *p; p++)
        control |= (unsigned char)*p < 0x20 || *p == 0x7f;
    if (*s && strspn(s, safe) == strlen(s)) {
        fputs(s, f);
    } else if (!control) {
        fputc('\'', f);
        for (const char *p = s; *p; p++) {
            if (*p == '\'')
                fputs("'\\''", f);
            else
                fputc(*p, f);
        }
        fputc('\'', f);
    } else {
        fputs("$'", f);
        for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
            if (*p < 0x20 || *p == 0x7f)
                fprintf(f, "\\x%02x", *p);
            else if (*p == '\'' || *p == '\\')
                fprintf(f, "\\%c", *p);
            else
                fputc(*p, f);
        }
        fputc('\'', f);
    }
}

/* A fraction on a grid of 10^digits steps, exactly, without trailing zeros. */
static void format_fraction(char *buf, size_t len, uint32_t steps, int digits)
{
    uint32_t scale = 1;
    for (int i = 0; i < digits; i++)
        scale *= 10;
    if (steps % scale == 0) {
        snprintf(buf, len, "%u", steps / scale);
        return;
    }
    snprintf(buf, len, "0.%0*u", digits, steps);
    for (char *e = buf + strlen(buf) - 1; *e == '0'; e--)
        *e = 0;
}

int plw_row(FILE *f, enum plw_format fmt, const pln_row *w)
{
    char sel[16], hot[16];
    format_fraction(sel, sizeof sel, w->sel, 6);
    format_fraction(hot, sizeof hot, w->hot, 3);
    if (fmt == PLW_CSV)
        return fprintf(f, "%s,%u,%u,%s,%u,%s,%u,%u\n", pat_name(w->pattern), w->n, w->wg, sel, w->bins, hot,
                       w->addresses, w->smem);
    return fprintf(f, "--pattern %s --n %u --wg %u --selectivity %s --bins %u --hot %s --addresses %u --smem-per-wg %u\n",
                   pat_name(w->pattern), w->n, w->wg, sel, w->bins, hot, w->addresses, w->smem);
}

int plw_header(FILE *f, enum plw_format fmt, int argc, char *const *argv, uint64_t rows, int npat)
{
    if (fmt == PLW_CSV) { /* a dataset's columns, as dispatch --batch and sweep --points read them */
        char cols[256];
        pat_csv_header(PAT_CSV_TABLE, cols, sizeof cols);
        return fprintf(f, "pattern,%s\n", cols);
    }
    fputs("# atomsim", f);
    for (int i = 0; i < argc; i++) {
        fputc(' ', f);
        print_quoted(f, argv[i]);
    }
    return fprintf(f, "\n# %llu random configurations over %d pattern%s for vkbench --plan, one a line with every "
                      "flag given; `atomsim plan --help` says how they are drawn.\n",
                   (unsigned long long)rows, npat, npat == 1 ? "" : "s");
}

int plw_write(const pln_spec *s, enum plw_format fmt, const char *path, int argc, char *const *argv,
              char err[CFG_ERR_MAX])
{
    pln_drawer *d = NULL;
    *err = 0;
    if (pln_check(s, err))
        return 2;
    if (pln_drawer_new(s, &d)) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return 1;
    }
    FILE *out = path ? fopen(path, "w") : stdout;
    if (!out) {
        snprintf(err, CFG_ERR_MAX, "cannot write '%s': %s", path, strerror(errno));
        pln_drawer_free(d);
        return 2;
    }
    int bad = plw_header(out, fmt, argc, argv, s->rows, s->npat) < 0;
    for (uint64_t i = 0; i < s->rows && !bad; i++) {
        pln_row w;
        pln_draw(d, &w);
        bad = plw_row(out, fmt, &w) < 0;
    }
    /* a full disk often shows only when the buffer goes out */
    bad |= fflush(out) != 0 || ferror(out);
    if (out != stdout)
        bad |= fclose(out) != 0;
    if (bad)
        snprintf(err, CFG_ERR_MAX, "writing %s: %s%s", path ? path : "stdout", strerror(errno),
                 path ? " (the file is incomplete)" : "");
    else if (pln_repeats(d))
        snprintf(err, CFG_ERR_MAX, "note: %llu rows repeat an earlier one; the ranges hold too few configurations",
                 (unsigned long long)pln_repeats(d));
    pln_drawer_free(d);
    return bad ? 1 : 0;
}
