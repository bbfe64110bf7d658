/* commands.h - one entry point per `atomsim` subcommand.  Each returns the
 * process exit status: 0 ok, 1 a run failed, 2 bad usage or input. */
#ifndef ATOM_APP_COMMANDS_H
#define ATOM_APP_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_study(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_dispatch(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_check_routing(int argc, char **argv); /* check --routing */
int cmd_check_sim(int argc, char **argv);     /* check --against sim */
int cmd_check_baseline(int argc, char **argv); /* check --baseline, --write-baseline */
int cmd_plan(int argc, char **argv);
int cmd_version(int argc, char **argv); /* also atomsim --version */

#endif
