/*
 * model/nameidx.c - the name -> node index map (model/nameidx.h).
 */
#include "model/nameidx.h"

#include <stdlib.h>

#include "support/diag.h"
#include "support/hugemem.h"

/*
 * Eight bytes at a time, the last (or only) up to eight read as two
 * overlapping words, then a multiply-xorshift finish.
 */
uint32_t nameidx_hash(const char *s, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;
    for (; n > 8; s += 8, n -= 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9u;
        h ^= h >> 31;
    }
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        w = (uint64_t)a << 32 | b;
    } else {
        w = n ? (uint64_t)(unsigned char)s[0] << 16 | (uint64_t)(unsigned char)s[n / 2] << 8 |
                    (unsigned char)s[n - 1]
              : 0;
    }
    h = (h ^ w) * 0xbf58476d1ce4e5b9u;
    h ^= h >> 29;
    h *= 0x94d049bb133111ebu;
    return (uint32_t)(h >> 32);
}

static void put(struct nameidx_slot *slot, size_t cap, int k, uint32_t h)
{
    size_t mask = cap - 1, i = h & mask;
    while (slot[i].node >= 0)
        i = (i + 1) & mask;
    slot[i].node = k;
    slot[i].hash = h;
}

void nameidx_reserve(struct nameidx *ix, size_t expect)
{
    if (4 * (ix->len + 1) <= 3 * ix->cap)
        return;
    size_t cap = ix->cap ? 2 * ix->cap : 64;
    while (3 * cap < 4 * expect)
        cap *= 2;
    struct nameidx_slot *slot = xmalloc(cap * sizeof *slot);
    mem_advise_huge(slot, cap * sizeof *slot);   /* read at random: spare the TLB */
    for (size_t i = 0; i < cap; i++)
        slot[i].node = -1;
    for (size_t i = 0; i < ix->cap; i++)
        if (ix->slot[i].node >= 0)
            put(slot, cap, ix->slot[i].node, ix->slot[i].hash);
    free(ix->slot);
    ix->slot = slot;
    ix->cap = cap;
}

int nameidx_find(const struct nameidx *ix, const struct node *nodes, const char *name)
{
    if (ix->cap == 0)
        return -1;
    return ix->slot[nameidx_probe(ix, nodes, name, nameidx_hash(name, strlen(name)))].node;
}

void nameidx_add(struct nameidx *ix, const struct node *nodes, int k)
{
    nameidx_reserve(ix, 0);
    const char *name = nodes[k].name;
    uint32_t h = nameidx_hash(name, strlen(name));
    size_t at = nameidx_probe(ix, nodes, name, h);
    if (ix->slot[at].node < 0)
        nameidx_set(ix, at, k, h);
}

void nameidx_free(struct nameidx *ix)
{
    free(ix->slot);
    ix->slot = NULL;
    ix->cap = ix->len = 0;
}
