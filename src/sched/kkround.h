/*
 * sched/kkround.h - `kk-round`: the rounding step of Khuller & Kim's
 * approximation scheme for the makespan (Algorithmica 2007; with Woeginger,
 * APPROX 2004) on node tables, followed by hetcast's exact search instead of
 * their polynomial-time algorithm.
 *
 * Every send time and every receive time is rounded UP to a point of a
 * geometric grid of ratio 1 + eps that starts at the smallest positive time
 * of its kind (sends and receives each their own grid), so that few
 * (send, recv) classes remain; `optimal` solves the rounded table, and its
 * schedule (tree and send order) is booked with the real times.  Every time
 * of a booked schedule is a max of sums of costs, so the real run ends no
 * later than the rounded one, and the real optimum's schedule on the rounded
 * costs ends within 1 + eps of the real optimum: when the rounded search
 * proves its optimum, kk-round is within 1 + eps of the least makespan.
 * When it gives up, the run says so (OPT_GAVE_UP) with a lower bound on the
 * real optimum, its best found over (1 + eps) and bound_lower, whichever is
 * larger.  The latency L is one number shared by every transfer: rounding it
 * would make no class fewer, so it is kept as given.
 */
#ifndef HETCAST_KKROUND_H
#define HETCAST_KKROUND_H

#include "model/cluster.h"
#include "sched/sched.h"

#define KK_DEFAULT_EPSILON 0.25   /* --epsilon: the guarantee 1.25 */
#define KK_MIN_EPSILON 0.001      /* the grid of ratio 1 + eps is walked point by point */
#define KK_MAX_EPSILON 4.0

/*
 * The node table c with every send and receive time rounded up to its grid
 * (above; each a decimal where the times allow, so that the exact search
 * keeps its integer arithmetic): each time t becomes t' with t <= t' <=
 * (1 + eps) t, equal times stay equal, zero stays zero.  Targets, source and
 * latency are c's; node i is c's node i.  NULL if c is not a node table or
 * eps is out of [KK_MIN_EPSILON, KK_MAX_EPSILON].  O(n log n + grid points).
 */
struct cluster *kk_round_cluster(const struct cluster *c, double eps);

/* The distinct (send, recv) pairs of a node table: the classes the exact
 * search sees (receive times left out under sender-only, where they cost
 * nothing).  O(n log n). */
int kk_classes(const struct cluster *c, bool sender_only);

extern const struct sched_ops sched_kk_round;

#endif
