/*
 * model/platform.c - a platform's links and routes (model/platform.h).
 */
#include "model/platform.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/diag.h"

void platform_free(struct platform *pl)
{
    if (!pl)
        return;
    for (int i = 0; i < pl->nlinks && !pl->names_lent; i++)
        free(pl->link[i].name);
    free(pl->link);
    free(pl->off);
    free(pl->ids);
    free(pl->latency);
    if (pl->rule)
        pl->rule->free(pl->rule_ctx);
    free(pl);
}

uint32_t *platform_route_buf(const struct platform *pl)
{
    return xmalloc((size_t)(pl->route_max > 0 ? pl->route_max : 1) * sizeof(uint32_t));
}

double platform_route_bandwidth(const struct platform *pl, int q, int p)
{
    int len;
    uint32_t *buf = platform_route_buf(pl);
    const uint32_t *ids = platform_route(pl, q, p, buf, &len);
    double bw = INFINITY;
    for (int i = 0; i < len; i++)
        bw = fmin(bw, pl->link[ids[i]].bandwidth);
    free(buf);
    return bw;
}

double platform_route_latency(const struct platform *pl, int q, int p)
{
    if (!pl->rule)
        return pl->latency[(size_t)q * (size_t)pl->n + (size_t)p];
    int len;
    uint32_t *buf = platform_route_buf(pl);
    const uint32_t *ids = platform_route(pl, q, p, buf, &len);
    double lat = 0;
    for (int i = 0; i < len; i++)
        lat += pl->link[ids[i]].latency;
    free(buf);
    return lat;
}

double platform_route_alone(const struct platform *pl, int q, int p)
{
    return platform_route_latency(pl, q, p) + pl->size / platform_route_bandwidth(pl, q, p);
}

/* Can transfers q1 -> p1 and q2 -> p2 of one broadcast run at once?  A host
 * receives once, before it sends; one-port senders send one at a time. */
static bool concurrent(int q1, int p1, int q2, int p2, bool multi_port)
{
    if (p1 == p2 || p1 == q2 || p2 == q1)
        return false;
    return multi_port || q1 != q2;
}

/* The routes through each link, as (q, p) pairs: by[link][...], counted in cnt. */
static void routes_by_link(const struct platform *pl, const int *edge_of, size_t **start,
                           int **pairs)
{
    size_t *st = xcalloc((size_t)pl->nlinks + 1, sizeof *st);
    uint32_t *buf = platform_route_buf(pl);
    for (int q = 0; q < pl->n; q++)
        for (int p = 0; p < pl->n; p++) {
            int len;
            bool used = q != p && (!edge_of || edge_of[(size_t)q * (size_t)pl->n + (size_t)p] >= 0);
            const uint32_t *ids = used ? platform_route(pl, q, p, buf, &len) : NULL;
            for (int i = 0; ids && i < len; i++)
                st[ids[i] + 1]++;
        }
    for (int l = 0; l < pl->nlinks; l++)
        st[l + 1] += st[l];
    int *pr = xmalloc((st[pl->nlinks] ? st[pl->nlinks] : 1) * 2 * sizeof *pr);
    size_t *fill = xmalloc(((size_t)pl->nlinks + 1) * sizeof *fill);
    for (int l = 0; l <= pl->nlinks; l++)
        fill[l] = st[l];
    for (int q = 0; q < pl->n; q++)
        for (int p = 0; p < pl->n; p++) {
            int len;
            bool used = q != p && (!edge_of || edge_of[(size_t)q * (size_t)pl->n + (size_t)p] >= 0);
            const uint32_t *ids = used ? platform_route(pl, q, p, buf, &len) : NULL;
            for (int i = 0; ids && i < len; i++) {
                size_t k = fill[ids[i]]++;
                pr[2 * k] = q;
                pr[2 * k + 1] = p;
            }
        }
    free(fill);
    free(buf);
    *start = st;
    *pairs = pr;
}

bool platform_shares(const struct platform *pl, bool multi_port, const int *edge_of,
                     const char *const *names, char *why, size_t why_size)
{
    size_t *st;
    int *pr;
    routes_by_link(pl, edge_of, &st, &pr);
    bool found = false;
    for (int l = 0; l < pl->nlinks && !found; l++) {
        if (!pl->link[l].shared)
            continue;
        size_t a = st[l], b = st[l + 1];
        /* all routes into one host never run at once: the common case, checked first */
        bool one_dest = true;
        for (size_t k = a + 1; k < b && one_dest; k++)
            one_dest = pr[2 * k + 1] == pr[2 * a + 1];
        /* one-port: routes that all touch one host (or span three hosts) meet pairwise */
        for (int v = 0; v < 2 && !multi_port && !one_dest; v++) {
            int host = pr[2 * a + v];
            bool all = true;
            for (size_t k = a + 1; k < b && all; k++)
                all = pr[2 * k] == host || pr[2 * k + 1] == host;
            one_dest = all;
        }
        for (size_t i = a; i < b && !one_dest && !found; i++)
            for (size_t j = i + 1; j < b && !found; j++)
                if (concurrent(pr[2 * i], pr[2 * i + 1], pr[2 * j], pr[2 * j + 1], multi_port)) {
                    found = true;
                    char b1[128], b2[128], b3[128], b4[128], b5[128];
                    text_fit(why, why_size, "link %s carries %s -> %s and %s -> %s, which a "
                             "schedule may run at once", SHOWN(pl->link[l].name, b5),
                             SHOWN(names[pr[2 * i]], b1), SHOWN(names[pr[2 * i + 1]], b2),
                             SHOWN(names[pr[2 * j]], b3), SHOWN(names[pr[2 * j + 1]], b4));
                }
    }
    if (!found && why_size)
        why[0] = '\0';
    free(st);
    free(pr);
    return found;
}
