/*
 * heap.c - the binary min-heap of timed items (heap.h): an array in level
 * order, ordered by (time, seq).
 */
#include "heap.h"

#include <stdlib.h>

#include "diag.h"

static inline bool item_less(const struct heap_item *a, const struct heap_item *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

void heap_init(struct heap *h, size_t cap)
{
    h->cap = cap > 0 ? cap : 64;
    h->a = xmalloc(h->cap * sizeof *h->a);
    h->n = 0;
    h->next_seq = 0;
}

void heap_free(struct heap *h)
{
    free(h->a);
    h->a = NULL;
    h->n = h->cap = 0;
}

/* Invariant: n < cap between calls, so a push has room and grows, if it
 * must, once its item is in: then nothing else is live across the call. */
void heap_push_seq(struct heap *h, double time, uint64_t seq, uint64_t data)
{
    struct heap_item it = {time, seq, data};
    size_t i = h->n++;
    while (i > 0) {   /* lift the hole while the parent is greater */
        size_t parent = (i - 1) / 2;
        if (!item_less(&it, &h->a[parent]))
            break;
        h->a[i] = h->a[parent];
        i = parent;
    }
    h->a[i] = it;
    if (h->n == h->cap) {
        h->cap *= 2;
        h->a = xrealloc(h->a, h->cap * sizeof *h->a);
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
    struct heap_item *a = h->a, last = a[--h->n];
    size_t n = h->n, i = 0;
    *out = a[0];
    if (n == 0)
        return true;
    /* Sink the hole at the root to a leaf along the lesser children, then
     * lift the last item from there: the last item usually belongs near the
     * bottom, so this takes one compare per level instead of two. */
    size_t c;
    while ((c = 2 * i + 2) < n) {   /* two children: the right one is c */
        if (item_less(&a[c - 1], &a[c]))
            c--;
        a[i] = a[c];
        i = c;
    }
    if (c == n) {   /* a left child only */
        a[i] = a[c - 1];
        i = c - 1;
    }
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!item_less(&last, &a[parent]))
            break;
        a[i] = a[parent];
        i = parent;
    }
    a[i] = last;
    return true;
}

const struct heap_item *heap_peek(const struct heap *h)
{
    return h->n ? &h->a[0] : NULL;
}
