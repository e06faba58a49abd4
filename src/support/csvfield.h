/*
 * support/csvfield.h - the one CSV field writer: cluster files (model/cluster_csv.c), the
 * CSV reports (output/report.c, output/report_exchange.c) and the schedule export
 * (output/export.c) quote by the same rule, so whatever they write loads back
 * through the loader (libcsv) as the same text.
 */
#ifndef HETCAST_CSVFIELD_H
#define HETCAST_CSVFIELD_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Does s need quotes?  When it holds a comma, a quote, a CR or a LF; when
 * it starts or ends with a blank (space, tab, CR, LF, FF, VT: libcsv trims
 * them); when it starts with '#' (a comment line to the loader).  The empty
 * field is written bare: between commas it reads back as empty (a record of
 * one empty field, a blank line, is never written).
 */
bool csvfield_needs_quotes(const char *s);

/* s's length if it is written bare (it needs no quotes) and is at most max
 * bytes long, else (size_t)-1: one pass, for writers that build a line. */
size_t csvfield_bare_len(const char *s, size_t max);

/* s as one field: bare, or quoted by libcsv (csv_fwrite: "" for a quote). */
void csvfield_put(FILE *fp, const char *s);

#endif
