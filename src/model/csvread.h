/*
 * model/csvread.h - reading CSV, below the cluster loader (model/cluster_csv.c):
 * a whole input read within the cluster files' limits, the record that
 * libcsv's fields are gathered in, and the number syntax of docs/formats.md, which the
 * loader uses too; and CSV tables other than clusters (the measured traces
 * of session/trace.h), read with libcsv the way the cluster loader reads:
 * lines starting with '#' are comments (handed to the caller, not parsed),
 * blank lines are skipped, every record comes with the file line it starts
 * on, and a problem of the CSV itself (a malformed quote, a quote not
 * closed, a NUL byte) is one diag error naming the file and the line.
 * Reading goes on after such a line, so one run lists every problem.
 * Numbers are read in the C locale whatever setlocale() the view made.
 */
#ifndef HETCAST_CSVREAD_H
#define HETCAST_CSVREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "support/diag.h"

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

void csvread_record_room(struct csv_record *r, size_t nfields);   /* room for nfields */
void csvread_record_text_room(struct csv_record *r, size_t bytes); /* room for bytes of text */
void csvread_record_free(struct csv_record *r);

/* One record: r->field[0 .. r->n) (NUL-terminated, trimmed as libcsv trims). */
typedef void (*csvread_record_fn)(void *ctx, int line, const struct csv_record *r);
/* One comment line: text after the '#', without the line end (not NUL-terminated). */
typedef void (*csvread_comment_fn)(void *ctx, int line, const char *text, size_t len);

/*
 * A whole CSV input read from fp to its end within CLUSTER_MAX_CSV_BYTES
 * and CLUSTER_MAX_CSV_LINE (model/cluster.h): the buffer (the caller frees
 * it) and *len, or NULL after a message naming name.  Sized from the file
 * when fp is one (a file that grows meanwhile still reads whole), so that
 * a large file is read into one buffer, on huge pages, without a copy.
 */
char *csvread_text(FILE *fp, const char *name, size_t *len, struct diag *d);

/* The records of the file at path, read as csvread_text reads; -1 after an
 * error in d when it cannot be read. */
int csvread_file(const char *path, csvread_record_fn on_record, csvread_comment_fn on_comment,
                 void *ctx, struct diag *d);

/*
 * The numbers of docs/formats.md: [+-] digits [. digits] [(e|E) [+-] digits], with at
 * least one digit before the exponent; refuses what strtod would otherwise
 * take (hex, inf, nan, blanks, trailing text).
 */
bool csvread_number_syntax(const char *s);

/* s as a finite number of that syntax, read in the C locale: true with *out set. */
bool csvread_number(const char *s, double *out);

#endif
