/* cmd_check.c - `atomsim check`: not built yet; says so instead of guessing. */
#include <stdio.h>

#include "commands.h"

int cmd_check(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "atomsim check: not implemented yet\n");
    return 2;
}
