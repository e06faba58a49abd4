/*
 * exp_figueira.h - hetcast experiment figueira: Figueira's comparison of
 * broadcast trees on random LNOWs (Figures 10-15), with its own options.
 */
#ifndef HETCAST_EXP_FIGUEIRA_H
#define HETCAST_EXP_FIGUEIRA_H

#include "cluster.h"
#include "rng.h"

/* argv[0] is "figueira"; the options follow.  Returns an exit status. */
int exp_figueira_main(int argc, char **argv);

/*
 * One random LNOW after the paper's emulator (section 4): every node's
 * distance to node 0 in hops, 0..max_hops (10 in the study by default, so
 * that two nodes are at most 20 hops apart); nodes at the same distance
 * form a group (0 hops apart); two nodes of different groups are the sum of
 * their distances apart.  The number of groups is drawn from
 * 1..min(max_groups, nodes, max_hops + 1), their distances are distinct
 * (node 0's group at 0), and every group gets at least one node.  Returns a
 * latency matrix in hops (unit 1, no send times), source n0; *groups gets
 * the number of groups.
 */
struct cluster *figueira_lnow(struct rng *r, int nodes, int max_groups, int max_hops, int *groups);

#endif
