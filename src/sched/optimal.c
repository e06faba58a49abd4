/*
 * sched/optimal.c - the exact minimum-makespan broadcast by branch and bound
 * (SPEC §2 `optimal`), and the scheduler that hands its plan out.
 *
 * Promises: a plan marked OPT_PROVEN has the least makespan of all
 * schedules under the cluster's port model (never a heuristic's answer
 * passed off as optimal); a search stopped by its node or time limit says
 * OPT_GAVE_UP, keeps the best schedule found and a proven lower bound.
 * Booking the plan's decisions in order with engine_book reproduces the
 * schedule and its makespan exactly (the makespan reported is the
 * engine's own).
 *
 * Two searches:
 *
 * - Node tables under async (and sender-only, and multi-port when the
 *   arithmetic is exact): by Theorem 1 of Liu, Wang & Guo an optimal
 *   schedule has no idle sender, so a schedule is a receiver order and the
 *   k-th receiver takes the earliest free "slot" (the earliest completion
 *   of a holder's next send).  The search state is the multiset of
 *   remaining receiver classes (identical (send, recv) nodes are
 *   interchangeable, one branch per class) and the sorted slot profile:
 *   the first m future send completions of the current holders, m the
 *   receivers left.  Which holder owns a slot does not matter for the
 *   future, only when it falls.  Bounds (a relaxed slot supply paired with
 *   the largest receive times; a rate bound that lets each waiting
 *   receiver offer slots at its own pace, the ones that must be served
 *   early because they receive slowly included; and a count of the whole
 *   slots each class needs before its deadline, class against class when
 *   the classes are few, in two groups when they are many), a memo over
 *   states and a symmetry rule for equal slots keep it small (see as_bound,
 *   rate_slot, as_counts_ok, as_groups_ok, as_search).
 *
 * - Everything else (sync, one-port, multi-port in inexact arithmetic,
 *   latency matrices, platform graphs): a search over (sender, receiver)
 *   decisions booked at the sender's ready time, in non-decreasing start
 *   time.  No model here has a receive-port conflict in a broadcast (every
 *   node receives once), so delaying a send never helps and every schedule
 *   is matched by one with no idle sender, which this enumeration reaches
 *   (see gs_search).  Bounds: earliest holds and slots (gs_bound), and in
 *   integer arithmetic a count of the whole transfers the nodes can still
 *   send before the target, for the slow receivers alone too
 *   (gs_count_ok); the first incumbent comes from an iterated local search
 *   over receiver orders (gs_improve).
 *
 * Both run as passes with a target (see drive): the plain branch and bound
 * below the incumbent first, then, if that hits three quarters of a limit,
 * targets from below that tighten the proven lower bound.
 *
 * Arithmetic: when every cost is a decimal with at most 6 digits after the
 * point, the searches run on integers (scaled by 10^d, held exactly in
 * doubles), which makes every comparison exact for the values as written
 * (the engine's doubles may then differ from them in the last bit, and so
 * may the reported makespan from the search's).  Otherwise they run on the
 * raw doubles with the engine's order of additions; the slot search's
 * bounds are then still exact (floating addition is monotone), and the
 * general search only prunes a bound that beats the incumbent by a relative
 * 1e-9, so rounding can never cut off a better schedule.
 */
#include "sched/optimal.h"

#include "engine/explain.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/bounds.h"
#include "sched/list.h"
#include "model/targets.h"
#include "support/rng.h"

/* Beyond max_nodes, node tables in the slot search are still accepted
 * when they have few classes: the remaining-class multisets then number at
 * most OPT_CLASS_MIXES, which is what the memo and the bounds work on. */
#define OPT_CLASS_MAX 8
#define OPT_CLASS_MIXES 1000000.0
#define OPT_CLASS_MAX_NODES 2000
/* The rate bound (rate_slot) costs O(m (K + m)) a bound: only up to this
 * many receivers (beyond, the tables have few classes and as_counts_ok). */
#define OPT_RATE_MAX 64

#define MEMO_MAX_WORDS (8u << 20)   /* 64 MB of keys, then the memo starts over */
#define CHECK_EVERY 1023            /* clock checks: every 1024 search nodes */

/* ---- limits ---- */

struct limits {
    long long node_limit;   /* the whole search */
    double time_limit;
    long long node_cap;     /* the current pass (<= the limits) */
    double time_cap;
    long long explored;
    struct timespec t0;
    bool stop;              /* a cap was reached: unwind, keep bounds valid */
    const volatile sig_atomic_t *cancel;   /* sched_opts.cancel: polled with the clock */
};

static bool cancelled(const struct limits *lim)
{
    return lim->cancel && *lim->cancel;
}

static double elapsed(const struct limits *lim)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - lim->t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - lim->t0.tv_nsec);
}

/* The wall-clock seconds a search may take: INFINITY for SCHED_NO_CLOCK (a
 * study's search, bounded by its node limit alone). */
static double opt_time_limit(const struct sched_opts *o)
{
    return o->time_limit > 0 ? o->time_limit : o->time_limit < 0 ? INFINITY : OPT_DEFAULT_TIME_LIMIT;
}

/* Count one search node. Returns true once the search must stop. */
static bool tick(struct limits *lim)
{
    if (lim->stop)
        return true;
    lim->explored++;
    if (lim->explored >= lim->node_cap)
        lim->stop = true;
    else if ((lim->explored & CHECK_EVERY) == 0 &&
             (elapsed(lim) >= lim->time_cap || cancelled(lim)))
        lim->stop = true;
    return lim->stop;
}

static double dmin(double a, double b) { return a < b ? a : b; }
static double dmax(double a, double b) { return a > b ? a : b; }

/* Have the limits of the whole search been reached? */
static bool exhausted(const struct limits *lim)
{
    return lim->explored >= lim->node_limit || elapsed(lim) >= lim->time_limit || cancelled(lim);
}

/* ---- units: exact integer arithmetic when the costs allow it ---- */

/* Is v the double nearest to a multiple of 1/scale (within a few ulps)? */
static bool on_grid(double v, double scale)
{
    double x = v * scale;
    return fabs(x - nearbyint(x)) <= 16 * DBL_EPSILON * fmax(1.0, fabs(x));
}

/* Is every cost the engine uses a multiple of 1/scale? *big: the largest
 * transfer, scaled. O(n) for node tables, O(n^2) otherwise. */
static bool costs_on_grid(const struct cluster *c, double scale, double *big)
{
    int n = c->n;
    *big = 0;
    if (c->kind == CLUSTER_NODES) {
        double ms = 0, mr = 0;
        for (int p = 0; p < n; p++) {
            const struct node *nd = &c->nodes[p];
            if (!isfinite(nd->send) || !isfinite(nd->recv) || !on_grid(nd->send, scale) ||
                !on_grid(nd->recv, scale))
                return false;
            ms = fmax(ms, fabs(nd->send));
            mr = fmax(mr, fabs(nd->recv));
        }
        *big = (ms + fabs(c->latency) + mr) * scale;
        return isfinite(c->latency) && on_grid(c->latency, scale);
    }
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++) {
            struct cost k;
            if (p == q || !timing_cost(c, q, p, &k))
                continue;
            double v[5] = {k.s, k.l, k.r, k.T, k.send_mp};
            for (int i = 0; i < 5; i++) {
                if (!isfinite(v[i]) || !on_grid(v[i], scale))
                    return false;
                *big = fmax(*big, fabs(v[i]) * scale);
            }
        }
    return true;
}

/*
 * The smallest 10^d (d <= 6) that turns every cost into an integer, with
 * room for sums of 4 (n + 2) times the largest transfer below 2^52 (no
 * time in a schedule comes near that); 0 when there is none.
 */
static double find_scale(const struct cluster *c)
{
    for (double scale = 1; scale <= 1e6; scale *= 10) {
        double big;
        if (costs_on_grid(c, scale, &big))
            return big * 4.0 * (double)(c->n + 2) < 4503599627370496.0 ? scale : 0;
    }
    return 0;
}

static double scaled(double v, double scale)
{
    return scale > 0 ? nearbyint(v * scale) : v;
}

/* ---- the memo: state key -> proven lower bound (slot search) ---- */

struct memo_slot {
    uint64_t hash;
    uint32_t off, len;      /* key words in the arena; len 0: empty slot */
    double lb;
};

struct memo {
    struct memo_slot *slot;
    size_t cap, used;       /* cap a power of two, used <= cap / 2 */
    uint64_t *arena;
    size_t alen, acap;
};

static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static uint64_t key_hash(const uint64_t *key, size_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ len;
    for (size_t i = 0; i < len; i++)
        h = mix64(h ^ key[i]) + 0x9e3779b97f4a7c15ULL;
    return h ? h : 1;
}

static void memo_free(struct memo *mm)
{
    free(mm->slot);
    free(mm->arena);
    memset(mm, 0, sizeof *mm);
}

static void memo_clear(struct memo *mm)
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
static double memo_get(struct memo *mm, const uint64_t *key, size_t len, uint64_t h)
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
static void memo_put(struct memo *mm, const uint64_t *key, size_t len, uint64_t h, double lb)
{
    if (len == 0 || len > MEMO_MAX_WORDS)
        return;
    if (mm->alen + len > MEMO_MAX_WORDS)
        memo_clear(mm);
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

/* ---- the driver: passes, each with a target ---- */

/*
 * A pass asks "is there a schedule with makespan below t?": it returns a
 * lower bound on the optimum (fail-soft, valid even when stopped early),
 * and lowers *best when it finds a schedule below t -- it then goes on as
 * a plain branch and bound below the new incumbent, so a pass that finishes
 * after finding one has proven it optimal.
 */
typedef double (*pass_fn)(void *ctx, double t, double *best);

/*
 * First the plain pass (t = the incumbent) with three quarters of the node
 * and time limits: when it finishes, the optimum is proven and nothing
 * else runs.  Otherwise the rest goes to passes with targets bisecting the
 * proven bound and the incumbent from below: proving "nothing below t" far
 * below the optimum is cheap, so a search that gives up still reports a
 * tight lower bound (and may yet close the gap).  With exact (integer)
 * arithmetic makespans are integers, so bounds round up.  Returns the
 * proven lower bound; the search was exact iff it equals *best.
 */
static double drive(pass_fn pass, void *ctx, struct limits *lim, double lower, double *best, bool exact)
{
    double room = (double)lim->node_limit * 0.75;
    lim->node_cap = room >= 1 ? (long long)room : 1;
    lim->time_cap = lim->time_limit * 0.75;
    for (int round = 0; lower < *best; round++) {
        double t = *best;
        if (round > 0) {
            if (exhausted(lim))
                break;
            lim->node_cap = lim->node_limit;
            lim->time_cap = lim->time_limit;
            lim->stop = false;
            t = lower + 0.5 * (*best - lower);
            if (exact)
                t = ceil(t);
            if (round > 12 || !(t < *best) || (!exact && *best - lower <= 1e-9 * fabs(*best)))
                t = *best;
        }
        double v = pass(ctx, t, best);
        if (!lim->stop && *best < t)
            return *best;   /* found below t and finished below it: optimal */
        if (!lim->stop)
            v = dmax(v, t);   /* finished, nothing below t */
        v = dmin(v, *best);
        lower = dmax(lower, exact ? ceil(v) : v);
        if (lim->stop && round > 0)
            break;
    }
    return dmin(lower, *best);
}

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
    int *cw, *bucket, *use; /* as_counts_ok: m0 * (K + 2), 2 m0 + 1, K */
    uint64_t *key;          /* memo key scratch */
    struct memo memo;
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
 * The sweep keeps x, G(x) and its slope (the sum of 1/s of the producers
 * started); the next event is the next element of P (G steps up by one) or
 * the next b (the slope grows).  The b's come in order (x_i and r' both
 * grow along the chain), so the producers are made as the sweep reaches
 * them.  O(k + len) a call, and the forced classes (a prefix of by_r, as
 * lo only grows) O(K) over all of as_bound.
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

/* The rate bound on the slot taken after k receivers (at sig[0..k-1]), with
 * the receivers forced at a lower bound on it: y (an integer), or INFINITY
 * when no schedule has g < cut.  The forced set alone changes y. */
static double rate_slot(struct as_ctx *a, const double *P, int len, const int *cnt, int k,
                        const struct forced *fz)
{
    if (fz->count > k)
        return INFINITY;
    /* the producers in chain order, made as the sweep needs them: all forced ones, the first free ones */
    int spare = k - fz->count, c = -1, left = 0, i = 0;
    double need = (double)(k + 1) - 1e-7, x = -INFINITY, have = 0, slope = 0, nb = INFINITY, ninv = 0;
    int pi = 0;
    for (;;) {
        if (have >= need)
            break;
        if (nb == INFINITY && i < k) {
            while (left == 0) {
                c++;
                left = cnt[c];
                if (left > 0 && a->cr[c] < fz->r) {
                    left = left < spare ? left : spare;
                    spare -= left;
                }
            }
            left--;
            nb = as_hold_at(a->L, a->sig[i++], a->rr[c]);
            ninv = a->cinv[c];
        }
        double np = pi < len ? P[pi] : INFINITY, ev = dmin(np, nb);
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
        } else {
            slope += ninv;
            nb = INFINITY;
        }
    }
    return ceil(x - 1e-9 * fabs(x));
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
    /* the rate bound's producers: the waiting classes in order, r' a suffix minimum */
    bool rated = a->rate_on;
    if (rated) {
        double r = INFINITY, rmax = -INFINITY;
        for (int k = K - 1; k >= 0; k--) {
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
    double prev = -INFINITY;
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
            for (;;) {
                double y = rate_slot(a, P, len, cnt, k, &fz);
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
        if (h >= 0) {
            /* its next slot: every chain one step on; restore the heap */
            double v = INFINITY;
            double *c = &ch[(size_t)h * (size_t)K];
            for (int f = 0; f < F; f++) {
                c[f] = as_slot_after(c[f], a->cs[front[f]]);
                v = dmin(v, c[f]);
            }
            val[h] = v;
            int i;
            if (src == 1) {
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
 * that no schedule below U0 uses).
 */
static double as_search(struct as_ctx *a, int d, const double *P, int len, int tie, double M)
{
    int K = a->K, m = a->m0 - d;
    if (tick(a->lim))
        return -INFINITY;   /* the caller keeps the child's own bound */
    size_t klen = as_key(a, P, len, tie);
    uint64_t kh = key_hash(a->key, klen);
    double base = a->shift && len > 0 ? P[0] : 0;
    double known = memo_get(&a->memo, a->key, klen, kh);
    if (known > -INFINITY) {
        known = dmin(known + base, a->U0);
        if (dmax(M, known) >= a->U)
            return known;
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
    memo_put(&a->memo, a->key, klen, kh, v - base);
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

/* trial: order (of m0) with the element at i moved to place j. */
static void moved(const int *order, int m0, int i, int j, int *trial)
{
    int k = order[i], t = 0;
    for (int x = 0; x < m0; x++) {
        if (x == i)
            continue;
        if (x == j && j < i)
            trial[t++] = k;
        trial[t++] = order[x];
        if (x == j && j > i)
            trial[t++] = k;
    }
}

/*
 * A better incumbent: a local search over class orders from order (makespan
 * *ms), moving one receiver to another place while that lowers (makespan,
 * sum of holds), first improvement, at most OPT_LS_WORK / m0^2 evaluations
 * (some 50 ms at 64 nodes) and never past the search's limits.  Only for
 * tables of more than OPT_CLASS_MAX classes (so at most 64 nodes): with few
 * classes the search itself is fast and a pass over the moves is not
 * (m0^4).  Every
 * order it keeps is a schedule evaluated by as_eval, so it only ever hands
 * the search a true makespan; the search's bounds do not depend on it.
 */
#define OPT_LS_WORK 5e7

static void as_improve(const struct as_ctx *a, double s_src, int *order, double *ms, double *comp,
                       int *hk, const struct limits *lim)
{
    int m0 = a->m0, *trial = xmalloc((size_t)m0 * sizeof *trial);
    double sum, budget = OPT_LS_WORK / ((double)m0 * (double)m0 + 1);
    *ms = as_eval(a, s_src, order, comp, hk, &sum);
    long long evals = 0;
    bool improved = true;
    while (improved) {
        improved = false;
        for (int i = 0; i < m0 && !improved; i++)
            for (int j = 0; j < m0 && !improved; j++) {
                if (j == i || order[j] == order[i])
                    continue;
                if (++evals > budget || ((evals & 255) == 0 && exhausted(lim)))
                    goto out;
                moved(order, m0, i, j, trial);
                double tsum, tms = as_eval(a, s_src, trial, comp, hk, &tsum);
                if (tms < *ms || (tms == *ms && tsum < sum)) {
                    memcpy(order, trial, (size_t)m0 * sizeof *order);
                    *ms = tms;
                    sum = tsum;
                    improved = true;
                }
            }
    }
out:
    free(trial);
}

struct as_input {
    const struct cluster *c;
    bool sender_only;       /* receive times count as 0 */
    double scale;           /* 0: raw doubles */
    int *cls;               /* per node: class, -1 for the source */
    int K;
    double *cs, *cr;        /* scaled class times */
    int *count;
};

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
static void as_classes(struct as_input *in)
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

static void as_input_free(struct as_input *in)
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

struct result {
    int *order;             /* slot search: class per receiver */
    int *from, *to;         /* general search: decisions */
    int len;
    double best;            /* scaled makespan of the best schedule */
    double lower;           /* scaled proven lower bound */
};

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

static void as_solve(const struct as_input *in, struct limits *lim, struct result *res)
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
    if (m0 > 1 && K > OPT_CLASS_MAX)
        as_improve(&a, s_src, a.best, &a.U, comp, hk, lim);
    a.U0 = a.U;
    free(slow);
    free(hk);
    free(comp);

    /* Buffers: depth d has K child profiles of m0 - d - 1 slots. */
    a.kid_at = xmalloc((size_t)m0 * sizeof *a.kid_at);
    size_t total = 0;
    for (int d = 0; d < m0; d++) {
        a.kid_at[d] = total;
        total += (size_t)K * (size_t)(m0 - d - 1);
    }
    a.kid = xmalloc((total ? total : 1) * sizeof *a.kid);
    size_t per = (size_t)m0 * (size_t)K;
    a.kid_len = xmalloc(per * sizeof *a.kid_len);
    a.kid_tie = xmalloc(per * sizeof *a.kid_tie);
    a.order = xmalloc(per * sizeof *a.order);
    a.kid_h = xmalloc(per * sizeof *a.kid_h);
    a.kid_cb = xmalloc(per * sizeof *a.kid_cb);
    a.front = xmalloc((size_t)K * sizeof *a.front);
    a.heap = xmalloc((size_t)m0 * sizeof *a.heap);
    a.sig = xmalloc((size_t)m0 * sizeof *a.sig);
    a.first = xmalloc((size_t)m0 * sizeof *a.first);
    a.hval = xmalloc((size_t)m0 * sizeof *a.hval);
    a.chain = xmalloc((size_t)m0 * (size_t)K * sizeof *a.chain);
    a.rr = xmalloc((size_t)K * sizeof *a.rr);
    a.cinv = xmalloc((size_t)K * sizeof *a.cinv);
    a.rate_on = false;
    for (int k = 0; k < K; k++) {
        a.cinv[k] = 1 / a.cs[k];
        a.rate_on = a.rate_on || a.cr[k] != a.cr[0];
    }
    a.rate_on = a.rate_on && a.shift && m0 <= OPT_RATE_MAX;
    a.cw = xmalloc((size_t)m0 * (size_t)(K + 2) * sizeof *a.cw);
    a.bucket = xmalloc((size_t)(2 * m0 + 1) * sizeof *a.bucket);
    a.use = xmalloc((size_t)K * sizeof *a.use);
    a.key = xmalloc((size_t)(2 + (K + 3) / 4 + m0) * sizeof *a.key);

    /* The root: the source's slots s, 2s, ... up to the horizon. */
    double *root = xmalloc((size_t)m0 * sizeof *root), x = as_slot_after(0, s_src), rmin = rmin_of(&a, a.cnt);
    int rlen = 0;
    while (rlen < m0 && as_hold_at(a.L, x, rmin) < a.U0) {
        root[rlen++] = x;
        x = as_slot_after(x, s_src);
    }
    double best = a.U, lower = dmin(as_bound(&a, root, rlen, a.cnt, best), best);
    struct as_root rt = {&a, root, rlen};
    lower = drive(as_pass, &rt, lim, a.shift ? ceil(lower) : lower, &best, a.shift);
    res->best = best;
    res->lower = lower;
    res->order = a.best;
    res->len = m0;
    a.best = NULL;

    free(root);
    memo_free(&a.memo);
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
    free(a.cw);
    free(a.bucket);
    free(a.use);
    free(a.key);
}

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
    double *est, *xs, *slot_next, *period, *qs, *qa, *avec;
    int *cand_q, *cand_p, *cand_ord;    /* depth d: a slice of n * ncls candidates */
    double *cand_h;
    unsigned char *done;
    double *cw;             /* gs_count_ok: 4 n scratch */
    int *cnode;             /* gs_count_ok: 2 n scratch */
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
 * whose next start is >= t_last. Two bounds, O(n^2 + m n):
 *
 * 1. Earliest holds (Dijkstra): a waiting p receives from an open holder q
 *    (ready >= t_last; holders with ready < t_last can never send again in
 *    start order) no earlier than its next start, or from a waiting w no
 *    earlier than w's own earliest hold; the engine's additions are monotone
 *    in t, so the shortest-path times are lower bounds.
 *
 * 2. Slots, as in as_bound: the k-th future transfer in start order starts
 *    no earlier than the k-th smallest of the open holders' starts (ready,
 *    then every least free-again time) and the fictitious new holders'
 *    starts (a transfer started at sigma gives a holder from sigma + least
 *    hold offset, sending every least free-again time); pairing the k-th
 *    start with the k-th largest least hold offset bounds the makespan.
 *    Real offsets: exact in exact arithmetic, otherwise covered by slack.
 */
static double gs_bound(struct gs_ctx *g, double t_last, double M)
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
        for (int p = 0; p < n; p++)
            if (!g->done[p] && GS(g, edge, u, p))
                g->est[p] = dmin(g->est[p], gs_hold_at(g, u, p, g->est[u]));
    }

    /* 2: slots. avec: least hold offset of each waiting node, sorted descending. */
    int na = 0;
    double hnew = INFINITY, fnew = INFINITY;
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
        hnew = dmin(hnew, a);
        int j = na++;
        while (j > 0 && g->avec[j - 1] < a)
            g->avec[j] = g->avec[j - 1], j--;
        g->avec[j] = a;
    }
    for (int q = 0; q < n; q++) {
        g->slot_next[q] = INFINITY;
        if (g->held[q] && g->ready[q] >= t_last) {
            double f = INFINITY;
            for (int p = 0; p < n; p++)
                if (!g->held[p] && GS(g, edge, q, p))
                    f = dmin(f, GS(g, foff, q, p));
            if (f < INFINITY)
                g->slot_next[q] = g->ready[q];
            g->period[q] = f;
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
        if (src == 0)
            g->slot_next[bq] = x + g->period[bq];
        else if (src == 1)
            sh++;
        else
            ah++;
        if (src != 0 && fnew < INFINITY)
            g->qa[at++] = x + fnew;
        if (fnew < INFINITY)
            g->qs[st++] = x + hnew;
        lb = dmax(lb, x + g->avec[k]);
        g->xs[k] = x + hnew;
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
    double b = gs_bound(g, t_last, M);
    if (b >= g->U + g->slack || tick(g->lim))
        return b;
    if (g->exact && d < g->nrecv && !gs_count_ok(g, t_last, g->nrecv - d, g->U - 1))
        return g->U;   /* nothing holds all at or before U - 1: integers */
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
    free(g->slot_next);
    free(g->qs);
    free(g->qa);
    free(g->avec);
    free(g->period);
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
 * up to GS_KICKS times m, at most OPT_LS_WORK / (m^2 n) evaluations in
 * all.  Every order it keeps is a schedule gs_eval booked, so g->bf and
 * g->bt hold a true schedule of makespan *ms; the search's bounds do not
 * depend on it.
 */
#define GS_LS_MAX 64   /* nodes: beyond, the moves cost more than they give */
#define GS_KICKS 4

static void gs_improve(struct gs_ctx *g, double *ms)
{
    int m0 = g->nrecv;
    int *best = xmalloc((size_t)m0 * sizeof *best), *order = xmalloc((size_t)m0 * sizeof *order),
        *trial = xmalloc((size_t)m0 * sizeof *trial);
    memcpy(best, g->bt, (size_t)m0 * sizeof *best);
    double bsum, budget = OPT_LS_WORK / ((double)m0 * (double)m0 * (double)g->n + 1);
    double bms = gs_eval(g, best, g->pf, g->pt, &bsum);
    long long evals = 0;
    bool more = gs_descend(g, best, trial, &bms, &bsum, &evals, budget);
    struct rng r;
    rng_seed(&r, 1);
    for (int kick = 0; more && bms < INFINITY && m0 > 1 && kick < GS_KICKS * m0; kick++) {
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

static void gs_solve(const struct cluster *c, enum model m, double scale, struct limits *lim,
                     struct result *res)
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
    g.slot_next = xmalloc((size_t)n * sizeof *g.slot_next);
    g.avec = xmalloc((size_t)n * sizeof *g.avec);
    g.period = xmalloc((size_t)n * sizeof *g.period);
    g.qs = xmalloc((size_t)n * sizeof *g.qs);
    g.qa = xmalloc((size_t)n * sizeof *g.qa);
    g.done = xmalloc((size_t)n);
    /* Per-depth candidate slices: n senders * ncls classes at each depth. */
    size_t cand = (size_t)n * (size_t)n * (size_t)(g.ncls ? g.ncls : 1);
    g.cand_q = xmalloc(cand * sizeof *g.cand_q);
    g.cand_p = xmalloc(cand * sizeof *g.cand_p);
    g.cand_ord = xmalloc(cand * sizeof *g.cand_ord);
    g.cand_h = xmalloc(cand * sizeof *g.cand_h);

    double best = gs_greedy(&g);
    if (n <= GS_LS_MAX)
        gs_improve(&g, &best);
    bool exact = scale > 0;
    g.exact = exact;
    g.slack = exact ? 0 : 1e-9 * fabs(best);
    double lower = dmin(gs_bound(&g, 0, 0) - g.slack, best);
    lower = drive(gs_pass, &g, lim, exact ? ceil(lower) : lower, &best, exact);
    res->best = best;
    res->lower = lower;
    res->from = g.bf;
    res->to = g.bt;
    res->len = n - 1;
    g.bf = g.bt = NULL;
    gs_free(&g);
}

/* ---- optimal_solve ---- */

void opt_plan_free(struct opt_plan *p)
{
    if (!p)
        return;
    free(p->from);
    free(p->to);
    p->from = p->to = NULL;
    p->len = 0;
}

/* Is every node reachable from the source? Names the first that is not.
 * Node tables and matrices have every transfer, so only graphs are walked:
 * the walk is O(n^2), minutes on the 10^5-node tables the size check below
 * refuses anyway. */
static int check_reachable(const struct cluster *c, char **cause)
{
    if (c->kind != CLUSTER_GRAPH)
        return 0;
    int n = c->n, *stack = xmalloc((size_t)n * sizeof *stack), top = 0;
    unsigned char *seen = xcalloc((size_t)n, 1);
    stack[top++] = c->source;
    seen[c->source] = 1;
    while (top > 0) {
        int q = stack[--top];
        for (int p = 0; p < n; p++) {
            struct cost k;
            if (!seen[p] && p != q && timing_cost(c, q, p, &k)) {
                seen[p] = 1;
                stack[top++] = p;
            }
        }
    }
    int bad = -1;
    for (int p = 0; p < n && bad < 0; p++)
        if (!seen[p])
            bad = p;
    free(stack);
    free(seen);
    if (bad >= 0)
        return set_cause(cause, "optimal: %s cannot be reached from the source %s", c->nodes[bad].name,
                         c->nodes[c->source].name);
    return 0;
}

/* Book the plan on a fresh engine: checks it and takes the engine's makespan. */
static int replay(const struct cluster *c, enum model m, struct opt_plan *out, char **cause)
{
    struct engine e;
    char *why = NULL;
    if (engine_init(&e, c, m, cause) < 0)
        return -1;
    for (int i = 0; i < out->len; i++)
        if (engine_book(&e, out->from[i], out->to[i], 0, NULL, &why) < 0) {
            set_cause(cause, "optimal: internal error, plan step %d: %s", i + 1, why);
            free(why);
            engine_free(&e);
            return -1;
        }
    out->makespan = e.makespan;
    engine_free(&e);
    return 0;
}

/* Turn a class order into decisions: next member of the class, fnf's sender. */
static int order_to_plan(const struct cluster *c, enum model m, const struct as_input *in,
                         const int *order, struct opt_plan *out, char **cause)
{
    struct engine e;
    char *why = NULL;
    int n = c->n, *used = xcalloc((size_t)in->K, sizeof *used);
    if (engine_init(&e, c, m, cause) < 0) {
        free(used);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n - 1 && rc == 0; i++) {
        int k = order[i], seen = 0, p = -1;
        for (int x = 0; x < n && p < 0; x++)
            if (in->cls[x] == k && seen++ == used[k])
                p = x;
        used[k]++;
        int q = sched_fnf_sender(&e, 0, NULL);   /* the slot rule's sender: fnf's */
        out->from[i] = q;
        out->to[i] = p;
        if (engine_book(&e, q, p, 0, NULL, &why) < 0) {
            rc = set_cause(cause, "optimal: internal error, receiver %d: %s", i + 1, why);
            free(why);
        }
    }
    out->makespan = e.makespan;
    engine_free(&e);
    free(used);
    return rc;
}

/* ---- a multicast: every set of relays ---- */

/*
 * A multicast schedule informs its targets and some set R of other nodes,
 * and is then a broadcast of the cluster of targets + R: no uninformed node
 * holds a port.  Some optimal multicast serves no relay that passes the
 * message to no target (removing such a leaf only frees its sender's port
 * earlier), so each of its relays holds the message before some target and
 * its makespan is that broadcast's.  Hence the multicast optimum is the
 * least broadcast optimum over every R, and a lower bound is the least of
 * the broadcasts' bounds.  2^(non-targets) searches: at most
 * OPT_MAX_RELAYS candidates.
 */
#define OPT_MAX_RELAYS 12

static int multicast_solve(const struct cluster *c, enum model m, const struct sched_opts *o,
                           struct opt_plan *out, char **cause)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int n = c->n, nr = 0, relays[OPT_MAX_RELAYS];
    for (int p = 0; p < n; p++)
        if (!c->target[p] && p != c->source && nr++ < OPT_MAX_RELAYS)
            relays[nr - 1] = p;
    if (nr > OPT_MAX_RELAYS)
        return set_cause(cause, "optimal: a multicast is searched over every set of relays, for at "
                         "most %d nodes that are not targets (this cluster has %d); use -s relay-fnf, "
                         "or fewer nodes", OPT_MAX_RELAYS, nr);
    struct sched_opts so;
    if (o)
        so = *o;
    else
        sched_opts_default(&so);
    double time_limit = opt_time_limit(&so);
    long long node_limit = so.node_limit > 0 ? so.node_limit : OPT_DEFAULT_NODE_LIMIT;
    unsigned char *keep = xmalloc((size_t)n);
    int *map = xmalloc((size_t)n * sizeof *map), *best_map = xmalloc((size_t)n * sizeof *best_map);
    struct opt_plan best = {0};
    best.makespan = INFINITY;
    double lower = INFINITY;
    bool gave_up = false;
    long long explored = 0;
    int rc = 0;
    for (unsigned mask = 0; rc == 0 && mask < (1u << nr); mask++) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double left = time_limit - ((double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec));
        if (left <= 0 || explored >= node_limit) {   /* the rest unsearched: the general bound */
            gave_up = true;
            lower = dmin(lower, bound_lower(c, m));
            break;
        }
        memcpy(keep, c->target, (size_t)n);
        for (int i = 0; i < nr; i++)
            if (mask & (1u << i))
                keep[relays[i]] = 1;
        struct cluster *sub = cluster_subset(c, keep, map);
        if (!sub)
            continue;   /* a platform graph these relays cannot reach every target in */
        so.time_limit = left;
        so.node_limit = node_limit - explored;
        struct opt_plan sp;
        rc = optimal_solve(sub, m, &so, &sp, cause);
        if (rc == 0) {
            explored += sp.explored;
            gave_up = gave_up || sp.status == OPT_GAVE_UP;
            lower = dmin(lower, sp.lower);
            if (sp.makespan < best.makespan) {
                opt_plan_free(&best);
                best = sp;
                memcpy(best_map, map, (size_t)sub->n * sizeof *map);
            } else {
                opt_plan_free(&sp);
            }
        }
        cluster_free(sub);
    }
    free(keep);
    free(map);
    if (rc == 0 && !isfinite(best.makespan))
        rc = set_cause(cause, "optimal: no set of relays lets the source %s reach every target",
                       c->nodes[c->source].name);
    if (rc < 0) {
        opt_plan_free(&best);
        free(best_map);
        return -1;
    }
    double sub_best = best.makespan;
    for (int i = 0; i < best.len; i++) {
        best.from[i] = best_map[best.from[i]];
        best.to[i] = best_map[best.to[i]];
    }
    free(best_map);
    *out = best;
    if (replay(c, m, out, cause) < 0) {   /* the targets' makespan, on c itself */
        opt_plan_free(out);
        return -1;
    }
    out->explored = explored;
    struct timespec end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    out->seconds = (double)(end.tv_sec - t0.tv_sec) + 1e-9 * (double)(end.tv_nsec - t0.tv_nsec);
    if (!gave_up && fabs(out->makespan - sub_best) > 1e-9 * fmax(1, sub_best)) {   /* the argument above */
        opt_plan_free(out);
        return set_cause(cause, "optimal: internal error, the multicast's makespan %g is not the "
                         "broadcast's %g of its nodes", out->makespan, sub_best);
    }
    out->status = gave_up ? OPT_GAVE_UP : OPT_PROVEN;
    out->proof = gave_up ? OPT_PROOF_NONE : OPT_PROOF_RELAYS;   /* not the best set's own reason */
    out->lower = gave_up ? dmin(lower, out->makespan) : out->makespan;
    return 0;
}

int optimal_solve(const struct cluster *c, enum model m, const struct sched_opts *o,
                  struct opt_plan *out, char **cause)
{
    if (c->target)   /* every set of relays: above */
        return multicast_solve(c, m, o, out, cause);
    memset(out, 0, sizeof *out);
    struct limits lim;
    memset(&lim, 0, sizeof lim);
    clock_gettime(CLOCK_MONOTONIC, &lim.t0);
    lim.node_limit = o && o->node_limit > 0 ? o->node_limit : OPT_DEFAULT_NODE_LIMIT;
    lim.time_limit = o ? opt_time_limit(o) : OPT_DEFAULT_TIME_LIMIT;
    lim.cancel = o ? o->cancel : NULL;
    int max_nodes = o && o->max_nodes > 0 ? o->max_nodes : OPT_DEFAULT_MAX_NODES;
    int n = c->n;

    if (m >= MODEL_COUNT)
        return set_cause(cause, "optimal: unknown model");
    if (!(model_mask_for(c->kind) & MODEL_BIT(m))) {
        char *no = model_refusal(m, c->kind);
        set_cause(cause, "optimal: %s", no);
        free(no);
        return -1;
    }
    if (n < 1 || c->source < 0 || c->source >= n)
        return set_cause(cause, "optimal: the cluster has no source");
    if (check_reachable(c, cause) < 0)
        return -1;

    double scale = find_scale(c);
    bool slots = !(o && o->opt_general) && c->kind == CLUSTER_NODES &&
                 !timing_sender_waits_receive(m) && (timing_hold_stepwise(m) || scale > 0);
    struct as_input in;
    memset(&in, 0, sizeof in);
    in.c = c;
    in.sender_only = timing_send_only(m);
    in.scale = scale;
    if (n > max_nodes && n > OPT_CLASS_MAX_NODES)   /* refused below too; as_classes is O(n^2) */
        return set_cause(cause,
                         "optimal: %d nodes is beyond the exact search (at most %d nodes; node "
                         "tables of up to %d nodes with at most %d distinct (send, recv) classes); "
                         "use -s fnf, or a smaller cluster", n, max_nodes, OPT_CLASS_MAX_NODES,
                         OPT_CLASS_MAX);
    if (slots)
        as_classes(&in);
    if (n > max_nodes) {
        double mixes = 1;
        for (int k = 0; slots && k < in.K; k++)
            mixes *= in.count[k] + 1;
        if (!slots || in.K > OPT_CLASS_MAX || mixes > OPT_CLASS_MIXES || n > OPT_CLASS_MAX_NODES) {
            if (slots)
                set_cause(cause,
                          "optimal: %d nodes in %d classes is beyond the exact search (at most %d "
                          "nodes; larger node tables need at most %d distinct (send, recv) classes, "
                          "%d nodes and %.0f mixes of classes, this one has %.0f); use -s fnf, or a "
                          "smaller cluster", n, in.K, max_nodes, OPT_CLASS_MAX, OPT_CLASS_MAX_NODES,
                          OPT_CLASS_MIXES, mixes);
            else
                set_cause(cause,
                          "optimal: %d nodes is beyond the exact search (at most %d); use -s fnf, "
                          "or a smaller cluster", n, max_nodes);
            as_input_free(&in);
            return -1;
        }
    }

    struct result res;
    memset(&res, 0, sizeof res);
    int rc = 0;
    out->len = n - 1;
    out->from = xmalloc((size_t)(n > 1 ? n - 1 : 1) * sizeof *out->from);
    out->to = xmalloc((size_t)(n > 1 ? n - 1 : 1) * sizeof *out->to);
    if (n == 1) {
        res.best = res.lower = 0;
    } else if (slots) {
        as_solve(&in, &lim, &res);
        rc = order_to_plan(c, m, &in, res.order, out, cause);
        free(res.order);
    } else {
        gs_solve(c, m, scale, &lim, &res);
        memcpy(out->from, res.from, (size_t)(n - 1) * sizeof *out->from);
        memcpy(out->to, res.to, (size_t)(n - 1) * sizeof *out->to);
        free(res.from);
        free(res.to);
        rc = replay(c, m, out, cause);
    }
    as_input_free(&in);
    if (rc == 0 && cancelled(&lim))
        rc = set_cause(cause, SCHED_CANCELLED_TEXT);
    if (rc < 0) {
        opt_plan_free(out);
        return -1;
    }
    out->explored = lim.explored;
    out->seconds = elapsed(&lim);
    out->slots = slots;
    if (n > 1 && res.lower < res.best) {
        out->status = OPT_GAVE_UP;
        out->proof = OPT_PROOF_NONE;
        double lower = dmax(bound_lower(c, m), scale > 0 ? res.lower / scale : res.lower);
        out->lower = dmin(lower, out->makespan);
    } else {
        out->status = OPT_PROVEN;
        out->lower = out->makespan;
        double lb = bound_lower(c, m);
        if (n == 1)
            out->proof = OPT_PROOF_ONE_NODE;
        else if (isfinite(lb) && out->makespan <= lb + 1e-9 * fabs(lb))
            out->proof = OPT_PROOF_LOWER_BOUND;
        else if (out->explored == 0)
            out->proof = OPT_PROOF_ROOT_BOUND;
        else
            out->proof = OPT_PROOF_SEARCH;
    }
    return 0;
}

void opt_plan_reason(const struct opt_plan *p, char *buf, size_t size)
{
    const char *bound = p->slots ? "slot bound" : "start-time bound";
    switch (p->status == OPT_PROVEN ? p->proof : OPT_PROOF_NONE) {
    case OPT_PROOF_ONE_NODE:
        text_fit(buf, size, "proven: the source is the only node");
        break;
    case OPT_PROOF_LOWER_BOUND:
        text_fit(buf, size, "proven: a schedule meets the lower bound");
        break;
    case OPT_PROOF_ROOT_BOUND:
        text_fit(buf, size, "proven: the exact search's %s is %g before any branching, and a "
                 "schedule meets it", bound, p->makespan);
        break;
    case OPT_PROOF_SEARCH:
        text_fit(buf, size, "proven by exhaustive search (%lld search nodes)", p->explored);
        break;
    case OPT_PROOF_RELAYS:
        text_fit(buf, size, "proven: the least of the exact optima of every set of relays, %lld search "
                 "node%s in all", p->explored, p->explored == 1 ? "" : "s");
        break;
    case OPT_PROOF_NONE:
        text_fit(buf, size, "search gave up after %lld search nodes: optimum between %g and %g",
                 p->explored, p->lower, p->makespan);
        break;
    }
}

/* ---- the scheduler ---- */

struct opt_state {
    struct opt_plan plan;
    int next;
};

static int opt_prepare(struct sched *s, struct engine *e, char **cause)
{
    if (e->ntr > 0 || e->nmsg != 1)
        return set_cause(cause, "optimal: plans a whole broadcast from the start (the engine "
                                "already has bookings)");
    struct opt_state *st = xcalloc(1, sizeof *st);
    if (optimal_solve(e->c, e->model, &s->opt, &st->plan, cause) < 0) {
        free(st);
        return -1;
    }
    const struct opt_plan *p = &st->plan;
    s->state = st;
    s->status = p->status;
    s->bound = p->lower;
    s->explored = p->explored;
    if (p->status == OPT_PROVEN) {
        char why[200];
        opt_plan_reason(p, why, sizeof why);
        if (p->proof == OPT_PROOF_SEARCH || p->proof == OPT_PROOF_RELAYS)
            text_fit(s->note, sizeof s->note, "proven optimal: %s (%lld search node%s, %.2f s)",
                     p->proof == OPT_PROOF_SEARCH ? "exhaustive search"
                                                  : "the least of the exact optima of every set of relays",
                     p->explored, p->explored == 1 ? "" : "s", p->seconds);
        else   /* "proven: WHY" */
            text_fit(s->note, sizeof s->note, "proven optimal: %s (%.2f s)",
                     strncmp(why, "proven: ", 8) == 0 ? why + 8 : why, p->seconds);
    } else {
        long long limit = s->opt.node_limit > 0 ? s->opt.node_limit : OPT_DEFAULT_NODE_LIMIT;
        char why[96];
        if (p->explored >= limit)
            text_fit(why, sizeof why, "at the node limit (%lld nodes, %.2f s)", p->explored, p->seconds);
        else
            text_fit(why, sizeof why, "after %.3g s (%lld nodes)", p->seconds, p->explored);
        text_fit(s->note, sizeof s->note, "gave up %s: best found %g, optimum >= %g", why, p->makespan,
                 p->lower);
    }
    return 0;
}

static int opt_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    (void)cause;
    struct opt_state *st = s->state;
    if (!st || st->next >= st->plan.len)
        return SCHED_DONE;
    int i = st->next++, q = st->plan.from[i], p = st->plan.to[i];
    const char *qn = e->c->nodes[q].name, *pn = e->c->nodes[p].name;
    d->from = q;
    d->to = p;
    d->msg = 0;
    struct transfer t;
    if (engine_earliest(e, q, p, 0, &t) < 0) {
        d->reason = xasprintf("optimal: %s sends to %s (decision %d of %d)", qn, pn, i + 1,
                              st->plan.len);
        return SCHED_DECIDED;
    }
    double done;
    bool first = e->c->kind == CLUSTER_NODES && sched_fnf_sender(e, 0, &done) == q && done == t.send_end;
    char *gain = explain_pick(e, &t);   /* what the choice achieves, not only its order */
    const char *sep = gain ? ": " : "", *said = gain ? gain : "";
    if (first)
        d->reason = xasprintf("optimal order: %s next (receiver %d of %d); %s's send completes first "
                              "(t=%g)%s%s", pn, i + 1, st->plan.len, qn, t.send_end, sep, said);
    else
        d->reason = xasprintf("optimal schedule: %s sends to %s at t=%g, %s holds it at t=%g "
                              "(decision %d of %d)%s%s", qn, pn, t.start, pn, t.hold, i + 1,
                              st->plan.len, sep, said);
    free(gain);
    return SCHED_DECIDED;
}

static void opt_finish(struct sched *s)
{
    struct opt_state *st = s->state;
    if (!st)
        return;
    opt_plan_free(&st->plan);
    free(st);
    s->state = NULL;
}

/* Exact where it proves (a run that gives up is not measured against it). */
static const struct sched_claim opt_claims[] = {
    {~0u, MODEL_ALL, SCHED_MAKESPAN, 1, "exact search"},
    {0, 0, SCHED_MAKESPAN, 0, NULL},
};

const struct sched_ops sched_optimal = {
    .name = "optimal",
    .summary = "exact minimum makespan (branch and bound; says when it gives up)",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX) |
             CLUSTER_KIND_BIT(CLUSTER_GRAPH),
    .models = MODEL_ALL,
    .multicast = true,   /* every set of relays (multicast_solve) */
    .randomized = false,
    .prepare = opt_prepare,
    .choose = opt_choose,
    .finish = opt_finish,
    .claims = opt_claims,
};
