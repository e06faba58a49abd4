/*
 * model/csvread_fast.h - numbers of docs/formats.md's syntax (model/csvread.h)
 * without strtod or the locale, for the short decimals that cluster files
 * and traces are full of; anything else is left to strtod.  The CSV loader
 * (model/cluster_csv.c) and csvread_number use it; tests/test_fastpaths.c
 * and the CSV fuzz harness load files both ways and compare the clusters.
 */
#ifndef HETCAST_CSVREAD_FAST_H
#define HETCAST_CSVREAD_FAST_H

#include <stdbool.h>

/*
 * The number syntax of docs/formats.md with at most 15 significant digits and a power
 * of ten within 22: the very double strtod gives (Clinger's fast path),
 * without strtod or the locale.  True with *out set; false for anything
 * else (then strtod decides, and says what is wrong).
 */
bool csvread_fast_decimal(const char *s, double *out);

#endif
