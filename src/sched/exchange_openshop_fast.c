/*
 * sched/exchange_openshop_fast.c - open-shop's choice from the receivers kept in order of
 * (free time, node) in chunks (sched/exchange_openshop_fast.h), beside sched/exchange.c's
 * readable scan.
 */
#define _GNU_SOURCE   /* qsort_r */
#include "sched/exchange_openshop_fast.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"

#define CHUNK 64   /* entries a chunk holds at most; a full one splits in two halves */

struct chunk {
    int len;
    int32_t rank[CHUNK];   /* in (key, rank) order */
    double key[CHUNK];
};

struct oshop {
    int n, nrecv, nwords;
    const int *recv;        /* rank k -> node */
    const double *free_at;  /* per node */
    int *rank;              /* node -> rank k, -1 if not a receiver */
    double *key;            /* per rank: free_at of its node, as the order has it */
    struct chunk *chunk;    /* the chunks, by id */
    int nchunk, capchunk;
    int *spare;             /* ids of emptied chunks, for reuse */
    int nspare;
    int *dir;               /* the chunks in order: ids */
    double *dkey;           /* dir's: each chunk's first key and rank, for the search */
    int32_t *drank;
    int ndir;
    int *npool;             /* per sender: receivers left */
    int *wanted;            /* per rank: senders that have it in their pool; at 0 it
                               leaves the order */
    uint64_t *bits;         /* sender q's pool: bit k % 64 of bits[q * nwords + k / 64] */
    uint64_t version;       /* changes of the order so far */
    int32_t seen_k;         /* the last choice's rank, found at chunk dir[seen_i] place */
    int seen_i, seen_j;     /* seen_j, while version is still seen_version: its removal */
    uint64_t seen_version;  /* (it is the next change, mostly) needs no search */
};

/* (ka, ra) before (kb, rb): ranks follow node indices, so this is (free_at, node). */
static inline bool before(double ka, int32_t ra, double kb, int32_t rb)
{
    return (ka < kb) | ((ka == kb) & (ra < rb));
}

/* The last chunk of dir whose first entry is not after (key, k); 0 if none.
 * Both searches count instead of halving: the counts' compares do not wait
 * for each other, and the order's keys tell a branch nothing. */
static inline int dir_find(const struct oshop *o, double key, int32_t k)
{
    int cnt = 0;   /* the firsts not after (key, k): a prefix of dir */
    for (int i = 0; i < o->ndir; i++)
        cnt += (o->dkey[i] < key) | ((o->dkey[i] == key) & (o->drank[i] <= k));
    return cnt > 0 ? cnt - 1 : 0;
}

/* The place in c of the first entry not before (key, k). */
static inline int chunk_find(const struct chunk *c, double key, int32_t k)
{
    int cnt = 0;   /* the entries before (key, k): a prefix of c */
    for (int j = 0; j < c->len; j++)
        cnt += (c->key[j] < key) | ((c->key[j] == key) & (c->rank[j] < k));
    return cnt;
}

static int chunk_new(struct oshop *o)
{
    if (o->nspare > 0)
        return o->spare[--o->nspare];
    if (o->nchunk == o->capchunk) {
        o->capchunk = o->capchunk ? 2 * o->capchunk : 16;
        o->chunk = xrealloc(o->chunk, (size_t)o->capchunk * sizeof *o->chunk);
        o->spare = xrealloc(o->spare, (size_t)o->capchunk * sizeof *o->spare);
    }
    o->chunk[o->nchunk].len = 0;
    return o->nchunk++;
}

/* Chunk dir[i]'s first entry changed: the directory's copy. */
static inline void dir_first(struct oshop *o, int i)
{
    const struct chunk *c = &o->chunk[o->dir[i]];
    o->dkey[i] = c->key[0];
    o->drank[i] = c->rank[0];
}

/* Make room at dir[i] (the entries from i one place on). */
static void dir_open(struct oshop *o, int i)
{
    size_t m = (size_t)(o->ndir - i);
    memmove(&o->dir[i + 1], &o->dir[i], m * sizeof *o->dir);
    memmove(&o->dkey[i + 1], &o->dkey[i], m * sizeof *o->dkey);
    memmove(&o->drank[i + 1], &o->drank[i], m * sizeof *o->drank);
    o->ndir++;
}

static void dir_close(struct oshop *o, int i)
{
    size_t m = (size_t)(o->ndir - i - 1);
    memmove(&o->dir[i], &o->dir[i + 1], m * sizeof *o->dir);
    memmove(&o->dkey[i], &o->dkey[i + 1], m * sizeof *o->dkey);
    memmove(&o->drank[i], &o->drank[i + 1], m * sizeof *o->drank);
    o->ndir--;
}

/* Rank k (its key o->key[k]) out of the order. */
static void order_remove(struct oshop *o, int32_t k)
{
    double key = o->key[k];
    int i, j;
    if (o->seen_k == k && o->seen_version == o->version) {
        i = o->seen_i;
        j = o->seen_j;
    } else {
        i = dir_find(o, key, k);
        j = chunk_find(&o->chunk[o->dir[i]], key, k);
    }
    o->version++;
    struct chunk *c = &o->chunk[o->dir[i]];
    c->len--;
    if (j < c->len) {   /* the entries after it, one place back */
        size_t m = (size_t)(c->len - j);
        memmove(&c->rank[j], &c->rank[j + 1], m * sizeof *c->rank);
        memmove(&c->key[j], &c->key[j + 1], m * sizeof *c->key);
    }
    if (c->len == 0) {
        o->spare[o->nspare++] = o->dir[i];
        dir_close(o, i);
    } else if (j == 0) {
        dir_first(o, i);
    }
}

/* Rank k into the order with its key o->key[k]. */
static void order_insert(struct oshop *o, int32_t k)
{
    double key = o->key[k];
    o->version++;
    if (o->ndir == 0) {   /* the order was empty: a chunk of one */
        int id = chunk_new(o);
        o->chunk[id].len = 1;
        o->chunk[id].rank[0] = k;
        o->chunk[id].key[0] = key;
        o->dir[0] = id;
        o->ndir = 1;
        dir_first(o, 0);
        return;
    }
    int i = dir_find(o, key, k);
    struct chunk *c = &o->chunk[o->dir[i]];
    if (c->len == CHUNK) {   /* split: the upper half to a new chunk after it */
        int id = chunk_new(o);
        c = &o->chunk[o->dir[i]];   /* chunk_new may have moved the chunks */
        struct chunk *h = &o->chunk[id];
        h->len = CHUNK / 2;
        memcpy(h->rank, &c->rank[CHUNK / 2], (CHUNK / 2) * sizeof *h->rank);
        memcpy(h->key, &c->key[CHUNK / 2], (CHUNK / 2) * sizeof *h->key);
        c->len = CHUNK / 2;
        dir_open(o, i + 1);
        o->dir[i + 1] = id;
        dir_first(o, i + 1);
        if (!before(key, k, h->key[0], h->rank[0])) {
            i++;
            c = h;
        }
    }
    int j = chunk_find(c, key, k);
    int m = c->len - j;
    memmove(&c->rank[j + 1], &c->rank[j], (size_t)m * sizeof *c->rank);
    memmove(&c->key[j + 1], &c->key[j], (size_t)m * sizeof *c->key);
    c->rank[j] = k;
    c->key[j] = key;
    c->len++;
    if (j == 0)
        dir_first(o, i);
}

static int cmp_rank(const void *a, const void *b, void *ctx);

struct oshop *oshop_new(int n, const int *recv, int nrecv, const double *free_at)
{
    struct oshop *o = xcalloc(1, sizeof *o);
    o->n = n;
    o->nrecv = nrecv;
    o->nwords = (nrecv + 63) / 64;
    o->recv = recv;
    o->free_at = free_at;
    o->rank = xmalloc((size_t)n * sizeof *o->rank);
    o->key = xmalloc((size_t)nrecv * sizeof *o->key);
    o->npool = xmalloc((size_t)n * sizeof *o->npool);
    o->wanted = xmalloc((size_t)nrecv * sizeof *o->wanted);
    o->bits = xcalloc((size_t)n * o->nwords, sizeof *o->bits);
    o->seen_k = -1;
    size_t maxdir = (size_t)nrecv + 1;   /* a chunk holds one entry at least */
    o->dir = xmalloc(maxdir * sizeof *o->dir);
    o->dkey = xmalloc(maxdir * sizeof *o->dkey);
    o->drank = xmalloc(maxdir * sizeof *o->drank);
    for (int p = 0; p < n; p++)
        o->rank[p] = -1;
    /* who wants whom: every sender every receiver but itself */
    for (int k = 0; k < nrecv; k++) {
        o->rank[recv[k]] = k;
        o->key[k] = free_at[recv[k]];
        o->wanted[k] = n - 1;
    }
    for (int q = 0; q < n; q++) {
        uint64_t *b = &o->bits[(size_t)q * o->nwords];
        for (int w = 0; w < o->nwords; w++)
            b[w] = w < o->nwords - 1 || nrecv % 64 == 0 ? ~UINT64_C(0)
                                                         : (UINT64_C(1) << (nrecv % 64)) - 1;
        o->npool[q] = nrecv;
        if (o->rank[q] >= 0) {
            b[o->rank[q] / 64] &= ~(UINT64_C(1) << (o->rank[q] % 64));
            o->npool[q]--;
        }
    }
    /* the order: the wanted receivers sorted, in chunks half full */
    int32_t *sorted = xmalloc((size_t)nrecv * sizeof *sorted), m = 0;
    for (int k = 0; k < nrecv; k++)
        if (o->wanted[k] > 0)
            sorted[m++] = k;
    qsort_r(sorted, (size_t)m, sizeof *sorted, cmp_rank, o);
    for (int at = 0; at < m; at += CHUNK / 2) {
        int id = chunk_new(o);
        struct chunk *c = &o->chunk[id];
        c->len = m - at < CHUNK / 2 ? m - at : CHUNK / 2;
        for (int j = 0; j < c->len; j++) {
            c->rank[j] = sorted[at + j];
            c->key[j] = o->key[sorted[at + j]];
        }
        o->dir[o->ndir++] = id;
        dir_first(o, o->ndir - 1);
    }
    free(sorted);
    return o;
}

static int cmp_rank(const void *a, const void *b, void *ctx)
{
    const struct oshop *o = ctx;
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return before(o->key[x], x, o->key[y], y) ? -1 : before(o->key[y], y, o->key[x], x);
}

void oshop_free(struct oshop *o)
{
    if (!o)
        return;
    free(o->rank);
    free(o->key);
    free(o->chunk);
    free(o->spare);
    free(o->dir);
    free(o->dkey);
    free(o->drank);
    free(o->npool);
    free(o->wanted);
    free(o->bits);
    free(o);
}

/* q's least by a scan of its pool's bits: O(R / 64 + its pool). */
static int32_t scan_pool(const struct oshop *o, const uint64_t *b)
{
    int32_t best = -1;
    for (int w = 0; w < o->nwords; w++)
        for (uint64_t m = b[w]; m; m &= m - 1) {
            int32_t k = w * 64 + __builtin_ctzll(m);
            if (best < 0 || before(o->key[k], k, o->key[best], best))
                best = k;
        }
    return best;
}

int oshop_choose(struct oshop *o, int q)
{
    const uint64_t *b = &o->bits[(size_t)q * o->nwords];
    /* the walk from the front of the order to q's first; past as many steps
     * as a scan of q's pool costs, the scan */
    long limit = o->nwords + 2L * o->npool[q];
    for (int i = 0; i < o->ndir; i++) {
        const struct chunk *c = &o->chunk[o->dir[i]];
        for (int j = 0; j < c->len; j++) {
            int32_t k = c->rank[j];
            if (b[k / 64] >> (k % 64) & 1) {
                o->seen_k = k;
                o->seen_i = i;
                o->seen_j = j;
                o->seen_version = o->version;
                return o->recv[k];
            }
        }
        if ((limit -= c->len) < 0)
            break;
    }
    return o->recv[scan_pool(o, b)];
}

void oshop_take(struct oshop *o, int q, int p)
{
    int k = o->rank[p];
    uint64_t *b = &o->bits[(size_t)q * o->nwords + k / 64];
    if (*b >> (k % 64) & 1) {
        *b &= ~(UINT64_C(1) << (k % 64));
        o->npool[q]--;
        if (--o->wanted[k] == 0)
            order_remove(o, k);   /* nobody's choice any more */
    }
}

void oshop_update(struct oshop *o, int p)
{
    int k = o->rank[p];
    if (k < 0 || o->wanted[k] == 0 || o->key[k] == o->free_at[p])
        return;
    order_remove(o, k);
    o->key[k] = o->free_at[p];
    order_insert(o, k);
}
