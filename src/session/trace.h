/*
 * session/trace.h - measured timelines beside predicted ones.  A trace is a CSV
 * file in the columns of `hetcast run --format csv` (docs/formats.md,
 * "Measured traces"): one row per transfer that a real run made
 * (hetcast-mpi exec writes them; docs/mpi.md), with its times in the
 * cluster's time unit, `#` comment lines for its provenance, and perhaps
 * the rows of several schedulers (the scheduler column).
 *
 * trace_load reads it against a cluster: every node name known, every
 * number a time, no interval ending before it starts.  trace_select picks
 * the rows that go with a scheduler, and trace_measure pairs them with the
 * predicted run's transfers by (from, to) -- a broadcast sends to each node
 * once -- and, when the trace has a seq column, checks the seq (the same
 * pairs in another order are another schedule), into a measured run (session/run.h: measured) on the same cluster and
 * model, so that every report, picture and the view show it as they show
 * a prediction.  Problems go into a struct diag, each naming the file, the
 * line and what is wrong.
 */
#ifndef HETCAST_TRACE_H
#define HETCAST_TRACE_H

#include <stdbool.h>

#include "model/cluster.h"
#include "support/diag.h"
#include "session/run.h"

/* The times of a row, in the order of the schedule CSV's columns. */
enum trace_time {
    TRACE_SEND_START = 0, TRACE_SEND_END, TRACE_LINK_START, TRACE_LINK_END, TRACE_RECV_START,
    TRACE_RECV_END, TRACE_HOLD,
    TRACE_NTIMES
};

struct trace_row {
    int line;               /* the file line it was on */
    int group;              /* its scheduler: an index into trace.groups */
    long seq;               /* the seq column (the row's place in its group when absent) */
    int from, to;           /* nodes of the cluster */
    double t[TRACE_NTIMES];
};

struct trace {
    char *file;             /* as given, for messages */
    struct trace_row *rows; /* in the file's order */
    int nrows, cap;
    char **groups;          /* the scheduler column's names, first appearance first ("" when
                               the column is missing or empty) */
    int *group_line;        /* the line where each first appears */
    int ngroups;
    char **notes;           /* the comment lines (provenance) without their '#', as written */
    int nnotes;
};


/*
 * Read the trace at path against cluster c.  Returns 0, or -1 with every
 * problem in d (one line each: "file:line: column: problem"; t then holds
 * nothing to free).
 */
int trace_load(struct trace *t, const char *path, const struct cluster *c, struct diag *d);
void trace_free(struct trace *t);

/*
 * The group of rows to compare with scheduler name (a scheduler's ops
 * name): the group of that name; else, when the trace has one group whose
 * name is no scheduler's (a run named otherwise, or no scheduler column),
 * that one.  Returns the group, or -1 with *cause saying which schedulers
 * the trace holds.
 */
int trace_select(const struct trace *t, const char *name, char **cause);

/*
 * The measured run of group g against the predicted run pred (a broadcast
 * of one message with its transfer records): out gets pred's cluster,
 * model, bounds and scheduler, measured = true, and transfer i the
 * measured times of pred's transfer i, with a reason that says how far it
 * is from the prediction.  Every predicted transfer must be in the group
 * and every row of the group in the prediction.  Returns 0, or -1 with the
 * problems in d (out then needs no run_free).  O(rows + transfers).
 */
int trace_measure(const struct trace *t, int g, const struct run *pred, struct run *out,
                  struct diag *d);

/* measured - predicted to the 12 significant digits of the larger of the two:
 * 6.01 - 6 is 0.01, not 0.009999999999999787 (what a trace's numbers hold
 * beyond that is the subtraction's rounding, not a measurement). */
double trace_diff(double measured, double predicted);

/* How far a measured run is from its prediction at the end. */
struct trace_error {
    double predicted, measured;   /* the makespans */
    double error;                 /* measured - predicted */
    double percent;               /* 100 * error / predicted (NAN when predicted is 0) */
};
struct trace_error trace_makespan_error(const struct run *pred, const struct run *meas);

#endif
