/*
 * test_segment.c - the segmented broadcasts MPI libraries choose from
 * (src/sched/segment.c, src/sched/mpibcast.c, the trees of src/sched/trees.c
 * with --slices K): cases worked by hand, the two trees' shapes, one
 * segment against the one-message trees, the timing rule on random
 * clusters of every model, and the K-segment lower bound.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "engine/engine.h"
#include "session/run.h"
#include "sched/mpibcast.h"
#include "sched/registry.h"
#include "sched/segment.h"
#include "sched/trees.h"
#include "support/rng.h"
#include "random_cluster.h"
#include "tap.h"

/* A node table p0.. with the given s and r, latency L, source p0. */
static struct cluster *table(int n, const double *s, const double *r, double L)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        cluster_add_node(c, name, s[i], r[i]);
    }
    c->latency = L;
    struct diag d;
    diag_init(&d);
    if (cluster_finish(c, &d) < 0)
        diag_print(&d, stdout);
    diag_free(&d);
    return c;
}

static int run(struct run *r, const struct cluster *c, enum model m, const struct sched_ops *ops,
               int slices)
{
    struct sched_opts o;
    sched_opts_default(&o);
    o.slices = slices;
    char *cause = NULL;
    int rc = run_schedule(r, c, m, ops, &o, RUN_OPT_NEVER, &cause);
    if (rc < 0) {
        diag("%s: %s", ops->name, cause);
        free(cause);
    }
    return rc;
}

/* When node p holds segment k (p0 is node 0). */
static double hold(const struct run *r, int p, int k)
{
    return engine_hold_time(&r->eng, p, k);
}

/* Does every node of 4 hold every one of 4 segments when want says? */
static bool holds_as(const struct run *r, const double want[4][4])
{
    bool same = true;
    for (int p = 1; p < 4; p++)
        for (int k = 0; k < 4; k++) {
            if (hold(r, p, k) != want[p][k])
                diag("p%d holds %d at %g, not %g", p, k, hold(r, p, k), want[p][k]);
            same = same && hold(r, p, k) == want[p][k];
        }
    return same;
}

static void test_hand(void)
{
    /* Liu, Wang & Guo's three nodes: p0, p1 s=1 r=2; p2 s=2 r=3; L=1; async. */
    static const double s3[] = {1, 1, 2}, r3[] = {2, 2, 3};
    struct cluster *c = table(3, s3, r3, 1);
    struct run r;
    /*
     * two-tree, 4 segments.  The m = 2 other ranks: T1 in order has its root
     * at position 1 (rank 2, p2) over position 0 (p1); m is even, so T2 is
     * T1 mirrored: root p1 over p2.  The source sends segments 0, 2 to p2
     * and 1, 3 to p1, starting at 0, 1, 2, 3 (s = 1):
     *   seg0 -> p2: arrives 2, received [2,5)   p2 holds 0 at 5
     *   seg1 -> p1: arrives 3, received [3,5)   p1 holds 1 at 5
     *   seg2 -> p2: arrives 4, waits for p2's port: [5,8)  p2 holds 2 at 8
     *   seg3 -> p1: arrives 5, received [5,7)   p1 holds 3 at 7
     * p2 passes 0 at 5 (s = 2: arrives 8, p1 receives [8,10): 10) and 2 at 8
     * (arrives 11, [11,13): 13); p1 passes 1 at 5 (arrives 7, p2's port is
     * busy to 8: [8,11): 11) and 3 at 7 (arrives 9, after 11: [11,14): 14).
     * These are the orders of the paper's steps (colours: p0->p2 and p2->p1
     * 0, p0->p1 and p1->p2 1): p0 sends 0, 1, 2, 3 in steps 0 to 3, p2
     * passes 0 and 2 in steps 2 and 4, p1 passes 1 and 3 in steps 3 and 5.
     */
    if (run(&r, c, MODEL_ASYNC, &sched_two_tree, 4) == 0) {
        is_double(r.eng.makespan, 14, 1e-12, "two-tree, 4 segments: makespan 14 by hand");
        double want[3][4] = {{0, 0, 0, 0}, {10, 5, 13, 7}, {5, 11, 8, 14}};
        bool same = true;
        for (int p = 1; p < 3; p++)
            for (int k = 0; k < 4; k++)
                same = same && hold(&r, p, k) == want[p][k];
        ok(same, "two-tree: every hold time as worked by hand");
        is_int(r.sched.segments, 4, "two-tree: 4 segments noted");
        /* The view's narration calls them segments (a platform graph's
         * pipelined runs call theirs slices). */
        if (!r.eng.ev)
            engine_timeline(&r.eng);
        char said[512];
        engine_narrate(&r.eng, 0, said, sizeof said);
        ok(strstr(said, "segment 1") && !strstr(said, "slice"), "the narration says segment: %s",
           said);
        /* The bound: p2 receives 4 segments of r = 3 each, the first no
         * earlier than s(p0) + L = 2: 2 + 12 = 14; the schedule meets it. */
        is_double(r.lower_bound, 14, 1e-12, "the 4-segment lower bound is 14 (p2's receives)");
        run_free(&r);
    }
    /* The pipelined chain, 3 segments: p0 sends at 0, 1, 2 (arrivals 2, 3,
     * 4); p1's receive port takes r = 2 a segment: [2,4), [4,6), [6,8), so
     * p1 holds them at 4, 6, 8 and passes each on at once (s = 1: arrivals
     * 6, 8, 10); p2's port takes r = 3: [6,9), [9,12), [12,15). */
    if (run(&r, c, MODEL_ASYNC, &sched_chain, 3) == 0) {
        is_double(r.eng.makespan, 15, 1e-12, "pipelined chain, 3 segments: makespan 15 by hand");
        ok(hold(&r, 1, 0) == 4 && hold(&r, 1, 1) == 6 && hold(&r, 1, 2) == 8 &&
               hold(&r, 2, 0) == 9 && hold(&r, 2, 1) == 12, "pipelined chain: the holds by hand");
        run_free(&r);
    }
    cluster_free(c);

    /*
     * two-tree in the paper's steps: 4 nodes with s = L = r = 1 (c = 3),
     * one-port, 4 segments (T1 carries 0, 2; T2 1, 3).  m = 3 positions,
     * position i is p(i+1).  T1 in order: root p2 over p1 and p3; m is odd,
     * so T2 is T1 shifted: root p3 over p2 (left) and p1 (right).  The
     * colouring (twotree_colour) walks the one cycle from the source's edge
     * into T1, colour 0: p0->p2 0, p3->p2 1, p3->p1 0, p2->p1 1, p2->p3 0,
     * p0->p3 1.  Step j runs the edges of colour j mod 2, each carrying the
     * next segment of its tree that its sender held before the step:
     *   step 0: p0->p2 0
     *   step 1: p0->p3 1, p2->p1 0
     *   step 2: p0->p2 2, p2->p3 0, p3->p1 1
     *   step 3: p0->p3 3, p2->p1 2, p3->p2 1
     *   step 4: p2->p3 2, p3->p1 3
     *   step 5: p3->p2 3
     * so p3 passes segment 1 to p1 before p2 (the greedy order of the trees,
     * left child first, sent it to p2 first, where it waited for p2's
     * receive port, busy with segment 2 from p0).  In one-port a transfer
     * holds both ports for c = 3; booked as early as the ports allow in
     * these orders, step j runs in [3j, 3j + 3): makespan 18 = (K + 2) c.
     */
    static const double s4[] = {1, 1, 1, 1}, r4[] = {1, 1, 1, 1};
    c = table(4, s4, r4, 1);
    if (run(&r, c, MODEL_ONE_PORT, &sched_two_tree, 4) == 0) {
        is_double(r.eng.makespan, 18, 1e-12, "two-tree, 4 ranks, 4 segments, one-port: 6 steps of "
                                             "c = 3 by hand");
        static const double want[4][4] = {{0, 0, 0, 0}, {6, 9, 12, 15}, {3, 12, 9, 18},
                                          {9, 6, 15, 12}};
        ok(holds_as(&r, want), "two-tree in steps: every hold time as worked by hand");
        run_free(&r);
    }
    cluster_free(c);

    /*
     * scatter-allgather, 4 nodes with s = r = 1, L = 0, 4 segments: piece r
     * is segment r.  Scatter: p0 sends 2, 3 to p2 (its subtree, ranks 2-3),
     * then 1 to p1; p2 passes 3 to p3.  Ring: p0 -> p1 the pieces 0, 3, 2;
     * p1 -> p2 the pieces 1, 0 (p2 holds 3 from the scatter); p2 -> p3 the
     * pieces 2, 1, 0; p3 -> p0 nothing.  p0's sends start 0..5, each held
     * 2 later: p2 holds 2 at 2, 3 at 3; p1 holds 1 at 4, 0 at 5, 3 at 6,
     * 2 at 7.  p2 sends 3 at 3 (p3: 5), 2 at 4 (p3: 6); p1 sends 1 at 4 (p2:
     * 6) and 0 at 5 (p2: 7); p2 sends 1 at 6 (p3: 8) and 0 at 7 (p3: 9).
     */
    c = table(4, s4, r4, 0);
    if (run(&r, c, MODEL_ASYNC, &sched_scatter_allgather, 4) == 0) {
        is_double(r.eng.makespan, 9, 1e-12, "scatter-allgather, 4 nodes, 4 segments: makespan 9 by hand");
        static const double want[4][4] = {{0, 0, 0, 0}, {5, 4, 7, 6}, {7, 6, 2, 3}, {9, 8, 6, 5}};
        ok(holds_as(&r, want), "scatter-allgather: every hold time as worked by hand");
        is_int(r.eng.ntr, 12, "scatter-allgather: 12 transfers, each node gets each segment once");
        run_free(&r);
    }
    /*
     * scatter-rdb on the same 4 nodes (a power of two): the same scatter,
     * then recursive doubling.  Step 1 (mask 1): p0 -> p1 piece 0 (p1 -> p0
     * left out: the source holds all), p2 -> p3 piece 2 (p3 -> p2 left out:
     * p2 holds piece 3 from the scatter).  Step 2 (mask 2): p0 -> p2 pieces
     * 0, 1; p1 -> p3 pieces 0, 1; p3 -> p1 pieces 2, 3 (p2 -> p0 left out).
     * p0 sends 2, 3, 1 (scatter), 0 (step 1), 0, 1 (step 2) at 0..5: p2
     * holds 2 at 2, 3 at 3, 0 at 6, 1 at 7; p1 holds 1 at 4, 0 at 5.  p2
     * sends 3 at 3 (p3: 5), then 2 at 4 (p3: 6).  p1 sends 0 at 5 (p3's
     * port free at 6: 7), 1 at 6 (p3: 8).  p3 sends 2 at 6 (p1: 8), 3 at 7
     * (p1: 9).  Makespan 9, 12 transfers, p1 gets 2 and 3 later than from
     * the ring (8, 9 against 7, 6).
     */
    int rc = run(&r, c, MODEL_ASYNC, &sched_scatter_rdb, 4);
    is_int(rc, 0, "scatter-rdb, 4 nodes, 4 segments: runs");
    if (rc == 0) {
        is_double(r.eng.makespan, 9, 1e-12, "scatter-rdb, 4 nodes, 4 segments: makespan 9 by hand");
        static const double want[4][4] = {{0, 0, 0, 0}, {5, 4, 8, 9}, {6, 7, 2, 3}, {7, 8, 6, 5}};
        ok(holds_as(&r, want), "scatter-rdb: every hold time as worked by hand");
        is_int(r.eng.ntr, 12, "scatter-rdb: 12 transfers, each node gets each segment once");
        bool partners = true;
        for (int i = 0; i < r.eng.ntr; i++) {
            const struct transfer *x = &r.eng.tr[i];
            bool scatter = x->from == 0 ? x->to != 1 || x->msg == 1 : x->from == 2 && x->msg == 3;
            int mask = x->from ^ x->to;
            if (!scatter && mask != 1 && mask != 2)
                partners = false;
        }
        ok(partners, "scatter-rdb: past the scatter, every send goes to the rank XOR 1 or XOR 2");
        run_free(&r);
    }
    cluster_free(c);
}

static bool same_transfers(const struct run *a, const struct run *b);

/* scatter-rdb on 8 ranks, and on 6 (no power of two: the ring, as MPICH). */
static void test_rdb_sizes(void)
{
    static const double s8[] = {1, 2, 1, 3, 1, 2, 2, 1}, r8[] = {2, 1, 3, 1, 2, 2, 1, 3};
    struct cluster *c = table(8, s8, r8, 0.5);
    struct run r, ring;
    int rc;
    for (int k = 1; k <= 20; k++) {
        if (run(&r, c, MODEL_ASYNC, &sched_scatter_rdb, k) < 0) {
            ok(false, "scatter-rdb on 8 ranks, %d segments: runs", k);
            continue;
        }
        bool once = r.eng.ntr == 7 * k && r.eng.nmsg == k;
        for (int p = 0; p < 8; p++)
            for (int j = 0; j < k; j++)
                once = once && engine_holds(&r.eng, p, j);
        if (!once || k % 7 == 3)
            ok(once, "scatter-rdb on 8 ranks, %d segments: %d transfers, every rank holds every "
                     "segment", k, r.eng.ntr);
        run_free(&r);
    }
    cluster_free(c);
    c = table(6, s8, r8, 0.5);
    rc = run(&r, c, MODEL_SYNC, &sched_scatter_rdb, 9);
    is_int(rc, 0, "scatter-rdb on 6 ranks: runs");
    if (rc == 0) {
        if (run(&ring, c, MODEL_SYNC, &sched_scatter_allgather, 9) == 0) {
            ok(same_transfers(&r, &ring), "scatter-rdb on 6 ranks: scatter-allgather's transfers");
            ok(strstr(r.sched.note, "no power of two, so the ring allgather") != NULL,
               "and its note says so: %s", r.sched.note);
            run_free(&ring);
        }
        run_free(&r);
    }
    cluster_free(c);
}

static void test_two_tree_shape(void)
{
    bool good = true;
    for (int m = 1; m <= 70 && good; m++) {
        int *par[2], *l[2], *r[2], root[2];
        for (int t = 0; t < 2; t++) {
            par[t] = malloc((size_t)m * sizeof(int));
            l[t] = malloc((size_t)m * sizeof(int));
            r[t] = malloc((size_t)m * sizeof(int));
            root[t] = twotree_build(m, t, par[t], l[t], r[t]);
            /* a tree: one root, children name their parent, all reach it */
            for (int i = 0; i < m; i++) {
                if ((i == root[t]) != (par[t][i] < 0))
                    { good = false; diag("m=%d T%d: position %d's parent %d", m, t + 1, i, par[t][i]); }
                if ((l[t][i] >= 0 && par[t][l[t][i]] != i) || (r[t][i] >= 0 && par[t][r[t][i]] != i))
                    { good = false; diag("m=%d T%d: %d's children disown it", m, t + 1, i); }
                int hops = 0;
                for (int v = i; v != root[t] && hops <= m; v = par[t][v])
                    hops++;
                if (hops > m)
                    { good = false; diag("m=%d T%d: %d does not reach the root", m, t + 1, i); }
            }
        }
        for (int i = 0; i < m && m > 1; i++) {
            bool in1 = l[0][i] >= 0 || r[0][i] >= 0, in2 = l[1][i] >= 0 || r[1][i] >= 0;
            if (in1 && in2)
                { good = false; diag("m=%d: position %d is inner in both trees", m, i); }
            if (in1 != (i % 2 == 1))
                { good = false; diag("m=%d: T1's position %d is %s", m, i, in1 ? "inner" : "a leaf"); }
        }
        for (int t = 0; t < 2; t++)
            free(par[t]), free(l[t]), free(r[t]);
    }
    ok(good, "two trees on 1 to 70 ranks: each a tree, T1's inner nodes at odd positions, "
             "no rank inner in both");
}

/* The paper's colouring on 1 to 200 ranks: a position's two in-edges differ,
 * and so do a sender's two out-edges; the source's edge into T1 is 0. */
static void test_two_tree_colour(void)
{
    bool good = true;
    for (int m = 1; m <= 200 && good; m++) {
        int *par[2], *l[2], *r[2], root[2];
        unsigned char *col = malloc((size_t)(2 * m));
        for (int t = 0; t < 2; t++) {
            par[t] = malloc((size_t)m * sizeof(int));
            l[t] = malloc((size_t)m * sizeof(int));
            r[t] = malloc((size_t)m * sizeof(int));
            root[t] = twotree_build(m, t, par[t], l[t], r[t]);
        }
        twotree_colour(m, par, l, r, root, col);
        if (col[root[0]] != 0 || col[m + root[1]] != 1)
            { good = false; diag("m=%d: the source's edges coloured %d, %d", m, col[root[0]], col[m + root[1]]); }
        for (int i = 0; i < m; i++) {
            if (col[i] > 1 || col[m + i] > 1 || col[i] == col[m + i])
                { good = false; diag("m=%d: position %d's in-edges coloured %d, %d", m, i, col[i], col[m + i]); }
            for (int t = 0; t < 2; t++)
                if (l[t][i] >= 0 && r[t][i] >= 0 && col[t * m + l[t][i]] == col[t * m + r[t][i]])
                    { good = false; diag("m=%d: position %d's out-edges in T%d alike", m, i, t + 1); }
        }
        for (int t = 0; t < 2; t++)
            free(par[t]), free(l[t]), free(r[t]);
        free(col);
    }
    ok(good, "the two trees' colouring on 1 to 200 other ranks: each rank's in-edges differ, "
             "its out-edges differ, the source's too");
}

/* In the paper's steps on homogeneous one-port tables (s = L = r = 1):
 * every rank gets every segment once, in at most K + 2 ceil(log2 n) steps
 * of c = 3 (the rule of docs/reproduction.md, run Q). */
static void test_two_tree_steps(void)
{
    static const double one[40] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                   1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    int runs = 0, once = 0, within = 0;
    for (int n = 2; n <= 40; n++) {
        struct cluster *c = table(n, one, one, 1);
        int lg = 0;
        while ((1 << lg) < n)
            lg++;
        for (int k = 1; k <= 24; k += 1 + (n > 12)) {
            struct run r;
            if (run(&r, c, MODEL_ONE_PORT, &sched_two_tree, k) < 0)
                continue;
            runs++;
            bool all = r.eng.ntr == k * (n - 1);
            for (int p = 0; p < n; p++)
                for (int j = 0; j < k; j++)
                    all = all && engine_holds(&r.eng, p, j);
            once += all;
            if (r.eng.makespan <= 3.0 * (k + 2 * lg) + 1e-9)
                within++;
            else
                diag("n=%d K=%d: makespan %g, more than (K + 2 ceil(log2 n)) c = %d", n, k,
                     r.eng.makespan, 3 * (k + 2 * lg));
            run_free(&r);
        }
        cluster_free(c);
    }
    ok(runs == 600, "two-tree on %d homogeneous one-port tables, 2 to 40 ranks, 1 to 24 segments", runs);
    is_int(once, runs, "every rank gets every segment, K (n - 1) transfers in all");
    is_int(within, runs, "every run within (K + 2 ceil(log2 n)) c");
}

/* The transfers of two runs, booking by booking. */
static bool same_transfers(const struct run *a, const struct run *b)
{
    if (a->eng.ntr != b->eng.ntr || a->eng.makespan != b->eng.makespan)
        return false;
    for (int i = 0; i < a->eng.ntr; i++) {
        const struct transfer *x = &a->eng.tr[i], *y = &b->eng.tr[i];
        if (x->from != y->from || x->to != y->to || x->start != y->start || x->hold != y->hold)
            return false;
    }
    return true;
}

/* The engine's rule on a segmented run: each node gets each segment once,
 * sends only what it holds, and its sends (receives) never overlap. */
static bool timing_respected(const struct run *r, const char **why)
{
    const struct engine *e = &r->eng;
    int n = e->n;
    for (int k = 0; k < e->nmsg; k++)
        for (int p = 0; p < n; p++)
            if (!engine_holds(e, p, k))
                return *why = "a node never holds a segment", false;
    for (int i = 0; i < e->ntr; i++) {
        const struct transfer *x = &e->tr[i];
        if (x->start < engine_hold_time(e, x->from, x->msg))
            return *why = "a segment sent before its sender holds it", false;
        if (i > 0 && x->start < e->tr[i - 1].start)
            return *why = "the transfers are not in time order", false;
        for (int j = 0; j < e->ntr; j++) {
            const struct transfer *y = &e->tr[j];
            if (i == j)
                continue;
            /* intervals [a, b) and [c, d) meet when max(a, c) < min(b, d) (an
             * empty one, a transfer of cost 0, meets none) */
            if (x->from == y->from && fmax(x->start, y->start) < fmin(x->free, y->free))
                return *why = "two sends of one node overlap", false;
            if (timing_holds_recv_port(e->model) && x->to == y->to &&
                fmax(x->recv_start, y->recv_start) < fmin(x->recv_end, y->recv_end))
                return *why = "two receives of one node overlap", false;
        }
    }
    return true;
}

static void test_random(void)
{
    static const struct sched_ops *const algos[] = {&sched_chain, &sched_binomial, &sched_knomial,
                                                    &sched_scatter_allgather, &sched_scatter_rdb,
                                                    &sched_two_tree};
    struct rng g;
    rng_seed(&g, 32);
    int runs = 0, one_same = 0, one_runs = 0, rule_ok = 0, bound_ok = 0;
    for (int it = 0; it < 40; it++) {
        enum cluster_kind kind = it % 2 ? CLUSTER_MATRIX : CLUSTER_NODES;
        int n = 2 + (int)rng_below(&g, 9);
        struct cluster *c = random_cluster(&g, kind, n);
        if (!c)
            continue;
        for (int m = 0; m < MODEL_COUNT; m++) {
            if (!(model_mask_for(kind) & MODEL_BIT(m)))
                continue;
            for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
                struct run r1, r0;
                /* One segment is the one-message tree (chain for scatter-allgather). */
                bool sa = algos[a] == &sched_scatter_allgather ||
                          (algos[a] == &sched_scatter_rdb && !rdb_applies(n));
                const struct sched_ops *plain = sa ? &sched_chain : algos[a];
                if (algos[a] != &sched_two_tree && (sa || algos[a] != &sched_scatter_rdb) && run(&r1, c, (enum model)m, algos[a], 1) == 0) {
                    if (run(&r0, c, (enum model)m, plain, 0) == 0) {
                        one_runs++;
                        one_same += same_transfers(&r1, &r0);
                        run_free(&r0);
                    }
                    run_free(&r1);
                }
                int k = 2 + (int)rng_below(&g, 6);
                if (run(&r1, c, (enum model)m, algos[a], k) < 0)
                    continue;
                runs++;
                const char *why = NULL;
                if (timing_respected(&r1, &why) && r1.eng.nmsg == k && r1.eng.ntr == k * (n - 1))
                    rule_ok++;
                else
                    diag("%s on %d nodes, %s, %d segments: %s", algos[a]->name, n,
                         model_name((enum model)m), k, why ? why : "not k (n - 1) transfers");
                if (r1.eng.makespan >= r1.lower_bound - 1e-9)
                    bound_ok++;
                else
                    diag("%s: makespan %g below the bound %g", algos[a]->name, r1.eng.makespan,
                         r1.lower_bound);
                run_free(&r1);
            }
        }
        cluster_free(c);
    }
    ok(runs > 500, "%d segmented runs on random node tables and matrices, every model", runs);
    is_int(rule_ok, runs, "every run: each node gets each segment once, sends only what it "
                          "holds, no port runs two transfers at once");
    is_int(bound_ok, runs, "no run beats the K-segment lower bound");
    ok(one_runs > 300, "%d one-segment runs", one_runs);
    is_int(one_same, one_runs, "one segment: the same transfers as the one-message tree "
                               "(scatter-allgather, and scatter-rdb on no power of two: the chain)");
}

static void test_refusals(void)
{
    static const double s3[] = {1, 1, 2}, r3[] = {2, 2, 3};
    struct cluster *c = table(3, s3, r3, 1);
    struct sched_opts o;
    sched_opts_default(&o);
    o.slices = SEG_MAX + 1;
    struct run r;
    char *cause = NULL;
    int rc = run_schedule(&r, c, MODEL_ASYNC, &sched_two_tree, &o, RUN_OPT_NEVER, &cause);
    ok(rc < 0 && cause && strstr(cause, "segments"), "too many segments refused: %s",
       cause ? cause : "(none)");
    free(cause);
    cause = NULL;
    rc = run_schedule(&r, c, MODEL_ASYNC, &sched_chain, &o, RUN_OPT_NEVER, &cause);
    ok(rc < 0 && cause && strstr(cause, "--slices"), "the chain too: %s", cause ? cause : "(none)");
    free(cause);
    cluster_free(c);
}

int main(void)
{
    test_hand();
    test_rdb_sizes();
    test_two_tree_shape();
    test_two_tree_colour();
    test_two_tree_steps();
    test_random();
    test_refusals();
    return tap_exit();
}
