/* cmd_calibrate.c - `atomsim calibrate`: not built yet; says so instead of guessing. */
#include <stdio.h>

#include "commands.h"

int cmd_calibrate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "atomsim calibrate: not implemented yet\n");
    return 2;
}
