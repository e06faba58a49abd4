/*
 * output/report.h - results as text, CSV and JSON (SPEC §6).  Text is for people
 * (a table of transfers and a summary), CSV for spreadsheets and JSON in
 * the shape the SPEC gives, with the format's version first and every time
 * of the CSV in each transfer.
 */
#ifndef HETCAST_REPORT_H
#define HETCAST_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "output/spool.h"
#include "session/run.h"

/*
 * The version of the CSV and JSON outputs (run, compare, compare --trace,
 * exchanges, the view's schedule CSV, class report): every JSON output is an
 * object that starts with "format_version": N, "hetcast": "VERSION"; every
 * CSV table with the lines "# format_version: N" and "# hetcast: VERSION".
 * Raised by one whenever a column or field changes meaning or goes away
 * (added ones too), and docs/formats.md says what changed.
 */
#define REPORT_FORMAT_VERSION 2
/* "# format_version: N\n# hetcast: VERSION\n", the first two lines of every CSV table. */
void report_csv_version(FILE *fp);
/* {"format_version": N, "hetcast": "VERSION"  -- the opening of every JSON output: the caller
 * goes on with ", \"field\": ..." and closes the object. */
void report_json_open(FILE *fp);

void report_run_text(FILE *fp, const struct run *r, bool summary);
void report_run_csv(FILE *fp, const struct run *r, bool summary, bool header);
/* report_run_csv's table written as a lean run books (engine_book_fn): the
 * header before the first row, then each row as report_run_csv writes it.
 * struct report_csv_stream is the callback's ctx; `rows` counts them. */
struct report_csv_stream {
    FILE *fp;
    const struct cluster *c;
    const char *sched;   /* the scheduler's name */
    long long rows;
};
void report_csv_stream_book(void *ctx, int seq, int from, int to, const struct timing *tm);
void report_run_json(FILE *fp, const struct run *r, bool summary);
/* report_run_json of a lean run whose bookings are in sp (output/spool.h):
 * the same bytes.  0, or -1 with *cause when the spool failed. */
int report_run_json_spool(FILE *fp, const struct run *r, struct spool *sp, char **cause);
/* Several schedulers on one cluster. */
void report_compare_text(FILE *fp, const struct run *runs, int k, bool summary);
/* The "first difference: ..." line of two broadcasts (nothing for lean runs or exchanges). */
void report_first_difference(FILE *fp, const struct run *a, const struct run *b);
void report_compare_csv(FILE *fp, const struct run *runs, int k, bool summary);
void report_compare_json(FILE *fp, const struct run *runs, int k, bool summary);
/* "cluster: NAME (node table, 3 nodes, source p0, latency 1)": the first line of the text reports. */
void report_cluster_line(FILE *fp, const struct cluster *c);
/* A JSON string, quoting shared with the other reports (output/report_exchange.c);
 * their CSV fields go through csvfield_put (support/csvfield.h). */
void report_json_string(FILE *fp, const char *s);

#endif
