/* cmd_study.c - `atomsim study`: not built yet; says so instead of guessing. */
#include <stdio.h>

#include "commands.h"

int cmd_study(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "atomsim study: not implemented yet\n");
    return 2;
}
