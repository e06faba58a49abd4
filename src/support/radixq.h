/*
 * support/radixq.h - a monotone priority queue of (time, tie, value) items: a radix
 * heap (Ahuja, Mehlhorn, Orlin & Tarjan) with 8-bit digits, whose lowest
 * bucket is a run sorted by tie plus a binary heap.
 *
 * Layer: support for the engine (its streamed timeline) and the list
 * policies (fnf's senders), where every time pushed is at least the last
 * time popped -- an event loop never goes back in time.  Items come out in
 * the order of (time, tie), exactly as a binary heap on that pair would give
 * them, so a replay is exact whatever the queue.  A time pushed below the
 * last one popped is still served in order (it goes to the lowest bucket);
 * monotone use is only what makes the queue fast.  Looking at the top with
 * rq_top and then not popping it, and pushing earlier times after that,
 * piles items into the lowest bucket (a binary heap): a caller that stops
 * at a time looks with rq_min_time instead.
 *
 * Cost: push O(1); pop O(log n) among items of one time plus the amortised
 * redistribution of a higher bucket, each item moving down at most 8 levels
 * (in practice two or three): sequential passes over blocks instead of a
 * binary heap's cache misses at depth log n.  Memory: 16 bytes per item,
 * held in blocks of RQ_BLOCK items that a bucket being emptied hands back
 * at once for reuse, so moving items down costs no memory.  Every item is
 * held once: a run of the new smallest time up to RQ_LONG items is copied
 * into an array of at most that many (64 KB, kept for the next runs, with
 * a scratch array as long to merge its ascending stretches), a longer one
 * stays in blocks -- the blocks it was read from, or blocks just read --
 * sorted where it lies, each block handed back as it is popped; it costs a
 * table of 8 bytes a block.  Plus one partly filled block per bucket in use
 * and 64 KB of bucket headers, allocated with the first bucket and never
 * cleared: a header is written when its bucket gets its first item, so a
 * small queue touches only the pages of the buckets it uses.  Blocks are
 * cut from slabs that double up to 4 MB, the large ones on huge pages
 * (support/hugemem.h): a queue of millions of items is read at random places.
 * Blocks handed back are reused, never freed before the queue: its memory
 * is its largest size so far (peak_bytes counts slabs and arrays).
 * Times must not be NaN.
 */
#ifndef HETCAST_RADIXQ_H
#define HETCAST_RADIXQ_H

#include <stddef.h>
#include <stdint.h>

struct rq_item {
    uint64_t key;       /* the time, mapped to an order-preserving integer */
    uint32_t tie;       /* equal times: smaller tie first */
    int32_t val;        /* the caller's payload */
};

#define RQ_BLOCK 64                     /* items per block (1 KB of items) */

struct rq_block {
    struct rq_item item[RQ_BLOCK];
    struct rq_block *next;
};

/* Blocks come from slabs of growing size (all freed with the queue). */
struct rq_slab {
    struct rq_slab *next;
    size_t nblocks, used;
    struct rq_block block[];
};

/* A radix bucket: a chain of blocks, all full but the last. */
struct rq_bucket {
    struct rq_block *head, *tail;
    size_t len;
    uint64_t min;       /* the smallest key in it */
};

/* A plain growing array (the short run, the heap). */
struct rq_array {
    struct rq_item *item;
    size_t len, cap;
};

#define RQ_BITS 8                       /* a digit of the key */
#define RQ_LEVELS (64 / RQ_BITS)
#define RQ_FANOUT (1 << RQ_BITS)
#define RQ_LONG 4096                    /* a run that may be longer is kept in blocks */

struct radixq {
    uint64_t last;              /* key of the last minimum taken out of the buckets */
    size_t len;                 /* items in the queue */
    size_t bytes, peak_bytes;   /* item memory now and at most so far */
    uint64_t levels;            /* bit L: some bucket of level L is not empty */
    uint64_t used[RQ_LEVELS][RQ_FANOUT / 64];   /* non-empty buckets, per level */
    struct rq_bucket *b;        /* RQ_LEVELS * RQ_FANOUT radix buckets (see support/radixq.c),
                                   or NULL; a header is valid only while its used bit is set */
    struct rq_block *spare;     /* emptied blocks, for the next bucket that grows */
    struct rq_slab *slabs;      /* where blocks come from; the first one is being used */
    /* The run: the items of key == last found by the last refill, sorted by
     * tie, items [run_at, run_len) still to come, the first at *run_cur
     * (NULL when none is left).  A short one is an array, run.item (at most
     * RQ_LONG items); one that may be longer (as far as the reading of its
     * bucket can tell) stays in blocks: item i is run_blk[i / RQ_BLOCK]->
     * item[i % RQ_BLOCK], and the blocks before run_at's are back on the
     * spare list. */
    const struct rq_item *run_cur;
    size_t run_at, run_len;
    struct rq_array run;        /* a short run's items, kept (its len is not used) */
    struct rq_block **run_blk;  /* a long run's blocks (in blk_table), or NULL */
    struct rq_block **blk_table, **cut_table;   /* block tables of long runs and of
                                   rq_trim's cuts, kept (a malloc and free each time
                                   would fault fresh pages in) */
    size_t blk_cap, cut_cap;
    struct rq_array heap;       /* binary heap on (key, tie) of keys <= last pushed later */
    int64_t heap_tie;           /* the largest tie pushed to the heap with key == last
                                   since the last refill, or -1 (rq_trim's bound) */
    struct rq_array tmp;        /* scratch for merging a short run's ascending stretches */
    uint64_t trim_steps;        /* items passed over by rq_trim's cuts inside a bucket, in
                                   all: at most 32 times the items of the buckets cut */
};

void rq_init(struct radixq *q);
void rq_free(struct radixq *q);
void rq_push(struct radixq *q, double time, uint32_t tie, int32_t val);
/* The smallest item, or NULL if the queue is empty.  It may reorganise the
 * buckets, which is fine when the item is popped next; to look without
 * touching (say, to stop at a time), use rq_min_time. */
const struct rq_item *rq_top(struct radixq *q);
/* The smallest time in the queue (INFINITY if empty), in O(1), moving nothing. */
double rq_min_time(const struct radixq *q);
/* Remove the smallest item (the queue must not be empty). */
void rq_pop(struct radixq *q);
/* Remove the smallest item into *out if its time is <= limit; else return 0. */
int rq_take(struct radixq *q, double limit, struct rq_item *out);
/* Drop the largest items while at least `keep` smaller ones stay: whole
 * buckets, the highest first, then, once no bucket is left, the run's
 * largest items (not those the heap's items of its time must follow), so
 * the items kept are the smallest ones and some more.  Blocks go back to
 * the spare list.  For a caller that will pop at most `keep` more times and
 * pushes nothing it would want before them; returns how many were dropped.
 * Cost: linear in the items it drops (a cut inside a bucket drops at least
 * half of it and selects in linear time, whatever the order of its items). */
size_t rq_trim(struct radixq *q, size_t keep);
/* The time an item was pushed with. */
double rq_time(const struct rq_item *it);
/* A hint for prefetching: the item k places after the smallest in the current
 * run of equal times, or NULL (the heap may come first; it is only a hint). */
static inline const struct rq_item *rq_ahead(const struct radixq *q, size_t k)
{
    size_t i = q->run_at + k;
    if (i >= q->run_len)
        return NULL;
    return q->run_blk ? &q->run_blk[i / RQ_BLOCK]->item[i % RQ_BLOCK] : &q->run.item[i];
}

#endif
