/*
 * sched/readyrecv.c - the ready-to-receive time of Liu, Wang & Guo (sched/readyrecv.h).
 */
#include "sched/readyrecv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"
#include "engine/engine.h"
#include "sched/sched.h"
#include "sched/list.h"

static int refuse(const struct cluster *c, char **cause)
{
    if (c->kind != CLUSTER_NODES) {
        *cause = xstrdup("the ready-to-receive time is defined on node tables only");
        return -1;
    }
    return 0;
}

/* The latest send end of e's bookings: R of the last receiver. */
static double last_send_end(const struct engine *e)
{
    double tr = 0;
    for (int k = 0; k < e->ntr; k++)
        if (e->tr[k].send_end > tr)
            tr = e->tr[k].send_end;
    return tr;
}

int rr_sequence(const struct cluster *c, const int *order, int len, double *tr, char **cause)
{
    if (refuse(c, cause) < 0)
        return -1;
    struct engine e;
    if (engine_init(&e, c, MODEL_ASYNC, cause) < 0)
        return -1;
    int rc = 0;
    for (int i = 0; i < len && rc == 0; i++) {
        int q = sched_fnf_sender(&e, 0, NULL);
        if (q < 0 || order[i] < 0 || order[i] >= c->n || engine_holds(&e, order[i], 0)) {
            *cause = xstrdup("a sequence of receivers must name every node but the source once");
            rc = -1;
        } else {
            rc = engine_book(&e, q, order[i], 0, "", cause);
        }
    }
    if (rc == 0 && e.nwaiting > 0) {
        *cause = xstrdup("a sequence of receivers must name every node but the source once");
        rc = -1;
    }
    if (rc == 0)
        *tr = last_send_end(&e);
    engine_free(&e);
    return rc;
}

int rr_fnf(const struct cluster *c, double *tr, char **cause)
{
    if (refuse(c, cause) < 0)
        return -1;
    struct engine e;
    struct sched s;
    struct sched_opts so;
    sched_opts_default(&so);
    if (engine_init(&e, c, MODEL_ASYNC, cause) < 0)
        return -1;
    sched_init(&s, &sched_fnf, &so);
    int rc = sched_run(&e, &s, cause);
    if (rc == 0)
        *tr = last_send_end(&e);
    sched_free(&s);
    engine_free(&e);
    return rc;
}

struct search {
    const struct cluster *c;
    int *order, len;
    bool *used;
    double best;
    long runs;
};

static bool same_node(const struct cluster *c, int a, int b)
{
    return c->nodes[a].send == c->nodes[b].send && c->nodes[a].recv == c->nodes[b].recv;
}

static int extend(struct search *s, int depth, char **cause)
{
    if (depth == s->len) {
        double tr;
        if (rr_sequence(s->c, s->order, s->len, &tr, cause) < 0)
            return -1;
        s->runs++;
        if (tr < s->best)
            s->best = tr;
        return 0;
    }
    for (int p = 0; p < s->c->n; p++) {
        if (p == s->c->source || s->used[p])
            continue;
        bool twin = false;   /* an identical node already tried at this place */
        for (int q = 0; q < p && !twin; q++)
            twin = q != s->c->source && !s->used[q] && same_node(s->c, p, q);
        if (twin)
            continue;
        s->used[p] = true;
        s->order[depth] = p;
        int rc = extend(s, depth + 1, cause);
        s->used[p] = false;
        if (rc < 0)
            return -1;
    }
    return 0;
}

int rr_optimal(const struct cluster *c, double *tr, long *sequences, char **cause)
{
    if (refuse(c, cause) < 0)
        return -1;
    if (c->n > RR_MAX_NODES) {
        char buf[160];
        snprintf(buf, sizeof buf, "the smallest ready-to-receive time tries every sequence: at "
                 "most %d nodes (this cluster has %d)", RR_MAX_NODES, c->n);
        *cause = xstrdup(buf);
        return -1;
    }
    struct search s = {c, xcalloc((size_t)c->n + 1, sizeof(int)), c->n - 1,
                       xcalloc((size_t)c->n + 1, sizeof(bool)), INFINITY, 0};
    int rc = extend(&s, 0, cause);
    if (rc == 0) {
        *tr = s.len > 0 ? s.best : 0;
        if (sequences)
            *sequences = s.runs;
    }
    free(s.order);
    free(s.used);
    return rc;
}

/* The smallest power of 2 >= x (0 for 0). */
static double up_to_power2(double x)
{
    if (!(x > 0))
        return 0;
    int e;
    double m = frexp(x, &e);   /* x = m 2^e, m in [0.5, 1) */
    return m == 0.5 ? x : ldexp(1.0, e);
}

struct cluster *rr_power2(const struct cluster *c)
{
    struct cluster *p = cluster_new(CLUSTER_NODES);
    for (int i = 0; i < c->n; i++) {
        /* the latency folded into the receive time first (§2.3): the paper
         * rounds r' = L + r, the time from a send's end to the hold */
        struct cost k = {0};
        struct timing t;
        timing_cost(c, i, i, &k);   /* s(i), L, r(i) */
        double send = timing_send_end(&k, 0.0);
        k.s = 0;
        timing_phases(MODEL_ASYNC, &k, 0.0, 0.0, &t);
        cluster_add_node(p, c->nodes[i].name, up_to_power2(send), up_to_power2(t.hold));
    }
    p->latency = 0;
    cluster_set_str(&p->name, c->name);
    struct diag d;
    diag_init(&d);
    cluster_finish(p, &d);   /* sets the source to node 0 */
    diag_free(&d);
    p->source = c->source;
    return p;
}
