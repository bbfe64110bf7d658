/* cpb_costs.h - cpubench's cost mode: the CPU tier's cost constants, as a
 * CSV of raw timings and a configs/cpu-*.ini (cpb_costs.c). */
#ifndef CPB_COSTS_H
#define CPB_COSTS_H

/* Parses its own options (argv[0] is the program); returns the exit status. */
int cpb_costs_main(int argc, char **argv);

#endif
