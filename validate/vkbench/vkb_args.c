/* The flag walker of vkb_args.h. */
#include "vkb_args.h"

#include <string.h>

#include "vkb_common.h"

static const vkb_flag *find_extra(const vkb_flag *extra, const char *name)
{
    for (; extra && extra->name; extra++)
        if (strcmp(extra->name, name) == 0)
            return extra;
    return NULL;
}

int vkb_args_walk(int argc, char **argv, vkb_sweep *sw,
                  const vkb_flag *extra, vkb_flag_fn fn, void *ctx,
                  char *err)
{
    for (int k = 0; k < argc; k++) {
        char name[64];
        const char *word = argv[k], *value = NULL;
        int rc;

        if (strncmp(word, "--", 2) != 0 || word[2] == '\0')
            return vkb_errf(err, VKB_EUSAGE, "unexpected argument '%s'",
                            word);
        const char *eq = strchr(word + 2, '=');
        size_t len = eq ? (size_t)(eq - word - 2) : strlen(word + 2);
        if (len >= sizeof name)
            return vkb_errf(err, VKB_EUSAGE, "unknown flag '%s'", word);
        memcpy(name, word + 2, len);
        name[len] = '\0';

        const vkb_flag *x = find_extra(extra, name);
        int takes = x ? x->takes_value : vkb_sweep_has_flag(name);
        if (!x && !takes)
            return vkb_errf(err, VKB_EUSAGE, "unknown flag --%s", name);
        if (takes) {
            if (eq)
                value = eq + 1;
            else if (k + 1 < argc)
                value = argv[++k];
            else
                return vkb_errf(err, VKB_EUSAGE, "--%s needs a value", name);
        } else if (eq) {
            return vkb_errf(err, VKB_EUSAGE, "--%s takes no value", name);
        }
        rc = x ? fn(ctx, name, value, err) : vkb_sweep_set(sw, name, value, err);
        if (rc)
            return rc;
    }
    return VKB_OK;
}
