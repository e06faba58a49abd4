/*
 * sched/exercise.c - fnf's next pick and the best reachable makespan from any
 * engine state (sched/exercise.h), for the view's exercise mode.
 *
 * The search never copies an engine's insides: it rebuilds a state by
 * replaying bookings on a reset engine (engine_book is deterministic), so it
 * sees the port models exactly as the engine implements them, whatever the
 * engine keeps.  Completeness: any set
 * of further bookings, replayed in order of start time (ties in the order
 * they were made), gives the same transfers, because a transfer's start only
 * depends on bookings that start no later; so trying only choices whose
 * start is not before the previous choice's start still reaches every
 * schedule.  Pruning: the makespan so far, and for each waiting node the
 * earliest any future send can start plus the cheapest transfer into it
 * (in a multicast, each waiting target: a relay need not be served).
 */
#include "sched/exercise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sched/registry.h"
#include "sched/list.h"

/*
 * The bookings that made e, replayed on a fresh engine: e must come from
 * engine_init and engine_book (the view's exercise engine does).  The copy
 * is checked against e.  Returns 0, or -1 with *cause.
 */
static int replay_copy(const struct engine *e, struct engine *out, char **cause)
{
    if (engine_init(out, e->c, e->model, cause) < 0)
        return -1;
    for (int i = 0; i < e->ntr; i++) {
        char *tmp;
        const char *why = engine_reason(e, &e->tr[i], &tmp);
        int rc = engine_book(out, e->tr[i].from, e->tr[i].to, e->tr[i].msg, why, cause);
        free(tmp);
        if (rc < 0) {
            engine_free(out);
            return -1;
        }
    }
    if (out->nwaiting != e->nwaiting || out->makespan != e->makespan) {
        engine_free(out);
        return set_cause(cause, "this engine state is not a broadcast from %s built by bookings",
                         e->c->nodes[e->c->source].name);
    }
    return 0;
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
    struct engine copy;
    if (replay_copy(e, &copy, cause) < 0)
        return -1;
    struct sched s;
    struct decision d;
    memset(&d, 0, sizeof d);
    sched_init(&s, &sched_fnf, NULL);
    int rc = -1;
    if (!s.ops->prepare || s.ops->prepare(&s, &copy, cause) == 0) {
        int r = s.ops->choose(&s, &copy, &d, cause);
        if (r == SCHED_DECIDED) {
            *from = d.from;
            *to = d.to;
            struct transfer t;   /* a reason written when read: of the transfer it books */
            if (d.say && !d.reason && engine_earliest(&copy, d.from, d.to, d.msg, &t) == 0)
                d.reason = d.say(&copy, &t, d.say_arg);
            if (reason && reason_size)
                text_fit(reason, reason_size, "%s", d.reason ? d.reason : "");
            rc = 0;
        } else if (r == SCHED_DONE) {
            set_cause(cause, "fnf has nothing to send from here");
        }
    }
    free(d.reason);
    sched_free(&s);
    engine_free(&copy);
    return rc;
}

/* ---- the exhaustive search ---- */

struct choice {
    int from, to;
    double start, hold;
};

struct search {
    struct engine w;        /* the working engine, rebuilt for every state */
    const struct transfer *base;   /* the bookings of the starting state */
    int nbase;
    int *pfrom, *pto;       /* the choices from the starting state down to here */
    const double *dmin;     /* per node: the cheapest transfer into it (start to hold) */
    bool node_table;        /* identical nodes are interchangeable */
    double best;
    int best_from, best_to;
    long long explored, limit;
    bool gave_up;
    bool cancelled;
    double lower;           /* a proven lower bound: a completion this good ends the search */
    double time_limit;      /* seconds, <= 0: none */
    const volatile sig_atomic_t *cancel;
    struct timespec t0;
};

#define BEST_CHECK_EVERY 1023   /* the clock and the cancel flag: every 1024 search nodes */

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* Make s->w the starting state plus the first depth choices (which all book fine). */
static void rebuild(struct search *s, int depth)
{
    engine_reset(&s->w);
    for (int i = 0; i < s->nbase; i++)
        engine_book(&s->w, s->base[i].from, s->base[i].to, 0, NULL, NULL);
    for (int i = 0; i < depth; i++)
        engine_book(&s->w, s->pfrom[i], s->pto[i], 0, NULL, NULL);
}

static bool tied(double a, double b)
{
    if (isinf(a) || isinf(b))
        return a == b;
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

/* s->w holds the state after d choices; explores everything below it. */
static void dfs(struct search *s, int d, double last_start)
{
    const struct engine *e = &s->w;
    if (e->nwaiting == 0) {
        if (below(e->makespan, s->best)) {
            s->best = e->makespan;
            s->best_from = s->pfrom[0];
            s->best_to = s->pto[0];
        }
        return;
    }
    if (tied(s->best, s->lower))   /* the incumbent meets a proven bound: nothing beats it */
        return;
    if (++s->explored > s->limit) {
        s->gave_up = true;
        return;
    }
    if ((s->explored & BEST_CHECK_EVERY) == 0) {
        if (s->cancel && *s->cancel)
            s->gave_up = s->cancelled = true;
        else if (s->time_limit > 0 && seconds_since(&s->t0) >= s->time_limit)
            s->gave_up = true;
        if (s->gave_up)
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
        if (!engine_holds(e, p, 0) && cluster_is_target(e->c, p) && tmin + s->dmin[p] > lb)
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
    double ms_here = e->makespan;
    for (int q = 0; q < e->n; q++) {
        if (!engine_holds(e, q, 0) || (s->node_table && holder_twin(e, q)))
            continue;
        for (int p = 0; p < e->n; p++) {
            struct transfer t;
            if (engine_holds(e, p, 0) || (s->node_table && waiting_twin(e, p)))
                continue;
            if (engine_earliest(e, q, p, 0, &t) < 0 || below(t.start, last_start))
                continue;
            double ms = t.hold > ms_here ? t.hold : ms_here;
            if (!below(ms, s->best))
                continue;
            kids[nk++] = (struct choice){q, p, t.start, t.hold};
        }
    }
    qsort(kids, (size_t)nk, sizeof *kids, cmp_choice);
    for (int i = 0; i < nk && !s->gave_up; i++) {
        if (!below(kids[i].hold > ms_here ? kids[i].hold : ms_here, s->best))
            continue;   /* the incumbent improved since the list was made */
        s->pfrom[d] = kids[i].from;
        s->pto[d] = kids[i].to;
        rebuild(s, d + 1);
        dfs(s, d + 1, kids[i].start);
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
    struct engine copy;
    if (sched_check(&sched_fnf, e->c, e->model, NULL) < 0 || replay_copy(e, &copy, NULL) < 0)
        return INFINITY;
    struct sched s;
    sched_init(&s, &sched_fnf, NULL);
    double ms = INFINITY;
    int before = copy.ntr;
    if (sched_run(&copy, &s, NULL) == 0 && copy.nwaiting == 0) {
        ms = copy.makespan;
        if (copy.ntr > before) {
            *from = copy.tr[before].from;
            *to = copy.tr[before].to;
        }
    }
    sched_free(&s);
    engine_free(&copy);
    return ms;
}

int exercise_best_completion(const struct engine *e, long long node_limit,
                             const volatile sig_atomic_t *cancel, struct best_result *out,
                             char **cause)
{
    struct best_opts o = {node_limit, 0, -INFINITY, cancel};
    return exercise_best_completion_opts(e, &o, out, cause);
}

int exercise_best_completion_opts(const struct engine *e, const struct best_opts *o,
                                  struct best_result *out, char **cause)
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
        if (!engine_holds(e, p, 0) && cluster_is_target(e->c, p) && isinf(dmin[p])) {
            set_cause(cause, "no node can send to %s", e->c->nodes[p].name);
            free(dmin);
            return -1;
        }
    struct search s;
    memset(&s, 0, sizeof s);
    if (replay_copy(e, &s.w, cause) < 0) {
        free(dmin);
        return -1;
    }
    s.base = e->tr;
    s.nbase = e->ntr;
    s.pfrom = xmalloc((size_t)e->n * sizeof *s.pfrom);
    s.pto = xmalloc((size_t)e->n * sizeof *s.pto);
    s.dmin = dmin;
    s.node_table = e->c->kind == CLUSTER_NODES;
    s.limit = o->node_limit > 0 ? o->node_limit : EXERCISE_NODE_LIMIT;
    s.lower = o->lower;
    s.time_limit = o->time_limit;
    s.cancel = o->cancel;
    clock_gettime(CLOCK_MONOTONIC, &s.t0);
    s.best = fnf_completion(e, &s.best_from, &s.best_to);
    dfs(&s, 0, -INFINITY);
    engine_free(&s.w);
    free(s.pfrom);
    free(s.pto);
    free(dmin);
    out->explored = s.explored;
    if (s.cancelled)
        return set_cause(cause, SCHED_CANCELLED_TEXT);
    if (isinf(s.best))
        return set_cause(cause, s.gave_up ? "the search gave up before finding any complete schedule"
                                          : "no schedule reaches every node from here");
    out->makespan = s.best;
    out->status = s.gave_up ? BEST_GAVE_UP : BEST_EXACT;
    out->from = s.best_from;
    out->to = s.best_to;
    return 0;
}

int exercise_complete_best(struct engine *e, long long node_limit,
                           const volatile sig_atomic_t *cancel, char **cause)
{
    while (e->nwaiting > 0) {
        struct best_result b;
        if (exercise_best_completion(e, node_limit, cancel, &b, cause) < 0)
            return -1;
        if (b.from < 0 || engine_book(e, b.from, b.to, 0, "a best completion", cause) < 0)
            return b.from < 0 ? set_cause(cause, "no best completion from here") : -1;
    }
    return 0;
}
