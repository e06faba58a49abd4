/*
 * sched_basic.c - the list-scheduling policies of SPEC §2: fnf,
 * slowest-first, random-pair, random-order and fef.
 *
 * fnf and its relatives keep the holders in a heap keyed by the completion
 * of their next send (ready + s, ties lowest index), as Liu, Wang & Guo's
 * implementation does (§5.2), and the waiting nodes presorted: a decision
 * costs O(log n), a broadcast O(n log n).
 */
#include "sched.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a min-heap of nodes keyed by (key, index) ---- */

struct nheap {
    int n;
    int *node;
    double *key;
};

static bool nh_less(const struct nheap *h, int a, int b)
{
    return h->key[a] < h->key[b] || (h->key[a] == h->key[b] && h->node[a] < h->node[b]);
}

static void nh_swap(struct nheap *h, int a, int b)
{
    int tn = h->node[a];
    double tk = h->key[a];
    h->node[a] = h->node[b];
    h->key[a] = h->key[b];
    h->node[b] = tn;
    h->key[b] = tk;
}

static void nh_push(struct nheap *h, int node, double key)
{
    int i = h->n++;
    h->node[i] = node;
    h->key[i] = key;
    while (i > 0 && nh_less(h, i, (i - 1) / 2)) {
        nh_swap(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void nh_sift_down(struct nheap *h, int i)
{
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n)
            return;
        if (c + 1 < h->n && nh_less(h, c + 1, c))
            c++;
        if (!nh_less(h, c, i))
            return;
        nh_swap(h, i, c);
        i = c;
    }
}

/* ---- shared helpers ---- */

int sched_fnf_sender(const struct engine *e, int msg, double *completion)
{
    int best = -1;
    double bc = INFINITY;
    for (int q = 0; q < e->n; q++) {
        if (!engine_holds(e, q, msg))
            continue;
        double c = engine_ready(e, q, msg) + e->c->nodes[q].send;
        if (c < bc) {
            bc = c;
            best = q;
        }
    }
    if (completion)
        *completion = bc;
    return best;
}

static bool faster(const struct node *a, int ia, const struct node *b, int ib)
{
    if (a->send != b->send)
        return a->send < b->send;
    if (a->recv != b->recv)
        return a->recv < b->recv;
    return ia < ib;
}

int sched_fastest_waiting(const struct engine *e, int msg)
{
    int best = -1;
    for (int p = 0; p < e->n; p++)
        if (!engine_holds(e, p, msg) &&
            (best < 0 || faster(&e->c->nodes[p], p, &e->c->nodes[best], best)))
            best = p;
    return best;
}

/* ---- state of the heap-based policies ---- */

struct list_state {
    struct nheap senders;   /* holders by completion of their next send */
    int *order;             /* receivers in the order the policy serves them */
    int norder, next;
    int seen;               /* bookings already folded into the heap */
    int *holders;           /* random-pair: holders, waiting (swap-remove) */
    int nholders;
    int *waiting;
    int *wpos;
    int nwaiting;
};

static const struct node *g_nodes;   /* qsort context: set just before sorting */

static int cmp_fastest(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return faster(&g_nodes[x], x, &g_nodes[y], y) ? -1 : 1;
}

static int cmp_slowest(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    const struct node *p = &g_nodes[x], *q = &g_nodes[y];
    if (p->recv != q->recv)
        return p->recv > q->recv ? -1 : 1;
    if (p->send != q->send)
        return p->send > q->send ? -1 : 1;
    return x < y ? -1 : 1;
}

static double completion_of(const struct engine *e, int q)
{
    return engine_ready(e, q, 0) + e->c->nodes[q].send;
}

static struct list_state *list_new(const struct engine *e)
{
    struct list_state *st = xcalloc(1, sizeof *st);
    st->senders.node = xmalloc((size_t)e->n * sizeof(int));
    st->senders.key = xmalloc((size_t)e->n * sizeof(double));
    st->order = xmalloc((size_t)e->n * sizeof(int));
    for (int p = 0; p < e->n; p++) {
        if (engine_holds(e, p, 0))
            nh_push(&st->senders, p, completion_of(e, p));
        else
            st->order[st->norder++] = p;
    }
    st->seen = e->ntr;
    return st;
}

static void list_finish(struct sched *s)
{
    struct list_state *st = s->state;
    free(st->senders.node);
    free(st->senders.key);
    free(st->order);
    free(st->holders);
    free(st->waiting);
    free(st->wpos);
    free(st);
    s->state = NULL;
}

/* Fold bookings made since the last call into the sender heap. */
static void list_sync(struct list_state *st, const struct engine *e)
{
    for (; st->seen < e->ntr; st->seen++) {
        const struct transfer *t = &e->tr[st->seen];
        /* The sender is almost always the top (the policy just chose it). */
        for (int i = 0; i < st->senders.n; i++)
            if (st->senders.node[i] == t->from) {
                /* its key only grows: sift down from where it is */
                st->senders.key[i] = completion_of(e, t->from);
                nh_sift_down(&st->senders, i);
                break;
            }
        nh_push(&st->senders, t->to, completion_of(e, t->to));
    }
}

/* The next receiver in st->order that still waits. */
static int list_next_receiver(struct list_state *st, const struct engine *e)
{
    while (st->next < st->norder && engine_holds(e, st->order[st->next], 0))
        st->next++;
    return st->next < st->norder ? st->order[st->next] : -1;
}

static void say_sender(const struct engine *e, int q, double done, char *buf, size_t size)
{
    snprintf(buf, size, "%s can finish a send first (free at t=%g, s=%g, done at t=%g)",
             e->c->nodes[q].name, engine_ready(e, q, 0), e->c->nodes[q].send, done);
}

static int list_choose(struct sched *s, const struct engine *e, struct decision *d,
                       const char *why_receiver)
{
    struct list_state *st = s->state;
    list_sync(st, e);
    int p = list_next_receiver(st, e);
    if (p < 0 || st->senders.n == 0)
        return SCHED_DONE;
    int q = st->senders.node[0];
    char who[160];
    say_sender(e, q, st->senders.key[0], who, sizeof who);
    d->from = q;
    d->to = p;
    d->msg = 0;
    const struct node *np = &e->c->nodes[p];
    snprintf(d->reason, sizeof d->reason, "%s; %s is %s (s=%g, r=%g)", who, np->name,
             why_receiver, np->send, np->recv);
    st->next++;
    return SCHED_DECIDED;
}

/* ---- fnf ---- */

static int fnf_prepare(struct sched *s, struct engine *e, char **cause)
{
    (void)cause;
    struct list_state *st = list_new(e);
    g_nodes = e->c->nodes;
    qsort(st->order, (size_t)st->norder, sizeof *st->order, cmp_fastest);
    s->state = st;
    return 0;
}

static int fnf_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    (void)cause;
    return list_choose(s, e, d, "the fastest waiting node");
}

const struct sched_ops sched_fnf = {
    .name = "fnf",
    .summary = "fastest node first: earliest-finishing sender to the fastest waiting node",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX),
    .models = MODEL_ALL,
    .prepare = fnf_prepare,
    .choose = fnf_choose,
    .finish = list_finish,
};

/* ---- slowest-first ---- */

static int slowest_prepare(struct sched *s, struct engine *e, char **cause)
{
    (void)cause;
    struct list_state *st = list_new(e);
    g_nodes = e->c->nodes;
    qsort(st->order, (size_t)st->norder, sizeof *st->order, cmp_slowest);
    s->state = st;
    return 0;
}

static int slowest_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    (void)cause;
    return list_choose(s, e, d, "the slowest waiting node (largest receive time)");
}

const struct sched_ops sched_slowest_first = {
    .name = "slowest-first",
    .summary = "like fnf, but the waiting node with the largest receive time goes first",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX),
    .models = MODEL_ALL,
    .prepare = slowest_prepare,
    .choose = slowest_choose,
    .finish = list_finish,
};

/* ---- random-order ---- */

static int rorder_prepare(struct sched *s, struct engine *e, char **cause)
{
    (void)cause;
    struct list_state *st = list_new(e);
    for (int i = st->norder - 1; i > 0; i--) {   /* Fisher-Yates */
        int j = (int)rng_below(&s->rng, (uint64_t)i + 1);
        int t = st->order[i];
        st->order[i] = st->order[j];
        st->order[j] = t;
    }
    s->state = st;
    return 0;
}

static int rorder_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    (void)cause;
    return list_choose(s, e, d, "next in the random order");
}

const struct sched_ops sched_random_order = {
    .name = "random-order",
    .summary = "a random order of receivers, each served by fnf's sender (seeded by --seed)",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX),
    .models = MODEL_ALL,
    .randomized = true,
    .prepare = rorder_prepare,
    .choose = rorder_choose,
    .finish = list_finish,
};

/* ---- random-pair ---- */

static int rpair_prepare(struct sched *s, struct engine *e, char **cause)
{
    (void)cause;
    struct list_state *st = xcalloc(1, sizeof *st);
    st->holders = xmalloc((size_t)e->n * sizeof(int));
    st->waiting = xmalloc((size_t)e->n * sizeof(int));
    st->wpos = xmalloc((size_t)e->n * sizeof(int));
    for (int p = 0; p < e->n; p++) {
        st->wpos[p] = -1;
        if (engine_holds(e, p, 0)) {
            st->holders[st->nholders++] = p;
        } else {
            st->wpos[p] = st->nwaiting;
            st->waiting[st->nwaiting++] = p;
        }
    }
    s->state = st;
    return 0;
}

static int rpair_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    (void)cause;
    struct list_state *st = s->state;
    if (st->nwaiting == 0 || st->nholders == 0)
        return SCHED_DONE;
    int q = st->holders[rng_below(&s->rng, (uint64_t)st->nholders)];
    int i = (int)rng_below(&s->rng, (uint64_t)st->nwaiting);
    int p = st->waiting[i];
    st->waiting[i] = st->waiting[--st->nwaiting];   /* swap-remove */
    st->wpos[st->waiting[i]] = i;
    st->holders[st->nholders++] = p;
    d->from = q;
    d->to = p;
    d->msg = 0;
    snprintf(d->reason, sizeof d->reason,
             "random pair: %s drawn among %d holders, %s among %d waiting nodes; %s is free at t=%g",
             e->c->nodes[q].name, st->nholders - 1, e->c->nodes[p].name, st->nwaiting + 1,
             e->c->nodes[q].name, engine_ready(e, q, 0));
    return SCHED_DECIDED;
}

const struct sched_ops sched_random_pair = {
    .name = "random-pair",
    .summary = "a random holder sends to a random waiting node (seeded by --seed)",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX),
    .models = MODEL_ALL,
    .randomized = true,
    .prepare = rpair_prepare,
    .choose = rpair_choose,
    .finish = list_finish,
};

/* ---- fef: fastest edge first (Bhat et al.) ----
 * best[p] caches the cheapest transfer into waiting p from any holder; a new
 * holder updates it for every waiting node: O(n) per decision, O(n^2) in all. */

struct fef_state {
    double *cost;   /* cheapest known transfer time into p */
    int *from;      /* its sender, -1 if none */
    int seen;
};

static double transfer_time(const struct engine *e, int q, int p, bool *ok)
{
    struct cost k;
    *ok = cluster_cost(e->c, q, p, &k);
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
    st->cost = xmalloc((size_t)e->n * sizeof(double));
    st->from = xmalloc((size_t)e->n * sizeof(int));
    for (int p = 0; p < e->n; p++)
        st->from[p] = -1;
    for (int q = 0; q < e->n; q++)
        if (engine_holds(e, q, 0))
            fef_offer(st, e, q);
    st->seen = e->ntr;
    s->state = st;
    return 0;
}

static int fef_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    struct fef_state *st = s->state;
    for (; st->seen < e->ntr; st->seen++)
        fef_offer(st, e, e->tr[st->seen].to);
    int best = -1;
    for (int p = 0; p < e->n; p++) {
        if (engine_holds(e, p, 0) || st->from[p] < 0)
            continue;
        if (best < 0 || st->cost[p] < st->cost[best] ||
            (st->cost[p] == st->cost[best] && st->from[p] < st->from[best]))
            best = p;
    }
    if (best < 0) {
        if (e->nwaiting > 0)
            return set_cause(cause, "fef: no holder has a link to the %d waiting node%s",
                             e->nwaiting, e->nwaiting == 1 ? "" : "s");
        return SCHED_DONE;
    }
    d->from = st->from[best];
    d->to = best;
    d->msg = 0;
    snprintf(d->reason, sizeof d->reason,
             "%s -> %s is the cheapest transfer from a holder to a waiting node (T=%g)",
             e->c->nodes[d->from].name, e->c->nodes[best].name, st->cost[best]);
    return SCHED_DECIDED;
}

static void fef_finish(struct sched *s)
{
    struct fef_state *st = s->state;
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
    .prepare = fef_prepare,
    .choose = fef_choose,
    .finish = fef_finish,
};
