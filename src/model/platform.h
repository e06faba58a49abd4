/*
 * model/platform.h - a SimGrid platform's links and routes (docs/models.md,
 * "Shared links"): the cluster of a platform file keeps each route as the
 * list of links it crosses, so that transfers in flight can share a link's
 * bandwidth (engine/flow.h) instead of each getting the whole of it.
 *
 * A link is one resource: a SHARED link's bandwidth is shared by the flows
 * crossing it, a FATPIPE link gives each flow its full bandwidth, and each
 * direction of a SPLITDUPLEX link is a link of its own (SimGrid's _UP and
 * _DOWN).  Routes are by node (the cluster's order), q -> p for q != p.
 * A platform keeps its routes listed (off, ids, latency: n*n of them), or
 * a rule that computes one when asked (rule, rule_ctx: the native reader's
 * single <cluster>, model/cluster_simgrid_native.c, whose routes follow
 * from each host's links); platform_route and platform_route_latency read
 * either.
 */
#ifndef HETCAST_PLATFORM_H
#define HETCAST_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct platform_link {
    char *name;
    double bandwidth;   /* bytes per second */
    double latency;     /* seconds */
    bool shared;        /* false: FATPIPE */
};

/* Routes computed on demand: route(ctx, q, p, out) writes the links of q -> p
 * (none when q == p) into out and returns their count; free(ctx) at the end. */
struct platform_rule {
    int (*route)(const void *ctx, int q, int p, uint32_t *out);
    void (*free)(void *ctx);
};

struct platform {
    int n;                        /* nodes */
    int nlinks;
    struct platform_link *link;
    size_t *off;                  /* route q -> p: ids[off[q*n+p] .. off[q*n+p+1]) */
    uint32_t *ids;
    double *latency;              /* n*n: each route's latency (SimGrid's, in s) */
    const struct platform_rule *rule;   /* instead of off, ids and latency: NULL when listed */
    void *rule_ctx;
    bool names_lent;              /* the links' names are the rule's context's (freed with it) */
    int route_max;                /* the most links a route crosses */
    double size;                  /* the message's bytes (--size) */
};

void platform_free(struct platform *pl);

/* The links of route q -> p and their count: in the list, or written to buf
 * (room for pl->route_max links) by the rule. */
static inline const uint32_t *platform_route(const struct platform *pl, int q, int p,
                                             uint32_t *buf, int *len)
{
    if (pl->rule) {
        *len = pl->rule->route(pl->rule_ctx, q, p, buf);
        return buf;
    }
    size_t k = (size_t)q * (size_t)pl->n + (size_t)p;
    *len = (int)(pl->off[k + 1] - pl->off[k]);
    return pl->ids + pl->off[k];
}

/* A room for any route of pl (free it). */
uint32_t *platform_route_buf(const struct platform *pl);

/* The route's latency: SimGrid's when listed; under a rule, its links' latencies
 * summed in route order from 0, as SimGrid sums them. */
double platform_route_latency(const struct platform *pl, int q, int p);

/* The route's bandwidth alone (its slowest link), INFINITY for a route of no link. */
double platform_route_bandwidth(const struct platform *pl, int q, int p);
/* How long route q -> p takes the message (pl->size bytes) with no other
 * flow: its latency, then the bytes at its bandwidth. */
double platform_route_alone(const struct platform *pl, int q, int p);

/*
 * Do two routes of a broadcast's schedule, running at the same time, ever
 * cross one SHARED link?  Under one-port senders two transfers run at once
 * only between four distinct hosts; under multi-port also from one sender.
 * edge_of (n*n, or NULL: every route) keeps the routes q -> p with
 * edge_of[q*n+p] >= 0, the only ones a platform graph's schedules take.
 * false: every route's cost alone is exact for every schedule (the bounds
 * and the exact search hold); then *why is empty.  true: *why names a link
 * and two of its routes (why_size bytes).  Cost: one pass over the routes.
 */
bool platform_shares(const struct platform *pl, bool multi_port, const int *edge_of,
                     const char *const *names, char *why, size_t why_size);

#endif
