/* long_help.h - the long --help texts of some commands (long_help.c). */
#ifndef ATOM_APP_LONG_HELP_H
#define ATOM_APP_LONG_HELP_H

#include <stdio.h>

/* `atomsim plan --help`. */
void help_plan(FILE *f);
/* `atomsim check --against sim --help`. */
void help_check_sim(FILE *f);

#endif
