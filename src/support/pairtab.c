/*
 * support/pairtab.c - the pair table's allocation and growth (support/pairtab.h).
 */
#include "support/pairtab.h"

#include <stdlib.h>
#include <string.h>

void pair_table_init(struct pair_table *t)
{
    memset(t, 0, sizeof *t);
    pair_rehash(t, 7);
}

void pair_table_free(struct pair_table *t)
{
    free(t->pv);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

__attribute__((noinline)) void pair_rehash(struct pair_table *t, int bits)
{
    size_t size = (size_t)1 << bits, mask = size - 1;
    t->bits = bits;
    t->slot = xrealloc(t->slot, size * sizeof *t->slot);
    memset(t->slot, -1, size * sizeof *t->slot);
    for (int p = 0; p < t->n; p++) {
        size_t at = pair_slot(t->pv[p].first, t->pv[p].second, bits);
        while (t->slot[at] >= 0)
            at = (at + 1) & mask;
        t->slot[at] = p;
    }
}
