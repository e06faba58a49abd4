/*
 * model/cluster_fast.h - the fast path of cluster_sort_nodes (model/cluster.h): the node
 * indices sorted by (first time, second time, index) in O(n) passes, and
 * the consistency check's O(n) shortcut.  model/cluster.c calls these when
 * FAST_PATH (support/fastpath.h); otherwise its readable qsort decides.  Both
 * give the same order (tests/test_fastpaths.c, tests/test_lean.c).
 */
#ifndef HETCAST_FAST_SORT_H
#define HETCAST_FAST_SORT_H

#include <stdbool.h>

#include "model/cluster.h"

/* cluster_sort_nodes' contract exactly (times not NaN; -0 and +0 one
 * time).  O(n + k log k) for k distinct pairs when k <= n / 4 and <= 65536,
 * else O(n) radix passes plus O(m log m) for runs of m nodes with equal
 * first and different second times. */
void cluster_fast_sort_nodes(const struct node *nodes, int *order, int n, bool by_recv_first,
                     bool descending);

/* cluster_speeds_consistent's verdict and the pair it names, 1 or 0, when c has no NaN time
 * and at most 4096 distinct (send, recv) pairs; -1 means "not decided here" (a NaN, or too
 * many pairs).  O(n) expected. */
int cluster_fast_speeds_grouped(const struct cluster *c, int *bad_p, int *bad_q);

/* The consistency check's walk over the nodes in (send, recv, index) order (model/cluster.c):
 * the latest node with the largest receive time so far, the first node of the run of equal
 * send times, the node before. */
struct speed_walk {
    int top, run, prev;
};
/* Step the walk to node y: false, with the pair named in *bad_p and *bad_q (each may be
 * NULL), when y and a node before it are not consistent. */
bool cluster_speed_step(const struct node *nodes, struct speed_walk *w, int y, int *bad_p, int *bad_q);

#endif
