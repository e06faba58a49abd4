/*
 * model/generate.c - the papers' cluster generators (model/generate.h): Chen & Liu's
 * three-class cluster and its receiver block, Figueira's random LNOWs,
 * Beaumont, Marchal & Robert's random and TIERS-like platforms.  Each is
 * deterministic for its generator's state; the studies (app/exp_*.c), the
 * bench and the tests draw their clusters here.
 */
#include "model/generate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* c finished (cluster_finish): valid by construction, so no messages. */
static struct cluster *finished(struct cluster *c)
{
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);
    diag_free(&d);
    return c;
}

/* ---- Chen & Liu (all-to-all) ---- */

struct cluster *generate_alltoall(int n)
{
    static const char *const cls[3] = {"fast", "normal", "slow"};
    static const double cost[3] = {1, 5, 10};
    struct cluster *c = cluster_new(CLUSTER_NODES);
    int third = n / 3;
    for (int i = 0; i < n; i++) {
        int k = i < third ? 0 : i < 2 * third ? 1 : 2;   /* the rest are slow */
        char name[32];
        snprintf(name, sizeof name, "P%d", i);
        int id = cluster_add_node(c, name, cost[k], cost[k]);
        cluster_set_class(c, id, cls[k]);
    }
    c->latency = 1;
    cluster_set_str(&c->name, "chen-liu");
    return finished(c);
}

int generate_alltoall_receivers(int n, double pct, int *recv)
{
    int k = (int)floor(n * pct / 100 + 0.5), start = (int)floor(0.8 * n);
    if (k < 1)
        k = 1;
    if (k > n)
        k = n;
    /* increasing: the part wrapped around to node 0 first */
    int wrapped = start + k > n ? start + k - n : 0;
    for (int i = 0; i < wrapped; i++)
        recv[i] = i;
    for (int i = wrapped; i < k; i++)
        recv[i] = start + i - wrapped;
    return k;
}

/* ---- Figueira (LNOWs) ---- */

struct cluster *generate_lnow(struct rng *r, int nodes, int max_groups, int max_hops, int *groups)
{
    int n = nodes > 0 ? nodes : 1, h = max_hops > 0 ? max_hops : 1;
    int gmax = max_groups < n ? max_groups : n;
    if (gmax > h + 1)
        gmax = h + 1;
    if (gmax < 1)
        gmax = 1;
    int g = 1 + (int)rng_below(r, (uint64_t)gmax);
    /* Distinct hop distances: node 0's group at 0, the others from 1..h. */
    int *hops = xmalloc((size_t)h * sizeof *hops), *gdist = xmalloc((size_t)g * sizeof *gdist);
    for (int i = 0; i < h; i++)
        hops[i] = i + 1;
    gdist[0] = 0;
    for (int k = 1; k < g; k++) {
        int j = (k - 1) + (int)rng_below(r, (uint64_t)(h - (k - 1)));
        int t = hops[k - 1];
        hops[k - 1] = hops[j];
        hops[j] = t;
        gdist[k] = hops[k - 1];
    }
    /* Nodes 1..n-1 in random order: the first g-1 open groups 1..g-1, the
     * rest fall in any group. */
    int *order = xmalloc((size_t)n * sizeof *order), *grp = xmalloc((size_t)n * sizeof *grp);
    for (int i = 1; i < n; i++)
        order[i - 1] = i;
    for (int i = n - 2; i > 0; i--) {
        int j = (int)rng_below(r, (uint64_t)i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    grp[0] = 0;
    for (int i = 0; i < n - 1; i++)
        grp[order[i]] = i < g - 1 ? i + 1 : (int)rng_below(r, (uint64_t)g);
    struct cluster *c = cluster_new(CLUSTER_MATRIX);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        cluster_add_node(c, name, 0, 0);
    }
    c->dist = xmalloc((size_t)n * (size_t)n * sizeof *c->dist);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            c->dist[(size_t)i * (size_t)n + (size_t)j] =
                grp[i] == grp[j] ? 0 : (double)(gdist[grp[i]] + gdist[grp[j]]);
    char desc[160];
    snprintf(desc, sizeof desc, "random LNOW after Figueira section 4: %d nodes, %d group%s", n, g,
             g == 1 ? "" : "s");
    cluster_set_str(&c->name, "lnow");
    cluster_set_str(&c->description, desc);
    finished(c);
    free(order);
    free(grp);
    free(hops);
    free(gdist);
    *groups = g;
    return c;
}

/* ---- Beaumont, Marchal & Robert (platforms) ---- */

/* Gaussian by Box-Muller, redrawn below 1 so that every time is positive. */
static double link_time(struct rng *r)
{
    for (;;) {
        double u = rng_unit(r), v = rng_unit(r);
        double z = sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * v);
        double t = 100.0 + 20.0 * z;
        if (t >= 1.0)
            return t;
    }
}

struct builder {
    struct cluster *c;
    unsigned char *linked;   /* n * n: a link between the two already */
};

static void builder_init(struct builder *b, int n, const char *(*prefix)(int i, int n), int n_arg)
{
    b->c = cluster_new(CLUSTER_GRAPH);
    b->linked = xcalloc((size_t)n * (size_t)n, 1);
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s%d", prefix(i, n_arg), i);
        cluster_add_node(b->c, name, 0, 0);
    }
}

/* A link both ways, each direction with its own time; false if already there. */
static bool link_pair(struct builder *b, struct rng *r, int u, int v)
{
    int n = b->c->n;
    if (u == v || b->linked[(size_t)u * (size_t)n + (size_t)v])
        return false;
    b->linked[(size_t)u * (size_t)n + (size_t)v] = b->linked[(size_t)v * (size_t)n + (size_t)u] = 1;
    cluster_add_edge(b->c, u, v, link_time(r), -1);
    cluster_add_edge(b->c, v, u, link_time(r), -1);
    return true;
}

/* send_u = ratio * fastest outgoing T, on every edge of u; then cluster_finish. */
static struct cluster *builder_finish(struct builder *b, double send_ratio, const char *name)
{
    struct cluster *c = b->c;
    double *fastest = xmalloc((size_t)c->n * sizeof *fastest);
    for (int u = 0; u < c->n; u++)
        fastest[u] = INFINITY;
    for (int k = 0; k < c->nedges; k++)
        fastest[c->edges[k].from] = fmin(fastest[c->edges[k].from], c->edges[k].time);
    for (int k = 0; k < c->nedges; k++)
        c->edges[k].send = send_ratio * fastest[c->edges[k].from];
    free(fastest);
    free(b->linked);
    cluster_set_str(&c->name, name);
    struct diag d;
    diag_init(&d);
    cluster_finish(c, &d);   /* connected by construction: nothing to report */
    diag_free(&d);
    return c;
}

static const char *plain_prefix(int i, int n)
{
    (void)i;
    (void)n;
    return "P";
}

struct cluster *generate_platform_random(struct rng *r, int n, double density, double send_ratio)
{
    struct builder b;
    builder_init(&b, n, plain_prefix, n);
    /* A random spanning tree: each node after P0, in a random order, links to an earlier one. */
    int *perm = xmalloc((size_t)n * sizeof *perm);
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 1; i--) {
        int j = 1 + (int)rng_below(r, (uint64_t)i);
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int i = 1; i < n; i++)
        link_pair(&b, r, perm[i], perm[rng_below(r, (uint64_t)i)]);
    free(perm);
    for (int u = 0; u < n; u++)
        for (int v = u + 1; v < n; v++)
            if (rng_unit(r) < density)
                link_pair(&b, r, u, v);
    return builder_finish(&b, send_ratio, "random-platform");
}

/* The three levels: W (WAN) for the first w nodes, M (MAN) for the next, L (LAN) after. */
struct tiers_shape {
    int w, m;
};

static struct tiers_shape tiers_shape(int n)
{
    struct tiers_shape s;
    s.w = n / 10 > 1 ? n / 10 : 1;
    s.m = 3 * n / 10 > 1 ? 3 * n / 10 : 1;
    if (s.w + s.m > n)
        s.m = n - s.w;
    return s;
}

static const char *tiers_prefix(int i, int n)
{
    struct tiers_shape s = tiers_shape(n);
    return i < s.w ? "W" : i < s.w + s.m ? "M" : "L";
}

/* Minimum spanning tree (Prim, Euclidean) over the given nodes, then redundancy. */
static void mst_with_redundancy(struct builder *b, struct rng *r, const int *ids, int k,
                                const double *x, const double *y, double redundancy)
{
    if (k < 2)
        return;
    unsigned char *in = xcalloc((size_t)k, 1);
    double *best = xmalloc((size_t)k * sizeof *best);
    int *from = xmalloc((size_t)k * sizeof *from);
    for (int i = 0; i < k; i++) {
        best[i] = INFINITY;
        from[i] = -1;
    }
    best[0] = 0;
    for (int step = 0; step < k; step++) {
        int u = -1;
        for (int i = 0; i < k; i++)
            if (!in[i] && (u < 0 || best[i] < best[u]))
                u = i;
        in[u] = 1;
        if (from[u] >= 0)
            link_pair(b, r, ids[from[u]], ids[u]);
        for (int i = 0; i < k; i++) {
            double d = hypot(x[ids[i]] - x[ids[u]], y[ids[i]] - y[ids[u]]);
            if (!in[i] && d < best[i]) {
                best[i] = d;
                from[i] = u;
            }
        }
    }
    int n = b->c->n;
    for (int i = 0; i < k; i++) {
        if (rng_unit(r) >= redundancy)
            continue;
        int near = -1;
        for (int j = 0; j < k; j++) {
            if (j == i || b->linked[(size_t)ids[i] * (size_t)n + (size_t)ids[j]])
                continue;
            double dj = hypot(x[ids[j]] - x[ids[i]], y[ids[j]] - y[ids[i]]);
            if (near < 0 || dj < hypot(x[ids[near]] - x[ids[i]], y[ids[near]] - y[ids[i]]))
                near = j;
        }
        if (near >= 0)
            link_pair(b, r, ids[i], ids[near]);
    }
    free(in);
    free(best);
    free(from);
}

struct cluster *generate_platform_tiers(struct rng *r, int n, double send_ratio)
{
    struct tiers_shape s = tiers_shape(n);
    struct builder b;
    builder_init(&b, n, tiers_prefix, n);
    double *x = xmalloc((size_t)n * sizeof *x), *y = xmalloc((size_t)n * sizeof *y);
    for (int i = 0; i < n; i++) {
        x[i] = rng_unit(r);
        y[i] = rng_unit(r);
    }
    int *ids = xmalloc((size_t)n * sizeof *ids);
    for (int i = 0; i < s.w; i++)
        ids[i] = i;
    mst_with_redundancy(&b, r, ids, s.w, x, y, 0.5);
    for (int wan = 0; wan < s.w; wan++) {   /* the MAN of each WAN node, with it */
        int k = 0;
        ids[k++] = wan;
        for (int j = 0; j < s.m; j++)
            if (j % s.w == wan)
                ids[k++] = s.w + j;
        mst_with_redundancy(&b, r, ids, k, x, y, 0.3);
    }
    for (int h = s.w + s.m; h < n; h++)   /* LAN hosts: stars around MAN nodes */
        link_pair(&b, r, h, s.w + (h - s.w - s.m) % s.m);
    free(x);
    free(y);
    free(ids);
    cluster_set_str(&b.c->source_name, b.c->nodes[rng_below(r, (uint64_t)n)].name);
    return builder_finish(&b, send_ratio, "wan-man-lan-platform");
}


/* ---- the papers' small examples ---- */

struct cluster *generate_liu_figure1(void)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    cluster_add_node(c, "p0", 1, 2);
    cluster_add_node(c, "p1", 1, 2);
    cluster_add_node(c, "p2", 2, 3);
    c->latency = 1;
    return finished(c);
}

struct cluster *generate_power2(struct rng *r, int n)
{
    int k = 1 + (int)rng_below(r, 3);
    double s[3], rv[3];
    int es = 0, er = (int)rng_below(r, 2);
    for (int i = 0; i < k; i++) {
        es += 1 + (int)rng_below(r, 2) - (i == 0);
        er += 1 + (int)rng_below(r, 2) - (i == 0);
        s[i] = ldexp(1.0, es);
        rv[i] = ldexp(1.0, er);
    }
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int i = 0; i < n; i++) {
        int j = (int)rng_below(r, (uint64_t)k);
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        cluster_add_node(c, name, s[j], rv[j]);
    }
    return finished(c);
}

struct cluster *generate_homogeneous(int n, double s, double latency, double r)
{
    struct cluster *c = cluster_new(CLUSTER_NODES);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "r%d", i);
        cluster_add_node(c, name, s, r);
    }
    c->latency = latency;
    return finished(c);
}

/* A latency matrix of n nodes named PREFIX0.., s = r = 0, d(i, j) = dist(i, j). */
static struct cluster *matrix(int n, const char *prefix, double (*dist)(int i, int j, int n))
{
    struct cluster *c = cluster_new(CLUSTER_MATRIX);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "%s%d", prefix, i);
        cluster_add_node(c, name, 0, 0);
    }
    c->dist = xmalloc((size_t)n * (size_t)n * sizeof *c->dist);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            c->dist[(size_t)i * (size_t)n + (size_t)j] = dist(i, j, n);
    return finished(c);
}

static double asymmetric_dist(int i, int j, int P)
{
    return i == j ? 0 : i > 0 && j == 2 * i % P ? (double)P * P : 1;
}

struct cluster *generate_asymmetric(int P)
{
    return matrix(P, "p", asymmetric_dist);
}

static double table1_dist(int i, int j, int n)
{
    static const double d[8][8] = {
        {0, 2, 2, 0, 3, 3, 0, 0}, {2, 0, 0, 2, 5, 5, 2, 2}, {2, 0, 0, 2, 5, 5, 2, 2},
        {0, 2, 2, 0, 3, 3, 0, 0}, {3, 5, 5, 3, 0, 0, 3, 3}, {3, 5, 5, 3, 0, 0, 3, 3},
        {0, 2, 2, 0, 3, 3, 0, 0}, {0, 2, 2, 0, 3, 3, 0, 0},
    };
    (void)n;
    return d[i][j];
}

struct cluster *generate_figueira_table1(void)
{
    return matrix(8, "n", table1_dist);
}
