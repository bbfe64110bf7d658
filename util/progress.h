/* progress.h - the one progress line of every long command: on stderr,
 * only when stderr is a terminal, one line rewritten with \r that says
 * the rows done, the total, the elapsed time and an estimate of the time
 * left, and is cleared at the end so that what follows starts on a clean
 * line.  stdout is never touched.  The worker pool (pool.h) reports every
 * result through it, so a command that runs its rows on the pool gets the
 * line for nothing; a command that runs several pools one after another
 * (calibrate) opens an outer line with its whole budget and the pools'
 * counts add to it instead of starting lines of their own.
 *
 *   prog_begin("sweep", "rows", count);
 *   for (...) { ...; prog_add(1); }
 *   prog_end();
 *
 * Updates are per row, never per simulated event, and redraw at most five
 * times a second (the last row always).  --no-progress (prog_quiet), or
 * ATOMSIM_PROGRESS=off, silences it; ATOMSIM_PROGRESS=force draws it on a
 * stderr that is no terminal (tests check the format through a pipe). */
#ifndef ATOM_UTIL_PROGRESS_H
#define ATOM_UTIL_PROGRESS_H

#include <stdint.h>

/* No line from now on, in this process (--no-progress). */
void prog_quiet(void);
/* Whether a line would be drawn: not quiet, and stderr a terminal or
 * ATOMSIM_PROGRESS=force. */
int prog_wanted(void);

/* Starts the line: `total` units of `unit` for "atomsim CMD: ".  Inside
 * another begin (depth > 0), draws nothing new: the inner counts go to the
 * outer line, whose total already holds them. */
void prog_begin(const char *cmd, const char *unit, uint64_t total);
/* n more units done. */
void prog_add(uint64_t n);
/* The outer line's count set outright (a stage that stopped before its
 * budget: the estimate follows the work left, not the work skipped). */
void prog_set(uint64_t done);
/* Ends a begin; the outermost one clears the line. */
void prog_end(void);
/* Clears the line, if drawn, before another message on stderr; a later
 * update draws it again. */
void prog_hide(void);
/* Before a line to stdout: clears the progress line when stdout is the
 * same terminal, so that rows and the line do not run into each other. */
void prog_stdout(void);

/* "about 3 min 10 s left", "time left unknown": the estimate's words, for
 * `done` of `total` after `elapsed` seconds (tests call it). */
void prog_left_text(char *buf, unsigned long len, uint64_t done, uint64_t total, double elapsed);

#endif
