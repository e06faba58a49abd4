/*
 * nameidx.c - the name -> node index map (nameidx.h).
 */
#include "nameidx.h"

#include <stdlib.h>

#include "hugemem.h"

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

/* A table of at least 2 * want slots (and twice the old one), every entry moved. */
static void grow(struct nameidx *ix, size_t want)
{
    size_t cap = ix->cap ? 2 * ix->cap : 64;
    while (cap < 2 * want)
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

void nameidx_reserve(struct nameidx *ix, size_t expect)
{
    if (2 * (ix->len + 1) <= ix->cap)
        return;
    grow(ix, expect);
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

/* ---- the filtered index ---- */

/* The filter's word for hash h, and the three bits set in it: from two
 * multiplications of h, so that the word and the bits do not follow the
 * table's slot (h's low bits). */
static uint64_t *filter_word(const struct nameidx_filtered *fx, uint32_t h, uint64_t *bits)
{
    uint64_t a = (uint64_t)h * 0x9e3779b97f4a7c15u, b = (uint64_t)h * 0xc2b2ae3d27d4eb4fu;
    *bits = (uint64_t)1 << (b >> 58) | (uint64_t)1 << (b >> 52 & 63) |
            (uint64_t)1 << (b >> 46 & 63);
    return &fx->filter[a >> 32 & (fx->fwords - 1)];
}

static void filter_put(struct nameidx_filtered *fx, uint32_t h)
{
    uint64_t bits, *w = filter_word(fx, h, &bits);
    *w |= bits;
}

/* The filter made again for the table's size: a word for 16 slots, so 8 to
 * 16 bits a name (the table is a quarter to half full). */
static void filter_build(struct nameidx_filtered *fx)
{
    size_t words = fx->ix.cap / 16;
    if (words != fx->fwords) {
        free(fx->filter);
        fx->filter = xmalloc(words * sizeof *fx->filter);
        mem_advise_huge(fx->filter, words * sizeof *fx->filter);
        fx->fwords = words;
    }
    memset(fx->filter, 0, words * sizeof *fx->filter);
    for (size_t i = 0; i < fx->ix.cap; i++)
        if (fx->ix.slot[i].node >= 0)
            filter_put(fx, fx->ix.slot[i].hash);
    for (int i = 0; i < fx->nwait; i++)
        filter_put(fx, fx->wait[i].hash);
}

/* The waiting names into the table: their slots asked for first, then
 * each put in the first empty slot from its own (they are new names). */
static void flush(struct nameidx_filtered *fx)
{
    struct nameidx *ix = &fx->ix;
    if (fx->nwait == 0)
        return;
    size_t cap = ix->cap;
    if (2 * (ix->len + (size_t)fx->nwait) > ix->cap)
        grow(ix, ix->len + (size_t)fx->nwait);
    for (int i = 0; i < fx->nwait; i++)
        nameidx_prefetch(ix, fx->wait[i].hash);
    for (int i = 0; i < fx->nwait; i++)
        put(ix->slot, ix->cap, fx->wait[i].node, fx->wait[i].hash);
    ix->len += (size_t)fx->nwait;
    fx->nwait = 0;
    if (ix->cap != cap)
        filter_build(fx);
}

void nameidx_filtered_prefetch(const struct nameidx_filtered *fx, uint32_t h)
{
#if defined(__GNUC__)
    if (fx->fwords) {
        uint64_t bits;
        __builtin_prefetch(filter_word(fx, h, &bits));
    }
#else
    (void)fx;
    (void)h;
#endif
}

int nameidx_filtered_find(struct nameidx_filtered *fx, const struct node *nodes,
                          const char *name, uint32_t h)
{
    if (fx->fwords == 0)
        return -1;
    uint64_t bits, *w = filter_word(fx, h, &bits);
    if ((*w & bits) != bits)
        return -1;
    flush(fx);
    return fx->ix.slot[nameidx_probe(&fx->ix, nodes, name, h)].node;
}

void nameidx_filtered_add_new(struct nameidx_filtered *fx, int k, uint32_t h)
{
    if (fx->fwords == 0) {
        grow(&fx->ix, 0);
        filter_build(fx);
    }
    fx->wait[fx->nwait].node = k;
    fx->wait[fx->nwait].hash = h;
    fx->nwait++;
    filter_put(fx, h);
    if (fx->nwait == NAMEIDX_WAITING)
        flush(fx);
}

void nameidx_filtered_free(struct nameidx_filtered *fx)
{
    nameidx_free(&fx->ix);
    free(fx->filter);
    fx->filter = NULL;
    fx->fwords = 0;
    fx->nwait = 0;
}
