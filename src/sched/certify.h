/*
 * sched/certify.h - a second proof of an optimum: the broadcast written as an
 * integer program and solved by GLPK, independently of the exact search.
 *
 * In every port model a node receives the message once, so the only
 * resource two transfers fight over is a sender's port: a broadcast is a
 * tree with, at each sender, an order of its children, each send started as
 * soon as the one before it lets the port go (docs/models.md).  The program
 * has a binary x[q,p,k] "q's k-th send goes to p", the times each node
 * holds the message, the start of each of a sender's slots, and the
 * makespan; the costs of q -> p are the timing rule's (model/timing.h) for a
 * transfer started at 0: how long q's port is held (`free`) and when p holds
 * the message (`hold`).  Big-M rows tie a receiver's hold to the slot that
 * serves it, and levels (Miller-Tucker-Zemlin) keep zero-cost transfers from
 * closing a cycle that never reaches the source.
 *
 * It is exponential like any exact method: meant for the small clusters
 * (up to CERTIFY_MAX_NODES) on which a proof is checked a second way.
 */
#ifndef HETCAST_CERTIFY_H
#define HETCAST_CERTIFY_H

#include <signal.h>
#include <stdbool.h>

#include "model/cluster.h"
#include "model/timing.h"

#define CERTIFY_MAX_NODES 10

enum certify_status {
    CERTIFY_SAME,        /* the integer program's optimum equals the claimed one */
    CERTIFY_DIFFERENT,   /* it does not: one of the two proofs is wrong */
    CERTIFY_GAVE_UP,     /* GLPK stopped (time limit) before proving its optimum */
};

struct certify {
    enum certify_status status;
    double value;        /* SAME, DIFFERENT: the integer program's optimum */
    double seconds;      /* GLPK's time */
    int rows, cols, binaries;
    char note[160];      /* GAVE_UP: why, in words */
};

enum certify_objective {
    CERTIFY_MAKESPAN,    /* the latest time a node holds the message */
    CERTIFY_SUM,         /* the sum of the times every node holds it (Khuller & Kim's second objective) */
};

/* The integer program's schedule: its decisions in booking order, and its
 * makespan and sum as the timing rule gives them for that order (the very
 * doubles the engine books), never GLPK's rounded values. */
struct certify_plan {
    int len;
    int from[CERTIFY_MAX_NODES], to[CERTIFY_MAX_NODES];
    double makespan, sum;
    double value;        /* the objective's: makespan or sum; NAN when GLPK found no schedule */
    bool proven;         /* GLPK proved it optimal and its value agrees with the schedule's */
    double seconds;
    int rows, cols, binaries;
    char note[160];      /* not proven: why */
};

/* The least makespan or sum of c's broadcast under m, by the integer
 * program.  time_limit in seconds (<= 0: none).  0 with *out (its schedule
 * when GLPK found one, proven or not), or -1 with *cause (too many nodes, a
 * node the source cannot reach, a model the kind has not, GLPK failed).
 * cancel: NULL, or a flag a signal handler or a key sets; GLPK then stops
 * at its next callback and the call fails with SCHED_CANCELLED_TEXT. */
int certify_solve(const struct cluster *c, enum model m, enum certify_objective obj, double time_limit,
                  const volatile sig_atomic_t *cancel, struct certify_plan *out, char **cause);

/* Solve c's broadcast under m as an integer program and compare its optimum
 * with claimed (the exact search's proven makespan), to 1e-9 relative: the
 * program's schedule replayed by the timing rule must make exactly it.
 * time_limit in seconds (<= 0: none; the tests give none, so that a loaded
 * machine cannot turn a proof into "gave up").  0 with *out, or -1 with *cause
 * (too many nodes, a node the source cannot reach, GLPK failed). */
int certify_optimum(const struct cluster *c, enum model m, double claimed, double time_limit,
                    struct certify *out, char **cause);

/* The same integer program written to path in CPLEX LP format (GLPK's
 * glp_write_lp), for another solver; saved atomically.  0 or -1 with *cause. */
int certify_write_lp(const struct cluster *c, enum model m, const char *path, char **cause);

#endif
