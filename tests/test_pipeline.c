/*
 * test_pipeline.c - pipelined broadcast trees (src/sched/pipeline.c): every
 * heuristic on hand-made platforms, the one-port and multi-port formulas on
 * hand cases, the K-slice simulation slice by slice (filling, steady state,
 * draining; one message at a time on a multi-port link), every heuristic's
 * tree on random platforms (spanning, rooted at the source, on existing
 * edges, never above the LP optimum, simulated throughput equal to the
 * formula in both models), the schedulers through run_schedule with the
 * JSON fields of SPEC §6, one `binomial` for matrices and graphs, and bad
 * platform files refused with file:line (SPEC §5).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/cluster.h"
#include "engine/engine.h"
#include "model/generate.h"
#include "sched/lp.h"
#include "sched/pipeline.h"
#include "output/report.h"
#include "support/rng.h"
#include "session/run.h"
#include "sched/registry.h"
#include "tap.h"
#include "sched/trees.h"
#include "sched/list.h"

#define EPS 1e-9

static const struct sched_ops *const pipes[PIPE_NHEUR] = {
    [PIPE_PRUNE_SIMPLE] = &sched_prune_simple, [PIPE_PRUNE_DEGREE] = &sched_prune_degree,
    [PIPE_GROW_TREE] = &sched_grow_tree,       [PIPE_BINOMIAL] = &sched_pipe_binomial,
    [PIPE_MULTIPORT_GROW] = &sched_multiport_grow, [PIPE_LP_PRUNE] = &sched_lp_prune,
    [PIPE_LP_GROW] = &sched_lp_grow, [PIPE_MULTIPORT_PRUNE_DEGREE] = &sched_multiport_prune_degree,
};

static struct cluster *load(const char *name, const char *csv, struct diag *d)
{
    diag_init(d);
    return cluster_load_csv_buffer(name, csv, strlen(csv), d);
}

static struct cluster *graph(const char *csv)
{
    struct diag d;
    struct cluster *c = load("t.csv", csv, &d);
    if (!c)
        for (int i = 0; i < d.nlines; i++)
            diag("  %s", d.lines[i]);
    diag_free(&d);
    return c;
}

static const char *parent_name(const struct cluster *c, const struct pipe_tree *t, const char *v)
{
    int k = cluster_find(c, v);
    return k < 0 || t->parent[k] < 0 ? "-" : c->nodes[t->parent[k]].name;
}

/* Is t a spanning tree of c rooted at the source, on c's edges? */
static bool valid_tree(const struct cluster *c, const struct pipe_tree *t)
{
    if (t->n != c->n || t->source != c->source || t->parent[c->source] != -1)
        return false;
    for (int v = 0; v < c->n; v++) {
        if (v == c->source)
            continue;
        int u = t->parent[v], k = t->edge[v];
        if (u < 0 || k < 0 || c->edges[k].from != u || c->edges[k].to != v)
            return false;
        int steps = 0;   /* no cycle: the source is reached */
        for (int x = v; x != c->source; x = t->parent[x])
            if (++steps > c->n)
                return false;
    }
    int kids = 0;
    for (int u = 0; u < c->n; u++)
        for (int i = t->first[u]; i < t->first[u + 1]; i++)
            kids += t->parent[t->kids[i]] == u;
    return kids == c->n - 1 && t->first[c->n] == c->n - 1 && t->order[0] == c->source;
}

static double build_tp(const struct cluster *c, enum pipe_heur h, enum model m, struct pipe_tree *t)
{
    char *cause = NULL;
    if (pipe_build(c, h, NULL, t, &cause) < 0) {
        diag("  %s: %s", pipe_heur_name(h), cause);
        free(cause);
        return NAN;
    }
    return pipe_throughput(c, t, m);
}

/* Simulate K slices of scheduler ops on c; returns 0 and leaves e and s to free. */
static int simulate(const struct cluster *c, const struct sched_ops *ops, enum model m, int k,
                    struct engine *e, struct sched *s)
{
    struct sched_opts o;
    sched_opts_default(&o);
    o.slices = k;
    char *cause = NULL;
    sched_init(s, ops, &o);
    if (engine_init(e, c, m, &cause) < 0 || sched_run(e, s, &cause) < 0) {
        diag("  %s: %s", ops->name, cause);
        free(cause);
        return -1;
    }
    return 0;
}

static void test_names(void)
{
    int bad = 0;
    for (int h = 0; h < PIPE_NHEUR; h++) {
        enum pipe_heur back;
        bad += pipe_heur_parse(pipe_heur_name((enum pipe_heur)h), &back) < 0 || back != (enum pipe_heur)h;
        bad += strcmp(pipes[h]->name, pipe_heur_name((enum pipe_heur)h)) != 0;
        bad += h != PIPE_BINOMIAL && sched_find(pipe_heur_name((enum pipe_heur)h)) != pipes[h];
    }
    enum pipe_heur x;
    ok(bad == 0 && pipe_heur_parse("nope", &x) < 0,
       "eight heuristics, each a registered scheduler under its name");
    ok(pipe_heur_uses_lp(PIPE_LP_GROW) && pipe_heur_uses_lp(PIPE_LP_PRUNE) &&
           !pipe_heur_uses_lp(PIPE_GROW_TREE),
       "lp-prune and lp-grow use the LP, the others do not");
}

static void test_hand_trees(void)
{
    struct pipe_tree t;
    /* A chain has one spanning tree: every heuristic finds it and reaches the LP. */
    struct cluster *c = graph("from,to,time,bidirectional\ns,a,2,1\na,b,3,1\n");
    int bad = 0;
    for (int h = 0; h < PIPE_NHEUR; h++) {
        double tp = build_tp(c, (enum pipe_heur)h, MODEL_ONE_PORT, &t);
        bad += fabs(tp - 1.0 / 3) > EPS || !valid_tree(c, &t) ||
               strcmp(parent_name(c, &t, "b"), "a") != 0;
        pipe_tree_free(&t);
    }
    ok(bad == 0, "bidirectional chain s-a-b: every heuristic builds s->a->b, throughput 1/3");
    cluster_free(c);

    /* Multiport-Prune-Degree (§5.2.2), worked by hand: s -> a, s -> b (T 4,
     * s sends in 1), a -> b (T 5, a sends in 5).  prune-degree weighs s by
     * 4 + 4 = 8 against a's 5 and deletes s's deletable edge s -> b: the
     * chain s -> a -> b, multi-port period max(s: max(1, 4), a: max(5, 5)) = 5.
     * Under multi-port s weighs max(1 + 1, 4) = 4 against a's 5, so a -> b
     * goes: the star s -> a, s -> b, period max(1 + 1, 4) = 4. */
    c = graph("from,to,time,send\ns,a,4,1\ns,b,4,1\na,b,5,5\n");
    build_tp(c, PIPE_PRUNE_DEGREE, MODEL_MULTI_PORT, &t);
    ok(strcmp(parent_name(c, &t, "b"), "a") == 0, "prune-degree: s's weighted out-degree 8 > 5: s -> b goes");
    is_double(pipe_throughput(c, &t, MODEL_MULTI_PORT), 0.2, EPS, "prune-degree's chain under multi-port: 1/5");
    pipe_tree_free(&t);
    build_tp(c, PIPE_MULTIPORT_PRUNE_DEGREE, MODEL_MULTI_PORT, &t);
    ok(strcmp(parent_name(c, &t, "b"), "s") == 0 && strcmp(parent_name(c, &t, "a"), "s") == 0,
       "multiport-prune-degree: a's period 5 > s's max(1 + 1, 4): a -> b goes");
    is_double(pipe_throughput(c, &t, MODEL_MULTI_PORT), 0.25, EPS, "multiport-prune-degree's star: 1/4");
    pipe_tree_free(&t);
    cluster_free(c);

    /* The affine cost model (§2.1), worked by hand: T = alpha + L beta.
     * s-a (1, 0.5) and a-b (2, 0.25) both ways, s -> b (10, 0).  L = 1:
     * 1.5, 2.25, 10: grow-tree takes s -> a -> b, period 2.25 (a's).
     * L = 100: 51, 27, 10: s -> b -> a, period 27 (b's); s -> a -> b would
     * have 51. */
    c = graph("from,to,alpha,beta,bidirectional\ns,a,1,0.5,1\na,b,2,0.25,1\ns,b,10,,\n");
    build_tp(c, PIPE_GROW_TREE, MODEL_ONE_PORT, &t);
    ok(strcmp(parent_name(c, &t, "b"), "a") == 0, "affine, size 1: b hangs under a (2.25 < 10)");
    is_double(pipe_throughput(c, &t, MODEL_ONE_PORT), 1 / 2.25, EPS, "affine, size 1: 1/2.25");
    pipe_tree_free(&t);
    is_int(timing_set_message_size(c, 100), 5, "affine: five edges take the size");
    build_tp(c, PIPE_GROW_TREE, MODEL_ONE_PORT, &t);
    ok(strcmp(parent_name(c, &t, "a"), "b") == 0 && strcmp(parent_name(c, &t, "b"), "s") == 0,
       "affine, size 100: s -> b -> a (27) instead of s -> a -> b (51)");
    is_double(pipe_throughput(c, &t, MODEL_ONE_PORT), 1.0 / 27, EPS, "affine, size 100: 1/27");
    pipe_tree_free(&t);
    {
        char *text = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&text, &len);
        cluster_write_csv(c, fp);
        fclose(fp);
        struct diag d2;
        diag_init(&d2);
        struct cluster *back = cluster_load_csv_buffer("back", text, len, &d2);
        ok(back && back->nedges == 5 && back->edges[0].alpha == 1 && back->edges[0].beta == 0.5 &&
               back->edges[0].time == 1.5 && back->edges[4].beta == 0,
           "affine: written with alpha and beta, read back at size 1");
        cluster_free(back);
        diag_free(&d2);
        free(text);
    }
    cluster_free(c);
    c = graph("from,to,time\ns,a,2\n");
    is_int(timing_set_message_size(c, 100), 0, "a graph of plain times: no affine edge");
    is_double(c->edges[0].time, 2, 0, "a plain time stays");
    cluster_free(c);

    /* Triangle with a slow shortcut. */
    c = graph("from,to,time\ns,a,1\na,b,1\ns,b,3\n");
    build_tp(c, PIPE_PRUNE_SIMPLE, MODEL_ONE_PORT, &t);
    is_string(parent_name(c, &t, "b"), "a", "prune-simple drops the heaviest edge, the shortcut");
    is_double(pipe_throughput(c, &t, MODEL_ONE_PORT), 1.0, EPS, "prune-simple: throughput 1 = LP");
    pipe_tree_free(&t);
    build_tp(c, PIPE_GROW_TREE, MODEL_ONE_PORT, &t);
    is_string(parent_name(c, &t, "b"), "a", "grow-tree: a's out-degree 1 beats s's 1 + 3");
    pipe_tree_free(&t);
    build_tp(c, PIPE_BINOMIAL, MODEL_ONE_PORT, &t);
    /* positions s 0, a 1, b 2: stage 0 sends 0 -> 2 (s -> b, an edge), then 0 -> 1 */
    ok(strcmp(parent_name(c, &t, "b"), "s") == 0 && strcmp(parent_name(c, &t, "a"), "s") == 0 &&
           t.routed == 0 && t.logical == 2,
       "binomial: positions 0, 1, 2 = s, a, b; s -> b and s -> a are edges");
    is_double(pipe_throughput(c, &t, MODEL_ONE_PORT), 0.25, EPS, "binomial: s sends 1 + 3: 1/4");
    pipe_tree_free(&t);
    cluster_free(c);

    /* The diamond: LP 3/5; the best single tree s->b->a, s->c gives 1/2. */
    c = graph("from,to,time\ns,a,1\ns,b,1\ns,c,1\na,c,3\nb,a,1\n");
    double best = 0;
    bad = 0;
    for (int h = 0; h < PIPE_NHEUR; h++) {
        double tp = build_tp(c, (enum pipe_heur)h, MODEL_ONE_PORT, &t);
        bad += !(tp <= 0.6 + EPS) || !valid_tree(c, &t);
        best = fmax(best, tp);
        pipe_tree_free(&t);
    }
    ok(bad == 0, "diamond: every heuristic's tree is valid and below the LP's 3/5");
    is_double(best, 0.5, EPS, "diamond: the best heuristic finds the best single tree, 1/2");
    build_tp(c, PIPE_PRUNE_DEGREE, MODEL_ONE_PORT, &t);
    ok(strcmp(parent_name(c, &t, "a"), "b") == 0 && strcmp(parent_name(c, &t, "c"), "s") == 0,
       "prune-degree on the diamond: s->b->a and s->c (s was busiest, then a)");
    pipe_tree_free(&t);
    struct lp_result lp;
    char *cause = NULL;
    lp_solve_broadcast(c, &lp, &cause);
    pipe_build(c, PIPE_LP_GROW, &lp, &t, &cause);
    ok(strcmp(parent_name(c, &t, "b"), "s") == 0 && strcmp(parent_name(c, &t, "a"), "b") == 0 &&
           strcmp(parent_name(c, &t, "c"), "s") == 0,
       "lp-grow follows the LP's busiest edges: s->b (0.6), b->a (0.6), s->c (0.4)");
    is_double(t.key[cluster_find(c, "a")], 0.6, EPS, "lp-grow keeps n(b,a) = 0.6 as a's reason");
    pipe_tree_free(&t);
    pipe_build(c, PIPE_LP_PRUNE, &lp, &t, &cause);
    ok(strcmp(parent_name(c, &t, "a"), "b") == 0 && strcmp(parent_name(c, &t, "c"), "s") == 0,
       "lp-prune drops s->a (n 0) and a->c (n 0.2) first");
    pipe_tree_free(&t);
    lp_result_free(&lp);
    cluster_free(c);

    /* The bundled platform: binomial routes three transfers over paths. */
    struct diag d;
    diag_init(&d);
    c = cluster_load_csv("clusters/platform-small.csv", &d);
    diag_free(&d);
    if (c) {
        build_tp(c, PIPE_BINOMIAL, MODEL_ONE_PORT, &t);
        ok(valid_tree(c, &t) && t.routed == 3 && t.rerouted == 0 && t.logical == 6,
           "platform-small: binomial routes 3 of its 6 transfers along shortest paths");
        pipe_tree_free(&t);
        cluster_free(c);
    } else {
        ok(0, "clusters/platform-small.csv loads");
    }

    /* One node: nothing to send. */
    c = graph("from,to,time\nsolo,,\n");
    ok(c && isinf(build_tp(c, PIPE_GROW_TREE, MODEL_ONE_PORT, &t)) && pipe_period(c, &t, MODEL_ONE_PORT, NULL) == 0,
       "one node: an empty tree, period 0, unbounded throughput");
    if (c)
        pipe_tree_free(&t);
    cluster_free(c);
}

static void test_formulas(void)
{
    struct pipe_tree t;
    struct cluster *c = graph("from,to,time,send\ns,a,10,3\ns,b,10,3\ns,c,10,3\n");
    build_tp(c, PIPE_GROW_TREE, MODEL_ONE_PORT, &t);
    int who;
    is_double(pipe_period(c, &t, MODEL_ONE_PORT, &who), 30, EPS, "star of three T=10: one-port period 30");
    is_int(who, cluster_find(c, "s"), "the source is the bottleneck");
    is_double(pipe_period(c, &t, MODEL_MULTI_PORT, NULL), 10, EPS,
              "send 3: multi-port period max(3 x 3, 10) = 10 (the link)");
    pipe_tree_free(&t);
    cluster_free(c);

    c = graph("from,to,time,send\ns,a,10,4\ns,b,10,4\ns,c,10,4\n");
    build_tp(c, PIPE_GROW_TREE, MODEL_ONE_PORT, &t);
    is_double(pipe_throughput(c, &t, MODEL_MULTI_PORT), 1.0 / 12, EPS,
              "send 4: multi-port period max(3 x 4, 10) = 12 (the sends)");
    pipe_tree_free(&t);
    cluster_free(c);

    c = graph("from,to,time,send\ns,a,5,1\ns,b,9,1\na,c,2,\n");
    build_tp(c, PIPE_GROW_TREE, MODEL_ONE_PORT, &t);
    is_double(pipe_period(c, &t, MODEL_MULTI_PORT, NULL), 9, EPS,
              "mixed links 5 and 9, send 1: multi-port period = the slowest link, 9");
    is_double(pipe_period(c, &t, MODEL_ONE_PORT, NULL), 14, EPS, "the same tree one-port: 5 + 9 = 14");
    pipe_tree_free(&t);
    cluster_free(c);

    c = graph("from,to,time\ns,a,5\ns,b,9\n");
    build_tp(c, PIPE_GROW_TREE, MODEL_ONE_PORT, &t);
    is_double(pipe_period(c, &t, MODEL_MULTI_PORT, NULL), 14, EPS,
              "no send times: multi-port is one-port (send = T)");
    pipe_tree_free(&t);
    cluster_free(c);
}

static void test_simulation(void)
{
    struct engine e;
    struct sched s;
    /* Chain s -2-> a -3-> b, five slices: b holds slice k at 5 + 3k. */
    struct cluster *c = graph("from,to,time\ns,a,2\na,b,3\n");
    if (simulate(c, &sched_grow_tree, MODEL_ONE_PORT, 5, &e, &s) == 0) {
        int b = cluster_find(c, "b"), a = cluster_find(c, "a"), bad = 0;
        for (int k = 0; k < 5; k++)
            bad += engine_hold_time(&e, a, k) != 2 + 2 * k || engine_hold_time(&e, b, k) != 5 + 3 * k;
        ok(bad == 0, "chain, 5 slices: a holds slice k at 2 + 2k, b at 5 + 3k (a is the bottleneck)");
        is_int(e.ntr, 10, "chain: 2 transfers per slice");
        is_double(e.makespan, 17, EPS, "chain: makespan 5 (filling) + 4 x 3 (steady) = 17");
        is_double(pipe_measured_throughput(&e, 2, 4), 1.0 / 3, EPS, "measured throughput 1/3 = formula");
        ok(s.slices == 5 && fabs(s.throughput - 1.0 / 3) < EPS && fabs(s.optimal_throughput - 1.0 / 3) < EPS,
           "the scheduler reports 5 slices, throughput 1/3 and the LP's 1/3");
        int sorted = 1;
        for (int i = 1; i < e.ntr; i++)
            sorted &= e.tr[i].start >= e.tr[i - 1].start;
        ok(sorted, "the transfers come out in the order they start");
        ok(strstr(e.tr[0].reason, "slice 1 of 5") != NULL, "each transfer says its slice: \"%s\"",
           e.tr[0].reason);
        const struct pipe_plan *pl = pipeline_plan(&s);
        ok(pl && pl->has_lp && pl->tree.parent[b] == a && pl->lp.nedges == c->nedges,
           "pipeline_plan gives the view the tree and the LP counts");
    }
    sched_free(&s);
    engine_free(&e);
    cluster_free(c);

    /* Multi-port: one message at a time on a link, the sender free after send. */
    c = graph("from,to,time,send\ns,a,10,2\ns,b,4,2\n");
    if (simulate(c, &sched_grow_tree, MODEL_MULTI_PORT, 4, &e, &s) == 0) {
        int a = cluster_find(c, "a"), b = cluster_find(c, "b"), bad = 0;
        for (int k = 0; k < 4; k++)
            bad += engine_hold_time(&e, a, k) != 10 * (k + 1);
        ok(bad == 0, "multi-port link s->a (T 10, send 2) carries one slice at a time: held at 10, 20, 30, 40");
        is_double(engine_hold_time(&e, b, 0), 6, EPS, "s sends to b once its port is free (2): b holds at 6");
        is_double(pipe_measured_throughput(&e, 1, 3), 0.1, EPS, "measured 1/10 = 1 / max(2 x 2, 10)");
    }
    sched_free(&s);
    engine_free(&e);
    cluster_free(c);

    /* One node, and a refused slice count. */
    c = graph("from,to,time\nsolo,,\n");
    if (simulate(c, &sched_lp_grow, MODEL_ONE_PORT, 3, &e, &s) == 0)
        ok(e.ntr == 0 && isinf(s.throughput) && isinf(s.optimal_throughput),
           "one node: no transfers, unbounded throughput");
    sched_free(&s);
    engine_free(&e);
    char *cause = NULL;
    ok(pipe_engine_init(&e, c, MODEL_ONE_PORT, 0, &cause) < 0 && cause, "0 slices are refused");
    free(cause);
    cluster_free(c);
}

static bool contains(const char *hay, const char *needle)
{
    return hay && strstr(hay, needle) != NULL;
}

/* One port per node: the transfers a node takes part in (either end) never overlap. */
static int port_overlaps(const struct engine *e)
{
    int bad = 0;
    for (int v = 0; v < e->n; v++) {
        double last_end = -INFINITY, last_start = -INFINITY;
        /* the transfers are booked per port in sequence: check by start order */
        int cnt = 0;
        for (int i = 0; i < e->ntr; i++)
            cnt += e->tr[i].from == v || e->tr[i].to == v;
        double *st = malloc((size_t)(cnt ? cnt : 1) * sizeof *st), *en = malloc((size_t)(cnt ? cnt : 1) * sizeof *en);
        int k = 0;
        for (int i = 0; i < e->ntr; i++)
            if (e->tr[i].from == v || e->tr[i].to == v) {
                st[k] = e->tr[i].start;
                en[k++] = e->tr[i].hold;
            }
        for (int i = 1; i < k; i++)   /* insertion sort by start */
            for (int j = i; j > 0 && st[j] < st[j - 1]; j--) {
                double a = st[j], b = en[j];
                st[j] = st[j - 1];
                en[j] = en[j - 1];
                st[j - 1] = a;
                en[j - 1] = b;
            }
        for (int i = 0; i < k; i++) {
            if (st[i] < last_end && en[i] > st[i] && last_end > last_start)
                bad++;
            last_start = st[i];
            last_end = en[i];
        }
        free(st);
        free(en);
    }
    return bad;
}

/*
 * The unidirectional one-port model (Beaumont, Marchal & Robert §2.3), worked
 * by hand in docs/pipeline.md on clusters/platform-uni.csv (edges s->a 1,
 * s->b 1, s->c 1, a->c 3, b->a 1).
 */
static void test_unidirectional(void)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv("clusters/platform-uni.csv", &d);
    diag_free(&d);
    if (!ok(c != NULL, "clusters/platform-uni.csv loads"))
        return;
    struct pipe_tree t;
    int who = -1;
    /* binomial: s -> b, s -> a, and b's logical child c through a -> c. */
    build_tp(c, PIPE_BINOMIAL, MODEL_ONE_PORT, &t);
    int a = cluster_find(c, "a"), b = cluster_find(c, "b"), cc = cluster_find(c, "c");
    ok(t.parent[a] == c->source && t.parent[b] == c->source && t.parent[cc] == a,
       "platform-uni, binomial: s -> a, s -> b, a -> c");
    is_double(pipe_period(c, &t, MODEL_ONE_PORT, &who), 3, EPS,
              "bidirectional: a's sends 3 (s's 1 + 1 = 2): period 3");
    is_double(pipe_period(c, &t, MODEL_ONE_PORT_UNI, &who), 4, EPS,
              "unidirectional: a receives 1 then sends 3: period 4 (s: 2, b: 1, c: 3)");
    is_int(who, a, "one-port-uni: a sets the period");
    is_double(pipe_throughput(c, &t, MODEL_ONE_PORT_UNI), 0.25, EPS, "binomial one-port-uni: 1/4");
    pipe_tree_free(&t);
    build_tp(c, PIPE_PRUNE_DEGREE, MODEL_ONE_PORT, &t);
    ok(t.parent[a] == b && t.parent[b] == c->source && t.parent[cc] == c->source,
       "platform-uni, prune-degree: s -> b -> a, s -> c");
    is_double(pipe_period(c, &t, MODEL_ONE_PORT_UNI, NULL), 2, EPS,
              "unidirectional: s sends 1 + 1, b receives 1 and sends 1: period 2, as bidirectional");
    pipe_tree_free(&t);

    /* The programs: 3/5 bidirectional; with one port per node 13 TP <= 7. */
    struct lp_result lp;
    char *cause = NULL;
    struct lp_limits ul = {.unidirectional = true};
    if (lp_solve_broadcast_limited(c, &ul, &lp, &cause) == 0) {
        is_double(lp.throughput, 7.0 / 13, 1e-9, "one-port-uni LP bound 7/13 (worked by hand)");
        lp_result_free(&lp);
    } else {
        ok(0, "the one-port-uni LP solves: %s", cause);
    }
    free(cause);
    cause = NULL;
    if (lp_solve_broadcast_flows_model(c, true, &lp, &cause) == 0) {
        is_double(lp.throughput, 7.0 / 13, 1e-9, "its flow form (every x(w,e)) gives 7/13 too");
        lp_result_free(&lp);
    } else {
        ok(0, "the flow form solves: %s", cause);
    }
    free(cause);
    cause = NULL;
    if (lp_solve_broadcast(c, &lp, &cause) == 0) {
        is_double(lp.throughput, 0.6, 1e-9, "bidirectional LP optimum 3/5");
        lp_result_free(&lp);
    }
    free(cause);
    cause = NULL;

    /* The scheduler: its report under one-port-uni names the bound, not an optimum. */
    struct sched_opts o;
    sched_opts_default(&o);
    o.slices = 40;
    struct run r;
    if (run_schedule(&r, c, MODEL_ONE_PORT_UNI, sched_find("binomial"), &o, RUN_OPT_NEVER, &cause) == 0) {
        char *buf = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&buf, &len);
        report_run_json(fp, &r, true);
        fclose(fp);
        ok(contains(buf, "\"throughput\": 0.25") && contains(buf, "\"optimal_throughput\": null") &&
               contains(buf, "\"measured_throughput\": 0.25") &&
               contains(buf, "\"throughput_bound\": 0.538461538462"),
           "JSON under one-port-uni: throughput 1/4 measured too, no optimum, the bound 7/13");
        free(buf);
        buf = NULL;
        fp = open_memstream(&buf, &len);
        report_run_text(fp, &r, true);
        fclose(fp);
        ok(contains(buf, "(one-port-uni formula: period 4, set by a)") &&
               contains(buf, "LP bound      0.5384615385") && !contains(buf, "LP optimum"),
           "text under one-port-uni: the formula's period and the LP bound");
        free(buf);
        run_free(&r);
    } else {
        ok(0, "binomial runs under one-port-uni: %s", cause);
        ok(0, "(skipped)");
    }
    free(cause);
    cause = NULL;

    /* A node table or a matrix refuses the model, listing the valid ones. */
    struct cluster *nodes = cluster_load_csv_buffer("n.csv", "name,send,recv\np0,1,1\np1,2,2\n",
                                                    strlen("name,send,recv\np0,1,1\np1,2,2\n"), &d);
    diag_free(&d);
    struct engine e;
    ok(nodes && engine_init(&e, nodes, MODEL_ONE_PORT_UNI, &cause) < 0 &&
           contains(cause, "the one-port-uni model does not apply to a node table; valid models "
                           "for a node table: async, sender-only, sync, one-port, multi-port"),
       "a node table refuses one-port-uni: %s", cause ? cause : "(no message)");
    free(cause);
    cause = NULL;
    ok(nodes && sched_check(&sched_fnf, nodes, MODEL_ONE_PORT_UNI, &cause) < 0 &&
           contains(cause, "valid models for a node table"),
       "so does sched_check");
    free(cause);
    cause = NULL;
    cluster_free(nodes);
    cluster_free(c);

    /* Slices one by one on the chain s -2-> a -3-> b: a's port receives slice k
     * [5k, 5k+2) and sends it [5k+2, 5k+5): a holds it at 2 + 5k, b at 5 + 5k
     * (bidirectional: 2 + 2k and 5 + 3k, test_simulation). */
    c = graph("from,to,time\ns,a,2\na,b,3\n");
    struct sched s;
    if (simulate(c, &sched_grow_tree, MODEL_ONE_PORT_UNI, 5, &e, &s) == 0) {
        int ca = cluster_find(c, "a"), cb = cluster_find(c, "b"), bad = 0;
        for (int k = 0; k < 5; k++)
            bad += engine_hold_time(&e, ca, k) != 2 + 5 * k || engine_hold_time(&e, cb, k) != 5 + 5 * k;
        ok(bad == 0, "chain under one-port-uni: a holds slice k at 2 + 5k, b at 5 + 5k");
        is_double(e.makespan, 25, EPS, "chain, 5 slices: makespan 25");
        is_double(pipe_measured_throughput(&e, 2, 4), 0.2, EPS, "measured 1/5 = 1 / (2 + 3)");
        int sorted = 1;
        for (int i = 1; i < e.ntr; i++)
            sorted &= e.tr[i].start >= e.tr[i - 1].start;
        ok(sorted, "one-port-uni: the transfers come out in the order they start");
    }
    sched_free(&s);
    engine_free(&e);
    cluster_free(c);

    /* The bound is not always reached: on a triangle (every edge both ways,
     * T = 1) any two transfers share a node, so one runs at a time and a
     * slice needs two: at most 1/2; the program gives 3/4. */
    c = graph("from,to,time\ns,a,1\na,s,1\ns,b,1\nb,s,1\na,b,1\nb,a,1\n");
    if (lp_solve_broadcast_limited(c, &ul, &lp, &cause) == 0) {
        is_double(lp.throughput, 0.75, 1e-9, "triangle: the one-port-uni LP bound is 3/4");
        lp_result_free(&lp);
    }
    free(cause);
    cause = NULL;
    double best = 0;
    for (int h = 0; h < PIPE_NHEUR; h++) {
        best = fmax(best, build_tp(c, (enum pipe_heur)h, MODEL_ONE_PORT_UNI, &t));
        pipe_tree_free(&t);
    }
    is_double(best, 0.5, EPS, "triangle: the best heuristic tree reaches 1/2 under one-port-uni");
    cluster_free(c);
}

static void test_random(void)
{
    struct rng r;
    rng_seed(&r, 7);
    int platforms = 0, trees = 0, bad_tree = 0, above = 0, sims = 0, bad_sim = 0, uni_above = 0,
        uni_below = 0, overlaps = 0;
    double worst = 0;
    for (int i = 0; i < 24; i++) {
        int n = 2 + (int)rng_below(&r, 34);
        struct cluster *c = i % 3 == 2 ? generate_platform_tiers(&r, n, 0.8)
                                       : generate_platform_random(&r, n, 0.04 * (1 + rng_below(&r, 5)), 0.8);
        struct lp_result lp;
        char *cause = NULL;
        if (lp_solve_broadcast(c, &lp, &cause) < 0) {
            diag("  %s", cause);
            free(cause);
            cluster_free(c);
            continue;
        }
        struct lp_result uni_lp;
        struct lp_limits ul = {.unidirectional = true};
        if (lp_solve_broadcast_limited(c, &ul, &uni_lp, &cause) < 0) {
            diag("  %s", cause);
            free(cause);
            lp_result_free(&lp);
            cluster_free(c);
            continue;
        }
        platforms++;
        uni_below += uni_lp.throughput <= lp.throughput * (1 + EPS);
        for (int h = 0; h < PIPE_NHEUR; h++) {
            struct pipe_tree t;
            if (pipe_build(c, (enum pipe_heur)h, &lp, &t, &cause) < 0) {
                diag("  %s", cause);
                free(cause);
                cause = NULL;
                bad_tree++;
                pipe_tree_free(&t);
                continue;
            }
            trees++;
            bad_tree += !valid_tree(c, &t);
            double one = pipe_throughput(c, &t, MODEL_ONE_PORT);
            above += one > lp.throughput * (1 + EPS);
            worst = fmax(worst, one / lp.throughput);
            double uni = pipe_throughput(c, &t, MODEL_ONE_PORT_UNI);
            uni_above += uni > uni_lp.throughput * (1 + EPS) || uni > one * (1 + EPS);
            for (int m = 0; m < 3; m++) {   /* the simulation agrees with the formula */
                static const enum model models[3] = {MODEL_ONE_PORT, MODEL_MULTI_PORT,
                                                     MODEL_ONE_PORT_UNI};
                enum model model = models[m];
                struct engine e;
                struct sched s;
                int k = 40;
                if (simulate(c, pipes[h], model, k, &e, &s) == 0) {
                    sims++;
                    /* one-port-uni: the lp heuristics build on that model's program */
                    const struct pipe_plan *pl = pipeline_plan(&s);
                    double want = model == MODEL_ONE_PORT_UNI && pl
                                      ? pipe_throughput(c, &pl->tree, model)
                                      : pipe_throughput(c, &t, model);
                    if (model == MODEL_ONE_PORT_UNI)
                        overlaps += port_overlaps(&e);
                    double got = pipe_measured_throughput(&e, k / 2, k - 1);
                    if (!(fabs(got - want) <= 1e-9 * want) && !(isinf(got) && isinf(want))) {
                        bad_sim++;
                        diag("  %s, %s, n=%d: measured %.12g, formula %.12g", pipes[h]->name,
                             model_name(model), n, got, want);
                    }
                    if (e.ntr != k * (c->n - 1))
                        bad_sim++;
                } else {
                    bad_sim++;
                }
                sched_free(&s);
                engine_free(&e);
            }
            pipe_tree_free(&t);
        }
        lp_result_free(&lp);
        lp_result_free(&uni_lp);
        cluster_free(c);
    }
    ok(bad_tree == 0, "%d trees on %d random and WAN/MAN/LAN platforms: spanning, rooted at the "
                      "source, on existing edges", trees, platforms);
    ok(above == 0, "no tree beats the LP optimum in the one-port model (best %.4f of it)", worst);
    ok(bad_sim == 0, "%d simulations of 40 slices: the throughput measured over the last half "
                     "equals the formula, one-port, multi-port and one-port-uni", sims);
    ok(uni_above == 0, "one-port-uni: no tree above the one-port-uni LP bound or its own one-port "
                       "throughput");
    is_int(uni_below, platforms, "one-port-uni: the LP bound never above the bidirectional optimum");
    is_int(overlaps, 0, "one-port-uni simulations: no node ever sends and receives at once, nor "
                        "two of either");
}


static void test_runs_and_json(void)
{
    struct cluster *c = graph("# name: diamond\nfrom,to,time\ns,a,1\ns,b,1\ns,c,1\na,c,3\nb,a,1\n");
    struct sched_opts o;
    sched_opts_default(&o);
    o.slices = 6;
    struct run r;
    char *cause = NULL;
    const struct sched_ops *ops = sched_find("prune-degree");
    if (ops && run_schedule(&r, c, MODEL_ONE_PORT, ops, &o, RUN_OPT_SMALL, &cause) == 0) {
        char *buf = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&buf, &len);
        report_run_json(fp, &r, false);
        fclose(fp);
        ok(contains(buf, "\"slices\": 6") && contains(buf, "\"throughput\": 0.5") &&
               contains(buf, "\"optimal_throughput\": 0.6") && contains(buf, "\"slice\": 6") &&
               contains(buf, "\"parent\": {"),
           "JSON of a pipelined run: slices, throughput, optimal_throughput, each transfer's slice");
        if (!contains(buf, "\"optimal_throughput\": 0.6"))
            diag("%s", buf);
        free(buf);
        buf = NULL;
        fp = open_memstream(&buf, &len);
        report_run_text(fp, &r, true);
        fclose(fp);
        ok(contains(buf, "throughput    0.5") && contains(buf, "LP optimum    0.6") &&
               contains(buf, "83.3 %") && contains(buf, "measured      0.5"),
           "text: the throughput, the measured one and the LP optimum (83.3 %%)");
        ok(r.opt == OPT_NONE && contains(r.opt_note, "pipelined"),
           "no single-message optimum is searched for a pipelined run");
        free(buf);
        run_free(&r);
    } else {
        ok(0, "prune-degree runs on the diamond: %s", cause ? cause : "not registered");
    }
    free(cause);
    cause = NULL;

    /* Wrong kind and wrong model are refused with the list of what works. */
    struct cluster *t = cluster_new(CLUSTER_NODES);
    cluster_add_node(t, "p0", 1, 1);
    cluster_add_node(t, "p1", 1, 1);
    struct diag d;
    diag_init(&d);
    cluster_finish(t, &d);
    diag_free(&d);
    ok(sched_check(&sched_lp_grow, t, MODEL_ASYNC, &cause) < 0 && contains(cause, "does not work"),
       "lp-grow refuses a node table");
    free(cause);
    cause = NULL;
    ok(sched_check(&sched_grow_tree, c, MODEL_ASYNC, &cause) < 0 && contains(cause, "one-port"),
       "a platform graph refuses the async model and names one-port and multi-port");
    free(cause);
    cause = NULL;
    cluster_free(t);

    /* One name, binomial, on both kinds. */
    const struct sched_ops *bin = sched_find("binomial");
    ok(bin && (bin->kinds & CLUSTER_KIND_BIT(CLUSTER_GRAPH)) && (bin->kinds & CLUSTER_KIND_BIT(CLUSTER_MATRIX)),
       "binomial is one scheduler for platform graphs and latency matrices");
    if (bin && run_schedule(&r, c, MODEL_ONE_PORT, bin, &o, RUN_OPT_NEVER, &cause) == 0) {
        ok(pipeline_plan(&r.sched) && !tree_of_sched(&r.sched) && r.sched.slices == 6 &&
               strcmp(r.sched.ops->name, "binomial") == 0,
           "binomial on a graph: the pipelined tree, 6 slices");
        run_free(&r);
    }
    free(cause);
    cause = NULL;
    struct cluster *m = graph(",a,b,c\na,0,1,2\nb,1,0,1\nc,2,1,0\n");
    if (bin && m && run_schedule(&r, m, MODEL_ASYNC, bin, &o, RUN_OPT_NEVER, &cause) == 0) {
        ok(!pipeline_plan(&r.sched) && tree_of_sched(&r.sched) && r.sched.slices == 0 &&
               r.sched.has_tree_cost,
           "binomial on a latency matrix: Figueira's tree, one message");
        run_free(&r);
    } else {
        ok(0, "binomial runs on a matrix: %s", cause ? cause : "");
    }
    free(cause);
    cluster_free(m);
    cluster_free(c);
}

/* Bad platforms: one line per problem, file:line first (SPEC §5). */
static void test_bad_files(void)
{
    static const struct {
        const char *what, *csv, *where, *says;
    } cases[] = {
        {"unreachable node", "from,to,time\ns,a,1\nb,a,1\n", "bad.csv:3: ", "not reachable from the source"},
        {"zero time", "from,to,time\ns,a,0\n", "bad.csv:2: time: ", "greater than 0"},
        {"negative time", "from,to,time\ns,a,1\na,b,-2\n", "bad.csv:3: time: ", "negative"},
        {"self loop", "from,to,time\ns,a,1\na,a,2\n", "bad.csv:3: to: ", "self loop"},
        {"duplicate edge", "from,to,time\ns,a,1\na,b,1\ns,a,2\n", "bad.csv:4: ", "duplicate edge s -> a (first on line 2)"},
        {"duplicate by a bidirectional row", "from,to,time,bidirectional\ns,a,1,1\na,s,2,\n", "bad.csv:3: ",
         "duplicate edge a -> s"},
        {"time not a number", "from,to,time\ns,a,fast\n", "bad.csv:2: time: ", "not a number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct diag d;
        struct cluster *c = load("bad.csv", cases[i].csv, &d);
        bool found = false;
        for (int j = 0; j < d.nlines; j++)
            found |= strncmp(d.lines[j], cases[i].where, strlen(cases[i].where)) == 0 &&
                     strstr(d.lines[j], cases[i].says);
        ok(!c && found, "%s: refused with \"%s...%s\"", cases[i].what, cases[i].where, cases[i].says);
        if (!found)
            for (int j = 0; j < d.nlines; j++)
                diag("  %s", d.lines[j]);
        cluster_free(c);
        diag_free(&d);
    }
    /* The same from a real file: the message names the path. */
    char path[] = "/tmp/hetcast-pipe-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) {
        const char *text = "from,to,time\ns,a,1\nb,b,1\n";
        ssize_t w = write(fd, text, strlen(text));
        close(fd);
        struct diag d;
        diag_init(&d);
        struct cluster *c = w > 0 ? cluster_load_csv(path, &d) : NULL;
        char where[64];
        snprintf(where, sizeof where, "%s:3: ", path);
        ok(!c && d.nlines > 0 && strncmp(d.lines[0], where, strlen(where)) == 0,
           "a file on disk: the message starts with its path and line");
        cluster_free(c);
        diag_free(&d);
        unlink(path);
    }
}

int main(void)
{
    test_names();
    test_hand_trees();
    test_formulas();
    test_simulation();
    test_unidirectional();
    test_random();
    test_runs_and_json();
    test_bad_files();
    return tap_exit();
}
