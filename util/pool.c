/* pool.c - forked workers that run numbered jobs and hand results back in
 * job order (see pool.h), each result counted on the progress line
 * (progress.h) as it is handed on.
 * The parent sends a job number down a worker's socket, the worker answers with the number
 * and its result, and a ring buffer holds results that finish early until
 * every job before them is done. */
#include "pool.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdarg.h>

#include "intr.h"
#include "progress.h"

/* One line on stderr, "atomsim CMD: ...", as every command reports. */
static void pool_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    prog_hide();
    fprintf(stderr, "atomsim %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* ---- workers ------------------------------------------------------------------ */

static ssize_t io_full(int fd, void *buf, size_t len, int out)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = out ? send(fd, (char *)buf + done, len - done, MSG_NOSIGNAL)
                        : recv(fd, (char *)buf + done, len - done, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return done ? (ssize_t)done : n;
        done += (size_t)n;
    }
    return (ssize_t)done;
}

/* A worker's answer: the job number, then result_size bytes. */
static size_t frame_size(const pool_ops *ops)
{
    return sizeof(uint64_t) + ops->result_size;
}

/* A worker dies with its parent (PR_SET_PDEATHSIG; the getppid check
 * covers a parent that died before the prctl), leaves SIGINT to the
 * parent, which ends the workers itself, and dies of SIGTERM. */
static void worker_signals(pid_t parent, const sigset_t *mask)
{
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    sigprocmask(SIG_SETMASK, mask, NULL);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
        _exit(1);
}

static void worker_main(const pool_ops *ops, void *ctx, int fd)
{
    uint64_t pos;
    size_t len = frame_size(ops);
    unsigned char *frame = malloc(len);
    while (frame && io_full(fd, &pos, sizeof pos, 0) == (ssize_t)sizeof pos) {
        memcpy(frame, &pos, sizeof pos);
        memset(frame + sizeof pos, 0, ops->result_size);
        ops->run(ctx, pos, frame + sizeof pos);
        if (io_full(fd, frame, len, 1) != (ssize_t)len)
            break;
    }
    _exit(0);
}

#define POOL_DEPTH 2

typedef struct pool_worker {
    pid_t pid;
    int fd;
    uint64_t q[POOL_DEPTH];
    int qn;
} pool_worker;

/* Results that came back before every job ahead of them: slot pos % cap. */
typedef struct pool_ring {
    unsigned char *r;
    unsigned char *ready;
    uint64_t cap;
    size_t size;
} pool_ring;

static int ring_fit(pool_ring *rg, uint64_t emitted, uint64_t next)
{
    if (rg->cap && next - emitted < rg->cap)
        return 0;
    uint64_t cap = rg->cap ? 2 * rg->cap : 64;
    unsigned char *r = malloc(cap * rg->size);
    unsigned char *ready = calloc(cap, 1);
    if (!r || !ready) {
        free(r);
        free(ready);
        return -1;
    }
    for (uint64_t pos = emitted; pos < next; pos++)
        if (rg->cap && rg->ready[pos & (rg->cap - 1)]) {
            memcpy(r + (pos & (cap - 1)) * rg->size, rg->r + (pos & (rg->cap - 1)) * rg->size, rg->size);
            ready[pos & (cap - 1)] = 1;
        }
    free(rg->r);
    free(rg->ready);
    rg->r = r;
    rg->ready = ready;
    rg->cap = cap;
    return 0;
}

static int hand_out(const pool_ops *ops, pool_ring *rg, pool_worker *w, uint64_t emitted, uint64_t *next)
{
    if (ring_fit(rg, emitted, *next + 1) || io_full(w->fd, next, sizeof *next, 1) != (ssize_t)sizeof *next) {
        pool_error(ops->cmd, "cannot hand a job to a worker");
        return 1;
    }
    w->q[w->qn++] = (*next)++;
    return 0;
}

int pool_worker_count(int jobs, uint64_t count)
{
    uint64_t n = jobs < 1 ? 1 : (uint64_t)jobs;
    if (n > POOL_MAX_JOBS)
        n = POOL_MAX_JOBS;
    if (n > count)
        n = count;
    return (int)n;
}

static int run_parallel(const pool_ops *ops, void *ctx, uint64_t count, int jobs, int counted)
{
    uint64_t next = 0, emitted = 0;
    int nw = pool_worker_count(jobs, count), rc = 0, stop = 0;
    size_t flen = frame_size(ops);
    pool_worker *wk = calloc((size_t)nw, sizeof *wk);
    struct pollfd *pfd = calloc((size_t)nw, sizeof *pfd);
    unsigned char *frame = malloc(flen);
    pool_ring rg = { NULL, NULL, 0, ops->result_size };
    if (!wk || !pfd || !frame || ring_fit(&rg, 0, 0)) {
        pool_error(ops->cmd, "out of memory");
        free(wk);
        free(pfd);
        free(frame);
        return 1;
    }
    /* The signals wait until ppoll, where the loop is between rows: what
     * the parent has written then ends with a whole row. */
    sigset_t block, orig;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &orig);
    pid_t parent = getpid();
    fflush(NULL);
    for (int i = 0; i < nw; i++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
            pool_error(ops->cmd, "socketpair: %s", strerror(errno));
            nw = i;
            rc = 1;
            break;
        }
        pid_t pid = fork();
        if (pid == 0) {
            worker_signals(parent, &orig);
            close(sv[0]);
            for (int j = 0; j < i; j++)
                close(wk[j].fd);
            worker_main(ops, ctx, sv[1]);
        }
        close(sv[1]);
        if (pid < 0) {
            pool_error(ops->cmd, "fork: %s", strerror(errno));
            close(sv[0]);
            nw = i;
            rc = 1;
            break;
        }
        wk[i].pid = pid;
        wk[i].fd = sv[0];
    }
    /* hand out jobs round-robin, POOL_DEPTH per worker */
    for (int d = 0; d < POOL_DEPTH && !rc; d++)
        for (int i = 0; i < nw && next < count && !rc; i++)
            rc = hand_out(ops, &rg, &wk[i], emitted, &next);
    while (!rc && !stop && emitted < count && !intr_pending()) {
        int np = 0;
        for (int i = 0; i < nw; i++)
            if (wk[i].qn) {
                pfd[np].fd = wk[i].fd;
                pfd[np].events = POLLIN;
                pfd[np++].revents = 0;
            }
        if (ppoll(pfd, (nfds_t)np, NULL, &orig) < 0) {
            if (errno == EINTR)
                continue;
            pool_error(ops->cmd, "poll: %s", strerror(errno));
            rc = 1;
            break;
        }
        for (int k = 0, i = 0; k < np && !rc; k++) {
            if (!pfd[k].revents)
                continue;
            while (wk[i].fd != pfd[k].fd)
                i++;
            if (io_full(wk[i].fd, frame, flen, 0) != (ssize_t)flen) {
                int status = 0;
                char d[1024] = "?";
                waitpid(wk[i].pid, &status, 0);
                wk[i].pid = 0;
                if (intr_pending()) { /* ended by the signal, not by its job */
                    rc = 1;
                    break;
                }
                if (ops->describe)
                    ops->describe(ctx, wk[i].q[0], d, sizeof d);
                pool_error(ops->cmd, "a worker died (%s %d) while running %s", WIFSIGNALED(status) ? "signal" : "status",
                          WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), d);
                rc = 1;
                break;
            }
            uint64_t pos;
            memcpy(&pos, frame, sizeof pos);
            for (int j = 0; j < wk[i].qn; j++)
                if (wk[i].q[j] == pos) {
                    memmove(&wk[i].q[j], &wk[i].q[j + 1], (size_t)(wk[i].qn - j - 1) * sizeof wk[i].q[0]);
                    wk[i].qn--;
                    break;
                }
            memcpy(rg.r + (pos & (rg.cap - 1)) * rg.size, frame + sizeof pos, rg.size);
            rg.ready[pos & (rg.cap - 1)] = 1;
            if (next < count && !stop)
                rc = hand_out(ops, &rg, &wk[i], emitted, &next);
        }
        while (!rc && !stop && emitted < count && rg.ready[emitted & (rg.cap - 1)]) {
            uint64_t slot = emitted & (rg.cap - 1);
            stop = ops->done(ctx, emitted, rg.r + slot * rg.size) != 0;
            rg.ready[slot] = 0;
            emitted++;
            if (counted)
                prog_add(1);
        }
    }
    if (intr_pending())
        rc = 1;
    for (int i = 0; i < nw; i++) {
        if (wk[i].pid && (stop || rc))
            kill(wk[i].pid, SIGTERM);
        close(wk[i].fd);
    }
    for (int i = 0; i < nw; i++)
        if (wk[i].pid)
            while (waitpid(wk[i].pid, NULL, 0) < 0 && errno == EINTR)
                ;
    sigprocmask(SIG_SETMASK, &orig, NULL);
    free(rg.r);
    free(rg.ready);
    free(wk);
    free(pfd);
    free(frame);
    return rc;
}

static int run_inline(const pool_ops *ops, void *ctx, uint64_t count, int counted)
{
    unsigned char *r = malloc(ops->result_size ? ops->result_size : 1);
    if (!r) {
        pool_error(ops->cmd, "out of memory");
        return 1;
    }
    for (uint64_t pos = 0; pos < count && !intr_pending(); pos++) {
        memset(r, 0, ops->result_size);
        ops->run(ctx, pos, r);
        int stop = ops->done(ctx, pos, r);
        if (counted)
            prog_add(1);
        if (stop)
            break;
    }
    free(r);
    return intr_pending() ? 1 : 0;
}

int pool_run(const pool_ops *ops, void *ctx, uint64_t count, int jobs, int show_progress)
{
    if (show_progress)
        prog_begin(ops->cmd, ops->unit, count);
    int held = intr_hold();
    int rc = jobs <= 1 || count <= 1 ? run_inline(ops, ctx, count, show_progress)
                                     : run_parallel(ops, ctx, count, jobs, show_progress);
    if (show_progress)
        prog_end();
    intr_release(held);
    /* a caller that held the signals unwinds itself; for the others the
     * workers are gone now, and so is the process */
    if (intr_pending() && !held) {
        prog_hide(); /* a caller's line (calibrate's) would run into the message */
        intr_exit();
    }
    return rc;
}

int pool_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > POOL_MAX_JOBS ? POOL_MAX_JOBS : (int)n;
}
