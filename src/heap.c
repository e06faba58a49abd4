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
    h->a = cap ? xmalloc(cap * sizeof *h->a) : NULL;
    h->n = 0;
    h->cap = cap;
    h->next_seq = 0;
}

void heap_free(struct heap *h)
{
    free(h->a);
    heap_init(h, 0);
}

void heap_push_seq(struct heap *h, double time, uint64_t seq, uint64_t data)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 64;
        h->a = xrealloc(h->a, h->cap * sizeof *h->a);
    }
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
    for (size_t c; (c = 2 * i + 1) < n; i = c) {
        if (c + 1 < n && item_less(&a[c + 1], &a[c]))
            c++;
        a[i] = a[c];
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
