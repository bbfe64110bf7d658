/* cpb_run.h - cpubench's plan mode: times the CPU tier on every
 * configuration of a vkbench plan and writes the dataset CSV that atomsim
 * reads, the CPU half of a GPU-versus-CPU routing truth set. */
#ifndef CPB_RUN_H
#define CPB_RUN_H

/* Parses its own options (argv[0] is the program); returns the exit
 * status: 0, 1 (a failed check, no memory) or 2 (bad usage or plan). */
int cpb_run_main(int argc, char **argv);

#endif
