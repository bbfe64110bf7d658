/* intr.c - what SIGINT, SIGTERM and SIGHUP do to atomsim (see intr.h): at
 * once outside a hold, at the next whole row inside one. */
#include "intr.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "out.h"

static char intr_cmd[64] = "atomsim";
static volatile sig_atomic_t intr_held, intr_caught;

static const char *sig_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal";
}

/* The line, built without stdio: the handler writes it too. */
static void say(int sig)
{
    char line[160];
    size_t n = 0;
    const char *parts[] = { intr_cmd, ": interrupted by ", sig_name(sig), "\n" };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        for (const char *p = parts[i]; *p && n < sizeof line; p++)
            line[n++] = *p;
    ssize_t w = write(STDERR_FILENO, line, n);
    (void)w;
}

static void on_signal(int sig)
{
    if (intr_held && !intr_caught) {
        intr_caught = sig;
        return;
    }
    out_unlink_temps();
    say(sig);
    _exit(128 + sig);
}

void intr_install(const char *cmd)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa;
    snprintf(intr_cmd, sizeof intr_cmd, "atomsim%s%.50s", cmd ? " " : "", cmd ? cmd : "");
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask);
    /* writes of whole rows must not stop half-way; poll still wakes */
    sa.sa_flags = SA_RESTART;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        /* a signal ignored by whoever started us (nohup) stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

int intr_hold(void)
{
    int prev = intr_held;
    intr_held = 1;
    return prev;
}

void intr_release(int prev)
{
    intr_held = prev;
}

int intr_pending(void)
{
    return intr_caught;
}

int intr_status(void)
{
    return intr_caught ? 128 + intr_caught : 0;
}

void intr_report(void)
{
    if (intr_caught)
        say(intr_caught);
}

void intr_exit(void)
{
    out_unlink_temps();
    say(intr_caught ? intr_caught : SIGTERM);
    _exit(128 + (intr_caught ? intr_caught : SIGTERM));
}
