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

/* ---- the dominance table: receivers waiting -> profiles and their bounds ---- */

#define DOM_WAYS 4
#define DOM_DOUBLES (4u << 20)   /* 32 MB of profiles */

/* An empty table of nb buckets. */
static void dom_alloc(struct dom *dm, size_t nb)
{
    size_t e = nb * DOM_WAYS;
    dm->nb = nb;
    dm->puts = 0;
    dm->hash = xcalloc(e, sizeof *dm->hash);
    dm->ckey = xmalloc(e * (size_t)dm->kw * sizeof *dm->ckey);
    dm->lb = xmalloc(e * sizeof *dm->lb);
    dm->prof = xmalloc(e * (size_t)dm->m0 * sizeof *dm->prof);
    dm->next = xcalloc(nb, 1);
}

/* Small at first (most searches are a few nodes), grown by dom_grow. */
void opt_dom_init(struct dom *dm, int kw, int m0)
{
    memset(dm, 0, sizeof *dm);
    dm->kw = kw;
    dm->m0 = m0 > 0 ? m0 : 1;
    dm->max_nb = 64;
    dm->tmp = xmalloc((size_t)dm->m0 * sizeof *dm->tmp);
    while (2 * dm->max_nb * DOM_WAYS * (size_t)dm->m0 <= DOM_DOUBLES)
        dm->max_nb *= 2;
    dom_alloc(dm, 64);
}

void opt_dom_free(struct dom *dm)
{
    free(dm->hash);
    free(dm->ckey);
    free(dm->lb);
    free(dm->prof);
    free(dm->next);
    free(dm->tmp);
    memset(dm, 0, sizeof *dm);
}

/* The profile P[0..len) padded to m slots with H. */
static inline double padded(const double *P, int len, int i, double H)
{
    return i < len ? P[i] : H;
}

double opt_dom_get(const struct dom *dm, const uint64_t *ckey, uint64_t h, const double *P, int len, int m,
                   double want)
{
    if (!dm->nb)
        return -INFINITY;
    size_t b = h & (dm->nb - 1), kw = (size_t)dm->kw;
    double best = -INFINITY;
    for (size_t w = 0; w < DOM_WAYS; w++) {
        size_t e = b * DOM_WAYS + w;
        if (dm->hash[e] != h || memcmp(&dm->ckey[e * kw], ckey, kw * sizeof *ckey) != 0)
            continue;
        const double *S = &dm->prof[e * (size_t)dm->m0];
        double lb = dm->lb[e], delta = INFINITY;
        for (int i = 0; i < len && i < m && lb + delta >= want; i++)
            delta = dmin(delta, P[i] - S[i]);
        if (lb + delta >= want)
            best = dmax(best, lb + delta);
    }
    return best;
}

static void dom_store(struct dom *dm, const uint64_t *ckey, uint64_t h, double lb, const double *S);

/* Twice the buckets, every entry kept, once there have been as many puts
 * as entries (up to DOM_DOUBLES of profiles). */
static void dom_grow(struct dom *dm)
{
    struct dom old = *dm;
    dom_alloc(dm, 2 * old.nb);
    for (size_t e = 0; e < old.nb * DOM_WAYS; e++)
        if (old.hash[e])
            dom_store(dm, &old.ckey[e * (size_t)old.kw], old.hash[e], old.lb[e], &old.prof[e * (size_t)old.m0]);
    dm->puts = 0;
    free(old.hash);
    free(old.ckey);
    free(old.lb);
    free(old.prof);
    free(old.next);
}

/* Into h's bucket, over its oldest entry. */
static void dom_store(struct dom *dm, const uint64_t *ckey, uint64_t h, double lb, const double *S)
{
    size_t b = h & (dm->nb - 1), kw = (size_t)dm->kw, e = b * DOM_WAYS + dm->next[b];
    dm->next[b] = (unsigned char)((dm->next[b] + 1) % DOM_WAYS);
    dm->hash[e] = h;
    memcpy(&dm->ckey[e * kw], ckey, kw * sizeof *ckey);
    dm->lb[e] = lb;
    memcpy(&dm->prof[e * (size_t)dm->m0], S, (size_t)dm->m0 * sizeof *S);
}

void opt_dom_put(struct dom *dm, const uint64_t *ckey, uint64_t h, const double *P, int len, int m, double H,
                 double lb)
{
    if (!dm->nb || m > dm->m0)
        return;
    if (++dm->puts > dm->nb * DOM_WAYS && dm->nb < dm->max_nb)
        dom_grow(dm);
    for (int i = 0; i < dm->m0; i++)
        dm->tmp[i] = padded(P, len, i, H);
    dom_store(dm, ckey, h, lb, dm->tmp);
}
