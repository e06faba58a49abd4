/*
 * model/nameidx.h - the one name -> node index map: open addressing over a
 * cluster's own array of nodes (struct node, model/node.h; the table holds
 * node indexes and the names' hashes only, so growing the array cannot
 * break it).  The CSV loader fills one while it reads (to find duplicates
 * and the matrix's rows), and the Lua cluster builder while the script
 * runs (node()'s twins, names as arguments); cluster_find makes one for a
 * cluster it is asked about more than once (Lua heuristics, the exchange's
 * receivers).  O(1) expected a lookup.
 *
 * Each slot keeps its name's hash too: growing the table, and most misses,
 * never read the names themselves.  The table is at most three quarters
 * full: 8 to 11 bytes a name (at 10^6 names a table of 2^21 slots, even
 * when the loader's guess of the total is 50 % too high).
 */
#ifndef HETCAST_NAMEIDX_H
#define HETCAST_NAMEIDX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/node.h"

struct nameidx_slot {
    int node;       /* node index, or -1 for an empty slot */
    uint32_t hash;
};

struct nameidx {
    struct nameidx_slot *slot;
    size_t cap;     /* power of two, or 0 */
    size_t len;
};

/* Bytes the index takes a name, at most (for memory caps). */
#define NAMEIDX_BYTES_PER_NAME (4 * sizeof(struct nameidx_slot))

/* The hash of name (n bytes); only this process ever sees its values. */
uint32_t nameidx_hash(const char *name, size_t n);

/* Room for one more name.  A table that grows takes room for `expect`
 * names at once (a loader's guess of the total), so a large file's names
 * are not rehashed a dozen times; slots found before are then stale. */
void nameidx_reserve(struct nameidx *ix, size_t expect);

/*
 * The slot of name (hash h) among nodes: its node's, or the empty one
 * where it would go (ix->cap > 0).  Inline: the CSV loader's row does it
 * once, between its own reserve and set.  (The inline functions here are
 * the loader's hot path; the rest is in model/nameidx.c.)
 */
static inline size_t nameidx_probe(const struct nameidx *ix, const struct node *nodes,
                                   const char *name, uint32_t h)
{
    size_t mask = ix->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        const struct nameidx_slot *sl = &ix->slot[i];
        if (sl->node < 0 || (sl->hash == h && strcmp(nodes[sl->node].name, name) == 0))
            return i;
    }
}

/* Puts node k (name hash h) in the empty slot `at` that nameidx_probe found. */
static inline void nameidx_set(struct nameidx *ix, size_t at, int k, uint32_t h)
{
    ix->slot[at].node = k;
    ix->slot[at].hash = h;
    ix->len++;
}

/* The node named name, or -1. */
int nameidx_find(const struct nameidx *ix, const struct node *nodes, const char *name);

/* Adds node k unless its name is there already (the first node of a name
 * keeps it). */
void nameidx_add(struct nameidx *ix, const struct node *nodes, int k);

/* Asks for the slot of hash h early (a hint: a large table is read at
 * random and its slots miss the caches).  Inline: the loader's look-ahead. */
static inline void nameidx_prefetch(const struct nameidx *ix, uint32_t h)
{
#if defined(__GNUC__)
    if (ix->cap)
        __builtin_prefetch(&ix->slot[h & (ix->cap - 1)]);
#else
    (void)ix;
    (void)h;
#endif
}

void nameidx_free(struct nameidx *ix);

#endif
