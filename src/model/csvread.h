/*
 * model/csvread.h - CSV tables other than clusters (the measured traces of
 * session/trace.h), read with libcsv the way the cluster loader (model/cluster_csv.c) reads:
 * lines starting with '#' are comments (handed to the caller, not parsed),
 * blank lines are skipped, every record comes with the file line it starts
 * on, and a problem of the CSV itself (a malformed quote, a quote not
 * closed, a NUL byte) is one diag error naming the file and the line.
 * Reading goes on after such a line, so one run lists every problem.
 *
 * Also the SPEC's number syntax, which the cluster loader shares: numbers
 * are read in the C locale whatever setlocale() the view made.
 */
#ifndef HETCAST_CSVREAD_H
#define HETCAST_CSVREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "model/cluster_csv_fast.h"
#include "support/diag.h"

/* One record: r->field[0 .. r->n) (NUL-terminated, trimmed as libcsv trims). */
typedef void (*csvread_record_fn)(void *ctx, int line, const struct csv_record *r);
/* One comment line: text after the '#', without the line end (not NUL-terminated). */
typedef void (*csvread_comment_fn)(void *ctx, int line, const char *text, size_t len);

/*
 * The records of buf[0 .. len) (a UTF-8 byte order mark skipped), in order;
 * on_comment may be NULL.  name is the file in messages.  Returns the
 * number of errors added to d.  O(len).
 */
int csvread_buffer(const char *name, const char *buf, size_t len, csvread_record_fn on_record,
                   csvread_comment_fn on_comment, void *ctx, struct diag *d);

/* The same from the file at path, read within the cluster files' limits
 * (cluster_read_csv_text); -1 after an error in d when it cannot be read. */
int csvread_file(const char *path, csvread_record_fn on_record, csvread_comment_fn on_comment,
                 void *ctx, struct diag *d);

/*
 * The SPEC's numbers: [+-] digits [. digits] [(e|E) [+-] digits], with at
 * least one digit before the exponent; refuses what strtod would otherwise
 * take (hex, inf, nan, blanks, trailing text).
 */
bool csvread_number_syntax(const char *s);

/* s as a finite number of that syntax, read in the C locale: true with *out set. */
bool csvread_number(const char *s, double *out);

#endif
