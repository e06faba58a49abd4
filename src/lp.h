/*
 * lp.h - the optimal multi-tree throughput of a pipelined broadcast on a
 * platform graph: the linear program (2) of Beaumont, Marchal & Robert
 * ("Broadcast trees for heterogeneous platforms", LIP RR-2004-46, §4.1),
 * built and solved with GLPK linked as a library.
 *
 * The value TP is the largest number of slices per time unit that the source
 * can broadcast under the bidirectional one-port model when the slices may
 * follow several trees at once (the MTP problem).  No single tree does
 * better, so every tree heuristic is measured as a fraction of it.  The
 * per-edge counts n(u,v), slices per time unit on each edge, feed the
 * heuristics lp-prune and lp-grow (pipeline.h) and can be drawn on the
 * platform.
 *
 * A failure (not a platform graph, a problem too large, a solver failure) is
 * a message in *cause, never an abort: GLPK's own errors are caught with
 * glp_error_hook.  Each call releases the calling thread's GLPK environment
 * when it is done (glp_free_env), so no GLPK object may be kept across a
 * call; solving in several threads at once is safe (GLPK's environment is
 * thread-local).
 */
#ifndef HETCAST_LP_H
#define HETCAST_LP_H

#include "cluster.h"

#define LP_MAX_VARIABLES 4000000L   /* refused beyond this: (n-1) * edges flow variables */

struct lp_result {
    double throughput;  /* TP: slices per time unit (INFINITY with a single node) */
    int nedges;         /* = c->nedges */
    double *count;      /* count[k]: n(u,v) of edge k = max over destinations of its flow */
    double *busy;       /* busy[k] = count[k] * T(k): share of a time unit edge k is busy */
    int rows, cols;     /* size of the program that was solved */
    int iterations;     /* simplex iterations */
};

/*
 * Build and solve LP (2) for c (a finished platform graph) from c->source.
 * Returns 0 with *out filled (free it with lp_result_free), or -1 with *cause.
 */
int lp_solve_broadcast(const struct cluster *c, struct lp_result *out, char **cause);
void lp_result_free(struct lp_result *r);

#endif
