/* cmd_sweep.c - `atomsim sweep`: not built yet; says so instead of guessing. */
#include <stdio.h>

#include "commands.h"

int cmd_sweep(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "atomsim sweep: not implemented yet\n");
    return 2;
}
