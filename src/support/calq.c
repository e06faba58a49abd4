/*
 * support/calq.c - the calendar queue (support/calq.h): a circular window of buckets, each
 * an unsorted list of ids, a bit per bucket, and a heap for the items past
 * the window.
 */
#include "support/calq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"

#define FAR ((uint64_t)1 << 62)   /* the bucket of every time at or past FAR buckets */

static inline uint64_t bucket_of(const struct calq *q, double time)
{
    double x = time * q->inv_width;
    if (!(x > 0))
        return 0;   /* 0, -0, and a negative time: the first bucket (then the window's) */
    return x < (double)FAR ? (uint64_t)(int64_t)x : FAR;   /* monotone in time (a signed
                                                            conversion: one instruction) */
}

void calq_init(struct calq *q, int nid, size_t nb, double width)
{
    memset(q, 0, sizeof *q);
    size_t slots = 64;
    while (slots < nb && slots < ((size_t)1 << 30))
        slots *= 2;
    q->inv_width = isfinite(width) && width > 0 && isfinite(1 / width) ? 1 / width : 1;
    q->mask = slots - 1;
    q->head = xmalloc(slots * sizeof *q->head);
    for (size_t i = 0; i < slots; i++)
        q->head[i] = -1;
    q->used = xcalloc(slots / 64, sizeof *q->used);
    q->item = xmalloc((nid > 0 ? (size_t)nid : 1) * sizeof *q->item);
    q->next = xmalloc((nid > 0 ? (size_t)nid : 1) * sizeof *q->next);
    heap_init(&q->now, 0);
    heap_init(&q->later, 0);
}

void calq_free(struct calq *q)
{
    free(q->head);
    free(q->used);
    free(q->item);
    free(q->next);
    heap_free(&q->now);
    heap_free(&q->later);
    memset(q, 0, sizeof *q);
}

/* Put id in bucket b (b >= cur): the first bucket's heap, a slot's list of
 * the window, or later. */
static inline void place(struct calq *q, int32_t id, uint64_t b)
{
    struct calq_item *it = &q->item[id];
    if (b == q->cur) {
        heap_push_seq(&q->now, it->time, it->seq, (uint64_t)id);
    } else if (b - q->cur <= q->mask) {
        size_t slot = (size_t)(b & q->mask);
        q->next[id] = q->head[slot];
        q->head[slot] = id;
        q->used[slot / 64] |= UINT64_C(1) << (slot % 64);
    } else {
        heap_push_seq(&q->later, it->time, it->seq, (uint64_t)id);
    }
}

void calq_push(struct calq *q, int id, double time, uint64_t seq, uint64_t data)
{
    time += 0.0;   /* -0 -> +0, as the heap gives it back */
    q->item[id] = (struct calq_item){time, seq, data};
    q->n++;
    uint64_t b = bucket_of(q, time);
    place(q, id, b < q->cur ? q->cur : b);   /* earlier than the window: its first bucket */
}

/* The window starts at bucket cur (whose slot's list is empty, and so are
 * the run and now): cur's list into the run, sorted (into now if it is
 * long), and the items of later that fall in the window into it. */
static void advance(struct calq *q, uint64_t cur)
{
    q->cur = cur;
    size_t slot = (size_t)(cur & q->mask);
    q->nrun = q->runpos = 0;
    int32_t id = q->head[slot];
    for (; id >= 0 && q->nrun < CALQ_RUN; id = q->next[id])   /* the list, then its items */
        q->run[q->nrun++] = id;
    for (; id >= 0; id = q->next[id])   /* many equal times: the heap sorts the rest */
        heap_push_seq(&q->now, q->item[id].time, q->item[id].seq, (uint64_t)id);
    struct { double time; uint64_t seq; } key[CALQ_RUN];   /* the run's, at hand for the sort */
    for (size_t i = 0; i < q->nrun; i++) {   /* insertion sort */
        int32_t k = q->run[i];
        double t = q->item[k].time;
        uint64_t sq = q->item[k].seq;
        size_t j = i;
        while (j > 0 && (t < key[j - 1].time || (t == key[j - 1].time && sq < key[j - 1].seq))) {
            q->run[j] = q->run[j - 1];
            key[j] = key[j - 1];
            j--;
        }
        q->run[j] = k;
        key[j].time = t;
        key[j].seq = sq;
    }
    q->head[slot] = -1;
    q->used[slot / 64] &= ~(UINT64_C(1) << (slot % 64));
    struct heap_item it;
    while (heap_peek(&q->later, &it) && bucket_of(q, it.time) - cur <= q->mask) {
        heap_pop(&q->later, &it);
        place(q, (int32_t)it.data, bucket_of(q, it.time));
    }
}

/* The distance from cur's slot to the first used slot, or -1 if none. */
static inline int64_t first_used(const struct calq *q)
{
    size_t nwords = (size_t)(q->mask + 1) / 64, s0 = (size_t)(q->cur & q->mask);
    size_t w = s0 / 64;
    uint64_t bits = q->used[w] & (~UINT64_C(0) << (s0 % 64));
    for (size_t k = 0; k <= nwords; k++) {
        if (bits) {
            size_t slot = w * 64 + (size_t)__builtin_ctzll(bits);
            return (int64_t)((slot - s0) & q->mask);
        }
        w = w + 1 == nwords ? 0 : w + 1;
        bits = q->used[w];
    }
    return -1;
}

bool calq_pop(struct calq *q, int *id, double *time, uint64_t *data)
{
    if (q->n == 0)
        return false;
    struct heap_item it;
    while (q->runpos == q->nrun && q->now.n == 0) {   /* the first bucket is done: on to the
                                                       next one that holds any */
        int64_t d = first_used(q);
        if (d < 0) {          /* the window is empty: to later's least */
            heap_peek(&q->later, &it);
            advance(q, bucket_of(q, it.time));
        } else {
            advance(q, q->cur + (uint64_t)d);
        }
    }
    int32_t k = -1;   /* the least of the run's next and now's */
    if (q->runpos < q->nrun) {
        k = q->run[q->runpos];
        if (q->now.n > 0 && heap_peek(&q->now, &it) &&
            (it.time < q->item[k].time || (it.time == q->item[k].time && it.seq < q->item[k].seq)))
            k = -1;
    }
    if (k >= 0) {
        q->runpos++;
    } else {
        heap_pop(&q->now, &it);
        k = (int32_t)it.data;
    }
    q->n--;
    *id = k;
    *time = q->item[k].time;
    *data = q->item[k].data;
    return true;
}
