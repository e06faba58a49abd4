/*
 * support/heap.h - a min-heap of timed items, the one priority queue of the
 * event loops (sched/exchange.c's simulation, whose fast path takes the calendar
 * queue of support/calq.h instead, in the same order; the engine's timeline may
 * follow).
 *
 * Items come out in (time, seq) order: the earliest time first and, among
 * equal times, the lowest seq.  heap_push numbers the items itself in
 * insertion order, so equal times come out first in, first out and a replay
 * is exact (libuv's timers: timeout, then start_id).  heap_push_seq takes the
 * caller's seq instead: a random draw breaks ties at random, a node index
 * breaks them by index (Dijkstra).  Use one of the two per heap.
 *
 * There is one order and no compare callback on purpose: the compare is
 * inlined into the sifts, which is most of an event loop's time (the
 * exchange spends about 40 % of its instructions popping).  An order other
 * than (time, seq) is expressed through the two keys.
 *
 * Cost: heap_push and heap_pop O(log n) for n items held (four-ary: heap_pop
 * takes three branch-free compares per level of log4 n, it sinks the hole to a
 * leaf, then lifts the last item); heap_peek O(1).  Negative times and -0 are
 * kept in order (-0 as 0); NaN is not a time.  Memory: 24 bytes per item
 * (16 of key, 8 of data), grown by doubling (amortised
 * O(1) per push); a push grows the array after placing its item, so the
 * common path keeps nothing live across a call.
 */
#ifndef HETCAST_HEAP_H
#define HETCAST_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct heap_item {
    double time;     /* the key: earliest first */
    uint64_t seq;    /* equal times: the lowest first */
    uint64_t data;   /* the caller's: an index, or two 32-bit halves */
};

struct heap_key {
    uint64_t t;     /* the time's bits, mapped to keep its order (support/heap.c) */
    uint64_t seq;
};

struct heap {
    struct heap_key *k;    /* four-ary, level order: k[0] is the least; k[i]'s children are
                              k[4i+1] .. k[4i+4] (one cache line) */
    uint64_t *d;           /* d[i]: the data of k[i] */
    void *kbase;           /* k's allocation */
    size_t n, cap;
    uint64_t next_seq;     /* heap_push's insertion count */
};

/* An empty heap with room for cap items (0: a default); it grows by doubling. */
void heap_init(struct heap *h, size_t cap);
/* Release the items; heap_init again before any other use. */
void heap_free(struct heap *h);
/* Insert; ties in time come out in insertion order. */
void heap_push(struct heap *h, double time, uint64_t data);
/* Insert with the caller's tie-break seq (do not mix with heap_push). */
void heap_push_seq(struct heap *h, double time, uint64_t seq, uint64_t data);
/* Remove the least item into *out; false (and *out untouched) if empty. */
bool heap_pop(struct heap *h, struct heap_item *out);
/* The least item into *out, left in the heap; false (and *out untouched) if empty. */
bool heap_peek(const struct heap *h, struct heap_item *out);

#endif
