/* cmd_version.c - `atomsim --version` (and `atomsim version`): which build
 * this is, so that a bug report or a result can name it: the version
 * (util/version.h), the compiler and flags that built it, and the hash of
 * the option table it reads configs with (cfg_options_hash), which moves
 * whenever a key, bound, default, unit or source does. */
#include <inttypes.h>
#include <stdio.h>

#include "../model/config.h"
#include "../util/version.h"
#include "commands.h"
#include "opts.h"

static void usage(FILE *f)
{
    fputs("usage: atomsim version   (or atomsim --version)\n"
          "  prints the version (git describe at build time, or the release's VERSION file),\n"
          "  the compiler and flags that built it, and the hash of the option table\n"
          "  (every config key's section, name, type, bounds, default, unit and source)\n",
          f);
}

int cmd_version(int argc, char **argv)
{
    /* through the one parser, so --help and the manual page work as for
     * every command, and an argument is refused in the same words */
    const opt_spec specs[] = { OPT_END };
    opt_cmd c = { .name = "version", .specs = specs, .usage = usage, .max_positional = 0 };
    int rc = opt_parse(&c, argc, argv);
    if (rc != OPT_GO)
        return rc;
    size_t rows;
    uint64_t h = cfg_options_hash(&rows);
    atom_print_version(stdout, "atomsim");
    printf("option_table: %016" PRIx64 " (%zu keys)\n", h, rows);
    return 0;
}
