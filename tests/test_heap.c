/*
 * test_heap.c - the heap (heap.c): every item pushed comes out once, in
 * (time, seq) order, checked against a sort and against a linear search for
 * the least item while pushes and pops interleave; equal times come out in
 * insertion order (heap_push) or by the caller's seq (heap_push_seq); the
 * boundary cases: an empty heap, one item, a heap grown from room for one.
 */
#include <stdlib.h>

#include "heap.h"
#include "rng.h"
#include "tap.h"

struct ref {
    double time;
    uint64_t seq, data;
};

static int cmp_ref(const void *a, const void *b)
{
    const struct ref *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Push n items with times drawn from `distinct` values (few: many ties), pop
 * them all and compare with the sort by (time, insertion order). */
static void push_all_pop_all(struct rng *r, int n, int distinct, size_t cap)
{
    struct heap h;
    heap_init(&h, cap);
    struct ref *want = malloc((size_t)n * sizeof *want);
    for (int i = 0; i < n; i++) {
        double t = (double)rng_below(r, (uint64_t)distinct) * 0.5;
        want[i] = (struct ref){t, (uint64_t)i, (uint64_t)i * 7 + 1};
        heap_push(&h, t, want[i].data);
    }
    qsort(want, (size_t)n, sizeof *want, cmp_ref);
    int bad = -1;
    struct heap_item it, first = {0, 0, 0};
    for (int i = 0; i < n; i++)
        if ((!heap_pop(&h, &it) || it.time != want[i].time || it.data != want[i].data) &&
            bad < 0) {
            bad = i;
            first = it;
        }
    ok(bad < 0, "%d items, %d distinct times: popped in (time, insertion) order", n, distinct);
    if (bad >= 0)
        diag("pop %d: got time %g data %llu, want time %g data %llu", bad, first.time,
             (unsigned long long)first.data, want[bad].time, (unsigned long long)want[bad].data);
    ok(!heap_pop(&h, &it) && h.n == 0, "%d items: empty after as many pops", n);
    free(want);
    heap_free(&h);
}

/* Pushes (with the caller's random seq) and pops interleaved at random; each
 * pop must give the least of the items held, found by a linear search. */
static void interleaved(struct rng *r, int steps)
{
    struct heap h;
    heap_init(&h, 0);
    struct ref *held = malloc((size_t)steps * sizeof *held);
    int nheld = 0, bad = 0, pops = 0;
    for (int s = 0; s < steps; s++) {
        if (nheld == 0 || rng_below(r, 3) != 0) {
            struct ref x = {(double)rng_below(r, 20), rng_next(r), (uint64_t)s};
            held[nheld++] = x;
            heap_push_seq(&h, x.time, x.seq, x.data);
            continue;
        }
        int least = 0;
        for (int i = 1; i < nheld; i++)
            if (cmp_ref(&held[i], &held[least]) < 0)
                least = i;
        struct heap_item it;
        pops++;
        if (!heap_pop(&h, &it) || it.time != held[least].time || it.seq != held[least].seq ||
            it.data != held[least].data)
            bad++;
        held[least] = held[--nheld];
        if ((size_t)nheld != h.n)
            bad++;
    }
    ok(bad == 0 && pops > steps / 5, "%d interleaved steps (%d pops): each pop the least held, "
       "by (time, caller's seq)", steps, pops);
    free(held);
    heap_free(&h);
}

int main(void)
{
    struct rng r;
    rng_seed(&r, 14);

    /* the empty heap, one item, peek */
    struct heap h;
    heap_init(&h, 0);
    struct heap_item it = {-1, 0, 99};
    ok(!heap_pop(&h, &it) && it.data == 99, "an empty heap pops nothing and leaves *out alone");
    struct heap_item top;
    ok(!heap_peek(&h, &top), "an empty heap has no least item");
    heap_push(&h, 3, 42);
    ok(heap_peek(&h, &top) && top.data == 42 && h.n == 1, "one item: peek sees it and leaves it");
    ok(heap_pop(&h, &it) && it.time == 3 && it.data == 42 && h.n == 0, "one item: popped");
    heap_free(&h);

    /* ties: equal times in insertion order, whatever the heap's shape */
    heap_init(&h, 1);
    for (uint64_t i = 0; i < 100; i++)
        heap_push(&h, i % 2 ? 1.0 : 2.0, i);
    int inorder = 1;
    uint64_t prev = 0;
    for (int i = 0; i < 100; i++) {
        heap_pop(&h, &it);
        double want = i < 50 ? 1.0 : 2.0;
        if (it.time != want || (i != 0 && i != 50 && it.data <= prev))
            inorder = 0;
        prev = it.data;
    }
    ok(inorder, "100 items at two times: each time's items first in, first out");
    heap_free(&h);

    /* the caller's seq decides ties, not insertion order */
    heap_init(&h, 0);
    heap_push_seq(&h, 5, 30, 0);
    heap_push_seq(&h, 5, 10, 1);
    heap_push_seq(&h, 4, 99, 2);
    heap_push_seq(&h, 5, 20, 3);
    int got[4];
    for (int i = 0; i < 4; i++) {
        heap_pop(&h, &it);
        got[i] = (int)it.data;
    }
    ok(got[0] == 2 && got[1] == 1 && got[2] == 3 && got[3] == 0,
       "heap_push_seq: time first, then the lower seq (got %d %d %d %d, want 2 1 3 0)",
       got[0], got[1], got[2], got[3]);
    heap_free(&h);

    push_all_pop_all(&r, 1, 1, 0);
    push_all_pop_all(&r, 2, 1, 0);
    push_all_pop_all(&r, 1000, 3, 0);
    push_all_pop_all(&r, 5000, 1000, 16);
    push_all_pop_all(&r, 20000, 200000, 20000);
    interleaved(&r, 20000);
    return tap_exit();
}
