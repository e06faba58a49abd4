/*
 * csvfield.c - the one CSV field writer (csvfield.h); the quoting itself is
 * libcsv's csv_fwrite, the rule of when to quote is here.
 */
#include "csvfield.h"

#include <csv.h>
#include <string.h>

static bool is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v';
}

bool csvfield_needs_quotes(const char *s)
{
    size_t n = strlen(s);
    return n > 0 && (s[0] == '#' || is_blank(s[0]) || is_blank(s[n - 1]) ||
                     strpbrk(s, ",\"\r\n") != NULL);
}

void csvfield_put(FILE *fp, const char *s)
{
    if (csvfield_needs_quotes(s))
        csv_fwrite(fp, s, strlen(s));
    else
        fputs(s, fp);
}
