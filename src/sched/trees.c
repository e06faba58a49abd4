/*
 * sched/trees.c - Figueira's broadcast trees as schedulers (SPEC §2; see sched/trees.h).
 *
 * A builder places nodes and records the tree's edges in a sequence in which
 * every parent's children come in the order it serves them; tree_link turns
 * that into child lists, distances, depths, the cost and the heaviest path.
 * The schedulers then hand the edges to the engine earliest start first
 * (a heap of the holders keyed by when their next send can start), so the
 * transfer table reads in time order; since every node receives once, the
 * order of the bookings between different parents does not change the
 * schedule, only how it is listed.
 *
 * Placement rules (SPEC §2, Figueira §3): child positions are filled right
 * to left, i.e. the child p + 2^i with the largest 2^i first (Figure 4's
 * "for i = c - 1 down to 0", MPICH's sending order), each with the remaining
 * node closest to the parent's node (ties: lowest index).  Balanced-path
 * serves one child at a time of the placed position with the most unfilled
 * children (ties: the higher position): serving a whole position at once
 * gives cost 7 on Table 1, one child at a time gives the paper's 3.
 */
#include "sched/trees.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/segment.h"

static const char *const kind_names[TREE_KIND_COUNT] = {
    "binomial", "depth-first", "breadth-first", "balanced-path", "flat", "magpie", "chain", "knomial",
};

const char *tree_kind_name(enum tree_kind k)
{
    return (unsigned)k < TREE_KIND_COUNT ? kind_names[k] : "?";
}

/* ---- binomial positions ---- */

int binomial_children(int p, int n, int *out)
{
    if (n <= 0 || p < 0 || p >= n)
        return 0;
    long long lim = p == 0 ? (long long)n : (long long)(p & -p);
    int k = 0, tmp[32];
    for (long long m = 1; m < lim && p + m < n; m <<= 1)
        tmp[k++] = (int)(p + m);
    for (int i = 0; i < k; i++)
        out[i] = tmp[k - 1 - i];
    return k;
}

int binomial_parent(int p)
{
    return p > 0 ? p & (p - 1) : -1;
}

int knomial_children(int p, int n, int k, int *out)
{
    if (n <= 0 || p < 0 || p >= n || k < 2)
        return 0;
    long long lim = n;   /* the root: every k^i < n */
    if (p > 0)
        for (lim = 1; (p / lim) % k == 0; lim *= k) {
        }   /* lim: the place of p's lowest nonzero digit */
    long long top = 1;
    while (top * k < lim)
        top *= k;
    int m = 0;
    for (long long mask = top; mask >= 1 && mask < lim; mask /= k)
        for (int j = 1; j < k; j++)
            if (p + j * mask < n)
                out[m++] = (int)(p + j * mask);
    return m;
}

/* ---- a min-heap of nodes keyed by (key, node) ---- */

struct pq {
    int n;
    int *node;
    double *key;
};

static void pq_init(struct pq *h, int cap)
{
    h->n = 0;
    h->node = xmalloc((size_t)(cap > 0 ? cap : 1) * sizeof *h->node);
    h->key = xmalloc((size_t)(cap > 0 ? cap : 1) * sizeof *h->key);
}

static void pq_free(struct pq *h)
{
    free(h->node);
    free(h->key);
    h->node = NULL;
    h->key = NULL;
    h->n = 0;
}

static bool pq_less(const struct pq *h, int a, int b)
{
    return h->key[a] < h->key[b] || (h->key[a] == h->key[b] && h->node[a] < h->node[b]);
}

static void pq_swap(struct pq *h, int a, int b)
{
    int tn = h->node[a];
    double tk = h->key[a];
    h->node[a] = h->node[b];
    h->key[a] = h->key[b];
    h->node[b] = tn;
    h->key[b] = tk;
}

static void pq_push(struct pq *h, int node, double key)
{
    int i = h->n++;
    h->node[i] = node;
    h->key[i] = key;
    while (i > 0 && pq_less(h, i, (i - 1) / 2)) {
        pq_swap(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static int pq_pop(struct pq *h)
{
    int top = h->node[0];
    h->n--;
    if (h->n > 0) {
        h->node[0] = h->node[h->n];
        h->key[0] = h->key[h->n];
        for (int i = 0;;) {
            int c = 2 * i + 1;
            if (c >= h->n)
                break;
            if (c + 1 < h->n && pq_less(h, c + 1, c))
                c++;
            if (!pq_less(h, c, i))
                break;
            pq_swap(h, i, c);
            i = c;
        }
    }
    return top;
}

/* ---- distances ---- */

/* d(q, p): the matrix entry, or the latency between any two nodes of a table. */
static double distance(const struct cluster *c, int q, int p)
{
    if (q == p)
        return 0;
    if (c->kind == CLUSTER_MATRIX)
        return cluster_dist(c, q, p);
    return c->latency;
}

/* ---- the tree ---- */

static void tree_alloc(struct tree *t, const struct cluster *c, enum tree_kind kind)
{
    int n = c->n;
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->n = n;
    t->root = c->source;
    t->unit = c->kind == CLUSTER_MATRIX ? c->unit : 1;
    t->heavy_leaf = -1;
    t->parent = xmalloc((size_t)n * sizeof *t->parent);
    t->pos = xmalloc((size_t)n * sizeof *t->pos);
    t->first = xcalloc((size_t)n + 1, sizeof *t->first);
    t->kids = xmalloc((size_t)n * sizeof *t->kids);
    t->dist = xcalloc((size_t)n, sizeof *t->dist);
    t->depth = xcalloc((size_t)n, sizeof *t->depth);
    t->heavy = xcalloc((size_t)n, 1);
    t->ties = xcalloc((size_t)n, sizeof *t->ties);
    t->unfilled = xcalloc((size_t)n, sizeof *t->unfilled);
    for (int v = 0; v < n; v++) {
        t->parent[v] = -1;
        t->pos[v] = -1;
    }
}

void tree_free(struct tree *t)
{
    free(t->parent);
    free(t->pos);
    free(t->node_at);
    free(t->first);
    free(t->kids);
    free(t->dist);
    free(t->depth);
    free(t->heavy);
    free(t->ties);
    free(t->unfilled);
    free(t->group);
    free(t->group_size);
    memset(t, 0, sizeof *t);
    t->heavy_leaf = -1;
}

/* The edges in serving order per parent, appended by the builders. */
struct edges {
    int *child;   /* the child of the k-th edge; its parent is in t->parent */
    int k;
};

static void add_edge(struct tree *t, struct edges *ed, int parent, int child)
{
    t->parent[child] = parent;
    ed->child[ed->k++] = child;
}

/*
 * Child lists from the edge sequence, then distances, depths (in BFS order
 * from the root), the cost and the heaviest path.  Returns -1 if the edges
 * do not span the nodes exactly once (a builder bug, never a user error).
 */
static int tree_link(struct tree *t, const struct cluster *c, const struct edges *ed, char **cause)
{
    int n = t->n;
    if (ed->k != n - 1)
        return set_cause(cause, "%s tree: %d edges for %d nodes", tree_kind_name(t->kind), ed->k, n);
    for (int i = 0; i < ed->k; i++)
        t->first[t->parent[ed->child[i]] + 1]++;
    for (int v = 0; v < n; v++)
        t->first[v + 1] += t->first[v];
    int *fill = xmalloc((size_t)n * sizeof *fill);
    memcpy(fill, t->first, (size_t)n * sizeof *fill);
    for (int i = 0; i < ed->k; i++) {
        int v = ed->child[i];
        t->kids[fill[t->parent[v]]++] = v;
        t->dist[v] = distance(c, t->parent[v], v);
    }
    /* BFS from the root: fill doubles as the queue. */
    int head = 0, tail = 0;
    fill[tail++] = t->root;
    t->depth[t->root] = 0;
    while (head < tail) {
        int u = fill[head++];
        for (int k = t->first[u]; k < t->first[u + 1]; k++) {
            int v = t->kids[k];
            t->depth[v] = t->depth[u] + t->dist[v];
            if (tail < n)
                fill[tail++] = v;
        }
    }
    free(fill);
    if (tail != n)
        return set_cause(cause, "%s tree reaches %d of %d nodes", tree_kind_name(t->kind), tail, n);
    int leaf = -1;
    for (int v = 0; v < n; v++)
        if (t->first[v] == t->first[v + 1] && (leaf < 0 || t->depth[v] > t->depth[leaf]))
            leaf = v;
    t->heavy_leaf = leaf;
    t->cost = t->depth[leaf];
    for (int v = leaf; v >= 0; v = t->parent[v])
        t->heavy[v] = 1;
    return 0;
}

/* ---- binomial placements ---- */

struct placer {
    struct tree *t;
    const struct cluster *c;
    unsigned char *used;
    int remaining;   /* nodes not placed yet */
    int lowest;      /* node tables: no unused node below this index */
};

static void place(struct placer *pl, int pos, int v)
{
    pl->t->node_at[pos] = v;
    pl->t->pos[v] = pos;
    pl->used[v] = 1;
    pl->remaining--;
}

/* The remaining node closest to u (ties: lowest index); *ties: how many were as close. */
static int closest(struct placer *pl, int u, int *ties)
{
    const struct cluster *c = pl->c;
    if (c->kind != CLUSTER_MATRIX) {   /* every distance is L: the lowest index */
        while (pl->used[pl->lowest])
            pl->lowest++;
        *ties = pl->remaining;
        return pl->lowest;
    }
    int best = -1, nt = 0;
    double dbest = 0;
    for (int v = 0; v < c->n; v++) {
        if (pl->used[v])
            continue;
        double d = cluster_dist(c, u, v);
        if (best < 0 || d < dbest) {
            dbest = d;
            best = v;
            nt = 1;
        } else if (d == dbest) {
            nt++;
        }
    }
    *ties = nt;
    return best;
}

/* Fill position pos (a child of parent position pp) with the node closest to pp's node. */
static int fill_closest(struct placer *pl, int pos, int pp)
{
    int ties, v = closest(pl, pl->t->node_at[pp], &ties);
    place(pl, pos, v);
    pl->t->ties[v] = ties;
    return v;
}

static void fill_depth_first(struct placer *pl, int p)
{
    int ch[32];
    int k = binomial_children(p, pl->t->n, ch);
    for (int i = 0; i < k; i++) {
        fill_closest(pl, ch[i], p);
        fill_depth_first(pl, ch[i]);
    }
}

static void fill_breadth_first(struct placer *pl)
{
    int n = pl->t->n, *queue = xmalloc((size_t)n * sizeof *queue), head = 0, tail = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int p = queue[head++], ch[32];
        int k = binomial_children(p, n, ch);
        for (int i = 0; i < k; i++) {
            fill_closest(pl, ch[i], p);
            queue[tail++] = ch[i];
        }
    }
    free(queue);
}

/*
 * Balanced-path: a heap of the placed positions that still have unfilled
 * children, keyed so that the most unfilled children come first and then
 * the higher position: key -(unfilled * (n + 1) + position), exact in a
 * double for any cluster size.  The served position is always the top, so
 * each position is in the heap once, with its current count.
 */
static void fill_balanced_path(struct placer *pl)
{
    int n = pl->t->n;
    struct pq h;
    pq_init(&h, n);
    int *left = xmalloc((size_t)n * sizeof *left);   /* unfilled children per position */
    int ch[32];
    left[0] = binomial_children(0, n, ch);
    if (left[0] > 0)
        pq_push(&h, 0, -((double)left[0] * (n + 1.0)));
    while (h.n > 0) {
        int p = pq_pop(&h);
        int k = binomial_children(p, n, ch);
        int child = ch[k - left[p]];   /* right to left: the largest 2^i first */
        int v = fill_closest(pl, child, p);
        pl->t->unfilled[v] = left[p];
        left[p]--;
        if (left[p] > 0)
            pq_push(&h, p, -((double)left[p] * (n + 1.0) + p));
        left[child] = binomial_children(child, n, ch);
        if (left[child] > 0)
            pq_push(&h, child, -((double)left[child] * (n + 1.0) + child));
    }
    free(left);
    pq_free(&h);
}

static void build_binomial(struct tree *t, const struct cluster *c, struct edges *ed)
{
    int n = c->n;
    t->node_at = xmalloc((size_t)n * sizeof *t->node_at);
    struct placer pl = {t, c, xcalloc((size_t)n, 1), n, 0};
    place(&pl, 0, c->source);
    switch (t->kind) {
    case TREE_BINOMIAL:
        for (int p = 1; p < n; p++)   /* MPICH's relative rank */
            place(&pl, p, (c->source + p) % n);
        break;
    case TREE_DEPTH_FIRST:
        fill_depth_first(&pl, 0);
        break;
    case TREE_BREADTH_FIRST:
        fill_breadth_first(&pl);
        break;
    default:
        fill_balanced_path(&pl);
        break;
    }
    free(pl.used);
    for (int p = 0; p < n; p++) {
        int ch[32];
        int k = binomial_children(p, n, ch);
        for (int i = 0; i < k; i++)
            add_edge(t, ed, t->node_at[p], t->node_at[ch[i]]);
    }
}

/* ---- MPI's rank-order trees: chain and k-nomial ---- */

/* The ranks relative to the source, as an MPI library numbers them: node
 * (source + p) mod n at position p; blind to the cluster's costs. */
static void build_rank(struct tree *t, const struct cluster *c, struct edges *ed)
{
    int n = c->n;
    t->node_at = xmalloc((size_t)n * sizeof *t->node_at);
    for (int p = 0; p < n; p++) {
        int v = (c->source + p) % n;
        t->pos[v] = p;
        t->node_at[p] = v;
    }
    for (int p = 0; p < n; p++) {
        int ch[3 * 32], k;
        if (t->kind == TREE_CHAIN) {
            k = p + 1 < n ? 1 : 0;
            ch[0] = p + 1;
        } else {
            k = knomial_children(p, n, TREE_KNOMIAL_RADIX, ch);
        }
        for (int i = 0; i < k; i++)
            add_edge(t, ed, t->node_at[p], t->node_at[ch[i]]);
    }
}

/* ---- flat ---- */

struct by_dist {
    double d;
    int v;
};

static int cmp_by_dist(const void *a, const void *b)
{
    const struct by_dist *x = a, *y = b;
    if (x->d != y->d)
        return x->d < y->d ? -1 : 1;
    return (x->v > y->v) - (x->v < y->v);
}

static void build_flat(struct tree *t, const struct cluster *c, struct edges *ed)
{
    int n = c->n, k = 0;
    struct by_dist *o = xmalloc((size_t)n * sizeof *o);
    for (int v = 0; v < n; v++)
        if (v != c->source)
            o[k++] = (struct by_dist){distance(c, c->source, v), v};
    qsort(o, (size_t)k, sizeof *o, cmp_by_dist);
    t->pos[c->source] = 0;
    for (int i = 0; i < k; i++) {
        t->pos[o[i].v] = i + 1;
        add_edge(t, ed, c->source, o[i].v);
    }
    free(o);
}

/* ---- magpie ---- */

static int uf_find(int *up, int v)
{
    while (up[v] != v) {
        up[v] = up[up[v]];
        v = up[v];
    }
    return v;
}

/* A group label is kept once per cluster (cluster_set_group): nodes of one
 * group have the same label id, so the ids sort them together. */
static const struct cluster *g_label_cluster;   /* qsort context, set just before sorting */

static int cmp_label(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    unsigned gx = cluster_group_id(g_label_cluster, x), gy = cluster_group_id(g_label_cluster, y);
    return gx != gy ? (gx > gy) - (gx < gy) : (x > y) - (x < y);
}

static bool has_label(const struct cluster *c, int v)
{
    const char *g = cluster_group(c, v);
    return g && g[0];
}

/*
 * raw[v]: a representative of v's group.  Groups are the nodes' group
 * labels when any node has one (unlabelled nodes alone), else the nodes at
 * distance 0 from each other both ways (connected through such pairs).
 */
static bool raw_groups(const struct cluster *c, int *raw)
{
    int n = c->n;
    bool labels = false;
    for (int v = 0; v < n; v++) {
        raw[v] = v;
        labels |= has_label(c, v);
    }
    if (labels) {
        int *idx = xmalloc((size_t)n * sizeof *idx), k = 0;
        for (int v = 0; v < n; v++)
            if (has_label(c, v))
                idx[k++] = v;
        g_label_cluster = c;
        qsort(idx, (size_t)k, sizeof *idx, cmp_label);
        for (int i = 1; i < k; i++)
            if (cluster_group_id(c, idx[i]) == cluster_group_id(c, idx[i - 1]))
                raw[idx[i]] = raw[idx[i - 1]];
        free(idx);
        return true;
    }
    if (c->kind != CLUSTER_MATRIX) {
        if (c->latency == 0)
            for (int v = 0; v < n; v++)
                raw[v] = 0;
        return false;
    }
    for (int u = 0; u < n; u++)
        for (int v = u + 1; v < n; v++)
            if (distance(c, u, v) == 0 && distance(c, v, u) == 0) {
                int a = uf_find(raw, u), b = uf_find(raw, v);
                if (a != b)
                    raw[a > b ? a : b] = a < b ? a : b;
            }
    for (int v = 0; v < n; v++)
        raw[v] = uf_find(raw, v);
    return false;
}

static void build_magpie(struct tree *t, const struct cluster *c, struct edges *ed)
{
    int n = c->n, s = c->source;
    int *raw = xmalloc((size_t)n * sizeof *raw);
    t->group_labels = raw_groups(c, raw);
    /* Each group's leader: its node closest to the source (ties: lowest index);
     * the source leads its own group. */
    int *leader = xmalloc((size_t)n * sizeof *leader);   /* by representative */
    for (int v = 0; v < n; v++)
        leader[v] = -1;
    for (int v = 0; v < n; v++) {
        int g = raw[v], l = leader[g];
        if (l == s)
            continue;
        if (v == s || l < 0 || distance(c, s, v) < distance(c, s, l))
            leader[g] = v;
    }
    /* Groups in the source's order: its own first, then closest leader first. */
    struct by_dist *o = xmalloc((size_t)n * sizeof *o);
    int ng = 0;
    for (int g = 0; g < n; g++)
        if (leader[g] >= 0 && raw[s] != g)
            o[ng++] = (struct by_dist){distance(c, s, leader[g]), leader[g]};
    qsort(o, (size_t)ng, sizeof *o, cmp_by_dist);
    int *gnum = xmalloc((size_t)n * sizeof *gnum);   /* representative -> group number */
    gnum[raw[s]] = 0;
    for (int i = 0; i < ng; i++)
        gnum[raw[o[i].v]] = i + 1;
    ng++;
    t->ngroups = ng;
    t->group = xmalloc((size_t)n * sizeof *t->group);
    t->group_size = xcalloc((size_t)ng, sizeof *t->group_size);
    for (int v = 0; v < n; v++) {
        t->group[v] = gnum[raw[v]];
        t->group_size[t->group[v]]++;
    }
    /* Members of each group, leader first, then by index: start[g] .. start[g+1]. */
    int *start = xcalloc((size_t)ng + 1, sizeof *start);
    int *member = xmalloc((size_t)n * sizeof *member);
    for (int g = 0; g < ng; g++)
        start[g + 1] = start[g] + t->group_size[g];
    int *fill = xmalloc((size_t)ng * sizeof *fill);
    for (int g = 0; g < ng; g++)
        fill[g] = start[g] + 1;
    for (int v = 0; v < n; v++) {
        int g = t->group[v];
        if (leader[raw[v]] == v)
            member[start[g]] = v;
        else
            member[fill[g]++] = v;
    }
    for (int g = 0; g < ng; g++)
        for (int p = 0; p < t->group_size[g]; p++)
            t->pos[member[start[g] + p]] = p;
    /* The source serves the other groups' leaders first (MagPIe's wide-area
     * step), then its own group's binomial tree; every group's tree is the
     * MPICH binomial tree over its members in that order. */
    for (int g = 1; g < ng; g++)
        add_edge(t, ed, s, member[start[g]]);
    for (int g = 0; g < ng; g++) {
        int m = t->group_size[g], ch[32];
        for (int p = 0; p < m; p++) {
            int k = binomial_children(p, m, ch);
            for (int i = 0; i < k; i++)
                add_edge(t, ed, member[start[g] + p], member[start[g] + ch[i]]);
        }
    }
    free(raw);
    free(leader);
    free(o);
    free(gnum);
    free(start);
    free(member);
    free(fill);
}

int tree_build(struct tree *t, const struct cluster *c, enum tree_kind kind, char **cause)
{
    memset(t, 0, sizeof *t);
    t->heavy_leaf = -1;
    if (c->kind != CLUSTER_MATRIX && c->kind != CLUSTER_NODES)
        return set_cause(cause, "the %s tree needs a latency matrix or a node table, not a %s",
                         tree_kind_name(kind), cluster_kind_name(c->kind));
    if ((unsigned)kind >= TREE_KIND_COUNT)
        return set_cause(cause, "unknown tree kind %d", (int)kind);
    if (c->n < 1 || c->source < 0 || c->source >= c->n)
        return set_cause(cause, "the cluster has no nodes or no source");
    tree_alloc(t, c, kind);
    struct edges ed = {xmalloc((size_t)c->n * sizeof(int)), 0};
    switch (kind) {
    case TREE_FLAT:
        build_flat(t, c, &ed);
        break;
    case TREE_MAGPIE:
        build_magpie(t, c, &ed);
        break;
    case TREE_CHAIN:
    case TREE_KNOMIAL:
        build_rank(t, c, &ed);
        break;
    default:
        build_binomial(t, c, &ed);
        break;
    }
    int rc = tree_link(t, c, &ed, cause);
    free(ed.child);
    return rc;
}

/* ---- handing the edges out: earliest start first ---- */

struct walk {
    const struct tree *t;
    int *next;      /* next[v]: how many of v's children it has served */
    struct pq ready;   /* holders with children left, by the start of their next send */
    int seen;       /* engine bookings already folded in */
};

static void walk_offer(struct walk *w, const struct engine *e, int v)
{
    const struct tree *t = w->t;
    int k = t->first[v] + w->next[v];
    if (k >= t->first[v + 1])
        return;
    struct transfer tr;
    if (engine_earliest(e, v, t->kids[k], 0, &tr) == 0)
        pq_push(&w->ready, v, tr.start);
}

static void walk_init(struct walk *w, const struct tree *t, const struct engine *e)
{
    w->t = t;
    w->next = xcalloc((size_t)t->n, sizeof *w->next);
    pq_init(&w->ready, t->n);
    w->seen = e->ntr;
    for (int v = 0; v < t->n; v++)
        if (engine_holds(e, v, 0))
            walk_offer(w, e, v);
}

static void walk_free(struct walk *w)
{
    free(w->next);
    w->next = NULL;
    pq_free(&w->ready);
}

/* The next edge (from, to), or false when every edge has been handed out. */
static bool walk_next(struct walk *w, const struct engine *e, int *from, int *to)
{
    for (; w->seen < e->ntr; w->seen++) {
        const struct transfer *tr = &e->tr[w->seen];
        if (tr->msg != 0)
            continue;
        walk_offer(w, e, tr->from);
        walk_offer(w, e, tr->to);
    }
    if (w->ready.n == 0)
        return false;
    int v = pq_pop(&w->ready);
    *from = v;
    *to = w->t->kids[w->t->first[v] + w->next[v]++];
    return true;
}

/* ---- the schedulers ---- */

struct tree_state {
    struct tree t;
    struct walk w;
    struct segplan *seg;    /* --slices K > 1: the K segments down the tree (sched/segment.h) */
};

static enum tree_kind kind_of(const struct sched_ops *ops)
{
    if (ops == &sched_binomial)
        return TREE_BINOMIAL;
    if (ops == &sched_depth_first)
        return TREE_DEPTH_FIRST;
    if (ops == &sched_breadth_first)
        return TREE_BREADTH_FIRST;
    if (ops == &sched_balanced_path)
        return TREE_BALANCED_PATH;
    if (ops == &sched_flat)
        return TREE_FLAT;
    if (ops == &sched_magpie)
        return TREE_MAGPIE;
    if (ops == &sched_chain)
        return TREE_CHAIN;
    if (ops == &sched_knomial)
        return TREE_KNOMIAL;
    return TREE_KIND_COUNT;
}

const struct tree *tree_of_sched(const struct sched *s)
{
    if (!s || !s->ops || kind_of(s->ops) == TREE_KIND_COUNT || !s->state)
        return NULL;
    return &((const struct tree_state *)s->state)->t;
}

/* "heaviest path n0 -> n3 -> n1 (cost 3)", cut with "..." if too long. */
static void heavy_note(const struct tree *t, const struct cluster *c, char *buf, size_t size)
{
    int *path = xmalloc((size_t)t->n * sizeof *path), k = 0;
    for (int v = t->heavy_leaf; v >= 0; v = t->parent[v])
        path[k++] = v;
    size_t len = (size_t)text_fit(buf, size, "%s tree, heaviest path", tree_kind_name(t->kind));
    for (int i = k - 1; i >= 0 && len < size; i--) {
        const char *name = c->nodes[path[i]].name;
        if (len + strlen(name) + 24 >= size) {
            len += (size_t)text_fit(buf + len, size - len, " -> ...");
            break;
        }
        len += (size_t)text_fit(buf + len, size - len, "%s%s", i == k - 1 ? " " : " -> ", name);
    }
    if (len < size)
        text_fit(buf + len, size - len, " (cost %g)", t->cost);
    free(path);
}

static char *tree_reason(const struct tree *t, const struct cluster *c, int q, int v);

static char *tree_seg_reason(const void *ctx, const struct cluster *c, int u, const struct seg_send *x)
{
    return tree_reason(ctx, c, u, x->to);
}

/* MPI libraries send a long message down their trees in segments (Open
 * MPI's coll/tuned): every node passes each segment, in order, to all its
 * children in the tree's order. */
static int tree_segments(struct sched *s, struct tree_state *st, struct engine *e, char **cause)
{
    const struct tree *t = &st->t;
    st->seg = xcalloc(1, sizeof *st->seg);
    seg_plan_init(st->seg, t->n, seg_count(s));
    for (int u = 0; u < t->n; u++)
        for (int k = 0; k < st->seg->segments; k++)
            for (int i = t->first[u]; i < t->first[u + 1]; i++)
                seg_plan_add(st->seg, u, k, t->kids[i], 0, 0);
    st->seg->reason = tree_seg_reason;
    st->seg->reason_ctx = t;
    if (seg_start(st->seg, s, e, cause) < 0) {
        seg_plan_free(st->seg);
        free(st->seg);
        st->seg = NULL;
        return -1;
    }
    return 0;
}

static int tree_prepare(struct sched *s, struct engine *e, char **cause)
{
    struct tree_state *st = xcalloc(1, sizeof *st);
    if (tree_build(&st->t, e->c, kind_of(s->ops), cause) < 0) {
        tree_free(&st->t);
        free(st);
        return -1;
    }
    if (!engine_holds(e, st->t.root, 0)) {
        tree_free(&st->t);
        free(st);
        return set_cause(cause, "%s: the source %s does not hold the message", s->ops->name,
                         e->c->nodes[e->c->source].name);
    }
    if (seg_count(s) > 1 && tree_segments(s, st, e, cause) < 0) {
        tree_free(&st->t);
        free(st);
        return -1;
    }
    if (!st->seg)
        walk_init(&st->w, &st->t, e);
    s->state = st;
    if (e->c->kind == CLUSTER_MATRIX) {
        s->has_tree_cost = true;
        s->tree_cost = st->t.cost * st->t.unit;
    }
    heavy_note(&st->t, e->c, s->note, sizeof s->note);
    return 0;
}

static void say_ties(const struct tree *t, int v, char *buf, size_t size)
{
    if (t->ties[v] > 1)
        text_fit(buf, size, " (lowest index of %d as close)", t->ties[v]);
    else
        buf[0] = '\0';
}

/* Why q sends to v, sized to what it says (the caller frees it). */
static char *tree_reason(const struct tree *t, const struct cluster *c, int q, int v)
{
    char *out = NULL;
    const char *qn = c->nodes[q].name, *vn = c->nodes[v].name;
    char tie[64];
    say_ties(t, v, tie, sizeof tie);
    switch (t->kind) {
    case TREE_BINOMIAL:
        out = xasprintf("binomial position %d (child of position %d); distance %g", t->pos[v],
                 t->pos[q], t->dist[v]);
        break;
    case TREE_DEPTH_FIRST:
    case TREE_BREADTH_FIRST:
        out = xasprintf("%s position %d (child of position %d): %s was the remaining node "
                            "closest to %s%s; distance %g",
                 tree_kind_name(t->kind), t->pos[v], t->pos[q], vn, qn, tie, t->dist[v]);
        break;
    case TREE_BALANCED_PATH:
        out = xasprintf("balanced-path position %d (child of position %d, served when it had "
                            "the most unfilled children, %d): %s was the remaining node closest "
                            "to %s%s; distance %g",
                 t->pos[v], t->pos[q], t->unfilled[v], vn, qn, tie, t->dist[v]);
        break;
    case TREE_FLAT:
        out = xasprintf("flat: %s sends to every node, closest first (%d of %d); distance %g",
                 qn, t->pos[v], t->n - 1, t->dist[v]);
        break;
    case TREE_CHAIN:
        out = xasprintf("chain: rank %d passes it to the next rank, %d (MPI's linear chain, blind to "
                        "the costs)", t->pos[q], t->pos[v]);
        break;
    case TREE_KNOMIAL:
        out = xasprintf("%d-nomial position %d (child of position %d; MPI's k-nomial tree, blind to the "
                        "costs)", TREE_KNOMIAL_RADIX, t->pos[v], t->pos[q]);
        break;
    default:
        if (q == t->root && t->group[v] != t->group[q])
            out = xasprintf("magpie: %s is the node of group %d (%d node%s) closest to the "
                                "source, which serves the groups closest first; distance %g",
                     vn, t->group[v], t->group_size[t->group[v]],
                     t->group_size[t->group[v]] == 1 ? "" : "s", t->dist[v]);
        else
            out = xasprintf("magpie: binomial position %d of group %d (child of position %d); "
                                "distance %g",
                     t->pos[v], t->group[v], t->pos[q], t->dist[v]);
        break;
    }
    return out;
}

/* ---- a tree built on one cluster, simulated on another ---- */

int tree_run(const struct tree *t, struct engine *e, char **cause)
{
    if (e->n != t->n || !engine_holds(e, t->root, 0))
        return set_cause(cause, "the %s tree (%d nodes from node %d) does not fit this broadcast",
                         tree_kind_name(t->kind), t->n, t->root);
    struct walk w;
    walk_init(&w, t, e);
    int from, to, rc = 0;
    char *why = NULL;
    while (walk_next(&w, e, &from, &to)) {
        char *reason = tree_reason(t, e->c, from, to);
        int booked = engine_book(e, from, to, 0, reason, &why);
        free(reason);
        if (booked < 0) {
            rc = set_cause(cause, "%s tree: %s", tree_kind_name(t->kind), why);
            break;
        }
    }
    free(why);
    walk_free(&w);
    engine_timeline(e);
    return rc;
}

static int tree_choose(struct sched *s, const struct engine *e, struct decision *d, char **cause)
{
    (void)cause;
    struct tree_state *st = s->state;
    int q, v;
    if (st->seg)
        return seg_choose(st->seg, e, d, cause);
    if (!walk_next(&st->w, e, &q, &v))
        return SCHED_DONE;
    d->from = q;
    d->to = v;
    d->msg = 0;
    d->reason = tree_reason(&st->t, e->c, q, v);
    return SCHED_DECIDED;
}

static void tree_finish(struct sched *s)
{
    struct tree_state *st = s->state;
    walk_free(&st->w);
    if (st->seg)
        seg_plan_free(st->seg);
    free(st->seg);
    tree_free(&st->t);
    free(st);
    s->state = NULL;
}

#define TREE_SCHED(var, nm, text)                                                           \
    const struct sched_ops var = {                                                          \
        .name = nm,                                                                         \
        .summary = text,                                                                    \
        .kinds = CLUSTER_KIND_BIT(CLUSTER_MATRIX) | CLUSTER_KIND_BIT(CLUSTER_NODES),        \
        .models = MODEL_ALL,                                                                \
        .prepare = tree_prepare,                                                            \
        .choose = tree_choose,                                                              \
        .finish = tree_finish,                                                              \
    }

TREE_SCHED(sched_binomial, "binomial",
           "MPICH binomial tree, node i at position i (Figueira's blind tree)");
TREE_SCHED(sched_depth_first, "depth-first",
           "binomial tree filled depth first, right to left, with the closest remaining node");
TREE_SCHED(sched_breadth_first, "breadth-first",
           "binomial tree filled level by level, right to left, with the closest remaining node");
TREE_SCHED(sched_balanced_path, "balanced-path",
           "binomial tree: the position with most unfilled children takes the closest node");
TREE_SCHED(sched_flat, "flat", "the source sends to every node, closest first");
TREE_SCHED(sched_chain, "chain", "MPI's linear chain: each rank from the source on passes the message to the next");
TREE_SCHED(sched_knomial, "knomial", "MPI's k-nomial tree (radix 4), ranks from the source as MPI numbers them");
TREE_SCHED(sched_magpie, "magpie",
           "the source sends to one node per group, binomial tree inside each group");
