/*
 * openshop_fast.h - open-shop's choice (exchange.c) without a scan of the
 * sender's receivers, beside exchange.c's readable choose_open_shop (a scan
 * of every receiver left, O(n R^2) a run: 7 s for an all-to-all of 2000
 * nodes).  Same choices, bit for bit: tests/test_fastpaths.c runs both on
 * random clusters and compares the orders and every transfer.
 *
 * Open-shop gives sender q the receiver of its pool (the receivers it has
 * not chosen yet) whose port frees first, ties to the lower node index: the
 * least of the pool in the order (free, node).  The receivers are kept in
 * blocks of 64 (by index), each sorted by that order with its prefix masks
 * (the bits of its i least); a sender's pool is one bit a receiver, so q's
 * least in a block is the first prefix that meets q's word: six steps of a
 * binary search.  The blocks are visited by their least receiver, and the
 * visit stops at a block whose least is past q's best so far; a receiver no
 * sender wants any more is moved out of the way (its key +inf).  A change
 * of a receiver's time moves it within its block (at most 63 places) and
 * its block among the blocks.  A choice thus costs O(R / 64) at worst, an
 * update O(64 + R / 64): O(n R (R / 64)) a run against the scan's O(n R^2).
 *
 * Memory: n R bits, and about 25 bytes a receiver.
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
