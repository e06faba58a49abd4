/*
 * engine/bounds.c - lower bounds and the FNF guarantee (SPEC §2).
 */
#include "engine/bounds.h"

#include <math.h>
#include <stdlib.h>

/* Time from "q holds it and is free" to "p holds it" for one transfer: the
 * timing rule from 0 with every port free. */
static double hop(const struct cluster *c, enum model m, int q, int p, bool *ok)
{
    struct timing_ports at = {0.0, 0.0, -INFINITY};
    struct timing t;
    *ok = timing_of(c, m, q, p, &at, &t);
    return *ok ? t.hold : INFINITY;
}

/* r' = l + r (Liu, Wang & Guo §2.3, the latency folded into the receive
 * time): async, from the end of q's send to p's hold (a send of 0 from 0). */
static double recv_folded(const struct cluster *c, int q, int p)
{
    struct cost k = {0};
    struct timing t;
    timing_cost(c, q, p, &k);
    k.s = 0;
    timing_phases(MODEL_ASYNC, &k, 0.0, 0.0, &t);
    return t.hold;
}

/* A matrix whose reader proved every direct route shorter than any chain
 * through other nodes (cluster.h's direct_shortest), on which each of the
 * source's hops takes exactly its link's time: with every node's costs 0, a
 * model's hop is its link's time for every pair alike, so no chain beats
 * the direct hop and Dijkstra would find each direct hop unchanged. */
static bool direct_hops_shortest(const struct cluster *c, enum model m)
{
    if (c->kind != CLUSTER_MATRIX || !c->direct_shortest)
        return false;
    for (int p = 0; p < c->n; p++) {
        bool ok;
        if (c->nodes[p].send != 0 || c->nodes[p].recv != 0)
            return false;
        if (p != c->source && hop(c, m, c->source, p, &ok) != timing_link(c, c->source, p))
            return false;
    }
    return true;
}

double bound_lower(const struct cluster *c, enum model m)
{
    int n = c->n;
    if (n <= 1)
        return 0;
    if (c->kind == CLUSTER_NODES || direct_hops_shortest(c, m)) {
        /* Any chain source -> ... -> p costs at least the direct hop, since
         * every hop costs >= 0 and the first hop leaves the source (a node
         * table), or as its reader proved (a matrix): O(n). */
        double worst = 0;
        for (int p = 0; p < n; p++) {
            bool ok;
            double h = p == c->source || !cluster_is_target(c, p) ? 0 : hop(c, m, c->source, p, &ok);
            if (h > worst)
                worst = h;
        }
        return worst;
    }
    /* Matrices and graphs: shortest paths from the source (Dijkstra, O(n^2)). */
    double *dist = malloc((size_t)n * sizeof *dist);
    char *done = calloc((size_t)n, 1);
    if (!dist || !done) {
        free(dist);
        free(done);
        return 0;
    }
    for (int i = 0; i < n; i++)
        dist[i] = INFINITY;
    dist[c->source] = 0;
    for (int it = 0; it < n; it++) {
        int u = -1;
        for (int i = 0; i < n; i++)
            if (!done[i] && (u < 0 || dist[i] < dist[u]))
                u = i;
        if (u < 0 || isinf(dist[u]))
            break;
        done[u] = 1;
        for (int v = 0; v < n; v++) {
            bool ok;
            if (done[v] || v == u)
                continue;
            double h = hop(c, m, u, v, &ok);
            if (ok && dist[u] + h < dist[v])
                dist[v] = dist[u] + h;
        }
    }
    double worst = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(dist[i]) && dist[i] > worst && cluster_is_target(c, i))
            worst = dist[i];
    free(dist);
    free(done);
    return worst;
}

bool bound_fnf_beta(const struct cluster *c, enum model m, double *beta, bool *consistent)
{
    if (!timing_fnf_bounds(m) || c->kind != CLUSTER_NODES || c->n < 2 || c->target)
        return false;   /* the theorems are about broadcasts, not multicasts */
    double lo = INFINITY, hi = -INFINITY;
    for (int p = 0; p < c->n; p++) {
        if (p == c->source)
            continue;
        double r = recv_folded(c, c->source, p);
        if (r < lo)
            lo = r;
        if (r > hi)
            hi = r;
    }
    *beta = hi - 2 * lo;
    *consistent = cluster_speeds_consistent(c, NULL, NULL);
    return true;
}

bool bound_lhh(const struct cluster *c, enum model m, double *alpha, double *beta)
{
    if (!timing_fnf_bounds(m) || c->kind != CLUSTER_NODES || c->n < 2 || c->target)
        return false;   /* the theorems are about broadcasts, not multicasts */
    double lo = INFINITY, hi = -INFINITY, a = 0;
    for (int p = 0; p < c->n; p++) {
        struct cost k = {0};
        timing_cost(c, p, p, &k);   /* s(p), L, r(p) */
        double s = timing_send_end(&k, 0.0), r = recv_folded(c, p, p);
        double ratio = r > 0 ? (s > 0 ? r / s : INFINITY) : 0;
        if (ratio > a)
            a = ratio;
        if (p == c->source)
            continue;
        if (r < lo)
            lo = r;
        if (r > hi)
            hi = r;
    }
    *alpha = a;
    *beta = hi - lo;
    return true;
}
