/*
 * exp_pipeline.h - hetcast experiment pipeline: the study of Beaumont,
 * Marchal & Robert (LIP RR-2004-46, §5) -- every tree heuristic's throughput
 * as a fraction of the LP optimum on random platforms (Table 2, Figures 4
 * and 5) and on WAN/MAN/LAN platforms standing in for TIERS (Table 3) --
 * and the two platform generators, which the tests use too.
 */
#ifndef HETCAST_EXP_PIPELINE_H
#define HETCAST_EXP_PIPELINE_H

#include "cluster.h"
#include "rng.h"

/* argv[0] is "pipeline"; the options follow.  Returns an exit status. */
int exp_pipeline_main(int argc, char **argv);

/*
 * A random platform after Table 2: nodes P0..P(n-1), source P0; a random
 * spanning tree of links (so that every node is reachable), then a link
 * between every other pair with probability density; every link goes both
 * ways, each direction with its own T drawn from a Gaussian of mean 100 and
 * deviation 20 (redrawn below 1).  Every node's multi-port send time is
 * send_ratio times its fastest outgoing T (0.8 in the paper).  Finished
 * (cluster_finish); never NULL.
 */
struct cluster *exp_pipeline_random(struct rng *r, int n, double density, double send_ratio);

/*
 * A three-level platform in the manner of TIERS (Calvert, Doar & Zegura):
 * about a tenth of the nodes form the WAN (W*), three tenths the MANs (M*),
 * one per WAN node in turn, and the rest are LAN hosts (L*), each on a star
 * around one MAN node.  WAN and MAN nodes get random positions; the WAN and
 * each MAN (with its WAN node) are joined by a minimum spanning tree, plus
 * redundant links to the nearest node not yet linked (each WAN node with
 * probability 1/2, each MAN node 3/10).  Times and send times as in
 * exp_pipeline_random; the source is a random node.  n >= 2.
 */
struct cluster *exp_pipeline_tiers(struct rng *r, int n, double send_ratio);

#endif
