/*
 * sched/exchange_greedy_fast.h - greedy's picks (sched/exchange.c's order_greedy) from bitsets,
 * beside the readable scan of each sender's sorted list.
 *
 * Greedy gives sender q, in its turn, the first receiver of its list (its
 * receivers by decreasing transfer cost, ties to the lower index, its own
 * entry last) that it has not sent to and that no one has taken this round.
 * The readable pick scans the list from its head: O(R) a pick, O(n^2 R) a
 * run (4.4 s at n = 2000), and sorting the n lists costs O(n R log R).
 *
 * On a node table every sender's list is the same order of the other
 * receivers (a transfer costs s(q) + L + r(p), so the order is by r(p)) with
 * its own entry moved to the end, unless rounding makes two sums tie for
 * one sender and not for another.  gfast_new builds that one order from two
 * senders' sorted lists and checks it against every sender's costs with the
 * list's own compare (O(n R) costs); where it does not hold for all, it
 * returns NULL and the readable path runs.  Then a sender's receivers not
 * sent to and the round's taken ones are bits in that one order, and a pick
 * is the first word of (not sent) & ~(taken) that is not zero, from the
 * sender's first word with a receiver left: O(R / 64) a pick at worst,
 * O(n R^2 / 64) a run.  Same orders, bit for bit (tests/test_fastpaths.c).
 *
 * Memory: n R bits and a few arrays of R.
 */
#ifndef HETCAST_GREEDY_FAST_H
#define HETCAST_GREEDY_FAST_H

#include "model/cluster.h"

struct gfast;

/* The shared order of n senders' lists of recv (nrecv, increasing node
 * indices), sorted by cost(c, q, recv[k]) decreasing, then k; the own entry
 * must come last.  NULL if the senders' lists are not one order. */
struct gfast *gfast_new(const struct cluster *c, const int *recv, int nrecv,
                        double (*cost)(const struct cluster *c, int q, int p));
void gfast_free(struct gfast *g);
/* A new round: nothing taken. */
void gfast_round(struct gfast *g);
/* q's pick (a receiver's index k in recv), or -1: the first k of q's list not
 * sent to by q and not taken this round. */
int gfast_pick(struct gfast *g, int q);
/* q picks k: taken this round, sent by q. */
void gfast_take(struct gfast *g, int q, int k);

#endif
