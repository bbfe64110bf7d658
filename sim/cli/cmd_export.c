/* cmd_export.c - `atomsim export`: not built yet; says so instead of guessing. */
#include <stdio.h>

#include "commands.h"

int cmd_export(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "atomsim export: not implemented yet\n");
    return 2;
}
