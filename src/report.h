/*
 * report.h - results as text, CSV and JSON (SPEC §6).  Text is for people
 * (a table of transfers and a summary), CSV for spreadsheets and JSON in
 * exactly the shape the SPEC gives.
 */
#ifndef HETCAST_REPORT_H
#define HETCAST_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "run.h"

enum report_format { REPORT_TEXT, REPORT_CSV, REPORT_JSON, REPORT_SVG };

/* Shortest text that reads back as the same double ("6", "2.5", "0.1"). */
void fmt_num(char *buf, size_t size, double x);
/* fmt_num into one of 8 rotating static buffers (shared with report_txt),
 * so one printf can show several numbers (not reentrant: the output code is
 * single-threaded). */
const char *report_num(double x);
/* For people (text tables, the view): at most 10 significant digits, so a
 * sum's rounding noise does not show (49.89, not 49.890000000000015);
 * CSV and JSON keep report_num's exact values. */
void fmt_num_text(char *buf, size_t size, double x);
const char *report_txt(double x);

void report_run_text(FILE *fp, const struct run *r, bool summary);
void report_run_csv(FILE *fp, const struct run *r, bool summary, bool header);
void report_run_json(FILE *fp, const struct run *r, bool summary);
/* Several schedulers on one cluster. */
void report_compare_text(FILE *fp, const struct run *runs, int k, bool summary);
/* The "first difference: ..." line of two broadcasts (nothing for lean runs or exchanges). */
void report_first_difference(FILE *fp, const struct run *a, const struct run *b);
void report_compare_csv(FILE *fp, const struct run *runs, int k, bool summary);
void report_compare_json(FILE *fp, const struct run *runs, int k, bool summary);
/* The summary lines alone (the view shows them too). */
void report_summary_text(FILE *fp, const struct run *r);
/* Quoting shared with the other reports (report_exchange.c): a JSON string, a CSV field. */
void report_json_string(FILE *fp, const char *s);
void report_csv_field(FILE *fp, const char *s);

#endif
