/*
 * sched/pipeline.h - pipelined broadcast on a platform graph (SPEC §3; Beaumont,
 * Marchal & Robert, "Broadcast trees for heterogeneous platforms", LIP
 * RR-2004-46).
 *
 * The message is cut into K slices that follow one spanning tree of the
 * platform, rooted at the source, one after the other.  A tree heuristic
 * picks the tree; its throughput (slices per time unit in steady state) is
 *
 *   one-port      1 / max_u sum_{v child of u} T(u,v)
 *   multi-port    1 / max_u max(sum_{v child of u} send(u,v), max_v T(u,v))
 *   one-port-uni  1 / max_u (T(parent(u),u) + sum_{v child of u} T(u,v))
 *
 * where send(u,v) is u's multi-port send time (the edge's time when u has
 * none), so the multi-port formula is SPEC §3's children(u) * send_u when
 * every edge of u has the same send time.  The optimum over several trees at
 * once is the value of the linear program (2) (sched/lp.h); every heuristic is
 * reported as a fraction of it.
 *
 * Each heuristic is also a scheduler (sched/sched.h).  Its prepare() builds the
 * tree, solves the LP, and turns the engine into a K-slice broadcast
 * (messages 0..K-1, all held by the source at time 0).  Every node sends
 * slice after slice, each to all its children in a fixed order; choose()
 * hands out, among the nodes' next sends, the one that can start first, so
 * the engine books every transfer as early as the port model allows and the
 * transfers come out in time order: the Gantt shows the pipeline filling,
 * its steady state and its
 * draining, and the throughput measured over the second half of the slices
 * equals the formula.  pipeline_plan() gives a view the tree, the LP value
 * and the per-edge LP counts n(u,v) to draw on the platform.
 */
#ifndef HETCAST_PIPELINE_H
#define HETCAST_PIPELINE_H

#include <stdbool.h>

#include "model/cluster.h"
#include "engine/engine.h"
#include "sched/lp.h"
#include "sched/sched.h"

#define PIPE_DEFAULT_SLICES 20      /* --slices when not given */
#define PIPE_MAX_SLICES 100000      /* --slices is refused beyond this */

enum pipe_heur {
    PIPE_PRUNE_SIMPLE = 0,  /* delete the heaviest edges while every node stays reachable */
    PIPE_PRUNE_DEGREE,      /* delete edges of the node with the largest weighted out-degree */
    PIPE_GROW_TREE,         /* Prim-like: add the edge that keeps the out-degree smallest */
    PIPE_BINOMIAL,          /* MPI's binomial tree, shortest paths for missing edges */
    PIPE_MULTIPORT_GROW,    /* grow-tree with the multi-port period as the cost */
    PIPE_LP_PRUNE,          /* delete the edges carrying the fewest LP slices */
    PIPE_LP_GROW,           /* grow along the edges carrying the most LP slices */
    PIPE_MULTIPORT_PRUNE_DEGREE, /* prune-degree with the multi-port period as the degree */
    PIPE_NHEUR
};

struct pipe_tree {
    enum pipe_heur heur;
    int n;
    int source;
    int *parent;        /* parent[v]: who sends v its slices; -1 for the source */
    int *edge;          /* edge[v]: index in c->edges of parent[v] -> v; -1 for the source */
    int *first;         /* children of u: kids[first[u] .. first[u+1]), in the */
    int *kids;          /* order u sends them (heaviest remaining path first) */
    int *order;         /* all nodes, parents before children (breadth first) */
    double *key;        /* why v joined: grow-tree the out-degree, multiport-grow
                         * the period, lp-grow n(u,v), prune the edge time,
                         * binomial v's position */
    int routed;         /* binomial: logical transfers with no direct edge, sent
                         * along a shortest path relayed by the nodes on it */
    int rerouted;       /* binomial: logical transfers whose sender has no path to
                         * the receiver at all (a directed platform), sent along
                         * the shortest path from the source instead */
    int logical;        /* binomial: logical transfers of the binomial tree (n-1) */
};

const char *pipe_heur_name(enum pipe_heur h);      /* "prune-simple", ... */
int pipe_heur_parse(const char *name, enum pipe_heur *out);   /* 0 or -1 */
bool pipe_heur_uses_lp(enum pipe_heur h);          /* lp-prune, lp-grow */

/*
 * Build heuristic h's tree on c (a finished platform graph) from c->source.
 * lp: the solved program for lp-prune and lp-grow (solved here when NULL),
 * ignored by the others.  Returns 0, or -1 with *cause; pipe_tree_free is
 * safe after both.  Cost: O(|E| (n + |E|)) for the prunings, O(n |E|) for
 * the growing trees, O(n |E| log n) for binomial.
 */
int pipe_build(const struct cluster *c, enum pipe_heur h, const struct lp_result *lp,
               struct pipe_tree *t, char **cause);
void pipe_tree_free(struct pipe_tree *t);

/*
 * The steady-state period of the tree (time between two slices) under
 * MODEL_ONE_PORT, MODEL_MULTI_PORT or MODEL_ONE_PORT_UNI (timing_tree_period); 0 when the tree has no edge.  If
 * bottleneck is not NULL it gets the node that sets it (-1 if none).
 */
double pipe_period(const struct cluster *c, const struct pipe_tree *t, enum model m, int *bottleneck);
/* 1 / pipe_period: slices per time unit (INFINITY when there is no receiver). */
double pipe_throughput(const struct cluster *c, const struct pipe_tree *t, enum model m);

/*
 * The throughput an engine run achieved between slices first and last
 * (first < last < e->nmsg): the smallest over the receivers of
 * (last - first) / (hold(v, last) - hold(v, first)).  NAN if no receiver
 * holds both slices; INFINITY if the cluster has a single node.
 */
double pipe_measured_throughput(const struct engine *e, int first, int last);

/*
 * Make e a K-slice broadcast from its cluster's source: messages 0..K-1,
 * all held by the source at time 0, K * (n - 1) deliveries to book.
 * Returns 0 or -1 with *cause.
 */
int pipe_engine_init(struct engine *e, const struct cluster *c, enum model m, int slices,
                     char **cause);

/* What a pipelined scheduler computed; the view draws it. */
struct pipe_plan {
    struct pipe_tree tree;
    int slices;
    double throughput[3];   /* by the formula: [0] one-port, [1] multi-port, [2] one-port-uni */
    bool has_lp;            /* the LP was solved: */
    struct lp_result lp;    /*   its value and n(u,v) per edge */
    char *lp_note;          /* why it was not, when !has_lp (whole, never cut) */
    /* choose()'s cursor: node u's next send is slice next_slice[u] to its
     * child number next_child[u] */
    int *next_slice, *next_child;
};

/* The plan behind a run of a pipelined scheduler, NULL for any other. */
const struct pipe_plan *pipeline_plan(const struct sched *s);

/*
 * The schedulers, one per heuristic.  sched_pipe_binomial is not in the
 * list: sched_binomial_any ("binomial") is, and runs it on platform graphs
 * and sched/trees.c's sched_binomial (Figueira) on matrices and node tables.
 */
extern const struct sched_ops sched_prune_simple, sched_prune_degree, sched_grow_tree,
    sched_pipe_binomial, sched_multiport_grow, sched_lp_prune, sched_lp_grow,
    sched_multiport_prune_degree;
extern const struct sched_ops sched_binomial_any;

#endif
