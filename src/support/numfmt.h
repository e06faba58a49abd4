/*
 * support/numfmt.h - the one number formatter of everything hetcast writes
 * (reports, exports, cluster files): the shortest decimal that reads back
 * to the same double, always in the C locale (a decimal point, whatever
 * setlocale() the view made), and the rounded forms for people.
 */
#ifndef HETCAST_NUMFMT_H
#define HETCAST_NUMFMT_H

#include <stddef.h>

#define NUMFMT_SIZE 32   /* bytes a formatted number needs, NUL included */

/* The fewest of 6..17 significant digits, as %g writes them, that read
 * back as x: "6", "2.5", "0.1", "1e+06", "0.30000000000000004"; "inf",
 * "-inf", "nan" for those.  Returns buf.  Cost: on the fast path
 * (support/numfmt_fast.h) 2 to 5 tries in integers, about 60 ns; else up to 12
 * snprintf and strtod pairs (one for most numbers people type). */
char *numfmt_shortest(char buf[NUMFMT_SIZE], double x);

/* For people (text tables, the view): numfmt_shortest, but at most 10
 * significant digits when that is longer than 12 characters, so a sum's
 * rounding does not show (49.89, not 49.890000000000015). */
char *numfmt_text(char buf[NUMFMT_SIZE], double x);

/* For cluster files: 0 (and -0) as "0", integers below 10^15 plainly
 * ("1000000"), others with the fewest of 15..17 digits that read back (as
 * earlier versions wrote them; equal to numfmt_shortest but for
 * subnormals).  x must be finite. */
char *numfmt_plain(char buf[NUMFMT_SIZE], double x);

/* x to `digits` significant digits (1..17), as that decimal reads back:
 * numfmt_round(0.37499999999999983, 12) == 0.375. */
double numfmt_round(double x, int digits);

/* numfmt_shortest and numfmt_text into one of 8 rotating static buffers
 * (shared by the two), so one printf can show several numbers: a ninth
 * call overwrites the first (not reentrant: hetcast is single-threaded).
 * numfmt_txt is for people (reports, explanations, the view); numfmt_num
 * keeps every digit (CSV, JSON, exports). */
const char *numfmt_num(double x);
const char *numfmt_txt(double x);

/* numfmt_num's text of x through a cache of 4096 slots keyed by x's bits,
 * for writers of long tables whose times repeat (the rows of one sender,
 * the ties of a run): the text is a function of the bits alone.  *len gets
 * its length.  The text stays until a call with another x lands in its
 * slot: copy it before the next call. */
const char *numfmt_num_cached(double x, size_t *len);
/* The same for numfmt_num(numfmt_round(x * scale, 12)) (Chrome's microseconds), its own
 * 4096 slots keyed by x's bits and scale. */
const char *numfmt_scaled_cached(double x, double scale, size_t *len);

#endif
