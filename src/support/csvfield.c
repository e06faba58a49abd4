/*
 * support/csvfield.c - the one CSV field writer (support/csvfield.h); the quoting itself is
 * libcsv's csv_fwrite, the rule of when to quote is here.
 */
#include "support/csvfield.h"

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

size_t csvfield_bare_len(const char *s, size_t max)
{
    if (s[0] == '#' || (s[0] && is_blank(s[0])))
        return (size_t)-1;
    size_t n = 0;
    for (; s[n]; n++) {
        char ch = s[n];
        if (ch == ',' || ch == '"' || ch == '\r' || ch == '\n' || n >= max)
            return (size_t)-1;
    }
    return n > 0 && is_blank(s[n - 1]) ? (size_t)-1 : n;
}

void csvfield_put(FILE *fp, const char *s)
{
    if (csvfield_needs_quotes(s))
        csv_fwrite(fp, s, strlen(s));
    else
        fputs(s, fp);
}
