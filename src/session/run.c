/*
 * session/run.c - one scheduler run with its bounds and (when asked) the optimum.
 */
#include "session/run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bounds.h"
#include "engine/flow.h"
#include "model/platform.h"
#include "sched/optimal.h"
#include "sched/optimal_sum.h"
#include "sched/registry.h"
#include "sched/segment.h"

static void compute_optimum(struct run *r, const struct sched_opts *o, enum run_optimum want)
{
    if (r->sched.status == OPT_PROVEN) {
        r->opt = OPT_PROVEN;
        r->optimum = r->eng.makespan;
        text_fit(r->opt_note, sizeof r->opt_note, "%s", r->sched.note);
        return;
    }
    if (r->sched.status == OPT_GAVE_UP) {
        r->opt = OPT_GAVE_UP;
        r->optimum = r->eng.makespan;
        r->opt_lower = r->sched.bound;
        text_fit(r->opt_note, sizeof r->opt_note, "%s", r->sched.note);
        return;
    }
    if (r->sched.slices > 0) {   /* K slices: the single-message optimum says nothing */
        text_fit(r->opt_note, sizeof r->opt_note,
                 "not computed for a pipelined run of %d slices; see the LP %s",
                 r->sched.slices,
                 timing_shares_port(r->model) ? "bound on the throughput" : "optimal throughput");
        return;
    }
    if (r->sched.segments > 1) {   /* the exact search covers one message */
        if (r->eng.makespan <= r->lower_bound) {
            r->opt = OPT_PROVEN;
            r->optimum = r->eng.makespan;
            text_fit(r->opt_note, sizeof r->opt_note,
                     "proven: the schedule meets the lower bound for %d segments", r->sched.segments);
        } else {
            text_fit(r->opt_note, sizeof r->opt_note,
                     "not searched for a message of %d segments (the exact search covers one "
                     "message); the lower bound is for %d segments", r->sched.segments,
                     r->sched.segments);
        }
        return;
    }
    if (want == RUN_OPT_NEVER) {
        text_fit(r->opt_note, sizeof r->opt_note, "not computed");
        return;
    }
    if (want == RUN_OPT_SMALL && r->c->n > RUN_AUTO_OPTIMUM_NODES) {
        text_fit(r->opt_note, sizeof r->opt_note, "not computed for %d nodes (done by default up to %d; %s)",
                 r->c->n, RUN_AUTO_OPTIMUM_NODES,   /* not told here whether the routes share: a pass */
                 r->shared ? "-s optimal, where routes share no link" : "use -s optimal");
        return;
    }
    char *refused = NULL;
    if (r->shared && run_refuse_unproven(r->c, r->model, &sched_optimal, &refused) < 0) {
        text_fit(r->opt_note, sizeof r->opt_note, "not computed: transfers share links here, "
                 "and the exact search knows each route's cost alone");
        free(refused);
        return;
    }
    struct opt_plan plan;
    char *cause = NULL;
    struct sched_opts oo = *o;
    if (want == RUN_OPT_SMALL && (oo.time_limit <= 0 || oo.time_limit > 2))
        oo.time_limit = 2;
    if (optimal_solve(r->c, r->model, &oo, &plan, &cause) < 0) {
        text_fit(r->opt_note, sizeof r->opt_note, "%s", cause ? cause : "not computed");
        free(cause);
        return;
    }
    r->opt = plan.status;
    r->optimum = plan.makespan;
    r->opt_lower = plan.lower;
    opt_plan_reason(&plan, r->opt_note, sizeof r->opt_note);
    opt_plan_free(&plan);
}

const char *run_model_text(const struct run *r)
{
    if (!r->shared)
        return model_name(r->model);
    return timing_sends_at_once(r->model) ? "multi-port on shared links" : "one-port on shared links";
}

/* Does the run time a broadcast on the platform's shared links? */
static bool shared_run(const struct cluster *c, enum model m, const struct sched_ops *ops,
                       const struct sched_opts *o)
{
    (void)ops;
    return c->plat && timing_shared_links(m) && !(o && o->slices > 1);
}

struct link_event {
    int link;
    double t;
    int delta;   /* +1 a route starts using the link, -1 it stops */
};

static int by_link_time(const void *x, const void *y)
{
    const struct link_event *a = x, *b = y;
    if (a->link != b->link)
        return a->link < b->link ? -1 : 1;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->delta - b->delta;   /* an end before a start at the same time */
}

/* r->sharing: the SHARED links that routes of the schedule cross at the same time (their
 * link phases overlap), each with the most routes at once. */
static void sharing_note(struct run *r)
{
    const struct platform *pl = r->c->plat;
    const struct engine *e = &r->eng;
    size_t nev = 0, cap = 0;
    struct link_event *ev = NULL;
    uint32_t *buf = platform_route_buf(pl);
    for (int i = 0; i < e->ntr && e->tr; i++) {
        int len;
        const uint32_t *ids = platform_route(pl, e->tr[i].from, e->tr[i].to, buf, &len);
        for (int k = 0; k < len; k++) {
            if (!pl->link[ids[k]].shared || !(e->tr[i].hold > e->tr[i].start))
                continue;
            if (nev + 2 > cap) {
                cap = cap ? 2 * cap : 256;
                ev = xrealloc(ev, cap * sizeof *ev);
            }
            ev[nev++] = (struct link_event){(int)ids[k], e->tr[i].start, 1};
            ev[nev++] = (struct link_event){(int)ids[k], e->tr[i].hold, -1};
        }
    }
    if (nev)
        qsort(ev, nev, sizeof *ev, by_link_time);
    char list[400] = "";
    int links = 0;
    for (size_t i = 0; i < nev;) {
        int l = ev[i].link, now = 0, most = 0;
        for (; i < nev && ev[i].link == l; i++) {
            now += ev[i].delta;
            most = now > most ? now : most;
        }
        if (most < 2)
            continue;
        char b[128], one[200];
        text_fit(one, sizeof one, "%s%s (%d routes at once)", links ? ", " : "",
                 SHOWN(pl->link[l].name, b), most);
        if (strlen(list) + strlen(one) < sizeof list - 8)
            strcat(list, one);
        else if (!strstr(list, ", ..."))
            strcat(list, ", ...");
        links++;
    }
    free(ev);
    free(buf);
    if (links && timing_shared_links(r->model))
        text_fit(r->sharing, sizeof r->sharing, "%d link%s of the platform carr%s several of the "
                 "schedule's routes at once: %s; shared links time a broadcast of one message, "
                 "so these %ss keep each route to itself", links, links > 1 ? "s" : "",
                 links > 1 ? "y" : "ies", list, engine_piece_name(&r->eng));
    else if (links)
        text_fit(r->sharing, sizeof r->sharing, "%d link%s of the platform carr%s several of the "
                 "schedule's routes at once: %s; under %s each route has its link to itself "
                 "(-m one-port or -m multi-port shares them)", links, links > 1 ? "s" : "",
                 links > 1 ? "y" : "ies", list, model_name(r->model));
}

int run_refuse_unproven(const struct cluster *c, enum model m, const struct sched_ops *ops,
                        char **cause)
{
    if (!c->plat || !timing_shared_links(m) || (ops != &sched_optimal && ops != &sched_optimal_sum))
        return 0;
    const char **names = xmalloc((size_t)c->n * sizeof *names);
    for (int p = 0; p < c->n; p++)
        names[p] = c->nodes[p].name;
    char why[600];
    bool shares = platform_shares(c->plat, timing_sends_at_once(m),
                                  c->kind == CLUSTER_GRAPH ? c->edge_of : NULL, names, why,
                                  sizeof why);
    free(names);
    if (!shares)
        return 0;
    return set_cause(cause, "%s: %s searches the schedules by each route's cost alone, but on "
                     "this platform transfers share links (%s), so nothing it found would be "
                     "proven: not run (-m async keeps each route private)", c->path ? c->path : c->name,
                     ops->name, why);
}

int run_schedule(struct run *r, const struct cluster *c, enum model m,
                 const struct sched_ops *ops, const struct sched_opts *o,
                 enum run_optimum want, char **cause)
{
    memset(r, 0, sizeof *r);
    r->c = c;
    r->model = m;
    bool shared = shared_run(c, m, ops, o);
    if (shared && run_refuse_unproven(c, m, ops, cause) < 0)
        return -1;
    sched_init(&r->sched, ops, o);
    if (sched_check(ops, c, m, cause) < 0 || engine_init(&r->eng, c, m, cause) < 0) {
        sched_free(&r->sched);
        return -1;
    }
    r->eng.reasons_later = o && o->reasons_later;
    r->eng.reasons_unread = o && o->reasons_unread;
    if (o && o->lean && ops->lean && r->eng.nmsg == 1 && !c->plat) {   /* a platform: records */
        if (engine_set_quiet(&r->eng, cause) < 0) {
            sched_free(&r->sched);
            engine_free(&r->eng);
            return -1;
        }
        r->eng.on_book = o->on_book;
        r->eng.on_book_ctx = o->on_book_ctx;
        r->eng.on_book_rows = o->on_book_rows;
    }
    if (sched_run(&r->eng, &r->sched, cause) < 0) {
        sched_free(&r->sched);
        engine_free(&r->eng);
        return -1;
    }
    if (shared && r->sched.segments <= 1 && r->sched.slices == 0) {
        if (flow_retime(&r->eng, timing_sends_at_once(m), &r->flows, cause) < 0) {
            sched_free(&r->sched);
            engine_free(&r->eng);
            return -1;
        }
        r->shared = true;
        if (!(o && o->lean))   /* the view's link lanes: a result alone needs none */
            flow_lanes_make(&r->eng, &r->flows, &r->lanes);
    } else if (c->plat && !r->eng.lean) {
        sharing_note(r);
    }
    r->lower_bound = r->sched.segments > 1 ? seg_lower_bound(c, m, r->sched.segments)
                                           : bound_lower(c, m);
    r->has_beta = bound_fnf_beta(c, m, &r->beta, &r->consistent);
    compute_optimum(r, &r->sched.opt, want);
    return 0;
}

/* A rate in bytes/s as the narration says it: "1.25 GB/s" (three digits, SI prefixes). */
static void rate_text(char *buf, size_t size, double bps)
{
    static const char *const unit[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
    int u = 0;
    while (u < 4 && fabs(bps) >= 1000) {
        bps /= 1000;
        u++;
    }
    text_fit(buf, size, "%.3g %s", bps, unit[u]);
}

/* The change of transfer tr's rate that says its sharing at the event (time te): the latest
 * one when it shares a link then, else its most shared one before (*past), NULL if none. */
static const struct flow_change *sharing_change(const struct run *r, int tr, double te, bool *past,
                                                double *until)
{
    const struct flow_change *at = NULL, *most = NULL;
    double most_end = te;
    for (int i = r->lanes.head ? r->lanes.head[tr] : -1; i >= 0 && r->flows.ch[i].time <= te;
         i = r->lanes.next[i]) {
        const struct flow_change *c = &r->flows.ch[i];
        if (most && most_end == te && c->time > most->time)
            most_end = c->time;   /* the most shared change lasted until the next one */
        at = c->link >= 0 ? c : at;
        if (c->link >= 0 && c->sharers >= 2 && (!most || c->sharers > most->sharers)) {
            most = c;
            most_end = te;
        }
    }
    *past = !(at && at->sharers >= 2);
    *until = most_end;
    return *past ? most : at;
}

void run_narrate(const struct run *r, int k, char *buf, size_t size)
{
    engine_narrate(&r->eng, k, buf, size);
    if (!r->shared || k < 0 || k >= r->eng.nev || !r->eng.ev)
        return;
    const struct event *ev = &r->eng.ev[k];
    bool past;
    double until;
    const struct flow_change *at = sharing_change(r, ev->transfer, ev->time, &past, &until);
    if (!at)
        return;
    const struct platform *pl = r->c->plat;
    const struct platform_link *l = &pl->link[at->link];
    const struct transfer *t = &r->eng.tr[ev->transfer];
    char lb[128], nb[128], share[64], bw[32], span[64];
    double part = at->rate / l->bandwidth;
    if (fabs(part * at->sharers - 1) < 1e-9)
        text_fit(share, sizeof share, "1/%d", at->sharers);
    else   /* an unequal part: the rate itself ("6.35 MB/s of 125 MB/s") */
        rate_text(share, sizeof share, at->rate);
    rate_text(bw, sizeof bw, l->bandwidth);
    if (past)
        text_fit(span, sizeof span, "from t=%g to t=%g", at->time, until);
    else
        text_fit(span, sizeof span, "from t=%g", at->time);
    size_t len = strlen(buf);
    text_fit(buf + len, size - len, "; %s's message %s link %s with %d other%s %s: %s of %s",
             SHOWN(r->c->nodes[t->to].name, nb), past ? "shared" : "shares", SHOWN(l->name, lb),
             at->sharers - 1, at->sharers > 2 ? "s" : "", span, share, bw);
    if (ev->kind != EV_HOLD)
        return;
    double took, alone;
    if (flow_slowed(&r->eng, t, &took, &alone)) {
        len = strlen(buf);
        text_fit(buf + len, size - len, "; it took %.4g s, alone on its route %.4g s",
                 took, alone);
    }
}

void run_free(struct run *r)
{
    flow_log_free(&r->flows);
    flow_lanes_free(&r->lanes);
    sched_free(&r->sched);
    engine_free(&r->eng);
}

bool run_guarantee(const struct run *r, double *limit)
{
    if (!r->has_beta || r->opt != OPT_PROVEN)
        return false;
    *limit = 2 * r->optimum + r->beta;
    return true;
}
