/*
 * test_timing.c - a model's arithmetic lives in one place (model/timing.h).
 *
 * On random clusters of every kind (node tables, latency matrices with a
 * unit, platform graphs with send times) under every model they take, each
 * place that times a transfer is checked against timing_of called directly,
 * with the ports kept here by docs/models.md's rules:
 *
 * - the full engine: every booking's intervals, hold and free time, bit for
 *   bit (fnf, random-pair, fef);
 * - the lean engine: every streamed event's time, and which events a
 *   booking has (timing_events), for the stream and fnf's list run;
 * - the exact search: its proven optimum equals the least makespan of all
 *   decision sequences timed here, by brute force on small clusters;
 * - the bounds: the lower bound is the slowest chain of timing_of hops
 *   from the source, and no more than that optimum;
 * - the exchanges: every booking, with receive ports that do wait (async).
 *
 * And a grep: no other file of src/ adds, multiplies or subtracts the costs
 * (struct cost's fields, node send/receive times, the latency, the unit) or
 * works out a graph edge's multi-port send time.
 *
 * A model's meaning lives there too: the predicates of model/timing.h
 * (timing_rendezvous, timing_exchange_ok, ...) give for every model what
 * the comparisons they replace gave, agree with the model's own intervals
 * where those show it, and a second grep finds no file of src/, app/ or ui/
 * but model/timing.[ch] that compares a model against a MODEL_ name.
 */
#include <dirent.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bounds.h"
#include "model/cluster.h"
#include "engine/engine.h"
#include "sched/exchange.h"
#include "sched/optimal.h"
#include "support/rng.h"
#include "sched/registry.h"
#include "tap.h"
#include "model/timing.h"
#include "sched/list.h"
#include "sched/fef.h"

/* ---- clusters ---- */

/* A time with two decimals in [0, top): sums of them round in doubles. */
static double some_time(struct rng *r, int top)
{
    return (double)rng_below(r, (uint64_t)top * 100) / 100;
}

/* *rc: cluster_finish's. */
static struct cluster *random_cluster(enum cluster_kind kind, int n, uint64_t seed, int *rc)
{
    struct rng r;
    rng_seed(&r, seed);
    struct cluster *c = cluster_new(kind);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        cluster_add_node(c, name, kind == CLUSTER_GRAPH ? 0 : some_time(&r, 5),
                         kind == CLUSTER_GRAPH ? 0 : some_time(&r, 5));
    }
    if (kind == CLUSTER_NODES)
        c->latency = some_time(&r, 3);
    if (kind == CLUSTER_MATRIX) {
        c->unit = 0.1 + some_time(&r, 2);
        c->dist = xcalloc((size_t)n * (size_t)n, sizeof *c->dist);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                c->dist[i * n + j] = i == j ? 0 : some_time(&r, 4);
    }
    if (kind == CLUSTER_GRAPH) {   /* a ring both ways, and some chords */
        unsigned char *has = xcalloc((size_t)n * (size_t)n, 1);
        for (int i = 0; i < n; i++) {
            int j = (i + 1) % n;
            cluster_add_edge(c, i, j, 0.5 + some_time(&r, 4), rng_below(&r, 2) ? 0.25 : -1);
            cluster_add_edge(c, j, i, 0.5 + some_time(&r, 4), -1);
            has[i * n + j] = has[j * n + i] = 1;
        }
        for (int i = 0; i < n; i++) {
            int a = (int)rng_below(&r, (uint64_t)n), b = (int)rng_below(&r, (uint64_t)n);
            if (a != b && !has[a * n + b]) {
                cluster_add_edge(c, a, b, 0.5 + some_time(&r, 4), some_time(&r, 1));
                has[a * n + b] = 1;
            }
        }
        free(has);
    }
    c->source = (int)rng_below(&r, (uint64_t)n);
    struct diag d;
    diag_init(&d);
    *rc = cluster_finish(c, &d);
    diag_free(&d);
    return c;
}

/* ---- the ports, kept by docs/models.md's rules ---- */

struct ports {
    int n;
    double *hold, *send_free, *recv_free, *link_free;
};

static void ports_init(struct ports *pt, const struct cluster *c, bool broadcast)
{
    pt->n = c->n;
    pt->hold = xmalloc((size_t)c->n * sizeof *pt->hold);
    pt->send_free = xcalloc((size_t)c->n, sizeof *pt->send_free);
    pt->recv_free = xcalloc((size_t)c->n, sizeof *pt->recv_free);
    pt->link_free = xcalloc((size_t)(c->nedges + 1), sizeof *pt->link_free);
    for (int p = 0; p < c->n; p++)
        pt->hold[p] = broadcast && p != c->source ? INFINITY : 0;
}

static void ports_free(struct ports *pt)
{
    free(pt->hold);
    free(pt->send_free);
    free(pt->recv_free);
    free(pt->link_free);
}

static int edge_index(const struct cluster *c, int q, int p)
{
    return c->kind == CLUSTER_GRAPH ? c->edge_of[(size_t)q * (size_t)c->n + (size_t)p] : -1;
}

/* q -> p now: timing_of with the ports as they stand.  q's ready time is
 * hold_q (its message) or its send port, whichever is later. */
static bool place(const struct cluster *c, enum model m, const struct ports *pt, int q, int p,
                  double hold_q, struct timing *tm)
{
    int edge = edge_index(c, q, p);
    struct timing_ports at = {hold_q > pt->send_free[q] ? hold_q : pt->send_free[q],
                              pt->recv_free[p],
                              m == MODEL_MULTI_PORT && edge >= 0 ? pt->link_free[edge] : -INFINITY};
    return timing_of(c, m, q, p, &at, tm);
}

/* The ports after the transfer: q sends again from free; p's receive port
 * is busy to recv_end (async) or the hold (sync, one-port); the link to
 * link_end (multi-port graphs). */
static void take(const struct cluster *c, enum model m, struct ports *pt, int q, int p,
                 const struct timing *tm)
{
    pt->hold[p] = tm->hold;
    pt->send_free[q] = tm->free;
    if (m == MODEL_ASYNC)
        pt->recv_free[p] = tm->recv_end;
    else if (m == MODEL_SYNC || m == MODEL_ONE_PORT || m == MODEL_ONE_PORT_UNI)
        pt->recv_free[p] = tm->hold;
    if (m == MODEL_ONE_PORT_UNI) {   /* one port per node: both ends busy both ways */
        pt->recv_free[q] = tm->free;
        pt->send_free[p] = tm->hold;
    }
    int edge = edge_index(c, q, p);
    if (m == MODEL_MULTI_PORT && edge >= 0)
        pt->link_free[edge] = tm->link_end;
}

static bool same_times(const struct transfer *t, const struct timing *tm)
{
    return t->start == tm->start && t->send_end == tm->send_end &&
           t->link_start == tm->link_start && t->link_end == tm->link_end &&
           t->recv_start == tm->recv_start && t->recv_end == tm->recv_end &&
           t->hold == tm->hold && t->free == tm->free;
}

/* ---- the engine, full and lean ---- */

struct seen {
    const struct timing *want;   /* per booking */
    const struct transfer *tr;   /* the full run's bookings */
    int ntr;
    const struct event *ev;      /* the full run's timeline (engine_timeline) */
    int nfull;
    int nev, wrong, misordered;
};

static void on_event(void *ctx, const struct engine *e, const struct event *ev, int from, int to)
{
    (void)e;
    struct seen *s = ctx;
    int k = s->nev++;
    if (k >= s->nfull || s->ev[k].time != ev->time || s->ev[k].kind != ev->kind ||
        s->ev[k].transfer != ev->transfer)
        s->misordered++;
    int b = ev->transfer;
    if (b < 0 || b >= s->ntr || s->tr[b].from != from || s->tr[b].to != to) {
        s->wrong++;
        return;
    }
    const struct timing *w = &s->want[b];
    unsigned events = timing_events(w);
    double t = ev->kind == EV_SEND_START ? w->start
             : ev->kind == EV_SEND_END   ? w->free
             : ev->kind == EV_LINK_END   ? w->link_end
                                         : w->hold;
    bool exists = ev->kind == EV_SEND_START || ev->kind == EV_HOLD ||
                  (ev->kind == EV_SEND_END && (events & TIMING_SEND_END)) ||
                  (ev->kind == EV_LINK_END && (events & TIMING_LINK_END));
    if (!exists || ev->time != t)
        s->wrong++;
}

static int count_events(const struct timing *want, int ntr)
{
    int k = 0;
    for (int i = 0; i < ntr; i++) {
        unsigned ev = timing_events(&want[i]);
        k += 2 + !!(ev & TIMING_SEND_END) + !!(ev & TIMING_LINK_END);
    }
    return k;
}

static void check_engine(const struct cluster *c, enum model m, const struct sched_ops *ops,
                         const char *what)
{
    struct engine e;
    struct sched s;
    char *cause = NULL;
    if (sched_check(ops, c, m, NULL) < 0)
        return;
    engine_init(&e, c, m, &cause);
    sched_init(&s, ops, NULL);
    int rc = sched_run(&e, &s, &cause);
    sched_free(&s);
    if (rc < 0) {
        ok(0, "%s: %s runs (%s)", what, ops->name, cause);
        free(cause);
        engine_free(&e);
        return;
    }
    /* the full engine's bookings, one by one against timing_of */
    struct ports pt;
    ports_init(&pt, c, true);
    struct timing *want = xmalloc((size_t)(e.ntr + 1) * sizeof *want);
    int bad = 0;
    for (int i = 0; i < e.ntr; i++) {
        const struct transfer *t = &e.tr[i];
        if (!place(c, m, &pt, t->from, t->to, pt.hold[t->from], &want[i])) {
            want[i] = (struct timing){0, 0, 0, 0, 0, 0, 0, 0};
            bad++;
            continue;
        }
        bad += !same_times(t, &want[i]);
        take(c, m, &pt, t->from, t->to, &want[i]);
    }
    is_int(bad, 0, "%s, %s, %s: the engine's %d bookings are timing_of's", what, model_name(m),
           ops->name, e.ntr);

    /* the lean engine's events against the same times */
    struct engine l;
    struct seen sn = {want, e.tr, e.ntr, e.ev, e.nev, 0, 0, 0};
    engine_init(&l, c, m, &cause);
    engine_set_lean(&l, on_event, &sn, &cause);
    sched_init(&s, ops, NULL);
    rc = sched_run(&l, &s, &cause);
    sched_free(&s);
    ok(rc == 0 && sn.wrong == 0 && sn.nev == count_events(want, e.ntr) && l.late == 0 &&
           l.makespan == e.makespan,
       "%s, %s, %s: the lean engine's %d events are at timing_of's times", what, model_name(m),
       ops->name, sn.nev);
    if (sn.wrong)
        diag("%d events off", sn.wrong);
    ok(sn.misordered == 0 && sn.nev == e.nev,
       "%s, %s, %s: the full timeline's %d events in the lean stream's (time, booking, kind) order",
       what, model_name(m), ops->name, e.nev);
    engine_free(&l);

    /* the reasons written when read (the view's): the text given at booking, every one */
    struct engine w;
    engine_init(&w, c, m, &cause);
    w.reasons_later = true;
    sched_init(&s, ops, NULL);
    rc = sched_run(&w, &s, &cause);
    sched_free(&s);
    int differ = rc == 0 && w.ntr == e.ntr && w.nev == e.nev ? 0 : 1;
    for (int i = 0; !differ && i < e.ntr; i++) {
        char *tmp;
        differ += strcmp(engine_reason(&w, &w.tr[i], &tmp), e.tr[i].reason) != 0;
        differ += !tmp && ops->run_lean;   /* a list policy's: written when read */
        free(tmp);
    }
    for (int k = 0; !differ && k < e.nev; k++) {
        char a[1024], b[1024];
        engine_narrate(&e, k, a, sizeof a);
        engine_narrate(&w, k, b, sizeof b);
        differ += strcmp(a, b) != 0;
    }
    is_int(differ, 0, "%s, %s, %s: the %d reasons written when read are those given at booking",
           what, model_name(m), ops->name, e.ntr);
    engine_free(&w);
    free(want);
    ports_free(&pt);
    engine_free(&e);
}

/* ---- the exact search and the bounds ---- */

/* The least makespan over every sequence of decisions, each booked at its
 * sender's ready time by timing_of. O(n! * n!) : small n only. */
static double brute(const struct cluster *c, enum model m, struct ports *pt, int left, double ms)
{
    if (left == 0)
        return ms;
    double best = INFINITY;
    for (int q = 0; q < c->n; q++) {
        if (isinf(pt->hold[q]))
            continue;
        for (int p = 0; p < c->n; p++) {
            struct timing tm;
            if (!isinf(pt->hold[p]) || !place(c, m, pt, q, p, pt->hold[q], &tm))
                continue;
            double h = pt->hold[p], sf = pt->send_free[q], rf = pt->recv_free[p];
            int edge = edge_index(c, q, p);
            double lf = edge >= 0 ? pt->link_free[edge] : 0;
            take(c, m, pt, q, p, &tm);
            double v = brute(c, m, pt, left - 1, tm.hold > ms ? tm.hold : ms);
            pt->hold[p] = h;
            pt->send_free[q] = sf;
            pt->recv_free[p] = rf;
            if (edge >= 0)
                pt->link_free[edge] = lf;
            if (v < best)
                best = v;
        }
    }
    return best;
}

/* The slowest of the fastest chains of timing_of hops from the source
 * (Floyd-Warshall: not the bounds' Dijkstra). */
static double slowest_chain(const struct cluster *c, enum model m)
{
    int n = c->n;
    double *d = xmalloc((size_t)n * (size_t)n * sizeof *d);
    struct timing_ports at = {0, 0, -INFINITY};
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++) {
            struct timing tm;
            d[q * n + p] = q == p ? 0 : timing_of(c, m, q, p, &at, &tm) ? tm.hold : INFINITY;
        }
    for (int k = 0; k < n; k++)
        for (int q = 0; q < n; q++)
            for (int p = 0; p < n; p++)
                if (d[q * n + k] + d[k * n + p] < d[q * n + p])
                    d[q * n + p] = d[q * n + k] + d[k * n + p];
    double worst = 0;
    for (int p = 0; p < n; p++)
        if (isfinite(d[c->source * n + p]) && d[c->source * n + p] > worst)
            worst = d[c->source * n + p];
    free(d);
    return worst;
}

static void check_optimal(const struct cluster *c, enum model m, const char *what)
{
    struct ports pt;
    ports_init(&pt, c, true);
    double want = brute(c, m, &pt, c->n - 1, 0);
    ports_free(&pt);
    struct opt_plan plan;
    struct sched_opts o;
    char *cause = NULL;
    sched_opts_default(&o);
    if (optimal_solve(c, m, &o, &plan, &cause) < 0) {
        ok(0, "%s, %s: optimal runs (%s)", what, model_name(m), cause);
        free(cause);
        return;
    }
    /* the search may pick among schedules equal in decimals but not in the last bit */
    ok(plan.status == OPT_PROVEN && fabs(plan.makespan - want) <= 1e-9 * (1 + want),
       "%s, %s: optimal's proven %.17g is the least of all schedules timed by timing_of (%.17g)",
       what, model_name(m), plan.makespan, want);
    opt_plan_free(&plan);

    double lb = bound_lower(c, m), chain = slowest_chain(c, m);
    ok(fabs(lb - chain) <= 1e-9 * (1 + chain) && lb <= want + 1e-9 * (1 + want),
       "%s, %s: the lower bound %.17g is the slowest chain of timing_of hops (%.17g), <= %.17g",
       what, model_name(m), lb, chain, want);
}

/* ---- the exchanges: receive ports that wait ---- */

static void check_exchange(const struct cluster *c, enum model m, const struct xsched_ops *a,
                           const char *what)
{
    struct exchange x;
    struct exchange_opts o = {.pattern = XPAT_ALL_TO_ALL, .ops = a, .seed = 3};
    char *cause = NULL;
    if (exchange_run(&x, c, m, &o, &cause) < 0) {
        ok(0, "%s: exchange runs (%s)", what, cause);
        free(cause);
        return;
    }
    struct ports pt;
    ports_init(&pt, c, false);
    int bad = 0, waited = 0;
    for (int i = 0; i < x.eng.ntr; i++) {
        const struct transfer *t = &x.eng.tr[i];
        struct timing tm;
        if (!place(c, m, &pt, t->from, t->to, 0, &tm)) {
            bad++;
            continue;
        }
        bad += !same_times(t, &tm);
        waited += tm.recv_start > tm.link_end || tm.start > pt.send_free[t->from];
        take(c, m, &pt, t->from, t->to, &tm);
    }
    is_int(bad, 0, "%s, %s, %s: the exchange's %d bookings are timing_of's (%d waited for a port)",
           what, model_name(m), a->name, x.eng.ntr, waited);
    ports_free(&pt);
    exchange_free(&x);
}

/* ---- the grep ---- */

/*
 * Arithmetic on the costs: a cost field, a node's send or receive time, the
 * latency or the unit next to + - * /.  Only model/timing.h may do it; the
 * exceptions below are not times of a transfer.
 */
static const char *const cost_patterns[] = {
    "[[:alnum:]_]+(\\.|->)(s|l|r|T|send_mp)[[:space:]]*[-+*/][^-+=>]",
    "[-+*/][[:space:]]*[[:alnum:]_]+(\\.|->)(s|l|r|T|send_mp)([^[:alnum:]_[(]|$)",
    "(\\.|->)(send|recv|latency|unit)[[:space:]]*([-+*/]|[-+*/]=)[^-+]",
    "[-+*/][[:space:]]*[[:alnum:]_]+(\\[[^]]*\\])?(\\.|->)(send|recv|latency|unit)([^[:alnum:]_(]|$)",
    "[-+*/][[:space:]]*[[:alnum:]_]+->nodes\\[[^]]*\\]\\.(send|recv)",
    "send[[:space:]]*>=[[:space:]]*0[[:space:]]*\\?[^:]*:[[:space:]]*[[:alnum:]_]+(\\.|->)time",   /* send_mp */
};

static const struct {
    const char *file, *text, *why;
} allowed[] = {
    {"sched/exchange.c", "c->nodes[x].send + c->latency", "the exchange's lower bound: sums of port busy times"},
    {"sched/exchange.c", "c->latency + c->nodes[x].recv", "the exchange's lower bound"},
    {"sched/exchange.c", "sum_r_recv += c->nodes[recv[k]].recv", "the exchange's lower bound"},
    {"sched/exchange.c", "sum_s += c->nodes[q].send", "the exchange's lower bound"},
    {"sched/exchange.c", "- c->nodes[x].send", "the exchange's lower bound"},
    {"sched/exchange.c", "outs * c->nodes[x].send", "the exchange's lower bound"},
    {"sched/exchange.c", "ins * c->nodes[x].recv", "the exchange's lower bound"},
    {"sched/exchange.c", "- (is_recv[x] ? c->nodes[x].recv", "the exchange's lower bound"},
    {"sched/optimal.c", "ms + fabs(c->latency) + mr", "the size of the largest transfer, for the integer scale"},
    {"sched/optimal.c", "fabs(v[i]) * scale", "the integer scale"},
};

static bool is_allowed(const char *file, const char *line)
{
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        if (strcmp(file, allowed[i].file) == 0 && strstr(line, allowed[i].text))
            return true;
    return false;
}

/* The code of one line, comments dropped (*in_comment carries a block
 * comment over lines). */
static void strip_comments(const char *line, bool *in_comment, char *code, size_t size)
{
    size_t k = 0;
    for (const char *p = line; *p; p++) {
        if (*in_comment) {
            if (p[0] == '*' && p[1] == '/')
                *in_comment = false, p++;
        } else if (p[0] == '/' && p[1] == '*') {
            *in_comment = true, p++;
        } else if (p[0] == '/' && p[1] == '/') {
            break;
        } else if (*p != '\n' && k + 1 < size) {
            code[k++] = *p;
        }
    }
    code[k] = '\0';
}

/* Lines of src/NAME outside comments that match a pattern and are not allowed. */
static int grep_file(const char *dir, const char *name, regex_t *re, int nre, bool quiet)
{
    char path[512], line[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    int hits = 0, lineno = 0;
    bool in_comment = false;
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        char code[1024];
        strip_comments(line, &in_comment, code, sizeof code);
        for (int i = 0; i < nre; i++)
            if (regexec(&re[i], code, 0, NULL, 0) == 0 && !is_allowed(name, code)) {
                if (!quiet)
                    diag("%s:%d: cost arithmetic outside model/timing.h: %s", name, lineno, code);
                hits++;
                break;
            }
    }
    fclose(fp);
    return hits;
}

static void check_grep(void)
{
    const char *dir = "src";
    int nre = (int)(sizeof cost_patterns / sizeof cost_patterns[0]);
    regex_t re[sizeof cost_patterns / sizeof cost_patterns[0]];
    for (int i = 0; i < nre; i++)
        if (regcomp(&re[i], cost_patterns[i], REG_EXTENDED | REG_NOSUB) != 0) {
            ok(0, "pattern %d compiles", i);
            return;
        }
    /* src/ is a folder a layer (docs/layout.md): every one of them */
    static const char *const layers[] = {"support", "model", "engine", "sched", "session", "output"};
    int hits = 0, files = 0, timing_hits = 0, opened = 0;
    for (size_t li = 0; li < sizeof layers / sizeof layers[0]; li++) {
        char sub[64];
        snprintf(sub, sizeof sub, "%s/%s", dir, layers[li]);
        DIR *d = opendir(sub);
        opened += d != NULL;
        struct dirent *de;
        while (d && (de = readdir(d))) {
            size_t len = strlen(de->d_name);
            if (len < 3 || (strcmp(de->d_name + len - 2, ".c") && strcmp(de->d_name + len - 2, ".h")))
                continue;
            char name[300];
            snprintf(name, sizeof name, "%s/%s", layers[li], de->d_name);
            if (strcmp(name, "model/timing.h") == 0) {
                timing_hits = grep_file(dir, name, re, nre, true) > 0;
                continue;
            }
            files++;
            hits += grep_file(dir, name, re, nre, false);
        }
        if (d)
            closedir(d);
    }
    ok(opened == (int)(sizeof layers / sizeof layers[0]),
       "src/'s layer folders can be read (the tests run from the source root)");
    for (int i = 0; i < nre; i++)
        regfree(&re[i]);
    ok(timing_hits, "the patterns find the arithmetic in model/timing.h (they can match)");
    is_int(hits, 0, "no cost arithmetic in the %d other files of src/", files);
}

/* ---- what a model means ---- */

/* Every predicate against the comparison its callers made before it, and,
 * where the model's own intervals show it, against those. */
static void check_predicates(void)
{
    for (int i = 0; i < MODEL_COUNT; i++) {
        enum model m = (enum model)i;
        const char *name = model_name(m);
        bool sync = m == MODEL_SYNC, async = m == MODEL_ASYNC, so = m == MODEL_SENDER_ONLY,
             mp = m == MODEL_MULTI_PORT;
        is_int(timing_sender_waits_receive(m), sync || timing_one_port(m),
               "%s: the sender waits for the receive as export_smpi and app/mpi decided", name);
        is_int(timing_rendezvous(m), sync || timing_one_port(m),
               "%s: a rendezvous as timing_start decides", name);
        is_int(!timing_sender_waits_receive(m) && timing_hold_stepwise(m), async || so,
               "%s: the exact search's receiver orders on raw doubles as it decided", name);
        is_int(!timing_sender_waits_receive(m) && !timing_hold_stepwise(m), mp,
               "%s: the exact search's receiver orders on integers only as it decided", name);
        is_int(timing_send_only(m), so, "%s: only the send costs as optimal and export_smpi decided", name);
        is_int(timing_fnf_bounds(m), async, "%s: the FNF bounds apply as bounds.c decided", name);
        is_int(timing_list_run(m), async, "%s: the list run applies as engine_lean.c decided", name);
        is_int(timing_lp_of_one_port(m), mp, "%s: the LP is one-port's as report.c decided", name);
        is_int(timing_exchange_ok(m), sync || async, "%s: an exchange runs as session.c decided", name);
        is_int(timing_exchange_ok(m) && !timing_exchange_on_matrix(m), async,
               "%s: refused on a matrix as exchange_check_kind decided", name);
        for (int a = 0; a < XSCHED_COUNT; a++)
            if (!(xsched_at(a)->models & MODEL_BIT(m)) != !timing_exchange_ok(m))
                ok(0, "%s: %s's models and timing_exchange_ok disagree", name, xsched_at(a)->name);

        /* the model's intervals: s 1, l 2, r 4, all free at 0 */
        struct cost k;
        timing_cost_parts(1, 2, 4, &k);
        struct timing tm;
        timing_phases(m, &k, 0.0, 0.0, &tm);
        struct timing_ports busy = {0.0, 5.0, -INFINITY};
        is_int(timing_rendezvous(m), timing_start(m, &busy) == 5.0,
               "%s: timing_rendezvous is when timing_start waits for the receive port", name);
        is_int(timing_sender_waits_receive(m), tm.free == tm.recv_end && tm.recv_end > tm.recv_start,
               "%s: timing_sender_waits_receive is when q is free as a receive ends", name);
        is_int(timing_send_only(m), tm.hold == timing_send_end(&k, 0.0),
               "%s: timing_send_only is when p holds it as the send ends", name);
        /* costs whose stepwise sum from 0.1 differs from 0.1 + T in the last bit */
        struct cost kr, k0;
        timing_cost_parts(0.1, 0.1, 0.3, &kr);
        timing_cost_parts(0.1, 0, 0, &k0);
        const struct cost *kc = timing_send_only(m) ? &k0 : &kr;
        double stepwise = timing_recv_end(kc, timing_arrival(kc, timing_send_end(kc, 0.1)));
        timing_phases(m, &kr, 0.1, 0.0, &tm);
        is_int(timing_hold_stepwise(m), tm.hold == stepwise,
               "%s: timing_hold_stepwise is when the hold is the phases added in turn", name);

        /* measured times that are the model's own give its intervals back */
        struct timing want, got;
        timing_phases(m, &k, 3.0, 0.0, &want);
        struct timing_measure at = {want.start, want.link_start, want.send_end, want.free,
                                    want.link_end, want.recv_end};
        timing_measured(m, &at, &got);
        ok(memcmp(&got, &want, sizeof got) == 0,
           "%s: timing_measured of its own times gives its intervals (send %g-%g, link %g-%g, "
           "recv %g-%g, hold %g, free %g)", name, got.start, got.send_end, got.link_start,
           got.link_end, got.recv_start, got.recv_end, got.hold, got.free);
    }

    /* app/mpi's measured columns as its switch on the model gave them */
    struct timing_measure at = {1, 2, 3, 4, 5, 6};
    static const struct {
        enum model m;
        struct timing want;
    } measured[] = {
        {MODEL_ASYNC, {1, 3, 2, 5, 5, 6, 6, 4}},
        {MODEL_SENDER_ONLY, {1, 3, 2, 5, 5, 5, 5, 3}},
        {MODEL_SYNC, {1, 4, 2, 5, 5, 6, 6, 4}},
        {MODEL_ONE_PORT, {1, 4, 1, 6, 1, 6, 6, 4}},
        {MODEL_MULTI_PORT, {1, 3, 2, 5, 5, 6, 6, 4}},
        {MODEL_ONE_PORT_UNI, {1, 4, 1, 6, 1, 6, 6, 4}},
    };
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++) {
        struct timing got;
        timing_measured(measured[i].m, &at, &got);
        ok(memcmp(&got, &measured[i].want, sizeof got) == 0,
           "%s: timing_measured's columns are app/mpi's", model_name(measured[i].m));
    }

    /* the pipelined tree's note, as pipeline.c wrote it */
    static const struct {
        enum model m;
        const char *note;
    } rules[] = {
        {MODEL_ONE_PORT, "one-port: sum of its children's T"},
        {MODEL_MULTI_PORT, "multi-port: sends or slowest link"},
        {MODEL_ONE_PORT_UNI, "one-port-uni: its receive and its children's T"},
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        char note[128];
        snprintf(note, sizeof note, "%s: %s", model_name(rules[i].m), timing_tree_rule(rules[i].m));
        is_string(note, rules[i].note, "%s: the period's rule in words", model_name(rules[i].m));
    }
    struct edge e = {.time = 5, .send = 2};
    is_double(timing_tree_send(MODEL_MULTI_PORT, &e), 2, 0, "multi-port: a tree's send is the edge's send time");
    is_double(timing_tree_send(MODEL_ONE_PORT, &e), 5, 0, "one-port: a tree's send is the edge's T");
}

/*
 * A comparison of a model against a MODEL_ name (`== MODEL_X`, `!= MODEL_X`,
 * `MODEL_X ==`, `case MODEL_X`): a choice that belongs to a predicate of
 * model/timing.h.  MODEL_COUNT and MODEL_ALL are no model.  Each pattern's
 * first group is the name.
 */
static const char *const model_patterns[] = {
    "[=!]=[[:space:]]*(MODEL_[A-Z0-9_]+)",
    "(MODEL_[A-Z0-9_]+)[[:space:]]*[=!]=",
    "case[[:space:]]+(MODEL_[A-Z0-9_]+)",
};

/* Files that may still compare, each with its reason (FILE, TEXT, WHY). */
static const struct {
    const char *file, *text, *why;
} model_allowed[] = {
    {NULL, NULL, "none: every choice on the port model asks model/timing.h"},
};

/* Does code (without comments) compare a model against a MODEL_ name? */
static bool compares_model(regex_t *re, int nre, const char *code)
{
    for (int i = 0; i < nre; i++) {
        regmatch_t pm[2];
        const char *at = code;
        int flags = 0;
        while (regexec(&re[i], at, 2, pm, flags) == 0) {
            int len = (int)(pm[1].rm_eo - pm[1].rm_so);
            const char *name = at + pm[1].rm_so;
            if (!(len == 11 && strncmp(name, "MODEL_COUNT", 11) == 0) &&
                !(len == 9 && strncmp(name, "MODEL_ALL", 9) == 0))
                return true;
            at += pm[0].rm_eo > 0 ? pm[0].rm_eo : 1;
            flags = REG_NOTBOL;
        }
    }
    return false;
}

struct model_grep {
    regex_t re[sizeof model_patterns / sizeof model_patterns[0]];
    int nre, files, hits, timing_hits;
    bool seen[4];   /* the files of model_seen, walked */
};

/* Files the walk must reach: one per root folder and subfolder kind. */
static const char *const model_seen[] = {"src/sched/exchange.c", "app/mpi/exec.c",
                                         "app/study/alltoall.c", "ui/screen_chooser.c"};

static int model_grep_file(struct model_grep *g, const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    char line[1024], code[1024];
    int hits = 0, lineno = 0;
    bool in_comment = false;
    bool timing = strcmp(path, "src/model/timing.c") == 0 || strcmp(path, "src/model/timing.h") == 0;
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        strip_comments(line, &in_comment, code, sizeof code);
        if (!compares_model(g->re, g->nre, code))
            continue;
        bool allowed = false;
        for (size_t i = 0; model_allowed[i].file; i++)
            allowed |= strcmp(path, model_allowed[i].file) == 0 && strstr(code, model_allowed[i].text);
        if (!allowed && !timing)
            diag("%s:%d: a choice on the port model outside model/timing.[ch]: %s", path, lineno, code);
        hits += !allowed;
    }
    fclose(fp);
    return hits;
}

/* Every .c and .h under dir, recursively. */
static void model_grep_dir(struct model_grep *g, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        size_t len = strlen(de->d_name);
        if (len > 2 && (strcmp(de->d_name + len - 2, ".c") == 0 || strcmp(de->d_name + len - 2, ".h") == 0)) {
            int hits = model_grep_file(g, path);
            if (strcmp(path, "src/model/timing.c") == 0 || strcmp(path, "src/model/timing.h") == 0) {
                g->timing_hits += hits;
                continue;
            }
            g->files++;
            g->hits += hits;
            for (size_t i = 0; i < sizeof model_seen / sizeof model_seen[0]; i++)
                g->seen[i] |= strcmp(path, model_seen[i]) == 0;
        } else {
            DIR *sub = opendir(path);   /* a folder: walk it too */
            if (sub) {
                closedir(sub);
                model_grep_dir(g, path);
            }
        }
    }
    if (d)
        closedir(d);
}

static void check_model_grep(void)
{
    struct model_grep g = {.nre = (int)(sizeof model_patterns / sizeof model_patterns[0])};
    for (int i = 0; i < g.nre; i++)
        if (regcomp(&g.re[i], model_patterns[i], REG_EXTENDED) != 0) {
            ok(0, "model pattern %d compiles", i);
            return;
        }
    static const struct {
        const char *code;
        bool compares;
    } cases[] = {
        {"if (m == MODEL_SYNC)", true},
        {"return x->model!=MODEL_ASYNC;", true},
        {"bool b = MODEL_ONE_PORT == m;", true},
        {"    case MODEL_MULTI_PORT:", true},
        {"if (m >= MODEL_COUNT || m == MODEL_ONE_PORT_UNI)", true},
        {"if (m >= MODEL_COUNT)", false},
        {"if (n == MODEL_COUNT)", false},
        {"engine_init(&e, c, MODEL_ASYNC, cause);", false},
        {"unsigned mask = MODEL_BIT(MODEL_SYNC) | MODEL_ALL;", false},
        {"if (timing_rendezvous(m))", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        is_int(compares_model(g.re, g.nre, cases[i].code), cases[i].compares, "the grep on \"%s\"",
               cases[i].code);
    char code[128];
    bool in_comment = false;
    strip_comments("x = 1; /* m == MODEL_SYNC */", &in_comment, code, sizeof code);
    ok(!compares_model(g.re, g.nre, code), "the grep skips a comparison in a comment");

    static const char *const roots[] = {"src", "app", "ui"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++)
        model_grep_dir(&g, roots[i]);
    for (int i = 0; i < g.nre; i++)
        regfree(&g.re[i]);
    for (size_t i = 0; i < sizeof model_seen / sizeof model_seen[0]; i++)
        ok(g.seen[i], "the walk of src/, app/ and ui/ reaches %s (the tests run from the source root)",
           model_seen[i]);
    ok(g.timing_hits > 0, "the patterns find the comparisons in model/timing.[ch] (they can match)");
    is_int(g.hits, 0, "no choice on the port model compares MODEL_ names in the %d other files of "
           "src/, app/ and ui/", g.files);
}

int main(void)
{
    static const enum cluster_kind kinds[] = {CLUSTER_NODES, CLUSTER_MATRIX, CLUSTER_GRAPH};
    const struct sched_ops *policies[] = {&sched_fnf, &sched_random_pair, &sched_fef};
    for (int ki = 0; ki < 3; ki++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            int rc_big, rc_small;
            struct cluster *big = random_cluster(kinds[ki], 40, seed, &rc_big);
            struct cluster *small = random_cluster(kinds[ki], 5, 100 + seed, &rc_small);
            if (!ok(rc_big == 0 && rc_small == 0, "%s %llu: a random cluster",
                    cluster_kind_name(kinds[ki]), (unsigned long long)seed)) {
                cluster_free(big);
                cluster_free(small);
                continue;
            }
            char what[64];
            for (int m = 0; m < MODEL_COUNT; m++) {
                if (!(model_mask_for(kinds[ki]) & MODEL_BIT(m)))
                    continue;
                snprintf(what, sizeof what, "%s %llu", cluster_kind_name(kinds[ki]),
                         (unsigned long long)seed);
                for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
                    check_engine(big, (enum model)m, policies[i], what);
                check_optimal(small, (enum model)m, what);
            }
            if (kinds[ki] == CLUSTER_NODES) {   /* exchanges run on node tables */
                snprintf(what, sizeof what, "%s %llu", cluster_kind_name(kinds[ki]),
                         (unsigned long long)seed);
                int rc;
                struct cluster *mid = random_cluster(kinds[ki], 12, 200 + seed, &rc);
                for (int a = 0; rc == 0 && a < XSCHED_COUNT; a++) {
                    check_exchange(mid, MODEL_ASYNC, xsched_at(a), what);
                    check_exchange(mid, MODEL_SYNC, xsched_at(a), what);
                }
                cluster_free(mid);
            }
            cluster_free(big);
            cluster_free(small);
        }
    {   /* timelines of 20 000 events and their ties, their times spread evenly or not */
        int rc;
        struct cluster *huge = random_cluster(CLUSTER_NODES, 5000, 7, &rc);
        for (int m = 0; rc == 0 && m < MODEL_COUNT; m++)
            if (model_mask_for(CLUSTER_NODES) & MODEL_BIT(m))
                check_engine(huge, (enum model)m, &sched_fnf, "nodes 5000");
        cluster_free(huge);
        /* one node far slower than the rest: nearly every event in the first time span */
        struct rng r;
        rng_seed(&r, 8);
        struct cluster *skew = cluster_new(CLUSTER_NODES);
        for (int i = 0; i < 3000; i++) {
            char name[16];
            snprintf(name, sizeof name, "n%d", i);
            double s = 0.5 + some_time(&r, 5);
            cluster_add_node(skew, name, i == 1 ? 10000 : s, i == 1 ? 10000 : s + 1);
        }
        skew->latency = 1;
        struct diag d;
        diag_init(&d);
        rc = cluster_finish(skew, &d);
        diag_free(&d);
        for (int m = 0; rc == 0 && m < MODEL_COUNT; m++)
            if (model_mask_for(CLUSTER_NODES) & MODEL_BIT(m))
                check_engine(skew, (enum model)m, &sched_fnf, "nodes 3000, one slow");
        cluster_free(skew);
    }
    check_grep();
    check_predicates();
    check_model_grep();
    return tap_exit();
}
