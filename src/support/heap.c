/*
 * support/heap.c - the min-heap of timed items (support/heap.h): a four-ary heap in level
 * order, its keys apart from its data.
 *
 * A key is two integers: the time's bits made monotone (an order-preserving
 * map of the doubles onto the unsigned integers, +0 for -0) and the seq, so
 * that a compare is two integer compares without a branch.  The keys are 16
 * bytes and a node's four children share one 64-byte line (the array starts
 * three keys before a line).  An event loop's times tie often and come in no
 * predictable order: with a branch per compare and two cache lines per
 * level, a pop cost most of the exchange's time (docs/performance.md, "The
 * exchange's event queue").
 */
#include "support/heap.h"

#include <stdlib.h>
#include <string.h>

#include "support/diag.h"
#include "support/timekey.h"

#define ARITY 4
#define LINE 64
#define SKEW 3   /* keys before the first line: children 4i+1 .. 4i+4 start a line */


static inline bool key_less(const struct heap_key *a, const struct heap_key *b)
{
    return (a->t < b->t) | ((a->t == b->t) & (a->seq < b->seq));
}

static void alloc_arrays(struct heap *h, size_t cap)
{
    char *base = xmalloc((cap + SKEW + ARITY) * sizeof *h->k + LINE);
    h->kbase = base;
    h->k = (struct heap_key *)(base + (LINE - (uintptr_t)base % LINE)) + SKEW;
    h->d = xrealloc(h->d, cap * sizeof *h->d);   /* NULL the first time */
}

void heap_init(struct heap *h, size_t cap)
{
    memset(h, 0, sizeof *h);
    h->cap = cap > 0 ? cap : 64;
    alloc_arrays(h, h->cap);
}

void heap_free(struct heap *h)
{
    free(h->kbase);
    free(h->d);
    memset(h, 0, sizeof *h);
}

/* Invariant: n < cap between calls, so a push has room and grows, if it
 * must, once its item is in: then nothing else is live across the call. */
void heap_push_seq(struct heap *h, double time, uint64_t seq, uint64_t data)
{
    struct heap_key it = {time_key(time), seq};
    struct heap_key *k = h->k;
    uint64_t *d = h->d;
    size_t i = h->n++;
    while (i > 0) {   /* lift the hole while the parent is greater */
        size_t parent = (i - 1) / ARITY;
        if (!key_less(&it, &k[parent]))
            break;
        k[i] = k[parent];
        d[i] = d[parent];
        i = parent;
    }
    k[i] = it;
    d[i] = data;
    if (h->n == h->cap) {
        void *old = h->kbase;
        struct heap_key *oldk = h->k;
        h->cap *= 2;
        alloc_arrays(h, h->cap);
        memcpy(h->k, oldk, h->n * sizeof *h->k);
        free(old);
    }
}

void heap_push(struct heap *h, double time, uint64_t data)
{
    heap_push_seq(h, time, h->next_seq++, data);
}

bool heap_pop(struct heap *h, struct heap_item *out)
{
    if (h->n == 0)
        return false;
    struct heap_key *k = h->k;
    uint64_t *d = h->d;
    size_t n = --h->n, i = 0;
    struct heap_key last = k[n];
    uint64_t last_d = d[n];
    *out = (struct heap_item){key_time(k[0].t), k[0].seq, d[0]};
    if (n == 0)
        return true;
    /* Sink the hole at the root to a leaf along the least children, then
     * lift the last item from there: the last item usually belongs near the
     * bottom, so this takes the least of four a level and seldom more. */
    size_t c;
    while ((c = ARITY * i + 1) + ARITY <= n) {   /* four children: c .. c + 3 */
        size_t m01 = key_less(&k[c + 1], &k[c]) ? c + 1 : c;
        size_t m23 = key_less(&k[c + 3], &k[c + 2]) ? c + 3 : c + 2;
        c = key_less(&k[m23], &k[m01]) ? m23 : m01;
        k[i] = k[c];
        d[i] = d[c];
        i = c;
    }
    if (c < n) {   /* one to three children */
        size_t m = c;
        for (size_t j = c + 1; j < n; j++)
            if (key_less(&k[j], &k[m]))
                m = j;
        k[i] = k[m];
        d[i] = d[m];
        i = m;
    }
    while (i > 0) {
        size_t parent = (i - 1) / ARITY;
        if (!key_less(&last, &k[parent]))
            break;
        k[i] = k[parent];
        d[i] = d[parent];
        i = parent;
    }
    k[i] = last;
    d[i] = last_d;
    return true;
}

bool heap_peek(const struct heap *h, struct heap_item *out)
{
    if (h->n == 0)
        return false;
    *out = (struct heap_item){key_time(h->k[0].t), h->k[0].seq, h->d[0]};
    return true;
}
