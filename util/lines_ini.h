/* lines_ini.h - inih reading through the bounded line reader (lines.h).
 *
 * ini_parse_file reads with fgets into a fixed buffer: it loops on
 * /dev/zero, and a line longer than the buffer comes back in pieces, its
 * tail parsed as a line of its own.  Handing inih this reader instead
 * (ini_parse_stream(lin_ini_read, &s, handler, user)) refuses both, and a
 * NUL byte, with "FILE:LINE: ..." in s.err; inih then sees the end of its
 * input, so after the parse `s.failed` says whether the file was read
 * whole.
 *
 *   lin_ini s;
 *   if (lin_ini_open(&s, path, "CPU config", err, errlen)) return -1;
 *   int line = ini_parse_stream(lin_ini_read, &s, handler, user);
 *   lin_ini_close(&s);   then s.failed / s.err, then line */
#ifndef ATOM_UTIL_LINES_INI_H
#define ATOM_UTIL_LINES_INI_H

#include <stddef.h>

#include "lines.h"

typedef struct lin_ini {
    lin_reader in;
    char err[512];
    int failed;
} lin_ini;

/* lin_open_as (lines.h) for an INI file: 0, or -1 with err set. */
int lin_ini_open(lin_ini *s, const char *path, const char *what, char *err, size_t errlen);
/* inih's ini_reader: one line per call, NULL at the end or on an error. */
char *lin_ini_read(char *str, int num, void *stream);
void lin_ini_close(lin_ini *s);

#endif
