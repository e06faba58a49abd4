/*
 * sched/optimal_slot.c - the slot search of `optimal` (node tables under async,
 * sender-only and exact multi-port; sched/optimal.c's opening comment):
 * its bounds, the search over receiver classes, its local search for the
 * first incumbent, and the classes of a node table.
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

#include "sched/list.h"
#include "support/rng.h"

/* ---- the slot search (node tables: async, sender-only, exact multi-port) ---- */

/*
 * Times are slot completions: a holder q whose next send completes at c
 * offers slots c, c + s(q), c + 2 s(q), ...; the receiver p that takes slot
 * c holds the message at (c + L) + r(p) and offers ((c + L) + r(p)) + s(p),
 * and so on: the engine's additions in the engine's order.  g(state) is the
 * latest hold time of the receivers still to come under the best order.
 */
struct as_ctx {
    int K;                  /* receiver classes, sorted by (s, r) ascending */
    double *cs, *cr;        /* per class: send and receive time (scaled) */
    int *cnt;               /* receivers of each class still waiting */
    int *by_r;              /* classes by r descending (then s descending) */
    double L;
    int m0;                 /* receivers */
    double U0, U;           /* first and current incumbent (scaled) */
    bool shift;             /* memo keys relative to the first slot (exact arithmetic) */
    int *path, *best;       /* class of the k-th receiver: current, best */
    double *kid;            /* depth d: K child profiles of m0 - d - 1 slots each */
    size_t *kid_at;         /* offset of depth d in kid */
    int *kid_len, *kid_tie, *order;     /* depth d: K entries each */
    double *kid_h, *kid_cb;
    int *front, *heap;      /* as_bound's scratch: front classes (K), heap (m0) */
    double *sig, *first, *hval, *chain;  /* m0 each; chain m0 * K */
    bool rate_on;           /* the rate bound: exact, at most OPT_RATE_MAX receivers, several r */
    double *rr, *cinv;      /* the rate bound: chain r and 1/s per class */
    double *pb, *pinv;      /* the rate bound's producers: m0 each */
    int *take;              /* K: producers of each class */
    uint64_t *dlmask;       /* m0: classes by deadline (K <= OPT_RATE_MAX) */
    int *cw, *bucket, *use; /* as_counts_ok: m0 * (K + 2), 2 m0 + 1, K */
    uint64_t *key;          /* memo key scratch */
    struct memo memo;
    struct dom dom;         /* exact arithmetic only (see as_search) */
    struct limits *lim;
};


/*
 * The slot search's arithmetic, by the timing rule (model/timing.h) in async
 * form: sender-only enters with L = r = 0, multi-port only on exact
 * integers, where its sums are the same.  A receiver with receive time r
 * that takes the slot x (the end of a holder's send) holds at (x + L) + r,
 * the link and the receive after a send that ended at x (its receive port
 * is free: a broadcast delivers to it once); a holder ready at t offers its
 * next slot at the end of a send of s from t.  Every bound below adds
 * in this order too, so that its sums are the very doubles of a schedule's
 * (floating addition is monotone: see as_bound).
 */
static inline double as_hold_at(double L, double x, double r)
{
    const struct cost k = {.l = L, .r = r};
    return timing_recv_end(&k, timing_arrival(&k, x));
}

static inline double as_slot_after(double ready, double s)
{
    const struct cost k = {.s = s};
    return timing_send_end(&k, ready);
}

/* useful_slots for a receiver of send time s and receive time r, counting
 * slots useful for receive time rc.  Never decreases when s or r falls (the
 * stream starts no later and steps no wider), so a node of the least s and
 * the least r of a set of classes over-counts for every one of them. */
static int useful_of(const struct as_ctx *a, double sigma, double s, double r, double rc, double cut,
                     int m)
{
    double L = a->L, c0 = as_slot_after(as_hold_at(L, sigma, r), s);
    if (!(as_hold_at(L, c0, rc) < cut))
        return 0;
    if (!(s > 0))
        return m;
    double q = floor(((cut - L) - rc - c0) / s);
    double n = (q > 0 ? q : 0) + (a->shift ? 1 : 3);
    return n < m ? (int)n : m;
}

/*
 * How many slots of a stream that starts with the slot taken at sigma by a
 * class-k receiver are useful for class c, i.e. fall at x with
 * (x + L) + r_c < cut?  Never less than the true count (the test below
 * relies on over-counting only): the formula floor(room / s) + 1 is at most
 * one over in exact arithmetic; with raw doubles the division may round
 * down by one and the stream's repeated additions drift by far less than
 * s, so two more cover both.  At most m.
 */
static int useful_slots(const struct as_ctx *a, double sigma, int k, int c, double cut, int m)
{
    return useful_of(a, sigma, a->cs[k], a->cr[k], a->cr[c], cut, m);
}

/*
 * The most useful slots two groups can give: positions 0..m-1, group 1
 * (want of them) scores w1[i], group 0 scores w0[i]; -1 marks a group that
 * may not take position i.  Group 1 takes its forced positions, then those
 * where it gains the most (a bucket sort: scores lie in 0..m).  Returns -1
 * when no assignment exists. O(m).
 */
static long long best_split(const int *w0, const int *w1, int m, int want, int *bucket)
{
    long long total = 0;
    int nfree = 0;
    memset(bucket, 0, (size_t)(2 * m + 1) * sizeof *bucket);
    for (int i = 0; i < m; i++) {
        if (w0[i] < 0 && w1[i] < 0)
            return -1;
        if (w0[i] < 0) {
            total += w1[i];
            want--;
        } else if (w1[i] < 0)
            total += w0[i];
        else {
            total += w0[i];
            bucket[w1[i] - w0[i] + m]++;
            nfree++;
        }
    }
    if (want < 0 || want > nfree)
        return -1;
    for (int d = 2 * m; d >= 0 && want > 0; d--) {
        int take = bucket[d] < want ? bucket[d] : want;
        total += (long long)take * (d - m);
        want -= take;
    }
    return total;
}

/*
 * The count test, for a state already past the slot bound with slots
 * sigma_1..sigma_m (a->sig).  Returns false when no schedule has g < cut.
 * O(K^2 m).
 *
 * Proof.  In a schedule with g < cut, the receivers whose r is at least
 * r_c (need of them) all take slots useful for c ((x + L) + r_c < cut).
 * The useful slots are those of P plus, for the receiver at tau_i (the
 * i-th slot taken, of class k_i), the useful slots of its stream; tau_i >=
 * sigma_i (as_bound), so that stream has at most w(k_i, i) =
 * useful_slots(sigma_i, k_i) of them.  And class k can only be at position
 * i if (sigma_i + L) + r_k < cut.  So need <= |useful P| + the maximum,
 * over assignments of classes to positions that respect the counts and the
 * exclusions, of the sum of w.  For two classes best_split gives that
 * maximum.  For more, merging all classes but one into a group scoring
 * the largest w of its members can only raise it, so the least of these K
 * two-group maxima bounds it.  If it falls short, g >= cut.
 */
static bool as_counts_ok(struct as_ctx *a, const double *P, int len, const int *cnt, int m,
                         double cut)
{
    int K = a->K, done_r = -1, *w0 = a->cw, *w1 = a->cw + m, *wk = a->cw + 2 * (size_t)m;
    const double *sig = a->sig;
    double L = a->L;
    for (int gi = 0; gi < K; gi++) {
        int c = a->by_r[gi];
        if (cnt[c] == 0 || (done_r >= 0 && a->cr[c] == a->cr[done_r]))
            continue;
        done_r = c;
        int need = 0, have = 0;
        for (int k = 0; k < K; k++)
            if (a->cr[k] >= a->cr[c])
                need += cnt[k];
        while (have < len && as_hold_at(L, P[have], a->cr[c]) < cut)
            have++;
        if (have >= need)
            continue;
        /* w(k, i) for every waiting class, then each class against the rest */
        int ncls = 0;
        for (int k = 0; k < K; k++) {
            if (cnt[k] == 0)
                continue;
            int *row = wk + (size_t)ncls * (size_t)m;
            a->use[ncls++] = k;
            for (int i = 0; i < m; i++)
                row[i] = as_hold_at(L, sig[i], a->cr[k]) < cut ? useful_slots(a, sig[i], k, c, cut, m)
                                                               : -1;
        }
        long long most = -1;
        for (int j = 0; j < (ncls == 2 ? 1 : ncls); j++) {
            const int *one = wk + (size_t)j * (size_t)m;
            for (int i = 0; i < m; i++) {
                int best = -1;
                for (int o = 0; o < ncls; o++)
                    if (o != j && wk[(size_t)o * (size_t)m + (size_t)i] > best)
                        best = wk[(size_t)o * (size_t)m + (size_t)i];
                w0[i] = best;
                w1[i] = one[i];
            }
            long long v = ncls == 1 ? 0 : best_split(w0, w1, m, cnt[a->use[j]], a->bucket);
            if (ncls == 1)
                for (int i = 0; i < m; i++) {
                    if (one[i] < 0)
                        return false;
                    v += one[i];
                }
            if (v < 0)
                return false;   /* the classes cannot all fit before their deadlines */
            if (most < 0 || v < most)
                most = v;
        }
        if ((long long)have + most < (long long)need)
            return false;
    }
    return true;
}

/*
 * The count test for many classes: as_counts_ok with its classes merged into
 * two groups, O(K m) for K classes where that one is O(K^2 m).  Returns
 * false when no schedule has g < cut.
 *
 * Proof.  As in as_counts_ok, for the receive time r_c of a waiting class:
 * the need receivers with r >= r_c all take slots useful for c, and those
 * are the useful slots of P and of the streams of the m receivers, the one
 * at position i offering at most w(k_i, i).  Split the waiting classes in
 * two groups and make each one node of the least s and the least r of its
 * classes: by useful_of's monotony the node scores at least as much as
 * every member, and may take every position a member may (its r is the
 * least).  So the best split of the positions between the two nodes, the
 * first taking as many as its group has receivers, bounds the most useful
 * slots of any schedule with g < cut; if that and the useful slots of P
 * fall short of need, or no split exists, g >= cut.  Two partitions, each
 * a bound of its own: the need receivers against the others (the first
 * must take positions early enough for r_c), and the faster half of the
 * receivers in class order against the slower half (the slower ones score
 * as the fastest of them, not as the fastest of all).  A count of whole
 * slots: a stream that ends a tenth after the deadline counts nothing,
 * where the rate bound counts it as a fraction.  With one receive time
 * (sender-only: none) the first partition's node is the fastest class,
 * whose streams from the sigmas as_bound has already paired with it, and
 * nothing is done.
 */
struct group {
    double s, r;            /* the least of its classes (r INFINITY: empty) */
    int count;              /* its receivers */
};

static void group_add(struct group *g, const struct as_ctx *a, int k, int count)
{
    g->s = dmin(g->s, a->cs[k]);
    g->r = dmin(g->r, a->cr[k]);
    g->count += count;
}

/* The split of as_groups_ok for receive time rc: do the useful slots reach need? */
static bool split_fits(struct as_ctx *a, int m, double cut, double rc, int need, int have,
                       const struct group *one, const struct group *other)
{
    int *w0 = a->cw, *w1 = a->cw + m;
    for (int i = 0; i < m; i++) {
        double x = a->sig[i];
        w1[i] = as_hold_at(a->L, x, one->r) < cut ? useful_of(a, x, one->s, one->r, rc, cut, m) : -1;
        w0[i] = other->r < INFINITY && as_hold_at(a->L, x, other->r) < cut
                    ? useful_of(a, x, other->s, other->r, rc, cut, m)
                    : -1;
    }
    long long v = best_split(w0, w1, m, one->count, a->bucket);
    return v >= 0 && (long long)have + v >= (long long)need;
}

static bool as_groups_ok(struct as_ctx *a, const double *P, int len, const int *cnt, int m, double cut)
{
    int K = a->K, have = 0;
    const struct group none = {INFINITY, INFINITY, 0};
    struct group urgent = none, fast = none, slow = none;
    double rhi = -INFINITY, rlo = INFINITY;
    for (int k = 0; k < K; k++)
        if (cnt[k] > 0) {
            rhi = dmax(rhi, a->cr[k]);
            rlo = dmin(rlo, a->cr[k]);
            group_add(fast.count < m / 2 ? &fast : &slow, a, k, cnt[k]);
        }
    if (!(rhi > rlo))
        return true;
    for (int gi = 0; gi < K;) {
        double rc = a->cr[a->by_r[gi]];
        bool waiting = false;
        /* the urgent group grows by every class of receive time rc */
        for (; gi < K && a->cr[a->by_r[gi]] == rc; gi++)
            if (cnt[a->by_r[gi]] > 0) {
                group_add(&urgent, a, a->by_r[gi], cnt[a->by_r[gi]]);
                waiting = true;
            }
        if (!waiting)
            continue;
        while (have < len && as_hold_at(a->L, P[have], rc) < cut)
            have++;
        if (have >= urgent.count)
            continue;
        struct group others = none;
        for (int j = gi; j < K; j++)
            if (cnt[a->by_r[j]] > 0)
                group_add(&others, a, a->by_r[j], cnt[a->by_r[j]]);
        if (!split_fits(a, m, cut, rc, urgent.count, have, &urgent, &others) ||
            !split_fits(a, m, cut, rc, urgent.count, have, &fast, &slow))
            return false;
    }
    return true;
}

/*
 * The rate bound: a second lower bound on the k-th slot taken (1-based
 * here), which lets every waiting receiver offer slots at its own pace
 * instead of the fastest class's (as_bound's U' does the latter, exactly
 * slot by slot), and serves first the receivers that must be served early.
 * Only in exact (integer) arithmetic, with every waiting s > 0.
 *
 * Proof.  Take a schedule with g < cut (cut <= U0) and let tau_1 <= ... be
 * the slots its receivers take, tau_i >= x_i (x_i as_bound's bound on the
 * i-th, for i < k; lo a bound on tau_k).  Each of the first k taken slots
 * is a slot of a current holder or of a receiver served earlier: a
 * receiver served at tau_i offers slots only after it (s > 0), so that is
 * one of the k - 1 served at tau_1..tau_{k-1}.  Holder slots at or before
 * tau_k are in P: tau_k lies inside the horizon (g < U0), and if the cap of
 * m slots cut P, all of P lies at or before tau_k and counts m >= k.  A
 * receiver of (s, r) served at tau_i offers floor((x - b) / s) slots at or
 * before x, b = (tau_i + L) + r, which is at most (x - b_i)^+ / s with
 * b_i = (x_i + L) + r' for any r' <= r.  Take r' = the least r of the
 * waiting classes at least as slow (in class order, a suffix minimum): the
 * relaxed classes (s, r') form a chain, each at least as fast and as quick
 * to receive as the one after.  For a chain, phi(A) = (A - r_f)^+/s_f -
 * (A - r_g)^+/s_g with f before g never decreases in A (slope 0, 1/s_f,
 * then 1/s_f - 1/s_g >= 0): swapping two producers served out of chain
 * order never lowers the count, and trading one for a waiting receiver
 * earlier in the chain never lowers it either.  The receivers that must be
 * among the k - 1: those that hold at or after cut even on slot lo
 * ("forced": a slot before tau_k is the only one they can take).  So the
 * count is at most that of the forced ones and the first others of the
 * chain, k - 1 in all, served at x_1 <= x_2 <= ... in chain order:
 *     k <= G_k(tau_k),   G_k(x) = |P <= x| + sum_{i<k} (x - b_i)^+ / s_i,
 * G_k never decreases, so tau_k >= y_k, the least x with G_k(x) >= k.  If
 * more than k - 1 are forced, no schedule has g < cut.  Schedules with
 * g >= U0 do not matter: every bound of the search is clamped to U0.
 *
 * Arithmetic: every time is an integer, so tau_k >= ceil(y_k).  y is found
 * in floating point: the count needed is lowered by 1e-7 (sums of at most
 * 2 m0 terms of at most m0 slots err by far less) and y by a relative 1e-9
 * before rounding up, so that rounding can only lower the bound.
 *
 * The forced ones also have deadlines, which the producers' positions
 * respect (rate_producers): a forced receiver that the chain order puts on
 * a slot too late to hold below cut is served earlier, which can only
 * lower the count.
 *
 * The sweep keeps x, G(x) and its slope (the sum of 1/s of the producers
 * started); the next event is the next element of P (G steps up by one) or
 * the next b (the slope grows), the b's sorted by rate_producers.  O(K + k
 * + len) a call (O(K + k^2) when the deadlines reorder), and the forced
 * classes (a prefix of by_r, as lo only grows) O(K) over all of as_bound.
 */
struct forced {          /* across the calls of one as_bound */
    int next;               /* by_r[0..next) are decided: forced or empty */
    int count;              /* receivers forced */
    double r;               /* the least r forced (INFINITY: none) */
};

/* Force the classes that can no longer hold below cut from slot lo on, the
 * largest r first (lo only grows).  Returns whether any were added. */
static bool rate_force(const struct as_ctx *a, const int *cnt, double lo, double cut, struct forced *fz)
{
    int before = fz->count;
    while (fz->next < a->K) {
        int c = a->by_r[fz->next];
        if (cnt[c] > 0) {
            if (as_hold_at(a->L, lo, a->cr[c]) < cut)
                break;
            fz->count += cnt[c];
            fz->r = a->cr[c];
        }
        fz->next++;
    }
    return fz->count > before;
}

/*
 * The producers of the rate bound for the slot taken after k receivers,
 * into a->pb (b_i) and a->pinv (1/s_i), sorted by b: all forced ones and
 * the first free ones of the chain, k in all.  In chain order, when every
 * forced one can still hold below cut from the slot it is put on; else by
 * the deadlines below.  Returns false when the forced ones cannot all be
 * served in time (no schedule has g < cut).
 *
 * Deadlines.  In a schedule with g < cut the receiver served i-th (i < k)
 * holds at (tau_i + L) + r < cut, so (sig_i + L) + r < cut (tau_i >=
 * sig_i): a forced receiver of class c can only take positions up to d_c,
 * the last i with (sig_i + L) + r_c < cut (sig is sorted).  A free one
 * holds below cut even at lo >= every sig_i, so it may take any.  The most
 * slots any schedule's producers give is then at most the most over the
 * assignments of the k producers to positions that respect the deadlines
 * (the count over the forced and the first free of the chain bounds every
 * schedule's, as in rate_slot's proof: the trade of a free producer for an
 * earlier free one in the chain keeps its position, and free ones have no
 * deadline).  Serving from the last position back, each time the latest
 * of the chain still allowed there, reaches that most: in a best
 * assignment, put on the last position the latest allowed producer q
 * instead of p, moving p to q's place (allowed, as it is earlier); p is
 * earlier in the chain and is now served earlier, which never lowers the
 * count (phi, rate_slot's proof); then the same for the positions before.
 * If at some position none is allowed, no assignment respects the
 * deadlines and no schedule has g < cut.  When the chain order already
 * respects them it is that most, as the chain order is the most of all.
 */
static bool rate_producers(struct as_ctx *a, const int *cnt, int k, const struct forced *fz, double cut)
{
    int K = a->K, spare = k - fz->count, pos = 0, *take = a->take;
    bool chain = true;
    for (int c = 0; c < K; c++) {
        int n = cnt[c];
        if (n > 0 && a->cr[c] < fz->r) {
            n = n < spare ? n : spare;
            spare -= n;
        } else if (n > 0 && !(as_hold_at(a->L, a->sig[pos + n - 1], a->cr[c]) < cut))
            chain = false;   /* a forced one put past its deadline */
        take[c] = n;
        for (int j = 0; j < n; j++, pos++) {
            a->pb[pos] = as_hold_at(a->L, a->sig[pos], a->rr[c]);
            a->pinv[pos] = a->cinv[c];
        }
    }
    if (chain)
        return true;   /* b in order: sig_i and r' both grow along the chain */
    /* classes by deadline: dl[i] the classes whose last allowed position is i */
    uint64_t *dl = a->dlmask, avail = 0;
    memset(dl, 0, (size_t)k * sizeof *dl);
    for (int c = 0; c < K; c++) {
        if (take[c] == 0)
            continue;
        int d = k - 1;
        if (a->cr[c] >= fz->r)
            while (d >= 0 && !(as_hold_at(a->L, a->sig[d], a->cr[c]) < cut))
                d--;
        if (d < 0)
            return false;
        dl[d] |= (uint64_t)1 << c;
    }
    for (int i = k - 1; i >= 0; i--) {
        avail |= dl[i];
        if (!avail)
            return false;
        int c = 63 - __builtin_clzll(avail);
        if (--take[c] == 0)
            avail &= ~((uint64_t)1 << c);
        /* insertion by b, from the back (i only falls) */
        double b = as_hold_at(a->L, a->sig[i], a->rr[c]), inv = a->cinv[c];
        int j = i;
        while (j + 1 < k && a->pb[j + 1] < b) {
            a->pb[j] = a->pb[j + 1];
            a->pinv[j] = a->pinv[j + 1];
            j++;
        }
        a->pb[j] = b;
        a->pinv[j] = inv;
    }
    return true;
}

/* The rate bound on the slot taken after k receivers (at sig[0..k-1]), with
 * the receivers forced at a lower bound on it: y (an integer), or INFINITY
 * when no schedule has g < cut.  The forced set alone changes y. */
static double rate_slot(struct as_ctx *a, const double *P, int len, const int *cnt, int k,
                        const struct forced *fz, double cut)
{
    if (fz->count > k || !rate_producers(a, cnt, k, fz, cut))
        return INFINITY;
    int i = 0, pi = 0;
    double need = (double)(k + 1) - 1e-7, x = -INFINITY, have = 0, slope = 0;
    for (;;) {
        if (have >= need)
            break;
        double nb = i < k ? a->pb[i] : INFINITY, np = pi < len ? P[pi] : INFINITY, ev = dmin(np, nb);
        if (slope > 0) {
            double y = x + (need - have) / slope;
            if (y < ev) {
                x = y;
                break;
            }
        }
        if (ev == INFINITY)
            return INFINITY;
        if (slope > 0)
            have += slope * (ev - x);
        x = ev;
        if (np <= nb) {
            have += 1;
            pi++;
        } else
            slope += a->pinv[i++];
    }
    return ceil(x - 1e-9 * fabs(x));
}

/*
 * The rate bound's producers for cnt: the waiting classes in order, a->rr[k]
 * the suffix minimum of their receive times (r').  Returns whether the rate
 * bound is to run for this state.
 */
static bool rate_setup(struct as_ctx *a, const int *cnt)
{
    bool rated = a->rate_on;
    if (rated) {
        double r = INFINITY, rmax = -INFINITY;
        for (int k = a->K - 1; k >= 0; k--) {
            if (cnt[k] > 0) {
                r = dmin(r, a->cr[k]);
                rmax = dmax(rmax, a->cr[k]);
                rated = rated && a->cs[k] > 0;
            }
            a->rr[k] = r;
        }
        /* with one receive time (sender-only: none) nobody is forced, and the
         * rate alone rarely beats U' by enough to pay for itself */
        rated = rated && rmax > r;
    }
    return rated;
}

/*
 * as_bound's fictitious holder h takes its next slot: every chain of the F
 * front classes one step on, its value the earliest of them; then the heap
 * of nh holders is restored (fresh: h was just put at its end, sifted up;
 * else h is at its top, sifted down).
 */
static void holder_next(struct as_ctx *a, int h, int F, int nh, bool fresh)
{
    int *front = a->front, *heap = a->heap;
    double *val = a->hval;
    double v = INFINITY;
    double *c = &a->chain[(size_t)h * (size_t)a->K];
    for (int f = 0; f < F; f++) {
        c[f] = as_slot_after(c[f], a->cs[front[f]]);
        v = dmin(v, c[f]);
    }
    val[h] = v;
    int i;
    if (fresh) {
        i = nh - 1;
        while (i > 0 && val[heap[(i - 1) / 2]] > v) {
            heap[i] = heap[(i - 1) / 2];
            i = (i - 1) / 2;
        }
    } else {
        i = 0;
        for (;;) {
            int j = 2 * i + 1;
            if (j >= nh)
                break;
            if (j + 1 < nh && val[heap[j + 1]] < val[heap[j]])
                j++;
            if (!(val[heap[j]] < v))
                break;
            heap[i] = heap[j];
            i = j;
        }
    }
    heap[i] = h;
}

/*
 * A lower bound on g for a profile P[0..len) with cnt receivers waiting (m
 * in all); returns as soon as it reaches cut. O(m (F + log m)) for F
 * classes on the front below.
 *
 * Proof.  Relax every waiting receiver, as a future holder, to a
 * fictitious node whose j-th slot after taking slot sigma is
 * e_j(sigma) = min over classes f of c_f(sigma, j), where
 * c_f(sigma, 0) = ((sigma + L) + r_f) + s_f and c_f(sigma, j+1) =
 * c_f(sigma, j) + s_f: the earliest j-th slot any waiting class could
 * offer (only classes on the Pareto front of least (s, r) can give the
 * minimum).  Serve greedily: the k-th slot taken is the k-th smallest
 * element sigma_k of U' = P  u  { e_j(sigma_i) : i >= 1, j >= 0 } (every
 * taken slot only adds later ones, so the greedy takes U' in sorted order).
 * In a real schedule let tau_1 <= tau_2 <= ... be the slots its receivers
 * take.  Suppose tau_k < sigma_k with tau_i >= sigma_i for i < k.  Each of
 * tau_1..tau_k is a distinct slot of P or the j-th slot of the receiver
 * (of some class k') served at some tau_i, i < k, which is
 * c_k'(tau_i, j) >= c_k'(sigma_i, j) >= e_j(sigma_i) (the same additions on
 * smaller operands; rounding is monotone), an element of U' below sigma_k.
 * So U' has k distinct elements below sigma_k, against sigma_k being its
 * k-th smallest.  Hence tau_k >= sigma_k for all k.  The receiver at tau_k
 * holds at (tau_k + L) + r; for any assignment, the j receivers on the last
 * j slots take slots >= sigma_{m-j+1}, so one of them holds at
 * >= (sigma_{m-j+1} + L) + (j-th smallest r): pairing the k-th slot with
 * the k-th largest r, the maximum over k is a lower bound on g.
 *
 * Cut: only a schedule with g < cut matters to the caller.  In such a
 * schedule every tau_k is below the horizon ((tau_k + L) + rmin < cut),
 * and so is every element of U' that the argument maps it to; so U' may
 * drop everything at or past the horizon.  If fewer than m slots are left,
 * no schedule has g < cut, and cut itself is returned: a valid bound either
 * way (g < cut is then impossible, so g >= cut).  Near the end of a
 * schedule, when no new holder can offer a useful slot, this makes the
 * bound exact: the sorted pairing of the holders' slots with the waiting r.
 *
 * In exact arithmetic with at most OPT_RATE_MAX receivers, each sigma_k is
 * then raised to the rate bound's y_k (rate_slot), and kept no lower than
 * sigma_{k-1} (tau_k >= tau_{k-1}): the raised value is still at most
 * tau_k in every schedule with g < cut, and U' built on raised sigmas is
 * still a bound -- the proof above only uses tau_i >= sigma_i for i < k,
 * and the greedy still takes U' in sorted order, as every element a
 * raised sigma_i adds lies after sigma_i and so after every slot taken.
 *
 * Then as_counts_ok (few classes) or as_groups_ok (many) checks that the
 * waiting classes fit before their deadlines.
 *
 * Sources of slots: P (sorted); the fictitious holders' first slots, made
 * from the taken slots in order and so sorted (e_0 is monotone); and a heap
 * of the fictitious holders past their first slot.
 */
static double as_bound(struct as_ctx *a, const double *P, int len, const int *cnt, double cut)
{
    int K = a->K, m = 0, F = 0, *front = a->front;
    double rbest = INFINITY, rmin = INFINITY, L = a->L;
    /* classes are in (s, r) order: the front is where r drops below all before */
    for (int k = 0; k < K; k++)
        if (cnt[k] > 0) {
            m += cnt[k];
            rmin = dmin(rmin, a->cr[k]);
            if (a->cr[k] < rbest) {
                rbest = a->cr[k];
                front[F++] = k;
            }
        }
    if (m == 0)
        return -INFINITY;
    double *sig = a->sig, *first = a->first, *val = a->hval, *ch = a->chain, lb = -INFINITY;
    int *heap = a->heap, sh = 0, st = 0, nh = 0, pi = 0, ci = 0, left = cnt[a->by_r[0]];
    bool rated = rate_setup(a, cnt);
    double prev = -INFINITY;
    int pk = 0;   /* the elements of P at or before sigma */
    struct forced fz = {0, 0, INFINITY};
    for (int k = 0; k < m; k++) {
        double x = pi < len ? P[pi] : INFINITY;
        int src = 0;
        if (sh < st && first[sh] < x) {
            x = first[sh];
            src = 1;
        }
        if (nh > 0 && val[heap[0]] < x) {
            x = val[heap[0]];
            src = 2;
        }
        double sigma = x;   /* the k-th of U'; raised below by the rate bound */
        if (rated) {
            /* raise sigma until the receivers it forces no longer change */
            sigma = dmax(sigma, prev);
            rate_force(a, cnt, sigma, cut, &fz);
            /* P alone holding k + 1 slots at or before sigma, G_k(sigma) >=
             * k + 1 and y <= sigma (sigma an integer): rate_slot could not
             * raise it, only find the deadlines unmet, which a later k or
             * the count test may still find; it is not asked (a bound
             * skipped is still a bound; sigma never falls: pk only grows) */
            while (pk < len && P[pk] <= sigma)
                pk++;
            while (fz.count > k || pk <= k) {
                double y = rate_slot(a, P, len, cnt, k, &fz, cut);
                if (!(y > sigma))
                    break;
                sigma = y;
                if (sigma == INFINITY || !rate_force(a, cnt, sigma, cut, &fz))
                    break;
            }
            prev = sigma;
        }
        if (!(as_hold_at(L, sigma, rmin) < cut))
            return cut;   /* fewer than m useful slots: nothing below cut */
        int h = -1;
        if (src == 0)
            pi++;
        else if (src == 1) {
            /* a fictitious holder takes its first slot: start its chains */
            h = sh;
            for (int f = 0; f < F; f++) {
                int c = front[f];
                ch[(size_t)h * (size_t)K + (size_t)f] =
                    as_slot_after(as_hold_at(L, sig[sh], a->cr[c]), a->cs[c]);
            }
            sh++;
            heap[nh++] = h;   /* sifted up below, once its next slot is known */
        } else
            h = heap[0];
        if (h >= 0)
            holder_next(a, h, F, nh, src == 1);
        /* every taken slot makes a fictitious holder */
        double e0 = INFINITY;
        for (int f = 0; f < F; f++)
            e0 = dmin(e0, as_slot_after(as_hold_at(L, sigma, a->cr[front[f]]), a->cs[front[f]]));
        sig[st] = sigma;
        first[st++] = e0;
        while (left == 0)
            left = cnt[a->by_r[++ci]];
        left--;
        double v = as_hold_at(L, sigma, a->cr[a->by_r[ci]]);
        if (v > lb) {
            lb = v;
            if (lb >= cut)
                return lb;
        }
    }
    if (cut < INFINITY && (K <= OPT_CLASS_MAX ? !as_counts_ok(a, P, len, cnt, m, cut)
                                              : !as_groups_ok(a, P, len, cnt, m, cut)))
        return cut;
    return lb;
}

static double rmin_of(const struct as_ctx *a, const int *cnt)
{
    double r = INFINITY;
    for (int k = 0; k < a->K; k++)
        if (cnt[k] > 0)
            r = dmin(r, a->cr[k]);
    return r;
}

/*
 * The profile after the receiver of class k takes P[0]: P[1..] merged with
 * its own slots, cut to cap slots and to the horizon (slots at which even
 * the fastest remaining receiver, rmin, would hold at or after U0 are of no
 * use to a schedule better than U0). O(len + cap).
 */
static int as_child(const struct as_ctx *a, const double *P, int len, int k, double rmin, int cap,
                    double *out, double *h_out, double *first_out)
{
    double h = as_hold_at(a->L, P[0], a->cr[k]), s = a->cs[k], x = as_slot_after(h, s);
    int i = 1, n = 0;
    *h_out = h;
    *first_out = x;
    while (n < cap) {
        double e;
        if (i < len && P[i] <= x)
            e = P[i++];
        else {
            e = x;
            x = as_slot_after(x, s);
        }
        if (!(as_hold_at(a->L, e, rmin) < a->U0))
            break;
        out[n++] = e;
    }
    return n;
}

/* Memo key: tie class, counts, then the profile (relative to P[0] if shift). */
static size_t as_key(struct as_ctx *a, const double *P, int len, int tie)
{
    uint64_t *key = a->key;
    size_t n = 0;
    key[n++] = (uint64_t)(uint32_t)(tie + 1) | ((uint64_t)(uint32_t)len << 32);
    for (int k = 0; k < a->K; k += 4) {
        uint64_t w = 0;
        for (int j = 0; j < 4 && k + j < a->K; j++)
            w |= (uint64_t)(uint16_t)a->cnt[k + j] << (16 * j);
        key[n++] = w;
    }
    double base = a->shift && len > 0 ? P[0] : 0;
    for (int i = 0; i < len; i++) {
        double v = P[i] - base;
        memcpy(&key[n++], &v, sizeof v);
    }
    return n;
}

/*
 * The search below a state at depth d (d receivers served, m = m0 - d
 * waiting, m >= 1): profile P[0..len), a->cnt, tie (-1, or the class that
 * the previous receiver had if the equal-slot rule applies), M the latest
 * hold so far.  Returns a lower bound on g(state), clamped to U0 (the
 * first incumbent); records every schedule below the pass's target U and
 * lowers U to it.
 *
 * Pruning: a child is searched only if max(M, its bound) < U; a schedule
 * under a bound >= U is not below the target.  Children go in order of
 * their bounds, so the first dive follows the most promising ones.
 *
 * Equal slots: if the previous receiver (class a) took a slot at time c,
 * its own first slot is later than c, and this slot is also c, then classes
 * b < a are not tried here: swapping two receivers on equal slots gives the
 * same holds and the same profile after both, so every order can be sorted
 * to one that obeys the rule without changing its makespan (each swap makes
 * the class sequence lexicographically smaller, so sorting ends).
 *
 * Memo: a state (counts, tie, profile) maps to the best lower bound proven
 * for it.  Shifting a whole state in time shifts g, so with exact
 * arithmetic keys are taken relative to P[0]; a stored bound moved by the
 * shift stays valid once clamped to U0 (the horizon cut only drops slots
 * that no schedule below U0 uses)..
 *
 * Dominance (exact arithmetic only): a state S with no tie (tie -1)
 * whose search returned v keeps, under its counts, its profile padded to
 * m slots with H = (U0 - L) - rmin (the horizon: as_child and the root cut
 * exactly the slots x with (x + L) + rmin >= U0, so each slot cut is >= H);
 * a later state S' with the same counts and profile P' is bounded by
 * min(v + delta, U0), delta = min over i < len' of P'[i] - S[i].  Proof.
 * Write G = min(g, U0).  (1) Slots at or past H are of no use to a
 * schedule below U0 (its receiver would hold at >= U0), so G is the same
 * for the true profile of S and for S padded with H, and for the true
 * profile of S' and P' padded with infinity.  (2) g is monotone: if every
 * slot of Q (sorted) is no earlier than the same slot of R, then g(Q) >=
 * g(R) -- take an optimal class order for Q and serve R in the same
 * order: by induction each receiver takes a slot no later, holds no later,
 * and adds slots no later, and removing the least slot and adding
 * pointwise earlier ones keeps the sorted slots pointwise earlier.  (3)
 * Shifting every slot by delta shifts g by delta (integers: exact).  The
 * padded P' is pointwise >= S + delta, so g(P') >= g(S) + delta >= v +
 * delta, and G(S') >= min(v + delta, U0).  v bounds G(S) itself, not only
 * the orders the equal-slot rule leaves: with tie -1 nothing is excluded
 * at S, and below it every order can be sorted to one that obeys the rule
 * (the swaps stay after S).  States with a tie are not kept (their v may
 * exceed G), but may be bounded.
 */
static double as_search(struct as_ctx *a, int d, const double *P, int len, int tie, double M)
{
    int K = a->K, m = a->m0 - d;
    if (tick(a->lim))
        return -INFINITY;   /* the caller keeps the child's own bound */
    size_t klen = as_key(a, P, len, tie);
    uint64_t kh = opt_key_hash(a->key, klen);
    double base = a->shift && len > 0 ? P[0] : 0;
    double known = opt_memo_get(&a->memo, a->key, klen, kh);
    if (known > -INFINITY) {
        known = dmin(known + base, a->U0);
        if (dmax(M, known) >= a->U)
            return known;
    }
    const uint64_t *ckey = a->key + 1;
    uint64_t ch = 0;
    double H = 0;
    if (a->dom.nb) {
        ch = opt_key_hash(ckey, (size_t)a->dom.kw);
        H = (a->U0 - a->L) - rmin_of(a, a->cnt);
        double b = opt_dom_get(&a->dom, ckey, ch, P, len, m, a->U);
        if (b > -INFINITY)
            return dmin(b, a->U0);
    }

    /* Children: one per class still waiting, each with its bound. O(K m). */
    int *cnt = a->cnt, *ord = &a->order[(size_t)d * K], nk = 0;
    int cap = m - 1;
    double *kid = &a->kid[a->kid_at[d]];
    double *kh_ = &a->kid_h[(size_t)d * K], *kcb = &a->kid_cb[(size_t)d * K];
    int *klen_ = &a->kid_len[(size_t)d * K], *ktie = &a->kid_tie[(size_t)d * K];
    /* The least r left after each child: r1, or r2 once the only one at r1 goes. */
    int k1 = -1;
    double r1 = INFINITY, r2 = INFINITY;
    for (int k = 0; k < K; k++)
        if (cnt[k] > 0) {
            if (a->cr[k] < r1) {
                r2 = r1;
                r1 = a->cr[k];
                k1 = k;
            } else if (a->cr[k] < r2)
                r2 = a->cr[k];
        }
    if (k1 >= 0 && cnt[k1] > 1)
        r2 = r1;
    for (int k = 0; k < K; k++) {
        if (cnt[k] == 0 || (tie >= 0 && k < tie))
            continue;
        cnt[k]--;
        double first, h, rmin = k == k1 ? r2 : r1;
        double *out = kid + (size_t)k * (size_t)cap;
        klen_[k] = as_child(a, P, len, k, rmin, cap, out, &h, &first);
        kh_[k] = h;
        ktie[k] = klen_[k] > 0 && out[0] == P[0] && first > P[0] ? k : -1;
        double cb = h;
        if (dmax(M, h) < a->U && cap > 0)
            cb = dmax(h, as_bound(a, out, klen_[k], cnt, a->U));
        kcb[k] = cb;
        cnt[k]++;
        /* insertion by bound, ties in class order (fastest first) */
        int j = nk++;
        while (j > 0 && kcb[ord[j - 1]] > cb)
            ord[j] = ord[j - 1], j--;
        ord[j] = k;
    }

    double v = INFINITY;
    for (int j = 0; j < nk; j++) {
        int k = ord[j];
        double cb = kcb[k], h = kh_[k];
        if (a->lim->stop || dmax(M, cb) >= a->U) {
            v = dmin(v, cb);
            if (!a->lim->stop)
                break;   /* sorted: the rest are no better */
            continue;
        }
        a->path[d] = k;
        if (cap == 0) {
            /* the last receiver: a whole schedule */
            if (dmax(M, h) < a->U) {
                a->U = dmax(M, h);
                memcpy(a->best, a->path, (size_t)a->m0 * sizeof *a->best);
            }
            v = dmin(v, h);
            continue;
        }
        cnt[k]--;
        double r = as_search(a, d + 1, kid + (size_t)k * (size_t)cap, klen_[k], ktie[k], dmax(M, h));
        cnt[k]++;
        v = dmin(v, dmax(cb, dmax(h, r)));
    }
    v = dmin(v, a->U0);
    /* as_key again: the children's searches used the scratch key */
    klen = as_key(a, P, len, tie);
    opt_memo_put(&a->memo, a->key, klen, kh, v - base);
    if (a->dom.nb && tie < 0)
        opt_dom_put(&a->dom, a->key + 1, ch, P, len, m, H, v);
    return v;
}

/* Makespan of a class order under the slot rule (scaled); comp and hk hold
 * m0 + 1 entries; *sum (if not NULL) gets the sum of the holds. O(m0^2). */
static double as_eval(const struct as_ctx *a, double s_src, const int *order, double *comp, int *hk,
                      double *sum)
{
    int nh = 1;
    double ms = 0, total = 0;
    comp[0] = as_slot_after(0, s_src);
    hk[0] = -1;   /* the source */
    for (int i = 0; i < a->m0; i++) {
        int q = 0;
        for (int j = 1; j < nh; j++)
            if (comp[j] < comp[q])
                q = j;
        int k = order[i];
        double c = comp[q], h = as_hold_at(a->L, c, a->cr[k]);
        comp[q] = as_slot_after(c, hk[q] < 0 ? s_src : a->cs[hk[q]]);
        comp[nh] = as_slot_after(h, a->cs[k]);
        hk[nh++] = k;
        ms = dmax(ms, h);
        total += h;
    }
    if (sum)
        *sum = total;
    return ms;
}

/*
 * The local search's schedules, receiver by receiver: row i of comp holds
 * the next slot of each holder before receiver i of order (the source,
 * then the first i receivers), pms[i] and psum[i] the makespan and the sum
 * of holds of the first i.  A trial that differs from order from position
 * p on is evaluated from row p alone.
 */
struct as_ls {
    const struct as_ctx *a;
    double s_src;
    int m0;
    int *order, *trial;
    double *comp, *pms, *psum, *work;   /* work: a trial's row */
    long long evals;        /* trials evaluated, against budget */
    double budget;
    const struct limits *lim;
};

/* Makespan and sum of holds (*sum) of ord, which agrees with ls->order
 * before position from; with rec, rows from + 1.. of ls are rewritten (ord
 * is then ls->order).  Gives up (INFINITY) as soon as the makespan passes
 * stop: a trial no better need not be finished. O(m0^2). */
static double ls_eval(struct as_ls *ls, const int *ord, int from, double stop, bool rec, double *sum)
{
    const struct as_ctx *a = ls->a;
    int m0 = ls->m0;
    size_t w = (size_t)m0 + 1;
    double ms = ls->pms[from], total = ls->psum[from];
    double *comp = ls->work;
    memcpy(comp, &ls->comp[(size_t)from * w], (size_t)(from + 1) * sizeof *comp);
    for (int i = from; i < m0; i++) {
        int q = 0, nh = i + 1;
        for (int j = 1; j < nh; j++)
            if (comp[j] < comp[q])
                q = j;
        int k = ord[i];
        double c = comp[q], h = as_hold_at(a->L, c, a->cr[k]);
        comp[q] = as_slot_after(c, q == 0 ? ls->s_src : a->cs[ord[q - 1]]);
        comp[nh] = as_slot_after(h, a->cs[k]);
        ms = dmax(ms, h);
        total += h;
        if (ms > stop)
            return INFINITY;
        if (rec) {
            memcpy(&ls->comp[(size_t)(i + 1) * w], comp, (size_t)(nh + 1) * sizeof *comp);
            ls->pms[i + 1] = ms;
            ls->psum[i + 1] = total;
        }
    }
    *sum = total;
    return ms;
}

/* First-improvement descent of ls->order (makespan *ms, sum of holds
 * *sum): move one receiver to another place while that lowers (makespan,
 * sum).  The moves are tried round and round from where the last one
 * helped, until a whole round helps none.  Returns false once the budget
 * or the limits are spent. */
static bool ls_descend(struct as_ls *ls, double *ms, double *sum)
{
    int m0 = ls->m0, *order = ls->order, *trial = ls->trial, i = 0, j = 0;
    long long quiet = 0, round = (long long)m0 * (m0 - 1);
    while (quiet < round) {
        if (++j == m0) {
            j = 0;
            i = i + 1 < m0 ? i + 1 : 0;
        }
        if (j == i)
            continue;
        quiet++;
        if (order[j] == order[i])
            continue;
        if (++ls->evals > ls->budget || ((ls->evals & 255) == 0 && exhausted(ls->lim)))
            return false;
        moved(order, m0, i, j, trial);
        int from = i < j ? i : j;
        double tsum = 0, tms = ls_eval(ls, trial, from, *ms, false, &tsum);
        if (tms < *ms || (tms == *ms && tsum < *sum)) {
            memcpy(order, trial, (size_t)m0 * sizeof *order);
            ls_eval(ls, order, from, INFINITY, true, sum);
            *ms = tms;
            quiet = 0;
        }
    }
    return true;
}

/*
 * A better incumbent: an iterated local search over class orders from
 * order (makespan *ms).  A descent (ls_descend); then, from the best order
 * (or from the last descent's, when that is as good), two receivers
 * swapped at random (a fixed seed) and a descent again, until AS_STALL
 * times m0 kicks in a row find no better makespan, or AS_LS_WORK / m0^2
 * evaluations in all (a few tenths of a second at 34 to 64 nodes), never
 * past the search's limits.  Only for tables of more than OPT_CLASS_MAX
 * classes (so at most 64 nodes): with few classes the search itself is
 * fast.  The first incumbent matters: the search prunes against it and
 * cuts every profile at its horizon, and at 34 nodes one within 1 % of the
 * optimum proves with several times fewer search nodes than fnf's
 * descent.  Every order it keeps is a schedule evaluated by the slot rule
 * (and checked again by as_eval), so it only ever hands the search a true
 * makespan; the search's bounds do not depend on it.
 */
#define AS_LS_WORK 2e9
#define AS_STALL 8

static void as_improve(const struct as_ctx *a, double s_src, int *order, double *ms,
                       const struct limits *lim)
{
    int m0 = a->m0;
    size_t w = (size_t)m0 + 1;
    struct as_ls ls = {a, s_src, m0, xmalloc((size_t)m0 * sizeof(int)), xmalloc((size_t)m0 * sizeof(int)),
                       xmalloc(w * w * sizeof(double)), xmalloc(w * sizeof(double)),
                       xmalloc(w * sizeof(double)), xmalloc(w * sizeof(double)), 0,
                       AS_LS_WORK / ((double)m0 * (double)m0 + 1), lim};
    ls.comp[0] = as_slot_after(0, s_src);
    ls.pms[0] = ls.psum[0] = 0;
    memcpy(ls.order, order, (size_t)m0 * sizeof *order);
    double sum, cur = ls_eval(&ls, ls.order, 0, INFINITY, true, &sum);
    bool more = ls_descend(&ls, &cur, &sum);
    double bsum = sum;
    *ms = cur;
    memcpy(order, ls.order, (size_t)m0 * sizeof *order);
    struct rng r;
    rng_seed(&r, 1);
    for (int stall = 0; more && m0 > 1 && stall < AS_STALL * m0; stall++) {
        if (cur > *ms)
            memcpy(ls.order, order, (size_t)m0 * sizeof *order);
        for (int x = 0; x < 2; x++) {
            int i = (int)rng_below(&r, (uint64_t)m0), j = (int)rng_below(&r, (uint64_t)m0), t = ls.order[i];
            ls.order[i] = ls.order[j];
            ls.order[j] = t;
        }
        cur = ls_eval(&ls, ls.order, 0, INFINITY, true, &sum);
        more = ls_descend(&ls, &cur, &sum);
        if (cur < *ms || (cur == *ms && sum < bsum)) {
            if (cur < *ms)
                stall = -1;
            memcpy(order, ls.order, (size_t)m0 * sizeof *order);
            *ms = cur;
            bsum = sum;
        }
    }
    free(ls.order);
    free(ls.trial);
    free(ls.comp);
    free(ls.pms);
    free(ls.psum);
    free(ls.work);
}

static double recv_of(const struct as_input *in, int p)
{
    return in->sender_only ? 0 : in->c->nodes[p].recv;
}

/* fnf's order of receivers: (s, r, index) ascending. */
static bool fnf_before(const struct as_input *in, int a, int b)
{
    double sa = in->c->nodes[a].send, sb = in->c->nodes[b].send;
    if (sa != sb)
        return sa < sb;
    if (recv_of(in, a) != recv_of(in, b))
        return recv_of(in, a) < recv_of(in, b);
    return a < b;
}

/* slowest-first's order: r descending, then s descending, then index. */
static bool slow_before(const struct as_input *in, int a, int b)
{
    if (recv_of(in, a) != recv_of(in, b))
        return recv_of(in, a) > recv_of(in, b);
    double sa = in->c->nodes[a].send, sb = in->c->nodes[b].send;
    if (sa != sb)
        return sa > sb;
    return a < b;
}

/* The receivers in a policy's order: insertion sort, O(n^2) for n <= 2000. */
static int receivers_sorted(const struct as_input *in, bool (*before)(const struct as_input *, int, int),
                            int *idx)
{
    const struct cluster *c = in->c;
    int nr = 0;
    for (int p = 0; p < c->n; p++) {
        if (p == c->source)
            continue;
        int j = nr++;
        while (j > 0 && before(in, p, idx[j - 1]))
            idx[j] = idx[j - 1], j--;
        idx[j] = p;
    }
    return nr;
}

/* Classes of the receivers by exact (s, r), numbered in fnf's order. O(n^2). */
void opt_as_classes(struct as_input *in)
{
    const struct cluster *c = in->c;
    int n = c->n, *idx = xmalloc((size_t)n * sizeof *idx);
    in->cls = xmalloc((size_t)n * sizeof *in->cls);
    in->cs = xmalloc((size_t)n * sizeof *in->cs);
    in->cr = xmalloc((size_t)n * sizeof *in->cr);
    in->count = xcalloc((size_t)n, sizeof *in->count);
    for (int p = 0; p < n; p++)
        in->cls[p] = -1;
    int nr = receivers_sorted(in, fnf_before, idx);
    in->K = 0;
    for (int i = 0; i < nr; i++) {
        int p = idx[i], prev = i > 0 ? idx[i - 1] : -1;
        if (prev < 0 || c->nodes[p].send != c->nodes[prev].send || recv_of(in, p) != recv_of(in, prev)) {
            in->cs[in->K] = scaled(c->nodes[p].send, in->scale);
            in->cr[in->K] = scaled(recv_of(in, p), in->scale);
            in->K++;
        }
        in->cls[p] = in->K - 1;
        in->count[in->K - 1]++;
    }
    free(idx);
}

void opt_as_input_free(struct as_input *in)
{
    free(in->cls);
    free(in->cs);
    free(in->cr);
    free(in->count);
}

/* A policy's receiver order as a class sequence. */
static void policy_order(const struct as_input *in, bool (*before)(const struct as_input *, int, int),
                         int *order)
{
    int *idx = xmalloc((size_t)in->c->n * sizeof *idx);
    int nr = receivers_sorted(in, before, idx);
    for (int i = 0; i < nr; i++)
        order[i] = in->cls[idx[i]];
    free(idx);
}

struct as_root {
    struct as_ctx *a;
    const double *P;
    int len;
};

/* One pass of the slot search from the root (see drive). */
static double as_pass(void *ctx, double t, double *best)
{
    struct as_root *rt = ctx;
    struct as_ctx *a = rt->a;
    a->U = t;
    double v = as_bound(a, rt->P, rt->len, a->cnt, t);
    if (v < t)
        v = as_search(a, 0, rt->P, rt->len, -1, 0);
    if (a->U < t)
        *best = a->U;   /* a schedule below t was found (a->best holds it) */
    return v;
}

/* The search's buffers: depth d has K child profiles of m0 - d - 1 slots. */
static void as_buffers(struct as_ctx *a)
{
    int K = a->K, m0 = a->m0;
    a->kid_at = xmalloc((size_t)m0 * sizeof *a->kid_at);
    size_t total = 0;
    for (int d = 0; d < m0; d++) {
        a->kid_at[d] = total;
        total += (size_t)K * (size_t)(m0 - d - 1);
    }
    a->kid = xmalloc((total ? total : 1) * sizeof *a->kid);
    size_t per = (size_t)m0 * (size_t)K;
    a->kid_len = xmalloc(per * sizeof *a->kid_len);
    a->kid_tie = xmalloc(per * sizeof *a->kid_tie);
    a->order = xmalloc(per * sizeof *a->order);
    a->kid_h = xmalloc(per * sizeof *a->kid_h);
    a->kid_cb = xmalloc(per * sizeof *a->kid_cb);
    a->front = xmalloc((size_t)K * sizeof *a->front);
    a->heap = xmalloc((size_t)m0 * sizeof *a->heap);
    a->sig = xmalloc((size_t)m0 * sizeof *a->sig);
    a->first = xmalloc((size_t)m0 * sizeof *a->first);
    a->hval = xmalloc((size_t)m0 * sizeof *a->hval);
    a->chain = xmalloc((size_t)m0 * (size_t)K * sizeof *a->chain);
    a->rr = xmalloc((size_t)K * sizeof *a->rr);
    a->cinv = xmalloc((size_t)K * sizeof *a->cinv);
    a->pb = xmalloc((size_t)m0 * sizeof *a->pb);
    a->pinv = xmalloc((size_t)m0 * sizeof *a->pinv);
    a->take = xmalloc((size_t)K * sizeof *a->take);
    a->dlmask = xmalloc((size_t)m0 * sizeof *a->dlmask);
    a->rate_on = false;
    for (int k = 0; k < K; k++) {
        a->cinv[k] = 1 / a->cs[k];
        a->rate_on = a->rate_on || a->cr[k] != a->cr[0];
    }
    a->rate_on = a->rate_on && a->shift && m0 <= OPT_RATE_MAX;
    a->cw = xmalloc((size_t)m0 * (size_t)(K + 2) * sizeof *a->cw);
    a->bucket = xmalloc((size_t)(2 * m0 + 1) * sizeof *a->bucket);
    a->use = xmalloc((size_t)K * sizeof *a->use);
    a->key = xmalloc((size_t)(2 + (K + 3) / 4 + m0) * sizeof *a->key);
}

void opt_as_solve(const struct as_input *in, struct limits *lim, struct result *res)
{
    const struct cluster *c = in->c;
    struct as_ctx a;
    memset(&a, 0, sizeof a);
    int K = in->K, m0 = c->n - 1;
    a.K = K;
    a.cs = in->cs;
    a.cr = in->cr;
    a.m0 = m0;
    a.L = in->sender_only ? 0 : scaled(c->latency, in->scale);
    a.shift = in->scale > 0;
    a.lim = lim;
    a.cnt = xmalloc((size_t)K * sizeof *a.cnt);
    memcpy(a.cnt, in->count, (size_t)K * sizeof *a.cnt);
    a.by_r = xmalloc((size_t)K * sizeof *a.by_r);
    for (int k = 0; k < K; k++) {
        int j = k;
        while (j > 0 && (a.cr[a.by_r[j - 1]] < a.cr[k] ||
                         (a.cr[a.by_r[j - 1]] == a.cr[k] && a.cs[a.by_r[j - 1]] < a.cs[k])))
            a.by_r[j] = a.by_r[j - 1], j--;
        a.by_r[j] = k;
    }
    a.path = xcalloc((size_t)m0, sizeof *a.path);
    a.best = xcalloc((size_t)m0, sizeof *a.best);
    double s_src = scaled(c->nodes[c->source].send, in->scale);

    /* The incumbent: the better of fnf and slowest-first. */
    int *slow = xmalloc((size_t)m0 * sizeof *slow), *hk = xmalloc((size_t)(m0 + 1) * sizeof *hk);
    double *comp = xmalloc((size_t)(m0 + 1) * sizeof *comp);
    policy_order(in, fnf_before, a.best);
    policy_order(in, slow_before, slow);
    a.U = as_eval(&a, s_src, a.best, comp, hk, NULL);
    double us = as_eval(&a, s_src, slow, comp, hk, NULL);
    if (us < a.U) {
        a.U = us;
        memcpy(a.best, slow, (size_t)m0 * sizeof *slow);
    }
    if (m0 > 1 && K > OPT_CLASS_MAX) {
        as_improve(&a, s_src, a.best, &a.U, lim);
        a.U = as_eval(&a, s_src, a.best, comp, hk, NULL);   /* the makespan by the plain rule */
    }
    a.U0 = a.U;
    free(slow);
    free(hk);
    free(comp);

    as_buffers(&a);

    if (a.shift)
        opt_dom_init(&a.dom, (K + 3) / 4, m0);
    /* The root: the source's slots s, 2s, ... up to the horizon. */
    double *root = xmalloc((size_t)m0 * sizeof *root), x = as_slot_after(0, s_src), rmin = rmin_of(&a, a.cnt);
    int rlen = 0;
    while (rlen < m0 && as_hold_at(a.L, x, rmin) < a.U0) {
        root[rlen++] = x;
        x = as_slot_after(x, s_src);
    }
    double best = a.U, lower = dmin(as_bound(&a, root, rlen, a.cnt, best), best);
    struct as_root rt = {&a, root, rlen};
    lower = opt_drive(as_pass, &rt, lim, a.shift ? ceil(lower) : lower, &best, a.shift);
    res->best = best;
    res->lower = lower;
    res->order = a.best;
    res->len = m0;
    a.best = NULL;

    free(root);
    opt_memo_free(&a.memo);
    opt_dom_free(&a.dom);
    free(a.cnt);
    free(a.by_r);
    free(a.path);
    free(a.kid_at);
    free(a.kid);
    free(a.kid_len);
    free(a.kid_tie);
    free(a.order);
    free(a.kid_h);
    free(a.kid_cb);
    free(a.front);
    free(a.heap);
    free(a.sig);
    free(a.first);
    free(a.hval);
    free(a.chain);
    free(a.rr);
    free(a.cinv);
    free(a.pb);
    free(a.pinv);
    free(a.take);
    free(a.dlmask);
    free(a.cw);
    free(a.bucket);
    free(a.use);
    free(a.key);
}
