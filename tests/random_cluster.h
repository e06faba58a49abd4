/*
 * tests/random_cluster.h - small random clusters for the tests that check an
 * exact method a second way (test_bruteforce.c, test_certify.c): every
 * cluster kind, costs from a few values so that zeros, ties and equal nodes
 * are common, and with `thirds` costs off every decimal grid; random_targets
 * makes one a multicast.
 */
#ifndef HETCAST_TEST_RANDOM_CLUSTER_H
#define HETCAST_TEST_RANDOM_CLUSTER_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cluster.h"
#include "model/targets.h"
#include "support/diag.h"
#include "support/rng.h"

/* A cost from {0, 0, 1, 1, 2, 3}: zeros and ties are common.  With thirds
 * (1/3 is on no decimal grid) the search runs on the raw doubles instead of
 * scaled integers. */
static bool thirds;
static double pick(struct rng *r)
{
    static const double v[] = {0, 0, 1, 1, 2, 3};
    static const double w[] = {0, 0, 1.0 / 3, 2.0 / 3, 1, 0.1};
    return thirds ? w[rng_below(r, 6)] : v[rng_below(r, 6)];
}

/* With lnow_matrices, half the latency matrices are Figueira's LNOWs (every
 * send and receive step 0); without it no coin is drawn for them, so the
 * callers that leave it off draw the clusters they always drew. */
static bool lnow_matrices;

/* c once cluster_finish accepts it, or NULL (c freed). */
static struct cluster *cluster_finished(struct cluster *c)
{
    struct diag d;
    diag_init(&d);
    int rc = cluster_finish(c, &d);
    diag_free(&d);
    if (rc != 0) {
        cluster_free(c);
        return NULL;
    }
    return c;
}

static struct cluster *random_cluster(struct rng *r, enum cluster_kind kind, int n)
{
    struct cluster *c = cluster_new(kind);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        /* every other node a copy of the one before: equal classes */
        if (i > 0 && rng_below(r, 3) == 0 && kind == CLUSTER_NODES)
            cluster_add_node(c, name, c->nodes[i - 1].send, c->nodes[i - 1].recv);
        else
            cluster_add_node(c, name, kind == CLUSTER_GRAPH ? 0 : pick(r),
                             kind == CLUSTER_GRAPH ? 0 : pick(r));
    }
    if (kind == CLUSTER_NODES) {
        c->latency = rng_below(r, 2) ? 0 : pick(r);
    } else if (kind == CLUSTER_MATRIX) {
        c->dist = calloc((size_t)n * (size_t)n, sizeof *c->dist);
        bool figueira = lnow_matrices && rng_below(r, 2);   /* Figueira's LNOWs: no send or receive step */
        for (int q = 0; q < n; q++) {
            if (figueira)
                c->nodes[q].send = c->nodes[q].recv = 0;
            for (int p = 0; p < n; p++)
                c->dist[q * n + p] = q == p ? 0 : pick(r);
        }
    } else {
        for (int q = 0; q < n; q++)   /* a ring both ways, so that everyone is reachable */
            for (int p = 0; p < n; p++)
                if (q != p && (p == (q + 1) % n || q == (p + 1) % n || rng_below(r, 3) == 0))
                    cluster_add_edge(c, q, p, pick(r), rng_below(r, 2) ? -1 : pick(r));
    }
    c->source = (int)rng_below(r, (uint64_t)n);
    return cluster_finished(c);
}

/* Mark each node but the source a target with probability 1/2 (at least one):
 * the others may relay (a multicast).  Through the loaders' own call, by name. */
static inline void random_targets(struct rng *r, struct cluster *c)
{
    char list[128] = "";
    int first = c->source == 0 ? 1 : 0;
    for (int p = 0; p < c->n; p++)
        if (p != c->source && (p == first || rng_below(r, 2) == 0)) {
            if (list[0])
                strcat(list, ",");
            strcat(list, c->nodes[p].name);
        }
    char *cause = NULL;
    if (cluster_set_targets(c, list, &cause) < 0) {
        fprintf(stderr, "cluster_set_targets(%s): %s\n", list, cause);
        free(cause);
    }
}

#endif
