/* man_roff.h - roff text for the manual pages (man_roff.c). */
#ifndef ATOM_APP_MAN_ROFF_H
#define ATOM_APP_MAN_ROFF_H

#include <stddef.h>
#include <stdio.h>

/* One input line of text, escaped: a leading '.' or '\'' as \&, a
 * backslash as \e, '-' as \-; fill: blanks collapsed, leading ones gone. */
void man_roff_line(FILE *f, const char *s, size_t len, int fill);
/* A whole string as one filled line. */
void man_roff_str(FILE *f, const char *s);
/* Text inside a line (no line-start rule, no newline). */
void man_roff_inline(FILE *f, const char *s);
/* .TH: name upper-cased, the date SOURCE_DATE_EPOCH's (else today's). */
void man_roff_head(FILE *f, const char *name, int section, const char *source);
/* .SH NAME: "name \- summary". */
void man_roff_name(FILE *f, const char *name, const char *summary);
/* The usage lines at the start of a --help text as a no-fill block
 * ("usage: " cut, the lines under it shifted as far; prog: the program's
 * name, which starts a further usage line).  Returns where the rest of
 * the text begins. */
const char *man_roff_synopsis(FILE *f, const char *text, const char *prog);
/* The rest of a --help text: prose filled, indented flag lines .TP items,
 * other indented lines (tables) kept as they are, a blank line a paragraph. */
void man_roff_body(FILE *f, const char *text);

#endif
