/*
 * xarg.c - parsing the option values of the experiment studies (xarg.h).
 */
#include "xarg.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int xarg_fail(const char *opt, const char *val, const char *want)
{
    fprintf(stderr, "hetcast experiment: %s: \"%s\" is not %s\n", opt, val, want);
    return 2;
}

int xarg_long(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (!*s || *end || errno || x < lo || x > hi) {
        char want[96];
        snprintf(want, sizeof want, "an integer from %ld to %ld", lo, hi);
        return xarg_fail(opt, s, want);
    }
    *out = x;
    return 0;
}

int xarg_double(const char *opt, const char *s, double lo, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (!*s || *end || errno || !isfinite(x) || x < lo) {
        char want[64];
        snprintf(want, sizeof want, "a number >= %g", lo);
        return xarg_fail(opt, s, want);
    }
    *out = x;
    return 0;
}

int xarg_range(const char *opt, const char *s, long lo, long hi, long *first, long *last)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon = '\0';
    if (xarg_long(opt, buf, lo, hi, first))
        return 2;
    return xarg_long(opt, colon ? colon + 1 : buf, *first, hi, last);
}

int xarg_format(const char *opt, const char *s, bool *csv)
{
    if (strcmp(s, "text") != 0 && strcmp(s, "csv") != 0)
        return xarg_fail(opt, s, "text or csv");
    *csv = strcmp(s, "csv") == 0;
    return 0;
}
