/*
 * support/numfmt_fast.h - support/numfmt.c's numbers without snprintf and strtod, beside
 * support/numfmt.c's readable loop (snprintf "%.*g" and strtod for each precision
 * from 6 to 17: up to 12 pairs, about 5 us, for the sums of two-decimal
 * times that the reports are full of).  Same text, byte for byte:
 * tests/test_fastpaths.c compares both on millions of random doubles.
 *
 * How: a double is m 2^e exactly (m < 2^53); for a precision P and the
 * decimal exponent X of x, x 10^(P-1-X) is a fraction num / den of 128-bit
 * integers (den a power of two, times a power of ten for large x), so the
 * P digits that "%.Pg" prints are that fraction rounded half to even, as
 * glibc's printf rounds the exact binary value; and whether those digits
 * read back as x (strtod rounds half to even) is a comparison of the
 * distance to x with half the gap to x's neighbours, in the same integers.
 * Whether P digits read back grows with P except at a power of two (whose
 * lower gap is half its upper one), so the least P is found by a binary
 * search, and by trying every P at a power of two.  The text is then laid
 * out as %g lays it out (style e below 10^-4 or from 10^P, trailing zeros
 * dropped, an exponent of at least two digits).
 *
 * Taken for normal doubles from about 10^-21 to 10^36; anything else (0,
 * subnormals, inf, nan, larger or smaller numbers) is left to the readable
 * path (the functions return 0).
 */
#ifndef HETCAST_NUMFMT_FAST_H
#define HETCAST_NUMFMT_FAST_H

#include "support/numfmt.h"

/* "%.*g" with the fewest precision in lo..17 that reads back as x, into
 * buf: 1, or 0 if x is not taken (buf is then unspecified). */
int numfmt_fast_shortest(char buf[NUMFMT_SIZE], double x, int lo);
/* "%.*g" with precision p (1..17): 1, or 0 if x is not taken. */
int numfmt_fast_g(char buf[NUMFMT_SIZE], double x, int p);

#endif
