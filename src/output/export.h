/*
 * output/export.h - a schedule as a picture and as a table: SVG (the Gantt chart
 * of send, link and receive occupation plus the broadcast tree, for slides)
 * and the schedule as CSV.  Used by `hetcast run FILE --format svg` and by
 * the view's `e` key.  Also the tree layout both the SVG and the view draw:
 * depth-first order and the critical path.
 *
 * Files are written through support/atomic.h (a temporary file beside the target,
 * fsync, rename), so a failed export never leaves half a file behind.
 */
#ifndef HETCAST_EXPORT_H
#define HETCAST_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "engine/engine.h"
#include "output/spool.h"
#include "session/run.h"

/* Writes something to fp; returns 0 or -1 (fp's error state is checked too). */
typedef int (*export_writer)(FILE *fp, void *ctx);

/*
 * The broadcast tree of message 0 in display order: depth-first from the
 * source, children in booking order.  order[i] is a node, depth[i] its depth
 * (both arrays of e->n entries; depth may be NULL).  Nodes never reached are
 * left out.  Returns the number of nodes listed.  O(n + transfers).
 */
int export_tree_order(const struct engine *e, int *order, int *depth);

/*
 * The critical path: the chain of transfers back from the node whose hold
 * time sets the makespan (ties: lowest index), each step starting when its
 * predecessor ends: the transfer into its sender (the sender's hold), or
 * an earlier send of the same sender that held its send port until then (a
 * port wait).  mark[p] = CRIT_WHOLE for the source and every node whose
 * hold is on the path (the transfer into it is), CRIT_SEND for a node whose
 * incoming transfer is on it by its send alone (a port wait), 0 otherwise.
 * Returns that last node, or -1 if no transfer was booked.  O(n + transfers^2)
 * at worst (a port chain is looked up send by send).
 */
#define CRIT_WHOLE 1
#define CRIT_SEND 2
int export_critical_path(const struct engine *e, unsigned char *mark);
/* The same for a lean run whose bookings are in sp (output/spool.h); sp NULL:
 * export_critical_path.  A lean run without a spool: the tree chain alone. */
struct spool;
int export_critical_path_spool(const struct engine *e, struct spool *sp, unsigned char *mark);

/* A round tick step (1, 2 or 5 times a power of ten) giving at most max_ticks ticks over span. */
double export_nice_step(double span, int max_ticks);

/* k runs on the same cluster (k >= 1), stacked on one time axis, each with its tree.
 * A measured run (session/run.h) right after its prediction is drawn with the
 * prediction as dashed outlines under its bars, and the subtitle gives its
 * makespan error (hetcast compare --trace). */
int export_svg(FILE *fp, const struct run *runs, int k);

/* What a slide holds: the parts and the nodes of the picture. */
enum svg_parts { SVG_BOTH = 0, SVG_GANTT, SVG_TREE };
struct svg_opts {
    enum svg_parts parts;       /* the Gantt charts, the trees, or both (default) */
    const unsigned char *keep;  /* per node: 1 to draw it (NULL: every node up to 40, else the
                                   source, the critical paths and the latest to hold it) */
    bool critical;              /* only the source and each run's critical path (keep ignored) */
};
/* export_svg with options (o NULL: the defaults). */
int export_svg_opts(FILE *fp, const struct run *runs, int k, const struct svg_opts *o);
/* export_svg_opts of one lean run whose bookings are in sp (output/spool.h):
 * the same picture, byte for byte.  0, or -1 with *cause. */
int export_svg_spool(FILE *fp, const struct run *r, const struct svg_opts *o, struct spool *sp,
                     char **cause);

/* One row per transfer: seq,from,to,send_start,...,hold,reason (RFC 4180 quoting). */
int export_schedule_csv(FILE *fp, const struct run *r);

/* Write path through support/atomic.h (mode kept, file and directory synced). 0 or -1 with *cause. */
int export_to_file(const char *path, export_writer w, void *ctx, char **cause);

/*
 * The view's export: STEM.svg (all k runs) and STEM.csv (the first run's
 * schedule), e.g. stem "counterexample-fnf".  On success the two names are
 * copied to svg_path and csv_path.  0, or -1 with *cause (nothing is left
 * half-written; an SVG already renamed stays).
 */
int export_files(const struct run *runs, int k, const char *stem, char *svg_path,
                 size_t svg_size, char *csv_path, size_t csv_size, char **cause);

#endif
