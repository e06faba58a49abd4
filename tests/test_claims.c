/*
 * test_claims.c - every kind of reason the program prints, checked against
 * the run it describes, on thousands of random clusters (TAP).
 *
 * In every model of every cluster kind, on small random clusters rich in
 * zero costs, ties and equal nodes (the generators of test_bruteforce.c):
 * - optimal's reason (opt_plan_reason): "a schedule meets the lower bound"
 *   only when the makespan is bound_lower; the root-bound reason only when
 *   no search node was needed and it names the makespan; "exhaustive search"
 *   only after search nodes;
 * - the first difference (explain_first_difference, explain_diff_text)
 *   between a heuristic and the optimum: the loss it states is the
 *   makespans' difference, nothing is "missed by" a per-node bound, a
 *   receive step is named only where the late node's transfers have one, and
 *   what pushed the late node is true: its sender's hold, or its sender's
 *   earlier sends back to back up to its start;
 * - the critical path (export_critical_path): it ends at the makespan, and
 *   each of its transfers starts at 0 from the source, when its sender holds
 *   the message (the transfer into the sender on the path), or when an earlier
 *   send of its sender on the path frees the port;
 * - what a booking achieves (explain_pick, optimal's narration): "within the
 *   lower bound" and "as early as it can ever be" only when true;
 * - the exercise: the best completion's first pick "would have kept" the
 *   best reachable, and no pick "costs" less than 0;
 * - the narration of a sender that idles (pipelined slices on platform
 *   graphs): the port or link it names was busy until that start;
 * - run's and -s optimal's reason beside the optimum.
 * HETCAST_CLAIMS_CLUSTERS=N for a longer sweep; fewer at the small scale (tap_scale).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bounds.h"
#include "engine/explain.h"
#include "output/export.h"
#include "sched/exercise.h"
#include "sched/optimal.h"
#include "sched/registry.h"
#include "session/run.h"
#include "support/numfmt.h"
#include "support/rng.h"
#include "tap.h"
#include "random_cluster.h"

/* A class of claim: how often it was checked and the first time it failed. */
struct claim {
    const char *what;
    int checked, wrong;
    char first[512];
};

static void check(struct claim *k, bool good, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void check(struct claim *k, bool good, const char *fmt, ...)
{
    k->checked++;
    if (good || k->wrong++)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k->first, sizeof k->first, fmt, ap);
    va_end(ap);
}

static struct claim proof = {.what = "optimal's reason"}, runs = {.what = "run's optimum line"},
                    loss = {.what = "first difference: the loss"},
                    push = {.what = "first difference: what pushed the late node"},
                    words = {.what = "first difference: the model's own steps, no per-node bound as a loss"},
                    crit = {.what = "critical path: each step starts when its predecessor or a port wait ends"},
                    pickc = {.what = "a booking's reason"},
                    waits = {.what = "narration: what an idle sender waited for"},
                    exer = {.what = "exercise: \"would have kept\" and \"this choice costs\""};

static bool near_eq(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

static const char *where(int i, const struct cluster *c, enum model m)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "cluster %d (%s, %d nodes, source p%d, %s)", i, cluster_kind_name(c->kind),
             c->n, c->source, model_name(m));
    return buf;
}

static void check_proof(int i, const struct cluster *c, enum model m, const struct opt_plan *p)
{
    char why[256];
    opt_plan_reason(p, why, sizeof why);
    double lb = bound_lower(c, m);
    if (strstr(why, "meets the lower bound"))
        check(&proof, p->makespan <= lb + 1e-9 * fabs(lb), "%s: \"%s\" but optimum %g, lower bound %g",
              where(i, c, m), why, p->makespan, lb);
    else if (strstr(why, "before any branching")) {
        char num[64];
        snprintf(num, sizeof num, " is %g ", p->makespan);
        check(&proof, p->status == OPT_PROVEN && p->explored == 0 && strstr(why, num) && p->makespan > lb,
              "%s: \"%s\" (explored %lld, optimum %g, lower bound %g)", where(i, c, m), why, p->explored,
              p->makespan, lb);
    } else if (strstr(why, "exhaustive search"))
        check(&proof, p->status == OPT_PROVEN && p->explored > 0, "%s: \"%s\" after %lld search nodes",
              where(i, c, m), why, p->explored);
    else if (strncmp(why, "proven", 6) == 0)
        check(&proof, p->status == OPT_PROVEN && c->n == 1, "%s: \"%s\"", where(i, c, m), why);
    else
        check(&proof, p->status == OPT_GAVE_UP, "%s: \"%s\" on a proven plan", where(i, c, m), why);
}

/* What hetcast run prints beside the optimum (session/run.c's opt_note). */
static void check_run_note(int i, const struct cluster *c, enum model m, const struct run *r)
{
    const char *why = r->opt_note;
    double lb = r->lower_bound;
    bool good = true;
    if (strstr(why, "meets the lower bound"))
        good = r->opt == OPT_PROVEN && r->optimum <= lb + 1e-9 * fabs(lb);
    else if (strstr(why, "before any branching")) {
        char num[64];
        snprintf(num, sizeof num, " is %g ", r->optimum);
        good = r->opt == OPT_PROVEN && strstr(why, num) && r->optimum > lb;
    } else if (strstr(why, "exhaustive search"))
        good = r->opt == OPT_PROVEN && !strstr(why, "(0 search nodes)");
    else if (strstr(why, "gave up"))
        good = r->opt == OPT_GAVE_UP;
    check(&runs, good, "%s: optimum %g \"%s\", lower bound %g", where(i, c, m), r->optimum, why, lb);
}

static const struct transfer *into(const struct engine *e, int p)
{
    for (int j = 0; j < e->ntr; j++)
        if (e->tr[j].to == p && e->tr[j].msg == 0)
            return &e->tr[j];
    return NULL;
}

static void check_diff(int i, const struct cluster *c, enum model m, const struct run *a, const struct run *b)
{
    struct explain_diff d;
    if (explain_first_difference(&a->eng, &b->eng, &d) < 0 || !d.parted)
        return;
    char text[4096];
    explain_diff_text(&a->eng, &b->eng, "A", "B", &d, text, sizeof text);
    double ma = a->eng.makespan, mb = b->eng.makespan;
    if (ma != mb && d.late >= 0) {
        char want[96];
        snprintf(want, sizeof want, "%s loses %s", ma > mb ? "A" : "B", numfmt_txt(fabs(ma - mb)));
        check(&loss, strstr(text, want) != NULL, "%s: no \"%s\" in: %s", where(i, c, m), want, text);
    }
    check(&words, !strstr(text, "missed by") && !strstr(text, " is 0 is ") && !strstr(text, " it is "),
          "%s: %s", where(i, c, m), text);
    if (d.late < 0 || d.worse < 0)
        return;
    const struct engine *w = d.worse == 0 ? &a->eng : &b->eng, *o = d.worse == 0 ? &b->eng : &a->eng;
    const struct transfer *tw = into(w, d.late), *to = into(o, d.late);
    bool receives = tw && to && tw->recv_end > tw->recv_start && to->recv_end > to->recv_start;
    if (!receives)
        check(&words, !strstr(text, "receive"), "%s: a receive step the late node's transfers do not "
              "have: %s", where(i, c, m), text);
    if (!tw)
        return;
    double hq = engine_hold_time(w, tw->from, 0);
    bool good = d.late_from == tw->from && d.late_start == tw->start;
    switch (d.push) {
    case PUSH_PORT: {
        good = good && tw->start > hq && d.nheld >= 1 && d.nchain >= d.nheld;
        double at = tw->start;
        for (int k = d.nheld - 1; k >= 0 && good; k--) {
            const struct transfer *h = &w->tr[d.held[k]];
            good = h->from == tw->from && h->free == at && h->seq < tw->seq;
            at = h->start;
            char said[160];
            snprintf(said, sizeof said, "%s -> %s [%s, ", c->nodes[h->from].name, c->nodes[h->to].name,
                     numfmt_txt(h->start));
            good = good && strstr(text, said);
        }
        break;
    }
    case PUSH_HOLD:
        good = good && tw->start == hq && strstr(text, "when") != NULL;
        break;
    case PUSH_WAIT:
        good = good && tw->wait_start < tw->start;
        break;
    case PUSH_NONE:
        good = good && tw->start == 0 && tw->from == c->source;
        break;
    }
    check(&push, good, "%s: push %d, %s -> %s at %g (sender holds at %g): %s", where(i, c, m), (int)d.push,
          c->nodes[tw->from].name, c->nodes[d.late].name, tw->start, hq, text);
}

static void check_critical(int i, const struct cluster *c, enum model m, const struct engine *e)
{
    if (e->ntr == 0)
        return;
    unsigned char *mark = malloc((size_t)c->n);
    int end = export_critical_path(e, mark);
    bool good = end >= 0 && engine_hold_time(e, end, 0) == e->makespan && mark[end] == CRIT_WHOLE &&
                mark[c->source] == CRIT_WHOLE;
    char why[200] = "";
    for (int p = 0; p < c->n && good; p++) {
        if (!mark[p] || p == c->source)
            continue;
        const struct transfer *t = into(e, p);
        if (!t) {
            good = false;
            break;
        }
        if (t->start == 0 && t->from == c->source)
            continue;
        bool by_hold = t->start == engine_hold_time(e, t->from, 0) && mark[t->from] == CRIT_WHOLE;
        bool by_port = false;
        for (int j = 0; j < e->ntr && !by_port; j++)
            by_port = e->tr[j].from == t->from && e->tr[j].free == t->start && mark[e->tr[j].to] &&
                      &e->tr[j] != t && e->tr[j].seq < t->seq;
        if (!by_hold && !by_port) {
            good = false;
            snprintf(why, sizeof why, "%s -> %s starts at %g: neither its sender's hold (%g) nor a "
                     "marked send of its sender ends then", c->nodes[t->from].name, c->nodes[p].name,
                     t->start, engine_hold_time(e, t->from, 0));
        }
    }
    check(&crit, good, "%s: %s", where(i, c, m), why);
    free(mark);
}

static void check_picks(int i, const struct cluster *c, enum model m, const struct engine *e)
{
    double lb = bound_lower(c, m);
    for (int j = 0; j < e->ntr; j++) {
        char *s = explain_pick(e, &e->tr[j]);
        if (!s)
            continue;
        bool good = !strstr(s, "within the lower bound") || e->tr[j].hold <= lb;
        if (strstr(s, "as early as it can ever be")) {   /* no schedule serves it earlier */
            struct engine f;
            char *cause = NULL;
            struct transfer t;
            if (engine_init(&f, c, m, &cause) == 0) {
                good = good && engine_earliest(&f, c->source, e->tr[j].to, 0, &t) == 0 &&
                       e->tr[j].hold <= t.hold;
                engine_free(&f);
            }
            free(cause);
        }
        check(&pickc, good, "%s: %s", where(i, c, m), s);
        free(s);
    }
}

/* An engine with the first k bookings of plan (from, to), or -1. */
static int book_prefix(struct engine *e, const struct cluster *c, enum model m, const int *from, const int *to,
                       int k)
{
    char *cause = NULL;
    if (engine_init(e, c, m, &cause) < 0) {
        free(cause);
        return -1;
    }
    for (int i = 0; i < k; i++)
        if (engine_book(e, from[i], to[i], 0, NULL, &cause) < 0) {
            free(cause);
            engine_free(e);
            return -1;
        }
    return 0;
}

/*
 * The exercise's sentences, from a random state reached by a random prefix of
 * picks: the best completion's first pick "would have kept" the best
 * reachable (booked, the best from there is the same), and any other pick
 * "costs" best-after minus best-before, never less than 0 (a pick cannot
 * improve what was reachable before it).
 */
static void check_exercise(int i, const struct cluster *c, enum model m, struct rng *r)
{
    int n = c->n, from[16], to[16], k = 0;
    struct engine e;
    if (n > 6 || book_prefix(&e, c, m, from, to, 0) < 0)
        return;
    int steps = (int)rng_below(r, (uint64_t)(n - 1));
    for (; k < steps; k++) {   /* a random holder to a random waiting node */
        int q, p, tries = 0;
        do {
            q = (int)rng_below(r, (uint64_t)n);
            p = (int)rng_below(r, (uint64_t)n);
        } while (++tries < 200 && (!engine_holds(&e, q, 0) || engine_holds(&e, p, 0) || !timing_cost(c, q, p, &(struct cost){0})));
        char *cause = NULL;
        if (tries >= 200 || engine_book(&e, q, p, 0, NULL, &cause) < 0) {
            free(cause);
            break;
        }
        from[k] = q;
        to[k] = p;
    }
    struct best_result before, kept, other;
    char *cause = NULL;
    if (e.nwaiting == 0 || exercise_best_completion(&e, 0, NULL, &before, &cause) < 0 || before.status != BEST_EXACT) {
        free(cause);
        engine_free(&e);
        return;
    }
    from[k] = before.from;
    to[k] = before.to;
    struct engine f;
    if (book_prefix(&f, c, m, from, to, k + 1) == 0) {
        bool good = f.nwaiting == 0 ? near_eq(f.makespan, before.makespan)
                    : exercise_best_completion(&f, 0, NULL, &kept, &cause) == 0 && kept.status == BEST_EXACT &&
                      near_eq(kept.makespan, before.makespan);
        check(&exer, good, "%s: %s -> %s would have kept %g, but reaches %g", where(i, c, m),
              c->nodes[before.from].name, c->nodes[before.to].name, before.makespan,
              f.nwaiting == 0 ? f.makespan : kept.makespan);
        engine_free(&f);
    }
    free(cause);
    cause = NULL;
    for (int q = 0; q < n; q++)   /* every other pick: its cost is >= 0 */
        for (int p = 0; p < n; p++) {
            if (!engine_holds(&e, q, 0) || engine_holds(&e, p, 0) || !timing_cost(c, q, p, &(struct cost){0}))
                continue;
            from[k] = q;
            to[k] = p;
            if (book_prefix(&f, c, m, from, to, k + 1) < 0)
                continue;
            double after = f.makespan;
            if (f.nwaiting > 0) {
                if (exercise_best_completion(&f, 0, NULL, &other, &cause) < 0 || other.status != BEST_EXACT) {
                    free(cause);
                    cause = NULL;
                    engine_free(&f);
                    continue;
                }
                after = other.makespan;
            }
            check(&exer, after >= before.makespan - 1e-9 * fmax(1, before.makespan),
                  "%s: best reachable %g, after %s -> %s %g: a choice would gain", where(i, c, m),
                  before.makespan, c->nodes[q].name, c->nodes[p].name, after);
            engine_free(&f);
        }
    engine_free(&e);
}

/*
 * Pipelined slices along a tree of a platform graph: a sender that idles
 * before a start (wait_start < start) says what it waited for, and that
 * resource was busy until then: the receiver's one port under one-port-uni
 * (an earlier transfer to or from it), the edge under multi-port, the
 * receive port otherwise.
 */
static void check_waits(int i, const struct cluster *c, enum model m)
{
    static const char *const pipes[] = {"grow-tree", "prune-simple", "multiport-grow"};
    const struct sched_ops *ops = sched_find(pipes[i % 3]);
    struct sched_opts so;
    sched_opts_default(&so);
    so.slices = 3;
    struct run r;
    char *cause = NULL;
    if (!ops || sched_supports(ops, c, m, NULL) < 0 || run_schedule(&r, c, m, ops, &so, RUN_OPT_NEVER, &cause) < 0) {
        free(cause);
        return;
    }
    struct engine *e = &r.eng;
    engine_timeline(e);
    for (int k = 0; k < e->nev; k++) {
        const struct transfer *t = &e->tr[e->ev[k].transfer];
        if (e->ev[k].kind != EV_SEND_START || !(t->wait_start < t->start))
            continue;
        char text[1024];
        engine_narrate(e, k, text, sizeof text);
        bool busy = false;
        for (int j = 0; j < e->ntr && !busy; j++) {
            const struct transfer *u = &e->tr[j];
            if (u->seq >= t->seq)
                continue;
            if (strstr(text, "one port (it sends or receives) was busy"))
                busy = (u->to == t->to && u->recv_end == t->start) || (u->from == t->to && u->free == t->start);
            else if (strstr(text, "the link to"))
                busy = u->from == t->from && u->to == t->to && u->link_end == t->start;
            else if (strstr(text, "receive port was busy"))
                busy = u->to == t->to && u->recv_end == t->start;
        }
        check(&waits, busy, "%s: %s", where(i, c, m), text);
    }
    run_free(&r);
}

static void report(const struct claim *k)
{
    ok(k->checked > 0 && k->wrong == 0, "%s: %d checked, %d wrong%s%s", k->what, k->checked, k->wrong,
       k->wrong ? "; first: " : "", k->first);
}

int main(void)
{
    lnow_matrices = true;   /* the node facts of Figueira's tables are among the claims */
    const char *env = getenv("HETCAST_CLAIMS_CLUSTERS");
    int clusters = env ? atoi(env) : tap_scale(3000, 150);
    struct rng r;
    rng_seed(&r, 20261127);
    static const enum cluster_kind kinds[] = {CLUSTER_NODES, CLUSTER_MATRIX, CLUSTER_GRAPH};
    static const char *const heur[] = {"fnf", "fef", "slowest-first", "random-order", "binomial", "flat"};
    const struct sched_ops *opt = sched_find("optimal");
    for (int i = 0; i < clusters; i++) {
        enum cluster_kind kind = kinds[i % 3];
        thirds = i % 4 == 3;
        int n = 2 + (int)rng_below(&r, 5);   /* 2..6 nodes */
        if (i % 25 == 0)
            n = 8;
        struct cluster *c = random_cluster(&r, kind, n);
        if (!c)
            continue;
        for (int m = 0; m < MODEL_COUNT; m++) {
            if (!(model_mask_for(kind) & MODEL_BIT(m)))
                continue;
            if (kind == CLUSTER_GRAPH)
                check_waits(i, c, (enum model)m);
            struct sched_opts so;
            sched_opts_default(&so);
            struct opt_plan plan;
            char *cause = NULL;
            if (optimal_solve(c, (enum model)m, &so, &plan, &cause) < 0) {
                free(cause);
                continue;
            }
            check_proof(i, c, (enum model)m, &plan);
            opt_plan_free(&plan);
            struct run best;
            if (run_schedule(&best, c, (enum model)m, opt, &so, RUN_OPT_NEVER, &cause) < 0) {
                free(cause);
                continue;
            }
            check_run_note(i, c, (enum model)m, &best);   /* -s optimal: the scheduler's own note */
            check_picks(i, c, (enum model)m, &best.eng);
            if (i % 4 == 1)
                check_exercise(i, c, (enum model)m, &r);
            check_critical(i, c, (enum model)m, &best.eng);
            const struct sched_ops *h = sched_find(heur[i % 6]);
            struct run other;
            if (h && sched_supports(h, c, (enum model)m, NULL) == 0 &&
                run_schedule(&other, c, (enum model)m, h, &so, RUN_OPT_ALWAYS, &cause) == 0) {
                check_run_note(i, c, (enum model)m, &other);
                check_critical(i, c, (enum model)m, &other.eng);
                check_diff(i, c, (enum model)m, &other, &best);
                check_diff(i, c, (enum model)m, &best, &other);
                run_free(&other);
            }
            free(cause);
            run_free(&best);
        }
        cluster_free(c);
    }
    for (int extra = 0; waits.checked == 0 && extra < 3000; extra++) {   /* a short run (valgrind): one wait at least */
        thirds = false;
        struct cluster *c = random_cluster(&r, CLUSTER_GRAPH, 3 + (int)rng_below(&r, 3));
        if (c) {
            check_waits(clusters + extra, c, MODEL_ONE_PORT_UNI);
            cluster_free(c);
        }
    }
    report(&proof);
    report(&runs);
    report(&loss);
    report(&push);
    report(&words);
    report(&crit);
    report(&pickc);
    report(&exer);
    report(&waits);
    return tap_exit();
}
