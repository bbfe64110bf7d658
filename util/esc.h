/* esc.h - a name or path written into JSON, CSV or C: the one place that
 * knows each format's quoting, so that a GPU whose name holds quotes, a
 * backslash, a newline or the two characters that end a C comment still
 * gives a file that parses (JSON), reads back as one field (CSV) and
 * compiles (C).  For the name  a"b\c :
 *
 *   esc_json(f, name);        "a\"b\\c"
 *   esc_csv(f, name);         "a""b\c"     (quoted only when it must be)
 *   esc_c(f, name, 0);        a\"b\\c     (the inside of a string literal)
 *   esc_c(f, name, 1);        the same, and star-slash or slash-star split by a backslash */
#ifndef ATOM_UTIL_ESC_H
#define ATOM_UTIL_ESC_H

#include <stdio.h>

/* A JSON string, quotes included: " and \ escaped, control characters
 * as \u00XX; other bytes (UTF-8) as they are. */
void esc_json(FILE *f, const char *s);

/* A CSV field per RFC 4180: as it is, or in double quotes with each "
 * doubled when it holds a comma, a quote, CR, LF or an edge space. */
void esc_csv(FILE *f, const char *s);

/* The inside of a C string literal (in_comment 0) or text within a
 * comment (1): " \ and ? escaped (no trigraph), every byte outside
 * printable ASCII as three octal digits; in a comment, a / after a * or a
 * * after a / gets a backslash before it, so that the comment can neither
 * end early nor seem to nest. */
void esc_c(FILE *f, const char *s, int in_comment);

#endif
