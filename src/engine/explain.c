/*
 * engine/explain.c - why two schedules differ and what a booking achieves
 * (engine/explain.h).  Everything is read off the engines' transfers; the one
 * number computed here, a node's earliest possible hold, is asked of the
 * engine itself (engine_earliest from the source at time 0), so every port
 * model reads the same.
 */
#include "engine/explain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bounds.h"
#include "engine/flow.h"
#include "support/numfmt.h"

/* The transfer that brings message 0 to p, or NULL. */
static const struct transfer *into(const struct engine *e, int p)
{
    for (int i = 0; i < e->ntr; i++)
        if (e->tr[i].to == p && e->tr[i].msg == 0)
            return &e->tr[i];
    return NULL;
}

/* The earliest p can ever hold the message: one transfer straight from the source at time 0. */
static double earliest_hold(const struct cluster *c, enum model m, int p)
{
    if (p == c->source)
        return 0;
    struct engine e;
    char *cause = NULL;
    double t = NAN;
    if (engine_init(&e, c, m, &cause) == 0) {
        struct transfer tr;
        if (engine_earliest(&e, c->source, p, 0, &tr) == 0)
            t = tr.hold;
        engine_free(&e);
    }
    free(cause);
    return t;
}

/* The index of the transfer that brings message 0 to p, or -1. */
static int into_index(const struct engine *e, int p)
{
    const struct transfer *t = into(e, p);
    return t ? (int)(t - e->tr) : -1;
}

int explain_port_chain(const struct engine *e, int i, int *held, int max)
{
    const struct transfer *t = &e->tr[i];
    int q = t->from, count = 0;
    double hq = engine_hold_time(e, q, t->msg), at = t->start;
    /* A sender's sends are booked in the order they run: one pass back. */
    for (int j = i - 1; j >= 0 && at > hq; j--) {
        const struct transfer *h = &e->tr[j];
        if (h->from != q)
            continue;
        if (h->free != at)
            break;   /* a gap: the port was free before at */
        if (count < max)   /* walking back: the latest max of the chain, latest first */
            held[count] = j;
        count++;
        at = h->start;
    }
    int k = count < max ? count : max;
    for (int x = 0, y = k - 1; x < y; x++, y--) {
        int v = held[x];
        held[x] = held[y];
        held[y] = v;
    }
    return count;
}

int explain_first_difference(const struct engine *a, const struct engine *b, struct explain_diff *d)
{
    memset(d, 0, sizeof *d);
    d->late = -1;
    d->worse = -1;
    d->late_from = -1;
    if (a->c != b->c && (a->n != b->n))
        return -1;
    int n = a->ntr < b->ntr ? a->ntr : b->ntr;
    d->decision = -1;
    for (int i = 0; i < n; i++)
        if (a->tr[i].from != b->tr[i].from || a->tr[i].to != b->tr[i].to) {
            d->decision = i;
            break;
        }
    if (d->decision < 0 && a->ntr != b->ntr)
        d->decision = n;
    d->parted = d->decision >= 0 && d->decision < n;
    if (d->parted) {
        const struct transfer *ta = &a->tr[d->decision], *tb = &b->tr[d->decision];
        d->a_from = ta->from;
        d->a_to = ta->to;
        d->b_from = tb->from;
        d->b_to = tb->to;
        d->time = ta->start < tb->start ? ta->start : tb->start;
    }
    if (a->makespan != b->makespan) {
        d->worse = a->makespan > b->makespan ? 0 : 1;
        d->loss = fabs(a->makespan - b->makespan);
    }
    const struct engine *w = d->worse == 1 ? b : a, *o = d->worse == 1 ? a : b;
    /* The late node: the one that sets the worse makespan and holds later
     * than in the other schedule; else the one delayed the most. */
    double most = 0;
    for (int p = 0; p < a->n; p++) {
        double hw = engine_hold_time(w, p, 0), ho = engine_hold_time(o, p, 0);
        if (!isfinite(hw) || !isfinite(ho) || !(hw > ho))
            continue;
        double score = (hw >= w->makespan ? 1e300 : 0) + (hw - ho);
        if (score > most) {
            most = score;
            d->late = p;
        }
    }
    if (d->late >= 0) {
        const struct engine *e2[2] = {a, b};
        for (int k = 0; k < 2; k++) {
            const struct transfer *t = into(e2[k], d->late);
            d->late_hold[k] = engine_hold_time(e2[k], d->late, 0);
            d->late_recv[k] = t ? t->recv_start : NAN;
        }
        d->earliest = earliest_hold(a->c, a->model, d->late);
        int i = into_index(w, d->late);
        if (i >= 0) {
            const struct transfer *t = &w->tr[i];
            d->late_from = t->from;
            d->late_start = t->start;
            d->nchain = explain_port_chain(w, i, d->held, EXPLAIN_HELD);
            d->nheld = d->nchain < EXPLAIN_HELD ? d->nchain : EXPLAIN_HELD;
            if (t->wait_start < t->start)
                d->push = PUSH_WAIT;
            else if (d->nchain > 0)
                d->push = PUSH_PORT;
            else if (t->from == a->c->source && t->start == 0)
                d->push = PUSH_NONE;
            else
                d->push = PUSH_HOLD;
        }
    }
    return 0;
}

void explain_diff_text(const struct engine *a, const struct engine *b, const char *na,
                       const char *nb, const struct explain_diff *d, char *buf, size_t size)
{
    const struct cluster *c = a->c;
    size_t at = 0;
#define ADD(...) do { if (at < size) at += (size_t)text_fit(buf + at, size - at, __VA_ARGS__); } while (0)
    buf[0] = '\0';
    if (!d->parted) {
        ADD("first difference: none: %s and %s make the same decisions", na, nb);
        return;
    }
    ADD("first difference: decision %d (t=%s): %s picks %s -> %s, %s picks %s -> %s", d->decision + 1,
        numfmt_txt(d->time), na, c->nodes[d->a_from].name, c->nodes[d->a_to].name, nb,
        c->nodes[d->b_from].name, c->nodes[d->b_to].name);
    if (d->worse < 0 || d->late < 0) {
        ADD("; both end at %s", numfmt_txt(a->makespan));
        return;
    }
    int w = d->worse, o = 1 - w;
    const struct engine *we = w == 0 ? a : b, *oe = w == 0 ? b : a;
    const char *wn = w == 0 ? na : nb, *on = w == 0 ? nb : na, *late = c->nodes[d->late].name;
    ADD("; %s ends at %s, %s at %s: %s loses %s", wn, numfmt_txt(we->makespan), on,
        numfmt_txt(oe->makespan), wn, numfmt_txt(d->loss));
    /* slices or segments: the late node is late with the first one */
    char first[32] = "the message";
    if (a->nmsg > 1) {
        text_fit(first, sizeof first, "%s 1", engine_piece_name(a));
        ADD("; then %s gets %s late under %s: it holds it at %s, not %s as under %s", late, first,
            wn, numfmt_txt(d->late_hold[w]), numfmt_txt(d->late_hold[o]), on);
    } else {
        ADD("; then %s finishes late under %s: it holds the message at %s, not %s as under %s",
            late, wn, numfmt_txt(d->late_hold[w]), numfmt_txt(d->late_hold[o]), on);
    }
    const struct transfer *tw = into(we, d->late), *to = into(oe, d->late);
    bool receives = tw && to && tw->recv_end > tw->recv_start && to->recv_end > to->recv_start;
    if (receives && d->late_recv[w] != d->late_recv[o])   /* a receive step only where the model has one */
        ADD(" (its receive starts at %s, not %s)", numfmt_txt(d->late_recv[w]), numfmt_txt(d->late_recv[o]));
    if (d->late_from >= 0) {
        const char *qn = c->nodes[d->late_from].name;
        ADD("; under %s, %s -> %s starts at %s", wn, qn, late, numfmt_txt(d->late_start));
        if (d->push == PUSH_PORT) {
            ADD(": %s's send port is held until then by ", qn);
            if (d->nchain > d->nheld)
                ADD("%d earlier sends, the last ", d->nchain);
            for (int k = 0; k < d->nheld; k++) {
                const struct transfer *h = &we->tr[d->held[k]];
                ADD("%s%s -> %s [%s, %s)", k == 0 ? "" : k == d->nheld - 1 ? " and " : ", ", qn,
                    c->nodes[h->to].name, numfmt_txt(h->start), numfmt_txt(h->free));
            }
        } else if (d->push == PUSH_WAIT) {
            ADD(": %s is ready from %s and waits for %s", qn, numfmt_txt(tw ? tw->wait_start : 0), late);
        } else if (d->push == PUSH_HOLD) {
            ADD(", when %s holds %s", qn, first);
        }
        if (tw && !receives && tw->send_end == tw->start && tw->link_end > tw->link_start)
            ADD(", and the link to %s takes %s", late, numfmt_txt(tw->link_end - tw->link_start));
        double took, alone;
        if (tw && flow_slowed(we, tw, &took, &alone))
            ADD(", and it takes %s, %s on its route alone: it shares links", numfmt_txt(took),
                numfmt_txt(alone));
    }
    if (isfinite(d->earliest) && d->late_hold[o] <= d->earliest) {
        if (c->kind == CLUSTER_NODES)
            ADD("; %s gives %s %s at %s, as early as any schedule can (s(%s) + L + r(%s))", on, late,
                first,
                numfmt_txt(d->late_hold[o]), c->nodes[c->source].name, late);
        else
            ADD("; %s gives %s %s at %s, as early as any schedule can (straight from %s)", on, late,
                first,
                numfmt_txt(d->late_hold[o]), c->nodes[c->source].name);
    }
#undef ADD
}

char *explain_pick(const struct engine *e, const struct transfer *t)
{
    const struct cluster *c = e->c;
    if (t->msg != 0 || e->personal)
        return NULL;
    const char *pn = c->nodes[t->to].name;
    double first = earliest_hold(c, e->model, t->to), lb = bound_lower(c, e->model);
    bool at_once = t->recv_end > t->recv_start && t->recv_start <= t->link_end;
    char within[64] = "";   /* numbers only */
    if (isfinite(lb) && t->hold <= lb)
        text_fit(within, sizeof within, ", within the lower bound %g", lb);
    if (isfinite(first) && t->hold <= first)
        return xasprintf("%s is served as early as it can ever be (holds it at t=%g)%s", pn, t->hold,
                         within);
    if (at_once)
        return xasprintf("%s starts receiving as soon as the message arrives (holds it at t=%g)%s", pn,
                         t->hold, within);
    return xasprintf("%s holds it at t=%g%s", pn, t->hold, within);
}
