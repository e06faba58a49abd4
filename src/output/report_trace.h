/*
 * output/report_trace.h - a measured trace beside its prediction (session/trace.h) as
 * text, CSV and JSON: per transfer the predicted and the measured start
 * and hold time and how far apart they are, per scheduler the makespan
 * error, absolute and in percent of the prediction.  `hetcast compare
 * FILE --trace T` prints them (docs/cli.md).
 *
 * runs holds k pairs: runs[2i] a predicted run, runs[2i + 1] its measured
 * run (trace_measure), transfer j of one the same transfer as j of the other.
 */
#ifndef HETCAST_REPORT_TRACE_H
#define HETCAST_REPORT_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "session/run.h"
#include "session/trace.h"

void report_trace_text(FILE *fp, const struct trace *t, const struct run *runs, int k, bool summary);
void report_trace_csv(FILE *fp, const struct trace *t, const struct run *runs, int k, bool summary);
void report_trace_json(FILE *fp, const struct trace *t, const struct run *runs, int k, bool summary);

#endif
