/*
 * model/cluster_csv_fast.h - the CSV loader's fast paths (model/cluster_csv.c), beside its readable
 * paths (libcsv for every line, strtod for every number): a plain line
 * split by hand exactly as libcsv splits it, the short decimals read
 * without strtod to the same double, and the name column of a line ahead
 * found for the name table's prefetch.  The loader uses them when
 * fastpath_on() (support/fastpath.h); tests/test_fastpaths.c and the CSV fuzz
 * harness check both ways give the same cluster and the same messages.
 * docs/performance.md ("Fast paths") has the measurements.
 */
#ifndef HETCAST_CSV_FAST_H
#define HETCAST_CSV_FAST_H

#include <stdbool.h>
#include <stddef.h>

/*
 * One record's fields, the text of all in one reused buffer, each
 * NUL-terminated: no allocation per field or row.  While libcsv assembles
 * a record, off[i] is where field i starts in text; once it is complete,
 * field[i] points into text and len[i] is its length.
 */
struct csv_record {
    char **field;
    size_t *len;
    size_t *off;
    int n;          /* fields */
    int cap;        /* room in field, len, off */
    char *text;
    size_t text_len, text_cap;
};

void csv_record_room(struct csv_record *r, size_t nfields);   /* room for nfields */
void csv_record_text_room(struct csv_record *r, size_t bytes); /* room for bytes of text */
void csv_record_free(struct csv_record *r);

/*
 * A line without a quote or a carriage return (but for a final CR LF),
 * split at the commas with blanks and tabs trimmed off each field, exactly
 * as libcsv (CSV_STRICT) splits it, into r (complete: field and len set).
 * s holds avail > 0 bytes from the line's start.  Returns the bytes the
 * line took with its line end, or 0 (r's fields then undefined) for a line
 * only libcsv can read: a quote, a bare CR, a NUL.  O(line).
 */
size_t csv_fast_split(struct csv_record *r, const char *s, size_t avail);

/*
 * The SPEC's number syntax with at most 15 significant digits and a power
 * of ten within 22: the very double strtod gives (Clinger's fast path),
 * without strtod or the locale.  True with *out set; false for anything
 * else (then strtod decides, and says what is wrong).
 */
bool csv_fast_decimal(const char *s, double *out);

/*
 * Field `col` (0-based) of the line at s, trimmed as libcsv trims it, as
 * *a .. *b (both NULL when the line has fewer fields); returns where the
 * next line starts (or end).  A plain reading: a quoted field comes out
 * with its quotes.  For prefetching only.
 */
const char *csv_fast_field(const char *s, const char *end, int col, const char **a,
                           const char **b);

#endif
