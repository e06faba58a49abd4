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

/* True when c's speeds are consistent (cluster_speeds_consistent) and it
 * has at most 4096 distinct (send, recv) pairs; false means "not decided
 * here" (inconsistent, a NaN, or too many pairs).  O(n) expected. */
bool cluster_fast_speeds_grouped(const struct cluster *c);

#endif
