/*
 * sched/relay.c - relay-fnf (sched/relay.h): fnf on the targets and the
 * fastest non-targets, as many of them as end the multicast first.
 *
 * Each trial is fnf (sched/list.h) on a shallow copy of the cluster whose
 * target marks also hold the j relays: the copy shares the nodes, distances
 * and edges and owns only its marks.  The trial's bookings are recorded, and
 * choose() hands the best trial's out again; the engine books them on the
 * real cluster at the same times (a booking depends only on those before
 * it), where only the true targets count for the makespan.
 */
#include "sched/relay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/targets.h"
#include "sched/list.h"

#define RELAY_ALL_UP_TO 64   /* every j up to this, then powers of two */

struct relay_state {
    int *from, *to;          /* the chosen trial's bookings */
    int len, next, cap;
    unsigned char *relay;    /* relay[p]: p is a non-target the chosen trial serves */
    int nrelays;             /* relays enlisted (the j of the chosen trial) */
    double makespan, alone;  /* the chosen trial's and fnf's on the targets alone (j = 0) */
};

struct trial {
    int *from, *to;
    double *hold;
    int len, cap;
};

static void trial_free(struct trial *t)
{
    free(t->from);
    free(t->to);
    free(t->hold);
    *t = (struct trial){0};
}

/* The j of the trial after j among ncand candidates; beyond ncand: no more. */
static int next_j(int j, int ncand)
{
    if (j < RELAY_ALL_UP_TO || j >= ncand)
        return j + 1;
    return 2 * j < ncand ? 2 * j : ncand;
}

static void on_book(void *ctx, int seq, int from, int to, const struct timing *tm)
{
    (void)seq;
    struct trial *t = ctx;
    if (t->len == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->from = xrealloc(t->from, (size_t)t->cap * sizeof *t->from);
        t->to = xrealloc(t->to, (size_t)t->cap * sizeof *t->to);
        t->hold = xrealloc(t->hold, (size_t)t->cap * sizeof *t->hold);
    }
    t->from[t->len] = from;
    t->hold[t->len] = tm->hold;
    t->to[t->len++] = to;
}

/* fnf on c's targets plus the first j of cand[]; the latest hold of a true
 * target, or -1 with *cause.  *t gets the bookings. */
static double run_trial(const struct cluster *c, enum model m, const int *cand, int j,
                        const struct sched_opts *o, struct trial *t, char **cause)
{
    struct cluster copy = *c;
    if (c->target) {
        copy.target = xmalloc((size_t)c->n);
        memcpy(copy.target, c->target, (size_t)c->n);
        copy.ntargets = c->ntargets + j;
        for (int i = 0; i < j; i++)
            copy.target[cand[i]] = 1;
    }
    t->len = 0;
    struct engine e;
    struct sched s;
    double ms = -1;
    if (engine_init(&e, &copy, m, cause) < 0) {
        if (c->target)
            free(copy.target);
        return -1;
    }
    sched_init(&s, &sched_fnf, o);
    if (engine_set_lean(&e, NULL, NULL, cause) == 0) {
        e.on_book = on_book;
        e.on_book_ctx = t;
        if (sched_run(&e, &s, cause) == 0) {
            ms = 0;
            for (int i = 0; i < t->len; i++)
                if (cluster_is_target(c, t->to[i]))
                    ms = fmax(ms, t->hold[i]);
        }
    }
    sched_free(&s);
    engine_free(&e);
    if (c->target)
        free(copy.target);
    return ms;
}

static void relay_finish(struct sched *s)
{
    struct relay_state *st = s->state;
    free(st->from);
    free(st->to);
    free(st->relay);
    free(st);
    s->state = NULL;
}

static int relay_prepare(struct sched *s, struct engine *e, char **cause)
{
    const struct cluster *c = e->c;
    struct relay_state *st = xcalloc(1, sizeof *st);
    st->relay = xcalloc((size_t)c->n, 1);
    s->state = st;
    int *cand = xmalloc((size_t)c->n * sizeof *cand), ncand = 0;
    for (int p = 0; c->target && p < c->n; p++)
        if (!c->target[p] && p != c->source)
            cand[ncand++] = p;
    cluster_sort_nodes(c->nodes, cand, ncand, false, false);
    struct sched_opts o = s->opt;
    o.lean = false;
    o.on_book = NULL;
    struct trial t = {0};
    st->makespan = INFINITY;
    int best_j = 0;
    for (int j = 0; j <= ncand; j = next_j(j, ncand)) {
        double ms = run_trial(c, e->model, cand, j, &o, &t, cause);
        if (ms < 0) {
            free(cand);
            trial_free(&t);
            return -1;
        }
        if (j == 0)
            st->alone = ms;
        if (ms < st->makespan) {
            st->makespan = ms;
            best_j = j;
            free(st->from);
            free(st->to);
            free(t.hold);
            st->from = t.from;
            st->to = t.to;
            st->len = t.len;
            t = (struct trial){0};
        }
    }
    st->nrelays = best_j;
    for (int i = 0; i < best_j; i++)
        st->relay[cand[i]] = 1;
    free(cand);
    trial_free(&t);
    return 0;
}

static int relay_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    (void)cause;
    struct relay_state *st = s->state;
    if (st->next >= st->len)
        return SCHED_DONE;
    int q = st->from[st->next], p = st->to[st->next];
    st->next++;
    d->from = q;
    d->to = p;
    d->msg = 0;
    if (!e->lean) {
        const char *qn = e->c->nodes[q].name, *pn = e->c->nodes[p].name;
        if (st->relay[p])
            d->reason = xasprintf("%s serves %s, a relay: fnf on the targets and the %d fastest "
                                  "other node%s ends at t=%g, on the targets alone at t=%g", qn, pn,
                                  st->nrelays, st->nrelays == 1 ? "" : "s", st->makespan, st->alone);
        else
            d->reason = xasprintf("%s serves the target %s, as fnf does on the targets%s", qn, pn,
                                  st->nrelays ? " and the relays" : "");
    }
    return SCHED_DECIDED;
}

const struct sched_ops sched_relay_fnf = {
    .name = "relay-fnf",
    .summary = "multicast: fnf on the targets and as many of the fastest other nodes as end it first",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX),
    .models = MODEL_ALL,
    .multicast = true,
    .lean = true,   /* reads no booking: hands out the chosen trial's */
    .prepare = relay_prepare,
    .choose = relay_choose,
    .finish = relay_finish,
};
