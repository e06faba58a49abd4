/*
 * app/bench.h - `hetcast bench`: hetcast's speed, measured on generated inputs
 * and printed one figure a line (docs/performance.md reads them).
 *
 * Figures: the engine with fnf on 10^3..10^7 nodes (LogGOPSim's
 * "PERFORMANCE: nodes events seconds events/s bytes/node"), loading a CSV of
 * 10^6 nodes, the exact optimum's reach within 1 s and 10 s, the LP of the
 * pipelined broadcast, one frame of the view, and a 1000-node all-to-all.
 * The core has no view: the front end (ui/) passes one in through
 * struct bench_view_ops, and without it that figure is skipped.
 */
#ifndef HETCAST_BENCH_H
#define HETCAST_BENCH_H

/* The view, as far as the bench needs it: open it on a cluster file (its fnf
 * schedule, stepped half way), draw frames into its cell buffer, close it. */
struct bench_view_ops {
    void *(*open)(const char *file, int width, int height, char **cause);   /* NULL: failed */
    void (*draw)(void *view);
    int (*events)(void *view);   /* events of the schedule shown */
    void (*close)(void *view);
};

/* argv[0] is the first option after "bench".  Returns an exit status. */
int bench_main(int argc, char **argv, const struct bench_view_ops *view);

#endif
