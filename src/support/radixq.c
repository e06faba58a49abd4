/*
 * support/radixq.c - the monotone radix queue (support/radixq.h).
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
 * go to take their blocks from there, so moving items costs no memory.
 * Neither does the run: up to RQ_LONG items it is copied into an array
 * (sorted in place, or merged from its ascending stretches through a
 * scratch array as long) while the blocks they came from are reused at
 * once; beyond that it goes on in blocks just read (refill), or is the
 * bucket's own chain when the bucket holds one key (level 0), sorted in
 * place across its blocks (flag_sort_blocks) and handed back block by block
 * as it is popped (run_step).  rq_trim drops whole buckets, then the run's
 * tail.
 */
#include "support/radixq.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"
#include "support/hugemem.h"
#include "support/timekey.h"

double rq_time(const struct rq_item *it)
{
    return key_time(it->key);
}

void rq_init(struct radixq *q)
{
    memset(q, 0, sizeof *q);
    q->last = time_key(0.0);
    q->heap_tie = -1;
}

void rq_free(struct radixq *q)
{
    while (q->slabs) {
        struct rq_slab *next = q->slabs->next;
        free(q->slabs);
        q->slabs = next;
    }
    free(q->run.item);
    free(q->blk_table);
    free(q->cut_table);
    free(q->heap.item);
    free(q->tmp.item);
    free(q->b);
    memset(q, 0, sizeof *q);
}

/* Room for exactly `want` items (a count known in advance). */
static void reserve_exact(struct radixq *q, struct rq_array *b, size_t want)
{
    if (want <= b->cap)
        return;
    b->item = xrealloc(b->item, want * sizeof *b->item);
    q->bytes += (want - b->cap) * sizeof *b->item;
    if (q->bytes > q->peak_bytes)
        q->peak_bytes = q->bytes;
    b->cap = want;
}

/* Room for `want` items, the capacity doubled as far as needed. */
static void reserve(struct radixq *q, struct rq_array *b, size_t want)
{
    if (want <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 16;
    while (cap < want)
        cap *= 2;
    reserve_exact(q, b, cap);
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
    if (n == 0) {
        q->heap_tie = -1;
        return;
    }
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

/* A bucket's first item: the headers are never cleared, one is read only
 * while its used bit is set. */
__attribute__((noinline)) static void bucket_new(struct radixq *q, struct rq_item it, unsigned level,
                                                 unsigned digit)
{
    if (!q->b)
        q->b = xmalloc(RQ_LEVELS * RQ_FANOUT * sizeof *q->b);
    struct rq_bucket *b = &q->b[level * RQ_FANOUT + digit];
    struct rq_block *k = new_block(q);
    k->item[0] = it;
    b->head = b->tail = k;
    b->len = 1;
    b->min = it.key;
    q->used[level][digit / 64] |= 1ull << (digit % 64);
    q->levels |= 1ull << level;
}

/* File a key above q->last into its bucket (see above); inlined in the
 * loops that move items (refill has two). */
__attribute__((always_inline)) static inline void bucket_add(struct radixq *q, struct rq_item it)
{
    unsigned level = (unsigned)(63 - __builtin_clzll(it.key ^ q->last)) / RQ_BITS;
    unsigned digit = (unsigned)(it.key >> (level * RQ_BITS)) & (RQ_FANOUT - 1);
    if (!(q->used[level][digit / 64] >> (digit % 64) & 1)) {
        bucket_new(q, it, level, digit);
        return;
    }
    struct rq_bucket *b = &q->b[level * RQ_FANOUT + digit];
    if (it.key < b->min)
        b->min = it.key;
    chain_add(q, b, it);
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
    struct rq_item it = {time_key(time), tie, val};
    q->len++;
    if (it.key <= q->last) {
        if (it.key == q->last && (int64_t)it.tie > q->heap_tie)
            q->heap_tie = it.tie;
        heap_push(q, it);
    }
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

/*
 * American flag sort: an in-place radix sort on the tie's bytes from `shift`
 * down, for long runs (one event time shared by a whole class of identical
 * nodes): no scratch array.  Here on an array: a stretch of a long run
 * copied out of its blocks (flag_sort_blocks).
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

/* Quicksort on tie (median of three), insertion sort below 32 items; an
 * introsort: past `depth` levels (2 log2 n to start) the rest goes to the
 * radix sort, so that no order of ties makes it quadratic (the middle of
 * three is, on a sorted run with one item out of place). */
static void quick_sort(struct rq_item *a, size_t n, int depth)
{
    while (n > 32) {
        if (depth-- == 0) {
            flag_sort(a, n, 24);
            return;
        }
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
            quick_sort(a, left, depth);
            a += left;
            n -= left;
        } else {
            quick_sort(a + left, n - left, depth);
            n = left;
        }
    }
    insertion_sort(a, n);
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
                quick_sort(a, n, 2 * (63 - __builtin_clzll((unsigned long long)n)));
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

/* Item i of a long run, in its blocks. */
#define AT(blk, i) ((blk)[(i) / RQ_BLOCK]->item[(i) % RQ_BLOCK])

/*
 * flag_sort on a long run where it lies, items [lo, lo + n) of its blocks:
 * the same American flag sort, each position read through the block
 * pointers, down to stretches of SORT_LOCAL items, sorted in a local copy.
 */
#define SORT_LOCAL 1024   /* items: a stretch this short is sorted in a local copy */

/* Sort items [lo, lo + n) of a long run, n <= SORT_LOCAL, in a copy on the
 * stack (16 KB): sequential copies instead of a pointer a position. */
__attribute__((noinline)) static void sort_local(struct rq_block **blk, size_t lo, size_t n,
                                                 int shift)
{
    struct rq_item a[SORT_LOCAL];
    for (size_t i = 0; i < n;) {   /* block by block */
        size_t at = (lo + i) % RQ_BLOCK, m = RQ_BLOCK - at < n - i ? RQ_BLOCK - at : n - i;
        memcpy(a + i, &blk[(lo + i) / RQ_BLOCK]->item[at], m * sizeof *a);
        i += m;
    }
    flag_sort(a, n, shift);
    for (size_t i = 0; i < n;) {
        size_t at = (lo + i) % RQ_BLOCK, m = RQ_BLOCK - at < n - i ? RQ_BLOCK - at : n - i;
        memcpy(&blk[(lo + i) / RQ_BLOCK]->item[at], a + i, m * sizeof *a);
        i += m;
    }
}

static void flag_sort_blocks(struct rq_block **blk, size_t lo, size_t n, int shift)
{
    if (n <= SORT_LOCAL) {
        sort_local(blk, lo, n, shift);
        return;
    }
    /* next[b]: the next position of byte b's area; at[b]: that item, read
     * through the table only when a block boundary is crossed */
    size_t count[256] = {0}, next[256], end[256], stop = lo + n;
    struct rq_item *at[256];
    for (size_t i = lo; i < stop; i++)
        count[AT(blk, i).tie >> shift & 0xffu]++;
    size_t pos = lo;
    for (int b = 0; b < 256; b++) {
        next[b] = pos;
        at[b] = pos < stop ? &AT(blk, pos) : NULL;
        pos += count[b];
        end[b] = pos;
    }
#define ADVANCE(d) (++next[d] % RQ_BLOCK ? (void)at[d]++ \
                    : (void)(at[d] = next[d] < stop ? &AT(blk, next[d]) : NULL))
    for (int b = 0; b < 256; b++)
        while (next[b] < end[b]) {   /* cycle each misplaced item to its byte's area */
            struct rq_item x = *at[b];
            unsigned d = x.tie >> shift & 0xffu;
            while (d != (unsigned)b) {
                struct rq_item y = *at[d];
                *at[d] = x;
                ADVANCE(d);
                x = y;
                d = x.tie >> shift & 0xffu;
            }
            *at[b] = x;
            ADVANCE(b);
        }
#undef ADVANCE
    if (shift == 0)
        return;
    for (int b = 0; b < 256; lo += count[b], b++)
        if (count[b] > 1)
            flag_sort_blocks(blk, lo, count[b], shift - 8);
}

/* Sort a long run by tie where it lies: nothing to do if it is sorted, else
 * the in-place radix sort from the highest byte that is not the same in all
 * (no scratch array: a run of a million items costs no second copy). */
static void sort_long(struct rq_block **blk, size_t n)
{
    uint32_t all_and = ~0u, all_or = 0, prev = 0;
    bool sorted = true;
    for (size_t j = 0; j * RQ_BLOCK < n; j++) {
        const struct rq_item *a = blk[j]->item;
        size_t m = n - j * RQ_BLOCK < RQ_BLOCK ? n - j * RQ_BLOCK : RQ_BLOCK;
        for (size_t i = 0; i < m; i++) {
            all_and &= a[i].tie;
            all_or |= a[i].tie;
            sorted = sorted && a[i].tie >= prev;
            prev = a[i].tie;
        }
    }
    if (sorted)
        return;
    int shift = 24;
    while (shift > 0 && ((all_and ^ all_or) >> shift & 0xffu) == 0)
        shift -= 8;
    flag_sort_blocks(blk, 0, n, shift);
}

static void prefetch_block(const struct rq_block *k)
{
    for (size_t off = 0; off < sizeof *k; off += 64)
        __builtin_prefetch((const char *)k + off);
}

static void to_spare(struct radixq *q, struct rq_block *k)
{
    k->next = q->spare;
    q->spare = k;
}

/* Take the lowest non-empty bucket out of the bitmaps; its level in *level. */
static struct rq_bucket *take_lowest(struct radixq *q, int *level)
{
    int i = lowest_bucket(q), digit = i % RQ_FANOUT;
    *level = i / RQ_FANOUT;
    q->used[*level][digit / 64] &= ~(1ull << (digit % 64));
    bool empty = true;
    for (int w = 0; w < RQ_FANOUT / 64; w++)
        empty = empty && !q->used[*level][w];
    if (empty)
        q->levels &= ~(1ull << *level);
    return &q->b[i];
}

/* Room for `want` items in the short run's array (at most RQ_LONG):
 * doubling, so that the array stops growing soon; it is kept. */
static void run_room(struct radixq *q, size_t want)
{
    if (want <= q->run.cap)
        return;
    size_t cap = q->run.cap ? q->run.cap : 16;
    while (cap < want)
        cap *= 2;
    reserve_exact(q, &q->run, cap < RQ_LONG ? cap : RQ_LONG);
}

/* A block table of at least nb entries in *tab (kept, growing by half). */
static struct rq_block **table(struct radixq *q, struct rq_block ***tab, size_t *cap, size_t nb)
{
    if (nb > *cap) {
        size_t want = nb > *cap + *cap / 2 ? nb : *cap + *cap / 2;
        *tab = xrealloc(*tab, want * sizeof **tab);
        q->bytes += (want - *cap) * sizeof **tab;
        if (q->bytes > q->peak_bytes)
            q->peak_bytes = q->bytes;
        *cap = want;
    }
    return *tab;
}

/* The long run's blocks in a table: nb of them, chained from k. */
static void run_table(struct radixq *q, struct rq_block *k, size_t n)
{
    size_t nb = (n + RQ_BLOCK - 1) / RQ_BLOCK;
    struct rq_block **blk = table(q, &q->blk_table, &q->blk_cap, nb);
    for (size_t j = 0; j < nb; j++, k = k->next)
        blk[j] = k;
    q->run_blk = blk;
    q->run_len = n;
    q->run_cur = n ? &blk[0]->item[0] : NULL;
}

/*
 * The run and the heap are empty: refill them from the lowest non-empty
 * bucket.  Its blocks were written long ago, at random places: each one is
 * asked for whole two blocks ahead of the one being read, so that misses
 * overlap (not for a bucket of one block, the most common: it is read at
 * once).  Each block goes to the spare list as soon as it is read, and the
 * items that are not of the smallest key go to lower buckets, which take
 * their blocks from there.  The smallest key's items, the run, go to the
 * run's array while they fit in RQ_LONG; a bucket that may hold more goes
 * on in blocks: the array is spilled into blocks from the spare list, and
 * each later block is copied out and handed back before its items are
 * filed, so that the run's blocks are always blocks just read (no second
 * copy, no new slab).  A level-0 bucket holds one key only: a long one is
 * the run as it stands, chain and all.
 */
static void refill(struct radixq *q)
{
    int level;
    struct rq_bucket *b = take_lowest(q, &level);
    uint64_t min = b->min;
    size_t left = b->len, w = 0;
    struct rq_block *k = b->head;
    b->head = b->tail = NULL;
    b->len = 0;
    q->last = min;
    q->heap_tie = -1;
    q->run_at = 0;
    if (k->next)
        prefetch_block(k->next);
    if (level == 0 && left > RQ_LONG) {
        for (struct rq_block *p = k; p; p = p->next)
            if (p->next && p->next->next)
                prefetch_block(p->next->next);
        run_table(q, k, left);
        sort_long(q->run_blk, left);
        return;
    }
    struct rq_item *run = NULL;
    /* the run in blocks, once it may be long: the first and the one written */
    struct rq_block *rhead = NULL, *rtail = NULL;
    while (k) {
        if (k->next && k->next->next)
            prefetch_block(k->next->next);
        size_t m = left < RQ_BLOCK ? left : RQ_BLOCK;
        struct rq_block *next = k->next;
        if (!rhead && w + m <= RQ_LONG) {
            run_room(q, w + m);
            run = q->run.item;
            for (size_t j = 0; j < m; j++) {
                if (k->item[j].key == min)
                    run[w++] = k->item[j];
                else
                    bucket_add(q, k->item[j]);   /* a lower level */
            }
            to_spare(q, k);   /* read: reusable at once */
        } else {
            if (!rhead) {   /* the array into blocks: w <= the items read, their blocks are spare */
                rhead = rtail = new_block(q);
                for (size_t j = 0; j < w; j++) {
                    if (j && j % RQ_BLOCK == 0)
                        rtail = rtail->next = new_block(q);
                    rtail->item[j % RQ_BLOCK] = run[j];
                }
            }
            struct rq_item item[RQ_BLOCK];
            memcpy(item, k->item, m * sizeof *item);
            to_spare(q, k);
            for (size_t j = 0; j < m; j++) {
                if (item[j].key == min) {
                    if (w && w % RQ_BLOCK == 0)
                        rtail = rtail->next = new_block(q);
                    rtail->item[w++ % RQ_BLOCK] = item[j];
                } else {
                    bucket_add(q, item[j]);
                }
            }
        }
        left -= m;
        k = next;
    }
    if (!rhead) {
        sort_small(q, run, w);
        q->run_len = w;
        q->run_cur = w ? run : NULL;
        return;
    }
    run_table(q, rhead, w);
    sort_long(q->run_blk, w);
}

/* Blocks [from, to) of the long run back to the spare list. */
static void run_give_back(struct radixq *q, size_t from, size_t to)
{
    for (size_t j = from; j < to; j++)
        to_spare(q, q->run_blk[j]);
}

/* The run is used up (run_at == run_len): its blocks not given back yet go. */
static void run_end(struct radixq *q)
{
    if (q->run_blk) {
        run_give_back(q, q->run_at / RQ_BLOCK, (q->run_len + RQ_BLOCK - 1) / RQ_BLOCK);
        q->run_blk = NULL;
    }
    q->run_cur = NULL;
    q->run_at = q->run_len = 0;
}

/* The run's head was taken and run_at moved on to i: at the end of a long
 * run's block, or of the run (the rare cases of take_out). */
__attribute__((noinline)) static void run_step(struct radixq *q, size_t i)
{
    if (q->run_blk && i % RQ_BLOCK == 0)
        to_spare(q, q->run_blk[i / RQ_BLOCK - 1]);   /* used up: reusable */
    if (i == q->run_len)
        run_end(q);
    else if (q->run_blk && i % RQ_BLOCK == 0)
        q->run_cur = &q->run_blk[i / RQ_BLOCK]->item[0];
    else
        q->run_cur++;
}

/* The smallest item: the run's head or the heap's top; NULL if both are empty. */
static const struct rq_item *low(const struct radixq *q)
{
    const struct rq_item *r = q->run_cur;
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
        return key_time(it->key);
    if (!q->levels)
        return __builtin_inf();
    return key_time(q->b[lowest_bucket(q)].min);
}

/* Take out `it`, the smallest item (the run's head or the heap's top). */
static void take_out(struct radixq *q, const struct rq_item *it)
{
    q->len--;
    if (it == q->run_cur) {
        size_t i = ++q->run_at;
        if (__builtin_expect(i < q->run_len && (!q->run_blk || i % RQ_BLOCK), 1))
            q->run_cur++;
        else
            run_step(q, i);
    } else {
        heap_pop(q);
    }
}

void rq_pop(struct radixq *q)
{
    const struct rq_item *it = rq_top(q);
    if (it)
        take_out(q, it);
}

/* The run's item i (run_at <= i < run_len). */
static const struct rq_item *run_item(const struct radixq *q, size_t i)
{
    return q->run_blk ? &AT(q->run_blk, i) : &q->run.item[i];
}

/*
 * No bucket is left: drop up to `cut` items off the run's end, its largest.
 * Not one the heap must come after: the heap holds keys <= last, and those
 * of key == last have ties up to heap_tie.
 */
static size_t trim_run(struct radixq *q, size_t cut)
{
    size_t old = q->run_len, n = old - (cut < old - q->run_at ? cut : old - q->run_at);
    if (q->heap_tie >= 0)
        while (n < old && (int64_t)run_item(q, n)->tie <= q->heap_tie)
            n++;
    if (n == old)
        return 0;
    if (q->run_blk)
        run_give_back(q, (n + RQ_BLOCK - 1) / RQ_BLOCK, (old + RQ_BLOCK - 1) / RQ_BLOCK);
    q->run_len = n;
    q->len -= old - n;
    if (n == q->run_at)
        run_end(q);
    return old - n;
}

/*
 * Selection on a bucket's blocks (rq_trim's cut): put the k smallest items
 * (by key, tie) of [lo, hi) first, the k-th of them at lo + k - 1.
 * Introselect (Musser): each step partitions the range three ways around a
 * pivot and goes on in the part that holds the k-th item, or stops when the
 * pivot's equals hold it.  The pivot is guessed (the middle of three items,
 * or of three such middles on a large range) while that works; when two
 * steps in a row did not halve the range, the next two take the median of
 * the medians of five, which leaves at most 7/10 of the range on either
 * side.  So the cost is linear whatever the order of the items: at most 32
 * passes over the range (about 2 in practice), counted in *steps.  The
 * middle of three alone was quadratic on a sorted bucket with one item out
 * of place, which fnf's senders make: long runs of equal times, ties
 * ascending.
 */
static void select_blocks(struct rq_block **blk, size_t lo, size_t hi, size_t k,
                          uint64_t *steps);

static void swap_at(struct rq_block **blk, size_t i, size_t j)
{
    struct rq_item t = AT(blk, i);
    AT(blk, i) = AT(blk, j);
    AT(blk, j) = t;
}

/* Insertion sort of [lo, hi): a few items. */
static void sort_few(struct rq_block **blk, size_t lo, size_t hi)
{
    for (size_t x = lo + 1; x < hi; x++) {
        struct rq_item t = AT(blk, x);
        size_t y = x;
        for (; y > lo && less(&t, &AT(blk, y - 1)); y--)
            AT(blk, y) = AT(blk, y - 1);
        AT(blk, y) = t;
    }
}

static struct rq_item middle(struct rq_item a, struct rq_item b, struct rq_item c)
{
    return less(&a, &b) ? (less(&b, &c) ? b : less(&a, &c) ? c : a)
                        : (less(&a, &c) ? a : less(&b, &c) ? c : b);
}

#define SELECT_NINTHER 1024   /* items: from here the guess is the middle of three middles */

static struct rq_item guess_pivot(struct rq_block **blk, size_t lo, size_t hi)
{
    size_t n = hi - lo, m = lo + n / 2, e = n / 8;
    if (n < SELECT_NINTHER)
        return middle(AT(blk, lo), AT(blk, m), AT(blk, hi - 1));
    return middle(middle(AT(blk, lo), AT(blk, lo + e), AT(blk, lo + 2 * e)),
                  middle(AT(blk, m - e), AT(blk, m), AT(blk, m + e)),
                  middle(AT(blk, hi - 1 - 2 * e), AT(blk, hi - 1 - e), AT(blk, hi - 1)));
}

/* The median of the medians of five (hi - lo >= 5): each group sorted, its
 * middle moved to the front, and the middle of those selected there. */
static struct rq_item median_of_medians(struct rq_block **blk, size_t lo, size_t hi,
                                        uint64_t *steps)
{
    size_t ng = (hi - lo) / 5;
    *steps += hi - lo;
    for (size_t g = 0; g < ng; g++) {
        sort_few(blk, lo + 5 * g, lo + 5 * g + 5);
        swap_at(blk, lo + g, lo + 5 * g + 2);
    }
    select_blocks(blk, lo, lo + ng, ng / 2 + 1, steps);
    return AT(blk, lo + ng / 2);
}

/* Partition [lo, hi) around p (Bentley and McIlroy): [lo, *lt) < p,
 * [*lt, *gt) == p, [*gt, hi) > p.  Equals are swapped to the ends as they
 * are met, then to the middle. */
static void partition3(struct rq_block **blk, size_t lo, size_t hi, const struct rq_item *p,
                       size_t *lt, size_t *gt)
{
    /* [lo, a) == p, [a, b) < p, [b, c] not seen, (c, d] > p, (d, hi) == p */
    size_t a = lo, b = lo, c = hi - 1, d = hi - 1;
    for (;;) {
        for (; b <= c && !less(p, &AT(blk, b)); b++)
            if (!less(&AT(blk, b), p))
                swap_at(blk, a++, b);
        for (; c >= b && !less(&AT(blk, c), p); c--)
            if (!less(p, &AT(blk, c)))
                swap_at(blk, c, d--);
        if (b > c)
            break;
        swap_at(blk, b++, c--);
    }
    size_t s = a - lo < b - a ? a - lo : b - a;
    for (size_t x = 0; x < s; x++)
        swap_at(blk, lo + x, b - s + x);
    s = d - c < hi - 1 - d ? d - c : hi - 1 - d;
    for (size_t x = 0; x < s; x++)
        swap_at(blk, b + x, hi - s + x);
    *lt = lo + (b - a);
    *gt = hi - (d - c);
}

static void select_blocks(struct rq_block **blk, size_t lo, size_t hi, size_t k,
                          uint64_t *steps)
{
    size_t span = hi - lo;   /* the range two steps ago */
    int step = 0;
    bool sure = false;       /* the median of medians for these two steps */
    while (hi - lo > 16) {
        struct rq_item p = sure ? median_of_medians(blk, lo, hi, steps) : guess_pivot(blk, lo, hi);
        size_t lt, gt;
        *steps += hi - lo;
        partition3(blk, lo, hi, &p, &lt, &gt);
        if (k <= lt - lo) {
            hi = lt;
        } else if (k <= gt - lo) {
            return;   /* the k-th is an equal of p: at lo + k - 1 */
        } else {
            k -= gt - lo;
            lo = gt;
        }
        if (++step == 2) {
            sure = 2 * (hi - lo) > span;
            span = hi - lo;
            step = 0;
        }
    }
    sort_few(blk, lo, hi);
}

/* Keep the `need` (>= 1) smallest items of bucket b, the highest one left,
 * and drop the others, their blocks to the spare list; returns how many. */
static size_t cut_bucket(struct radixq *q, struct rq_bucket *b, size_t need)
{
    size_t n = b->len, nb = (n + RQ_BLOCK - 1) / RQ_BLOCK, keep = (need + RQ_BLOCK - 1) / RQ_BLOCK;
    struct rq_block **blk = table(q, &q->cut_table, &q->cut_cap, nb);
    struct rq_block *k = b->head;
    for (size_t j = 0; j < nb; j++, k = k->next)
        blk[j] = k;
    select_blocks(blk, 0, n, need, &q->trim_steps);
    for (size_t j = keep; j < nb; j++)
        to_spare(q, blk[j]);
    b->tail = blk[keep - 1];
    b->tail->next = NULL;
    b->len = need;
    q->len -= n - need;
    return n - need;
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
        if (q->len - b->len < keep) {
            /* Some of it is needed: the largest go when they are half of
             * it or more (a pass over the bucket for each half dropped). */
            size_t cut = q->len - keep;
            if (cut >= RQ_BLOCK && 2 * cut >= b->len)
                dropped += cut_bucket(q, b, b->len - cut);
            break;
        }
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
    if (!q->levels && q->len > keep && q->run_cur)
        dropped += trim_run(q, q->len - keep);
    return dropped;
}

int rq_take(struct radixq *q, double limit, struct rq_item *out)
{
    const struct rq_item *it = low(q);
    if (!it) {
        if (!q->levels || key_time(q->b[lowest_bucket(q)].min) > limit)
            return 0;
        refill(q);
        it = low(q);
    } else if (key_time(it->key) > limit) {
        return 0;
    }
    *out = *it;
    take_out(q, it);
    return 1;
}
