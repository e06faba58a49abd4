/*
 * test_exchange.c - personalized exchange (sched/exchange.c on the engine):
 * hand-computed exchanges of 2 and 3 nodes in both models, random ties, the
 * sending orders of Chen & Liu's Tables 1-6 (exactly, from the paper's own
 * random draws, and their structure from seeds), greedy worked by hand, the
 * engine's personalized mode, invariants and the lower bound on random
 * clusters, the receivers option, and Table 8's range at N = 100.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "engine/engine.h"
#include "sched/exchange.h"
#include "model/generate.h"
#include "support/fastpath.h"
#include "support/rng.h"
#include "tap.h"

static struct cluster *nodes(int n, const double (*sr)[2], double latency)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        cluster_add_node(c, name, sr[i][0], sr[i][1]);
    }
    c->latency = latency;
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);
    diag_free(&d);
    return c;
}

/* Run or fail the test with the cause. */
static int run(struct exchange *x, const struct cluster *c, enum model m, enum xpattern pat,
               const int *recv, int nrecv, const struct xsched_ops *ops, const int *order,
               uint64_t seed)
{
    struct exchange_opts o = {.pattern = pat, .recv = recv, .nrecv = nrecv, .ops = ops,
                              .order = order, .seed = seed};
    char *cause = NULL;
    int rc = exchange_run(x, c, m, &o, &cause);
    if (rc < 0) {
        diag("exchange_run: %s", cause);
        free(cause);
    }
    return rc;
}

/* The transfer from q to p, or NULL. */
static const struct transfer *find(const struct exchange *x, int q, int p)
{
    for (int i = 0; i < x->eng.ntr; i++)
        if (x->eng.tr[i].from == q && x->eng.tr[i].to == p)
            return &x->eng.tr[i];
    return NULL;
}

#define IS_TR(x, q, p, st, se, re, what)                                                   \
    do {                                                                                    \
        const struct transfer *t_ = find(x, q, p);                                          \
        ok(t_ != NULL, "%s: p%d -> p%d booked", what, q, p);                                \
        if (t_) {                                                                           \
            is_double(t_->start, st, 0, "%s: p%d -> p%d starts at %g", what, q, p, (double)(st)); \
            is_double(t_->send_end, se, 0, "%s: p%d -> p%d send port until %g", what, q, p, (double)(se)); \
            is_double(t_->recv_end, re, 0, "%s: p%d holds it at %g", what, p, (double)(re)); \
        }                                                                                   \
    } while (0)

/* p0 (s=1, r=2), p1 (s=3, r=1), L=1: two transfers at once, no contention. */
static void test_two_nodes(void)
{
    static const double sr[2][2] = {{1, 2}, {3, 1}};
    struct cluster *c = nodes(2, sr, 1);
    struct exchange x;
    if (run(&x, c, MODEL_SYNC, XPAT_ALL_TO_ALL, NULL, 0, &xsched_caterpillar, NULL, 1) == 0) {
        is_int(x.eng.ntr, 2, "sync n=2: two transfers (own messages are not sent)");
        /* a node sends and receives at once: both start at 0 */
        IS_TR(&x, 0, 1, 0, 3, 3, "sync n=2");   /* 1 + 1 + 1 */
        IS_TR(&x, 1, 0, 0, 6, 6, "sync n=2");   /* 3 + 1 + 2 */
        is_double(x.completion, 6, 0, "sync n=2: completion 6");
        is_double(x.lower_bound, 6, 0, "sync n=2: lower bound 6 (p1's sends, p0's receives)");
        is_int(x.nwaits, 0, "sync n=2: nobody waits");
        exchange_free(&x);
    }
    if (run(&x, c, MODEL_ASYNC, XPAT_ALL_TO_ALL, NULL, 0, &xsched_caterpillar, NULL, 1) == 0) {
        IS_TR(&x, 0, 1, 0, 1, 3, "async n=2");  /* send [0,1), link [1,2), recv [2,3) */
        IS_TR(&x, 1, 0, 0, 3, 6, "async n=2");  /* send [0,3), link [3,4), recv [4,6) */
        is_double(x.completion, 6, 0, "async n=2: completion 6");
        is_double(x.lower_bound, 3, 0, "async n=2: lower bound 3 (p1 sends for 3)");
        exchange_free(&x);
    }
    cluster_free(c);
}

/*
 * p0 (1, 2), p1 (2, 1), p2 (3, 3), L = 1, caterpillar: p0 -> p1, p2;
 * p1 -> p2, p0; p2 -> p0, p1.
 * sync: at 0 all three first transfers start (no receiver is shared):
 *   p0->p1 [0,3), p1->p2 [0,6), p2->p0 [0,6).  At 3 p0 wants p2, whose port
 *   is busy until 6: p0 sits idle [3,6).  At 6: p1->p0 [6,11), p2->p1
 *   [6,11), p0->p2 [6,11).  Completion 11.  Bound: p0 receives 5 + 6 = 11.
 * async: sends every s(q): p0 at 0, 1; p1 at 0, 2; p2 at 0, 3; arrivals at
 *   start + s + 1.  p0 receives p2's (arr 4) [4,6), p1's (arr 5) [6,8);
 *   p1: p0's (arr 2) [2,3), p2's (arr 7) [7,8); p2: p0's and p1's both
 *   arrive at 3 (a tie): [3,6) and [6,9).  Completion 9; bound 6.
 */
static void test_three_nodes(void)
{
    static const double sr[3][2] = {{1, 2}, {2, 1}, {3, 3}};
    struct cluster *c = nodes(3, sr, 1);
    struct exchange x;
    if (run(&x, c, MODEL_SYNC, XPAT_ALL_TO_ALL, NULL, 0, &xsched_caterpillar, NULL, 1) == 0) {
        is_int(x.eng.ntr, 6, "sync n=3: six transfers");
        IS_TR(&x, 0, 1, 0, 3, 3, "sync n=3");
        IS_TR(&x, 1, 2, 0, 6, 6, "sync n=3");
        IS_TR(&x, 2, 0, 0, 6, 6, "sync n=3");
        IS_TR(&x, 1, 0, 6, 11, 11, "sync n=3");
        IS_TR(&x, 2, 1, 6, 11, 11, "sync n=3");
        IS_TR(&x, 0, 2, 6, 11, 11, "sync n=3");
        const struct transfer *t = find(&x, 0, 2);
        is_double(t ? t->wait_start : -1, 3, 0, "sync n=3: p0 idle from 3 (p2 busy)");
        double a = 0, b = 0;
        ok(exchange_wait(&x, (int)(t - x.eng.tr), &a, &b) && a == 3 && b == 6,
           "sync n=3: exchange_wait gives [3, 6)");
        is_int(x.nwaits, 1, "sync n=3: one wait");
        is_double(x.idle, 3, 0, "sync n=3: 3 time units idle");
        int rows[3];
        exchange_rows_at(&x, 4, rows);
        ok(rows[0] == 1 && rows[1] == 1 && rows[2] == 1, "sync n=3: at 4 every sender is on row 2");
        exchange_rows_at(&x, 6, rows);
        ok(rows[0] == 2 && rows[1] == 2 && rows[2] == 2, "sync n=3: at 6 every sender is on row 3");
        is_double(x.completion, 11, 0, "sync n=3: completion 11");
        is_double(x.lower_bound, 11, 0, "sync n=3: lower bound 11, met");
        ok(x.bound_node == 0 && x.bound_by_recv, "sync n=3: the bound is p0's receives");
        exchange_free(&x);
    }
    if (run(&x, c, MODEL_ASYNC, XPAT_ALL_TO_ALL, NULL, 0, &xsched_caterpillar, NULL, 1) == 0) {
        IS_TR(&x, 0, 1, 0, 1, 3, "async n=3");
        IS_TR(&x, 2, 0, 0, 3, 6, "async n=3");
        IS_TR(&x, 1, 0, 2, 4, 8, "async n=3");
        IS_TR(&x, 2, 1, 3, 6, 8, "async n=3");
        const struct transfer *a = find(&x, 0, 2), *b = find(&x, 1, 2);
        ok(a && b && a->link_end == 3 && b->link_end == 3, "async n=3: both reach p2 at 3");
        ok(a && b && ((a->recv_start == 3 && b->recv_start == 6) ||
                      (a->recv_start == 6 && b->recv_start == 3)),
           "async n=3: p2 receives one [3,6), the other [6,9)");
        is_int(x.nwaits, 0, "async n=3: senders never wait");
        is_double(x.completion, 9, 0, "async n=3: completion 9");
        is_double(x.lower_bound, 6, 0, "async n=3: lower bound 6");
        exchange_free(&x);
    }
    /* the tie at p2 goes either way, from the seed */
    int first0 = 0, first1 = 0;
    for (uint64_t seed = 1; seed <= 40; seed++)
        if (run(&x, c, MODEL_ASYNC, XPAT_ALL_TO_ALL, NULL, 0, &xsched_caterpillar, NULL, seed) == 0) {
            first0 += find(&x, 0, 2)->recv_start == 3;
            first1 += find(&x, 1, 2)->recv_start == 3;
            exchange_free(&x);
        }
    ok(first0 > 0 && first1 > 0 && first0 + first1 == 40,
       "async n=3: the tie at p2 is broken at random (p0 first %d times, p1 %d of 40)", first0,
       first1);
    cluster_free(c);
}

/*
 * Sync contention with given orders, all (s, r) = (1, 1), L = 1 (every
 * transfer 3): p0 [p0* p1 p2], p1 [p0 p1* p2], p2 [p0 p2* p1].  At 0 p0 -> p1
 * [0,3), and p1 and p2 both want p0: one wins [0,3), the other sits idle.
 *   p1 wins: at 3 p2 -> p0 [3,6), and p0 and p1 both want p2: one waits
 *     until 6.  Two waits, 6 idle.
 *   p2 wins: at 3 p0 -> p2, p1 -> p0, p2 -> p1 all [3,6), no contention,
 *     then p1 -> p2 [6,9).  One wait, 3 idle.
 * Either way completion 9.  Async: 5 (p2 receives p0's and p1's at 3, 4).
 */
static void test_contention(void)
{
    static const double sr[3][2] = {{1, 1}, {1, 1}, {1, 1}};
    static const int order[9] = {0, 1, 2, /* p0 */ 0, 1, 2, /* p1 */ 0, 2, 1 /* p2 */};
    struct cluster *c = nodes(3, sr, 1);
    struct exchange x;
    int winner1 = 0, winner2 = 0, good = 1;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        if (run(&x, c, MODEL_SYNC, XPAT_ALL_TO_ALL, NULL, 0, &xsched_random, order, seed) < 0) {
            good = 0;
            break;
        }
        int p1_won = find(&x, 1, 0)->start == 0, p2_won = find(&x, 2, 0)->start == 0;
        winner1 += p1_won;
        winner2 += p2_won;
        good &= x.completion == 9 && p1_won + p2_won == 1 &&
                (p1_won ? x.nwaits == 2 && x.idle == 6 : x.nwaits == 1 && x.idle == 3);
        for (int i = 0; i < x.eng.ntr; i++)   /* the given order, row by row */
            good &= x.order[x.eng.tr[i].from * 3 + x.row[i]] == x.eng.tr[i].to;
        exchange_free(&x);
    }
    ok(good, "sync contention: completion 9; two waits (6 idle) if p1 wins p0, else one (3)");
    ok(winner1 > 0 && winner2 > 0 && winner1 + winner2 == 30,
       "sync contention: p1 or p2 wins p0 at random (%d / %d)", winner1, winner2);
    if (run(&x, c, MODEL_ASYNC, XPAT_ALL_TO_ALL, NULL, 0, &xsched_random, order, 1) == 0) {
        is_double(x.completion, 5, 0, "async contention: completion 5 (p2 receives at 3, 4)");
        exchange_free(&x);
    }
    static const int bad[9] = {0, 1, 1, 0, 1, 2, 0, 2, 1};
    struct exchange_opts o = {.pattern = XPAT_ALL_TO_ALL, .order = bad};
    char *cause = NULL;
    ok(exchange_run(&x, c, MODEL_SYNC, &o, &cause) < 0 && cause && strstr(cause, "p0"),
       "a given order that is not a permutation is refused: %s", cause ? cause : "");
    free(cause);
    cluster_free(c);
}

/* ---- Tables 1-6 ---- */

static int same_table(const int *order, int n, int nrecv, const int *table)
{
    /* the paper's tables: a column per sender, table[k * n + q] */
    for (int q = 0; q < n; q++)
        for (int k = 0; k < nrecv; k++)
            if (order[q * nrecv + k] != table[k * n + q])
                return 0;
    return 1;
}

static const int recv5[5] = {0, 1, 2, 3, 4}, recv37[5] = {3, 4, 5, 6, 7};

static const int table1[25] = {0, 1, 2, 3, 4, 1, 2, 3, 4, 0, 2, 3, 4, 0, 1,
                               3, 4, 0, 1, 2, 4, 0, 1, 2, 3};
static const int table2[50] = {3, 3, 3, 3, 4, 5, 6, 7, 3, 3, 4, 4, 4, 4, 5, 6, 7, 3, 4, 4,
                               5, 5, 5, 5, 6, 7, 3, 4, 5, 5, 6, 6, 6, 6, 7, 3, 4, 5, 6, 6,
                               7, 7, 7, 7, 3, 4, 5, 6, 7, 7};
static const int table3[25] = {0, 4, 3, 2, 1, 1, 0, 4, 3, 2, 2, 1, 0, 4, 3,
                               3, 2, 1, 0, 4, 4, 3, 2, 1, 0};
static const int table4[50] = {5, 6, 7, 4, 3, 6, 3, 5, 4, 5, 6, 7, 3, 5, 4, 7, 4, 6, 5, 6,
                               7, 3, 4, 6, 5, 3, 5, 7, 6, 7, 3, 4, 5, 7, 6, 4, 6, 3, 7, 3,
                               4, 5, 6, 3, 7, 5, 7, 4, 3, 4};
static const int table5[25] = {4, 0, 1, 2, 3, 0, 1, 2, 3, 4, 3, 4, 0, 1, 2,
                               1, 2, 3, 4, 0, 2, 3, 4, 0, 1};
static const int table6[50] = {6, 7, 3, 4, 5, 6, 7, 3, 4, 5, 3, 4, 5, 6, 7, 3, 4, 5, 6, 7,
                               7, 3, 4, 5, 6, 7, 3, 4, 5, 6, 5, 6, 7, 3, 4, 5, 6, 7, 3, 4,
                               4, 5, 6, 7, 3, 4, 5, 6, 7, 3};

static void test_tables(void)
{
    int order[50];
    exchange_caterpillar(5, recv5, 5, order);
    ok(same_table(order, 5, 5, table1), "Table 1: caterpillar, all-to-all, 5 nodes");
    exchange_caterpillar(10, recv37, 5, order);
    ok(same_table(order, 10, 5, table2), "Table 2: caterpillar, all-to-some, receivers P3..P7");
    /* the paper's random draws: Table 3's first row, Table 4's first row */
    static const int start3[5] = {0, 4, 3, 2, 1}, start4[10] = {2, 3, 4, 1, 0, 3, 0, 2, 1, 2};
    exchange_rspb(5, recv5, 5, start3, order);
    ok(same_table(order, 5, 5, table3), "Table 3: RSPB, all-to-all, from the first row 0 4 3 2 1");
    exchange_rspb(10, recv37, 5, start4, order);
    ok(same_table(order, 10, 5, table4), "Table 4: RSPB, all-to-some, from the paper's first row");
    /* Tables 5, 6: the first column {4,0,3,1,2} and {6,3,7,5,4} */
    static const int first5[5] = {4, 0, 3, 1, 2}, first6[5] = {3, 0, 4, 2, 1};
    exchange_orspb(5, recv5, 5, first5, order);
    ok(same_table(order, 5, 5, table5), "Table 5: ORSPB, all-to-all, first column 4 0 3 1 2");
    exchange_orspb(10, recv37, 5, first6, order);
    ok(same_table(order, 10, 5, table6), "Table 6: ORSPB, all-to-some, first column 6 3 7 5 4");
}

/* The index of node p among the receivers. */
static int at(const int *recv, int nrecv, int p)
{
    for (int k = 0; k < nrecv; k++)
        if (recv[k] == p)
            return k;
    return -1;
}

/* Each column (a sender's order) is a permutation of the receivers. */
static int columns_permute(const struct exchange *x)
{
    for (int q = 0; q < x->n; q++) {
        int seen[64] = {0};
        for (int k = 0; k < x->nrecv; k++) {
            int i = at(x->recv, x->nrecv, x->order[q * x->nrecv + k]);
            if (i < 0 || seen[i]++)
                return 0;
        }
    }
    return 1;
}

/* Each step (row) sends to every receiver once: no contention in the table. */
static int rows_permute(const struct exchange *x)
{
    for (int k = 0; k < x->nrecv; k++) {
        int seen[64] = {0};
        for (int q = 0; q < x->n; q++)
            if (seen[x->order[q * x->nrecv + k]]++)
                return 0;
    }
    return 1;
}

/* Every column follows the receivers cyclically (the caterpillar down a column). */
static int columns_cyclic(const struct exchange *x)
{
    for (int q = 0; q < x->n; q++)
        for (int k = 0; k + 1 < x->nrecv; k++) {
            int i = at(x->recv, x->nrecv, x->order[q * x->nrecv + k]);
            if (x->order[q * x->nrecv + k + 1] != x->recv[(i + 1) % x->nrecv])
                return 0;
        }
    return 1;
}

/* Every row is the previous column's entry moved one receiver on (across a row). */
static int rows_cyclic(const struct exchange *x)
{
    for (int q = 0; q + 1 < x->n; q++)
        for (int k = 0; k < x->nrecv; k++) {
            int i = at(x->recv, x->nrecv, x->order[q * x->nrecv + k]);
            if (x->order[(q + 1) * x->nrecv + k] != x->recv[(i + 1) % x->nrecv])
                return 0;
        }
    return 1;
}

static void test_seeded_structure(void)
{
    static const double sr[10][2] = {{1, 1}, {5, 5}, {10, 10}, {1, 1}, {5, 5},
                                     {10, 10}, {1, 1}, {5, 5}, {10, 10}, {2, 3}};
    struct cluster *c5 = nodes(5, sr, 1), *c10 = nodes(10, sr, 1);
    struct exchange x;
    int ok_rnd = 1, ok_rspb = 1, ok_orspb = 1, ok_rspb_some = 1, ok_orspb_some = 1, ok_match = 1,
        ok_open = 1, ok_greedy = 1, differ = 0;
    int first_prev[5] = {-1, -1, -1, -1, -1};
    for (uint64_t seed = 1; seed <= 20; seed++) {
        for (int m = 0; m < 2; m++) {
            enum model model = m ? MODEL_SYNC : MODEL_ASYNC;
            if (run(&x, c5, model, XPAT_ALL_TO_ALL, NULL, 0, &xsched_random, NULL, seed) == 0) {
                ok_rnd &= columns_permute(&x);
                exchange_free(&x);
            }
            if (run(&x, c10, model, XPAT_ALL_TO_SOME, recv37, 5, &xsched_random, NULL, seed) == 0) {
                ok_rnd &= columns_permute(&x);
                exchange_free(&x);
            }
            if (run(&x, c5, model, XPAT_ALL_TO_ALL, NULL, 0, &xsched_rspb, NULL, seed) == 0) {
                /* Table 3: the first row is a permutation, then the caterpillar */
                int seen[5] = {0}, perm = 1;
                for (int q = 0; q < 5; q++)
                    perm &= seen[x.order[q * 5]]++ == 0;
                ok_rspb &= perm && columns_cyclic(&x) && rows_permute(&x);
                for (int q = 0; q < 5; q++) {
                    differ |= first_prev[q] >= 0 && first_prev[q] != x.order[q * 5];
                    first_prev[q] = x.order[q * 5];
                }
                exchange_free(&x);
            }
            if (run(&x, c10, model, XPAT_ALL_TO_SOME, recv37, 5, &xsched_rspb, NULL, seed) == 0) {
                ok_rspb_some &= columns_cyclic(&x) && columns_permute(&x);
                exchange_free(&x);
            }
            if (run(&x, c5, model, XPAT_ALL_TO_ALL, NULL, 0, &xsched_orspb, NULL, seed) == 0) {
                ok_orspb &= rows_cyclic(&x) && columns_permute(&x) && rows_permute(&x);
                exchange_free(&x);
            }
            if (run(&x, c10, model, XPAT_ALL_TO_SOME, recv37, 5, &xsched_orspb, NULL, seed) == 0) {
                ok_orspb_some &= rows_cyclic(&x) && columns_permute(&x);
                exchange_free(&x);
            }
            if (run(&x, c10, model, XPAT_ALL_TO_ALL, NULL, 0, &xsched_matching, NULL, seed) == 0) {
                ok_match &= columns_permute(&x) && rows_permute(&x);
                exchange_free(&x);
            }
            if (run(&x, c10, model, XPAT_ALL_TO_SOME, recv37, 5, &xsched_matching, NULL, seed) == 0) {
                ok_match &= columns_permute(&x);
                exchange_free(&x);
            }
            if (run(&x, c10, model, XPAT_ALL_TO_SOME, recv37, 5, &xsched_greedy, NULL, seed) == 0) {
                ok_greedy &= columns_permute(&x);
                exchange_free(&x);
            }
            if (run(&x, c10, model, XPAT_ALL_TO_ALL, NULL, 0, &xsched_open_shop, NULL, seed) == 0) {
                ok_open &= columns_permute(&x);
                for (int q = 0; q < 10; q++)
                    ok_open &= x.order[q * 10] == q;   /* its own entry first */
                exchange_free(&x);
            }
        }
    }
    ok(ok_rnd, "random: every node's order is a permutation of the receivers (20 seeds)");
    ok(ok_rspb, "RSPB all-to-all: the first row a permutation, columns cyclic (as Table 3)");
    ok(differ, "RSPB: the starting points change with the seed");
    ok(ok_rspb_some, "RSPB all-to-some: each column cycles through the receivers (as Table 4)");
    ok(ok_orspb, "ORSPB all-to-all: each row shifts the one before by one (as Table 5)");
    ok(ok_orspb_some, "ORSPB all-to-some: each row shifts by one receiver (as Table 6)");
    ok(ok_match, "matching: all-to-all rounds are permutations (no two senders share a receiver)");
    ok(ok_greedy, "greedy: each node's order is a permutation of the receivers");
    ok(ok_open, "open-shop: a permutation of the receivers, the own entry first");
    cluster_free(c5);
    cluster_free(c10);
}

/*
 * Greedy by hand: 4 nodes, receivers p0 (r=2) and p1 (r=1); lists by
 * decreasing cost, own entry last: p0 [p1, p0*], p1 [p0, p1*], p2 and p3
 * [p0, p1].  Round 1 (p0 p1 p2 p3): p0 -> p1, p1 -> p0, p2 and p3 idle.
 * Round 2 (the idle first, then the pickers rotated: p2 p3 p1 p0): p2 -> p0,
 * p3 -> p1, p1 (p1* taken) and p0 (p0* taken) idle.  Round 3 (p1 p0 p3 p2):
 * p1 -> p1*, p0 -> p0*, p3 -> p0, p2 -> p1.
 */
static void test_greedy_by_hand(void)
{
    static const double sr[4][2] = {{1, 2}, {1, 1}, {1, 1}, {1, 1}};
    static const int recv[2] = {0, 1}, want[8] = {1, 0, 0, 1, 0, 1, 1, 0};
    struct cluster *c = nodes(4, sr, 1);
    struct exchange x;
    if (run(&x, c, MODEL_SYNC, XPAT_ALL_TO_SOME, recv, 2, &xsched_greedy, NULL, 1) == 0) {
        ok(memcmp(x.order, want, sizeof want) == 0,
           "greedy by hand: p0 [p1 p0*], p1 [p0 p1*], p2 [p0 p1], p3 [p1 p0]");
        exchange_free(&x);
    }
    /* all-to-all, 3 nodes, r = 5, 1, 3: round 1 p0->p2 p1->p0 p2->p1, round 2 (p2 p0 p1) */
    static const double sr3[3][2] = {{1, 5}, {1, 1}, {1, 3}};
    static const int want3[9] = {2, 1, 0, 0, 2, 1, 1, 0, 2};
    struct cluster *c3 = nodes(3, sr3, 0);
    if (run(&x, c3, MODEL_SYNC, XPAT_ALL_TO_ALL, NULL, 0, &xsched_greedy, NULL, 1) == 0) {
        ok(memcmp(x.order, want3, sizeof want3) == 0,
           "greedy by hand: p0 [p2 p1 p0*], p1 [p0 p2 p1*], p2 [p1 p0 p2*]");
        exchange_free(&x);
    }
    cluster_free(c);
    cluster_free(c3);
}

/* Greedy's own entry comes last even where other transfers cost nothing too
 * (latency 0; n1's send and receive free): n0's list is [n1 n2 n3 n0*], not
 * n0* first; on the readable path and the bitsets alike. */
static void test_greedy_own_last(void)
{
    static const double sr[4][2] = {{0, 1}, {0, 0}, {1, 0}, {1, 0}};
    struct cluster *c = nodes(4, sr, 0);
    for (int fast = 0; fast < 2; fast++) {
        fastpath_set(fast);
        struct exchange x;
        for (int m = 0; m < 2; m++)
            if (run(&x, c, m ? MODEL_SYNC : MODEL_ASYNC, XPAT_ALL_TO_ALL, NULL, 0, &xsched_greedy,
                    NULL, 1) == 0) {
                int last = 0;
                for (int q = 0; q < 4; q++)
                    last += x.order[q * 4 + 3] == q;
                is_int(last, 4, "greedy, zero-cost transfers (%s, %s): every sender's own entry "
                                "last (n0: %d %d %d %d)",
                       m ? "sync" : "async", fast ? "bitsets" : "readable", x.order[0], x.order[1],
                       x.order[2], x.order[3]);
                exchange_free(&x);
            }
    }
    fastpath_set(true);
    cluster_free(c);
}

/* Matching on a node table: the first rounds avoid own entries (weight 0). */
static void test_matching(void)
{
    static const double sr[4][2] = {{1, 2}, {3, 1}, {2, 2}, {4, 3}};
    struct cluster *c = nodes(4, sr, 1);
    struct exchange x;
    if (run(&x, c, MODEL_SYNC, XPAT_ALL_TO_ALL, NULL, 0, &xsched_matching, NULL, 1) == 0) {
        int own_last = 1;
        for (int q = 0; q < 4; q++)
            own_last &= x.order[q * 4 + 3] == q;
        ok(own_last && rows_permute(&x) && columns_permute(&x),
           "matching: 4 rounds of perfect matchings, the own entries (weight 0) last");
        exchange_free(&x);
    }
    /* all-to-some with one receiver: round by round the heaviest sender goes first */
    static const int one[1] = {0};
    if (run(&x, c, MODEL_SYNC, XPAT_ALL_TO_SOME, one, 1, &xsched_matching, NULL, 1) == 0) {
        is_int(x.eng.ntr, 3, "matching all-to-some, one receiver: 3 transfers");
        exchange_free(&x);
    }
    char *cause = NULL;
    struct cluster *big = cluster_new(CLUSTER_NODES);
    for (int i = 0; i <= EXCHANGE_MATCHING_MAX_NODES; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        cluster_add_node(big, name, 1, 1);
    }
    struct diag d;
    diag_init(&d);
    cluster_finish(big, &d);
    diag_free(&d);
    struct exchange_opts o = {.pattern = XPAT_ALL_TO_ALL, .ops = &xsched_matching};
    ok(exchange_run(&x, big, MODEL_SYNC, &o, &cause) < 0 && cause && strstr(cause, "O(n^4)"),
       "matching is refused above %d nodes: %s", EXCHANGE_MATCHING_MAX_NODES, cause ? cause : "");
    free(cause);
    cluster_free(big);
    cluster_free(c);
}

/* ---- the engine's personalized mode ---- */

static void test_engine_mode(void)
{
    static const double sr[3][2] = {{1, 2}, {2, 1}, {3, 3}};
    struct cluster *c = nodes(3, sr, 1);
    struct engine e;
    char *cause = NULL;
    ok(engine_init_exchange(&e, c, MODEL_ASYNC, &cause) == 0, "engine_init_exchange");
    is_int(e.nmsg, 9, "n*n messages");
    ok(engine_holds(&e, 1, 1 * 3 + 2) && !engine_holds(&e, 2, 1 * 3 + 2) &&
           !engine_holds(&e, 0, 1 * 3 + 2),
       "message 1*3+2 is held by p1 alone at the start");
    is_double(engine_hold_time(&e, 1, 5), 0, 0, "the sender holds it from 0");
    ok(engine_book(&e, 1, 0, 1 * 3 + 2, NULL, &cause) < 0 && cause && strstr(cause, "p2"),
       "p1's message for p2 cannot go to p0: %s", cause ? cause : "");
    free(cause);
    cause = NULL;
    ok(engine_book(&e, 0, 2, 1 * 3 + 2, NULL, &cause) < 0, "nor be sent by p0 (it does not hold it)");
    free(cause);
    cause = NULL;
    ok(engine_book(&e, 1, 2, 1 * 3 + 2, NULL, &cause) == 0, "p1 -> p2 of its message books");
    ok(engine_holds(&e, 2, 5) && engine_hold_time(&e, 2, 5) == 6, "p2 holds it at 2 + 1 + 3 = 6");
    ok(engine_book(&e, 1, 2, 5, NULL, &cause) < 0, "and cannot get it twice");
    free(cause);
    cause = NULL;
    engine_timeline(&e);
    char line[256];
    engine_narrate(&e, 0, line, sizeof line);
    ok(strstr(line, "p1's message") != NULL, "narration names whose message: %s", line);
    engine_narrate(&e, e.nev - 1, line, sizeof line);
    ok(strstr(line, "p2 holds p1's message") != NULL, "narration of the hold: %s", line);
    engine_reset(&e);
    ok(!engine_holds(&e, 2, 5) && engine_holds(&e, 1, 5) && e.ntr == 0,
       "engine_reset forgets the delivery, keeps the sender's holding");
    engine_free(&e);
    /* a broadcast engine is untouched: nmsg*n hold times, transfers carry wait_start */
    ok(engine_init(&e, c, MODEL_SYNC, &cause) == 0 && !e.personal, "engine_init is not personal");
    engine_book(&e, 0, 1, 0, NULL, &cause);
    engine_book(&e, 2, 1, 0, NULL, &cause);   /* refused: p2 does not hold it */
    ok(e.ntr == 1 && e.tr[0].wait_start == e.tr[0].start, "broadcast: no wait, wait_start == start");
    free(cause);
    engine_free(&e);
    /* sync broadcast: a sender whose receiver is busy shows the wait */
    static const double sr4[4][2] = {{1, 1}, {1, 1}, {1, 1}, {1, 1}};
    struct cluster *c4 = nodes(4, sr4, 0);
    cause = NULL;
    engine_init(&e, c4, MODEL_SYNC, &cause);
    engine_book(&e, 0, 1, 0, NULL, &cause);   /* [0, 2) */
    engine_book(&e, 0, 2, 0, NULL, &cause);   /* [2, 4) */
    engine_book(&e, 1, 2, 0, NULL, &cause);   /* refused: p2 has it */
    engine_book(&e, 1, 3, 0, NULL, &cause);   /* p1 ready at 2, p3 free: [2, 4) */
    ok(e.ntr == 3 && e.tr[2].wait_start == 2 && e.tr[2].start == 2, "broadcast: ready at 2, starts at 2");
    free(cause);
    engine_free(&e);
    cluster_free(c4);
    cluster_free(c);
}

/* ---- invariants on random clusters ---- */

struct iv {
    double a, b;
};

static int cmp_iv(const void *x, const void *y)
{
    const struct iv *p = x, *q = y;
    return (p->a > q->a) - (p->a < q->a);
}

/* Intervals (sorted) overlap? */
static int overlap(struct iv *v, int k)
{
    qsort(v, (size_t)k, sizeof *v, cmp_iv);
    for (int i = 1; i < k; i++)
        if (v[i].a < v[i - 1].b - 1e-9)
            return 1;
    return 0;
}

/* Are [a, b) covered by the union of v (sorted)? */
static int covered(const struct iv *v, int k, double a, double b)
{
    double at = a;
    for (int i = 0; i < k && at < b; i++)
        if (v[i].a <= at + 1e-9 && v[i].b > at)
            at = v[i].b;
    return at >= b - 1e-9;
}

static const char *check(const struct exchange *x)
{
    static char why[160];
    const struct engine *e = &x->eng;
    int n = x->n, expect = 0;
    unsigned char is_recv[16] = {0};
    for (int k = 0; k < x->nrecv; k++)
        is_recv[x->recv[k]] = 1;
    for (int q = 0; q < n; q++)
        expect += x->nrecv - is_recv[q];
    if (e->ntr != expect)
        return snprintf(why, sizeof why, "%d transfers, want %d", e->ntr, expect), why;
    for (int q = 0; q < n; q++)
        for (int p = 0; p < n; p++)
            if (q != p && is_recv[p] && !engine_holds(e, p, q * n + p))
                return snprintf(why, sizeof why, "p%d's message for p%d not delivered", q, p), why;
    if (x->completion < x->lower_bound - 1e-9)
        return snprintf(why, sizeof why, "completion %g below the bound %g", x->completion,
                        x->lower_bound), why;
    struct iv v[256], busy[256];
    for (int node = 0; node < n; node++) {
        int ks = 0, kr = 0, last_row = -1;
        double next = 0;
        for (int i = 0; i < e->ntr; i++) {
            const struct transfer *t = &e->tr[i];
            if (t->from == node) {
                v[ks++] = (struct iv){t->start, t->send_end};
                if (x->order[node * x->nrecv + x->row[i]] != t->to || x->row[i] <= last_row)
                    return snprintf(why, sizeof why, "p%d: transfer %d is not the next row", node, i), why;
                last_row = x->row[i];
                if (x->model == MODEL_ASYNC) {
                    if (t->start != next || t->wait_start != t->start)
                        return snprintf(why, sizeof why, "async p%d: send at %g, want %g", node,
                                        t->start, next), why;
                    next = t->send_end;
                } else if (t->wait_start != next || t->start < t->wait_start) {
                    return snprintf(why, sizeof why, "sync p%d: ready at %g, want %g", node,
                                    t->wait_start, next), why;
                } else {
                    next = t->send_end;
                }
            }
            if (t->to == node)
                busy[kr++] = x->model == MODEL_SYNC ? (struct iv){t->start, t->hold}
                                                    : (struct iv){t->recv_start, t->recv_end};
        }
        if (overlap(v, ks))
            return snprintf(why, sizeof why, "p%d sends two at once", node), why;
        if (overlap(busy, kr))
            return snprintf(why, sizeof why, "p%d receives two at once", node), why;
        /* sync: a sender waits only while its receiver is busy */
        for (int i = 0; i < e->ntr && x->model == MODEL_SYNC; i++) {
            const struct transfer *t = &e->tr[i];
            if (t->to == node && t->wait_start < t->start && !covered(busy, kr, t->wait_start, t->start))
                return snprintf(why, sizeof why, "p%d waited for p%d while it was free", t->from,
                                node), why;
        }
        /* async: first come, first served */
        for (int i = 0; i < e->ntr && x->model == MODEL_ASYNC; i++)
            for (int j = 0; j < e->ntr; j++) {
                const struct transfer *a = &e->tr[i], *b = &e->tr[j];
                if (a->to == node && b->to == node && a->link_end < b->link_end &&
                    a->recv_start > b->recv_start)
                    return snprintf(why, sizeof why, "p%d served a later arrival first", node), why;
                if (a->to == node && a->recv_start > a->link_end + 1e-9 &&
                    !covered(busy, kr, a->link_end, a->recv_start))
                    return snprintf(why, sizeof why, "p%d left a message waiting while free", node), why;
            }
    }
    return NULL;
}

static void test_random_clusters(void)
{
    struct rng r;
    rng_seed(&r, 2024);
    int runs = 0, failures = 0;
    const char *first = NULL;
    char what[200] = "";
    for (int t = 0; t < 150; t++) {
        int n = 1 + (int)rng_below(&r, 8);
        double sr[16][2];
        for (int i = 0; i < n; i++) {
            sr[i][0] = (double)rng_below(&r, 6);   /* zero costs too */
            sr[i][1] = (double)rng_below(&r, 6);
        }
        struct cluster *c = nodes(n, (const double (*)[2])sr, (double)rng_below(&r, 3));
        int recv[16], nrecv = 0;
        for (int i = 0; i < n; i++)
            if (rng_below(&r, 2))
                recv[nrecv++] = i;
        if (nrecv == 0)
            recv[nrecv++] = (int)rng_below(&r, (uint64_t)n);
        for (int a = 0; a < XSCHED_COUNT; a++)
            for (int m = 0; m < 2; m++)
                for (int pat = 0; pat < 2; pat++) {
                    struct exchange x;
                    if (run(&x, c, m ? MODEL_SYNC : MODEL_ASYNC, (enum xpattern)pat, recv, nrecv,
                            xsched_at(a), NULL, (uint64_t)t) < 0) {
                        failures++;
                        continue;
                    }
                    runs++;
                    const char *why = check(&x);
                    if (why && !first) {
                        first = why;
                        snprintf(what, sizeof what, "cluster %d (n=%d), %s, %s, %s: %s", t, n,
                                 xsched_at(a)->name, m ? "sync" : "async",
                                 exchange_pattern_name((enum xpattern)pat), why);
                    }
                    failures += why != NULL;
                    exchange_free(&x);
                }
        cluster_free(c);
    }
    if (first)
        diag("%s", what);
    ok(failures == 0, "%d random exchanges: all delivered once, ports never doubled, completion "
                      ">= lower bound, waits only for a busy receiver, FIFO receivers", runs);
}

static void test_receivers(void)
{
    static const double sr[5][2] = {{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}};
    struct cluster *c = nodes(5, sr, 1);
    int *recv = NULL, k = 0;
    char *cause = NULL;
    ok(exchange_parse_receivers(c, "p3,p1", 1, &recv, &k, &cause) == 0 && k == 2 && recv[0] == 1 &&
           recv[1] == 3,
       "--receivers p3,p1: p1 and p3, in node order");
    free(recv);
    ok(exchange_parse_receivers(c, "40%", 7, &recv, &k, &cause) == 0 && k == 2 && recv[0] < recv[1],
       "--receivers 40%%: two of five");
    int *again = NULL, k2 = 0;
    exchange_parse_receivers(c, "40%", 7, &again, &k2, &cause);
    ok(k2 == 2 && again[0] == recv[0] && again[1] == recv[1], "the same seed, the same receivers");
    free(recv);
    free(again);
    ok(exchange_parse_receivers(c, "1%", 1, &recv, &k, &cause) == 0 && k == 1, "1%% rounds up to one");
    free(recv);
    static const char *const bad[] = {"p9", "p1,p1", "p1,,p2", "0%", "150%", "x%", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cause = NULL;
        ok(exchange_parse_receivers(c, bad[i], 1, &recv, &k, &cause) < 0 && cause && recv == NULL,
           "--receivers \"%s\" is refused: %s", bad[i], cause ? cause : "");
        free(cause);
    }
    cluster_free(c);
}

/* A latency matrix, sync (asymmetric costs; Chen & Liu §6), worked by hand:
 * s = r = 0, p0 -> p1 takes 5, every other pair 1.  Caterpillar: at 0,
 * p0 -> p1 [0, 5), p1 -> p2 and p2 -> p0 [0, 1); at 1 p1 -> p0 [1, 2), and
 * p2 -> p1 waits for p1's port until 5: [5, 6); p0 -> p2 [5, 6).
 * Completion 6; the bound, p0's sends 5 + 1 = 6; one wait of 4. */
static void test_matrix_sync(void)
{
    static const char csv[] = ",p0,p1,p2\np0,0,5,1\np1,1,0,1\np2,1,1,0\n";
    struct diag d;
    diag_init(&d);
    struct cluster *c = cluster_load_csv_buffer("asym", csv, sizeof csv - 1, &d);
    diag_free(&d);
    struct exchange x;
    char *cause = NULL;
    struct exchange_opts o = {.pattern = XPAT_ALL_TO_ALL, .ops = &xsched_caterpillar, .seed = 1};
    ok(c && exchange_run(&x, c, MODEL_SYNC, &o, &cause) == 0, "a latency matrix runs an exchange under sync");
    if (c && !cause) {
        is_double(x.completion, 6, 0, "asymmetric matrix, caterpillar: completion 6");
        is_double(x.lower_bound, 6, 0, "its lower bound: p0's sends, 5 + 1");
        ok(x.bound_node == 0 && !x.bound_by_recv, "the bound is p0's sends");
        const struct transfer *t = find(&x, 2, 1);
        ok(t && t->start == 5 && t->wait_start == 1, "p2 -> p1 waits [1, 5) for p1's port");
        is_int(x.nwaits, 1, "one wait");
        exchange_free(&x);
    }
    free(cause);
    cause = NULL;
    ok(c && exchange_run(&x, c, MODEL_ASYNC, &o, &cause) < 0 && cause &&
           strstr(cause, "latency matrix is not simulated"),
       "async on a latency matrix is refused, saying why");
    free(cause);
    cluster_free(c);
}

static void test_refusals(void)
{
    static const double sr[2][2] = {{1, 1}, {1, 1}};
    struct cluster *c = nodes(2, sr, 1);
    struct exchange x;
    struct exchange_opts o = {.pattern = XPAT_ALL_TO_ALL};
    char *cause = NULL;
    ok(exchange_run(&x, c, MODEL_ONE_PORT, &o, &cause) < 0 && cause && strstr(cause, "sync"),
       "one-port is refused: %s", cause ? cause : "");
    free(cause);
    cause = NULL;
    o.pattern = XPAT_ALL_TO_SOME;
    ok(exchange_run(&x, c, MODEL_SYNC, &o, &cause) < 0 && cause, "all-to-some without receivers: %s",
       cause ? cause : "");
    free(cause);
    struct cluster *one = nodes(1, sr, 0);
    o.pattern = XPAT_ALL_TO_ALL;
    cause = NULL;
    ok(exchange_run(&x, one, MODEL_SYNC, &o, &cause) == 0 && x.eng.ntr == 0 && x.completion == 0,
       "one node: nothing to send, completion 0");
    exchange_free(&x);
    cluster_free(one);
    cluster_free(c);
}

/* Table 8: async all-to-some at N = 100 lands in 992..1001 for every order. */
static void test_table8(void)
{
    struct cluster *c = generate_alltoall(100);
    int recv[100];
    static const struct xsched_ops *const four[4] = {&xsched_random, &xsched_caterpillar, &xsched_rspb,
                                                   &xsched_orspb};
    int good = 1;
    char worst[160] = "";
    for (int pct = 10; pct <= 60; pct += 10) {
        int k = generate_alltoall_receivers(100, pct, recv);
        good &= k == pct;
        for (int a = 0; a < 4; a++) {
            double sum = 0, lo = INFINITY, hi = -INFINITY;
            for (uint64_t seed = 1; seed <= 10; seed++) {
                struct exchange x;
                if (run(&x, c, MODEL_ASYNC, XPAT_ALL_TO_SOME, recv, k, four[a], NULL, seed) < 0) {
                    good = 0;
                    continue;
                }
                sum += x.completion;
                lo = x.completion < lo ? x.completion : lo;
                hi = x.completion > hi ? x.completion : hi;
                exchange_free(&x);
            }
            double mean = sum / 10;
            if (mean < 992 || mean > 1001 || lo < 992) {
                good = 0;
                snprintf(worst, sizeof worst, "%d%% %s: mean %g, runs %g..%g", pct,
                         four[a]->name, mean, lo, hi);
            }
        }
    }
    if (worst[0])
        diag("%s", worst);
    ok(good, "Table 8: async all-to-some, N = 100, 10%%..60%%: every order's mean in 992..1001");
    ok(recv[0] == 0 && recv[59] == 99 && generate_alltoall_receivers(100, 10, recv) == 10 && recv[0] == 80 &&
           recv[9] == 89,
       "the receivers: P80..P89 at 10 %% (the paper's example), wrapping to P0 beyond P99");
    cluster_free(c);
}

/* The cluster of the recorded runs below: n nodes p0.., s and r drawn in 1..4
 * from the seed (many ties), latency seed % 3. */
static struct cluster *seeded_cluster(uint64_t seed, int n)
{
    struct rng r;
    rng_seed(&r, seed);
    double sr[32][2];
    for (int i = 0; i < n; i++) {
        sr[i][0] = 1 + (double)rng_below(&r, 4);
        sr[i][1] = 1 + (double)rng_below(&r, 4);
    }
    return nodes(n, (const double (*)[2])sr, (double)(seed % 3));
}

/*
 * Runs recorded from the release binary of a538c09 (before the exchange's
 * orders became ops tables), `hetcast run cN.csv --pattern P -s S -m M
 * --seed N --format json` on seeded_cluster(N, n) saved as CSV, all-to-some
 * with the receivers p1, p4, p7, ...: the completion, the waits and idle
 * time, and two signatures of the bookings in order (i from 1):
 * sum i * (from * n + to) and sum i * send_start.  Any change of an order, a
 * tie-break or a booking shows.
 */
static const struct recorded {
    int seed, n;
    const char *sched;
    enum model model;
    enum xpattern pattern;
    double completion;
    int waits;
    double idle;
    long long order_sig;
    double start_sig;
    int ntr;
} recorded[] = {
    {11, 6, "random", MODEL_SYNC, XPAT_ALL_TO_ALL, 69, 12, 109, 8161, 17081.0, 30},
    {11, 6, "random", MODEL_SYNC, XPAT_ALL_TO_SOME, 47, 7, 90, 904, 1285.0, 10},
    {11, 6, "random", MODEL_ASYNC, XPAT_ALL_TO_ALL, 28, 0, 0, 8213, 4191.0, 30},
    {11, 6, "random", MODEL_ASYNC, XPAT_ALL_TO_SOME, 24, 0, 0, 955, 129.0, 10},
    {11, 6, "caterpillar", MODEL_SYNC, XPAT_ALL_TO_ALL, 47, 10, 30, 8269, 11405.0, 30},
    {11, 6, "caterpillar", MODEL_SYNC, XPAT_ALL_TO_SOME, 47, 7, 86, 880, 1174.0, 10},
    {11, 6, "caterpillar", MODEL_ASYNC, XPAT_ALL_TO_ALL, 26, 0, 0, 8195, 4191.0, 30},
    {11, 6, "caterpillar", MODEL_ASYNC, XPAT_ALL_TO_SOME, 24, 0, 0, 943, 129.0, 10},
    {11, 6, "rspb", MODEL_SYNC, XPAT_ALL_TO_ALL, 55, 11, 41, 8077, 11954.0, 30},
    {11, 6, "rspb", MODEL_SYNC, XPAT_ALL_TO_SOME, 47, 6, 88, 769, 1281.0, 10},
    {11, 6, "rspb", MODEL_ASYNC, XPAT_ALL_TO_ALL, 30, 0, 0, 8173, 4191.0, 30},
    {11, 6, "rspb", MODEL_ASYNC, XPAT_ALL_TO_SOME, 24, 0, 0, 925, 129.0, 10},
    {11, 6, "orspb", MODEL_SYNC, XPAT_ALL_TO_ALL, 50, 13, 46, 8252, 11947.0, 30},
    {11, 6, "orspb", MODEL_SYNC, XPAT_ALL_TO_SOME, 47, 7, 93, 880, 1266.0, 10},
    {11, 6, "orspb", MODEL_ASYNC, XPAT_ALL_TO_ALL, 26, 0, 0, 8157, 4191.0, 30},
    {11, 6, "orspb", MODEL_ASYNC, XPAT_ALL_TO_SOME, 24, 0, 0, 943, 129.0, 10},
    {11, 6, "matching", MODEL_SYNC, XPAT_ALL_TO_ALL, 56, 7, 42, 8285, 12112.0, 30},
    {11, 6, "matching", MODEL_SYNC, XPAT_ALL_TO_SOME, 47, 7, 90, 904, 1285.0, 10},
    {11, 6, "matching", MODEL_ASYNC, XPAT_ALL_TO_ALL, 26, 0, 0, 8188, 4191.0, 30},
    {11, 6, "matching", MODEL_ASYNC, XPAT_ALL_TO_SOME, 24, 0, 0, 955, 129.0, 10},
    {11, 6, "greedy", MODEL_SYNC, XPAT_ALL_TO_ALL, 57, 10, 71, 7735, 13977.0, 30},
    {11, 6, "greedy", MODEL_SYNC, XPAT_ALL_TO_SOME, 47, 6, 88, 769, 1281.0, 10},
    {11, 6, "greedy", MODEL_ASYNC, XPAT_ALL_TO_ALL, 26, 0, 0, 8242, 4191.0, 30},
    {11, 6, "greedy", MODEL_ASYNC, XPAT_ALL_TO_SOME, 24, 0, 0, 925, 129.0, 10},
    {11, 6, "open-shop", MODEL_SYNC, XPAT_ALL_TO_ALL, 48, 9, 30, 8150, 11031.0, 30},
    {11, 6, "open-shop", MODEL_SYNC, XPAT_ALL_TO_SOME, 47, 8, 108, 985, 1205.0, 10},
    {11, 6, "open-shop", MODEL_ASYNC, XPAT_ALL_TO_ALL, 26, 0, 0, 8173, 4203.0, 30},
    {11, 6, "open-shop", MODEL_ASYNC, XPAT_ALL_TO_SOME, 24, 0, 0, 964, 129.0, 10},
    {12, 9, "random", MODEL_SYNC, XPAT_ALL_TO_ALL, 88, 29, 181, 100273, 110366.0, 72},
    {12, 9, "random", MODEL_SYNC, XPAT_ALL_TO_SOME, 53, 16, 190, 11292, 7847.0, 24},
    {12, 9, "random", MODEL_ASYNC, XPAT_ALL_TO_ALL, 40, 0, 0, 105965, 36178.0, 72},
    {12, 9, "random", MODEL_ASYNC, XPAT_ALL_TO_SOME, 33, 0, 0, 12117, 927.0, 24},
    {12, 9, "caterpillar", MODEL_SYNC, XPAT_ALL_TO_ALL, 60, 25, 112, 104260, 87025.0, 72},
    {12, 9, "caterpillar", MODEL_SYNC, XPAT_ALL_TO_SOME, 57, 14, 188, 11481, 8100.0, 24},
    {12, 9, "caterpillar", MODEL_ASYNC, XPAT_ALL_TO_ALL, 36, 0, 0, 105647, 36178.0, 72},
    {12, 9, "caterpillar", MODEL_ASYNC, XPAT_ALL_TO_SOME, 34, 0, 0, 12048, 927.0, 24},
    {12, 9, "rspb", MODEL_SYNC, XPAT_ALL_TO_ALL, 60, 28, 104, 105196, 87149.0, 72},
    {12, 9, "rspb", MODEL_SYNC, XPAT_ALL_TO_SOME, 60, 18, 188, 10974, 8254.0, 24},
    {12, 9, "rspb", MODEL_ASYNC, XPAT_ALL_TO_ALL, 36, 0, 0, 105950, 36178.0, 72},
    {12, 9, "rspb", MODEL_ASYNC, XPAT_ALL_TO_SOME, 33, 0, 0, 12021, 927.0, 24},
    {12, 9, "orspb", MODEL_SYNC, XPAT_ALL_TO_ALL, 65, 27, 141, 104499, 92111.0, 72},
    {12, 9, "orspb", MODEL_SYNC, XPAT_ALL_TO_SOME, 58, 17, 213, 11553, 8953.0, 24},
    {12, 9, "orspb", MODEL_ASYNC, XPAT_ALL_TO_ALL, 36, 0, 0, 105657, 36178.0, 72},
    {12, 9, "orspb", MODEL_ASYNC, XPAT_ALL_TO_SOME, 33, 0, 0, 12048, 927.0, 24},
    {12, 9, "matching", MODEL_SYNC, XPAT_ALL_TO_ALL, 58, 28, 88, 104108, 80634.0, 72},
    {12, 9, "matching", MODEL_SYNC, XPAT_ALL_TO_SOME, 53, 19, 198, 13122, 7991.0, 24},
    {12, 9, "matching", MODEL_ASYNC, XPAT_ALL_TO_ALL, 36, 0, 0, 105823, 36178.0, 72},
    {12, 9, "matching", MODEL_ASYNC, XPAT_ALL_TO_SOME, 34, 0, 0, 12045, 927.0, 24},
    {12, 9, "greedy", MODEL_SYNC, XPAT_ALL_TO_ALL, 68, 30, 114, 104720, 91907.0, 72},
    {12, 9, "greedy", MODEL_SYNC, XPAT_ALL_TO_SOME, 55, 16, 210, 10452, 9240.0, 24},
    {12, 9, "greedy", MODEL_ASYNC, XPAT_ALL_TO_ALL, 35, 0, 0, 105770, 36178.0, 72},
    {12, 9, "greedy", MODEL_ASYNC, XPAT_ALL_TO_SOME, 33, 0, 0, 11991, 927.0, 24},
    {12, 9, "open-shop", MODEL_SYNC, XPAT_ALL_TO_ALL, 59, 22, 61, 105584, 68344.0, 72},
    {12, 9, "open-shop", MODEL_SYNC, XPAT_ALL_TO_SOME, 53, 19, 186, 11796, 7153.0, 24},
    {12, 9, "open-shop", MODEL_ASYNC, XPAT_ALL_TO_ALL, 40, 0, 0, 106245, 36160.0, 72},
    {12, 9, "open-shop", MODEL_ASYNC, XPAT_ALL_TO_SOME, 34, 0, 0, 12363, 923.0, 24},
    {13, 17, "random", MODEL_SYNC, XPAT_ALL_TO_ALL, 189, 121, 884, 5374078, 3732080.0, 272},
    {13, 17, "random", MODEL_SYNC, XPAT_ALL_TO_SOME, 111, 67, 824, 622419, 278892.0, 96},
    {13, 17, "random", MODEL_ASYNC, XPAT_ALL_TO_ALL, 71, 0, 0, 5409821, 1013469.0, 272},
    {13, 17, "random", MODEL_ASYNC, XPAT_ALL_TO_SOME, 52, 0, 0, 674359, 41866.0, 96},
    {13, 17, "caterpillar", MODEL_SYNC, XPAT_ALL_TO_ALL, 130, 92, 391, 5403251, 2753109.0, 272},
    {13, 17, "caterpillar", MODEL_SYNC, XPAT_ALL_TO_SOME, 111, 67, 790, 673161, 264228.0, 96},
    {13, 17, "caterpillar", MODEL_ASYNC, XPAT_ALL_TO_ALL, 68, 0, 0, 5423529, 1013469.0, 272},
    {13, 17, "caterpillar", MODEL_ASYNC, XPAT_ALL_TO_SOME, 52, 0, 0, 673741, 41866.0, 96},
    {13, 17, "rspb", MODEL_SYNC, XPAT_ALL_TO_ALL, 138, 102, 449, 5488122, 2847137.0, 272},
    {13, 17, "rspb", MODEL_SYNC, XPAT_ALL_TO_SOME, 126, 63, 803, 647945, 276595.0, 96},
    {13, 17, "rspb", MODEL_ASYNC, XPAT_ALL_TO_ALL, 68, 0, 0, 5421375, 1013469.0, 272},
    {13, 17, "rspb", MODEL_ASYNC, XPAT_ALL_TO_SOME, 50, 0, 0, 676378, 41866.0, 96},
    {13, 17, "orspb", MODEL_SYNC, XPAT_ALL_TO_ALL, 142, 125, 588, 5381300, 3078111.0, 272},
    {13, 17, "orspb", MODEL_SYNC, XPAT_ALL_TO_SOME, 120, 68, 814, 640917, 280241.0, 96},
    {13, 17, "orspb", MODEL_ASYNC, XPAT_ALL_TO_ALL, 69, 0, 0, 5422253, 1013469.0, 272},
    {13, 17, "orspb", MODEL_ASYNC, XPAT_ALL_TO_SOME, 50, 0, 0, 673891, 41866.0, 96},
    {13, 17, "matching", MODEL_SYNC, XPAT_ALL_TO_ALL, 151, 124, 587, 5475225, 3022591.0, 272},
    {13, 17, "matching", MODEL_SYNC, XPAT_ALL_TO_SOME, 116, 69, 800, 697768, 282341.0, 96},
    {13, 17, "matching", MODEL_ASYNC, XPAT_ALL_TO_ALL, 69, 0, 0, 5419384, 1013469.0, 272},
    {13, 17, "matching", MODEL_ASYNC, XPAT_ALL_TO_SOME, 50, 0, 0, 674002, 41866.0, 96},
    {13, 17, "greedy", MODEL_SYNC, XPAT_ALL_TO_ALL, 156, 111, 556, 5511591, 3005082.0, 272},
    {13, 17, "greedy", MODEL_SYNC, XPAT_ALL_TO_SOME, 111, 70, 810, 682878, 275112.0, 96},
    {13, 17, "greedy", MODEL_ASYNC, XPAT_ALL_TO_ALL, 68, 0, 0, 5423029, 1013469.0, 272},
    {13, 17, "greedy", MODEL_ASYNC, XPAT_ALL_TO_SOME, 50, 0, 0, 675160, 41866.0, 96},
    {13, 17, "open-shop", MODEL_SYNC, XPAT_ALL_TO_ALL, 124, 64, 179, 5408142, 2251621.0, 272},
    {13, 17, "open-shop", MODEL_SYNC, XPAT_ALL_TO_SOME, 106, 85, 843, 663858, 240250.0, 96},
    {13, 17, "open-shop", MODEL_ASYNC, XPAT_ALL_TO_ALL, 73, 0, 0, 5398105, 1013510.0, 272},
    {13, 17, "open-shop", MODEL_ASYNC, XPAT_ALL_TO_SOME, 52, 0, 0, 671830, 41867.0, 96},
};

static void test_recorded(void)
{
    int bad = 0, runs = 0;
    for (size_t i = 0; i < sizeof recorded / sizeof *recorded; i++) {
        const struct recorded *w = &recorded[i];
        struct cluster *c = seeded_cluster((uint64_t)w->seed, w->n);
        int recv[32], nrecv = 0;
        for (int p = 1; p < w->n; p += 3)
            recv[nrecv++] = p;
        struct exchange x;
        if (run(&x, c, w->model, w->pattern, recv, nrecv, xsched_find(w->sched), NULL,
                (uint64_t)w->seed) < 0) {
            bad++;
            cluster_free(c);
            continue;
        }
        long long order_sig = 0;
        double start_sig = 0;
        for (int k = 0; k < x.eng.ntr; k++) {
            order_sig += (long long)(k + 1) * (x.eng.tr[k].from * w->n + x.eng.tr[k].to);
            start_sig += (k + 1) * x.eng.tr[k].start;
        }
        runs++;
        if (x.completion != w->completion || x.nwaits != w->waits || x.idle != w->idle ||
            order_sig != w->order_sig || start_sig != w->start_sig || x.eng.ntr != w->ntr) {
            if (bad++ < 5)
                diag("seed %d, %s, %s, %s: got %g %d %g %lld %g %d, recorded %g %d %g %lld %g %d",
                     w->seed, w->sched, model_name(w->model), exchange_pattern_name(w->pattern),
                     x.completion, x.nwaits, x.idle, order_sig, start_sig, x.eng.ntr,
                     w->completion, w->waits, w->idle, w->order_sig, w->start_sig, w->ntr);
        }
        exchange_free(&x);
        cluster_free(c);
    }
    ok(bad == 0 && runs == (int)(sizeof recorded / sizeof *recorded),
       "%d recorded runs (3 seeded clusters x 7 orders x 2 models x 2 patterns): the same "
       "completion, waits, idle time and bookings as before the ops tables", runs);
}

/* The list of orders is complete: every table is found by its name, says what
 * it is, is either fixed or decided while simulating, and runs in each model it
 * claims on a small cluster (all-to-all and all-to-some). */
static void test_ops_list(void)
{
    static const double sr[4][2] = {{1, 2}, {3, 1}, {2, 2}, {1, 4}};
    struct cluster *c = nodes(4, sr, 1);
    static const int recv[2] = {1, 3};
    char *names = xsched_names();
    int bad = 0, runs = 0;
    for (int i = 0; i < XSCHED_COUNT; i++) {
        const struct xsched_ops *ops = xsched_at(i);
        if (!ops || xsched_find(ops->name) != ops || !ops->summary || !*ops->summary || !ops->cost ||
            !strstr(names, ops->name) || !ops->build == !ops->choose || !ops->models ||
            (ops->models & ~(MODEL_BIT(MODEL_SYNC) | MODEL_BIT(MODEL_ASYNC)))) {
            diag("table %d (%s) is incomplete", i, ops ? ops->name : "NULL");
            bad++;
            continue;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(xsched_at(j)->name, ops->name) == 0)
                bad++;
        for (int m = 0; m < MODEL_COUNT; m++) {
            char *cause = NULL;
            bool claims = ops->models & MODEL_BIT(m);
            if ((xsched_check(ops, c, (enum model)m, &cause) == 0) != claims) {
                diag("%s: xsched_check under %s disagrees with its models", ops->name,
                     model_name((enum model)m));
                bad++;
            }
            free(cause);
            if (!claims)
                continue;
            for (int pat = 0; pat < 2; pat++) {
                struct exchange x;
                if (run(&x, c, (enum model)m, (enum xpattern)pat, recv, 2, ops, NULL, 3) < 0) {
                    bad++;
                    continue;
                }
                runs++;
                int want = pat == XPAT_ALL_TO_ALL ? 4 * 3 : 4 * 2 - 2;
                if (x.ops != ops || x.eng.ntr != want || !(x.completion > 0)) {
                    diag("%s, %s, %s: %d transfers (want %d), completion %g", ops->name,
                         model_name((enum model)m), exchange_pattern_name((enum xpattern)pat),
                         x.eng.ntr, want, x.completion);
                    bad++;
                }
                exchange_free(&x);
            }
        }
    }
    ok(bad == 0 && runs == 2 * 2 * XSCHED_COUNT && xsched_at(XSCHED_COUNT) == NULL &&
           xsched_at(-1) == NULL && xsched_find("no-such-order") == NULL,
       "the %d orders (%s): found by name, complete, each run in its models (%d runs)",
       XSCHED_COUNT, names, runs);
    free(names);
    cluster_free(c);
}

/* A set cancel flag stops greedy's order (and the simulation): "cancelled". */
static void test_cancel(void)
{
    double sr[32][2];
    for (int i = 0; i < 32; i++) {
        sr[i][0] = 1 + i % 3;
        sr[i][1] = 2 + i % 5;
    }
    struct cluster *c = nodes(32, (const double (*)[2])sr, 0);
    volatile sig_atomic_t flag = 1;
    const char *names[] = {"greedy", "caterpillar", "open-shop"};
    for (int i = 0; i < 3; i++) {
        struct exchange_opts o = {.pattern = XPAT_ALL_TO_ALL, .ops = xsched_find(names[i]),
                                  .cancel = &flag};
        struct exchange x;
        char *cause = NULL;
        int rc = exchange_run(&x, c, MODEL_SYNC, &o, &cause);
        ok(rc < 0 && cause && strcmp(cause, "cancelled") == 0, "%s, cancelled: fails with "
           "\"cancelled\" (got %s)", names[i], cause ? cause : "a run");
        if (rc == 0)
            exchange_free(&x);
        free(cause);
    }
    cluster_free(c);
}

/* ---- the lean run against the full one, event for event ---- */

struct booked {
    struct transfer *t;
    int *row;
    int n, cap;
};

static void record(void *ctx, const struct transfer *t, int row)
{
    struct booked *b = ctx;
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 256;
        b->t = realloc(b->t, (size_t)b->cap * sizeof *b->t);
        b->row = realloc(b->row, (size_t)b->cap * sizeof *b->row);
    }
    b->t[b->n] = *t;
    b->t[b->n].reason = NULL;
    b->row[b->n++] = row;
}

static bool same_transfer(const struct transfer *a, const struct transfer *b)
{
    return a->from == b->from && a->to == b->to && a->msg == b->msg && a->seq == b->seq &&
           a->start == b->start && a->send_end == b->send_end && a->link_start == b->link_start &&
           a->link_end == b->link_end && a->recv_start == b->recv_start &&
           a->recv_end == b->recv_end && a->hold == b->hold && a->free == b->free &&
           a->wait_start == b->wait_start;
}

/* A random node table: two-decimal times (kind 0) or small integers with many ties (1). */
static struct cluster *lean_cluster(uint64_t seed, int n, int kind)
{
    struct rng r;
    rng_seed(&r, seed);
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        double sv = kind ? (double)rng_below(&r, 4) : 1 + (double)rng_below(&r, 901) / 100;
        double rv = kind ? (double)rng_below(&r, 4) : 1 + (double)rng_below(&r, 901) / 100;
        cluster_add_node(c, name, sv, rv);
    }
    c->latency = (double)rng_below(&r, 3);
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);
    diag_free(&d);
    return c;
}

static void test_lean(void)
{
    static const int sizes[] = {1, 2, 5, 33, 80};
    int runs = 0, same = 0, events = 0, small = 0;
    for (int a = 0; a < XSCHED_COUNT; a++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
            for (int kind = 0; kind < 2; kind++)
                for (int m = 0; m < 2; m++)
                    for (int pat = 0; pat < 2; pat++) {
                        int n = sizes[si];
                        uint64_t seed = (uint64_t)(a * 1000 + n * 10 + kind * 4 + m * 2 + pat);
                        struct cluster *c = lean_cluster(seed, n, kind);
                        int recv[80], nrecv = 0;
                        for (int i = (int)(seed % 3); i < n; i += 3)
                            recv[nrecv++] = i;
                        if (nrecv == 0)
                            recv[nrecv++] = 0;
                        struct booked full = {0}, lean = {0};
                        struct exchange_opts o = {.pattern = (enum xpattern)pat, .recv = recv,
                                                  .nrecv = nrecv, .ops = xsched_at(a),
                                                  .seed = seed, .on_book = record, .ctx = &full};
                        struct exchange xf, xl;
                        char *cause = NULL;
                        enum model model = m ? MODEL_SYNC : MODEL_ASYNC;
                        int rf = exchange_run(&xf, c, model, &o, &cause);
                        free(cause);
                        cause = NULL;
                        o.lean = true;
                        o.ctx = &lean;
                        int rl = exchange_run(&xl, c, model, &o, &cause);
                        free(cause);
                        bool eq = rf == 0 && rl == 0 && xl.lean && !xf.lean &&
                                  full.n == xf.eng.ntr && lean.n == full.n && xl.ntr == xf.ntr &&
                                  xl.eng.tr == NULL && xl.row == NULL &&
                                  xl.completion == xf.completion && xl.nwaits == xf.nwaits &&
                                  xl.idle == xf.idle && xl.lower_bound == xf.lower_bound;
                        for (int i = 0; eq && i < full.n; i++)
                            eq = same_transfer(&full.t[i], &lean.t[i]) &&
                                 same_transfer(&full.t[i], &xf.eng.tr[i]) &&
                                 full.row[i] == lean.row[i] && full.row[i] == xf.row[i];
                        if (!eq)
                            diag("lean differs: %s, n %d, kind %d, %s, %s", xsched_at(a)->name, n,
                                 kind, model_name(model), exchange_pattern_name((enum xpattern)pat));
                        if (rl == 0 && xsched_at(a)->rotation)
                            small += xl.order == NULL;
                        runs++;
                        same += eq;
                        events += full.n;
                        if (rf == 0)
                            exchange_free(&xf);
                        if (rl == 0)
                            exchange_free(&xl);
                        free(full.t);
                        free(full.row);
                        free(lean.t);
                        free(lean.row);
                        cluster_free(c);
                    }
    is_int(same, runs, "lean exchanges book what the full ones book, transfer for transfer "
                       "(%d transfers: every order, both models, both patterns, ties)", events);
    is_int(small, 3 * 5 * 2 * 2 * 2, "caterpillar, rspb and orspb run lean without the order table");
}

int main(void)
{
    test_cancel();
    test_lean();
    test_two_nodes();
    test_three_nodes();
    test_contention();
    test_tables();
    test_seeded_structure();
    test_greedy_by_hand();
    test_greedy_own_last();
    test_matching();
    test_engine_mode();
    test_random_clusters();
    test_receivers();
    test_refusals();
    test_matrix_sync();
    test_table8();
    test_recorded();
    test_ops_list();
    return tap_exit();
}
