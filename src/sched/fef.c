/*
 * sched/fef.c - fef, fastest edge first (Bhat et al.; SPEC §2): the waiting
 * node with the cheapest transfer from any holder is served next.  On a node
 * table with the fast paths on, fef_fast.c gives the same decisions.
 */
#include "sched/fef.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched/fef_fast.h"
#include "support/fastpath.h"

/* ---- fef: fastest edge first (Bhat et al.) ----
 * best[p] caches the cheapest transfer into waiting p from any holder; a new
 * holder updates it for every waiting node: O(n) per decision, O(n^2) in all.
 * On a node table with the fast paths on, sched/fef_fast.c gives the same
 * decisions in O(n log n) in all (10^6 nodes); matrices and graphs have at
 * most 4096 nodes. */

struct fef_state {
    double *cost;   /* cheapest known transfer time into p */
    int *from;      /* its sender, -1 if none */
    int seen;
    struct fef_fast *fast;   /* node tables, fast paths on: the O(log n) choice */
};

static double transfer_time(const struct engine *e, int q, int p, bool *ok)
{
    struct cost k;
    *ok = timing_cost(e->c, q, p, &k);
    return k.T;
}

static void fef_offer(struct fef_state *st, const struct engine *e, int q)
{
    for (int p = 0; p < e->n; p++) {
        if (p == q || engine_holds(e, p, 0))
            continue;
        bool ok;
        double t = transfer_time(e, q, p, &ok);
        if (ok && (st->from[p] < 0 || t < st->cost[p] || (t == st->cost[p] && q < st->from[p]))) {
            st->cost[p] = t;
            st->from[p] = q;
        }
    }
}

static int fef_prepare(struct sched *s, struct engine *e, char **cause)
{
    (void)cause;
    struct fef_state *st = xcalloc(1, sizeof *st);
    s->state = st;
    if (FAST_PATH((st->fast = fef_fast_new(e->c)) != NULL)) {
        for (int q = 0; q < e->n; q++)
            if (engine_holds(e, q, 0))
                fef_fast_hold(st->fast, q);
        st->seen = e->ntr;
        return 0;
    }
    st->cost = xmalloc((size_t)e->n * sizeof(double));
    st->from = xmalloc((size_t)e->n * sizeof(int));
    for (int p = 0; p < e->n; p++)
        st->from[p] = -1;
    for (int q = 0; q < e->n; q++)
        if (engine_holds(e, q, 0))
            fef_offer(st, e, q);
    st->seen = e->ntr;
    return 0;
}

/* The readable choice: the waiting node with the cheapest known transfer
 * (ties: the lower sender, then the lower node); -1 if none.  O(n). */
static int fef_scan(const struct fef_state *st, const struct engine *e, int *from, double *cost)
{
    int best = -1;
    for (int p = 0; p < e->n; p++) {
        if (engine_holds(e, p, 0) || st->from[p] < 0)
            continue;
        if (best < 0 || st->cost[p] < st->cost[best] ||
            (st->cost[p] == st->cost[best] && st->from[p] < st->from[best]))
            best = p;
    }
    if (best >= 0) {
        *from = st->from[best];
        *cost = st->cost[best];
    }
    return best;
}

static int fef_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    struct fef_state *st = s->state;
    for (; st->seen < e->ntr; st->seen++) {
        const struct transfer *t = engine_transfer(e, st->seen);
        if (!t)
            return set_cause(cause, "fef: bookings were made on the lean engine behind its back");
        if (st->fast)
            fef_fast_hold(st->fast, t->to);
        else
            fef_offer(st, e, t->to);
    }
    int best = -1;
    double best_cost = 0;
    if (st->fast) {
        if (!fef_fast_pick(st->fast, &d->from, &best, &best_cost))
            best = -1;
    } else {
        best = fef_scan(st, e, &d->from, &best_cost);
    }
    if (best < 0) {
        if (e->nwaiting > 0)
            return set_cause(cause, "fef: no holder has a link to the %d waiting node%s",
                             e->nwaiting, e->nwaiting == 1 ? "" : "s");
        return SCHED_DONE;
    }
    d->to = best;
    d->msg = 0;
    if (!e->lean)
        d->reason = xasprintf(
                 "%s -> %s is the cheapest transfer from a holder to a waiting node (T=%g)",
                 e->c->nodes[d->from].name, e->c->nodes[best].name, best_cost);
    return SCHED_DECIDED;
}

static void fef_finish(struct sched *s)
{
    struct fef_state *st = s->state;
    fef_fast_free(st->fast);
    free(st->cost);
    free(st->from);
    free(st);
    s->state = NULL;
}

const struct sched_ops sched_fef = {
    .name = "fef",
    .summary = "fastest edge first: the cheapest transfer from a holder to a waiting node",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX) |
             CLUSTER_KIND_BIT(CLUSTER_GRAPH),
    .models = MODEL_ALL,
    .lean = true,
    .prepare = fef_prepare,
    .choose = fef_choose,
    .finish = fef_finish,
};
