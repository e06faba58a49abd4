/*
 * test_lean.c - the lean engine and what makes it fast: the radix queue
 * against a plain sort (ties, times pushed in the past, -0), fnf against the
 * obvious O(n^2) fnf of SPEC §2, and every lean-capable policy on every
 * model and cluster kind run twice, full and lean, with the same bookings,
 * the same makespan and exactly the same events in the same order (the
 * lean stream against the full engine's timeline array).  Also: what a
 * lean engine refuses, engine_reset on a lean engine, one-node and
 * zero-cost clusters, and events processed early (decision.not_before)
 * never coming out of order.  Long runs of equal times (kept in their
 * blocks): random and nearly sorted ties, pushes while they are popped,
 * rq_ahead across blocks, no second copy, rq_trim cutting into them.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "engine/engine.h"
#include "engine/engine_lean.h"
#include "support/radixq.h"
#include "support/rng.h"
#include "sched/optimal.h"
#include "sched/sched.h"
#include "tap.h"
#include "sched/list.h"
#include "sched/fef.h"

/* ---- the radix queue ---- */

struct ref {
    double t;
    uint32_t tie;
    int32_t val;
};

static int ref_cmp(const void *a, const void *b)
{
    const struct ref *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->tie < y->tie ? -1 : x->tie > y->tie;
}

/* Pops n items; how many match want[] (sorted by time, tie) in order. */
static int pop_matching(struct radixq *q, const struct ref *want, int n)
{
    int same = 0;
    for (int i = 0; i < n; i++) {
        const struct rq_item *it = rq_top(q);
        if (it && rq_time(it) == want[i].t && it->tie == want[i].tie)
            same++;
        rq_pop(q);
    }
    return same;
}

/* Push `nbatch` batches whose ties ascend (as an event loop pushes them),
 * each item at one of `ntimes` times: a run of equal times is then a few
 * ascending stretches, which the queue merges (or quicksorts, past eight). */
static void test_radixq_stretches(uint64_t seed, int nbatch, int batch, int ntimes)
{
    struct radixq *q = xmalloc(sizeof *q);
    rq_init(q);
    struct rng r;
    rng_seed(&r, seed);
    int n = nbatch * batch;
    struct ref *want = xmalloc((size_t)n * sizeof *want);
    for (int k = 0, i = 0; k < nbatch; k++) {
        uint32_t tie = (uint32_t)rng_below(&r, 1000);
        for (int j = 0; j < batch; j++, i++) {
            tie += 1 + (uint32_t)rng_below(&r, 50);
            want[i].t = 1.0 + (double)rng_below(&r, (uint32_t)ntimes) * 0.25;
            want[i].tie = tie;
            want[i].val = i;
            rq_push(q, want[i].t, want[i].tie, want[i].val);
        }
    }
    qsort(want, (size_t)n, sizeof *want, ref_cmp);
    int same = pop_matching(q, want, n);
    is_int(same, n, "radixq: %d batches of %d ascending ties at %d times come out in order",
           nbatch, batch, ntimes);
    free(want);
    rq_free(q);
    free(q);
}

/* Push n items at random times (grain > 0: multiples of it below 1000, many
 * ties; < 0: spread over many powers of two, many buckets; 0: below 10^6)
 * with random ties; the items, sorted by (time, tie). */
static struct ref *push_random(struct radixq *q, uint64_t seed, int n, double grain)
{
    struct rng r;
    rng_seed(&r, seed);
    struct ref *want = xmalloc((size_t)n * sizeof *want);
    for (int i = 0; i < n; i++) {
        want[i].t = grain > 0   ? floor(rng_unit(&r) * 1000 / grain) * grain
                    : grain < 0 ? exp(rng_unit(&r) * 40)
                                : rng_unit(&r) * 1e6;
        want[i].tie = (uint32_t)rng_below(&r, 1u << 30);
        want[i].val = i;
        rq_push(q, want[i].t, want[i].tie, want[i].val);
    }
    qsort(want, (size_t)n, sizeof *want, ref_cmp);
    return want;
}

/* Push `n` items (coarse times: many ties), pop all: the order of a sort. */
static void test_radixq_sorts(uint64_t seed, int n, double grain)
{
    struct radixq *q = xmalloc(sizeof *q);
    rq_init(q);
    struct ref *want = push_random(q, seed, n, grain);
    int same = pop_matching(q, want, n);
    is_int(same, n, "radixq: %d items (grain %g) come out in (time, tie) order", n, grain);
    ok(rq_top(q) == NULL && q->len == 0, "radixq: empty after popping them all");
    free(want);
    rq_free(q);
    free(q);
}

/* Pop a few, trim to `keep`, pop `keep`: the smallest items are kept, and
 * they come out as if nothing had been dropped. */
static void test_radixq_trim(uint64_t seed, int n, int popped, int keep, double grain)
{
    struct radixq *q = xmalloc(sizeof *q);
    rq_init(q);
    struct ref *want = push_random(q, seed, n, grain);
    int same = pop_matching(q, want, popped);
    size_t before = q->len, dropped = rq_trim(q, (size_t)keep);
    ok(q->len >= (size_t)keep && q->len + dropped == before && (keep > 0 || q->len == 0),
       "radixq: trim to %d of %zu keeps %zu, drops %zu", keep, before, q->len, dropped);
    same += pop_matching(q, want + popped, keep);
    is_int(same, popped + keep, "radixq: after the trim the %d smallest come out in order", keep);
    free(want);
    rq_free(q);
    free(q);
}

/* Runs longer than 4096 items (sorted in place by bytes): `nmin` items at
 * time 1 and `nnear` at times a hair above it (one bucket, then split),
 * `nfar` later; each pop pushes `per_pop` items later still, into the
 * blocks the emptied buckets hand back.  Everything pushed comes out in
 * (time, tie) order, since every push is later than the item just popped. */
static void test_radixq_long_runs(uint64_t seed, int nmin, int nnear, int nfar, int per_pop)
{
    struct radixq *q = xmalloc(sizeof *q);
    rq_init(q);
    struct rng r;
    rng_seed(&r, seed);
    int cap = (nmin + nnear + nfar) * (1 + per_pop) + 1, n = 0, popped = 0, same = 0;
    struct ref *all = xmalloc((size_t)cap * sizeof *all), *got = xmalloc((size_t)cap * sizeof *got);
    uint32_t tie = 0;
    for (int i = 0; i < nmin + nnear + nfar; i++) {
        double t = i < nmin ? 1.0 : i < nmin + nnear ? 1.0 + 1e-12 * (double)rng_below(&r, 3) + 1e-12
                                                     : 2.0 + (double)rng_below(&r, 4);
        /* ties in ascending stretches of 5000, as an event loop pushes
         * them (a run is then unsorted), made unique by the low 16 bits */
        tie = i % 5000 == 0 ? (uint32_t)rng_below(&r, 1000) : tie + 1 + (uint32_t)rng_below(&r, 3);
        all[n] = (struct ref){t, tie << 16 | (uint32_t)i, i};
        rq_push(q, all[n].t, all[n].tie, all[n].val);
        n++;
    }
    struct rq_item it;
    while (rq_take(q, INFINITY, &it)) {
        got[popped++] = (struct ref){rq_time(&it), it.tie, it.val};
        for (int k = 0; k < per_pop && n < cap; k++) {
            all[n] = (struct ref){rq_time(&it) + 10 + (double)rng_below(&r, 50),
                                  (uint32_t)(n + (1 << 30)), n};
            rq_push(q, all[n].t, all[n].tie, all[n].val);
            n++;
        }
        if (popped > 4 * cap)
            break;
    }
    qsort(all, (size_t)n, sizeof *all, ref_cmp);
    for (int i = 0; i < n && i < popped; i++)
        same += all[i].t == got[i].t && all[i].tie == got[i].tie && all[i].val == got[i].val;
    ok(popped == n && same == n,
       "radixq: runs of %d and %d + %d equal times, %d pushed a pop: %d of %d in order",
       nmin, nnear, nfar, per_pop, same, n);
    free(all);
    free(got);
    rq_free(q);
    free(q);
}

/* An event loop: pop one, push later ones (and now and then an earlier one). */
static void test_radixq_loop(void)
{
    struct radixq *q = xmalloc(sizeof *q);
    rq_init(q);
    struct rng r;
    rng_seed(&r, 7);
    for (int i = 0; i < 100; i++)
        rq_push(q, (double)rng_below(&r, 50), (uint32_t)i, i);
    uint32_t next_tie = 100;
    double last = -1;
    uint32_t last_tie = 0;
    int bad = 0, popped = 0, back = 0, pushed_back = 0;
    while (q->len > 0 && popped < 20000) {
        struct rq_item it;
        double lim = rq_min_time(q);
        if (!rq_take(q, lim, &it)) {
            bad++;
            break;
        }
        double t = rq_time(&it);
        if (t < last || (t == last && it.tie < last_tie))
            bad++;
        last = t;
        last_tie = it.tie;
        popped++;
        if (popped < 15000)   /* one later event for each one taken */
            rq_push(q, t + (double)rng_below(&r, 4) * 0.25, next_tie++, 0);
        if (popped % 1000 == 0) {   /* the past: served first, in order */
            pushed_back++;
            rq_push(q, t - 1, 0, -1);
            struct rq_item first;
            back += rq_take(q, INFINITY, &first) && rq_time(&first) == t - 1;
            last = t - 1;
            last_tie = 0;
        }
    }
    is_int(bad, 0, "radixq: an event loop never sees time go back");
    ok(pushed_back > 10 && back == pushed_back, "radixq: an item pushed in the past comes out first");
    ok(q->len == 0, "radixq: the loop drains (%d popped)", popped);
    ok(rq_min_time(q) == INFINITY && !rq_take(q, INFINITY, &(struct rq_item){0, 0, 0}),
       "radixq: nothing to take from an empty queue");
    rq_push(q, -0.0, 1, 1);
    rq_push(q, 0.0, 0, 2);
    const struct rq_item *it = rq_top(q);
    ok(it && it->val == 2 && rq_time(it) == 0, "radixq: -0 and +0 are one time (ties decide)");
    struct rq_item x;
    ok(!rq_take(q, -1, &x) && rq_take(q, 0, &x) && rq_take(q, 0, &x) && q->len == 0,
       "radixq: rq_take stops at its limit");
    rq_free(q);
    free(q);
}

/*
 * Long runs kept in their blocks.  Ties are unique, so the order is exact
 * and every item is checked by (time, tie, val): a run left unsorted, an
 * item lost or written twice, a block handed back while the run still
 * reads it (the pushes during the pops take the spare blocks) all show.
 * The run's ties are multiples of 4; the ones pushed at its time while it
 * is being popped (the heap) are not, and follow the tie just popped, as
 * in an event loop, but come before later ones of the run.
 */
static uint32_t run_tie(uint32_t *perm, int i, int nearly)
{
    return nearly ? 4 * (uint32_t)i : 4 * perm[i] * 1024u;
}

/* n distinct values in random order: the run's ties */
static uint32_t *shuffled(struct rng *r, int n)
{
    uint32_t *p = xmalloc((size_t)(n ? n : 1) * sizeof *p);
    for (int i = 0; i < n; i++)
        p[i] = (uint32_t)i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint64_t)i + 1);
        uint32_t t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    return p;
}

/*
 * nrun items at time 1 (ties random, or nearly sorted: ascending with one
 * pair in 500 swapped), nnear 1 to 3 ulps above 1 pushed among them (the
 * same bucket: the run goes on in blocks as it is read; then buckets of
 * one key, level 0, taken whole when long), nfar at 2 .. 5.  Each
 * pop pushes `later` items at a later time, and each pop of the run `eq`
 * (up to 3) at its time, ties a little after its own.  With
 * `ahead`, rq_ahead is checked at each pop against the reference (no equal
 * pushes then: the run is all there is at its time).
 */
static void test_radixq_blocks(uint64_t seed, int nrun, int nearly, int nnear, int nfar, int eq,
                               int later, int ahead)
{
    struct radixq *q = xmalloc(sizeof *q);
    rq_init(q);
    struct rng r;
    rng_seed(&r, seed);
    int first = nrun + nnear + nfar, cap = first * (1 + eq + later) + 1, n = 0, popped = 0;
    struct ref *all = xmalloc((size_t)cap * sizeof *all), *got = xmalloc((size_t)cap * sizeof *got);
    static const size_t ks[] = {1, 3, 63, 64, 65, 130};
    enum { NK = sizeof ks / sizeof ks[0] };
    /* per pop and k: the tie rq_ahead gave, or UINT32_MAX for NULL */
    uint32_t *seen = ahead ? xmalloc((size_t)cap * NK * sizeof *seen) : NULL;
    uint32_t *perm = shuffled(&r, nrun), *nperm = shuffled(&r, nnear);
    if (nearly)
        for (int i = 0; i + 1 < nrun; i += 500)
            perm[i] = 1;   /* marks a swap below */
    int irun = 0, inear = 0, ifar = 0;
    uint32_t counter = 0;
    while (irun + inear + ifar < first) {
        uint64_t pick = rng_below(&r, (uint64_t)first - (uint64_t)(irun + inear + ifar));
        double t;
        uint32_t tie;
        if (pick < (uint64_t)(nrun - irun)) {
            t = 1.0;
            tie = run_tie(perm, irun, nearly);
            if (nearly && irun + 1 < nrun && perm[irun] == 1 && irun % 500 == 0)
                tie += 4;   /* this one and the next change places */
            else if (nearly && irun % 500 == 1 && perm[irun - 1] == 1)
                tie -= 4;
            irun++;
        } else if (pick < (uint64_t)(nrun - irun + nnear - inear)) {
            t = 1.0 + DBL_EPSILON * (double)(1 + rng_below(&r, 3));   /* level-0 buckets */
            tie = nperm[inear++];   /* random: the level-0 runs need sorting too */
        } else {
            t = 2.0 + (double)rng_below(&r, 4);
            tie = (uint32_t)ifar++;
        }
        all[n] = (struct ref){t, tie, n};
        rq_push(q, t, tie, n);
        n++;
    }
    const struct rq_item *top;
    while ((top = rq_top(q)) && popped < cap) {
        if (ahead)
            for (int k = 0; k < NK; k++) {
                const struct rq_item *a = rq_ahead(q, ks[k]);
                seen[(size_t)popped * NK + (size_t)k] = a ? a->tie : UINT32_MAX;
            }
        double t = rq_time(top);
        got[popped++] = (struct ref){t, top->tie, top->val};
        rq_pop(q);
        uint32_t v = got[popped - 1].tie / 4;
        for (int k = 0; t == 1.0 && got[popped - 1].tie % 4 == 0 && k < eq && n < cap; k++, n++) {
            /* distinct: k is the tie mod 4, then v */
            uint32_t tie = 4 * (v + 50 * (uint32_t)k) + (uint32_t)k + 1;
            all[n] = (struct ref){t, tie, n};
            rq_push(q, t, tie, n);
        }
        for (int k = 0; k < later && n < cap; k++, n++) {
            all[n] = (struct ref){t + 1 + (double)rng_below(&r, 20), counter++ | 1u << 31, n};
            rq_push(q, all[n].t, all[n].tie, all[n].val);
        }
    }
    qsort(all, (size_t)n, sizeof *all, ref_cmp);
    int same = 0, ahead_bad = 0;
    for (int i = 0; i < n && i < popped; i++)
        same += all[i].t == got[i].t && all[i].tie == got[i].tie && all[i].val == got[i].val;
    for (int i = 0; ahead && i < popped; i++)
        for (int k = 0; k < NK; k++) {
            size_t j = (size_t)i + ks[k];
            uint32_t want = j < (size_t)n && all[j].t == all[i].t ? all[j].tie : UINT32_MAX;
            ahead_bad += seen[(size_t)i * NK + (size_t)k] != want;
        }
    ok(popped == n && same == n && q->len == 0,
       "radixq: a run of %d equal times (%s ties) with %d + %d others, %d equal and %d later "
       "pushed a pop: %d of %d in order", nrun, nearly ? "nearly sorted" : "random", nnear, nfar,
       eq, later, same, n);
    if (ahead)
        is_int(ahead_bad, 0, "radixq: rq_ahead at 1 .. 130 places gives the run's next items "
               "across its blocks, NULL past its end (%d pops)", popped);
    free(perm);
    free(nperm);
    free(seen);
    free(all);
    free(got);
    rq_free(q);
    free(q);
}

/* A long run costs no second copy: popping it allocates only its table of
 * block pointers (8 bytes a block) and the short runs' array (at most
 * RQ_LONG items), both kept, and hands its blocks back for reuse. */
static void test_radixq_one_copy(int nrun)
{
    struct radixq *q = xmalloc(sizeof *q);
    rq_init(q);
    struct rng r;
    rng_seed(&r, 77);
    uint32_t *perm = shuffled(&r, nrun);
    for (int i = 0; i < nrun; i++)
        rq_push(q, 5.0, perm[i], i);
    size_t pushed = q->bytes, nblk = (size_t)(nrun + RQ_BLOCK - 1) / RQ_BLOCK;
    int order = 0;
    uint32_t prev = 0;
    for (int i = 0; i < nrun / 2; i++) {
        const struct rq_item *it = rq_top(q);
        order += it && it->tie == (uint32_t)i && (i == 0 || it->tie > prev);
        prev = it ? it->tie : 0;
        rq_pop(q);
    }
    /* half popped: pushing as many later items takes the blocks handed back */
    for (int i = 0; i < nrun / 2 - RQ_BLOCK; i++)
        rq_push(q, 6.0, (uint32_t)i, -1);
    size_t array = q->run.cap * sizeof(struct rq_item);
    ok(q->run.cap <= RQ_LONG && q->blk_cap == nblk &&
       q->peak_bytes <= pushed + nblk * sizeof(struct rq_block *) + array &&
       q->bytes == q->peak_bytes,
       "radixq: a run of %d equal times is sorted where it lies (items %zu bytes, peak %zu: "
       "the block table %zu, the short runs' array %zu), and refilled blocks are reused", nrun,
       pushed, q->peak_bytes, nblk * sizeof(struct rq_block *), array);
    for (int i = nrun / 2; i < nrun; i++) {
        const struct rq_item *it = rq_top(q);
        order += it && it->tie == (uint32_t)i && rq_time(it) == 5.0;
        rq_pop(q);
    }
    is_int(order, nrun, "radixq: the run of %d comes out by tie, every item once", nrun);
    ok(q->bytes == pushed + array + nblk * sizeof(struct rq_block *) && q->run_blk == NULL,
       "radixq: nothing more after the run, its block table kept for the next");
    free(perm);
    rq_free(q);
    free(q);
}

/*
 * rq_trim cutting inside the highest bucket: n items at times in [1, 2)
 * on a grid of `grid` values (one bucket at first, many equal times: the
 * cut orders by tie too), `popped` taken, then a trim to `keep`.  With
 * nothing popped, when the items beyond `keep` are half the bucket or more
 * the cut is exact (after a refill, half of the highest bucket left); what
 * stays must be the smallest, in order, and later pushes reuse the blocks
 * of the cut without touching it.
 */
static void test_radixq_trim_bucket(uint64_t seed, int n, int grid, int popped, int keep)
{
    struct radixq *q = xmalloc(sizeof *q);
    rq_init(q);
    struct rng r;
    rng_seed(&r, seed);
    struct ref *all = xmalloc((size_t)n * sizeof *all);
    uint32_t *perm = shuffled(&r, n);
    for (int i = 0; i < n; i++) {
        all[i] = (struct ref){1.0 + (double)rng_below(&r, (uint64_t)grid) / grid, perm[i], i};
        rq_push(q, all[i].t, all[i].tie, all[i].val);
    }
    qsort(all, (size_t)n, sizeof *all, ref_cmp);
    int same = pop_matching(q, all, popped);
    size_t before = q->len, dropped = rq_trim(q, (size_t)keep);
    int kept = (int)q->len;
    ok(q->len + dropped == before && q->len >= (size_t)keep &&
       (popped > 0 || 2 * (before - (size_t)keep) < before || q->len == (size_t)keep),
       "radixq: trim of %zu on %d times to %d: %d kept", before, grid, keep, kept);
    for (int i = 0; i < 2 * n; i++)
        rq_push(q, 10.0 + (double)(i % 5), (uint32_t)i, -1 - i);
    int good = 0;
    for (int i = popped; i < popped + kept; i++) {
        struct rq_item it;
        good += rq_take(q, INFINITY, &it) && rq_time(&it) == all[i].t && it.tie == all[i].tie &&
                it.val == all[i].val;
    }
    const struct rq_item *next = rq_top(q);
    ok(same == popped && good == kept && next && rq_time(next) == 10.0,
       "radixq: after a trim inside a bucket the %d smallest come out, in order (%d good)", kept,
       good);
    free(perm);
    free(all);
    rq_free(q);
    free(q);
}

/* The cut inside a bucket on many sizes: 600 queues of 130 to 3130 items
 * at 2 to 2^20 distinct times in [1, 2), each trimmed to at most half, so
 * the cut is exact; each drained and compared with a sort. */
static void test_radixq_trim_many(void)
{
    struct rng r;
    rng_seed(&r, 90);
    static const int grids[] = {2, 5, 100, 1 << 20};
    int bad = 0, rounds = 600;
    struct ref *all = xmalloc(3130 * sizeof *all);
    for (int round = 0; round < rounds; round++) {
        struct radixq *q = xmalloc(sizeof *q);
        rq_init(q);
        int n = 130 + (int)rng_below(&r, 3001), grid = grids[round % 4];
        int keep = 1 + (int)rng_below(&r, (uint64_t)n / 2);
        for (int i = 0; i < n; i++) {
            all[i] = (struct ref){1.0 + (double)rng_below(&r, (uint64_t)grid) / grid,
                                  (uint32_t)rng_below(&r, 1u << 30) << 2 | (uint32_t)(i & 3), i};
            rq_push(q, all[i].t, all[i].tie, all[i].val);
        }
        qsort(all, (size_t)n, sizeof *all, ref_cmp);
        rq_trim(q, (size_t)keep);
        int good = q->len == (size_t)keep;
        for (int i = 0; i < keep; i++) {
            struct rq_item it;
            good += rq_take(q, INFINITY, &it) && rq_time(&it) == all[i].t && it.tie == all[i].tie;
        }
        bad += good != keep + 1;
        rq_free(q);
        free(q);
    }
    is_int(bad, 0, "radixq: %d cuts inside a bucket (130 to 3130 items, 2 to 2^20 times) keep "
           "exactly the smallest", rounds);
    free(all);
}

/*
 * rq_trim's cut inside a bucket on orders that defeat a guessed pivot: n
 * items in one bucket (times in [1, 2)), trimmed to `keep` (at most half,
 * so the cut is exact), the rest drained and compared with a sort.  The
 * selection must stay linear: its count of items passed over at most 32 a
 * bucket item (the middle of three passed over 4000 an item on a sorted
 * bucket with one item out of place, as fnf's senders at 10^7 nodes).
 */
enum select_order { SEL_EQUAL, SEL_SAME, SEL_TWO, SEL_ORGAN, SEL_SORTED, SEL_REVERSE,
                    SEL_ONE_OUT, SEL_RUNS_OUT, SEL_RANDOM };
static const char *const select_names[] = {
    "all one time, ties ascending", "all one (time, tie)", "two times", "organ pipe", "sorted",
    "reverse", "sorted, one item out of place", "runs of 1000 equal times, one item out of place",
    "random"};

static void test_radixq_select(enum select_order order, int n, int keep)
{
    struct radixq *q = xmalloc(sizeof *q);
    rq_init(q);
    struct rng r;
    rng_seed(&r, 100 + (uint64_t)order);
    struct ref *all = xmalloc((size_t)n * sizeof *all);
    int out = n * 5 / 6, to = n / 10;   /* item `out` has rank `to` */
    for (int i = 0; i < n; i++) {
        int rank = i < to ? i : i < out ? i + 1 : i == out ? to : i;
        double t;
        uint32_t tie = (uint32_t)i;
        switch (order) {
        case SEL_EQUAL: t = 1.5; break;
        case SEL_SAME: t = 1.5; tie = 7; break;
        case SEL_TWO: t = rng_below(&r, 2) ? 1.75 : 1.25; break;
        case SEL_ORGAN: t = 1 + (double)(i < n / 2 ? i : n - i) / n; break;
        case SEL_SORTED: t = 1 + (double)i / n; break;
        case SEL_REVERSE: t = 1 + (double)(n - 1 - i) / n; break;
        case SEL_ONE_OUT: t = 1 + (double)rank / n; tie = (uint32_t)rank; break;
        case SEL_RUNS_OUT: t = 1 + (double)(rank / 1000) / 1024; tie = (uint32_t)rank; break;
        default: t = 1 + rng_unit(&r) / 2; tie = (uint32_t)rng_below(&r, 1u << 30); break;
        }
        all[i] = (struct ref){t, tie, i};
        rq_push(q, t, tie, i);
    }
    qsort(all, (size_t)n, sizeof *all, ref_cmp);
    size_t dropped = rq_trim(q, (size_t)keep);
    int good = 0;
    for (int i = 0; i < keep; i++) {
        struct rq_item it;
        good += rq_take(q, INFINITY, &it) && rq_time(&it) == all[i].t && it.tie == all[i].tie;
    }
    ok(dropped == (size_t)(n - keep) && good == keep && q->len == 0,
       "radixq: cut of %d to %d, %s: the %d smallest in order (%d good)", n, keep,
       select_names[order], keep, good);
    ok(q->trim_steps <= 32 * (uint64_t)n, "radixq: cut of %d to %d, %s: linear (%.1f passes)", n,
       keep, select_names[order], (double)q->trim_steps / n);
    free(all);
    rq_free(q);
    free(q);
}

/* A short run (at most RQ_LONG items of one time) of many ascending
 * stretches is quicksorted by tie; sorted with `nout` items out of place,
 * the middle of three goes deep, and the radix sort takes over. */
static void test_radixq_short_run(int n, int nout)
{
    struct radixq *q = xmalloc(sizeof *q);
    rq_init(q);
    struct ref *all = xmalloc((size_t)n * sizeof *all);
    for (int i = 0; i < n; i++) {
        uint32_t tie = 2 * (uint32_t)i;
        if (i % (n / nout) == n / nout - 1)
            tie = (uint32_t)(i / 7) * 2 + 1;   /* out of place: an odd tie far below */
        all[i] = (struct ref){3.0, tie, i};
        rq_push(q, 3.0, tie, i);
    }
    qsort(all, (size_t)n, sizeof *all, ref_cmp);
    int same = pop_matching(q, all, n);
    is_int(same, n, "radixq: a run of %d equal times, %d ties out of place: in order", n, nout);
    free(all);
    rq_free(q);
    free(q);
}

/*
 * rq_trim cutting into a long run: nrun items at time 1 and a few later,
 * `popped` taken, then neq pushed at time 1 (the heap, ties in among the
 * run's), then a trim to `keep`.  What stays must be exactly the smallest
 * items, in order (a drain compared with the reference), the cut exact when
 * the heap holds nothing of the run's time; later pushes reuse the blocks
 * of the cut tail without touching what stays.
 */
static void test_radixq_trim_run(uint64_t seed, int nrun, int popped, int neq, int keep)
{
    struct radixq *q = xmalloc(sizeof *q);
    rq_init(q);
    struct rng r;
    rng_seed(&r, seed);
    int cap = nrun + 1000 + neq + 3 * nrun, n = 0;
    struct ref *all = xmalloc((size_t)cap * sizeof *all);
    uint32_t *perm = shuffled(&r, nrun);
    for (int i = 0; i < nrun + 1000; i++, n++) {
        all[n] = i < nrun ? (struct ref){1.0, 2 * perm[i] * 2049u, n}
                          : (struct ref){2.0 + (double)rng_below(&r, 3), (uint32_t)i, n};
        rq_push(q, all[n].t, all[n].tie, all[n].val);
    }
    qsort(all, (size_t)n, sizeof *all, ref_cmp);
    int same = pop_matching(q, all, popped);
    for (int i = 0; i < neq; i++, n++) {
        all[n] = (struct ref){1.0, 2 * (uint32_t)rng_below(&r, (uint64_t)nrun * 2049u) + 1, n};
        rq_push(q, all[n].t, all[n].tie, all[n].val);
    }
    /* what is in the queue now, in order */
    memmove(all, all + popped, (size_t)(n - popped) * sizeof *all);
    n -= popped;
    qsort(all, (size_t)n, sizeof *all, ref_cmp);
    size_t before = q->len, dropped = rq_trim(q, (size_t)keep);
    int kept = (int)q->len;
    ok(q->len + dropped == before && q->len >= (size_t)keep && (neq > 0 || q->len == (size_t)keep),
       "radixq: trim of a run to %d (%d in the heap at its time): %zu of %zu kept", keep, neq,
       q->len, before);
    /* later items, into the blocks of the cut tail */
    for (int i = 0; i < 2 * nrun; i++)
        rq_push(q, 10.0 + (double)(i % 7), (uint32_t)i, -1 - i);
    int good = 0;
    for (int i = 0; i < kept; i++) {
        struct rq_item it;
        good += rq_take(q, INFINITY, &it) && rq_time(&it) == all[i].t && it.tie == all[i].tie &&
                it.val == all[i].val;
    }
    const struct rq_item *next = rq_top(q);
    ok(same == popped && good == kept && next && rq_time(next) == 10.0,
       "radixq: after the trim exactly the %d smallest come out, in order (%d good)", kept, good);
    free(perm);
    free(all);
    rq_free(q);
    free(q);
}

/* ---- clusters ---- */

static struct cluster *finish(struct cluster *c)
{
    struct diag d;
    diag_init(&d);
    if (cluster_finish(c, &d) < 0)
        diag_print(&d, stdout);
    diag_free(&d);
    return c;
}

/* kind 0: random times (two decimals); 1: the papers' three classes; 2: zero costs. */
static struct cluster *node_table(int n, int kind, uint64_t seed, double latency)
{
    static const double cls[3][2] = {{1, 2}, {5, 6}, {10, 11}};
    struct cluster *c = cluster_new(CLUSTER_NODES);
    struct rng r;
    rng_seed(&r, seed);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        double s = 0, rv = 0;
        if (kind == 0) {
            s = 1 + (double)rng_below(&r, 901) / 100;
            rv = (double)rng_below(&r, 1101) / 100;
        } else if (kind == 1) {
            int k = (int)rng_below(&r, 3);
            s = cls[k][0];
            rv = cls[k][1];
        }
        cluster_add_node(c, name, s, rv);
    }
    c->latency = latency;
    c->source = (int)rng_below(&r, (uint64_t)n);
    return finish(c);
}

static struct cluster *matrix(int n, uint64_t seed)
{
    struct cluster *c = cluster_new(CLUSTER_MATRIX);
    struct rng r;
    rng_seed(&r, seed);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "m%d", i);
        cluster_add_node(c, name, (double)rng_below(&r, 4), (double)rng_below(&r, 3));
    }
    c->dist = xcalloc((size_t)n * (size_t)n, sizeof *c->dist);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            c->dist[i * n + j] = i == j ? 0 : (double)rng_below(&r, 5);
    return finish(c);
}

static struct cluster *graph(int n, uint64_t seed)
{
    struct cluster *c = cluster_new(CLUSTER_GRAPH);
    struct rng r;
    rng_seed(&r, seed);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "g%d", i);
        cluster_add_node(c, name, 0, 0);
    }
    for (int i = 1; i < n; i++) {   /* a random tree both ways, and some more */
        int j = (int)rng_below(&r, (uint64_t)i);
        cluster_add_edge(c, j, i, 1 + (double)rng_below(&r, 5), 0.5 + (double)rng_below(&r, 2));
        cluster_add_edge(c, i, j, 1 + (double)rng_below(&r, 5), -1);
    }
    for (int k = 0; k < n; k++) {
        int a = (int)rng_below(&r, (uint64_t)n), b = (int)rng_below(&r, (uint64_t)n);
        if (a != b && !(c->edge_of && c->edge_of[a * n + b] >= 0)) {
            bool dup = false;
            for (int e = 0; e < c->nedges; e++)
                dup = dup || (c->edges[e].from == a && c->edges[e].to == b);
            if (!dup)
                cluster_add_edge(c, a, b, 1 + (double)rng_below(&r, 5), -1);
        }
    }
    return finish(c);
}

/* ---- full against lean ---- */

struct recorded {
    struct event *ev;
    int *from, *to;
    int n, cap;
};

static void record(void *ctx, const struct engine *e, const struct event *ev, int from, int to)
{
    (void)e;
    struct recorded *r = ctx;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->ev = xrealloc(r->ev, (size_t)r->cap * sizeof *r->ev);
        r->from = xrealloc(r->from, (size_t)r->cap * sizeof *r->from);
        r->to = xrealloc(r->to, (size_t)r->cap * sizeof *r->to);
    }
    r->ev[r->n] = *ev;
    r->from[r->n] = from;
    r->to[r->n++] = to;
}

enum mode { FULL, LEAN, QUIET, RECORDED };

static int run(const struct cluster *c, enum model m, const struct sched_ops *ops, enum mode mode,
               struct recorded *rec, struct engine *e)
{
    bool lean = mode == LEAN || mode == QUIET;
    struct sched s;
    struct sched_opts o;
    sched_opts_default(&o);
    o.seed = 5;
    char *cause = NULL;
    int rc = engine_init(e, c, m, &cause);
    if (rc == 0 && mode == LEAN)
        rc = engine_set_lean(e, record, rec, &cause);
    if (rc == 0 && mode == QUIET)
        rc = engine_set_quiet(e, &cause);
    e->reasons_later = mode == RECORDED;   /* a list run's records, where it applies */
    if (rc == 0) {
        sched_init(&s, ops, &o);
        rc = sched_run(e, &s, &cause);
        sched_free(&s);
    }
    if (rc < 0)
        diag("%s on %s (%s, %s): %s", ops->name, c->name ? c->name : "?", model_name(m),
             lean ? "lean" : "full", cause ? cause : "?");
    free(cause);
    return rc;
}

/* Counts of cases that differ, by what differs; recorded: runs whose full
 * records came from a lean list run (engine_record_lean). */
struct tally {
    int runs, makespan, tree, events, order, late, quiet, records, recorded;
};

/* A full engine whose reasons wait to be read has the records, ports, tree,
 * timeline and reasons of one booked decision by decision with its reasons
 * written at once. */
static bool same_records(const struct engine *a, const struct engine *b)
{
    bool same = a->makespan == b->makespan && a->ntr == b->ntr && a->nev == b->nev &&
                a->nwaiting == b->nwaiting && !b->lean && !b->recording && b->ev;
    for (int p = 0; same && p < a->n; p++)
        same = a->parent[p] == b->parent[p] && a->hold[p] == b->hold[p] &&
               a->send_free[p] == b->send_free[p] && a->recv_free[p] == b->recv_free[p];
    for (int i = 0; same && i < a->ntr; i++) {
        const struct transfer *x = &a->tr[i], *y = &b->tr[i];
        struct timing tx = transfer_times(x), ty = transfer_times(y);
        char *tmpx = NULL, *tmpy = NULL;
        same = x->from == y->from && x->to == y->to && x->msg == y->msg && x->seq == y->seq &&
               memcmp(&tx, &ty, sizeof tx) == 0 && x->wait_start == y->wait_start &&
               strcmp(engine_reason(a, x, &tmpx), engine_reason(b, y, &tmpy)) == 0;
        free(tmpx);
        free(tmpy);
    }
    for (int k = 0; same && k < a->nev; k++)
        same = a->ev[k].time == b->ev[k].time && a->ev[k].seq == b->ev[k].seq &&
               a->ev[k].kind == b->ev[k].kind && a->ev[k].transfer == b->ev[k].transfer;
    return same;
}

/* A quiet engine books as the lean one: the same bookings, nodes, events
 * counted and the last booking, and nothing left queued. */
static bool same_as_quiet(const struct engine *lean, const struct engine *q, int n)
{
    bool same = lean->makespan == q->makespan && lean->ntr == q->ntr && lean->nev == q->nev &&
                q->stream->len == 0 && q->late == 0;
    for (int p = 0; same && p < n; p++)
        same = lean->parent[p] == q->parent[p] && lean->hold[p] == q->hold[p] &&
               lean->send_free[p] == q->send_free[p];
    const struct transfer *a = engine_transfer(lean, lean->ntr - 1),
                          *b = engine_transfer(q, q->ntr - 1);
    if (same && a && b)
        same = a->from == b->from && a->to == b->to && a->start == b->start && a->hold == b->hold;
    return same && (a == NULL) == (b == NULL);
}

static void compare(const struct cluster *c, enum model m, const struct sched_ops *ops,
                    struct tally *t)
{
    struct engine full, lean, quiet, recd;
    struct recorded rec = {0};
    int a = run(c, m, ops, FULL, NULL, &full), b = run(c, m, ops, LEAN, &rec, &lean),
        q = run(c, m, ops, QUIET, NULL, &quiet), r = run(c, m, ops, RECORDED, NULL, &recd);
    t->runs++;
    if (a < 0 || b < 0 || q < 0 || r < 0) {
        t->makespan++;
        if (r == 0)
            engine_free(&recd);
        if (a == 0)
            engine_free(&full);
        if (b == 0)
            engine_free(&lean);
        if (q == 0)
            engine_free(&quiet);
        free(rec.ev);
        free(rec.from);
        free(rec.to);
        return;
    }
    if (full.makespan != lean.makespan || full.ntr != lean.ntr)
        t->makespan++;
    bool tree = true;
    for (int p = 0; p < c->n; p++)
        tree = tree && full.parent[p] == lean.parent[p] && full.hold[p] == lean.hold[p];
    if (!tree)
        t->tree++;
    if (full.nev != lean.nev || rec.n != full.nev)
        t->events++;
    bool same = true;
    for (int k = 0; k < rec.n && k < full.nev && same; k++) {
        const struct event *f = &full.ev[k], *l = &rec.ev[k];
        const struct transfer *tr = &full.tr[f->transfer];
        same = f->time == l->time && f->kind == l->kind && f->transfer == l->transfer &&
               tr->from == rec.from[k] && tr->to == rec.to[k];
        if (!same)
            diag("%s %s n=%d: event %d differs: full (t=%.17g kind %d #%d) lean (t=%.17g kind %d "
                 "#%d)", ops->name, model_name(m), c->n, k, f->time, f->kind, f->transfer,
                 l->time, l->kind, l->transfer);
    }
    if (!same)
        t->order++;
    if (lean.late)
        t->late++;
    if (!same_as_quiet(&lean, &quiet, c->n))
        t->quiet++;
    if (!same_records(&full, &recd))
        t->records++;
    /* booked one by one, the records grow by doubling from 64: a list run's are exactly n - 1 */
    t->recorded += recd.trcap == recd.ntr && recd.ntr % 64 != 0;
    engine_free(&recd);
    engine_free(&full);
    engine_free(&lean);
    engine_free(&quiet);
    free(rec.ev);
    free(rec.from);
    free(rec.to);
}

static void test_full_vs_lean(void)
{
    const struct sched_ops *pol[] = {&sched_fnf, &sched_slowest_first, &sched_random_order,
                                     &sched_random_pair, &sched_fef};
    struct tally t = {0};
    for (int seed = 1; seed <= 6; seed++) {
        int sizes[] = {1, 2, 3, 17, 200};
        for (int si = 0; si < 5; si++)
            for (int kind = 0; kind < 3; kind++) {
                struct cluster *c = node_table(sizes[si], kind, (uint64_t)(seed * 100 + si), kind == 2 ? 0 : 1);
                for (int m = 0; m < MODEL_COUNT; m++)
                    for (size_t p = 0; p < sizeof pol / sizeof pol[0]; p++)
                        if (model_mask_for(c->kind) & MODEL_BIT(m))
                            compare(c, (enum model)m, pol[p], &t);
                cluster_free(c);
            }
        struct cluster *mx = matrix(30, (uint64_t)seed);
        for (int m = 0; m < MODEL_COUNT; m++)
            for (size_t p = 0; p < sizeof pol / sizeof pol[0]; p++)
                if (model_mask_for(mx->kind) & MODEL_BIT(m))
                    compare(mx, (enum model)m, pol[p], &t);
        cluster_free(mx);
        struct cluster *g = graph(25, (uint64_t)seed);
        compare(g, MODEL_ONE_PORT, &sched_fef, &t);
        compare(g, MODEL_MULTI_PORT, &sched_fef, &t);
        compare(g, MODEL_ONE_PORT_UNI, &sched_fef, &t);
        cluster_free(g);
        /* large enough for fnf's senders to be trimmed through several levels */
        struct cluster *big = node_table(20000, seed % 3, (uint64_t)(seed * 7), 1);
        compare(big, MODEL_ASYNC, &sched_fnf, &t);
        compare(big, MODEL_ASYNC, &sched_slowest_first, &t);
        cluster_free(big);
    }
    ok(t.runs > 2000, "full against lean: %d runs (5 policies, 5 models, 3 kinds)", t.runs);
    is_int(t.makespan, 0, "lean: the same makespan and bookings as full");
    is_int(t.tree, 0, "lean: the same parent and hold time of every node");
    is_int(t.events, 0, "lean: as many events as the full timeline");
    is_int(t.order, 0, "lean: exactly the full timeline's events, in its order");
    is_int(t.late, 0, "lean: no event processed out of order (not_before holds)");
    is_int(t.quiet, 0, "quiet: the lean run's bookings, nodes and event count, nothing queued");
    is_int(t.records, 0, "recorded: a full engine's records from a list run as booked one by one, "
           "reasons, ports and timeline included");
    ok(t.recorded > 100, "recorded: %d runs of the list policies took their records from a list run",
       t.recorded);
}

/* A list run keeps the send times as ids of the distinct ones up to
 * LEAN_SEND_IDS of them, and the times themselves beyond (engine/engine_lean.h):
 * both ways, and the switch in the middle of the run's order, book as the
 * full engine. */
static void test_many_send_times(void)
{
    int distinct[] = {LEAN_SEND_IDS, LEAN_SEND_IDS + 1, 0};
    struct tally t = {0};
    for (int k = 0; k < 3; k++) {
        int n = LEAN_SEND_IDS + 1000;
        struct cluster *c = cluster_new(CLUSTER_NODES);
        struct rng r;
        rng_seed(&r, (uint64_t)(77 + k));
        for (int i = 0; i < n; i++) {
            char name[16];
            snprintf(name, sizeof name, "p%d", i);
            /* distinct[k] times in turn (0: all different), the receive times at random */
            int which = distinct[k] ? i % distinct[k] : i;
            cluster_add_node(c, name, 1 + which / 1024.0, (double)rng_below(&r, 1101) / 100);
        }
        c->latency = 1;
        c->source = (int)rng_below(&r, (uint64_t)n);
        finish(c);
        compare(c, MODEL_ASYNC, &sched_fnf, &t);
        if (k == 2)   /* not sorted by send time */
            compare(c, MODEL_ASYNC, &sched_random_order, &t);
        cluster_free(c);
    }
    is_int(t.runs, 4, "send times: 4 runs with %d to %d distinct send times", LEAN_SEND_IDS,
           LEAN_SEND_IDS + 1000);
    ok(t.makespan == 0 && t.tree == 0 && t.events == 0 && t.order == 0 && t.late == 0 &&
           t.quiet == 0 && t.records == 0 && t.recorded == 4,
       "send times: kept as ids or as times, the lean, quiet and recorded runs book as the full "
       "engine");
}

/* ---- fnf against the obvious fnf ---- */

static void test_fnf_reference(void)
{
    int differ = 0, cases = 0;
    for (int seed = 1; seed <= 8; seed++)
        for (int kind = 0; kind < 3; kind++)
            for (int m = 0; m < MODEL_COUNT; m++) {
                if (!(model_mask_for(CLUSTER_NODES) & MODEL_BIT(m)))
                    continue;   /* one-port-uni: platform graphs only */
                struct cluster *c = node_table(60, kind, (uint64_t)(1000 + seed), kind == 2 ? 0 : 1);
                struct engine e, ref;
                char *cause = NULL;
                if (run(c, (enum model)m, &sched_fnf, false, NULL, &e) < 0 ||
                    engine_init(&ref, c, (enum model)m, &cause) < 0) {
                    differ++;
                    cluster_free(c);
                    continue;
                }
                /* SPEC §2 as written: O(n) scans for the sender and the receiver. */
                int k = 0;
                bool same = true;
                while (ref.nwaiting > 0 && same) {
                    int q = sched_fnf_sender(&ref, 0, NULL), p = sched_fastest_waiting(&ref, 0);
                    same = k < e.ntr && e.tr[k].from == q && e.tr[k].to == p &&
                           engine_book(&ref, q, p, 0, NULL, &cause) == 0;
                    k++;
                }
                differ += !same || ref.makespan != e.makespan;
                cases++;
                free(cause);
                engine_free(&e);
                engine_free(&ref);
                cluster_free(c);
            }
    is_int(differ, 0, "fnf makes the decisions of the O(n^2) reference (%d cases, ties included)",
           cases);
}

/* ---- fnf's and slowest-first's receiver order against qsort ---- */

static const struct node *g_sort_nodes;
static bool g_by_recv, g_desc;

/* The order cluster_sort_nodes promises, in doubles: -0 and +0 are one time. */
static int cmp_nodes(const void *x, const void *y)
{
    int i = *(const int *)x, j = *(const int *)y;
    const struct node *a = &g_sort_nodes[i], *b = &g_sort_nodes[j];
    double a1 = g_by_recv ? a->recv : a->send, b1 = g_by_recv ? b->recv : b->send;
    double a2 = g_by_recv ? a->send : a->recv, b2 = g_by_recv ? b->send : b->recv;
    int sign = g_desc ? -1 : 1;
    if (a1 != b1)
        return a1 < b1 ? -sign : sign;
    if (a2 != b2)
        return a2 < b2 ? -sign : sign;
    return i < j ? -1 : i > j;
}

/* kind 0: 3 classes; 1: two decimals; 2: few sends, continuous receives;
 * 3: all one node; 4: +0 and -0 among a few values of both times. */
static void test_sort_nodes(void)
{
    int bad = 0, cases = 0;
    int sizes[] = {1, 2, 3, 7, 100, 5000, 120000};
    for (int kind = 0; kind < 5; kind++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            int n = sizes[si];
            struct rng r;
            rng_seed(&r, (uint64_t)(kind * 100 + (int)si));
            struct node *nodes = xcalloc((size_t)n, sizeof *nodes);
            for (int i = 0; i < n; i++) {
                int k = (int)rng_below(&r, 3);
                double v[] = {1, 5, 10, 0.0, -0.0};
                switch (kind) {
                case 0:
                    nodes[i].send = v[k];
                    nodes[i].recv = v[k] + 1;
                    break;
                case 1:
                    nodes[i].send = 1 + (double)rng_below(&r, 901) / 100;
                    nodes[i].recv = (double)rng_below(&r, 1101) / 100;
                    break;
                case 2:
                    nodes[i].send = v[k];
                    nodes[i].recv = rng_unit(&r) * 10;
                    break;
                case 3:
                    nodes[i].send = 2;
                    nodes[i].recv = 3;
                    break;
                default: {
                    static const double rv[] = {0.0, -0.0, 2.5, 7};
                    nodes[i].send = v[2 + k];
                    nodes[i].recv = rv[rng_below(&r, 4)];
                    break;
                }
                }
            }
            for (int how = 0; how < 2; how++) {
                int *got = xmalloc((size_t)n * sizeof *got), *want = xmalloc((size_t)n * sizeof *want);
                for (int i = 0; i < n; i++)
                    got[i] = want[i] = i;
                g_sort_nodes = nodes;
                g_by_recv = g_desc = how == 1;   /* fnf, then slowest-first */
                cluster_sort_nodes(nodes, got, n, g_by_recv, g_desc);
                qsort(want, (size_t)n, sizeof *want, cmp_nodes);
                bool same = memcmp(got, want, (size_t)n * sizeof *got) == 0;
                if (!same)
                    diag("kind %d n=%d %s: the order differs from qsort's", kind, n,
                         how ? "slowest-first" : "fnf");
                bad += !same;
                cases++;
                free(got);
                free(want);
            }
            free(nodes);
        }
    is_int(bad, 0, "receivers sorted as qsort sorts them (%d cases: few and many pairs, ties, -0)",
           cases);
}

/* ---- what a lean engine refuses, and reset ---- */

static void test_refusals_and_reset(void)
{
    struct cluster *c = node_table(50, 0, 3, 1);
    struct engine e;
    char *cause = NULL;
    engine_init(&e, c, MODEL_ASYNC, &cause);
    engine_book(&e, c->source, c->source == 0 ? 1 : 0, 0, NULL, &cause);
    int rc = engine_set_lean(&e, NULL, NULL, &cause);
    ok(rc < 0 && cause && strstr(cause, "first booking"), "lean: refused after a booking (%s)",
       cause ? cause : "");
    engine_free(&e);
    free(cause);
    cause = NULL;
    engine_init_messages(&e, c, MODEL_ASYNC, 3, &cause);
    ok(engine_set_lean(&e, NULL, NULL, &cause) < 0, "lean: refused for several messages");
    engine_free(&e);
    free(cause);
    cause = NULL;

    /* A policy that reads the records refuses a lean engine. */
    engine_init(&e, c, MODEL_ASYNC, &cause);
    engine_set_lean(&e, NULL, NULL, &cause);
    struct sched s;
    sched_init(&s, &sched_optimal, NULL);
    rc = sched_run(&e, &s, &cause);
    ok(rc < 0 && cause && strstr(cause, "full engine"), "lean: optimal needs the full engine (%s)",
       cause ? cause : "");
    sched_free(&s);
    free(cause);
    cause = NULL;
    ok(engine_transfer(&e, 0) == NULL, "lean: no booking, no transfer");

    /* Run, reset, run again: the same result, and no records ever. */
    sched_init(&s, &sched_fnf, NULL);
    sched_run(&e, &s, &cause);
    sched_free(&s);
    double first = e.makespan;
    int events = e.nev;
    ok(e.tr == NULL && e.ev == NULL && e.ntr == 49 && engine_transfer(&e, 48) == &e.last &&
       engine_transfer(&e, 47) == NULL, "lean: 49 bookings counted, none kept but the last");
    char buf[128];
    engine_narrate(&e, 3, buf, sizeof buf);
    ok(strstr(buf, "lean") != NULL, "lean: narration says there is no timeline");
    engine_reset(&e);
    ok(e.nwaiting == 49 && e.ntr == 0 && e.nev == 0 && e.makespan == 0, "lean: reset forgets all");
    sched_init(&s, &sched_fnf, NULL);
    sched_run(&e, &s, &cause);
    sched_free(&s);
    ok(e.makespan == first && e.nev == events, "lean: a run after reset is the same run");
    engine_free(&e);
    free(cause);
    cluster_free(c);
}

int main(void)
{
    test_radixq_sorts(1, 10, 0);
    test_radixq_sorts(2, 5000, 0);
    test_radixq_sorts(3, 20000, 1);
    test_radixq_sorts(4, 20000, 100);   /* 10 distinct times: long runs of ties */
    test_radixq_sorts(5, 60000, 500);   /* 2 times: runs of 30000, sorted in place by bytes */
    for (int k = 1; k <= 12; k++)   /* 1 to 12 stretches a run */
        test_radixq_stretches(10 + (uint64_t)k, k, 200, 3);
    test_radixq_stretches(30, 5, 4, 2);        /* short runs: insertion sort */
    test_radixq_stretches(31, 7, 700, 1);      /* past 4096: the radix sort */
    test_radixq_loop();
    test_radixq_long_runs(50, 30000, 0, 0, 0);
    test_radixq_long_runs(51, 30000, 0, 0, 1);
    test_radixq_long_runs(52, 9000, 6000, 3000, 2);
    test_radixq_long_runs(53, 4096, 1, 5000, 1);     /* the longest run merged */
    test_radixq_long_runs(54, 4097, 0, 0, 1);        /* one item past it */
    test_radixq_long_runs(55, 64 * 100, 100, 0, 1);  /* whole blocks */
    test_radixq_trim(40, 20000, 100, 9000, 0);
    test_radixq_trim(41, 20000, 0, 19999, 0);
    test_radixq_trim(42, 20000, 5000, 1, 0);
    test_radixq_trim(43, 20000, 10, 0, 0);
    test_radixq_trim(44, 30000, 7, 20000, 50);   /* 20 times: long runs of ties */
    test_radixq_trim(45, 20000, 100, 9000, -1);
    test_radixq_trim(46, 20000, 3, 15000, -1);
    test_radixq_blocks(60, 5000, 0, 0, 0, 0, 0, 1);             /* just past RQ_LONG */
    test_radixq_blocks(61, 120000, 0, 0, 0, 0, 0, 1);           /* > 10^5, all one key */
    test_radixq_blocks(62, 120000, 1, 0, 0, 0, 0, 1);           /* nearly sorted */
    test_radixq_blocks(63, 100001, 0, 30000, 5000, 0, 1, 1);    /* compacted, later pushes */
    test_radixq_blocks(64, 100001, 1, 30000, 5000, 0, 2, 1);
    test_radixq_blocks(65, 20000, 0, 7000, 3000, 1, 1, 0);      /* equal times pushed too */
    test_radixq_blocks(66, 110000, 1, 20000, 0, 2, 1, 0);
    test_radixq_one_copy(100000);
    test_radixq_trim_run(70, 50000, 100, 0, 20000);
    test_radixq_trim_run(71, 50000, 1000, 0, 48999);   /* all but the last item */
    test_radixq_trim_run(72, 50000, 64 * 3, 0, 0);     /* the whole run, mid-block */
    test_radixq_trim_run(73, 50000, 64 * 3, 0, 64 * 5); /* cut on a block boundary */
    test_radixq_trim_run(74, 50000, 100, 300, 20000);  /* heap items of the run's time */
    test_radixq_trim_run(75, 9000, 10, 5, 100);
    test_radixq_trim_bucket(80, 50000, 1 << 20, 0, 20000);   /* distinct times, mostly */
    test_radixq_trim_bucket(81, 50000, 7, 0, 20000);         /* 7 times: ties decide */
    test_radixq_trim_bucket(82, 50000, 3, 0, 1);
    test_radixq_trim_bucket(83, 50000, 1000, 0, 30000);      /* less than half beyond */
    test_radixq_trim_bucket(84, 50000, 50, 2000, 10000);     /* after a refill */
    test_radixq_trim_bucket(85, 100000, 1 << 16, 0, 64 * 700); /* on a block boundary */
    test_radixq_trim_many();
    for (int o = SEL_EQUAL; o <= SEL_RANDOM; o++) {
        test_radixq_select((enum select_order)o, 50000, 25000);
        test_radixq_select((enum select_order)o, 50001, 1);
        test_radixq_select((enum select_order)o, 30000, 9999);
    }
    test_radixq_short_run(4096, 20);
    test_radixq_short_run(3000, 9);
    test_fnf_reference();
    test_many_send_times();
    test_sort_nodes();
    test_full_vs_lean();
    test_refusals_and_reset();
    return tap_exit();
}
