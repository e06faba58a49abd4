/*
 * model/generate.h - the papers' cluster generators, shared by the studies
 * (hetcast experiment), the bench and the tests.  Every generated cluster
 * is finished (cluster_finish) and never NULL.
 */
#ifndef HETCAST_GENERATE_H
#define HETCAST_GENERATE_H

#include "model/cluster.h"
#include "support/rng.h"

/* Liu, Wang & Guo (FNF in the sender-receiver model). */
/* Their Figure 1 (§2.2): p0, p1 with s = 1, r = 2; p2 with s = 2, r = 3;
 * latency 1; source p0 (FNF is not optimal on it). */
struct cluster *generate_liu_figure1(void);
/* A random consistent power-2 cluster of n nodes (Theorem 2): 1 to 3 classes
 * with strictly increasing powers of 2 for s and for r, latency 0. */
struct cluster *generate_power2(struct rng *r, int n);

/* The papers' homogeneous node table (the MPI broadcasts of Thakur et al.,
 * van de Geijn et al., Sanders et al.): n nodes r0.. with send time s,
 * receive time r and the latency. */
struct cluster *generate_homogeneous(int n, double s, double latency, double r);

/* Chen & Liu (all-to-all personalized exchange, §5). */
/*
 * Chen & Liu's cluster (§5): n nodes in thirds -- the first n/3 fast, the
 * next n/3 normal, the rest slow -- with send = receive overhead 1, 5 and 10,
 * and latency 1.
 */
struct cluster *generate_alltoall(int n);

/*
 * Chen & Liu's receivers (§5.1.3: "only P80 ~ P89 as receivers" for 10 % of
 * 100): round(n * pct / 100) consecutive nodes from node floor(0.8 n),
 * wrapping around to node 0.  recv gets them increasing; returns how many.
 */
int generate_alltoall_receivers(int n, double pct, int *recv);
/* Chen & Liu's §6, after Bhat et al.: an asymmetric latency matrix of P nodes
 * (s = r = 0), d(i, 2i mod P) = P^2 for i = 1..P-1, every other pair 1. */
struct cluster *generate_asymmetric(int P);

/* Figueira (binomial trees on LNOWs, section 4). */
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
struct cluster *generate_lnow(struct rng *r, int nodes, int max_groups, int max_hops, int *groups);
/* The paper's Table 1: hops between 8 nodes n0..n7 (a latency matrix). */
struct cluster *generate_figueira_table1(void);

/* Beaumont, Marchal & Robert (pipelined broadcast trees, §5). */
/*
 * A random platform after Table 2: nodes P0..P(n-1), source P0; a random
 * spanning tree of links (so that every node is reachable), then a link
 * between every other pair with probability density; every link goes both
 * ways, each direction with its own T drawn from a Gaussian of mean 100 and
 * deviation 20 (redrawn below 1).  Every node's multi-port send time is
 * send_ratio times its fastest outgoing T (0.8 in the paper).  Finished
 * (cluster_finish); never NULL.
 */
struct cluster *generate_platform_random(struct rng *r, int n, double density, double send_ratio);

/*
 * A three-level platform in the manner of TIERS (Calvert, Doar & Zegura):
 * about a tenth of the nodes form the WAN (W*), three tenths the MANs (M*),
 * one per WAN node in turn, and the rest are LAN hosts (L*), each on a star
 * around one MAN node.  WAN and MAN nodes get random positions; the WAN and
 * each MAN (with its WAN node) are joined by a minimum spanning tree, plus
 * redundant links to the nearest node not yet linked (each WAN node with
 * probability 1/2, each MAN node 3/10).  Times and send times as in
 * generate_platform_random; the source is a random node.  n >= 2.
 */
struct cluster *generate_platform_tiers(struct rng *r, int n, double send_ratio);

#endif
