/* fz.h - what every fuzz target shares: the fuzz input as a file for the
 * readers that take a path, and a silenced stdout.
 *
 * A reader that takes a path gets one temporary file per process, made
 * once and rewritten for every input (pwrite + ftruncate), so a run costs
 * no file creation and leaves nothing behind but that one file, removed at
 * exit.  The suffix matters only to readers that look at it. */
#ifndef FZ_H
#define FZ_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fz_path_buf[512];
static int fz_fd = -1;

static inline void fz_unlink(void)
{
    if (fz_fd >= 0)
        unlink(fz_path_buf);
}

/* The readers report through their err buffers; anything they would print
 * on stdout is noise at a million runs.  libFuzzer and the sanitizers write
 * to stderr, which stays. */
static inline void fz_quiet(void)
{
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        close(fd);
    }
}

/* The input as the contents of this process's temporary file; its path. */
static inline const char *fz_file(const uint8_t *data, size_t size, const char *suffix)
{
    if (fz_fd < 0) {
        const char *dir = getenv("TMPDIR");
        snprintf(fz_path_buf, sizeof fz_path_buf, "%s/atomsim-fuzz-XXXXXX%s", dir && *dir ? dir : "/tmp", suffix);
        fz_fd = mkstemps(fz_path_buf, (int)strlen(suffix));
        if (fz_fd < 0) {
            perror("fz_file: mkstemps");
            abort();
        }
        atexit(fz_unlink);
    }
    size_t done = 0;
    while (done < size) {
        ssize_t w = pwrite(fz_fd, data + done, size - done, (off_t)done);
        if (w <= 0) {
            perror("fz_file: pwrite");
            abort();
        }
        done += (size_t)w;
    }
    if (ftruncate(fz_fd, (off_t)size)) {
        perror("fz_file: ftruncate");
        abort();
    }
    return fz_path_buf;
}

/* The input as a NUL-terminated string (argv-like text cannot hold a NUL:
 * the string ends at the first).  Free it. */
static inline char *fz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

#endif
