/*
 * model/cluster_fast.c - the fast path of cluster_sort_nodes and of the consistency
 * check (model/cluster_fast.h), beside the readable qsort in model/cluster.c: the same
 * order, in O(n) passes.  Few distinct (first, second) time pairs: a pair
 * hash numbers them and one counting pass places the nodes.  Many: an LSD
 * radix sort on the times' bits, then the runs that tie on the first time
 * ordered by the second.  tests/test_fastpaths.c and tests/test_lean.c
 * check it against the readable path; docs/performance.md has the
 * measurements ("Fast paths").
 */
#include "model/cluster_fast.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support/hugemem.h"
#include "support/pairtab.h"
#include "support/timekey.h"

struct keyed {
    uint64_t key;
    int node;
};

/* A time as an integer of the same order (descending: the reverse order). */
static uint64_t sort_key(double t, bool descending)
{
    return descending ? ~time_key(t) : time_key(t);
}

/* Stable LSD radix sort of a[0..n) on key, `bits` bits a pass, the counts
 * of all passes taken in one read; a digit that is the same in every key is
 * skipped (integer times need two or three passes). */
static void radix_sort_bits(struct keyed *a, struct keyed *tmp, size_t n, int bits)
{
    int digits = (64 + bits - 1) / bits;
    size_t radix = (size_t)1 << bits, *count = xcalloc((size_t)digits * (radix + 1), sizeof *count);
    uint64_t all_and = ~0ull, all_or = 0, mask = radix - 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = a[i].key;
        all_and &= k;
        all_or |= k;
        for (int d = 0; d < digits; d++)
            count[(size_t)d * (radix + 1) + (k >> (d * bits) & mask) + 1]++;
    }
    struct keyed *from = a, *to = tmp;
    for (int d = 0; d < digits; d++) {
        int shift = d * bits;
        if (((all_and ^ all_or) >> shift & mask) == 0)
            continue;
        size_t *c = count + (size_t)d * (radix + 1);
        for (size_t b = 0; b < radix; b++)
            c[b + 1] += c[b];
        for (size_t i = 0; i < n; i++)
            to[c[from[i].key >> shift & mask]++] = from[i];
        struct keyed *t = from;
        from = to;
        to = t;
    }
    free(count);
    if (from != a)
        memcpy(a, from, n * sizeof *a);
}

/* 11-bit digits on large arrays (five passes instead of seven for
 * two-decimal times), bytes on small ones, whose counts would outweigh
 * them. */
static void radix_sort(struct keyed *a, struct keyed *tmp, size_t n)
{
    radix_sort_bits(a, tmp, n, n >= 1 << 16 ? 11 : 8);
}

static int cmp_keyed(const void *x, const void *y)
{
    const struct keyed *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->node < b->node ? -1 : a->node > b->node;
}

/*
 * Most clusters have few distinct (first, second) time pairs: classes of
 * identical nodes, times with two decimals.  Then one pass gives each node
 * its pair's number (a small hash table), the pairs are sorted, and one
 * stable counting pass places the nodes: O(n + k log k) for k pairs, and no
 * second look at a node for ties.
 */
static int cmp_pair(const void *x, const void *y)
{
    const struct pair_key *a = x, *b = y;
    if (a->first != b->first)
        return a->first < b->first ? -1 : 1;
    return a->second < b->second ? -1 : a->second > b->second;
}

/* cluster_sort_nodes by pairs; false, with order[] unchanged, past n / 4 or
 * 65536 pairs (the radix sort does those). */
static bool sort_by_pairs(const struct node *nodes, int *order, int n, bool by_recv_first,
                          bool descending)
{
    int limit = n / 4 < 65536 ? n / 4 : 65536;
    if (limit < 1)
        return false;
    struct pair_table t;
    pair_table_init(&t);
    int *pid = xmalloc((size_t)n * sizeof *pid);
    mem_advise_huge(pid, (size_t)n * sizeof *pid);   /* every page is written */
    for (int i = 0; i < n; i++) {
        const struct node *nd = &nodes[order[i]];
        int id = pair_id(&t, sort_key(by_recv_first ? nd->recv : nd->send, descending),
                         sort_key(by_recv_first ? nd->send : nd->recv, descending), limit);
        if (id < 0) {
            free(pid);
            pair_table_free(&t);
            return false;
        }
        pid[i] = id;
        t.pv[id].count++;
    }
    free(t.slot);   /* the numbers are all that is needed from here on */
    t.slot = NULL;
    /* Where each pair's nodes start, in the pairs' order; then each node,
     * in index order, to its pair's next place (stable: ties by index). */
    qsort(t.pv, (size_t)t.n, sizeof *t.pv, cmp_pair);
    int *start = xmalloc((size_t)t.n * sizeof *start), at = 0;
    for (int r = 0; r < t.n; r++) {
        start[t.pv[r].id] = at;
        at += t.pv[r].count;
    }
    int *out = xmalloc((size_t)n * sizeof *out);
    mem_advise_huge(out, (size_t)n * sizeof *out);
    for (int i = 0; i < n; i++)
        out[start[pid[i]]++] = order[i];
    memcpy(order, out, (size_t)n * sizeof *order);
    free(out);
    free(start);
    free(pid);
    pair_table_free(&t);
    return true;
}

/*
 * Sort the n nodes in order[] (increasing indices) by the first time, then
 * the second, then the index: fnf's (send, recv), slowest-first's (recv, send)
 * descending.  Few distinct pairs: sort_by_pairs.  Otherwise the radix sort
 * orders by the first time; runs that tie on it are then ordered by the
 * second (most often they tie on both: identical nodes, left in index
 * order).  O(n) passes, O(n log n) only in runs of equal first times and
 * different second ones.
 */
void cluster_fast_sort_nodes(const struct node *nodes, int *order, int n, bool by_recv_first,
                     bool descending)
{
    if (sort_by_pairs(nodes, order, n, by_recv_first, descending))
        return;
    struct keyed *a = xmalloc((size_t)(n ? n : 1) * sizeof *a);
    struct keyed *tmp = xmalloc((size_t)(n ? n : 1) * sizeof *tmp);
    /* every page is written: huge pages fault in and zero at a fraction of the cost */
    mem_advise_huge(a, (size_t)n * sizeof *a);
    mem_advise_huge(tmp, (size_t)n * sizeof *tmp);
    for (int i = 0; i < n; i++) {
        const struct node *nd = &nodes[order[i]];
        a[i].key = sort_key(by_recv_first ? nd->recv : nd->send, descending);
        a[i].node = order[i];
    }
    radix_sort(a, tmp, (size_t)n);
    /* The second times of the nodes that tie on the first, in one pass: the
     * nodes are random places in memory, so ask for them 16 ahead and let
     * the misses overlap. */
    for (int k = 0; k < n; k++) {
        if (k + 16 < n)
            __builtin_prefetch(&nodes[a[k + 16].node]);
        if ((k > 0 && a[k - 1].key == a[k].key) || (k + 1 < n && a[k + 1].key == a[k].key)) {
            const struct node *nd = &nodes[a[k].node];
            tmp[k].key = sort_key(by_recv_first ? nd->send : nd->recv, descending);
            tmp[k].node = a[k].node;
        }
    }
    for (int i = 0; i < n;) {
        int j = i + 1;
        while (j < n && a[j].key == a[i].key)
            j++;
        if (j == i + 1) {   /* alone with its first time */
            order[i] = a[i].node;
            i++;
            continue;
        }
        bool tied = true;
        for (int k = i + 1; k < j && tied; k++)
            tied = tmp[k].key == tmp[i].key;
        if (!tied)
            qsort(tmp + i, (size_t)(j - i), sizeof *tmp, cmp_keyed);
        for (int k = i; k < j; k++)
            order[k] = tmp[k].node;
        i = j;
    }
    free(a);
    free(tmp);
}

#define SPEED_GROUPS 4096   /* distinct (send, recv) pairs the grouping takes */

/*
 * The usual cluster has few distinct send times (classes of machines, or
 * times with two decimals): collect its distinct (send, recv) pairs in the
 * pair table, each with its first and last node, sort those only, and walk
 * the full check's order a pair at a time (cluster_speed_step).  The nodes of
 * one pair come together in that order, by index; the check can fail only at
 * the first of them (the others tie with it on both times), and after the
 * last of them its state is what stepping the last alone leaves.  So the
 * walk over each pair's first and last node gives the full check's verdict
 * and names the same pair.  -1 (not decided here) when a time is NaN or
 * there are more than SPEED_GROUPS pairs: the full check then decides.
 * O(n) expected, no allocation per node.
 */
int cluster_fast_speeds_grouped(const struct cluster *c, int *bad_p, int *bad_q)
{
    struct pair_table t;
    pair_table_init(&t);
    int *first = xmalloc(SPEED_GROUPS * sizeof *first), *last = xmalloc(SPEED_GROUPS * sizeof *last);
    int verdict = 1;
    for (int i = 0; i < c->n && verdict > 0; i++) {
        double s = c->nodes[i].send, r = c->nodes[i].recv;
        int seen = t.n;
        int id = isnan(s) || isnan(r) ? -1 : pair_id(&t, time_key(s), time_key(r), SPEED_GROUPS);
        if (id < 0)
            verdict = -1;
        else if (t.n > seen)
            first[id] = last[id] = i;   /* a new pair */
        else
            last[id] = i;
    }
    if (verdict > 0 && t.n > 0) {
        qsort(t.pv, (size_t)t.n, sizeof *t.pv, cmp_pair);   /* the full check's order, by pairs */
        int f0 = first[t.pv[0].id];
        struct speed_walk w = {f0, f0, f0};
        for (int k = 0; k < t.n && verdict > 0; k++) {
            int f = first[t.pv[k].id], l = last[t.pv[k].id];
            if ((k > 0 && !cluster_speed_step(c->nodes, &w, f, bad_p, bad_q)) ||
                (l != f && !cluster_speed_step(c->nodes, &w, l, bad_p, bad_q)))
                verdict = 0;
        }
    }
    free(first);
    free(last);
    pair_table_free(&t);
    return verdict;
}
