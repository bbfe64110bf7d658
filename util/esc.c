/* esc.c - the quoting of a name or path in JSON, CSV and C (esc.h). */
#include "esc.h"

#include <string.h>

void esc_json(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

void esc_csv(FILE *f, const char *s)
{
    size_t n = strlen(s);
    if (!strpbrk(s, ",\"\r\n") && !(n && (s[0] == ' ' || s[n - 1] == ' '))) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void esc_c(FILE *f, const char *s, int in_comment)
{
    for (const char *p = s; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch == '"' || ch == '\\' || ch == '?')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7f)
            fprintf(f, "\\%03o", ch);
        else if (in_comment && p > s && ((ch == '/' && p[-1] == '*') || (ch == '*' && p[-1] == '/')))
            fprintf(f, "\\%c", ch); /* neither an end nor a nested start */
        else
            fputc(ch, f);
    }
}
