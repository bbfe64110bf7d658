/* cmd_dispatch.c - `atomsim dispatch`: not built yet; says so instead of guessing. */
#include <stdio.h>

#include "commands.h"

int cmd_dispatch(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "atomsim dispatch: not implemented yet\n");
    return 2;
}
