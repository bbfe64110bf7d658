/* progress.c - the progress line (progress.h): one process-wide line, as
 * a command has one stderr; the pool's parent is the only writer (its
 * workers are forked and never report). */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"

/* Redraws at most this often: a terminal is slower than a fast sweep. */
#define PROG_INTERVAL 0.2
/* Kept within one row of an 80-column terminal: a wrapped line would
 * leave its first row behind when \r redraws the second. */
#define PROG_WIDTH 79

static struct {
    int quiet;
    int depth;
    int on;        /* the outermost begin decided to draw */
    int drawn;     /* a line is on the screen now */
    int tty_out;   /* stdout is a terminal too */
    const char *cmd, *unit;
    uint64_t done, total;
    double start, last;
} pg;

void prog_quiet(void)
{
    pg.quiet = 1;
}

int prog_wanted(void)
{
    const char *e = getenv("ATOMSIM_PROGRESS");
    if (pg.quiet || (e && (!strcmp(e, "off") || !strcmp(e, "0"))))
        return 0;
    return (e && !strcmp(e, "force")) || isatty(STDERR_FILENO);
}

static void fmt_seconds(char *buf, size_t len, double s)
{
    if (s < 59.5)
        snprintf(buf, len, "%.0f s", s);
    else if (s < 3599.5) {
        long t = (long)(s + 0.5);
        snprintf(buf, len, "%ld min %02ld s", t / 60, t % 60);
    } else {
        long t = (long)(s / 60 + 0.5);
        snprintf(buf, len, "%ld h %02ld min", t / 60, t % 60);
    }
}

void prog_left_text(char *buf, unsigned long len, uint64_t done, uint64_t total, double elapsed)
{
    char t[32];
    if (!done && total) {
        snprintf(buf, len, "time left unknown");
        return;
    }
    /* the rows so far at the rate so far: rows of one run cost alike
     * enough (a sweep's are in a fixed order, not sorted by cost) */
    double left = done >= total ? 0 : elapsed / (double)done * (double)(total - done);
    fmt_seconds(t, sizeof t, left);
    snprintf(buf, len, "about %s left", t);
}

static void draw(int force)
{
    double t = clk_now();
    if (!force && t - pg.last < PROG_INTERVAL)
        return;
    pg.last = t;
    char line[PROG_WIDTH + 1], el[32], left[48];
    uint64_t total = pg.total > pg.done ? pg.total : pg.done;
    fmt_seconds(el, sizeof el, t - pg.start);
    prog_left_text(left, sizeof left, pg.done, total, t - pg.start);
    snprintf(line, sizeof line, "atomsim %s: %llu/%llu %s (%.0f%%), %s, %s", pg.cmd, (unsigned long long)pg.done,
             (unsigned long long)total, pg.unit, total ? 100.0 * (double)pg.done / (double)total : 100.0, el, left);
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
    pg.drawn = 1;
}

void prog_begin(const char *cmd, const char *unit, uint64_t total)
{
    if (pg.depth++)
        return;
    pg.on = prog_wanted();
    pg.cmd = cmd;
    pg.unit = unit ? unit : "jobs";
    pg.done = 0;
    pg.total = total;
    pg.start = clk_now();
    pg.drawn = 0;
    pg.tty_out = pg.on && isatty(STDOUT_FILENO);
    if (pg.on)
        draw(1);
}

void prog_add(uint64_t n)
{
    prog_set(pg.done + n);
}

void prog_set(uint64_t done)
{
    if (!pg.depth)
        return;
    pg.done = done;
    if (pg.on)
        draw(pg.done >= pg.total);
}

void prog_hide(void)
{
    if (!pg.drawn)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    pg.drawn = 0;
}

void prog_stdout(void)
{
    if (pg.tty_out)
        prog_hide();
}

void prog_end(void)
{
    if (!pg.depth || --pg.depth)
        return;
    prog_hide();
    pg.on = 0;
}
