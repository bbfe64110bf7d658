/* calibrate_fit.h - `atomsim calibrate` after its flags: the request the
 * command line makes and the run that answers it (calibrate_fit.c). */
#ifndef ATOM_APP_CALIBRATE_FIT_H
#define ATOM_APP_CALIBRATE_FIT_H

#include "../validate/calibrate_run.h"
#include "args.h"

typedef struct calfit_request {
    const cli_args *args;   /* --config, -p: the config to start from */
    const char *data;       /* --data: the measured dataset */
    const char *out;        /* --out: the overlay to write (left out of the config when it includes it) */
    const char *split;      /* --split, or NULL: every row fits */
    const char *keys;       /* --keys, or NULL: every calibratable key */
    double max_events;      /* each simulated row's event budget */
    int max_evals;          /* each stage's search */
    int jobs;               /* worker processes */
    int quiet;              /* no stage lines, residuals or "wrote" */
    int argc;               /* the command line, for the overlay's header */
    char **argv;
    const char *const *probes; /* --probe NAME=FILE, as given */
    int nprobes;
} calfit_request;

/* 0, 1 (a run failed) or 2 (bad input), having said why on stderr. */
int calfit_run(const calfit_request *r);

#endif
