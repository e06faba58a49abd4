/*
 * test_trees.c - Figueira's broadcast trees (src/sched/trees.c) and the LNOW
 * generator of the figueira study: the paper's Table 1 costs and trees,
 * hand-checked trees on 1, 2, 3, 5 and 8 nodes, the tie rules of SPEC §2,
 * spanning trees on many random matrices (every kind, every model), the
 * engine's simulation of each tree, and "tree_cost" in the JSON report.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "engine/engine.h"
#include "model/generate.h"
#include "output/report.h"
#include "support/rng.h"
#include "session/run.h"
#include "sched/registry.h"
#include "tap.h"
#include "sched/trees.h"
#include "sched/list.h"

static const struct sched_ops *const tree_ops[TREE_KIND_COUNT] = {
    &sched_binomial, &sched_depth_first, &sched_breadth_first,
    &sched_balanced_path, &sched_flat, &sched_magpie, &sched_chain, &sched_knomial,
};

/* A latency matrix n0..n(n-1) from a row-major array; source by index. */
static struct cluster *matrix(int n, const double *d, int source)
{
    struct cluster *c = cluster_new(CLUSTER_MATRIX);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        cluster_add_node(c, name, 0, 0);
    }
    c->dist = malloc((size_t)n * (size_t)n * sizeof *c->dist);
    memcpy(c->dist, d, (size_t)n * (size_t)n * sizeof *c->dist);
    if (source > 0)
        cluster_set_str(&c->source_name, c->nodes[source].name);
    struct diag dg;
    diag_init(&dg);
    if (cluster_finish(c, &dg) < 0)
        diag_print(&dg, stdout);
    diag_free(&dg);
    return c;
}

static struct cluster *table1(void)
{
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv("clusters/figueira-table1.csv", &d);
    if (!c)
        diag_print(&d, stdout);
    diag_free(&d);
    return c;
}

/* A node table p0..p(n-1) with zero overheads, latency L, optional group labels. */
static struct cluster *node_table(int n, double latency, const char *const *groups)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        cluster_add_node(c, name, 0, 0);
        if (groups && groups[i])
            cluster_set_group(c, i, groups[i]);
    }
    c->latency = latency;
    struct diag dg;
    diag_init(&dg);
    if (cluster_finish(c, &dg) < 0)
        diag_print(&dg, stdout);
    diag_free(&dg);
    return c;
}

/* Build a tree or say why not. */
static int build(struct tree *t, const struct cluster *c, enum tree_kind k)
{
    char *cause = NULL;
    int rc = tree_build(t, c, k, &cause);
    if (rc < 0)
        diag("tree_build %s: %s", tree_kind_name(k), cause);
    free(cause);
    return rc;
}

static bool same_ints(const int *got, const int *want, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i])
            return false;
    return true;
}

static void show_ints(const char *what, const int *a, int n)
{
    char buf[512];
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof buf - 16; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%d", i ? "," : "", a[i]);
    buf[len] = '\0';
    diag("  %s: {%s}", what, buf);
}

/* The parent of position p > 0: p - 1 in a chain, p without its lowest
 * nonzero base-k digit in a k-nomial tree (k = 2: binomial_parent). */
static int parent_position(enum tree_kind kind, int p)
{
    if (kind == TREE_CHAIN)
        return p - 1;
    if (kind != TREE_KNOMIAL)
        return binomial_parent(p);
    int place = 1;
    while ((p / place) % TREE_KNOMIAL_RADIX == 0)
        place *= TREE_KNOMIAL_RADIX;
    return p - ((p / place) % TREE_KNOMIAL_RADIX) * place;
}

/* The tree's parent array, and optionally the root's serving order. */
static void check_tree(const struct cluster *c, enum tree_kind k, const int *parent,
                       const int *root_kids, int nroot, double cost, const char *label)
{
    struct tree t;
    if (build(&t, c, k) < 0) {
        ok(0, "%s: %s builds", label, tree_kind_name(k));
        tree_free(&t);
        return;
    }
    if (!ok(same_ints(t.parent, parent, c->n), "%s: %s parents", label, tree_kind_name(k))) {
        show_ints("got", t.parent, c->n);
        show_ints("want", parent, c->n);
    }
    if (root_kids) {
        int r = t.root, got = t.first[r + 1] - t.first[r];
        bool same = got == nroot && same_ints(t.kids + t.first[r], root_kids, nroot);
        if (!ok(same, "%s: %s root serves its children in order", label, tree_kind_name(k)))
            show_ints("got", t.kids + t.first[r], got);
    }
    is_double(t.cost, cost, 0, "%s: %s cost %g", label, tree_kind_name(k), cost);
    tree_free(&t);
}

/* ---- the paper's Table 1 ---- */

static void test_table1(void)
{
    struct cluster *c = table1();
    if (!ok(c != NULL, "clusters/figueira-table1.csv loads"))
        return;
    is_int(c->kind, CLUSTER_MATRIX, "Table 1 is a latency matrix");
    is_int(c->n, 8, "Table 1 has 8 nodes");
    /* The file against the paper's Table 1. */
    static const double paper[64] = {
        0, 2, 2, 0, 3, 3, 0, 0, 2, 0, 0, 2, 5, 5, 2, 2, 2, 0, 0, 2, 5, 5, 2, 2,
        0, 2, 2, 0, 3, 3, 0, 0, 3, 5, 5, 3, 0, 0, 3, 3, 3, 5, 5, 3, 0, 0, 3, 3,
        0, 2, 2, 0, 3, 3, 0, 0, 0, 2, 2, 0, 3, 3, 0, 0,
    };
    ok(memcmp(c->dist, paper, sizeof paper) == 0, "the CSV is the paper's Table 1");

    /* Figure 3 (blind), 5 (depth-first), 7 (breadth-first), 9 (balanced-path). */
    const int bin[8] = {-1, 0, 0, 2, 0, 4, 4, 6}, bin_root[3] = {4, 2, 1};
    const int df[8] = {-1, 3, 0, 0, 2, 0, 3, 6}, df_root[3] = {3, 2, 5};
    const int bf[8] = {-1, 3, 3, 0, 6, 1, 0, 0}, bf_root[3] = {3, 6, 7};
    const int bp[8] = {-1, 6, 3, 0, 7, 0, 3, 0}, bp_root[3] = {3, 7, 5};
    const int flat[8] = {-1, 0, 0, 0, 0, 0, 0, 0}, flat_root[7] = {3, 6, 7, 1, 2, 4, 5};
    const int mag[8] = {-1, 0, 1, 0, 0, 4, 0, 6}, mag_root[4] = {1, 4, 6, 3};
    check_tree(c, TREE_BINOMIAL, bin, bin_root, 3, 6, "Table 1");
    check_tree(c, TREE_DEPTH_FIRST, df, df_root, 3, 7, "Table 1");
    check_tree(c, TREE_BREADTH_FIRST, bf, bf_root, 3, 7, "Table 1");
    check_tree(c, TREE_BALANCED_PATH, bp, bp_root, 3, 3, "Table 1");
    check_tree(c, TREE_FLAT, flat, flat_root, 7, 3, "Table 1");
    check_tree(c, TREE_MAGPIE, mag, mag_root, 4, 3, "Table 1");

    /* The heaviest paths the paper names: 0-4-6-7 (Fig. 3), 0-2-4 (Fig. 5). */
    struct tree t;
    build(&t, c, TREE_BINOMIAL);
    ok(t.heavy[0] && t.heavy[4] && t.heavy[6] && t.heavy[7] && !t.heavy[2] && !t.heavy[5],
       "blind tree: heaviest path n0 -> n4 -> n6 -> n7");
    is_int(t.heavy_leaf, 7, "blind tree: the heaviest path ends at n7");
    is_int(t.pos[5], 5, "blind tree: node i at position i");
    tree_free(&t);
    build(&t, c, TREE_DEPTH_FIRST);
    ok(t.heavy[0] && t.heavy[2] && t.heavy[4] && !t.heavy[3], "depth-first: heaviest path n0 -> n2 -> n4");
    is_int(t.pos[3], 4, "depth-first: n3 at position 4");
    is_int(t.node_at[4], 3, "depth-first: node_at[4] is n3");
    is_int(t.ties[3], 3, "depth-first: n3 was one of 3 nodes at distance 0 from n0");
    tree_free(&t);
    build(&t, c, TREE_MAGPIE);
    is_int(t.ngroups, 3, "magpie: 3 groups at distance 0 in Table 1");
    ok(t.group[3] == 0 && t.group[1] == 1 && t.group[2] == 1 && t.group[5] == 2,
       "magpie: groups {n0,n3,n6,n7}, {n1,n2}, {n4,n5}, the closest group first");
    ok(!t.group_labels, "magpie: groups from distance 0, not labels");
    tree_free(&t);

    /* Through the engine: zero send times, so the makespan is the cost. */
    static const double want[TREE_FIGUEIRA_COUNT] = {6, 7, 7, 3, 3, 3};
    for (int k = 0; k < TREE_FIGUEIRA_COUNT; k++) {
        struct run r;
        char *cause = NULL;
        if (run_schedule(&r, c, MODEL_ASYNC, tree_ops[k], NULL, RUN_OPT_NEVER, &cause) < 0) {
            ok(0, "run %s: %s", tree_ops[k]->name, cause);
            free(cause);
            continue;
        }
        ok(r.sched.has_tree_cost, "run %s: has a tree cost", tree_ops[k]->name);
        is_double(r.sched.tree_cost, want[k], 0, "run %s: tree cost %g", tree_ops[k]->name, want[k]);
        is_double(r.eng.makespan, want[k], 0, "run %s: async makespan = tree cost", tree_ops[k]->name);
        ok(tree_of_sched(&r.sched) != NULL, "run %s: the tree is readable", tree_ops[k]->name);
        run_free(&r);
    }

    struct run r;
    run_schedule(&r, c, MODEL_ASYNC, &sched_binomial, NULL, RUN_OPT_NEVER, NULL);
    is_string(r.eng.tr[0].reason, "binomial position 4 (child of position 0); distance 3",
              "binomial: the first decision's reason");
    ok(strstr(r.sched.note, "n0 -> n4 -> n6 -> n7") != NULL, "binomial: the note names the heaviest path");
    run_free(&r);

    c->unit = 35;
    run_schedule(&r, c, MODEL_ASYNC, &sched_balanced_path, NULL, RUN_OPT_NEVER, NULL);
    is_double(r.sched.tree_cost, 105, 0, "balanced-path: tree cost in time = 3 * unit 35");
    is_double(r.eng.makespan, 105, 0, "balanced-path: makespan 105 with unit 35");
    run_free(&r);
    cluster_free(c);
}

/* ---- hand-checked small trees ---- */

/* k-nomial positions: k = 2 is binomial; radix 4 as MPI libraries build it. */
static void test_knomial_positions(void)
{
    int ch[96], cb[32], same = 0, pairs = 0;
    for (int n = 1; n <= 70; n++)
        for (int p = 0; p < n; p++) {
            int k = knomial_children(p, n, 2, ch), kb = binomial_children(p, n, cb);
            pairs++;
            same += k == kb && memcmp(ch, cb, (size_t)k * sizeof *ch) == 0;
        }
    is_int(same, pairs, "knomial radix 2 gives binomial_children at every position of n = 1..70");
    int k = knomial_children(0, 16, 4, ch);
    ok(k == 6 && ch[0] == 4 && ch[1] == 8 && ch[2] == 12 && ch[3] == 1 && ch[4] == 2 && ch[5] == 3,
       "n=16, radix 4: the root serves 4, 8, 12, then 1, 2, 3");
    k = knomial_children(4, 16, 4, ch);
    ok(k == 3 && ch[0] == 5 && ch[1] == 6 && ch[2] == 7, "n=16, radix 4: position 4 serves 5, 6, 7");
    is_int(knomial_children(5, 16, 4, ch), 0, "n=16, radix 4: position 5 is a leaf");
    k = knomial_children(0, 10, 4, ch);
    ok(k == 5 && ch[0] == 4 && ch[1] == 8 && ch[2] == 1, "n=10, radix 4: the root serves 4, 8, 1, 2, 3");
    k = knomial_children(8, 10, 4, ch);
    ok(k == 1 && ch[0] == 9, "n=10, radix 4: position 8 serves only 9 (10, 11 are past the end)");
    /* every position but the root has exactly one parent, for n = 1..200 */
    int bad = 0;
    for (int n = 1; n <= 200; n++) {
        int *parents = calloc((size_t)n, sizeof *parents);
        for (int p = 0; p < n; p++) {
            k = knomial_children(p, n, 4, ch);
            for (int i = 0; i < k; i++)
                parents[ch[i]]++;
        }
        for (int p = 0; p < n; p++)
            bad += parents[p] != (p == 0 ? 0 : 1);
        free(parents);
    }
    is_int(bad, 0, "radix 4, n = 1..200: each position but the root has one parent");
}

static void test_binomial_positions(void)
{
    int ch[32];
    int k = binomial_children(0, 8, ch);
    ok(k == 3 && ch[0] == 4 && ch[1] == 2 && ch[2] == 1, "n=8: position 0 serves 4, 2, 1");
    k = binomial_children(4, 8, ch);
    ok(k == 2 && ch[0] == 6 && ch[1] == 5, "n=8: position 4 serves 6, 5");
    k = binomial_children(6, 8, ch);
    ok(k == 1 && ch[0] == 7, "n=8: position 6 serves 7");
    is_int(binomial_children(5, 8, ch), 0, "n=8: odd positions are leaves");
    k = binomial_children(0, 5, ch);
    ok(k == 3 && ch[0] == 4 && ch[1] == 2 && ch[2] == 1, "n=5: position 0 serves 4, 2, 1");
    is_int(binomial_children(4, 5, ch), 0, "n=5: position 4 is a leaf");
    k = binomial_children(2, 5, ch);
    ok(k == 1 && ch[0] == 3, "n=5: position 2 serves 3");
    is_int(binomial_children(0, 1, ch), 0, "n=1: the root alone");
    k = binomial_children(0, 3, ch);
    ok(k == 2 && ch[0] == 2 && ch[1] == 1, "n=3: position 0 serves 2, 1");
    is_int(binomial_children(8, 8, ch), 0, "a position outside the tree has no children");
    is_int(binomial_parent(0), -1, "position 0 has no parent");
    is_int(binomial_parent(6), 4, "parent of 6 is 4");
    is_int(binomial_parent(7), 6, "parent of 7 is 6");
    is_int(binomial_parent(12), 8, "parent of 12 is 8");
    k = binomial_children(0, 70, ch);
    ok(k == 7 && ch[0] == 64 && ch[6] == 1, "n=70: the root serves 64, 32, ..., 1");
    k = binomial_children(64, 70, ch);
    ok(k == 3 && ch[0] == 68 && ch[1] == 66 && ch[2] == 65, "n=70: position 64 serves 68, 66, 65");
}

static void test_small(void)
{
    /* n = 1: the source alone. */
    const double d1[1] = {0};
    struct cluster *c = matrix(1, d1, 0);
    const int p1[1] = {-1};
    for (int k = 0; k < TREE_KIND_COUNT; k++)
        check_tree(c, (enum tree_kind)k, p1, NULL, 0, 0, "n=1");
    struct run r;
    ok(run_schedule(&r, c, MODEL_ASYNC, &sched_balanced_path, NULL, RUN_OPT_NEVER, NULL) == 0,
       "n=1: runs");
    is_int(r.eng.ntr, 0, "n=1: no transfer");
    is_double(r.sched.tree_cost, 0, 0, "n=1: tree cost 0");
    run_free(&r);
    cluster_free(c);

    /* n = 2, from either end. */
    const double d2[4] = {0, 4, 4, 0};
    c = matrix(2, d2, 0);
    const int p2[2] = {-1, 0};
    for (int k = 0; k < TREE_KIND_COUNT; k++)
        check_tree(c, (enum tree_kind)k, p2, NULL, 0, 4, "n=2");
    cluster_free(c);
    c = matrix(2, d2, 1);
    const int p2b[2] = {1, -1};
    for (int k = 0; k < TREE_KIND_COUNT; k++)
        check_tree(c, (enum tree_kind)k, p2b, NULL, 0, 4, "n=2 from n1");
    cluster_free(c);

    /* n = 3: a star (positions 2 then 1).  From n1, MPICH's relative ranks:
     * n2 at position 1, n0 at position 2, served first. */
    const double d3[9] = {0, 5, 1, 5, 0, 1, 1, 1, 0};
    c = matrix(3, d3, 0);
    const int p3[3] = {-1, 0, 0}, k3[2] = {2, 1};
    for (int k = 0; k < TREE_FIGUEIRA_COUNT; k++)
        check_tree(c, (enum tree_kind)k, p3, k3, 2, 5, "n=3");
    /* MPI's trees, blind to the distances: a chain n0 -> n1 -> n2 (5 + 1),
     * and radix 4 serves positions 1 then 2 from the root */
    const int pchain[3] = {-1, 0, 1}, kchain[1] = {1}, kknom[2] = {1, 2};
    check_tree(c, TREE_CHAIN, pchain, kchain, 1, 6, "n=3");
    check_tree(c, TREE_KNOMIAL, p3, kknom, 2, 5, "n=3");
    cluster_free(c);
    c = matrix(3, d3, 1);
    const int p3b[3] = {1, -1, 1}, k3b[2] = {0, 2}, k3c[2] = {2, 0};
    check_tree(c, TREE_BINOMIAL, p3b, k3b, 2, 5, "n=3 from n1");
    check_tree(c, TREE_DEPTH_FIRST, p3b, k3c, 2, 5, "n=3 from n1");
    check_tree(c, TREE_FLAT, p3b, k3c, 2, 5, "n=3 from n1");
    struct tree t;
    build(&t, c, TREE_BINOMIAL);
    ok(t.pos[1] == 0 && t.pos[2] == 1 && t.pos[0] == 2, "n=3 from n1: relative ranks");
    tree_free(&t);
    cluster_free(c);

    /* n = 5: positions 0 -> 4, 2, 1 and 2 -> 3.  Depth-first fills position 3
     * (under n2) before position 1; breadth-first fills position 1 first,
     * where n3 and n4 tie at 3 from n0 (lowest index: n3), leaving n4 4 hops
     * under n2.  Balanced-path: after 4 and 2, positions 0 and 2 both have
     * one unfilled child; the higher position (2) goes first. */
    const double d5[25] = {
        0, 1, 2, 3, 3,
        1, 0, 7, 7, 7,
        2, 7, 0, 1, 4,
        3, 7, 1, 0, 7,
        3, 7, 4, 7, 0,
    };
    c = matrix(5, d5, 0);
    const int b5[5] = {-1, 0, 0, 2, 0}, b5k[3] = {4, 2, 1};
    const int df5[5] = {-1, 0, 0, 2, 0}, df5k[3] = {1, 2, 4};
    const int bf5[5] = {-1, 0, 0, 0, 2}, bf5k[3] = {1, 2, 3};
    const int fl5[5] = {-1, 0, 0, 0, 0}, fl5k[4] = {1, 2, 3, 4};
    check_tree(c, TREE_BINOMIAL, b5, b5k, 3, 3, "n=5");
    check_tree(c, TREE_DEPTH_FIRST, df5, df5k, 3, 3, "n=5");
    check_tree(c, TREE_BREADTH_FIRST, bf5, bf5k, 3, 6, "n=5");
    check_tree(c, TREE_BALANCED_PATH, df5, df5k, 3, 3, "n=5 (higher position first)");
    check_tree(c, TREE_FLAT, fl5, fl5k, 4, 3, "n=5 (n3 before n4: tie, lowest index)");
    check_tree(c, TREE_MAGPIE, fl5, fl5k, 4, 3, "n=5 (no distance 0: one group per node)");
    build(&t, c, TREE_BREADTH_FIRST);
    is_int(t.ties[3], 2, "n=5 breadth-first: n3 tied with n4");
    is_int(t.pos[3], 1, "n=5 breadth-first: n3 at position 1");
    tree_free(&t);
    build(&t, c, TREE_BALANCED_PATH);
    is_int(t.unfilled[3], 1, "n=5 balanced-path: n2's position had 1 unfilled child");
    is_int(t.pos[3], 3, "n=5 balanced-path: n3 at position 3 (under n2)");
    tree_free(&t);
    build(&t, c, TREE_MAGPIE);
    is_int(t.ngroups, 5, "n=5 magpie: five groups of one");
    tree_free(&t);
    cluster_free(c);

    /* n = 8 as a node table with latency 2: every distance is L, so each
     * closest node is the lowest remaining index. */
    struct cluster *nt = node_table(8, 2, NULL);
    const int bin8[8] = {-1, 0, 0, 2, 0, 4, 4, 6};
    const int df8[8] = {-1, 0, 1, 2, 1, 0, 5, 0};
    const int bf8[8] = {-1, 0, 0, 0, 1, 1, 2, 4};
    const int bp8[8] = {-1, 0, 1, 0, 2, 1, 3, 0};
    check_tree(nt, TREE_BINOMIAL, bin8, NULL, 0, 6, "node table n=8");
    check_tree(nt, TREE_DEPTH_FIRST, df8, NULL, 0, 6, "node table n=8");
    check_tree(nt, TREE_BREADTH_FIRST, bf8, NULL, 0, 6, "node table n=8");
    check_tree(nt, TREE_BALANCED_PATH, bp8, NULL, 0, 6, "node table n=8");
    run_schedule(&r, nt, MODEL_ASYNC, &sched_depth_first, NULL, RUN_OPT_NEVER, NULL);
    ok(!r.sched.has_tree_cost, "node table: no tree_cost (a latency-matrix field)");
    is_double(r.eng.makespan, 6, 0, "node table, zero overheads: makespan 3 levels * L");
    run_free(&r);

    cluster_free(nt);

    /* Magpie with group labels: {p0,p2} "a", {p1,p3} "b", p4 alone. */
    static const char *const labels[5] = {"a", "b", "a", "b", NULL};
    nt = node_table(5, 2, labels);
    const int mg[5] = {-1, 0, 0, 1, 0}, mgk[3] = {1, 4, 2};
    check_tree(nt, TREE_MAGPIE, mg, mgk, 3, 4, "labelled groups");
    build(&t, nt, TREE_MAGPIE);
    ok(t.group_labels && t.ngroups == 3, "labelled groups: 3 groups from the labels");
    ok(t.group[2] == 0 && t.group[1] == 1 && t.group[3] == 1 && t.group[4] == 2,
       "labelled groups: the source's, then by leader index on equal distance");
    tree_free(&t);
    cluster_free(nt);
}

/* ---- tie rules (SPEC §2) ---- */

static void test_ties(void)
{
    /* Closest ties go to the lowest index: n1 and n2 both at 1 from n0. */
    const double d[9] = {0, 1, 1, 1, 0, 1, 1, 1, 0};
    struct cluster *c = matrix(3, d, 0);
    const int par[3] = {-1, 0, 0}, kids[2] = {1, 2};
    check_tree(c, TREE_DEPTH_FIRST, par, kids, 2, 1, "tie n1/n2");
    check_tree(c, TREE_BREADTH_FIRST, par, kids, 2, 1, "tie n1/n2");
    check_tree(c, TREE_BALANCED_PATH, par, kids, 2, 1, "tie n1/n2");
    check_tree(c, TREE_FLAT, par, kids, 2, 1, "tie n1/n2");
    struct tree t;
    build(&t, c, TREE_DEPTH_FIRST);
    is_int(t.pos[1], 2, "tie: n1 (lowest index) takes position 2, served first");
    tree_free(&t);
    cluster_free(c);

    /* Magpie's leader: the member closest to the source, ties lowest index.
     * Group {n1, n2, n3} (0 apart) with n3 closest to n0; group {n4, n5}
     * equally far, so n4 leads. */
    const double g[36] = {
        0, 5, 5, 2, 6, 6,
        5, 0, 0, 0, 9, 9,
        5, 0, 0, 0, 9, 9,
        2, 0, 0, 0, 9, 9,
        6, 9, 9, 9, 0, 0,
        6, 9, 9, 9, 0, 0,
    };
    c = matrix(6, g, 0);
    build(&t, c, TREE_MAGPIE);
    is_int(t.ngroups, 3, "magpie: three groups");
    is_int(t.parent[3], 0, "magpie: n3, its group's node closest to n0, leads it");
    ok(t.parent[1] == 3 && t.parent[2] == 3 && t.pos[3] == 0 && t.pos[1] == 1 && t.pos[2] == 2,
       "magpie: the leader at position 0, then by index");
    is_int(t.parent[4], 0, "magpie: n4 leads {n4, n5} (tie, lowest index)");
    ok(t.kids[t.first[0]] == 3 && t.kids[t.first[0] + 1] == 4, "magpie: the closer group first");
    is_double(t.cost, 6, 0, "magpie: cost 6");
    tree_free(&t);
    cluster_free(c);

    /* Balanced-path, most unfilled children first: 16 nodes, all distances
     * 1, so the closest node is the lowest index.  The root (4 unfilled)
     * fills 8 <- n1; the root and 8 then tie at 3: the higher, 8, fills
     * 12 <- n2; the root (3) fills 4 <- n3; 0, 4, 8 and 12 tie at 2: 12
     * fills 14 <- n4; then 8, the highest left with 2, fills 10 <- n5. */
    double m[256];
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++)
            m[i * 16 + j] = i == j ? 0 : 1;
    c = matrix(16, m, 0);
    build(&t, c, TREE_BALANCED_PATH);
    ok(t.node_at[8] == 1 && t.node_at[12] == 2, "balanced-path: 8 <- n1, then 12 <- n2 (tie at 3: higher)");
    is_int(t.node_at[4], 3, "balanced-path: then the root, alone with 3 unfilled: 4 <- n3");
    is_int(t.node_at[14], 4, "balanced-path: 0, 4, 8, 12 tie at 2: the highest, 12, fills 14 <- n4");
    is_int(t.node_at[10], 5, "balanced-path: then 8 fills 10 <- n5");
    is_int(t.unfilled[2], 3, "balanced-path: position 8 had 3 unfilled children when n2 came");
    tree_free(&t);
    cluster_free(c);
}

/* ---- every tree spans the nodes, on random matrices ---- */

static bool spans(const struct tree *t, const char **why)
{
    int n = t->n;
    int *seen = calloc((size_t)n, sizeof *seen);
    bool good = t->parent[t->root] == -1 && t->pos[t->root] == 0;
    if (!good)
        *why = "the source is not the root at position 0";
    for (int v = 0; v < n && good; v++) {
        for (int k = t->first[v]; k < t->first[v + 1]; k++) {
            int u = t->kids[k];
            if (u < 0 || u >= n || t->parent[u] != v || seen[u]++) {
                good = false;
                *why = "a child list disagrees with the parents, or a node appears twice";
            }
        }
        if (v != t->root && good) {
            int steps = 0, u = v;
            while (u != t->root && u >= 0 && steps <= n)
                u = t->parent[u], steps++;
            if (u != t->root) {
                good = false;
                *why = "a node does not reach the root";
            }
        }
    }
    for (int v = 0; v < n && good; v++)
        if ((v == t->root) != (seen[v] == 0)) {
            good = false;
            *why = "a node is nobody's child";
        }
    if (good && t->node_at) {
        for (int v = 0; v < n && good; v++)
            if (t->pos[v] < 0 || t->pos[v] >= n || t->node_at[t->pos[v]] != v ||
                (v != t->root && t->pos[t->parent[v]] != parent_position(t->kind, t->pos[v]))) {
                good = false;
                *why = t->kind == TREE_CHAIN ? "positions are not a chain" : t->kind == TREE_KNOMIAL
                       ? "positions are not a k-nomial tree" : "positions are not a binomial tree";
            }
    }
    double heavy = 0;
    for (int v = 0; v < n && good; v++) {
        double want = v == t->root ? 0 : t->depth[t->parent[v]] + t->dist[v];
        if (t->depth[v] != want) {
            good = false;
            *why = "depths are not sums of edge distances";
        }
        if (t->depth[v] > heavy)
            heavy = t->depth[v];
    }
    if (good && heavy != t->cost) {
        good = false;
        *why = "the cost is not the heaviest path";
    }
    free(seen);
    return good;
}

static void test_random(void)
{
    struct rng r;
    rng_seed(&r, 2024);
    int trees = 0, bad = 0, runs = 0, bad_runs = 0;
    for (int n = 1; n <= 70; n++)
        for (int rep = 0; rep < 4; rep++) {
            double *d = malloc((size_t)n * (size_t)n * sizeof *d);
            bool symmetric = rep % 2 == 0;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    d[i * n + j] = i == j ? 0 : (double)rng_below(&r, rep < 2 ? 4 : 20);
            if (symmetric)
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < i; j++)
                        d[i * n + j] = d[j * n + i];
            struct cluster *c = matrix(n, d, (int)rng_below(&r, (uint64_t)n));
            free(d);
            for (int k = 0; k < TREE_KIND_COUNT; k++) {
                struct tree t;
                const char *why = "";
                trees++;
                if (build(&t, c, (enum tree_kind)k) < 0 || !spans(&t, &why)) {
                    if (bad++ < 5)
                        diag("n=%d rep %d %s: %s", n, rep, tree_kind_name((enum tree_kind)k), why);
                }
                /* Simulate under every model: the engine's tree is this tree,
                 * each parent serves its children in order, starts in time order,
                 * and with zero overheads async finishes at the cost. */
                for (int m = 0; m < MODEL_COUNT && n <= 40; m++) {
                    if (!(model_mask_for(c->kind) & MODEL_BIT(m)))
                        continue;   /* one-port-uni: platform graphs only */
                    struct engine e;
                    struct sched s;
                    char *cause = NULL;
                    runs++;
                    engine_init(&e, c, (enum model)m, NULL);
                    sched_init(&s, tree_ops[k], NULL);
                    bool good = sched_run(&e, &s, &cause) == 0 && e.nwaiting == 0 && e.ntr == n - 1;
                    for (int v = 0; v < n && good; v++)
                        good = e.parent[v] == t.parent[v];
                    int *next = calloc((size_t)n, sizeof *next);
                    for (int i = 0; i < e.ntr && good; i++) {
                        const struct transfer *x = &e.tr[i];
                        good = t.kids[t.first[x->from] + next[x->from]++] == x->to &&
                               (i == 0 || e.tr[i - 1].start <= x->start);
                    }
                    free(next);
                    if (good && m == MODEL_ASYNC)
                        good = e.makespan == t.cost && s.tree_cost == t.cost;
                    if (!good && bad_runs++ < 5)
                        diag("n=%d %s model %s: %s", n, tree_ops[k]->name, model_name((enum model)m),
                             cause ? cause : "the simulation does not follow the tree");
                    free(cause);
                    sched_free(&s);
                    engine_free(&e);
                }
                tree_free(&t);
            }
            cluster_free(c);
        }
    ok(bad == 0, "%d trees on random matrices, n = 1..70: each spans every node once, rooted at the source", trees);
    ok(bad_runs == 0, "%d simulations (every model): the engine follows each tree in its serving order", runs);
}

/* ---- schedulers: registered, kinds, JSON ---- */

static void test_sched_and_json(void)
{
    /* By name, as the command line finds them ("binomial" may be a
     * dispatcher that hands matrices and node tables to sched/trees.c). */
    struct cluster *c = table1();
    if (!c)
        return;
    for (int k = 0; k < TREE_KIND_COUNT; k++) {
        const char *name = tree_kind_name((enum tree_kind)k);
        const struct sched_ops *ops = sched_find(name);
        struct run r;
        bool good = ops && run_schedule(&r, c, MODEL_ASYNC, ops, NULL, RUN_OPT_NEVER, NULL) == 0;
        const struct tree *tt = good ? tree_of_sched(&r.sched) : NULL;
        ok(tt && tt->kind == (enum tree_kind)k && r.sched.has_tree_cost,
           "%s is registered and builds its tree on a matrix", name);
        if (good)
            run_free(&r);
    }
    ok(tree_of_sched(NULL) == NULL, "tree_of_sched(NULL) is NULL");

    struct cluster *g = cluster_new(CLUSTER_GRAPH);
    cluster_add_node(g, "a", 0, 0);
    cluster_add_node(g, "b", 0, 0);
    cluster_add_edge(g, 0, 1, 1, -1);
    struct diag d;
    diag_init(&d);
    cluster_finish(g, &d);
    diag_free(&d);
    char *cause = NULL;
    ok(sched_check(&sched_balanced_path, g, MODEL_ONE_PORT, &cause) < 0,
       "balanced-path refuses a platform graph");
    free(cause);
    cause = NULL;
    struct tree t;
    ok(tree_build(&t, g, TREE_BINOMIAL, &cause) < 0 && cause, "tree_build refuses a platform graph");
    free(cause);
    tree_free(&t);
    cluster_free(g);

    struct run r;
    run_schedule(&r, c, MODEL_ASYNC, &sched_balanced_path, NULL, RUN_OPT_NEVER, NULL);
    FILE *fp = tmpfile();
    report_run_json(fp, &r, false);
    long len = ftell(fp);
    rewind(fp);
    char *buf = calloc((size_t)len + 1, 1);
    size_t got = fread(buf, 1, (size_t)len, fp);
    buf[got] = '\0';
    fclose(fp);
    ok(strstr(buf, "\"tree_cost\": 3") != NULL, "JSON: \"tree_cost\": 3 for balanced-path on Table 1");
    ok(strstr(buf, "\"makespan\": 3") != NULL, "JSON: the makespan beside it");
    free(buf);
    const struct tree *tt = tree_of_sched(&r.sched);
    ok(tt && tt->kind == TREE_BALANCED_PATH && tt->pos[7] == 2, "the run's tree: n7 at position 2");
    run_free(&r);

    fp = tmpfile();
    run_schedule(&r, c, MODEL_ASYNC, &sched_fnf, NULL, RUN_OPT_NEVER, NULL);
    report_run_json(fp, &r, true);
    len = ftell(fp);
    rewind(fp);
    buf = calloc((size_t)len + 1, 1);
    got = fread(buf, 1, (size_t)len, fp);
    buf[got] = '\0';
    fclose(fp);
    ok(strstr(buf, "tree_cost") == NULL, "JSON: no tree_cost for fnf");
    ok(tree_of_sched(&r.sched) == NULL, "fnf has no tree");
    free(buf);
    run_free(&r);
    cluster_free(c);
}

/* ---- the figueira study's LNOW generator and simulation ---- */

static void test_lnow(void)
{
    struct rng r;
    rng_seed(&r, 7);
    int bad = 0, maxg = 0;
    for (int rep = 0; rep < 200; rep++) {
        int n = 2 + (int)rng_below(&r, 127), G = 1 + (int)rng_below(&r, 128), groups;
        struct cluster *c = generate_lnow(&r, n, G, 10, &groups);
        int lim = G < n ? G : n;
        if (lim > 11)
            lim = 11;
        if (groups > maxg)
            maxg = groups;
        bool good = c->n == n && groups >= 1 && groups <= lim && c->source == 0;
        /* Same distance to n0 <=> 0 apart; else the sum; at most 20. */
        int distinct = 0;
        for (int i = 0; i < n && good; i++) {
            double di = c->dist[i];
            bool first = true;
            for (int j = 0; j < n && good; j++) {
                double dj = c->dist[j], dij = c->dist[(size_t)i * (size_t)n + (size_t)j];
                good = dij == (di == dj ? 0 : di + dj) && dij <= 20 && di <= 10 && dij == c->dist[(size_t)j * (size_t)n + (size_t)i];
                if (j < i && dj == di)
                    first = false;
            }
            distinct += first;
        }
        good = good && distinct == groups;
        if (!good && bad++ < 3)
            diag("LNOW %d: n=%d G=%d groups=%d distinct=%d", rep, n, G, groups, distinct);
        /* Magpie finds exactly the generator's groups. */
        struct tree t;
        build(&t, c, TREE_MAGPIE);
        if (t.ngroups != groups && bad++ < 3)
            diag("LNOW %d: magpie found %d groups, want %d", rep, t.ngroups, groups);
        tree_free(&t);
        cluster_free(c);
    }
    ok(bad == 0, "LNOWs: groups at distance 0, sums between groups, at most 20 hops, <= min(G, n, 11) groups");
    ok(maxg == 11, "LNOWs: up to 11 groups occur (0..10 hops)");

    struct rng a, b;
    rng_seed(&a, 3);
    rng_seed(&b, 3);
    int ga, gb;
    struct cluster *x = generate_lnow(&a, 32, 8, 10, &ga), *y = generate_lnow(&b, 32, 8, 10, &gb);
    ok(ga == gb && memcmp(x->dist, y->dist, 32 * 32 * sizeof *x->dist) == 0, "LNOWs: same seed, same topology");
    cluster_free(y);

    /* tree_run: a tree built on the hops, simulated on other latencies (the
     * study's max(h, 1) basic latencies and a send overhead). */
    struct cluster *lat = cluster_new(CLUSTER_MATRIX);
    for (int i = 0; i < 32; i++)
        cluster_add_node(lat, x->nodes[i].name, 1, 0);
    lat->dist = malloc(32 * 32 * sizeof *lat->dist);
    for (int i = 0; i < 32 * 32; i++)
        lat->dist[i] = i % 33 == 0 ? 0 : x->dist[i] > 1 ? x->dist[i] : 1;
    struct diag d;
    diag_init(&d);
    cluster_finish(lat, &d);
    diag_free(&d);
    struct tree t;
    build(&t, x, TREE_FLAT);
    struct engine e;
    engine_init(&e, lat, MODEL_ASYNC, NULL);
    ok(tree_run(&t, &e, NULL) == 0 && e.nwaiting == 0, "tree_run: the flat tree on the latencies");
    /* The flat tree's last receiver gets the 31st send, which ends at 31. */
    double last = 0;
    for (int i = 0; i < e.ntr; i++)
        if (e.tr[i].send_end > last)
            last = e.tr[i].send_end;
    is_double(last, 31, 0, "tree_run: the source's 31 sends of 1 each end at 31");
    ok(e.nev > 0, "tree_run: the timeline is built");
    engine_free(&e);
    tree_free(&t);
    cluster_free(lat);
    cluster_free(x);
}

int main(void)
{
    test_table1();
    test_binomial_positions();
    test_knomial_positions();
    test_small();
    test_ties();
    test_random();
    test_sched_and_json();
    test_lnow();
    return tap_exit();
}
