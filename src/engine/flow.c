/*
 * engine/flow.c - a broadcast's schedule on shared links (engine/flow.h).
 *
 * The rates are SimGrid's lmm solution for CM02 (progressive filling on a
 * common level lambda: a flow of weight w moves at lambda / w; a SHARED
 * link holds while the sum of its flows' rates stays under its bandwidth, a
 * FATPIPE link while each of them does; the link that fills first freezes
 * all its flows, and the others go on filling).  A flow's weight is its
 * route's latency (1 when that is 0), as CM02's sharing penalty is.
 */
#define _GNU_SOURCE   /* qsort_r */
#include "engine/flow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/diag.h"

enum fstate { F_WAIT, F_LATENCY, F_FLOW, F_DONE };

struct sim {
    const struct platform *pl;
    struct engine *e;
    bool multi;
    double size;
    int ntr;
    /* each node's sends in booking order: kid[kstart[p] .. kstart[p+1]) */
    int *kstart, *kid, *knext;
    /* per transfer: its route's links rid[roff[i] .. roff[i+1]) and latency (sim_init) */
    size_t *roff;
    uint32_t *rid;
    double *rlat;
    unsigned char *state;
    double *rem, *w, *rate, *ready, *start, *end, *logged;
    int *neck, *sharers;
    int *act, *actpos, nact;    /* flows whose bytes move (F_FLOW) */
    int *lat, nlat;             /* flows paying their latency (F_LATENCY) */
    /* per link, for a solve */
    double *lrem, *luse;
    int *lcnt, *lstart, *lfill, *lflow, *touched, nt;
    unsigned *stamp, gen;
    unsigned char *lalive, *fixed;
    struct flow_log *log;
};

static const uint32_t *route_of(const struct sim *s, int tr, int *len)
{
    *len = (int)(s->roff[tr + 1] - s->roff[tr]);
    return s->rid + s->roff[tr];
}

/* The largest 1/w among the unfixed flows on FATPIPE link l. */
static double fat_usage(const struct sim *s, int l)
{
    double u = 0;
    for (int k = s->lstart[l]; k < s->lstart[l] + s->lcnt[l]; k++)
        if (!s->fixed[s->lflow[k]])
            u = fmax(u, 1 / s->w[s->lflow[k]]);
    return u;
}

/* Flow f moves at rate from now, held back by link l: its links give up that much. */
static void fix(struct sim *s, int f, double rate, int l)
{
    s->fixed[f] = 1;
    s->rate[f] = rate;
    s->neck[f] = l;
    s->sharers[f] = s->lcnt[l];
    int len;
    const uint32_t *ids = route_of(s, f, &len);
    for (int i = 0; i < len; i++) {
        int k = (int)ids[i];
        if (s->pl->link[k].shared) {
            s->lrem[k] -= rate;
            s->luse[k] -= 1 / s->w[f];
        } else {
            s->luse[k] = fat_usage(s, k);
        }
    }
}

/* Index the flows in flight by link: lflow[lstart[l] ..], the links in touched[]. */
static void index_links(struct sim *s)
{
    s->gen++;
    s->nt = 0;
    for (int i = 0; i < s->nact; i++) {
        int len, f = s->act[i];
        const uint32_t *ids = route_of(s, f, &len);
        s->fixed[f] = 0;
        s->rate[f] = 0;
        for (int k = 0; k < len; k++) {
            int l = (int)ids[k];
            if (s->stamp[l] != s->gen) {
                s->stamp[l] = s->gen;
                s->lcnt[l] = 0;
                s->touched[s->nt++] = l;
            }
            s->lcnt[l]++;
        }
    }
    int at = 0;
    for (int i = 0; i < s->nt; i++) {
        int l = s->touched[i];
        s->lstart[l] = s->lfill[l] = at;
        at += s->lcnt[l];
        s->lrem[l] = s->pl->link[l].bandwidth;
        s->luse[l] = 0;
        s->lalive[l] = 1;
    }
    for (int i = 0; i < s->nact; i++) {
        int len, f = s->act[i];
        const uint32_t *ids = route_of(s, f, &len);
        for (int k = 0; k < len; k++) {
            int l = (int)ids[k];
            s->lflow[s->lfill[l]++] = f;
            if (s->pl->link[l].shared)
                s->luse[l] += 1 / s->w[f];
            else
                s->luse[l] = fmax(s->luse[l], 1 / s->w[f]);
        }
    }
}

/* The rates of the flows in flight: weighted max-min by progressive filling. */
static void solve(struct sim *s)
{
    index_links(s);
    for (;;) {
        double lambda = INFINITY;
        for (int i = 0; i < s->nt; i++) {
            int l = s->touched[i];
            if (s->lalive[l] && s->luse[l] > 0)
                lambda = fmin(lambda, fmax(s->lrem[l], 0) / s->luse[l]);
        }
        if (lambda == INFINITY)
            break;
        /* every link that fills at this level (or has nothing left) freezes its flows */
        for (int i = 0; i < s->nt; i++) {
            int l = s->touched[i];
            if (!s->lalive[l] || !(s->luse[l] > 0))
                continue;
            double full = fmax(s->lrem[l], 0) / s->luse[l];
            if (full > lambda * (1 + 1e-12) && s->lrem[l] > 1e-12 * s->pl->link[l].bandwidth)
                continue;
            s->lalive[l] = 0;
            for (int k = s->lstart[l]; k < s->lstart[l] + s->lcnt[l]; k++)
                if (!s->fixed[s->lflow[k]])
                    fix(s, s->lflow[k], lambda / s->w[s->lflow[k]], l);
        }
        for (int i = 0; i < s->nt; i++) {
            int l = s->touched[i];
            if (s->lalive[l] && !(s->luse[l] > 1e-300))
                s->lalive[l] = 0;
        }
    }
}

static void log_change(struct sim *s, double t, int f)
{
    struct flow_log *g = s->log;
    if (!g || s->logged[f] == s->rate[f])
        return;
    s->logged[f] = s->rate[f];
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 256;
        g->ch = xrealloc(g->ch, (size_t)g->cap * sizeof *g->ch);
    }
    g->ch[g->n++] = (struct flow_change){t, f, s->neck[f], s->sharers[f], s->rate[f]};
}

static void start_flow(struct sim *s, int f, double t)
{
    s->state[f] = F_FLOW;
    s->actpos[f] = s->nact;
    s->act[s->nact++] = f;
    (void)t;
}

/* Transfer f starts at t: its latency first (a route of no link: nothing else). */
static void start(struct sim *s, int f, double t)
{
    double lat = s->rlat[f];
    int len;
    route_of(s, f, &len);
    s->start[f] = t;
    s->rem[f] = len ? s->size : 0;
    s->w[f] = lat > 0 ? lat : 1;
    s->neck[f] = -1;
    s->sharers[f] = 0;
    s->rate[f] = 0;
    if (lat > 0 || len == 0 || !(s->size > 0)) {
        s->state[f] = F_LATENCY;
        s->ready[f] = t + lat;
        s->lat[s->nlat++] = f;
        log_change(s, t, f);
    } else {
        start_flow(s, f, t);
    }
}

/* Node p holds the message at t: its first send starts (every send, multi-port). */
static void node_holds(struct sim *s, int p, double t)
{
    if (s->knext[p] >= s->kstart[p + 1])
        return;
    if (s->multi) {
        while (s->knext[p] < s->kstart[p + 1])
            start(s, s->kid[s->knext[p]++], t);
    } else {
        start(s, s->kid[s->knext[p]++], t);
    }
}

/* Transfer f is received at t. */
static void finish(struct sim *s, int f, double t)
{
    const struct transfer *tr = &s->e->tr[f];
    if (s->state[f] == F_FLOW) {
        int at = s->actpos[f], last = s->act[--s->nact];
        s->act[at] = last;
        s->actpos[last] = at;
    }
    s->state[f] = F_DONE;
    s->end[f] = t;
    s->e->hold[tr->to] = t;
    node_holds(s, tr->to, t);
    if (!s->multi)
        node_holds(s, tr->from, t);
}

/* Advance to the next start or end of a flow; false when nothing is left. */
static bool step(struct sim *s, double *now)
{
    double t = *now, next = INFINITY;
    for (int i = 0; i < s->nlat; i++)
        next = fmin(next, s->ready[s->lat[i]]);
    for (int i = 0; i < s->nact; i++) {
        int f = s->act[i];
        if (s->rate[f] > 0)
            next = fmin(next, t + s->rem[f] / s->rate[f]);
    }
    if (next == INFINITY)
        return false;
    for (int i = 0; i < s->nact; i++) {
        int f = s->act[i];
        s->rem[f] -= s->rate[f] * (next - t);
    }
    *now = next;
    /* the latencies paid: the bytes flow (none to send: received) */
    for (int i = 0; i < s->nlat;) {
        int f = s->lat[i];
        if (s->ready[f] > next) {
            i++;
            continue;
        }
        s->lat[i] = s->lat[--s->nlat];
        if (s->rem[f] > 0)
            start_flow(s, f, next);
        else
            finish(s, f, next);
    }
    /* the flows whose last byte arrives now (within rounding) */
    for (int i = 0; i < s->nact;) {
        int f = s->act[i];
        if (s->rem[f] <= 1e-9 * s->size || (s->rate[f] > 0 && s->rem[f] / s->rate[f] <= 1e-12 * next))
            finish(s, f, next);   /* moves another flow to position i */
        else
            i++;
    }
    return true;
}

static void sim_free(struct sim *s)
{
    free(s->roff);
    free(s->rid);
    free(s->rlat);
    free(s->kstart);
    free(s->kid);
    free(s->knext);
    free(s->state);
    free(s->rem);
    free(s->w);
    free(s->rate);
    free(s->ready);
    free(s->start);
    free(s->end);
    free(s->logged);
    free(s->neck);
    free(s->sharers);
    free(s->act);
    free(s->actpos);
    free(s->lat);
    free(s->lrem);
    free(s->luse);
    free(s->lcnt);
    free(s->lstart);
    free(s->lfill);
    free(s->lflow);
    free(s->touched);
    free(s->stamp);
    free(s->lalive);
    free(s->fixed);
}

static void sim_init(struct sim *s, struct engine *e, bool multi, struct flow_log *log)
{
    const struct platform *pl = e->c->plat;
    int n = e->n, m = e->ntr, nl = pl->nlinks ? pl->nlinks : 1;
    memset(s, 0, sizeof *s);
    *s = (struct sim){.pl = pl, .e = e, .multi = multi, .size = pl->size, .ntr = m, .log = log};
    s->kstart = xcalloc((size_t)n + 1, sizeof *s->kstart);
    s->knext = xmalloc((size_t)n * sizeof *s->knext);
    s->kid = xmalloc(((size_t)m + 1) * sizeof *s->kid);
    for (int i = 0; i < m; i++)
        s->kstart[e->tr[i].from + 1]++;
    for (int p = 0; p < n; p++)
        s->kstart[p + 1] += s->kstart[p];
    for (int p = 0; p < n; p++)
        s->knext[p] = s->kstart[p];
    for (int i = 0; i < m; i++)
        s->kid[s->knext[e->tr[i].from]++] = i;
    for (int p = 0; p < n; p++)
        s->knext[p] = s->kstart[p];
    size_t mm = (size_t)m + 1;
    s->state = xcalloc(mm, 1);
    s->fixed = xcalloc(mm, 1);
    s->rem = xcalloc(mm, sizeof *s->rem);
    s->w = xcalloc(mm, sizeof *s->w);
    s->rate = xcalloc(mm, sizeof *s->rate);
    s->ready = xcalloc(mm, sizeof *s->ready);
    s->start = xcalloc(mm, sizeof *s->start);
    s->end = xcalloc(mm, sizeof *s->end);
    s->logged = xmalloc(mm * sizeof *s->logged);
    for (size_t i = 0; i < mm; i++)
        s->logged[i] = -1;
    s->neck = xcalloc(mm, sizeof *s->neck);
    s->sharers = xcalloc(mm, sizeof *s->sharers);
    s->act = xcalloc(mm, sizeof *s->act);
    s->actpos = xcalloc(mm, sizeof *s->actpos);
    s->lat = xcalloc(mm, sizeof *s->lat);
    s->lrem = xcalloc((size_t)nl, sizeof *s->lrem);
    s->luse = xcalloc((size_t)nl, sizeof *s->luse);
    s->lcnt = xcalloc((size_t)nl, sizeof *s->lcnt);
    s->lstart = xcalloc((size_t)nl, sizeof *s->lstart);
    s->lfill = xcalloc((size_t)nl, sizeof *s->lfill);
    s->touched = xcalloc((size_t)nl, sizeof *s->touched);
    s->stamp = xcalloc((size_t)nl, sizeof *s->stamp);
    s->lalive = xcalloc((size_t)nl, 1);
    s->roff = xmalloc(mm * sizeof *s->roff);
    s->rlat = xmalloc(mm * sizeof *s->rlat);
    uint32_t *buf = platform_route_buf(pl);
    size_t hops = 0, cap = 1;
    s->rid = xmalloc(cap * sizeof *s->rid);
    for (int i = 0; i < m; i++) {
        int len;
        const uint32_t *ids = platform_route(pl, e->tr[i].from, e->tr[i].to, buf, &len);
        if (hops + (size_t)len > cap) {
            cap = 2 * (hops + (size_t)len);
            s->rid = xrealloc(s->rid, cap * sizeof *s->rid);
        }
        memcpy(s->rid + hops, ids, (size_t)len * sizeof *ids);
        s->roff[i] = hops;
        s->rlat[i] = platform_route_latency(pl, e->tr[i].from, e->tr[i].to);
        hops += (size_t)len;
    }
    s->roff[m] = hops;
    free(buf);
    s->lflow = xmalloc((hops ? hops : 1) * sizeof *s->lflow);
}

/* The records of e from the simulation's times. */
/* Does a booked time differ from the re-timed one by more than rounding? */
static bool moved(double booked, double now)
{
    return fabs(booked - now) > 1e-9 * fmax(fabs(booked), fabs(now));
}

bool flow_slowed(const struct engine *e, const struct transfer *t, double *took, double *alone)
{
    const struct platform *pl = e->c->plat;
    if (!pl || e->nmsg != 1 || e->personal || !timing_shared_links(e->model))
        return false;
    *alone = platform_route_alone(pl, t->from, t->to);
    *took = t->hold - t->start;
    return *took > *alone * (1 + 1e-9);
}

static void write_back(struct sim *s)
{
    struct engine *e = s->e;
    e->makespan = 0;
    for (int i = 0; i < s->ntr; i++) {
        struct transfer *t = &e->tr[i];
        double st = s->start[i], en = s->end[i];
        struct timing tm = {st, s->multi ? st : en, st, en, en, en, en, s->multi ? st : en};
        /* The policy's reason gives the times it decided by, from each route's
         * cost alone: said so where sharing moved them (beyond rounding). */
        if (moved(t->start, st) || moved(t->free, tm.free) || moved(t->hold, en))
            engine_reason_prefix(e, i, FLOW_PLANNED);
        transfer_set_times(t, &tm);
        t->wait_start = st;
        e->send_free[t->from] = fmax(e->send_free[t->from], tm.free);
        if (cluster_is_target(e->c, t->to))
            e->makespan = fmax(e->makespan, en);
    }
}

int flow_retime(struct engine *e, bool multi_port, struct flow_log *log, char **cause)
{
    if (!e->c->plat || e->lean || e->nmsg != 1 || e->personal) {
        set_cause(cause, "shared links time a broadcast of one message on a platform, with "
                  "its records kept");
        return -1;
    }
    struct sim s;
    sim_init(&s, e, multi_port, log);
    for (int p = 0; p < e->n; p++) {
        e->hold[p] = p == e->c->source ? 0 : INFINITY;
        e->send_free[p] = 0;
    }
    double now = 0;
    node_holds(&s, e->c->source, 0);
    for (;;) {
        if (s.nact > 0) {
            solve(&s);
            for (int i = 0; i < s.nact; i++)
                log_change(&s, now, s.act[i]);
        }
        if (!step(&s, &now))
            break;
    }
    write_back(&s);
    sim_free(&s);
    engine_timeline(e);
    return 0;
}

void flow_log_free(struct flow_log *log)
{
    free(log->ch);
    *log = (struct flow_log){0};
}

/* ---- the sharing, read back from the log ---- */

static int lane_order(const void *x, const void *y)
{
    const struct flow_lane *a = x, *b = y;
    if (a->held != b->held)
        return a->held ? -1 : 1;
    if (a->most != b->most)
        return a->most > b->most ? -1 : 1;
    return a->link - b->link;
}

static bool moving(const struct flow_lanes *fl, const struct engine *e, int tr, double t)
{
    return fl->from[tr] <= t && t < e->tr[tr].hold;
}

int flow_lane_count(const struct flow_lanes *fl, const struct engine *e, int k, double t)
{
    const struct flow_lane *l = &fl->lane[k];
    int c = 0;
    for (int i = 0; i < l->n; i++)
        c += moving(fl, e, l->tr[i], t);
    return c;
}

int flow_lane_most(const struct flow_lanes *fl, const struct engine *e, int k, double a, double b)
{
    const struct flow_lane *l = &fl->lane[k];
    int most = flow_lane_count(fl, e, k, a);
    for (int i = 0; i < l->n; i++) {   /* the count rises only where a flow's bytes start */
        double t = fl->from[l->tr[i]];
        if (t > a && t < b) {
            int c = flow_lane_count(fl, e, k, t);
            most = c > most ? c : most;
        }
    }
    return most;
}

double flow_rate_at(const struct flow_lanes *fl, const struct flow_log *log, const struct engine *e,
                    int tr, double t)
{
    if (!moving(fl, e, tr, t))
        return 0;
    double rate = 0;
    for (int i = fl->head[tr]; i >= 0 && log->ch[i].time <= t; i = fl->next[i])
        rate = log->ch[i].rate;
    return rate;
}

/* The most of lane l's flows moving at once (they start at from[], end at their holds). */
static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The most flows of lane l (its transfers in order of from) moving at once, counted at
 * each one's start t: those with from <= t, less those with max(from, hold) <= t. */
static int most_at_once(const struct flow_lanes *fl, const struct engine *e, const struct flow_lane *l)
{
    double *end = xmalloc((size_t)(l->n ? l->n : 1) * sizeof *end);
    for (int i = 0; i < l->n; i++)
        end[i] = fmax(fl->from[l->tr[i]], e->tr[l->tr[i]].hold);
    qsort(end, (size_t)l->n, sizeof *end, by_value);
    int most = 0, f = 0, g = 0;
    for (int i = 0; i < l->n; i++) {
        double t = fl->from[l->tr[i]];
        while (f < l->n && fl->from[l->tr[f]] <= t)
            f++;
        while (g < l->n && end[g] <= t)
            g++;
        most = f - g > most ? f - g : most;
    }
    free(end);
    return most;
}

static int by_from(const void *x, const void *y, void *ctx)
{
    const double *from = ctx;
    int a = *(const int *)x, b = *(const int *)y;
    if (from[a] != from[b])
        return from[a] < from[b] ? -1 : 1;
    return a - b;
}

/* Each transfer's log entries chained in time order, and when its bytes start. */
static void chain_log(const struct engine *e, const struct flow_log *log, struct flow_lanes *fl)
{
    fl->from = xmalloc((size_t)(e->ntr ? e->ntr : 1) * sizeof *fl->from);
    fl->head = xmalloc((size_t)(e->ntr ? e->ntr : 1) * sizeof *fl->head);
    fl->next = xmalloc((size_t)(log->n ? log->n : 1) * sizeof *fl->next);
    int *tail = xmalloc((size_t)(e->ntr ? e->ntr : 1) * sizeof *tail);
    for (int i = 0; i < e->ntr; i++) {
        fl->from[i] = INFINITY;
        fl->head[i] = tail[i] = -1;
    }
    for (int i = 0; i < log->n; i++) {
        int tr = log->ch[i].tr;
        fl->next[i] = -1;
        if (tail[tr] >= 0)
            fl->next[tail[tr]] = i;
        else
            fl->head[tr] = i;
        tail[tr] = i;
        if (log->ch[i].rate > 0 && fl->from[tr] == INFINITY)
            fl->from[tr] = log->ch[i].time;
    }
    free(tail);
}

void flow_lanes_make(const struct engine *e, const struct flow_log *log, struct flow_lanes *out)
{
    *out = (struct flow_lanes){0};
    const struct platform *pl = e->c->plat;
    if (!pl || !log->n)
        return;
    chain_log(e, log, out);
    int *cnt = xcalloc((size_t)pl->nlinks + 1, sizeof *cnt);
    uint32_t *buf = platform_route_buf(pl);
    for (int i = 0; i < e->ntr; i++) {
        int len;
        const uint32_t *ids = platform_route(pl, e->tr[i].from, e->tr[i].to, buf, &len);
        for (int k = 0; k < len && out->from[i] < INFINITY; k++)
            cnt[ids[k]] += pl->link[ids[k]].shared;
    }
    int *at = xmalloc((size_t)pl->nlinks * sizeof *at);   /* link -> its lane, or -1 */
    for (int l = 0; l < pl->nlinks; l++) {
        at[l] = -1;
        if (cnt[l] < 2)
            continue;
        out->lane = xrealloc(out->lane, (size_t)(out->n + 1) * sizeof *out->lane);
        out->lane[out->n] = (struct flow_lane){l, 0, false, 0, xmalloc((size_t)cnt[l] * sizeof(int))};
        at[l] = out->n++;
    }
    for (int i = 0; i < e->ntr; i++) {
        int len;
        const uint32_t *ids = platform_route(pl, e->tr[i].from, e->tr[i].to, buf, &len);
        for (int k = 0; k < len && out->from[i] < INFINITY; k++)
            if (pl->link[ids[k]].shared && at[ids[k]] >= 0) {
                struct flow_lane *l = &out->lane[at[ids[k]]];
                l->tr[l->n++] = i;
            }
    }
    for (int i = 0; i < log->n; i++) {
        const struct flow_change *c = &log->ch[i];
        if (c->link >= 0 && c->sharers >= 2 && at[c->link] >= 0)
            out->lane[at[c->link]].held = true;
    }
    int kept = 0;
    for (int k = 0; k < out->n; k++) {
        struct flow_lane *l = &out->lane[k];
        if (l->n > 1)
            qsort_r(l->tr, (size_t)l->n, sizeof *l->tr, by_from, out->from);
        l->most = most_at_once(out, e, l);
        if (l->most >= 2)
            out->lane[kept++] = *l;
        else
            free(l->tr);
    }
    out->n = kept;
    if (kept > 1)   /* none: lane may be NULL, which qsort must not get */
        qsort(out->lane, (size_t)out->n, sizeof *out->lane, lane_order);
    free(at);
    free(cnt);
    free(buf);
}

void flow_lanes_free(struct flow_lanes *fl)
{
    for (int k = 0; k < fl->n; k++)
        free(fl->lane[k].tr);
    free(fl->lane);
    free(fl->from);
    free(fl->head);
    free(fl->next);
    *fl = (struct flow_lanes){0};
}
