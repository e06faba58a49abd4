/*
 * output/report.h - results as text, CSV and JSON (SPEC §6).  Text is for people
 * (a table of transfers and a summary), CSV for spreadsheets and JSON in
 * exactly the shape the SPEC gives.
 */
#ifndef HETCAST_REPORT_H
#define HETCAST_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "session/run.h"

/* numfmt_shortest (support/numfmt.h: the shortest text that reads back as the same
 * double, "6", "2.5", "0.1", in the C locale) into one of 8 rotating static buffers (shared with
 * report_txt), so one printf can show several numbers (not reentrant: the
 * output code is single-threaded). */
const char *report_num(double x);
/* For people (text tables, the view): numfmt_text, at most 10 significant
 * digits, so a sum's rounding noise does not show (49.89, not
 * 49.890000000000015); CSV and JSON keep report_num's exact values. */
const char *report_txt(double x);

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
/* Several schedulers on one cluster. */
void report_compare_text(FILE *fp, const struct run *runs, int k, bool summary);
/* The "first difference: ..." line of two broadcasts (nothing for lean runs or exchanges). */
void report_first_difference(FILE *fp, const struct run *a, const struct run *b);
void report_compare_csv(FILE *fp, const struct run *runs, int k, bool summary);
void report_compare_json(FILE *fp, const struct run *runs, int k, bool summary);
/* The summary lines alone (the view shows them too). */
void report_summary_text(FILE *fp, const struct run *r);
/* "cluster: NAME (node table, 3 nodes, source p0, latency 1)": the first line of the text reports. */
void report_cluster_line(FILE *fp, const struct cluster *c);
/* A JSON string, quoting shared with the other reports (output/report_exchange.c);
 * their CSV fields go through csvfield_put (support/csvfield.h). */
void report_json_string(FILE *fp, const char *s);

#endif
