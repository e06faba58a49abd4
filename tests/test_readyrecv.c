/*
 * test_readyrecv.c - Liu, Wang & Guo's ready-to-receive time (sched/readyrecv.h)
 * and the Libeskind-Hadas & Hartline bound (engine/bounds.h) on cases worked by
 * hand from the paper's equation (1).
 */
#include <stdlib.h>

#include "engine/bounds.h"
#include "model/cluster.h"
#include "sched/readyrecv.h"
#include "tap.h"

static struct cluster *nodes(int n, const double (*sr)[2], double latency)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int i = 0; i < n; i++) {
        char name[8];
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

int main(void)
{
    char *cause = NULL;
    double tr;
    long seqs;

    /* §2.2-2.3: p0, p1 fast (s 1, r 2), p2 slow (s 2, r 3), L 1; p0 the
     * source.  p0's sends end at 1 and 2, so either sequence has TR 2. */
    static const double fig1[3][2] = {{1, 2}, {1, 2}, {2, 3}};
    struct cluster *c = nodes(3, fig1, 1);
    int slow_first[] = {2, 1}, fast_first[] = {1, 2};
    ok(rr_sequence(c, slow_first, 2, &tr, &cause) == 0 && tr == 2, "Fig. 1: (p2, p1) has TR 2");
    ok(rr_sequence(c, fast_first, 2, &tr, &cause) == 0 && tr == 2, "Fig. 1: (p1, p2) has TR 2");
    ok(rr_fnf(c, &tr, &cause) == 0 && tr == 2, "Fig. 1: fnf's TR is 2");
    ok(rr_optimal(c, &tr, &seqs, &cause) == 0 && tr == 2 && seqs == 2,
       "Fig. 1: the smallest TR is 2, over 2 sequences");
    int twice[] = {1, 1};
    ok(rr_sequence(c, twice, 2, &tr, &cause) < 0 && cause, "a node named twice is refused");
    free(cause);
    cause = NULL;
    cluster_free(c);

    /* p0 and p1 (1, 1), p2..p4 (8, 8), L 0.  FNF: R(p1) = 1, S(p1) = 2;
     * sends end at 2 (p0), 3 (p0, p1): R = 1, 2, 3, 3, TR 3.  Slow first
     * (p2, p1, p3, p4): R(p2) = 1, R(p1) = 2, S(p1) = 3, then ends at 3 (p0)
     * and 4 (p0, p1): TR 4. */
    static const double two[5][2] = {{1, 1}, {1, 1}, {8, 8}, {8, 8}, {8, 8}};
    c = nodes(5, two, 0);
    int slow[] = {2, 1, 3, 4};
    ok(rr_sequence(c, slow, 4, &tr, &cause) == 0 && tr == 4, "slow first: TR 4");
    ok(rr_fnf(c, &tr, &cause) == 0 && tr == 3, "fnf: TR 3");
    ok(rr_optimal(c, &tr, &seqs, &cause) == 0 && tr == 3, "the smallest TR: 3");
    is_int(seqs, 4, "identical nodes tried once per place: 4 sequences, not 24");
    cluster_free(c);

    /* Theorem 3's transform: r' = L + r rounded up, s rounded up. */
    static const double odd[3][2] = {{3, 5}, {0.3, 0}, {4, 7}};
    c = nodes(3, odd, 1);
    struct cluster *p = rr_power2(c);
    is_double(p->nodes[0].send, 4, 0, "power-2: s 3 -> 4");
    is_double(p->nodes[0].recv, 8, 0, "power-2: L 1 + r 5 -> 8");
    is_double(p->nodes[1].send, 0.5, 0, "power-2: s 0.3 -> 0.5");
    is_double(p->nodes[1].recv, 1, 0, "power-2: L 1 + r 0 -> 1");
    is_double(p->nodes[2].send, 4, 0, "power-2: s 4 stays");
    is_double(p->nodes[2].recv, 8, 0, "power-2: L 1 + r 7 -> 8");
    is_double(p->latency, 0, 0, "power-2: the latency is folded into r");
    cluster_free(p);
    cluster_free(c);

    /* Libeskind-Hadas & Hartline: alpha = max r/s, beta = max r - min r
     * over the receivers (r' = r + L). */
    static const double lhh[3][2] = {{1, 2}, {2, 6}, {1, 2}};
    c = nodes(3, lhh, 0);
    double alpha, beta;
    ok(bound_lhh(c, MODEL_ASYNC, &alpha, &beta), "lhh: defined on a node table, async");
    is_double(alpha, 3, 0, "lhh: alpha = 6 / 2");
    is_double(beta, 4, 0, "lhh: beta = 6 - 2");
    ok(!bound_lhh(c, MODEL_SYNC, &alpha, &beta), "lhh: not defined in sync");
    cluster_free(c);

    /* refusals */
    static const double many[11][2] = {{1, 1}};
    c = nodes(11, many, 0);
    ok(rr_optimal(c, &tr, &seqs, &cause) < 0 && cause && strstr(cause, "at most 10"),
       "rr_optimal refuses 11 nodes, naming the limit");
    free(cause);
    cluster_free(c);
    return tap_exit();
}
