/*
 * exp_alltoall.h - hetcast experiment alltoall: Chen & Liu's study of
 * personalized exchange (Table 7's four groups; Figures 6-12, Table 8), with
 * its own options.
 */
#ifndef HETCAST_EXP_ALLTOALL_H
#define HETCAST_EXP_ALLTOALL_H

#include "cluster.h"

/* argv[0] is "alltoall"; the options follow.  Returns an exit status. */
int exp_alltoall_main(int argc, char **argv);

/*
 * The paper's cluster (§5): n nodes in thirds -- the first n/3 fast, the
 * next n/3 normal, the rest slow -- with send = receive overhead 1, 5 and 10,
 * and latency 1.
 */
struct cluster *alltoall_cluster(int n);

/*
 * The paper's receivers (§5.1.3: "only P80 ~ P89 as receivers" for 10 % of
 * 100): round(n * pct / 100) consecutive nodes from node floor(0.8 n),
 * wrapping around to node 0.  recv gets them increasing; returns how many.
 */
int alltoall_block(int n, double pct, int *recv);

#endif
