/* cmd_validate.c - `atomsim validate`: not built yet; says so instead of guessing. */
#include <stdio.h>

#include "commands.h"

int cmd_validate(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "atomsim validate: not implemented yet\n");
    return 2;
}
