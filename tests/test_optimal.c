/*
 * test_optimal.c - the exact search (sched/optimal.c) against brute force: every
 * receiver order for node tables in async, every (sender, receiver) booking
 * sequence for the other models, latency matrices and platform graphs; the
 * paper's counterexample; the fnf guarantee 2T + beta; the plan replayed by
 * the engine; the limits (gave up with a valid lower bound; refused when too
 * large); one-node, two-node and zero-cost clusters.
 *
 * The brute forces simulate the port models on their own (SPEC §1), so they
 * check the engine's arithmetic as much as the search.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bounds.h"
#include "model/cluster.h"
#include "engine/engine.h"
#include "sched/optimal.h"
#include "support/rng.h"
#include "sched/sched.h"
#include "tap.h"

#define EPS 1e-9

static struct cluster *finish(struct cluster *c)
{
    struct diag d;
    diag_init(&d);
    if (cluster_finish(c, &d) < 0) {
        diag_print(&d, stdout);
        diag_free(&d);
        cluster_free(c);
        return NULL;
    }
    diag_free(&d);
    return c;
}

static struct cluster *node_table(int n, const double *s, const double *r, double latency, int source)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        cluster_add_node(c, name, s[i], r[i]);
    }
    c->latency = latency;
    if (source > 0) {
        char name[16];
        snprintf(name, sizeof name, "p%d", source);
        cluster_set_str(&c->source_name, name);
    }
    return finish(c);
}

/* Random times: integers 0..4 (ties galore), or doubles in [0.5, 5). */
static double draw(struct rng *g, bool integers)
{
    return integers ? (double)rng_below(g, 5) : rng_range(g, 0.5, 5.0);
}

/* A random node table; classes > 0 draws the nodes from that many (s, r) pairs. */
static struct cluster *random_nodes(struct rng *g, int n, int classes, bool integers)
{
    double s[64], r[64], ps[8], pr[8];
    for (int k = 0; k < classes; k++) {
        ps[k] = draw(g, integers);
        pr[k] = draw(g, integers);
    }
    for (int i = 0; i < n; i++) {
        if (classes > 0) {
            int k = (int)rng_below(g, (uint64_t)classes);
            s[i] = ps[k];
            r[i] = pr[k];
        } else {
            s[i] = draw(g, integers);
            r[i] = draw(g, integers);
        }
    }
    return node_table(n, s, r, draw(g, integers), (int)rng_below(g, (uint64_t)n));
}

static struct cluster *random_matrix(struct rng *g, int n, bool integers, bool symmetric)
{
    struct cluster *c = cluster_new(CLUSTER_MATRIX);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "m%d", i);
        cluster_add_node(c, name, draw(g, integers), draw(g, integers));
    }
    c->dist = calloc((size_t)n * (size_t)n, sizeof *c->dist);
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++)
            if (p != q)
                c->dist[q * n + p] = symmetric && p < q ? c->dist[p * n + q] : draw(g, integers);
    c->unit = integers ? 1 : 0.5;
    return finish(c);
}

/* A random strongly-enough connected graph: a ring plus random extra edges. */
static struct cluster *random_graph(struct rng *g, int n, bool with_send)
{
    struct cluster *c = cluster_new(CLUSTER_GRAPH);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "g%d", i);
        cluster_add_node(c, name, 0, 0);
    }
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++)
            if (p != q && (p == (q + 1) % n || rng_below(g, 2) == 0)) {
                double t = 1 + (double)rng_below(g, 6);
                double snd = with_send ? 1 + (double)rng_below(g, (uint64_t)t) : -1;
                cluster_add_edge(c, q, p, t, snd);
            }
    return finish(c);
}

/*
 * 100 nodes in two classes with generic times, one faster at sending and
 * the other at receiving: the search needs millions of nodes to prove its
 * optimum (between 82.5 and 83.2).
 */
static struct cluster *hard_cluster(void)
{
    struct rng g;
    double s[100], r[100], ps[2], pr[2];
    rng_seed(&g, 6);
    for (int k = 0; k < 2; k++) {
        ps[k] = rng_range(&g, 1, 10);
        pr[k] = rng_range(&g, 1, 10);
    }
    for (int i = 0; i < 100; i++) {
        int k = (int)rng_below(&g, 2);
        s[i] = ps[k];
        r[i] = pr[k];
    }
    return node_table(100, s, r, 1, 0);
}

/* ---- brute force 1: every receiver order, earliest completing sender ---- */

struct order_bf {
    const struct cluster *c;
    int n;
    double hold[64], ready[64];
    bool held[64];
    double best;
};

static void order_rec(struct order_bf *b, int left, double ms)
{
    if (ms >= b->best)
        return;   /* a prefix at least as late cannot improve */
    if (left == 0) {
        b->best = ms;
        return;
    }
    const struct cluster *c = b->c;
    int q = -1;
    double done = INFINITY;
    for (int x = 0; x < b->n; x++)
        if (b->held[x] && b->ready[x] + c->nodes[x].send < done)
            done = b->ready[x] + c->nodes[x].send, q = x;
    double old = b->ready[q];
    for (int p = 0; p < b->n; p++) {
        if (b->held[p])
            continue;
        double h = (done + c->latency) + c->nodes[p].recv;
        b->held[p] = true;
        b->ready[p] = h;
        b->ready[q] = done;
        order_rec(b, left - 1, ms > h ? ms : h);
        b->ready[q] = old;
        b->held[p] = false;
    }
}

/* The least makespan over all receiver orders (async, node tables). O(n!). */
static double brute_orders(const struct cluster *c)
{
    struct order_bf b;
    memset(&b, 0, sizeof b);
    b.c = c;
    b.n = c->n;
    b.best = INFINITY;
    b.held[c->source] = true;
    order_rec(&b, c->n - 1, 0);
    return b.best;
}

/*
 * Brute force 1b: every distinct sequence of receiver classes (identical
 * nodes are interchangeable), for clusters too large for all orders.
 */
struct class_bf {
    int K, cnt[8], nh;
    double cs[8], cr[8], L, comp[64], per[64];
    double best;
};

static void class_rec(struct class_bf *b, int left, double ms)
{
    if (ms >= b->best)
        return;
    if (left == 0) {
        b->best = ms;
        return;
    }
    int q = 0;
    for (int j = 1; j < b->nh; j++)
        if (b->comp[j] < b->comp[q])
            q = j;
    double c = b->comp[q];
    for (int k = 0; k < b->K; k++) {
        if (b->cnt[k] == 0)
            continue;
        double h = (c + b->L) + b->cr[k];
        b->cnt[k]--;
        b->comp[q] = c + b->per[q];
        b->comp[b->nh] = h + b->cs[k];
        b->per[b->nh++] = b->cs[k];
        class_rec(b, left - 1, ms > h ? ms : h);
        b->nh--;
        b->comp[q] = c;
        b->cnt[k]++;
    }
}

static double brute_classes(const struct cluster *c)
{
    struct class_bf b;
    memset(&b, 0, sizeof b);
    b.L = c->latency;
    for (int p = 0; p < c->n; p++) {
        if (p == c->source)
            continue;
        int k = 0;
        while (k < b.K && !(b.cs[k] == c->nodes[p].send && b.cr[k] == c->nodes[p].recv))
            k++;
        if (k == b.K) {
            b.cs[k] = c->nodes[p].send;
            b.cr[k] = c->nodes[p].recv;
            b.K++;
        }
        b.cnt[k]++;
    }
    b.comp[0] = 0 + c->nodes[c->source].send;
    b.per[0] = c->nodes[c->source].send;
    b.nh = 1;
    b.best = INFINITY;
    class_rec(&b, c->n - 1, 0);
    return b.best;
}

/* ---- brute force 2: every (sender, receiver) booking sequence ---- */

struct pair_bf {
    const struct cluster *c;
    enum model m;
    int n;
    double ready[16];
    bool held[16];
    double best;
};

/* SPEC §1: when p holds the message and q is free again, for a start at t. */
static bool model_times(const struct cluster *c, enum model m, int q, int p, double t, double *hold,
                        double *fr)
{
    struct cost k;
    if (!timing_cost(c, q, p, &k))
        return false;
    switch (m) {
    case MODEL_ASYNC:
        *fr = t + k.s;
        *hold = t + k.s + k.l + k.r;
        break;
    case MODEL_SENDER_ONLY:
        *hold = *fr = t + k.s;
        break;
    case MODEL_SYNC:
        *hold = *fr = t + k.s + k.l + k.r;
        break;
    case MODEL_ONE_PORT:
        *hold = *fr = t + k.T;
        break;
    default:
        *hold = t + k.T;
        *fr = t + k.send_mp;
        break;
    }
    return true;
}

static void pair_rec(struct pair_bf *b, int left, double ms)
{
    if (ms >= b->best)
        return;
    if (left == 0) {
        b->best = ms;
        return;
    }
    for (int q = 0; q < b->n; q++) {
        if (!b->held[q])
            continue;
        for (int p = 0; p < b->n; p++) {
            double h, fr, old = b->ready[q];
            if (b->held[p] || !model_times(b->c, b->m, q, p, old, &h, &fr))
                continue;
            b->held[p] = true;
            b->ready[p] = h;
            b->ready[q] = fr;
            pair_rec(b, left - 1, ms > h ? ms : h);
            b->ready[q] = old;
            b->held[p] = false;
        }
    }
}

static double brute_pairs(const struct cluster *c, enum model m)
{
    struct pair_bf b;
    memset(&b, 0, sizeof b);
    b.c = c;
    b.m = m;
    b.n = c->n;
    b.best = INFINITY;
    b.held[c->source] = true;
    pair_rec(&b, c->n - 1, 0);
    return b.best;
}

/* ---- helpers ---- */

static double solve(const struct cluster *c, enum model m, struct opt_plan *p)
{
    char *cause = NULL;
    if (optimal_solve(c, m, NULL, p, &cause) < 0) {
        diag("optimal_solve: %s", cause);
        free(cause);
        return NAN;
    }
    return p->makespan;
}

/* Book the plan on a fresh engine; returns its makespan (NAN if refused). */
static double book_plan(const struct cluster *c, enum model m, const struct opt_plan *p)
{
    struct engine e;
    char *cause = NULL;
    double ms = NAN;
    if (engine_init(&e, c, m, &cause) == 0) {
        int i = 0;
        while (i < p->len && engine_book(&e, p->from[i], p->to[i], 0, NULL, &cause) == 0)
            i++;
        if (i == p->len && e.nwaiting == 0)
            ms = e.makespan;
        engine_free(&e);
    }
    if (cause)
        diag("book_plan: %s", cause);
    free(cause);
    return ms;
}

/* fnf's makespan with the slot rule: receivers by (s, r, index). */
static double fnf_makespan(const struct cluster *c)
{
    int n = c->n, *order = malloc((size_t)n * sizeof *order), k = 0;
    double *ready = malloc((size_t)n * sizeof *ready), ms = 0;
    bool *held = calloc((size_t)n, sizeof *held);
    for (int p = 0; p < n; p++) {
        if (p == c->source)
            continue;
        int j = k++;
        while (j > 0) {
            const struct node *a = &c->nodes[order[j - 1]], *b = &c->nodes[p];
            if (a->send < b->send || (a->send == b->send && a->recv <= b->recv))
                break;
            order[j] = order[j - 1];
            j--;
        }
        order[j] = p;
    }
    held[c->source] = true;
    ready[c->source] = 0;
    for (int i = 0; i < k; i++) {
        int q = -1;
        double done = INFINITY;
        for (int x = 0; x < n; x++)
            if (held[x] && ready[x] + c->nodes[x].send < done)
                done = ready[x] + c->nodes[x].send, q = x;
        int p = order[i];
        double h = done + c->latency + c->nodes[p].recv;
        ready[q] = done;
        ready[p] = h;
        held[p] = true;
        if (h > ms)
            ms = h;
    }
    free(order);
    free(ready);
    free(held);
    return ms;
}

/* ---- tests ---- */

static void test_counterexample(void)
{
    const double s[3] = {1, 1, 2}, r[3] = {2, 2, 3};
    struct cluster *c = node_table(3, s, r, 1, 0);
    struct opt_plan p;
    is_double(solve(c, MODEL_ASYNC, &p), 5, 0, "counterexample: optimum 5");
    is_int(p.status, OPT_PROVEN, "counterexample: proven");
    is_double(p.lower, 5, 0, "counterexample: lower == makespan");
    is_int(p.len, 2, "counterexample: two decisions");
    is_int(p.to[0], 2, "counterexample: the slow p2 first");
    is_int(p.from[0], 0, "counterexample: from the source");
    is_double(fnf_makespan(c), 6, 0, "counterexample: fnf 6");
    is_double(book_plan(c, MODEL_ASYNC, &p), 5, 0, "counterexample: the engine books 5");
    opt_plan_free(&p);
    cluster_free(c);
}

static void test_orders_vs_brute(void)
{
    struct rng g;
    rng_seed(&g, 7);
    int bad = 0, cases = 0, replay_bad = 0;
    for (int it = 0; it < 600; it++) {
        int n = 2 + (int)rng_below(&g, 7);               /* 2..8 */
        int classes = (int)rng_below(&g, 4);             /* 0: all random; else 1..3 classes */
        bool integers = it % 2 == 0;
        struct cluster *c = random_nodes(&g, n, classes, integers);
        struct opt_plan p;
        double got = solve(c, MODEL_ASYNC, &p), want = brute_orders(c);
        cases++;
        if (!(fabs(got - want) <= EPS * fmax(1, want)) || p.status != OPT_PROVEN) {
            if (bad++ < 5)
                diag("case %d: n=%d classes=%d: optimal %.17g, brute force %.17g", it, n, classes,
                     got, want);
        }
        if (book_plan(c, MODEL_ASYNC, &p) != p.makespan)
            replay_bad++;
        opt_plan_free(&p);
        cluster_free(c);
    }
    is_int(bad, 0, "async node tables: optimal == brute force over all receiver orders (%d clusters)",
           cases);
    is_int(replay_bad, 0, "async node tables: every plan books to its makespan");
}

static void test_large_classes_vs_brute(void)
{
    /* 9 nodes in 2-3 classes: brute force still 8! orders, pruned. */
    struct rng g;
    rng_seed(&g, 11);
    int bad = 0;
    for (int it = 0; it < 30; it++) {
        struct cluster *c = random_nodes(&g, 9, 2 + it % 2, it % 3 != 0);
        struct opt_plan p;
        double got = solve(c, MODEL_ASYNC, &p), want = brute_orders(c);
        if (!(fabs(got - want) <= EPS * fmax(1, want)) && bad++ < 3)
            diag("case %d: optimal %.17g, brute force %.17g", it, got, want);
        opt_plan_free(&p);
        cluster_free(c);
    }
    is_int(bad, 0, "9-node class clusters: optimal == brute force");
}

static void test_class_sequences_vs_brute(void)
{
    struct rng g;
    rng_seed(&g, 13);
    int bad = 0, cases = 0;
    long long nodes = 0;
    for (int it = 0; it < 120; it++) {
        /* times in [1, 10): often one class sends faster, another receives faster */
        int classes = 2 + it % 2;
        int n = classes == 2 ? 14 + (int)rng_below(&g, 9) : 12 + (int)rng_below(&g, 4);
        bool integers = it % 4 < 2;
        double s[24], r[24], ps[3], pr[3];
        for (int k = 0; k < classes; k++) {
            ps[k] = integers ? 1 + (double)rng_below(&g, 9) : rng_range(&g, 1, 10);
            pr[k] = integers ? 1 + (double)rng_below(&g, 9) : rng_range(&g, 1, 10);
        }
        for (int i = 0; i < n; i++) {
            int k = (int)rng_below(&g, (uint64_t)classes);
            s[i] = ps[k];
            r[i] = pr[k];
        }
        struct cluster *c = node_table(n, s, r, (double)rng_below(&g, 3), 0);
        struct opt_plan p;
        double got = solve(c, MODEL_ASYNC, &p), want = brute_classes(c);
        cases++;
        nodes += p.explored;
        if ((!(fabs(got - want) <= EPS * fmax(1, want)) || p.status != OPT_PROVEN) && bad++ < 3)
            diag("case %d: n=%d classes=%d: optimal %.17g, brute force %.17g", it, n, classes, got, want);
        opt_plan_free(&p);
        cluster_free(c);
    }
    is_int(bad, 0, "12-22 nodes in 2-3 classes: optimal == brute force over class sequences (%d, %lld nodes)",
           cases, nodes);
}

/* A node table of n nodes with times in [1, 10] at 0.1 steps, every node
 * drawn on its own (so nearly every receiver is a class of its own): r = s +
 * 1 (a chain, as in docs/performance.md's tables) or r drawn apart. */
static struct cluster *tenths_table(struct rng *g, int n, bool chain, double latency)
{
    double s[64], r[64];
    for (int i = 0; i < n; i++) {
        s[i] = (double)(10 + rng_below(g, 91)) / 10;
        r[i] = chain ? s[i] + 1 : (double)(10 + rng_below(g, 91)) / 10;
    }
    return node_table(n, s, r, latency, 0);
}

/* Is c proven optimal under m within 10 000 search nodes?  Frees c. */
static void proven_within(struct cluster *c, enum model m, const char *what)
{
    struct sched_opts o;
    sched_opts_default(&o);
    o.node_limit = 10000;
    o.time_limit = 1e9;
    struct opt_plan p;
    char *cause = NULL;
    int rc = optimal_solve(c, m, &o, &p, &cause);
    ok(rc == 0 && p.status == OPT_PROVEN, "%s: proven within 10000 search nodes (%lld)", what,
       rc == 0 ? p.explored : -1LL);
    if (rc == 0)
        opt_plan_free(&p);
    free(cause);
    cluster_free(c);
}

/*
 * Tables of more classes than the count test of as_counts_ok takes: the
 * grouped count test (as_groups_ok) prunes them, and the optimum must stay
 * the brute force's.  Then its strength: a 32-node table that the search
 * without it proves after 36 723 search nodes is proven within 10 000
 * (4 358 with it).
 */
static void test_many_classes_vs_brute(void)
{
    struct rng g;
    rng_seed(&g, 17);
    int bad = 0, cases = 0, many = 0;
    for (int it = 0; it < 40; it++) {
        struct cluster *c = tenths_table(&g, it % 4 == 0 ? 11 : 10, it % 2 == 0, it % 3 == 0 ? 1 : 0);
        struct opt_plan p;
        double got = solve(c, MODEL_ASYNC, &p), want = brute_orders(c);
        cases++;
        int distinct = 0;
        for (int i = 1; i < c->n; i++) {
            bool seen = false;
            for (int j = 1; j < i; j++)
                seen = seen || (c->nodes[j].send == c->nodes[i].send && c->nodes[j].recv == c->nodes[i].recv);
            distinct += !seen;
        }
        many += distinct > 8;
        if ((!(fabs(got - want) <= EPS * fmax(1, want)) || p.status != OPT_PROVEN) && bad++ < 3)
            diag("case %d: n=%d: optimal %.17g, brute force %.17g", it, c->n, got, want);
        opt_plan_free(&p);
        cluster_free(c);
    }
    is_int(bad, 0, "10-11 nodes, one class a node: optimal == brute force over all orders (%d clusters)", cases);
    ok(many >= cases * 3 / 4, "of which %d with more than 8 receiver classes", many);

    rng_seed(&g, 6);
    proven_within(tenths_table(&g, 32, true, 0), MODEL_ASYNC, "32 nodes, one class a node");
}

/*
 * The general search's count of whole transfers (gs_count_ok) and its
 * local search on tables of one class a node: the optimum stays the brute
 * force's -- over all receiver orders in async (the general search asked
 * for, opt_general), over all booking sequences in sync and one-port --
 * and a 14-node sync table that the search without them proves after
 * 64 601 search nodes is proven within 10 000 (2 361 with them).
 */
static void test_general_counts(void)
{
    struct rng g;
    rng_seed(&g, 31);
    int bad = 0, cases = 0;
    for (int it = 0; it < 24; it++) {
        bool async = it % 3 == 0;
        enum model m = async ? MODEL_ASYNC : it % 3 == 1 ? MODEL_SYNC : MODEL_ONE_PORT;
        struct cluster *c = tenths_table(&g, async ? 9 + it % 2 : 7, it % 2 == 0, it % 4 == 1 ? 1 : 0);
        struct sched_opts so;
        sched_opts_default(&so);
        so.opt_general = true;
        so.time_limit = 1e9;
        struct opt_plan p;
        char *cause = NULL;
        double want = async ? brute_orders(c) : brute_pairs(c, m);
        int rc = optimal_solve(c, m, &so, &p, &cause);
        cases++;
        if ((rc != 0 || p.status != OPT_PROVEN || !(fabs(p.makespan - want) <= EPS * fmax(1, want))) &&
            bad++ < 3)
            diag("case %d (%s, n=%d): optimal %.17g, brute force %.17g", it, model_name(m), c->n,
                 rc == 0 ? p.makespan : NAN, want);
        if (rc == 0)
            opt_plan_free(&p);
        free(cause);
        cluster_free(c);
    }
    is_int(bad, 0, "general search, one class a node: optimal == brute force (%d clusters)", cases);

    rng_seed(&g, 43);
    proven_within(tenths_table(&g, 14, true, 0), MODEL_SYNC, "14 nodes, sync");
}

/*
 * Exact and inexact arithmetic agree: an integer cluster runs on integers
 * (memo keys relative to the first slot), the same cluster divided by 3
 * runs on raw doubles (absolute keys, other rounding); optima must match.
 * Sizes where the memo and the count test do the work.
 */
/* opt_general: the (sender, receiver) search on node tables where the
 * receiver-order search applies (async, sender-only) finds the same optimum:
 * reproduce measures Theorem 1's gain with it. */
static void test_general_search(void)
{
    struct rng g;
    rng_seed(&g, 23);
    int bad = 0, cases = 0;
    for (int it = 0; it < 120; it++) {
        struct cluster *c = random_nodes(&g, 3 + (int)rng_below(&g, 4), it % 3, it % 2 == 0);
        enum model m = it % 4 == 3 ? MODEL_SENDER_ONLY : MODEL_ASYNC;
        struct sched_opts so;
        sched_opts_default(&so);
        struct opt_plan a, b;
        char *cause = NULL;
        int ra = optimal_solve(c, m, &so, &a, &cause);
        so.opt_general = true;
        int rb = ra == 0 ? optimal_solve(c, m, &so, &b, &cause) : -1;
        if (ra == 0 && rb == 0 && a.status == OPT_PROVEN && b.status == OPT_PROVEN) {
            cases++;
            if (a.makespan != b.makespan && bad++ < 3)
                diag("case %d: receiver orders %.17g, (sender, receiver) %.17g", it, a.makespan,
                     b.makespan);
        } else if (bad++ < 3) {
            diag("case %d: not solved (%s)", it, cause ? cause : "gave up");
        }
        free(cause);
        if (ra == 0)
            opt_plan_free(&a);
        if (rb == 0)
            opt_plan_free(&b);
        cluster_free(c);
    }
    ok(bad == 0 && cases == 120,
       "opt_general: the (sender, receiver) search gives the same optimum on %d node tables", cases);
}

static void test_exact_vs_inexact(void)
{
    struct rng g;
    rng_seed(&g, 17);
    int bad = 0, cases = 0;
    long long nodes = 0;
    for (int it = 0; it < 40; it++) {
        int classes = 2 + it % 2, n = 30 + (int)rng_below(&g, classes == 2 ? 51 : 21);
        double s[80], r[80], s3[80], r3[80], ps[3], pr[3], L = (double)rng_below(&g, 3);
        for (int k = 0; k < classes; k++) {
            ps[k] = 1 + (double)rng_below(&g, 9);
            pr[k] = 1 + (double)rng_below(&g, 9);
        }
        for (int i = 0; i < n; i++) {
            int k = (int)rng_below(&g, (uint64_t)classes);
            s[i] = ps[k];
            r[i] = pr[k];
            s3[i] = s[i] / 3;
            r3[i] = r[i] / 3;
        }
        struct cluster *a = node_table(n, s, r, L, 0), *b = node_table(n, s3, r3, L / 3, 0);
        struct opt_plan pa, pb;
        double va = solve(a, MODEL_ASYNC, &pa), vb = solve(b, MODEL_ASYNC, &pb);
        if (pa.status == OPT_PROVEN && pb.status == OPT_PROVEN) {
            cases++;
            nodes += pa.explored + pb.explored;
            if (!(fabs(va / 3 - vb) <= 1e-9 * va) && bad++ < 3)
                diag("case %d (n=%d, %d classes): exact %.17g / 3, inexact %.17g", it, n, classes, va, vb);
        }
        opt_plan_free(&pa);
        opt_plan_free(&pb);
        cluster_free(a);
        cluster_free(b);
    }
    ok(cases >= 30, "exact vs inexact arithmetic: %d of 40 pairs proven both ways", cases);
    is_int(bad, 0, "exact and inexact arithmetic give the same optimum (%lld search nodes)", nodes);
}

static void test_models_vs_brute(void)
{
    static const enum model models[] = {MODEL_ASYNC, MODEL_SENDER_ONLY, MODEL_SYNC, MODEL_ONE_PORT,
                                        MODEL_MULTI_PORT};
    struct rng g;
    rng_seed(&g, 23);
    for (int mi = 0; mi < 5; mi++) {
        enum model m = models[mi];
        int bad = 0, replay_bad = 0, cases = 0;
        for (int it = 0; it < 160; it++) {
            int n = 1 + (int)rng_below(&g, 5);          /* 1..5 */
            bool integers = it % 2 == 0;
            struct cluster *c = it % 4 < 2 ? random_matrix(&g, n, integers, it % 8 < 4)
                                           : random_nodes(&g, n, (int)rng_below(&g, 3), integers);
            struct opt_plan p;
            double got = solve(c, m, &p), want = n == 1 ? 0 : brute_pairs(c, m);
            cases++;
            if ((!(fabs(got - want) <= EPS * fmax(1, want)) || p.status != OPT_PROVEN) && bad++ < 3)
                diag("%s case %d (%s, n=%d): optimal %.17g, brute force %.17g", model_name(m), it,
                     cluster_kind_name(c->kind), n, got, want);
            if (book_plan(c, m, &p) != p.makespan)
                replay_bad++;
            opt_plan_free(&p);
            cluster_free(c);
        }
        is_int(bad, 0, "%s: optimal == brute force over all booking sequences (%d clusters)",
               model_name(m), cases);
        is_int(replay_bad, 0, "%s: every plan books to its makespan", model_name(m));
    }
}

static void test_six_nodes_vs_brute(void)
{
    static const enum model models[] = {MODEL_SYNC, MODEL_ONE_PORT, MODEL_ASYNC};
    struct rng g;
    rng_seed(&g, 29);
    int bad = 0;
    for (int it = 0; it < 24; it++) {
        enum model m = models[it % 3];
        struct cluster *c = it % 2 ? random_matrix(&g, 6, it % 4 == 1, false)
                                   : random_nodes(&g, 6, 2, it % 4 == 0);
        struct opt_plan p;
        double got = solve(c, m, &p), want = brute_pairs(c, m);
        if (!(fabs(got - want) <= EPS * fmax(1, want)) && bad++ < 3)
            diag("%s case %d: optimal %.17g, brute force %.17g", model_name(m), it, got, want);
        opt_plan_free(&p);
        cluster_free(c);
    }
    is_int(bad, 0, "6-node matrices and 2-class tables under sync, one-port, async: == brute force");
}

static void test_graphs_vs_brute(void)
{
    struct rng g;
    rng_seed(&g, 31);
    int bad = 0, replay_bad = 0, cases = 0;
    for (int it = 0; it < 120; it++) {
        int n = 2 + (int)rng_below(&g, 4);              /* 2..5 */
        enum model m = it % 2 ? MODEL_MULTI_PORT : MODEL_ONE_PORT;
        struct cluster *c = random_graph(&g, n, it % 4 == 3);
        if (!c)
            continue;
        struct opt_plan p;
        double got = solve(c, m, &p), want = brute_pairs(c, m);
        cases++;
        if (!(fabs(got - want) <= EPS * fmax(1, want)) && bad++ < 3)
            diag("graph case %d (%s, n=%d): optimal %.17g, brute force %.17g", it, model_name(m), n,
                 got, want);
        if (book_plan(c, m, &p) != p.makespan)
            replay_bad++;
        opt_plan_free(&p);
        cluster_free(c);
    }
    is_int(bad, 0, "platform graphs (one-port, multi-port): optimal == brute force (%d graphs)", cases);
    is_int(replay_bad, 0, "platform graphs: every plan books to its makespan");
}

static void test_fnf_guarantee(void)
{
    struct rng g;
    rng_seed(&g, 41);
    int bad = 0, cases = 0, fnf_optimal = 0;
    for (int it = 0; it < 300; it++) {
        int n = 2 + (int)rng_below(&g, 9);               /* 2..10 */
        /* consistent speeds: r grows with s */
        double s[16], r[16], L = (double)rng_below(&g, 3);
        for (int i = 0; i < n; i++) {
            s[i] = 1 + (double)rng_below(&g, 6);
            r[i] = s[i] + (double)(it % 3);
        }
        struct cluster *c = node_table(n, s, r, L, 0);
        double lo = INFINITY, hi = -INFINITY;
        for (int p = 1; p < n; p++) {
            lo = fmin(lo, r[p] + L);
            hi = fmax(hi, r[p] + L);
        }
        struct opt_plan p;
        double opt = solve(c, MODEL_ASYNC, &p), fnf = fnf_makespan(c);
        cases++;
        if (!(fnf <= 2 * opt + (hi - 2 * lo) + EPS && opt <= fnf + EPS) && bad++ < 3)
            diag("case %d: fnf %g, optimum %g, beta %g", it, fnf, opt, hi - 2 * lo);
        if (fnf == opt)
            fnf_optimal++;
        opt_plan_free(&p);
        cluster_free(c);
    }
    is_int(bad, 0, "consistent speeds: opt <= fnf <= 2 opt + beta (%d clusters, fnf optimal in %d)",
           cases, fnf_optimal);
}

static void test_engine_run(void)
{
    const double s[5] = {1, 1, 2, 2, 3}, r[5] = {2, 2, 3, 3, 5};
    struct cluster *c = node_table(5, s, r, 1, 0);
    struct opt_plan p;
    double want = solve(c, MODEL_ASYNC, &p);
    struct engine e;
    struct sched sc;
    char *cause = NULL;
    engine_init(&e, c, MODEL_ASYNC, &cause);
    sched_init(&sc, &sched_optimal, NULL);
    int rc = sched_run(&e, &sc, &cause);
    is_int(rc, 0, "sched_run with optimal succeeds");
    if (rc < 0)
        diag("%s", cause);
    is_double(e.makespan, want, 0, "sched_run reproduces the plan's makespan");
    is_int(sc.status, OPT_PROVEN, "the scheduler says proven");
    is_double(sc.bound, want, 0, "its bound is the optimum");
    ok(strncmp(sc.note, "proven optimal: ", 16) == 0, "note: %s", sc.note);
    ok(e.ntr == 4 && strstr(e.tr[0].reason, "optimal") != NULL, "reason: %s",
       e.ntr ? e.tr[0].reason : "(none)");
    ok(e.ntr == 4 && strstr(e.tr[0].reason, "receiver 1 of 4") != NULL, "reason counts receivers");
    sched_free(&sc);
    engine_free(&e);
    free(cause);
    opt_plan_free(&p);

    /* a matrix under sync: the general search, the same replay */
    struct rng g;
    rng_seed(&g, 3);
    struct cluster *mx = random_matrix(&g, 5, true, false);
    want = solve(mx, MODEL_SYNC, &p);
    cause = NULL;
    engine_init(&e, mx, MODEL_SYNC, &cause);
    sched_init(&sc, &sched_optimal, NULL);
    rc = sched_run(&e, &sc, &cause);
    is_int(rc, 0, "sched_run with optimal on a matrix (sync)");
    is_double(e.makespan, want, 0, "matrix: sched_run reproduces the plan's makespan");
    ok(e.ntr == 4 && strstr(e.tr[0].reason, "optimal") != NULL, "matrix reason: %s",
       e.ntr ? e.tr[0].reason : "(none)");
    sched_free(&sc);
    engine_free(&e);
    free(cause);
    opt_plan_free(&p);
    cluster_free(mx);
    cluster_free(c);
}

static void test_limits(void)
{
    struct rng g;
    rng_seed(&g, 5);
    int gave_up = 0, valid = 0, cases = 0;
    for (int it = 0; it < 6; it++) {
        struct cluster *c = it % 2 ? random_nodes(&g, 12, 0, false) : tenths_table(&g, 24, true, 0);
        struct sched_opts o;
        sched_opts_default(&o);
        o.node_limit = 10;
        struct opt_plan lim, full;
        char *cause = NULL;
        if (optimal_solve(c, MODEL_ASYNC, &o, &lim, &cause) < 0 ||
            optimal_solve(c, MODEL_ASYNC, NULL, &full, &cause) < 0) {
            diag("%s", cause);
            free(cause);
            cluster_free(c);
            continue;
        }
        cases++;
        if (lim.status == OPT_GAVE_UP)
            gave_up++;
        /* whatever happened, the claims hold */
        if (full.status == OPT_PROVEN && lim.lower <= full.makespan + EPS &&
            lim.lower >= bound_lower(c, MODEL_ASYNC) - EPS && lim.makespan >= full.makespan - EPS &&
            book_plan(c, MODEL_ASYNC, &lim) == lim.makespan &&
            (lim.status == OPT_GAVE_UP ? lim.explored <= 10 : lim.makespan == lim.lower))
            valid++;
        else
            diag("case %d: status %d lower %g makespan %g, optimum %g", it, lim.status, lim.lower,
                 lim.makespan, full.makespan);
        opt_plan_free(&lim);
        opt_plan_free(&full);
        cluster_free(c);
    }
    ok(gave_up > 0, "node_limit 10 on 12- and 24-node clusters gives up (%d of %d)", gave_up, cases);
    is_int(valid, cases, "gave up: lower <= optimum <= best found, and the plan books");

    /* larger node limits: the passes after the first run and finish (they
     * prove "nothing below t" for targets t below the incumbent) */
    int passes = 0, bad = 0, draws = tap_scale(200, 54);   /* small: 54 of the 63 (size, limit) pairs */
    cases = 0;
    for (int it = 0; it < draws; it++) {
        struct cluster *c = random_nodes(&g, 14 + it % 7, 0, false);
        struct sched_opts o;
        sched_opts_default(&o);
        o.node_limit = 20 << (it % 9);
        struct opt_plan lim, full;
        char *cause = NULL;
        if (optimal_solve(c, MODEL_ASYNC, &o, &lim, &cause) < 0 ||
            optimal_solve(c, MODEL_ASYNC, NULL, &full, &cause) < 0) {
            diag("%s", cause);
            free(cause);
            cluster_free(c);
            continue;
        }
        cases++;
        if (lim.status == OPT_GAVE_UP && lim.lower > bound_lower(c, MODEL_ASYNC) + EPS)
            passes++;
        if (!(lim.lower <= full.makespan + EPS && lim.makespan >= full.makespan - EPS &&
              (lim.status == OPT_GAVE_UP || fabs(lim.makespan - full.makespan) <= EPS)) && bad++ < 3)
            diag("case %d: limit %lld: status %d lower %.17g best %.17g, optimum %.17g", it, o.node_limit,
                 lim.status, lim.lower, lim.makespan, full.makespan);
        opt_plan_free(&lim);
        opt_plan_free(&full);
        cluster_free(c);
    }
    ok(passes > 0, "node limits 20..5120: gave up with a lower bound above the trivial one (%d of %d)",
       passes, cases);
    is_int(bad, 0, "node limits 20..5120: lower <= optimum <= best found; proven means optimal");

    /* the time limit: a tiny one on a cluster that needs millions of nodes
     * (the clock is read every 1024 nodes) */
    struct cluster *c = hard_cluster();
    struct sched_opts o;
    sched_opts_default(&o);
    o.time_limit = 1e-9;
    struct opt_plan p;
    char *cause = NULL;
    int rc = optimal_solve(c, MODEL_ASYNC, &o, &p, &cause);
    is_int(rc, 0, "time limit: solve returns a plan");
    if (rc == 0) {
        ok(p.status == OPT_GAVE_UP, "time limit: gave up (%lld nodes, %.3f s)", p.explored, p.seconds);
        ok(p.makespan <= fnf_makespan(c), "time limit: best found %g, no worse than fnf %g", p.makespan,
           fnf_makespan(c));
        ok(p.lower <= p.makespan && p.lower >= bound_lower(c, MODEL_ASYNC) - EPS,
           "time limit: %g <= lower %g <= best %g", bound_lower(c, MODEL_ASYNC), p.lower, p.makespan);
        is_double(book_plan(c, MODEL_ASYNC, &p), p.makespan, 0, "time limit: the plan books");
        opt_plan_free(&p);
    }
    free(cause);
    cluster_free(c);

    /* the scheduler's note when it gives up */
    c = random_nodes(&g, 14, 0, false);
    struct engine e;
    struct sched sc;
    o.time_limit = 0;
    o.node_limit = 5;
    cause = NULL;
    engine_init(&e, c, MODEL_ASYNC, &cause);
    sched_init(&sc, &sched_optimal, &o);
    rc = sched_run(&e, &sc, &cause);
    is_int(rc, 0, "sched_run with a node limit still schedules");
    if (sc.status == OPT_GAVE_UP)
        ok(strncmp(sc.note, "gave up", 7) == 0 && sc.bound <= e.makespan, "note: %s", sc.note);
    else
        ok(sc.bound == e.makespan, "proven within 5 nodes: %s", sc.note);
    sched_free(&sc);
    engine_free(&e);
    free(cause);
    cluster_free(c);
}

/* optimal_solve under async with a node limit of 1: the first incumbent. */
static bool first_incumbent(const struct cluster *c, struct opt_plan *p)
{
    struct sched_opts o;
    sched_opts_default(&o);
    o.node_limit = 1;
    char *cause = NULL;
    if (optimal_solve(c, MODEL_ASYNC, &o, p, &cause) < 0) {
        diag("%s", cause);
        free(cause);
        return false;
    }
    return true;
}

/* The incumbent before any search node: a local search over receiver orders
 * from fnf's and slowest-first's.  It is a real schedule (it books to its
 * makespan), never worse than fnf, and on random 24-node tables better than
 * fnf on most. */
static void test_incumbent(void)
{
    struct rng g;
    rng_seed(&g, 11);
    int better = 0, sound = 0, cases = 12;
    for (int it = 0; it < cases; it++) {
        struct cluster *c = random_nodes(&g, 24, 0, false);
        struct opt_plan p;
        if (!first_incumbent(c, &p)) {
            cluster_free(c);
            continue;
        }
        double f = fnf_makespan(c);
        if (p.makespan < f - EPS)
            better++;
        if (p.makespan <= f + EPS && book_plan(c, MODEL_ASYNC, &p) == p.makespan && p.lower <= p.makespan)
            sound++;
        else
            diag("case %d: incumbent %g, fnf %g, booked %g", it, p.makespan, f,
                 book_plan(c, MODEL_ASYNC, &p));
        opt_plan_free(&p);
        cluster_free(c);
    }
    is_int(sound, cases, "the first incumbent books to its makespan and is no worse than fnf");
    ok(better >= cases / 2, "the local search beats fnf before any search node (%d of %d)", better, cases);
}

/*
 * The iterated local search (as_improve) alone, before any search node, on
 * tables of more than 8 classes: its schedule is never below the brute
 * force's optimum and books to its makespan, and it is the optimum on
 * most (a plain descent from fnf's order: 22 of these 30).  Then what it
 * gives the search: a 34-node table that the search from a plain descent
 * proves after 105 136 search nodes is proven within 10 000 (887).
 */
static void test_incumbent_vs_brute(void)
{
    struct rng g;
    rng_seed(&g, 23);
    int below = 0, equal = 0, cases = 30;
    for (int it = 0; it < cases; it++) {
        struct cluster *c = tenths_table(&g, it % 3 == 0 ? 11 : 10, it % 2 == 0, it % 5 == 0 ? 0.5 : 0);
        struct opt_plan p;
        if (!first_incumbent(c, &p)) {
            cluster_free(c);
            continue;
        }
        double want = brute_orders(c);
        if (p.makespan < want - EPS || book_plan(c, MODEL_ASYNC, &p) != p.makespan || p.lower > want + EPS) {
            if (below++ < 3)
                diag("case %d: incumbent %g, lower %g, booked %g, brute force %g", it, p.makespan, p.lower,
                     book_plan(c, MODEL_ASYNC, &p), want);
        } else if (p.makespan <= want + EPS)
            equal++;
        opt_plan_free(&p);
        cluster_free(c);
    }
    is_int(below, 0, "10-11 nodes, node limit 1: the incumbent books to its makespan, not below the optimum");
    ok(equal >= cases * 9 / 10, "the iterated local search finds the brute force's optimum on %d of %d", equal,
       cases);
    rng_seed(&g, 11);
    proven_within(tenths_table(&g, 34, true, 0), MODEL_ASYNC, "34 nodes, one class a node");
}

static void test_refusals(void)
{
    struct rng g;
    rng_seed(&g, 9);
    struct cluster *c = random_nodes(&g, 12, 0, false);
    struct sched_opts o;
    sched_opts_default(&o);
    o.max_nodes = 10;
    struct opt_plan p;
    char *cause = NULL;
    is_int(optimal_solve(c, MODEL_ASYNC, &o, &p, &cause), -1, "12 distinct nodes, max_nodes 10: refused");
    ok(cause && strstr(cause, "beyond the exact search") && strstr(cause, "fnf"), "says why: %s",
       cause ? cause : "(none)");
    free(cause);
    cause = NULL;
    is_int(optimal_solve(c, MODEL_SYNC, &o, &p, &cause), -1, "the same under sync: refused");
    ok(cause && strstr(cause, "12 nodes"), "names the size: %s", cause ? cause : "(none)");
    free(cause);
    cluster_free(c);

    /* beyond max_nodes but with two classes: accepted and solved */
    double s[100], r[100];
    for (int i = 0; i < 100; i++) {
        s[i] = i % 3 ? 1 : 3;
        r[i] = i % 3 ? 2 : 7;
    }
    c = node_table(100, s, r, 1, 0);
    cause = NULL;
    int rc = optimal_solve(c, MODEL_ASYNC, NULL, &p, &cause);
    is_int(rc, 0, "100 nodes in 2 classes: accepted");
    if (rc == 0) {
        ok(p.status == OPT_PROVEN, "100 nodes in 2 classes: proven (%lld nodes, %.2f s), makespan %g",
           p.explored, p.seconds, p.makespan);
        ok(p.makespan <= fnf_makespan(c), "no worse than fnf (%g)", fnf_makespan(c));
        is_double(book_plan(c, MODEL_ASYNC, &p), p.makespan, 0, "100 nodes: the plan books");
        opt_plan_free(&p);
    } else {
        diag("%s", cause);
    }
    free(cause);
    cluster_free(c);
}

static void test_small_cases(void)
{
    const double one_s[1] = {3}, one_r[1] = {4};
    struct cluster *c = node_table(1, one_s, one_r, 1, 0);
    struct opt_plan p;
    is_double(solve(c, MODEL_ASYNC, &p), 0, 0, "one node: makespan 0");
    is_int(p.len, 0, "one node: no decisions");
    is_int(p.status, OPT_PROVEN, "one node: proven");
    opt_plan_free(&p);
    is_double(solve(c, MODEL_SYNC, &p), 0, 0, "one node, sync: makespan 0");
    opt_plan_free(&p);
    cluster_free(c);

    const double two_s[2] = {2, 5}, two_r[2] = {1, 3};
    c = node_table(2, two_s, two_r, 0.5, 0);
    is_double(solve(c, MODEL_ASYNC, &p), 5.5, 0, "two nodes: s + L + r");
    opt_plan_free(&p);
    is_double(solve(c, MODEL_SENDER_ONLY, &p), 2, 0, "two nodes, sender-only: s");
    opt_plan_free(&p);
    cluster_free(c);

    /* from the other end: source p1 */
    c = node_table(2, two_s, two_r, 0.5, 1);
    is_double(solve(c, MODEL_ASYNC, &p), 6.5, 0, "two nodes, source p1: 5 + 0.5 + 1");
    is_int(p.from[0], 1, "source p1 sends");
    opt_plan_free(&p);
    cluster_free(c);

    const double zs[6] = {0, 0, 0, 0, 0, 0}, zr[6] = {0, 0, 0, 0, 0, 0};
    c = node_table(6, zs, zr, 0, 0);
    for (int m = 0; m < MODEL_COUNT; m++) {
        if (!(model_mask_for(c->kind) & MODEL_BIT(m)))
            continue;   /* one-port-uni: platform graphs only */
        is_double(solve(c, (enum model)m, &p), 0, 0, "zero costs, %s: makespan 0", model_name((enum model)m));
        is_int(p.status, OPT_PROVEN, "zero costs, %s: proven", model_name((enum model)m));
        is_double(book_plan(c, (enum model)m, &p), 0, 0, "zero costs, %s: books", model_name((enum model)m));
        opt_plan_free(&p);
    }
    cluster_free(c);

    /* zero send time with latency: the source serves everyone at once */
    const double z2s[4] = {0, 1, 1, 1}, z2r[4] = {1, 1, 2, 3};
    c = node_table(4, z2s, z2r, 1, 0);
    is_double(solve(c, MODEL_ASYNC, &p), 4, 0, "s(source)=0: everyone at 0 + 1 + r, max 4");
    opt_plan_free(&p);
    cluster_free(c);
}

/*
 * The dominance table (as_search): a state whose receivers waiting are
 * those of a state already bounded, and whose slots are each no earlier,
 * is bounded by it.  On 8-10-node tables of tenths (exact arithmetic, many
 * classes, equal slots common), under async and sender-only (async with r
 * = 0 and no latency for the brute force), with node limits that stop the
 * search midway (10 to 300) and none: every proof is the brute force's
 * optimum, every give-up brackets it.  A bound made 1 % too strong fails
 * here.
 */
static void test_dominance_vs_brute(void)
{
    static const long long limits[] = {10, 30, 100, 300, 0};
    struct rng g;
    rng_seed(&g, 37);
    int bad = 0, proven = 0, searches = 0;
    for (int it = 0; it < 120; it++) {
        int n = 8 + it % 3;
        bool sender_only = it % 4 == 3;
        double s[64], r[64], zero[64] = {0};
        for (int i = 0; i < n; i++) {
            s[i] = (double)(10 + rng_below(&g, 41)) / 10;
            r[i] = it % 2 ? s[i] + 1 : (double)(10 + rng_below(&g, 41)) / 10;
        }
        double latency = it % 3 == 1 ? 0.5 : 0;
        struct cluster *c = node_table(n, s, r, latency, 0);
        struct cluster *bf = sender_only ? node_table(n, s, zero, 0, 0) : NULL;
        double want = brute_orders(bf ? bf : c);
        for (size_t li = 0; li < sizeof limits / sizeof limits[0]; li++) {
            struct sched_opts o;
            sched_opts_default(&o);
            o.node_limit = limits[li];
            o.time_limit = 1e9;
            struct opt_plan p;
            char *cause = NULL;
            if (optimal_solve(c, sender_only ? MODEL_SENDER_ONLY : MODEL_ASYNC, &o, &p, &cause) < 0) {
                diag("%s", cause);
                free(cause);
                bad++;
                continue;
            }
            searches++;
            proven += p.status == OPT_PROVEN;
            bool wrong = p.status == OPT_PROVEN ? fabs(p.makespan - want) > EPS * fmax(1, want)
                                                : p.lower > want + EPS || p.makespan < want - EPS;
            if (wrong && bad++ < 3)
                diag("case %d (n=%d, %s, limit %lld): lower %.17g, best %.17g, brute force %.17g", it, n,
                     sender_only ? "sender-only" : "async", limits[li], p.lower, p.makespan, want);
            opt_plan_free(&p);
        }
        cluster_free(bf);
        cluster_free(c);
    }
    is_int(bad, 0, "8-10 nodes of tenths, async and sender-only, node limits 10 to 300 and none: every proof the "
           "brute force's optimum, every give-up brackets it (%d searches, %d proven)", searches, proven);
}

/* A set cancel flag (the view's q) stops the search at its next clock check:
 * no plan, "cancelled". */
static void test_cancel(void)
{
    struct cluster *c = hard_cluster();
    struct sched_opts o;
    sched_opts_default(&o);
    o.time_limit = 60;
    volatile sig_atomic_t flag = 1;
    o.cancel = &flag;
    struct opt_plan p;
    char *cause = NULL;
    int rc = optimal_solve(c, MODEL_ASYNC, &o, &p, &cause);
    ok(rc < 0 && cause && strcmp(cause, SCHED_CANCELLED_TEXT) == 0,
       "a cancelled search fails with \"cancelled\" (got %s)", cause ? cause : "a plan");
    if (rc == 0)
        opt_plan_free(&p);
    free(cause);
    cluster_free(c);
}

int main(void)
{
    test_cancel();
    test_counterexample();
    test_small_cases();
    test_orders_vs_brute();
    test_large_classes_vs_brute();
    test_class_sequences_vs_brute();
    test_many_classes_vs_brute();
    test_exact_vs_inexact();
    test_general_search();
    test_general_counts();
    test_models_vs_brute();
    test_six_nodes_vs_brute();
    test_graphs_vs_brute();
    test_fnf_guarantee();
    test_engine_run();
    test_limits();
    test_incumbent();
    test_incumbent_vs_brute();
    test_dominance_vs_brute();
    test_refusals();
    return tap_exit();
}
