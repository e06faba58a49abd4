/*
 * engine/engine.c - booking, the timeline and replay (engine/engine.h); the port
 * models' arithmetic is model/timing.h's, the lean stream is engine/engine_lean.c's.
 *
 * Booking is O(1); building the timeline is O(E) for E events (radix sorts); a
 * snapshot at step k costs O(k + transfers) since it replays from the start.
 */
#include "engine/engine.h"

#include "engine/engine_lean.h"
#include "support/hugemem.h"
#include "support/timekey.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The reason of every transfer booked without one: shared, never freed (an
 * exchange books a million transfers without reasons). */
static char no_reason[1];
/* The reason of every transfer whose text e->say writes when it is read. */
static char said_reason[1];

static void free_reason(char *reason)
{
    if (reason != no_reason && reason != said_reason)
        free(reason);
}

const char *engine_reason(const struct engine *e, const struct transfer *t, char **tmp)
{
    *tmp = NULL;
    if (t->reason == said_reason && e->say)
        return *tmp = e->say(e, t, e->say_arg);
    return t->reason && t->reason != said_reason ? t->reason : "";
}

void engine_reason_prefix(struct engine *e, int k, const char *prefix)
{
    struct transfer *t = &e->tr[k];
    char *tmp;
    const char *why = engine_reason(e, t, &tmp);
    if (why[0]) {
        char *text = xasprintf("%s%s", prefix, why);
        free_reason(t->reason);
        t->reason = text;
    }
    free(tmp);
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
    if (!(model_mask_for(c->kind) & MODEL_BIT(m))) {
        char *no = model_refusal(m, c->kind);
        set_cause(cause, "%s", no);
        free(no);
        return -1;
    }
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
    if (timing_holds_link(m, c->kind))
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
    /* A multicast waits for its targets only (model/targets.h) */
    e->nwaiting = c->target ? c->ntargets - (c->target[c->source] ? 1 : 0) : c->n - 1;
    return 0;
}

void engine_give(struct engine *e, int p, int msg, double t)
{
    if (e->personal && p != msg % e->n)
        return;   /* the sender holds it from 0 anyway; nobody else may */
    e->hold[hold_slot(e, p, msg)] = t;
}

/* Does a delivery to p count (waiting, makespan)?  A multicast's relay does
 * not; every delivery of an exchange or of pipelined slices does. */
static bool counts(const struct engine *e, int p)
{
    return e->personal || e->nmsg != 1 || cluster_is_target(e->c, p);
}

void engine_reset(struct engine *e)
{
    /* Undo the bookings only: the initial holdings (engine_give) stay. */
    int delivered = 0;
    if (e->lean) {   /* a broadcast: the booked nodes are those with a parent */
        for (int p = 0; p < e->n; p++)
            if (e->parent[p] >= 0) {
                e->hold[p] = INFINITY;
                delivered += counts(e, p);
            }
        rq_free(e->stream);
        rq_init(e->stream);
        e->streamed_to = -INFINITY;
        e->late = 0;
    }
    for (int i = 0; !e->lean && i < e->ntr; i++) {
        const struct transfer *t = &e->tr[i];
        e->hold[hold_slot(e, t->to, t->msg)] = INFINITY;
        delivered += counts(e, t->to);
        free_reason(t->reason);
    }
    e->nwaiting += delivered;
    e->ntr = 0;
    e->say = NULL;
    e->say_arg = NULL;
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

/* When p's receive port is free: always 0 on a lean engine (a broadcast
 * delivers to p once, and nothing was booked into p before). */
static double recv_free_of(const struct engine *e, int p)
{
    return e->recv_free ? e->recv_free[p] : 0.0;
}

int engine_earliest(const struct engine *e, int from, int to, int msg, struct transfer *out)
{
    if (from < 0 || from >= e->n || to < 0 || to >= e->n || msg < 0 || msg >= e->nmsg)
        return -1;
    if (e->personal && to != msg % e->n)
        return -1;
    if (!engine_holds(e, from, msg))
        return -1;
    struct timing_ports at = {engine_ready(e, from, msg), recv_free_of(e, to), -INFINITY};
    if (e->link_free) {   /* multi-port on a platform graph: one message at a time per link */
        int edge = e->c->edge_of[(size_t)from * (size_t)e->n + (size_t)to];
        if (edge >= 0)
            at.link_free = e->link_free[edge];
    }
    struct timing tm;
    if (!timing_of(e->c, e->model, from, to, &at, &tm))
        return -1;
    memset(out, 0, sizeof *out);
    out->from = from;
    out->to = to;
    out->msg = msg;
    out->seq = e->ntr;
    out->wait_start = at.ready;
    transfer_set_times(out, &tm);
    return 0;
}

/* What a booking is told of its reason: a text to copy, a heap text to keep
 * (owned, may be NULL), or a say to write it when read. */
struct why {
    const char *reason;
    char **owned;
    engine_say_fn say;
    const void *arg;
};

static int book(struct engine *e, int from, int to, int msg, struct why w, char **cause)
{
    const char *reason = w.reason;
    char **owned = w.owned;
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
        if (e->on_book) {
            struct timing tm = {t.start, t.send_end, t.link_start, t.link_end,
                                t.recv_start, t.recv_end, t.hold, t.free};
            e->on_book(e->on_book_ctx, e->ntr, from, to, &tm);
        }
        lean_push(e, &t, e->ntr++);
    } else {
        if (w.say && (!e->say || (e->say == w.say && e->say_arg == w.arg))) {
            e->say = w.say;
            e->say_arg = w.arg;
            t.reason = said_reason;
        } else if (w.say) {   /* another say than the engine's: written now */
            t.reason = w.say(e, &t, w.arg);
        } else if (owned && *owned && (*owned)[0]) {
            t.reason = *owned;   /* the decision's own text: no copy */
            *owned = NULL;
        } else if (!owned && reason && reason[0]) {
            t.reason = xstrdup(reason);
        } else {
            t.reason = no_reason;
        }
        if (e->ntr == e->trcap) {
            e->trcap = e->trcap ? 2 * e->trcap : 64;
            e->tr = xrealloc(e->tr, (size_t)e->trcap * sizeof *e->tr);
        }
        e->tr[e->ntr++] = t;
    }
    e->hold[hold_slot(e, to, msg)] = t.hold;
    e->send_free[from] = t.free;
    if (e->recv_free && timing_holds_recv_port(e->model))   /* none when lean: see recv_free_of */
        e->recv_free[to] = t.recv_end;
    if (e->recv_free && timing_shares_port(e->model)) {
        /* One port per node: the sender's receive side and the receiver's
         * send side are busy too (both ends start free: t.start is past
         * them, so these only move forward). */
        e->recv_free[from] = t.free;
        e->send_free[to] = t.recv_end;
    }
    if (e->link_free)   /* timing_holds_link */
        e->link_free[e->c->edge_of[(size_t)from * (size_t)e->n + (size_t)to]] = t.link_end;
    if (msg == 0)
        e->parent[to] = from;
    if (counts(e, to)) {   /* a relay neither waits nor ends a multicast */
        if (e->nwaiting > 0)
            e->nwaiting--;
        if (t.hold > e->makespan)
            e->makespan = t.hold;
    }
    if (!e->lean) {
        free(e->ev);   /* the timeline no longer matches */
        e->ev = NULL;
        e->nev = 0;
    }
    return 0;
}

int engine_book(struct engine *e, int from, int to, int msg, const char *reason, char **cause)
{
    return book(e, from, to, msg, (struct why){reason, NULL, NULL, NULL}, cause);
}

int engine_book_owned(struct engine *e, int from, int to, int msg, char **reason, char **cause)
{
    return book(e, from, to, msg, (struct why){NULL, reason, NULL, NULL}, cause);
}

int engine_book_said(struct engine *e, int from, int to, int msg, engine_say_fn say, const void *arg,
                     char **cause)
{
    return book(e, from, to, msg, (struct why){NULL, NULL, say, arg}, cause);
}

int engine_record(struct engine *e, const struct transfer *t, char **cause)
{
    if (e->lean)
        return set_cause(cause, "a lean engine keeps no transfer records");
    if (t->from < 0 || t->from >= e->n || t->to < 0 || t->to >= e->n)
        return set_cause(cause, "transfer %d -> %d: not a node (0..%d)", t->from, t->to, e->n - 1);
    if (t->msg < 0 || t->msg >= e->nmsg)
        return set_cause(cause, "message %d does not exist", t->msg);
    if (t->from == t->to)
        return set_cause(cause, "%s cannot send to itself", e->c->nodes[t->from].name);
    if (engine_holds(e, t->to, t->msg))
        return set_cause(cause, "%s already has the message", e->c->nodes[t->to].name);
    if (e->ntr == e->trcap) {
        e->trcap = e->trcap ? 2 * e->trcap : 64;
        e->tr = xrealloc(e->tr, (size_t)e->trcap * sizeof *e->tr);
    }
    struct transfer *r = &e->tr[e->ntr];
    *r = *t;
    r->seq = e->ntr++;
    if (t->reason && t->reason[0] && t->reason != said_reason) {
        r->reason = xstrdup(t->reason);
    } else {
        r->reason = no_reason;
    }
    e->hold[hold_slot(e, t->to, t->msg)] = t->hold;
    if (t->free > e->send_free[t->from])
        e->send_free[t->from] = t->free;
    if (e->recv_free && timing_shares_port(e->model)) {   /* one port per node */
        if (t->free > e->recv_free[t->from])
            e->recv_free[t->from] = t->free;
        if (t->recv_end > e->send_free[t->to])
            e->send_free[t->to] = t->recv_end;
        if (t->recv_end > e->recv_free[t->to])
            e->recv_free[t->to] = t->recv_end;
    }
    if (t->msg == 0)
        e->parent[t->to] = t->from;
    if (counts(e, t->to)) {
        if (e->nwaiting > 0)
            e->nwaiting--;
        if (t->hold > e->makespan)
            e->makespan = t->hold;
    }
    free(e->ev);   /* the timeline no longer matches */
    e->ev = NULL;
    e->nev = 0;
    return 0;
}

/* engine_record_lean's hook: booking seq as the full engine records it
 * (async, the receive port free: the sender was ready at the start). */
static void record_booking(void *ctx, int seq, int from, int to, const struct timing *tm)
{
    struct engine *e = ctx;
    struct transfer *t = &e->tr[seq];
    t->from = from;
    t->to = to;
    t->msg = 0;
    t->seq = seq;
    transfer_set_times(t, tm);
    t->wait_start = tm->start;
    t->reason = said_reason;
}

bool engine_record_lean(struct engine *e)
{
    if (e->lean || e->ntr > 0 || !timing_list_run(e->model) || e->c->kind != CLUSTER_NODES ||
        e->c->target || e->link_free || e->nwaiting < 1 || engine_set_quiet(e, NULL) < 0)
        return false;
    free(e->tr);
    e->trcap = e->nwaiting;   /* every waiting node booked once */
    e->tr = xmalloc((size_t)e->trcap * sizeof *e->tr);
    mem_populate(e->tr, (size_t)e->trcap * sizeof *e->tr);
    e->on_book = record_booking;
    e->on_book_ctx = e;
    e->recording = true;
    return true;
}

void engine_record_lean_end(struct engine *e)
{
    rq_free(e->stream);
    free(e->stream);
    e->stream = NULL;
    e->lean = e->quiet = e->recording = false;
    e->on_book = NULL;
    e->on_book_ctx = NULL;
    e->nev = 0;
    memset(&e->last, 0, sizeof e->last);
    e->recv_free = xcalloc((size_t)e->n, sizeof *e->recv_free);   /* async: to each receive's end */
    for (int i = 0; i < e->ntr; i++)
        e->recv_free[e->tr[i].to] = e->tr[i].recv_end;
}

/* An event's key, twelve bytes from the most significant: the time's eight,
 * then the insertion sequence's four (distinct: no two keys are equal). */
static inline unsigned key_byte(const struct event *ev, int d)
{
    return d < 8 ? (unsigned)(time_key(ev->time) >> (56 - 8 * d)) & 0xff
                 : (ev->seq >> (24 - 8 * (d - 8))) & 0xff;
}

static inline bool key_less(const struct event *a, const struct event *b)
{
    uint64_t ta = time_key(a->time), tb = time_key(b->time);
    return ta < tb || (ta == tb && a->seq < b->seq);
}

/* ev[0..n) sorted on (time, seq) in place, from byte d of the key on: a most
 * significant digit first radix sort (American flag sort), small buckets by
 * insertion.  In place: the timeline needs no second array. */
static void sort_by_time(struct event *ev, size_t n, int d)
{
    while (n > 32 && d < 12) {
        size_t count[256] = {0}, next[256], end[256];
        for (size_t i = 0; i < n; i++)
            count[key_byte(&ev[i], d)]++;
        if (count[key_byte(&ev[0], d)] == n) {   /* one bucket: the next byte */
            d++;
            continue;
        }
        size_t sum = 0;
        for (unsigned b = 0; b < 256; b++) {
            next[b] = sum;
            sum += count[b];
            end[b] = sum;
        }
        for (unsigned b = 0; b < 256; b++)   /* each slot filled by the cycle through it */
            while (next[b] < end[b]) {
                struct event x = ev[next[b]];
                unsigned k = key_byte(&x, d);
                while (k != b) {
                    struct event y = ev[next[k]];
                    ev[next[k]++] = x;
                    x = y;
                    k = key_byte(&x, d);
                }
                ev[next[b]++] = x;
            }
        for (unsigned b = 0; b < 256; b++)
            if (count[b] > 1)
                sort_by_time(ev + end[b] - count[b], count[b], d + 1);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        struct event x = ev[i];
        size_t j = i;
        for (; j > 0 && key_less(&x, &ev[j - 1]); j--)
            ev[j] = ev[j - 1];
        ev[j] = x;
    }
}

/* Transfer t's events in their order (the send starts, the send port is
 * free, the link ends, the receiver holds; those t has): kinds and times (-0
 * as +0, the equal time it is); how many. */
static int transfer_timeline(const struct transfer *t, int kind[4], double time[4])
{
    unsigned events = transfer_events(t);   /* the lean stream's, too */
    int m = 0;
    kind[m] = EV_SEND_START, time[m++] = t->start + 0.0;
    if (events & TIMING_SEND_END)
        kind[m] = EV_SEND_END, time[m++] = t->free + 0.0;
    if (events & TIMING_LINK_END)
        kind[m] = EV_LINK_END, time[m++] = t->link_end + 0.0;
    kind[m] = EV_HOLD, time[m++] = t->hold + 0.0;
    return m;
}

/* ev[0..n) in insertion order sorted stably on the time: a
 * least significant byte first radix sort over the bytes in which the times
 * differ, through tmp. */
static void sort_stable(struct event *ev, size_t n, struct event *tmp)
{
    uint64_t first = time_key(ev[0].time), differ = 0;
    for (size_t i = 1; i < n; i++)
        differ |= time_key(ev[i].time) ^ first;
    struct event *from = ev, *to = tmp;
    for (int d = 0; d < 8; d++) {
        if (!((differ >> (8 * d)) & 0xff))
            continue;
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[((time_key(from[i].time) >> (8 * d)) & 0xff) + 1]++;
        for (int b = 1; b <= 256; b++)
            count[b] += count[b - 1];
        for (size_t i = 0; i < n; i++)
            to[count[(time_key(from[i].time) >> (8 * d)) & 0xff]++] = from[i];
        struct event *x = from;
        from = to;
        to = x;
    }
    if (from != ev)
        memcpy(ev, from, n * sizeof *ev);
}

/* A time's bucket of nb over [lo, lo + nb / scale): monotone in the time. */
static size_t time_bucket(double t, double lo, double scale, size_t nb)
{
    size_t b = scale > 0 ? (size_t)((t - lo) * scale) : 0;
    return b < nb ? b : nb - 1;
}

void engine_timeline(struct engine *e)
{
    if (e->lean) {
        engine_stream_until(e, INFINITY);
        return;
    }
    /* The events in (time, insertion) order: numbered as they come and dealt
     * in that order into buckets of equal time spans (a bucket's events all
     * before the next one's), each then sorted stably on its times through a
     * second array (sort_stable), or, larger than a sixteenth of all, on
     * (time, number) in place. */
    int kind[4];
    double time[4], lo = INFINITY, hi = -INFINITY;
    size_t n = 0;
    for (int i = 0; i < e->ntr; i++) {
        int m = transfer_timeline(&e->tr[i], kind, time);
        n += (size_t)m;
        for (int j = 0; j < m; j++) {
            lo = time[j] < lo ? time[j] : lo;
            hi = time[j] > hi ? time[j] : hi;
        }
    }
    size_t nb = n / 16 + 1;
    double scale = isfinite(lo) && isfinite(hi) && hi > lo ? (double)nb / (hi - lo) : 0;
    if (!isfinite(scale))
        scale = 0;   /* one bucket: the sort alone */
    size_t *at = xcalloc(nb + 1, sizeof *at);
    for (int i = 0; i < e->ntr; i++) {
        int m = transfer_timeline(&e->tr[i], kind, time);
        for (int j = 0; j < m; j++)
            at[time_bucket(time[j], lo, scale, nb) + 1]++;
    }
    for (size_t b = 1; b <= nb; b++)
        at[b] += at[b - 1];   /* at[b]: where bucket b starts */
    free(e->ev);
    e->ev = xmalloc((n ? n : 1) * sizeof *e->ev);
    mem_populate(e->ev, n * sizeof *e->ev);
    unsigned k = 0;
    for (int i = 0; i < e->ntr; i++) {
        int m = transfer_timeline(&e->tr[i], kind, time);
        for (int j = 0; j < m; j++)
            e->ev[at[time_bucket(time[j], lo, scale, nb)]++] =
                (struct event){time[j], k++, (unsigned)kind[j], i};
    }
    e->nev = (int)n;
    size_t most = 0;   /* the second array: the largest bucket, at most a sixteenth of all */
    for (size_t b = 0, from = 0; b < nb; from = at[b++])
        most = at[b] - from > most ? at[b] - from : most;
    most = most < n / 16 + 4096 ? most : n / 16 + 4096;
    struct event *tmp = xmalloc((most ? most : 1) * sizeof *tmp);
    for (size_t b = 0, from = 0; b < nb; from = at[b++]) {   /* at[b]: where bucket b ends */
        size_t len = at[b] - from;
        if (len > 1 && len <= 32)   /* by insertion */
            sort_by_time(e->ev + from, len, 0);
        else if (len > 1 && len <= most)
            sort_stable(e->ev + from, len, tmp);
        else if (len > 1)   /* times spread too unevenly: in place */
            sort_by_time(e->ev + from, len, 0);
    }
    free(tmp);
    free(at);
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
        text_fit(buf, size, "event %d: a lean engine keeps no timeline", k + 1);
        return;
    }
    if (k < 0 || k >= e->nev) {
        text_fit(buf, size, "%s", k >= 0          ? "end of the schedule"
                                  : e->personal ? "start: every node holds its own messages"
                                                : "start: only the source holds the message");
        return;
    }
    const struct event *ev = &e->ev[k];
    const struct transfer *t = &e->tr[ev->transfer];
    const char *fn = e->c->nodes[t->from].name, *tn = e->c->nodes[t->to].name;
    char what[80] = "the message";
    if (e->personal)
        text_fit(what, sizeof what, "%s's message", fn);
    else if (e->nmsg > 1)   /* slices or segments, numbered from 1 as the schedulers' reasons do */
        text_fit(what, sizeof what, "%s %d", engine_piece_name(e), t->msg + 1);
    switch (ev->kind) {
    case EV_SEND_START: {
        char *tmp;
        const char *why = engine_reason(e, t, &tmp);
        if (t->wait_start < t->start) {   /* what the start waited for, in the model's terms */
            char held[160];
            if (timing_shares_port(e->model))
                text_fit(held, sizeof held, "%s's one port (it sends or receives) was busy", tn);
            else if (!timing_holds_recv_port(e->model))
                text_fit(held, sizeof held, "the link to %s was busy", tn);
            else
                text_fit(held, sizeof held, "%s's receive port was busy", tn);
            text_fit(buf, size, "t=%g: %s starts sending %s to %s, idle since t=%g: %s%s%s", ev->time, fn,
                     what, tn, t->wait_start, held, why[0] ? "; " : "", why);
        } else {
            text_fit(buf, size, "t=%g: %s starts sending %s to %s%s%s", ev->time, fn, what, tn,
                     why[0] ? ": " : "", why);
        }
        free(tmp);
        break;
    }
    case EV_SEND_END:
        text_fit(buf, size, "t=%g: %s has sent %s to %s and may send again; %s holds it at t=%g",
                 ev->time, fn, what, tn, tn, t->hold);
        break;
    case EV_LINK_END:
        text_fit(buf, size, "t=%g: %s reaches %s, which receives it until t=%g", ev->time, what,
                 tn, t->recv_end);
        break;
    case EV_HOLD: {
        if (e->personal) {
            text_fit(buf, size, "t=%g: %s holds %s's message for it", ev->time, tn, fn);
            break;
        }
        int held = 0, targets = 0;   /* a multicast counts its targets */
        for (int p = 0; p < e->n; p++)   /* held from the start */
            if (engine_holds(e, p, t->msg) && e->parent[p] < 0) {   /* the source: every slice */
                held++;
                targets += cluster_is_target(e->c, p);
            }
        for (int i = 0; i <= k; i++)
            if (e->ev[i].kind == EV_HOLD && e->tr[e->ev[i].transfer].msg == t->msg) {
                held++;
                targets += cluster_is_target(e->c, e->tr[e->ev[i].transfer].to);
            }
        if (e->c->target)
            text_fit(buf, size, "t=%g: %s holds %s from %s (%s; %d of %d targets hold it)", ev->time, tn,
                     what, fn, cluster_is_target(e->c, t->to) ? "a target" : "a relay", targets,
                     e->c->ntargets);
        else
            text_fit(buf, size, "t=%g: %s holds %s from %s (%d of %d nodes hold it)", ev->time, tn,
                     what, fn, held, e->n);
        break;
    }
    }
}
