/*
 * test_heap.c - the heap (support/heap.c): every item pushed comes out once, in
 * (time, seq) order, checked against a sort and against a linear search for
 * the least item while pushes and pops interleave; equal times come out in
 * insertion order (heap_push) or by the caller's seq (heap_push_seq); the
 * boundary cases: an empty heap, one item, a heap grown from room for one.
 * The calendar queue (support/calq.c) against the heap: the same items out in the
 * same order, pushes and pops interleaved, with times on a grid (many equal),
 * far ahead (past the window), earlier than the last popped, at the extremes
 * (0, -0, negative, 1e300, DBL_MAX, inf), and widths good, bad and invalid.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "support/calq.h"
#include "support/heap.h"
#include "support/rng.h"
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

/* A time for the calendar test: kind 0 a grid ahead of the last popped (ties
 * galore), 1 mostly near and sometimes far ahead, 2 anywhere (earlier than
 * the last popped too), 3 the extremes, 4 near the last popped, before or
 * after it. */
static double calq_time(struct rng *r, int kind, double last)
{
    static const double extreme[] = {0.0, -0.0, -5.0, 1e-300, 1e300, DBL_MAX, INFINITY, 3.0};
    if (!isfinite(last))
        last = 0;
    switch (kind) {
    case 0:
        return last + (double)rng_below(r, 40) * 0.01;
    case 1:
        return last + (rng_below(r, 8) == 0 ? (double)rng_below(r, 1000000) : rng_unit(r) * 3);
    case 2:
        return (double)rng_below(r, 200) * 0.25 - 10;
    case 4:
        return last - 1 + rng_unit(r) * 4;
    default:
        return rng_below(r, 2) ? extreme[rng_below(r, 8)] : last + (double)rng_below(r, 3);
    }
}

/* nid ids pushed and popped at random, the calendar queue beside the heap:
 * every pop the same id, time and data; both empty at the end. */
static void calq_vs_heap(struct rng *r, int kind, int nid, size_t nb, double width, int steps)
{
    struct heap h;
    struct calq q;
    heap_init(&h, 0);
    calq_init(&q, nid, nb, width);
    int *free_ids = malloc((size_t)nid * sizeof *free_ids), nfree = nid, bad = 0, pops = 0;
    for (int i = 0; i < nid; i++)
        free_ids[i] = i;
    double last = 0;
    for (int s = 0; s < steps || h.n > 0; s++) {
        bool push = s < steps && nfree > 0 && (h.n == 0 || rng_below(r, 5) < 3);
        if (push) {
            int at = (int)rng_below(r, (uint64_t)nfree), id = free_ids[at];
            free_ids[at] = free_ids[--nfree];
            double t = calq_time(r, kind, last);
            uint64_t seq = rng_next(r);
            heap_push_seq(&h, t, seq, (uint64_t)id);
            calq_push(&q, id, t, seq, (uint64_t)id * 7 + 3);
            continue;
        }
        struct heap_item it;
        int id = -1;
        double t = 0;
        uint64_t data = 0;
        bool a = heap_pop(&h, &it), b = calq_pop(&q, &id, &t, &data);
        pops++;
        if (!a || !b || (uint64_t)id != it.data || t != it.time || data != it.data * 7 + 3 ||
            signbit(t) != signbit(it.time))
            bad++;
        if (a)
            free_ids[nfree++] = (int)it.data;
        last = it.time;
    }
    int id;
    double t;
    uint64_t data;
    ok(bad == 0 && pops > steps / 4 && !calq_pop(&q, &id, &t, &data),
       "calq (times of kind %d, %d ids, %zu buckets of %g): %d pops as the heap's", kind, nid, nb,
       width, pops);
    free(free_ids);
    calq_free(&q);
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

    for (int kind = 0; kind < 5; kind++) {
        calq_vs_heap(&r, kind, 64, 256, 0.01, 30000);    /* a bucket a grid step */
        calq_vs_heap(&r, kind, 500, 64, 0.001, 30000);   /* a short window: much past it */
        calq_vs_heap(&r, kind, 500, 4096, 7.0, 30000);   /* wide buckets: long runs and now */
        calq_vs_heap(&r, kind, 3, 64, 1e-9, 2000);       /* few ids */
    }
    calq_vs_heap(&r, 0, 100, 100, 0, 5000);              /* invalid widths: taken as 1 */
    calq_vs_heap(&r, 1, 100, 100, NAN, 5000);
    calq_vs_heap(&r, 2, 100, 0, INFINITY, 5000);
    calq_vs_heap(&r, 3, 100, 1000, 1e-310, 5000);        /* 1 / width overflows */
    return tap_exit();
}
