/* datadir.c - dd_find (datadir.h): a name with no file behind it in the
 * working directory, looked up in the data directories a shipped binary
 * may have.  The binary's own path comes first (/proc/self/exe), so an
 * install staged with DESTDIR or moved elsewhere still finds its data; the
 * directory compiled in (ATOM_DATADIR, from install.mk's PREFIX) is the
 * fallback for a system without /proc. */
#include "datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef ATOM_DATADIR
#define ATOM_DATADIR "/usr/local/share/atomsim"
#endif

/* Paths found, kept for the process's life: a command holds on to its
 * --config text until it exits, and a global keeps them reachable for the
 * leak checker. */
#define DD_KEEP 64
static char *dd_kept[DD_KEEP];
static int dd_nkept;

static int dd_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The folder the running binary sits in, or "" when /proc cannot say. */
static void dd_exe_dir(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    buf[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(buf, '/');
    if (n <= 0 || (size_t)n >= len - 1 || !slash)
        buf[0] = '\0';
    else
        *slash = '\0';
}

/* ".." anywhere climbs out of a data directory: not looked up. */
static int dd_climbs(const char *p)
{
    for (const char *s = p; (s = strstr(s, "..")) != NULL; s += 2)
        if ((s == p || s[-1] == '/') && (s[2] == '/' || s[2] == '\0'))
            return 1;
    return 0;
}

/* Kept as a reader would write it: /usr/share/atomsim/configs/h100.ini,
 * not /usr/bin/../share/atomsim/configs/h100.ini. */
static const char *dd_keep(const char *path)
{
    if (dd_nkept == DD_KEEP)
        return NULL;
    char *s = realpath(path, NULL);
    if (!s)
        s = strdup(path);
    if (s)
        dd_kept[dd_nkept++] = s;
    return s;
}

/* `root`/`rel`, and with `ext` added when a bare name left it out. */
static const char *dd_try(const char *root, const char *sub, const char *arg, const char *ext)
{
    char path[PATH_MAX];
    const char *sep = sub[0] ? "/" : "";
    if (snprintf(path, sizeof path, "%s/%s%s%s", root, sub, sep, arg) < (int)sizeof path && dd_regular(path))
        return dd_keep(path);
    size_t la = strlen(arg), le = strlen(ext);
    if (sub[0] && !(la > le && !strcmp(arg + la - le, ext)) &&
        snprintf(path, sizeof path, "%s/%s/%s%s", root, sub, arg, ext) < (int)sizeof path && dd_regular(path))
        return dd_keep(path);
    return NULL;
}

const char *dd_find(const char *arg, enum dd_kind kind)
{
    static const char *const subs[] = { [DD_CONFIG] = "configs", [DD_TABLE] = "tables", [DD_STUDY] = "configs/studies" };
    static const char *const exts[] = { [DD_CONFIG] = ".ini", [DD_TABLE] = ".json", [DD_STUDY] = ".ini" };
    if (!arg || !arg[0] || arg[0] == '/' || dd_climbs(arg) || access(arg, F_OK) == 0)
        return arg;
    char exe[PATH_MAX], roots[3][PATH_MAX];
    int nroots = 0;
    dd_exe_dir(exe, sizeof exe);
    if (exe[0]) {
        /* installed: PREFIX/bin/atomsim beside PREFIX/share/atomsim */
        snprintf(roots[nroots++], PATH_MAX, "%.*s/../share/atomsim", PATH_MAX - 32, exe);
        /* the source tree: build/atomsim beside configs/ and tables/ */
        snprintf(roots[nroots++], PATH_MAX, "%.*s/..", PATH_MAX - 32, exe);
    }
    snprintf(roots[nroots++], PATH_MAX, "%s", ATOM_DATADIR);
    /* a bare name is looked for in its kind's folder, a relative path with
     * a folder in it as it stands under the data directory */
    const char *sub = strchr(arg, '/') ? "" : subs[kind];
    for (int i = 0; i < nroots; i++) {
        const char *found = dd_try(roots[i], sub, arg, exts[kind]);
        if (found)
            return found;
    }
    return arg;
}
