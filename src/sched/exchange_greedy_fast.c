/*
 * sched/exchange_greedy_fast.c - greedy's picks from bitsets in the senders' one order
 * (sched/exchange_greedy_fast.h), beside sched/exchange.c's readable list scan.
 */
#include "sched/exchange_greedy_fast.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"

struct gfast {
    int n, nrecv, words;
    int *cand;          /* position -> k: the order of every list, own entries left out */
    int *pos;           /* k -> position */
    int *own;           /* sender q -> its own k, -1 if q is not a receiver */
    unsigned char *own_left;   /* q has not sent to itself yet (its entry is last) */
    uint64_t *left;     /* q's positions not sent to, own left out: left[q * words + w] */
    int *lo;            /* q's first word of left that is not zero (or words) */
    uint64_t *taken;    /* this round's taken positions */
};

struct keyed {
    double cost;
    int k;
};

/* The list's compare without own entries (sched/exchange.c's cmp_by_cost):
 * decreasing cost, then k. */
static int cmp_keyed(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost < y->cost ? 1 : -1;
    return (x->k > y->k) - (x->k < y->k);
}

/* a before b in q's list (neither is q's own entry, or the compare says so) */
static inline bool before(double ca, int a, double cb, int b)
{
    return ca > cb || (ca == cb && a < b);
}

static void sorted_list(const struct cluster *c, const int *recv, int nrecv, int q,
                        double (*cost)(const struct cluster *, int, int), struct keyed *out)
{
    for (int k = 0; k < nrecv; k++)
        out[k] = (struct keyed){cost(c, q, recv[k]), k};
    qsort(out, (size_t)nrecv, sizeof *out, cmp_keyed);
}

void gfast_free(struct gfast *g)
{
    if (!g)
        return;
    free(g->cand);
    free(g->pos);
    free(g->own);
    free(g->own_left);
    free(g->left);
    free(g->lo);
    free(g->taken);
    free(g);
}

struct gfast *gfast_new(const struct cluster *c, const int *recv, int nrecv,
                        double (*cost)(const struct cluster *c, int q, int p))
{
    int n = c->n;
    if (n < 1 || nrecv < 1)
        return NULL;
    struct gfast *g = xcalloc(1, sizeof *g);
    g->n = n;
    g->nrecv = nrecv;
    g->words = (nrecv + 63) / 64;
    g->cand = xmalloc((size_t)nrecv * sizeof *g->cand);
    g->pos = xmalloc((size_t)nrecv * sizeof *g->pos);
    g->own = xmalloc((size_t)n * sizeof *g->own);
    for (int q = 0; q < n; q++)
        g->own[q] = -1;
    for (int k = 0; k < nrecv; k++)
        g->own[recv[k]] = k;
    /* the candidate: sender a's list without its own entry, and a's own
     * entry placed by sender b's costs (b = a if there is one sender) */
    int a = n > 1 ? 1 : 0, b = 0;
    struct keyed *l = xmalloc((size_t)nrecv * sizeof *l);
    sorted_list(c, recv, nrecv, a, cost, l);
    int m = 0, ka = g->own[a];
    for (int i = 0; i < nrecv; i++)
        if (l[i].k != ka)
            g->cand[m++] = l[i].k;
    free(l);
    if (ka >= 0) {
        /* before the first entry (not b's own) that b's costs put after it */
        double ck = cost(c, b, recv[ka]);
        int at = 0;
        while (at < m && (g->cand[at] == g->own[b] ||
                          !before(ck, ka, cost(c, b, recv[g->cand[at]]), g->cand[at])))
            at++;
        memmove(&g->cand[at + 1], &g->cand[at], (size_t)(m - at) * sizeof *g->cand);
        g->cand[at] = ka;
        m++;
    }
    /* the check: for every sender, the candidate without its own entry is in
     * its list's order (its own entry comes last in every list) */
    bool same = true;
    for (int q = 0; q < n && same; q++) {
        int prev = -1;
        double cprev = 0;
        for (int i = 0; i < nrecv && same; i++) {
            int k = g->cand[i];
            if (k == g->own[q])
                continue;
            double ck = cost(c, q, recv[k]);
            if (prev >= 0 && !before(cprev, prev, ck, k))
                same = false;
            prev = k;
            cprev = ck;
        }
    }
    if (!same) {
        gfast_free(g);
        return NULL;
    }
    for (int i = 0; i < nrecv; i++)
        g->pos[g->cand[i]] = i;
    g->left = xcalloc((size_t)n * g->words, sizeof *g->left);
    g->lo = xcalloc((size_t)n, sizeof *g->lo);
    g->own_left = xcalloc((size_t)n, 1);
    g->taken = xcalloc((size_t)g->words, sizeof *g->taken);
    for (int q = 0; q < n; q++) {
        uint64_t *w = &g->left[(size_t)q * g->words];
        for (int i = 0; i < nrecv; i++)
            w[i / 64] |= UINT64_C(1) << (i % 64);
        if (g->own[q] >= 0) {
            int p = g->pos[g->own[q]];
            w[p / 64] &= ~(UINT64_C(1) << (p % 64));
            g->own_left[q] = 1;
        }
    }
    return g;
}

void gfast_round(struct gfast *g)
{
    memset(g->taken, 0, (size_t)g->words * sizeof *g->taken);
}

int gfast_pick(struct gfast *g, int q)
{
    const uint64_t *w = &g->left[(size_t)q * g->words];
    int i = g->lo[q];
    while (i < g->words && !w[i])
        i++;
    g->lo[q] = i;
    for (; i < g->words; i++) {
        uint64_t x = w[i] & ~g->taken[i];
        if (x)
            return g->cand[i * 64 + __builtin_ctzll(x)];
    }
    int k = g->own[q];
    if (k >= 0 && g->own_left[q] && !(g->taken[g->pos[k] / 64] >> (g->pos[k] % 64) & 1))
        return k;
    return -1;
}

void gfast_take(struct gfast *g, int q, int k)
{
    int p = g->pos[k];
    uint64_t bit = UINT64_C(1) << (p % 64);
    g->taken[p / 64] |= bit;
    if (k == g->own[q])
        g->own_left[q] = 0;
    else
        g->left[(size_t)q * g->words + p / 64] &= ~bit;
}
