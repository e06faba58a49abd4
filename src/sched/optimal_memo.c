/*
 * sched/optimal_memo.c - the slot search's memo (sched/optimal_int.h): a hash table from a
 * search state's key to the lower bound proven for it, its keys in one arena,
 * started over when the arena passes MEMO_MAX_WORDS.
 */
#include "sched/optimal_int.h"

#include "sched/optimal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MEMO_MAX_WORDS (8u << 20)   /* 64 MB of keys, then the memo starts over */

/* ---- the memo: state key -> proven lower bound (slot search) ---- */

static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

uint64_t opt_key_hash(const uint64_t *key, size_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ len;
    for (size_t i = 0; i < len; i++)
        h = mix64(h ^ key[i]) + 0x9e3779b97f4a7c15ULL;
    return h ? h : 1;
}

void opt_memo_free(struct memo *mm)
{
    free(mm->slot);
    free(mm->arena);
    memset(mm, 0, sizeof *mm);
}

void opt_memo_clear(struct memo *mm)
{
    if (mm->slot)
        memset(mm->slot, 0, mm->cap * sizeof *mm->slot);
    mm->used = 0;
    mm->alen = 0;
}

static struct memo_slot *memo_find(struct memo *mm, const uint64_t *key, size_t len, uint64_t h)
{
    if (!mm->cap)
        return NULL;
    for (size_t i = h & (mm->cap - 1);; i = (i + 1) & (mm->cap - 1)) {
        struct memo_slot *s = &mm->slot[i];
        if (!s->len)
            return s;
        if (s->hash == h && s->len == len && memcmp(&mm->arena[s->off], key, len * sizeof *key) == 0)
            return s;
    }
}

/* Returns the stored bound, or -INFINITY when the key is not there. */
double opt_memo_get(struct memo *mm, const uint64_t *key, size_t len, uint64_t h)
{
    struct memo_slot *s = memo_find(mm, key, len, h);
    return s && s->len ? s->lb : -INFINITY;
}

static void memo_grow(struct memo *mm)
{
    size_t ncap = mm->cap ? 2 * mm->cap : 1024;
    struct memo_slot *old = mm->slot;
    size_t ocap = mm->cap;
    mm->slot = xcalloc(ncap, sizeof *mm->slot);
    mm->cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].len) {
            size_t j = old[i].hash & (ncap - 1);
            while (mm->slot[j].len)
                j = (j + 1) & (ncap - 1);
            mm->slot[j] = old[i];
        }
    free(old);
}

/* Keep the larger bound. A full arena empties the memo (it only speeds up). */
void opt_memo_put(struct memo *mm, const uint64_t *key, size_t len, uint64_t h, double lb)
{
    if (len == 0 || len > MEMO_MAX_WORDS)
        return;
    if (mm->alen + len > MEMO_MAX_WORDS)
        opt_memo_clear(mm);
    if (2 * (mm->used + 1) > mm->cap)
        memo_grow(mm);
    struct memo_slot *s = memo_find(mm, key, len, h);
    if (s->len) {
        if (lb > s->lb)
            s->lb = lb;
        return;
    }
    if (mm->alen + len > mm->acap) {
        size_t ncap = mm->acap ? mm->acap : 4096;
        while (ncap < mm->alen + len)
            ncap *= 2;
        mm->arena = xrealloc(mm->arena, ncap * sizeof *mm->arena);
        mm->acap = ncap;
    }
    memcpy(&mm->arena[mm->alen], key, len * sizeof *key);
    s->hash = h;
    s->off = (uint32_t)mm->alen;
    s->len = (uint32_t)len;
    s->lb = lb;
    mm->alen += len;
    mm->used++;
}
