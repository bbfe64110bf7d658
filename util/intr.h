/* intr.h - SIGINT and SIGTERM (and SIGHUP): an interrupted atomsim exits
 * 128 + the signal (130, 143) with one line on stderr, having removed the
 * temporaries of its output files (out.c), never leaving a half-written
 * file or row behind.
 *
 * Outside a hold the handler does that at once.  Inside one (the worker
 * pool, sweep and study while they write rows) a signal is only recorded:
 * the code polls intr_pending() at points where the output is whole,
 * stops its workers and unwinds.  A second signal during a hold ends the
 * process at once, as outside one. */
#ifndef ATOM_UTIL_INTR_H
#define ATOM_UTIL_INTR_H

/* From main: installs the handlers; `cmd` names the command in the line
 * ("atomsim CMD: interrupted by SIGINT"). */
void intr_install(const char *cmd);
/* Starts a hold; returns the previous state, for intr_release. */
int intr_hold(void);
void intr_release(int prev);
/* The signal caught during a hold, or 0. */
int intr_pending(void);
/* 128 + the signal caught (0 when none). */
int intr_status(void);
/* The line on stderr for the signal caught. */
void intr_report(void);
/* Ends the process for the signal caught: temporaries removed, the line
 * on stderr, exit 128 + signal without flushing stdio (what is buffered
 * may end mid-row). */
void intr_exit(void) __attribute__((noreturn));

#endif
