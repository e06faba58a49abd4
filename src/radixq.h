/*
 * radixq.h - a monotone priority queue of (time, tie, value) items: a radix
 * heap (Ahuja, Mehlhorn, Orlin & Tarjan) whose lowest bucket is a binary heap.
 *
 * Layer: support for the engine (its streamed timeline) and the list
 * policies (fnf's senders), where every time pushed is at least the last
 * time popped -- an event loop never goes back in time.  Items come out in
 * the order of (time, tie), exactly as a binary heap on that pair would give
 * them, so a replay is exact whatever the queue.  A time pushed below the
 * last one popped is still served in order (it goes to the lowest bucket);
 * monotone use is only what makes the queue fast.
 *
 * Cost: push O(1); pop O(log n) in the lowest bucket plus the amortised
 * redistribution of a higher bucket, each item moving down at most 64
 * buckets (in practice a few): sequential passes over arrays instead of a
 * binary heap's cache misses at depth log n.  Memory: 16 bytes per item plus
 * the slack of the bucket arrays (freed when a large bucket empties).
 * Times must not be NaN.
 */
#ifndef HETCAST_RADIXQ_H
#define HETCAST_RADIXQ_H

#include <stddef.h>
#include <stdint.h>

struct rq_item {
    uint64_t key;       /* the time, mapped to an order-preserving integer */
    uint32_t tie;       /* equal times: smaller tie first */
    int32_t val;        /* the caller's payload */
};

struct rq_bucket {
    struct rq_item *item;
    size_t len, cap;
};

struct radixq {
    uint64_t last;              /* key of the last minimum found */
    uint64_t used;              /* bit i-1 set: bucket i (1..64) is not empty */
    size_t len;                 /* items in the queue */
    size_t bytes, peak_bytes;   /* bucket memory now and at most so far */
    struct rq_bucket b[65];     /* b[0]: binary heap on (key, tie) of keys <= last */
};

void rq_init(struct radixq *q);
void rq_free(struct radixq *q);
void rq_push(struct radixq *q, double time, uint32_t tie, int32_t val);
/* The smallest item, or NULL if the queue is empty (may reorganise buckets). */
const struct rq_item *rq_top(struct radixq *q);
/* Remove the smallest item (the queue must not be empty). */
void rq_pop(struct radixq *q);
/* The time an item was pushed with. */
double rq_time(const struct rq_item *it);

#endif
