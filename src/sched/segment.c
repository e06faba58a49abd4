/*
 * sched/segment.c - segmented broadcasts: plans of sends per node, handed to
 * the engine earliest start first, and the K-segment lower bound (see
 * sched/segment.h).
 */
#include "sched/segment.h"

#include <math.h>
#include <stdlib.h>

#include "engine/bounds.h"

int seg_count(const struct sched *s)
{
    return s->opt.slices > 0 ? s->opt.slices : 1;
}

void seg_plan_init(struct segplan *p, int n, int segments)
{
    *p = (struct segplan){.n = n, .segments = segments};
    p->sends = xcalloc((size_t)n, sizeof *p->sends);
    p->len = xcalloc((size_t)n, sizeof *p->len);
    p->cap = xcalloc((size_t)n, sizeof *p->cap);
    p->next = xcalloc((size_t)n, sizeof *p->next);
    p->version = xcalloc((size_t)n, sizeof *p->version);
    heap_init(&p->ready, (size_t)n);
    p->seen = -1;
}

void seg_plan_free(struct segplan *p)
{
    for (int u = 0; p->sends && u < p->n; u++)
        free(p->sends[u]);
    free(p->sends);
    free(p->len);
    free(p->cap);
    free(p->next);
    free(p->version);
    heap_free(&p->ready);
    *p = (struct segplan){0};
}

void seg_plan_add(struct segplan *p, int u, int seg, int to, int role, int arg)
{
    seg_plan_add_at(p, u, seg, seg, to, role, arg);
}

void seg_plan_add_at(struct segplan *p, int u, int step, int seg, int to, int role, int arg)
{
    if (p->len[u] == p->cap[u]) {
        p->cap[u] = p->cap[u] ? 2 * p->cap[u] : 8;
        p->sends[u] = xrealloc(p->sends[u], (size_t)p->cap[u] * sizeof *p->sends[u]);
    }
    p->sends[u][p->len[u]++] = (struct seg_send){seg, to, role, arg, step};
}

int seg_start(struct segplan *p, struct sched *s, struct engine *e, char **cause)
{
    const struct cluster *c = e->c;
    int k = p->segments;
    if (k < 1 || k > SEG_MAX)
        return set_cause(cause, "--slices %d: a message is cut into 1 to %d segments", k, SEG_MAX);
    if ((double)k * (double)(c->n - 1) > SEG_MAX_TRANSFERS)   /* mpibcast_check's, for the front doors */
        return set_cause(cause, "--slices %d on %d nodes would book %.0f transfers (at most %d)",
                         k, c->n, (double)k * (double)(c->n - 1), SEG_MAX_TRANSFERS);
    enum model m = e->model;
    engine_free(e);
    if (engine_init_messages(e, c, m, k, cause) < 0)
        return -1;
    for (int j = 0; j < k; j++)
        engine_give(e, c->source, j, 0.0);
    e->nwaiting = k * (c->n - 1);
    s->segments = k;
    return 0;
}

/* u's next send if u holds its segment: its start now into *start, and its
 * tie-break (step, then node) into *seq. */
static bool head(const struct segplan *p, const struct engine *e, int u, double *start,
                 uint64_t *seq)
{
    if (p->next[u] >= p->len[u])
        return false;
    const struct seg_send *x = &p->sends[u][p->next[u]];
    struct transfer t;
    if (!engine_holds(e, u, x->seg) || engine_earliest(e, u, x->to, x->seg, &t) < 0)
        return false;
    *start = t.start;
    *seq = (uint64_t)x->step * (uint64_t)p->n + (uint64_t)u;
    return true;
}

/* u's one live entry in ready: (start, seq) now, or none. */
static void push(struct segplan *p, int u, double start, uint64_t seq)
{
    heap_push_seq(&p->ready, start, seq, (uint64_t)++p->version[u] << 32 | (uint64_t)u);
}

static void offer(struct segplan *p, const struct engine *e, int u)
{
    double start;
    uint64_t seq;
    p->version[u]++;   /* whatever it had is stale now */
    if (head(p, e, u, &start, &seq))
        push(p, u, start, seq);
}

int seg_choose(struct segplan *p, const struct engine *e, struct decision *d, char **cause)
{
    if (p->seen < 0) {
        for (int u = 0; u < p->n; u++)
            offer(p, e, u);
        p->seen = e->ntr;
    }
    /* The last bookings: their senders moved on, their receivers hold more. */
    for (; p->seen < e->ntr; p->seen++) {
        offer(p, e, e->tr[p->seen].from);
        offer(p, e, e->tr[p->seen].to);
    }
    struct heap_item it;
    int best = -1;
    while (heap_pop(&p->ready, &it)) {
        int u = (int)(it.data & 0xffffffffu);
        if ((unsigned)(it.data >> 32) != p->version[u])
            continue;   /* an older entry of u */
        double start;
        uint64_t seq;
        if (!head(p, e, u, &start, &seq))
            continue;   /* offered again when its segment comes */
        if (start > it.time || (start == it.time && seq > it.seq)) {
            push(p, u, start, seq);   /* later than it was */
            continue;
        }
        best = u;
        break;
    }
    if (best < 0) {
        if (e->nwaiting > 0)
            return set_cause(cause, "the segmented plan stalls with %d deliveries to make "
                             "(a node waits for a segment nobody sends it first)", e->nwaiting);
        return SCHED_DONE;
    }
    const struct seg_send *bx = &p->sends[best][p->next[best]++];
    d->from = best;
    d->to = bx->to;
    d->msg = bx->seg;
    char *why = p->reason ? p->reason(p->reason_ctx, e->c, best, bx) : NULL;
    d->reason = xasprintf("segment %d of %d%s%s", bx->seg + 1, p->segments, why ? ": " : "",
                          why ? why : "");
    free(why);
    return SCHED_DECIDED;
}

double seg_lower_bound(const struct cluster *c, enum model m, int segments)
{
    double lb = bound_lower(c, m);
    int n = c->n, src = c->source;
    if (n <= 1 || segments <= 1)
        return lb;
    struct timing_ports at = {0.0, 0.0, -INFINITY};
    struct timing t;
    /* The source sends every segment at least once, one send after the
     * other: its K-th send starts after K - 1 of its shortest port times,
     * and its receiver holds that segment a hop later. */
    double busy = INFINITY, hop = INFINITY;
    for (int p = 0; p < n; p++) {
        if (p == src || !timing_of(c, m, src, p, &at, &t))
            continue;
        if (t.free - t.start < busy)
            busy = t.free - t.start;
        if (t.hold - t.start < hop)
            hop = t.hold - t.start;
    }
    if (isfinite(busy) && isfinite(hop) && (segments - 1) * busy + hop > lb)
        lb = (segments - 1) * busy + hop;
    if (!timing_holds_recv_port(m))
        return lb;
    /* Each receiver takes K receives one after the other, the first no
     * earlier than a transfer started at 0 could reach its port. */
    for (int p = 0; p < n; p++) {
        if (p == src)
            continue;
        double first = INFINITY, each = INFINITY;
        for (int q = 0; q < n; q++) {
            if (q == p || !timing_of(c, m, q, p, &at, &t))
                continue;
            if (t.recv_start < first)
                first = t.recv_start;
            if (t.recv_end - t.recv_start < each)
                each = t.recv_end - t.recv_start;
        }
        if (isfinite(first) && isfinite(each) && first + segments * each > lb)
            lb = first + segments * each;
    }
    return lb;
}
