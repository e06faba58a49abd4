/*
 * engine.c - port models, booking, the event heap and replay (engine.h).
 *
 * Booking is O(1); building the timeline is O(E log E) for E events; a
 * snapshot at step k costs O(k + transfers) since it replays from the start.
 * A lean engine streams the same events through a radix queue instead
 * (O(1) per push, amortised small per event when the policy gives
 * not_before) and keeps neither the records nor the timeline.
 * engine_run_list runs a list policy's whole broadcast in one loop, with
 * the node arrays in the order the policy serves the nodes: O(n) besides
 * the two queues, and the receivers read one after the other.
 */
#include "engine.h"

#include "hugemem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    const char *summary;
} models[MODEL_COUNT] = {
    [MODEL_ASYNC] = {"async", "asynchronous sender-receiver: send s, link l, receive r; sender free after s"},
    [MODEL_SENDER_ONLY] = {"sender-only", "sender-only: the receiver holds the message after s(q)"},
    [MODEL_SYNC] = {"sync", "synchronous: the sender is busy until the receive ends"},
    [MODEL_ONE_PORT] = {"one-port", "one-port bidirectional: each transfer holds both ports for T"},
    [MODEL_MULTI_PORT] = {"multi-port", "multi-port: the sender's port is busy send_q, the message arrives after T"},
};

const char *model_name(enum model m)
{
    return m < MODEL_COUNT ? models[m].name : "?";
}

const char *model_summary(enum model m)
{
    return m < MODEL_COUNT ? models[m].summary : "?";
}

int model_parse(const char *name, enum model *out)
{
    for (int m = 0; m < MODEL_COUNT; m++)
        if (strcmp(name, models[m].name) == 0) {
            *out = (enum model)m;
            return 0;
        }
    return -1;
}

char *model_names(void)
{
    size_t len = 1;
    for (int m = 0; m < MODEL_COUNT; m++)
        len += strlen(models[m].name) + 2;
    char *s = xmalloc(len);
    s[0] = '\0';
    for (int m = 0; m < MODEL_COUNT; m++) {
        if (m)
            strcat(s, ", ");
        strcat(s, models[m].name);
    }
    return s;
}

unsigned model_mask_for(enum cluster_kind k)
{
    if (k == CLUSTER_GRAPH)
        return MODEL_BIT(MODEL_ONE_PORT) | MODEL_BIT(MODEL_MULTI_PORT);
    return MODEL_ALL;
}

enum model model_default_for(enum cluster_kind k)
{
    return k == CLUSTER_GRAPH ? MODEL_ONE_PORT : MODEL_ASYNC;
}

/* The reason of every transfer booked without one: shared, never freed (an
 * exchange books a million transfers without reasons). */
static char no_reason[1];

static void free_reason(char *reason)
{
    if (reason != no_reason)
        free(reason);
}

/* Where the hold time of (p, msg) is stored; personalized: only msg's receiver. */
static size_t hold_slot(const struct engine *e, int p, int msg)
{
    return e->personal ? (size_t)msg : (size_t)msg * (size_t)e->n + (size_t)p;
}

static size_t hold_cells(const struct engine *e)
{
    return e->personal ? (size_t)e->nmsg : (size_t)e->nmsg * (size_t)e->n;
}

static int init_common(struct engine *e, const struct cluster *c, enum model m, int nmsg,
                       bool personal, char **cause)
{
    memset(e, 0, sizeof *e);
    if (m >= MODEL_COUNT)
        return set_cause(cause, "unknown model");
    if (!(model_mask_for(c->kind) & MODEL_BIT(m)))
        return set_cause(cause, "the %s model does not apply to a %s; use -m one-port or -m multi-port",
                         model_name(m), cluster_kind_name(c->kind));
    if (nmsg < 1)
        return set_cause(cause, "no messages to send");
    e->c = c;
    e->model = m;
    e->n = c->n;
    e->nmsg = nmsg;
    e->personal = personal;
    e->hold = xmalloc(hold_cells(e) * sizeof *e->hold);
    e->send_free = xcalloc((size_t)c->n, sizeof *e->send_free);
    e->recv_free = xcalloc((size_t)c->n, sizeof *e->recv_free);
    if (c->kind == CLUSTER_GRAPH && m == MODEL_MULTI_PORT)
        e->link_free = xcalloc((size_t)(c->nedges ? c->nedges : 1), sizeof *e->link_free);
    e->parent = xmalloc((size_t)c->n * sizeof *e->parent);
    /* read in event order, a random order of nodes: huge pages spare the TLB */
    mem_advise_huge(e->hold, hold_cells(e) * sizeof *e->hold);
    mem_advise_huge(e->send_free, (size_t)c->n * sizeof *e->send_free);
    mem_advise_huge(e->recv_free, (size_t)c->n * sizeof *e->recv_free);
    mem_advise_huge(e->parent, (size_t)c->n * sizeof *e->parent);
    for (size_t i = 0, cells = hold_cells(e); i < cells; i++)
        e->hold[i] = INFINITY;   /* nobody holds anything until engine_give */
    e->streamed_to = -INFINITY;
    engine_reset(e);
    e->nwaiting = 0;
    return 0;
}

int engine_init_messages(struct engine *e, const struct cluster *c, enum model m, int nmsg,
                         char **cause)
{
    return init_common(e, c, m, nmsg, false, cause);
}

int engine_init_exchange(struct engine *e, const struct cluster *c, enum model m, char **cause)
{
    if (c->n < 1)
        return set_cause(cause, "no nodes to exchange messages");
    if (c->n > 46340)   /* n * n must fit an int message id */
        return set_cause(cause, "%d nodes are too many for a personalized exchange (at most 46340)",
                         c->n);
    return init_common(e, c, m, c->n * c->n, true, cause);
}

int engine_init(struct engine *e, const struct cluster *c, enum model m, char **cause)
{
    if (engine_init_messages(e, c, m, 1, cause) < 0)
        return -1;
    engine_give(e, c->source, 0, 0.0);
    e->nwaiting = c->n - 1;
    return 0;
}

void engine_give(struct engine *e, int p, int msg, double t)
{
    if (e->personal && p != msg % e->n)
        return;   /* the sender holds it from 0 anyway; nobody else may */
    e->hold[hold_slot(e, p, msg)] = t;
}

void engine_reset(struct engine *e)
{
    /* Undo the bookings only: the initial holdings (engine_give) stay. */
    int delivered = 0;
    if (e->lean) {   /* a broadcast: the booked nodes are those with a parent */
        for (int p = 0; p < e->n; p++)
            if (e->parent[p] >= 0)
                e->hold[p] = INFINITY;
        delivered = e->ntr;
        rq_free(e->stream);
        rq_init(e->stream);
        e->streamed_to = -INFINITY;
        e->late = 0;
    }
    for (int i = 0; !e->lean && i < e->ntr; i++) {
        const struct transfer *t = &e->tr[i];
        e->hold[hold_slot(e, t->to, t->msg)] = INFINITY;
        delivered++;
        free_reason(t->reason);
    }
    e->nwaiting += delivered;
    e->ntr = 0;
    for (int p = 0; p < e->n; p++) {
        e->send_free[p] = 0;
        if (e->recv_free)
            e->recv_free[p] = 0;
        e->parent[p] = -1;
    }
    for (int k = 0; e->link_free && k < e->c->nedges; k++)
        e->link_free[k] = 0;
    free(e->ev);
    e->ev = NULL;
    e->nev = 0;
    e->makespan = 0;
}

void engine_free(struct engine *e)
{
    for (int i = 0; !e->lean && i < e->ntr; i++)
        free_reason(e->tr[i].reason);
    if (e->stream)
        rq_free(e->stream);
    free(e->stream);
    free(e->tr);
    free(e->hold);
    free(e->send_free);
    free(e->recv_free);
    free(e->link_free);
    free(e->parent);
    free(e->ev);
    memset(e, 0, sizeof *e);
}

double engine_ready(const struct engine *e, int q, int msg)
{
    double h = engine_hold_time(e, q, msg);
    return h > e->send_free[q] ? h : e->send_free[q];
}

/* When p's receive port is free: always 0 on a lean engine (a broadcast
 * delivers to p once, and nothing was booked into p before). */
static double recv_free_of(const struct engine *e, int p)
{
    return e->recv_free ? e->recv_free[p] : 0.0;
}

/*
 * The intervals of a transfer with costs k that starts at t under model m;
 * rf is when the receiver's port is free (used by async, where the receive
 * waits for it).  engine_earliest and the lean stream both go through here,
 * so a derived time is the very double the booking computed.
 */
static void fill_times(enum model m, const struct cost *kp, double t, double rf,
                       struct transfer *out)
{
    const struct cost k = *kp;
    switch (m) {
    case MODEL_ASYNC:
        out->start = t;
        out->send_end = t + k.s;
        out->link_start = out->send_end;
        out->link_end = out->link_start + k.l;
        out->recv_start = out->link_end > rf ? out->link_end : rf;
        out->recv_end = out->recv_start + k.r;
        out->hold = out->recv_end;
        out->free = out->send_end;
        break;
    case MODEL_SENDER_ONLY:
        out->start = t;
        out->send_end = t + k.s;
        out->link_start = out->link_end = out->send_end;
        out->recv_start = out->recv_end = out->send_end;
        out->hold = out->send_end;
        out->free = out->send_end;
        break;
    case MODEL_SYNC:
        out->start = t;
        out->send_end = t + k.s + k.l + k.r;
        out->link_start = t + k.s;
        out->link_end = t + k.s + k.l;
        out->recv_start = out->link_end;
        out->recv_end = out->send_end;
        out->hold = out->send_end;
        out->free = out->send_end;
        break;
    case MODEL_ONE_PORT:
        out->start = out->link_start = out->recv_start = t;
        out->send_end = out->link_end = out->recv_end = t + k.T;
        out->hold = out->free = t + k.T;
        break;
    case MODEL_MULTI_PORT:
    default:
        out->start = out->link_start = t;
        out->send_end = t + k.send_mp;
        out->link_end = t + k.T;
        out->recv_start = out->recv_end = out->link_end;
        out->hold = out->link_end;
        out->free = out->send_end;
        break;
    }
}

int engine_earliest(const struct engine *e, int from, int to, int msg, struct transfer *out)
{
    struct cost k;
    if (from < 0 || from >= e->n || to < 0 || to >= e->n || msg < 0 || msg >= e->nmsg)
        return -1;
    if (e->personal && to != msg % e->n)
        return -1;
    if (!engine_holds(e, from, msg) || !cluster_cost(e->c, from, to, &k))
        return -1;
    double ready = engine_ready(e, from, msg), rf = recv_free_of(e, to), t = ready;
    memset(out, 0, sizeof *out);
    out->from = from;
    out->to = to;
    out->msg = msg;
    out->seq = e->ntr;
    out->wait_start = ready;
    if (e->model == MODEL_SYNC || e->model == MODEL_ONE_PORT) {
        t = ready > rf ? ready : rf;   /* the rendezvous waits for the receiver */
    } else if (e->model == MODEL_MULTI_PORT && e->link_free) {
        /* a link carries one message at a time, for T */
        int edge = e->c->edge_of[(size_t)from * (size_t)e->n + (size_t)to];
        if (edge >= 0 && e->link_free[edge] > t)
            t = e->link_free[edge];
    }
    fill_times(e->model, &k, t, rf, out);
    return 0;
}

/* ---- the lean stream ----
 * One queue item per transfer, keyed by the time of its next event; tie =
 * booking << 4 | kind << 2 | which optional events it has, so equal times
 * come out by booking, then kind: the order of engine_timeline's array. */

#define HAS_SEND_END 1u
#define HAS_LINK_END 2u

/* The events of t beyond its start and hold, as engine_timeline decides them. */
static unsigned optional_events(const struct transfer *t)
{
    unsigned mask = 0;
    if (t->free < t->hold)
        mask |= HAS_SEND_END;
    if (t->recv_end > t->recv_start && t->link_end < t->hold && t->link_end > t->start)
        mask |= HAS_LINK_END;
    return mask;
}

static void stream_push(struct engine *e, const struct transfer *t, int booking)
{
    uint32_t tie = (uint32_t)booking << 4 | (uint32_t)EV_SEND_START << 2 | optional_events(t);
    rq_push(e->stream, t->start, tie, t->to);
}

int engine_set_lean(struct engine *e, engine_event_fn fn, void *ctx, char **cause)
{
    if (e->lean)
        return set_cause(cause, "the engine is lean already");
    if (e->ntr > 0)
        return set_cause(cause, "an engine becomes lean before its first booking");
    if (e->nmsg != 1 || e->personal)
        return set_cause(cause, "a lean engine runs a broadcast of one message");
    if (e->n >= 1 << 27)
        return set_cause(cause, "%d nodes are too many for a lean engine (fewer than %d)", e->n,
                         1 << 27);
    free(e->recv_free);
    e->recv_free = NULL;
    e->stream = xmalloc(sizeof *e->stream);
    rq_init(e->stream);
    e->lean = true;
    e->streamed_to = -INFINITY;
    e->late = 0;
    e->on_event = fn;
    e->on_event_ctx = ctx;
    return 0;
}

/* Process one streamed event (the earliest) and queue its transfer's next one. */
static void stream_step(struct engine *e, const struct rq_item *it)
{
    double time = rq_time(it);
    uint32_t tie = it->tie;
    int to = it->val, from = e->parent[to];
    int kind = (int)(tie >> 2 & 3u);
    unsigned mask = tie & 3u;
    struct event ev = {time, tie, kind, (int)(tie >> 4)};
    if (time < e->streamed_to)
        e->late++;
    else
        e->streamed_to = time;
    e->nev++;
    if (e->on_event)
        e->on_event(e->on_event_ctx, e, &ev, from, to);
    struct cost k;
    double next = 0;
    int nkind = EV_HOLD;
    switch (kind) {
    case EV_SEND_START: {
        struct transfer t;
        cluster_cost(e->c, from, to, &k);
        fill_times(e->model, &k, time, 0.0, &t);
        if (mask & HAS_SEND_END) {
            nkind = EV_SEND_END;
            next = t.free;
        } else if (mask & HAS_LINK_END) {
            nkind = EV_LINK_END;
            next = t.link_end;
        } else {
            next = t.hold;
        }
        break;
    }
    case EV_SEND_END:
        /* Only async has a link phase after the send: link_end = send_end + l
         * (a node table's l is its latency: no node to look up). */
        if (mask & HAS_LINK_END) {
            if (e->c->kind == CLUSTER_NODES)
                k.l = e->c->latency;
            else
                cluster_cost(e->c, from, to, &k);
            nkind = EV_LINK_END;
            next = time + k.l;
        } else {
            next = e->hold[to];
        }
        break;
    case EV_LINK_END:
        next = e->hold[to];
        break;
    default:
        return;   /* the receiver holds it: the transfer is done */
    }
    rq_push(e->stream, next, (tie & ~(3u << 2)) | (uint32_t)nkind << 2, to);
}

void engine_stream_until(struct engine *e, double t)
{
    if (!e->lean)
        return;
    struct rq_item it;
    while (rq_take(e->stream, t, &it)) {   /* looks before it moves anything: radixq.h */
        /* The nodes of the events a few places on are random places in
         * memory: ask for them now, so that the misses overlap. */
        const struct rq_item *a = rq_ahead(e->stream, 16), *b = rq_ahead(e->stream, 8);
        if (a) {
            __builtin_prefetch(&e->parent[a->val]);
            __builtin_prefetch(&e->hold[a->val]);
        }
        if (b) {
            int from = e->parent[b->val];
            __builtin_prefetch(&e->c->nodes[b->val]);
            if (from >= 0)
                __builtin_prefetch(&e->c->nodes[from]);
        }
        stream_step(e, &it);
    }
}

int engine_book(struct engine *e, int from, int to, int msg, const char *reason, char **cause)
{
    if (from < 0 || from >= e->n)
        return set_cause(cause, "sender %d is not a node (0..%d)", from, e->n - 1);
    if (to < 0 || to >= e->n)
        return set_cause(cause, "receiver %d is not a node (0..%d)", to, e->n - 1);
    if (msg < 0 || msg >= e->nmsg)
        return set_cause(cause, "message %d does not exist", msg);
    const char *fn = e->c->nodes[from].name, *tn = e->c->nodes[to].name;
    if (from == to)
        return set_cause(cause, "%s cannot send to itself", fn);
    if (e->personal && to != msg % e->n)
        return set_cause(cause, "message %d is %s's message for %s; it cannot go to %s", msg,
                         e->c->nodes[msg / e->n].name, e->c->nodes[msg % e->n].name, tn);
    if (!engine_holds(e, from, msg))
        return set_cause(cause, "%s does not hold the message and nobody has sent it to %s", fn, fn);
    if (engine_holds(e, to, msg))
        return e->parent[to] >= 0 && msg == 0
                   ? set_cause(cause, "%s already has the message (from %s at t=%g)", tn,
                               e->c->nodes[e->parent[to]].name, engine_hold_time(e, to, msg))
                   : set_cause(cause, "%s already has the message", tn);
    struct transfer t;
    if (engine_earliest(e, from, to, msg, &t) < 0)
        return set_cause(cause, "there is no link from %s to %s", fn, tn);
    if (e->lean) {
        t.reason = NULL;
        e->last = t;
        stream_push(e, &t, e->ntr++);
    } else {
        t.reason = reason && reason[0] ? xstrdup(reason) : no_reason;
        if (e->ntr == e->trcap) {
            e->trcap = e->trcap ? 2 * e->trcap : 64;
            e->tr = xrealloc(e->tr, (size_t)e->trcap * sizeof *e->tr);
        }
        e->tr[e->ntr++] = t;
    }
    e->hold[hold_slot(e, to, msg)] = t.hold;
    e->send_free[from] = t.free;
    if (e->recv_free && e->model == MODEL_ASYNC)   /* none when lean: see recv_free_of */
        e->recv_free[to] = t.recv_end;
    else if (e->recv_free && (e->model == MODEL_SYNC || e->model == MODEL_ONE_PORT))
        e->recv_free[to] = t.hold;
    if (e->link_free)
        e->link_free[e->c->edge_of[(size_t)from * (size_t)e->n + (size_t)to]] = t.link_end;
    if (msg == 0)
        e->parent[to] = from;
    if (e->nwaiting > 0)
        e->nwaiting--;
    if (t.hold > e->makespan)
        e->makespan = t.hold;
    if (!e->lean) {
        free(e->ev);   /* the timeline no longer matches */
        e->ev = NULL;
        e->nev = 0;
    }
    return 0;
}

/* ---- the list policies' run, in their order (engine_run_list) ----
 * Node i of the run is order[i]: hold[], send_free[] and parent[] (parent
 * as positions) are kept in that order while it runs and put back at the
 * end; s[] holds each node's send time.  A
 * stream item's val is its sender's position; its receiver's is nheld plus
 * the booking's number. */

struct list_run {
    const int *order;
    int nheld;
    double *s;
    double L;
};

/* stream_step for a list run: the same events, times and order. */
static void list_step(struct engine *e, const struct list_run *lr, const struct rq_item *it)
{
    double time = rq_time(it);
    uint32_t tie = it->tie;
    int from = it->val, to = lr->nheld + (int)(tie >> 4);
    int kind = (int)(tie >> 2 & 3u);
    unsigned mask = tie & 3u;
    if (time < e->streamed_to)
        e->late++;
    else
        e->streamed_to = time;
    e->nev++;
    if (e->on_event) {
        struct event ev = {time, tie, kind, (int)(tie >> 4)};
        e->on_event(e->on_event_ctx, e, &ev, lr->order[from], lr->order[to]);
    }
    double next;
    int nkind = EV_HOLD;
    switch (kind) {
    case EV_SEND_START:   /* fill_times, async: free = t + s, link_end = free + l */
        if (mask & HAS_SEND_END) {
            nkind = EV_SEND_END;
            next = time + lr->s[from];
        } else if (mask & HAS_LINK_END) {
            nkind = EV_LINK_END;
            next = time + lr->s[from] + lr->L;
        } else {
            next = e->hold[to];   /* the very double the booking computed */
        }
        break;
    case EV_SEND_END:
        if (mask & HAS_LINK_END) {
            nkind = EV_LINK_END;
            next = time + lr->L;
        } else {
            next = e->hold[to];
        }
        break;
    case EV_LINK_END:
        next = e->hold[to];
        break;
    default:
        return;
    }
    rq_push(e->stream, next, (tie & ~(3u << 2)) | (uint32_t)nkind << 2, from);
}

static void list_stream_until(struct engine *e, const struct list_run *lr, double t)
{
    struct rq_item it;
    while (rq_take(e->stream, t, &it))
        list_step(e, lr, &it);
}

/* Scatter a[] (element i belonging to node order[i]) into to[], in node
 * order.  Independent writes, so their cache misses overlap; following the
 * permutation's cycles in place would wait for each miss in turn. */
static void scatter_doubles(double *to, const double *a, const int *order, int n)
{
    for (int i = 0; i < n; i++)
        to[order[i]] = a[i];
}

static void scatter_ints(int *to, const int *a, const int *order, int n)
{
    for (int i = 0; i < n; i++)
        to[order[i]] = a[i];
}

int engine_run_list(struct engine *e, int *order, int nheld, double smax, struct radixq *senders)
{
    const struct cluster *c = e->c;
    int n = e->n;
    if (!e->lean || e->model != MODEL_ASYNC || c->kind != CLUSTER_NODES || e->ntr > 0 ||
        nheld < 1 || nheld > n || e->nwaiting != n - nheld)
        return 0;
    struct list_run lr = {order, nheld, xmalloc((size_t)n * sizeof(double)), c->latency};
    double *hold = e->hold, *sf = e->send_free, *s = lr.s;
    int *parent = e->parent;
    mem_advise_huge(s, (size_t)n * sizeof *s);
    /* Into the run's order: send_free (0) and parent (-1) are the same
     * everywhere before the first booking; hold is INFINITY but for the
     * holders, which come first. */
    double *h0 = xmalloc((size_t)nheld * sizeof *h0);
    for (int i = 0; i < nheld; i++)
        h0[i] = hold[order[i]];
    for (int i = 0; i < n; i++)
        hold[i] = INFINITY;
    rq_free(senders);
    rq_init(senders);
    for (int i = 0; i < nheld; i++) {
        hold[i] = h0[i];
        s[i] = c->nodes[order[i]].send;
        double ready = hold[i] > sf[i] ? hold[i] : sf[i];   /* engine_ready */
        rq_push(senders, ready + s[i], (uint32_t)order[i], i);
    }
    free(h0);
    int q = -1, p = -1;
    double ready = 0;
    /* The receivers' send and receive times in their order, read at once
     * (independent loads, whose cache misses overlap): the receive time is
     * parked in send_free, which is 0 until the node has sent. */
    for (int i = nheld; i < n; i++) {
        if (i + 16 < n)
            __builtin_prefetch(&c->nodes[order[i + 16]]);
        const struct node *np = &c->nodes[order[i]];
        s[i] = np->send;
        sf[i] = np->recv;
    }
    for (p = nheld; p < n; p++) {
        /* fnf's sender: no entry goes stale, nobody else books */
        const struct rq_item *top = rq_top(senders);
        q = top->val;
        double done = rq_time(top);
        rq_pop(senders);
        /* as list_choose's not_before, and engine_run streams up to it */
        list_stream_until(e, &lr, done - smax - (done + smax) * 0x1p-50);
        double recv = sf[p];
        sf[p] = 0;
        ready = hold[q] > sf[q] ? hold[q] : sf[q];
        struct cost k = {s[q], lr.L, recv, s[q] + lr.L + recv, s[q]};
        struct transfer t;
        fill_times(MODEL_ASYNC, &k, ready, 0.0, &t);
        uint32_t tie = (uint32_t)e->ntr++ << 4 | (uint32_t)EV_SEND_START << 2 | optional_events(&t);
        rq_push(e->stream, t.start, tie, q);
        hold[p] = t.hold;
        sf[q] = t.free;
        parent[p] = q;
        if (e->nwaiting > 0)
            e->nwaiting--;
        if (t.hold > e->makespan)
            e->makespan = t.hold;
        /* list_sync: the sender and the receiver with their next completions */
        double rq = hold[q] > sf[q] ? hold[q] : sf[q], rp = hold[p] > sf[p] ? hold[p] : sf[p];
        rq_push(senders, rq + s[q], (uint32_t)order[q], q);
        rq_push(senders, rp + s[p], (uint32_t)order[p], p);
        /* n - 1 - p bookings are left, each pops one: the rest never come up */
        rq_trim(senders, (size_t)(n - 1 - p));
    }
    if (e->ntr > 0) {   /* the latest booking, as engine_earliest gives it */
        p = n - 1;
        struct cost k = {s[q], lr.L, c->nodes[order[p]].recv, 0, s[q]};
        k.T = k.s + k.l + k.r;
        memset(&e->last, 0, sizeof e->last);
        e->last.from = order[q];
        e->last.to = order[p];
        e->last.seq = e->ntr - 1;
        e->last.wait_start = ready;
        fill_times(MODEL_ASYNC, &k, ready, 0.0, &e->last);
    }
    rq_free(senders);   /* as engine_run frees the policy before the last events */
    list_stream_until(e, &lr, INFINITY);
    for (int i = 0; i < n; i++)
        if (parent[i] >= 0)
            parent[i] = order[parent[i]];
    /* Back in node order, each array into the one freed before it (s[],
     * then hold's, then send_free's): no fresh pages to fault in. */
    scatter_doubles(s, hold, order, n);
    scatter_doubles(hold, sf, order, n);
    scatter_ints((int *)(void *)sf, parent, order, n);
    e->hold = s;
    e->send_free = hold;
    e->parent = (int *)(void *)sf;
    free(parent);
    return 1;
}

/* ---- the event heap: ordered by (time, seq) ---- */

static bool ev_less(const struct event *a, const struct event *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void heap_push(struct event *h, int *n, struct event ev)
{
    int i = (*n)++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!ev_less(&ev, &h[parent]))
            break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = ev;
}

static struct event heap_pop(struct event *h, int *n)
{
    struct event top = h[0], last = h[--(*n)];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && ev_less(&h[c + 1], &h[c]))
            c++;
        if (!ev_less(&h[c], &last))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n > 0)
        h[i] = last;
    return top;
}

void engine_timeline(struct engine *e)
{
    if (e->lean) {
        engine_stream_until(e, INFINITY);
        return;
    }
    int cap = 4 * e->ntr, nh = 0;
    struct event *heap = xmalloc((size_t)(cap ? cap : 1) * sizeof *heap);
    unsigned seq = 0;
    for (int i = 0; i < e->ntr; i++) {
        const struct transfer *t = &e->tr[i];
        heap_push(heap, &nh, (struct event){t->start, seq++, EV_SEND_START, i});
        /* The sender is free before the receiver holds it: say so. */
        if (t->free < t->hold)
            heap_push(heap, &nh, (struct event){t->free, seq++, EV_SEND_END, i});
        /* A receive phase follows the link: mark the arrival. */
        if (t->recv_end > t->recv_start && t->link_end < t->hold && t->link_end > t->start)
            heap_push(heap, &nh, (struct event){t->link_end, seq++, EV_LINK_END, i});
        heap_push(heap, &nh, (struct event){t->hold, seq++, EV_HOLD, i});
    }
    free(e->ev);
    e->ev = xmalloc((size_t)(nh ? nh : 1) * sizeof *e->ev);
    e->nev = 0;
    while (nh > 0)
        e->ev[e->nev++] = heap_pop(heap, &nh);
    free(heap);
}

/* ---- replay ---- */

void snapshot_init(struct snapshot *s, const struct engine *e)
{
    memset(s, 0, sizeof *s);
    s->phase = xcalloc((size_t)(e->ntr ? e->ntr : 1), 1);
    s->holds = xcalloc((size_t)(e->n ? e->n : 1), 1);
    engine_snapshot(e, 0, s);
}

void snapshot_free(struct snapshot *s)
{
    free(s->phase);
    free(s->holds);
    memset(s, 0, sizeof *s);
}

void engine_snapshot_step(const struct engine *e, struct snapshot *s)
{
    const struct event *ev = &e->ev[s->step++];
    const struct transfer *t = &e->tr[ev->transfer];
    s->now = ev->time;
    switch (ev->kind) {
    case EV_SEND_START:
        s->phase[ev->transfer] = PHASE_SENDING;
        break;
    case EV_SEND_END:
        s->phase[ev->transfer] = t->link_end > t->free ? PHASE_LINK : PHASE_RECEIVING;
        break;
    case EV_LINK_END:
        s->phase[ev->transfer] = PHASE_RECEIVING;
        break;
    case EV_HOLD:
        s->phase[ev->transfer] = PHASE_DONE;
        if (t->msg == 0 && !s->holds[t->to]) {
            s->holds[t->to] = 1;
            s->nholding++;
        }
        break;
    }
}

void engine_snapshot(const struct engine *e, int k, struct snapshot *s)
{
    if (k < 0 || e->lean)
        k = 0;
    if (k > e->nev)
        k = e->nev;
    memset(s->phase, PHASE_FUTURE, (size_t)e->ntr);
    memset(s->holds, 0, (size_t)e->n);
    s->step = 0;
    s->now = 0;
    s->nholding = 0;
    for (int p = 0; p < e->n; p++)
        if (engine_holds(e, p, 0) && e->parent[p] < 0) {   /* held from the start */
            s->holds[p] = 1;
            s->nholding++;
        }
    while (s->step < k)
        engine_snapshot_step(e, s);
}

void engine_narrate(const struct engine *e, int k, char *buf, size_t size)
{
    if (e->lean && k >= 0 && k < e->nev) {
        snprintf(buf, size, "event %d: a lean engine keeps no timeline", k + 1);
        return;
    }
    if (k < 0 || k >= e->nev) {
        snprintf(buf, size, "%s", k >= 0          ? "end of the schedule"
                                  : e->personal ? "start: every node holds its own messages"
                                                : "start: only the source holds the message");
        return;
    }
    const struct event *ev = &e->ev[k];
    const struct transfer *t = &e->tr[ev->transfer];
    const char *fn = e->c->nodes[t->from].name, *tn = e->c->nodes[t->to].name;
    char what[80] = "the message";
    if (e->personal)
        snprintf(what, sizeof what, "%s's message", fn);
    else if (e->nmsg > 1)   /* pipelined slices, numbered from 1 as the schedulers' reasons do */
        snprintf(what, sizeof what, "slice %d", t->msg + 1);
    switch (ev->kind) {
    case EV_SEND_START:
        if (t->wait_start < t->start)
            snprintf(buf, size, "t=%g: %s starts sending %s to %s, idle since t=%g: %s's receive "
                     "port was busy%s%s", ev->time, fn, what, tn, t->wait_start, tn,
                     t->reason && t->reason[0] ? "; " : "", t->reason ? t->reason : "");
        else
            snprintf(buf, size, "t=%g: %s starts sending %s to %s%s%s", ev->time, fn, what, tn,
                     t->reason && t->reason[0] ? ": " : "", t->reason ? t->reason : "");
        break;
    case EV_SEND_END:
        snprintf(buf, size, "t=%g: %s has sent %s to %s and may send again; %s holds it at t=%g",
                 ev->time, fn, what, tn, tn, t->hold);
        break;
    case EV_LINK_END:
        snprintf(buf, size, "t=%g: %s reaches %s, which receives it until t=%g", ev->time, what,
                 tn, t->recv_end);
        break;
    case EV_HOLD: {
        if (e->personal) {
            snprintf(buf, size, "t=%g: %s holds %s's message for it", ev->time, tn, fn);
            break;
        }
        int held = 0;
        for (int p = 0; p < e->n; p++)   /* held from the start */
            if (engine_holds(e, p, t->msg) && e->parent[p] < 0)   /* the source: every slice */
                held++;
        for (int i = 0; i <= k; i++)
            held += e->ev[i].kind == EV_HOLD && e->tr[e->ev[i].transfer].msg == t->msg;
        snprintf(buf, size, "t=%g: %s holds %s from %s (%d of %d nodes hold it)", ev->time, tn,
                 what, fn, held, e->n);
        break;
    }
    }
}
