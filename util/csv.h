/* csv.h - splitting a line of the project's CSV files into its fields:
 * the datasets, export's parts, sweep --points and dispatch --batch all
 * read the same plain form, so they split it the same way. */
#ifndef ATOM_UTIL_CSV_H
#define ATOM_UTIL_CSV_H

/* Splits line in place at every comma into at most max fields, pointers in
 * f[0..].  No quoting and no trimming: every field is a name or a number,
 * and an empty field (",,") is a field.  The max-th field ends at its own
 * comma and the rest of the line is dropped, so a reader that must refuse
 * extra fields asks for one more than it takes and checks the count.
 * Returns the count, 1..max. */
int csv_split(char *line, char **f, int max);

#endif
