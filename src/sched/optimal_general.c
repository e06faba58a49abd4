/*
 * sched/optimal_general.c - the general search of `optimal` (sync, one-port, inexact
 * multi-port, latency matrices, platform graphs; sched/optimal.c's opening
 * comment): (sender, receiver) decisions in start order, its bounds and
 * counts, and the local search for the first incumbent.
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

#include "engine/bounds.h"
#include "sched/list.h"
#include "support/rng.h"

/* ---- the general search: (sender, receiver) decisions in start order ---- */

struct gs_ctx {
    int n, src;
    enum model m;
    struct cost *k;         /* n*n scaled costs, valid where edge */
    unsigned char *edge;    /* n*n: q -> p possible */
    double *hoff, *foff;    /* n*n: hold and free-again time after a start at 0 */
    int *cls;               /* receiver class (identical rows and columns); source -1 */
    int ncls;
    int *cmem, *cstart, *cused;     /* members of each class by index; how many served */
    unsigned char *held;
    double *ready;          /* holders: when the next send may start */
    int *rank;              /* order in which nodes came to hold (source 0) */
    int nrecv;
    int *pf, *pt, *bf, *bt; /* current and best decisions */
    double U, slack;
    bool exact;             /* integer arithmetic (scaled costs) */
    double *est, *xs, *xst, *slot_next, *qs, *qa, *avec;
    int *ford, *fpos;       /* n*n: q's receivers by free-again offset, -1 ended; q's place */
    int *cand_q, *cand_p, *cand_ord;    /* depth d: a slice of n * ncls candidates */
    double *cand_h;
    unsigned char *done;
    double *cw;             /* gs_count_ok: 4 n scratch */
    int *cnode;             /* gs_count_ok: 2 n scratch */
    bool pack;              /* every transfer frees its sender when its receiver holds (gs_pack_ok) */
    double *plim, *pused;   /* gs_pack_ok, per bin: D less its start, the share's sizes so far */
    int *pbin, *pbinof, *pitem;  /* gs_pack_ok: n bins (nodes), each node's bin or -1, n items */
    unsigned char *pfits;   /* gs_pack_ok: n, per bin: some item left fits */
    struct limits *lim;
};

#define GS(g, a, q, p) ((g)->a[(size_t)(q) * (size_t)(g)->n + (size_t)(p)])

/* The timing rule (model/timing.h) for a send q -> p at the sender's ready time t,
 * as engine_earliest places it: in a broadcast every receive port and every
 * link is free when its one transfer comes. */
static void gs_times(const struct gs_ctx *g, int q, int p, double t, double *hold, double *fr)
{
    struct timing_ports at = {t, 0.0, -INFINITY};
    struct timing tm;
    timing_transfer(g->m, &GS(g, k, q, p), &at, &tm);
    *hold = tm.hold;
    *fr = tm.free;
}

static double gs_hold_at(const struct gs_ctx *g, int q, int p, double t)
{
    double h, f;
    gs_times(g, q, p, t, &h, &f);
    return h;
}

/*
 * A lower bound on the makespan of any completion of the current prefix
 * whose next start is >= t_last, or as soon as it reaches cut (the caller's
 * cut: then est and xs are left unfinished). Two bounds, O(n^2 + m n + m^2):
 *
 * 1. Earliest holds (Dijkstra): a waiting p receives from an open holder q
 *    (ready >= t_last; holders with ready < t_last can never send again in
 *    start order) no earlier than its next start, or from a waiting w no
 *    earlier than w's own earliest hold; the engine's additions are monotone
 *    in t, so the shortest-path times are lower bounds.
 *
 * 2. Slots, as in as_bound: the k-th future transfer in start order starts
 *    no earlier than the k-th smallest x_k of the open holders' starts and
 *    the fictitious new holders' starts; pairing the k-th start with the
 *    k-th largest least hold offset bounds the makespan.  An open holder q
 *    sends from its ready time, each send to a different waiting node, so
 *    its j-th send starts no earlier than its ready time plus the j - 1
 *    least free-again offsets from q to waiting nodes, and it has no
 *    (j+1)-th send when j waiting nodes take from it.  The new holders:
 *    the i earliest future holds H_1 <= .. <= H_i are the ends of i
 *    transfers to i different nodes; for a + b = i + 1, b of them start at
 *    or after the a-th of their starts, itself at or after the a-th start
 *    x_a of all, and one of those b receivers has a least hold offset of at
 *    least c_b, the b-th least among the waiting nodes: H_i >= x_a + c_b.
 *    The i-th new holder sends from that time on (then every least
 *    free-again time); as H_i needs x_1..x_i alone and the k-th start comes
 *    from new holders made by the first k - 1 transfers, the slots are
 *    computed in order (a = i, b = 1: x_i plus the least offset).
 *    Real offsets: exact in exact arithmetic, otherwise covered by slack.
 */
static double gs_bound(struct gs_ctx *g, double t_last, double M, double cut)
{
    int n = g->n, m = 0;
    double lb = M;
    for (int p = 0; p < n; p++) {
        g->done[p] = g->held[p];
        g->est[p] = INFINITY;
        if (g->held[p])
            continue;
        m++;
        for (int q = 0; q < n; q++)
            if (g->held[q] && g->ready[q] >= t_last && GS(g, edge, q, p))
                g->est[p] = dmin(g->est[p], gs_hold_at(g, q, p, g->ready[q]));
    }
    if (m == 0)
        return lb;
    for (int it = 0; it < m; it++) {
        int u = -1;
        for (int p = 0; p < n; p++)
            if (!g->done[p] && (u < 0 || g->est[p] < g->est[u]))
                u = p;
        if (g->est[u] == INFINITY)
            return INFINITY;
        g->done[u] = 1;
        lb = dmax(lb, g->est[u]);
        if (lb >= cut)
            return lb;   /* enough to cut: the rest is not needed */
        for (int p = 0; p < n; p++)
            if (!g->done[p] && GS(g, edge, u, p))
                g->est[p] = dmin(g->est[p], gs_hold_at(g, u, p, g->est[u]));
    }

    /* 2: slots. avec: least hold offset of each waiting node, sorted descending. */
    int na = 0;
    double fnew = INFINITY;
    for (int p = 0; p < n; p++) {
        if (g->held[p])
            continue;
        double a = INFINITY;
        for (int q = 0; q < n; q++)
            if (q != p && GS(g, edge, q, p) && (!g->held[q] || g->ready[q] >= t_last))
                a = dmin(a, GS(g, hoff, q, p));
        for (int w = 0; w < n; w++)
            if (w != p && !g->held[w] && GS(g, edge, w, p))
                fnew = dmin(fnew, GS(g, foff, w, p));
        int j = na++;
        while (j > 0 && g->avec[j - 1] < a)
            g->avec[j] = g->avec[j - 1], j--;
        g->avec[j] = a;
    }
    for (int q = 0; q < n; q++) {
        g->slot_next[q] = INFINITY;
        if (g->held[q] && g->ready[q] >= t_last) {
            int *fo = g->ford + (size_t)q * (size_t)n, i = 0;
            while (fo[i] >= 0 && g->held[fo[i]])
                i++;
            g->fpos[q] = i;
            if (fo[i] >= 0)
                g->slot_next[q] = g->ready[q];
        }
    }
    int sh = 0, st = 0, ah = 0, at = 0;
    for (int k = 0; k < m; k++) {
        int bq = -1;
        double x = INFINITY;
        for (int q = 0; q < n; q++)
            if (g->slot_next[q] < x)
                x = g->slot_next[q], bq = q;
        int src = 0;
        if (sh < st && g->qs[sh] < x)
            x = g->qs[sh], src = 1;
        if (ah < at && g->qa[ah] < x)
            x = g->qa[ah], src = 2;
        if (x == INFINITY)
            return INFINITY;
        if (src == 0) {   /* bq's next send: to the next waiting node of least free-again offset */
            int *fo = g->ford + (size_t)bq * (size_t)n, i = g->fpos[bq];
            double f = GS(g, foff, bq, fo[i]);
            for (i++; fo[i] >= 0 && g->held[fo[i]]; i++)
                ;
            g->fpos[bq] = i;
            g->slot_next[bq] = fo[i] >= 0 ? x + f : INFINITY;
        } else if (src == 1) {
            sh++;
        } else {
            ah++;
        }
        if (src != 0 && fnew < INFINITY)
            g->qa[at++] = x + fnew;
        /* the (k+1)-th hold: some pairing of the a-th start with the b-th least offset, a + b = k + 2 */
        g->xst[k] = x;
        double h = -INFINITY;
        for (int a = 0; a <= k; a++)
            h = dmax(h, g->xst[a] + g->avec[m - 1 - (k - a)]);
        if (fnew < INFINITY)
            g->qs[st++] = h;
        lb = dmax(lb, x + g->avec[k]);
        if (lb >= cut)
            return lb;
        g->xs[k] = h;
    }
    return lb;
}

/* How many transfers a node ready at a may send with every hold at or
 * before D: its sends start one after the other, each at least fmin after
 * the one before, the last at least hmin before D.  INFINITY when they may
 * take no time. */
static double gs_sends(double a, double hmin, double fmin, double D)
{
    if (!(a + hmin <= D))
        return 0;
    return fmin > 0 ? floor((D - a - hmin) / fmin) + 1 : INFINITY;
}

/* The count for R (need transfers to it, its offsets in g->cw) with the
 * k-th waiting node to hold sending from the k-th time on, as many as the
 * best of them could (see gs_count_ok).  O(m ns). */
static bool gs_late_ok(const struct gs_ctx *g, int ns, int need, int m, double D)
{
    const double *hm = g->cw, *fm = g->cw + g->n, *at = g->cw + 2 * g->n;
    const int *snd = g->cnode;
    double late = 0;
    for (int i = 0; i < ns; i++)
        if (g->held[snd[i]])
            late += gs_sends(at[i], hm[i], fm[i], D);
    for (int k = 0; k < m && late < need; k++) {
        double best = 0;
        for (int i = 0; i < ns; i++)
            if (!g->held[snd[i]])
                best = dmax(best, gs_sends(dmax(at[i], g->xs[k]), hm[i], fm[i], D));
        late += best;
    }
    return late >= need;
}

/*
 * The count of whole transfers (exact arithmetic only): can the prefix be
 * completed with every hold at or before D?  Every transfer ends with its
 * receiver's hold, so a node q sends at most gs_sends of them to a set R
 * of waiting nodes after it is ready, with its least hold and free-again
 * offsets towards R (its sends to others only push them later): an open
 * holder from its ready time, a waiting node from its hold, which is at or
 * after its earliest hold (g->est, from gs_bound).  For each j, R the j
 * waiting nodes of the largest least hold offsets (the slow receivers):
 * if the nodes cannot send j transfers to R, no completion holds all by D.
 * Once more for all m waiting nodes with the k-th to hold sending as many
 * as the best of them could from the k-th time: of the k transfers that
 * hold first, one starts k-th or later, so the k-th hold is at or after
 * the k-th start of gs_bound's slots plus the least hold offset (g->xs).
 * Needs gs_bound's est and xs for this prefix.  O(n m + m^2).
 */
static bool gs_count_ok(struct gs_ctx *g, double t_last, int m, double D)
{
    int n = g->n, nw = 0, ns = 0;
    double *hm = g->cw, *fm = g->cw + n, *at = g->cw + 2 * n, *off = g->cw + 3 * n;
    int *snd = g->cnode, *rcv = g->cnode + n;
    for (int q = 0; q < n; q++) {
        if (g->held[q] && g->ready[q] < t_last)
            continue;
        hm[ns] = fm[ns] = INFINITY;
        at[ns] = g->held[q] ? g->ready[q] : g->est[q];
        snd[ns++] = q;
        if (g->held[q])
            continue;
        double a = INFINITY;   /* the least hold offset of q as a receiver */
        for (int x = 0; x < n; x++)
            if (x != q && GS(g, edge, x, q) && (!g->held[x] || g->ready[x] >= t_last))
                a = dmin(a, GS(g, hoff, x, q));
        int j = nw++;
        while (j > 0 && off[j - 1] < a)
            off[j] = off[j - 1], rcv[j] = rcv[j - 1], j--;
        off[j] = a;
        rcv[j] = q;
    }
    for (int j = 0; j < nw; j++) {
        int p = rcv[j];
        double total = 0;
        for (int i = 0; i < ns; i++) {
            int q = snd[i];
            if (q != p && GS(g, edge, q, p)) {
                hm[i] = dmin(hm[i], GS(g, hoff, q, p));
                fm[i] = dmin(fm[i], GS(g, foff, q, p));
            }
            total += gs_sends(at[i], hm[i], fm[i], D);
        }
        if (total < j + 1 || !gs_late_ok(g, ns, j + 1, m, D))
            return false;
    }
    return true;
}

/*
 * The packing test (exact arithmetic, models where a transfer frees its
 * sender the moment its receiver holds: hoff == foff, sync and one-port):
 * can the waiting nodes be shared out among the senders so that each
 * sender's share fits before D?  In a completion with every hold at or
 * before D, a sender q sends to its share C_q one transfer after the other
 * from a_q on (an open holder's ready time, a waiting node's hold, at or
 * after its earliest hold g->est), each starting no earlier than the one
 * before ended, so its last receiver holds at or after a_q plus the sum
 * of foff(q, p) over C_q: that sum is at most D - a_q.  Every waiting node
 * is in one share (its sender's), not its own.  And a waiting node p in
 * q's share holds at or after a_q + foff(q, p), so p's own share is at
 * most D - a_q - foff(q, p): with L_q an upper bound on D - a_q (at first
 * D less the ready time or earliest hold), placing p with q bounds L_p by
 * L_q - foff(q, p), itself an upper bound on D - a_p.  So a prefix whose
 * waiting nodes admit no such sharing has no completion holding all by D:
 * the sharing of such a completion passes every test along its path.  A
 * depth-first search places the waiting nodes, slowest first (largest
 * least hold offset), in the senders with room; after GS_PACK_STEPS
 * placements it gives up and answers "fits" (no cut).  Needs gs_bound's
 * est for this prefix.
 */
#define GS_PACK_MAX 16        /* waiting nodes: beyond, the test is not tried */
#define GS_PACK_STEPS 1000

static bool gs_pack_place(struct gs_ctx *g, int i, int ni, int nb, int *steps)
{
    if (i == ni)
        return true;
    int p = g->pitem[i], bp = g->pbinof[p];
    bool ok = false;
    for (int b = 0; b < nb; b++) {
        int q = g->pbin[b];
        double f = GS(g, foff, q, p);
        if (q == p || !GS(g, edge, q, p) || g->pused[b] + f > g->plim[b])
            continue;
        if (++*steps > GS_PACK_STEPS) {
            ok = true;   /* undecided: no cut */
            break;
        }
        double was = bp >= 0 ? g->plim[bp] : 0;
        if (bp >= 0) {   /* p holds no earlier than q's start plus f */
            g->plim[bp] = dmin(was, g->plim[b] - f);
            if (g->pused[bp] > g->plim[bp]) {
                g->plim[bp] = was;
                continue;
            }
        }
        g->pused[b] += f;
        ok = gs_pack_place(g, i + 1, ni, nb, steps);
        g->pused[b] -= f;
        if (bp >= 0)
            g->plim[bp] = was;
        if (ok)
            break;
    }
    return ok;
}

static bool gs_pack_ok(struct gs_ctx *g, double t_last, double D)
{
    int n = g->n, nb = 0, ni = 0, steps = 0;
    for (int q = 0; q < n; q++) {
        double a = g->held[q] ? (g->ready[q] >= t_last ? g->ready[q] : INFINITY) : g->est[q];
        g->pbinof[q] = -1;
        if (a <= D) {
            g->pbinof[q] = nb;
            g->pbin[nb] = q;
            g->pused[nb] = 0;
            g->plim[nb++] = D - a;
        }
        if (g->held[q])
            continue;
        double lo = INFINITY;   /* q's least hold offset: slowest first */
        for (int x = 0; x < n; x++)
            if (x != q && GS(g, edge, x, q))
                lo = dmin(lo, GS(g, hoff, x, q));
        int j = ni++;
        while (j > 0 && g->cw[j - 1] < lo)
            g->cw[j] = g->cw[j - 1], g->pitem[j] = g->pitem[j - 1], j--;
        g->cw[j] = lo;
        g->pitem[j] = q;
    }
    if (ni > GS_PACK_MAX)
        return true;
    return gs_pack_place(g, 0, ni, nb, &steps);
}

/*
 * Canonical order: starts never decrease; at equal starts the rank of the
 * sender never decreases; one sender's sends at one instant are first those
 * that take no time (the port is free again at that instant: a send, link
 * and receive of zero cost under sync, say) in non-decreasing class, then
 * at most one that holds the port, of any class; within a class receivers
 * are served in index order.  Every schedule with no idle sender has such a
 * sequence up to renaming identical nodes: sort its transfers by start, and
 * at equal starts by the rank of the sender -- a sender that just came to
 * hold at this instant has a larger rank than all before it, and gets the
 * message from a transfer that sorts before its own sends; a sender's sends
 * at one instant are already in that form, since a send that holds the port
 * is its last at that instant, and the sends of no time before it can be
 * reordered among themselves without changing any time; then rename the
 * nodes of each class in the order they are served (identical rows and
 * columns: an automorphism of the costs, which keeps ranks, classes and
 * times).  (Ordering a send that holds the port by class too, before
 * sends of no time, would cut off schedules: tests/test_bruteforce.c.)
 *
 * Returns a lower bound on the makespan below this prefix (fail-soft).
 */
static double gs_search(struct gs_ctx *g, int d, double t_last, int last_rank, int last_cls, double M)
{
    double b = gs_bound(g, t_last, M, g->U + g->slack);
    if (b >= g->U + g->slack || tick(g->lim))
        return b;
    if (g->exact && d < g->nrecv && !gs_count_ok(g, t_last, g->nrecv - d, g->U - 1))
        return g->U;   /* nothing holds all at or before U - 1: integers */
    if (g->exact && g->pack && d < g->nrecv && !gs_pack_ok(g, t_last, g->U - 1))
        return g->U;
    if (d == g->nrecv) {
        if (M < g->U) {
            g->U = M;
            memcpy(g->bf, g->pf, (size_t)d * sizeof *g->bf);
            memcpy(g->bt, g->pt, (size_t)d * sizeof *g->bt);
        }
        return M;
    }
    /* Candidates at this depth live in a slice of the scratch arrays. */
    int n = g->n, nc = 0;
    size_t base = (size_t)d * (size_t)n * (size_t)g->ncls;
    int *cq = g->cand_q + base, *cp = g->cand_p + base, *co = g->cand_ord + base;
    double *chh = g->cand_h + base;
    for (int q = 0; q < n; q++) {
        if (!g->held[q] || g->ready[q] < t_last)
            continue;
        bool tied = g->ready[q] == t_last;
        if (tied && g->rank[q] < last_rank)
            continue;
        for (int c = 0; c < g->ncls; c++) {
            if (g->cused[c] == g->cstart[c + 1] - g->cstart[c])
                continue;
            int p = g->cmem[g->cstart[c] + g->cused[c]];
            if (!GS(g, edge, q, p))
                continue;
            double h = gs_hold_at(g, q, p, g->ready[q]);
            if (tied && g->rank[q] == last_rank && c < last_cls) {
                /* q's last send started now and left its port free now (it took no
                 * time): sends of no time reorder freely, so they come in class
                 * order; a send that holds the port can only be q's last at this
                 * instant, so it may follow them whatever its class. */
                double hh, fr;
                gs_times(g, q, p, g->ready[q], &hh, &fr);
                if (fr == g->ready[q])
                    continue;
            }
            int j = nc++;
            cq[j] = q;
            cp[j] = p;
            chh[j] = h;
            while (j > 0 && chh[co[j - 1]] > h)
                co[j] = co[j - 1], j--;
            co[j] = nc - 1;
        }
    }
    double v = INFINITY;
    for (int j = 0; j < nc; j++) {
        int i = co[j], q = cq[i], p = cp[i], c = g->cls[p];
        double h = chh[i], fr, t = g->ready[q];
        if (g->lim->stop || dmax(M, h) >= g->U + g->slack) {
            v = dmin(v, g->lim->stop ? b : dmax(M, h));
            continue;
        }
        gs_times(g, q, p, t, &h, &fr);
        g->held[p] = 1;
        g->ready[p] = h;
        g->rank[p] = d + 1;
        g->ready[q] = fr;
        g->cused[c]++;
        g->pf[d] = q;
        g->pt[d] = p;
        double r = gs_search(g, d + 1, t, g->rank[q], c, dmax(M, h));
        g->cused[c]--;
        g->ready[q] = t;
        g->held[p] = 0;
        v = dmin(v, r);
    }
    return dmax(v, b);
}

/* Identical nodes: same costs to and from every other node, and between them. */
static bool same_node(const struct gs_ctx *g, int a, int b)
{
    int n = g->n;
    for (int x = 0; x < n; x++) {
        if (x == a || x == b)
            continue;
        if (GS(g, edge, x, a) != GS(g, edge, x, b) || GS(g, edge, a, x) != GS(g, edge, b, x))
            return false;
        if (GS(g, edge, x, a) && memcmp(&GS(g, k, x, a), &GS(g, k, x, b), sizeof(struct cost)))
            return false;
        if (GS(g, edge, a, x) && memcmp(&GS(g, k, a, x), &GS(g, k, b, x), sizeof(struct cost)))
            return false;
    }
    if (GS(g, edge, a, b) != GS(g, edge, b, a))
        return false;
    return !GS(g, edge, a, b) || !memcmp(&GS(g, k, a, b), &GS(g, k, b, a), sizeof(struct cost));
}

static void gs_free(struct gs_ctx *g)
{
    free(g->k);
    free(g->edge);
    free(g->hoff);
    free(g->foff);
    free(g->cls);
    free(g->cmem);
    free(g->cstart);
    free(g->cused);
    free(g->held);
    free(g->ready);
    free(g->rank);
    free(g->pf);
    free(g->pt);
    free(g->bf);
    free(g->bt);
    free(g->est);
    free(g->xs);
    free(g->cw);
    free(g->cnode);
    free(g->plim);
    free(g->pused);
    free(g->pbinof);
    free(g->pfits);
    free(g->pbin);
    free(g->pitem);
    free(g->slot_next);
    free(g->qs);
    free(g->qa);
    free(g->avec);
    free(g->xst);
    free(g->ford);
    free(g->fpos);
    free(g->cand_h);
    free(g->cand_q);
    free(g->cand_p);
    free(g->cand_ord);
    free(g->done);
}

/* Greedy incumbent: repeatedly the (holder, waiting) pair with the earliest hold. O(n^3). */
static double gs_greedy(struct gs_ctx *g)
{
    int n = g->n;
    double ms = 0;
    for (int d = 0; d < g->nrecv; d++) {
        int bq = -1, bp = -1;
        double bh = INFINITY;
        for (int q = 0; q < n; q++)
            for (int p = 0; g->held[q] && p < n; p++)
                if (!g->held[p] && GS(g, edge, q, p)) {
                    double h = gs_hold_at(g, q, p, g->ready[q]);
                    if (h < bh)
                        bh = h, bq = q, bp = p;
                }
        double h, fr;
        gs_times(g, bq, bp, g->ready[bq], &h, &fr);
        g->ready[bq] = fr;
        g->held[bp] = 1;
        g->ready[bp] = h;
        g->bf[d] = bq;
        g->bt[d] = bp;
        ms = dmax(ms, h);
    }
    for (int p = 0; p < n; p++) {
        g->held[p] = p == g->src;
        g->ready[p] = 0;
    }
    return ms;
}

/*
 * A receiver order as a schedule: each receiver in turn from the holder
 * that gives it the earliest hold, at that holder's ready time (as
 * gs_greedy books).  Fills from and to; returns the makespan (INFINITY
 * when a receiver has no holder to take it from), *sum the sum of holds.
 * Leaves g's state as it found it.  O(m n).
 */
static double gs_eval(struct gs_ctx *g, const int *order, int *from, int *to, double *sum)
{
    int n = g->n;
    double ms = 0;
    *sum = 0;
    for (int d = 0; d < g->nrecv && ms < INFINITY; d++) {
        int p = order[d], bq = -1;
        double bh = INFINITY;
        for (int q = 0; q < n; q++)
            if (g->held[q] && GS(g, edge, q, p)) {
                double h = gs_hold_at(g, q, p, g->ready[q]);
                if (h < bh)
                    bh = h, bq = q;
            }
        if (bq < 0) {
            ms = INFINITY;
            break;
        }
        double h, fr;
        gs_times(g, bq, p, g->ready[bq], &h, &fr);
        g->ready[bq] = fr;
        g->held[p] = 1;
        g->ready[p] = h;
        from[d] = bq;
        to[d] = p;
        ms = dmax(ms, h);
        *sum += h;
    }
    for (int p = 0; p < n; p++) {
        g->held[p] = p == g->src;
        g->ready[p] = 0;
    }
    return ms;
}

/* First-improvement descent from order (makespan *cur, sum of holds *sum):
 * move one receiver to another place while that lowers (makespan, sum).
 * Returns false once *evals passes budget or the limits are reached. */
static bool gs_descend(struct gs_ctx *g, int *order, int *trial, double *cur, double *sum,
                       long long *evals, double budget)
{
    int m0 = g->nrecv;
    bool improved = *cur < INFINITY;
    while (improved) {
        improved = false;
        for (int i = 0; i < m0 && !improved; i++)
            for (int j = 0; j < m0 && !improved; j++) {
                if (j == i)
                    continue;
                if (++*evals > budget || ((*evals & 255) == 0 && exhausted(g->lim)))
                    return false;
                moved(order, m0, i, j, trial);
                double tsum, tms = gs_eval(g, trial, g->pf, g->pt, &tsum);
                if (tms < *cur || (tms == *cur && tsum < *sum)) {
                    memcpy(order, trial, (size_t)m0 * sizeof *order);
                    *cur = tms;
                    *sum = tsum;
                    improved = true;
                }
            }
    }
    return true;
}

/*
 * The first incumbent improved (as as_improve does for the slot search):
 * a descent (gs_descend) from gs_greedy's receivers in order, then again
 * from the best order with two receivers swapped at random (a fixed seed),
 * up to m^2 times, at most GS_LS_WORK / (m^2 n) evaluations in all.
 * Every order it keeps is a schedule gs_eval booked, so g->bf and g->bt
 * hold a true schedule of makespan *ms; the search's bounds do not depend
 * on it.  The budget is ten times OPT_LS_WORK: on the random tables of 18
 * to 20 nodes (sync) the incumbent the search starts from falls by up to
 * 4 % (n = 20, table 9: 31 to 29.8), which the search would otherwise
 * have to find, pruning less until it does (n = 18: a tenth fewer search
 * nodes, median); it costs some 0.1 s there, where the budget ends the
 * kicks (a kick's descent scans m^2 moves at least).  On small tables,
 * whose search is quick, the kicks end at m^2 (40 m would have made the
 * brute-force test's 3.2 s of CPU 9.3 s; with m^2 it is 3.1 s).
 */
#define GS_LS_MAX 64   /* nodes: beyond, the moves cost more than they give */
#define GS_LS_WORK (10 * OPT_LS_WORK)

static void gs_improve(struct gs_ctx *g, double *ms)
{
    int m0 = g->nrecv;
    int *best = xmalloc((size_t)m0 * sizeof *best), *order = xmalloc((size_t)m0 * sizeof *order),
        *trial = xmalloc((size_t)m0 * sizeof *trial);
    memcpy(best, g->bt, (size_t)m0 * sizeof *best);
    double bsum, budget = GS_LS_WORK / ((double)m0 * (double)m0 * (double)g->n + 1);
    double bms = gs_eval(g, best, g->pf, g->pt, &bsum);
    long long evals = 0;
    bool more = gs_descend(g, best, trial, &bms, &bsum, &evals, budget);
    struct rng r;
    rng_seed(&r, 1);
    for (int kick = 0; more && bms < INFINITY && m0 > 1 && kick < m0 * m0; kick++) {
        memcpy(order, best, (size_t)m0 * sizeof *order);
        for (int x = 0; x < 2; x++) {
            int i = (int)rng_below(&r, (uint64_t)m0), j = (int)rng_below(&r, (uint64_t)m0), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        double sum, cur = gs_eval(g, order, g->pf, g->pt, &sum);
        more = gs_descend(g, order, trial, &cur, &sum, &evals, budget);
        if (cur < bms || (cur == bms && sum < bsum)) {
            memcpy(best, order, (size_t)m0 * sizeof *best);
            bms = cur;
            bsum = sum;
        }
    }
    if (bms < *ms)
        *ms = gs_eval(g, best, g->bf, g->bt, &bsum);
    free(best);
    free(order);
    free(trial);
}

/*
 * One pass of the general search (see drive).  Bounds may overshoot by the
 * slack, so the returned bound gives it back; a pass that finishes has
 * still proven "nothing below t" exactly (it pruned only at >= t + slack).
 */
static double gs_pass(void *ctx, double t, double *best)
{
    struct gs_ctx *g = ctx;
    g->U = t;
    double v = gs_search(g, 0, 0, 0, 0, 0) - g->slack;
    if (g->U < t)
        *best = g->U;   /* a schedule below t was found (g->bf, g->bt hold it) */
    return v;
}

/* g for c under m in scale's units (0: raw doubles), the source alone holding. */
static void gs_init(struct gs_ctx *gp, const struct cluster *c, enum model m, double scale,
                    struct limits *lim)
{
    struct gs_ctx g;
    memset(&g, 0, sizeof g);
    int n = c->n;
    size_t nn = (size_t)n * (size_t)n;
    g.n = n;
    g.src = c->source;
    g.m = m;
    g.lim = lim;
    g.nrecv = n - 1;
    g.k = xcalloc(nn, sizeof *g.k);
    g.edge = xcalloc(nn, 1);
    g.hoff = xmalloc(nn * sizeof *g.hoff);
    g.foff = xmalloc(nn * sizeof *g.foff);
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++) {
            struct cost k;
            GS(&g, hoff, q, p) = GS(&g, foff, q, p) = INFINITY;
            if (p == q || !timing_cost(c, q, p, &k))
                continue;
            k.s = scaled(k.s, scale);
            k.l = scaled(k.l, scale);
            k.r = scaled(k.r, scale);
            k.T = scaled(k.T, scale);
            k.send_mp = scaled(k.send_mp, scale);
            GS(&g, k, q, p) = k;
            GS(&g, edge, q, p) = 1;
            gs_times(&g, q, p, 0, &GS(&g, hoff, q, p), &GS(&g, foff, q, p));
        }
    /* Classes of identical receivers, members in index order. O(n^3). */
    g.cls = xmalloc((size_t)n * sizeof *g.cls);
    int *rep = xmalloc((size_t)n * sizeof *rep);
    g.ncls = 0;
    for (int p = 0; p < n; p++) {
        g.cls[p] = -1;
        if (p == g.src)
            continue;
        for (int c2 = 0; c2 < g.ncls && g.cls[p] < 0; c2++)
            if (same_node(&g, rep[c2], p))
                g.cls[p] = c2;
        if (g.cls[p] < 0) {
            rep[g.ncls] = p;
            g.cls[p] = g.ncls++;
        }
    }
    free(rep);
    g.cstart = xcalloc((size_t)g.ncls + 1, sizeof *g.cstart);
    g.cused = xcalloc((size_t)g.ncls + 1, sizeof *g.cused);
    g.cmem = xmalloc((size_t)n * sizeof *g.cmem);
    for (int p = 0; p < n; p++)
        if (g.cls[p] >= 0)
            g.cstart[g.cls[p] + 1]++;
    for (int i = 0; i < g.ncls; i++)
        g.cstart[i + 1] += g.cstart[i];
    for (int p = 0, *fill = g.cused; p < n; p++)
        if (g.cls[p] >= 0)
            g.cmem[g.cstart[g.cls[p]] + fill[g.cls[p]]++] = p;
    memset(g.cused, 0, ((size_t)g.ncls + 1) * sizeof *g.cused);

    g.held = xcalloc((size_t)n, 1);
    g.ready = xcalloc((size_t)n, sizeof *g.ready);
    g.rank = xcalloc((size_t)n, sizeof *g.rank);
    g.held[g.src] = 1;
    size_t len = (size_t)(n > 1 ? n - 1 : 1);
    g.pf = xmalloc(len * sizeof *g.pf);
    g.pt = xmalloc(len * sizeof *g.pt);
    g.bf = xmalloc(len * sizeof *g.bf);
    g.bt = xmalloc(len * sizeof *g.bt);
    g.est = xmalloc((size_t)n * sizeof *g.est);
    g.xs = xmalloc((size_t)n * sizeof *g.xs);
    g.cw = xmalloc(4 * (size_t)n * sizeof *g.cw);
    g.cnode = xmalloc(2 * (size_t)n * sizeof *g.cnode);
    g.plim = xmalloc((size_t)n * sizeof *g.plim);
    g.pused = xmalloc((size_t)n * sizeof *g.pused);
    g.pbinof = xmalloc((size_t)n * sizeof *g.pbinof);
    g.pfits = xmalloc((size_t)n);
    g.pbin = xmalloc((size_t)n * sizeof *g.pbin);
    g.pitem = xmalloc((size_t)n * sizeof *g.pitem);
    g.pack = true;
    for (size_t i = 0; i < nn; i++)
        if (g.edge[i] && g.hoff[i] != g.foff[i])
            g.pack = false;
    g.slot_next = xmalloc((size_t)n * sizeof *g.slot_next);
    g.avec = xmalloc((size_t)n * sizeof *g.avec);
    g.xst = xmalloc((size_t)n * sizeof *g.xst);
    g.fpos = xmalloc((size_t)n * sizeof *g.fpos);
    g.ford = xmalloc(nn * sizeof *g.ford);
    for (int q = 0; q < n; q++) {   /* insertion sort by free-again offset, ties by index: O(n^3) once */
        int *fo = g.ford + (size_t)q * (size_t)n, len = 0;
        for (int p = 0; p < n; p++) {
            if (!GS(&g, edge, q, p))
                continue;
            int j = len++;
            while (j > 0 && GS(&g, foff, q, fo[j - 1]) > GS(&g, foff, q, p))
                fo[j] = fo[j - 1], j--;
            fo[j] = p;
        }
        fo[len] = -1;   /* len < n: no edge q -> q */
    }
    g.qs = xmalloc((size_t)n * sizeof *g.qs);
    g.qa = xmalloc((size_t)n * sizeof *g.qa);
    g.done = xmalloc((size_t)n);
    /* Per-depth candidate slices: n senders * ncls classes at each depth. */
    size_t cand = (size_t)n * (size_t)n * (size_t)(g.ncls ? g.ncls : 1);
    g.cand_q = xmalloc(cand * sizeof *g.cand_q);
    g.cand_p = xmalloc(cand * sizeof *g.cand_p);
    g.cand_ord = xmalloc(cand * sizeof *g.cand_ord);
    g.cand_h = xmalloc(cand * sizeof *g.cand_h);

    *gp = g;
}

void opt_gs_solve(const struct cluster *c, enum model m, double scale, struct limits *lim,
                  struct result *res)
{
    struct gs_ctx g;
    gs_init(&g, c, m, scale, lim);
    int n = c->n;
    double best = gs_greedy(&g);
    if (n <= GS_LS_MAX)
        gs_improve(&g, &best);
    bool exact = scale > 0;
    g.exact = exact;
    g.slack = exact ? 0 : 1e-9 * fabs(best);
    double lower = dmin(gs_bound(&g, 0, 0, INFINITY) - g.slack, best);
    lower = opt_drive(gs_pass, &g, lim, exact ? ceil(lower) : lower, &best, exact);
    res->best = best;
    res->lower = lower;
    res->from = g.bf;
    res->to = g.bt;
    res->len = n - 1;
    g.bf = g.bt = NULL;
    gs_free(&g);
}

double opt_gs_below(const struct cluster *c, enum model m, double scale, double t, struct limits *lim)
{
    struct gs_ctx g;
    gs_init(&g, c, m, scale, lim);
    g.exact = scale > 0;
    g.slack = g.exact ? 0 : 1e-9 * fabs(t);
    double best = t;
    lim->node_cap = lim->node_limit;
    lim->time_cap = lim->time_limit;
    gs_pass(&g, t, &best);
    gs_free(&g);
    return best < t ? best : INFINITY;
}
