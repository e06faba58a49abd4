/*
 * support/calq.h - a calendar queue of timed items with the caller's ids: the
 * exchange's event queue (sched/exchange.c) on its fast path, beside the four-ary
 * heap (support/heap.h) that HETCAST_NO_FASTPATH=1 takes: the same items in the same
 * order.
 *
 * Items come out in (time, seq) order, as heap_push_seq's heap gives them
 * (the least time first, equal times by the lower seq; -0 is 0; NaN is not
 * a time).  An item is named by an id below the queue's capacity, and an id
 * is in the queue at most once: the exchange's events are a decision and an
 * arrival per sender (id 2q + kind).
 *
 * The times are cut into buckets of a width the caller chooses (about the
 * time of a few events, so that a bucket holds a few); nb buckets (a power
 * of two) are a circular window from the bucket of the last item popped,
 * each an unsorted list of ids, with a bit per bucket saying whether it
 * holds any.  When the window moves to the next bucket that holds any (a
 * scan of the bits), its list is sorted by (time, seq) by insertion into a
 * run (up to CALQ_RUN items; the rest, and an item pushed into the first
 * bucket, go to a small heap, and a pop takes the lesser of the two).  An
 * item past the window waits in a heap (support/heap.h) and comes into the window
 * when the window reaches its bucket; an item earlier than the window (a
 * time pushed below the last popped) goes into the window's first bucket,
 * where it is next.  So the order is exact whatever the width; the width
 * only makes it fast.  tests/test_heap.c checks it against the heap.
 *
 * Cost: push O(1); pop O(1) amortised at the exchange's density (a bucket's
 * sort, the empty buckets skipped 64 at a time), against the heap's O(log n)
 * of cache lines.  Memory: 28 bytes an id, 4 bytes and a bit a bucket.
 */
#ifndef HETCAST_CALQ_H
#define HETCAST_CALQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "support/heap.h"

#define CALQ_RUN 32   /* a bucket's items sorted by insertion; more go to a heap */

struct calq_item {
    double time;
    uint64_t seq;
    uint64_t data;         /* the caller's */
};

struct calq {
    double inv_width;      /* buckets per unit of time */
    uint64_t cur;          /* the window's first bucket (absolute index) */
    uint64_t mask;         /* nb - 1 */
    int32_t *head;         /* per slot (bucket % nb): its first id, -1 if none */
    uint64_t *used;        /* a bit per slot: head is not -1 */
    struct calq_item *item;   /* per id */
    int32_t *next;         /* per id: the next id of its bucket's list, -1 at the end (apart
                              from the items: a list is walked in a few cache lines) */
    int32_t run[CALQ_RUN]; /* the window's first bucket, sorted by (time, seq): run[runpos ..] */
    size_t nrun, runpos;
    struct heap now;       /* the rest of the first bucket: the items past CALQ_RUN of it,
                              and those pushed into it (data: the id) */
    struct heap later;     /* the items past the window (data: the id) */
    size_t n;              /* items held, the window's and later's */
};

/* Room for ids 0 .. nid-1; nb buckets (rounded up to a power of two, at
 * least 64) of the given width (> 0; a width that is not finite and
 * positive is taken as 1). */
void calq_init(struct calq *q, int nid, size_t nb, double width);
void calq_free(struct calq *q);
/* Queue id (not in the queue) at time with seq and the caller's data. */
void calq_push(struct calq *q, int id, double time, uint64_t seq, uint64_t data);
/* The least item out: its id, time and data; false (nothing set) if empty. */
bool calq_pop(struct calq *q, int *id, double *time, uint64_t *data);

#endif
