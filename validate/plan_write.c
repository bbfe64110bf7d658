/* plan_write.c - the text of a random harness plan, and the whole plan
 * drawn and written where `atomsim plan` says (see plan_write.h). */
#include "plan_write.h"

#include <errno.h>
#include <string.h>

#include "../model/params_csv.h"
#include "../util/out.h"

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

/* Every column and flag from the parameter table, each value the shortest
 * text that reads back (a grid step's fraction has no trailing zeros). */
int plw_row(FILE *f, enum plw_format fmt, const pln_row *w)
{
    pat_params p;
    pln_row_params(w, &p);
    if (fmt == PLW_CSV) {
        fprintf(f, "%s,", pat_name(p.pattern));
        pat_csv_write(f, PAT_CSV_TABLE, &p, 0);
        return fputc('\n', f) == EOF ? -1 : 0;
    }
    const pat_param_desc *col[PP_COUNT];
    size_t n = pat_csv_columns(PAT_CSV_TABLE, col);
    fprintf(f, "--pattern %s", pat_name(p.pattern));
    for (size_t i = 0; i < n; i++) {
        char v[48];
        pat_csv_format(col[i], &p, 0, v, sizeof v);
        fprintf(f, " %s %s", col[i]->flag, v);
    }
    return fputc('\n', f) == EOF ? -1 : 0;
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
    out_file of;
    if (path && out_open(&of, path, err, CFG_ERR_MAX)) {
        pln_drawer_free(d);
        return 2;
    }
    FILE *out = path ? of.f : stdout;
    int bad = plw_header(out, fmt, argc, argv, s->rows, s->npat) < 0;
    for (uint64_t i = 0; i < s->rows && !bad; i++) {
        pln_row w;
        pln_draw(d, &w);
        bad = plw_row(out, fmt, &w) < 0;
    }
    /* a file is renamed into place only whole; stdout's failure is told
     * once, by main (util/out.h) */
    if (path && bad) {
        out_failed(&of, err, CFG_ERR_MAX);
        out_abort(&of);
    } else if (path)
        bad = out_commit(&of, err, CFG_ERR_MAX) != 0;
    else
        bad |= fflush(out) != 0 || ferror(out);
    if (bad && path && !*err)
        snprintf(err, CFG_ERR_MAX, "%s: cannot write: %s", path, strerror(errno));
    else if (!bad && pln_repeats(d))
        snprintf(err, CFG_ERR_MAX, "note: %llu rows repeat an earlier one; the ranges hold too few configurations",
                 (unsigned long long)pln_repeats(d));
    pln_drawer_free(d);
    return bad ? 1 : 0;
}
