/*
 * sched/lp.h - the optimal multi-tree throughput of a pipelined broadcast on a
 * platform graph: the linear program (2) of Beaumont, Marchal & Robert
 * ("Broadcast trees for heterogeneous platforms", LIP RR-2004-46, §4.1),
 * built and solved with GLPK linked as a library.
 *
 * The value TP is the largest number of slices per time unit that the source
 * can broadcast under the bidirectional one-port model when the slices may
 * follow several trees at once (the MTP problem).  With
 * lp_limits.unidirectional the program has one port row per node (the
 * unidirectional one-port model, one-port-uni): its value is then an upper
 * bound of that model's throughput, not always reached (sched/lp.c).  No single tree does
 * better, so every tree heuristic is measured as a fraction of it.  The
 * per-edge counts n(u,v), slices per time unit on each edge, feed the
 * heuristics lp-prune and lp-grow (sched/pipeline.h) and can be drawn on the
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

#include <signal.h>
#include <stdbool.h>
#include "model/cluster.h"

#define LP_MAX_FLOW_VARIABLES 4000000L  /* lp_solve_broadcast_flows: refused beyond this */
#define LP_DEFAULT_TIME_LIMIT 10.0      /* wall-clock seconds of `run`'s solve (sched/pipeline.c) */
#define LP_DEFAULT_ITERATIONS 1000000L  /* simplex iterations of a solve, all rounds (lp_limits) */

/*
 * What a solve may spend.  Work first: simplex iterations over all rounds of
 * cuts (GLPK's it_lim, set to what is left before each round), and at most
 * LP_MAX_ROUNDS rounds; a solve within its work budget gives the same answer
 * on any machine, however loaded, and so a study sets no time.  A time
 * limit, for a person waiting at `run`, is wall-clock from the call, checked
 * inside GLPK's simplex (its tm_lim, set to what is left before each round)
 * and between the maximum flows of a round of cuts, so a solve stops within
 * a few hundredths of a second past the limit.  cancel, if set, is polled as
 * often (the simplex then runs in chunks of LP_CANCEL_ITERATIONS): a nonzero
 * value stops the solve with "cancelled".
 */
struct lp_limits {
    double time_limit;                      /* wall-clock seconds (<= 0: none) */
    long iterations;                        /* simplex iterations (<= 0: LP_DEFAULT_ITERATIONS) */
    const volatile sig_atomic_t *cancel;    /* NULL: never cancelled */
    bool unidirectional;                    /* the unidirectional one-port program: one
                                               port row per node, sends and receives
                                               together (sched/lp.c); an upper bound only */
};

struct lp_result {
    double throughput;  /* TP: slices per time unit (INFINITY with a single node) */
    int nedges;         /* = c->nedges */
    double *count;      /* count[k]: n(u,v) of edge k = max over destinations of its flow */
    double *busy;       /* busy[k] = count[k] * T(k): share of a time unit edge k is busy */
    int rows, cols;     /* size of the (last) program that was solved */
    int iterations;     /* simplex iterations, all rounds */
    int rounds;         /* lp_solve_broadcast: programs solved, rounds of cuts or
                           columns (1 for the flow form) */
};

/*
 * Solve LP (2) for c (a finished platform graph) from c->source, by
 * generating the cuts of its projection on (TP, n) and its columns n(e)
 * (sched/lp.c says how): the program GLPK sees has a column for each edge
 * that may carry slices, a few per node, not all |E|.  Returns 0 with *out filled (free
 * it with lp_result_free), or -1 with *cause.
 */
int lp_solve_broadcast(const struct cluster *c, struct lp_result *out, char **cause);
/* The same within lim (NULL: the defaults: no clock, LP_DEFAULT_ITERATIONS).
 * A solve that runs out of time or of iterations fails with a message that
 * says how far it got (rounds, and, once every edge is in the program, the
 * last round's value, an upper bound of TP) and names the heuristics that do not need it. */
int lp_solve_broadcast_limited(const struct cluster *c, const struct lp_limits *lim,
                               struct lp_result *out, char **cause);
/*
 * The same program built as the paper writes it, with all (n-1)|E| flow
 * variables x(w,e): the reference the tests check lp_solve_broadcast
 * against.  Same value; the counts may differ where the optimum is not
 * unique.  Minutes beyond a few hundred edges; refused beyond
 * LP_MAX_FLOW_VARIABLES.
 */
int lp_solve_broadcast_flows(const struct cluster *c, struct lp_result *out, char **cause);
/* The same, for the bidirectional (false) or unidirectional (true) one-port program. */
int lp_solve_broadcast_flows_model(const struct cluster *c, bool unidirectional,
                                   struct lp_result *out, char **cause);
/*
 * Write the flow form (bidirectional or unidirectional) to path as a CPLEX LP
 * file (glp_write_lp), for another solver: maximize TP, with the platform's
 * own times, so that the file's optimum is TP itself.  Saved atomically;
 * refused beyond LP_MAX_FLOW_VARIABLES.  0, or -1 with *cause.
 */
int lp_write_flows(const struct cluster *c, bool unidirectional, const char *path, char **cause);
void lp_result_free(struct lp_result *r);

#endif
