/*
 * sched/trees.h - Figueira's broadcast trees (SPEC §2): the MPICH binomial tree
 * with node i at position i, its three distance-aware placements
 * (depth-first, breadth-first, balanced-path), the flat tree and MagPIe's
 * two-level tree, on latency matrices and node tables.
 *
 * Each tree is a scheduler (sched/sched.h) that builds the whole tree in prepare()
 * and hands out its edges in choose(), every parent serving its children in
 * the tree's order (largest subtree first); the engine then simulates the
 * tree under any port model.  The tree stays readable through
 * tree_of_sched(), so a view can draw each node's binomial position, the
 * distance on each edge and the heaviest path.
 *
 * Distances: d[q][p] of a latency matrix, the latency L between any two
 * nodes of a node table.  The tree *cost* is Figueira's: the largest sum of
 * edge distances on a root-to-leaf path, in matrix units (tree.cost), times
 * the matrix's time unit for the scheduler's tree_cost.
 *
 * Building costs O(n^2) on a latency matrix (as the paper says: each
 * placement scans the remaining nodes) and O(n log n) on a node table.
 */
#ifndef HETCAST_TREES_H
#define HETCAST_TREES_H

#include <stdbool.h>

#include "model/cluster.h"
#include "engine/engine.h"
#include "sched/sched.h"

enum tree_kind {
    TREE_BINOMIAL = 0,   /* MPICH: node (source + p) mod n at position p */
    TREE_DEPTH_FIRST,    /* closest remaining node, right to left, depth first */
    TREE_BREADTH_FIRST,  /* closest remaining node, right to left, level by level */
    TREE_BALANCED_PATH,  /* closest remaining node under the position with most unfilled children */
    TREE_FLAT,           /* the source sends to everyone, closest first */
    TREE_MAGPIE,         /* source -> one node per group, binomial tree inside each group */
    TREE_FIGUEIRA_COUNT, /* the six trees above are Figueira's (his study compares them) */
    TREE_CHAIN = TREE_FIGUEIRA_COUNT,   /* MPI's linear chain: rank (source + p) mod n passes it to the next */
    TREE_KNOMIAL,        /* MPI's k-nomial tree, radix TREE_KNOMIAL_RADIX, ranks as binomial */
    TREE_KIND_COUNT
};
#define TREE_KNOMIAL_RADIX 4   /* Open MPI's and MPICH's usual k-nomial radix */

struct tree {
    enum tree_kind kind;
    int n;
    int root;           /* the source (binomial position 0) */
    int *parent;        /* parent[v]; -1 for the root */
    int *pos;           /* binomial trees: v's MPICH position; flat: v's rank in the
                         * source's send order (root 0); magpie: v's position in its
                         * group's binomial tree (the group's first node 0) */
    int *node_at;       /* binomial trees: node_at[pos[v]] == v; else NULL */
    int *first;         /* children of v are kids[first[v] .. first[v+1]), */
    int *kids;          /* in the order v serves them (largest subtree first) */
    double *dist;       /* distance of the edge parent[v] -> v (0 for the root) */
    double *depth;      /* sum of distances from the root to v */
    unsigned char *heavy;   /* 1 for the nodes on the heaviest root-to-leaf path */
    int *ties;          /* closest-node placements: remaining nodes that were as
                         * close as v when v was chosen (1: no tie); else 0 */
    int *unfilled;      /* balanced-path: unfilled children of v's parent when v
                         * was placed (why that parent went first); else 0 */
    int *group;         /* magpie: v's group (0: the source's, then in send order); else NULL */
    int *group_size;    /* magpie: nodes in each group */
    int ngroups;        /* magpie: number of groups (0 for the other trees) */
    bool group_labels;  /* magpie: groups from the nodes' group labels, not distance 0 */
    double cost;        /* Figueira's cost: the largest depth, in distance units */
    double unit;        /* time of one distance unit (matrix unit; 1 for node tables) */
    int heavy_leaf;     /* the leaf that ends the heaviest path (ties: lowest index) */
};

const char *tree_kind_name(enum tree_kind k);   /* "binomial", "depth-first", ... */

/*
 * Binomial positions (MPICH): position p's children are p + 2^i for every
 * 2^i below p's lowest set bit (every 2^i < n for the root) with p + 2^i < n.
 * Writes them to out (room for 31) in serving order, largest 2^i first (the
 * paper's right to left), and returns how many.  Returns 0 for a bad p.
 */
int binomial_children(int p, int n, int *out);
/* p without its lowest set bit: the parent position (-1 for 0 or a bad p). */
int binomial_parent(int p);
/*
 * k-nomial positions: position p's children are p + j k^i for j = 1 .. k-1
 * and every k^i below the place of p's lowest nonzero base-k digit (every
 * k^i < n for the root), with p + j k^i < n; served largest k^i first, j
 * ascending.  k = 2 gives binomial_children.  out needs room for 31 (k-1).
 */
int knomial_children(int p, int n, int k, int *out);

/*
 * Build a tree on c (a latency matrix or a node table) from c->source.
 * Returns 0, or -1 with *cause (another kind of cluster).  tree_free
 * releases what it allocated (also after a failure).
 */
int tree_build(struct tree *t, const struct cluster *c, enum tree_kind kind, char **cause);
void tree_free(struct tree *t);

/*
 * Book every edge of t on e (a broadcast from t->root on a cluster with
 * t->n nodes): the earliest-starting pending edge first, each parent serving
 * its children in the tree's order, as the schedulers do.  This lets a study
 * build a tree on one matrix (hops) and simulate it on another (latencies).
 * Returns 0, or -1 with *cause.  Builds the timeline.
 */
int tree_run(const struct tree *t, struct engine *e, char **cause);

/* The tree behind a run of one of the tree schedulers, NULL for any other. */
const struct tree *tree_of_sched(const struct sched *s);

/* The schedulers, one per tree kind. */
extern const struct sched_ops sched_binomial, sched_depth_first, sched_breadth_first,
    sched_balanced_path, sched_flat, sched_magpie, sched_chain, sched_knomial;

#endif
