/* out.c - checked output (see out.h): output files through a temporary
 * beside the target and a rename, standard output checked at exit, and
 * the table of open temporaries a dying process removes. */
#include "out.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporaries open now, for out_unlink_temps; written only with the
 * signals that call it blocked, so a handler never sees half a path. */
#define OUT_MAX_TEMPS 16
static char out_temps[OUT_MAX_TEMPS][1060];
static volatile sig_atomic_t out_temp_used[OUT_MAX_TEMPS];

static void block_signals(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    sigprocmask(SIG_BLOCK, &s, old);
}

static int temp_register(const char *tmp)
{
    sigset_t old;
    int slot = -1;
    block_signals(&old);
    for (int i = 0; i < OUT_MAX_TEMPS && slot < 0; i++)
        if (!out_temp_used[i]) {
            snprintf(out_temps[i], sizeof out_temps[i], "%s", tmp);
            out_temp_used[i] = 1;
            slot = i;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return slot;
}

static void temp_forget(int slot)
{
    if (slot >= 0)
        out_temp_used[slot] = 0;
}

void out_unlink_temps(void)
{
    for (int i = 0; i < OUT_MAX_TEMPS; i++)
        if (out_temp_used[i])
            unlink(out_temps[i]);
}

/* A descriptor behind a stdio stream that keeps the first write error:
 * stdio drops a buffer it could not write and keeps only its error flag,
 * so the reason would be gone by the time anyone checks. */
typedef struct out_sink {
    int fd;
    int err;
} out_sink;

static ssize_t sink_write(void *cookie, const char *buf, size_t len)
{
    out_sink *k = cookie;
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(k->fd, buf + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (!k->err)
                k->err = n < 0 ? errno : EIO;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)n;
    }
    return (ssize_t)done;
}

static int sink_close(void *cookie)
{
    out_sink *k = cookie;
    if (k->fd > STDERR_FILENO && close(k->fd) && !k->err)
        k->err = errno;
    return k->err ? -1 : 0;
}

/* A buffered stream over fd (taken), or NULL. */
static FILE *sink_open(int fd, out_sink **sink)
{
    cookie_io_functions_t io = { NULL, sink_write, NULL, sink_close };
    out_sink *k = calloc(1, sizeof *k);
    FILE *f = k ? fopencookie(k, "w", io) : NULL;
    if (!f) {
        free(k);
        return NULL;
    }
    k->fd = fd;
    setvbuf(f, NULL, fd == STDOUT_FILENO && isatty(fd) ? _IOLBF : _IOFBF, BUFSIZ);
    *sink = k;
    return f;
}

int out_open(out_file *o, const char *path, char *err, size_t errlen)
{
    struct stat st;
    memset(o, 0, sizeof *o);
    o->slot = -1;
    if (strlen(path) >= sizeof o->path) {
        snprintf(err, errlen, "%.100s...: the path is too long", path);
        return -1;
    }
    snprintf(o->path, sizeof o->path, "%s", path);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(EISDIR));
        return -1;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
        if (fd < 0 || !(o->f = sink_open(fd, &o->sink))) {
            snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        return 0;
    }
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp.XXXXXX", path);
    int fd = mkostemp(o->tmp, O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    o->slot = temp_register(o->tmp);
    /* mkstemp makes it 0600; the target gets what fopen would give it */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) || !(o->f = sink_open(fd, &o->sink))) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        close(fd);
        unlink(o->tmp);
        temp_forget(o->slot);
        return -1;
    }
    return 0;
}

int out_failed(out_file *o, char *err, size_t errlen)
{
    if (o->f)
        fflush(o->f);
    if (!o->sink || !o->sink->err)
        return 0;
    snprintf(err, errlen, "%s: cannot write: %s", o->path, strerror(o->sink->err));
    return 1;
}

void out_abort(out_file *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    free(o->sink);
    o->sink = NULL;
    if (o->tmp[0]) {
        unlink(o->tmp);
        temp_forget(o->slot);
        o->tmp[0] = 0;
    }
}

int out_commit(out_file *o, char *err, size_t errlen)
{
    int bad = fflush(o->f) != 0 || ferror(o->f);
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    int e = o->sink->err ? o->sink->err : bad ? EIO : 0;
    free(o->sink);
    o->sink = NULL;
    if (!bad && o->tmp[0] && rename(o->tmp, o->path)) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        snprintf(err, errlen, "%s: cannot write: %s", o->path, e ? strerror(e) : "write error");
        out_abort(o);
        return -1;
    }
    temp_forget(o->slot);
    o->tmp[0] = 0;
    return 0;
}

/* ---- standard output ---------------------------------------------------------- */

/* stdout's sink: its first write error (sink_close leaves fd 1 open). */
static out_sink *stdout_sink;

void out_std_guard(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int n = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
            if (n >= 0 && n != fd) {
                dup2(n, fd);
                close(n);
            }
        }
    FILE *f = sink_open(STDOUT_FILENO, &stdout_sink);
    if (f)
        stdout = f;
}

static int stdout_reported;

int out_stdout_failed(const char *cmd)
{
    if (stdout_reported)
        return 1;
    errno = 0;
    int bad = fflush(stdout) != 0;
    int e = stdout_sink && stdout_sink->err ? stdout_sink->err : errno;
    if (!bad && !ferror(stdout))
        return 0;
    stdout_reported = 1;
    fprintf(stderr, "atomsim%s%s: writing standard output: %s\n", cmd ? " " : "", cmd ? cmd : "",
            e ? strerror(e) : "write error");
    return 1;
}

int out_stdout_close(const char *cmd, int rc)
{
    int bad = out_stdout_failed(cmd);
    errno = 0;
    if (fclose(stdout) && !bad) {
        bad = 1;
        fprintf(stderr, "atomsim%s%s: writing standard output: %s\n", cmd ? " " : "", cmd ? cmd : "",
                errno ? strerror(errno) : "write error");
    }
    return bad && !rc ? 1 : rc;
}
