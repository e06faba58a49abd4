/*
 * sched/exchange_openshop_fast.h - open-shop's choice (sched/exchange.c) without a scan of the
 * sender's receivers, beside sched/exchange.c's readable choose_open_shop (a scan
 * of every receiver left, O(n R^2) a run: 7 s for an all-to-all of 2000
 * nodes).  Same choices, bit for bit: tests/test_fastpaths.c runs both on
 * random clusters and compares the orders and every transfer.
 *
 * Open-shop gives sender q the receiver of its pool (the receivers it has
 * not chosen yet) whose port frees first, ties to the lower node index: the
 * least of the pool in the order (free, node).  The receivers that some
 * sender still wants are kept in that order, in chunks of at most 64 (a
 * directory of the chunks by their first entries); a sender's pool is one
 * bit a receiver.  A choice walks the order from its front and stops at the
 * first receiver whose bit q has: the receivers it passes are those q has
 * already chosen and others still want.  A chosen receiver's port time grows
 * and it goes near the back, so the front turns over; if to q the order
 * looks random, the walk takes about R / (its pool) steps, R ln R for all of
 * q's choices (at N = 2000 about 15 steps a choice, counted).  Past as many
 * steps as a scan of q's bits costs (R / 64 + 2 x its pool), the choice scans
 * the bits instead, so a choice never costs more than O(R / 64 + pool): the
 * readable scan's order at worst.  A receiver's new time takes it out of
 * its chunk (where the choice just found it: no search) and into its place
 * (two counts: the directory's firsts and the chunk's entries, O(R / 32 +
 * 64)); a full chunk splits, an empty one leaves; a receiver no sender wants
 * any more leaves the order.
 *
 * Memory: n R bits, chunks of 776 bytes (no more chunks than receivers),
 * 16 bytes a receiver for the directory.
 */
#ifndef HETCAST_OPENSHOP_FAST_H
#define HETCAST_OPENSHOP_FAST_H

#include <stdint.h>

struct oshop;

/* n senders, all of them with every receiver of recv (nrecv, increasing node
 * indices) in their pool except themselves; free_at (per node, read now and
 * at every oshop_update) the receive ports' times. */
struct oshop *oshop_new(int n, const int *recv, int nrecv, const double *free_at);
void oshop_free(struct oshop *o);
/* q's choice: the node of its pool that is least by (free_at, node); q's pool
 * must not be empty. */
int oshop_choose(struct oshop *o, int q);
/* q has chosen p (its node index): out of q's pool. */
void oshop_take(struct oshop *o, int q, int p);
/* free_at[p] changed (p a receiver). */
void oshop_update(struct oshop *o, int p);

#endif
