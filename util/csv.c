/* csv.c - splits a CSV line into fields (see csv.h). */
#include "csv.h"

#include <string.h>

int csv_split(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; p && n < max;) {
        char *c = strchr(p, ',');
        if (c)
            *c++ = 0;
        f[n++] = p;
        p = c;
    }
    return n;
}
