/*
 * sched/fef_fast.h - fef's choice on a node table in O(log n) amortized a
 * decision (O(n log n) a run), beside sched/list.c's readable O(n) a
 * decision (O(n^2) a run, 35 s at 10^5 nodes).  Same decisions, bit for bit:
 * tests/test_fastpaths.c runs both on random clusters, event by event.
 *
 * On a node table T(q,p) = (s(q) + L) + r(p), and a rounded addition is
 * monotone, so the cheapest transfer into any waiting node comes from a
 * holder of least A = s(q) + L to a waiting node of least r(p).  The ties
 * fef breaks by index (the lowest sender, then the lowest receiver, among
 * equal T) are kept exactly, rounding included: a sender of larger A that
 * rounds to the same T is found by a scan of the holders, only when the
 * second-least A does round to the same T (rare: never with distinct short
 * decimals).
 */
#ifndef HETCAST_FEF_FAST_H
#define HETCAST_FEF_FAST_H

#include "model/cluster.h"

struct fef_fast;

/* For c, a node table with no holder yet; NULL if c is not a node table. */
struct fef_fast *fef_fast_new(const struct cluster *c);
void fef_fast_free(struct fef_fast *f);
/* q holds the message from now on (each node once). */
void fef_fast_hold(struct fef_fast *f, int q);
/* fef's next transfer: 1 with *from, *to and *cost (T), or 0 when no node
 * waits or no node holds. */
int fef_fast_pick(struct fef_fast *f, int *from, int *to, double *cost);

#endif
