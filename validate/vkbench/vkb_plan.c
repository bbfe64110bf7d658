/* Plan files: '#' starts a comment, blank lines are skipped, and every other
 * line is a list of sweep flags that expands into a grid of
 * configurations, each line starting again from the contract's defaults. */
#include "vkb_plan.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../../util/lines.h"

#include "vkb_args.h"
#include "vkb_common.h"

#define MAX_WORDS 64

static int read_line(const char *path, int lineno, char *text, int reps,
                     int warmup, vkb_cfg_list *out, char *err)
{
    char *words[MAX_WORDS];
    char msg[VKB_ERRLEN];
    int nw = 0, rc;
    vkb_sweep sw;

    char *hash = strchr(text, '#');
    if (hash)
        *hash = '\0';
    for (char *save = NULL, *t = strtok_r(text, " \t\r\n", &save); t;
         t = strtok_r(NULL, " \t\r\n", &save)) {
        if (nw == MAX_WORDS)
            return vkb_errf(err, VKB_EUSAGE, "%s:%d: more than %d words",
                            path, lineno, MAX_WORDS);
        words[nw++] = t;
    }
    if (nw == 0)
        return VKB_OK;
    vkb_sweep_init(&sw);
    rc = vkb_args_walk(nw, words, &sw, NULL, NULL, NULL, msg);
    if (rc == VKB_OK)
        rc = vkb_sweep_expand(&sw, reps, warmup, lineno, out, msg);
    if (rc)
        return vkb_errf(err, rc, "%s:%d: %s", path, lineno, msg);
    return VKB_OK;
}

/* The longest plan line read before the bounded reader (an 8 KiB buffer). */
#define PLAN_MAX_LINE 8190

int vkb_plan_read(const char *path, int reps, int warmup, vkb_cfg_list *out,
                  char *err)
{
    char msg[VKB_ERRLEN];
    int rc = VKB_OK, got;
    lin_reader in;
    struct stat st;

    /* stat first: a directory or a device (/dev/zero never ends) is
     * refused before anything is read; a pipe (--plan <(atomsim plan ...))
     * is read within the same bounds as a file: a long line or a NUL byte
     * is an error with its line, never cut or read up to the NUL */
    if (stat(path, &st))
        return vkb_errf(err, VKB_EUSAGE, "cannot read plan %s: %s", path,
                        strerror(errno));
    if (S_ISFIFO(st.st_mode)) {
        FILE *f = fopen(path, "r");
        if (!f)
            return vkb_errf(err, VKB_EUSAGE, "cannot read plan %s: %s",
                            path, strerror(errno));
        lin_attach(&in, f, path, PLAN_MAX_LINE, LIN_MAX_BYTES);
        in.owns = 1;
    } else if (!S_ISREG(st.st_mode)) {
        return vkb_errf(err, VKB_EUSAGE, "cannot read plan %s: %s", path,
                        S_ISDIR(st.st_mode) ? "it is a directory"
                                            : "not a regular file");
    } else if (lin_open_as(&in, path, "plan", PLAN_MAX_LINE, msg,
                           sizeof msg)) {
        return vkb_errf(err, VKB_EUSAGE, "%s", msg);
    }
    while (rc == VKB_OK && (got = lin_next(&in, msg, sizeof msg)) != 0) {
        if (got < 0) {
            rc = vkb_errf(err, VKB_EUSAGE, "%s", msg);
            break;
        }
        rc = read_line(path, (int)in.lineno, in.line, reps, warmup, out, err);
    }
    lin_close(&in);
    return rc;
}
