/* pool.h - the one parallel runner ("run these points on J workers,
 * results in order"), shared by sweep, study, export --engine sim, check
 * and, through validate/compare.c, validate and calibrate: jobs
 * 0..count-1 run on forked worker processes (one socket each, handed out
 * in order, at most two in flight per worker) and their fixed-size results
 * come back to the parent in job order, so what the parent writes is the
 * same whatever the number of workers.  The engines keep no global state,
 * so a fork is a clean worker.  It sits below app/ and validate/, in
 * util/, so that both can call it.
 *
 *   pool_ops ops = { sizeof(my_result), run, done, describe, "sweep", "rows" };
 *   rc = pool_run(&ops, ctx, count, jobs, progress);     0, or 1: the pool failed
 */
#ifndef ATOM_UTIL_POOL_H
#define ATOM_UTIL_POOL_H

#include <stddef.h>
#include <stdint.h>

typedef struct pool_ops {
    size_t result_size;
    /* In a worker (in the caller with one job): job `pos` into `result`,
     * result_size bytes, zeroed before the call. */
    void (*run)(void *ctx, uint64_t pos, void *result);
    /* In the caller, in job order.  Nonzero stops the pool: no more jobs
     * are handed out and the workers are ended. */
    int (*done)(void *ctx, uint64_t pos, void *result);
    /* Names job `pos` for the message when a worker dies; may be NULL. */
    void (*describe)(void *ctx, uint64_t pos, char *buf, size_t len);
    const char *cmd;                   /* "sweep", "export": the messages' prefix */
    const char *unit;                  /* "rows", "cells": the progress line's */
} pool_ops;

/* Runs jobs 0..count-1 on `jobs` workers (<= 1: in this process).  With
 * `progress`, each job handed to done counts on the progress line
 * (progress.h: on stderr when it is a terminal, jobs done, total, time
 * left, cleared at the end; inside a caller's line, counted into that
 * one).  Returns 0 (done
 * may still have stopped it), or 1 when the pool itself failed (fork,
 * socket, a worker died), reported on stderr.  A worker killed by a
 * signal fails the pool with a line naming its job.  A SIGINT, SIGTERM or
 * SIGHUP (util/intr.h) stops the workers and returns 1 without a line when
 * the caller holds the signals (intr_hold), and ends the process
 * otherwise; workers die with the parent in any case. */
int pool_run(const pool_ops *ops, void *ctx, uint64_t count, int jobs, int progress);

/* The one -j rule of every command: at most POOL_MAX_JOBS workers (each
 * holds a socket and a process; past this a host runs out of both before
 * it runs out of cores), and by default one a online CPU, within that. */
#define POOL_MAX_JOBS 1024
int pool_default_jobs(void);
/* The workers pool_run starts for `jobs` and `count` jobs: at least one,
 * at most POOL_MAX_JOBS, and never more than there are jobs. */
int pool_worker_count(int jobs, uint64_t count);

#endif
