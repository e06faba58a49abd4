/*
 * test_exercise.c - the exercise mode's core (sched/exercise.c): fnf's next pick
 * from any state, and the best reachable makespan checked two ways: from
 * the start it must equal the optimum (sched/optimal.c); from states part-way
 * through it must equal a brute force that replays every booking sequence
 * from scratch (no pruning, no ordering, no symmetry), on node tables,
 * latency matrices and platform graphs (where fnf gives no first incumbent).  Also the paper's
 * counterexample step by step, a finished state, the node limit, and one-
 * and two-node clusters.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "engine/engine.h"
#include "sched/exercise.h"
#include "sched/optimal.h"
#include "support/rng.h"
#include "sched/sched.h"
#include "tap.h"

#define EPS 1e-9

static struct cluster *load(const char *text)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv_buffer("test.csv", text, strlen(text), &d);
    if (!c)
        diag_print(&d, stdout);
    diag_free(&d);
    return c;
}

static struct cluster *finish(struct cluster *c)
{
    struct diag d;
    diag_init(&d);
    int rc = cluster_finish(c, &d);
    diag_free(&d);
    if (rc < 0) {
        cluster_free(c);
        return NULL;
    }
    return c;
}

static double draw(struct rng *g, bool integers)
{
    return integers ? (double)rng_below(g, 5) : rng_range(g, 0.5, 5.0);
}

static struct cluster *random_nodes(struct rng *g, int n, bool integers)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        /* a few classes, so identical nodes (the symmetry cut) are common */
        double s = draw(g, integers), r = draw(g, integers);
        if (i > 0 && rng_below(g, 2) == 0) {
            s = c->nodes[i - 1].send;
            r = c->nodes[i - 1].recv;
        }
        cluster_add_node(c, name, s, r);
    }
    c->latency = draw(g, integers);
    return finish(c);
}

static struct cluster *random_matrix(struct rng *g, int n)
{
    struct cluster *c = cluster_new(CLUSTER_MATRIX);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "m%d", i);
        cluster_add_node(c, name, draw(g, true), draw(g, true));
    }
    c->dist = calloc((size_t)n * (size_t)n, sizeof *c->dist);
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++)
            if (p != q)
                c->dist[q * n + p] = draw(g, true);
    return finish(c);
}

/* A ring (so every node can be reached) plus random extra edges. */
static struct cluster *random_graph(struct rng *g, int n)
{
    struct cluster *c = cluster_new(CLUSTER_GRAPH);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "g%d", i);
        cluster_add_node(c, name, 0, 0);
    }
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++)
            if (p != q && (p == (q + 1) % n || rng_below(g, 3) == 0)) {
                double t = 1 + (double)rng_below(g, 5);
                cluster_add_edge(c, q, p, t, rng_below(g, 2) ? 1 + (double)rng_below(g, (uint64_t)t) : -1);
            }
    return finish(c);
}

/* ---- the brute force: every sequence, each leaf replayed from scratch ---- */

struct bf {
    const struct cluster *c;
    enum model m;
    int from[64], to[64], len;
    double best;
};

static bool replay(const struct bf *b, struct engine *e)
{
    if (engine_init(e, b->c, b->m, NULL) < 0)
        return false;
    for (int i = 0; i < b->len; i++)
        if (engine_book(e, b->from[i], b->to[i], 0, NULL, NULL) < 0) {
            engine_free(e);
            return false;
        }
    return true;
}

static void bf_rec(struct bf *b)
{
    struct engine e;
    if (!replay(b, &e))
        return;
    if (e.nwaiting == 0) {
        if (e.makespan < b->best)
            b->best = e.makespan;
        engine_free(&e);
        return;
    }
    int n = e.n;
    bool holds[64];
    for (int p = 0; p < n; p++)
        holds[p] = engine_holds(&e, p, 0);
    engine_free(&e);
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++)
            if (holds[q] && !holds[p]) {
                b->from[b->len] = q;
                b->to[b->len] = p;
                b->len++;
                bf_rec(b);
                b->len--;
            }
}

/* Brute force from the state after the first k bookings of seq. */
static double brute(const struct cluster *c, enum model m, const int *from, const int *to, int k)
{
    struct bf b;
    memset(&b, 0, sizeof b);
    b.c = c;
    b.m = m;
    b.best = INFINITY;
    for (int i = 0; i < k; i++) {
        b.from[i] = from[i];
        b.to[i] = to[i];
    }
    b.len = k;
    bf_rec(&b);
    return b.best;
}

/* ---- cases ---- */

static void counterexample(void)
{
    struct cluster *c = load("# latency: 1\nname,send,recv\np0,1,2\np1,1,2\np2,2,3\n");
    ok(c != NULL, "counterexample loads");
    if (!c)
        return;
    struct engine e;
    engine_init(&e, c, MODEL_ASYNC, NULL);
    int f = -1, t = -1;
    char why[256] = "";
    is_int(exercise_fnf_pick(&e, &f, &t, why, sizeof why, NULL), 0, "fnf pick from the start");
    ok(f == 0 && t == 1, "fnf picks p0 -> p1 first (got %d -> %d)", f, t);
    ok(strstr(why, "p1") != NULL, "fnf's reason names p1: %s", why);

    struct best_result b;
    is_int(exercise_best_completion(&e, 0, NULL, &b, NULL), 0, "best completion from the start");
    is_double(b.makespan, 5, EPS, "best from the start is the optimum 5");
    is_int(b.status, BEST_EXACT, "proven");
    ok(b.from == 0 && b.to == 2, "a best first choice is p0 -> p2 (got %d -> %d)", b.from, b.to);

    struct engine e2;
    engine_init(&e2, c, MODEL_ASYNC, NULL);
    engine_book(&e, 0, 1, 0, "fnf's choice", NULL);
    exercise_best_completion(&e, 0, NULL, &b, NULL);
    is_double(b.makespan, 6, EPS, "after p0 -> p1 the best reachable is 6");
    engine_book(&e2, 0, 2, 0, "the better choice", NULL);
    exercise_best_completion(&e2, 0, NULL, &b, NULL);
    is_double(b.makespan, 5, EPS, "after p0 -> p2 the best reachable is still 5");
    is_int(exercise_fnf_pick(&e2, &f, &t, NULL, 0, NULL), 0, "fnf pick part-way");
    ok(f == 0 && t == 1, "from there fnf sends p0 -> p1 (got %d -> %d)", f, t);

    engine_book(&e2, 0, 1, 0, NULL, NULL);
    exercise_best_completion(&e2, 0, NULL, &b, NULL);
    is_double(b.makespan, 5, EPS, "a finished state: its own makespan");
    char *cause = NULL;
    is_int(exercise_fnf_pick(&e2, &f, &t, NULL, 0, &cause), -1, "no fnf pick when all hold");
    ok(cause && strstr(cause, "every node") != NULL, "says why: %s", cause ? cause : "(null)");
    free(cause);
    engine_free(&e);
    engine_free(&e2);
    cluster_free(c);
}

static void tiny(void)
{
    struct cluster *one = load("name,send,recv\nsolo,1,1\n");
    struct engine e;
    struct best_result b;
    engine_init(&e, one, MODEL_ASYNC, NULL);
    is_int(exercise_best_completion(&e, 0, NULL, &b, NULL), 0, "one node: nothing to search");
    is_double(b.makespan, 0, EPS, "one node: makespan 0");
    ok(b.from == -1, "one node: no first choice");
    engine_free(&e);
    cluster_free(one);

    struct cluster *two = load("# latency: 0\nname,send,recv\na,0,0\nb,0,0\n");
    engine_init(&e, two, MODEL_ASYNC, NULL);
    is_int(exercise_best_completion(&e, 0, NULL, &b, NULL), 0, "two nodes, zero costs");
    is_double(b.makespan, 0, EPS, "zero costs: makespan 0");
    ok(b.from == 0 && b.to == 1, "the only choice a -> b");
    engine_free(&e);
    cluster_free(two);
}

static void against_optimal(void)
{
    struct rng g;
    rng_seed(&g, 7);
    static const enum model models[] = {MODEL_ASYNC, MODEL_SYNC, MODEL_ONE_PORT, MODEL_SENDER_ONLY};
    int checked = 0, bad = 0;
    for (int it = 0; it < 160; it++) {
        int n = 2 + (int)rng_below(&g, 6);   /* 2..7 */
        bool integers = it % 2 == 0;
        struct cluster *c = it % 5 == 4 ? random_matrix(&g, n) : random_nodes(&g, n, integers);
        if (!c)
            continue;
        enum model m = models[it % 4];
        struct opt_plan plan;
        struct sched_opts so;
        sched_opts_default(&so);
        if (optimal_solve(c, m, &so, &plan, NULL) < 0 || plan.status != OPT_PROVEN) {
            cluster_free(c);
            continue;
        }
        struct engine e;
        struct best_result b;
        engine_init(&e, c, m, NULL);
        if (exercise_best_completion(&e, 0, NULL, &b, NULL) < 0 || fabs(b.makespan - plan.makespan) > EPS ||
            b.status != BEST_EXACT) {
            bad++;
            diag("n=%d model=%s kind=%s: best %.17g, optimal %.17g", n, model_name(m),
                 cluster_kind_name(c->kind), b.makespan, plan.makespan);
        }
        checked++;
        opt_plan_free(&plan);
        engine_free(&e);
        cluster_free(c);
    }
    ok(checked >= 100, "compared on %d random clusters", checked);
    is_int(bad, 0, "best completion from the start equals the optimum");
}

static void against_brute_force(void)
{
    struct rng g;
    rng_seed(&g, 11);
    static const enum model models[] = {MODEL_ASYNC, MODEL_SYNC, MODEL_ONE_PORT, MODEL_MULTI_PORT};
    int checked = 0, bad = 0, first_ok = 0;
    for (int it = 0; it < 120; it++) {
        int n = 3 + (int)rng_below(&g, 3);   /* 3..5 */
        bool graph = it % 5 == 4;   /* fnf does not apply: no first incumbent */
        struct cluster *c = graph ? random_graph(&g, n)
                            : it % 4 == 3 ? random_matrix(&g, n) : random_nodes(&g, n, it % 2 == 0);
        if (!c)
            continue;
        enum model m = graph ? (it % 2 ? MODEL_MULTI_PORT : MODEL_ONE_PORT) : models[it % 4];
        /* A random prefix: some bookings a student might have made. */
        int from[64], to[64], k = 0;
        struct engine e;
        engine_init(&e, c, m, NULL);
        int steps = (int)rng_below(&g, (uint64_t)n - 1);
        for (int s = 0; s < steps; s++) {
            int q, p;
            do
                q = (int)rng_below(&g, (uint64_t)n);
            while (!engine_holds(&e, q, 0));
            do
                p = (int)rng_below(&g, (uint64_t)n);
            while (engine_holds(&e, p, 0));
            if (engine_book(&e, q, p, 0, NULL, NULL) < 0)
                continue;   /* no such edge in a graph */
            from[k] = q;
            to[k] = p;
            k++;
        }
        struct best_result b;
        double want = brute(c, m, from, to, k);
        if (exercise_best_completion(&e, 0, NULL, &b, NULL) < 0 || fabs(b.makespan - want) > EPS) {
            bad++;
            diag("n=%d %s, model=%s after %d bookings: best %.17g, brute force %.17g", n,
                 cluster_kind_name(c->kind), model_name(m), k, b.makespan, want);
        } else if (e.nwaiting > 0) {
            /* The first choice it reports must keep the best reachable. */
            struct best_result after;
            engine_book(&e, b.from, b.to, 0, NULL, NULL);
            if (exercise_best_completion(&e, 0, NULL, &after, NULL) == 0 &&
                fabs(after.makespan - b.makespan) <= EPS)
                first_ok++;
            else
                diag("first choice %d -> %d loses: %.17g", b.from, b.to, after.makespan);
        } else {
            first_ok++;
        }
        checked++;
        engine_free(&e);
        cluster_free(c);
    }
    ok(checked >= 100, "compared on %d random part-way states", checked);
    is_int(bad, 0, "best completion equals the brute force over every booking sequence");
    is_int(first_ok, checked, "the reported first choice keeps the best in reach");
}

static void platform_graph(void)
{
    struct cluster *c = load("# source: a\nfrom,to,time\na,b,2\nb,c,1\na,c,5\nc,d,1\n");
    ok(c != NULL, "a small platform graph loads");
    if (!c)
        return;
    struct engine e;
    struct best_result b;
    char *cause = NULL;
    engine_init(&e, c, MODEL_ONE_PORT, NULL);
    is_int(exercise_best_completion(&e, 0, NULL, &b, &cause), 0, "best completion on a graph (no fnf there)");
    is_double(b.makespan, 4, EPS, "a -> b -> c -> d: 2 + 1 + 1");
    is_int(exercise_fnf_pick(&e, &b.from, &b.to, NULL, 0, &cause), -1, "fnf's pick is refused on a graph");
    ok(cause && strstr(cause, "fnf") != NULL, "saying so: %s", cause ? cause : "(null)");
    free(cause);
    engine_free(&e);
    cluster_free(c);
}

static void node_limit(void)
{
    struct rng g;
    rng_seed(&g, 3);
    struct cluster *c = random_nodes(&g, 8, false);
    struct engine e;
    engine_init(&e, c, MODEL_SYNC, NULL);
    struct best_result exact, cut;
    exercise_best_completion(&e, 0, NULL, &exact, NULL);
    is_int(exercise_best_completion(&e, 3, NULL, &cut, NULL), 0, "a tiny node limit still answers");
    is_int(cut.status, BEST_GAVE_UP, "and says it gave up");
    ok(cut.makespan >= exact.makespan - EPS, "its makespan (%g) is no better than the best (%g)",
       cut.makespan, exact.makespan);
    is_int(exact.status, BEST_EXACT, "the default limit finishes on 8 nodes");
    engine_free(&e);
    cluster_free(c);
}

/* The limited search: a proven lower bound ends it early (exact); a time
 * limit makes it give up and say so; a set cancel flag stops it. */
static void limits(void)
{
    struct rng g;
    rng_seed(&g, 11);
    struct cluster *c = random_nodes(&g, 8, false);
    struct engine e;
    engine_init(&e, c, MODEL_ASYNC, NULL);
    struct best_result full, early, timed;
    exercise_best_completion(&e, 0, NULL, &full, NULL);
    struct best_opts o = {0, 0, full.makespan, NULL};
    is_int(exercise_best_completion_opts(&e, &o, &early, NULL), 0, "with the optimum as the bound");
    ok(early.status == BEST_EXACT && early.makespan == full.makespan && early.explored <= full.explored,
       "the bound ends the search early, exact (%lld search nodes, %lld without)", early.explored,
       full.explored);
    engine_free(&e);
    cluster_free(c);

    /* 14 nodes, sync: far more than 1024 search nodes (the clock and the
     * flag are read every 1024). */
    c = random_nodes(&g, 14, false);
    engine_init(&e, c, MODEL_SYNC, NULL);
    o = (struct best_opts){0, 1e-9, -INFINITY, NULL};
    is_int(exercise_best_completion_opts(&e, &o, &timed, NULL), 0, "a time limit still answers");
    ok(timed.status == BEST_GAVE_UP && timed.explored == 1024,
       "and says it gave up at the first reading of the clock (%lld search nodes)", timed.explored);
    volatile sig_atomic_t stop = 1;
    o.time_limit = 0;
    o.cancel = &stop;
    char *cause = NULL;
    int rc = exercise_best_completion_opts(&e, &o, &timed, &cause);
    ok(rc == -1 && cause && strcmp(cause, SCHED_CANCELLED_TEXT) == 0, "a set cancel flag stops it: %s",
       cause ? cause : "(finished)");
    free(cause);
    engine_free(&e);
    cluster_free(c);
}

/* The view's cancel flag stops a search (it polls every 4096 search nodes). */
static void cancelled(void)
{
    /* The first of a few random 8-node clusters whose search is long enough to be stopped. */
    struct rng g;
    rng_seed(&g, 3);
    struct cluster *c = NULL;
    struct engine e;
    struct best_result b;
    volatile sig_atomic_t flag = 0;
    long long explored = 0;
    static const enum model models[] = {MODEL_ASYNC, MODEL_SYNC, MODEL_ONE_PORT};
    for (int it = 0; it < 300 && explored < 4096; it++) {
        cluster_free(c);
        c = it % 2 ? random_matrix(&g, 8) : random_nodes(&g, 8, it % 4 == 0);
        if (!c)
            continue;
        engine_init(&e, c, models[it % 3], NULL);
        if (exercise_best_completion(&e, 0, &flag, &b, NULL) == 0)
            explored = b.explored;
        if (explored < 4096)
            engine_free(&e);
    }
    ok(explored >= 4096, "a search long enough to be stopped (%lld search nodes)", explored);
    if (explored < 4096) {
        cluster_free(c);
        return;
    }
    flag = 1;
    char *cause = NULL;
    is_int(exercise_best_completion(&e, 0, &flag, &b, &cause), -1, "the flag up stops it");
    ok(cause && strcmp(cause, SCHED_CANCELLED_TEXT) == 0, "it says: %s", cause ? cause : "(nothing)");
    free(cause);
    cause = NULL;
    is_int(exercise_complete_best(&e, 0, &flag, &cause), -1, "a best completion stops too");
    free(cause);
    engine_free(&e);
    cluster_free(c);
}

int main(void)
{
    cancelled();
    counterexample();
    tiny();
    against_optimal();
    against_brute_force();
    platform_graph();
    node_limit();
    limits();
    return tap_exit();
}
