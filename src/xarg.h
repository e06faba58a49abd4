/*
 * xarg.h - the option values of `hetcast experiment` studies: each parser
 * prints one message naming the option, the value and what was expected,
 * and returns 2 (the exit status for bad usage), or 0 when the value is good.
 */
#ifndef HETCAST_XARG_H
#define HETCAST_XARG_H

#include <stdbool.h>

/* Print `hetcast experiment: OPT: "VAL" is not WANT`; returns 2. */
int xarg_fail(const char *opt, const char *val, const char *want);
/* An integer in [lo, hi]. */
int xarg_long(const char *opt, const char *s, long lo, long hi, long *out);
/* A finite number >= lo. */
int xarg_double(const char *opt, const char *s, double lo, double *out);
/* N or LO:HI, integers in [lo, hi] with LO <= HI. */
int xarg_range(const char *opt, const char *s, long lo, long hi, long *first, long *last);
/* text or csv. */
int xarg_format(const char *opt, const char *s, bool *csv);

#endif
