/*
 * exercise.c - fnf's next pick and the best reachable makespan from any
 * engine state (exercise.h), for the view's exercise mode.
 *
 * The search keeps one engine per depth and books on copies, so it sees the
 * port models exactly as the engine implements them.  Completeness: any set
 * of further bookings, replayed in order of start time (ties in the order
 * they were made), gives the same transfers, because a transfer's start only
 * depends on bookings that start no later; so trying only choices whose
 * start is not before the previous choice's start still reaches every
 * schedule.  Pruning: the makespan so far, and for each waiting node the
 * earliest any future send can start plus the cheapest transfer into it.
 */
#include "exercise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"

/* Give dst its own buffers, sized for src (dst holds no bookings yet). */
static void eng_alloc_like(struct engine *dst, const struct engine *src)
{
    memset(dst, 0, sizeof *dst);
    size_t n = (size_t)src->n, cells = (size_t)src->nmsg * n;
    dst->hold = xmalloc(cells * sizeof *dst->hold);
    dst->send_free = xmalloc(n * sizeof *dst->send_free);
    dst->recv_free = xmalloc(n * sizeof *dst->recv_free);
    dst->parent = xmalloc(n * sizeof *dst->parent);
    dst->trcap = src->ntr + src->n + 1;
    dst->tr = xmalloc((size_t)dst->trcap * sizeof *dst->tr);
}

/*
 * Make dst (from eng_alloc_like on an engine of the same size) the same
 * state as src.  Scalars are copied wholesale, the arrays into dst's own
 * buffers; copied transfers carry no reason text (the search needs none).
 */
static void eng_assign(struct engine *dst, const struct engine *src)
{
    double *hold = dst->hold, *sf = dst->send_free, *rf = dst->recv_free;
    int *parent = dst->parent, trcap = dst->trcap;
    struct transfer *tr = dst->tr;
    for (int i = 0; i < dst->ntr; i++)
        free(tr[i].reason);
    free(dst->ev);
    if (trcap < src->ntr + 1) {
        trcap = src->ntr + src->n + 1;
        tr = xrealloc(tr, (size_t)trcap * sizeof *tr);
    }
    *dst = *src;
    size_t n = (size_t)src->n, cells = (size_t)src->nmsg * n;
    dst->hold = memcpy(hold, src->hold, cells * sizeof *hold);
    dst->send_free = memcpy(sf, src->send_free, n * sizeof *sf);
    dst->recv_free = memcpy(rf, src->recv_free, n * sizeof *rf);
    dst->parent = memcpy(parent, src->parent, n * sizeof *parent);
    dst->tr = tr;
    dst->trcap = trcap;
    if (src->ntr)
        memcpy(tr, src->tr, (size_t)src->ntr * sizeof *tr);
    for (int i = 0; i < src->ntr; i++)
        tr[i].reason = NULL;
    dst->ev = NULL;
    dst->nev = 0;
}

static struct engine *eng_clone(const struct engine *src)
{
    struct engine *e = xmalloc(sizeof *e);
    eng_alloc_like(e, src);
    eng_assign(e, src);
    return e;
}

static void eng_destroy(struct engine *e)
{
    if (!e)
        return;
    engine_free(e);
    free(e);
}

int exercise_fnf_pick(const struct engine *e, int *from, int *to, char *reason,
                      size_t reason_size, char **cause)
{
    if (e->nmsg != 1)
        return set_cause(cause, "exercise mode needs a broadcast (one message)");
    if (e->nwaiting == 0)
        return set_cause(cause, "every node holds the message already");
    if (sched_check(&sched_fnf, e->c, e->model, cause) < 0)
        return -1;
    struct engine *copy = eng_clone(e);
    struct sched s;
    struct decision d;
    memset(&d, 0, sizeof d);
    sched_init(&s, &sched_fnf, NULL);
    int rc = -1;
    if (!s.ops->prepare || s.ops->prepare(&s, copy, cause) == 0) {
        int r = s.ops->choose(&s, copy, &d, cause);
        if (r == SCHED_DECIDED) {
            *from = d.from;
            *to = d.to;
            if (reason && reason_size)
                snprintf(reason, reason_size, "%s", d.reason);
            rc = 0;
        } else if (r == SCHED_DONE) {
            set_cause(cause, "fnf has nothing to send from here");
        }
    }
    sched_free(&s);
    eng_destroy(copy);
    return rc;
}

/* ---- the exhaustive search ---- */

struct choice {
    int from, to;
    double start, hold;
};

struct search {
    struct engine *lvl;     /* lvl[d]: the state after d further bookings */
    int nlvl;
    const double *dmin;     /* per node: the cheapest transfer into it (start to hold) */
    bool node_table;        /* identical nodes are interchangeable */
    double best;
    int best_from, best_to;
    long long explored, limit;
    bool gave_up;
};

static bool tied(double a, double b)
{
    double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= 1e-9 * (scale > 1 ? scale : 1);
}

static bool below(double a, double b)   /* a < b beyond rounding */
{
    return a < b && !tied(a, b);
}

static int cmp_choice(const void *a, const void *b)
{
    const struct choice *x = a, *y = b;
    if (x->hold != y->hold)
        return x->hold < y->hold ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return x->to < y->to ? -1 : (x->to > y->to);
}

/* In a node table, does an earlier waiting node stand for p (same s and r)? */
static bool waiting_twin(const struct engine *e, int p)
{
    const struct node *np = &e->c->nodes[p];
    for (int o = 0; o < p; o++)
        if (!engine_holds(e, o, 0) && e->c->nodes[o].send == np->send &&
            e->c->nodes[o].recv == np->recv)
            return true;
    return false;
}

/* In a node table, does an earlier holder stand for q (same s, same ready time)? */
static bool holder_twin(const struct engine *e, int q)
{
    double rq = engine_ready(e, q, 0);
    for (int o = 0; o < q; o++)
        if (engine_holds(e, o, 0) && e->c->nodes[o].send == e->c->nodes[q].send &&
            engine_ready(e, o, 0) == rq)
            return true;
    return false;
}

static void dfs(struct search *s, int d, double last_start, int first_from, int first_to)
{
    const struct engine *e = &s->lvl[d];
    if (e->nwaiting == 0) {
        if (below(e->makespan, s->best)) {
            s->best = e->makespan;
            s->best_from = first_from;
            s->best_to = first_to;
        }
        return;
    }
    if (++s->explored > s->limit) {
        s->gave_up = true;
        return;
    }
    /* Every further send starts at or after tmin; each waiting node then
     * needs at least its cheapest transfer. */
    double tmin = INFINITY;
    for (int q = 0; q < e->n; q++)
        if (engine_holds(e, q, 0) && engine_ready(e, q, 0) < tmin)
            tmin = engine_ready(e, q, 0);
    if (tmin < last_start)
        tmin = last_start;
    double lb = e->makespan;
    for (int p = 0; p < e->n; p++)
        if (!engine_holds(e, p, 0) && tmin + s->dmin[p] > lb)
            lb = tmin + s->dmin[p];
    if (!below(lb, s->best))
        return;

    int nh = 0, nw = 0;
    for (int p = 0; p < e->n; p++) {
        if (engine_holds(e, p, 0))
            nh++;
        else
            nw++;
    }
    struct choice *kids = xmalloc((size_t)nh * (size_t)nw * sizeof *kids);
    int nk = 0;
    for (int q = 0; q < e->n; q++) {
        if (!engine_holds(e, q, 0) || (s->node_table && holder_twin(e, q)))
            continue;
        for (int p = 0; p < e->n; p++) {
            struct transfer t;
            if (engine_holds(e, p, 0) || (s->node_table && waiting_twin(e, p)))
                continue;
            if (engine_earliest(e, q, p, 0, &t) < 0 || below(t.start, last_start))
                continue;
            double ms = t.hold > e->makespan ? t.hold : e->makespan;
            if (!below(ms, s->best))
                continue;
            kids[nk++] = (struct choice){q, p, t.start, t.hold};
        }
    }
    qsort(kids, (size_t)nk, sizeof *kids, cmp_choice);
    for (int i = 0; i < nk && !s->gave_up; i++) {
        struct engine *next = &s->lvl[d + 1];
        if (!below(kids[i].hold > e->makespan ? kids[i].hold : e->makespan, s->best))
            continue;   /* the incumbent improved since the list was made */
        eng_assign(next, e);
        if (engine_book(next, kids[i].from, kids[i].to, 0, NULL, NULL) < 0)
            continue;
        dfs(s, d + 1, kids[i].start, d == 0 ? kids[i].from : first_from,
            d == 0 ? kids[i].to : first_to);
    }
    free(kids);
}

/* The cheapest transfer into each node, from any sender: start to hold. */
static int min_durations(const struct engine *e, double *dmin, char **cause)
{
    struct engine all;
    if (engine_init_messages(&all, e->c, e->model, 1, cause) < 0)
        return -1;
    for (int q = 0; q < e->n; q++)
        engine_give(&all, q, 0, 0.0);
    for (int p = 0; p < e->n; p++) {
        dmin[p] = INFINITY;
        for (int q = 0; q < e->n; q++) {
            struct transfer t;
            if (q != p && engine_earliest(&all, q, p, 0, &t) == 0 && t.hold - t.start < dmin[p])
                dmin[p] = t.hold - t.start;
        }
    }
    engine_free(&all);
    return 0;
}

/* fnf's completion from this state: the first incumbent (INFINITY if fnf does not apply). */
static double fnf_completion(const struct engine *e, int *from, int *to)
{
    *from = *to = -1;
    if (sched_check(&sched_fnf, e->c, e->model, NULL) < 0)
        return INFINITY;
    struct engine *copy = eng_clone(e);
    struct sched s;
    sched_init(&s, &sched_fnf, NULL);
    double ms = INFINITY;
    int before = copy->ntr;
    if (engine_run(copy, &s, NULL) == 0 && copy->nwaiting == 0) {
        ms = copy->makespan;
        if (copy->ntr > before) {
            *from = copy->tr[before].from;
            *to = copy->tr[before].to;
        }
    }
    sched_free(&s);
    eng_destroy(copy);
    return ms;
}

int engine_best_completion(const struct engine *e, long long node_limit, struct best_result *out,
                           char **cause)
{
    memset(out, 0, sizeof *out);
    out->from = out->to = -1;
    if (e->nmsg != 1)
        return set_cause(cause, "the best completion is defined for a broadcast (one message)");
    if (e->nwaiting == 0) {
        out->makespan = e->makespan;
        out->status = BEST_EXACT;
        return 0;
    }
    double *dmin = xmalloc((size_t)e->n * sizeof *dmin);
    if (min_durations(e, dmin, cause) < 0) {
        free(dmin);
        return -1;
    }
    for (int p = 0; p < e->n; p++)
        if (!engine_holds(e, p, 0) && isinf(dmin[p])) {
            set_cause(cause, "no node can send to %s", e->c->nodes[p].name);
            free(dmin);
            return -1;
        }
    struct search s;
    memset(&s, 0, sizeof s);
    s.dmin = dmin;
    s.node_table = e->c->kind == CLUSTER_NODES;
    s.limit = node_limit > 0 ? node_limit : EXERCISE_NODE_LIMIT;
    s.best = fnf_completion(e, &s.best_from, &s.best_to);
    s.nlvl = e->nwaiting + 1;
    s.lvl = xmalloc((size_t)s.nlvl * sizeof *s.lvl);
    for (int d = 0; d < s.nlvl; d++)
        eng_alloc_like(&s.lvl[d], e);
    eng_assign(&s.lvl[0], e);
    dfs(&s, 0, -INFINITY, -1, -1);
    for (int d = 0; d < s.nlvl; d++)
        engine_free(&s.lvl[d]);
    free(s.lvl);
    free(dmin);
    out->explored = s.explored;
    if (isinf(s.best))
        return set_cause(cause, s.gave_up ? "the search gave up before finding any complete schedule"
                                          : "no schedule reaches every node from here");
    out->makespan = s.best;
    out->status = s.gave_up ? BEST_GAVE_UP : BEST_EXACT;
    out->from = s.best_from;
    out->to = s.best_to;
    return 0;
}
