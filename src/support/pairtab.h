/*
 * support/pairtab.h - distinct pairs of 64-bit keys numbered 0, 1, ... in the order
 * first seen, up to a limit: an open-addressing table of their numbers, at
 * most half full, over an array of the pairs (support/pairtab.c).
 *
 * Layer: support for the fast paths that find few distinct times among
 * many nodes: model/cluster_fast.c's (send, recv) pairs, a list run's send times
 * (engine/engine_lean.c).  O(1) expected a lookup.
 */
#ifndef HETCAST_PAIRTAB_H
#define HETCAST_PAIRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "support/diag.h"

struct pair_key {
    uint64_t first, second;
    int id, count;      /* its number (kept when pv is sorted); a count for the caller */
};

struct pair_table {
    struct pair_key *pv;    /* the pairs, numbered in the order first seen */
    int n, cap;
    int *slot;              /* 2^bits slots: a pair's number or -1; at most half full */
    int bits;
};

void pair_table_init(struct pair_table *t);
void pair_table_free(struct pair_table *t);
/* Make the slots 2^bits and file every pair again. */
void pair_rehash(struct pair_table *t, int bits);

static inline size_t pair_slot(uint64_t k1, uint64_t k2, int bits)
{
    return (size_t)((((k1 * 0x9E3779B97F4A7C15ull) ^ k2) * 0xC2B2AE3D27D4EB4Full) >> (64 - bits));
}

/* The number of the pair (k1, k2), added if new; -1 if that would make
 * more than `limit` pairs. */
static inline int pair_id(struct pair_table *t, uint64_t k1, uint64_t k2, int limit)
{
    size_t mask = ((size_t)1 << t->bits) - 1, at = pair_slot(k1, k2, t->bits);
    for (; t->slot[at] >= 0; at = (at + 1) & mask) {
        const struct pair_key *p = &t->pv[t->slot[at]];
        if (p->first == k1 && p->second == k2)
            return t->slot[at];
    }
    if (t->n == limit)
        return -1;
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->pv = xrealloc(t->pv, (size_t)t->cap * sizeof *t->pv);
    }
    int id = t->n++;
    t->pv[id] = (struct pair_key){k1, k2, id, 0};
    t->slot[at] = id;
    if (2 * t->n > 1 << t->bits)
        pair_rehash(t, t->bits + 1);
    return id;
}

#endif
