/*
 * test_bruteforce.c - the exact search against a brute force (TAP).
 *
 * The brute force knows nothing of the search's pruning: it books every
 * decision order -- every sequence of (holder, waiting node) pairs -- on
 * the engine and keeps the least makespan.  An engine booking starts a
 * transfer as early as the model allows, so these sequences reach every
 * schedule without an idle sender, among which an optimum always is (no
 * model has a receive-port conflict in a broadcast, so a send delayed is
 * never a send improved).  On a few hundred random small clusters rich in
 * zero costs, ties and equal nodes, in every model of every cluster kind,
 * `optimal` must either prove exactly the brute force's optimum, or give up
 * with a lower bound at or below it and a schedule at or above it -- never
 * prove a makespan the brute force beats.
 *
 * The same for multicasts: random targets, and the brute force's orders
 * take any node that does not hold the message yet, target or relay, until
 * every target holds it (the engine's makespan is then the last target's).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bounds.h"
#include "engine/engine.h"
#include "sched/optimal.h"
#include "sched/optimal_int.h"
#include "model/targets.h"
#include "support/rng.h"
#include "sched/sched.h"
#include "tap.h"
#include "random_cluster.h"

#define MAXN 6

struct brute {
    const struct cluster *c;
    enum model m;
    int from[MAXN], to[MAXN];
    double best;
    long long leaves;
};

/* The makespan of the first d decisions booked in order, or INFINITY if refused. */
static double replay(const struct brute *b, int d, struct engine *e)
{
    engine_reset(e);
    for (int i = 0; i < d; i++) {
        char *cause = NULL;
        if (engine_book(e, b->from[i], b->to[i], 0, NULL, &cause) < 0) {
            free(cause);
            return INFINITY;
        }
    }
    return e->makespan;
}

static void brute_search(struct brute *b, struct engine *e, int d)
{
    double ms = replay(b, d, e);
    if (ms == INFINITY || ms >= b->best)
        return;   /* a makespan only grows with more decisions */
    int n = b->c->n;
    if (d == n - 1 || e->nwaiting == 0) {   /* a multicast ends with its last target */
        b->best = ms;
        b->leaves++;
        return;
    }
    bool held[MAXN];
    for (int p = 0; p < n; p++)
        held[p] = engine_holds(e, p, 0);
    for (int q = 0; q < n; q++) {
        if (!held[q])
            continue;
        for (int p = 0; p < n; p++) {
            if (held[p])
                continue;
            struct cost k;
            if (!timing_cost(b->c, q, p, &k))
                continue;
            b->from[d] = q;
            b->to[d] = p;
            brute_search(b, e, d + 1);
            replay(b, d, e);
        }
    }
}

/* The least makespan over every decision order; INFINITY if no schedule reaches everyone. */
static double brute_optimum(const struct cluster *c, enum model m)
{
    struct brute b = {.c = c, .m = m, .best = INFINITY};
    struct engine e;
    char *cause = NULL;
    if (engine_init(&e, c, m, &cause) < 0) {
        free(cause);
        return NAN;
    }
    brute_search(&b, &e, 0);
    engine_free(&e);
    return b.best;
}

/* The 4-node table that cut off a schedule when a port-holding send was ordered by class, in both row orders, under sync. */
static void the_reported_cluster(void)
{
    static const double rows[2][4][2] = {
        {{0, 2}, {1, 1}, {0, 2}, {1, 0}},   /* p0 p1 p2 p3 */
        {{0, 2}, {1, 0}, {0, 2}, {1, 1}},   /* p0 p3 p2 p1 */
    };
    for (int v = 0; v < 2; v++) {
        struct cluster *c = cluster_new(CLUSTER_NODES);
        for (int i = 0; i < 4; i++) {
            char name[16];
            snprintf(name, sizeof name, "p%d", v == 0 ? i : (int[]){0, 3, 2, 1}[i]);
            cluster_add_node(c, name, rows[v][i][0], rows[v][i][1]);
        }
        struct diag d;
        diag_init(&d);
        cluster_finish(c, &d);
        diag_free(&d);
        struct sched_opts so;
        sched_opts_default(&so);
        struct opt_plan plan;
        char *cause = NULL;
        int rc = optimal_solve(c, MODEL_SYNC, &so, &plan, &cause);
        ok(rc == 0 && plan.status == OPT_PROVEN && plan.makespan == 2,
           "the sync cluster of a send of no time, row order %d: proven optimum 2 (got %g, %s)", v + 1,
           rc == 0 ? plan.makespan : NAN, rc == 0 && plan.status == OPT_PROVEN ? "proven" : "not proven");
        is_double(brute_optimum(c, MODEL_SYNC), 2, 0, "the brute force finds 2 too (row order %d)",
                  v + 1);
        if (rc == 0)
            opt_plan_free(&plan);
        free(cause);
        cluster_free(c);
    }
}

/* A node table of the papers' kind, 3 to 6 nodes: every node its own send
 * in [1, 10] with one decimal, its receive s + 1 (correlated) or drawn on
 * its own, latency 0 or (with latency) in [0, 2], a random source. */
static struct cluster *papers_table(struct rng *r, bool correlated, bool latency)
{
    int n = 3 + (int)rng_below(r, 4);
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int p = 0; p < n; p++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", p);
        double s = (10 + (double)rng_below(r, 91)) / 10;
        cluster_add_node(c, name, s, correlated ? s + 1 : (10 + (double)rng_below(r, 91)) / 10);
    }
    c->latency = latency ? (double)rng_below(r, 21) / 10 : 0;
    c->source = (int)rng_below(r, (uint64_t)n);
    return cluster_finished(c);
}

/*
 * The slot search's bounds (as_bound with the rate bound; async,
 * sender-only, multi-port) and the general search's (sync, one-port) on
 * node tables of the papers' kind (papers_table), so that the receivers
 * are many classes and every bound is on.
 * Searches cut short at every node limit from 1 (the root's bound alone)
 * up report a lower bound; it must never exceed the brute force's optimum,
 * and a search that finishes must prove exactly it.
 */
static void papers_tables(struct rng *r, int clusters)
{
    static const enum model models[] = {MODEL_ASYNC, MODEL_SENDER_ONLY, MODEL_MULTI_PORT, MODEL_SYNC,
                                        MODEL_ONE_PORT};
    static const long long limits[] = {1, 2, 4, 10, 30, 100, 0};
    int searches = 0, raised = 0, over = 0, wrong = 0;
    char first[256] = "";
    for (int i = 0; i < clusters; i++) {
        struct cluster *c = papers_table(r, i % 2, i % 3 == 0);
        if (!c)
            continue;
        for (size_t mi = 0; mi < sizeof models / sizeof models[0]; mi++) {
            double want = brute_optimum(c, models[mi]);
            for (size_t li = 0; li < sizeof limits / sizeof limits[0]; li++) {
                struct sched_opts so;
                sched_opts_default(&so);
                if (limits[li] > 0)
                    so.node_limit = limits[li];
                struct opt_plan plan;
                char *cause = NULL;
                if (optimal_solve(c, models[mi], &so, &plan, &cause) < 0) {
                    free(cause);
                    continue;
                }
                searches++;
                double tol = 1e-9 * fmax(1, want);
                bool bad = plan.lower > want + tol || plan.makespan < want - tol ||
                           (plan.status == OPT_PROVEN && fabs(plan.makespan - want) > tol);
                if (plan.status != OPT_PROVEN && plan.lower > bound_lower(c, models[mi]) + tol)
                    raised++;
                if (bad) {
                    if (plan.lower > want + tol)
                        over++;
                    else
                        wrong++;
                    if (!first[0])
                        snprintf(first, sizeof first,
                                 "table %d (%d nodes, %s, node limit %lld): lower %.17g, best %.17g, "
                                 "brute force %.17g",
                                 i, c->n, model_name(models[mi]), limits[li], plan.lower, plan.makespan,
                                 want);
                }
                opt_plan_free(&plan);
            }
        }
        cluster_free(c);
    }
    ok(raised > 0, "papers' tables: %d searches, %d cut short with a bound above the trivial one", searches,
       raised);
    ok(over == 0 && wrong == 0,
       "papers' tables: no lower bound above the brute force's optimum (%d), no wrong proof (%d)%s%s", over,
       wrong, first[0] ? ": first " : "", first);
}

/* Random clusters of 2 to 6 nodes (multicast: 3 to 6, random targets), every
 * model of every kind: every proven optimum against the brute force's. */
static void sweep(struct rng *r, int clusters, bool multicast)
{
    static const enum cluster_kind kinds[] = {CLUSTER_NODES, CLUSTER_MATRIX, CLUSTER_GRAPH};
    const char *what = multicast ? "multicast: " : "";
    int tried = 0, proven = 0, gave_up = 0, wrong = 0, loose = 0, relayed = 0;
    char first_wrong[256] = "";
    for (int i = 0; i < clusters; i++) {
        enum cluster_kind kind = kinds[i % 3];
        thirds = i % 4 == 3;
        int n = multicast ? 3 + (int)rng_below(r, 3) : 2 + (int)rng_below(r, 4);
        if (i % 20 == 0)
            n = 6;
        struct cluster *c = random_cluster(r, kind, n);
        if (!c)
            continue;
        if (multicast)
            random_targets(r, c);
        for (int m = 0; m < MODEL_COUNT; m++) {
            if (!(model_mask_for(kind) & MODEL_BIT(m)))
                continue;
            double want = brute_optimum(c, (enum model)m);
            if (!isfinite(want))
                continue;
            struct sched_opts so;
            sched_opts_default(&so);
            struct opt_plan plan;
            char *cause = NULL;
            tried++;
            if (optimal_solve(c, (enum model)m, &so, &plan, &cause) < 0) {
                if (multicast)
                    diag("cluster %d (%s), %s: %s", i, cluster_kind_name(kind), model_name((enum model)m),
                         cause);
                free(cause);
                continue;
            }
            for (int k = 0; k < plan.len; k++)
                if (!cluster_is_target(c, plan.to[k])) {
                    relayed++;
                    break;
                }
            if (plan.status == OPT_PROVEN) {
                proven++;
                if (fabs(plan.makespan - want) > 1e-9 * fmax(1, want) && !wrong++)
                    snprintf(first_wrong, sizeof first_wrong,
                             "cluster %d (%s, %d nodes, %d targets, source p%d, %s): proven %g, brute "
                             "force %g", i, cluster_kind_name(kind), n, multicast ? c->ntargets : n,
                             c->source, model_name((enum model)m), plan.makespan, want);
            } else {
                gave_up++;
                if (plan.lower > want + 1e-9 || plan.makespan < want - 1e-9)
                    loose++;
            }
            opt_plan_free(&plan);
        }
        cluster_free(c);
    }
    if (multicast)
        ok(tried > clusters && relayed > 0, "multicast: %d (cluster, model) pairs searched both ways, %d "
           "optima through a relay", tried, relayed);
    else
        ok(tried > clusters, "%d (cluster, model) pairs searched both ways", tried);
    ok(wrong == 0, "%severy proven optimum equals the brute force's (%d of %d wrong)%s%s", what, wrong,
       proven, wrong ? ": first " : "", first_wrong);
    ok(loose == 0, "%severy search that gave up (%d) brackets the optimum", what, gave_up);
}

/*
 * The general search's cuts with the incumbent just above the optimum: a
 * pass asked for a makespan below (optimum + one unit) must find the
 * optimum, so no bound (gs_bound's slots, the counts, the packing test) may
 * cut the branch that reaches it.  The search's own first incumbent is
 * usually optimal on tables this small, which would hide a bound that
 * overshoots; here nothing hides it.  Asked for below the optimum, it must
 * find nothing.  Papers' tables (one decimal: every bound on, shares that
 * just fit) and the small random clusters, every model, exact arithmetic.
 */
static int below_check(const struct cluster *c, enum model m, char *first, size_t size)
{
    double scale = opt_find_scale(c), want = brute_optimum(c, m);
    if (!(scale > 0) || !isfinite(want))
        return -1;
    double W = nearbyint(want * scale), got[2];
    for (int i = 0; i < 2; i++) {
        struct limits lim;
        memset(&lim, 0, sizeof lim);
        clock_gettime(CLOCK_MONOTONIC, &lim.t0);
        lim.node_limit = 100000000;
        lim.time_limit = INFINITY;
        got[i] = opt_gs_below(c, m, scale, W + 1 - i, &lim);
    }
    if (got[0] == W && got[1] == INFINITY)
        return 0;
    if (!first[0])
        snprintf(first, size, "%d nodes, %s: below %g finds %g, below %g finds %g (optimum %g)", c->n,
                 model_name(m), W + 1, got[0], W, got[1], W);
    return 1;
}

static void general_below(struct rng *r, int clusters)
{
    int checked = 0, wrong = 0;
    char first[256] = "";
    for (int i = 0; i < clusters; i++) {
        static const enum cluster_kind kinds[] = {CLUSTER_NODES, CLUSTER_MATRIX, CLUSTER_GRAPH};
        struct cluster *c;
        if (i % 2) {
            c = random_cluster(r, kinds[i / 2 % 3], 2 + (int)rng_below(r, 5));
        } else {
            c = papers_table(r, i % 4, i % 3 == 0);
        }
        if (!c)
            continue;
        for (int m = 0; m < MODEL_COUNT; m++) {
            if (!(model_mask_for(c->kind) & MODEL_BIT(m)))
                continue;
            int rc = below_check(c, (enum model)m, first, sizeof first);
            checked += rc >= 0;
            wrong += rc > 0;
        }
        cluster_free(c);
    }
    ok(checked > clusters && wrong == 0,
       "general search below the optimum + 1 finds it, below the optimum nothing: %d of %d wrong%s%s", wrong,
       checked, first[0] ? ": first " : "", first);
}

int main(void)
{
    the_reported_cluster();
    struct rng r;
    const char *env = getenv("HETCAST_BRUTE_CLUSTERS");   /* more, for a longer sweep */
    int clusters = env ? atoi(env) : 1500;
    rng_seed(&r, env && getenv("HETCAST_BRUTE_SEED") ? strtoull(getenv("HETCAST_BRUTE_SEED"), NULL, 10) : 20261123);
    sweep(&r, clusters, false);
    papers_tables(&r, env ? clusters / 3 : 500);
    general_below(&r, env ? clusters / 3 : tap_scale(600, 200));
    env = getenv("HETCAST_BRUTE_MULTICASTS");
    sweep(&r, env ? atoi(env) : tap_scale(3000, 300), true);
    return tap_exit();
}
