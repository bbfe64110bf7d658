/* Plan files: '#' starts a comment, blank lines are skipped, and every other
 * line is a list of sweep flags that expands into a grid of
 * configurations, each line starting again from the contract's defaults. */
#include "vkb_plan.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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

int vkb_plan_read(const char *path, int reps, int warmup, vkb_cfg_list *out,
                  char *err)
{
    char line[8192];
    int lineno = 0, rc = VKB_OK;
    FILE *f = fopen(path, "r");

    if (!f)
        return vkb_errf(err, VKB_EUSAGE, "cannot read plan %s: %s", path,
                        strerror(errno));
    while (rc == VKB_OK && fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f))
            rc = vkb_errf(err, VKB_EUSAGE, "%s:%d: line too long", path,
                          lineno);
        else
            rc = read_line(path, lineno, line, reps, warmup, out, err);
    }
    if (rc == VKB_OK && ferror(f))
        rc = vkb_errf(err, VKB_EUSAGE, "cannot read plan %s: %s", path,
                      strerror(errno));
    fclose(f);
    return rc;
}
