/*
 * radixq.c - the monotone radix queue (radixq.h).
 *
 * A time maps to a 64-bit key that orders like the double (sign flipped into
 * place), read as 8 digits of 8 bits.  A key above `last` lives in bucket
 * (L, d): L the highest digit where it differs from `last`, d its own digit
 * there.  Every key of level L is above every key of a lower level, and
 * within a level the digit orders them, so the lowest non-empty bucket
 * holds the minimum (each bucket keeps its smallest key).  When the items
 * of key <= last are used up, that bucket gives the new `last` and its items
 * move down: those equal to `last` into the run, sorted by tie (a simulation
 * has many events at one time: sorting them once beats a heap), the others
 * into buckets of lower levels; the other buckets stay valid.  Items pushed
 * at or below `last` afterwards go into a binary heap on (key, tie) beside
 * the run.  Buckets are chains of blocks: a bucket being emptied hands each
 * block to the spare list as soon as it is read, and the buckets its items
 * go to take their blocks from there, so moving items costs no memory (the
 * run is the one copy: an array, sorted in place, or up to 4096 items
 * merged from its ascending stretches through a scratch array as long).
 */
#include "radixq.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "hugemem.h"

#define BIG 4096   /* items: a run or heap array this large is freed when done */

static uint64_t key_of(double t)
{
    uint64_t u;
    t += 0.0;   /* -0 becomes +0: equal times, equal keys */
    memcpy(&u, &t, sizeof u);
    return u >> 63 ? ~u : u | (1ull << 63);
}

static double time_of(uint64_t key)
{
    uint64_t u = key >> 63 ? key & ~(1ull << 63) : ~key;
    double t;
    memcpy(&t, &u, sizeof t);
    return t;
}

double rq_time(const struct rq_item *it)
{
    return time_of(it->key);
}

void rq_init(struct radixq *q)
{
    memset(q, 0, sizeof *q);
    q->last = key_of(0.0);
}

void rq_free(struct radixq *q)
{
    while (q->slabs) {
        struct rq_slab *next = q->slabs->next;
        free(q->slabs);
        q->slabs = next;
    }
    free(q->run.item);
    free(q->heap.item);
    free(q->tmp.item);
    free(q->b);
    memset(q, 0, sizeof *q);
}

static void reserve(struct radixq *q, struct rq_array *b, size_t want)
{
    if (want <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 16;
    while (cap < want)
        cap *= 2;
    b->item = xrealloc(b->item, cap * sizeof *b->item);
    q->bytes += (cap - b->cap) * sizeof *b->item;
    if (q->bytes > q->peak_bytes)
        q->peak_bytes = q->bytes;
    b->cap = cap;
}

static void release(struct radixq *q, struct rq_array *b)
{
    q->bytes -= b->cap * sizeof *b->item;
    free(b->item);
    b->item = NULL;
    b->cap = b->len = 0;
}

static void append(struct radixq *q, struct rq_array *b, struct rq_item it)
{
    if (b->len == b->cap)
        reserve(q, b, b->len + 1);
    b->item[b->len++] = it;
}

#define SLAB_MIN 16      /* blocks in the first slab */
#define SLAB_MAX 4096    /* blocks in the largest (4 MB) */

static struct rq_block *new_block(struct radixq *q)
{
    struct rq_block *k = q->spare;
    if (k) {
        q->spare = k->next;
    } else {
        struct rq_slab *sl = q->slabs;
        if (!sl || sl->used == sl->nblocks) {
            size_t nb = sl ? (sl->nblocks < SLAB_MAX ? 2 * sl->nblocks : SLAB_MAX) : SLAB_MIN;
            size_t size = sizeof *sl + nb * sizeof sl->block[0];
            sl = xmalloc(size);
            mem_advise_huge(sl, size);   /* nothing for the small ones */
            sl->nblocks = nb;
            sl->used = 0;
            sl->next = q->slabs;
            q->slabs = sl;
            q->bytes += size;
            if (q->bytes > q->peak_bytes)
                q->peak_bytes = q->bytes;
        }
        k = &sl->block[sl->used++];
    }
    k->next = NULL;
    return k;
}

static void chain_add(struct radixq *q, struct rq_bucket *b, struct rq_item it)
{
    size_t at = b->len % RQ_BLOCK;
    if (at == 0) {
        struct rq_block *k = new_block(q);
        if (b->tail)
            b->tail->next = k;
        else
            b->head = k;
        b->tail = k;
    }
    b->tail->item[at] = it;
    b->len++;
}

static int less(const struct rq_item *a, const struct rq_item *b)
{
    return a->key < b->key || (a->key == b->key && a->tie < b->tie);
}

static void heap_push(struct radixq *q, struct rq_item it)
{
    struct rq_array *h = &q->heap;
    append(q, h, it);
    size_t i = h->len - 1;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!less(&it, &h->item[up]))
            break;
        h->item[i] = h->item[up];
        i = up;
    }
    h->item[i] = it;
}

static void heap_pop(struct radixq *q)
{
    struct rq_array *h = &q->heap;
    struct rq_item last = h->item[--h->len];
    size_t n = h->len, i = 0;
    if (n == 0)
        return;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && less(&h->item[c + 1], &h->item[c]))
            c++;
        if (!less(&h->item[c], &last))
            break;
        h->item[i] = h->item[c];
        i = c;
    }
    h->item[i] = last;
}

/* File a key above q->last into its bucket (see above). */
static void bucket_add(struct radixq *q, struct rq_item it)
{
    unsigned level = (unsigned)(63 - __builtin_clzll(it.key ^ q->last)) / RQ_BITS;
    unsigned digit = (unsigned)(it.key >> (level * RQ_BITS)) & (RQ_FANOUT - 1);
    uint64_t *word = &q->used[level][digit / 64], bit = 1ull << (digit % 64);
    if (*word & bit) {
        struct rq_bucket *b = &q->b[level * RQ_FANOUT + digit];
        if (it.key < b->min)
            b->min = it.key;
        chain_add(q, b, it);
        return;
    }
    /* A fresh header: the headers are never cleared, one is read only while
     * its used bit is set. */
    if (!q->b)
        q->b = xmalloc(RQ_LEVELS * RQ_FANOUT * sizeof *q->b);
    struct rq_bucket *b = &q->b[level * RQ_FANOUT + digit];
    struct rq_block *k = new_block(q);
    k->item[0] = it;
    b->head = b->tail = k;
    b->len = 1;
    b->min = it.key;
    *word |= bit;
    q->levels |= 1ull << level;
}

/* The lowest non-empty bucket; q->levels must not be 0. */
static int lowest_bucket(const struct radixq *q)
{
    int level = __builtin_ctzll(q->levels), w = 0;
    while (!q->used[level][w])
        w++;
    return level * RQ_FANOUT + w * 64 + __builtin_ctzll(q->used[level][w]);
}

void rq_push(struct radixq *q, double time, uint32_t tie, int32_t val)
{
    struct rq_item it = {key_of(time), tie, val};
    q->len++;
    if (it.key <= q->last)
        heap_push(q, it);
    else
        bucket_add(q, it);
}

static void insertion_sort(struct rq_item *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct rq_item x = a[i];
        size_t j = i;
        for (; j > 0 && a[j - 1].tie > x.tie; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

/* Quicksort on tie (median of three), insertion sort below 32 items. */
static void quick_sort(struct rq_item *a, size_t n)
{
    while (n > 32) {
        uint32_t x = a[0].tie, y = a[n / 2].tie, z = a[n - 1].tie;
        uint32_t pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
        size_t i = 0, j = n - 1;
        for (;;) {
            while (a[i].tie < pivot)
                i++;
            while (a[j].tie > pivot)
                j--;
            if (i >= j)
                break;
            struct rq_item t = a[i];
            a[i++] = a[j];
            a[j--] = t;
        }
        /* [0, j] <= pivot <= [j + 1, n): recurse on the smaller side */
        size_t left = j + 1;
        if (left < n - left) {
            quick_sort(a, left);
            a += left;
            n -= left;
        } else {
            quick_sort(a + left, n - left);
            n = left;
        }
    }
    insertion_sort(a, n);
}

/*
 * American flag sort: an in-place radix sort on the tie's bytes from `shift`
 * down, for long runs (one event time shared by a whole class of identical
 * nodes): no scratch array, so a run of a million items costs no second
 * copy.
 */
static void flag_sort(struct rq_item *a, size_t n, int shift)
{
    if (n <= 32) {
        insertion_sort(a, n);   /* the bytes above shift are equal: compare whole ties */
        return;
    }
    size_t count[256] = {0}, next[256], end[256];
    for (size_t i = 0; i < n; i++)
        count[a[i].tie >> shift & 0xffu]++;
    size_t at = 0;
    for (int b = 0; b < 256; b++) {
        next[b] = at;
        at += count[b];
        end[b] = at;
    }
    for (int b = 0; b < 256; b++)
        while (next[b] < end[b]) {   /* cycle each misplaced item to its byte's area */
            struct rq_item x = a[next[b]];
            unsigned d = x.tie >> shift & 0xffu;
            while (d != (unsigned)b) {
                struct rq_item y = a[next[d]];
                a[next[d]++] = x;
                x = y;
                d = x.tie >> shift & 0xffu;
            }
            a[next[b]++] = x;
        }
    if (shift == 0)
        return;
    size_t lo = 0;
    for (int b = 0; b < 256; lo += count[b], b++)
        if (count[b] > 1)
            flag_sort(a + lo, count[b], shift - 8);
}

/* Merge the ascending runs a[0..m) and a[m..n) by tie, through tmp. */
static void merge_runs(struct rq_item *a, size_t m, size_t n, struct rq_item *tmp)
{
    memcpy(tmp, a, m * sizeof *a);
    size_t i = 0, j = m, k = 0;
    while (i < m && j < n)
        a[k++] = a[j].tie < tmp[i].tie ? a[j++] : tmp[i++];
    memcpy(a + k, tmp + i, (m - i) * sizeof *a);   /* what is left of a[m..n) is in place */
}

#define MAX_ASC 8   /* ascending stretches a run is merged from; more: quicksort */

/*
 * A run of equal times arrives nearly sorted by tie: its items were pushed
 * in the order of the events that made them, a few ascending stretches one
 * after the other (one per earlier time that pushed into it).  Find them;
 * with one there is nothing to do, with a few merge them (n log k), with
 * many quicksort.
 */
static void sort_small(struct radixq *q, struct rq_item *a, size_t n)
{
    size_t cut[MAX_ASC + 1], k = 0;
    cut[k++] = 0;
    for (size_t i = 1; i < n; i++)
        if (a[i].tie < a[i - 1].tie) {
            if (k == MAX_ASC) {
                quick_sort(a, n);
                return;
            }
            cut[k++] = i;
        }
    if (k == 1)
        return;
    if (n <= 16) {
        insertion_sort(a, n);
        return;
    }
    cut[k] = n;
    reserve(q, &q->tmp, n);
    while (k > 1) {   /* merge neighbours pairwise until one stretch is left */
        size_t m = 0;
        for (size_t r = 0; r + 1 < k; r += 2) {
            merge_runs(a + cut[r], cut[r + 1] - cut[r], cut[r + 2] - cut[r], q->tmp.item);
            cut[m++] = cut[r];
        }
        if (k % 2)
            cut[m++] = cut[k - 1];
        cut[m] = n;
        k = m;
    }
}

/* Sort the run by tie: ascending stretches merged or quicksort up to a few
 * thousand items, an in-place radix sort beyond, from the highest byte that
 * is not the same in all. */
static void sort_run(struct radixq *q)
{
    struct rq_item *a = q->run.item;
    size_t n = q->run.len;
    if (n <= 4096) {
        sort_small(q, a, n);
        return;
    }
    uint32_t all_and = ~0u, all_or = 0, prev = 0;
    bool sorted = true;
    for (size_t i = 0; i < n; i++) {
        all_and &= a[i].tie;
        all_or |= a[i].tie;
        sorted = sorted && a[i].tie >= prev;
        prev = a[i].tie;
    }
    if (sorted)
        return;
    int shift = 24;
    while (shift > 0 && ((all_and ^ all_or) >> shift & 0xffu) == 0)
        shift -= 8;
    flag_sort(a, n, shift);
}

static void prefetch_block(const struct rq_block *k)
{
    for (size_t off = 0; off < sizeof *k; off += 64)
        __builtin_prefetch((const char *)k + off);
}

/* The run and the heap are empty: refill them from the lowest non-empty bucket. */
static void refill(struct radixq *q)
{
    int i = lowest_bucket(q), level = i / RQ_FANOUT, digit = i % RQ_FANOUT;
    struct rq_bucket *b = &q->b[i];
    uint64_t min = b->min;
    q->used[level][digit / 64] &= ~(1ull << (digit % 64));
    bool empty = true;
    for (int w = 0; w < RQ_FANOUT / 64; w++)
        empty = empty && !q->used[level][w];
    if (empty)
        q->levels &= ~(1ull << level);
    q->last = min;
    q->run.len = q->run_at = 0;
    reserve(q, &q->run, b->len);   /* once: growing it would copy a long run */
    struct rq_block *k = b->head;
    size_t left = b->len;
    b->head = b->tail = NULL;
    b->len = 0;
    /* The blocks were written long ago, at random places: ask for each one
     * whole two blocks ahead of the one being read, so that misses overlap
     * (not for a bucket of one block, the most common: it is read at once). */
    if (k->next)
        prefetch_block(k->next);
    while (k) {
        if (k->next && k->next->next)
            prefetch_block(k->next->next);
        size_t m = left < RQ_BLOCK ? left : RQ_BLOCK;
        for (size_t j = 0; j < m; j++) {
            if (k->item[j].key == min)
                append(q, &q->run, k->item[j]);
            else
                bucket_add(q, k->item[j]);   /* a lower level */
        }
        left -= m;
        struct rq_block *next = k->next;
        k->next = q->spare;   /* read: reusable at once */
        q->spare = k;
        k = next;
    }
    sort_run(q);
}

/* The smallest item: the run's head or the heap's top; NULL if both are empty. */
static const struct rq_item *low(const struct radixq *q)
{
    const struct rq_item *r = q->run_at < q->run.len ? &q->run.item[q->run_at] : NULL;
    const struct rq_item *h = q->heap.len ? &q->heap.item[0] : NULL;
    if (r && h)
        return less(h, r) ? h : r;
    return r ? r : h;
}

const struct rq_item *rq_top(struct radixq *q)
{
    const struct rq_item *it = low(q);
    if (it || !q->levels)
        return it;
    refill(q);
    return low(q);
}

double rq_min_time(const struct radixq *q)
{
    const struct rq_item *it = low(q);
    if (it)
        return time_of(it->key);
    if (!q->levels)
        return __builtin_inf();
    return time_of(q->b[lowest_bucket(q)].min);
}

void rq_pop(struct radixq *q)
{
    const struct rq_item *it = rq_top(q);
    if (!it)
        return;
    q->len--;
    if (q->run_at < q->run.len && it == &q->run.item[q->run_at]) {
        if (++q->run_at == q->run.len) {
            q->run.len = q->run_at = 0;
            if (q->run.cap > BIG)
                release(q, &q->run);
        }
    } else {
        heap_pop(q);
    }
}

size_t rq_trim(struct radixq *q, size_t keep)
{
    size_t dropped = 0;
    while (q->levels && q->len > keep) {
        int level = 63 - __builtin_clzll(q->levels), w = RQ_FANOUT / 64 - 1;
        while (!q->used[level][w])
            w--;
        int digit = w * 64 + 63 - __builtin_clzll(q->used[level][w]);
        struct rq_bucket *b = &q->b[level * RQ_FANOUT + digit];
        if (q->len - b->len < keep)
            break;
        /* Its blocks, all at once, to the spare list: the chain's tail
         * points at what was there. */
        b->tail->next = q->spare;
        q->spare = b->head;
        q->len -= b->len;
        dropped += b->len;
        q->used[level][w] &= ~(1ull << (digit % 64));
        if (!q->used[level][w]) {
            bool empty = true;
            for (int v = 0; v < RQ_FANOUT / 64; v++)
                empty = empty && !q->used[level][v];
            if (empty)
                q->levels &= ~(1ull << level);
        }
    }
    return dropped;
}

int rq_take(struct radixq *q, double limit, struct rq_item *out)
{
    const struct rq_item *it = low(q);
    if (!it) {
        if (!q->levels || time_of(q->b[lowest_bucket(q)].min) > limit)
            return 0;
        refill(q);
        it = low(q);
    } else if (time_of(it->key) > limit) {
        return 0;
    }
    *out = *it;
    q->len--;
    if (q->run_at < q->run.len && it == &q->run.item[q->run_at]) {
        if (++q->run_at == q->run.len) {
            q->run.len = q->run_at = 0;
            if (q->run.cap > BIG)
                release(q, &q->run);
        }
    } else {
        heap_pop(q);
    }
    return 1;
}
