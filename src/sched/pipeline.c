/*
 * sched/pipeline.c - the tree heuristics of Beaumont, Marchal & Robert (§3, §4.2),
 * the throughput formulas and the pipelined schedulers (see sched/pipeline.h).
 *
 * Readings of the paper, where its pseudo-code and its text disagree (the
 * text wins; docs/pipeline.md says the same):
 *
 * - Connectivity in the prunings means "every node is still reachable from
 *   the source" (the platform is directed).  Removing u -> v keeps it iff v
 *   is still reachable without that edge.  An edge that cannot go never can
 *   later (removals only take paths away), so each edge is tested for
 *   removal at most once, and the result is a spanning arborescence.
 * - grow-tree: the cost of u -> w is the weighted out-degree u would have
 *   with it, T(u,w) + sum of T over u's tree children (the text's
 *   definition; Algorithm 3's update would count u's old degree twice).
 * - multiport-grow: the cost of u -> w is u's multi-port period with it,
 *   max(sum of sends, largest T) (Algorithm 5 prints the period without w).
 * - lp-prune deletes the edges carrying the *fewest* LP slices first (the
 *   text; Algorithm 6 copies Algorithm 1's "non-increasing").
 * - binomial: the source is position 0 and the other nodes follow in index
 *   order; position x >= 2^m gets its slices from x - 2^m (the text; the
 *   pseudo-code's SHORTEST-PATH(u, u - 2^m) has the ends swapped).  A missing
 *   edge becomes the shortest path (by T); the nodes on it relay.  Since all
 *   slices are the same broadcast, a node already reached forwards what it
 *   holds, so the union of the paths is cut back to a tree: each node keeps
 *   the first path edge that reaches it.
 *
 * Ties are broken by the edge's time, then by edge index (the CSV row
 * order), so every tree is reproducible.
 */
#include "sched/pipeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/trees.h"

/* Every heuristic once: its number, its scheduler, its name and its summary. */
#define PIPE_HEURS(X)                                                                        \
    X(PIPE_PRUNE_SIMPLE, sched_prune_simple, "prune-simple",                                 \
      "pipelined tree: prune the heaviest edges while all nodes stay reachable")             \
    X(PIPE_PRUNE_DEGREE, sched_prune_degree, "prune-degree",                                 \
      "pipelined tree: prune edges of the node with the largest weighted out-degree")        \
    X(PIPE_GROW_TREE, sched_grow_tree, "grow-tree",                                          \
      "pipelined tree grown Prim-like, keeping weighted out-degrees small")                  \
    X(PIPE_BINOMIAL, sched_pipe_binomial, "binomial",                                        \
      "pipelined MPI binomial tree, shortest paths for missing edges")                       \
    X(PIPE_MULTIPORT_GROW, sched_multiport_grow, "multiport-grow",                           \
      "pipelined tree grown Prim-like, keeping multi-port periods small")                    \
    X(PIPE_LP_PRUNE, sched_lp_prune, "lp-prune",                                             \
      "pipelined tree: prune the edges carrying the fewest LP-optimal slices")               \
    X(PIPE_LP_GROW, sched_lp_grow, "lp-grow",                                                \
      "pipelined tree grown along the edges carrying the most LP-optimal slices")            \
    X(PIPE_MULTIPORT_PRUNE_DEGREE, sched_multiport_prune_degree, "multiport-prune-degree",   \
      "pipelined tree: prune edges of the node with the largest multi-port period")

static const struct {
    const char *name;
} heurs[PIPE_NHEUR] = {
#define PIPE_ROW(num, var, nm, text) [num] = {nm},
    PIPE_HEURS(PIPE_ROW)
#undef PIPE_ROW
};

const char *pipe_heur_name(enum pipe_heur h)
{
    return (unsigned)h < PIPE_NHEUR ? heurs[h].name : "?";
}

int pipe_heur_parse(const char *name, enum pipe_heur *out)
{
    for (int h = 0; h < PIPE_NHEUR; h++)
        if (strcmp(name, heurs[h].name) == 0) {
            *out = (enum pipe_heur)h;
            return 0;
        }
    return -1;
}

bool pipe_heur_uses_lp(enum pipe_heur h)
{
    return h == PIPE_LP_PRUNE || h == PIPE_LP_GROW;
}

/* ---- the platform as adjacency lists ---- */

struct adj {
    int n, m;
    int *out_first, *out_edge;  /* edges leaving u: out_edge[out_first[u] .. out_first[u+1]) */
    int *seen;                  /* reachability: stamp per node */
    int stamp;
    int *stack;
};

static void adj_build(struct adj *a, const struct cluster *c)
{
    a->n = c->n;
    a->m = c->nedges;
    a->out_first = xcalloc((size_t)c->n + 1, sizeof *a->out_first);
    a->out_edge = xmalloc((size_t)(c->nedges ? c->nedges : 1) * sizeof *a->out_edge);
    for (int k = 0; k < c->nedges; k++)
        a->out_first[c->edges[k].from + 1]++;
    for (int u = 0; u < c->n; u++)
        a->out_first[u + 1] += a->out_first[u];
    int *fill = xmalloc((size_t)c->n * sizeof *fill);
    memcpy(fill, a->out_first, (size_t)c->n * sizeof *fill);
    for (int k = 0; k < c->nedges; k++)
        a->out_edge[fill[c->edges[k].from]++] = k;
    free(fill);
    a->seen = xcalloc((size_t)c->n, sizeof *a->seen);
    a->stamp = 0;
    a->stack = xmalloc((size_t)c->n * sizeof *a->stack);
}

static void adj_free(struct adj *a)
{
    free(a->out_first);
    free(a->out_edge);
    free(a->seen);
    free(a->stack);
}

/* Does the source still reach c->edges[skip].to over the alive edges but skip?  O(n + |E|). */
static bool still_reached(struct adj *a, const struct cluster *c, const unsigned char *alive,
                          int skip)
{
    int target = c->edges[skip].to, top = 0;
    if (target == c->source)
        return true;   /* nothing needs an edge into the source */
    a->stamp++;
    a->seen[c->source] = a->stamp;
    a->stack[top++] = c->source;
    while (top > 0) {
        int u = a->stack[--top];
        for (int i = a->out_first[u]; i < a->out_first[u + 1]; i++) {
            int k = a->out_edge[i], v = c->edges[k].to;
            if (k == skip || !alive[k] || a->seen[v] == a->stamp)
                continue;
            if (v == target)
                return true;
            a->seen[v] = a->stamp;
            a->stack[top++] = v;
        }
    }
    return false;
}

/* ---- sorting indices with a context (qsort has none) ---- */

typedef bool (*before_fn)(const void *ctx, int a, int b);

/* Stable merge sort of idx[0..k). */
static void sort_idx(int *idx, int k, before_fn before, const void *ctx)
{
    if (k < 2)
        return;
    int *tmp = xmalloc((size_t)k * sizeof *tmp);
    for (int w = 1; w < k; w *= 2) {
        for (int lo = 0; lo < k; lo += 2 * w) {
            int mid = lo + w < k ? lo + w : k, hi = lo + 2 * w < k ? lo + 2 * w : k;
            int a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                tmp[o++] = before(ctx, idx[b], idx[a]) ? idx[b++] : idx[a++];
            while (a < mid)
                tmp[o++] = idx[a++];
            while (b < hi)
                tmp[o++] = idx[b++];
        }
        memcpy(idx, tmp, (size_t)k * sizeof *idx);
    }
    free(tmp);
}

struct edge_ctx {
    const struct cluster *c;
    const double *count;    /* LP counts, lp-prune */
    const double *outdeg;   /* prune-degree: per node */
};

/* Heaviest first, then lower index. */
static bool heavier(const void *ctx, int a, int b)
{
    const struct edge_ctx *x = ctx;
    double ta = x->c->edges[a].time, tb = x->c->edges[b].time;
    return ta > tb || (ta == tb && a < b);
}

/* Fewest LP slices first, then heaviest, then lower index. */
static bool fewer_slices(const void *ctx, int a, int b)
{
    const struct edge_ctx *x = ctx;
    if (x->count[a] != x->count[b])
        return x->count[a] < x->count[b];
    return heavier(ctx, a, b);
}

/* Largest weighted out-degree first, then lower index (sorting nodes). */
static bool busier(const void *ctx, int a, int b)
{
    const struct edge_ctx *x = ctx;
    return x->outdeg[a] > x->outdeg[b] || (x->outdeg[a] == x->outdeg[b] && a < b);
}

/* ---- the heuristics: each fills parent[], edge[] and key[] ---- */

static void tree_from_alive(const struct cluster *c, const unsigned char *alive, struct pipe_tree *t)
{
    for (int k = 0; k < c->nedges; k++)
        if (alive[k]) {
            t->parent[c->edges[k].to] = c->edges[k].from;
            t->edge[c->edges[k].to] = k;
            t->key[c->edges[k].to] = c->edges[k].time;
        }
}

/* Algorithms 1 and 6: one pass over the edges in the given order. */
static void prune_in_order(const struct cluster *c, struct adj *a, const int *order,
                           struct pipe_tree *t)
{
    unsigned char *alive = xmalloc((size_t)(c->nedges ? c->nedges : 1));
    memset(alive, 1, (size_t)c->nedges);
    for (int i = 0; i < c->nedges; i++) {
        int k = order[i];
        if (still_reached(a, c, alive, k))
            alive[k] = 0;
    }
    tree_from_alive(c, alive, t);
    free(alive);
}

/* The degree prune-degree weighs a node by, over its edges still alive:
 * one-port, the sum of their T (Algorithm 2's weighted out-degree);
 * multi-port, the node's period max(sum of sends, max T) (§3.2's formula,
 * the adaptation Figure 5 calls Multiport-Prune-Degree). */
static void degrees(const struct cluster *c, const unsigned char *alive, bool multiport,
                    double *deg, double *maxT)
{
    for (int u = 0; u < c->n; u++)
        deg[u] = maxT[u] = 0;
    for (int k = 0; k < c->nedges; k++) {
        if (!alive[k])
            continue;
        const struct edge *e = &c->edges[k];
        deg[e->from] += multiport ? timing_edge_send(e) : e->time;
        maxT[e->from] = fmax(maxT[e->from], e->time);
    }
    if (multiport)
        for (int u = 0; u < c->n; u++)
            deg[u] = fmax(deg[u], maxT[u]);
}

/* Algorithm 2: prune an edge of the node with the largest weighted out-degree
 * (multiport: the largest multi-port period), its heaviest edge first. */
static void prune_degree(const struct cluster *c, struct adj *a, bool multiport, struct pipe_tree *t)
{
    int n = c->n, m = c->nedges, left = m;
    unsigned char *alive = xmalloc((size_t)(m ? m : 1)), *kept = xcalloc((size_t)(m ? m : 1), 1);
    memset(alive, 1, (size_t)m);
    double *outdeg = xcalloc((size_t)n, sizeof *outdeg), *maxT = xcalloc((size_t)n, sizeof *maxT);
    degrees(c, alive, multiport, outdeg, maxT);
    int *nodes = xmalloc((size_t)n * sizeof *nodes), *mine = xmalloc((size_t)(m ? m : 1) * sizeof *mine);
    struct edge_ctx ctx = {c, NULL, outdeg};
    while (left > n - 1) {
        for (int u = 0; u < n; u++)
            nodes[u] = u;
        sort_idx(nodes, n, busier, &ctx);
        bool removed = false;
        for (int i = 0; i < n && !removed; i++) {
            int u = nodes[i], k = 0;
            for (int j = a->out_first[u]; j < a->out_first[u + 1]; j++)
                if (alive[a->out_edge[j]] && !kept[a->out_edge[j]])
                    mine[k++] = a->out_edge[j];
            sort_idx(mine, k, heavier, &ctx);
            for (int j = 0; j < k && !removed; j++) {
                if (still_reached(a, c, alive, mine[j])) {
                    alive[mine[j]] = 0;
                    left--;
                    removed = true;
                } else {
                    kept[mine[j]] = 1;   /* needed now, so needed for good */
                }
            }
        }
        if (!removed)
            break;   /* cannot happen on a reachable platform: every edge is needed */
        degrees(c, alive, multiport, outdeg, maxT);   /* O(n + |E|), as still_reached */
    }
    tree_from_alive(c, alive, t);
    free(alive);
    free(kept);
    free(outdeg);
    free(maxT);
    free(nodes);
    free(mine);
}

/* Algorithms 3, 5 and 7: Prim-like growth from the source, O(n |E|). */
static void grow(const struct cluster *c, enum pipe_heur h, const struct lp_result *lp,
                 struct pipe_tree *t)
{
    int n = c->n;
    unsigned char *in = xcalloc((size_t)n, 1);
    double *outdeg = xcalloc((size_t)n, sizeof *outdeg);    /* sum of T, or of sends */
    double *maxT = xcalloc((size_t)n, sizeof *maxT);
    in[c->source] = 1;
    for (int step = 1; step < n; step++) {
        int best = -1;
        double bcost = 0;
        for (int k = 0; k < c->nedges; k++) {
            const struct edge *e = &c->edges[k];
            if (!in[e->from] || in[e->to])
                continue;
            double cost;
            if (h == PIPE_GROW_TREE)
                cost = outdeg[e->from] + e->time;
            else if (h == PIPE_MULTIPORT_GROW)
                cost = fmax(outdeg[e->from] + timing_edge_send(e), fmax(maxT[e->from], e->time));
            else
                cost = -lp->count[k];
            const struct edge *b = best >= 0 ? &c->edges[best] : NULL;
            if (!b || cost < bcost || (cost == bcost && e->time < b->time)) {
                best = k;
                bcost = cost;
            }
        }
        if (best < 0)
            break;   /* cannot happen: every node is reachable */
        const struct edge *e = &c->edges[best];
        in[e->to] = 1;
        t->parent[e->to] = e->from;
        t->edge[e->to] = best;
        t->key[e->to] = h == PIPE_LP_GROW ? lp->count[best] : bcost;
        outdeg[e->from] += h == PIPE_MULTIPORT_GROW ? timing_edge_send(e) : e->time;
        maxT[e->from] = fmax(maxT[e->from], e->time);
    }
    free(in);
    free(outdeg);
    free(maxT);
}

/* ---- binomial ---- */

/* Dijkstra by edge time from a, with a binary heap (lazy deletion). */
struct sp {
    double *dist;
    int *via;       /* edge into v on the shortest path, -1 */
    int *heap;      /* node ids; keys are dist */
    double *hkey;
    int nh;
};

static void sp_push(struct sp *s, int v, double key)
{
    int i = s->nh++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (s->hkey[p] < key || (s->hkey[p] == key && s->heap[p] < v))
            break;
        s->heap[i] = s->heap[p];
        s->hkey[i] = s->hkey[p];
        i = p;
    }
    s->heap[i] = v;
    s->hkey[i] = key;
}

static int sp_pop(struct sp *s, double *key)
{
    int top = s->heap[0];
    *key = s->hkey[0];
    int v = s->heap[--s->nh];
    double k = s->hkey[s->nh];
    int i = 0;
    for (;;) {
        int ch = 2 * i + 1;
        if (ch >= s->nh)
            break;
        if (ch + 1 < s->nh && (s->hkey[ch + 1] < s->hkey[ch] ||
                               (s->hkey[ch + 1] == s->hkey[ch] && s->heap[ch + 1] < s->heap[ch])))
            ch++;
        if (k < s->hkey[ch] || (k == s->hkey[ch] && v < s->heap[ch]))
            break;
        s->heap[i] = s->heap[ch];
        s->hkey[i] = s->hkey[ch];
        i = ch;
    }
    if (s->nh > 0) {
        s->heap[i] = v;
        s->hkey[i] = k;
    }
    return top;
}

static void shortest_from(const struct cluster *c, const struct adj *a, int from, struct sp *s)
{
    for (int v = 0; v < c->n; v++) {
        s->dist[v] = INFINITY;
        s->via[v] = -1;
    }
    s->nh = 0;
    s->dist[from] = 0;
    sp_push(s, from, 0);
    while (s->nh > 0) {
        double d;
        int u = sp_pop(s, &d);
        if (d > s->dist[u])
            continue;
        for (int i = a->out_first[u]; i < a->out_first[u + 1]; i++) {
            int k = a->out_edge[i], v = c->edges[k].to;
            double nd = d + c->edges[k].time;
            if (nd < s->dist[v]) {
                s->dist[v] = nd;
                s->via[v] = k;
                sp_push(s, v, nd);
            }
        }
    }
}

/* Attach the nodes on the shortest path from -> to (s computed from `from`). */
static void attach_path(const struct cluster *c, const struct sp *s, int to, unsigned char *in,
                        struct pipe_tree *t, int *hops, int *path)
{
    int k = 0;
    for (int v = to; s->via[v] >= 0; v = c->edges[s->via[v]].from)
        path[k++] = s->via[v];
    *hops = k;
    for (int i = k - 1; i >= 0; i--) {
        const struct edge *e = &c->edges[path[i]];
        if (in[e->to])
            continue;   /* already reached: it forwards what it holds */
        in[e->to] = 1;
        t->parent[e->to] = e->from;
        t->edge[e->to] = path[i];
    }
}

/* Algorithm 4. */
static void binomial(const struct cluster *c, const struct adj *a, struct pipe_tree *t)
{
    int n = c->n;
    int *node_at = xmalloc((size_t)n * sizeof *node_at);
    node_at[0] = c->source;
    for (int v = 0, p = 1; v < n; v++)
        if (v != c->source)
            node_at[p++] = v;
    for (int p = 0; p < n; p++)
        t->key[node_at[p]] = p;
    int m = 0;
    while ((2 << m) <= n)
        m++;   /* 2^m <= n < 2^(m+1) */
    int *la = xmalloc((size_t)n * sizeof *la), *lb = xmalloc((size_t)n * sizeof *lb), nl = 0;
    for (int p = 0; p < m; p++) {
        int step = 1 << (m - p);
        for (int x = 0; x < (1 << p); x++) {
            la[nl] = x * step;
            lb[nl++] = x * step + step / 2;
        }
    }
    for (int u = 1 << m; u < n; u++) {
        la[nl] = u - (1 << m);
        lb[nl++] = u;
    }
    t->logical = nl;
    struct sp s;
    s.dist = xmalloc((size_t)n * sizeof *s.dist);
    s.via = xmalloc((size_t)n * sizeof *s.via);
    s.heap = xmalloc((size_t)(c->nedges + 1) * sizeof *s.heap);
    s.hkey = xmalloc((size_t)(c->nedges + 1) * sizeof *s.hkey);
    int *path = xmalloc((size_t)n * sizeof *path);
    unsigned char *in = xcalloc((size_t)n, 1);
    in[c->source] = 1;
    for (int i = 0; i < nl; i++) {
        int u = node_at[la[i]], v = node_at[lb[i]];
        int k = c->edge_of[(size_t)u * (size_t)n + (size_t)v];
        if (k >= 0) {
            if (!in[v]) {
                in[v] = 1;
                t->parent[v] = u;
                t->edge[v] = k;
            }
            continue;
        }
        if (in[v])
            continue;   /* a relay already holds it: nothing to route */
        shortest_from(c, a, u, &s);
        if (isinf(s.dist[v])) {   /* u cannot reach v: the source can */
            shortest_from(c, a, c->source, &s);
            t->rerouted++;
        } else {
            t->routed++;
        }
        int hops;
        attach_path(c, &s, v, in, t, &hops, path);
    }
    free(node_at);
    free(la);
    free(lb);
    free(s.dist);
    free(s.via);
    free(s.heap);
    free(s.hkey);
    free(path);
    free(in);
}

/* ---- building a tree ---- */

struct height_ctx {
    const struct cluster *c;
    const struct pipe_tree *t;
    const double *height;
};

/* The child with the heaviest remaining path first, then lower index. */
static bool farther(const void *ctx, int a, int b)
{
    const struct height_ctx *x = ctx;
    double ha = x->c->edges[x->t->edge[a]].time + x->height[a];
    double hb = x->c->edges[x->t->edge[b]].time + x->height[b];
    return ha > hb || (ha == hb && a < b);
}

/* Children lists in sending order, and the breadth-first order. */
static int link_tree(const struct cluster *c, struct pipe_tree *t, char **cause)
{
    int n = c->n;
    for (int v = 0; v < n; v++)
        if (v != t->source && (t->parent[v] < 0 || t->edge[v] < 0))
            return set_cause(cause, "%s left node %s out of the tree", pipe_heur_name(t->heur),
                             c->nodes[v].name);
    for (int v = 0; v < n; v++)
        if (v != t->source)
            t->first[t->parent[v] + 1]++;
    for (int u = 0; u < n; u++)
        t->first[u + 1] += t->first[u];
    int *fill = xmalloc((size_t)n * sizeof *fill);
    memcpy(fill, t->first, (size_t)n * sizeof *fill);
    for (int v = 0; v < n; v++)
        if (v != t->source)
            t->kids[fill[t->parent[v]]++] = v;
    free(fill);
    /* Breadth first from the source; a node missing from it sits on a cycle. */
    int at = 0, end = 0;
    t->order[end++] = t->source;
    while (at < end) {
        int u = t->order[at++];
        for (int i = t->first[u]; i < t->first[u + 1]; i++)
            t->order[end++] = t->kids[i];
    }
    if (end != n)
        return set_cause(cause, "%s did not build a tree (%d of %d nodes reached)",
                         pipe_heur_name(t->heur), end, n);
    double *height = xcalloc((size_t)n, sizeof *height);
    for (int i = n - 1; i > 0; i--) {
        int v = t->order[i], u = t->parent[v];
        double h = c->edges[t->edge[v]].time + height[v];
        if (h > height[u])
            height[u] = h;
    }
    struct height_ctx hc = {c, t, height};
    for (int u = 0; u < n; u++)
        sort_idx(t->kids + t->first[u], t->first[u + 1] - t->first[u], farther, &hc);
    free(height);
    /* the breadth-first order again, with the children in sending order */
    at = 0;
    end = 0;
    t->order[end++] = t->source;
    while (at < end) {
        int u = t->order[at++];
        for (int i = t->first[u]; i < t->first[u + 1]; i++)
            t->order[end++] = t->kids[i];
    }
    return 0;
}

void pipe_tree_free(struct pipe_tree *t)
{
    free(t->parent);
    free(t->edge);
    free(t->first);
    free(t->kids);
    free(t->order);
    free(t->key);
    memset(t, 0, sizeof *t);
}

int pipe_build(const struct cluster *c, enum pipe_heur h, const struct lp_result *lp,
               struct pipe_tree *t, char **cause)
{
    memset(t, 0, sizeof *t);
    if ((unsigned)h >= PIPE_NHEUR)
        return set_cause(cause, "unknown tree heuristic %d", (int)h);
    if (!c || c->kind != CLUSTER_GRAPH)
        return set_cause(cause, "%s builds trees on platform graphs (from,to,time), not on a %s",
                         pipe_heur_name(h), c ? cluster_kind_name(c->kind) : "missing cluster");
    if (c->n < 1 || !c->edge_of)
        return set_cause(cause, "the platform graph is empty or was not checked (cluster_finish)");
    struct lp_result own;
    memset(&own, 0, sizeof own);
    if (pipe_heur_uses_lp(h) && !lp) {
        char *why = NULL;
        if (lp_solve_broadcast(c, &own, &why) < 0) {
            set_cause(cause, "%s needs the throughput linear program: %s", pipe_heur_name(h), why);
            free(why);
            return -1;
        }
        lp = &own;
    }
    if (pipe_heur_uses_lp(h) && lp->nedges != c->nedges) {
        lp_result_free(&own);
        return set_cause(cause, "%s: the linear program was solved for another platform",
                         pipe_heur_name(h));
    }
    int n = c->n;
    t->heur = h;
    t->n = n;
    t->source = c->source;
    t->parent = xmalloc((size_t)n * sizeof *t->parent);
    t->edge = xmalloc((size_t)n * sizeof *t->edge);
    t->first = xcalloc((size_t)n + 1, sizeof *t->first);
    t->kids = xmalloc((size_t)n * sizeof *t->kids);
    t->order = xmalloc((size_t)n * sizeof *t->order);
    t->key = xcalloc((size_t)n, sizeof *t->key);
    for (int v = 0; v < n; v++) {
        t->parent[v] = -1;
        t->edge[v] = -1;
    }
    struct adj a;
    adj_build(&a, c);
    int *order = xmalloc((size_t)(c->nedges ? c->nedges : 1) * sizeof *order);
    for (int k = 0; k < c->nedges; k++)
        order[k] = k;
    struct edge_ctx ctx = {c, lp ? lp->count : NULL, NULL};
    switch (h) {
    case PIPE_PRUNE_SIMPLE:
        sort_idx(order, c->nedges, heavier, &ctx);
        prune_in_order(c, &a, order, t);
        break;
    case PIPE_LP_PRUNE:
        sort_idx(order, c->nedges, fewer_slices, &ctx);
        prune_in_order(c, &a, order, t);
        for (int v = 0; v < n; v++)
            if (t->edge[v] >= 0)
                t->key[v] = lp->count[t->edge[v]];
        break;
    case PIPE_PRUNE_DEGREE:
    case PIPE_MULTIPORT_PRUNE_DEGREE:
        prune_degree(c, &a, h == PIPE_MULTIPORT_PRUNE_DEGREE, t);
        break;
    case PIPE_BINOMIAL:
        binomial(c, &a, t);
        break;
    default:
        grow(c, h, lp, t);
        break;
    }
    free(order);
    adj_free(&a);
    lp_result_free(&own);
    return link_tree(c, t, cause);
}

/* ---- throughput ---- */

double pipe_period(const struct cluster *c, const struct pipe_tree *t, enum model m, int *bottleneck)
{
    double best = 0;
    int who = -1;
    for (int u = 0; u < t->n; u++) {
        double sum = 0, big = 0;
        for (int i = t->first[u]; i < t->first[u + 1]; i++) {
            const struct edge *e = &c->edges[t->edge[t->kids[i]]];
            sum += timing_tree_send(m, e);
            big = fmax(big, e->time);
        }
        double recv = t->edge[u] >= 0 ? c->edges[t->edge[u]].time : 0;
        double p = timing_tree_period(m, recv, sum, big);
        if (p > best) {
            best = p;
            who = u;
        }
    }
    if (bottleneck)
        *bottleneck = who;
    return best;
}

double pipe_throughput(const struct cluster *c, const struct pipe_tree *t, enum model m)
{
    double p = pipe_period(c, t, m, NULL);
    return p > 0 ? 1.0 / p : INFINITY;
}

double pipe_measured_throughput(const struct engine *e, int first, int last)
{
    if (first < 0 || last <= first || last >= e->nmsg)
        return NAN;
    double best = INFINITY;
    bool any = false;
    for (int v = 0; v < e->n; v++) {
        if (v == e->c->source)
            continue;
        if (!engine_holds(e, v, first) || !engine_holds(e, v, last))
            return NAN;
        double span = engine_hold_time(e, v, last) - engine_hold_time(e, v, first);
        double rate = span > 0 ? (last - first) / span : INFINITY;
        any = true;
        if (rate < best)
            best = rate;
    }
    return any ? best : (e->n == 1 ? INFINITY : NAN);
}

int pipe_engine_init(struct engine *e, const struct cluster *c, enum model m, int slices,
                     char **cause)
{
    if (slices < 1 || slices > PIPE_MAX_SLICES)
        return set_cause(cause, "slices: %d is out of range (1 to %d)", slices, PIPE_MAX_SLICES);
    if (engine_init_messages(e, c, m, slices, cause) < 0)
        return -1;
    for (int k = 0; k < slices; k++)
        engine_give(e, c->source, k, 0.0);
    e->nwaiting = slices * (c->n - 1);
    return 0;
}

/* ---- the schedulers ---- */

static int pipe_prepare(struct sched *s, struct engine *e, char **cause);

const struct pipe_plan *pipeline_plan(const struct sched *s)
{
    if (!s || !s->ops || s->ops->prepare != pipe_prepare)
        return NULL;
    return s->state;
}

static void plan_free(struct pipe_plan *pl)
{
    free(pl->next_slice);
    free(pl->next_child);
    pipe_tree_free(&pl->tree);
    lp_result_free(&pl->lp);
    free(pl->lp_note);
    free(pl);
}

static int pipe_prepare(struct sched *s, struct engine *e, char **cause)
{
    enum pipe_heur h;
    const struct cluster *c = e->c;
    if (pipe_heur_parse(s->ops->name, &h) < 0)
        return set_cause(cause, "%s is not a pipelined tree heuristic", s->ops->name);
    int slices = s->opt.slices > 0 ? s->opt.slices : PIPE_DEFAULT_SLICES;
    if (slices > PIPE_MAX_SLICES)
        return set_cause(cause, "--slices %d: at most %d slices", slices, PIPE_MAX_SLICES);
    if ((double)slices * (double)(c->n - 1) > 1e7)
        return set_cause(cause, "--slices %d on %d nodes would book %.0f transfers (at most 10000000)",
                         slices, c->n, (double)slices * (double)(c->n - 1));
    struct pipe_plan *pl = xcalloc(1, sizeof *pl);
    char *why = NULL;
    /* one-port-uni: the program with one port row per node (an upper bound);
     * multi-port keeps the one-port program, as the paper does (§5.2.2). */
    double secs = s->opt.time_limit > 0 ? s->opt.time_limit
                  : s->opt.time_limit < 0 ? 0   /* SCHED_NO_CLOCK: the iterations alone */
                                          : LP_DEFAULT_TIME_LIMIT;
    struct lp_limits lim = {.time_limit = secs, .cancel = s->opt.cancel,
                            .unidirectional = timing_shares_port(e->model)};
    if (lp_solve_broadcast_limited(c, &lim, &pl->lp, &why) == 0) {
        pl->has_lp = true;
    } else if (s->opt.cancel && *s->opt.cancel) {
        free(why);
        plan_free(pl);
        return set_cause(cause, SCHED_CANCELLED_TEXT);
    } else {
        pl->lp_note = xstrdup(why ? why : "not solved");
        if (pipe_heur_uses_lp(h)) {
            set_cause(cause, "%s needs the throughput linear program: %s", s->ops->name, pl->lp_note);
            free(why);
            plan_free(pl);
            return -1;
        }
    }
    free(why);
    if (pipe_build(c, h, pl->has_lp ? &pl->lp : NULL, &pl->tree, cause) < 0) {
        plan_free(pl);
        return -1;
    }
    /* The caller's one-message engine becomes a K-slice one: free it first. */
    enum model m = e->model;
    engine_free(e);
    if (pipe_engine_init(e, c, m, slices, cause) < 0) {
        plan_free(pl);
        return -1;
    }
    pl->slices = slices;
    pl->next_slice = xcalloc((size_t)c->n, sizeof *pl->next_slice);
    pl->next_child = xcalloc((size_t)c->n, sizeof *pl->next_child);
    pl->throughput[0] = pipe_throughput(c, &pl->tree, MODEL_ONE_PORT);
    pl->throughput[1] = pipe_throughput(c, &pl->tree, MODEL_MULTI_PORT);
    pl->throughput[2] = pipe_throughput(c, &pl->tree, MODEL_ONE_PORT_UNI);
    s->state = pl;
    s->slices = slices;
    s->throughput = pipe_throughput(c, &pl->tree, e->model);
    bool uni = timing_shares_port(e->model);
    s->optimal_throughput = pl->has_lp && !uni ? pl->lp.throughput : NAN;
    s->throughput_bound = pl->has_lp && uni ? pl->lp.throughput : NAN;

    int who;
    double period = pipe_period(c, &pl->tree, e->model, &who);
    size_t len = (size_t)text_fit(s->note, sizeof s->note, "%s tree", s->ops->name);
    if (who >= 0)
        len += (size_t)text_fit(s->note + len, sizeof s->note - len,
                                ", period %g set by %s (%s: %s)", period, c->nodes[who].name,
                                model_name(e->model), timing_tree_rule(e->model));
    if (h == PIPE_BINOMIAL && len < sizeof s->note && (pl->tree.routed || pl->tree.rerouted))
        len += (size_t)text_fit(s->note + len, sizeof s->note - len,
                                "; %d of %d binomial transfers have no direct edge and follow "
                                "shortest paths, relayed by the nodes on them%s",
                                pl->tree.routed + pl->tree.rerouted, pl->tree.logical,
                                pl->tree.rerouted ? " (some from the source: no path from their "
                                                    "binomial parent)" : "");
    if (!pl->has_lp && len < sizeof s->note)
        text_fit(s->note + len, sizeof s->note - len, "; LP %s unknown: %s",
                 uni ? "bound" : "optimum", pl->lp_note);
    return 0;
}

/* Why u sends to v, sized to what it says (the caller frees it). */
static char *edge_reason(const struct pipe_plan *pl, const struct cluster *c, int u, int v)
{
    char *out = NULL;
    const struct pipe_tree *t = &pl->tree;
    const char *un = c->nodes[u].name, *vn = c->nodes[v].name;
    double T = c->edges[t->edge[v]].time, key = t->key[v];
    switch (t->heur) {
    case PIPE_PRUNE_SIMPLE:
        out = xasprintf("%s -> %s (T %g) survived pruning the heaviest edges", un, vn, T);
        break;
    case PIPE_PRUNE_DEGREE:
        out = xasprintf("%s -> %s (T %g) survived pruning the busiest senders' edges", un, vn, T);
        break;
    case PIPE_MULTIPORT_PRUNE_DEGREE:
        out = xasprintf("%s -> %s (T %g) survived pruning the edges of the senders with the "
                        "longest multi-port periods", un, vn, T);
        break;
    case PIPE_GROW_TREE:
        out = xasprintf("%s joined from %s (T %g) when that made %s's weighted out-degree %g, "
                            "the smallest on offer", vn, un, T, un, key);
        break;
    case PIPE_MULTIPORT_GROW:
        out = xasprintf("%s joined from %s (T %g) when that made %s's multi-port period %g, "
                            "the smallest on offer", vn, un, T, un, key);
        break;
    case PIPE_LP_PRUNE:
        out = xasprintf("%s -> %s (T %g, LP n=%.4g) survived pruning the edges the LP uses least",
                 un, vn, T, key);
        break;
    case PIPE_LP_GROW:
        out = xasprintf("%s joined from %s (T %g) on the edge the LP uses most, n=%.4g", vn, un,
                 T, key);
        break;
    default: {
        /* Positions: the source is 0, the others follow in index order. */
        int pos = (int)key, m = 0;
        while ((2 << m) <= t->n)
            m++;
        int ppos = pos >= (1 << m) ? pos - (1 << m) : pos & (pos - 1);
        int lp = ppos == 0 ? t->source : ppos - 1 < t->source ? ppos - 1 : ppos;
        if (lp == u)
            out = xasprintf("%s -> %s (T %g): binomial position %d, child of position %d", un,
                     vn, T, pos, ppos);
        else
            out = xasprintf("%s -> %s (T %g): %s (binomial position %d, child of %s at "
                                "position %d) is reached along a shortest path that stands in "
                                "for a missing binomial edge",
                     un, vn, T, vn, pos, c->nodes[lp].name, ppos);
        break;
    }
    }
    return out;
}

/*
 * Each node's own sends keep their order (slice after slice, children in
 * order) and a node sends a slice only once it is booked to hold it, so the
 * schedule is the same whichever node goes first; taking the earliest start
 * (ties: lower slice, lower node) lists the transfers in time order.  O(n).
 *
 * One-port-uni: a node's one port also keeps an order, receive slice k,
 * send it to every child, receive slice k+1 ...: u sends slice k to v only
 * once v's sends of slice k-1 are all booked.  Every port then serves a
 * fixed sequence, each transfer starts when the last ones of both its ports
 * end, and the steady state is the slowest node's receive + sends (a cycle
 * of one slice through each node's sequence; no other cycle, the tree has
 * none), the formula of pipe_period.
 */
static int pipe_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    (void)cause;
    struct pipe_plan *pl = s->state;
    const struct pipe_tree *t = &pl->tree;
    int best = -1;
    double bstart = 0;
    for (int u = 0; u < t->n; u++) {
        int k = pl->next_slice[u];
        if (t->first[u] == t->first[u + 1] || k >= pl->slices || !engine_holds(e, u, k))
            continue;
        int v = t->kids[t->first[u] + pl->next_child[u]];
        if (timing_shares_port(e->model) && t->first[v] < t->first[v + 1] && pl->next_slice[v] < k)
            continue;   /* v still sends an earlier slice: its port receives after that */
        struct transfer x;
        if (engine_earliest(e, u, v, k, &x) < 0)
            continue;
        if (best < 0 || x.start < bstart || (x.start == bstart && k < pl->next_slice[best])) {
            best = u;
            bstart = x.start;
        }
    }
    if (best < 0)
        return SCHED_DONE;
    int u = best, k = pl->next_slice[u], v = t->kids[t->first[u] + pl->next_child[u]];
    if (t->first[u] + ++pl->next_child[u] == t->first[u + 1]) {
        pl->next_child[u] = 0;
        pl->next_slice[u]++;
    }
    char *why = edge_reason(pl, e->c, u, v);
    d->from = u;
    d->to = v;
    d->msg = k;
    d->reason = xasprintf("slice %d of %d: %s", k + 1, pl->slices, why ? why : "");
    free(why);
    return SCHED_DECIDED;
}

static void pipe_finish(struct sched *s)
{
    plan_free(s->state);
    s->state = NULL;
}

#define PIPE_SCHED(num, var, nm, text)                                                     \
    const struct sched_ops var = {                                                         \
        .name = nm,                                                                        \
        .summary = text,                                                                   \
        .kinds = CLUSTER_KIND_BIT(CLUSTER_GRAPH),                                          \
        .models = MODEL_BIT(MODEL_ONE_PORT) | MODEL_BIT(MODEL_MULTI_PORT) |                \
                  MODEL_BIT(MODEL_ONE_PORT_UNI),                                           \
        .prepare = pipe_prepare,                                                           \
        .choose = pipe_choose,                                                             \
        .finish = pipe_finish,                                                             \
    };

PIPE_HEURS(PIPE_SCHED)
#undef PIPE_SCHED

/* ---- one `binomial` for every kind of cluster ---- */

/*
 * Users know one binomial tree: on a latency matrix or a node table it is
 * Figueira's (sched/trees.c), on a platform graph the pipelined one above.  This
 * scheduler is the one the list holds; its prepare() hands the run over to
 * the kind's own (s->ops becomes it), so tree_of_sched() and pipeline_plan()
 * see the real thing and the report names it "binomial" either way.
 */
static const struct sched_ops *binomial_for(enum cluster_kind k)
{
    return k == CLUSTER_GRAPH ? &sched_pipe_binomial : &sched_binomial;
}

static int any_prepare(struct sched *s, struct engine *e, char **cause)
{
    const struct sched_ops *ops = binomial_for(e->c->kind);
    if (sched_supports(ops, e->c, e->model, cause) < 0)
        return -1;
    s->ops = ops;
    return ops->prepare ? ops->prepare(s, e, cause) : 0;
}

static int any_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    if (s->ops == &sched_binomial_any)
        return set_cause(cause, "binomial: choose() before prepare()");
    return s->ops->choose(s, e, d, cause);
}

static void any_finish(struct sched *s)
{
    if (s->ops != &sched_binomial_any && s->ops->finish)
        s->ops->finish(s);
}

const struct sched_ops sched_binomial_any = {
    .name = "binomial",
    .summary = "binomial tree: MPICH positions (Figueira) on matrices and node tables; "
               "pipelined, with shortest paths for missing edges, on platform graphs",
    .kinds = CLUSTER_KIND_BIT(CLUSTER_NODES) | CLUSTER_KIND_BIT(CLUSTER_MATRIX) |
             CLUSTER_KIND_BIT(CLUSTER_GRAPH),
    .models = MODEL_ALL,
    .prepare = any_prepare,
    .choose = any_choose,
    .finish = any_finish,
};
