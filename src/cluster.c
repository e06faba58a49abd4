/*
 * cluster.c - the cluster model: construction, costs, the nodes sorted by
 * their times, and the checks that every front door (CSV, Lua) shares
 * through cluster_finish().
 */
#include "cluster.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hugemem.h"
#include "timing.h"

/*
 * A user's text as it goes into a one-line message: control characters
 * (names may hold line breaks) become '?', and long text is cut with "...".
 */
static const char *shown(const char *s, char *buf, size_t size)
{
    size_t n = 0, max = size - 4;
    for (; *s && n < max; s++)
        buf[n++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
    if (*s)
        memcpy(buf + n, "...", 3), n += 3;
    buf[n] = '\0';
    return buf;
}

#define SHOWN(s, buf) shown((s), (buf), sizeof (buf))

struct cluster *cluster_new(enum cluster_kind kind)
{
    struct cluster *c = xcalloc(1, sizeof *c);
    c->kind = kind;
    c->unit = 1.0;
    c->source = 0;
    return c;
}

void cluster_free(struct cluster *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++) {
        free(c->nodes[i].klass);
        free(c->nodes[i].group);
    }
    free(c->nodes);
    free(c->path);
    free(c->name);
    free(c->description);
    free(c->dist);
    free(c->edges);
    free(c->edge_of);
    free(c->source_name);
    while (c->names) {
        struct name_chunk *next = c->names->next;
        free(c->names);
        c->names = next;
    }
    free(c);
}

void cluster_set_str(char **field, const char *value)
{
    free(*field);
    *field = value ? xstrdup(value) : NULL;
}

/*
 * A copy of name (len bytes and a NUL) in c's name pool.  Chunks double from
 * 4 KiB to 1 MiB, so a million names cost about a dozen allocations instead
 * of a million, and they lie in the order of the nodes; a name that does not
 * fit what is left opens a new chunk (at most a name's length is lost).
 */
static char *pool_copy(struct cluster *c, const char *name, size_t len)
{
    struct name_chunk *ch = c->names;
    if (!ch || ch->cap - ch->used < len + 1) {
        size_t cap = ch ? 2 * ch->cap : 4096;
        if (cap > ((size_t)1 << 20))
            cap = (size_t)1 << 20;
        if (cap < len + 1)
            cap = len + 1;
        struct name_chunk *fresh = xmalloc(sizeof *fresh + cap);
        fresh->next = ch;
        fresh->used = 0;
        fresh->cap = cap;
        c->names = ch = fresh;
    }
    char *s = ch->text + ch->used;
    memcpy(s, name, len);
    s[len] = '\0';
    ch->used += len + 1;
    return s;
}

int cluster_add_node(struct cluster *c, const char *name, double send, double recv)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        c->nodes = xrealloc(c->nodes, (size_t)c->cap * sizeof *c->nodes);
    }
    struct node *nd = &c->nodes[c->n];
    memset(nd, 0, sizeof *nd);
    nd->name = pool_copy(c, name, strlen(name));
    nd->send = send;
    nd->recv = recv;
    return c->n++;
}

void cluster_set_node_name(struct cluster *c, int i, const char *name)
{
    c->nodes[i].name = pool_copy(c, name, strlen(name));
}

int cluster_add_edge(struct cluster *c, int from, int to, double time, double send)
{
    if (c->nedges == c->edgecap) {
        c->edgecap = c->edgecap ? 2 * c->edgecap : 16;
        c->edges = xrealloc(c->edges, (size_t)c->edgecap * sizeof *c->edges);
    }
    struct edge *e = &c->edges[c->nedges];
    e->from = from;
    e->to = to;
    e->time = time;
    e->send = send;
    e->line = 0;
    return c->nedges++;
}

int cluster_find(const struct cluster *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->nodes[i].name, name) == 0)
            return i;
    return -1;
}

const char *cluster_kind_name(enum cluster_kind k)
{
    switch (k) {
    case CLUSTER_NODES: return "node table";
    case CLUSTER_MATRIX: return "latency matrix";
    case CLUSTER_GRAPH: return "platform graph";
    }
    return "?";
}

bool cluster_cost(const struct cluster *c, int q, int p, struct cost *out)
{
    return timing_cost(c, q, p, out);   /* where the costs come from: timing.h */
}

/* ---- nodes in the order of their times: fnf's receivers, the consistency check ---- */

/* A time as an integer of the same order (-0 and +0 one time). */
static uint64_t order_bits(double t)
{
    uint64_t u;
    t += 0.0;   /* -0 == +0 */
    memcpy(&u, &t, sizeof u);
    return u >> 63 ? ~u : u | (1ull << 63);
}

struct keyed {
    uint64_t key;
    int node;
};

/* A time as an integer of the same order (descending: the reverse order). */
static uint64_t time_key(double t, bool descending)
{
    return descending ? ~order_bits(t) : order_bits(t);
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
struct pair_key {
    uint64_t first, second;
    int id, count;
};

struct pair_table {
    struct pair_key *pv;    /* the pairs, numbered in the order first seen */
    int n, cap;
    int *slot;              /* 2^bits slots: a pair's number or -1; at most half full */
    int bits;
};

static size_t pair_slot(uint64_t k1, uint64_t k2, int bits)
{
    return (size_t)((((k1 * 0x9E3779B97F4A7C15ull) ^ k2) * 0xC2B2AE3D27D4EB4Full) >> (64 - bits));
}

__attribute__((noinline)) static void pair_rehash(struct pair_table *t, int bits)
{
    size_t size = (size_t)1 << bits, mask = size - 1;
    t->bits = bits;
    t->slot = xrealloc(t->slot, size * sizeof *t->slot);
    memset(t->slot, -1, size * sizeof *t->slot);
    for (int p = 0; p < t->n; p++) {
        size_t at = pair_slot(t->pv[p].first, t->pv[p].second, bits);
        while (t->slot[at] >= 0)
            at = (at + 1) & mask;
        t->slot[at] = p;
    }
}

/* The number of the pair (k1, k2), added if new; -1 if that would make
 * more than `limit` pairs. */
static inline int pair_id(struct pair_table *t, uint64_t k1, uint64_t k2, int limit)
{
    size_t mask = ((size_t)1 << t->bits) - 1, at = pair_slot(k1, k2, t->bits);
    for (; t->slot[at] >= 0; at = (at + 1) & mask) {
        const struct pair_key *p = &t->pv[t->slot[at]];
        if (p->first == k1 && p->second == k2)
            return t->slot[at];
    }
    if (t->n == limit)
        return -1;
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->pv = xrealloc(t->pv, (size_t)t->cap * sizeof *t->pv);
    }
    int id = t->n++;
    t->pv[id] = (struct pair_key){k1, k2, id, 0};
    t->slot[at] = id;
    if (2 * t->n > 1 << t->bits)
        pair_rehash(t, t->bits + 1);
    return id;
}

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
    struct pair_table t = {0};
    pair_rehash(&t, 7);
    int *pid = xmalloc((size_t)n * sizeof *pid);
    mem_advise_huge(pid, (size_t)n * sizeof *pid);   /* every page is written */
    for (int i = 0; i < n; i++) {
        const struct node *nd = &nodes[order[i]];
        int id = pair_id(&t, time_key(by_recv_first ? nd->recv : nd->send, descending),
                         time_key(by_recv_first ? nd->send : nd->recv, descending), limit);
        if (id < 0) {
            free(pid);
            free(t.pv);
            free(t.slot);
            return false;
        }
        pid[i] = id;
        t.pv[id].count++;
    }
    free(t.slot);
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
    free(t.pv);
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
void cluster_sort_nodes(const struct node *nodes, int *order, int n, bool by_recv_first,
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
        a[i].key = time_key(by_recv_first ? nd->recv : nd->send, descending);
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
            tmp[k].key = time_key(by_recv_first ? nd->send : nd->recv, descending);
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

/* idx[] = the nodes sorted by (send, recv, index); false (idx untouched)
 * when a time is NaN, which has no order. */
static bool speeds_order(const struct cluster *c, int *idx)
{
    for (int i = 0; i < c->n; i++)
        if (isnan(c->nodes[i].send) || isnan(c->nodes[i].recv))
            return false;
    cluster_sort_nodes(c->nodes, idx, c->n, false, false);
    return true;
}

#define SPEED_GROUPS 4096   /* distinct (send, recv) pairs the grouping takes */

/*
 * The usual cluster has few distinct send times (classes of machines, or
 * times with two decimals): collect its distinct (send, recv) pairs in the
 * pair table and sort those only.  True when that shows the speeds
 * consistent: one receive time per send time, and receive times
 * non-decreasing over the sorted send times (what the full check below
 * tests, pair by pair).  False when they are not, or when a time is NaN or
 * there are more than SPEED_GROUPS pairs: the full check then decides, and
 * names the pair.  O(n) expected, no allocation per node.
 */
static bool speeds_consistent_grouped(const struct cluster *c)
{
    struct pair_table t = {0};
    pair_rehash(&t, 7);
    bool ok = true;
    for (int i = 0; i < c->n && ok; i++) {
        double s = c->nodes[i].send, r = c->nodes[i].recv;
        ok = !isnan(s) && !isnan(r) && pair_id(&t, order_bits(s), order_bits(r), SPEED_GROUPS) >= 0;
    }
    if (ok) {
        qsort(t.pv, (size_t)t.n, sizeof *t.pv, cmp_pair);
        for (int k = 1; k < t.n && ok; k++)   /* distinct pairs, by (send, recv) */
            ok = t.pv[k - 1].first != t.pv[k].first && t.pv[k - 1].second <= t.pv[k].second;
    }
    free(t.pv);
    free(t.slot);
    return ok;
}

bool cluster_speeds_consistent(const struct cluster *c, int *bad_p, int *bad_q)
{
    /* Few send times: the grouping above decides in O(n).  Otherwise sort
     * indices by send time, then check recv is non-decreasing among
     * distinct send times and equal among equal ones: O(n log n). */
    int n = c->n;
    if (n < 2 || speeds_consistent_grouped(c))
        return true;
    int *idx = xmalloc((size_t)n * sizeof *idx);
    for (int i = 0; i < n; i++)
        idx[i] = i;
    /* The radix sort gives the order in O(n) passes; when it cannot (a NaN
     * time), the merge sort below does (qsort would need the cluster). */
    const struct node *nodes = c->nodes;
    for (int w = speeds_order(c, idx) ? n : 1; w < n; w *= 2) {
        int *tmp = xmalloc((size_t)n * sizeof *tmp);
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int a = lo, b = mid, k = lo;
            while (a < mid && b < hi) {
                const struct node *x = &nodes[idx[a]], *y = &nodes[idx[b]];
                bool take_a = x->send < y->send || (x->send == y->send && x->recv <= y->recv);
                tmp[k++] = take_a ? idx[a++] : idx[b++];
            }
            while (a < mid)
                tmp[k++] = idx[a++];
            while (b < hi)
                tmp[k++] = idx[b++];
        }
        memcpy(idx, tmp, (size_t)n * sizeof *idx);
        free(tmp);
    }
    bool ok = true;
    for (int i = 1; i < n && ok; i++) {
        const struct node *x = &nodes[idx[i - 1]], *y = &nodes[idx[i]];
        /* x->send <= y->send; consistent needs x->recv <= y->recv, and equal
         * send times need equal receive times ("iff"). */
        if (x->recv > y->recv || (x->send == y->send && x->recv != y->recv)) {
            ok = false;
            if (bad_p)
                *bad_p = idx[i - 1];
            if (bad_q)
                *bad_q = idx[i];
        }
    }
    free(idx);
    return ok;
}

/* A time the model can compute with: >= 0 (> 0 if positive), at most CLUSTER_MAX_TIME. */
static bool time_ok(double x, bool positive)
{
    return (positive ? x > 0 : x >= 0) && x <= CLUSTER_MAX_TIME;
}

/* Every node reachable from the source?  O(n + edges): the edges are
 * bucketed by their tail first (all ends are valid nodes here). */
static void check_reachable(struct cluster *c, struct diag *d)
{
    int n = c->n, m = c->nedges;
    int *first = xcalloc((size_t)n + 1, sizeof *first);
    int *head = xmalloc((size_t)(m ? m : 1) * sizeof *head);
    for (int k = 0; k < m; k++)
        first[c->edges[k].from + 1]++;
    for (int u = 0; u < n; u++)
        first[u + 1] += first[u];
    int *fill = xmalloc((size_t)n * sizeof *fill);
    memcpy(fill, first, (size_t)n * sizeof *fill);
    for (int k = 0; k < m; k++)
        head[fill[c->edges[k].from]++] = c->edges[k].to;
    free(fill);
    char *seen = xcalloc((size_t)n, 1);
    int *stack = xmalloc((size_t)n * sizeof *stack), top = 0;
    seen[c->source] = 1;
    stack[top++] = c->source;
    while (top > 0) {
        int u = stack[--top];
        for (int k = first[u]; k < first[u + 1]; k++)
            if (!seen[head[k]]) {
                seen[head[k]] = 1;
                stack[top++] = head[k];
            }
    }
    free(first);
    free(head);
    char b1[64], b2[64];
    for (int i = 0; i < n; i++)
        if (!seen[i])
            diag_error(d, c->path, c->nodes[i].line, NULL,
                       "node %s is not reachable from the source %s", SHOWN(c->nodes[i].name, b1),
                       SHOWN(c->nodes[c->source].name, b2));
    free(seen);
    free(stack);
}

int cluster_finish(struct cluster *c, struct diag *d)
{
    char b1[64], b2[64];
    int errors = d->errors;
    if (c->n == 0) {
        diag_error(d, c->path, 0, NULL, "no nodes: the cluster is empty");
        return -1;
    }
    c->source = 0;
    if (c->source_name) {
        int s = cluster_find(c, c->source_name);
        if (s < 0)
            diag_error(d, c->path, c->source_line, "source",
                       "\"%s\" is not a node of this cluster", SHOWN(c->source_name, b1));
        else
            c->source = s;
    }
    for (int i = 0; i < c->n; i++) {
        const struct node *nd = &c->nodes[i];
        if (!time_ok(nd->send, false))
            diag_error(d, c->path, nd->line, "send", "%s: send time must be a finite number >= 0 "
                       "(and at most %g)", SHOWN(nd->name, b1), CLUSTER_MAX_TIME);
        if (!time_ok(nd->recv, false))
            diag_error(d, c->path, nd->line, "recv", "%s: receive time must be a finite number "
                       ">= 0 (and at most %g)", SHOWN(nd->name, b1), CLUSTER_MAX_TIME);
    }
    if (!time_ok(c->latency, false))
        diag_error(d, c->path, 0, "latency", "must be a finite number >= 0 (and at most %g)",
                   CLUSTER_MAX_TIME);
    if (!time_ok(c->unit, false))
        diag_error(d, c->path, 0, "unit", "must be a finite number >= 0 (and at most %g)",
                   CLUSTER_MAX_TIME);
    if (c->kind == CLUSTER_MATRIX && !c->dist)
        diag_error(d, c->path, 0, NULL, "latency matrix without distances");
    if (c->kind == CLUSTER_MATRIX && c->dist)
        for (int i = 0; i < c->n; i++)
            for (int j = 0; j < c->n; j++)
                if (!time_ok(c->dist[(size_t)i * (size_t)c->n + (size_t)j], false)) {
                    diag_error(d, c->path, c->nodes[i].line, SHOWN(c->nodes[j].name, b1),
                               "distance from %s must be a finite number >= 0 (and at most %g)",
                               SHOWN(c->nodes[i].name, b2), CLUSTER_MAX_TIME);
                    i = c->n;   /* one message is enough */
                    break;
                }
    if (c->kind == CLUSTER_GRAPH && c->n > CLUSTER_MAX_GRAPH_NODES) {
        diag_error(d, c->path, 0, NULL, "%d nodes: a platform graph has at most %d (use a node "
                   "table or a smaller graph)", c->n, CLUSTER_MAX_GRAPH_NODES);
        return -1;
    }
    if (c->kind == CLUSTER_GRAPH) {
        size_t nn = (size_t)c->n * (size_t)c->n;
        free(c->edge_of);
        c->edge_of = xmalloc(nn * sizeof *c->edge_of);
        for (size_t i = 0; i < nn; i++)
            c->edge_of[i] = -1;
        for (int k = 0; k < c->nedges; k++) {
            const struct edge *e = &c->edges[k];
            if (e->from < 0 || e->from >= c->n || e->to < 0 || e->to >= c->n) {
                diag_error(d, c->path, e->line, NULL, "edge names an unknown node");
                continue;
            }
            if (e->from == e->to) {
                diag_error(d, c->path, e->line, "to", "self loop on %s",
                           SHOWN(c->nodes[e->from].name, b1));
                continue;
            }
            if (!time_ok(e->time, true) || (e->send >= 0 && !time_ok(e->send, false))) {
                diag_error(d, c->path, e->line, "time", "edge %s -> %s: time must be a finite "
                           "number > 0 and send one >= 0 (both at most %g)",
                           SHOWN(c->nodes[e->from].name, b1), SHOWN(c->nodes[e->to].name, b2),
                           CLUSTER_MAX_TIME);
                continue;
            }
            size_t at = (size_t)e->from * (size_t)c->n + (size_t)e->to;
            if (c->edge_of[at] >= 0) {
                diag_error(d, c->path, e->line, NULL, "duplicate edge %s -> %s (first on line %d)",
                           SHOWN(c->nodes[e->from].name, b1), SHOWN(c->nodes[e->to].name, b2),
                           c->edges[c->edge_of[at]].line);
                continue;
            }
            c->edge_of[at] = k;
        }
        if (d->errors == errors)
            check_reachable(c, d);
    }
    if (d->errors > errors)
        return -1;
    if (c->n == 1)
        diag_warn(d, c->path, c->nodes[0].line, NULL,
                  "one node only (%s, the source): it holds the message from the start, so "
                  "there is nothing to send", SHOWN(c->nodes[0].name, b1));
    int p, q;
    if (c->kind != CLUSTER_GRAPH && !cluster_speeds_consistent(c, &p, &q))
        diag_warn(d, c->path, c->nodes[q].line, NULL,
                  "speeds are not consistent (%s: s=%g r=%g, %s: s=%g r=%g); "
                  "the FNF guarantee 2T+beta does not hold",
                  SHOWN(c->nodes[p].name, b1), c->nodes[p].send, c->nodes[p].recv,
                  SHOWN(c->nodes[q].name, b2), c->nodes[q].send, c->nodes[q].recv);
    return 0;
}
