/*
 * model/cluster_csv_fast.h - the CSV loader's fast paths (model/cluster_csv.c), beside its readable
 * paths (libcsv for every line, strtod for every number): a plain line
 * split by hand exactly as libcsv splits it, and the name column of a line
 * ahead found for the name table's prefetch (the short decimals read
 * without strtod are model/csvread_fast.h's).  The loader uses them when
 * FAST_PATH (support/fastpath.h); tests/test_fastpaths.c and the CSV fuzz
 * harness check both ways give the same cluster and the same messages.
 * docs/performance.md ("Fast paths") has the measurements.
 */
#ifndef HETCAST_CSV_FAST_H
#define HETCAST_CSV_FAST_H

#include <stdbool.h>
#include <stddef.h>

#include "model/csvread.h"   /* struct csv_record */

/*
 * A line without a quote or a carriage return (but for a final CR LF),
 * split at the commas with blanks and tabs trimmed off each field, exactly
 * as libcsv (CSV_STRICT) splits it, into r (complete: field and len set).
 * s holds avail > 0 bytes from the line's start.  Returns the bytes the
 * line took with its line end, or 0 (r's fields then undefined) for a line
 * only libcsv can read: a quote, a bare CR, a NUL.  O(line).
 */
size_t cluster_csv_fast_split(struct csv_record *r, const char *s, size_t avail);

/*
 * Field `col` (0-based) of the line at s, trimmed as libcsv trims it, as
 * *a .. *b (both NULL when the line has fewer fields); returns where the
 * next line starts (or end).  A plain reading: a quoted field comes out
 * with its quotes.  For prefetching only.
 */
const char *cluster_csv_fast_field(const char *s, const char *end, int col, const char **a,
                           const char **b);

#endif
