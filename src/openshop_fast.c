/*
 * openshop_fast.c - open-shop's choice from the receivers kept in blocks of
 * 64, each sorted by (free time, node) (openshop_fast.h), beside exchange.c's
 * readable scan.
 */
#define _GNU_SOURCE   /* qsort_r */
#include "openshop_fast.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

struct oshop {
    int n, nrecv, nblocks;
    const int *recv;        /* rank k -> node */
    const double *free_at;  /* per node */
    int *rank;              /* node -> rank k, -1 if not a receiver */
    double *key;            /* per rank: free_at of its node, as the blocks have it */
    int *ord;               /* block w's ranks by (key, rank): ord[w * 64 + j] */
    unsigned char *at;      /* rank -> its j in its block's ord */
    uint64_t *prefix;       /* prefix[w * 64 + j]: the bits of ord[w * 64 + 0 .. j] */
    int *border;            /* the blocks by their least ranks' order (ord[w * 64]) */
    double *bkey;           /* in border's order: the key and the rank of each block's */
    int *brank;             /* least, so that a choice reads them one after the other */
    int *bat;               /* block -> its place in border */
    int *npool;             /* per sender: receivers left */
    int *wanted;            /* per rank: senders that have it in their pool; at 0 its key
                               is +inf, out of every walk's way */
    uint64_t *bits;         /* sender q's pool: bit k % 64 of bits[q * nblocks + k / 64] */
};

/* (key, rank) order; ranks follow node indices, so this is (free_at, node). */
static inline bool less(const struct oshop *o, int a, int b)
{
    return o->key[a] < o->key[b] || (o->key[a] == o->key[b] && a < b);
}

static inline int block_len(const struct oshop *o, int w)
{
    return w < o->nblocks - 1 || o->nrecv % 64 == 0 ? 64 : o->nrecv % 64;
}

/* Block w's prefix masks from j0 to j1 (inclusive). */
static void refix(struct oshop *o, int w, int j0, int j1)
{
    int *ord = &o->ord[(size_t)w * 64];
    uint64_t *pre = &o->prefix[(size_t)w * 64];
    uint64_t m = j0 > 0 ? pre[j0 - 1] : 0;
    for (int j = j0; j <= j1; j++) {
        m |= UINT64_C(1) << (ord[j] % 64);
        pre[j] = m;
        o->at[ord[j]] = (unsigned char)j;
    }
}

static int cmp_rank(const void *a, const void *b, void *ctx)
{
    const struct oshop *o = ctx;
    int x = *(const int *)a, y = *(const int *)b;
    return less(o, x, y) ? -1 : less(o, y, x);
}

static inline int least_of(const struct oshop *o, int w)
{
    return o->ord[(size_t)w * 64];
}

static int cmp_block(const void *a, const void *b, void *ctx)
{
    const struct oshop *o = ctx;
    int x = least_of(o, *(const int *)a), y = least_of(o, *(const int *)b);
    return less(o, x, y) ? -1 : less(o, y, x);
}

static void rekey(struct oshop *o, int k, double key);

struct oshop *oshop_new(int n, const int *recv, int nrecv, const double *free_at)
{
    struct oshop *o = xcalloc(1, sizeof *o);
    o->n = n;
    o->nrecv = nrecv;
    o->recv = recv;
    o->free_at = free_at;
    o->nblocks = (nrecv + 63) / 64;
    o->rank = xmalloc((size_t)n * sizeof *o->rank);
    o->key = xmalloc((size_t)nrecv * sizeof *o->key);
    o->ord = xmalloc((size_t)o->nblocks * 64 * sizeof *o->ord);
    o->at = xmalloc((size_t)nrecv);
    o->prefix = xmalloc((size_t)o->nblocks * 64 * sizeof *o->prefix);
    o->border = xmalloc((size_t)o->nblocks * sizeof *o->border);
    o->bkey = xmalloc((size_t)o->nblocks * sizeof *o->bkey);
    o->brank = xmalloc((size_t)o->nblocks * sizeof *o->brank);
    o->bat = xmalloc((size_t)o->nblocks * sizeof *o->bat);
    o->npool = xmalloc((size_t)n * sizeof *o->npool);
    o->wanted = xmalloc((size_t)nrecv * sizeof *o->wanted);
    o->bits = xcalloc((size_t)n * o->nblocks, sizeof *o->bits);
    for (int p = 0; p < n; p++)
        o->rank[p] = -1;
    for (int k = 0; k < nrecv; k++) {
        o->rank[recv[k]] = k;
        o->key[k] = free_at[recv[k]];
        o->ord[k] = k;
        o->wanted[k] = n - 1;
    }
    for (int w = 0; w < o->nblocks; w++) {
        int len = block_len(o, w);
        qsort_r(&o->ord[(size_t)w * 64], (size_t)len, sizeof *o->ord, cmp_rank, o);
        refix(o, w, 0, len - 1);
        for (int j = len; j < 64; j++)   /* a short last block: its whole mask, for */
            o->prefix[(size_t)w * 64 + j] = o->prefix[(size_t)w * 64 + len - 1];   /* the search */
        o->border[w] = w;
    }
    qsort_r(o->border, (size_t)o->nblocks, sizeof *o->border, cmp_block, o);
    for (int i = 0; i < o->nblocks; i++) {
        o->bat[o->border[i]] = i;
        o->brank[i] = least_of(o, o->border[i]);
        o->bkey[i] = o->key[o->brank[i]];
    }
    for (int q = 0; q < n; q++) {
        uint64_t *b = &o->bits[(size_t)q * o->nblocks];
        for (int w = 0; w < o->nblocks; w++)
            b[w] = block_len(o, w) == 64 ? ~UINT64_C(0) : (UINT64_C(1) << block_len(o, w)) - 1;
        o->npool[q] = nrecv;
        if (o->rank[q] >= 0) {
            b[o->rank[q] / 64] &= ~(UINT64_C(1) << (o->rank[q] % 64));
            o->npool[q]--;
        }
    }
    return o;
}

void oshop_free(struct oshop *o)
{
    if (!o)
        return;
    free(o->rank);
    free(o->key);
    free(o->ord);
    free(o->at);
    free(o->prefix);
    free(o->border);
    free(o->bkey);
    free(o->brank);
    free(o->bat);
    free(o->npool);
    free(o->wanted);
    free(o->bits);
    free(o);
}

int oshop_choose(struct oshop *o, int q)
{
    const uint64_t *b = &o->bits[(size_t)q * o->nblocks];
    int best = -1;
    double best_key = 0;
    for (int i = 0; i < o->nblocks; i++) {
        if (best >= 0 && (best_key < o->bkey[i] || (best_key == o->bkey[i] && best < o->brank[i])))
            break;   /* this block's least and all after it are past the best */
        int w = o->border[i];
        uint64_t m = b[w];
        if (!m)
            continue;
        const uint64_t *pre = &o->prefix[(size_t)w * 64];
        /* the first j whose prefix meets q's pool (the last prefix holds it all),
           in six fixed steps */
        int j = 0;
        for (int step = 32; step > 0; step /= 2)
            j += (pre[j + step - 1] & m) ? 0 : step;
        int k = o->ord[(size_t)w * 64 + j];
        if (best < 0 || less(o, k, best)) {
            best = k;
            best_key = o->key[k];
        }
    }
    return o->recv[best];
}

void oshop_take(struct oshop *o, int q, int p)
{
    int k = o->rank[p];
    uint64_t *b = &o->bits[(size_t)q * o->nblocks + k / 64];
    if (*b >> (k % 64) & 1) {
        *b &= ~(UINT64_C(1) << (k % 64));
        o->npool[q]--;
        if (--o->wanted[k] == 0)
            rekey(o, k, INFINITY);
    }
}

/* Rank k's key is now key: its place in its block, its block's place. */
static void rekey(struct oshop *o, int k, double key)
{
    int w = k / 64, len = block_len(o, w), j = o->at[k], j0 = j;
    int *ord = &o->ord[(size_t)w * 64];
    o->key[k] = key;
    while (j + 1 < len && less(o, ord[j + 1], k)) {
        ord[j] = ord[j + 1];
        j++;
    }
    while (j > 0 && less(o, k, ord[j - 1])) {
        ord[j] = ord[j - 1];
        j--;
    }
    ord[j] = k;
    if (j != j0)
        refix(o, w, j < j0 ? j : j0, j < j0 ? j0 : j);
    if (j != 0 && j0 != 0)
        return;   /* the block's least is the same */
    /* the block's place among the blocks */
    int i = o->bat[w], least = ord[0];
    double lk = o->key[least];
#define BLESS(ka, ra, kb, rb) ((ka) < (kb) || ((ka) == (kb) && (ra) < (rb)))
    while (i + 1 < o->nblocks && BLESS(o->bkey[i + 1], o->brank[i + 1], lk, least)) {
        o->border[i] = o->border[i + 1];
        o->bkey[i] = o->bkey[i + 1];
        o->brank[i] = o->brank[i + 1];
        o->bat[o->border[i]] = i;
        i++;
    }
    while (i > 0 && BLESS(lk, least, o->bkey[i - 1], o->brank[i - 1])) {
        o->border[i] = o->border[i - 1];
        o->bkey[i] = o->bkey[i - 1];
        o->brank[i] = o->brank[i - 1];
        o->bat[o->border[i]] = i;
        i--;
    }
#undef BLESS
    o->border[i] = w;
    o->bkey[i] = lk;
    o->brank[i] = least;
    o->bat[w] = i;
}

void oshop_update(struct oshop *o, int p)
{
    int k = o->rank[p];
    if (k >= 0 && o->wanted[k] > 0)
        rekey(o, k, o->free_at[p]);
}
