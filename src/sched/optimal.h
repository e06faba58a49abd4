/*
 * sched/optimal.h - the exact minimum-makespan broadcast (branch and bound).
 *
 * In the async model on node tables the search runs over receiver orders
 * with no idle sender (Theorem 1 of Liu, Wang & Guo): the k-th receiver is
 * served by the holder whose next send completes first.  Identical nodes are
 * interchangeable, so only one of each class is tried at each depth.  Other
 * models and latency matrices use a search over (sender, receiver) choices
 * in order of start time.  The best heuristic schedule is the first
 * incumbent.  A search that hits its node or time limit reports OPT_GAVE_UP
 * and never calls its best schedule optimal.
 */
#ifndef HETCAST_OPTIMAL_H
#define HETCAST_OPTIMAL_H

#include "model/cluster.h"
#include "engine/engine.h"
#include "sched/sched.h"

#define OPT_DEFAULT_MAX_NODES 64        /* refused beyond this (names what will work) */
#define OPT_DEFAULT_NODE_LIMIT 50000000LL
#define OPT_DEFAULT_TIME_LIMIT 10.0     /* seconds */

/* Why a plan is optimal (OPT_PROVEN): what the search established. */
enum opt_proof {
    OPT_PROOF_NONE = 0,     /* not proven (OPT_GAVE_UP) */
    OPT_PROOF_ONE_NODE,     /* the source alone: nothing to send */
    OPT_PROOF_LOWER_BOUND,  /* the makespan equals bound_lower (engine/bounds.h) */
    OPT_PROOF_ROOT_BOUND,   /* the search's own bound at its root (the slot bound or the
                               start-time bound) already meets the first schedule: no branching */
    OPT_PROOF_SEARCH,       /* the search ran to its end: every branch explored or cut */
    OPT_PROOF_RELAYS,       /* a multicast: the broadcast of every set of relays proven */
};

struct opt_plan {
    int len;            /* decisions, in booking order */
    int *from, *to;
    double makespan;    /* of the best schedule found */
    enum opt_status status;   /* OPT_PROVEN or OPT_GAVE_UP */
    double lower;       /* proven lower bound on the optimum (== makespan if proven) */
    long long explored; /* search nodes */
    double seconds;     /* time spent */
    enum opt_proof proof;   /* OPT_PROVEN: why */
    bool slots;         /* the slot search (node tables) ran, not the general one */
};

/* Returns 0 (plan filled) or -1 with *cause (cluster too large, unsupported). */
int optimal_solve(const struct cluster *c, enum model m, const struct sched_opts *o,
                  struct opt_plan *out, char **cause);
void opt_plan_free(struct opt_plan *p);
/* The reason a plan is optimal, or why it is not proven, from what the search
 * established (p->proof, p->explored, p->lower): "proven: ...", "proven by
 * exhaustive search (N search nodes)" or "search gave up ...". */
void opt_plan_reason(const struct opt_plan *p, char *buf, size_t size);

/* The scheduler that runs optimal_solve's plan. */
extern const struct sched_ops sched_optimal;

#endif
