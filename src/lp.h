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

#define LP_MAX_FLOW_VARIABLES 4000000L  /* lp_solve_broadcast_flows: refused beyond this */

struct lp_result {
    double throughput;  /* TP: slices per time unit (INFINITY with a single node) */
    int nedges;         /* = c->nedges */
    double *count;      /* count[k]: n(u,v) of edge k = max over destinations of its flow */
    double *busy;       /* busy[k] = count[k] * T(k): share of a time unit edge k is busy */
    int rows, cols;     /* size of the (last) program that was solved */
    int iterations;     /* simplex iterations, all rounds */
    int rounds;         /* lp_solve_broadcast: rounds of cuts (1 for the flow form) */
};

/*
 * Solve LP (2) for c (a finished platform graph) from c->source, by
 * generating the cuts of its projection on (TP, n) (lp.c says how): the
 * program GLPK sees has |E| + 1 columns.  Returns 0 with *out filled (free
 * it with lp_result_free), or -1 with *cause.
 */
int lp_solve_broadcast(const struct cluster *c, struct lp_result *out, char **cause);
/*
 * The same program built as the paper writes it, with all (n-1)|E| flow
 * variables x(w,e): the reference the tests check lp_solve_broadcast
 * against.  Same value; the counts may differ where the optimum is not
 * unique.  Minutes beyond a few hundred edges; refused beyond
 * LP_MAX_FLOW_VARIABLES.
 */
int lp_solve_broadcast_flows(const struct cluster *c, struct lp_result *out, char **cause);
void lp_result_free(struct lp_result *r);

#endif
