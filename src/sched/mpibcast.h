/*
 * sched/mpibcast.h - the segmented broadcasts MPI libraries choose from that
 * are not one tree: van de Geijn's scatter + allgather (ring or recursive
 * doubling) and Sanders, Speck & Träff's two trees, on node tables and
 * latency matrices (docs/models.md).
 *
 * Ranks are counted from the source as MPI numbers them: node (source + p)
 * mod n is rank p.  The message is K segments (--slices K, default 1;
 * sched/segment.h: a segment costs what the cluster says a message costs).
 *
 * scatter-allgather (van de Geijn; MPICH's and Open MPI's long-message
 * broadcast): the segments are cut into n pieces of ceil(K/n) segments,
 * piece r for rank r (empty when K is short of it); the source scatters the
 * pieces along the binomial tree (rank r receives the pieces of its subtree,
 * ranks [r, r + lowbit(r)), and passes on its children's, largest subtree
 * first), then a ring allgather: in step i = 1 .. n-1 rank r sends piece
 * r - i + 1 to rank r + 1 (mod n).  A node never receives a segment twice:
 * a ring send to a rank that holds the piece from the scatter (the source,
 * the piece's owner's binomial ancestors) is left out, and that rank passes
 * the piece on in the next step from what it holds.
 *
 * scatter-rdb (MPICH's scatter_recursive_doubling_allgather, its broadcast
 * of medium messages on a power of two): the same scatter, then in step
 * i = 0, 1 ... (mask 2^i) rank r sends its block of the pieces of ranks
 * r & ~(mask - 1) to r & ~(mask - 1) + mask - 1, which it holds by then,
 * to rank r XOR mask, less the pieces that rank holds from the scatter
 * (the source; the ranks whose subtree holds the partner's block): no
 * rank is sent a piece twice.  On a number of ranks that is no power of
 * two it is scatter-allgather, as MPICH falls back, and its note says so.
 *
 * two-tree (Sanders, Speck & Träff 2009): the n - 1 other ranks form two
 * binary trees T1 and T2; T1 carries segments 1, 3, 5 ... (counted from 1),
 * T2 2, 4, 6 ....  T1 is an in-order tree
 * on positions 0 .. m-1 (rank i + 1 at position i, m = n - 1): a perfect
 * tree of the largest 2^j - 1 <= m positions on the left of its root, the
 * rest built the same way on the right, so inner nodes sit at odd
 * positions and leaves at even ones; T2 is T1 mirrored (i -> m-1-i) when m
 * is even, shifted (i -> i+1 mod m) when it is odd, so that no node is an
 * inner node of both trees: each sends the segments of one tree only.
 * The run follows the paper's steps: the trees' edges are coloured 0 and 1
 * (twotree_colour) and in step j each edge of colour j mod 2 carries the
 * next segment of its tree that its receiver lacks, if its sender held it
 * before the step, so a rank receives once and sends once a step.  Each
 * rank's sends go to the engine in step order, the earlier step first
 * among sends that could start at once (seg_plan_add_at).
 */
#ifndef HETCAST_MPIBCAST_H
#define HETCAST_MPIBCAST_H

#include "sched/sched.h"

/* Two-tree: the parent position (-1: the tree's root) and the children
 * (-1: none) of each of the m positions of T1 (t = 0) or T2 (t = 1), and
 * the tree's root.  Arrays of m ints; m >= 1. */
int twotree_build(int m, int t, int *parent, int *left, int *right);

/* Two-tree: the paper's colouring of the 2m edges of both trees (edge
 * t * m + i enters position i of tree t from its parent there, the source
 * for the root): colour[e] is 0 or 1, a position's two in-edges differ, and
 * so do a sender's two out-edges (the source's: its two roots); the source's
 * edge into T1's root is 0.  par, left, right, root: twotree_build's. */
void twotree_colour(int m, int *const par[2], int *const left[2], int *const right[2],
                    const int root[2], unsigned char *colour);

/* scatter-allgather: ranks [r, r + subtree) receive their pieces through
 * rank r in the scatter (r = 0: all n).  */
int scatter_subtree(int r, int n);

/* Does ops cut the message into --slices K segments on a node table or a
 * latency matrix (a tree of sched/trees.h, scatter-allgather, scatter-rdb,
 * two-tree)? */
bool mpibcast_segmented(const struct sched_ops *ops);

/*
 * Would ops cut the message into `slices` segments on c (mpibcast_segmented,
 * slices > 1, not a platform graph)?  Then 0 if the run stays within SEG_MAX_TRANSFERS, else -1 with
 * *cause, for the front door to refuse before running; 0 for the others.
 */
int mpibcast_check(const struct sched_ops *ops, const struct cluster *c, int slices, char **cause);

/* scatter-rdb: is n a power of two (the recursive doubling), or does the
 * run fall back to the ring allgather? */
bool rdb_applies(int n);

extern const struct sched_ops sched_scatter_allgather, sched_scatter_rdb, sched_two_tree;

#endif
