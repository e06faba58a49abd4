/*
 * test_lp.c - the optimal multi-tree throughput, linear program (2) solved
 * with GLPK (src/sched/lp.c): hand-solved platforms (a chain, a star, a triangle
 * with a shortcut, a diamond where several trees beat every single tree),
 * the per-edge counts n(u,v), the cut-generation solver against the program
 * with every flow variable, the counts checked by an independent max-flow
 * (every receiver can get TP slices per time unit within them) and by the
 * port constraints, and the refusals (wrong kind, unchecked graph, too
 * large) that must be messages, never aborts; the cut-and-column solve against
 * the flow form up to 45 nodes and against glpsol on the written LP file, and
 * 1000 nodes solved within the default work budget.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/cluster.h"
#include "model/generate.h"
#include "sched/lp.h"
#include "support/rng.h"
#include "tap.h"

#define EPS 1e-9

static struct cluster *graph(const char *csv)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv_buffer("t.csv", csv, strlen(csv), &d);
    if (!c)
        for (int i = 0; i < d.nlines; i++)
            diag("  %s", d.lines[i]);
    diag_free(&d);
    return c;
}

static int edge(const struct cluster *c, const char *from, const char *to)
{
    int u = cluster_find(c, from), v = cluster_find(c, to);
    return u < 0 || v < 0 ? -1 : c->edge_of[(size_t)u * (size_t)c->n + (size_t)v];
}

static double count_of(const struct cluster *c, const struct lp_result *r, const char *from,
                       const char *to)
{
    int k = edge(c, from, to);
    return k < 0 ? NAN : r->count[k];
}

/* Solve with both methods; their values must agree. */
static double solve(const struct cluster *c, struct lp_result *r, const char *what)
{
    char *cause = NULL;
    if (lp_solve_broadcast(c, r, &cause) < 0) {
        ok(0, "%s: solved", what);
        diag("  %s", cause);
        free(cause);
        return NAN;
    }
    struct lp_result full;
    if (lp_solve_broadcast_flows(c, &full, &cause) < 0) {
        ok(0, "%s: the flow form solved", what);
        diag("  %s", cause);
        free(cause);
        return r->throughput;
    }
    is_double(full.throughput, r->throughput, EPS * r->throughput,
              "%s: the flow form of (2) gives the same value", what);
    lp_result_free(&full);
    return r->throughput;
}

static void test_hand_solved(void)
{
    struct lp_result r;
    struct cluster *c;

    /* A chain: the slower link sets the pace. */
    c = graph("from,to,time\ns,a,2\na,b,3\n");
    is_double(solve(c, &r, "chain"), 1.0 / 3, EPS, "chain s -2-> a -3-> b: TP = 1/3");
    is_double(count_of(c, &r, "s", "a"), 1.0 / 3, EPS, "chain: n(s,a) = 1/3");
    is_double(count_of(c, &r, "a", "b"), 1.0 / 3, EPS, "chain: n(a,b) = 1/3");
    is_double(r.busy[edge(c, "a", "b")], 1.0, EPS, "chain: a's port is busy all the time");
    ok(r.rounds >= 1 && r.cols == 1 + c->nedges, "chain: the cut program has |E| + 1 columns");
    lp_result_free(&r);
    cluster_free(c);

    /* A star: the source's send port is shared by its three links. */
    c = graph("from,to,time\ns,a,1\ns,b,2\ns,c,3\n");
    is_double(solve(c, &r, "star"), 1.0 / 6, EPS, "star with T 1, 2, 3: TP = 1/6");
    is_double(count_of(c, &r, "s", "c"), 1.0 / 6, EPS, "star: every link carries 1/6");
    lp_result_free(&r);
    cluster_free(c);

    /* A triangle with a slow shortcut: relaying through a is better. */
    c = graph("from,to,time\ns,a,1\na,b,1\ns,b,3\n");
    is_double(solve(c, &r, "triangle"), 1.0, EPS, "triangle s->a->b (1, 1), shortcut s->b (3): TP = 1");
    is_double(count_of(c, &r, "s", "b"), 0.0, EPS, "triangle: the shortcut carries nothing");
    is_double(count_of(c, &r, "a", "b"), 1.0, EPS, "triangle: a relays everything");
    lp_result_free(&r);
    cluster_free(c);

    /* The same with both ways open: edges back to the source carry nothing. */
    c = graph("from,to,time,bidirectional\ns,a,1,1\na,b,1,1\ns,b,3,1\n");
    is_double(solve(c, &r, "bidirectional triangle"), 1.0, EPS, "bidirectional triangle: TP = 1");
    is_double(count_of(c, &r, "a", "s") + count_of(c, &r, "b", "s"), 0.0, EPS,
              "bidirectional triangle: nothing flows back to the source");
    lp_result_free(&r);
    cluster_free(c);

    /*
     * A diamond where two trees beat every single tree (best single tree:
     * s->b->a, s->c, period 2).  c's receive port and s's send port give
     * n(s,c) + 3 n(a,c) <= 1 and n(s,c) <= 1 - TP with n(s,c) + n(a,c) >= TP,
     * hence 5 TP <= 3: TP = 3/5, and every count is forced.
     */
    c = graph("from,to,time\ns,a,1\ns,b,1\ns,c,1\na,c,3\nb,a,1\n");
    is_double(solve(c, &r, "diamond"), 0.6, EPS, "diamond: TP = 3/5 > 1/2, the best single tree");
    is_double(count_of(c, &r, "s", "a"), 0.0, EPS, "diamond: n(s,a) = 0");
    is_double(count_of(c, &r, "s", "b"), 0.6, EPS, "diamond: n(s,b) = 0.6");
    is_double(count_of(c, &r, "b", "a"), 0.6, EPS, "diamond: n(b,a) = 0.6");
    is_double(count_of(c, &r, "s", "c"), 0.4, EPS, "diamond: n(s,c) = 0.4");
    is_double(count_of(c, &r, "a", "c"), 0.2, EPS, "diamond: n(a,c) = 0.2");
    lp_result_free(&r);
    cluster_free(c);

    /* A receive port shared by two senders: b gets from s or from a. */
    c = graph("from,to,time\ns,a,1\ns,b,4\na,b,4\n");
    is_double(solve(c, &r, "shared receiver"), 0.25, EPS, "b's receive port (T 4 either way): TP = 1/4");
    lp_result_free(&r);
    cluster_free(c);

    /* Two nodes; one node. */
    c = graph("from,to,time\ns,a,4\n");
    is_double(solve(c, &r, "two nodes"), 0.25, EPS, "two nodes, T 4: TP = 1/4");
    lp_result_free(&r);
    cluster_free(c);
    c = graph("from,to,time\ns,,\n");
    char *cause = NULL;
    ok(c && lp_solve_broadcast(c, &r, &cause) == 0 && isinf(r.throughput) && r.nedges == 0,
       "one node: nothing to send, TP is unbounded (INFINITY)");
    if (c)
        lp_result_free(&r);
    cluster_free(c);
}

static void test_refusals(void)
{
    struct lp_result r;
    char *cause = NULL;
    struct cluster *t = cluster_new(CLUSTER_NODES);
    cluster_add_node(t, "p0", 1, 1);
    cluster_add_node(t, "p1", 1, 1);
    struct diag d;
    diag_init(&d);
    cluster_finish(t, &d);
    diag_free(&d);
    ok(lp_solve_broadcast(t, &r, &cause) < 0 && cause && strstr(cause, "platform graph"),
       "a node table is refused with a message");
    if (cause)
        diag("  %s", cause);
    free(cause);
    cause = NULL;
    cluster_free(t);

    struct cluster *g = cluster_new(CLUSTER_GRAPH);
    cluster_add_node(g, "a", 0, 0);
    cluster_add_node(g, "b", 0, 0);
    cluster_add_edge(g, 0, 1, 1, -1);
    ok(lp_solve_broadcast(g, &r, &cause) < 0 && cause && strstr(cause, "cluster_finish"),
       "a graph that was not checked is refused, not solved");
    free(cause);
    cause = NULL;
    g->edges[0].time = -1;
    diag_init(&d);
    cluster_finish(g, &d);   /* refuses the time; the edge index stays empty */
    diag_free(&d);
    ok(lp_solve_broadcast(g, &r, &cause) < 0 && cause, "an edge with a negative time is refused");
    free(cause);
    cause = NULL;
    cluster_free(g);

    /* A long chain: the flow form would be too large; the cut form solves it. */
    int n = 2100;
    g = cluster_new(CLUSTER_GRAPH);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        cluster_add_node(g, name, 0, 0);
        if (i)
            cluster_add_edge(g, i - 1, i, 1 + i % 3, -1);
    }
    diag_init(&d);
    cluster_finish(g, &d);
    diag_free(&d);
    ok(lp_solve_broadcast_flows(g, &r, &cause) < 0 && cause && strstr(cause, "flow variables"),
       "the flow form refuses %d nodes with a message", n);
    free(cause);
    cause = NULL;
    /* A correctness check, not a timing: a limit that valgrind's slowdown cannot reach. */
    struct lp_limits slow = {.time_limit = 3600};
    ok(lp_solve_broadcast_limited(g, &slow, &r, &cause) == 0 && fabs(r.throughput - 1.0 / 3) < EPS,
       "the cut form solves the %d-node chain: TP = 1/3", n);
    if (!cause)
        lp_result_free(&r);
    free(cause);
    cluster_free(g);
}

/* ---- an independent check of the counts: max flow by augmenting paths ---- */

static double maxflow(const struct cluster *c, const double *cap, int t)
{
    int n = c->n, m = c->nedges;
    double *res = calloc((size_t)(2 * m), sizeof *res);   /* 2k: forward, 2k+1: back */
    int *prev = malloc((size_t)n * sizeof *prev), *queue = malloc((size_t)n * sizeof *queue);
    for (int k = 0; k < m; k++)
        res[2 * k] = cap[k];
    double flow = 0;
    for (;;) {
        for (int v = 0; v < n; v++)
            prev[v] = -1;
        int qh = 0, qt = 0;
        queue[qt++] = c->source;
        prev[c->source] = -2;
        while (qh < qt && prev[t] == -1) {
            int u = queue[qh++];
            for (int a = 0; a < 2 * m; a++) {
                const struct edge *e = &c->edges[a / 2];
                int from = a % 2 ? e->to : e->from, to = a % 2 ? e->from : e->to;
                if (from == u && res[a] > 1e-15 && prev[to] == -1) {
                    prev[to] = a;
                    queue[qt++] = to;
                }
            }
        }
        if (prev[t] == -1)
            break;
        double push = INFINITY;
        for (int v = t; v != c->source;) {
            int a = prev[v];
            push = fmin(push, res[a]);
            v = a % 2 ? c->edges[a / 2].to : c->edges[a / 2].from;
        }
        for (int v = t; v != c->source;) {
            int a = prev[v];
            res[a] -= push;
            res[a ^ 1] += push;
            v = a % 2 ? c->edges[a / 2].to : c->edges[a / 2].from;
        }
        flow += push;
    }
    free(res);
    free(prev);
    free(queue);
    return flow;
}

static void test_random(void)
{
    struct rng r;
    rng_seed(&r, 2024);
    int platforms = 0, bad_value = 0, bad_flow = 0, bad_port = 0, compared = 0, uni_bad = 0,
        uni_compared = 0;
    for (int i = 0; i < 40; i++) {
        int n = 3 + (int)rng_below(&r, 28);
        double dens = 0.04 * (double)(1 + rng_below(&r, 5));
        struct cluster *c = i % 4 == 3 ? generate_platform_tiers(&r, n, 0.8)
                                       : generate_platform_random(&r, n, dens, 0.8);
        struct lp_result lp;
        char *cause = NULL;
        if (lp_solve_broadcast(c, &lp, &cause) < 0) {
            diag("  %s", cause);
            free(cause);
            bad_value++;
            cluster_free(c);
            continue;
        }
        platforms++;
        if (n <= 20) {   /* the flow form is slow beyond */
            struct lp_result full;
            compared++;
            if (lp_solve_broadcast_flows(c, &full, &cause) < 0 ||
                fabs(full.throughput - lp.throughput) > EPS * lp.throughput) {
                bad_value++;
                diag("  n=%d: cuts %.12g, flows %.12g", n, lp.throughput,
                     cause ? NAN : full.throughput);
            }
            if (!cause)
                lp_result_free(&full);
            free(cause);
        }
        for (int w = 0; w < c->n; w++)
            if (w != c->source && maxflow(c, lp.count, w) < lp.throughput * (1 - 1e-7)) {
                bad_flow++;
                diag("  n=%d: %s gets only %g < TP %g within the counts", n, c->nodes[w].name,
                     maxflow(c, lp.count, w), lp.throughput);
            }
        size_t nn = c->n > 0 ? (size_t)c->n : 1;
        double *out = calloc(nn, sizeof *out), *in = calloc(nn, sizeof *in);
        for (int k = 0; k < c->nedges; k++) {
            out[c->edges[k].from] += lp.busy[k];
            in[c->edges[k].to] += lp.busy[k];
        }
        for (int u = 0; u < c->n; u++)
            bad_port += out[u] > 1 + 1e-7 || in[u] > 1 + 1e-7;
        free(out);
        free(in);
        /* The one-port-uni program: no more than the bidirectional one, one port per
         * node busy at most all the time, the counts carry TP, the flow form agrees. */
        struct lp_limits ul = {.unidirectional = true};
        struct lp_result uni;
        if (lp_solve_broadcast_limited(c, &ul, &uni, &cause) < 0) {
            diag("  one-port-uni, n=%d: %s", n, cause);
            free(cause);
            cause = NULL;
            uni_bad++;
        } else {
            uni_bad += uni.throughput > lp.throughput * (1 + EPS);
            double *load = calloc(nn, sizeof *load);
            for (int k = 0; k < c->nedges; k++) {
                load[c->edges[k].from] += uni.busy[k];
                load[c->edges[k].to] += uni.busy[k];
            }
            for (int u = 0; u < c->n; u++)
                uni_bad += load[u] > 1 + 1e-7;
            free(load);
            for (int w = 0; w < c->n; w++)
                uni_bad += w != c->source && maxflow(c, uni.count, w) < uni.throughput * (1 - 1e-7);
            if (n <= 20) {
                struct lp_result full;
                uni_compared++;
                if (lp_solve_broadcast_flows_model(c, true, &full, &cause) < 0 ||
                    fabs(full.throughput - uni.throughput) > EPS * uni.throughput) {
                    uni_bad++;
                    diag("  one-port-uni, n=%d: cuts %.12g, flows %.12g", n, uni.throughput,
                         cause ? NAN : full.throughput);
                }
                if (!cause)
                    lp_result_free(&full);
                free(cause);
                cause = NULL;
            }
            lp_result_free(&uni);
        }
        lp_result_free(&lp);
        cluster_free(c);
    }
    ok(bad_value == 0, "%d random platforms solved; %d of them agree with the flow form", platforms,
       compared);
    ok(uni_bad == 0, "one-port-uni: at most the bidirectional optimum, one port per node busy at "
                     "most all the time, the counts carry it, and %d flow forms agree", uni_compared);
    ok(bad_flow == 0, "every receiver can get TP slices per time unit within the counts n(u,v)");
    ok(bad_port == 0, "the counts keep every send and receive port busy at most all the time");
}

/* The cut-and-column solve against the flow form on larger random platforms:
 * the same optimum (the flow form takes seconds each at these sizes). */
static void test_larger(void)
{
    static const struct { int n; double density; uint64_t seed; } cases[] = {
        {30, 0.10, 2}, {30, 0.20, 7}, {35, 0.08, 3}, {40, 0.08, 3}, {45, 0.05, 11},
    };
    size_t ncases = (size_t)tap_scale((int)(sizeof cases / sizeof cases[0]), 1);   /* valgrind: the first */
    for (size_t i = 0; i < ncases; i++) {
        struct rng r;
        rng_seed(&r, cases[i].seed);
        struct cluster *c = generate_platform_random(&r, cases[i].n, cases[i].density, 0.8);
        struct lp_result cut, full;
        char *cause = NULL;
        int rc = lp_solve_broadcast(c, &cut, &cause);
        int rf = rc == 0 ? lp_solve_broadcast_flows(c, &full, &cause) : -1;
        ok(rc == 0 && rf == 0 && fabs(full.throughput - cut.throughput) <= EPS * full.throughput,
           "%d nodes, %d edges (density %g, seed %d): cuts and columns %.12g, flow form %.12g%s%s",
           c->n, c->nedges, cases[i].density, (int)cases[i].seed, rc == 0 ? cut.throughput : NAN,
           rf == 0 ? full.throughput : NAN, cause ? ": " : "", cause ? cause : "");
        if (rc == 0)
            lp_result_free(&cut);
        if (rf == 0)
            lp_result_free(&full);
        free(cause);
        cluster_free(c);
    }
}

/* glpsol's "Objective:  obj = V (MAXimum)" line, or NAN. */
static double glpsol_objective(const char *lp_path, const char *out_path)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "glpsol --lp '%s' -o '%s' >/dev/null 2>&1", lp_path, out_path);
    if (system(cmd) != 0)
        return NAN;
    FILE *f = fopen(out_path, "r");
    double v = NAN;
    char line[512];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Objective: obj = %lf", &v) == 1)
            break;
    if (f)
        fclose(f);
    return v;
}

/* An independent solver: the flow form written as a CPLEX LP file, solved by
 * GLPK's glpsol (a separate program, its own presolve and scaling). */
static void test_glpsol(void)
{
    if (system("command -v glpsol >/dev/null 2>&1") != 0) {
        printf("ok %d # SKIP glpsol is not installed (Debian package glpk-utils)\n", ++tap_n);
        printf("ok %d # SKIP glpsol is not installed (Debian package glpk-utils)\n", ++tap_n);
        return;
    }
    char lp_path[64], out_path[64];
    snprintf(lp_path, sizeof lp_path, "/tmp/hetcast-test-lp-%d.lp", (int)getpid());
    snprintf(out_path, sizeof out_path, "/tmp/hetcast-test-lp-%d.txt", (int)getpid());
    for (int uni = 0; uni < 2; uni++) {
        struct rng r;
        rng_seed(&r, 5 + (uint64_t)uni);
        struct cluster *c = generate_platform_random(&r, 30, 0.1, 0.8);
        struct lp_limits lim = {.unidirectional = uni};
        struct lp_result cut;
        char *cause = NULL;
        int rc = lp_solve_broadcast_limited(c, &lim, &cut, &cause);
        int rw = lp_write_flows(c, uni, lp_path, &cause);
        double theirs = rw == 0 ? glpsol_objective(lp_path, out_path) : NAN;
        ok(rc == 0 && fabs(theirs - cut.throughput) <= 1e-8 * cut.throughput,
           "%s, 30 nodes, %d edges: glpsol on the written flow form %.10g, cuts and columns %.10g%s%s",
           uni ? "one-port-uni" : "one-port", c->nedges, theirs, rc == 0 ? cut.throughput : NAN,
           cause ? ": " : "", cause ? cause : "");
        if (rc == 0)
            lp_result_free(&cut);
        free(cause);
        cluster_free(c);
    }
    remove(lp_path);
    remove(out_path);
}

/* 1000 nodes of the papers' generator (about 100 000 edges): proven within the
 * default work budget, on a program a small part of the edges' size (300
 * nodes at the small scale, under valgrind). */
static void test_thousand(void)
{
    struct rng r;
    rng_seed(&r, 1);
    struct cluster *c = generate_platform_random(&r, tap_scale(1000, 300), 0.1, 0.8);
    struct lp_limits work = {.iterations = LP_DEFAULT_ITERATIONS};
    struct lp_result lp;
    char *cause = NULL;
    int rc = lp_solve_broadcast_limited(c, &work, &lp, &cause);
    ok(rc == 0 && lp.throughput > 0, "%d nodes, %d edges: solved within %ld simplex iterations "
       "(%d used, %d rounds)%s%s", c->n, c->nedges, LP_DEFAULT_ITERATIONS, rc == 0 ? lp.iterations : 0,
       rc == 0 ? lp.rounds : 0, cause ? ": " : "", cause ? cause : "");
    if (rc == 0) {
        ok(lp.cols < c->nedges / tap_scale(10, 5), "its last program has %d columns of %d edges (under %s)",
           lp.cols, c->nedges, tap_scale(1, 0) ? "a tenth" : "a fifth");
        double *out = calloc((size_t)c->n, sizeof *out), *in = calloc((size_t)c->n, sizeof *in);
        int bad = 0;
        for (int k = 0; k < c->nedges; k++) {
            out[c->edges[k].from] += lp.busy[k];
            in[c->edges[k].to] += lp.busy[k];
        }
        for (int u = 0; u < c->n; u++)
            bad += out[u] > 1 + 1e-7 || in[u] > 1 + 1e-7;
        ok(bad == 0, "its counts keep every port busy at most all the time");
        free(out);
        free(in);
        lp_result_free(&lp);
    }
    free(cause);
    cluster_free(c);
}

/* The LP's limits: a set cancel flag, and a time limit a solve cannot meet. */
static void test_limits(void)
{
    struct cluster *g = graph("from,to,time\na,b,1\nb,c,2\na,c,5\nc,a,1\n");
    volatile sig_atomic_t flag = 1;
    struct lp_limits lim = {.time_limit = 10, .cancel = &flag};
    struct lp_result r;
    char *cause = NULL;
    int rc = lp_solve_broadcast_limited(g, &lim, &r, &cause);
    ok(rc < 0 && cause && strstr(cause, "the throughput linear program was cancelled"),
       "a cancelled LP says so (got %s)", cause ? cause : "a result");
    if (rc == 0)
        lp_result_free(&r);
    free(cause);
    cause = NULL;
    flag = 0;
    rc = lp_solve_broadcast_limited(g, &lim, &r, &cause);
    ok(rc == 0 && r.throughput > 0, "with the flag clear it solves (TP %g)", rc == 0 ? r.throughput : 0.0);
    if (rc == 0)
        lp_result_free(&r);
    free(cause);
    cause = NULL;
    lim.time_limit = 1e-12;
    lim.cancel = NULL;
    rc = lp_solve_broadcast_limited(g, &lim, &r, &cause);
    ok(rc < 0 && cause && strstr(cause, "gave up after 1e-12 s") && strstr(cause, "prune-simple"),
       "out of time: gave up, naming what works (got %s)", cause ? cause : "a result");
    if (rc == 0)
        lp_result_free(&r);
    free(cause);
    cause = NULL;
    /* The work budget: no clock, the same answer on any machine. */
    struct lp_limits work = {.iterations = 1};
    rc = lp_solve_broadcast_limited(g, &work, &r, &cause);
    ok(rc < 0 && cause && strstr(cause, "gave up after 1 simplex iteration (") &&
           strstr(cause, "prune-simple"),
       "out of iterations: gave up, saying so (got %s)", cause ? cause : "a result");
    if (rc == 0)
        lp_result_free(&r);
    free(cause);
    cause = NULL;
    struct lp_limits both = {.time_limit = 3600};
    rc = lp_solve_broadcast_limited(g, &both, &r, &cause);
    int used = rc == 0 ? r.iterations : 0;
    if (rc == 0)
        lp_result_free(&r);
    free(cause);
    cause = NULL;
    work.iterations = used;
    rc = lp_solve_broadcast_limited(g, &work, &r, &cause);
    ok(used > 1 && rc == 0 && r.iterations == used,
       "a budget of exactly the iterations a solve makes (%d) is enough (%s)", used, cause ? cause : "solved");
    if (rc == 0)
        lp_result_free(&r);
    free(cause);
    cluster_free(g);
}

int main(void)
{
    test_limits();
    test_hand_solved();
    test_refusals();
    test_random();
    test_larger();
    test_glpsol();
    test_thousand();
    return tap_exit();
}
