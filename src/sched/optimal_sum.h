/*
 * sched/optimal_sum.h - `optimal-sum`: the broadcast with the least sum of
 * completion times (the times every node holds the message, added), the
 * second objective of Khuller & Kim, who prove fastest-node-first optimal
 * for it in the sender-only model while it only approximates the makespan
 * (within 1.5).  Exact by the integer program of sched/certify.h, solved by
 * GLPK, on clusters of up to CERTIFY_MAX_NODES nodes, every model of every
 * cluster kind; it says when GLPK stops before proving (--time-limit).
 */
#ifndef HETCAST_OPTIMAL_SUM_H
#define HETCAST_OPTIMAL_SUM_H

#include <stdbool.h>

#include "engine/engine.h"
#include "sched/sched.h"

extern const struct sched_ops sched_optimal_sum;

/* The sum of the times every node but the source holds message 0 (the
 * objective optimal-sum minimises), from any engine, lean or not. */
double sched_sum_of_holds(const struct engine *e);

#endif
