/*
 * engine/engine_lean.c - the lean engine (engine/engine.h, engine/engine_lean.h): the streamed
 * timeline and a list policy's whole run in its own order.
 *
 * Each booking puts its transfer's first event into a monotone radix queue;
 * processing an event queues the transfer's next one, its time derived by
 * the timing rule (model/timing.h) from the start, the costs and hold[]: O(1) per
 * push, amortised small per event when the policy gives not_before.  A list
 * run keeps the node arrays in the order the policy serves the nodes: O(n)
 * besides the queues, and the receivers read one after the other.
 */
#include "engine/engine_lean.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/hugemem.h"
#include "support/pairtab.h"
#include "support/timekey.h"

/* ---- the stream ----
 * One queue item per transfer, keyed by the time of its next event; tie =
 * booking << 4 | kind << 2 | which optional events it has (timing_events,
 * lean_first_tie), so equal times come out by booking, then kind: the order
 * of engine_timeline's array. */

/* The tie of the transfer's event after the one with tie `tie`. */
static uint32_t next_tie(uint32_t tie, int kind)
{
    return (tie & ~(3u << 2)) | (uint32_t)kind << 2;
}

void lean_push(struct engine *e, const struct transfer *t, int booking)
{
    if (e->quiet) {
        e->nev += lean_event_count(transfer_events(t));
        return;
    }
    rq_push(e->stream, t->start, lean_first_tie(booking, transfer_events(t)), t->to);
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

int engine_set_quiet(struct engine *e, char **cause)
{
    if (engine_set_lean(e, NULL, NULL, cause) < 0)
        return -1;
    e->quiet = true;
    return 0;
}

/* Count one processed event at `time` (a late one: after a later one). */
static inline void stream_count(struct engine *e, double time)
{
    if (time < e->streamed_to)
        e->late++;
    else
        e->streamed_to = time;
    e->nev++;
}

static void stream_tell(const struct engine *e, double time, uint32_t tie, int kind, int from,
                        int to)
{
    struct event ev = {time, tie & 0x3fffffffu, (unsigned)kind, (int)(tie >> 4)};
    e->on_event(e->on_event_ctx, e, &ev, from, to);
}

/*
 * The event after a send's start or end (kind, with optional events mask)
 * at `time` of a transfer with costs k: its kind, and unless it is the
 * receiver's hold (the very double the booking computed: the caller reads
 * hold[]) its time.  A send's start gives the rest by the timing rule (a
 * lean engine's receive ports are free: a broadcast delivers to a node
 * once); only async has a link end after the send's end.
 */
static inline int next_event(enum model m, const struct cost *k, int kind, unsigned mask,
                             double time, double *next)
{
    if (kind == EV_SEND_START) {
        struct timing t;
        timing_phases(m, k, time, 0.0, &t);
        if (mask & TIMING_SEND_END) {
            *next = t.free;
            return EV_SEND_END;
        }
        if (mask & TIMING_LINK_END) {
            *next = t.link_end;
            return EV_LINK_END;
        }
        return EV_HOLD;
    }
    if (mask & TIMING_LINK_END) {   /* after the send's end */
        *next = timing_arrival(k, time);
        return EV_LINK_END;
    }
    return EV_HOLD;
}

/* Process one streamed event (the earliest) and queue its transfer's next one. */
static void stream_step(struct engine *e, const struct rq_item *it)
{
    double time = rq_time(it), next;
    uint32_t tie = it->tie;
    int to = it->val, from = e->parent[to];
    int kind = (int)(tie >> 2 & 3u);
    stream_count(e, time);
    if (e->on_event)
        stream_tell(e, time, tie, kind, from, to);
    if (kind == EV_HOLD)
        return;   /* the receiver holds it: the transfer is done */
    int nkind = EV_HOLD;
    struct cost k;
    if (kind == EV_SEND_END && e->c->kind != CLUSTER_GRAPH) {
        k.l = timing_link(e->c, from, to);   /* the link is all a send's end needs */
        nkind = next_event(e->model, &k, kind, tie & 3u, time, &next);
    } else if (kind != EV_LINK_END) {
        if (!timing_cost(e->c, from, to, &k))
            return;   /* never: the booking had the edge */
        nkind = next_event(e->model, &k, kind, tie & 3u, time, &next);
    }
    if (nkind == EV_HOLD)
        next = e->hold[to];
    rq_push(e->stream, next, next_tie(tie, nkind), to);
}

void engine_stream_until(struct engine *e, double t)
{
    if (!e->lean)
        return;
    struct rq_item it;
    while (rq_take(e->stream, t, &it)) {   /* looks before it moves anything: support/radixq.h */
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

/* ---- the list run (engine/engine_lean.h) ----
 * hold[], send_free[] and parent[] (parent as positions) are kept in the
 * run's order while it runs; a stream item's val is its sender's position,
 * its receiver's is nheld plus the booking's number.  Before a receiver is
 * booked, its send_free[] slot (0 until it has sent) holds its receive time. */

/* stream_step for a list run: the same events, times and order. */
static void list_step(struct engine *e, const struct lean_list *r, const struct rq_item *it)
{
    double time = rq_time(it), next;
    uint32_t tie = it->tie;
    int from = it->val, to = r->nheld + (int)(tie >> 4);
    int kind = (int)(tie >> 2 & 3u);
    stream_count(e, time);
    if (e->on_event)
        stream_tell(e, time, tie, kind, r->order[from], r->order[to]);
    if (kind == EV_HOLD)
        return;
    int nkind = EV_HOLD;
    if (kind != EV_LINK_END) {
        struct cost k;   /* the receive time is not needed: the hold is booked */
        timing_cost_parts(lean_list_send(r, from), r->L, 0.0, &k);
        nkind = next_event(MODEL_ASYNC, &k, kind, tie & 3u, time, &next);
    }
    if (nkind == EV_HOLD)
        next = r->hold[to];
    rq_push(e->stream, next, next_tie(tie, nkind), from);
}

void lean_list_stream(const struct lean_list *r, double t)
{
    struct engine *e = r->e;
    struct rq_item it;
    while (rq_take(e->stream, t, &it))
        list_step(e, r, &it);
}

/*
 * The send times by position (struct lean_list): each one's number among
 * the distinct times (support/pairtab.h, on the time's bits) until there are more
 * than LEAN_SEND_IDS of them; then the times themselves.  The papers'
 * tables have a few classes, the bench's random ones 901 times: the ids
 * cost 2 bytes a node instead of 8, and sv is read from the L1 cache.
 */
struct send_table {
    double *times;      /* the times, once the ids ran out */
    uint16_t *si;
    struct pair_table ids;
    uint64_t last;      /* the previous time's bits */
};

static void send_put(struct send_table *t, int i, double v, int n)
{
    if (t->times) {
        t->times[i] = v;
        return;
    }
    uint64_t bits = time_bits(v);
    if (i > 0 && bits == t->last) {
        t->si[i] = t->si[i - 1];   /* fnf's and slowest-first's order: sorted by send time */
        return;
    }
    t->last = bits;
    int id = pair_id(&t->ids, bits, 0, LEAN_SEND_IDS);
    if (id >= 0) {
        t->si[i] = (uint16_t)id;
        return;
    }
    /* One time too many: the times themselves from here on. */
    t->times = xmalloc((size_t)n * sizeof *t->times);
    mem_advise_huge(t->times, (size_t)n * sizeof *t->times);
    for (int k = 0; k < i; k++)
        t->times[k] = bits_time(t->ids.pv[t->si[k]].first);
    t->times[i] = v;
    free(t->si);
    t->si = NULL;
}

struct lean_list lean_list_begin(struct engine *e, const int *order, int nheld)
{
    const struct cluster *c = e->c;
    int n = e->n;
    if (!e->lean || !timing_list_run(e->model) || c->kind != CLUSTER_NODES || c->target || e->ntr > 0 ||
        nheld < 1 || nheld > n || e->nwaiting != n - nheld)
        return (struct lean_list){0};
    double *hold = e->hold, *sf = e->send_free;
    struct send_table st = {NULL, xmalloc((size_t)n * sizeof *st.si), {0}, 0};
    pair_table_init(&st.ids);
    /* Into the run's order: send_free (0) and parent (-1) are the same
     * everywhere before the first booking; hold is INFINITY but for the
     * holders, which come first. */
    double *h0 = xmalloc((size_t)nheld * sizeof *h0);
    for (int i = 0; i < nheld; i++)
        h0[i] = hold[order[i]];
    for (int i = 0; i < n; i++)
        hold[i] = INFINITY;
    for (int i = 0; i < nheld; i++) {
        hold[i] = h0[i];
        send_put(&st, i, c->nodes[order[i]].send, n);
    }
    free(h0);
    /* The receivers' send and receive times in their order, read at once
     * (independent loads, whose cache misses overlap): the receive time is
     * parked in send_free, which is 0 until the node has sent. */
    for (int i = nheld; i < n; i++) {
        if (i + 16 < n)
            __builtin_prefetch(&c->nodes[order[i + 16]]);
        const struct node *np = &c->nodes[order[i]];
        send_put(&st, i, np->send, n);
        sf[i] = np->recv;
    }
    double *sv = NULL;   /* the distinct times by number */
    if (st.si) {
        sv = xmalloc((size_t)st.ids.n * sizeof *sv);
        for (int k = 0; k < st.ids.n; k++)
            sv[k] = bits_time(st.ids.pv[k].first);
    }
    pair_table_free(&st.ids);
    return (struct lean_list){e, order, nheld, st.times, st.si, sv, c->latency, hold, sf, e->parent};
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

void lean_list_end(const struct lean_list *r, const struct lean_last *last)
{
    struct engine *e = r->e;
    const int *order = r->order;
    int n = e->n, q = last->q;
    if (e->ntr > 0) {   /* the latest booking, as engine_earliest gives it */
        int p = r->nheld + e->ntr - 1;
        struct timing_ports at = {last->ready, 0.0, -INFINITY};
        struct cost k;
        struct timing t;
        timing_cost_parts(lean_list_send(r, q), r->L, e->c->nodes[order[p]].recv, &k);
        timing_transfer(MODEL_ASYNC, &k, &at, &t);
        memset(&e->last, 0, sizeof e->last);
        e->last.from = order[q];
        e->last.to = order[p];
        e->last.seq = e->ntr - 1;
        e->last.wait_start = at.ready;
        transfer_set_times(&e->last, &t);
    }
    lean_list_stream(r, INFINITY);
    rq_free(e->stream);   /* empty now: its blocks back before the arrays are moved */
    rq_init(e->stream);
    double *hold = r->hold, *sf = r->send_free, *s = r->s;
    int *parent = r->parent;
    for (int i = 0; i < n; i++)
        if (parent[i] >= 0)
            parent[i] = order[parent[i]];
    /* Back in node order, each array into the one freed before it (s[] or a
     * fresh one, then hold's, then send_free's). */
    free(r->si);
    free(r->sv);
    if (!s) {
        s = xmalloc((size_t)n * sizeof *s);
        mem_advise_huge(s, (size_t)n * sizeof *s);
    }
    scatter_doubles(s, hold, order, n);
    scatter_doubles(hold, sf, order, n);
    scatter_ints((int *)(void *)sf, parent, order, n);
    e->hold = s;
    e->send_free = hold;
    e->parent = (int *)(void *)sf;
    free(parent);
}
